"""The capture folder: every finished run on disk the moment it finishes, and nothing torn.

Why this module exists: a capture can take an hour, and a Ctrl-C, a crash, a full disk or a closed
laptop must not cost the runs already done, nor leave a folder that reads back wrong. Layout::

    <folder>/
      capture.json       format version, capture id, host id: written when the folder is made
      host.json          host facts, written once (runners._host.host_info)
      builds.json        when builds are compared: each one's binary, environment, versions and
                         full ``openssl version -a`` (build options, compiler)
      stopping.json      with a requested precision: the stopping rule and why it stopped
      runs/<key>.txt     the raw text of each run, exactly as the tool printed it
      runs/<key>.csv     that run's rows (cipherlab.model columns): the authority for the tables
      runs.jsonl         one JSON line per finished run: key, command, environment, exit status,
                         wall time ... ; a key listed here is done (resume skips it)
      results.csv        the tidy table of every finished run, rebuilt from the done list
      results.parquet    the same table, when pyarrow is installed
      .lock              held (flock) by the one capture writing here

Order of writes for each run: raw text and rows (each written to a temporary file, fsync'd and
renamed), then the rows appended to ``results.csv``, then the ``runs.jsonl`` line, which is the
"done" mark, fsync'd. Reopening a folder trusts only the done list: a torn last ``runs.jsonl``
line (a crash or a full disk mid-write) is cut off, records glued to it are recovered, and
``results.csv`` is rebuilt from the done runs' own row files whenever it does not hold exactly
their rows, so a torn row can never read back as another number. KeyboardInterrupt (and SIGTERM
or SIGHUP) arriving during these writes is held back until they are complete (main thread only).

A second capture into a folder that is being written fails at once (``.lock``), and a resume on
another machine than the folder's is refused unless ``force=True`` (the host id of
:func:`~cipherlab.runners._host.host_id`); every row carries ``capture_id`` and ``host_id``.

``results.parquet`` is rewritten by :meth:`CaptureFolder.close` (at the end of a capture call,
Ctrl-C included); the first new run of a session removes the old one, so after a crash there is
no out-of-date Parquet for a reader to prefer. Appending instead of rewriting both tables after
every run keeps the cost per run at milliseconds (``benchmarks/capture_fidelity.py``).

``cipherlab.ingest(folder)`` reads ``results.parquet`` (or ``results.csv``) back.

Examples
--------
>>> import tempfile, pandas as pd
>>> from cipherlab.model import to_frame, Run
>>> tmp = tempfile.mkdtemp()
>>> folder = CaptureFolder(tmp)
>>> frame = to_frame([Run({"tool": "openssl"}, [{"algorithm": "sha256", "block_bytes": 16,
...                   "bytes_per_s": 1e9}])], source="runs/a.txt")
>>> folder.add_run("a", "+F:6:sha256:1000000000.00\\n", frame, {"wall_s": 1.0})
>>> folder.close()
>>> sorted(CaptureFolder(tmp, resume=True).done_keys())
['a']
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Mapping

import pandas as pd

from cipherlab.errors import CaptureError
from cipherlab.model import concat, read_table
from cipherlab.runners._system import warn

__all__ = ["FORMAT_VERSION", "CaptureFolder", "is_capture_folder", "opened", "qualified"]

#: The layout above. 1: folders before capture.json (no row files, no ids); 2: this one.
FORMAT_VERSION = 2
CAPTURE_JSON = "capture.json"
RESULTS_CSV = "results.csv"
RESULTS_PARQUET = "results.parquet"
RUNS_JSONL = "runs.jsonl"
HOST_JSON = "host.json"
BUILDS_JSON = "builds.json"
LOCK = ".lock"
_HELD = tuple(s for s in (signal.SIGINT, getattr(signal, "SIGTERM", None),
                          getattr(signal, "SIGHUP", None)) if s is not None)


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


@contextlib.contextmanager
def _hold_interrupts() -> Iterator[None]:
    """Defer SIGINT, SIGTERM and SIGHUP until the block is done, so a run is never half written;
    the first one that arrived is then delivered to the handler it would have met."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = {sig: signal.signal(sig, lambda signum, frame: received.append(signum))
                for sig in _HELD}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if received:
            signal.raise_signal(received[0])


