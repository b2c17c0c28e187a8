"""Readable display and paper export of analysis results.

Why this module exists: a result is a DataFrame (so it filters, merges and plots like any other),
but raw float columns print as ``1.978412e+00`` and p-values as ``3.2e-07`` beside ``0.41``.
:class:`StatsResult` keeps the numbers untouched and formats only what is shown in a REPL or a
notebook; :func:`to_latex` and :func:`to_markdown` write tables for papers and READMEs with each
estimate and its interval in one cell: ``1.98 [1.95, 2.01]``.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from cipherlab.errors import AnalysisError

__all__ = ["StatsResult", "to_latex", "to_markdown"]

# (estimate, low, high) column triples shown as one "estimate [low, high]" cell on export.
_INTERVALS = (
    ("ratio", "ci_low", "ci_high"),
    ("crossover_bytes", "ci_low", "ci_high"),
    ("t0_ns", "t0_ci_low", "t0_ci_high"),
    ("c_ns_per_byte", "c_ci_low", "c_ci_high"),
    ("overhead_share_a", "share_a_low", "share_a_high"),
    ("overhead_share_b", "share_b_low", "share_b_high"),
)
#: Columns a paper table leaves out unless asked for (``columns="all"``): the test's internals
#: (its statistic, the unadjusted p-values, the smallest reachable p), each side's levels and
#: spread (the result frame keeps them), a fit's diagnostics beside its misfit, long texts.
_DETAIL = frozenset({
    "statistic", "p_value", "p_equivalence", "min_p", "n", "unit",
    "gmean_candidate", "gmean_baseline", "median_candidate", "median_baseline",
    "spread_candidate", "spread_baseline", "hygiene", "residuals", "asymptotic_bytes_per_s",
    "clock_hz", "r_squared", "n_sizes", "n_points", "t0_a_ns", "t0_b_ns", "ratio_min",
    "ratio_max", "limit_bytes_per_s"})
#: Float columns that state the question asked (a claim, a design): said once when constant.
_CLAIMS = ("expected", "margin", "difference", "power")
_P_COLUMNS = ("p_value", "p_adjusted", "p_equivalence", "p_equivalence_adjusted", "min_p",
              "lack_of_fit_p")
_FIXED3 = ("ratio", "ci_low", "ci_high", "ratio_min", "ratio_max", "expected", "margin",
           "statistic", "r_squared", "overhead_share_a", "overhead_share_b", "tost_low",
           "tost_high", "share_a_low", "share_a_high", "share_b_low", "share_b_high")
#: Levels a p-value is read against: shown with enough digits not to round onto one of them.
_ALPHAS = (0.001, 0.01, 0.05, 0.1)
#: Units of result columns, printed under exported tables.
UNITS = {"ratio": "throughput candidate/baseline, runs' geometric means",
         "t0_ns": "ns per call", "c_ns_per_byte": "ns per byte", "crossover_bytes": "bytes",
         "n_half_bytes": "bytes", "asymptotic_bytes_per_s": "bytes/s", "clock_hz": "Hz",
         "block_bytes": "bytes", "spread_candidate": "% (robust CV)",
         "spread_baseline": "% (robust CV)", "t0_a_ns": "ns per call", "t0_b_ns": "ns per call",
         "max_misfit": "largest misfit of the line at a size, a fraction (0.1 = 10 %)",
         "overhead_share_a": "fraction of a call's time that is fixed cost",
         "overhead_share_b": "fraction of a call's time that is fixed cost",
         "spread": "% (standard deviation of the runs' log rates x 100)",
         "spread_upper": "% (80 % upper confidence limit of spread)",
         "runs_needed": "runs per side", "runs_needed_upper": "runs per side",
         "detectable": "smallest difference found with that power, a fraction (0.05 = 5 %)"}
#: Per-side level columns: in the unit of the metric compared (``result.attrs["metric"]``).
_LEVELS = ("gmean_candidate", "gmean_baseline", "median_candidate", "median_baseline")
#: Units of the metrics the tidy table and :func:`per_ghz` give.
METRIC_UNITS = {"bytes_per_s": "bytes/s", "ops_per_s": "operations/s",
                "bytes_per_s_per_ghz": "bytes/s per GHz", "ops_per_s_per_ghz": "operations/s per GHz",
                "bytes_per_s_per_process": "bytes/s per process",
                "ops_per_s_per_process": "operations/s per process"}


def _format_floats(values, digits: int = 3, round_large: bool = False,
                   fixed: int | None = None) -> np.ndarray:
    """Numbers with ``digits`` significant digits, thousands separators, never scientific.

    Numbers of ``digits`` or more integer digits print whole (rounded to ``digits`` significant
    digits when ``round_large``), so a rate reads as openssl printed it; ``fixed`` gives that
    many decimals instead. NaN prints as an en dash, inf as ∞. Vectorised: one f-string pass per
    distinct number of decimals.
    """
    a = np.asarray(values, dtype=float)
    out = np.full(a.shape, "–", dtype=object)
    finite = np.isfinite(a)
    out[np.isposinf(a)] = "∞"
    out[np.isneginf(a)] = "-∞"
    if fixed is not None:
        # ratios and statistics: fixed decimals; a ratio bound beyond a million is shown in
        # scientific notation (it only says "unbounded" and would be 20 digits wide)
        with np.errstate(invalid="ignore"):
            huge = finite & (np.abs(a) >= 1e6)
        # a small value keeps 2 significant digits (0.0004, not 0.000)
        tiny = finite & ~huge & (a != 0) & (np.abs(a) < 10.0 ** (1 - fixed))
        idx = np.flatnonzero(finite & ~huge & ~tiny)
        out[idx] = [f"{v:,.{fixed}f}" for v in a[idx]]
        idx = np.flatnonzero(tiny)
        out[idx] = [f"{v:.2g}" if abs(v) >= 1e-4 else f"{v:.1e}" for v in a[idx]]
        idx = np.flatnonzero(huge)
        out[idx] = [f"{v:.3g}" for v in a[idx]]
        return out
    out[finite & (a == 0)] = "0"
    nonzero = finite & (a != 0)
    magnitude = np.zeros(a.shape, dtype=int)
    magnitude[nonzero] = np.floor(np.log10(np.abs(a[nonzero]))).astype(int)
    large = nonzero & (magnitude >= digits - 1)
    shown = a
    if round_large:
        scale = 10.0 ** (magnitude - digits + 1)
        shown = np.where(large, np.round(a / scale) * scale, a)
    idx = np.flatnonzero(large)
    out[idx] = [f"{v:,.0f}" for v in shown[idx]]
    small = nonzero & ~large
    decimals = digits - 1 - magnitude
    for d in np.unique(decimals[small]):
        idx = np.flatnonzero(small & (decimals == d))
        out[idx] = [f"{v:,.{d}f}" for v in a[idx]]
    return out


def _num(x, digits: int = 3, round_large: bool = False) -> str:
    """One value formatted for a table (see :func:`_format_floats`); bools print yes/no."""
    if x is None or x is pd.NA:
        return "–"
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return f"{int(x):,}"
    return str(_format_floats([x], digits, round_large)[0])


def format_p(values) -> np.ndarray:
    """p-values with 3 decimals, more where rounding would land on or cross a usual alpha
    (0.0496 is shown as 0.0496, not 0.050); below 0.001 as "< 0.001"."""
    a = np.asarray(values, dtype=float)
    out = np.full(a.shape, "–", dtype=object)
    out[a < 0.001] = "< 0.001"
    for i in np.flatnonzero(a >= 0.001):
        v, d = float(a[i]), 3
        while d < 6 and any(round(v, d) == t or (round(v, d) < t) != (v < t) for t in _ALPHAS):
            d += 1
        out[i] = f"{v:.{d}f}"
    return out


def _format_column(name: str, s: pd.Series, digits: int, fixed=_FIXED3) -> pd.Series:
    if name in _P_COLUMNS and pd.api.types.is_numeric_dtype(s.dtype):
        return pd.Series(format_p(s.to_numpy(float, na_value=np.nan)), index=s.index)
    if pd.api.types.is_bool_dtype(s.dtype):
        return s.map({True: "yes", False: "no"}).fillna("–").astype(object)
    if pd.api.types.is_float_dtype(s.dtype):
        values = s.to_numpy(float, na_value=np.nan)
        return pd.Series(_format_floats(values, digits, fixed=3 if name in fixed else None),
                         index=s.index)
    if pd.api.types.is_integer_dtype(s.dtype):
        return s.map(lambda v: "–" if pd.isna(v) else str(int(v)))
    return s.astype("object").map(lambda v: "–" if v is None or v is pd.NA
                                  or (isinstance(v, float) and math.isnan(v)) else str(v))


def display_frame(result: pd.DataFrame, digits: int = 4) -> pd.DataFrame:
    """A plain DataFrame of strings: ``result`` formatted for reading (numbers untouched)."""
    # ci_low/ci_high are ratios in compare results but byte counts in crossover results
    fixed = _FIXED3 if "crossover_bytes" not in result.columns else tuple(
        c for c in _FIXED3 if c not in ("ci_low", "ci_high"))
    return pd.DataFrame({c: _format_column(c, result[c], digits, fixed) for c in result.columns},
                        index=result.index)


class StatsResult(pd.DataFrame):
    """A :class:`pandas.DataFrame` that prints its numbers formatted for reading.

    Only the display changes (REPL ``repr`` and notebook HTML); values, dtypes and every pandas
    operation are those of a DataFrame. ``pd.DataFrame(result)`` gives a plain frame back.

    Examples
    --------
    >>> r = StatsResult({"ratio": [1.978412], "p_value": [3.2e-07], "significant": [True]})
    >>> r
       ratio p_value significant
    0  1.978 < 0.001         yes
    >>> float(r["ratio"].iloc[0])
    1.978412
    """

    _metadata: list[str] = []

    @property
    def _constructor(self):
        return StatsResult

    def __repr__(self) -> str:
        if self.columns.empty:
            return pd.DataFrame.__repr__(self)
        # (a long note or residuals list would take the width and hide every other column)
        shown = display_frame(self)
        return repr(shown.apply(lambda s: s.map(_shorten)) if len(shown) else shown)

    def _repr_html_(self):
        if self.columns.empty:
            return pd.DataFrame._repr_html_(self)
        return display_frame(self)._repr_html_()

    def to_latex(self, *args, **kwargs) -> str:  # type: ignore[override]
        """Booktabs LaTeX of this result; see :func:`cipherlab.stats.to_latex`."""
        return to_latex(self, *args, **kwargs)

    def to_markdown(self, *args, **kwargs) -> str:  # type: ignore[override]
        """Markdown table of this result; see :func:`cipherlab.stats.to_markdown`."""
        return to_markdown(self, *args, **kwargs)


def _shorten(text, width: int = 40) -> str:
    text = str(text)
    return text if len(text) <= width else text[:width - 1] + "…"


def paper_columns(result: pd.DataFrame) -> tuple[list[str], dict[str, str]]:
    """The columns a paper table shows by default, and the values it states once instead.

    The cell keys, estimates with their intervals, adjusted p-values, verdicts and counts; not
    the :data:`_DETAIL` columns, nor a column blank in every row (a pasted dump's p-values:
    the note says why). A text or count column with one value in every row (the baseline, the
    test, ``n_candidate``, one note; the claim ``expected`` and ``margin``) is said once under
    the table, not repeated.

    >>> r = StatsResult({"block_bytes": [16, 1024], "baseline": "off", "ratio": [2.0, 2.1],
    ...                  "statistic": [9.1, 9.3], "note": ""})
    >>> paper_columns(r)
    (['block_bytes', 'ratio'], {'baseline': 'off'})
    """
    cols, stated = [], {}
    for c in result.columns:
        if c in _DETAIL:
            continue
        s = result[c]
        if len(result) and s.isna().all():
            continue
        label_like = c in _CLAIMS or not (
            pd.api.types.is_float_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype))
        if len(result) > 1 and label_like and s.astype("object").nunique(dropna=False) == 1:
            value = _format_column(c, s.iloc[:1], 3).iloc[0]
            if value not in ("", "–"):
                stated[c] = value
            continue
        cols.append(c)
    return cols, stated


def footnote(result: pd.DataFrame, columns: Sequence[str] | None = None) -> str:
    """What a reader needs beside the table: the unit of replication, the adjustment family and
    the units of the columns shown (empty when there is nothing to say).

    >>> r = StatsResult({"ratio": [2.0], "p_adjusted": [0.01]})
    >>> r.attrs.update(family="Holm over 4 test(s)", unit="run")
    >>> for sentence in footnote(r).split(". "):
    ...     print(sentence)
    Unit of replication: run
    p adjusted: Holm over 4 test(s)
    ratio: throughput candidate/baseline, runs' geometric means.
    """
    cols = list(result.columns) if columns is None else list(columns)
    parts = []
    if result.attrs.get("unit"):
        parts.append(f"Unit of replication: {result.attrs['unit']}.")
    if result.attrs.get("family") and any(c.startswith("p_") for c in cols):
        parts.append(f"p adjusted: {result.attrs['family']}.")
    alpha = result.attrs.get("alpha")
    if alpha and "ratio" in cols and "ci_low" in result.columns and result["ci_low"].notna().any():
        # (the p-values are adjusted, the intervals not: a 95 % interval may miss 1 in a cell
        # whose adjusted p says no difference)
        parts.append(f"CI: {1 - alpha:.0%} interval of each cell, not adjusted.")
    if result.attrs.get("claim") and "equivalent" in cols:
        parts.append(f"equivalent: {result.attrs['claim']}.")
    units = dict(UNITS)
    if {"a", "b"} <= set(result.columns) and "candidate" not in result.columns:
        units["ratio"] = "throughput a/b"  # small_block_overhead: no candidate or baseline
    parts += [f"{c}: {units[c]}." for c in cols if c in units and c != "block_bytes"]
    metric = result.attrs.get("metric", "bytes_per_s")
    levels = [c for c in cols if c in _LEVELS]
    if levels:
        parts.append(f"{', '.join(levels)}: {METRIC_UNITS.get(metric, f'`{metric}`')}.")
    return " ".join(parts)


def _chosen(result, columns) -> tuple[list[str], dict[str, str]]:
    """The columns to export (``None``: :func:`paper_columns`; ``"all"``: every one) and the
    values stated once under the table."""
    if not isinstance(result, pd.DataFrame):
        raise AnalysisError(f"export needs a DataFrame (a cipherlab.stats result); "
                            f"not {type(result).__name__}.")
    if columns is None:
        return paper_columns(result)
    if isinstance(columns, str):
        if columns != "all":
            raise AnalysisError(f"`columns` must be a list of column names, None (a paper's "
                                f"columns) or 'all'; not {columns!r}.")
        return list(result.columns), {}
    return list(columns), {}


def _note(result, cols, stated, notes: bool) -> str:
    """:func:`footnote` of the columns shown, after the values every row shares."""
    if not notes:
        return ""
    by = result.attrs.get("by")  # (the sides are levels of the compared column: name it)
    once = " ".join(f"{c}: {by} = {v}." if by and c in ("candidate", "baseline") else
                    f"{c}: {v}." for c, v in stated.items())
    return " ".join(t for t in (once, footnote(result, cols)) if t)


def _cells(result: pd.DataFrame, cols: list[str], digits: int,
           interval: bool) -> tuple[list[str], list[list[str]], list[bool]]:
    missing = [c for c in cols if c not in result.columns]
    if missing:
        raise AnalysisError(f"`columns` names {missing}, which the result does not have; its "
                            f"columns are {list(result.columns)}.")
    merged: dict[str, tuple[str, str]] = {}
    if interval:
        for est, lo, hi in _INTERVALS:
            if est in cols and lo in result.columns and hi in result.columns:
                merged[est] = (lo, hi)
        # a crossover table uses ci_low/ci_high for the crossover, not for a ratio
        if "crossover_bytes" in merged:
            merged.pop("ratio", None)
    hidden = {c for pair in merged.values() for c in pair}
    shown = [c for c in cols if c not in hidden]
    header, body, numeric = [], [], []
    for c in shown:
        s = result[c]
        if c in merged:
            lo, hi = merged[c]
            parts = [_format_floats(result[k].to_numpy(float, na_value=np.nan), digits,
                                    round_large=True, fixed=digits - 1 if c == "ratio" else None)
                     for k in (c, lo, hi)]
            has_ci = result[lo].notna().to_numpy()
            col = [f"{e} [{a}, {b}]" if ok else e for e, a, b, ok in zip(*parts, has_ci)]
            header.append(f"{c} [CI]")
        else:
            col = _format_column(c, s, digits).tolist()
            header.append(c)
        body.append(col)
        numeric.append(pd.api.types.is_numeric_dtype(s.dtype) and not
                       pd.api.types.is_bool_dtype(s.dtype))
    rows = [list(r) for r in zip(*body)] if body else []
    return header, rows, numeric


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}", "∞": r"$\infty$", "–": "--", "<": r"$<$"}


def _tex(text: str) -> str:
    out = "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))
    # a long word (an ISA list 'aesni+pclmulqdq+...', in 'ISA off (...)' too) may break after
    # a + or /
    if any(len(word) > 20 for word in str(text).split()):
        out = out.replace("+", "+\\allowbreak{}").replace("/", "/\\allowbreak{}")
    return out


def to_latex(result: pd.DataFrame, columns: Sequence[str] | str | None = None, *, digits: int = 3,
             interval: bool = True, caption: str | None = None, label: str | None = None,
             notes: bool = True) -> str:
    """A booktabs LaTeX table of a result, estimates and intervals together: ``1.98 [1.95, 2.01]``.

    Parameters
    ----------
    result : DataFrame
        Any :mod:`cipherlab.stats` result (or frame).
    columns : list of str, "all" or None
        Columns to show, in order. Default (None): a paper's columns, narrow enough for one
        column of a two-column paper (:func:`paper_columns`: the cell keys, estimates,
        adjusted p-values, verdicts and counts, without the test's internals and each side's
        hygiene levels; a value every row shares is stated once under the table). ``"all"``:
        every column. An estimate (``ratio``, ``t0_ns``, ``c_ns_per_byte``,
        ``crossover_bytes``, ``overhead_share_*``) absorbs its interval columns.
    digits : int
        Significant digits of numbers (ratios: ``digits - 1`` decimals).
    interval : bool
        Merge intervals into their estimate's cell.
    caption, label : str, optional
        Wrap the tabular in a ``table`` float with this caption / label.
    notes : bool
        Print under the table the values every row shares (by default) and :func:`footnote`:
        the unit of replication, the p-value adjustment family and the units of the columns
        shown.

    Returns
    -------
    str
        LaTeX source needing ``\\usepackage{booktabs}``.

    Examples
    --------
    >>> import pandas as pd
    >>> r = pd.DataFrame({"block_bytes": [16], "ratio": [1.978], "ci_low": [1.951],
    ...                   "ci_high": [2.012], "p_adjusted": [0.0004]})
    >>> print(to_latex(r))
    \\begin{tabular}{rrr}
    \\toprule
    block\\_bytes & ratio [CI] & p\\_adjusted \\\\
    \\midrule
    16 & 1.98 [1.95, 2.01] & $<$ 0.001 \\\\
    \\bottomrule
    \\end{tabular}
    \\par\\smallskip{\\footnotesize ratio: throughput candidate/baseline, runs' geometric means.}
    """
    cols, stated = _chosen(result, columns)
    header, rows, numeric = _cells(result, cols, digits, interval)
    align = "".join("r" if n or h.endswith("[CI]") else "l" for h, n in zip(header, numeric))
    lines = [rf"\begin{{tabular}}{{{align}}}", r"\toprule",
             " & ".join(_tex(h) for h in header) + r" \\", r"\midrule"]
    lines += [" & ".join(_tex(c) for c in row) + r" \\" for row in rows]
    lines += [r"\bottomrule", r"\end{tabular}"]
    note = _note(result, cols, stated, notes)
    if note:
        lines.append(r"\par\smallskip{\footnotesize " + _tex(note) + "}")
    if caption is not None or label is not None:
        head = [r"\begin{table}", r"\centering"]
        if caption is not None:
            head.append(rf"\caption{{{_tex(caption)}}}")
        if label is not None:
            head.append(rf"\label{{{label}}}")
        lines = head + lines + [r"\end{table}"]
    return "\n".join(lines)


def to_markdown(result: pd.DataFrame, columns: Sequence[str] | str | None = None, *,
                digits: int = 3,
                interval: bool = True, notes: bool = True) -> str:
    """A Markdown (GitHub) table of a result, estimates and intervals together.

    Parameters are those of :func:`to_latex` (without caption/label).

    Examples
    --------
    >>> import pandas as pd
    >>> r = pd.DataFrame({"algorithm": ["aes-128-gcm"], "ratio": [4.7], "ci_low": [3.9],
    ...                   "ci_high": [5.6], "significant": [True]})
    >>> print(to_markdown(r))
    | algorithm | ratio [CI] | significant |
    |:--|--:|:--|
    | aes-128-gcm | 4.70 [3.90, 5.60] | yes |
    <BLANKLINE>
    ratio: throughput candidate/baseline, runs' geometric means.
    """
    cols, stated = _chosen(result, columns)
    header, rows, numeric = _cells(result, cols, digits, interval)
    esc = lambda t: str(t).replace("|", r"\|")  # noqa: E731
    align = ["--:" if n or h.endswith("[CI]") else ":--" for h, n in zip(header, numeric)]
    lines = ["| " + " | ".join(esc(h) for h in header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
    note = _note(result, cols, stated, notes)
    return "\n".join(lines + (["", note] if note else []))
