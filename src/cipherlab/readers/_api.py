"""``cipherlab.ingest``: any source of benchmark text -> the tidy table.

Why this module exists: users hold their numbers in every form - a file, a folder of captures,
a glob, an open file, a string pasted into a notebook. This module resolves all of them to
(text, source name) pairs, runs the readers on each (tables in documents first, then every
``openssl speed`` dialect on the remaining lines) and reports what could not be placed, so that
nothing that looks like a measurement disappears silently.
"""

from __future__ import annotations

import errno
import glob as _glob
import multiprocessing
import os
import re
import sys
import threading
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import pandas as pd

from cipherlab import model
from cipherlab._gc import paused, return_freed
from cipherlab.errors import IngestError, IngestWarning, caught_warnings
from cipherlab.readers import (_bssl, _cache, _collapsed, _cryptsetup, _gnutls, _gobench, _json,
                               _mbedtls, _openssl, _wolfcrypt)
from cipherlab.readers._bbcode import from_bbcode
from cipherlab.readers._grids import named_algorithms
from cipherlab.readers._tables import find_tables
from cipherlab.readers._tables._prose import machines_in_prose
from cipherlab.readers._text import (decode, documents, name_by_source, renumber,
                                     renumbered_warnings, strip_log_prefixes, strip_shared_prefix)
from cipherlab.readers._units import rates_in, sizes_in

__all__ = ["ingest"]

_TEXT_SUFFIXES = {".txt", ".log", ".out", ".md", ".markdown", ".html", ".htm", ".text", ".eml", ".mbox",
                  ".gz", ""}
_TABLE_SUFFIXES = {".csv", ".parquet"}
_TIMINGS = ("cpu", "elapsed")
_SHOWN = 5  # line numbers named in a warning
_SHOWN_SKIPPED = 20  # skipped files named in a warning
_PROGRESS_FILES = 50  # show a progress bar from this many files on
_PARALLEL_BYTES = 4_000_000  # below this, starting worker processes costs more than it saves
_CHUNK_BYTES = 500_000  # text read into one frame at most (about): its runs take several times it


