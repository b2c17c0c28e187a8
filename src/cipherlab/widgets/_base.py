"""The machinery every explorer shares: controls that trigger a redraw, a PNG view, a table, export.

Why the figure is shown as a PNG in an ``ipywidgets.Output`` (and not with ``%matplotlib widget`` or
``plt.show()``): a PNG needs no extra front-end extension, looks the same in JupyterLab, VS Code and
Voila, is kept in the saved notebook, and is plain bytes that a test can compare (did the picture
change when the dropdown did?). Each redraw builds a new :class:`matplotlib.figure.Figure` without
pyplot, so nothing piles up in pyplot's global figure list. The output is written by assigning the
``Output`` widget's ``outputs`` directly rather than inside ``with out:``: that works the same in a
kernel and in a plain Python process (the widget tests), and never depends on which cell is running.

Explorers hold no analysis of their own: every number comes from :mod:`cipherlab.stats`, every
drawing from :mod:`cipherlab.plots`.
"""

from __future__ import annotations

import base64
import gc
import html
import io
import struct
import time
import warnings
from pathlib import Path
from typing import Any, Sequence

import ipywidgets as widgets
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg, get_hinting_flag
from matplotlib.figure import Figure

from cipherlab._gc import paused
from cipherlab.errors import AnalysisError, CipherlabError, CipherlabWarning

__all__ = ["IDENTITY", "TITLE", "Explorer", "both_sides", "check_columns", "choices", "intervals_note",
           "machine_keys", "option_labels", "option_values", "preferred", "process_control",
           "process_mask", "process_options", "replication_note", "reselect", "show_full_values"]

_CSS_DPI = 96  # screen figures are shown at 96 CSS px per inch: 10 pt text is 13 px tall
_DENSITY = 1.5  # image pixels per CSS pixel: sharp on HiDPI screens, still quick to draw and send
_DPI = _CSS_DPI * _DENSITY
#: Shown while a redraw runs (the busy class dims the old picture); readouts show whole inside
#: their slider (a range's "2 B-1 MiB" pushed into the next control otherwise), and each figure
#: is as wide as its picture, so that two fit side by side where the page is wide enough; a
#: toggle's name sits beside its buttons, aligned with the other controls' names.
_STYLE = """<style>
.cipherlab-busy .cipherlab-plot, .cipherlab-busy .cipherlab-side-plot {opacity: .45;
  transition: opacity .1s}
.cipherlab-explorer .widget-readout {max-width: none; overflow: visible; flex: 0 0 auto}
.cipherlab-explorer .cipherlab-plot, .cipherlab-explorer .cipherlab-side-plot {width: fit-content;
  max-width: 100%}
.cipherlab-explorer .widget-output .jp-OutputArea-child {display: block; width: auto}
.cipherlab-controls {column-gap: 12px}
.cipherlab-controls .widget-toggle-buttons {display: flex; align-items: center}
.cipherlab-controls .widget-toggle-buttons > .widget-label {flex: 0 0 auto; margin-right: 8px;
  width: var(--jp-widgets-inline-label-width); text-align: right}
.cipherlab-controls .widget-toggle-buttons > div {flex: 1 1 0; min-width: 0}
</style>"""
#: Panel titles: a fixed ``y`` spares matplotlib measuring the tick labels to place the title
#: at every draw (~10 ms a panel); no panel has ticks on top, so it lands where it would anyway.
TITLE = {"fontsize": "medium", "y": 1.0}


def _freeze_long_lived() -> None:
    """Move what is alive now (modules, the data, the explorer) out of the cyclic GC's reach.

    Why: every redraw leaves a matplotlib figure of reference cycles behind, so every few
    redraws Python runs a full collection, which walks *every* tracked object of the process
    (~200k after importing pandas, scipy, matplotlib and ipywidgets: ~100 ms on a 2-core
    machine, the p90 spikes of ``benchmarks/widget_redraw.py``). After :func:`gc.freeze` a
    full collection walks only what was created since, i.e. the figures. Garbage is collected
    first so that none of it is frozen; what is frozen is still freed by reference counting.
    """
    gc.collect()
    gc.freeze()


def check_columns(df: Any, columns: Sequence[str], *, what: str) -> pd.DataFrame:
    """Raise a clear :class:`AnalysisError` unless ``df`` is a non-empty tidy table with ``columns``."""
    from cipherlab.stats._common import require_columns

    require_columns(df, columns, what=what)
    if df.empty:
        raise AnalysisError(f"{what} needs a non-empty table; got 0 rows")
    return df


def choices(series: pd.Series) -> list:
    """The distinct non-missing values of a column, in a stable order (numbers sort numerically)."""
    values = pd.unique(series.dropna().astype("object"))
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=str)


