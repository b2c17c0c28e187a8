"""The cyclic garbage collector paused around work that makes many objects and frees no cycles.

Reading a folder of dumps and redrawing a widget's figures each allocate far more objects than
the collector's thresholds, so it would run several passes in their middle, each walking every
object still alive, while almost nothing they make is a reference cycle: reference counting
frees it. Pausing the collector for the length of the work saves those passes; it resumes
afterwards and collects at the next allocation.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["paused"]


@contextmanager
def paused() -> Iterator[None]:
    """Pause the cyclic garbage collector inside the block; it resumes afterwards if it was on.

    >>> import gc
    >>> with paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
