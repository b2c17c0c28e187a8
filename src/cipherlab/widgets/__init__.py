"""Interactive explorers for notebooks: thin ipywidgets controllers over ``plots`` and ``stats``.

Each explorer takes any tidy table (from :func:`cipherlab.ingest` or :func:`cipherlab.capture`),
offers only the choices the table holds, and redraws its figure and table on every change. They
compute nothing themselves: the numbers come from :mod:`cipherlab.stats`, the drawing from
:mod:`cipherlab.plots`, the export from :func:`cipherlab.save_figure`.

- :func:`explorer`: throughput by block size; runs, algorithms, operation, a condition, block
  range; bytes/s, per GHz, cycles per byte or ratio to a baseline.
- :func:`speedup_explorer`: the two sides of a comparison, ratios with intervals, the ratio test
  against a claimed value set with a slider, the table of tests with adjusted p-values.
- :func:`overhead_explorer`: two algorithms' time per call with the fitted cost model, their
  crossover and per-call overhead.

Importing this module imports ipywidgets and matplotlib (``import cipherlab`` does not).
"""

from cipherlab.widgets._base import Explorer
from cipherlab.widgets._explorer import ThroughputExplorer, explorer
from cipherlab.widgets._overhead import OverheadExplorer, overhead_explorer
from cipherlab.widgets._speedup import SpeedupExplorer, speedup_explorer

__all__ = ["Explorer", "OverheadExplorer", "SpeedupExplorer", "ThroughputExplorer", "explorer",
           "overhead_explorer", "speedup_explorer"]
