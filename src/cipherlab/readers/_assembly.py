"""Assembly: each run built by the pass made into a :class:`cipherlab.model.Run`.

Once the pass is over, each run's progress records are tied to the table cells they measured
(filling ``count``/``seconds``; records that measured no cell become cells of their own), its
cells are put in line order and its metadata settled (timing, dialect). Apart from the pass
because nothing here reads lines: it works on the finished state of each
:class:`~cipherlab.readers._runs._Run`.

Speed: assembly fills rows column-wise when a run's records are its cells in table order (the
rule in captures): the records' key columns are compared with the rows' in C, no record is made.
"""

from __future__ import annotations

import warnings
from collections import defaultdict, deque
from itertools import chain, groupby, repeat
from operator import itemgetter

import numpy as np

from cipherlab.model import FLAG_CHILD, Run
from cipherlab.readers import _progress
from cipherlab.readers._boundaries import VERSION_RULE
from cipherlab.readers._names import canonical
from cipherlab.readers._runs import (ALG, BLOCK, COUNT, COUNTS, FLAG, LINE, OP, OPS, SECONDS,
                                     SECS, SIZES, VALUES, _Run)
from cipherlab.readers._text import LineWarning

_FIELDS = ("line", "algorithm", "name", "operation", "block_bytes", "bytes_per_s", "ops_per_s",
           "count", "seconds", "flag")
_line_of = itemgetter(LINE)
_ALG_OF, _SIZES_OF, _VALUES_OF = itemgetter(ALG), itemgetter(SIZES), itemgetter(VALUES)  # of a row
#: Flag of a progress record whose count and seconds do not give the rate its table prints.
FLAG_DISAGREES = "disagrees with its table"
_NAN = float("nan")  # count and seconds of a row's cell without a progress record
#: Flag of a cell of an ``openssl speed -testmode`` run (each test run once: no measurement).
FLAG_TESTMODE = "-testmode: no measurement"
#: The rule (``rule`` column) of a run that ran with nothing switched off: see native_runs.
NATIVE_RULE = "no capability variable on its command line or in its shell"


