"""Reading one document table into runs: openssl's orientation (:func:`read_table`: a header,
section rows naming a machine or version, data rows) or any other (:func:`read_grid_table`,
whose roles :mod:`cipherlab.readers._grids` tells), and settling the unit of the cells
(:func:`finish`: openssl's ``k``, the unit the header, caption or prose states, else flagged).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from cipherlab.model import CELL_FIELDS, Run
from cipherlab.readers._grids import (ALGORITHM_CLASS, CPU_COUNTS, Repeat, algorithm_of,
                                      algorithm_words, is_derived, read_grid, role, run_meta,
                                      split_tag)
from cipherlab.readers._names import FLAG_NAME_UNCLEAR, canonical, is_known, made_up, switch
from cipherlab.readers._tables._cells import BLANK_CELLS, Table, clean_value
from cipherlab.readers._tables._facts import VERSION, prose_cpu
from cipherlab.readers._tables._header import (SIZE_HINT, Header, condition_value,
                                               read_header, tier_name)
from cipherlab.readers._tables._prose import DIGIT, UNIT_HINT, Context, caption_below
from cipherlab.readers._units import (FLAG_UNIT_UNKNOWN, INTEGER, is_range, stated_unit,
                                      value_with_unit)

# openssl prints values above this with a "k"; a plain cell above it was retyped by a person.
_PLAIN_LIMIT = 10000.0


def _title(cells: list[str]) -> str | None:
    """The text of a section row: one filled cell (usually spanning the table), not a number."""
    filled = [c for c in cells if c]
    if len(filled) == 1 and clean_value(filled[0]) is None:
        return filled[0]
    return None


@dataclass
class _Section:
    """Section rows seen inside a table: a machine (or other) row, then a version row."""

    machine: str | None = None
    version: str | None = None

    def read(self, title: str) -> None:
        if VERSION.search(title):
            self.version = title
        else:
            self.machine, self.version = title, None

    def meta(self) -> dict[str, Any]:
        meta: dict[str, Any] = {}
        cpu = prose_cpu(self.machine) if self.machine else {}
        if cpu:  # a row naming a CPU or clock replaces what the prose said; other rows label only
            meta["cpu"] = cpu.get("cpu", self.machine)
            meta["clock_hz"] = cpu.get("clock_hz")
        if self.version:
            m = VERSION.search(self.version)
            meta["tool"], meta["tool_version"] = m[1].lower(), m[2]
        label = " / ".join(t for t in (self.machine, self.version) if t)
        if label:
            meta["label"] = label
        return meta


def read_table(table: Table, context: Context) -> tuple[list[Run], set[int], list[int]]:
    runs: list[Run] = []
    used: set[int] = set()
    bad: list[int] = []  # rows under a header that hold numbers but cannot be read
    header: Header | None = None
    section = _Section()
    run: Run | None = None
    hint_above = False
    above: list[str] = []  # a row of titles spanning the header below it ("Throughput (MB/s)")
    data_above = False  # a row of numbers before any header: bare integers below are data too
    for row in table.rows:
        cells = row.clean_cells
        if not any(cells):
            used |= row.lines
            continue
        new_header = read_header(cells, context, table.dialect, hint_above, bare=not data_above)
        hint_above = False
        if new_header is not None:
            if above:  # (a spanning title's unit is that of the columns under it)
                _read_units(new_header, list(itertools.accumulate(above, lambda a, c: c or a)),
                            table, context)
            _read_units(new_header, cells, table, context)
            _finish(header, context)
            header, run = new_header, None
            used |= row.lines
            continue
        if run is None and header is not None and _units_row(cells):
            _read_units(header, cells, table, context)  # ("(MiB/s)" under each title)
            used |= row.lines
            continue
        title = _title(cells)
        if title is not None:
            if SIZE_HINT.search(title) and not VERSION.search(title):
                hint_above = True  # "Block size (bytes)" above a row of bare sizes
                used |= row.lines
                continue
            if not ALGORITHM_CLASS.match(title):  # ("Hashes" groups rows of one run)
                section.read(title)
                run = None
            used |= row.lines
            continue
        if header is None:
            numbers = DIGIT.search("".join(cells)) is not None
            above, data_above = ([] if numbers else cells), data_above or numbers
            # ("Cipher | Block size (bytes) | |": a title spanning a row of bare sizes)
            hint_above = any(SIZE_HINT.search(c) and not VERSION.search(c) and k + 1 < len(above)
                             and not above[k + 1] for k, c in enumerate(above))
            continue
        if is_derived(cells[header.name_col]):  # ("Speed-up", "Total": of the rows above)
            used |= row.lines
            continue
        found = _row_cells(row.line, cells, header, row.notes)
        if found is None:
            # A row with a number in a value column held a measurement we could not read
            # ("522 MB/s", "1.2.3k"); a row of words (a note, a footnote) held none.
            value_cols = header.sizes or header.algorithms
            if any(j in value_cols and any(ch.isdigit() for ch in c) for j, c in enumerate(cells)):
                bad.append(row.line)
            continue
        cells = found
        if row.line in header.ranged:
            bad.append(row.line)  # (a range read as no value: the row is reported)
        _add_note(cells, row.note)
        if run is None:
            meta = context.meta(table)
            meta.update({k: v for k, v in section.meta().items()})
            meta = {k: v for k, v in meta.items() if v is not None}
            run = Run(meta=meta)
            runs.append(run)
        run.cells.extend(cells)
        used |= row.lines
    _finish(header, context)
    if not runs:
        return [], set(), bad
    if not any(is_known(c["algorithm"]) or c.get("flag") == FLAG_NAME_UNCLEAR
               for r in runs for c in r.cells):
        # (rows naming no algorithm, "| laptop | 712.3 |" under sizes: machines, a grid's to
        # read; reported where it cannot place them either)
        return [], set(), sorted({*bad, *(c["line"] - 1 for r in runs for c in r.cells)})
    return runs, used | table.markup, bad


_NAMES_ONLY_REST = re.compile(r"\([^()]*\)|\[[^\[\]]*\]|[\d\s*_`:.,]+")


def _names_only(title: str) -> bool:
    """Whether a title names algorithms and nothing else (sizes, units in parentheses and
    markup aside): ``**chacha20 256** (KB/s)`` titles the table's primitive, no run."""
    words = algorithm_words(title)
    rest = title
    for word, _ in words:
        rest = rest.replace(word, " ")
    return bool(words) and not _NAMES_ONLY_REST.sub("", rest)