def ingest(source: Any, *, label: str | None = None, strict: bool = False,
           n_jobs: int | None = None, cache: bool | str | os.PathLike | None = None,
           **conditions: Any) -> pd.DataFrame:
    """Read benchmark output of any ``openssl speed`` version and shape into the tidy table.

    Parameters
    ----------
    source : str, os.PathLike, file object, or list of them
        A path, a folder, a glob (``"dumps/*.txt"``), an open file (text or binary), a list of
        any of these, or the text itself (a ``str`` containing a newline; on one line, JSON or
        text with escaped ``\\n`` line breaks, as APIs hand it back). A notebook or another JSON
        document gives the text its strings hold (see ``readers/_json.py``). A folder holding
        ``results.parquet`` or ``results.csv`` is a capture folder and is read as its table;
        any other folder contributes every text file in it (and tidy ``.csv`` tables).
    label : str, optional
        Run label for every row, instead of the labels found in the text.
    strict : bool, default False
        Raise :class:`~cipherlab.errors.IngestError` on the first line that looks like a
        measurement but cannot be placed, instead of warning about all of them.
    n_jobs : int, optional
        Processes that read files side by side, this one included: ``1`` reads in this
        process, ``-1`` uses every CPU. By default several files holding 4 MB or more are shared
        among the CPUs, on Linux (workers are forked; from Python 3.12 on, only in a process
        without other threads).
        The table, warnings and errors are those of a read in one process.
    cache : bool or path, optional
        Keep each text's parsed runs in a cache keyed by its content (and its name, the reader's
        code and settings), so that reading an unchanged file again skips parsing it: ``True``
        uses ``$XDG_CACHE_HOME/cipherlab/ingest``, a path that folder, ``False`` none. By
        default the ``CIPHERLAB_CACHE`` variable decides (``1`` or a folder; off when unset).
        A cached read gives the table and warnings a fresh one gives.
    **conditions
        Extra condition columns (``aesni="off"``, ``isa="no-avx"``). Keywords naming a fixed run
        column set it instead: ``tool``, ``tool_version``, ``timing`` (``"cpu"`` or
        ``"elapsed"``), ``cpu``, ``clock_hz``, ``multi``. ``tool_version`` also tells the
        ``-mr`` reader which release wrote records whose meaning changed (``+F2..+F5`` hold
        seconds per op up to 1.1.0 and ops per second from 1.1.1).

    Returns
    -------
    pandas.DataFrame
        One row per measured cell; columns :data:`cipherlab.model.COLUMNS` plus the
        condition columns. ``bytes_per_s`` is in bytes (openssl's ``k`` cells × 1000),
        ``0.00`` cells are NaN with ``flag == "not measured"``, ``-multi`` children's shares
        carry ``flag == "child process"`` and their ``child`` number.

    Raises
    ------
    IngestError
        Binary or undecodable input; text with no measurements; with ``strict=True``, a line
        that looks like data but fits nowhere (``err.source``, ``err.lineno``, ``err.line``).
    FileNotFoundError
        A path or glob that matches nothing.

    Warns
    -----
    IngestWarning
        Lines that looked like measurements but were not placed (source, count, first line
        numbers); suspicious values (negative, infinite, beyond 1 TB/s), kept and flagged.

    Examples
    --------
    >>> import cipherlab
    >>> df = cipherlab.ingest(cipherlab.datasets.path("evp-aes.txt"))
    >>> cell = df[(df.algorithm == "aes-128-cbc") & (df.block_bytes == 16)].iloc[0]
    >>> float(cell.bytes_per_s), int(cell["count"]), float(cell.seconds), cell.tool_version
    (1354589590.0, 83815231, 0.99, '3.0.19')
    >>> text = "+DT:md5:1:16\\n+R:100:md5:1.000000\\n+H:16\\n+F:4:md5:1600.00\\n"
    >>> cipherlab.ingest(text, aesni="off")[["algorithm", "bytes_per_s", "count", "aesni"]]
      algorithm  bytes_per_s  count aesni
    0       md5       1600.0    100   off
    """
    conditions = _check_conditions(conditions)
    if label is not None:
        conditions["label"] = label
    hints = {"tool_version": conditions.get("tool_version")}
    tables: list[pd.DataFrame] = []
    parts: list[model.Columns] = []  # the text sources' cells, the columns of each chunk of files
    first = None
    skipped: list[tuple[str, str]] = []
    cache = _cache.resolve(cache)
    written = 0  # entries the cache got
    # (parsing makes millions of small objects and no cycles: on a 20 MB folder the collector
    # took about a third of the time while freeing nothing)
    with caught_warnings() as caught, paused():
        items = list(_resolve(source))
        for chunk in _read_chunks(items, strict, conditions, hints, cache, n_jobs):
            for message, category in chunk.warnings:  # as if read here, in file order
                warnings.warn(message, category)
            skipped += chunk.skipped
            written += chunk.written
            if chunk.error is not None:
                raise chunk.error
            tables.extend(chunk.tables)
            if chunk.columns is not None:
                parts.append(chunk.columns)
                first = first or chunk.source
        chunk = None  # (``parts`` holds the only references to the chunks' columns)
        if parts:
            # the frame one pass over every text source would give, built once, flagged once
            text = model.Columns.join(parts, release=True).frame()  # (emptied as joined)
            return_freed()
            text = label_masks(text)
            return_freed()
            tables.insert(0, model.flag_cells(text, first))
        if skipped:
            shown = ", ".join(f"{name} ({why})" for name, why in skipped[:_SHOWN_SKIPPED])
            more = f" and {len(skipped) - _SHOWN_SKIPPED} more" if len(skipped) > _SHOWN_SKIPPED else ""
            warnings.warn(f"{len(skipped)} file(s) skipped, holding no benchmark: {shown}{more}.",
                          IngestWarning)
        if written:
            cache.trim()
    for w in caught:  # re-issued here so that they point at the caller's line
        warnings.warn(w.message, w.category, stacklevel=2)
    if not tables:
        raise IngestError("no measurements found in any of the files given", source=str(source))
    return tables[0] if len(tables) == 1 else model.concat(tables)


