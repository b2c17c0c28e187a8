"""The five figure types of a cipher benchmark analysis, as axes-level functions.

Each function draws on one Axes (``ax=None`` means :func:`matplotlib.pyplot.gca`), returns it, and
never calls ``plt.show()``, so figures compose into subplots, notebooks and reports alike. They
draw what they are given: statistics (ratios, intervals, fits, crossovers, tests) come from
:mod:`cipherlab.stats` result frames; the only data handling here is selecting, labelling and
converting units (time per call = block size / rate). :func:`throughput` lets seaborn draw the
spread of repeated measurements (their full range by default: a description of the data, not an
inference); :func:`overhead` hands a tidy table to :func:`cipherlab.stats.small_block_overhead`.
"""

from __future__ import annotations

import functools

import math
import re
from typing import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from cipherlab.errors import AnalysisError
from cipherlab.plots._axes import (
    _decade_locator,
    column_words,
    fit_labels,
    fit_tick_labels,
    format_bytes,
    format_ratio,
    label_from_keys,
    rate_axis,
    ratio_axis,
    size_axis,
    time_axis,
)
from cipherlab.plots._palette import palette as _palette

__all__ = ["cost_model", "heatmap", "overhead", "speedup", "throughput", "transfers"]

_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">")
_DASHES = ("-", "--", ":", "-.")
#: Columns that hold results, not keys, in the stats result frames (each function's Returns
#: section in cipherlab.stats).
_RESULT_COLUMNS = frozenset({
    "candidate", "baseline", "ratio", "ci_low", "ci_high", "statistic", "p_value", "p_adjusted",
    "test", "n_candidate", "n_baseline", "significant", "expected", "margin", "p_equivalence",
    "equivalent", "differs", "n", "t0_ns", "t0_ci_low", "t0_ci_high", "c_ns_per_byte", "c_ci_low",
    "c_ci_high", "asymptotic_bytes_per_s", "clock_hz", "cycles_per_byte", "n_half_bytes",
    "r_squared", "n_sizes", "a", "b", "crossover_bytes", "t0_a_ns", "t0_b_ns", "overhead_share_a",
    "overhead_share_b", "alpha", "adjust", "metric", "by", "paired_over", "ratio_min",
    "ratio_max",
    # issue 13: unit of replication, small-sample notes, hygiene, TOST, fit checks, intervals
    "unit", "min_p", "note", "gmean_candidate", "gmean_baseline", "median_candidate",
    "median_baseline", "spread_candidate", "spread_baseline", "hygiene", "p_equivalence_adjusted",
    "tost_low", "tost_high", "lack_of_fit_p", "max_misfit", "residuals", "n_units", "n_points",
    "share_a_low", "share_a_high", "share_b_low", "share_b_high", "n_units_a", "n_units_b",
    "clock_source",
})
# Columns that vary between runs and are worth telling apart with line styles, most telling first.
# The tool comes first: ISA conditions named by different columns per tool (a capture's
# isa_off beside a harness's isa) would tell the lines apart without saying whose they are.
_STYLE_CANDIDATES = ("tool", "isa_off", "aesni", "tier", "isa", "operation", "machine", "host",
                     "label", "source", "run", "repeat_group")
# Of those, the ones that say what was measured (never a mere numbering of repeats): encrypt
# and decrypt of one cipher are two lines, or a file per operation and repeat (as
# capture_python writes) looks like a file per line.
_MEASURED = frozenset({"isa_off", "aesni", "tier", "isa", "tool", "operation"})


def _gca(ax):
    """``ax``, or the Axes of a fresh figure: two plot calls never draw into one another."""
    if ax is None:
        import matplotlib.pyplot as plt
        _, ax = plt.subplots(layout="constrained")
    return ax


def _need(frame: pd.DataFrame, columns: Iterable[str], what: str) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"`{what}` must be a pandas DataFrame; not {type(frame).__name__}")
    missing = [c for c in columns if c is not None and c not in frame.columns]
    if missing:
        raise AnalysisError(f"`{what}` lacks column(s) {missing}; it has {list(frame.columns)}")


def _plain(s: pd.Series) -> pd.Series:
    """Categoricals to plain strings: seaborn would otherwise list unused categories in legends."""
    return s.astype("object").where(s.notna(), "n/a").map(str)


def _key_columns(frame: pd.DataFrame, exclude: Iterable[str] = ()) -> list[str]:
    ex = set(exclude)
    return [c for c in frame.columns if c not in _RESULT_COLUMNS and c not in ex]


def _series(frame: pd.DataFrame, keys: Sequence[str], hue: str | None):
    """Split result rows into drawable series: one per distinct key combination.

    Yields ``(label, hue_value, rows, style_index, other)``; the style index numbers the
    distinct non-hue parts (``other``, a label of its own) so that, e.g., two runs of one
    algorithm share a colour but not a marker.
    """
    keys = [k for k in keys if k in frame.columns]
    # an operation implied by the algorithm (encrypt for ciphers, digest for hashes) adds no
    # information to a label
    if {"algorithm", "operation"} <= set(keys) and frame.groupby(
            frame["algorithm"].astype("object"))["operation"].nunique().max() <= 1:
        keys = [k for k in keys if k != "operation"]
    if not keys:
        yield "(all)", None, frame, 0, ""
        return
    groups = frame.groupby(keys, observed=True, dropna=False, sort=False)
    firsts = groups.head(1).reset_index(drop=True)
    labels = label_from_keys(firsts, keys)
    others = [k for k in keys if k != hue]
    other_labels = label_from_keys(firsts, others) if others else ["" for _ in labels]
    style_of = {lab: i for i, lab in enumerate(dict.fromkeys(other_labels))}
    for (_, rows), label, other in zip(groups, labels, other_labels):
        hue_value = rows[hue].iloc[0] if hue in rows.columns else None
        yield label, hue_value, rows, style_of[other], other


_LEGEND_CHARS = 60


