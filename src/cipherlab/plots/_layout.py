"""Does a figure's text fit? Overlapping labels, text off the page, legends that crowd the plot.

Why a module of its own: a journal figure is judged at its printed width, where matplotlib gives
no warning when tick labels run into each other (``16642561K8K``) or a legend takes half the
width. :func:`layout_problems` measures the rendered bounding boxes of every visible text and
legend, so tests (and users before a submission) can check a figure at single and double width.
"""

from __future__ import annotations

from itertools import combinations

__all__ = ["MAX_LEGEND_SHARE", "layout_problems"]

#: The largest share of the figure's area a legend may take (a legend under a single-column
#: figure takes a fifth to a quarter of it; beside the axes it took three quarters of the width).
MAX_LEGEND_SHARE = 0.3
_SLACK_PX = 1.0  # boxes that touch within a pixel do not collide


def _renderer(fig):
    canvas = fig.canvas
    if not hasattr(canvas, "get_renderer"):  # a bare Figure(): give it an Agg canvas to measure
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        canvas = FigureCanvasAgg(fig)
    fig.draw_without_rendering()
    return canvas.get_renderer()


def _overlap(a, b) -> float:
    w = min(a.x1, b.x1) - max(a.x0, b.x0) - _SLACK_PX
    h = min(a.y1, b.y1) - max(a.y0, b.y0) - _SLACK_PX
    return w * h if w > 0 and h > 0 else 0.0


def _undrawn_tick_labels(fig) -> set[int]:
    """Labels of ticks outside the view: matplotlib keeps them (visible) but does not draw them."""
    out = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            span = abs(hi - lo) * 1e-9
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not lo - span <= tick.get_loc() <= hi + span:
                    out |= {id(tick.label1), id(tick.label2)}
    return out


def _texts(fig, renderer):
    from matplotlib.text import Text

    out, hidden = [], _undrawn_tick_labels(fig)
    for t in fig.findobj(Text):
        if (not t.get_visible() or not t.get_text().strip() or t.get_alpha() == 0
                or id(t) in hidden):
            continue
        box = t.get_window_extent(renderer)
        if box.width > 0 and box.height > 0:
            out.append((t, box))
    return out


def layout_problems(fig) -> list[str]:
    """Every text overlap, text outside the figure and oversized legend of ``fig``.

    Parameters
    ----------
    fig
        A :class:`matplotlib.figure.Figure` (or an Axes: its figure), at the size it will be
        printed (use :func:`cipherlab.plots.paper`).

    Returns
    -------
    list of str
        One line per problem (empty when the figure is clean): ``'16K' overlaps '8K'``,
        ``'…' is outside the figure``, ``legend takes 41% of the figure``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure(figsize=(2, 1))
    >>> ax = fig.add_subplot()
    >>> _ = ax.text(0.1, 0.5, "one label"); _ = ax.text(0.15, 0.5, "another label")
    >>> layout_problems(fig)[0]
    "'one label' overlaps 'another label'"
    """
    fig = getattr(fig, "figure", fig) if not hasattr(fig, "savefig") else fig
    renderer = _renderer(fig)
    page = fig.bbox
    problems = []
    texts = _texts(fig, renderer)
    for (ta, a), (tb, b) in combinations(texts, 2):
        if _overlap(a, b) > 0:
            problems.append(f"{ta.get_text()!r} overlaps {tb.get_text()!r}")
    for t, box in texts:
        if (box.x0 < page.x0 - _SLACK_PX or box.y0 < page.y0 - _SLACK_PX
                or box.x1 > page.x1 + _SLACK_PX or box.y1 > page.y1 + _SLACK_PX):
            problems.append(f"{t.get_text()!r} is outside the figure")
    legends = [ax.get_legend() for ax in fig.axes] + list(fig.legends)
    for legend in filter(None, legends):
        box = legend.get_window_extent(renderer)
        share = box.width * box.height / (page.width * page.height)
        if share > MAX_LEGEND_SHARE:
            problems.append(f"legend takes {share:.0%} of the figure")
    return problems