def _units_row(cells: list[str]) -> bool:
    """Whether a row under a header is its second line, the unit under each column's title
    (``| | (MB/s) | (MB/s) |``): no number, and a unit in every cell that holds text."""
    filled = [c for c in cells if c]
    return len(filled) >= 1 and all(UNIT_HINT.search(c.lower()) and stated_unit(c) is not None
                                    and not DIGIT.search(c) for c in filled)


def read_grid_table(table: Table, context: Context) -> tuple[list[Run], set[int], list[int]]:
    """A table in another orientation (:mod:`._grids`): one run per run its labels name."""
    rows = [(r.line, r.clean_cells) for r in table.rows if any(r.cells)]
    if table.dialect == "tabs" and rows and not rows[0][1][0]:
        return [], set(), []  # openssl's own public-key header, TAB-indented: the text parser's
    # (a CSV's columns of names are a data file's fields, or builds: it cannot tell; not read)
    with context.block_below(table):  # (a size only the caption below states)
        got = read_grid(rows, context, cell_value, table.caption, measured_only=table.dialect == "csv")
    if got is None:
        return [], set(), []
    groups, bad, titles = got
    columns = {j: c for j, c in enumerate(titles) if j}  # a unit in one is that column's
    header = Header("grid", 0, {}, {}, columns)
    _read_units(header, titles, table, context)
    for j, title in columns.items():  # (a unit the title's role names: "bytes_per_s", B/s)
        if header.units.get(j) is None and (unit := role(title).unit) is not None:
            header.units[j] = unit
    notes = {r.line + 1: r.note for r in table.rows if r.note}
    cell_notes = {(r.line + 1, j): note for r in table.rows for j, note in r.notes.items()}
    runs = []
    # (the libraries the runs' names name: "OpenSSL MB/s" beside "fastgcm MB/s" compares two)
    tools = {run_meta(k).get("tool") for key in groups for k in key
             if k and not isinstance(k, Repeat)} - {None}
    for key, cells in groups.items():
        meta = context.meta(table)
        names = [k for k in key if k and not isinstance(k, Repeat)]
        stated = meta.get("tool")
        if stated in tools and not any(run_meta(n).get("tool") for n in names):
            meta.pop("tool"), meta.pop("tool_version", None)  # (the prose's: another run's)
        for name in names:  # a version, a library, a CPU ("EPYC 7763", "i7-4770 @ 3.40GHz")
            named = run_meta(name)
            if named.get("tool") == stated and named.get("tool_version") is None:
                named.pop("tool_version", None)  # ("OpenSSL MB/s": the version the prose states)
            meta.update(named)
            meta.update(prose_cpu(name))
        if names:
            meta["label"] = " / ".join(names)
        elif meta.get("label") and _names_only(meta["label"]):
            meta["label"] = None  # ("**chacha20 256** (KB/s)" titles the grid's algorithm, no run)
        if any(isinstance(k, Repeat) for k in key):  # (a replicate, as the table says: provenance)
            meta["rule"] = "; ".join(filter(None, (meta.get("rule"), "run: repeat column")))
        run = Run(meta={k: v for k, v in meta.items() if v is not None})
        for cell, ops, text, col in cells:
            _add_note([cell], notes.get(cell["line"]))
            _add_note([cell], cell_notes.get((cell["line"], col)))
            if ops:
                cell["ops_per_s"] = clean_value(text)
            else:
                cell["bytes_per_s"] = cell_value(text)
                _note_unit(header, cell, text, cell["line"] - 1, col)
            run.cells.append(cell)
        runs.append(run)
    _finish(header, context)
    if not runs and not bad and any(_COST.search(t.lower()) for t in titles if t):
        # (cycles per byte: a cost, no rate; not a figure derived from the rows either, so
        # its rows are reported, not dropped)
        bad = [line for line, cells in rows[1:] if any(DIGIT.search(c) for c in cells[1:])]
    if not runs and bad:
        return [], set(), bad  # (rows to report, none read: the text parser sees the table too)
    used = {r.line for r in table.rows} | table.markup  # (no run, no row bad: derived figures)
    return runs, used - set(bad), bad


