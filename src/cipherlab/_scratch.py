"""Scratch folders for throw-away output (a notebook's QUICK captures), never left behind.

Why not :class:`tempfile.TemporaryDirectory`: it is removed by a finaliser when the process ends
normally, but a kernel that is killed (Lab's *Restart*, a CI timeout, ``kill -9``) runs no
finaliser and leaves its folder in the temporary directory for good. Here every scratch folder
lives under one known parent and carries the id of the process that made it; the process removes
it when it exits, and whichever process asks for a scratch folder next removes the folders whose
process is gone.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from pathlib import Path

__all__ = ["scratch"]

_OWNER = re.compile(r"-(\d+)-[^-]+$")  # <name>-<pid>-<random>


def scratch_parent() -> Path:
    """The folder every scratch folder is made in: ``$TMPDIR/cipherlab-scratch``."""
    return Path(tempfile.gettempdir()) / "cipherlab-scratch"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _sweep(parent: Path) -> None:
    """Remove the scratch folders whose process has ended without removing them."""
    for folder in parent.iterdir():
        owner = _OWNER.search(folder.name)
        if owner and int(owner.group(1)) != os.getpid() and not _alive(int(owner.group(1))):
            shutil.rmtree(folder, ignore_errors=True)


def scratch(name: str = "scratch") -> Path:
    """A new empty folder for output nobody keeps, removed when this process exits.

    The folder is ``$TMPDIR/cipherlab-scratch/<name>-<pid>-<random>``. It is removed at exit; if
    the process is killed instead, the next call of :func:`scratch` (from any process) removes it.

    Parameters
    ----------
    name
        The start of the folder's name (e.g. the notebook's number).

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import cipherlab
    >>> out = cipherlab.scratch("03-gcm")
    >>> out.is_dir(), out.parent.name, out.name.startswith("03-gcm-")
    (True, 'cipherlab-scratch', True)
    """
    parent = scratch_parent()
    parent.mkdir(exist_ok=True)
    _sweep(parent)
    path = Path(tempfile.mkdtemp(prefix=f"{name}-{os.getpid()}-", dir=parent))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path
