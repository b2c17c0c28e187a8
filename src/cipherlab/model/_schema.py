"""Columns, dtypes and the records -> DataFrame step (no parsing, no statistics here)."""

from __future__ import annotations


import warnings
from dataclasses import dataclass, field
from itertools import chain, compress, repeat
from operator import is_not, itemgetter
from typing import Any, Iterable, Mapping, NamedTuple

import numpy as np
import pandas as pd

from cipherlab._gc import return_freed
from cipherlab.errors import IngestWarning

# Per-cell fields, in table order. ``flag`` says why a cell is not a plain measurement
# (``"not measured"`` for openssl's 0.00 cells, ``"negative"``, ``"inf"``, ``"absurd"``), NA otherwise.
CELL_FIELDS = ("line", "algorithm", "name", "operation", "block_bytes", "bytes_per_s",
               "ops_per_s", "count", "seconds", "flag")

# Per-run fields: repeated on every row of the run. Anything else a run carries is a condition.
RUN_FIELDS = ("label", "tool", "tool_version", "timing", "dialect", "built_on", "options",
              "compiler", "cpuinfo", "multi", "cpu", "clock_hz")

#: Every fixed column and its dtype, in the order of the table. Condition columns (``aesni``,
#: ``isa``, ``tier``, ``repeat``, ...) follow ``flag``; run metadata closes the table.
COLUMNS: dict[str, str] = {
    "source": "category",
    "run": "int64",
    "label": "category",
    "line": "Int64",
    "tool": "category",
    "tool_version": "category",
    "timing": "category",
    "algorithm": "category",
    "name": "category",
    "operation": "category",
    "block_bytes": "Int64",
    "bytes_per_s": "float64",
    "ops_per_s": "float64",
    "count": "Int64",
    "seconds": "float64",
    "flag": "category",
    # run metadata
    "dialect": "category",
    "built_on": "category",
    "options": "category",
    "compiler": "category",
    "cpuinfo": "category",
    "multi": "Int64",
    "cpu": "category",
    "clock_hz": "float64",
}
#: Provenance columns, after the run metadata and only where some cell has a value: ``rule``
#: names the rule that placed an inferred cell's run, label or unit (``run: text moved on;
#: label: caption``, see ``readers._boundaries`` and ``readers._context``), NA where the text's
#: own format placed it. They describe how a cell was read: they are no conditions.
PROVENANCE: dict[str, str] = {"rule": "category"}
_HEAD = list(COLUMNS)[: list(COLUMNS).index("flag") + 1]
_TAIL = list(COLUMNS)[len(_HEAD):]
# Conditions whose values are whole numbers stay numeric so they sort and compare as numbers.
_INTEGER_CONDITIONS = {"repeat", "write_bytes", "processes", "child", "key_bits", "gomaxprocs"}

FLAG_NOT_MEASURED = "not measured"
#: Flag of a ``-multi`` child's share of a measurement; the run's total is the unflagged row.
FLAG_CHILD = "child process"
# One core of any CPU made so far stays far below 1 TB/s for a cipher or digest.
_ABSURD_BYTES_PER_S = 1e12
_sizes_of = itemgetter(4)  # of a row record (Run.rows)


@dataclass
class Run:
    """One run inside a source: its metadata plus its measured cells.

    ``meta`` maps :data:`RUN_FIELDS` (and any condition such as ``aesni``) to values;
    ``cells`` is a list of mappings over :data:`CELL_FIELDS` (missing keys mean NA), or of
    sequences holding the :data:`CELL_FIELDS` values in order (the fast form parsers use).
    Cells whose mappings carry keys outside :data:`CELL_FIELDS` give those conditions per cell
    (``-multi`` children, repeats of a harness loop, a table's ``AES-NI Enabled`` column).

    ``rows`` holds throughput table rows whole, the compact form of their cells beside
    sequence ``cells``: each a sequence ``(line, algorithm, name, operation, sizes, values,
    counts, seconds)`` with one cell per block size (``ops_per_s`` = value / size;
    ``counts``/``seconds`` are lists aligned with ``sizes`` holding None or NaN where unknown,
    or None when all are). :func:`to_frame` puts a run's row cells and ``cells`` in line order.
    Rows go with sequence cells (a run with rows and cell mappings is an error).

    >>> run = Run({"label": "demo"},
    ...           cells=[[9, "rsa2048", "rsa 2048 bits", "sign", None, None, 1500.0, 3000, 2.0, None]],
    ...           rows=[[4, "md5", "md5", "hash", [16, 64], [1.6e7, 3.2e7], [10, None], [1.0, None]]])
    >>> to_frame([run], source="demo")[["line", "block_bytes", "ops_per_s", "count"]]
       line  block_bytes  ops_per_s  count
    0     4           16  1000000.0     10
    1     4           64   500000.0   <NA>
    2     9         <NA>     1500.0   3000
    """

    meta: dict[str, Any] = field(default_factory=dict)
    cells: list[Any] = field(default_factory=list)
    rows: list[Any] = field(default_factory=list)