def label_masks(frame: pd.DataFrame) -> pd.DataFrame:
    """``isa_off``/``aesni`` from the ``CPUINFO:`` masks of the text (``runners._isa``)."""
    from cipherlab.runners._isa import label_masks
    out = label_masks(frame, stacklevel=2)
    return frame if out is frame else model.coerce(out)  # the new conditions in table order


class _Chunk:
    """What reading a chunk of sources gave: small enough to send back from a worker process."""

    def __init__(self):
        self.warnings: list[tuple[Warning, type]] = []  # in the order they were issued
        self.error: Exception | None = None  # the first error; the sources after it are not read
        self.tables: list[pd.DataFrame] = []  # tidy tables read as they are (CSV, Parquet)
        self.columns: model.Columns | None = None  # every text source's cells (no frame yet)
        self.source: str | None = None  # the first text source
        self.skipped: list[tuple[str, str]] = []  # (file, why) of files of folders not read
        self.written = 0  # entries stored in the cache


def _read_chunk(items: list, strict: bool, conditions: dict[str, Any], hints: dict[str, Any],
                cache: _cache.Cache | None, tick: Callable[[int], Any] | None = None) -> _Chunk:
    """Read sources in order, stopping at the first error; ``tick(1)`` after each."""
    return_freed()  # (what the chunk before left: a worker reads several)
    out = _Chunk()
    stored = cache.written if cache is not None else 0
    runs: list[model.Run] = []
    with caught_warnings() as caught:  # in the order they were issued
        for text_or_path, name, optional in items:
            try:
                got = _read_one(text_or_path, name, optional, strict, conditions, hints, cache)
            except _Skip as skip:
                out.skipped.append((name, str(skip)))
                got = None
            except Exception as err:  # noqa: BLE001 - handed to the caller, in source order
                out.error = err
                break
            if isinstance(got, pd.DataFrame):
                out.tables.append(got)
            elif got:
                for run in got:
                    run.meta["source"] = name
                runs.extend(got)
                out.source = out.source or name
            if tick is not None:
                tick(1)
        if cache is not None:
            cache.flush()  # (the chunk's entries in one transaction)
            out.written = cache.written - stored
    out.warnings = [(w.message, w.category) for w in caught]
    if runs:
        # every text source in one column-wise pass; no pandas object made (nor pickled)
        out.columns = model.columns(runs, source=out.source, conditions=conditions)
    return out