def by_process_count(runs: list[Run]) -> list[Run]:
    """The runs of a table, each run whose cells several counts of processes measured (a
    ``-multi`` or ``Processes`` column or title; a ``Threads`` or ``Cores`` column whose count
    varies between cells of one algorithm and size) split into one run per count, that count
    its ``multi``: openssl's ``-multi N`` is one run of N processes, never a label. A count that
    varies nowhere (``Cores`` beside each machine) stays a condition: the machine's."""
    out = []
    for run in runs:
        for cell in run.cells:  # ("-multi | yes": no count; a condition, kept)
            if isinstance(cell, dict) and "multi" in cell and not INTEGER.match(cell["multi"]):
                cell["multi_setting"] = cell.pop("multi")
        key = _count_key(run.cells)
        if key is None:
            out.append(run)
            continue
        parts: dict[str | None, list] = {}
        for cell in run.cells:
            parts.setdefault(cell.pop(key, None), []).append(cell)
        for n, cells in parts.items():
            meta = run.meta if n is None else {**run.meta, "multi": int(n.replace(",", ""))}
            out.append(Run(meta=meta, cells=cells))
    return out


def _count_key(cells: list) -> str | None:
    """The condition of ``cells`` that counts their processes, or None."""
    if not cells or not isinstance(cells[0], dict):
        return None
    keys = {k for c in cells for k in c if k in CPU_COUNTS}
    if any("multi" in c for c in cells):
        return "multi"  # (says so)
    for key in sorted(keys):  # (the others where they vary)
        if not all(INTEGER.match(c[key]) for c in cells if key in c):
            continue
        seen: dict[tuple, str] = {}
        for c in cells:
            if key in c:
                what = tuple(sorted((k, str(v)) for k, v in c.items() if k != key and (
                    k not in CELL_FIELDS or k in ("algorithm", "operation", "block_bytes"))))
                if seen.setdefault(what, c[key]) != c[key]:
                    return key
    return None


