"""Axis formatting shared by the figures: readable units instead of powers of ten.

Benchmarks span orders of magnitude (16-byte blocks at 10 MB/s, 16 KiB blocks at 4 GB/s), so the
figures use log axes; a log axis labelled ``10^9`` makes the reader do arithmetic. These helpers
label every tick with its unit: rates in decimal SI units as ``openssl speed`` uses them (1 kB =
1000 bytes), block sizes in binary units as programmers write them (1 KiB = 1024 bytes), times in
ns/µs/ms and ratios as ``2×``.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Iterable

import numpy as np
from matplotlib import ticker

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["format_bytes", "format_rate", "format_ratio", "format_seconds", "label_from_keys",
           "rate_axis", "rate_scale", "ratio_axis", "size_axis", "time_axis"]

_RATE_UNITS = ((1e12, "TB/s"), (1e9, "GB/s"), (1e6, "MB/s"), (1e3, "kB/s"), (1.0, "B/s"))
_SIZE_UNITS = ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB"), (1, "B"))
_COMPACT_SIZE_UNITS = ((1 << 30, "G"), (1 << 20, "M"), (1 << 10, "K"), (1, ""))
_TIME_UNITS = ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns"))


def _number(v: float, digits: int = 3) -> str:
    return f"{v:.{digits}g}"


def _unit_of(value: float, units) -> tuple[float, str]:
    """The largest of ``units`` (descending ``(scale, name)``) that ``value`` reaches; values
    below the smallest scale take the smallest unit."""
    return next(((f, u) for f, u in units if abs(value) >= f), units[-1])


def _with_unit(value: float, units, digits: int = 3, sep: str = " ") -> str:
    v = float(value)
    if not math.isfinite(v):
        return str(v)
    scale, unit = _unit_of(v, units)
    return f"{_number(v / scale, digits)}{sep}{unit}".rstrip()


def format_rate(bytes_per_s: float, digits: int = 3) -> str:
    """A rate in bytes per second as a short string in decimal units.

    >>> format_rate(2.675892e9), format_rate(20304670), format_rate(950)
    ('2.68 GB/s', '20.3 MB/s', '950 B/s')
    """
    return _with_unit(bytes_per_s, _RATE_UNITS, digits)


def rate_scale(bytes_per_s: ArrayLike) -> tuple[float, str]:
    """The one unit to show a set of rates in (a table column, the numbers of a heatmap), as
    ``(bytes per second in it, name)``: of the units :func:`format_rate` writes, the largest
    that their median reaches. Missing values are left out; with none left, B/s.

    >>> rate_scale([2.1e9, 3.5e9, 9e8, float("nan")]), rate_scale([4.2e7]), rate_scale([])
    ((1000000000.0, 'GB/s'), (1000000.0, 'MB/s'), (1.0, 'B/s'))
    """
    v = np.abs(np.asarray(bytes_per_s, dtype=float)).ravel()
    v = v[np.isfinite(v)]
    return _unit_of(float(np.median(v)) if v.size else 1.0, _RATE_UNITS)


def format_bytes(n: float) -> str:
    """A block size in bytes, in binary units when it is a whole number of them.

    >>> format_bytes(16), format_bytes(1024), format_bytes(16384), format_bytes(1536)
    ('16 B', '1 KiB', '16 KiB', '1.5 KiB')
    """
    return _with_unit(n, _SIZE_UNITS)


def _compact_bytes(n: float) -> str:
    # tick labels: "16", "1K", "16K" (K = 1024) so that neighbouring doublings do not collide
    return _with_unit(n, _COMPACT_SIZE_UNITS, sep="")


def format_seconds(seconds: float, digits: int = 3) -> str:
    """A duration with a readable unit.

    >>> format_seconds(7.9e-7), format_seconds(4.1e-9), format_seconds(0.25)
    ('790 ns', '4.1 ns', '250 ms')
    """
    return _with_unit(seconds, _TIME_UNITS, digits)


def format_ratio(ratio: float, digits: int = 3) -> str:
    """A ratio as ``2×``.

    >>> format_ratio(2.0), format_ratio(19.74)
    ('2×', '19.7×')
    """
    return f"{_number(float(ratio), digits)}×"


def _decade_locator(values: Iterable[float]) -> ticker.Locator:
    # Less than ~1.5 decades of data: a tick per decade leaves one or no label, so add 2 and 5.
    # Less than a factor of 4: even 1-2-5 ticks leave one label, so take round linear steps.
    vals = np.asarray([v for v in values if v and np.isfinite(v) and v > 0], dtype=float)
    if vals.size and vals.max() / vals.min() < 4:
        return ticker.MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10])
    if vals.size and vals.max() / vals.min() < 30:
        return ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0))
    return ticker.LogLocator(base=10)


def _scaled(ax, which: str, *args, **kwargs):
    if which not in ("x", "y"):
        raise ValueError(f"`which` must be one of 'x' or 'y'; not {which!r}")
    (ax.set_xscale if which == "x" else ax.set_yscale)(*args, **kwargs)
    return ax.xaxis if which == "x" else ax.yaxis


def rate_axis(ax, which: str = "y", values: Iterable[float] = ()) -> None:
    """Log scale on ``ax``'s ``which`` axis, every tick labelled in MB/s, GB/s, ..."""
    axis = _scaled(ax, which, "log")
    axis.set_major_locator(_decade_locator(values))
    axis.set_major_formatter(_Spaced(format_rate))
    axis.set_minor_formatter(ticker.NullFormatter())