def _read_chunks(items: list, strict: bool, conditions: dict[str, Any], hints: dict[str, Any],
                 cache: _cache.Cache | None, n_jobs: int | None) -> Iterator[_Chunk]:
    """The chunks of ``items``, read here or by worker processes, yielded in source order."""
    bar = None
    if len(items) >= _PROGRESS_FILES:  # long folders get a progress bar (notebooks too)
        from tqdm.auto import tqdm
        # disable=None: shown on a terminal and in notebooks, not into a log or a pipe
        bar = tqdm(total=len(items), desc="cipherlab.ingest", unit="file", leave=False,
                   disable=None)
    try:
        sizes = list(map(_size, items))  # (each file's size taken once)
        jobs = _jobs(len(items), sum(sizes), n_jobs)
        # Contiguous chunks of about equal size, a few per worker so that they finish together,
        # none much above _CHUNK_BYTES: a chunk's parsed runs take several times its text until
        # its frame is built.
        chunks = _split(items, sizes, max(4 * jobs if jobs > 1 else 1,
                                          -(-sum(sizes) // _CHUNK_BYTES)))
        tick = bar.update if bar else None
        if jobs == 1:
            for c in chunks:
                yield _read_chunk(c, strict, conditions, hints, cache, tick)
            return
        # The workers read; this process joins what they send meanwhile (reading chunks here
        # too would save a worker's memory, but it delays the joins and the result thread
        # unpickling beside it: 20 % more wall time on the real corpus, 2 CPUs).
        pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"))
        try:
            futures = [pool.submit(_read_chunk, c, strict, conditions, hints, cache)
                       for c in chunks]
            for c, future in zip(chunks, futures):
                chunk = future.result()
                return_freed()  # (the chunk's pickle, which glibc would keep)
                if tick is not None:
                    tick(len(c))
                yield chunk
        finally:
            # The chunks not started are dropped; the workers exit and the pool's thread reaps
            # them while this process joins the columns (waiting for them took 30-170 ms).
            pool.shutdown(wait=False, cancel_futures=True)
    finally:
        if bar is not None:
            bar.close()


def _jobs(n_items: int, n_bytes: int, n_jobs: int | None) -> int:
    """How many processes read ``n_items`` sources of ``n_bytes`` in all: 1 unless several are
    asked for (or worth it) and can fork."""
    if n_jobs is not None and (isinstance(n_jobs, bool) or not isinstance(n_jobs, int)
                               or n_jobs == 0 or n_jobs < -1):
        raise ValueError(f"`n_jobs` must be a positive number of processes, -1 (every CPU) or "
                         f"None (decide from the input); not {n_jobs!r}.")
    if n_jobs is None:
        n_jobs = _cpus() if n_items > 1 and n_bytes >= _PARALLEL_BYTES else 1
    elif n_jobs == -1:
        n_jobs = _cpus()
    n_jobs = min(n_jobs, n_items)
    if n_jobs > 1 and not _can_fork():
        return 1
    return n_jobs


def _cpus() -> int:
    """The CPUs this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _can_fork() -> bool:
    # Workers are forked: they start at once with everything imported and need nothing pickled
    # but their results. Forking is safe on Linux (macOS system libraries are not fork-safe);
    # forking a process that runs threads warns from Python 3.12 on; a daemon process (itself
    # a worker) may not have children.
    return (sys.platform.startswith("linux")
            and not multiprocessing.current_process().daemon
            and (sys.version_info < (3, 12) or threading.active_count() == 1))


def _size(item: tuple) -> int:
    what = item[0]
    try:
        return what.stat().st_size if isinstance(what, Path) else len(what)
    except (OSError, TypeError):
        return 0


def _split(items: list, sizes: list[int], n: int) -> list[list]:
    """``items`` (of ``sizes`` bytes) cut into at most ``n`` contiguous chunks of about equal
    size."""
    sizes = [max(size, 1) for size in sizes]
    target = sum(sizes) / n
    chunks, chunk, filled = [], [], 0
    for item, size in zip(items, sizes):
        chunk.append(item)
        filled += size
        if filled >= target * (len(chunks) + 1):
            chunks.append(chunk)
            chunk = []
    if chunk:
        chunks.append(chunk)
    return chunks


def _check_conditions(conditions: dict[str, Any]) -> dict[str, Any]:
    conditions = dict(conditions)
    timing = conditions.get("timing")
    if timing is not None and timing not in _TIMINGS:
        raise ValueError(f"`timing` must be one of 'cpu' or 'elapsed'; not {timing!r}.")
    for key, kind in (("multi", int), ("clock_hz", float)):
        if conditions.get(key) is not None:
            try:
                conditions[key] = kind(conditions[key])
            except (TypeError, ValueError):
                raise ValueError(f"`{key}` must be a number; not {conditions[key]!r}.") from None
    return conditions


def _resolve(source: Any) -> Iterable[tuple[Any, str, bool]]:
    """Yield ``(text, bytes or Path, source name, optional)``; optional = part of a folder/glob."""
    if isinstance(source, (list, tuple)):
        if not source:
            raise ValueError("`source` is an empty list; give at least one path or text.")
        for item in source:
            yield from _resolve(item)
        return
    if isinstance(source, bytes):
        yield source, "<bytes>", False
        return
    if hasattr(source, "read"):
        data = source.read()
        name = getattr(source, "name", None)
        yield data, str(name) if isinstance(name, (str, os.PathLike)) else "<stream>", False
        return
    if isinstance(source, str) and ("\n" in source or "\r" in source or not source.strip()):
        yield source, "<text>", False
        return
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"`source` must be a path, a glob, a file object, text, or a list of "
                        f"them; not {type(source).__name__}.")
    path = Path(source)
    kind = _kind(path)
    if kind == "dir":
        yield from _folder(path)
        return
    if kind == "file":
        yield path, str(source), False
        return
    text = str(source)
    if isinstance(source, str) and ("\\n" in text or _json.is_document(text)):
        yield text, "<text>", False  # text on one line: JSON, or its escaped line breaks
        return
    if any(ch in text for ch in "*?["):
        hits = sorted(Path(p) for p in _glob.glob(text, recursive=True))
        files = [p for p in hits if p.is_file() and not p.name.startswith(".")]
        if not files:
            raise FileNotFoundError(f"`source` glob {_shortened(text)!r} matches no file.")
        for p in files:
            yield p, str(p), True
        return
    if " " in text.strip() and Path(text).suffix.lower() not in _TEXT_SUFFIXES | _TABLE_SUFFIXES:
        yield text, "<text>", False  # one line of text rather than a path
        return
    raise FileNotFoundError(f"`source` {_shortened(text)!r} is neither an existing file or "
                            f"folder nor text (text must contain a newline).")


def _kind(path: Path) -> str | None:
    """``"dir"``, ``"file"``, ``"too long"`` (a name no file can have), else None."""
    try:
        return "dir" if path.is_dir() else "file" if path.is_file() else None
    except OSError as err:  # (ENAMETOOLONG; is_dir() passes only "no such file" errors)
        if err.errno == errno.ENAMETOOLONG:
            return "too long"
        raise FileNotFoundError(f"`source` {_shortened(str(path))!r}: {err.strerror}") from None


def _shortened(text: str, width: int = 80) -> str:
    return text if len(text) <= width else f"{text[:width - 20]}...{text[-15:]}"


class _Skip(Exception):
    """A file of a folder or glob that holds no benchmark: skipped, for the reason given."""


def _not_read(p: Path) -> str | None:
    """Why a file of a folder or glob is not read at all (its name says so), else None.

    Every other file is read by its content, whatever its name (``host1-openssl-3.0.19``,
    ``run.speed``, ``speed.txt.1``): binary files and texts without measurements are skipped
    when read, with their reason.
    """
    name = p.name
    if name.startswith("README"):
        return "documentation"
    if ".expected." in name:
        return "a test's expected table"
    return None


def _folder(path: Path) -> Iterable[tuple[Any, str, bool]]:
    for table in ("results.parquet", "results.csv"):
        if (path / table).is_file():
            yield path / table, str(path / table), False
            return
    files, captures = _listing(path)
    if not files and not captures:
        raise FileNotFoundError(f"`source` folder {str(path)!r} holds no files.")
    for c in captures:  # capture folders inside (runners._folder): their table, not their raw runs
        yield from _folder(path.joinpath(*c))
    for rel in files:
        p = path.joinpath(*rel)
        yield p, str(p), True


def _listing(path: Path) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """The files under ``path`` that a folder read takes, and the capture folders inside it (those
    holding a ``runs.jsonl``), as relative parts, each list in the order sorted paths take.

    Files are not hidden (no part of their path starts with ``.``) and not inside a capture
    folder. One ``os.scandir`` walk, which knows each entry's kind without a ``stat``:
    ``Path.rglob`` cost 30 us a file, a third of a second before reading 10,000 of them.
    Symbolic links to folders are not followed (as ``rglob`` does not).
    """
    files, captures, todo = [], set(), [(str(path), ())]
    while todo:
        top, rel = todo.pop()
        try:
            with os.scandir(top) as it:
                entries = list(it)
        except (PermissionError, NotADirectoryError):
            continue
        for e in entries:
            parts = (*rel, e.name)
            if e.name == "runs.jsonl" and rel and os.path.exists(e.path):
                captures.add(rel)
            if e.is_dir() and not e.is_symlink():
                todo.append((e.path, parts))
            elif e.is_file() and not any(part.startswith(".") for part in parts):
                files.append(parts)
    files = [f for f in files if not any(f[:n] in captures for n in range(1, len(f)))]
    return sorted(files), sorted(captures)


def _read_one(item: Any, name: str, optional: bool, strict: bool, conditions: dict[str, Any],
              hints: dict[str, Any], cache: _cache.Cache | None) -> pd.DataFrame | list[model.Run] | None:
    if isinstance(item, Path):
        reason = _not_read(item) if optional else None
        if reason is not None:
            raise _Skip(reason)
        if item.suffix.lower() in _TABLE_SUFFIXES and _is_tidy(item):
            return _read_table(item, conditions)  # (any other CSV is a document table: text)
        try:
            with open(item, "rb", buffering=0) as fh:  # (unbuffered: one read of the whole file)
                data = fh.read()
        except OSError as err:
            raise IngestError(f"cannot read the file: {err.strerror}", source=name) from err
    else:
        data = item
    try:
        return _parse(data, name, strict, hints) if cache is None else \
            _parse_cached(data, name, strict, hints, cache)
    except IngestError as err:
        # a folder's or glob's file that is no benchmark text (binary, no measurements)
        if optional and not strict and (err.msg.startswith("no measurements") or err.lineno is None):
            raise _Skip(err.msg.split(":")[0].split(";")[0]) from None
        raise


def _parse(data: Any, name: str, strict: bool, hints: dict[str, Any]) -> list[model.Run]:
    text = decode(data, name) if isinstance(data, (bytes, bytearray)) else str(data)
    return read_runs(text, name, strict=strict, hints=hints)


def _parse_cached(data: Any, name: str, strict: bool, hints: dict[str, Any],
                  cache: _cache.Cache) -> list[model.Run]:
    """:func:`_parse` through the cache: its runs (or its error) and its warnings, from the
    cache when they are there."""
    data = bytes(data) if isinstance(data, (bytes, bytearray)) else str(data)  # (hashable)
    key = cache.key(data, name, strict, hints)
    hit = cache.get(key)
    if hit is not None:
        runs, error, given = hit
        for message, category in given:  # as the first reading gave them, in order
            warnings.warn(message, category)
        if error is not None:
            raise IngestError(**error)
        return runs
    caught: list = []
    try:
        with caught_warnings() as caught:
            runs = _parse(data, name, strict, hints)
    except IngestError as err:  # (a text without measurements costs a whole parse too)
        error = {k: getattr(err, k) for k in ("msg", "source", "lineno", "line", "unplaced")}
        cache.put(key, (None, error, [(str(w.message), w.category) for w in caught]))
        raise
    finally:  # (given here too, and those before an error)
        for w in caught:
            warnings.warn(w.message, w.category)
    cache.put(key, (runs, None, [(str(w.message), w.category) for w in caught]))
    return runs


def _is_tidy(path: Path) -> bool:
    """Whether a table file is a tidy table (Parquet, or a CSV with cipherlab's columns)."""
    if path.suffix.lower() != ".csv":
        return True
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            head = fh.readline()
    except OSError as err:
        raise IngestError(f"cannot read the file: {err.strerror}", source=str(path)) from err
    return {"algorithm", "bytes_per_s"} <= set(head.strip().lstrip("\ufeff").split(","))


def _read_table(path: Path, conditions: dict[str, Any]) -> pd.DataFrame:
    """A tidy table written by cipherlab (capture folders, bundled CSVs)."""
    df = model.read_table(path)
    if path.name.startswith("results.") and (path.parent / "runs.jsonl").is_file():
        from cipherlab.runners._folder import qualified  # a capture folder's rows
        df = qualified(df, path.parent)
    for key, value in conditions.items():
        df[key] = value
    return model.coerce(df)


def _document_tables(lines: list[str], source: str, taken: set[int],
                     unplaced: list[tuple[int, str]]):
    if taken:  # (another reader's lines are no part of a document table: blank, as between two)
        lines = ["" if i in taken else line for i, line in enumerate(lines)]
    found, used = find_tables(lines, source, unplaced=unplaced)
    return found, used


#: The readers of whole texts that run before the openssl line pass, in order: each takes
#: ``(lines, source, taken lines, unplaced list)`` and returns its runs and the 0-based indices
#: of the lines it took (which no later reader sees). Another tool's reader joins this list.
FINDERS: list[Callable[..., tuple[list, set[int]]]] = [
    _cryptsetup.find_runs,  # (first: its header row has the pipes of a document table)
    _wolfcrypt.find_runs,  # (before them too: their records line up as an aligned table's rows)
    _mbedtls.find_runs,
    _gobench.find_runs,  # (before them too: its records are tab-separated columns)
    _document_tables,
    _bssl.find_runs,
    _collapsed.find_runs,
    _gnutls.find_runs,
]


def read_runs(text: str, source: str, *, strict: bool = False,
              hints: dict[str, Any] | None = None) -> list[model.Run]:
    """Parse one decoded text into runs, in text order; the workhorse behind :func:`ingest`.

    Unplaced lines that look like data are warned about (or raised, with ``strict``); a text
    with no measurements at all raises :class:`~cipherlab.errors.IngestError`.
    """
    runs: list[model.Run] = []
    unplaced: list[tuple[int, str]] = []
    parts = documents(text, source)  # (a JSON reply's posts: read apart, no context crosses them)
    for lines, origin, name in parts:  # origin: the map back to the text's lines, if they moved
        got, missed = _read_lines(lines, origin, source, hints)
        name_by_source(got, name)  # (an interleaved log's source: its tag names its runs)
        runs += got
        unplaced += missed
    if len(parts) > 1:
        unplaced.sort(key=lambda u: u[0])
    shown = ", ".join(str(n) for n, _ in unplaced[:_SHOWN]) + (
        " ..." if len(unplaced) > _SHOWN else "")
    if unplaced and (strict or not runs):
        lineno, line = unplaced[0]
        what = "this line looks like a measurement but fits" if strict else (
            f"no measurements could be placed: {len(unplaced)} line(s) (line(s) {shown}) look "
            f"like measurements but fit")
        raise IngestError(f"{what} no table or record cipherlab knows", source=source,
                          lineno=lineno, line=line, unplaced=unplaced)
    if unplaced:
        lineno, line = unplaced[0]
        warnings.warn(
            f"{source}: {len(unplaced)} line(s) look like measurements but were not placed "
            f"(line(s) {shown}; first: {line.strip()!r}); fix or remove them, or pass "
            f"strict=True to stop at the first.", IngestWarning, stacklevel=2)
    if not runs:
        raise IngestError(
            "no measurements found: no openssl speed table, progress line, -mr record or "
            "benchmark table in this text", source=source)
    runs.sort(key=_first_line)
    return runs


def _read_lines(lines: list[str], origin: list[int] | None, source: str,
                hints: dict[str, Any] | None) -> tuple[list[model.Run], list[tuple[int, str]]]:
    """The runs of one normalised text and its lines that look like data but were not
    placed, both numbered as the original text (through ``origin``)."""
    bad_rows: list[tuple[int, str]] = []  # table rows that hold numbers but could not be read
    found: list = []
    taken: set[int] = set()
    lines = from_bbcode(lines)  # (a forum post's [table] and [code]: the markup they stand for)
    lines, logs = strip_log_prefixes(lines)  # (a log's stamps and tags: every reader reads behind)
    with renumbered_warnings(origin):  # (a warning naming lines names the text's own)
        tables: list = []  # (runs of document tables: the prose around them is read there)
        for finder in FINDERS:
            runs, used = finder(lines, source, taken, bad_rows)
            found += runs
            taken |= used
            if finder is _document_tables:
                tables = runs
        runs, unplaced = _openssl.parse(*strip_shared_prefix(lines, logs), taken, source, hints)
    if bad_rows:
        unplaced = sorted({n: (n, line) for n, line in [*bad_rows, *unplaced]}.values())
    runs = [r for r in found + runs if r.cells or r.rows]
    unplaced = _new_figures(unplaced, runs)
    in_tables = {id(r) for r in tables}  # (by identity: runs compare by value, cell by cell)
    output = sorted((r for r in runs if id(r) not in in_tables), key=_first_line)
    machines_in_prose(lines, output, [(first - 1, last - 1) for first, last in map(_span, output)])
    if origin is not None:
        unplaced = renumber(runs, unplaced, origin)
    return runs, unplaced


def _new_figures(unplaced: list[tuple[int, str]], runs: list[model.Run]) -> list[tuple[int, str]]:
    """The unplaced lines less those that only restate cells the text holds: a sentence whose
    every rate is, within the rounding it is written to, a cell read of an algorithm it names
    (at a size it states, if it states one): "so AES-256-GCM reaches about 3.9 GB/s at 16 KB"
    under a table's 3911.9 MB/s. A rate no cell matches is new data: still reported; so is a
    row of openssl's ``k`` values, a copy or a cut of a row read (which copy is the data?)."""
    read: dict[str, list[tuple[Any, float]]] | None = None
    kept = []
    for n, line in unplaced:
        rates = rates_in(line)
        prose = rates and all(line[end - 1] != "k" for _, end, _ in rates)
        names = set(named_algorithms(line)) if prose else set()
        if names:
            if read is None:
                read = _rates_read(runs)
            sizes = {size for *_, size in sizes_in(line)}
            if all(any(_rounds_to(line[start:end], rate, value) for a in names
                       for block, value in read.get(a, ()) if not sizes or block in sizes)
                   for start, end, rate in rates):
                continue
        kept.append((n, line))
    return kept


def _rates_read(runs: list[model.Run]) -> dict[str, list[tuple[Any, float]]]:
    """(block size, bytes/s) of every throughput cell read, by algorithm."""
    out: dict[str, list[tuple[Any, float]]] = {}
    for run in runs:
        for row in run.rows:
            out.setdefault(row[1], []).extend(zip(row[4], row[5]))
        for cell in run.cells:
            c = cell if isinstance(cell, dict) else dict(zip(model.CELL_FIELDS, cell))
            if c.get("bytes_per_s") is not None and c.get("algorithm"):
                out.setdefault(c["algorithm"], []).append((c.get("block_bytes"), c["bytes_per_s"]))
    return out


def _rounds_to(written: str, rate: float, value: float) -> bool:
    """Whether ``value`` (bytes/s) rounds to the rate ``written`` (``3.9 GB/s``: ``rate`` in
    bytes/s) to as many decimals as it is written with."""
    number = _WRITTEN_NUMBER.match(written)
    if number is None or not float(number[0].replace(",", "") or 0):
        return False
    unit = rate / float(number[0].replace(",", ""))
    return abs(value - rate) <= 0.5 * 10.0 ** -len(number[1] or "") * unit * (1 + 1e-9)


_WRITTEN_NUMBER = re.compile(r"\d[\d,]*(?:\.(\d+))?")


def _first_line(run: model.Run) -> int:
    return _span(run)[0]


def _span(run: model.Run) -> tuple[int, int]:
    """The first and last line (1-based) of a run's cells."""
    if run.cells and isinstance(run.cells[0], dict):
        lines = [c.get("line") or 0 for c in run.cells]
    else:
        lines = [row[0] for row in run.rows]
        if run.cells:  # (positional cells come sorted by line)
            lines += [run.cells[0][0] or 0, run.cells[-1][0] or 0]
    return min(lines), max(lines)
