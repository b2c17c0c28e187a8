"""The cyclic garbage collector paused around work that makes many objects and frees no cycles.

Reading a folder of dumps and redrawing a widget's figures each allocate far more objects than
the collector's thresholds, so it would run several passes in their middle, each walking every
object still alive, while almost nothing they make is a reference cycle: reference counting
frees it. Pausing the collector for the length of the work saves those passes; it resumes
afterwards and collects at the next allocation.
"""

from __future__ import annotations

import gc
import ctypes
import ctypes.util
import sys
from contextlib import contextmanager
from typing import Iterator

__all__ = ["paused", "return_freed"]


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


def _trim():
    """glibc's ``malloc_trim``, or None where there is no glibc."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):  # musl and others: nothing to call
        return None


_MALLOC_TRIM = _trim()


def return_freed() -> None:
    """Hand the heap memory freed so far back to the system (glibc ``malloc_trim``; a no-op
    elsewhere).

    glibc keeps freed small blocks for reuse, while large arrays are mapped anew beside them:
    joining a folder's many small chunk frames into one table would otherwise hold the chunks'
    memory as well as the table's until the process ends (about 3 ms).

    >>> return_freed()
    """
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)