def _fsync_dir(path: Path) -> None:
    """Make a rename in ``path`` durable (POSIX; a no-op where directories cannot be opened)."""
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _records(text: str) -> tuple[list[dict], bool]:
    """The JSON records of a ``runs.jsonl`` text, and whether anything had to be repaired.

    A line cut by a crash is dropped; a record glued to it (the next append, written after a
    line that never got its newline) is recovered. Records start with ``{"key": ``.
    """
    out, repaired = [], not text.endswith("\n") and bool(text)
    decoder = json.JSONDecoder()
    for line in text.splitlines():
        starts = [i for i in range(len(line)) if line.startswith('{"key": ', i)] or [0]
        ok = False
        for i in starts:
            try:
                rec, end = decoder.raw_decode(line, i)
            except json.JSONDecodeError:
                continue
            if isinstance(rec, dict) and "key" in rec:
                out.append(rec)
                ok = ok or (i == 0 and end == len(line))
        repaired = repaired or not ok
    return out, repaired


class CaptureFolder:
    """A capture folder, created (or reopened with ``resume=True``), locked and validated.

    Parameters
    ----------
    path : str or Path
        The folder; created with its parents if missing.
    resume : bool
        Reopen a folder that already holds runs. Without it, :meth:`check_plan` refuses to
        redo runs that are already there.
    force : bool
        Resume a folder captured on another machine (its rows keep their own ``host_id``).
    host_id : str, optional
        This machine's id (default :func:`~cipherlab.runners._host.host_id`).

    Raises
    ------
    CaptureError
        When the folder cannot be created or written to, another capture is writing to it, it
        was written by a newer cipherlab, or it belongs to another machine (without ``force``).
    """

    def __init__(self, path: str | os.PathLike, *, resume: bool = False, force: bool = False,
                 host_id: str | None = None):
        from cipherlab.runners._host import host_id as this_host
        self.path = Path(path)
        self.resume = resume
        self.host_id = host_id or this_host()
        self._lock = None
        self._runs: dict[str, dict] = {}
        try:
            (self.path / "runs").mkdir(parents=True, exist_ok=True)
            probe = self.path / ".write-test"
            probe.write_text("ok")
            probe.unlink()
        except OSError as err:
            raise CaptureError(f"cannot write to the capture folder '{self.path}': "
                               f"{err.strerror or err}; choose another folder with out=...") from err
        self._acquire_lock()
        try:
            self._runs = self._read_runs()
            self.info = self._read_info(self.host_id, force)
            self._frames: list[pd.DataFrame] = []
            self._csv_columns: list[str] | None = None
            self._cache: pd.DataFrame | None = None
            table, dirty = self._read_table()
            if len(table):
                self._frames.append(table)
            self._csv_ok = not dirty
            if dirty:  # results.csv does not hold exactly the done runs' rows: rebuild it
                self._write(self._rewrite_csv)
                self._write_parquet()
        except BaseException:
            self._release_lock()
            raise

    def __repr__(self) -> str:
        return f"CaptureFolder('{self.path}', runs={len(self._runs)}, rows={len(self.table())})"

    @property
    def capture_id(self) -> str:
        """The id every row of this folder carries (``capture_id``), made when it was created."""
        return self.info["capture_id"]

    # -- the lock and the folder's own facts -------------------------------------------------
    def _acquire_lock(self) -> None:
        try:
            import fcntl
        except ImportError:  # Windows: no advisory locks; one capture per folder is on the user
            return
        fh = open(self.path / LOCK, "a+", encoding="utf-8")
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.seek(0)
            holder = fh.read().strip() or "another process"
            fh.close()
            raise CaptureError(f"another capture ({holder}) is writing to '{self.path}'; wait for "
                               f"it to finish or choose another folder with out=...") from None
        fh.seek(0)
        fh.truncate()
        fh.write(f"pid {os.getpid()} since {datetime.now(timezone.utc):%Y-%m-%dT%H:%M:%SZ}\n")
        fh.flush()
        self._lock = fh

    def _release_lock(self) -> None:
        if self._lock is not None:
            self._lock.close()  # closing the file releases the flock
            self._lock = None

    def _read_info(self, host: str, force: bool) -> dict[str, Any]:
        p = self.path / CAPTURE_JSON
        if p.exists():
            try:
                info = json.loads(p.read_text(encoding="utf-8"))
            except (OSError, ValueError) as err:
                raise CaptureError(f"'{p}' is not readable JSON ({err}); the folder's format and "
                                   f"ids are unknown: choose another folder with out=...") from None
            if int(info.get("format", 0)) > FORMAT_VERSION:
                raise CaptureError(f"'{self.path}' was written in capture format {info['format']} "
                                   f"by a newer cipherlab; this one reads formats up to "
                                   f"{FORMAT_VERSION}: upgrade cipherlab or choose another folder")
        else:  # a new folder, or one from before capture.json (format 1): its machine unknown
            info = {"format": FORMAT_VERSION, "capture_id": uuid.uuid4().hex[:16],
                    "host_id": None if self._runs else host,
                    "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
            self._atomic_write(p, json.dumps(info, indent=2) + "\n")
        theirs = info.get("host_id")
        if self._runs and theirs not in (None, host) and not force:
            facts = self.host() or {}
            raise CaptureError(
                f"'{self.path}' holds runs from another machine ({facts.get('host', '?')}, host id "
                f"{theirs}; this one is {host}); resuming here would mix two machines in one "
                f"capture: choose another folder with out=..., or pass force=True (CLI: --force)")
        return info

    # -- reading back -------------------------------------------------------------------------
    def _read_runs(self) -> dict[str, dict]:
        p = self.path / RUNS_JSONL
        if not p.exists():
            return {}
        records, repaired = _records(p.read_text(encoding="utf-8", errors="replace"))
        if repaired:
            warn(f"'{p}': repaired a line torn by a crash or a full disk ({len(records)} "
                 f"finished runs kept; a run whose line was cut is not done and runs "
                 f"again on resume)")
            self._write(lambda: self._atomic_write(
                p, "".join(json.dumps(r, default=str) + "\n" for r in records)))
        return {rec["key"]: rec for rec in records}

    def _read_table(self) -> tuple[pd.DataFrame, bool]:
        """The rows of the finished runs, and whether ``results.csv`` must be rebuilt.

        Each done run's own row file is the authority; folders of format 1 have none, and their
        ``results.csv`` (or a Parquet holding exactly the done runs) is filtered instead.
        """
        if not self._runs:
            return pd.DataFrame(), False
        own = [self.rows_path(k) for k in self._runs]
        if all(p.exists() for p in own):
            table = concat([read_table(p) for p in own])
            return table, not self._csv_matches(len(table))
        done = {rec.get("source") for rec in self._runs.values()}
        for name in (RESULTS_PARQUET, RESULTS_CSV):
            p = self.path / name
            try:
                t = read_table(p) if p.exists() else None
            except Exception:  # noqa: BLE001 - a table torn by a crash: the other one may do
                t = None
            if t is not None and len(t):
                keep = t["source"].astype(str).isin(done)
                return t[keep].reset_index(drop=True), not keep.all() or name == RESULTS_PARQUET
        return pd.DataFrame(), False

    def _csv_matches(self, rows: int) -> bool:
        """``results.csv`` ends with a whole line and holds a header plus ``rows`` lines."""
        p = self.path / RESULTS_CSV
        if not p.exists():
            return rows == 0
        data = p.read_bytes()
        return data.endswith(b"\n") and data.count(b"\n") == rows + 1

    def done_keys(self) -> set[str]:
        """Keys of the runs finished in this folder."""
        return set(self._runs)

    def runs(self) -> list[dict]:
        """The ``runs.jsonl`` records of the finished runs, in the order they finished."""
        return list(self._runs.values())

    def table(self) -> pd.DataFrame:
        """The tidy table of every finished run (a new frame)."""
        if self._cache is None:
            self._cache = concat(self._frames) if self._frames else pd.DataFrame()
            self._frames = [self._cache] if self._frames else []
        return self._cache.copy()

    def next_run_number(self) -> int:
        """The ``run`` number for the next run: runs are numbered across the whole folder."""
        return len(self._runs)

    def check_plan(self, keys: list[str]) -> None:
        """Refuse to redo finished runs unless the folder was opened with ``resume=True``."""
        again = [k for k in keys if k in self._runs]
        if again and not self.resume:
            raise CaptureError(
                f"the capture folder '{self.path}' already holds {len(again)} of the planned runs "
                f"(e.g. {again[0]!r}); pass resume=True (CLI: --resume) to keep them and run only "
                f"the missing ones, or choose another folder with out=...")

    # -- writing ------------------------------------------------------------------------------
    def write_host(self, facts: Mapping[str, Any]) -> Path:
        """Write ``host.json`` unless the folder already has one (the first session's facts win)."""
        p = self.path / HOST_JSON
        if not p.exists():
            self._write(lambda: self._atomic_write(
                p, json.dumps(facts, indent=2, default=str) + "\n"))
        return p

    def write_builds(self, builds: Mapping[str, Any]) -> Path:
        """Merge the facts of the compared builds (version, ``openssl version -a``) into
        ``builds.json``: a resume that adds a build adds its facts; known ones stay."""
        p = self.path / BUILDS_JSON
        known = json.loads(p.read_text(encoding="utf-8")) if p.exists() else {}
        merged = {**builds, **known}
        return self.write_json(BUILDS_JSON, merged) if merged != known else p

    def write_json(self, name: str, obj: Any) -> Path:
        """Write ``obj`` as ``<folder>/<name>`` (atomically, interrupts held)."""
        p = self.path / name
        self._write(lambda: self._atomic_write(p, json.dumps(obj, indent=2, default=str) + "\n"))
        return p

    def host(self) -> dict | None:
        """The stored host facts, or None."""
        p = self.path / HOST_JSON
        try:
            return json.loads(p.read_text(encoding="utf-8")) if p.exists() else None
        except ValueError:
            return None

    def raw_path(self, key: str) -> Path:
        """Where the raw text of run ``key`` goes."""
        return self.path / "runs" / f"{key}.txt"

    def rows_path(self, key: str) -> Path:
        """Where the rows of run ``key`` go."""
        return self.path / "runs" / f"{key}.csv"

    def source_name(self, key: str) -> str:
        """The ``source`` value of run ``key``'s rows: its raw file, relative to the folder."""
        return f"runs/{key}.txt"

    def add_run(self, key: str, raw_text: str, frame: pd.DataFrame,
                meta: Mapping[str, Any] | None = None) -> None:
        """Store one finished run: raw text and rows, the tables, then its ``runs.jsonl`` line.

        The rows get the folder's ``capture_id`` and the ``host_id`` of the machine that ran
        them. Raises CaptureError (naming the folder and the reason, e.g. a full disk) when the
        run cannot be stored; the runs finished before stay intact.
        """
        frame = frame.assign(capture_id=self.capture_id, host_id=self.host_id)
        record = {"key": key, "source": self.source_name(key), "rows": int(len(frame)),
                  **dict(meta or {})}

        def write() -> None:
            self._atomic_write(self.raw_path(key), raw_text)
            self._atomic_write(self.rows_path(key), frame.to_csv(index=False))
            self._frames.append(frame)
            self._cache = None
            self._append_csv(frame)
            stale = self.path / RESULTS_PARQUET
            if stale.exists():
                stale.unlink()
            with open(self.path / RUNS_JSONL, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(record, default=str) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            self._runs[key] = record
        try:
            self._write(write)
        except CaptureError:
            if key not in self._runs:  # the run's rows must not count: keep the done runs' only
                table = self.table()
                done = {r["source"] for r in self._runs.values()}
                self._frames = [table[table["source"].astype(str).isin(done)]] if done else []
                self._cache = None
                self._csv_ok = False
            raise

    def close(self) -> None:
        """Write ``results.parquet`` (when pyarrow is installed) and release the folder's lock.

        A Parquet that cannot be written (a full disk) is only warned about: ``results.csv``
        and the row files still hold every finished run."""
        try:
            self._write_parquet()
        except CaptureError as err:
            warn(f"results.parquet not written ({err})")
        finally:
            self._release_lock()

    def _write_parquet(self) -> None:
        if not _has_pyarrow() or not self._runs:
            return
        tmp = self.path / (RESULTS_PARQUET + ".tmp")

        def write() -> None:
            self.table().to_parquet(tmp, index=False)
            os.replace(tmp, self.path / RESULTS_PARQUET)
        self._write(write)

    def _write(self, write) -> None:
        """Run ``write`` with interrupts held; an OSError (full disk, read-only, ...) becomes
        one CaptureError line, and no temporary file is left behind."""
        with _hold_interrupts():
            try:
                write()
            except OSError as err:
                for tmp in self.path.rglob("*.tmp"):
                    with contextlib.suppress(OSError):
                        tmp.unlink()
                raise CaptureError(
                    f"cannot write to the capture folder '{self.path}': "
                    f"{err.strerror or err}{' (the disk is full)' if err.errno == 28 else ''}; "
                    f"the {len(self._runs)} runs finished before are kept: free the space (or fix "
                    f"the folder) and resume") from err

    def _append_csv(self, frame: pd.DataFrame) -> None:
        p = self.path / RESULTS_CSV
        if self._csv_columns is None and p.exists():
            with open(p, encoding="utf-8") as fh:
                self._csv_columns = fh.readline().rstrip("\n").split(",")
        if self._csv_ok and self._csv_columns == list(frame.columns):
            self._csv_ok = False  # until the append is on disk
            with open(p, "a", encoding="utf-8", newline="") as fh:
                frame.to_csv(fh, header=False, index=False)
                fh.flush()
                os.fsync(fh.fileno())
            self._csv_ok = True
        else:  # first run, other condition columns, or a failed append: rewrite with the union
            self._rewrite_csv()

    def _rewrite_csv(self) -> None:
        table = self.table()
        self._atomic_write(self.path / RESULTS_CSV, table.to_csv(index=False))
        self._csv_columns = list(table.columns)
        self._csv_ok = True

    @staticmethod
    def _atomic_write(path: Path, text: str) -> None:
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        _fsync_dir(path.parent)


def qualified(table: pd.DataFrame, folder: str | os.PathLike) -> pd.DataFrame:
    """``table`` with each ``runs/...`` source prefixed by the capture folder's name, as
    ``cipherlab.ingest`` and the capture functions return them: rows of several capture folders
    read together never share a (``source``, ``run``), whose run numbers restart in each folder.

    >>> t = pd.DataFrame({"source": pd.Categorical(["runs/a.txt"])})
    >>> qualified(t, "/data/cap-1")["source"].tolist()
    ['cap-1/runs/a.txt']
    """
    if table.empty or "source" not in table.columns:
        return table
    name = Path(folder).name
    src = table["source"]

    def fix(v):
        return f"{name}/{v}" if str(v).startswith("runs/") else v
    if isinstance(src.dtype, pd.CategoricalDtype):
        new = src.cat.rename_categories([fix(c) for c in src.cat.categories])
    else:
        new = src.map(fix)
    return table.assign(source=new)


def is_capture_folder(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a capture folder (it has a done list)."""
    return (Path(path) / RUNS_JSONL).is_file()


@contextlib.contextmanager
def opened(path: str | os.PathLike, **options) -> Iterator[CaptureFolder]:
    """A :class:`CaptureFolder` that is closed (Parquet written, lock released) however the
    block ends."""
    folder = CaptureFolder(path, **options)
    try:
        yield folder
    finally:
        folder.close()