def preferred(options: Sequence, wanted: Sequence) -> Any:
    """The first of ``wanted`` that is among ``options``, else the first option (None if none)."""
    for w in wanted:
        if w in options:
            return w
    return options[0] if len(options) else None


_KEEP_TEXTS = 4000  # text bitmaps kept (tick labels, legend entries: ~2-20 kB each)


class _ScreenRenderer(RendererAgg):
    """Agg that keeps the bitmap of every text it drew and pastes it again the next time.

    matplotlib 3.11 lays out and rasterises every glyph of every text at every draw: half of a
    redraw of the explorers (a 14-entry legend, tick labels) for strings drawn the time before.
    Here a horizontal string is rasterised once per font, size and DPI, the way matplotlib did
    it up to 3.10 (the whole string as one bitmap, placed at a whole pixel), and drawn from then
    on with the same ``draw_text_image`` call. Rotated text (an axis label), mathtext and TeX
    keep matplotlib's own path.
    """

    _texts: dict[tuple, tuple] = {}  # (text, font, dpi, antialiased) -> (bitmap, descent, x0, y0)

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath or angle:
            return super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        key = (s, hash(prop), self.dpi, gc.get_antialiased())
        text = self._texts.get(key)
        if text is None:
            if len(self._texts) >= _KEEP_TEXTS:
                self._texts.clear()
            font = self._prepare_font(prop)
            font.set_text(s, 0, flags=get_hinting_flag())
            font.draw_glyphs_to_bitmap(antialiased=gc.get_antialiased())
            x0, y0 = font.get_bitmap_offset()
            text = self._texts[key] = (np.asarray(font.get_image()).copy(),
                                       font.get_descent() / 64, x0 / 64, y0 / 64)
        bitmap, descent, x0, y0 = text
        self._renderer.draw_text_image(bitmap, round(x + x0), round(y + y0 + descent) + 1, 0, gc)


_RENDERERS: dict[tuple, RendererAgg] = {}  # (width px, height px, dpi) -> renderer
_KEEP_RENDERERS = 8


class _ScreenCanvas(FigureCanvasAgg):
    """An Agg canvas whose renderer is shared by every screen figure of the same pixel size.

    matplotlib caches text metrics per renderer; a fresh canvas per redraw starts that cache
    empty and measures every tick label and legend entry again (~15% of a draw). Redraws are
    sequential and each PNG is encoded before the next draw, so sharing one pixel buffer is safe.
    """

    def get_renderer(self) -> RendererAgg:
        w, h = self.figure.bbox.size
        key = (w, h, self.figure.dpi)
        renderer = _RENDERERS.get(key)
        if renderer is None:
            if len(_RENDERERS) >= _KEEP_RENDERERS:
                del _RENDERERS[next(iter(_RENDERERS))]
            renderer = _RENDERERS[key] = _ScreenRenderer(w, h, self.figure.dpi)
        return renderer


