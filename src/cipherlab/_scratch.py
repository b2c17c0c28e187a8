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
import shutil
import tempfile
from pathlib import Path

__all__ = ["remove_orphans", "scratch"]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def remove_orphans(parent: Path, prefix: str = "") -> list[Path]:
    """Delete the folders ``<parent>/<prefix><pid>-*`` whose process is gone; return them.

    The folders of running processes (this one included) stay.
    """
    gone = []
    for path in parent.glob(f"{prefix}*-*"):
        pid = path.name[len(prefix):].split("-")[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)
            gone.append(path)
    return gone


def scratch(name: str = "scratch") -> Path:
    """A new empty folder for output nobody keeps, removed when this process exits.

    The folder is ``$TMPDIR/cipherlab-scratch/<pid>-<name>-<random>``. It is removed at exit; if
    the process is killed instead, the next call of :func:`scratch` (from any process) removes it.

    Parameters
    ----------
    name
        What the folder is for (e.g. the notebook's number), in its name.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import os, cipherlab
    >>> out = cipherlab.scratch("03-gcm")
    >>> out.is_dir(), out.parent.name, out.name.startswith(f"{os.getpid()}-03-gcm-")
    (True, 'cipherlab-scratch', True)
    """
    parent = Path(tempfile.gettempdir()) / "cipherlab-scratch"
    parent.mkdir(exist_ok=True)
    remove_orphans(parent)
    path = Path(tempfile.mkdtemp(prefix=f"{os.getpid()}-{name}-", dir=parent))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path