def _legend(ax, handles=None, *, outside: bool | None = None, titles=()) -> None:
    """A small-font legend: inside the axes when short, below them when long (never beside them,
    where it would take the width of a single-column figure).

    Below means a figure legend under the axes (constrained layout makes room for it) when the
    Axes is alone on a constrained-layout figure, else a legend under the x label of the Axes.
    ``titles`` are the labels of section titles (seaborn's hue and style names): below the axes
    each section gets a column of its own where they fit side by side, never a column that
    starts in the middle of one section and ends in the next.
    """
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    else:
        labels = [h.get_label() for h in handles]
    if not handles:
        return
    # a label longer than a column is cut: the caption or the table names the series in full
    labels = [lab if len(str(lab)) <= _LEGEND_CHARS else str(lab)[:_LEGEND_CHARS - 1] + "…"
              for lab in labels]
    titles = {lab: _title(lab) for lab in titles}  # a column's name, in words
    labels = [titles.get(lab, lab) for lab in labels]
    if outside is None:  # (a label half as wide as the axes leaves no room inside: below)
        outside = len(handles) > 3 or _widest(labels, ax) > 0.45 * ax.get_position().width * \
            ax.figure.get_figwidth() * 72
    if not outside:
        ax.legend(handles, labels, fontsize="small", loc="best")
        return
    if ax.get_legend() is not None:  # seaborn's own, replaced by this one
        ax.get_legend().remove()
    fig = ax.figure
    fontsize = "small" if fig.get_figwidth() > 4 else "x-small"
    engine = fig.get_layout_engine()
    alone = len(fig.axes) == 1 and engine is not None and "Constrained" in type(engine).__name__
    # a figure legend may take the figure's width; a legend under one of several panels side by
    # side only its panel's (with the figure's, the neighbours' legends overlapped)
    room = fig.get_figwidth() * 72 * (1.0 if alone else _column_share(ax))
    ncols = _legend_columns([str(lab) for lab in labels], room, fontsize)
    sections = _sections(handles, labels, set(titles.values()))
    plain_rows = -(-len(labels) // ncols)  # (a section per column may cost one row, not more)
    if 1 < len(sections) and max(map(len, sections)) <= plain_rows + 1 and _legend_columns(
            [max(map(str, (lab for _, lab in sec)), key=len) for sec in sections],
            room, fontsize) >= len(sections):
        rows = max(len(sec) for sec in sections)
        from matplotlib.lines import Line2D

        blank = Line2D([], [], linestyle="none", marker="")
        handles = [h for sec in sections for h, _ in sec + [(blank, "")] * (rows - len(sec))]
        labels = [lab for sec in sections for _, lab in sec + [(blank, "")] * (rows - len(sec))]
        ncols = len(sections)
    kw = dict(fontsize=fontsize, ncols=ncols, frameon=False, handlelength=1.8,
              columnspacing=1.0, borderaxespad=0.2)
    if alone:
        fig.legend(handles, labels, loc="outside lower center", **kw)
    else:  # several axes: each keeps its legend under its own x label
        ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.22), **kw)


def _column_share(ax) -> float:
    """The share of the figure's width that one column of its panels has (1 for one column)."""
    spec = ax.get_subplotspec()
    if spec is None:
        return 1.0
    return len(spec.colspan) / spec.get_gridspec().ncols


def _widest(labels, ax) -> float:
    """The widest legend label in points, at the font size of a legend inside the axes."""
    from matplotlib.font_manager import FontProperties

    font = FontProperties(size="small")
    return max(_label_width(str(lab), font.get_size_in_points(), tuple(font.get_family()))
               for lab in labels)


def _title(column: str) -> str:
    """A legend section's title from its column name: ``isa_off`` -> ``ISA off``; columns joined
    into one style (``isa_off · aesni · isa``) -> ``ISA``, each named once."""
    parts = str(column).split(" · ")
    if len(parts) > 1:
        return column_words(parts)
    return re.sub(r"\bisa\b", "ISA", str(column).replace("_", " "))


def _sections(handles, labels, titles) -> list[list[tuple]]:
    """The legend's entries cut where a section title begins (one section without titles)."""
    out: list[list[tuple]] = []
    for h, lab in zip(handles, labels, strict=True):
        if not out or lab in titles:
            out.append([])
        out[-1].append((h, lab))
    return out


@functools.lru_cache(maxsize=4096)
def _label_width(label: str, size: float, family: tuple) -> float:
    """A legend label's width in points (kept: the explorers redraw the same labels each time)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    font = FontProperties(size=size, family=list(family))
    # glyph outlines, plus 10 %: the laid-out text is a little wider (side bearings, hinting)
    return 1.1 * TextPath((0, 0), label or " ", prop=font).get_extents().width


def _legend_columns(labels: list[str], width_pt: float, fontsize) -> int:
    """The most columns whose widest labels (matplotlib fills column by column) fit the width,
    measured with the font's own metrics."""
    from matplotlib.font_manager import FontProperties

    font = FontProperties(size=fontsize)
    size = font.get_size_in_points()
    widths = [_label_width(lab, size, tuple(font.get_family())) for lab in labels]
    for ncols in range(len(labels), 1, -1):
        # as matplotlib splits entries: the first len % ncols columns hold one more
        columns = np.array_split(np.array(widths), ncols)
        # label, handle (1.8 em), pad (0.8 em) and gap (1.0 em) per column, in points
        need = sum(c.max() + 3.6 * size for c in columns if len(c)) + 2 * size
        if need <= width_pt:
            return ncols
    return 1


def _colors(values: Iterable[object], palette: Mapping[str, str] | None) -> dict[str, str]:
    return _palette([v for v in values if v is not None], base=palette)