def _screen_png(fig: Figure) -> bytes:
    """Draw a screen figure once and return it as PNG bytes, cropped to what was drawn.

    Cheaper than a layout engine (constrained/tight layout costs more than the drawing) and than
    ``bbox_inches="tight"`` (which draws twice): generous fixed margins, the figure widened by
    the width of any legend that plots put outside the right edge, one Agg draw, then the white
    border is cut off. A long legend outside a *left* panel would cover its neighbour: it moves
    to the right of the whole figure.
    """
    from PIL import Image

    width, height = fig.get_size_inches()
    # fixed margins in inches: tick labels and axis label on the left, rotated labels below
    fig.subplots_adjust(left=1.0 / width, right=1 - 0.15 / width, bottom=1.0 / height,
                        top=1 - 0.35 / height, wspace=0.35)
    right = max((ax.get_position().x1 for ax in fig.axes), default=1.0)
    for ax in fig.axes:
        # Log axes make dozens of unlabelled minor ticks; on screen they cost a large share of a
        # redraw and show nothing (exports keep them: they redraw in the paper style).
        ax.minorticks_off()
        legend = ax.get_legend()
        if legend is None or ax.get_position().x1 >= right - 1e-6:
            continue
        anchor = legend.get_bbox_to_anchor().transformed(ax.transAxes.inverted())
        if anchor.x0 > 1.0:  # anchored right of the panel: it would cover the next one
            handles, labels = legend.legend_handles, [t.get_text() for t in legend.texts]
            legend.remove()
            fig.legend(handles, labels, loc="upper left", bbox_to_anchor=(right, 1 - 0.35 / height),
                       fontsize="small", frameon=False)
    canvas = _ScreenCanvas(fig)
    renderer = canvas.get_renderer()
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend() is not None)]
    overflow = max((lg.get_window_extent(renderer).x1 - fig.bbox.x1 for lg in legends), default=0)
    if overflow > 0:  # widen the canvas; the axes keep their size and place in inches
        extra = overflow / fig.dpi + 0.1
        params = fig.subplotpars
        scale = width / (width + extra)
        fig.set_size_inches(width + extra, height)
        fig.subplots_adjust(left=params.left * scale, right=params.right * scale)
        for lg in fig.legends:
            anchor = lg.get_bbox_to_anchor().transformed(fig.transFigure.inverted())
            lg.set_bbox_to_anchor((anchor.x0 * scale, anchor.y0), transform=fig.transFigure)
    renderer = canvas.get_renderer()
    below = max((-lg.get_window_extent(renderer).y0 for lg in legends), default=0)
    if below > 0:  # a tall legend: lengthen the canvas downwards; the axes keep their place
        extra = below / fig.dpi + 0.1
        params = fig.subplotpars
        scale = height / (height + extra)
        fig.set_size_inches(fig.get_size_inches()[0], height + extra)
        fig.subplots_adjust(bottom=1 - (1 - params.bottom) * scale, top=1 - (1 - params.top) * scale)
        for lg in fig.legends:
            anchor = lg.get_bbox_to_anchor().transformed(fig.transFigure.inverted())
            lg.set_bbox_to_anchor((anchor.x0, 1 - (1 - anchor.y0) * scale), transform=fig.transFigure)
    canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba())
    # ink: any pixel not opaque white (one 32-bit comparison per pixel, not four byte ones)
    ink = rgba.view(np.uint32)[..., 0] != 0xFFFFFFFF
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if rows.size:
        pad = 4
        rgba = rgba[max(rows[0] - pad, 0):rows[-1] + pad + 1, max(cols[0] - pad, 0):cols[-1] + pad + 1]
    buf = io.BytesIO()
    Image.fromarray(rgba).save(buf, format="png", compress_level=1)
    return buf.getvalue()


def y_tick_labels(ax) -> list[str]:
    """The y tick labels shown inside the axes' view (empty strings left out)."""
    lo, hi = sorted(ax.get_ylim())
    ticks = [t for t in ax.yaxis.get_major_locator()() if lo <= t <= hi]
    formatter = ax.yaxis.get_major_formatter()
    formatter.set_locs(ticks)
    return [label for label in (formatter(t, i) for i, t in enumerate(ticks)) if label.strip()]


def ensure_y_ticks(fig: Figure) -> None:
    """Give every panel at least two labelled y ticks: a log axis spanning less than a decade
    (a ratio of 1.9-2.1) otherwise shows no number at all."""
    from matplotlib import ticker

    for ax in fig.axes:
        if len(y_tick_labels(ax)) >= 2:
            continue
        lo, hi = sorted(ax.get_ylim())
        if ax.get_yscale() == "log" and lo > 0:
            values = np.geomspace(lo, hi, 5)[1:-1]
        else:
            values = np.linspace(lo, hi, 5)[1:-1]
        ax.yaxis.set_major_locator(ticker.FixedLocator([float(f"{v:.2g}") for v in values]))
        if not len(y_tick_labels(ax)) >= 2:  # the axis' own formatter hides these values
            ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _p: f"{v:g}"))


def _png_output(png: bytes, text: str) -> tuple:
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk
    shown = {"width": round(width / _DENSITY), "height": round(height / _DENSITY)}
    return ({"output_type": "display_data",
             "data": {"image/png": base64.b64encode(png).decode("ascii"), "text/plain": text},
             "metadata": {"image/png": shown}},)


def _hashable(value):
    return tuple(value) if isinstance(value, (list, tuple)) else value


def _download_links(paths: Sequence[Path]) -> str:
    """HTML links that download ``paths`` from the page itself (data URIs): they work in Lab,
    VS Code and Voila alike, whatever folder the server may serve files from."""
    import mimetypes

    links = []
    for path in paths:
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        links.append(f"<a download='{html.escape(path.name)}' href='data:{kind};base64,{data}' "
                     f"title='{html.escape(str(path))}'>{html.escape(path.name)}</a>")
    return " · ".join(links)


#: What tells measurements apart that must never be pooled as repeats of one another.
IDENTITY = ("host", "label", "tool", "tool_version", "tier")