def condition_columns(df: pd.DataFrame) -> list[str]:
    """The condition columns of a tidy table (those that are not fixed columns), in order.

    >>> import pandas as pd
    >>> condition_columns(pd.DataFrame(columns=["source", "run", "aesni", "bytes_per_s"]))
    ['aesni']
    """
    return [c for c in df.columns if c not in COLUMNS and c not in PROVENANCE]


def to_frame(runs: Iterable[Run], *, source: str, conditions: Mapping[str, Any] | None = None,
             first_run: int = 0, stacklevel: int = 4, flag: bool = True) -> pd.DataFrame:
    """Build the tidy table from parsed runs.

    ``source`` names where the runs came from; a run whose ``meta`` holds ``"source"`` keeps its
    own (so many files can become one frame in one pass).
    ``conditions`` (the caller's keyword arguments to ``ingest``) apply to every row and win over
    conditions found in the text. A cell key outside :data:`CELL_FIELDS` is a condition that
    varies from row to row inside one run (a table's ``AES-NI Enabled`` column, a tier row); it
    wins over the run's ``meta`` but not over ``conditions``. Cells whose throughput is exactly
    zero are openssl's "not measured" marker: their rate becomes NaN and ``flag`` says so.
    Negative, infinite and absurdly large values are kept, flagged, and reported with one
    :class:`~cipherlab.errors.IngestWarning`. With ``flag=False`` that step is left to
    :func:`flag_cells` (frames built in parts are flagged once, after they are joined).
    """
    df = columns(runs, source=source, conditions=conditions, first_run=first_run).frame()
    return flag_cells(df, source, stacklevel) if flag else df


class _Text(NamedTuple):
    """A text column before it is a Categorical: codes over its values in first-seen order."""

    codes: np.ndarray  # (int8 for up to 127 values: what pandas keeps)
    categories: list[str]


class Columns:
    """A tidy table's columns before they are a DataFrame: no pandas object in them.

    Numbers are float arrays (NaN where NA; ``run`` an int64 array), text a :class:`_Text`,
    values of mixed types an object array (left to :func:`coerce`). :func:`columns` builds them
    from runs, :meth:`join` joins several in C and :meth:`frame` makes the frame, its
    categoricals built once: ``ingest`` reads chunks of files apart (in worker processes too),
    joins their columns and builds one frame, not one per chunk and a concatenation.

    >>> run = Run({"label": "demo"}, [{"algorithm": "md5", "block_bytes": 16, "bytes_per_s": 1.0}])
    >>> parts = [columns([run], source=name) for name in ("b.txt", "a.txt")]
    >>> Columns.join(parts).frame()[["source", "run", "algorithm", "block_bytes"]]
       source  run algorithm  block_bytes
    0   b.txt    0       md5           16
    1   a.txt    0       md5           16
    """

    def __init__(self, length: int, data: dict[str, Any]):
        self.length = length  # rows
        self.data = data  # column name -> its plain column, in the order the frame takes them

    def __repr__(self) -> str:
        return f"Columns({self.length} rows: {', '.join(self.data)})"

    @classmethod
    def join(cls, parts: list[Columns], *, release: bool = False) -> Columns:
        """The columns of ``parts`` one after the other (a column a part lacks is NA there).

        With ``release=True`` (``parts`` a list nothing else holds) the list is emptied and each
        part's column is dropped once it is joined, the memory handed back as it goes.
        """
        given, parts = parts, [p for p in parts if p.length]
        if release:
            given.clear()
        if len(parts) <= 1:
            return parts[0] if parts else cls(0, {})
        lengths = [p.length for p in parts]
        joined, released = {}, 0
        for name in dict.fromkeys(chain.from_iterable(p.data for p in parts)):
            cols = [p.data.pop(name, None) if release else p.data.get(name) for p in parts]
            joined[name] = _joined(cols, lengths)
            if release:
                released += sum(_nbytes(c) for c in cols)
                cols = None
                if released >= _TRIM_BYTES:  # (the parts' small arrays stay in glibc's heap else)
                    return_freed()
                    released = 0
        return cls(sum(lengths), joined)

    def frame(self) -> pd.DataFrame:
        """The tidy table of these columns (their dtypes, the table's order), not yet flagged
        (:func:`flag_cells`). The columns are handed over to it (this object is emptied)."""
        if not self.data:
            return coerce(pd.DataFrame(columns=_HEAD))
        data: dict[str, Any] = dict.fromkeys(_HEAD)  # the fixed order first
        while self.data:  # (each plain column dropped once typed)
            name = next(iter(self.data))
            data[name] = _typed(name, self.data.pop(name))
        self.length = 0
        return coerce(pd.DataFrame(data, copy=False))


