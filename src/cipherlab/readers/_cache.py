"""The content-hash cache of ``ingest``: a text read before, unchanged, is not parsed again.

Why it exists: an archive of dumps is read again and again (each notebook session, each report)
while its files rarely change, and parsing is most of the time ``ingest`` takes. A text's parsed
runs (or the error it raised) and the warnings reading it gave are stored under a key made of the text's bytes, its
source name and everything else that changes what reading gives (cipherlab's version and the
hash of its code, the reader's hints, ``strict``, the line engine): a changed file, a renamed
one or a new cipherlab misses, and a hit gives what reading would (the same runs, sources,
lines and warnings). Conditions (``aesni="off"``) are applied to the runs after this step, so
they need no key of their own.

Entries are pickles in ``$XDG_CACHE_HOME/cipherlab/ingest`` (``~/.cache`` by default; a folder
private to its user: a pickle can run code when loaded, so never point the cache at a folder
others can write), written to a temporary file and renamed into place, so that processes
reading and writing at once never see half an entry. A corrupt or unreadable entry is ignored
with a warning and replaced. The folder is kept under ``CIPHERLAB_CACHE_MAX_MB`` (512 MB by
default): after a read that wrote entries, the least recently used are removed.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["Cache", "resolve"]

ENV = "CIPHERLAB_CACHE"  # "1": the default folder; a path: that folder; unset, "" or "0": off
MAX_ENV = "CIPHERLAB_CACHE_MAX_MB"
_MAX_MB = 512
_OFF = {"", "0", "false", "no", "off"}
_ON = {"1", "true", "yes", "on"}
_SUFFIX = ".pickle"


def default_folder() -> Path:
    """``$XDG_CACHE_HOME/cipherlab/ingest`` (``~/.cache/cipherlab/ingest`` by default)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cipherlab" / "ingest"


def resolve(cache: Any) -> Cache | None:
    """``ingest``'s ``cache`` argument -> a :class:`Cache`, or None for no cache.

    ``True`` is the default folder, a path that folder, ``False`` no cache; ``None`` leaves it
    to the ``CIPHERLAB_CACHE`` variable (off when unset).

    >>> resolve(False) is None
    True
    >>> resolve("/tmp/mine").folder
    PosixPath('/tmp/mine')
    """
    if cache is None:
        value = os.environ.get(ENV, "").strip()
        if value.lower() in _OFF:
            return None
        cache = True if value.lower() in _ON else value
    if cache is False:
        return None
    if cache is True:
        return Cache(default_folder())
    if isinstance(cache, (str, os.PathLike)):
        return Cache(Path(cache).expanduser())
    raise TypeError(f"`cache` must be True, False, a folder or None (then ${ENV} decides); "
                    f"not {type(cache).__name__}.")


class Cache:
    """A folder of parsed texts keyed by their content (see the module's docstring)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.written = 0  # entries this process has stored
        _code_hash()  # (once, here: forked workers inherit it)
        try:
            self.max_bytes = float(os.environ.get(MAX_ENV) or _MAX_MB) * 1e6
        except ValueError:
            raise ValueError(f"${MAX_ENV} must be a number of megabytes; "
                             f"not {os.environ[MAX_ENV]!r}.") from None

    def __repr__(self) -> str:
        return f"Cache({str(self.folder)!r}, max {self.max_bytes / 1e6:.0f} MB)"

    def key(self, data: bytes | str, name: str, strict: bool, hints: dict[str, Any]) -> str:
        """The entry's name: a hash of the text, its name and what else shapes the result."""
        from cipherlab.readers import _openssl  # (its ENGINE may be switched, by tests)
        digest = hashlib.blake2b(data if isinstance(data, bytes) else data.encode("utf-8",
                                 "surrogatepass"), digest_size=20)
        digest.update(repr((_code_hash(), isinstance(data, bytes), name, strict,
                            sorted(hints.items()), _openssl.ENGINE)).encode())
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / (key + _SUFFIX)

    def get(self, key: str) -> Any:
        """What is stored under ``key``, or None (a corrupt entry warns)."""
        path = self._path(key)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError:  # none yet (or removed by another process meanwhile)
            return None
        try:
            value = pickle.loads(data)
            os.utime(path)  # (recently used: kept longest)
            return value
        except Exception as err:  # noqa: BLE001 - any damage: read the text instead
            warnings.warn(f"cipherlab's ingest cache: ignoring the unreadable entry {path} "
                          f"({type(err).__name__}: {err}); the text is read again.",
                          RuntimeWarning, stacklevel=2)
            return None

    def put(self, key: str, value: Any) -> bool:
        """Store ``value`` under ``key`` atomically; False if the folder refuses."""
        path = self._path(key)
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            path.parent.mkdir(exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as fh:
                    pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(tmp, path)
                self.written += 1
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as err:  # a full or read-only disk costs the cache, never the read
            warnings.warn(f"cipherlab's ingest cache: cannot write to {self.folder} "
                          f"({err.strerror or err}); reading without it.", RuntimeWarning,
                          stacklevel=2)
            return False
        return True

    def trim(self) -> None:
        """Remove the least recently used entries until the folder holds under its bound."""
        entries = []
        for sub in _scandir(self.folder):
            for e in _scandir(sub.path):
                if e.name.endswith(_SUFFIX):
                    try:
                        st = e.stat()
                    except OSError:
                        continue
                    entries.append((st.st_mtime, st.st_size, e.path))
        total = sum(size for _, size, _ in entries)
        if total <= self.max_bytes:
            return
        for _, size, path in sorted(entries):  # oldest first, down to 80 % of the bound
            try:
                os.unlink(path)
            except OSError:
                pass  # (another process removed it)
            total -= size
            if total <= 0.8 * self.max_bytes:
                break


def _scandir(path: str | Path) -> list[os.DirEntry]:
    try:
        with os.scandir(path) as it:
            return [e for e in it if not e.name.startswith(".")]
    except OSError:
        return []


@lru_cache(maxsize=1)
def _code_hash() -> str:
    """A hash of cipherlab's version and its Python code: any change to it changes every key."""
    import cipherlab
    package = Path(cipherlab.__file__).parent
    digest = hashlib.blake2b(f"{cipherlab.__version__} {sys.version_info[:2]}".encode())
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode() + path.read_bytes())
    return digest.hexdigest()