def machine_keys(sel: pd.DataFrame, by: str) -> list[str]:
    """The identity columns (machine, tool, version, tier) that vary in ``sel``, other than ``by``.

    A ratio is taken within one value of each of them: AES-NI on/off within one machine, one
    tool, one OpenSSL version and one tier, never pooling two machines as if they were repeats.
    ``label`` is free text: it keys only when each label holds several sides (a machine's
    name); labels that name the side ("pyca aesni=off") are left out.

    >>> import pandas as pd
    >>> sel = pd.DataFrame({"host": ["a", "a", "b"], "tool": "openssl", "aesni": ["on", "off", "on"]})
    >>> machine_keys(sel, "aesni")
    ['host']

    A column with one value on each side is part of what is compared, not a cell key:

    >>> machine_keys(pd.DataFrame({"label": ["1.1.1w", "3.0.15"], "tool_version": ["1.1.1w", "3.0.15"]}),
    ...              "label")
    []
    """
    keys = []
    side = sel[by].astype(str)
    for c in IDENTITY:
        if c == by or c not in sel.columns or sel[c].astype(str).nunique() < 2:
            continue
        if sel[c].astype(str).groupby(side).nunique().max() < 2:
            continue  # one value per side (labels naming versions): it is what is compared
        if c == "label":  # free text: a machine's name, or one label per side ("aesni=off")
            sides = sel.groupby(sel[c].astype(str), observed=True)[by].nunique()
            if (sides < 2).any():
                continue
        keys.append(c)
    return keys