#: The unit of a column of cycles per byte (a cost: never bytes/s; the cells are flagged).
COST = -2.0
_COST = re.compile(r"\bcpb\b|\bcycles?\s*(?:/|per)\s*b(?:yte)?\b")


def _read_units(header: Header, cells: list[str], table: Table, context: Context) -> None:
    """The units a header row, its table's caption, the prose above and, where those say
    nothing, the caption or sentence right below it state ("Figures in MB/s"; not a line that
    introduces what follows it, ending in ':')."""
    for j, c in enumerate(cells):
        low = c.lower()
        unit = stated_unit(c) if UNIT_HINT.search(low) else None
        if ("cycle" in low or "cpb" in low) and _COST.search(low):
            unit = COST  # ("64 B (cpb)": a cost, no rate whatever the prose says)
        if unit is not None:
            if j in header.sizes or j in header.algorithms:
                header.units[j] = unit  # "16 bytes (MB/s)": that column's
            else:
                header.unit = unit  # "Throughput (MB/s)" over the name column: every column's
    caption = table.caption
    header.unit = header.unit or (stated_unit(caption) if caption else None) or context.unit
    below = caption_below(table.below) if header.unit is None else None
    if below:
        header.unit = stated_unit(below)


def _finish(header: Header | None, context: Context) -> None:
    """Settle the unit of the cells without ``k`` read under ``header``.

    A table that uses ``k`` follows openssl's convention: a cell without it is bytes/s (above
    10000, which openssl never prints, warned about). In a table without ``k`` the unit is the
    one the text states for the cell's column, or for the table; when none does, the cell is
    kept as printed and flagged (and warned about), not guessed.
    """
    if header is None:
        return
    if header.has_k and {header.unit, *header.units.values()} - {None, 1.0, 1e3} and any(
            header.units.get(col, header.unit) not in (None, 1.0, 1e3)
            for _, _, _, col in header.plain + header.k_cells):
        # ("1.5K" under "all figures in MB/s": openssl's k, or thousands of MB/s? never guessed)
        for cell, _, index, _ in header.plain + header.k_cells:
            cell["flag"] = FLAG_UNIT_UNKNOWN
            context.clash.append(index)
        header.plain, header.k_cells = [], []
        return
    for cell, text, index, col in header.plain:
        if header.has_k:
            if cell["bytes_per_s"] > _PLAIN_LIMIT:
                context.plain_large.append(index)
            continue
        unit = header.units.get(col, header.unit)
        if unit is None or unit == COST:
            if cell["bytes_per_s"]:  # (0 is openssl's "not measured" in any unit)
                cell["flag"] = FLAG_UNIT_UNKNOWN
                context.unknown.append(index)
        elif unit == 1e3:
            cell["bytes_per_s"] = clean_value(text + "k")  # (exact decimal scaling, as for k)
        else:
            cell["bytes_per_s"] *= unit
    header.plain = []


def _note_unit(header: Header, cell: dict[str, Any], text: str, index: int,
               col: int) -> dict[str, Any]:
    if text[-1:] in ("k", "K"):
        header.has_k = True
        header.k_cells.append((cell, text, index, col))
    elif value_with_unit(text) is None:
        header.plain.append((cell, text, index, col))
    return cell