def _splitting_columns(d: pd.DataFrame, fixed: list[str]) -> list[str]:
    """The fewest style columns that leave only repeats of one measurement pooled in a line.

    A line pools the rows that share the ``fixed`` columns and the columns chosen so far. A
    candidate is chosen when it takes several values among such rows, unless it merely numbers
    their repeats: a run (or file, label) per repeat, each of its values holding one numbered
    ``repeat`` and no two values the same one. What was measured (``isa_off``, ``aesni``, ``tier``,
    ``isa``, the ``operation``, the ``tool``) never numbers repeats, and rows without a repeat
    number are repeats of nothing: openssl rows (no repeat) and ``cryptography`` rows (repeats
    0-4) of one algorithm, block size and condition are two lines, not one line with a band.
    Columns implied by the chosen ones (a label naming the condition, a run number) are skipped.
    """
    chosen: list[str] = []
    # repeat numbers as codes (NaN: none), whatever their dtype (ints, categories, NA)
    repeat = (pd.Series(pd.factorize(d["repeat"].astype("object"))[0], dtype=float).where(
        lambda r: r >= 0) if "repeat" in d.columns else None)
    for c in _STYLE_CANDIDATES:
        if c not in d.columns or c in fixed:
            continue
        keys = [_plain(d[k]) for k in fixed + chosen]
        t = pd.DataFrame({"line": d.groupby(keys, sort=False).ngroup().to_numpy(),
                          "value": d[c].astype("object").to_numpy(),
                          "repeat": np.nan if repeat is None else repeat.to_numpy()})
        t = t[t["value"].notna()]
        n_values = t.groupby("line")["value"].nunique()
        pooled = n_values[n_values > 1]
        if pooled.empty:
            continue
        t = t[t["line"].isin(pooled.index)]
        if c in _MEASURED or t["repeat"].isna().any():
            chosen.append(c)
            continue
        pairs = t.drop_duplicates(["line", "value", "repeat"]).groupby("line")
        # one-to-one between the values and the repeat numbers of each line: c numbers repeats
        if not ((pairs.size() == pooled) & (pairs["repeat"].nunique() == pooled)).all():
            chosen.append(c)
    return chosen


def throughput(df: pd.DataFrame, *, x: str = "block_bytes", y: str = "bytes_per_s",
               hue: str | None = "algorithm", style: str | None = "auto",
               palette: Mapping[str, str] | None = None, errorbar=("pi", 100),
               estimator: str = "median", legend: bool = True, ax=None, **kwargs):
    """Throughput against block size on log-log axes, one line per algorithm (and run/condition).

    Parameters
    ----------
    df
        A tidy table (rows without a rate, such as public-key rows, are left out).
    x, y
        Columns for block size in bytes and throughput in bytes per second.
    hue
        Column coloured by :func:`cipherlab.plots.palette` (consistent colours per algorithm).
    style
        Column told apart by markers and dashes. ``"auto"`` picks the columns among ``isa_off``,
        ``aesni``, ``tier``, ``isa``, ``operation``, ``tool``, ``label``, ``source``, ``run``
        whose values differ within one hue level and block size (joined when several do), so
        that a line pools only the
        numbered repeats of one measurement: different tools, conditions or runs are never one
        line, while a run per repeat (as :func:`cipherlab.capture` makes) is one line with its
        band. ``None`` pools everything.
    palette
        Colours to use for hue levels (others get theirs from :func:`~cipherlab.plots.palette`).
    errorbar
        Passed to :func:`seaborn.lineplot`. With repeated measurements (several rows per point)
        the line is their ``estimator`` and the band their full range (``("pi", 100)``). Pass
        ``None`` for no band.
    estimator
        How repeats are summarised into the line (``"median"`` by default, robust to one slow run).
    legend
        Draw a legend.
    ax
        Axes to draw on (default: the current Axes).
    **kwargs
        Passed to :func:`seaborn.lineplot`.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from matplotlib.figure import Figure
    >>> from cipherlab.model import Run, to_frame
    >>> df = to_frame([Run({"label": "demo"}, [
    ...     {"algorithm": "aes-128-gcm", "operation": "encrypt", "block_bytes": n, "bytes_per_s": r}
    ...     for n, r in [(16, 2.0e7), (1024, 8.4e8), (16384, 4.0e9)]])], source="<text>")
    >>> ax = throughput(df, ax=Figure().add_subplot())
    >>> ax.get_ylabel(), ax.get_yscale()
    ('Throughput', 'log')
    """
    import seaborn as sns

    _need(df, [x, y, hue] + ([style] if style not in (None, "auto") else []), "df")
    ax = _gca(ax)
    d = df[df[y].notna() & df[x].notna()].copy()
    d = d[(d[y] > 0) & (d[x] > 0)]
    if d.empty:
        raise AnalysisError(f"`df` has no rows with a positive {x!r} and {y!r} to plot")
    d[x] = d[x].astype(float)
    if style == "auto":
        varying = _splitting_columns(d, [hue, x] if hue else [x])
        if len(varying) > 1:
            name = " · ".join(varying)
            d[name] = label_from_keys(d[varying], varying)
            style = name
        else:
            style = varying[0] if varying else None
    if hue:
        d[hue] = _plain(d[hue])
    if style:
        d[style] = (label_from_keys(d[[style]], [style])  # a file name, an ISA side's name
                    if style in ("source", "isa_off", "aesni") else _plain(d[style]))
    hue_order = list(dict.fromkeys(d[hue])) if hue else None
    if style:
        kwargs.setdefault("markers", True)
        kwargs.setdefault("dashes", True)
    else:
        kwargs.setdefault("marker", "o")
    sns.lineplot(data=d, x=x, y=y, hue=hue, style=style, hue_order=hue_order,
                 palette=_colors(hue_order, palette) if hue else None, errorbar=errorbar,
                 estimator=estimator, legend=legend, ax=ax, **kwargs)
    size_axis(ax, "x", d[x])
    if y.startswith("bytes_per_s"):
        rate_axis(ax, "y", d[y])
        ax.set_ylabel("Throughput" if y == "bytes_per_s" else y.replace("_", " "))
    else:  # ops_per_s, cycles per byte, ...: log scale, the column name as the label
        ax.set_yscale("log")
        ax.set_ylabel(y.replace("_", " "))
    ax.set_xlabel("Block size (bytes)")
    if legend and ax.get_legend() is not None:
        _legend(ax, titles={hue, style} - {None})
    fit_labels(ax)
    return ax


def _significance_column(result: pd.DataFrame, significance: str | None) -> str | None:
    if significance == "auto":
        for c in ("significant", "differs"):
            if c in result.columns:
                return c
        return None
    if significance is not None:
        _need(result, [significance], "result")
    return significance