def named_keys(sel: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """``sel`` with the identity ``keys`` as text, missing values as "n/a": grouping then keeps
    rows without a version (a ``cryptography`` loop) instead of dropping them."""
    return sel.assign(**{k: sel[k].astype("object").where(sel[k].notna(), "n/a")
                         for k in keys if k in IDENTITY})


def replication_note(runs: pd.Series | None) -> str:
    """How many independent runs (processes) stand behind each point of a figure, in words, from
    the number of runs of each point (:func:`runs_per_point`; None: unknown). One run per point
    is said outright: such a figure has no interval and its differences are described, not tested.

    >>> import pandas as pd
    >>> one = pd.DataFrame({"source": "a.txt", "run": 0, "algorithm": "aes-128-gcm",
    ...                     "block_bytes": [16, 1024], "aesni": ["on", "on"]})
    >>> replication_note(runs_per_point(one))
    'Unreplicated: one run behind each of the 2 points: no interval, differences described, not tested.'
    >>> replication_note(runs_per_point(pd.concat([one, one.assign(run=1), one.assign(run=2)])))
    'Each of the 2 points: n = 3 independent runs (processes).'
    """
    if runs is None or runs.empty:
        return "The table does not say which rows came from one run: how many runs stand behind " \
               "each point is unknown."
    lo, hi, points = int(runs.min()), int(runs.max()), len(runs)
    if hi == 1:
        return (f"Unreplicated: one run behind each of the {points} point{'s' * (points != 1)}: "
                f"no interval, differences described, not tested.")
    n = f"{lo}" if lo == hi else f"{lo}-{hi}"
    alone = int((runs == 1).sum())
    if alone:
        return (f"{alone} of the {points} points rest on one run (unreplicated: no interval, not "
                f"tested); the others on up to {hi} independent runs (processes).")
    return f"Each of the {points} points: n = {n} independent runs (processes)."


def runs_per_point(rows: pd.DataFrame) -> pd.Series | None:
    """The number of distinct runs in each cell of ``rows`` (None: the table names no runs).

    A cell is what a point is drawn from: algorithm, operation, block size, machine, tool,
    version, tier and condition; its runs are its distinct ``(capture_id, source, run)``."""
    from cipherlab.model import condition_columns
    from cipherlab.stats._common import RUN_ID

    ids = [c for c in RUN_ID if c in rows.columns]
    if not {"source", "run"} & set(ids) or rows.empty:
        return None
    cell = [c for c in dict.fromkeys(["algorithm", "operation", "block_bytes", *IDENTITY,
                                      *condition_columns(rows)])
            if c in rows.columns and c not in ("repeat", "child", "note", *ids)]
    return (rows[cell + ids].astype("object").drop_duplicates()
            .groupby(cell, dropna=False, observed=True, sort=False).size())


def intervals_note(table: pd.DataFrame | None) -> str:
    """What the error bars of a ratio figure are, from its result ``table`` (empty when it has none)."""
    if table is None or "ci_low" not in table.columns:
        return ""
    if not table["ci_low"].notna().any():
        return "No intervals: no cell has runs enough on both sides."
    alpha = table.attrs.get("alpha", 0.05)
    shown = int(table["ci_low"].notna().sum())
    return (f"Error bars: {1 - alpha:.0%} confidence intervals of {shown} of the {len(table)} "
            f"ratios (the unit is the run), not adjusted for multiplicity.")


def both_sides(sel: pd.DataFrame, by: str, sides: Sequence[str], keys: Sequence[str]
               ) -> tuple[pd.DataFrame, int]:
    """The rows of the cells (``keys``) that hold every one of ``sides`` of ``by``, and how many
    cells were left out for lacking one (a machine measured with AES-NI on only has no ratio)."""
    cell = sel.groupby([sel[k].astype(str) for k in keys], observed=True, dropna=False).ngroup()
    complete = sel[by].astype(str).groupby(cell).agg(lambda v: set(sides) <= set(v))
    return sel[cell.map(complete).to_numpy(dtype=bool)], int((~complete).sum())


#: ``Processes`` choice -> (``multi`` value or None for one process, per child?)
SINGLE_PROCESS = (None, False)


def process_options(df: pd.DataFrame) -> list[tuple[str, tuple]]:
    """The ``Processes`` choices a table offers: one process, and for each ``openssl speed -multi N``
    the sum over its N processes and each process on its own. Empty when nothing ran ``-multi``.

    Kept apart because a ``-multi`` figure is not one process's rate: the sum of N processes is
    N times larger, a child's figure shares the machine with N - 1 others.
    """
    if "multi" not in df.columns or df["multi"].isna().all():
        return []
    child = df["child"].notna() if "child" in df.columns else pd.Series(False, index=df.index)
    options = [("single process", SINGLE_PROCESS)] if df["multi"].isna().any() else []
    for n in sorted(int(v) for v in df["multi"].dropna().unique()):
        runs = df["multi"].eq(n).fillna(False)
        if (runs & ~child).any():
            options.append((f"-multi {n}: sum of {n}", (n, False)))
        if (runs & child).any():
            options.append((f"-multi {n}: each process", (n, True)))
    return options


def process_control(df: pd.DataFrame) -> widgets.Dropdown | None:
    """A ``Processes`` dropdown (single process first) when the table has ``-multi`` rows."""
    options = process_options(df)
    if not options:
        return None
    return widgets.Dropdown(options=options, value=options[0][1], description="Processes")


def process_mask(df: pd.DataFrame, control: widgets.Dropdown | None) -> np.ndarray:
    """Rows of the process choice of ``control`` (every row when there is no control)."""
    if control is None:
        return np.ones(len(df), dtype=bool)
    n, each = control.value
    if n is None:
        return df["multi"].isna().to_numpy()
    child = df["child"].notna() if "child" in df.columns else pd.Series(False, index=df.index)
    return (df["multi"].eq(n).fillna(False) & (child if each else ~child)).to_numpy(dtype=bool)


_OPTION_CHARS = 30  # of a value, what a dropdown shows (300 px, less its 80 px name, at 13 px)


def option_labels(values: Sequence, width: int = _OPTION_CHARS) -> list:
    """Options for a dropdown or a multi-select: where a value is longer than ``width``,
    ``(label, value)`` pairs with it cut in its middle, where the head and the tail tell values
    apart (an ISA mask, a list of capabilities, a file's path); cuts that would read alike are
    made longer until they differ. The full value is the control's tooltip
    (:func:`show_full_values`). Values that all fit are the options as they are.

    >>> option_labels(["off", "~0x200000200000000:~0x0"], width=16)
    [('off', 'off'), ('~0x20000…00:~0x0', '~0x200000200000000:~0x0')]
    >>> option_labels(["a+b+c+d+e+f+g+h", "a+b+c+d+x+f+g+h"], width=10), option_labels(["on"])
    (['a+b+c+d+e+f+g+h', 'a+b+c+d+x+f+g+h'], ['on'])
    """
    texts = [str(v) for v in values]
    for w in range(max(width, 5), max(map(len, texts), default=0) + 1):
        labels = [t if len(t) <= w else f"{t[:(w - 1) // 2 + 1]}…{t[len(t) - (w - 1) // 2:]}"
                  for t in texts]
        if len(set(labels)) == len(set(texts)):
            break
    else:
        labels = texts
    values = list(values)
    return values if labels == texts else list(zip(labels, values, strict=True))


def show_full_values(control: widgets.Widget) -> None:
    """The full text of the chosen value(s) as ``control``'s tooltip when its options show some
    cut (:func:`option_labels`), none when they are not; a control whose options are not cut
    keeps its own tooltip."""
    options = getattr(control, "options", None) or ()
    cut = {o[1] for o in options if isinstance(o, tuple) and o[0] != str(o[1])}
    if not cut:
        return
    value = control.value if isinstance(control.value, tuple) else (control.value,)
    control.tooltip = "\n".join(map(str, value)) if cut & set(value) else None


def option_values(select: widgets.Widget) -> list:
    """The values a dropdown or multi-select offers, whether its options are values or
    ``(label, value)`` pairs."""
    return [o[1] if isinstance(o, tuple) else o for o in select.options]


def reselect(select: widgets.SelectMultiple, options: Sequence, default: Sequence | None = None) -> None:
    """New options for a multi-select: a full selection stays full, a partial one is kept where
    it still applies (else ``default``, or every option). Long values are cut in the labels
    (:func:`option_labels`)."""
    old, everything = set(select.value), set(option_values(select)) or set(select.value)
    options = list(options)
    if old and old != everything:
        value = [o for o in options if o in old]
    else:
        value = []
    select.options = option_labels(options)
    select.value = tuple(value or (options if default is None else default))


class Explorer(widgets.VBox):
    """Base class: a row of controls, the figure, a status line and a table.

    Subclasses build their controls, pass them to ``__init__`` and implement :meth:`_draw`, which
    draws on a fresh figure and returns the table to show (or ``None``), and optionally
    :meth:`_sync`, which updates dependent controls. Any change of a control's ``value`` redraws
    once; :meth:`hold` batches programmatic changes into a single redraw.

    Attributes
    ----------
    data : pandas.DataFrame
        The table the explorer was built on (never modified).
    figure : matplotlib.figure.Figure or None
        The figure of the last successful redraw.
    png : bytes
        That figure as shown, PNG bytes (empty when the last redraw failed).
    table : pandas.DataFrame or None
        The main table shown under the figure (the :mod:`cipherlab.stats` result behind the plot).
    tables : dict of str to pandas.DataFrame
        Every table shown, by title (``_draw`` may return a dict of titled tables).
    message : str
        Empty, or why the current selection cannot be drawn.
    notes : list of str
        The :class:`~cipherlab.CipherlabWarning` messages of the last redraw (shown under it).
    redraw_s : float
        Wall-clock seconds the last redraw took (analysis + drawing + PNG encoding + tables).
    image_s : float
        Of those, the seconds until the new picture was sent to the page (the tables follow).
    """

    figsize = (6.4, 3.6)

    def __init__(self, data: pd.DataFrame, controls: Sequence[widgets.Widget], *,
                 export_name: str = "figure"):
        self.data = data
        self.figure: Figure | None = None
        self.png = b""
        self.table: pd.DataFrame | None = None
        self.tables: dict[str, pd.DataFrame] = {}
        self.message = ""
        self.redraw_s = self.image_s = float("nan")
        self.notes: list[str] = []
        self._held = 0
        self._side_key = None
        self._dirty = False

        self.plot = widgets.Output(layout=widgets.Layout(min_height="120px"))
        self.plot.add_class("cipherlab-plot")
        # An optional second figure beside the main one, redrawn only when its own inputs change
        # (see SpeedupExplorer): a slider then re-renders the small figure that depends on it.
        self.side_plot = widgets.Output()
        self.side_plot.add_class("cipherlab-side-plot")
        self.status = widgets.HTML()
        self.downloads = widgets.HTML()  # links to the files of the last export
        self.table_view = widgets.HTML(layout=widgets.Layout(overflow="auto", max_height="320px"))
        self.export_path = widgets.Text(value=export_name, description="Export to:",
                                        layout=widgets.Layout(width="320px"))
        self.export_button = widgets.Button(description="Export figure", icon="download",
                                            tooltip="PDF, SVG and PNG in the paper style, the "
                                                    "caption, and the tables as CSV and LaTeX")
        self.export_button.on_click(lambda _b: self._export_clicked())
        self.controls = list(controls)
        for control in self.controls:
            control.observe(self._changed, names="value")
            if hasattr(control, "options"):  # a long value cut in its label: whole in the tooltip
                control.observe(lambda change: show_full_values(change["owner"]), names="value")
                show_full_values(control)

        # one flow of controls, in their order: as many per line as the page's width holds
        # (fixed rows of three broke into ragged 2 + 1 lines on a narrower page)
        flow = widgets.HBox(self.controls, layout=widgets.Layout(flex_flow="row wrap",
                                                                 align_items="flex-start"))
        flow.add_class("cipherlab-controls")
        figures = widgets.HBox([self.side_plot, self.plot],
                               layout=widgets.Layout(flex_flow="row wrap"))  # narrow: one below
        super().__init__([widgets.HTML(_STYLE), flow, figures, self.status, self.table_view,
                          widgets.HBox([self.export_path, self.export_button, self.downloads])])
        self._drawn = None  # what the picture on screen shows (see _signature)
        self.add_class("cipherlab-explorer")
        self.redraw()  # the first draw imports seaborn and fills font caches: long-lived too
        _freeze_long_lived()

    # -- redrawing --------------------------------------------------------------------------
    def _draw(self, fig: Figure) -> pd.DataFrame | dict | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _sync(self, change) -> None:
        """Hook: update dependent controls (options offered) after ``change``; no redraw here."""

    def _changed(self, change=None) -> None:
        if self._held:  # a control changed while others are being set: one redraw at the end
            self._dirty = True
            return
        with self.hold():
            self._sync(change)
            self._dirty = True

    def hold(self):
        """Context manager: change several controls, redraw once at the end."""
        explorer = self

        class _Hold:
            def __enter__(self):
                explorer._held += 1
                return explorer

            def __exit__(self, *exc):
                explorer._held -= 1
                if not explorer._held and explorer._dirty:
                    explorer._dirty = False
                    signature = explorer._current_signature()
                    if signature == explorer._drawn:  # the same picture: keep it
                        return
                    explorer.redraw()

        return _Hold()

    def redraw(self) -> None:
        """Recompute and redraw for the current control values."""
        # The cyclic GC is paused while the user waits: a redraw allocates tens of thousands of
        # matplotlib objects, which would trigger several collections in its middle (and a full
        # one every few redraws, walking the figures left by earlier redraws: ~40 ms). Resumed,
        # it collects at the next allocation, after the new picture has been sent.
        with paused():
            self.add_class("cipherlab-busy")  # sent at once: the old picture dims while we draw
            try:
                self._redraw()
            finally:
                self.remove_class("cipherlab-busy")

    def _signature(self):
        """What the picture depends on; a change that leaves it equal redraws nothing.

        By default the controls' values; explorers whose controls can change without changing
        the rows drawn (a machine without this algorithm deselected) return the rows instead.
        """
        return tuple(_hashable(c.value) for c in self.controls)

    def _current_signature(self):
        try:
            return self._signature()
        except CipherlabError as err:  # the redraw will say why
            return ("cannot draw", str(err))

    def _redraw(self) -> None:
        start = time.perf_counter()
        self._drawn = self._current_signature()
        fig = Figure(figsize=self.figsize, dpi=_DPI)
        with warnings.catch_warnings(record=True) as caught:
            # The analyses warn about single-value cells, mixed AEAD loops, ...: worth reading,
            # so they go under the figure instead of piling up in whatever cell ran last.
            warnings.simplefilter("always", CipherlabWarning)
            try:
                table = self._draw(fig)
                error = None
            except CipherlabError as err:
                # A selection that the analysis cannot answer (an empty side, one block size) is a
                # normal moment in exploring: say why in place of the figure, keep controls live.
                table, error = None, err
        self.notes = list(dict.fromkeys(str(w.message) for w in caught
                                        if issubclass(w.category, CipherlabWarning)))
        notes = "".join(f"<div style='color:#a60'>⚠ {html.escape(n)}</div>" for n in self.notes)
        if error is not None:
            self.figure, self.png, self.table, self.message = None, b"", None, str(error)
            self.tables = {}
            self.plot.outputs = ()
            self.side_plot.outputs = ()
            self._side_key = None  # the side figure must be drawn again next time
            self.table_view.value = ""
            self.redraw_s = self.image_s = time.perf_counter() - start
            self.status.value = (f"<div style='color:#b00'>{html.escape(str(error))}</div>"
                                 f"<small>{notes}</small>")
            return
        ensure_y_ticks(fig)
        self.figure, self.png, self.message = fig, _screen_png(fig), ""
        # the picture is sent first: the tables under it follow ~10-20 ms later
        self.plot.outputs = _png_output(self.png, f"<{type(self).__name__} figure>")
        self.image_s = time.perf_counter() - start
        self.tables = table if isinstance(table, dict) else ({} if table is None else {"": table})
        self.table = next(iter(self.tables.values()), None)
        self.table_view.value = "".join(
            (f"<b>{html.escape(title)}</b>" if title else "") + self._table_html(t)
            for title, t in self.tables.items())
        self.redraw_s = time.perf_counter() - start
        self.status.value = (f"<small style='color:#666'>{html.escape(self._caption())} · redrawn "
                             f"in {self.redraw_s * 1e3:.0f} ms{notes}</small>")

    def _caption(self) -> str:
        return ""

    def _render(self, draw, *, figsize) -> bytes:
        """PNG bytes of ``draw(fig)`` on a fresh screen figure (for the side figure)."""
        fig = Figure(figsize=figsize, dpi=_DPI)
        draw(fig)
        ensure_y_ticks(fig)
        return _screen_png(fig)

    def _show_side(self, png: bytes) -> None:
        """Show ``png`` as the side figure (call from ``_draw`` when its inputs change)."""
        self.side_plot.outputs = _png_output(png, f"<{type(self).__name__} side figure>")

    @staticmethod
    def _table_html(table: pd.DataFrame | None) -> str:
        if table is None or table.empty:
            return ""
        from cipherlab.stats import StatsResult

        # StatsResult formats p-values, ratios and intervals for reading; numbers stay untouched.
        return StatsResult(table.reset_index(drop=True))._repr_html_()

    # -- export -----------------------------------------------------------------------------
    def export(self, path: str | Path | None = None, *, formats: Sequence[str] = ("pdf", "svg", "png"),
               width: str | float = "double", tables: bool = True) -> list[Path]:
        """Redraw the main figure in the paper style and save it with its caption and tables.

        Writes the figure with :func:`cipherlab.save_figure` (the caption in each file's
        metadata), the caption as ``NAME.txt`` (:meth:`caption`: what was drawn, how many runs
        stand behind each point, what the intervals are, or that there are none), and each
        table shown as CSV and LaTeX (:func:`cipherlab.reporting.paper_latex`, with that caption):
        ``NAME.csv``/``NAME.tex`` for the first, ``NAME-<title>.csv``/``.tex`` for the others.

        Parameters
        ----------
        path
            File name without suffix; default: the *Export to* box.
        formats, width
            Passed to :func:`cipherlab.plots.save_figure`.
        tables
            Also write the caption and the tables.

        Returns
        -------
        list of pathlib.Path
            The files written.
        """
        from cipherlab import plots
        from cipherlab.reporting import paper_latex
        from cipherlab.reporting._words import slugify

        if self.message:
            raise AnalysisError(f"nothing to export: {self.message}")
        target = Path(path if path is not None else self.export_path.value)
        target = target.with_suffix("") if target.suffix.lower() in (".pdf", ".svg", ".png") else target
        caption = self.caption()
        fig = self.paper_figure(width)
        with plots.paper(width):
            written = plots.save_figure(fig, target, formats=formats, width=width, caption=caption)
        if not tables:
            return written
        note = target.with_name(f"{target.name}.txt")
        note.write_text(caption + "\n", encoding="utf-8")
        written.append(note)
        for i, (title, table) in enumerate(self.tables.items()):
            if table is None or table.empty:
                continue
            name = target.name if i == 0 else f"{target.name}-{slugify(title, limit=40)}"
            csv, tex = target.with_name(f"{name}.csv"), target.with_name(f"{name}.tex")
            table.to_csv(csv, index=False)
            printed, unit = self._printed(table)
            # the report's LaTeX: human headers, rates in one unit, fits a two-column paper
            text = paper_latex(printed, None, caption=" ".join(filter(None, [
                title and f"{title}.", caption, unit])), label=f"tab:{slugify(name, limit=40)}")
            tex.write_text(text + "\n", encoding="utf-8")
            written += [csv, tex]
        return written

    def _printed(self, table: pd.DataFrame) -> tuple[pd.DataFrame, str]:
        """Hook: ``table`` as printed in a paper, and a sentence on its unit (the CSV keeps it)."""
        return table, ""

    def caption(self) -> str:
        """What the current figure shows, for a paper's caption: what was measured and drawn, how
        many independent runs stand behind each point (never silent about one), the intervals."""
        runs = self._runs_per_point()
        replicated = runs is not None and not runs.empty and runs.max() > 1  # else no interval
        parts = [self._describe(), replication_note(runs), self._intervals() if replicated else ""]
        return " ".join(p for p in parts if p)

    def _runs_per_point(self) -> pd.Series | None:
        """The runs behind each point: a ratio's are its smaller side's (the main table's
        ``n_candidate``/``n_baseline``), a rate's are counted in the rows drawn."""
        t = self.table
        if t is not None and {"n_candidate", "n_baseline"} <= set(t.columns):
            return t[["n_candidate", "n_baseline"]].min(axis=1)
        return runs_per_point(self._rows())

    def _describe(self) -> str:
        """Hook: the figure in a sentence (what is drawn against what, for which selection)."""
        return ""

    def _rows(self) -> pd.DataFrame:
        """The rows of the table behind the figure (what ``selection()`` gives, by default)."""
        sel = self.selection()
        return sel[0] if isinstance(sel, tuple) else sel

    def _intervals(self) -> str:
        """Hook: what the bands or error bars are (by default read from the main table)."""
        return intervals_note(self.table)

    def paper_figure(self, width: str | float = "double") -> Figure:
        """The main figure drawn again in the paper style at ``width`` (what :meth:`export`
        saves; check it with :func:`cipherlab.plots.layout_problems` under ``plots.paper``)."""
        from cipherlab import plots

        with plots.paper(width):
            fig = Figure(layout="constrained")
            self._draw(fig)
            ensure_y_ticks(fig)
        return fig

    def _export_clicked(self) -> None:
        try:
            written = self.export()
        except (CipherlabError, OSError, ValueError) as err:
            self.status.value = f"<span style='color:#b00'>export failed: {html.escape(str(err))}</span>"
            return
        self.downloads.value = (f"<small>saved, download: {_download_links(written)}<br>"
                                f"caption: {html.escape(self.caption())}</small>")

    def __repr__(self) -> str:
        state = self.message or self._caption()
        return f"<{type(self).__name__}: {len(self.data)} rows; {state}>"
