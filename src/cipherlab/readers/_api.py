"""``cipherlab.ingest``: any source of benchmark text -> the tidy table.

Why this module exists: users hold their numbers in every form - a file, a folder of captures,
a glob, an open file, a string pasted into a notebook. This module resolves all of them to
(text, source name) pairs, runs the readers on each (tables in documents first, then every
``openssl speed`` dialect on the remaining lines) and reports what could not be placed, so that
nothing that looks like a measurement disappears silently.
"""

from __future__ import annotations

import gc
import glob as _glob
import os
import warnings
from pathlib import Path
from contextlib import contextmanager
from typing import Any, Iterable

import pandas as pd

from cipherlab import model
from cipherlab.errors import IngestError, IngestWarning
from cipherlab.readers import _openssl
from cipherlab.readers._tables import find_tables
from cipherlab.readers._text import decode, split_lines

__all__ = ["ingest"]

_TEXT_SUFFIXES = {".txt", ".log", ".out", ".md", ".markdown", ".html", ".htm", ".text", ""}
_TABLE_SUFFIXES = {".csv", ".parquet"}
_TIMINGS = ("cpu", "elapsed")
_SHOWN = 5  # line numbers named in a warning
_PROGRESS_FILES = 50  # show a progress bar from this many files on


def ingest(source: Any, *, label: str | None = None, strict: bool = False,
           **conditions: Any) -> pd.DataFrame:
    """Read benchmark output of any ``openssl speed`` version and shape into the tidy table.

    Parameters
    ----------
    source : str, os.PathLike, file object, or list of them
        A path, a folder, a glob (``"dumps/*.txt"``), an open file (text or binary), a list of
        any of these, or the text itself (a ``str`` containing a newline). A folder holding
        ``results.parquet`` or ``results.csv`` is a capture folder and is read as its table;
        any other folder contributes every text file in it (and tidy ``.csv`` tables).
    label : str, optional
        Run label for every row, instead of the labels found in the text.
    strict : bool, default False
        Raise :class:`~cipherlab.errors.IngestError` on the first line that looks like a
        measurement but cannot be placed, instead of warning about all of them.
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
    runs: list[model.Run] = []
    names: list[str] = []
    with warnings.catch_warnings(record=True) as caught, _gc_paused():
        warnings.simplefilter("always")
        items = list(_resolve(source))
        if len(items) >= _PROGRESS_FILES:  # long folders get a progress bar (notebooks too)
            from tqdm.auto import tqdm
            items = tqdm(items, desc="cipherlab.ingest", unit="file", leave=False)
        for text_or_path, name, optional in items:
            got = _read_one(text_or_path, name, optional, strict, conditions, hints)
            if isinstance(got, pd.DataFrame):
                tables.append(got)
            elif got:
                for run in got:
                    run.meta["source"] = name
                runs.extend(got)
                names.append(name)
        if runs:
            # every text source in one column-wise pass (one frame, no concatenation)
            tables.insert(0, model.to_frame(runs, source=names[0], conditions=conditions))
        # Free the parsed records while the collector is paused: once it resumes, its first
        # pass walks every object allocated meanwhile that is still alive.
        runs = got = run = None
    for w in caught:  # re-issued here so that they point at the caller's line
        warnings.warn(w.message, w.category, stacklevel=2)
    if not tables:
        raise IngestError("no measurements found in any of the files given", source=str(source))
    return tables[0] if len(tables) == 1 else model.concat(tables)


@contextmanager
def _gc_paused():
    """Pause the cyclic garbage collector while reading.

    Parsing allocates millions of small objects that hold no reference cycles, and every
    collection pass walks all of those still alive: on a 20 MB folder the collector took about a
    third of the time while freeing nothing. Collection resumes (if it was on) afterwards.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


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
    if path.is_dir():
        yield from _folder(path)
        return
    if path.is_file():
        yield path, str(source), False
        return
    text = str(source)
    if any(ch in text for ch in "*?["):
        hits = sorted(Path(p) for p in _glob.glob(text, recursive=True))
        files = [p for p in hits if p.is_file() and _wanted(p)]
        if not files:
            raise FileNotFoundError(f"`source` glob {text!r} matches no file.")
        for p in files:
            yield p, str(p), True
        return
    if " " in text.strip() and Path(text).suffix.lower() not in _TEXT_SUFFIXES | _TABLE_SUFFIXES:
        yield text, "<text>", False  # one line of text rather than a path
        return
    raise FileNotFoundError(f"`source` {text!r} is neither an existing file or folder nor "
                            f"text (text must contain a newline).")


