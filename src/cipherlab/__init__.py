"""cipherlab: read, capture, analyse and plot cipher benchmarks.

>>> import cipherlab
>>> df = cipherlab.ingest(cipherlab.datasets.path("aws-wiki-aesni-on-off.txt"))  # doctest: +SKIP
>>> cipherlab.stats.speedup(df, by="aesni", on="on", off="off")                     # doctest: +SKIP

The public surface is listed in ``__all__``. Names are resolved lazily, so ``import cipherlab``
stays light: it pulls in neither matplotlib nor ipywidgets until a plot or widget is asked for.
Implementation packages are named for what they contain (``readers``, ``runners``, ``reporting``)
so that ``cipherlab.ingest``, ``cipherlab.capture`` and ``cipherlab.report`` are always the functions.
"""

from __future__ import annotations

import importlib
from typing import Any

from cipherlab.errors import (
    AnalysisError,
    CaptureError,
    CaptureWarning,
    CipherlabError,
    CipherlabWarning,
    ComparabilityWarning,
    IngestError,
    IngestWarning,
    InventoryError,
    PlausibilityWarning,
    RemoteError,
    UnsupportedAlgorithmError,
)

__version__ = "0.1.0"

# public name -> (module, attribute); attribute None means the module itself
_LAZY: dict[str, tuple[str, str | None]] = {
    "ingest": ("cipherlab.readers", "ingest"),
    "capture": ("cipherlab.runners", "capture"),
    "capture_python": ("cipherlab.runners", "capture_python"),
    "capture_jca": ("cipherlab.runners", "capture_jca"),
    "capture_gnutls": ("cipherlab.runners", "capture_gnutls"),
    "capture_tls": ("cipherlab.runners", "capture_tls"),
    "host_info": ("cipherlab.runners", "host_info"),
    "predict_tls": ("cipherlab.stats", "predict_tls"),
    "ISA_PRESETS": ("cipherlab.runners", "ISA_PRESETS"),
    "JVM_PRESETS": ("cipherlab.runners", "JVM_PRESETS"),
    "report": ("cipherlab.reporting", "report"),
    "save_figure": ("cipherlab.plots", "save_figure"),
    "read_table": ("cipherlab.model", "read_table"),
    "write_table": ("cipherlab.model", "write_table"),
    "concat": ("cipherlab.model", "concat"),
    "scratch": ("cipherlab._scratch", "scratch"),
    "algorithms": ("cipherlab.algorithms", None),
    "datasets": ("cipherlab.datasets", None),
    "model": ("cipherlab.model", None),
    "narrative": ("cipherlab.narrative", None),
    "stats": ("cipherlab.stats", None),
    "plots": ("cipherlab.plots", None),
    "widgets": ("cipherlab.widgets", None),
}

__all__ = [
    "AnalysisError",
    "CaptureError",
    "CaptureWarning",
    "CipherlabError",
    "CipherlabWarning",
    "ComparabilityWarning",
    "ISA_PRESETS",
    "IngestError",
    "IngestWarning",
    "InventoryError",
    "JVM_PRESETS",
    "PlausibilityWarning",
    "RemoteError",
    "UnsupportedAlgorithmError",
    "algorithms",
    "capture",
    "capture_gnutls",
    "capture_jca",
    "capture_python",
    "capture_tls",
    "concat",
    "datasets",
    "host_info",
    "ingest",
    "model",
    "narrative",
    "plots",
    "predict_tls",
    "read_table",
    "report",
    "save_figure",
    "scratch",
    "stats",
    "widgets",
    "write_table",
]


def __getattr__(name: str) -> Any:
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'cipherlab' has no attribute {name!r}") from None
    value = importlib.import_module(module)
    if attr is not None:
        value = getattr(value, attr)
    globals()[name] = value  # resolve once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
