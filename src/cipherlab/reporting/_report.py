"""The entry point: load the sources, run every section, write the files and the page."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Callable, Sequence

import pandas as pd

from cipherlab.reporting._aesni import aesni
from cipherlab.reporting._blocks import PNG_DPI, Section, Writer
from cipherlab.reporting._libraries import libraries
from cipherlab.reporting._inputs import load
from cipherlab.reporting._machines import builds, machines
from cipherlab.reporting._overview import overview
from cipherlab.reporting._page import build_page
from cipherlab.reporting._plausibility import plausibility
from cipherlab.reporting._small_blocks import small_blocks
from cipherlab.reporting._tiers import tiers
from cipherlab.reporting._transfers import transfers
from cipherlab.reporting._words import esc, unique_values

__all__ = ["report"]


def _run(section: Callable, df: pd.DataFrame, w: Writer) -> Section:
    """Run one analysis; its cipherlab warnings go onto the page (other warnings pass through)."""
    from cipherlab.errors import AnalysisError, CipherlabWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CipherlabWarning)
        try:
            sec = section(df, w)
        except AnalysisError as err:  # a subset that cannot answer: say so on the page
            name = section.__name__.strip("_")
            sec = Section(name, name.replace("_", " ").capitalize())
            sec.say(f"This analysis could not run on these data: {esc(err)}")
    seen = dict.fromkeys(str(m.message) for m in caught if issubclass(m.category, CipherlabWarning))
    sec.warnings += list(seen)
    for m in caught:
        if not issubclass(m.category, CipherlabWarning):
            warnings.warn_explicit(m.message, m.category, m.filename, m.lineno)
    return sec


#: The analyses, in the order of the page.
_SECTIONS: list[Callable[[pd.DataFrame, Writer], Section]] = [
    overview, aesni, small_blocks, machines, builds, tiers, libraries, transfers, plausibility]


def report(sources=None, *, out: str | Path = "report", label: str | Sequence[str] | None = None,
           baseline: str | None = None, progress: bool | None = None) -> Path:
    """Analyse dumps and captures; write figures, tables and a self-contained ``report.html``.

    Parameters
    ----------
    sources
        What to analyse: a path, glob, folder, capture folder, folder of captures, tidy CSV or
        Parquet, text, file object or tidy DataFrame, or a list of them (anything
        :func:`cipherlab.ingest` reads, and DataFrames). ``None`` (the default) analyses the
        bundled data (:func:`cipherlab.datasets.load`): the AWS AES-NI on/off table, the
        three-OS mailing-list dumps, the implementation-tier table, the OpenJDK TLS figures and
        the captures of two hosts.
    out
        The report folder (created if needed; files of an earlier report are overwritten, and
        the figures and tables it wrote that this report does not are removed).
    label
        A name for each source (one string for one source, or one per source): the machine its
        rows are reported as. Without it a machine is named by its ``host``, its ``cpu``, its run
        labels when they name systems, or else the file name (rules in ``reporting._inputs``).
    baseline
        The reference machine of the machines section or the reference tier of the tiers
        section (default: the machine with the most cells, and ``no-asm``).
    progress
        Show a progress bar; default only when standard error is a terminal.

    Returns
    -------
    Path
        The path of ``report.html``. Beside it: ``figures/`` (PDF, SVG, PNG of every figure),
        ``tables/`` (CSV, LaTeX, Markdown of every table) and ``data.csv`` (the tidy table).

    Notes
    -----
    The analyses: AES-NI speed-ups per mode and block size and the test of the "2x" claim
    (:func:`cipherlab.stats.speedup`, :func:`~cipherlab.stats.ratio_test`); the per-call cost of
    small blocks, GCM against CBC (:func:`~cipherlab.stats.cost_model`,
    :func:`~cipherlab.stats.crossover`, :func:`~cipherlab.stats.small_block_overhead`);
    machines and implementation tiers (:func:`~cipherlab.stats.compare`); and plausibility
    (:func:`~cipherlab.stats.lint`, :func:`~cipherlab.stats.comparable`). The
    :class:`~cipherlab.errors.CipherlabWarning` s raised along the way are not printed: the page
    lists them next to the analysis that raised them. An analysis the data cannot answer (an
    :class:`~cipherlab.errors.AnalysisError`) is reported on the page with its message instead
    of stopping the report.

    Examples
    --------
    One seed document (the whole bundled data takes ~20 s: ``cipherlab.report()``):

    >>> import tempfile, warnings, cipherlab
    >>> seed = cipherlab.datasets.path("aws-wiki-aesni-on-off.txt")
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     page = cipherlab.report(seed, out=tempfile.mkdtemp())
    >>> page.name, sorted(p.suffix for p in page.parent.glob("figures/aesni-speedup-*"))
    ('report.html', ['.pdf', '.png', '.svg'])
    >>> "one run per side: described, not tested" in page.read_text(encoding="utf-8")
    True
    """
    return _build(sources, out=out, label=label, baseline=baseline, progress=progress)[0]


def _build(sources, *, out, label, baseline, progress) -> tuple[Path, Writer]:
    """:func:`report`, returning the page and the writer (which keeps how each figure is drawn)."""
    from cipherlab import plots

    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency; keep report usable without
        def tqdm(it, **_kw):
            return it

    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"`out` must be a folder that can be created and written; not {str(out)!r}"
                         f" ({err.strerror})") from err
    inputs = load(sources, label)
    df, sources_text = inputs.df, esc(", ".join(inputs.names))
    if df.empty:
        from cipherlab.errors import AnalysisError
        raise AnalysisError(f"the sources hold no measurements to report on: {sources_text}")
    colours = plots.palette(unique_values(df["algorithm"]))
    w = Writer(out, colours, baseline=baseline, facts=inputs.facts)
    data_csv = out / "data.csv"
    df.to_csv(data_csv, index=False)
    # No pyplot: figures are created with matplotlib.figure.Figure, so no GUI backend is touched
    # and no figure lingers in pyplot's registry.
    if progress is None:
        progress = sys.stderr.isatty()
    sections = [_run(fn, df, w) for fn in tqdm(_SECTIONS, desc="report", unit="analysis",
                                                 leave=False, disable=not progress)]
    notes = [
        "Made with cipherlab from the tidy table in <a href='data.csv'>data.csv</a>. Figures: "
        "<code>figures/</code> (PDF and SVG with embedded TrueType fonts, PNG at "
        f"{PNG_DPI} dpi); tables: <code>tables/</code> (CSV, LaTeX/booktabs, Markdown).",
        "Statistics by <code>cipherlab.stats</code>: ratios on the log scale with t intervals; "
        "Holm adjustment for multiple comparisons; TOST for equivalence.",
    ]
    w.remove_stale()
    page = out / "report.html"
    page.write_text(build_page(sections, notes, out, sources_text), encoding="utf-8")
    return page, w