def speedup(result: pd.DataFrame, *, expected: float | None = 2.0, x: str = "block_bytes",
            hue: str | None = "algorithm", significance: str | None = "auto",
            palette: Mapping[str, str] | None = None, log: bool | None = None,
            ylabel: str = "Speed-up", legend: bool = True, expected_label: str = "claimed",
            ax=None):
    """Ratios with their confidence intervals by block size, against a claimed value.

    Draws the ``ratio`` column of :func:`cipherlab.stats.speedup`, :func:`~cipherlab.stats.compare`
    or :func:`~cipherlab.stats.ratio_test` results with ``ci_low``-``ci_high`` error bars (when
    present), one line per series of group keys, a dashed reference line at ``expected`` and a
    dotted one at 1× (no change). Filled markers are significant results, hollow ones are not.

    Parameters
    ----------
    result
        A stats result frame with ``ratio`` and ``x``.
    expected
        The claimed ratio to draw a reference line at (``None`` for none). When the frame has a
        ``margin`` column (a :func:`~cipherlab.stats.ratio_test` result), the equivalence region
        ``expected × (1 ± margin)`` is shaded.
    expected_label
        What the dashed line is, in its legend entry (``"claimed 2×"``; e.g. "the seed's ratio").
    x
        Block-size column (log-2 axis). When the result has no such column (a test across block
        sizes, ``paired=True``), each row is one point on a categorical axis: a forest plot.
    hue
        Key column that sets the colour (other varying keys set the marker and dashes).
    significance
        Boolean column marking significant results; ``"auto"`` uses ``significant`` (compare,
        speedup: the ratio differs from 1) or else ``differs`` (ratio_test: it differs from
        ``expected``); ``None`` marks nothing.
    palette, legend, ax
        As in :func:`throughput`.
    log
        Log ratio axis; ``None`` chooses it when the ratios span more than a factor of 4.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import pandas as pd
    >>> from matplotlib.figure import Figure
    >>> res = pd.DataFrame({"algorithm": ["aes-128-cbc"] * 2, "block_bytes": [16, 8192],
    ...                     "ratio": [2.08, 1.94], "ci_low": [2.0, 1.9], "ci_high": [2.1, 2.0],
    ...                     "significant": [True, True]})
    >>> ax = speedup(res, ax=Figure().add_subplot())
    >>> [t.get_text() for t in ax.get_legend().get_texts()][:2]
    ['aes-128-cbc', 'claimed 2×']
    """
    from matplotlib.lines import Line2D

    _need(result, ["ratio"], "result")
    ax = _gca(ax)
    sig = _significance_column(result, significance)
    by_size = x is not None and x in result.columns
    d = result[result["ratio"].notna() & (result[x].notna() if by_size else True)].copy()
    if d.empty:
        raise AnalysisError("`result` has no finite ratios to plot")
    if by_size:
        d[x] = d[x].astype(float)
    keys = _key_columns(d, exclude=[x] if by_size else [])
    # several candidates against one baseline (machines, tiers): each candidate is a series
    keys += [c for c in ("candidate", "baseline") if c in d.columns
             and d[c].astype("object").nunique() > 1]
    series = list(_series(d, keys, hue))
    colors = _colors([str(h) for _, h, _, _, _ in series if h is not None], palette)
    fallback = _colors([lab for lab, _, _, _, _ in series], None)
    n = len(series)
    handles, tick_labels = [], []
    # categorical mode: one tick per hue level (or per series without a hue), the series of a
    # level side by side, told apart by marker (legend) rather than by a crowded tick label
    by_hue = hue is not None and hue in d.columns and any(h is not None for _, h, _, _, _ in series)
    cats = list(dict.fromkeys((str(h) if by_hue else lab) for lab, h, _, _, _ in series))
    n_styles = max(si for _, _, _, si, _ in series) + 1
    style_handles: dict[int, object] = {}
    hue_handles: dict[str, object] = {}
    for i, (label, hue_value, rows, style_index, other) in enumerate(series):
        colour = colors.get(str(hue_value)) if hue_value is not None else fallback[label]
        if by_size:
            rows = rows.sort_values(x)
            # dodge: spread overlapping series over ±0.12 of a doubling so their bars stay readable
            shift = 2.0 ** (0.24 * (i - (n - 1) / 2) / max(n - 1, 1)) if n > 1 else 1.0
            xs = rows[x].to_numpy(float) * shift
        else:  # one point per series (e.g. a ratio tested across block sizes): a forest plot
            cat = cats.index(str(hue_value) if by_hue else label)
            offset = 0.22 * (style_index - (n_styles - 1) / 2) if by_hue else 0.0
            xs = np.arange(len(rows), dtype=float) * 0.1 + cat + offset
            if by_hue and n_styles > 1 and style_index not in style_handles:
                style_handles[style_index] = Line2D(
                    [], [], color="0.3", marker=_MARKERS[style_index % len(_MARKERS)],
                    linestyle="none", label=other)
        ys = rows["ratio"].to_numpy(float)
        marker = _MARKERS[style_index % len(_MARKERS)]
        dash = _DASHES[style_index % len(_DASHES)]
        if {"ci_low", "ci_high"} <= set(rows.columns):
            lo = ys - rows["ci_low"].to_numpy(float)
            hi = rows["ci_high"].to_numpy(float) - ys
            ok = np.isfinite(lo) & np.isfinite(hi)
            if ok.any():
                ax.errorbar(xs[ok], ys[ok], yerr=np.vstack([np.clip(lo[ok], 0, None),
                                                            np.clip(hi[ok], 0, None)]),
                            fmt="none", ecolor=colour, elinewidth=1.0, capsize=2, zorder=2)
        if by_size:
            ax.plot(xs, ys, color=colour, linestyle=dash, linewidth=1.0, zorder=2)
        filled = (rows[sig].fillna(False).astype(bool).to_numpy() if sig
                  else np.ones(len(rows), bool))
        # markers as Line2D (not scatter): a figure has dozens of them and a PathCollection costs
        # several times more to build and draw (the widgets redraw these on every change)
        for which, face in ((filled, colour), (~filled, "white")):
            if which.any():
                ax.plot(xs[which], ys[which], linestyle="none", marker=marker, markersize=4.7,
                        markerfacecolor=face, markeredgecolor=colour, markeredgewidth=1.0,
                        zorder=3)
        if by_size:
            handles.append(Line2D([], [], color=colour, linestyle=dash, marker=marker, label=label))
            hue_handles.setdefault(str(hue_value), Line2D([], [], color=colour, label=str(hue_value)))
            style_handles.setdefault(style_index, Line2D(
                [], [], color="0.3", linestyle=dash, marker=marker, label=other))
    if by_size and by_hue and n_styles > 1 and len(hue_handles) + len(style_handles) < n:
        # a legend in two parts: colour = hue, line and marker = the rest (not every pair)
        handles = list(hue_handles.values()) + [style_handles[k] for k in sorted(style_handles)]
    if not by_size:
        tick_labels = list(enumerate(cats))
        handles = [style_handles[k] for k in sorted(style_handles)] + handles
    if expected is not None:
        ax.axhline(expected, color="0.25", linestyle="--", linewidth=0.9, zorder=1)
        handles.append(Line2D([], [], color="0.25", linestyle="--",
                              label=f"{expected_label} {format_ratio(expected)}"))
        if "margin" in d.columns and d["margin"].notna().any():
            m = float(d["margin"].dropna().iloc[0])
            ax.axhspan(expected * (1 - m), expected * (1 + m), color="0.85", zorder=0, linewidth=0)
            handles.append(Line2D([], [], color="0.85", linewidth=6,
                                  label=f"{format_ratio(expected)} ± {m:.0%} (equivalence)"))
    ax.axhline(1.0, color="0.55", linestyle=":", linewidth=0.8, zorder=1)
    if sig:
        what = "differs from 1×" if sig == "significant" else (
            f"differs from {format_ratio(expected)}" if expected is not None else sig)
        handles.append(Line2D([], [], color="0.3", marker="o", linestyle="none",
                              label=f"filled: {what}"))
        untested = "test" in d.columns and d["test"].astype("object").eq("no replication").any()
        handles.append(Line2D([], [], color="0.3", marker="o", markerfacecolor="white",
                              linestyle="none", label="hollow: not significant" +
                              (" or one run per side" if untested else "")))
    values = list(d["ratio"]) + [expected or 1.0, 1.0]
    for c in ("ci_low", "ci_high"):
        if c in d.columns:
            values += list(d[c].dropna())
    ratio_axis(ax, "y", values, log=log)
    if by_size:
        size_axis(ax, "x", d[x])
        ax.set_xlabel("Block size (bytes)")
    else:
        ax.set_xticks([i for i, _ in tick_labels], [lab for _, lab in tick_labels])
        ax.set_xlim(-0.6, len(tick_labels) - 0.4)
        fit_tick_labels(ax, "x")
        ax.grid(False, axis="x")
    ax.set_ylabel(ylabel)
    if legend:
        _legend(ax, handles, outside=len(handles) > 3)
    fit_labels(ax)
    return ax


