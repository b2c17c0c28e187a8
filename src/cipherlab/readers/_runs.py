"""Runs being built, and the rules of where one run ends and the next begins.

The line pass (``_openssl``) and the block readers (``_blocks``) add to the current run and ask
the same questions of it: does a record repeat one of the run's, is it the record of a cell of
the run's printed table, has the text moved on since the run's last line? Those rules are the
parser's model of a text, whatever reads its lines: they live here, with the state they read
(:class:`_Run`) and what every part of the parser shares (the layout of cells and row records).

Cells are kept as lists in :data:`cipherlab.model.CELL_FIELDS` order (``line``, ``algorithm``,
``name``, ``operation``, ``block_bytes``, ``bytes_per_s``, ``ops_per_s``, ``count``, ``seconds``,
``flag``), and throughput rows whole as :attr:`cipherlab.model.Run.rows` records (one value
per block size), so that building the frame stays column-wise and fast: no Python object is
made per cell of a table row.
"""

from __future__ import annotations

from collections import defaultdict, deque
from functools import lru_cache
from itertools import chain, repeat
from operator import itemgetter
from typing import Any

from cipherlab.model import Run
from cipherlab.readers import _progress
from cipherlab.readers._names import canonical

_SIZES_5 = [16, 64, 256, 1024, 8192]
_SIZES_6 = [16, 64, 256, 1024, 8192, 16384]
_SIZES_AEAD = [2, 31, 136, 1024, 8192, 16384]
_SIZES_MB = [8192, 16384, 32768, 65536, 131072]
# Index of each field in a cell list.
LINE, ALG, NAME, OP, BLOCK, BPS, OPS, COUNT, SECS, FLAG = range(10)
# Index of each field in a row record (model.Run.rows): LINE, ALG, NAME and OP as in a cell.
SIZES, VALUES, COUNTS, SECONDS = range(4, 8)
# fields of a Complete progress record: algorithm, block, count and seconds
_COMPLETE_COLUMNS = (itemgetter(5), itemgetter(2), itemgetter(7), itemgetter(8))
# The memo of the parser's pure functions (their results are never changed), for all its parts.
_memo = lru_cache(maxsize=1024)


