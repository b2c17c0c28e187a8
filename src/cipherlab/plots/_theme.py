"""The paper theme and the one figure exporter.

Why: a figure for a paper must fit a journal column, use fonts a publisher accepts (TrueType
embedded, never bitmap Type 3 fonts) and be reproducible: the same data must give the same bytes,
so a figure checked into a paper's repository only changes when its data does. Matplotlib gets
there with a handful of settings that are easy to forget; they live here, scoped by
:func:`matplotlib.rc_context` so that importing or calling cipherlab never changes a user's global
``rcParams``.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Iterator, Sequence

import matplotlib as mpl

__all__ = ["COLUMN_INCHES", "EXPORT_RC", "paper", "save_figure"]

#: Figure widths for journal layouts, in inches: one column (89 mm, Nature/IEEE ~3.5 in) and the
#: full page width (183 mm).
COLUMN_INCHES = {"single": 3.5, "double": 7.2}

#: rcParams that make exported files deterministic and publisher-friendly. Applied by
#: :func:`save_figure` for the duration of the save only.
EXPORT_RC = {
    "pdf.fonttype": 42,  # TrueType (Type 42) fonts embedded as /FontFile2; no Type 3 bitmaps
    "ps.fonttype": 42,
    "svg.fonttype": "none",  # text stays text in SVG (selectable, searchable), no glyph paths
    "svg.hashsalt": "cipherlab",  # SVG element ids from a fixed salt instead of random uuids
    "pdf.compression": 6,
    "savefig.facecolor": "white",
    "savefig.edgecolor": "white",
}

# No timestamps, no host names: the same figure must give the same bytes.
_METADATA = {
    "pdf": {"Creator": "cipherlab", "CreationDate": None, "ModDate": None},
    "svg": {"Creator": "cipherlab", "Date": None},
    "png": {"Software": "cipherlab"},
}
_FORMATS = tuple(_METADATA)


def _paper_rc(font_size: float, width: float) -> dict:
    small = font_size - 1
    return {
        **EXPORT_RC,
        # DejaVu Sans ships with matplotlib: the same glyphs on every machine that renders the figure
        "font.family": "sans-serif",
        "font.sans-serif": ["DejaVu Sans"],
        "mathtext.fontset": "dejavusans",
        "font.size": font_size,
        "axes.titlesize": font_size,
        "axes.labelsize": font_size,
        "xtick.labelsize": small,
        "ytick.labelsize": small,
        "legend.fontsize": small,
        "legend.title_fontsize": small,
        "legend.frameon": False,
        "figure.titlesize": font_size + 1,
        "figure.figsize": (width, width * 0.75),
        "figure.dpi": 100,
        "savefig.dpi": 300,
        "lines.linewidth": 1.2,
        "lines.markersize": 4,
        "axes.linewidth": 0.6,
        "grid.linewidth": 0.4,
        "xtick.major.width": 0.6,
        "ytick.major.width": 0.6,
        "xtick.major.size": 3,
        "ytick.major.size": 3,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "grid.color": "#dddddd",
        "axes.axisbelow": True,
    }


def _width_inches(width: str | float) -> float:
    if isinstance(width, str):
        try:
            return COLUMN_INCHES[width]
        except KeyError:
            raise ValueError(f"`width` must be one of {sorted(COLUMN_INCHES)} or a number of "
                             f"inches; not {width!r}") from None
    try:
        inches = float(width)
    except (TypeError, ValueError):
        raise ValueError(f"`width` must be one of {sorted(COLUMN_INCHES)} or a number of inches; "
                         f"not {width!r}") from None
    if not inches > 0:
        raise ValueError(f"`width` must be a positive number of inches; not {width!r}")
    return inches


@contextlib.contextmanager
def paper(width: str | float = "single", *, font_size: float = 8.0) -> Iterator[dict]:
    """Scoped rcParams for journal figures: column width, 8 pt DejaVu Sans, thin lines, TrueType.

    Everything is restored on exit (it is :func:`matplotlib.rc_context` underneath), so it never
    leaks into a notebook's later figures. Usable as a ``with`` block or a decorator.

    Parameters
    ----------
    width
        ``"single"`` (3.5 in), ``"double"`` (7.2 in) or inches: the default figure width; the
        height is three quarters of it.
    font_size
        Base font size in points (tick labels and legends are one point smaller).

    Yields
    ------
    dict
        The rcParams in effect inside the block.

    Examples
    --------
    >>> import matplotlib as mpl
    >>> with paper("double") as rc:
    ...     mpl.rcParams["figure.figsize"][0], mpl.rcParams["pdf.fonttype"]
    (7.2, 42)
    >>> mpl.rcParams["pdf.fonttype"] == 42
    False
    """
    rc = _paper_rc(float(font_size), _width_inches(width))
    with mpl.rc_context(rc):
        yield rc


def save_figure(fig, path: str | Path, formats: Sequence[str] = ("pdf", "svg", "png"), *,
                width: str | float | None = None, height: float | None = None,
                dpi: float = 300, caption: str | None = None) -> list[Path]:
    """Write ``fig`` as PDF, SVG and PNG (or a subset), deterministically.

    The same figure always gives the same bytes: no creation dates, fixed SVG ids, TrueType fonts
    embedded in the PDF (no Type 3), text kept as text in the SVG, and the PNG at ``dpi``.

    Parameters
    ----------
    fig
        A :class:`matplotlib.figure.Figure`, or anything with a ``.figure`` (an Axes, a seaborn
        ``FacetGrid``).
    path
        Where to write, without or with a suffix: ``figs/speedup`` or ``figs/speedup.pdf`` both
        give ``figs/speedup.pdf``, ``.svg`` and ``.png``. Missing folders are created.
    formats
        Any of ``"pdf"``, ``"svg"``, ``"png"``.
    width
        ``"single"`` (3.5 in), ``"double"`` (7.2 in) or inches: the files are exactly that wide
        (a figure without a layout engine gets matplotlib's constrained layout to fit its labels).
        The aspect ratio is kept unless ``height`` is given; the figure's size is restored after
        saving. ``None`` keeps the figure's size and trims the white margins.
    height
        Height in inches (with ``width``).
    dpi
        Resolution of the PNG (vector formats ignore it, except for embedded images).
    caption
        What the figure shows (what was measured, how many runs, which interval), kept in each
        file's own metadata: the PDF's *Subject*, the SVG's and the PNG's *Description*.

    Returns
    -------
    list of Path
        The files written, in the order of ``formats``.

    Examples
    --------
    >>> import tempfile
    >>> from matplotlib.figure import Figure
    >>> fig = Figure()
    >>> _ = fig.add_subplot().plot([1, 2], [3, 4])
    >>> out = save_figure(fig, Path(tempfile.mkdtemp()) / "line", width="single")
    >>> [p.suffix for p in out]
    ['.pdf', '.svg', '.png']
    """
    formats = [str(f).lower().lstrip(".") for f in ([formats] if isinstance(formats, str) else formats)]
    bad = [f for f in formats if f not in _FORMATS]
    if bad or not formats:
        raise ValueError(f"`formats` must be a non-empty selection of {list(_FORMATS)}; "
                         f"not {bad or formats!r}")
    if not float(dpi) > 0:
        raise ValueError(f"`dpi` must be a positive number; not {dpi!r}")
    from matplotlib.figure import Figure

    if not isinstance(fig, Figure):  # an Axes, a SubFigure, a seaborn FacetGrid ...
        fig = getattr(fig, "figure", None)
        while fig is not None and not isinstance(fig, Figure) and hasattr(fig, "figure"):
            fig = fig.figure
        if not isinstance(fig, Figure):
            raise TypeError("`fig` must be a matplotlib Figure (or an object with a .figure "
                            f"such as an Axes or a seaborn grid); not {type(fig).__name__}")
    path = Path(path)
    base = path.with_suffix("") if path.suffix.lower().lstrip(".") in _FORMATS else path
    base.parent.mkdir(parents=True, exist_ok=True)

    old_size = tuple(fig.get_size_inches())
    bbox = "tight"
    if width is not None:
        w = _width_inches(width)
        h = float(height) if height is not None else w * old_size[1] / old_size[0]
        fig.set_size_inches(w, h)
        # a column width is a promise: no tight-bbox trimming; let a layout engine fit the content
        bbox = None
        if fig.get_layout_engine() is None:
            fig.set_layout_engine("constrained")
    written = []
    try:
        with mpl.rc_context(EXPORT_RC):
            for fmt in formats:
                out = base.with_name(f"{base.name}.{fmt}")
                meta = _METADATA[fmt] if caption is None else {
                    **_METADATA[fmt], ("Subject" if fmt == "pdf" else "Description"): caption}
                fig.savefig(out, format=fmt, dpi=dpi, metadata=meta, bbox_inches=bbox,
                            pad_inches=0.02)
                written.append(out)
    finally:
        fig.set_size_inches(*old_size)
    return written
