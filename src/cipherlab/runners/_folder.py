"""The capture folder: every finished run on disk the moment it finishes.

Why this module exists: a capture can take an hour, and a Ctrl-C, a crash or a closed laptop
must not cost the runs already done. Layout::

    <folder>/
      host.json          host facts, written once (runners._host.host_info)
      runs/<key>.txt     the raw text of each run, exactly as the tool printed it
      results.csv        the tidy table of every finished run (cipherlab.model columns)
      results.parquet    the same table, when pyarrow is installed
      runs.jsonl         one JSON line per finished run: key, command, environment, exit status,
                         wall time ... ; a key listed here is done (resume skips it)

Order of writes for each run: raw text (written to a temporary file and renamed), then its rows
appended to ``results.csv``, then the ``runs.jsonl`` line, which is the "done" mark; each is
flushed to disk before the next. Rows whose run never got its mark (a crash between the two) are
dropped when the folder is reopened, so a resumed run is never counted twice. KeyboardInterrupt
arriving during these writes is held back until they are complete (main thread only).

``results.parquet`` is rewritten by :meth:`CaptureFolder.close` (at the end of a capture call,
Ctrl-C included); the first new run of a session removes the old one, so after a crash there is
no out-of-date Parquet for a reader to prefer, only the current CSV. Appending instead of
rewriting both tables after every run keeps the cost per run at milliseconds
(``benchmarks/capture_fidelity.py``).

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
from pathlib import Path
from typing import Any, Iterator, Mapping

import pandas as pd

from cipherlab.errors import CaptureError
from cipherlab.model import concat, read_table

__all__ = ["CaptureFolder"]

RESULTS_CSV = "results.csv"
RESULTS_PARQUET = "results.parquet"
RUNS_JSONL = "runs.jsonl"
HOST_JSON = "host.json"


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


@contextlib.contextmanager
def _hold_interrupts() -> Iterator[None]:
    """Defer SIGINT until the block is done, so a run is never half written."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[Any] = []
    previous = signal.signal(signal.SIGINT, lambda *a: received.append(a))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if received and callable(previous):
            previous(*received[0])


class CaptureFolder:
    """A capture folder, created (or reopened with ``resume=True``) and validated.

    Parameters
    ----------
    path : str or Path
        The folder; created with its parents if missing.
    resume : bool
        Reopen a folder that already holds runs. Without it, :meth:`check_plan` refuses to
        redo runs that are already there.

    Raises
    ------
    CaptureError
        When the folder cannot be created or written to.
    """

    def __init__(self, path: str | os.PathLike, *, resume: bool = False):
        self.path = Path(path)
        self.resume = resume
        try:
            (self.path / "runs").mkdir(parents=True, exist_ok=True)
            probe = self.path / ".write-test"
            probe.write_text("ok")
            probe.unlink()
        except OSError as err:
            raise CaptureError(f"cannot write to the capture folder '{self.path}': "
                               f"{err.strerror or err}; choose another folder with out=...") from err
        self._runs = self._read_runs()
        self._frames: list[pd.DataFrame] = []
        self._csv_columns: list[str] | None = None
        self._cache: pd.DataFrame | None = None
        table, dropped = self._read_table()
        if len(table):
            self._frames.append(table)
        if dropped:  # rows of a run that never got its done mark: rewrite the tables without them
            self._rewrite_csv()
            self.close()

    def __repr__(self) -> str:
        return f"CaptureFolder('{self.path}', runs={len(self._runs)}, rows={len(self.table())})"

    # -- reading back -------------------------------------------------------------------------
    def _read_runs(self) -> dict[str, dict]:
        runs: dict[str, dict] = {}
        p = self.path / RUNS_JSONL
        if p.exists():
            for line in p.read_text(encoding="utf-8").splitlines():
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut by a crash: that run is simply not done
                runs[rec["key"]] = rec
        return runs

    def _read_table(self) -> tuple[pd.DataFrame, bool]:
        """The rows of the finished runs, and whether the CSV holds rows of unfinished ones.

        The CSV is the authority (the Parquet may be missing or older after a crash); a Parquet
        holding exactly the finished runs is preferred because it keeps the dtypes exactly.
        """
        done = {rec.get("source") for rec in self._runs.values()}
        tables = {}
        for name in (RESULTS_CSV, RESULTS_PARQUET):
            p = self.path / name
            if p.exists():
                try:
                    tables[name] = read_table(p)
                except Exception:  # a table torn by a crash: the other one may be fine
                    pass
        csv, parquet = tables.get(RESULTS_CSV), tables.get(RESULTS_PARQUET)
        dropped = csv is not None and bool((~csv["source"].astype(str).isin(done)).any())
        if parquet is not None and set(parquet["source"].astype(str)) == done:
            return parquet, dropped
        table = csv if csv is not None else parquet
        if table is None:
            return pd.DataFrame(), dropped
        return table[table["source"].astype(str).isin(done)].reset_index(drop=True), dropped

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
            self._atomic_write(p, json.dumps(facts, indent=2, default=str) + "\n")
        return p

    def host(self) -> dict | None:
        """The stored host facts, or None."""
        p = self.path / HOST_JSON
        return json.loads(p.read_text(encoding="utf-8")) if p.exists() else None

    def raw_path(self, key: str) -> Path:
        """Where the raw text of run ``key`` goes."""
        return self.path / "runs" / f"{key}.txt"

    def source_name(self, key: str) -> str:
        """The ``source`` value of run ``key``'s rows: its raw file, relative to the folder."""
        return f"runs/{key}.txt"

    def add_run(self, key: str, raw_text: str, frame: pd.DataFrame,
                meta: Mapping[str, Any] | None = None) -> None:
        """Store one finished run: raw text, rows in the tables, then its ``runs.jsonl`` line."""
        record = {"key": key, "source": self.source_name(key), "rows": int(len(frame)),
                  **dict(meta or {})}
        with _hold_interrupts():
            self._atomic_write(self.raw_path(key), raw_text)
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

    def close(self) -> None:
        """Write ``results.parquet`` (when pyarrow is installed) from the finished runs."""
        if not _has_pyarrow() or not self._runs:
            return
        with _hold_interrupts():
            tmp = self.path / (RESULTS_PARQUET + ".tmp")
            self.table().to_parquet(tmp, index=False)
            os.replace(tmp, self.path / RESULTS_PARQUET)

    def _append_csv(self, frame: pd.DataFrame) -> None:
        p = self.path / RESULTS_CSV
        if self._csv_columns is None and p.exists():
            with open(p, encoding="utf-8") as fh:
                self._csv_columns = fh.readline().rstrip("\n").split(",")
        if self._csv_columns == list(frame.columns):
            with open(p, "a", encoding="utf-8", newline="") as fh:
                frame.to_csv(fh, header=False, index=False)
                fh.flush()
                os.fsync(fh.fileno())
        else:  # first run, or a run with other condition columns: rewrite with the union
            self._rewrite_csv()

    def _rewrite_csv(self) -> None:
        table = self.table()
        tmp = self.path / (RESULTS_CSV + ".tmp")
        table.to_csv(tmp, index=False)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, self.path / RESULTS_CSV)
        self._csv_columns = list(table.columns)

    @staticmethod
    def _atomic_write(path: Path, text: str) -> None:
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
