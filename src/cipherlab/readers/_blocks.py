"""The block readers: runs of the commonest lines of a capture, read by one regex each.

Speed (``benchmarks/ingest_speed.py``): most lines of a capture are complete ``Doing`` lines,
``-mr`` tables (each algorithm's ``+DT``/``+R`` pairs, then its ``+H``/``+F`` lines) and table
rows. Runs of them are read as blocks, by one regex over the whole text: progress records stay
columns (lines, names, blocks, counts...) until something needs them as records (immutable
:class:`~cipherlab.readers._progress.Complete` tuples, made in C), ``-mr`` rows are made
column-wise too, the rows under a whole ``type`` header (wrapped by a mail client or not; a row
wrapped once is one record) have their cells converted in one go, and the rows under a
public-key header are each turned into cells by a memo of its name and shape. Each block has
exactly the effect its lines would have one by one.

Apart from the line pass because they are its fast path, not its rules: the per-line handlers
of ``_openssl`` say what a line does, and each reader here does the same to many lines at once.
"""

from __future__ import annotations

import re
from itertools import compress, count as counter, repeat
from operator import itemgetter, not_
from typing import Callable

from cipherlab.readers import _mr, _progress, _terminal as T
from cipherlab.readers._boundaries import MR_PROMPT, PROGRESS, REPEATS, Event
from cipherlab.readers._runs import ALG, LINE, OP, _memo, _Run, pk_id

_groups = re.Match.groups
_TAIL = itemgetter(2)  # of a T.ROW_LINE record: the cells of the row's next line


def _two_lines_each(recs: list) -> int:
    """Lines of -mr records: each a +DT/+R pair or a +H/+F table."""
    return 2 * len(recs)


def _row_lines(recs: list) -> int:
    """Lines of T.ROW_LINE records: one each, two for a row with a line of cells after it."""
    return 2 * len(recs) - list(map(_TAIL, recs)).count("")