def columns(runs: Iterable[Run], *, source: str, conditions: Mapping[str, Any] | None = None,
            first_run: int = 0) -> Columns:
    """The columns :func:`to_frame` makes a frame of (see :class:`Columns`)."""
    conditions = dict(conditions or {})
    # Cell fields are lists; everything constant within a run is kept as one value per run and
    # expanded in C at the end (np.repeat), so a million cells cost a million list items for
    # the cell fields only. Row records stay whole until the end too.
    cells: dict[str, list] = {f: [] for f in CELL_FIELDS}
    metas: list[dict] = []  # per run: its run-level columns, "source" and "run" first
    varying: dict[int, tuple] = {}  # run ordinal -> (keys, cells) of conditions set per cell
    numbers: dict[str, int] = {}
    rows: list = []  # the row records of every run
    row_runs: list[int] = []  # for each row record, the ordinal of its run
    cell_runs: list[int] = []  # the same for each cell in ``cells`` (then: for every cell)
    cell_keys: list = []  # what orders a run's cells: lines where it has rows, else arrival
    for run in runs:
        if not run.cells and not any(map(len, map(_sizes_of, run.rows))):
            continue  # no cells (counted per run at the end, from every cell's run)
        meta = {"source": source, "run": None, **run.meta, **conditions}
        src = meta["source"]
        meta["run"] = number = numbers.get(src, first_run)  # numbered within their source
        numbers[src] = number + 1
        ordinal = len(metas)
        mappings = bool(run.cells) and isinstance(run.cells[0], Mapping)
        if mappings and run.rows:
            raise ValueError(f"run {number} of {src}: row records go with sequence cells, "
                             f"not with cell mappings (give the rows' cells as mappings)")
        if mappings:
            for f in CELL_FIELDS:
                cells[f].extend([c.get(f) for c in run.cells])
            skip = {*CELL_FIELDS, *conditions, "source"}
            if set().union(*run.cells) - skip:  # (then in the order the cells give them)
                per_cell = [key for key in dict.fromkeys(chain.from_iterable(run.cells))
                            if key not in skip]
                varying[ordinal] = (per_cell, run.cells)
        else:
            for f, values in zip(CELL_FIELDS, zip(*run.cells)):
                cells[f].extend(values)
        if run.rows:
            rows.extend(run.rows)
            row_runs.extend(repeat(ordinal, len(run.rows)))
            cell_keys.extend(cells["line"][len(cells["line"]) - len(run.cells):])
        else:
            cell_keys.extend(range(len(run.cells)))
        cell_runs.extend(repeat(ordinal, len(run.cells)))
        metas.append(meta)
    if not metas:
        return Columns(0, {})
    data: dict[str, Any] = {}
    if rows:
        cells, cell_runs = _with_rows(cells, rows, row_runs, cell_runs, cell_keys)
    sizes = np.bincount(cell_runs, minlength=len(metas))  # each run's number of cells
    for f, values in cells.items():
        data[f] = _plain(f, values)
    # Run-level columns in the order they first appear (conditions keep it in the table).
    keys = dict.fromkeys(chain.from_iterable(
        chain(meta, varying[i][0]) if i in varying else meta for i, meta in enumerate(metas)))
    per_cell_keys = set(chain.from_iterable(keys for keys, _ in varying.values()))
    for key in keys:
        if key not in per_cell_keys:  # one value per run
            data[key] = _expand(key, [meta.get(key) for meta in metas], sizes)
            continue
        values, lengths = [], []  # runs with this condition set per cell give one value per cell
        for i, (meta, k) in enumerate(zip(metas, sizes.tolist())):
            per_cell, run_cells = varying.get(i, ((), ()))
            if key in per_cell:
                default = meta.get(key)
                values.extend(c.get(key, default) for c in run_cells)
                lengths.extend(repeat(1, len(run_cells)))
            else:
                values.append(meta.get(key))
                lengths.append(k)
        data[key] = _expand(key, values, np.array(lengths, dtype=np.int64))
    return Columns(int(sizes.sum()), data)


