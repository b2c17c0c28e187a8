"""The content-hash cache of ``ingest``: a text read before, unchanged, is not parsed again.

Why it exists: an archive of dumps is read again and again (each notebook session, each report)
while its files rarely change, and parsing is most of the time ``ingest`` takes. A text's parsed
runs (or the error it raised) and the warnings reading it gave are stored under a key made of
the text's bytes, its source name and everything else that changes what reading gives
(cipherlab's version and the hash of its code, the reader's hints, ``strict``, the line
engine): a changed file, a renamed one or a new cipherlab misses, and a hit gives what reading
would (the same runs, sources, lines and warnings). Conditions (``aesni="off"``) are applied to
the runs after this step, so they need no key of their own.

The entries are pickles in one SQLite database, ``$XDG_CACHE_HOME/cipherlab/ingest/cache.db``
(``~/.cache`` by default; a folder private to its user: a pickle can run code when loaded, so
never point the cache at a folder others can write). SQLite makes it safe for processes that
read and write at once (each chunk's entries are stored in one transaction, in WAL mode), and
cheap for the many small texts of an archive (a file per entry cost more to create than the
text took to parse). An entry that cannot be unpickled is ignored with a warning and replaced;
a database that cannot be opened or written costs a warning, never the read. After a read that
stored entries, the least recently used are removed beyond ``CIPHERLAB_CACHE_MAX_MB`` (512 MB).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sqlite3
import sys
import time
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
DATABASE = "cache.db"
_SCHEMA = ("CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value BLOB NOT NULL, "
           "used REAL NOT NULL)")


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
    """A database of parsed texts keyed by their content (see the module's docstring).

    Entries read are looked up at once; entries to store, and the use of those read, are kept
    until :meth:`flush` (once per chunk of files), so that a chunk costs one transaction.
    """

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        try:
            self.max_bytes = float(os.environ.get(MAX_ENV) or _MAX_MB) * 1e6
        except ValueError:
            raise ValueError(f"${MAX_ENV} must be a number of megabytes; "
                             f"not {os.environ[MAX_ENV]!r}.") from None
        self.written = 0  # entries this process has stored
        self._pending: dict[str, bytes] = {}  # entries to store at the next flush
        self._used: list[str] = []  # keys read since the last flush
        self._db: sqlite3.Connection | None = None
        self._pid = None  # the process the connection belongs to (never shared across a fork)
        self._broken = False  # the database could not be used: read without it, warned once
        _code_hash()  # (once, here: forked workers inherit it)

    def __repr__(self) -> str:
        return f"Cache({str(self.folder)!r}, max {self.max_bytes / 1e6:.0f} MB)"

    def __getstate__(self) -> dict:  # (sent to worker processes: no connection, nothing pending)
        return {**self.__dict__, "_db": None, "_pid": None, "_pending": {}, "_used": []}

    def key(self, data: bytes | str, name: str, strict: bool, hints: dict[str, Any]) -> str:
        """The entry's name: a hash of the text, its name and what else shapes the result."""
        from cipherlab.readers import _openssl  # (its ENGINE may be switched, by tests)
        digest = hashlib.blake2b(data if isinstance(data, bytes) else data.encode("utf-8",
                                 "surrogatepass"), digest_size=20)
        digest.update(repr((_code_hash(), isinstance(data, bytes), name, strict,
                            sorted(hints.items()), _openssl.ENGINE)).encode())
        return digest.hexdigest()

    def get(self, key: str) -> Any:
        """What is stored under ``key``, or None (an entry that cannot be read warns)."""
        db = self._connect()
        if db is None:
            return None
        try:
            row = db.execute("SELECT value FROM entries WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as err:
            return self._fail(err)
        if row is None:
            return None
        try:
            value = pickle.loads(row[0])
        except Exception as err:  # noqa: BLE001 - any damage: read the text instead
            warnings.warn(f"cipherlab's ingest cache: ignoring the unreadable entry {key} in "
                          f"{self.folder / DATABASE} ({type(err).__name__}: {err}); the text is "
                          f"read again.", RuntimeWarning, stacklevel=2)
            return None
        self._used.append(key)
        return value

    def put(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key`` at the next :meth:`flush`."""
        if not self._broken:
            self._pending[key] = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)

    def flush(self) -> None:
        """Store the pending entries and mark those read as used, in one transaction."""
        pending, used, self._pending, self._used = self._pending, self._used, {}, []
        if not pending and not used:
            return
        db = self._connect()
        if db is None:
            return
        now = time.time()
        try:
            with db:
                db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)",
                               [(k, v, now) for k, v in pending.items()])
                db.executemany("UPDATE entries SET used = ? WHERE key = ?", [(now, k) for k in used])
        except sqlite3.Error as err:
            self._fail(err)
            return
        self.written += len(pending)

    def trim(self) -> None:
        """Remove the least recently used entries until the database holds under its bound."""
        db = self._connect()
        if db is None:
            return
        try:
            with db:
                total = db.execute("SELECT coalesce(sum(length(value)), 0) FROM entries").fetchone()[0]
                if total <= self.max_bytes:
                    return
                rows = db.execute("SELECT key, length(value) FROM entries ORDER BY used").fetchall()
                doomed = []
                for key, size in rows:  # oldest first, down to 80 % of the bound
                    doomed.append((key,))
                    total -= size
                    if total <= 0.8 * self.max_bytes:
                        break
                db.executemany("DELETE FROM entries WHERE key = ?", doomed)
            db.execute("PRAGMA incremental_vacuum")  # (the freed pages back to the disk)
        except sqlite3.Error as err:
            self._fail(err)

    def _connect(self) -> sqlite3.Connection | None:
        if self._broken:
            return None
        if self._db is not None and self._pid == os.getpid():
            return self._db
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            # (writes wait up to a minute for another process's; each ``with db`` block is one
            # transaction)
            db = sqlite3.connect(self.folder / DATABASE, timeout=60)
            db.execute("PRAGMA auto_vacuum = INCREMENTAL")  # (takes effect on a new database)
            _into_wal(db)  # readers and one writer at once
            db.execute("PRAGMA synchronous = NORMAL")  # (a crash may lose the last entries only)
            db.execute(_SCHEMA)
        except (OSError, sqlite3.Error) as err:
            return self._fail(err)
        self._db, self._pid = db, os.getpid()
        return db

    def _fail(self, err: Exception) -> None:
        """Warn once that the database cannot be used, and read without it from now on."""
        if not self._broken:
            self._broken = True
            warnings.warn(f"cipherlab's ingest cache: cannot use {self.folder / DATABASE} "
                          f"({type(err).__name__}: {err}); reading without it.", RuntimeWarning,
                          stacklevel=3)
        return None


def _into_wal(db: sqlite3.Connection, wait: float = 60.0) -> None:
    """Switch the database to WAL mode, waiting out another process doing the same.

    Why a loop: the switch takes an exclusive lock without calling SQLite's busy handler, so
    the ``timeout`` of ``connect`` does not cover it: workers opening a new database at once
    got "database is locked" about once in a hundred times.
    """
    deadline = time.monotonic() + wait
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) and "busy" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


@lru_cache(maxsize=1)
def _code_hash() -> str:
    """A hash of cipherlab's version and its Python code: any change to it changes every key."""
    import cipherlab
    package = Path(cipherlab.__file__).parent
    digest = hashlib.blake2b(f"{cipherlab.__version__} {sys.version_info[:2]}".encode())
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode() + path.read_bytes())
    return digest.hexdigest()