class _BlockReaders:
    """The block readers of :class:`~cipherlab.readers._openssl._Parser` (a mixin of it).

    Each reads from a line index and returns how many lines it read (0: the line goes through
    the per-line dispatch); the handlers their docstrings name (:meth:`doing`, :meth:`mr`...)
    are the parser's.
    """

    def doing_block(self, idx: int) -> int:
        """Read the complete ``Doing`` lines from line index ``idx`` on; return how many.

        Each line has the effect :meth:`doing` gives it; the regex does the per-line work in C.
        """
        P = _progress
        recs = self.block(idx, P.DOING_LINES, P.DOING_LINE, P.DOING_BLOCK, len)
        if recs:
            names, blocks, counts, seconds = zip(*recs)
            self.add_records((range(idx + 1, idx + 1 + len(recs)), names,
                              *self.records(names, blocks), counts, seconds), 1, "progress")
        return len(recs)

    def plain_doing_block(self, idx: int) -> int:
        """Read the whole progress lines of any kind (public-key ones mostly: ``doing_block``
        reads the symmetric ones it can) from line index ``idx`` on into a run without cells;
        return how many.

        Each line has the effect :meth:`doing` gives it: no rule opens a run at a record while
        the run has no cells (:mod:`._boundaries`), so the record joins the current run. The
        block ends before a line that is no whole progress line (``DOING_PLAIN_LINES``: one
        ``clean`` leaves as it is, a prompt with its result).
        """
        run = self.cur
        if run is None or run.has_cells() or self.pending_doing is not None or \
                self.loop is not None and not self.in_loop(run):
            return 0  # (a loop's first output: the line pass opens its run)
        span = self.plain_doing_span  # (a block a repeated record cut: its end is known)
        if span is not None and span[0] <= idx < span[1]:
            end = span[1]
        else:
            m = _progress.DOING_PLAIN_LINES.match(self.text, self.starts[idx])
            if m is None:
                return 0
            end = idx + m[0].count("\n")
            self.plain_doing_span = (idx, end)
        decrypt, used = run.opts.get("decrypt"), 0
        for i, line in enumerate(self.lines[idx:end], start=idx + 1):
            try:  # (what the line pass does to a line that fails, it does: see parse)
                got = _progress.doing(line, i)
                if got is None:
                    break
                rec, rest = got
                if decrypt and rec.operation == "encrypt":
                    rec.operation = "decrypt"
                if rec.count is None and not _progress.result(rec, rest):
                    break  # (a prompt waiting for its result: see doing)
                if rec.key() in run.done:
                    break  # (a record the run has: the rules decide, line by line)
            except (ValueError, IndexError):
                break
            run.progress.append(rec)
            run.done.add(rec.key())
            used += 1
        if used:
            run.last = idx + used
            run.stderr_seen = True
            run.dialects.add("progress")
        return used

    def mr_block(self, idx: int) -> int:
        """Read the ``-mr`` tables from line index ``idx`` on; return how many lines.

        Each algorithm's ``+DT``/``+R`` pairs and the ``+H``/``+F`` lines after them have the
        effect :meth:`mr` gives their lines; the block ends before a table it would not take
        (not after pairs, values not one per size). A run still waiting for an earlier result
        goes line by line (the result may not be this prompt's).
        """
        if not self.lines[idx].startswith("+DT:") or (self.cur is not None and self.cur.open_dt):
            return 0
        units = self.block(idx, _mr.MR_LINES, _mr.MR_UNIT, _mr.MR_UNITS, _two_lines_each)
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
        recs = self.block(idx, T.ROW_CANDIDATES, T.ROW_LINE, T.ROW_LINES, _row_lines)
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
                    if len(toks) == n and not T.cut_value(toks):
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
            if T.cut_value(toks):
                break  # (its last value goes on on the next line: the line pass joins it)
            rows.append((lineno, norm, toks))
            used = ln - idx - 1
        if not used:
            return 0
        self.flush_pending()
        self.add_rows(run, run.sizes, rows,
                      T.plain_values(" ".join(" ".join(toks) for _, _, toks in rows)))
        self.cur.last = idx + used  # (the run of the last row: rows may name their machines)
        return used

    def pk_block(self, idx: int) -> int:
        """Read the public-key rows (``T.PK_LINE``) from line index ``idx`` on; return how many.

        Each row has the effect :meth:`line` and :meth:`pk_row` give it; the block ends before
        a row they would not place whole (cut short, or with a rate too many or too few).
        """
        run, used, cells = self.cur, 0, self.cur.pk
        seen, mine = run.pk_keys(), set()  # (mine: the block's own rows, a repeat among them too)
        # (a table has a few rows: matching them one after the other, each where the last
        # ended, beats finding the block and then its rows)
        rows = iter(T.PK_LINE.scanner(self.text, self.starts[idx]).match, None)
        for k, (name, times, rates) in enumerate(map(_groups, rows)):
            # (a time ends in "s", a rate holds one ".")
            spec = _pk_spec(run.pk_kind, name, times.count("s"), rates.count("."))
            ids = spec and [pk_id(spec[0], op, key[0]) for op, key in spec[1]]
            if spec is None or any(i in seen or i in mine for i in ids):
                break  # (a row the run has: the line path opens the next run there)
            mine.update(ids)
            algorithm, keys = spec
            lineno = idx + 1 + k
            values = T.rates(times.split() + rates.split()) if " 0.0" in rates else \
                map(float, rates.split())  # (0.0 beside a time: see T.rates)
            for (op, key), rate in zip(keys, values):
                cells.append(([lineno, algorithm, name, op, None, None, rate, None, None,
                               None], key))
            used = k + 1
        if used:
            run.last = idx + used
            run.dialects.add("text")
        return used

    def block(self, idx: int, candidates: re.Pattern, record: re.Pattern, exact: re.Pattern,
              lines_of: Callable[[list], int]) -> list[tuple]:
        """The records (``record.findall`` groups) of the block starting at line index ``idx``.

        ``candidates`` cheaply finds the lines that may hold records; when the records found in
        them (anchored at line starts) cover every line (``lines_of(records)`` counts the lines
        they span), that is the block. Otherwise the ``exact`` pattern (a repetition of ``record``, twice as slow)
        finds where the records stop.
        """
        pos = self.starts[idx]
        plain = self.plain_spans
        if pos < plain.get(candidates, -1):
            # inside a span of candidates known to hold other lines: scanning it again from
            # each of its lines would be quadratic, the exact pattern reads only its block
            m = exact.match(self.text, pos)
            return record.findall(m[0]) if m else []
        m = candidates.match(self.text, pos)
        if m is None:
            return []
        recs = record.findall(m[0])
        if lines_of(recs) != m[0].count("\n"):
            plain[candidates] = m.end()
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
        kind = PROGRESS if dialect == "progress" else MR_PROMPT
        opened = False
        # (a run without cells whose records a record of the block repeats, or a block that
        # repeats one of its own, is a run stopped before its table: the rules decide too)
        if run is None or run.has_cells() or run.killed or (run.has_progress() and not run.done.isdisjoint(
                zip(algorithms, blocks))) or len(set(zip(algorithms, blocks))) != n or \
                self.loop is not None and not self.in_loop(run):  # (a loop's first output)
            # Records join a run that has cells until one opens the next (the rules of
            # _boundaries, asked of each record as the line path asks them; one repeating a
            # record of this block repeats one of the run's): that one starts the next run.
            counts, seconds, keys = cols[4], cols[5], list(zip(algorithms, blocks))
            if run is not None and dialect == "mr" and not run.multi and \
                    run.done.isdisjoint(keys) and len(set(keys)) == n and \
                    self.boundary(Event(kind, keys[0], None, blocks[0])) is None:
                self.extend_progress(run, cols, span, dialect)
                return  # (no record repeats, and the text did not move on: the usual case)
            seen, rule, start, to = set(), None, 0, run
            pending = "elapsed" in self.pending_context
            for key, count, secs in zip(keys, counts, seconds):
                rule = self.boundary(Event(kind, key, int(count), key[1], float(secs))) or (
                    REPEATS if key in seen else None)
                if rule is not None and not rule.joins:
                    break
                joins = self.runs[self.above[1]] if rule is not None else run
                if pending and kind == PROGRESS:
                    self.records_joined(joins)  # (an elapsed notice is the run of the records after it)
                    pending = "elapsed" in self.pending_context
                if joins is not to:  # (records of a table above join its run: see joins)
                    self._extend_some(to, cols, start, k, span, dialect)
                    start, to = k, joins
                if joins is run:
                    seen.add(key)
                k += 1
            self._extend_some(to, cols, start, k, span, dialect)
            if to is not run:
                run.last = lines[k - 1] + span - 1
            if k == n:
                return
            run, opened = self.open_at(lines[k], rule, kind), True
            cols = [c[k:] for c in cols]
            if len(set(zip(cols[3], cols[2]))) != n - k:  # (a record of the rest repeats one:
                return self.add_records(cols, span, dialect)  # the rules decide again)
        # A run without cells takes all the rest (no record of the block adds cells).
        if dialect == "progress" and n - k > opened and not run.opts.get("decrypt"):
            self.pending_doing = None  # as complete_doing() says
        self.extend_progress(run, cols, span, dialect)

    def _extend_some(self, run: _Run, cols: tuple, start: int, stop: int, span: int,
                     dialect: str) -> None:
        """Append records ``start:stop`` of ``cols`` (if any) to ``run``."""
        if stop > start:
            self.extend_progress(run, cols if start == 0 and stop == len(cols[0]) else
                                 [c[start:stop] for c in cols], span, dialect)

    @staticmethod
    def extend_progress(run: _Run, cols: tuple, span: int, dialect: str) -> None:
        """Append records (``cols`` as :meth:`add_records` takes them) to ``run``.

        They stay column-wise (made by :attr:`_Run.progress` if needed).
        """
        run.add_columns(cols)
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
            run.add_columns(c[lo:hi] for c in cols)


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

