"""Runs being built: the state every part of the parser reads (:class:`_Run`), and what they
all share (the layout of cells and row records). Where one run ends and the next begins is
``_boundaries``'s.

Cells are kept as lists in :data:`cipherlab.model.CELL_FIELDS` order (``line``, ``algorithm``,
``name``, ``operation``, ``block_bytes``, ``bytes_per_s``, ``ops_per_s``, ``count``, ``seconds``,
``flag``), and throughput rows whole as :attr:`cipherlab.model.Run.rows` records (one value
per block size), so that building the frame stays column-wise and fast: no Python object is
made per cell of a table row.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from itertools import chain, repeat
from operator import itemgetter
from typing import Any

from cipherlab.model import Run
from cipherlab.readers import _progress
from cipherlab.readers._names import canonical

_SIZES_5 = [16, 64, 256, 1024, 8192]
_SIZES_6 = [16, 64, 256, 1024, 8192, 16384]
#: The ``rule`` of rows read without a ``type`` header: openssl prints 5 sizes (16 to 8192) up to
#: 1.0.2 and 6 (to 16384) since 1.1.0, whatever the algorithm, unless its options say otherwise.
DEFAULT_SIZES_RULE = "openssl's default sizes (no type header)"
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


def pk_id(algorithm: str, op: str, family) -> tuple:
    """What a public-key cell measured: its algorithm and operation, and for a KEM or signature
    table's cell (3.2+) which of the two (rsa512's KEM keygen is not its signature keygen).

    >>> pk_id("rsa512", "keygen", "kem:rsa512"), pk_id("ecdh-p256", "derive", "ecdh")
    (('rsa512', 'keygen', 'kem'), ('ecdh-p256', 'derive', None))
    """
    kind = family[:3] if type(family) is str and family[:4] in ("kem:", "sig:") else None
    return algorithm, op, kind


class _Run:
    """A run being built."""

    def __init__(self, start: int, label: str | None, conditions: dict[str, Any]):
        self.start = start
        self.meta: dict[str, Any] = {"label": label, **conditions}
        self.version = None
        self.has_version = False
        self.sizes: list[int] | None = None  # from the `type` header
        self.header_used = False
        self.sizes_unknown = False  # its `type` header could not be read (see sizes_for)
        self.sizes_rule: str | None = None  # how its sizes were inferred, where they were
        self.mr_sizes: list[int] | None = None  # from +H
        self.pk_kind: str | None = None
        self.rows: list[list] = []  # throughput rows: model.Run.rows records, as lists
        self.evp = False  # a row named "evp" (-multi -evp parents before 3.0.10)
        self.pk: list[tuple[list, tuple]] = []  # (cell, family key)
        self.pk_ids: set = set()  # pk_keys of pk[:pk_counted] (see pk_keys)
        self.pk_counted = 0
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
        self.timing: str | None = None  # what a 0.9.x "timing function used:" line names
        self.stderr_seen = False
        self.dialects: set[str] = set()
        self.last = start
        self.extra: list[Run] = []  # sub-runs from other dialects (python harness)
        self.row_label: str | None = None  # the machine its rows name ("FTC663: aes-256-cbc")
        self.label_rule: str | None = None  # the rule that found its label (_context)
        self.host: str | None = None  # the machine its command line ran on (prompt_machine)
        self.boundary: str | None = None  # the inferred rule that opened it (_boundaries)
        self.context_rule: str | None = None  # the rule that gave it a condition of the prose
        self.prose_version = None  # (tool, version) the prose above states; False: two do
        self.killed = False  # a ^C stopped it: what openssl prints after is another run's
        self.table: _Run | None = None  # the run whose table or list its rows share (switched_run)
        self.switched: tuple[str, str] | None = None  # the feature its rows switch (switched_run)

    def pk_keys(self) -> set:
        """The :func:`pk_id` of the run's public-key cells (a row prints once per table).

        (Counted as cells are added: the pass appends cells, it never changes one; asked at
        each public-key row, the set is not made again from all the cells each time.)
        """
        cells, n = self.pk, self.pk_counted
        if n < len(cells):
            self.pk_ids.update(pk_id(cell[ALG], cell[OP], key[0]) for cell, key in cells[n:])
            self.pk_counted = len(cells)
        return self.pk_ids

    def forget_machine(self) -> None:
        """Drop the CPU and clock a label the run no longer has said of its machine."""
        for key in ("cpu", "clock_hz"):
            self.meta.pop(key, None)

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
        if self.sizes_unknown:
            return None  # a `type` header that could not be read: never the default sizes
        o = self.opts
        if o.get("mb"):
            return _SIZES_MB
        if o.get("bytes"):  # (the one size, -aead or not: openssl measures it alone)
            return [o["bytes"]]
        if o.get("aead"):
            return _SIZES_AEAD
        if n not in (5, 6):
            return None
        # no header: openssl's own sizes by the row's length, an inference the `rule` says
        self.sizes_rule = DEFAULT_SIZES_RULE
        return _SIZES_5 if n == 5 else _SIZES_6