def _with_rows(cells: dict[str, list], rows: list, row_runs: list[int], cell_runs: list[int],
               cell_keys: list) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The cell columns with the cells of the row records added, each run in line order, and
    the run of every cell (in any order).

    Row cells come first in their run and sort stably by line with the run's other cells (a
    run without rows keeps its cells as given). Everything is expanded in C: no Python object
    is made per row cell.
    """
    line, algorithm, name, operation, sizes, values, counts, seconds = zip(*rows)
    # The rows of a table share one list of sizes: each distinct list is converted once.
    shared, ids = pd.factorize(np.fromiter(map(id, sizes), dtype=np.intp, count=len(rows)))
    first = np.empty(len(ids), dtype=np.intp)
    first[shared[::-1]] = np.arange(len(rows) - 1, -1, -1)  # the first row with each list
    distinct = [sizes[i] for i in first]
    lengths = np.fromiter(map(len, distinct), dtype=np.int64, count=len(distinct))
    widths = lengths[shared]
    total = int(widths.sum())
    starts = np.cumsum(widths) - widths  # where each row's cells begin
    block = np.fromiter(chain.from_iterable(distinct), dtype=float, count=int(lengths.sum()))[
        _positions((np.cumsum(lengths) - lengths)[shared], widths)]

    def flat(per_row) -> np.ndarray:
        """Per-row lists of numbers, NaN or None (a None list: all unknown) -> one float array."""
        known = np.fromiter(map(is_not, per_row, repeat(None)), dtype=bool, count=len(per_row))
        out = np.full(total, np.nan)
        if not known.any():
            return out
        lists = list(compress(per_row, known))
        at = _positions(starts[known], widths[known])
        try:
            out[at] = np.fromiter(chain.from_iterable(lists), dtype=float, count=len(at))
        except TypeError:  # None items: np.array makes them NaN
            out[at] = np.array(list(chain.from_iterable(lists)), dtype=float)
        return out

    bps = np.fromiter(chain.from_iterable(values), dtype=float, count=total)
    from_rows = {
        "line": np.repeat(np.array(line, dtype=float), widths),
        "block_bytes": block,
        "bytes_per_s": bps,
        "ops_per_s": bps / block,
        "count": flat(counts),
        "seconds": flat(seconds),
    }
    # Sorted by (run, line), stably: row cells before the others on the same line, cells
    # without a line last in their run. One float key (exact below 2**53) sorts in one pass.
    keys = np.concatenate([from_rows["line"], np.array(cell_keys, dtype=float)])
    runs = np.concatenate([np.repeat(np.array(row_runs), widths), np.array(cell_runs, dtype=int)])
    keys = np.where(np.isnan(keys), _NO_LINE, keys) + runs * (_NO_LINE + 1)
    order = np.argsort(keys, kind="stable")
    # for each cell in that order, its row record (< len(rows)) or len(rows) + its index in cells
    where = np.concatenate([np.repeat(np.arange(len(rows)), widths),
                            np.arange(len(rows), len(rows) + len(cell_runs))])[order]
    text = {"algorithm": algorithm, "name": name, "operation": operation}
    out = {}
    for f, rest in cells.items():
        head = from_rows.get(f)
        if head is None:  # text: factorised per row record, then expanded
            values = np.empty(len(rows) + len(rest), dtype=object)  # None where rows have none
            if f in text:
                values[:len(rows)] = text[f]
            values[len(rows):] = rest
            out[f] = _text_column(values, where)
            continue
        try:
            tail = np.array(rest, dtype=float)
        except (TypeError, ValueError):  # values of another type: left to coerce()
            head, tail = head.astype(object), _objects(rest)
        out[f] = np.concatenate([head, tail])[order]
    return out, runs


_NO_LINE = float(2 ** 31)  # sorts after every line number


def _positions(starts: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """The indices ``start, start + 1, ..., start + width - 1`` of every (start, width), joined."""
    ends = np.cumsum(widths)
    return np.repeat(starts - (ends - widths), widths) + np.arange(ends[-1] if len(ends) else 0)


def _text_column(values: np.ndarray, where: np.ndarray) -> Any:
    """A text cell field from one value per row record and per other cell -> the column
    ``values[where]``, a :class:`_Text` when all are text (its codes expanded, not the text)."""
    text = _text(values)
    return text[where] if type(text) is not _Text else _Text(text.codes[where], text.categories)


def _text(values: np.ndarray) -> _Text | np.ndarray:
    """An object array of str and None -> a :class:`_Text`; the array itself when a value is
    anything else (left to coerce()). Factorised in C."""
    try:
        codes, uniques = pd.factorize(values)
    except TypeError:  # unhashable values
        return values
    if not all(type(u) is str for u in uniques):
        return values
    return _Text(_small(codes, len(uniques)), list(uniques))


def _small(codes: np.ndarray, n: int) -> np.ndarray:
    """Codes over ``n`` categories in the smallest integer type that holds them (as pandas keeps
    a Categorical's: int8 up to 127)."""
    return codes.astype(_code_type(n), copy=False)


def _code_type(n: int) -> type:
    return np.int8 if n < 2 ** 7 else np.int16 if n < 2 ** 15 else np.int32


def _objects(values) -> np.ndarray:
    """A 1-d object array of the values (np.array would nest sequences)."""
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return arr


def _dtype(col: str) -> str:
    """The schema dtype of a column (a condition's: Int64 for whole numbers, else category)."""
    return COLUMNS.get(col) or ("Int64" if col in _INTEGER_CONDITIONS else "category")


def _expand(col: str, values: list, counts: np.ndarray) -> Any:
    """A column given as values repeated ``counts`` times -> its plain column (see Columns)."""
    dtype = _dtype(col)
    if dtype in ("float64", "int64", "Int64"):
        try:
            arr = np.repeat(np.array([np.nan if v is None else v for v in values], dtype=float), counts)
        except (TypeError, ValueError):
            return np.repeat(np.array(values, dtype=object), counts)  # coerce() sorts it out
        return arr.astype(np.int64) if dtype == "int64" else arr
    index: dict = {}
    codes = [-1 if v is None else index.setdefault(v if type(v) is str else str(v), len(index))
             for v in values]
    # the small codes repeated (int8 for a few hundred categories), not the values
    return _Text(np.repeat(_small(np.array(codes, dtype=np.int32), len(index)), counts), list(index))


def _plain(col: str, values: Any) -> Any:
    """A cell field's values (a list or an array; a :class:`_Text`) -> its plain column."""
    if type(values) is _Text:
        return values
    dtype = _dtype(col)
    if dtype in ("float64", "Int64"):
        try:  # (None is NaN; line numbers and counts < 2**53)
            return np.asarray(values, dtype=float)
        except (TypeError, ValueError):
            if dtype == "Int64":
                return _objects(values)  # mixed input: coerce() converts it
            return pd.to_numeric(pd.Series(values, dtype=object), errors="coerce").to_numpy(float)
    if dtype == "int64":
        return np.asarray(values, dtype=np.int64)
    return _text(_objects(values))


def _typed(col: str, plain: Any) -> Any:
    """A plain column -> the typed array of its schema dtype (or objects, for coerce())."""
    if type(plain) is _Text:
        return _sorted_categorical(plain.codes, plain.categories)
    if plain.dtype == float and _dtype(col) == "Int64":
        # whole numbers -> Int64 built from its parts (pd.array checks each value again)
        missing = np.isnan(plain)
        with np.errstate(invalid="ignore"):  # (NaN and infinities do not convert)
            whole = plain.astype(np.int64)
        whole[missing] = 0
        if (missing | (whole == plain)).all():
            return pd.arrays.IntegerArray(whole, missing)
    return plain  # (fractions: coerce() rounds them)


def _joined(cols: list, lengths: list[int]) -> Any:
    """Plain columns (None for a part without the column) joined into one."""
    given = [c for c in cols if c is not None]
    if all(type(c) is _Text for c in given):
        categories = list(dict.fromkeys(chain.from_iterable(c.categories for c in given)))
        index = {v: i for i, v in enumerate(categories)}
        codes = []
        for c, n in zip(cols, lengths):
            if c is None:
                codes.append(np.full(n, -1, dtype=np.int8))
            elif c.categories == categories[:len(c.categories)]:  # (the usual case)
                codes.append(c.codes)
            else:
                codes.append(_recoded(c.codes, np.array([index[v] for v in c.categories],
                                                        dtype=np.int32)))
        return _Text(_small(np.concatenate(codes), len(categories)), categories)
    if all(type(c) is not _Text and c.dtype != object for c in given):  # numbers
        return np.concatenate([np.full(n, np.nan) if c is None else c for c, n in zip(cols, lengths)])
    return np.concatenate([_as_objects(c, n) for c, n in zip(cols, lengths)])  # for coerce()


def _as_objects(plain: Any, n: int) -> np.ndarray:
    """A plain column (None: ``n`` missing values) as an object array."""
    if plain is None:
        return np.full(n, None, dtype=object)
    if type(plain) is _Text:
        return _objects([*plain.categories, None])[plain.codes]  # (code -1 picks the None)
    return plain.astype(object)


def _nbytes(plain: Any) -> int:
    return 0 if plain is None else plain.codes.nbytes if type(plain) is _Text else plain.nbytes


def _sorted_categorical(codes: np.ndarray, categories: list[str], dtype=None) -> pd.Categorical:
    """Codes over categories in first-seen order -> a Categorical with sorted categories.

    Sorted like ``astype("category")`` makes them, so a table read back from CSV groups and
    orders exactly like the one ingest built. ``dtype`` is that of the categories' Index
    (inferred from the values when None).
    """
    order = sorted(range(len(categories)), key=categories.__getitem__)
    new = np.empty(len(categories), dtype=np.int32)
    new[order] = np.arange(len(categories), dtype=np.int32)
    return pd.Categorical.from_codes(
        _recoded(codes, new), categories=pd.Index([categories[i] for i in order], dtype=dtype))


def _recoded(codes: np.ndarray, new: np.ndarray) -> np.ndarray:
    """``new[codes]`` where codes are not -1 (missing, which stays -1), in the smallest integer
    type that holds the new codes.

    Small codes (int8, int16) look the new ones up in a table indexed by their unsigned view (-1
    is its last entry): numpy's ``take`` with such indices is about 4x faster than indexing
    with signed ones.
    """
    kind = _code_type(int(new.max()) + 1 if len(new) else 0)
    if (new == np.arange(len(new))).all():  # (already in order: one value, or sorted)
        return codes.astype(kind, copy=False)
    if codes.dtype.itemsize > 2 or not len(codes):
        return np.append(new, -1).astype(kind)[codes]
    table = np.full(1 << (8 * codes.dtype.itemsize), -1, dtype=kind)
    table[:len(new)] = new
    return np.take(table, codes.view(f"u{codes.dtype.itemsize}"))


def flag_cells(df: pd.DataFrame, source: str, stacklevel: int = 2) -> pd.DataFrame:
    """Mark openssl's ``0.00`` cells "not measured" (rate NaN) and flag suspicious rates, in place.

    Negative, infinite and beyond-1-TB/s rates are kept, flagged and reported in one
    :class:`~cipherlab.errors.IngestWarning` naming ``source`` (or each file and line when the
    frame holds several sources). Returns ``df``.
    """
    # On numpy arrays and the flag's codes: no object per cell (a frame holds a million cells).
    bps = df["bytes_per_s"].to_numpy(dtype=float, na_value=np.nan)
    rate = np.where(np.isnan(bps), df["ops_per_s"].to_numpy(dtype=float, na_value=np.nan), bps)
    old = df["flag"].astype("category").array
    names = list(old.categories)
    codes = old.codes.astype(np.int32)  # -1: not flagged yet
    zero = (rate == 0) & (codes == -1)
    bad = {
        FLAG_NOT_MEASURED: zero,
        "negative": rate < 0,
        "inf": np.isinf(rate),
        "absurd": (rate > _ABSURD_BYTES_PER_S) & ~np.isinf(rate),
    }
    suspicious = np.zeros(len(rate), dtype=bool)
    for name, mask in bad.items():  # in this order: the first that applies is the flag
        mask = mask & (codes == -1)
        if mask.any():
            if name not in names:
                names.append(name)
            codes[mask] = names.index(name)
        if name != FLAG_NOT_MEASURED:
            suspicious |= mask
    if zero.any():
        for col in ("bytes_per_s", "ops_per_s"):
            df[col] = df[col].mask(zero)
    df["flag"] = _used_categorical(codes, names)
    if suspicious.any():
        bad_rows = df[["source", "line"]].iloc[np.flatnonzero(suspicious)[:6]]
        if bad_rows["source"].nunique() > 1:  # many files in one frame: name file and line
            places = [f"{src}:{ln}" for src, ln in bad_rows.itertuples(index=False)]
            where = "several sources"
        else:
            places = [str(ln) for ln in bad_rows["line"].dropna().astype(int)]
            where = str(bad_rows["source"].iloc[0]) if len(bad_rows) else source
        shown = ", ".join(places[:5]) + (" ..." if int(suspicious.sum()) > 5 else "")
        warnings.warn(
            f"{where}: {int(suspicious.sum())} suspicious value(s) kept and flagged in the 'flag' "
            f"column (negative, infinite or beyond 1 TB/s) at line(s) {shown}; check the source "
            f"text and filter with df[df.flag.isna()] before averaging.",
            IngestWarning, stacklevel=stacklevel)
    return df


def _used_categorical(codes: np.ndarray, names: list) -> pd.Categorical:
    """Codes over names -> the Categorical ``pd.Categorical`` makes of the values they stand
    for: the names used, sorted, in an object Index."""
    if not all(type(n) is str for n in names):  # not cipherlab's flags: let pandas sort them
        return pd.Categorical(_objects([*names, np.nan])[codes])  # code -1 picks the NaN
    used = np.zeros(len(names) + 1, dtype=bool)
    used[codes] = True  # (code -1 marks the spare last slot)
    remap = np.cumsum(used, dtype=np.int32) - 1  # code -> code among the used names
    remap[-1] = -1  # code -1 (not flagged) stays -1
    return _sorted_categorical(remap[codes], [n for n, u in zip(names, used) if u], dtype=object)


def coerce(df: pd.DataFrame) -> pd.DataFrame:
    """Return ``df`` with every fixed column present and of its schema dtype, in table order.

    Used after reading a CSV (which forgets dtypes) and after concatenating tables (which turns
    categoricals with different categories into objects). Missing fixed columns are added as NA.
    ``df`` itself is left as it is; columns already of their dtype are not copied (to_frame and
    concat build typed columns and pass them through here).

    >>> import pandas as pd
    >>> df = coerce(pd.DataFrame({"algorithm": ["aes-128-cbc"], "block_bytes": [16],
    ...                           "bytes_per_s": [1e9], "aesni": ["on"]}))
    >>> df["block_bytes"].dtype.name, df["algorithm"].dtype.name, df["aesni"].dtype.name
    ('Int64', 'category', 'category')
    """
    conds = condition_columns(df)
    notes = [c for c in PROVENANCE if c in df.columns]
    dtypes = {**COLUMNS, **{c: "Int64" if c in _INTEGER_CONDITIONS else "category" for c in conds},
              **{c: PROVENANCE[c] for c in notes}}
    df = df.copy(deep=False)  # the caller's frame keeps its columns; no data is copied
    for col, dtype in dtypes.items():
        s = df[col] if col in df.columns else None
        t = _missing(df.index, dtype) if s is None else _as(s, dtype)
        if t is not s:
            df[col] = t
    return df[_HEAD + conds + _TAIL + notes].reset_index(drop=True)


def _missing(index: pd.Index, dtype: str) -> pd.Series:
    """An all-NA column of a schema dtype, built typed (converting NA objects costs per row)."""
    if dtype == "int64":
        return pd.Series(0, index=index, dtype="int64")
    if dtype == "category":
        return pd.Series(pd.Categorical.from_codes(np.full(len(index), -1, dtype=np.int8),
                                                   categories=pd.Index([], dtype=object)), index=index)
    return pd.Series(index=index, dtype=dtype)


def _as(s: pd.Series, dtype: str) -> pd.Series:
    if dtype == "category":
        if isinstance(s.dtype, pd.CategoricalDtype):
            return s
        if isinstance(s.dtype, pd.StringDtype) or (
                s.dtype == object and pd.api.types.infer_dtype(s, skipna=True) in ("string", "empty")):
            return s.astype("category")  # already strings: factorise in C, no per-value call
        s = s.astype("object").where(s.notna(), None)
        return s.map(lambda v: v if v is None else str(v)).astype("category")
    if s.dtype.name == dtype:
        return s
    if dtype in ("Int64", "int64"):
        s = pd.to_numeric(s, errors="coerce")
        return s.round().astype("Int64") if dtype == "Int64" else s.fillna(0).astype("int64")
    return pd.to_numeric(s, errors="coerce").astype(dtype)


def concat(frames: Iterable[pd.DataFrame], *, release: bool = False) -> pd.DataFrame:
    """Concatenate tidy tables, keeping categoricals and the column order.

    Runs keep their own numbers inside each source; ``(source, run)`` identifies a run.
    Categories are the sorted union of the frames' categories, as :func:`to_frame` and a CSV
    read back make them: frames built in parts join into the frame built in one go.
    With ``release=True`` (``frames`` a list whose frames nothing else holds: ``ingest``'s own
    chunks) the list is emptied and each column's parts are freed once the column is joined, the
    memory handed back to the system as it goes: joining takes the table's memory plus a few
    columns, not twice the table's.

    >>> a = to_frame([Run({"label": "b"}, [{"algorithm": "sha1", "bytes_per_s": 2.0}])], source="x")
    >>> b = to_frame([Run({"label": "a"}, [{"algorithm": "md5", "bytes_per_s": 1.0}])], source="y")
    >>> list(concat([a, b])["algorithm"].cat.categories)
    ['md5', 'sha1']
    """
    given, frames = frames, [f for f in frames if f is not None]
    if release:
        given.clear()  # (the frames live on in ``frames``, then only their columns in ``pieces``)
    if not frames:
        return coerce(pd.DataFrame())
    if len(frames) == 1:
        return coerce(frames.pop())
    columns = list(dict.fromkeys(c for f in frames for c in f.columns))
    lengths = [len(f) for f in frames]
    pieces = [dict(f.items()) for f in frames]  # each frame's columns, taken once
    frames = None
    joined = {}
    released = 0  # bytes of the parts' columns dropped since the heap was last trimmed
    for c in columns:  # column by column, each as pd.concat of the frames would join it
        parts = [p.pop(c, None) if release else p.get(c) for p in pieces]
        if all(s is None or isinstance(s.dtype, pd.CategoricalDtype) for s in parts):
            # on their codes, in C (pd.concat turns categoricals of other categories into objects)
            joined[c] = _joined_categorical([n if s is None else s.array
                                             for s, n in zip(parts, lengths)])
        elif all(s is not None for s in parts) and len({s.dtype for s in parts}) == 1:  # usual
            arrays = [s.array for s in parts]
            joined[c] = type(arrays[0])._concat_same_type(arrays)
        else:
            joined[c] = pd.concat([pd.DataFrame(index=pd.RangeIndex(n)) if s is None
                                   else s.to_frame(c) for s, n in zip(parts, lengths)],
                                  ignore_index=True, sort=False)[c]
        if release:
            released += sum(s.array.nbytes for s in parts if s is not None)
            parts = arrays = None
            if released >= _TRIM_BYTES:  # (the parts' small arrays stay in glibc's heap else)
                return_freed()
                released = 0
    # one frame built from the columns in order (not a column inserted per categorical)
    return coerce(pd.DataFrame(joined, copy=False))


# (a trim walks the heap: one per 16 MB freed costs the join less than half what one per 4 MB
# did, and leaves the archive's peak within 2 MB of it)
_TRIM_BYTES = 16_000_000


def _joined_categorical(parts: list) -> pd.Categorical:
    """Categoricals (or, for a frame without the column, its length) joined, categories sorted."""
    # tolist(): iterating a str Index calls back into pandas per category
    listed = [None if isinstance(p, int) else p.categories.tolist() for p in parts]
    seen = list(dict.fromkeys(chain.from_iterable(c for c in listed if c is not None)))
    try:
        union = sorted(seen)
    except TypeError:  # categories of mixed types (not from cipherlab): first seen first
        union = seen
    index = {v: i for i, v in enumerate(union)}
    codes = []
    for part, categories in zip(parts, listed):
        if categories is None:
            codes.append(np.full(part, -1, dtype=np.int8))
        elif categories == union:  # the usual case: codes as they are
            codes.append(part.codes)
        else:  # code -1 (missing) picks the -1 at the end
            remap = np.array([index[v] for v in categories] + [-1], dtype=np.int32)
            codes.append(remap[part.codes])
    # the categories' dtype the parts share (the flag's are objects), else inferred
    dtypes = {p.categories.dtype for p in parts if not isinstance(p, int)}
    return pd.Categorical.from_codes(np.concatenate(codes), categories=pd.Index(
        union, dtype=dtypes.pop() if len(dtypes) == 1 else None))


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """One row per source: how many runs, rows and algorithms it holds, and its tools.

    The overview the CLI prints after ``ingest``/``capture`` and the report opens with.

    >>> import pandas as pd
    >>> summary(pd.DataFrame({"source": ["a.txt"] * 3, "run": [0, 0, 1], "tool": ["openssl"] * 3,
    ...                       "tool_version": ["3.0.19"] * 3,
    ...                       "algorithm": ["md5", "sha1", "md5"]}))  # doctest: +NORMALIZE_WHITESPACE
            runs  rows  algorithms            tool
    source
    a.txt      2     3           2  openssl 3.0.19
    """
    g = df.groupby("source", observed=True, sort=True)
    tools = (df["tool"].astype("object").fillna("").astype(str) + " "
             + df["tool_version"].astype("object").fillna("").astype(str)).str.strip()
    return pd.DataFrame({
        "runs": g["run"].nunique(),
        "rows": g.size(),
        "algorithms": g["algorithm"].nunique(),
        "tool": tools.groupby(df["source"], observed=True, sort=True).agg(
            lambda s: ", ".join(sorted(set(s) - {""}))),
    })