class _Assembly:
    """The assembly of :class:`~cipherlab.readers._openssl._Parser`'s runs (a mixin of it)."""

    def build(self) -> list[Run]:
        self.native_runs()
        out = []
        for run in self.runs:
            built = self.assemble(run)
            if built is not None:
                out.append(built)
        return out

    def native_runs(self) -> None:
        """A command that sets no capability variable, in a shell that exported none, with the
        binary and arguments of a command of the text that sets one (``openssl speed -evp aes-256-cbc``,
        then ``OPENSSL_armcap=0x1 openssl speed -evp aes-256-cbc``), is its twin with nothing
        switched off: ``isa_off`` ``none``, so the two pair (:func:`cipherlab.runners.isa_contrast`).
        Another command (the legacy ``aes-128-cbc`` beside ``-evp``) is no twin: it pairs with
        none. A run whose own ``CPUINFO`` line shows the mask in effect is decoded from it."""
        def command(run: _Run) -> tuple:
            return run.opts.get("binary"), *sorted(run.opts.get("args", ()))

        masked = {command(run) for run in self.runs if run.opts.get("shell_mask") is not None}
        if not masked:
            return
        for run in self.runs:
            if "shell_mask" in run.opts and run.opts["shell_mask"] is None and \
                    command(run) in masked and "cpuinfo" not in run.meta and \
                    "isa_mask" not in run.meta:
                run.meta["isa_off"], run.opts["native"] = "none", True

    def warn_interleaved(self, run: _Run) -> None:
        """Warn when an algorithm's progress lines resume after another's: one openssl process
        measures each algorithm's sizes in one go, so two processes' output was interleaved
        (``xargs -P``, ``parallel``, jobs started with ``&``) or two runs were pasted as one.
        Which process measured which cell cannot be told: the cells stay one run, loudly.
        (Symmetric records only: a public-key line names bits, not the curve, and openssl
        measures ``163 bits`` twice, for K-163 and B-163.)"""
        keys = ([r.algorithm for r in run.progress if r.block is not None] if run.records
                else run.record_columns()[0])
        spans = [k for k, _ in groupby(keys)]
        if len(spans) == len(set(spans)):
            return
        seen, before = set(), None
        for rec in (r for r in run.progress if r.block is not None):
            if rec.algorithm != before and rec.algorithm in seen:
                warnings.warn(LineWarning(
                    f"{self.source}: line {{lines}}: {rec.algorithm}'s progress lines resume "
                    f"after another algorithm's, which one openssl process never does: two "
                    f"processes' output is interleaved (xargs -P, parallel, jobs run with &) or "
                    f"two runs were pasted as one; which process measured which cell cannot be "
                    f"told, and they are read as one run", [rec.lineno - 1]), stacklevel=2)
                return
            seen.add(rec.algorithm)
            before = rec.algorithm

    def assemble(self, run: _Run) -> Run | None:
        meta = run.meta
        # Records read whole by blocks (the rule in captures) name no public-key family to
        # settle, and usually fill their rows column-wise.
        complete = not run.records or set(map(type, run.records)) == {_progress.Complete}
        if not complete:
            self.settle_kem(run)
        # The -multi -evp parent row named literally "evp" (until 3.0.10/3.1.2): take the name
        # the children reported.
        if run.evp:
            names = {c[ALG] for conds, c, _ in run.children if "child" in conds
                     and c[BLOCK] is not None} | {
                p.algorithm for p in run.progress if p.block is not None}
            names.discard("evp")
            if len(names) == 1:
                real = names.pop()
                op = canonical(real)[1]
                for c in run.rows:
                    if c[ALG] == "evp":
                        c[ALG], c[OP] = real, op
        if run.has_progress() and not run.multi:  # (-multi's children interleave by design)
            self.warn_interleaved(run)
        cells = [c for c, _ in run.pk]
        loose = self.fill_rows(run) if complete and run.has_progress() and not run.multi else None
        if loose is None:
            loose = self.fill(run, cells)
        cells.extend(loose)
        children = run.children
        if run.multi == 1 and children:  # the one child measured the whole: where the parent
            parent = {*((r[ALG], size) for r in run.rows for size in r[SIZES]),  # printed no
                      *(k for _, k in run.pk)}                                  # cell, its are
            cells.extend(c for _, c, key in children if key not in parent and not isinstance(c, dict))
            children = [ch for ch in children if ch[2] in parent or isinstance(ch[1], dict)]
        sub = [c if isinstance(c, dict) else
               {**dict(zip(_FIELDS, c)), "flag": c[FLAG] or FLAG_CHILD, **conds, **_table(key)}
               for conds, c, key in children]
        if any(_table(key) for _, key in run.pk):
            # KEM and signature rows (3.2+) say which table they are in: rsa512's KEM keygen is
            # not its signature keygen, nor its sign/verify the classic RSA table's
            tabled = {id(c): _table(key) for c, key in run.pk if _table(key)}
            sub += [{**dict(zip(_FIELDS, c)), **tabled[id(c)]} for c in cells if id(c) in tabled]
            cells = [c for c in cells if id(c) not in tabled]
        rows = run.rows
        if not cells and not rows and not sub:
            return None
        notes = self.notes and {n: self.notes[n] for n in map(_line_of, chain(rows, cells))
                                if n in self.notes}
        testmode = run.opts.get("testmode")
        if sub or notes or testmode:  # cells that vary in a condition or note: every cell a mapping
            cells = [c for r in rows for c in _row_cells(r)] + cells
            rows = []
        if testmode:
            self.flag_testmode(run, cells, sub)
        cells.sort(key=_line_of)  # stable: cells of one line keep their order
        if sub or notes:
            cells = [dict(zip(_FIELDS, c)) for c in cells] + sub
            for c in cells:
                if c["line"] in notes:
                    c["note"] = notes[c["line"]]
            cells.sort(key=lambda c: c["line"])
        if run.multi:
            meta["multi"] = run.multi
        version_rule = None
        if run.prose_version and not run.has_version:  # (stated once above its output)
            meta["tool"], meta["tool_version"] = run.prose_version
            version_rule = VERSION_RULE
        meta.setdefault("tool", "openssl")
        if "timing" not in meta:
            meta["timing"] = "elapsed" if (run.elapsed or run.multi or "harness" in run.dialects) \
                else run.timing or ("cpu" if run.stderr_seen or run.opts.get("prompt") else None)
        meta["dialect"] = "text" if "text" in run.dialects else "mr" if "mr" in run.dialects \
            else "progress" if "progress" in run.dialects else "harness"
        label_rule = run.label_rule if meta.get("label") else None
        # the inferred rules that placed it (none: the exact format placed it)
        rules = [(what, name) for what, name in (
            ("run", run.boundary), ("label", label_rule), ("isa_mask", run.context_rule),
            ("sizes", run.sizes_rule), ("tool_version", version_rule),
            ("isa_off", NATIVE_RULE if run.opts.get("native") else None)) if name]
        if rules:
            meta["rule"] = "; ".join(f"{what}: {name}" for what, name in rules)
            if run.boundary == label_rule:  # (one rule did both)
                meta["rule"] = meta["rule"].replace(f"run: {label_rule}; label:", "run, label:")
        return Run(meta=meta, cells=cells, rows=rows)

    def flag_testmode(self, run: _Run, cells: list[list], sub: list[dict]) -> None:
        """``openssl speed -testmode`` (3.4+) runs each test once, to check that it works: its
        figures are no measurement. Every cell is flagged, and one warning names the run."""
        for c in cells:
            c[FLAG] = c[FLAG] or FLAG_TESTMODE
        for c in sub:
            c["flag"] = c["flag"] or FLAG_TESTMODE
        warnings.warn(LineWarning(
            f"{self.source}: line {{lines}}: openssl speed -testmode runs each test once, to check "
            f"that it works: its {len(cells) + len(sub)} figure(s) are no measurement (flagged "
            f"{FLAG_TESTMODE!r})", [run.start - 1]), stacklevel=3)

    def fill(self, run: _Run, cells: list[list]) -> list[list]:
        """Fill rows and ``cells`` with the counts and seconds of the run's progress records.

        Returns the cells of the records that measured no cell of the run.
        """
        if not run.progress:
            return []
        # Progress records find their cell by key: the n-th record of a key fills the n-th cell.
        # A row's cell is its (row, index) pair; rows come before public-key cells.
        rows = run.rows
        keys = [*((r[ALG], size) for r in rows for size in r[SIZES]), *(k for _, k in run.pk)]
        targets = [*((r, j) for r in rows for j in range(len(r[SIZES]))), *cells]
        index: dict = dict(zip(reversed(keys), reversed(targets)))  # the first cell of each key
        if len(index) == len(keys):  # one cell per key, the rule: built in C, taken by pop()
            take = index.pop
        else:
            index = defaultdict(deque)
            for key, t in zip(keys, targets):
                index[key].append(t)

            def take(key, default):
                q = index.get(key)
                return q.popleft() if q else default
        child_keys = {key for _, _, key in run.children if key is not None}
        loose: list[list] = []
        # records of no table cell that name a curve by its size only: named by openssl's order
        alone = [p for p in run.progress if p.count is not None and p.block is None
                 and p.key() not in index and not run.multi]
        unknown = {id(p) for p, u in zip(alone, _progress.name_curves(alone, run.opts.get("args")))
                   if u} if alone else set()
        for p in run.progress:
            if p.count is None:
                continue
            key = (p.algorithm, p.block) if p.block is not None else p.key()
            if run.multi:
                # Progress records of a -multi run are the children's: their results are in
                # the Got: lines (or summed into the parent's table), never the parent's count.
                if key in child_keys or key in index:
                    continue
                loose.append(self.progress_cell(p))
                if run.multi != 1:  # (the one child of -multi 1 measured the whole)
                    loose[-1][FLAG] = FLAG_CHILD
                continue
            target = take(key, None)
            if target is not None and not agrees(p, target[0][VALUES][target[1]] if type(
                    target) is tuple else target[OPS]):
                # its count and seconds do not give the printed rate: which is wrong cannot be
                # known, so the record is a cell of its own, flagged, beside the table's
                loose.append(self.progress_cell(p))
                loose[-1][FLAG] = FLAG_DISAGREES
            elif target is None:
                loose.append(self.progress_cell(p))
                if id(p) in unknown:
                    loose[-1][FLAG] = _progress.FLAG_CURVE_UNKNOWN
            elif type(target) is tuple:
                row, j = target
                if row[COUNTS] is None:
                    row[COUNTS], row[SECONDS] = [_NAN] * len(row[SIZES]), [_NAN] * len(row[SIZES])
                row[COUNTS][j], row[SECONDS][j] = p.count, p.seconds
            else:
                target[COUNT], target[SECS] = p.count, p.seconds
        return loose

    def fill_rows(self, run: _Run) -> list[list] | None:
        """:meth:`fill` when the run's records (read whole by blocks) are its rows' cells in order.

        That is the rule in captures: ``Doing`` lines, or ``+DT``/``+R`` pairs, in the order of
        the table. Then the i-th record fills the i-th cell (:meth:`fill` pairs the n-th record
        of a key with the n-th cell of that key: the same pairs) and each row takes a slice of
        the counts and seconds, in C. Returns None when the records are not such a sequence.
        """
        rows = run.rows
        algorithms, blocks, counts, seconds = run.record_columns()
        sizes = list(map(_SIZES_OF, rows))
        # the cells' keys, column-wise: (algorithm, block) pairs as two lists
        if blocks != list(chain.from_iterable(sizes)) or algorithms != list(
                chain.from_iterable(map(repeat, map(_ALG_OF, rows), map(len, sizes)))):
            return None
        if not _all_agree(counts, blocks, seconds, list(chain.from_iterable(map(_VALUES_OF, rows)))):
            return None  # (fill flags the records that disagree with their cells)
        start = 0
        for r, row_sizes in zip(rows, sizes):
            end = start + len(row_sizes)
            if end > start:  # (a row without cells keeps no counts, as in fill)
                r[COUNTS], r[SECONDS] = counts[start:end], seconds[start:end]
            start = end
        return []

    @staticmethod
    def settle_kem(run: _Run) -> None:
        """Keygen records say neither KEM nor SIG: the algorithm's other records do."""
        kinds = {}
        for p in run.progress:
            if p.family and p.family[:4] in ("kem:", "sig:"):
                kinds[p.algorithm] = p.family[:3]
        for p in run.progress:
            if p.family and p.family.startswith("kem?:"):
                p.family = f"{kinds.get(p.algorithm, 'kem')}:{p.algorithm}"

    @staticmethod
    def progress_cell(p: _progress.Progress) -> list:
        """A cell measured only by a progress record: rate = count (x block) / seconds."""
        if p.seconds:
            ops = p.count / p.seconds
        else:
            ops = float("inf") if p.count else 0.0
        if p.block is not None:
            return [p.lineno, p.algorithm, p.name, p.operation, p.block, ops * p.block, ops,
                    p.count, p.seconds, None]
        return [p.lineno, p.algorithm, p.name, p.operation, None, None, ops, p.count,
                p.seconds, None]



