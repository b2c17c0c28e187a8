"""Every exception and warning cipherlab raises, in one place.

The tree::

    CipherlabError (Exception)
    ├── IngestError (ValueError)        text that cannot be read as benchmark output;
    │                                   carries ``source``, ``lineno``, ``line``
    ├── CaptureError (RuntimeError)     a benchmark could not be run (no openssl, bad folder, ...)
    │   ├── UnsupportedAlgorithmError (ValueError)
    │   │                               the local openssl/cryptography lacks an algorithm or suite
    │   └── RemoteError                 an SSH host of a fleet capture failed; carries ``host``
    ├── InventoryError (ValueError)     a host list or Ansible inventory that cannot be read
    └── AnalysisError (ValueError)      a table cannot answer the question asked of it

    CipherlabWarning (UserWarning)
    ├── IngestWarning                   lines that looked like data but were not placed; suspicious cells
    ├── CaptureWarning                  a preset that changed neither the mask nor the rate, ...
    ├── ComparabilityWarning            rows compared across timing bases, AEAD-loop versions, ...
    └── PlausibilityWarning             values beyond the physical limit of the hardware

Errors subclass the built-in a caller would catch anyway (``ValueError`` for bad input), so
``except ValueError`` keeps working; warnings subclass ``UserWarning`` so they show by default.
"""

from __future__ import annotations

import contextlib
import threading
import warnings
from collections.abc import Iterator

__all__ = [
    "AnalysisError",
    "CaptureError",
    "CaptureWarning",
    "CipherlabError",
    "CipherlabWarning",
    "ComparabilityWarning",
    "IngestError",
    "IngestWarning",
    "InventoryError",
    "PlausibilityWarning",
    "RemoteError",
    "UnsupportedAlgorithmError",
    "caught_warnings",
]


class CipherlabError(Exception):
    """Base class of every error cipherlab raises on purpose."""


class IngestError(CipherlabError, ValueError):
    """Input that cannot be read as benchmark output.

    The message names the source, the 1-based line number and the offending line; the same facts
    are kept as attributes, like :class:`json.JSONDecodeError` does.

    Examples
    --------
    >>> err = IngestError("expected 6 values after the name", source="speed.txt", lineno=12,
    ...                   line="aes-128-cbc 1.00k")
    >>> str(err)
    "expected 6 values after the name (speed.txt, line 12: 'aes-128-cbc 1.00k')"
    >>> err.lineno
    12
    """

    def __init__(self, msg: str, *, source: str | None = None, lineno: int | None = None,
                 line: str | None = None, unplaced: list[tuple[int, str]] | None = None):
        where = ", ".join(p for p in (
            str(source) if source is not None else None,
            f"line {lineno}" if lineno is not None else None) if p)
        if line is not None:
            where = f"{where}: {line!r}" if where else repr(line)
        super().__init__(f"{msg} ({where})" if where else msg)
        self.msg, self.source, self.lineno, self.line = msg, source, lineno, line
        #: ``(lineno, line)`` of the lines that looked like data but were not placed
        self.unplaced = list(unplaced or [])


class CaptureError(CipherlabError, RuntimeError):
    """A benchmark could not be run: no ``openssl`` on PATH, an unwritable folder, a crashed run."""


class UnsupportedAlgorithmError(CaptureError, ValueError):
    """The local ``openssl`` (or ``cryptography``, or TLS stack) does not offer what was asked for."""


class RemoteError(CaptureError):
    """A remote host could not be reached or run a command: unreachable, login refused, unknown
    host key, a dropped connection. ``host`` is the host's inventory name."""

    def __init__(self, host: str, msg: str):
        super().__init__(f"{host}: {msg}")
        self.host, self.msg = host, msg


class InventoryError(CipherlabError, ValueError):
    """A host list or inventory that cannot be read; the message names the file, the line and
    what was expected.

    >>> str(InventoryError("hosts.ini", "expected key=value", lineno=3))
    'hosts.ini, line 3: expected key=value'
    """

    def __init__(self, path, msg: str, lineno: int | None = None):
        super().__init__(f"{path}, line {lineno}: {msg}" if lineno else f"{path}: {msg}")
        self.path, self.msg, self.lineno = path, msg, lineno


class AnalysisError(CipherlabError, ValueError):
    """A table cannot answer the question: a missing column, an empty side of a comparison, ..."""


class CipherlabWarning(UserWarning):
    """Base class of every warning cipherlab emits."""


class IngestWarning(CipherlabWarning):
    """Lines that looked like measurements but could not be placed, or suspicious cells kept."""


class CaptureWarning(CipherlabWarning):
    """Something about a capture a user should know: a preset that changed nothing, a noisy host."""


class ComparabilityWarning(CipherlabWarning):
    """Rows being compared were measured in ways that are not like for like."""


class PlausibilityWarning(CipherlabWarning):
    """A value lies beyond what the hardware can physically do, or behaves implausibly."""


def warn_caller(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` pointing at the first caller outside cipherlab (the user's line).

    The public functions call each other (``speedup`` -> ``compare`` -> ``comparable``,
    ``capture`` -> ``run_plan``), so a fixed ``stacklevel`` would point inside the package for
    some entry points, or at ``sys:1`` for others.
    """
    import sys
    import warnings
    from pathlib import Path

    package = str(Path(__file__).resolve().parent)
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


# (one lock for every block that swaps the warnings module's global state: see caught_warnings)
_CATCHING = threading.RLock()


@contextlib.contextmanager
def caught_warnings() -> Iterator[list]:
    """``warnings.catch_warnings(record=True)`` recording every warning, safe across threads.

    ``catch_warnings`` swaps the warnings module's global state and restores what it saved, so
    two threads inside it at once (a fleet capture reads each host's runs in a thread of its
    own) restore each other's state: the caller's filters and handler are lost, and every
    warning after that with them. Blocks entered through here take turns (the lock is
    reentrant: a reader nested in a reader is one turn). A warning another thread issues
    meanwhile lands in the list too; the holder re-issues what it caught, so none is lost.

    >>> import warnings
    >>> with caught_warnings() as caught:
    ...     warnings.warn("seen", UserWarning)
    >>> [str(w.message) for w in caught]
    ['seen']
    """
    with _CATCHING, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught
