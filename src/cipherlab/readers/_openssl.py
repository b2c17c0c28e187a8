"""The run builder: one pass over the lines of an openssl text, every dialect at once.

Why this module exists: real files mix dialects. A ``2>&1`` capture holds ``Doing ...`` lines,
then the header block and tables; a ``-multi`` run adds ``Forked child``, children's ``+DT``/``+R``
records and ``Got: ... from N`` lines before a header-less parent table; a mailing-list post
holds several machines' runs, each introduced by a line of prose, with rows wrapped by the mail
client. The dialect modules (``_terminal``, ``_progress``, ``_mr``, ``_harness``) recognise single
lines; this module decides which run a line belongs to, rejoins wrapped lines, ties progress
records to the table cells they measured (filling ``count``/``seconds``), and returns
:class:`cipherlab.model.Run` records plus the lines that looked like data but fit nowhere.

Cells are kept as lists in :data:`cipherlab.model.CELL_FIELDS` order (``line``, ``algorithm``,
``name``, ``operation``, ``block_bytes``, ``bytes_per_s``, ``ops_per_s``, ``count``, ``seconds``,
``flag``), and throughput rows whole as :attr:`cipherlab.model.Run.rows` records (one value
per block size), so that building the frame stays column-wise and fast: no Python object is
made per cell of a table row.

Speed (``benchmarks/ingest_speed.py``): most lines of a capture are complete ``Doing`` lines,
``-mr`` tables (each algorithm's ``+DT``/``+R`` pairs, then its ``+H``/``+F`` lines) and table
rows. Runs of them are read as blocks, by one regex over the whole text: progress records stay
columns (lines, names, blocks, counts...) until something needs them as records (immutable
:class:`~cipherlab.readers._progress.Complete` tuples, made in C), ``-mr`` rows are made
column-wise too, the rows under a whole ``type`` header (wrapped by a mail client or not; a row
wrapped once is one record) have their cells converted in one go, and the rows under a
public-key header are each turned into cells by a memo of its name and shape. Every other line
goes through the per-line dispatch, whose pure classifiers of header, prompt and prose lines are
memoised (those lines repeat from run to run) and consulted only for lines that can be theirs
(by prefix, or last character). Each block has exactly the effect its lines would have one by
one. Assembly fills rows column-wise when a run's records are its cells in table order (the
rule in captures): the records' key columns are compared with the rows' in C, no record is made.
"""

from __future__ import annotations

import re
from collections import defaultdict, deque
from functools import lru_cache
from itertools import accumulate, chain, compress, count as counter, repeat
from operator import itemgetter, not_
from typing import Any

from cipherlab.model import FLAG_CHILD, Run
from cipherlab.readers import _harness, _mr, _progress, _terminal as T
from cipherlab.readers._names import canonical
from cipherlab.readers._text import clean, parse_prompt, prose_label

__all__ = ["parse"]

_SIZES_5 = [16, 64, 256, 1024, 8192]
_SIZES_6 = [16, 64, 256, 1024, 8192, 16384]
_SIZES_AEAD = [2, 31, 136, 1024, 8192, 16384]
_SIZES_MB = [8192, 16384, 32768, 65536, 131072]
_NUMTOK = re.compile(r"^-?\d[\d,]*\.\d+[ks]?$|^[-+]?(?:inf|nan)k?$")
_INTS = re.compile(r"^\S+(?:\s+\d{3,}){2,}$")
_MARKER_CONDITION = re.compile(r"\b([a-z][a-z0-9_]*)=([\w.~+-]+)")
_GOT = re.compile(r"^Got: (?P<rec>\+.*?) from (?P<child>\d+)\s*$")
_FORKED = re.compile(r"^Forked child (?P<child>\d+)\s*$")
_ROW_END = frozenset("0123456789k")
# How a whole progress line ends: with its result's time.
_DOING_RESULT = re.compile(r" in \d+\.\d+s\s*$")
_DOING_PIECES = 7  # lines after a cut progress line that may complete it (long names, 30 columns)
# first (after quoting) and last characters of raw public-key rows (T.PK_LINE)
_PK_START, _PK_END = frozenset("rd0123456789"), frozenset("0123456789 \t")
# Index of each field in a cell list.
LINE, ALG, NAME, OP, BLOCK, BPS, OPS, COUNT, SECS, FLAG = range(10)
# Index of each field in a row record (model.Run.rows): LINE, ALG, NAME and OP as in a cell.
SIZES, VALUES, COUNTS, SECONDS = range(4, 8)
# The header block, prompt and notices of a run repeat verbatim from run to run of a collection:
# the pure classifiers of such lines are memoised (their results are never changed).
_memo = lru_cache(maxsize=1024)
_version_line, _meta_line, _parse_prompt, _prose_label, _is_failure = map(
    _memo, (T.version_line, T.meta_line, parse_prompt, prose_label, T.is_failure))
_sym_header, _pkey_header, _parse_version = map(
    _memo, (T.sym_header, T.pkey_header, _mr.parse_version))
# Last characters of a cleaned line that T.sym_row may read (a value ends it).
_SYM_END = frozenset("0123456789kfn")


@_memo
def looks_like_data(line: str) -> bool:
    """Whether an unplaced line looks like a measurement (and so must be reported)."""
    if line[:1] == "+" and len(line) > 2 and line[1].isalpha() and ":" in line:
        return True
    if line.startswith(("Doing ", "Got: ")):
        return True
    # (a number token holds "." or is inf/nan: prose mostly holds none)
    if ("." in line or "inf" in line or "nan" in line) and \
            sum(1 for t in line.split() if _NUMTOK.match(t)) >= 2:
        return True
    return bool(_INTS.match(line))


class _Memo(dict):
    """A dict of the values of a pure function, made on first look-up (``d[x]`` is ``f(x)``)."""

    def __init__(self, f):
        super().__init__()
        self.f = f

    def __missing__(self, key):
        value = self[key] = self.f(key)
        return value


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
        self.columns: list[tuple] = []  # blocks of records (see _Parser.extend_progress)
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


class _Parser:
    def __init__(self, lines: list[str], skip: set[int], source: str, hints: dict[str, Any]):
        self.lines, self.skip, self.source = lines, skip, source
        self.hint_version = _mr.parse_version(hints.get("tool_version"))
        self.runs: list[_Run] = []
        self.cur: _Run | None = None
        self.unplaced: list[tuple[int, str]] = []
        self.prose: tuple[int, str] | None = None
        self.marker: tuple[int, dict[str, str]] | None = None
        self.ended = 0  # line of the last "[exit status: N]" (captures end with it)
        self.quoted: dict[tuple, str] = {}
        # continuation state
        self.pending_row: tuple | None = None  # (run, lineno, name, tokens)
        self.pending_pk: tuple | None = None  # (run, lineno, parsed, kind)
        self.pending_hdr: str | None = None  # "sym" or a public-key kind head
        self.pending_hdr_text = ""
        self.pending_doing: _progress.Progress | None = None
        self.cont_field: str | None = None
        self.harness: _harness.Harness | None = None
        # canonical algorithms of the names of block records, ints of their texts (memos)
        self.algorithm_of = _Memo(lambda name: canonical(name)[0])
        self.ints = _Memo(int)
        self.canonical_of = _Memo(canonical)
        self.mr_headers = _Memo(lambda text: tuple(map(int, text.split(":"))))  # +H sizes
        self.not_names: dict[str, bool] = {}  # row names seen: True for prose or values
        self.row_names: dict[str, str | None] = {}  # raw names in row blocks: name, None if bad

    # --- runs ---------------------------------------------------------------------------
    def run(self, i: int) -> _Run:
        if self.cur is None:
            self.new_run(i)
        self.cur.last = i
        return self.cur

    def new_run(self, i: int) -> _Run:
        prev_end = self.cur.last if self.cur is not None else -1
        label = self.prose[1] if self.prose and self.prose[0] > prev_end else None
        conds = self.marker[1] if self.marker and self.marker[0] > prev_end else {}
        self.flush_pending()
        self.cur = _Run(i, label, dict(conds))
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

    # --- pending continuations ------------------------------------------------------------
    def flush_pending(self) -> None:
        if self.pending_row is not None:
            run, lineno, name, toks = self.pending_row
            self.pending_row = None
            self.add_row(run, lineno, name, toks)
        if self.pending_pk is not None:
            run, lineno, parsed, kind = self.pending_pk
            self.pending_pk = None
            self.add_pk(run, lineno, parsed, kind)
        self.pending_hdr = None
        self.cont_field = None

    def continuation(self, i: int, line: str) -> bool:
        if self.pending_row is not None:
            vals = T.values_only(line)
            if vals is not None:
                run, lineno, name, toks = self.pending_row
                toks = toks + vals
                want = run.sizes_for(len(toks))
                if want is not None and len(toks) >= len(want):
                    self.pending_row = None
                    self.add_row(run, lineno, name, toks)
                else:
                    self.pending_row = (run, lineno, name, toks)
                run.last = i
                return True
        if self.pending_pk is not None:
            vals = T.pkey_continuation(line)
            if vals is not None:
                run, lineno, parsed, kind = self.pending_pk
                parsed = (*parsed[:4], parsed[4] + vals)
                if len(parsed[4]) >= 2 * len(T.OPS[kind]):
                    self.pending_pk = None
                    self.add_pk(run, lineno, parsed, kind)
                else:
                    self.pending_pk = (run, lineno, parsed, kind)
                run.last = i
                return True
        if self.pending_hdr == "sym":
            # the tail of a wrapped `type` header, cut between sizes or inside "8192 bytes"
            text = f"{self.pending_hdr_text} {line}"
            sizes = _sym_header(text)
            if sizes is not None or T.SYM_HEADER_HEAD.match(text):
                if sizes is not None:
                    self.cur.sizes = sizes
                self.pending_hdr_text = text
                self.cur.last = i
                return True
        elif self.pending_hdr is not None:
            text = f"{self.pending_hdr_text} {line}"
            kind = _pkey_header(text)
            if kind is not None:
                self.cur.pk_kind = kind
                self.pending_hdr = None
                self.cur.last = i
                return True
            if T.pkey_header_head(text):
                self.pending_hdr_text = text
                return True
        if self.cont_field is not None:
            rx = T.OPTIONS_CONT if self.cont_field == "options" else T.COMPILER_CONT
            if rx.match(line):
                run = self.cur
                run.meta[self.cont_field] = f"{run.meta.get(self.cont_field, '')} {line}".strip()
                run.last = i
                return True
        return False

    # --- cells ----------------------------------------------------------------------------
    def add_row(self, run: _Run, lineno: int, name: str, toks: list[str]) -> None:
        """Add a throughput row."""
        sizes = run.sizes_for(len(toks))
        if sizes is None or len(toks) != len(sizes):
            # no table to put it in, or a row cut short (and never continued) or longer than
            # its header: the columns cannot be told apart, so it is reported, not guessed
            self.unplaced.append((lineno, self.lines[lineno - 1]))
            return
        self.add_rows(run, sizes, [(lineno, name, toks)])

    def add_rows(self, run: _Run, sizes: list[int], rows: list[tuple],
                 values: list[float] | None = None) -> None:
        """Add throughput rows ``(lineno, name, tokens)`` of ``len(sizes)`` cells each.

        ``values`` are their cells in bytes/s, row after row, when already converted.
        """
        quoted, n, added = self.quoted, len(sizes), False
        decrypt = run.opts.get("decrypt")
        for j, (lineno, name, toks) in enumerate(rows):
            key = tuple(toks)
            seen = quoted.get(key)
            if seen is not None and seen != name and name.endswith(seen) and \
                    name[-len(seen) - 1] in " :>\t":
                continue  # a later quotation of a row already read ("L : aes-128 cbc ...")
            if toks[0] != "0.00":  # all-zero rows repeat legitimately (unavailable algorithms)
                quoted.setdefault(key, name)
            algorithm, op = canonical(name)
            if op == "encrypt" and decrypt:
                op = "decrypt"
            cells = T.row_bytes_per_s(toks) if values is None else values[j * n:j * n + n]
            run.rows.append([lineno, algorithm, name, op, sizes, cells, None, None])
            if algorithm == "evp":
                run.evp = True
            added = True
        if added:
            run.dialects.add("text")

    def add_pk(self, run: _Run, lineno: int, parsed: tuple, kind: str) -> None:
        name, fam, algorithm, bits, toks = parsed
        rates = T.rates(toks)
        ops = T.OPS[kind]
        if len(rates) != len(ops):
            self.unplaced.append((lineno, self.lines[lineno - 1]))
            return
        for op, rate in zip(ops, rates):
            cell = [lineno, algorithm, name, op, None, None, rate, None, None, None]
            run.pk.append((cell, (fam, bits, op)))
        run.dialects.add("text")

    # --- the pass ---------------------------------------------------------------------------
    def parse(self) -> None:
        skip = self.skip
        # Blocks of the two commonest lines of captures (complete progress lines, -mr +DT/+R
        # pairs) are read by one regex over the whole text instead of line by line. Lines taken
        # by document tables (skip) would cut into blocks: such texts go line by line.
        if not skip:
            self.text = "\n".join(self.lines)
            # offset of each line in self.text (accumulate and map run in C)
            self.starts = list(accumulate(map((1).__add__, map(len, self.lines)), initial=0))
        resume = 0
        for idx, raw in enumerate(self.lines):
            if idx < resume:
                continue  # read by a block
            if idx in skip:
                continue
            if self.pending_hdr == "sym" and not skip and self.cur.sizes:
                n = self.row_block(idx)  # the table under a whole `type` header
                if n:
                    resume = idx + n
                    continue
            c0 = raw[:1]
            if not (self.pending_row or self.pending_pk or self.pending_hdr or self.cont_field):
                if c0 == "D" or c0 == "+":
                    n = 0 if skip else self.doing_block(idx) if c0 == "D" else self.mr_block(idx)
                    if n:
                        resume = idx + n
                        continue
                    if c0 == "D" and self.pending_doing is not None:
                        self.complete_doing(raw)
                elif raw[-1:] in _PK_END and raw.lstrip(" \t>")[:1] in _PK_START and \
                        self.cur is not None and self.cur.pk_kind and not skip:
                    n = self.pk_block(idx)  # the rows under a public-key header
                    if n:
                        resume = idx + n
                        continue
            line = clean(raw)
            if not line:
                continue
            i = idx + 1  # 1-based line numbers from here on
            if self.pending_row or self.pending_pk or self.pending_hdr or self.cont_field:
                if self.continuation(i, line):
                    continue
                self.flush_pending()
            if line.startswith("Doing ") and not _DOING_RESULT.search(line):
                line, extra = self.rejoined(idx, line)  # a progress line wrapped by a mail client
                resume = idx + 1 + extra
            try:
                # Inside a throughput table most lines are rows: try that first.
                run = self.cur
                row = T.sym_row(line) if run is not None and run.sizes and \
                    line[-1] in _ROW_END and line[0] not in "+D" else None
                placed = (row is not None and self.sym_line(i, *row)) or self.line(i, line)
            except (ValueError, IndexError):
                placed = False
            if not placed:
                if looks_like_data(line):
                    self.unplaced.append((i, raw))
                else:
                    self.note_prose(i, line)
        self.flush_pending()

    def rejoined(self, idx: int, line: str) -> tuple[str, int]:
        """A ``Doing`` line cut short (by a mail client) joined with the lines that complete it.

        Returns the whole line and how many lines after ``idx`` it took; ``(line, 0)`` when no
        following lines (a few, none a record of its own) make a progress line ending in its
        result.
        """
        text = line
        for j in range(idx + 1, min(idx + 1 + _DOING_PIECES, len(self.lines))):
            nxt = clean(self.lines[j])
            if j in self.skip or not nxt or nxt.startswith(("Doing ", "+")) or (
                    j == idx + 1 and line.endswith(":") and _progress.looks_like_result(nxt)):
                break  # (a bare prompt's whole result line: read as the prompt's, as it was)
            text = f"{text} {nxt}"
            if _DOING_RESULT.search(text) and _progress.doing(text, idx + 1) is not None:
                return text, j - idx
        return line, 0

    def note_prose(self, i: int, line: str) -> None:
        if line.startswith("#"):
            conds = dict(_MARKER_CONDITION.findall(line))
            if conds:
                self.marker = (i, conds)
        label = _prose_label(line)
        if label is not None:
            self.prose = (i, label)

    def line(self, i: int, line: str) -> bool:  # noqa: C901 - one dispatch table, kept flat for speed
        c = line[0]
        if c == "+":
            return self.mr(i, line, None)
        if c == "D" and line.startswith("Doing "):
            return self.doing(i, line)
        if c == "G" and line.startswith("Got: "):
            m = _GOT.match(line)
            if m is None:
                return False
            run = self.run(i)
            child = int(m["child"])
            run.multi = max(run.multi, child + 1)
            return self.mr(i, m["rec"], child)
        if c == "F" and line.startswith("Forked child"):
            m = _FORKED.match(line)
            if m is None:
                return False
            run = self.cur if self.cur is not None and not self.cur.has_cells() else self.new_run(i)
            run.last = i
            run.multi = max(run.multi, int(m["child"]) + 1)
            return True
        if c == "t" and line.startswith("type"):
            sizes = _sym_header(line)
            if sizes is not None or T.SYM_HEADER_HEAD.match(line):
                run = self.cur
                if run is None or (run.rows and run.header_used) or "harness" in run.dialects:
                    run = self.new_run(i)
                run.last = i
                run.sizes, run.header_used = sizes, True
                self.pending_hdr, self.pending_hdr_text = "sym", line
                return True
        ver = _version_line(line) if line.startswith(T.VERSION_PREFIXES) else None
        if ver is not None:
            run = self.cur
            # (a -multi parent's header follows its children's Got: lines: same run)
            if run is None or run.has_version or run.rows or run.pk or "harness" in run.dialects:
                run = self.next_run(i)
            run.last = i
            run.has_version = True
            run.meta["tool"], run.meta["tool_version"] = ver
            run.version = _parse_version(ver[1]) if ver[0] == "openssl" else (1, 0, 1)
            return True
        meta = _meta_line(line) if line.startswith(T.META_PREFIXES) else None
        if meta is not None:
            run = self.run(i)
            field, value = meta
            if field in ("timing_options", "timing_function"):
                run.meta.setdefault("tool", "openssl")
                return True
            run.meta[field] = value
            if field in ("options", "compiler"):
                self.cont_field = field
            return True
        if c in "sko" and "." not in line:
            kind = _pkey_header(line)
            if kind is not None:
                run = self.run(i)
                run.pk_kind = kind
                return True
            head = T.pkey_header_head(line)
            if head is not None and self.cur is not None:
                self.pending_hdr, self.pending_hdr_text = head, line
                return True
        if "speed" in line:
            prompt = _parse_prompt(line)
            if prompt is not None:
                run = self.new_run(i) if self.cur is None or self.cur.has_content() else self.cur
                run.last = i
                self.apply_prompt(run, prompt)
                return True
        if c.isdigit() or c in "rd":
            parsed = T.pkey_row(line)
            if parsed is not None:
                return self.pk_row(i, parsed)
        run = self.cur
        if run is not None and run.pk_kind in ("kem", "sig"):
            ks = T.kem_sig_row(line)
            if ks is not None and len(ks[1]) >= 1 and any(t.endswith("s") for t in ks[1]):
                name, toks = ks
                algorithm = canonical(name)[0]
                parsed = (name, f"{run.pk_kind}:{algorithm}", algorithm, None, toks)
                return self.pk_row(i, parsed)
        row = T.sym_row(line) if line[-1] in _SYM_END else None
        if row is not None:
            return self.sym_line(i, *row)
        return self.other_line(i, line)

    def sym_line(self, i: int, name: str, toks: list[str]) -> bool:
        """A throughput row (possibly cut short by a mail client)."""
        if self.bad_name(name):
            return False  # prose, or values where a name should be
        run = self.cur
        if run is None or not (run.sizes or run.mr_sizes or run.opts or run.has_version):
            if len(toks) not in (5, 6):
                return False  # no table here, and not a whole header-less row either
            run = self.run(i)
        run.last = i
        want = run.sizes_for(len(toks))
        if want is not None and len(toks) < len(want):
            self.pending_row = (run, i, name, toks)
        else:
            self.add_row(run, i, name, toks)
        return True

    def bad_name(self, name: str) -> bool:
        """Whether a row's name is prose (``...:``) or holds values: then it is no row."""
        bad = self.not_names.get(name)
        if bad is None:  # (a table repeats its names: judged once each)
            bad = self.not_names[name] = name.endswith(":") or any(
                T.VALUE.fullmatch(w) for w in name.split())
        return bad

    def other_line(self, i: int, line: str) -> bool:
        """Progress results on their own line, notices, failures, harness output."""
        if self.pending_doing is not None and _progress.looks_like_result(line):
            rec = self.pending_doing
            self.pending_doing = None
            return _progress.result(rec, line)
        if line.startswith(T.ELAPSED_NOTICES):
            run = self.run(i)
            run.elapsed = run.stderr_seen = True
            return True
        if line.startswith(T.NOTICES):
            if line.startswith("[exit status:"):
                self.ended = i  # a capture's last line: what follows is another run's
            return True
        if T.engine_line(line) is not None:
            self.run(i).meta["engine"] = T.engine_line(line)
            return True
        if _is_failure(line):
            if self.cur is not None:
                self.cur.stderr_seen = True
            return True
        return self.harness_line(i, line)

    def harness_line(self, i: int, line: str) -> bool:
        header = _harness.header(line)
        if header is not None:
            run = self.new_run(i) if self.cur is None or self.cur.has_content() else self.cur
            run.last = i
            self.harness = _harness.Harness(run.meta, header)
            run.opts["harness"] = True
            return True
        if self.harness is not None and self.cur is not None and self.cur.opts.get("harness"):
            cells = self.harness.row(i, line)
            if cells is not None:
                self.cur.children.extend(({}, c, None) for c in cells)
                self.cur.last = i
                self.cur.dialects.add("harness")
                return True
        return False

    def apply_prompt(self, run: _Run, prompt: dict) -> None:
        run.opts.update({k: v for k, v in prompt.items() if k != "args"})
        run.opts["prompt"] = True  # the command line is known: no -elapsed means CPU time
        if prompt.get("timing") == "elapsed":
            run.elapsed = True
        if prompt.get("multi"):
            run.multi = max(run.multi, prompt["multi"])
        if "isa_mask" in prompt:
            run.meta["isa_mask"] = prompt["isa_mask"]

    def pk_row(self, i: int, parsed: tuple) -> bool:
        run = self.run(i)
        toks = parsed[4]
        kind = _pk_kind(run.pk_kind, parsed[1], len(toks), sum(1 for t in toks if t[-1] != "s"))
        if len(toks) < 2 * len(T.OPS[kind]):
            self.pending_pk = (run, i, parsed, kind)
        else:
            self.add_pk(run, i, parsed, kind)
        return True

    # --- progress -------------------------------------------------------------------------
    def doing(self, i: int, line: str) -> bool:
        got = _progress.doing(line, i)
        if got is None:
            return False
        rec, rest = got
        run = self.cur
        if run is None or (run.has_cells() and self.prose_after(run)):
            run = self.new_run(i)
        elif run.has_cells() and (self.repeats(run, rec) or self.foreign(
                run, _printed_rates(run), rec.key(), rec.count, rec.block, rec.seconds)):
            run = self.next_run(i)
        run.last = i
        run.stderr_seen = True
        if run.opts.get("decrypt") and rec.operation == "encrypt":
            rec.operation = "decrypt"
        run.progress.append(rec)
        if rec.count is not None or _progress.result(rec, rest):
            run.done.add(rec.key())
        else:
            self.pending_doing = rec if not rest.strip() else None
        run.dialects.add("progress")
        return True

    def complete_doing(self, raw: str) -> None:
        """A complete ``Doing`` line before any table ends the wait for a bare result line."""
        run = self.cur
        if run is not None and not run.has_cells() and not run.opts.get("decrypt") and \
                _progress.DOING_FULL.match(raw):
            self.pending_doing = None

    def doing_block(self, idx: int) -> int:
        """Read the complete ``Doing`` lines from line index ``idx`` on; return how many.

        Each line has the effect :meth:`doing` gives it; the regex does the per-line work in C.
        """
        P = _progress
        recs = self.block(idx, P.DOING_LINES, P.DOING_LINE, P.DOING_BLOCK, 1)
        if recs:
            names, blocks, counts, seconds = zip(*recs)
            self.add_records((range(idx + 1, idx + 1 + len(recs)), names,
                              *self.records(names, blocks), counts, seconds), 1, "progress")
        return len(recs)

    def mr_block(self, idx: int) -> int:
        """Read the ``-mr`` tables from line index ``idx`` on; return how many lines.

        Each algorithm's ``+DT``/``+R`` pairs and the ``+H``/``+F`` lines after them have the
        effect :meth:`mr` gives their lines; the block ends before a table it would not take
        (not after pairs, values not one per size). A run still waiting for an earlier result
        goes line by line (the result may not be this prompt's).
        """
        if not self.lines[idx].startswith("+DT:") or (self.cur is not None and self.cur.open_dt):
            return 0
        units = self.block(idx, _mr.MR_LINES, _mr.MR_UNIT, _mr.MR_UNITS, 2)
        if not units:
            return 0
        names, blocks, counts, seconds, headers, row_names, values = zip(*units)
        tables, end, sizes = [], len(units), self.mr_headers
        for t in compress(counter(), headers):
            if t == (tables[-1] + 1 if tables else 0) or \
                    values[t].count(":") + 1 != len(sizes[headers[t]]):
                end = t  # a table without pairs, or values that do not fit: line by line
                break
            tables.append(t)
        if tables and end == len(units) > tables[-1] + 1:
            end = tables[-1] + 1  # pairs after the last table: with their table, by the next block
        # The pairs, column-wise: the i-th algorithm's end where its table is.
        is_pair = list(map(not_, headers[:end]))
        names, counts, seconds = (list(compress(c, is_pair)) for c in (names, counts, seconds))
        cols = (list(compress(range(idx + 1, idx + 1 + 2 * end, 2), is_pair)), names,
                *self.records(names, compress(blocks, is_pair)), counts, seconds)
        keys = list(zip(cols[3], cols[2]))
        # The tables' rows as mr() makes them from +F lines, column-wise
        heads = list(map(sizes.__getitem__, map(headers.__getitem__, tables)))
        row_names = list(map(row_names.__getitem__, tables))
        row_values = map(str.split, map(values.__getitem__, tables), repeat(":"))
        algorithms, ops = zip(*map(self.canonical_of.__getitem__, row_names)) if tables else ((), ())
        rows = list(map(list, zip(
            map((idx + 2).__add__, map((2).__mul__, tables)), algorithms, row_names, ops,
            map(list, heads), map(list, map(map, repeat(float), row_values)),
            repeat(None), repeat(None))))
        # An algorithm's pairs after the first join the run of the table before them unless one
        # repeats a record of that run (then add_records() starts the next run, as for the
        # first): joined pairs [joined, a) are added to the run at once.
        a = joined = 0
        for j, b in enumerate([t - k for k, t in enumerate(tables)] + [len(names)]):
            if a == b:
                break  # (no pairs after the last table)
            run = self.cur
            if j and (done := run.done).isdisjoint(ks := keys[a:b]) and len(set(ks)) == b - a:
                done.update(ks)
                run.last = cols[0][b - 1] + 1
            else:
                self.joined(run, cols, joined, a)
                self.add_records([c[a:b] for c in cols], 2, "mr")
                joined = b
            a = b
            if j == len(tables):
                break
            # The table, as mr() reads it (the run that took the pairs has no printed table).
            run, row = self.cur, rows[j]
            if row[ALG] == "evp":
                run.evp = True
            if row[OP] == "encrypt" and run.opts.get("decrypt"):
                row[OP] = "decrypt"
            run.rows.append(row)
            run.mr_sizes = list(heads[j])
            run.last = row[LINE]
        self.joined(self.cur, cols, joined, a)
        return 2 * end

    def row_block(self, idx: int) -> int:
        """Read the table rows from line index ``idx`` on; return how many lines.

        Each row, whole or wrapped by a mail client onto lines of values, has the effect that
        :meth:`sym_line`, :meth:`continuation` and :meth:`add_row` give its lines; the block
        ends before a row those would not place whole (a bad name, too few or too many cells).
        The first line ends the wait for the tail of a wrapped header: it cannot be one.
        """
        run = self.cur
        n, rows, wrapped, used = len(run.sizes), [], None, 0
        row_names = self.row_names
        # The records, found as block() finds them; but a record is one line, or two when a
        # line of cells follows a row (group 3), so the lines are counted record by record.
        text, pos = self.text, self.starts[idx]
        m = T.ROW_CANDIDATES.match(text, pos)
        recs = T.ROW_LINE.findall(m[0]) if m else []
        if m and 2 * len(recs) - list(map(_TAIL, recs)).count("") != m[0].count("\n"):
            m = T.ROW_LINES.match(text, pos)
            recs = T.ROW_LINE.findall(m[0]) if m else []
        ln = idx + 1  # the line number of the next record
        for name, vals, next_cells, cells in recs:
            if name:
                if wrapped:
                    break
                norm = row_names.get(name, False)
                if norm is False:  # (a table repeats its names: each is judged once)
                    words = " ".join(name.split())
                    norm = row_names[name] = None if self.bad_name(words) else words
                if norm is None:
                    break
                lineno, toks = ln, vals.split()
                if not next_cells:
                    ln += 1
                elif len(toks) < n:  # wrapped: the cells of the next line continue it
                    toks = toks + next_cells.split()
                    ln += 2
                else:  # a whole row (or too long), then cells continuing no row
                    if len(toks) == n:
                        rows.append((lineno, norm, toks))
                        used = ln - idx
                    break
            elif wrapped:
                (lineno, norm, toks), wrapped = wrapped, None
                toks = toks + cells.split()
                ln += 1
            else:
                break  # values without a row to continue
            if len(toks) != n:
                if len(toks) > n:
                    break
                wrapped = (lineno, norm, toks)
                continue
            rows.append((lineno, norm, toks))
            used = ln - idx - 1
        if not used:
            return 0
        self.flush_pending()
        self.add_rows(run, run.sizes, rows,
                      T.plain_values(" ".join(" ".join(toks) for _, _, toks in rows)))
        run.last = idx + used
        return used

    def pk_block(self, idx: int) -> int:
        """Read the public-key rows (``T.PK_LINE``) from line index ``idx`` on; return how many.

        Each row has the effect :meth:`line` and :meth:`pk_row` give it; the block ends before
        a row they would not place whole (cut short, or with a rate too many or too few).
        """
        run, used, cells = self.cur, 0, self.cur.pk
        # (a table has a few rows: matching them one after the other, each where the last
        # ended, beats finding the block and then its rows)
        rows = iter(T.PK_LINE.scanner(self.text, self.starts[idx]).match, None)
        for k, (name, times, rates) in enumerate(map(_groups, rows)):
            # (a time ends in "s", a rate holds one ".")
            spec = _pk_spec(run.pk_kind, name, times.count("s"), rates.count("."))
            if spec is None:
                break
            algorithm, keys = spec
            lineno = idx + 1 + k
            for (op, key), rate in zip(keys, rates.split()):
                cells.append(([lineno, algorithm, name, op, None, None, float(rate), None, None,
                               None], key))
            used = k + 1
        if used:
            run.last = idx + used
            run.dialects.add("text")
        return used

    def block(self, idx: int, candidates: re.Pattern, record: re.Pattern, exact: re.Pattern,
              lines_per_record: int) -> list[tuple]:
        """The records (``record.findall`` groups) of the block starting at line index ``idx``.

        ``candidates`` cheaply finds the lines that may hold records; when the records found in
        them (anchored at line starts, one line or pair each) cover every line, that is the
        block. Otherwise the ``exact`` pattern (a repetition of ``record``, twice as slow)
        finds where the records stop.
        """
        pos = self.starts[idx]
        m = candidates.match(self.text, pos)
        if m is None:
            return []
        recs = record.findall(m[0])
        if len(recs) * lines_per_record != m[0].count("\n"):
            m = exact.match(self.text, pos)
            recs = record.findall(m[0]) if m else []
        return recs

    def records(self, names: tuple, blocks: tuple) -> tuple[list, list]:
        """The blocks (as ints) and canonical algorithms of records of a block pattern."""
        return (list(map(self.ints.__getitem__, blocks)),
                list(map(self.algorithm_of.__getitem__, names)))

    def add_records(self, cols: tuple, span: int, dialect: str) -> None:
        """Add complete symmetric progress records read by a block pattern.

        ``cols`` are their columns: lines, names, blocks (int), algorithms, and the texts of
        counts and seconds; each record is ``span`` lines (a +DT/+R pair is two).
        """
        # Column-wise, every step in C: no Python code runs per record.
        lines, _, blocks, algorithms, _, _ = cols
        run, k, n = self.cur, 0, len(lines)
        opened = False
        if run is None:
            run, opened = self.new_run(lines[0]), True
        elif run.has_cells():
            if self.prose_after(run) or (dialect == "mr" and self.after_table(run)):
                run, opened = self.new_run(lines[0]), True
            else:
                # Records join a run that has cells until one repeats a record of the run (or
                # of this block), or, for progress lines, is not the record of one of its cells
                # (see foreign): that one starts the next run.
                done, keys = run.done, list(zip(algorithms, blocks))
                if dialect == "mr" and not run.multi and done.isdisjoint(keys) and \
                        len(set(keys)) == n:
                    self.extend_progress(run, cols, span, dialect)
                    return  # (the rule: no repeat)
                seen = set()
                rates = _printed_rates(run) if dialect == "progress" or run.multi else None
                for j, key in enumerate(keys):
                    if key in done or key in seen or (rates is not None and self.foreign(
                            run, rates, key, int(cols[4][j]), key[1], float(cols[5][j]))):
                        break
                    seen.add(key)
                    k += 1
                if k:
                    self.extend_progress(run, [c[:k] for c in cols], span, dialect)
                if k == n:
                    return
                run, opened = self.next_run(lines[k]), True
                cols = [c[k:] for c in cols]
        # A run without cells takes all the rest (no record of the block adds cells).
        if dialect == "progress" and n - k > opened and not run.opts.get("decrypt"):
            self.pending_doing = None  # as complete_doing() says
        self.extend_progress(run, cols, span, dialect)

    @staticmethod
    def extend_progress(run: _Run, cols: tuple, span: int, dialect: str) -> None:
        """Append records (``cols`` as :meth:`add_records` takes them) to ``run``.

        They stay column-wise (made by :attr:`_Run.progress` if needed).
        """
        run.columns.append((*cols, bool(run.opts.get("decrypt"))))
        run.undone.append((cols[3], cols[2]))
        run.last = cols[0][-1] + span - 1
        run.dialects.add(dialect)
        if dialect == "progress":
            run.stderr_seen = True

    @staticmethod
    def joined(run: _Run, cols: tuple, lo: int, hi: int) -> None:
        """Append the records ``lo:hi`` of ``cols`` that joined ``run`` already (see mr_block).

        Their keys are in ``run.done`` and ``run.last`` counts their lines.
        """
        if lo < hi:
            run.columns.append((*(c[lo:hi] for c in cols), bool(run.opts.get("decrypt"))))

    def prose_after(self, run: _Run) -> bool:
        """A line of prose, a marker or an exit status since the run's last line: the text
        moved on."""
        last = run.last
        return (self.prose is not None and self.prose[0] > last) or (
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

    # --- -mr records ----------------------------------------------------------------------
    def mr(self, i: int, line: str, child: int | None) -> bool:
        body = line[1:]
        tag, _, rest = body.partition(":")
        if not rest:
            return False
        fields = rest.split(":")
        run = self.cur
        if tag in ("DT", "DN"):
            if len(fields) < 3:
                return False
            name, block = ":".join(fields[:-2]), int(fields[-1])
            algorithm, op = canonical(name)
            rec = _progress.Progress(i, name, block, None, None, algorithm, op)
            if run is None or (run.has_cells() and child is None and (
                    self.repeats(run, rec) or self.prose_after(run) or self.after_table(run)
                    or (run.multi and self.foreign(run, _printed_rates(run), rec.key(), None,
                                                   block, None)))):
                run = self.new_run(i)
            if run.opts.get("decrypt") and op == "encrypt":
                rec.operation = "decrypt"
            run.last = i
            run.progress.append(rec)
            run.open_dt.append(rec)
            run.dialects.add("mr")
            return True
        # -mr output (+DTP prompts, a +H/+F... table) after a printed table is another run's;
        # so is a +DTP prompt after a line of prose, as for +DT.
        if run is not None and child is None and (tag[0] in "HF" or tag in ("DTP", "DNP")) and (
                self.after_table(run) or (tag[0] == "D" and run.has_cells() and self.prose_after(run))):
            run = self.new_run(i)
        run = self.run(i)
        run.dialects.add("mr")
        version = run.version or self.hint_version
        if tag == "R":
            count, name, secs = int(fields[0]), ":".join(fields[1:-1]), float(fields[-1])
            # Results come in the order of their +DT prompts (children interleave theirs), and
            # -mb names every result "evp".
            opened = run.open_dt
            if opened and (opened[0].name == name or name == "evp"):
                rec = opened.popleft()  # the usual case: the oldest open prompt
            else:
                rec = next((r for r in opened if r.name == name), None)
                if rec is None:
                    return False  # a result without its block size
                opened.remove(rec)
            rec.count, rec.seconds = count, secs
            run.done.add(rec.key())
            return True
        if tag in ("DTP", "DNP"):
            if tag == "DNP":
                fields = fields[1:] + ["0"]
            rec = _mr.dtp_record(fields, i)
            if child is None and run.multi and run.has_cells() and self.foreign(
                    run, _printed_rates(run), rec.key(), None, None, None):
                run = self.new_run(i)  # (as for +DT: not a child's prompt, another run's)
                run.dialects.add("mr")
            run.open_dtp.append(rec)
            if rec.family.startswith(("kem", "sig")):
                names = run.sig_names if rec.family.startswith("sig") else run.kem_names
                if rec.family.startswith(("kem:", "sig:")) and rec.algorithm not in [
                        canonical(n)[0] for n in names]:
                    names.append(fields[0])
            run.progress.append(rec)
            return True
        if tag[0] == "R" and tag[1:].isdigit():
            # results come in the order of their +DTP prompts (children interleave theirs)
            opened = run.open_dtp.popleft() if run.open_dtp else None
            rec = _mr.r_record(int(tag[1:]), fields, opened, version, i)
            if rec is not opened:
                run.progress.append(rec)
            return True
        if tag == "H":
            sizes = [int(x) for x in fields]
            if child is None:
                run.mr_sizes = sizes
            else:
                run.child_sizes[child] = sizes
                run.mr_sizes = run.mr_sizes or sizes
            return True
        if tag == "F":
            sizes = run.child_sizes.get(child) if child is not None else None
            sizes = sizes or run.mr_sizes
            n = len(sizes) if sizes else None
            if n is None:
                # parent of -mr -multi: no +H; children's sizes, else all values
                n = len(fields) - 2
                sizes = run.sizes_for(n)
                if sizes is None:
                    return False
            name = ":".join(fields[1:len(fields) - n])
            toks = fields[len(fields) - n:]
            algorithm, op = canonical(name)
            if run.opts.get("decrypt") and op == "encrypt":
                op = "decrypt"
            if child is None and algorithm == "evp":
                run.evp = True
            if child is None:
                k = min(len(sizes), len(toks))
                run.rows.append([i, algorithm, name, op, sizes[:k], list(map(float, toks[:k])),
                                 None, None])
                return True
            for size, tok in zip(sizes, toks):
                v = float(tok)
                cell = [i, algorithm, name, op, size, v, v / size, None, None, None]
                run.children.append(({"child": child}, cell, (algorithm, size)))
            return True
        if tag[0] == "F" and tag[1:].isdigit():
            n = int(tag[1:])
            if n == 10:
                run.f10 = True
            ks_seen = run.ks_seen if child is None else run.child_ks.setdefault(child, [0, 0])
            cells = _mr.f_records(n, fields, version, run.kem_names, run.sig_names, run.f10,
                                  ks_seen)
            for c in cells:
                cell = [i, c.algorithm, c.name, c.operation, None, None, c.ops_per_s, None, None, None]
                key = (c.family, c.bits, c.operation)
                if child is None:
                    run.pk.append((cell, key))
                else:
                    run.children.append(({"child": child}, cell, key))
            return True
        return False

    # --- assembly -------------------------------------------------------------------------
    def build(self) -> list[Run]:
        out = []
        for run in self.runs:
            built = self.assemble(run)
            if built is not None:
                out.append(built)
        return out

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
        cells = [c for c, _ in run.pk]
        loose = self.fill_rows(run) if complete and run.has_progress() and not run.multi else None
        if loose is None:
            loose = self.fill(run, cells)
        cells.extend(loose)
        sub = [c if isinstance(c, dict) else
               {**dict(zip(_FIELDS, c)), "flag": c[FLAG] or FLAG_CHILD, **conds}
               for conds, c, _ in run.children]
        rows = run.rows
        if not cells and not rows and not sub:
            return None
        if sub:  # cells that vary in a condition: every cell becomes a mapping
            cells = [c for r in rows for c in _row_cells(r)] + cells
            rows = []
        cells.sort(key=_line_of)  # stable: cells of one line keep their order
        if sub:
            cells = [dict(zip(_FIELDS, c)) for c in cells] + sub
            cells.sort(key=lambda c: c["line"])
        if run.multi:
            meta["multi"] = run.multi
        meta.setdefault("tool", "openssl")
        if "timing" not in meta:
            meta["timing"] = "elapsed" if (run.elapsed or run.multi or "harness" in run.dialects) \
                else "cpu" if run.stderr_seen or run.opts.get("prompt") else None
        meta["dialect"] = "text" if "text" in run.dialects else "mr" if "mr" in run.dialects \
            else "progress" if "progress" in run.dialects else "harness"
        return Run(meta=meta, cells=cells, rows=rows)

    def fill(self, run: _Run, cells: list[list]) -> list[list]:
        """Fill rows and ``cells`` with the counts and seconds of the run's progress records.

        Returns the cells of the records that measured no cell of the run.
        """
        # Progress records find their cell by key: the n-th record of a key fills the n-th cell.
        # A row's cell is its (row, index) pair; rows come before public-key cells.
        if run.progress:
            rows = run.rows
            keys = [*((r[ALG], size) for r in rows for size in r[SIZES]), *(k for _, k in run.pk)]
            targets = [*((r, j) for r in rows for j in range(len(r[SIZES]))), *cells]
        else:
            keys = targets = []
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
                loose[-1][FLAG] = FLAG_CHILD
                continue
            target = take(key, None)
            if target is None:
                loose.append(self.progress_cell(p))
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


def _pk_kind(kind: str | None, fam: str, n_toks: int, n_rates: int) -> str:
    """The kind of a public-key row of family ``fam`` in a table of ``kind`` (its header's).

    ``n_toks`` counts the row's numbers, ``n_rates`` those that are rates (no ``s``).
    """
    if fam.startswith(("kem:", "sig:")):
        return kind
    if fam == "rsa":
        if kind not in ("rsa4", "sign"):
            return "rsa4" if n_toks >= 8 or n_rates >= 4 else "sign"
        return "rsa4" if kind == "sign" and n_toks >= 8 else kind
    return "op" if fam in ("ecdh", "ffdh") else "sign"


@_memo
def _pk_spec(kind: str | None, name: str, n_times: int, n_rates: int) -> tuple | None:
    """``(algorithm, ((operation, cell key), ...))`` of a whole ``T.PK_LINE`` row, else None.

    The row is named ``name`` and has ``n_times`` times and ``n_rates`` rates, in a table of
    ``kind``; None when :meth:`_Parser.pk_row` would not place it whole (or at all), and for a
    name holding "speed" (which :meth:`_Parser.line` first tries as a prompt): such a line goes
    one by one.
    """
    if "speed" in name:
        return None
    try:
        parsed = T.pkey_row(name)  # (the name alone gives the fields the whole line gives)
    except (ValueError, IndexError):
        return None
    if parsed is None:
        return None
    _, fam, algorithm, bits, _ = parsed
    ops = T.OPS[_pk_kind(kind, fam, n_times + n_rates, n_rates)]
    if n_rates != len(ops) or n_times < len(ops):
        return None
    return algorithm, tuple((op, (fam, bits, op)) for op in ops)


_FIELDS = ("line", "algorithm", "name", "operation", "block_bytes", "bytes_per_s", "ops_per_s",
           "count", "seconds", "flag")


_line_of = itemgetter(LINE)
_groups = re.Match.groups
_TAIL = itemgetter(2)  # of a T.ROW_LINE record: the cells of the row's next line
_ALG_OF, _SIZES_OF = itemgetter(ALG), itemgetter(SIZES)  # of a row record
# fields of a Complete progress record: algorithm, block, count and seconds
_COMPLETE_COLUMNS = (itemgetter(5), itemgetter(2), itemgetter(7), itemgetter(8))


_NAN = float("nan")  # count and seconds of a row's cell without a progress record


def _row_cells(row: list) -> list[list]:
    """The cells of a row record, as cell lists."""
    line, algorithm, name, op, sizes, values, counts, seconds = row
    counts, seconds = counts or [None] * len(sizes), seconds or [None] * len(sizes)
    return [[line, algorithm, name, op, size, v, v / size, None if c != c else c,
             None if t != t else t, None] for size, v, c, t in zip(sizes, values, counts, seconds)]


def parse(lines: list[str], skip: set[int], source: str,
          hints: dict[str, Any] | None = None) -> tuple[list[Run], list[tuple[int, str]]]:
    """Parse every line not in ``skip`` (0-based indices); return runs and unplaced lines.

    ``hints`` may hold ``tool_version`` for ``-mr`` records of unknown release. Unplaced lines
    are ``(1-based line number, line)`` pairs of lines that looked like data but fit nowhere.
    """
    p = _Parser(lines, skip, source, hints or {})
    p.parse()
    return p.build(), sorted(set(p.unplaced))
