"""The main job: dumps and captures in, a finished analysis out (``cipherlab report``).

Why this module exists: every question people bring to cipher benchmarks ("is AES-NI really 2x?",
"why is GCM slow on small messages?", "which machine/build is fastest, and are the numbers even
plausible?") needs the same chain: read the dumps, run the right tests, draw the figures, and
explain the result in words a colleague can check. :func:`report` runs that chain on any set of
sources (by default the bundled real data) and leaves a folder with:

* ``report.html``: one self-contained page (figures embedded as data URIs, opens offline) that
  walks through the findings with the numbers, the tests and the warnings;
* ``figures/``: every figure as PDF, SVG and PNG (deterministic, TrueType fonts);
* ``tables/``: every result table as CSV, LaTeX (booktabs) and Markdown;
* ``data.csv``: the tidy table the analysis used.

It uses only the public API: :func:`cipherlab.ingest` / :func:`cipherlab.datasets.load` for data,
:mod:`cipherlab.stats` for every number that involves estimation or testing, and
:mod:`cipherlab.plots` for every figure. This module selects subsets, calls those functions and
writes what they return; it computes no statistics of its own.
"""

from cipherlab.reporting._report import report
from cipherlab.reporting._tables import paper_latex

__all__ = ["paper_latex", "report"]
