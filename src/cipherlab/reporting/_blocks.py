"""Output records of the report: figures, tables and sections, and the writer of their files."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

import pandas as pd

FIGURE_FORMATS = ("pdf", "svg", "png")
PNG_DPI = 200


@dataclass
class Figure:
    name: str
    caption: str
    png: bytes
    files: list[Path]


@dataclass
class Table:
    name: str
    caption: str
    markdown: str
    files: list[Path]


@dataclass
class Section:
    key: str
    title: str
    blocks: list = field(default_factory=list)  # html strings, Figure, Table in reading order
    findings: list[str] = field(default_factory=list)  # one-line html summaries for the top
    warnings: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        self.blocks.append(f"<p>{text}</p>")

    def items(self, lines: Iterable[str]) -> None:
        lines = list(lines)
        if lines:
            self.blocks.append("<ul>" + "".join(f"<li>{x}</li>" for x in lines) + "</ul>")


class Writer:
    """Writes figures and tables into the report folder and keeps what the page needs."""

    def __init__(self, out: Path, colours: dict[str, str], *, baseline: str | None = None,
                 facts: dict | None = None):
        self.out = out
        self.baseline = baseline  # the reference machine or tier the caller chose, if any
        self.facts = facts or {}  # host facts per machine (capture folders' host.json)
        self.figures = out / "figures"
        self.tables = out / "tables"
        self.colours = colours
        self.files: list[Path] = []
        self.drawings: dict[str, tuple[Callable, float]] = {}  # name -> (draw, aspect)
        for folder in (self.figures, self.tables):
            folder.mkdir(parents=True, exist_ok=True)

    def figure(self, name: str, draw: Callable, caption: str, *, aspect: float = 0.5) -> Figure:
        """Draw on a fresh full-width (7.2 in, two-column) figure and write PDF, SVG and PNG."""
        from cipherlab import plots

        self.drawings[name] = (draw, aspect)
        with plots.paper("double"):
            fig = render(draw, "double", aspect)
            # keep the laid-out positions for all three formats (constrained layout would
            # otherwise run again for every file: a third of the report's time)
            fig.set_layout_engine("none")
            paths = plots.save_figure(fig, self.figures / name, FIGURE_FORMATS,
                                      width=plots.COLUMN_INCHES["double"], dpi=PNG_DPI)
        self.files += paths
        return Figure(name, caption, paths[FIGURE_FORMATS.index("png")].read_bytes(), paths)

    def table(self, name: str, result: pd.DataFrame, caption: str,
              columns: Sequence[str] | None = None) -> Table:
        from cipherlab.reporting import _tables

        cols, same = _tables.same_in_every_row(result, columns)
        caption += same
        csv = self.tables / f"{name}.csv"
        pd.DataFrame(result).to_csv(csv, index=False)
        tex = self.tables / f"{name}.tex"
        tex.write_text(_tables.paper_latex(result, cols, caption, f"tab:{name}") + "\n",
                       encoding="utf-8")
        md_text = _tables.markdown(result, cols)
        md = self.tables / f"{name}.md"
        md.write_text(f"{caption}\n\n{md_text}\n", encoding="utf-8")
        self.files += [csv, tex, md]
        return Table(name, caption, md_text, [csv, tex, md])

    def remove_stale(self) -> list[Path]:
        """Remove the figures and tables an earlier report left in the folder that this one did
        not write (an old ``plausibility.csv`` beside a report that found nothing implausible
        would say what this report does not); returns them."""
        kept, suffixes = set(self.files), {f".{f}" for f in FIGURE_FORMATS} | {".csv", ".tex", ".md"}
        stale = [p for folder in (self.figures, self.tables) for p in sorted(folder.iterdir())
                 if p.is_file() and p.suffix in suffixes and p not in kept]
        for path in stale:
            path.unlink()
        return stale


def render(draw: Callable, width: str = "double", aspect: float = 0.5):
    """A fresh constrained-layout figure at a column width, ``draw`` done on its Axes, laid out.

    ``aspect`` is height over width at double width; a single-column figure is relatively
    taller (its text does not shrink with it), by the square root of the width ratio.
    """
    from matplotlib.figure import Figure as MplFigure

    from cipherlab import plots

    inches = plots.COLUMN_INCHES[width]
    height = inches * aspect * (plots.COLUMN_INCHES["double"] / inches) ** 0.5
    with plots.paper(width):
        fig = MplFigure(figsize=(inches, height), layout="constrained")
        draw(fig.add_subplot())
        fig.draw_without_rendering()
    return fig