def _wanted(p: Path) -> bool:
    name = p.name
    if name.startswith((".", "README")) or name.endswith(".expected.csv"):
        return False
    return p.suffix.lower() in _TEXT_SUFFIXES | _TABLE_SUFFIXES


def _folder(path: Path) -> Iterable[tuple[Any, str, bool]]:
    for table in ("results.parquet", "results.csv"):
        if (path / table).is_file():
            yield path / table, str(path / table), False
            return
    files = sorted(p for p in path.rglob("*") if p.is_file() and _wanted(p)
                   and not any(part.startswith(".") for part in p.relative_to(path).parts))
    if not files:
        raise FileNotFoundError(f"`source` folder {str(path)!r} holds no text files.")
    for p in files:
        yield p, str(p), True


def _read_one(item: Any, name: str, optional: bool, strict: bool, conditions: dict[str, Any],
              hints: dict[str, Any]) -> pd.DataFrame | list[model.Run] | None:
    if isinstance(item, Path):
        if item.suffix.lower() in _TABLE_SUFFIXES:
            return _read_table(item, optional, conditions)
        try:
            data = item.read_bytes()
        except OSError as err:
            raise IngestError(f"cannot read the file: {err.strerror}", source=name) from err
    else:
        data = item
    text = decode(data, name) if isinstance(data, (bytes, bytearray)) else str(data)
    try:
        return read_runs(text, name, strict=strict, hints=hints)
    except IngestError as err:
        if optional and not strict and err.msg.startswith("no measurements"):
            warnings.warn(f"{name}: no measurements found; skipped.", IngestWarning, stacklevel=2)
            return None
        raise


def _read_table(path: Path, optional: bool, conditions: dict[str, Any]) -> pd.DataFrame | None:
    """A tidy table written by cipherlab (capture folders, bundled CSVs)."""
    if path.suffix == ".csv":
        with open(path, encoding="utf-8", errors="replace") as fh:
            head = fh.readline()
        if not {"algorithm", "bytes_per_s"} <= set(head.strip().split(",")):
            if optional:
                warnings.warn(f"{path}: a CSV that is not a tidy table (no 'algorithm' and "
                              f"'bytes_per_s' columns); skipped.", IngestWarning, stacklevel=2)
                return None
            raise IngestError("a CSV must be a tidy table with 'algorithm' and 'bytes_per_s' "
                              "columns", source=str(path), lineno=1, line=head.rstrip("\n"))
    df = model.read_table(path)
    for key, value in conditions.items():
        df[key] = value
    return model.coerce(df)


def read_runs(text: str, source: str, *, strict: bool = False,
              hints: dict[str, Any] | None = None) -> list[model.Run]:
    """Parse one decoded text into runs, in text order; the workhorse behind :func:`ingest`.

    Unplaced lines that look like data are warned about (or raised, with ``strict``); a text
    with no measurements at all raises :class:`~cipherlab.errors.IngestError`.
    """
    lines = split_lines(text)
    bad_rows: list[tuple[int, str]] = []  # table rows that hold numbers but could not be read
    found, taken = find_tables(lines, source, unplaced=bad_rows)
    runs, unplaced = _openssl.parse(lines, taken, source, hints)
    if bad_rows:
        unplaced = sorted({n: (n, line) for n, line in [*bad_rows, *unplaced]}.values())
    runs = [r for r in found + runs if r.cells or r.rows]
    if unplaced:
        lineno, line = unplaced[0]
        if strict:
            raise IngestError("this line looks like a measurement but fits no table or record "
                              "cipherlab knows", source=source, lineno=lineno, line=line)
        shown = ", ".join(str(n) for n, _ in unplaced[:_SHOWN]) + (
            " ..." if len(unplaced) > _SHOWN else "")
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


def _first_line(run: model.Run) -> int:
    if run.cells and isinstance(run.cells[0], dict):
        return min((c.get("line") or 0 for c in run.cells), default=0)
    firsts = [row[0] for row in run.rows]
    if run.cells:
        firsts.append(run.cells[0][0] or 0)  # positional cells come sorted by line
    return min(firsts)