def _row_cells(index: int, cells: list[str], header: Header,
               cell_notes: dict[int, str]) -> list[dict[str, Any]] | None:
    """The cells of one data row (cleaned text), or None when it cannot be read as measurements."""
    if len(cells) < header.width:
        cells = cells + [""] * (header.width - len(cells))
    if header.kind == "sizes":
        name = cells[header.name_col]
        if not name or clean_value(name) is not None:
            return None
        conditions = {key: condition_value(key, cells[j]) for j, key in header.conditions.items()}
        base, tag = split_tag(name)  # ("aes-256-cbc (AES-NI)": the algorithm, and a note)
        if tag is None or algorithm_of(base) is None:
            base = name
        else:
            switched = switch(tag)  # ("aes-256-cbc (AES-NI off)": the row's condition)
            key, value = switched if switched is not None else ("note", tag)
            conditions[key] = value
        algorithm, operation = canonical(base)
        if made_up(algorithm):  # ("md5 1024", "ecdsa 256": no such algorithm; never guessed)
            conditions["flag"] = FLAG_NAME_UNCLEAR
        values = _values(header, cells, header.sizes, index)
        return _noted(header, cells, index, cell_notes, [
            (j, {"line": index + 1, "algorithm": algorithm, "operation": operation, "name": name,
                 "block_bytes": header.sizes[j], "bytes_per_s": value, **conditions})
            for j, value in values or ()])
    key = header.conditions[0]
    method = cells[0]
    if not method or clean_value(method) is not None:
        return None
    if key == "tier":
        tier, note = tier_name(method)
        row_notes = note.split(",") if note else []
    else:
        tier, row_notes = method, []
    values = _values(header, cells, header.named_columns, index)
    out = []
    for j, value in values or ():
        printed, algorithm, operation, name_notes = header.named_columns[j]
        notes = sorted(set(row_notes + name_notes))
        out.append((j, {"line": index + 1, "algorithm": algorithm, "operation": operation,
                        "name": printed, "block_bytes": header.block_bytes, "bytes_per_s": value,
                        key: tier, "note": ",".join(notes) if notes else None}))
    return _noted(header, cells, index, cell_notes, out)


def _values(header: Header, cells: list[str], columns, index: int) -> list[tuple[int, float]] | None:
    """``(column, value)`` of a row's cells in ``columns`` that hold one, or None when a cell
    there is no number (a blank cell says nothing; a range none: the row is reported)."""
    out = []
    for j in columns:
        if cells[j].lower() in BLANK_CELLS:
            continue
        value = cell_value(cells[j])
        if value is None:
            if _ranged(header, cells[j], index):
                continue
            return None
        out.append((j, value))
    return out


def _ranged(header: Header, cell: str, index: int) -> bool:
    """Whether a cell that is no number gives a range ("4201.3\u20134350.8"): no one value, so
    the row's other cells are read and the row is reported (``header.ranged``)."""
    if is_range(cell):
        header.ranged.add(index)
        return True
    return False


def cell_value(cell: str) -> float | None:
    """A data cell's number: openssl's (``k`` or plain, unit settled later) or with its unit."""
    value = clean_value(cell)
    return value if value is not None else value_with_unit(cell)


def _add_note(cells: list[dict[str, Any]], note: str | None) -> None:
    for cell in cells if note else ():
        cell["note"] = f"{cell['note']}; {note}" if cell.get("note") else note


def _noted(header: Header, cells: list[str], index: int, notes: dict[int, str],
           out: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]] | None:
    """The cells read from a row (each with its column), their units registered (only rows
    that are read register them: an unreadable row adds nothing) and their own notes added."""
    for j, cell in out:
        _note_unit(header, cell, cells[j], index, j)
        _add_note([cell], notes.get(j))
    return [cell for _, cell in out] or None