def time_axis(ax, which: str = "y", values: Iterable[float] = ()) -> None:
    """Log scale with ticks labelled in ns/µs/ms (values in seconds)."""
    axis = _scaled(ax, which, "log")
    axis.set_major_locator(_decade_locator(values))
    axis.set_major_formatter(_Spaced(format_seconds))
    axis.set_minor_formatter(ticker.NullFormatter())


def size_axis(ax, which: str = "x", sizes: Iterable[float] = ()) -> None:
    """Log-2 scale with a tick at each block size present, labelled ``16``, ``1K``, ``16K``."""
    ticks = sorted({float(s) for s in sizes if s is not None and np.isfinite(s) and s > 0})
    axis = _scaled(ax, which, "log", base=2)
    if ticks:
        axis.set_major_locator(ticker.FixedLocator(ticks))
    axis.set_major_formatter(_Spaced(_compact_bytes))
    axis.set_minor_locator(ticker.NullLocator())


class _Spaced(ticker.Formatter):
    """Labels from ``text(value)`` at each tick, leaving out those that would touch a neighbour.

    Block sizes one doubling apart (8K, 16K) or 1-2-5 ratio ticks collide on a single-column
    figure; which labels fit is decided at draw time from the ticks' printed positions and the
    labels' font size: the label at the ``keep`` end first (the largest block size, the bulk
    rate), then every label that leaves room after the last one kept.
    """

    def __init__(self, text, keep: str = "high"):
        self.text, self.keep = text, keep
        self._shown = None

    def set_locs(self, locs):
        super().set_locs(locs)
        self._shown = self._fitting([float(v) for v in locs])

    def _fitting(self, locs: list[float]):
        axis = self.axis
        if axis is None or len(locs) < 2:
            return None
        ax = axis.axes
        horizontal = axis is ax.xaxis
        lo, hi = sorted(axis.get_view_interval())
        locs = sorted(v for v in locs if lo <= v <= hi and np.isfinite(v))
        if len(locs) < 2:
            return None
        pts = np.column_stack([locs, locs])
        pos = ax.transData.transform(pts)[:, 0 if horizontal else 1]  # pixels
        ticks = axis.get_major_ticks()
        size = ticks[0].label1.get_fontsize() if ticks else 7.0
        em = size * ax.figure.dpi / 72
        # extent along the axis: a label's width (x; DejaVu digits ~0.64 em) or its height (y)
        extent = [(0.66 * len(self.text(v)) * em) if horizontal else 1.15 * em for v in locs]
        order = range(len(locs) - 1, -1, -1) if self.keep == "high" else range(len(locs))
        shown, last = set(), None
        for k in order:
            if last is None or abs(pos[last] - pos[k]) >= (extent[last] + extent[k]) / 2 + 0.3 * em:
                shown.add(locs[k])
                last = k
        return shown

    def __call__(self, x, pos=None):
        return self.text(x) if self._shown is None or x in self._shown else ""


