"""The entry point: load the sources, run every section, write the files and the page."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Callable

import pandas as pd

from cipherlab.reporting._aesni import aesni
from cipherlab.reporting._blocks import PNG_DPI, Section, Writer
from cipherlab.reporting._machines import machines
from cipherlab.reporting._overview import overview
from cipherlab.reporting._page import build_page
from cipherlab.reporting._plausibility import plausibility
from cipherlab.reporting._small_blocks import small_blocks
from cipherlab.reporting._tiers import tiers
from cipherlab.reporting._transfers import transfers
from cipherlab.reporting._words import esc, unique_values

__all__ = ["report"]


def _load(sources) -> tuple[pd.DataFrame, str]:
    import cipherlab

    if sources is None:
        return cipherlab.datasets.load(), "the bundled data (four seed documents, two host captures)"
    if isinstance(sources, (str, Path)):
        sources = [sources]
    sources = list(sources)
    if not sources:
        raise ValueError("`sources` must name at least one dump or capture folder, or be None "
                         "for the bundled data; not an empty list")
    frames = [cipherlab.ingest(s) for s in sources]
    return cipherlab.concat(frames), ", ".join(esc(s) for s in sources)


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
    overview, aesni, small_blocks, machines, tiers, transfers, plausibility]


def report(sources=None, *, out: str | Path = "report") -> Path:
    """Analyse dumps and captures; write figures, tables and a self-contained ``report.html``.

    Parameters
    ----------
    sources
        What to analyse: a path, glob or capture folder, or a list of them (anything
        :func:`cipherlab.ingest` reads). ``None`` (the default) analyses the bundled data
        (:func:`cipherlab.datasets.load`): the AWS AES-NI on/off table, the three-OS mailing-list
        dumps, the implementation-tier table, the OpenJDK TLS figures and the captures of two
        hosts.
    out
        The report folder (created if needed; files of an earlier report are overwritten).

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
    import matplotlib

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
    df, sources_text = _load(sources)
    if df.empty:
        from cipherlab.errors import AnalysisError
        raise AnalysisError(f"the sources hold no measurements to report on: {sources_text}")
    colours = plots.palette(unique_values(df["algorithm"]))
    w = Writer(out, colours)
    data_csv = out / "data.csv"
    df.to_csv(data_csv, index=False)
    # No pyplot: figures are created with matplotlib.figure.Figure, so no GUI backend is touched
    # and no figure lingers in pyplot's registry.
    del matplotlib
    sections = [_run(fn, df, w) for fn in tqdm(_SECTIONS, desc="report", unit="analysis",
                                                 leave=False)]
    notes = [
        "Made with cipherlab from the tidy table in <a href='data.csv'>data.csv</a>. Figures: "
        "<code>figures/</code> (PDF and SVG with embedded TrueType fonts, PNG at "
        f"{PNG_DPI} dpi); tables: <code>tables/</code> (CSV, LaTeX/booktabs, Markdown).",
        "Statistics by <code>cipherlab.stats</code>: ratios on the log scale with t intervals; "
        "Holm adjustment for multiple comparisons; TOST for equivalence.",
    ]
    page = out / "report.html"
    page.write_text(build_page(sections, notes, out, sources_text), encoding="utf-8")
    return page