def _as_crossover(crossover) -> list[tuple[float, float, float, str]]:
    """(bytes, ci_low, ci_high, label) for each finite crossover given as a frame or number."""
    if crossover is None:
        return []
    if isinstance(crossover, pd.DataFrame):
        _need(crossover, ["crossover_bytes"], "crossover")
        out = []
        for _, row in crossover.iterrows():
            v = float(row["crossover_bytes"])
            if not math.isfinite(v) or v <= 0:
                continue
            lo = float(row["ci_low"]) if "ci_low" in row and pd.notna(row["ci_low"]) else math.nan
            hi = float(row["ci_high"]) if "ci_high" in row and pd.notna(row["ci_high"]) else math.nan
            pair = f"{row['a']} = {row['b']}" if {"a", "b"} <= set(row.index) else "crossover"
            out.append((v, lo, hi, f"{pair} at {format_bytes(v)}"))
        return out
    v = float(crossover)
    return [(v, math.nan, math.nan, f"crossover at {format_bytes(v)}")] if math.isfinite(v) else []


def cost_model(fit: pd.DataFrame, df: pd.DataFrame, *, crossover=None, x: str = "block_bytes",
               y: str = "bytes_per_s", hue: str | None = "algorithm",
               palette: Mapping[str, str] | None = None, band: bool = True,
               legend: bool = True, ax=None):
    """Measured time per call against block size, with the fitted ``t0 + c·n`` line and band.

    Parameters
    ----------
    fit
        A :func:`cipherlab.stats.cost_model` result: group keys plus ``t0_ns``, ``c_ns_per_byte``
        and their ``*_ci_low``/``*_ci_high`` bounds.
    df
        The tidy table the fit came from. Its rows are matched to each fit row on the key columns
        both frames share; time per call is ``block_bytes / bytes_per_s``.
    crossover
        A :func:`cipherlab.stats.crossover` result (``crossover_bytes``, ``ci_low``, ``ci_high``,
        ``a``, ``b``) or a number of bytes: drawn as a vertical line with its interval shaded.
    band
        Shade between the lines drawn from the lower and from the upper interval bounds of both
        parameters: a conservative envelope of the fit's uncertainty.
    x, y, hue, palette, legend, ax
        As in :func:`throughput`.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import pandas as pd
    >>> from matplotlib.figure import Figure
    >>> from cipherlab.model import Run, to_frame
    >>> df = to_frame([Run({"label": "demo"}, [
    ...     {"algorithm": "aes-128-gcm", "operation": "encrypt", "block_bytes": n,
    ...      "bytes_per_s": n / ((100 + 0.25 * n) * 1e-9)} for n in (16, 256, 16384)])], source="<text>")
    >>> fit = pd.DataFrame({"algorithm": ["aes-128-gcm"], "operation": ["encrypt"],
    ...                     "t0_ns": [100.0], "t0_ci_low": [95.0], "t0_ci_high": [105.0],
    ...                     "c_ns_per_byte": [0.25], "c_ci_low": [0.24], "c_ci_high": [0.26]})
    >>> ax = cost_model(fit, df, crossover=1200, ax=Figure().add_subplot())
    >>> ax.get_ylabel()
    'Time per call'
    """
    _need(fit, ["t0_ns", "c_ns_per_byte"], "fit")
    _need(df, [x, y], "df")
    ax = _gca(ax)
    data = df[df[y].notna() & df[x].notna() & (df[y] > 0)]
    keys = [k for k in _key_columns(fit, exclude=[x]) if k in data.columns]
    series = list(_series(fit.reset_index(drop=True), keys, hue))
    colors = _colors([str(h) for _, h, _, _, _ in series if h is not None], palette)
    fallback = _colors([lab for lab, _, _, _, _ in series], None)
    all_n, all_t = [], []
    for label, hue_value, rows, style_index, _ in series:
        colour = colors.get(str(hue_value)) if hue_value is not None else fallback[label]
        marker = _MARKERS[style_index % len(_MARKERS)]
        dash = _DASHES[style_index % len(_DASHES)]
        row = rows.iloc[0]
        mask = pd.Series(True, index=data.index)
        for k in keys:
            v = row[k]
            mask &= data[k].isna() if pd.isna(v) else (data[k].astype("object") == v)
        pts = data[mask]
        n_meas = pts[x].to_numpy(float)
        t_meas = n_meas / pts[y].to_numpy(float)
        ax.scatter(n_meas, t_meas, color=colour, marker=marker, s=16, zorder=3, label=label)
        lo_n = min(n_meas.min() if n_meas.size else 16.0, 16.0) / 1.5
        hi_n = max(n_meas.max() if n_meas.size else 16384.0, 16.0) * 1.5
        grid = np.geomspace(lo_n, hi_n, 200)
        line = (float(row["t0_ns"]) + float(row["c_ns_per_byte"]) * grid) * 1e-9
        ax.plot(grid, line, color=colour, linestyle=dash, linewidth=1.0, zorder=2)
        bounds = ("t0_ci_low", "t0_ci_high", "c_ci_low", "c_ci_high")
        if band and set(bounds) <= set(row.index) and all(pd.notna(row[b]) for b in bounds):
            low = (float(row["t0_ci_low"]) + float(row["c_ci_low"]) * grid) * 1e-9
            high = (float(row["t0_ci_high"]) + float(row["c_ci_high"]) * grid) * 1e-9
            ax.fill_between(grid, np.clip(low, line * 1e-3, None), high, color=colour, alpha=0.18,
                            linewidth=0, zorder=1)
        all_n += list(n_meas) + [lo_n, hi_n]
        all_t += list(t_meas) + list(line)
    crossings = _as_crossover(crossover)
    for v, lo, hi, text in crossings:
        ax.axvline(v, color="0.2", linestyle="--", linewidth=0.9, zorder=1, label=text)
        if math.isfinite(lo) and math.isfinite(hi) and hi > lo:
            ax.axvspan(max(lo, 1e-3), hi, color="0.5", alpha=0.15, linewidth=0, zorder=0)
    size_axis(ax, "x", [n for n in sorted(set(data[x].astype(float)))])
    ax.set_xlim(min(all_n or [8.0]), max(all_n or [32768.0]))
    time_axis(ax, "y", all_t)
    ax.set_xlabel("Block size (bytes)")
    ax.set_ylabel("Time per call")
    if legend:  # (below the axes when a crossing is drawn: inside, it sat on the dashed line)
        _legend(ax, outside=True if len(crossings) else None)
    fit_labels(ax)
    return ax