def ratio_axis(ax, which: str = "y", values: Iterable[float] = (), *, log: bool | None = None) -> None:
    """Ticks labelled ``2×``; log scale when the ratios span more than a factor of 4 (or ``log``)."""
    vals = np.asarray([v for v in values if v is not None and np.isfinite(v) and v > 0], dtype=float)
    if log is None:
        log = bool(vals.size) and vals.max() / vals.min() > 4
    axis = _scaled(ax, which, "log" if log else "linear")
    if log:
        axis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        axis.set_minor_formatter(ticker.NullFormatter())
    axis.set_major_formatter(_Spaced(format_ratio, keep="low"))


_SIDE_CHARS = 36  # an ISA side in a legend: what a single-column figure's legend holds


def label_from_keys(frame, keys: Iterable[str], *, sep: str = " · ") -> "list[str]":
    """One label per row from the key columns whose values differ between rows.

    Keys that are constant over the frame say nothing to tell lines apart, so they are left out;
    when every key is constant the first non-empty one is used. A row's ISA condition is named
    once, from the column it is read from, as everywhere else
    (:func:`cipherlab.runners._isa.isa_column`, :func:`~cipherlab.runners._isa.side_name`).

    >>> import pandas as pd
    >>> f = pd.DataFrame({"algorithm": ["aes-128-gcm"] * 2, "aesni": ["on", "off"]})
    >>> label_from_keys(f, ["algorithm", "aesni"])
    ['AES-NI on', 'AES-NI off']
    >>> f = pd.DataFrame({"isa_off": ["none", "aesni+pclmulqdq", None],
    ...                   "isa": ["native", "no-aesni", "no-aesni"]})
    >>> label_from_keys(f, ["isa_off", "isa"])
    ['nothing off', 'off: aesni+pclmulqdq', 'isa=no-aesni (mask not recorded)']

    A row without any of the keys that tell the others apart says so (a run that recorded no
    ISA condition beside runs that did):

    >>> label_from_keys(pd.DataFrame({"aesni": ["on", None], "isa": ["native", None]}),
    ...                 ["aesni", "isa"])
    ['AES-NI on', 'ISA not recorded']
    """
    from cipherlab.runners._isa import ISA_COLUMNS, aes_name, isa_column, side_name

    keys = [k for k in keys if k in frame.columns]
    varying = [k for k in keys if frame[k].astype("object").nunique(dropna=False) > 1]
    if not varying:
        varying = [k for k in keys if frame[k].notna().any()][:1]
    # self-explanatory values: no "key=" prefix
    named = {"algorithm", "label", "source", "candidate", "host", "machine", "tool",
             "tool_version", "cipher", "effect", "build"}
    reads = isa_column(frame[[k for k in varying if k in ISA_COLUMNS]]).to_numpy()
    aes = aes_name(frame) if "aesni" in varying else None  # (AES-NI, ARMv8 AES on ARM)
    out = []
    for i, (_, row) in enumerate(frame.iterrows()):
        parts = []
        for k in varying:
            v = row[k]
            if v is None or (isinstance(v, float) and math.isnan(v)) or v is np.nan:
                continue
            if k in ISA_COLUMNS:
                if k == reads[i]:  # a long list of features switched off: cut, counted
                    parts.append(side_name(k, v, width=_SIDE_CHARS, aes=aes))
                continue
            if k == "source":  # a file's name, not the path it was read from
                v = str(v).replace("\\", "/").rsplit("/", 1)[-1]
            if k == "effect":  # (its "(chacha20-poly1305 does not use AES)" repeats the line's name)
                v = re.sub(r" \(\S+ does not use AES\)$", "", str(v))
            parts.append(str(v) if k in named else f"{k}={v}")
        out.append(sep.join(parts) if parts else
                   f"{column_words(varying)} not recorded" if varying else "(all)")
    return out