class _Run:
    """A run being built."""

    def __init__(self, start: int, label: str | None, conditions: dict[str, Any]):
        self.start = start
        self.meta: dict[str, Any] = {"label": label, **conditions}
        self.version = None
        self.has_version = False
        self.sizes: list[int] | None = None  # from the `type` header
        self.header_used = False
        self.mr_sizes: list[int] | None = None  # from +H
        self.pk_kind: str | None = None
        self.rows: list[list] = []  # throughput rows: model.Run.rows records, as lists
        self.evp = False  # a row named "evp" (-multi -evp parents before 3.0.10)
        self.pk: list[tuple[list, tuple]] = []  # (cell, family key)
        # Progress records (see the progress property); those read by blocks stay column-wise
        # until something needs them as records (assembly fills rows from the columns).
        self.records: list[_progress.Progress] = []  # made records, before those of `columns`
        self.columns: list[tuple] = []  # blocks of records (see add_columns)
        self.made_done: set = set()  # keys of progress records that have their result ...
        self.undone: list[tuple] = []  # ... but those of these (algorithms, blocks) columns
        # cells that differ from the run in a condition: -multi children, harness repeats
        self.children: list[tuple[dict, Any, tuple | None]] = []  # (conditions, cell, key)
        self.open_dt: deque = deque()  # +DT records waiting for their +R
        self.open_dtp: deque = deque()  # +DTP records waiting for their +R<n>
        self.child_sizes: dict[int, list[int]] = {}
        self.opts: dict[str, Any] = {}
        self.kem_names: list[str] = []
        self.sig_names: list[str] = []
        self.ks_seen = [0, 0]
        self.child_ks: dict[int, list[int]] = {}
        self.f10 = False
        self.multi = 0
        self.elapsed = False
        self.stderr_seen = False
        self.dialects: set[str] = set()
        self.last = start
        self.extra: list[Run] = []  # sub-runs from other dialects (python harness)
        self.row_label: str | None = None  # the machine its rows name ("FTC663: aes-256-cbc")
        self.label_rule: str | None = None  # the rule that found its label (_context)

    def pk_keys(self) -> set:
        """The (algorithm, operation) of the run's public-key cells (a row prints once)."""
        return {(cell[ALG], cell[OP]) for cell, _ in self.pk}

    def has_cells(self) -> bool:
        return bool(self.rows or self.pk or self.children)

    def has_content(self) -> bool:
        return self.has_cells() or self.has_progress() or self.has_version or bool(self.opts)

    def has_progress(self) -> bool:
        return bool(self.records or self.columns)

    @property
    def progress(self) -> list:
        """The run's progress records, in line order (those of blocks made on first use)."""
        if self.columns:
            for lines, names, blocks, algorithms, counts, seconds, decrypt in self.columns:
                n = len(lines)
                ops = [canonical(name)[1] for name in names]
                if decrypt:
                    ops = ["decrypt" if op == "encrypt" else op for op in ops]
                self.records.extend(_progress.completes(zip(
                    lines, names, blocks, repeat(None, n), repeat(None, n), algorithms, ops,
                    map(int, counts), map(float, seconds))))
            self.columns = []
        return self.records

    @progress.setter
    def progress(self, records: list) -> None:
        self.records, self.columns = records, []

    def add_columns(self, cols) -> None:
        """Keep a block's records as its columns (lines, names, blocks, algorithms, counts,
        seconds), with whether the run measures decryption as they are read."""
        self.columns.append((*cols, bool(self.opts.get("decrypt"))))

    @property
    def done(self) -> set:
        """Keys of the progress records that have their result."""
        if self.undone:
            for algorithms, blocks in self.undone:
                self.made_done.update(zip(algorithms, blocks))
            self.undone = []
        return self.made_done

    def record_columns(self) -> tuple[list, list, list, list]:
        """Algorithms, blocks, counts and seconds of the progress records, all :class:`Complete`."""
        if self.records:
            recs = self.progress
            return tuple(list(map(get, recs)) for get in _COMPLETE_COLUMNS)
        cols = self.columns
        if len(cols) == 1:  # (one block: the usual case)
            _, _, blocks, algorithms, counts, seconds, _ = cols[0]
            return algorithms, blocks, list(map(int, counts)), list(map(float, seconds))
        return (list(chain.from_iterable(map(itemgetter(3), cols))),
                list(chain.from_iterable(map(itemgetter(2), cols))),
                list(map(int, chain.from_iterable(map(itemgetter(4), cols)))),
                list(map(float, chain.from_iterable(map(itemgetter(5), cols)))))

    def sizes_for(self, n: int) -> list[int] | None:
        """Block sizes for a row of ``n`` values."""
        for sizes in (self.sizes, self.mr_sizes):
            if sizes:
                return sizes
        o = self.opts
        if o.get("aead"):
            return _SIZES_AEAD
        if o.get("mb"):
            return _SIZES_MB
        if o.get("bytes"):
            return [o["bytes"]]
        return _SIZES_5 if n == 5 else _SIZES_6 if n == 6 else None