def _tolerance(count, seconds):
    """How far a progress record's rate may be from its printed cell: 1 % (the table rounds
    its rate), plus what rounding its seconds to 0.01 s (``in 0.02s``) and a count to a whole
    number (``4 rc5's``: typed or generated by hand) can do."""
    return 0.01 + 0.005 / seconds + 0.5 / count


def agrees(p: _progress.Progress, printed: float) -> bool:
    """Whether a progress record's count and seconds give the rate printed for its cell
    (bytes/s, or ops/s); a record without a result, or a cell not measured, cannot disagree.

    >>> rec = _progress.Progress(1, "md5", 16, None, None, "md5", "digest", 300, 3.0)
    >>> agrees(rec, 1600.0), agrees(rec, 1610.0), agrees(rec, 2400.0), agrees(rec, 0.0)
    (True, True, False, True)
    """
    if not p.count or not p.seconds or not printed or printed != printed:
        return True
    rate = p.count * (p.block or 1) / p.seconds
    return abs(rate - printed) <= _tolerance(p.count, p.seconds) * max(abs(rate), abs(printed))


def _all_agree(counts: list, blocks: list, seconds: list, printed: list) -> bool:
    """:func:`agrees` of every record (columns) with its cell: in C, or one by one for a few
    (numpy's fixed cost, ~20 us, is that of 50 records in Python; the same float arithmetic)."""
    if len(counts) <= _FEW:
        return all(map(_cell_agrees, map(float, counts), map(float, blocks), seconds, printed))
    c, b, t, v = (np.asarray(x, dtype=float) for x in (counts, blocks, seconds, printed))
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = c * b / t
        ok = (c == 0) | ~(t > 0) | (v == 0) | np.isnan(v) | (
            np.abs(rate - v) <= _tolerance(c, t) * np.maximum(np.abs(rate), np.abs(v)))
    return bool(ok.all())