def column_words(columns: Iterable[str]) -> str:
    """Key columns named in words, the ISA condition once whatever columns hold it.

    >>> column_words(["isa_off", "aesni", "isa"]), column_words(["tier", "tool_version"])
    ('ISA', 'tier, tool version')
    """
    from cipherlab.runners._isa import ISA_COLUMNS

    words = ("ISA" if c in ISA_COLUMNS else str(c).replace("_", " ") for c in columns)
    return ", ".join(dict.fromkeys(words))


def fit_tick_labels(ax, which: str = "x") -> None:
    """Categorical tick labels that do not overlap at the figure's printed size: horizontal when
    they fit, else upright (90 degrees), else upright in a smaller font. Measured on a layout
    pass of the figure, not guessed from the number of labels. Row labels (``"y"``) that seaborn
    turned upright, or wider than 60 % of the figure (a file's name standing for a machine), lie
    down wrapped onto lines of a third of its width; row labels shrink where rows are too thin."""
    from cipherlab.plots._layout import _SLACK_PX, _overlap, _renderer

    axis = ax.xaxis if which == "x" else ax.yaxis

    def collide() -> bool:  # (labels closer than a space apart read as one: "aes-128-gcmchacha20")
        renderer = _renderer(ax.figure)
        labels = [t for t in axis.get_ticklabels() if t.get_text()]
        pad = [_SLACK_PX / 2 + 0.15 * t.get_fontsize() * ax.figure.dpi / 72 if which == "x"
               else 0.0 for t in labels]
        boxes = [t.get_window_extent(renderer).padded(p) for t, p in zip(labels, pad, strict=True)]
        return any(_overlap(a, b) > 0 for a, b in zip(boxes, boxes[1:]))

    if which == "x":
        axis.set_tick_params(labelrotation=0)
        for t in axis.get_ticklabels():
            t.set_horizontalalignment("center")
        if not collide():
            return
        axis.set_tick_params(labelrotation=90)
    else:
        # seaborn turns long row labels upright (unreadably small once shrunk to fit); a label
        # wider than 60 % of the figure leaves the figure: both lie down, wrapped
        fig, renderer = ax.figure, _renderer(ax.figure)
        labels = axis.get_ticklabels()
        wide = [t.get_rotation() or t.get_window_extent(renderer).width
                > 0.6 * fig.get_figwidth() * fig.dpi for t in labels]
        if any(wide):
            room = fig.get_figwidth() * 72 / 3
            axis.set_ticklabels([_wrapped(t.get_text(), room, t.get_fontsize()) if w else
                                 t.get_text() for t, w in zip(labels, wide, strict=True)])
            axis.set_tick_params(labelrotation=0)
    size = axis.get_ticklabels()[0].get_fontsize() if axis.get_ticklabels() else 7.0
    while collide() and size > 4.0:
        size -= 0.5
        axis.set_tick_params(labelsize=size)


def _wrapped(text: str, room_pt: float, size: float, lines: int | None = None) -> str:
    """``text`` broken at spaces into lines no longer than ``room_pt`` (at ``size`` points); past
    ``lines`` lines, cut with an ellipsis."""
    per_line = max(8, int(room_pt / (0.6 * size)))
    if "\n" in text or len(text) <= per_line:
        return text
    import textwrap

    out = textwrap.wrap(text, per_line)
    if lines is not None and len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][:per_line - 1].rstrip() + "…"
    return "\n".join(out)


_YLABEL_LINES = 3  # a y label naming a long baseline (an ISA list) took a quarter of the width


def fit_labels(ax) -> None:
    """Wrap a y label longer than the axes are tall (cut past three lines: the caption or the
    legend names a long value whole), and a title wider than the figure."""
    fig = ax.figure
    pos = ax.get_position()
    ylabel = ax.yaxis.get_label()
    if ylabel.get_text():
        ylabel.set_text(_wrapped(ylabel.get_text(), 0.6 * pos.height * fig.get_figheight() * 72,
                                 ylabel.get_fontsize(), lines=_YLABEL_LINES))
    title = ax.title
    if title.get_text():
        title.set_text(_wrapped(title.get_text(), 0.75 * fig.get_figwidth() * 72,
                                title.get_fontsize()))