def overhead(data: pd.DataFrame, *, a: str = "aes-128-gcm", b: str = "aes-128-cbc",
             x: str = "block_bytes", palette: Mapping[str, str] | None = None,
             legend: bool = True, ax=None, **stats_kwargs):
    """The throughput ratio of two algorithms by block size (small-block GCM vs CBC by default).

    Parameters
    ----------
    data
        A :func:`cipherlab.stats.small_block_overhead` result (it has ``ratio``), or a tidy table,
        which is handed to that function with ``a``, ``b`` and ``stats_kwargs`` first.
    a, b
        The two algorithms (for the labels, and for the computation when ``data`` is a tidy table).
    x, palette, legend, ax
        As in :func:`throughput`; one line per run (group keys of the result).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import pandas as pd
    >>> from matplotlib.figure import Figure
    >>> res = pd.DataFrame({"label": ["host-b"] * 3, "block_bytes": [16, 1024, 16384],
    ...                     "ratio": [0.5, 1.4, 2.2]})
    >>> overhead(res, ax=Figure().add_subplot()).get_ylabel()
    'aes-128-gcm / aes-128-cbc'
    """
    if isinstance(data, pd.DataFrame) and "ratio" not in data.columns:
        from cipherlab import stats
        data = stats.small_block_overhead(data, a=a, b=b, **stats_kwargs)
    _need(data, ["ratio", x], "data")
    ax = _gca(ax)
    d = data[data["ratio"].notna() & data[x].notna()].copy()
    if d.empty:
        raise AnalysisError(f"no finite {a}/{b} ratios to plot")
    d[x] = d[x].astype(float)
    keys = [k for k in _key_columns(d, exclude=[x]) if k not in ("algorithm",)]
    series = list(_series(d, keys, None))
    colors = _colors([lab for lab, _, _, _, _ in series], palette)
    for i, (label, _, rows, _, _) in enumerate(series):
        rows = rows.sort_values(x)
        ax.plot(rows[x], rows["ratio"], color=colors[label], marker=_MARKERS[i % len(_MARKERS)],
                linestyle=_DASHES[(i // len(_MARKERS)) % len(_DASHES)], label=label)
    ax.axhline(1.0, color="0.25", linestyle="--", linewidth=0.9, label=f"{a} = {b}")
    size_axis(ax, "x", d[x])
    ratio_axis(ax, "y", list(d["ratio"]) + [1.0])
    ax.set_xlabel("Block size (bytes)")
    ax.set_ylabel(f"{a} / {b}")
    if legend:
        _legend(ax)
    fit_labels(ax)
    return ax


def heatmap(df: pd.DataFrame, *, rows: str | Sequence[str] = "label", columns: str = "algorithm",
            block_bytes: int | None = 8192, value: str = "bytes_per_s", aggfunc: str = "median",
            cmap: str = "cividis", log: bool = True, annot: bool = True,
            colorbar: bool = True, implausible="auto", ax=None, **kwargs):
    """Machines or tiers × algorithms at one block size, each cell annotated with its rate.

    A cipher's decrypt cells are a column of their own (``aes-128-cbc decrypt``), beside its
    encrypt cells: one cell never summarises two operations.

    Cells that cannot be right (beyond the physical limit of the hardware,
    :func:`cipherlab.stats.lint`) are hatched, keep their number with a ``!`` and stay out of
    the colour scale: one impossible kernel figure would otherwise be the brightest cell and
    flatten every other colour.

    Parameters
    ----------
    df
        A tidy table.
    rows
        Column(s) for the rows; several are joined into one label (``["label", "tier"]``).
        Rows and columns keep their order of first appearance in ``df``.
    columns
        Column for the columns.
    block_bytes
        The block size to show (``None`` when ``df`` has one size only).
    value
        The rate column (bytes per second).
    aggfunc
        How repeated cells (several rows for one row × column) are summarised.
    cmap
        A perceptually uniform, colour-blind-safe colour map (``cividis`` by default).
    log
        Logarithmic colour scale: tiers differ by orders of magnitude.
    annot, colorbar, ax
        Cell annotations in MB/s / GB/s (left out where the cells are too small to hold them
        at the figure's size); a colour bar; the Axes.
    implausible
        ``"auto"``: mark the cells :func:`cipherlab.stats.lint` finds; a frame of findings
        (``source``, ``line``, ``algorithm``) to mark those; ``None``: mark nothing.
    **kwargs
        Passed to :func:`seaborn.heatmap`.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from cipherlab.model import Run, to_frame
    >>> df = to_frame([Run({"label": m}, [
    ...     {"algorithm": a, "operation": "encrypt", "block_bytes": 8192, "bytes_per_s": r * k}
    ...     for a, r in [("aes-128-cbc", 3e7), ("sha256", 1.6e7)]]) for m, k in [("L", 1), ("N", 0.5)]],
    ...     source="<text>")
    >>> ax = heatmap(df, ax=Figure().add_subplot())
    >>> [t.get_text() for t in ax.texts]
    ['30 MB/s', '16 MB/s', '15 MB/s', '8 MB/s']
    """
    import seaborn as sns
    from matplotlib import ticker
    from matplotlib.colors import LogNorm, Normalize

    from cipherlab.plots._axes import format_rate, rate_scale

    row_cols = [rows] if isinstance(rows, str) else list(rows)
    _need(df, row_cols + [columns, value, "block_bytes"], "df")
    ax = _gca(ax)
    d = df[df[value].notna()]
    if block_bytes is not None:
        d = d[d["block_bytes"] == block_bytes]
        if d.empty:
            sizes = sorted(int(s) for s in df["block_bytes"].dropna().unique())
            raise AnalysisError(f"`block_bytes` must be one of the sizes in `df` {sizes}; "
                                f"not {block_bytes!r}")
    elif d["block_bytes"].nunique() > 1:
        sizes = sorted(int(s) for s in d["block_bytes"].dropna().unique())
        raise AnalysisError(f"`df` holds several block sizes {sizes}: choose one with `block_bytes`")
    d = d.copy()
    row_name = " · ".join(row_cols)
    d[row_name] = label_from_keys(d[row_cols], row_cols) if len(row_cols) > 1 else _plain(d[row_cols[0]])
    col_name = f"{columns} · operation"
    d[col_name] = _plain(d[columns])
    if "operation" in d.columns:  # (a cipher's encrypt and decrypt: two columns, never one median)
        decrypt = d["operation"].astype("object").eq("decrypt").to_numpy()
        d.loc[decrypt, col_name] = d.loc[decrypt, col_name].astype(str) + " decrypt"
    table = d.pivot_table(index=row_name, columns=col_name, values=value, aggfunc=aggfunc,
                          observed=True, sort=False)
    table = table.reindex(index=list(dict.fromkeys(d[row_name])),
                          columns=list(dict.fromkeys(d[col_name])))
    bad = _implausible_cells(d, implausible, row_name, col_name, table)
    vals = table.to_numpy(float)
    finite = vals[np.isfinite(vals) & (vals > 0) & ~bad]
    norm = (LogNorm(finite.min(), finite.max()) if log and finite.size and finite.max() > finite.min()
            else Normalize(finite.min() if finite.size else 0, finite.max() if finite.size else 1))
    title_unit = ""
    full = np.vectorize(lambda v: format_rate(v) if np.isfinite(v) else "")(vals)
    if annot and finite.size and vals.shape[1] > 8:
        # many narrow cells: numbers in one unit (named in the title) instead of a unit per cell
        scale, title_unit = rate_scale(finite)
        labels = np.vectorize(lambda v: f"{v / scale:.3g}" if np.isfinite(v) else "")(vals)
    else:
        labels = full if annot else False
    if labels is not False:
        labels = np.where(bad, np.char.add(labels.astype(str), "!"), labels)
    sns.heatmap(table, ax=ax, cmap=cmap, norm=norm, annot=labels, fmt="", linewidths=0.5,
                linecolor="white", cbar=colorbar, annot_kws={"fontsize": "x-small"},
                mask=bad if bad.any() else None, **kwargs)
    if bad.any():
        from matplotlib.patches import Rectangle

        for i, j in zip(*np.nonzero(bad)):
            ax.add_patch(Rectangle((j, i), 1, 1, fill=False, hatch="////", edgecolor="0.55",
                                   linewidth=0))
            if labels is not False:
                ax.text(j + 0.5, i + 0.5, labels[i, j], ha="center", va="center",
                        fontsize="x-small", color="0.15")
    if colorbar and ax.collections and ax.collections[0].colorbar is not None:
        cbar_axis = ax.collections[0].colorbar.ax.yaxis
        if isinstance(norm, LogNorm):
            cbar_axis.set_major_locator(_decade_locator(finite))
        cbar_axis.set_major_formatter(ticker.FuncFormatter(lambda v, _p: format_rate(v)))
        cbar_axis.set_minor_formatter(ticker.NullFormatter())
    ax.set_xlabel("")
    ax.set_ylabel("")
    fit_tick_labels(ax, "x")
    fit_tick_labels(ax, "y")
    if labels is not False and not _annotations_fit(ax):
        for t in list(ax.texts):  # cells too small for their numbers: the colour bar tells
            t.remove()
        title_unit = ""
    title = f"Throughput at {format_bytes(block_bytes)} blocks" if block_bytes else "Throughput"
    if title_unit:
        title += f" ({title_unit})"
    if bad.any():
        title += "\nhatched: implausible"
    ax.set_title(title)
    fit_labels(ax)
    return ax


def _annotations_fit(ax) -> bool:
    """True when every cell annotation fits inside its cell at the figure's printed size."""
    from cipherlab.plots._layout import _renderer

    renderer = _renderer(ax.figure)
    cell = ax.transData.transform([(0, 0), (1, 1)])
    width, height = abs(cell[1] - cell[0])
    for t in ax.texts:
        box = t.get_window_extent(renderer)
        if box.width > width - 2 or box.height > height:
            return False
    return True


def _implausible_cells(d: pd.DataFrame, implausible, row_name: str, columns: str,
                       table: pd.DataFrame) -> np.ndarray:
    """Boolean matrix (table's shape) of the cells with an implausible value."""
    none = np.zeros(table.shape, dtype=bool)
    if implausible is None:
        return none
    if isinstance(implausible, str):
        if implausible != "auto":
            raise ValueError(f"`implausible` must be 'auto', a frame of findings or None; not "
                             f"{implausible!r}")
        from cipherlab import stats

        implausible = stats.lint(d, warn=False)
    keys = [k for k in ("source", "line", "algorithm", "operation") if k in d.columns
            and k in implausible.columns]
    if implausible.empty or not keys:
        return none
    found = set(map(tuple, implausible[keys].astype("object").to_numpy()))
    rows = d[[tuple(r) in found for r in d[keys].astype("object").to_numpy()]]
    out = none.copy()
    index, cols = list(table.index), list(table.columns)
    for r, c in zip(rows[row_name], rows[columns]):
        if r in index and c in cols:
            out[index.index(r), cols.index(c)] = True
    return out


def transfers(df: pd.DataFrame, *, reference: Mapping[str, float] | None = None,
              label: str | Sequence[str] = ("cipher", "tool"), palette: Mapping[str, str] | None = None,
              ax=None):
    """TLS transfer throughput per record cipher as horizontal bars, beside what the cipher does
    alone: the OpenJDK question ("why is GCM 20x slower than CBC over TLS?") in one picture.

    Parameters
    ----------
    df
        Tidy TLS rows (``operation='transfer'``, from :func:`cipherlab.capture_tls` or the
        bundled OpenJDK table) with ``cipher`` and ``bytes_per_s``; repeats give a median bar
        and a range whisker.
    reference
        ``{cipher: bytes/s}``: the cipher's own rate (``openssl speed`` at 16 KiB on one core),
        drawn as a black tick on each bar of that cipher; a bar far left of its tick is the
        implementation, not the cipher.
    label
        Column(s) that name a bar (those that vary are shown).
    palette, ax
        Colours by cipher; the Axes (``None``: a fresh figure).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import pandas as pd
    >>> from matplotlib.figure import Figure
    >>> tls = pd.DataFrame({"operation": "transfer", "cipher": ["aes-128-gcm", "aes-128-cbc"],
    ...                     "tool": "jdk-tls", "bytes_per_s": [5.5e6, 1.05e8]})
    >>> ax = transfers(tls, reference={"aes-128-gcm": 4e9}, ax=Figure().add_subplot())
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['aes-128-gcm', 'aes-128-cbc']
    """
    _need(df, ["cipher", "bytes_per_s"], "df")
    ax = _gca(ax)
    d = df[df["bytes_per_s"].notna() & (df["bytes_per_s"] > 0)]
    if "operation" in d.columns:
        d = d[d["operation"].astype("object").eq("transfer")]
    if d.empty:
        raise AnalysisError("`df` has no TLS transfer rows (operation='transfer') with a rate")
    keys = [k for k in ([label] if isinstance(label, str) else list(label)) if k in d.columns]
    d = d.assign(_bar=label_from_keys(d[keys], keys))
    g = d.groupby("_bar", sort=False)
    bars = pd.DataFrame({"median": g["bytes_per_s"].median(), "low": g["bytes_per_s"].min(),
                         "high": g["bytes_per_s"].max(),
                         "cipher": g["cipher"].first().astype("object")})
    colours = _colors(bars["cipher"], palette)
    y = np.arange(len(bars))
    ax.barh(y, bars["median"], color=[colours[c] for c in bars["cipher"]], height=0.6, zorder=2)
    spread = bars["high"] > bars["low"]
    if spread.any():
        ax.errorbar(bars["median"][spread], y[spread.to_numpy()],
                    xerr=[bars["median"][spread] - bars["low"][spread],
                          bars["high"][spread] - bars["median"][spread]],
                    fmt="none", ecolor="0.2", elinewidth=0.9, capsize=2, zorder=3)
    values = list(bars["low"]) + list(bars["high"])
    handles = []
    if reference:
        ref = [reference.get(c) for c in bars["cipher"]]
        shown = [(yy, r) for yy, r in zip(y, ref) if r]
        if shown:
            ax.plot([r for _, r in shown], [yy for yy, _ in shown], linestyle="none", marker="|",
                    markersize=12, markeredgewidth=1.6, color="black", zorder=4)
            values += [r for _, r in shown]
            from matplotlib.lines import Line2D

            handles.append(Line2D([], [], color="black", marker="|", linestyle="none",
                                  markersize=8, label="the cipher alone (openssl speed, 16 KiB)"))
    rate_axis(ax, "x", values)
    ax.set_yticks(y, list(bars.index))
    ax.invert_yaxis()
    ax.set_xlabel("Throughput over TLS")
    ax.grid(False, axis="y")
    if handles:
        _legend(ax, handles, outside=True)
    fit_tick_labels(ax, "y")
    fit_labels(ax)
    return ax