class _RunBoundaries:
    """Which run a line joins, and when the text shows that the next one has begun: the run
    rules of :class:`~cipherlab.readers._openssl._Parser` (a mixin of it)."""

    # --- runs ---------------------------------------------------------------------------
    def run(self, i: int) -> _Run:
        if self.cur is None:
            self.new_run(i)
        self.cur.last = i
        return self.cur

    def new_run(self, i: int) -> _Run:
        prev_end = self.cur.last if self.cur is not None else -1
        found = self.find_label(i, prev_end)
        conds = self.marker[1] if self.marker and self.marker[0] > prev_end else {}
        self.flush_pending()
        self.cur = _Run(i, found.text if found else None, dict(conds))
        self.cur.label_rule = found.rule if found and found.text else None
        self.runs.append(self.cur)
        return self.cur

    def next_run(self, i: int) -> _Run:
        """A new run at line ``i`` that the text shows is the next one (a header block, or a
        record repeating one of the current run's): it takes the current run's trailing
        progress records that are not that run's (see :meth:`trailing_progress`)."""
        moved = self.trailing_progress(self.cur) if self.cur is not None else []
        run = self.new_run(i)
        run.progress.extend(moved)
        return run

    def labelled_run(self, run: _Run, i: int, label: str) -> _Run:
        """The run of rows that name the machine ``label`` they ran on, from line ``i``: the
        current run when none of its rows named another, else a new run of the same table and
        header block (one machine per run)."""
        if run.row_label is None and not run.rows and not run.pk:
            run.row_label = run.meta["label"] = label
            return run
        new = self.new_run(i)
        for field in ("tool", "tool_version", "built_on", "options", "compiler", "cpuinfo"):
            if field in run.meta:
                new.meta[field] = run.meta[field]
        new.version, new.has_version, new.opts = run.version, run.has_version, dict(run.opts)
        new.sizes, new.header_used, new.pk_kind = run.sizes, True, run.pk_kind
        new.row_label = new.meta["label"] = label
        return new

    # --- run boundaries -----------------------------------------------------------------
    def prose_after(self, run: _Run) -> bool:
        """A line of prose, a marker or an exit status since the run's last line: the text
        moved on."""
        last = run.last
        return self.label_after(last) is not None or (
            self.marker is not None and self.marker[0] > last) or self.ended > last

    @staticmethod
    def foreign(run: _Run, rates: dict, key: tuple, count: int | None, block: int | None,
                seconds: float | None) -> bool:
        """A progress record, arriving after the run's table, that is not the record of one of
        its cells: no cell has its key, or its count and seconds do not give the cell's rate
        (``rates``: :func:`_printed_rates` of the run).

        Records of the run itself follow its table when stderr is pasted below stdout. A
        ``-multi`` parent's totals are not its children's rates, so there only the key counts
        (not when the parent's row is named ``evp``: its children name the cipher); a record
        without its result counts as the run's.
        """
        if run.multi:
            return not run.evp and key not in rates
        if count is None:
            return False
        return not _gives_a_rate(count, block, seconds, rates.get(key))

    @staticmethod
    def after_table(run: _Run) -> bool:
        """A ``-mr`` record after the run's printed table (or a Python harness's rows): the
        output of another run.

        ``-mr`` prints no tables; only a ``-multi`` parent's children send records that may
        come after its table (their stderr pasted below its stdout).
        """
        return ("text" in run.dialects or "harness" in run.dialects) and not run.multi

    @staticmethod
    def repeats(run: _Run, rec: _progress.Progress) -> bool:
        return rec.key() in run.done

    @staticmethod
    def trailing_progress(run: _Run) -> list:
        """Progress records after the run's last table cell that are not its cells' records.

        On a terminal the next run's ``Doing`` lines precede its header block; they belong to
        the run that the header opens, not to the run before. Records of the run itself may
        follow its table too (stderr pasted below stdout): those match a cell of the run and
        give its rate (openssl prints the table from their count and seconds); a record whose
        rate is not its cell's measured another run.
        """
        if not run.has_progress():
            return []  # (a table without progress lines: nothing to move, no keys to make)
        last_cell = max([r[LINE] for r in run.rows] + [c[LINE] for c, _ in run.pk] + [0])
        rates = _printed_rates(run)
        kept, moved = [], []
        for p in run.progress:
            mine = p.lineno <= last_cell or _gives_a_rate(p.count, p.block, p.seconds,
                                                         rates.get(p.key()))
            (kept if mine else moved).append(p)
        if moved:
            run.progress = kept
        return moved


def _printed_rates(run: _Run) -> dict:
    """Each cell key of the run -> the rates its tables print for it (bytes/s, or ops/s)."""
    rates: dict = defaultdict(list)
    for r in run.rows:
        for size, value in zip(r[SIZES], r[VALUES]):
            rates[(r[ALG], size)].append(value)
    for c, k in run.pk:
        rates[k].append(c[OPS])
    return rates


def _gives_a_rate(count: int | None, block: int | None, seconds: float | None,
                  printed: list[float] | None) -> bool:
    """Whether a progress record's count and seconds give one of the rates printed for its key.

    Within 1 %: the progress line rounds seconds to 0.01 s, the table rounds its rate. A record
    without a result cannot be checked and counts as the cell's.
    """
    if not printed:
        return False
    if count is None or not seconds:
        return True
    rate = count * (block or 1) / seconds
    return any(abs(rate - v) <= 0.01 * max(abs(v), abs(rate)) for v in printed if v == v)

