"""Figures for papers: axes-level plots, a scoped paper theme and one deterministic exporter.

Every plot function takes a tidy table or a :mod:`cipherlab.stats` result, draws on one Axes
(``ax=None`` means the current one), returns it and never shows it. Colours come from
:func:`palette`, so an algorithm keeps its colour in every figure. Plots never compute
statistics: they draw what :mod:`cipherlab.stats` computed.

>>> import matplotlib; matplotlib.use("Agg")
>>> from cipherlab import plots
>>> plots.palette(["aes-128-gcm"])
{'aes-128-gcm': '#0072B2'}
"""

from cipherlab.plots._axes import format_bytes, format_rate, format_ratio, format_seconds
from cipherlab.plots._figures import cost_model, heatmap, overhead, speedup, throughput, transfers
from cipherlab.plots._layout import layout_problems
from cipherlab.plots._palette import ALGORITHM_ORDER, COLORS, color_for, palette
from cipherlab.plots._theme import COLUMN_INCHES, paper, save_figure

__all__ = [
    "ALGORITHM_ORDER",
    "COLORS",
    "COLUMN_INCHES",
    "color_for",
    "cost_model",
    "format_bytes",
    "format_rate",
    "format_ratio",
    "format_seconds",
    "heatmap",
    "layout_problems",
    "overhead",
    "palette",
    "paper",
    "save_figure",
    "speedup",
    "throughput",
    "transfers",
]