_FEW = 50


def _cell_agrees(c: float, b: float, t: float, v: float) -> bool:
    """One record of :func:`_all_agree` (count, block, seconds; the printed rate)."""
    if c == 0 or not t > 0 or v == 0 or v != v:
        return True
    rate = c * b / t
    return abs(rate - v) <= _tolerance(c, t) * max(abs(rate), abs(v))


def _table(key: tuple | None) -> dict:
    """``{"table": "kem"}`` or ``{"table": "sig"}`` for the cell key of a KEM or signature
    table's cell (family ``kem:ml-kem-768``, ``sig:ml-dsa-65``), else ``{}``.

    >>> _table(("kem:ml-kem-768", None, "keygen")), _table(("rsa", 2048, "sign")), _table(None)
    ({'table': 'kem'}, {}, {})
    """
    fam = key[0] if key else None
    return {"table": fam[:3]} if type(fam) is str and fam[:4] in ("kem:", "sig:") else {}


def _row_cells(row: list) -> list[list]:
    """The cells of a row record, as cell lists."""
    line, algorithm, name, op, sizes, values, counts, seconds = row
    counts, seconds = counts or [None] * len(sizes), seconds or [None] * len(sizes)
    return [[line, algorithm, name, op, size, v, v / size, None if c != c else c,
             None if t != t else t, None] for size, v, c, t in zip(sizes, values, counts, seconds)]
