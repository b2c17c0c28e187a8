"""Finders of tables drawn without markup: cells separated by TABs (a rendered page or a
spreadsheet copied), comma-separated values (an export), and cells aligned with spaces in a
block of preformatted text (a fence, ``[code]``, ``<pre>``; :func:`_code_blocks` finds those)
or in a paragraph of plain text that names what it measures (:func:`_paragraphs`). openssl's
own output in such a block, paragraph or TAB paste is left to the text parser.
"""

from __future__ import annotations

import csv
import itertools
import re

from cipherlab.readers._grids import ALGORITHM, MEASURE, SIZE, algorithm_of, role
from cipherlab.readers._tables._cells import Row, Table
from cipherlab.readers._tables._prose import DIGIT, unquote

def tab_tables(lines: list[str], blob: str, taken: set[int]) -> list[Table]:
    """Tables copied from a rendered page: cells separated by TABs, one row per line.

    A line without TABs between two TAB rows is a section row (a cell spanning the table).
    """
    if "\t" not in blob:
        return []
    cells_at: dict[int, list[str]] = {}
    for i in [i for i, line in enumerate(lines) if "\t" in line and i not in taken]:
        text = unquote(lines[i]).strip(" ")
        if "\t" in text.strip("\t"):
            cells_at[i] = [c.strip() for c in text.rstrip("\t").split("\t")]

    tables: list[Table] = []
    rows: list[Row] = []
    prev = -2
    for i, cells in cells_at.items():
        if rows and i != prev + 1:
            middle = prev + 1
            text = unquote(lines[middle]).strip() if i == prev + 2 else ""
            if text and middle not in taken:
                rows.append(Row(middle, [text], {middle}))
            else:
                tables.append(Table("tabs", rows[0].line, rows[-1].line, rows))
                rows = []
        rows.append(Row(i, cells, {i}))
        prev = i
    if rows:
        tables.append(Table("tabs", rows[0].line, rows[-1].line, rows))
    # A TAB-indented paste of openssl's own text table ("type\t16 bytes\t...") belongs to the
    # text parser, which knows its wrapped rows and header block; a retyped one with two
    # blanks inside a cell is aligned by TABs and spaces mixed (an editor's): aligned_tables
    # splits its cells at both.
    return [t for t in tables if not any(r.cells and r.cells[0].lower() == "type" for r in t.rows)
            and not (any("  " in c for r in t.rows for c in r.cells) and not _openssl_output(
                text := "\n".join(lines[r.line] for r in t.rows), 0, len(text)))]


# A block of preformatted text: fenced, BBCode or HTML. (Led by a literal: re skips fast.)
_CODE_OPEN = re.compile(r"```|~~~|\[code\]|\[CODE\]|<pre\b|<PRE\b")  # (no groups: faster)
_CODE_LINE = re.compile(r"[ \t>]*$")  # (what may come before the marker on its line)
_CODE_CLOSE = {"```": re.compile("```"), "~~~": re.compile("~~~"),
               "[": re.compile(r"\[/code\]", re.I), "<": re.compile("</pre>", re.I)}


# Output of openssl itself (its table's "k" values, headers, records, times): the text parser's.
# (Each pattern led by a literal or a digit: re skips to the places where it may match.)
_OPENSSL_OUTPUT = [re.compile("Doing "), re.compile(r"\d\.\d\dk\b"),
                   re.compile(r"\n[ \t]*(?:type\s|\+[A-Z]{1,3}:|(?:version|built on|options|compiler):)"),
                   re.compile(r"\d\.\d{4,}s\b"), re.compile("'numbers'"), re.compile(r"/s\b")]
_PK_TITLE = re.compile(r"(?:sign|verify|keygen|encaps|decaps|enc|dec|op)s?/s\b")
# (what a row of aligned values holds: a gap's last two blanks, then a number; led by a
# literal, each place is tried once: a long run of blanks before no number is scanned once)
_GAP_NUMBER = re.compile(r"  [~\u2248+-]?\d")
_ALIGNED_CELL = re.compile(r"[^ \t]+(?: [^ \t]+)*")  # (cells: two spaces or a TAB between)
_RULE = re.compile(r"[=~_+-]{2,}")  # (a cell of a rule drawn across the table)
# Numbers one blank apart ("6801.20 590.12", "1 013 842"): two cells run together, or one
# grouped by blanks; which, and so under which columns the row's cells go, is not known.
# (From a number's first digit only: a long run of digits is scanned once, not once a digit.)
_RUN_TOGETHER = re.compile(r"(?<![\d.,])[~\u2248+-]?\d[\d.,]*k? [~\u2248+-]?\d")


def aligned_tables(lines: list[str], blob: str, taken: set[int]) -> list[Table]:
    """Space-aligned tables retyped in a block of preformatted text (a fence, ``[code]``,
    ``<pre>``) or in a paragraph of plain text (a spreadsheet pasted into a mail; there its
    header or first column must name an algorithm or a block size): cells are separated by
    two spaces or more, one row per line;
    consecutive lines of two cells or more, none more than the first, are a table; a row of
    fewer cells than the first has them under the columns they overlap (a unit under each
    name: ``(MiB/s)``). openssl's own output (its ``k`` values, ``type`` header, records) is
    left to the text parser, and a cell with single spaces stays one cell. A row with numbers
    one blank apart (``1 013 842``, or ``6801.20 590.12``: two cells whose gap a TAB stop
    or a mail client made one blank) is reported whole (``ragged``): its cells may be under
    other columns than they look."""
    if "  " not in blob:
        return []
    tables: list[Table] = []
    blocks = _code_blocks(blob)
    every = sorted([(*b, False) for b in blocks] + [(*p, True) for p in _paragraphs(blob, blocks)])
    for first, stop, start, end, plain in every:
        if _openssl_output(blob, start, end) or not _GAP_NUMBER.search(blob, start, end):
            continue  # (openssl's own output, or no number after a gap: no aligned table)
        rows: list[Row] = []
        ragged: set[int] = set()
        rules: set[int] = set()  # (a reST table's borders, "=====  ====="; its "---" spans)
        spans: list[tuple[int, int]] = []  # (the first row's columns)
        for i in range(first, stop + 1):
            line = lines[i] if i < stop and i not in taken else ""
            found = list(_ALIGNED_CELL.finditer(unquote(line))) if "  " in line or \
                "\t" in line else []
            if spans and len(found) > len(spans) >= 2 and _noted(found, spans):
                found[len(spans) - 1:] = [_TO_END.match(unquote(line), found[len(spans) - 1].start())]
            if len(found) >= 2 and (not spans or len(found) <= len(spans)):
                if not spans:
                    spans = [m.span() for m in found]
                if all(_RULE.fullmatch(m[0]) for m in found):
                    rules.add(i)
                    continue
                if rows and any(" " in m[0] and _RUN_TOGETHER.search(m[0]) for m in found):
                    ragged.add(i)
                    continue
                rows.append(Row(i, [c if c != "\\" else "" for c in _under_columns(found, spans)],
                                {i}))  # (a reST empty cell escaped: "\\")
                continue
            head = rows[0] if len(rows) == 1 else None
            if head and len(found) > len(spans) and _titles_only(head, lines):
                # (a first row of fewer titles than this one, no number: each spans columns;
                # pandas' to_string puts none over its index, whose column is then untitled)
                rows = [Row(head.line, _spread(head.cells, spans, found), head.lines)]
                spans = [m.span() for m in found]
                rows.append(Row(i, [m[0] for m in found], {i}))
                continue
            # (outside a code block, a table must name what it measures: iostat's "Device
            # tps ..." under a "$ iostat" line is another program's)
            if len(rows) >= 2 and (not plain or _names_benchmark(rows)):
                tables.append(Table("aligned", min([rows[0].line, *rules]),
                                    max([rows[-1].line, *ragged, *rules]), _noted_header(rows),
                                    markup=rules, ragged=ragged))
            rows, ragged, rules, spans = [], set(), set(), []
    return tables


_TO_END = re.compile(r".*\S")  # (a cell to the line's end: a note's sentences)
_WORD = re.compile(r"[^\W\d_]{2}")


def _noted(found: list[re.Match], spans: list[tuple[int, int]]) -> bool:
    """Whether a row's cells past the columns are sentences of a note in its last column
    (``no AVX2 here.  Still fine.``, two blanks after a full stop): words from the last
    column's start on, one cell (no new column, nor a row of another table)."""
    k = len(spans) - 1
    return found[k].start() >= spans[k][0] and all(_WORD.search(m[0]) for m in found[k + 1:])


def _titles_only(head: Row, lines: list[str]) -> bool:
    """Whether a row is titles only: no number after a gap but in a block size's title."""
    return not _GAP_NUMBER.search(lines[head.line]) or \
        all(role(c).kind == SIZE for c in head.cells if DIGIT.search(c))


def _names_benchmark(rows: list[Row]) -> bool:
    """Whether a table's header names an algorithm or a block size, or its first column an
    algorithm."""
    return any(role(c).kind in (ALGORITHM, SIZE, MEASURE) for c in rows[0].cells) or \
        any(algorithm_of(r.cells[0]) for r in rows[1:] if r.cells)


_NOTE_CELL = re.compile(r"^[(\[][^()\[\]]*[)\]]$")  # "(MiB/s)", "(bytes)", "[ops/s]"


def _noted_header(rows: list[Row]) -> list[Row]:
    """A header's second line of notes in parentheses under its names (``(bytes)``,
    ``(MiB/s)``), joined to the names above them: one header row, ``aes-128-cbc (MiB/s)``."""
    notes = rows[1].cells
    if len(rows) < 3 or not any(notes) or not all(_NOTE_CELL.match(c) for c in notes if c):
        return rows
    head = rows[0]
    notes = [f"({n[1:-1]})" if n else n for n in notes]  # ("[KiB/s]": a unit in parentheses)
    cells = [f"{c} {n}".strip() for c, n in itertools.zip_longest(head.cells, notes, fillvalue="")]
    return [Row(head.line, cells, head.lines | rows[1].lines), *rows[2:]]


def _openssl_output(blob: str, start: int, end: int) -> bool:
    """Whether ``blob[start:end]`` holds output of openssl itself (see _OPENSSL_OUTPUT)."""
    start = max(0, start - 1)  # (from the newline before the first line)
    if any(pattern.search(blob, start, end) for pattern in _OPENSSL_OUTPUT[:-1]):
        return True
    return any(_PK_TITLE.search(blob, max(start, m.start() - 9), m.end())  # ("sign/s", not "MB/s")
               for m in _OPENSSL_OUTPUT[-1].finditer(blob, start, end))


def _under_columns(found: list[re.Match], spans: list[tuple[int, int]]) -> list[str]:
    """A row's cells, each under the column of ``spans`` it overlaps most (the nearest, where
    it overlaps none), when it has fewer cells than there are columns. (Cells and columns are
    both in order: one walk along the columns, linear in the row.)"""
    if len(found) >= len(spans):
        return [m[0] for m in found]
    cells = [""] * len(spans)
    k = 0
    for m in found:
        s, e = m.span()
        while k + 1 < len(spans) and spans[k][1] <= s:
            k += 1  # (the first column that ends after the cell starts)
        j, best = k, min(e, spans[k][1]) - max(s, spans[k][0])
        while j + 1 < len(spans) and spans[j + 1][0] < e:  # (the others it overlaps)
            j += 1
            overlap = min(e, spans[j][1]) - max(s, spans[j][0])
            k, best = (j, overlap) if overlap > best else (k, best)
        if best <= 0 and k and s - spans[k - 1][1] < spans[k][0] - e:
            k -= 1  # (it overlaps none: the nearer of the columns either side)
        cells[k] = f"{cells[k]} {m[0]}".strip()
    return cells


def _spread(titles: list[str], spans: list[tuple[int, int]], found: list[re.Match]) -> list[str]:
    """Titles spanning the columns of ``found`` (a CPU over its two sizes), each over the
    columns whose middles lie in its reach: from the midpoint of the gap before it to that of
    the gap after it (the last: to the columns' end), the first reaching as far left of its
    middle as right (a title is centred over its columns; the row names' column under none)."""
    middles = [(s + e) / 2 for s, e in spans]
    ends = [(spans[k][1] + spans[k + 1][0]) / 2 for k in range(len(spans) - 1)]
    ends.append(max(found[-1].end(), spans[-1][1]))
    starts = [2 * middles[0] - ends[0], *ends[:-1]]
    cells = [""] * len(found)
    for j, m in enumerate(found):
        middle = (m.start() + m.end()) / 2
        k = next((k for k in range(len(spans)) if starts[k] <= middle <= ends[k]), None)
        if k is not None:
            cells[j] = titles[k]
    return cells


def _paragraphs(blob: str, blocks: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """``(first, stop, start, end)`` of each paragraph of plain text (lines between blank
    lines, outside ``blocks``) that holds a number after a gap of blanks: a table aligned by
    spaces, pasted into a mail or flattened from a PDF, may be one. (One search for such a
    number, then a paragraph each: the text is walked forward once.)"""
    found: list[tuple[int, int, int, int]] = []
    row = pos = 0
    k = 0  # (the next code block)
    m = _GAP_NUMBER.search(blob)
    while m is not None:
        at = m.start()
        while k < len(blocks) and blocks[k][3] < at:
            k += 1
        if k < len(blocks) and blocks[k][2] <= at:
            m = _GAP_NUMBER.search(blob, blocks[k][3])  # (inside a code block: read as one)
            continue
        gap = blob.rfind("\n\n", pos, at)
        start = gap + 2 if gap >= 0 else pos
        stop_at = blob.find("\n\n", at)
        end = len(blob) if stop_at < 0 else stop_at + 1
        if k < len(blocks):
            end = min(end, blocks[k][2])
        row += blob.count("\n", pos, start)
        lines = blob.count("\n", start, end) + (end > start and blob[end - 1] != "\n")
        found.append((row, row + lines, start, end))
        row += blob.count("\n", start, end)
        pos = end
        m = _GAP_NUMBER.search(blob, end)
    return found


def _code_blocks(blob: str) -> list[tuple[int, int, int, int]]:
    """``(first, stop)`` line indices and ``(start, end)`` offsets of each block of
    preformatted text in ``blob`` (its lines joined by newlines), markers left out."""
    blocks: list[tuple[int, int, int, int]] = []
    if "`" not in blob and "~" not in blob and "[" not in blob and "<" not in blob:
        return blocks  # (a memchr each: most texts of openssl output hold no marker)
    row = pos = end = 0  # (the line ``pos`` is on: lines are counted once, going forward)
    for m in _CODE_OPEN.finditer(blob):
        if m.start() < end:
            continue  # (a marker inside the block just read: the fence closing it)
        line_start = blob.rfind("\n", 0, m.start()) + 1
        if not _CODE_LINE.match(blob, line_start, m.start()):
            continue  # (a marker inside a line of prose)
        start = blob.find("\n", m.end()) + 1 or len(blob)
        close = _CODE_CLOSE[m[0] if m[0][0] in "`~" else m[0][0]].search(blob, start)
        end = close.end() if close else len(blob)
        stop = max(start, blob.rfind("\n", start, close.start()) + 1 if close else len(blob))
        row += blob.count("\n", pos, start)
        pos = start
        lines = blob.count("\n", start, stop) + (stop > start and blob[stop - 1] != "\n")
        blocks.append((row, row + lines, start, stop))
    return blocks


# A line of facts, not a row ("options:bn(64,64) rc4(8x,int)", "compiler: gcc -Wa,--noexecstack")
_KEY_VALUE = re.compile(r"\s*[\w ./-]+:")


def csv_tables(lines: list[str], blob: str, taken: set[int]) -> list[Table]:
    """Tables written as comma-separated values (a spreadsheet's export, a retyped table): at
    least two consecutive lines with the same number (two or more) of fields, read as the
    ``csv`` module reads them (``"6,916.78k"`` quoted keeps its comma). Prose (a blank after its
    commas), cells aligned by spaces, pipe and HTML tables (their digit groups) and ``key:
    value`` lines are no candidates; any other is refused later, as every candidate is (no
    header of sizes or algorithms). A spreadsheet of a locale whose decimal mark is the comma
    separates its values with ``;`` (``aes-128-gcm;712,31;3901,55``): those lines are read
    first, with that delimiter, and are no comma-separated candidates."""
    tables: list[Table] = []
    for delimiter in (";", ","):
        if delimiter not in blob:
            continue
        block: list[int] = []
        blank = delimiter + " "
        rows = (i for i, line in enumerate(lines) if delimiter in line and blank not in line and "|"
                not in line and "<" not in line and "  " not in line.strip()
                and not _KEY_VALUE.match(line) and i not in taken)
        # (two blanks: cells aligned by spaces, "5,102.3  4,998.1")
        for i in [*rows, -2]:
            if block and (i != block[-1] + 1 or i < 0):
                if len(block) >= 2:
                    tables += _csv_table(lines, block, delimiter)
                block = []
            block.append(i)
        if tables:
            taken = taken | {i for t in tables for i in t.span}
    return tables


def _csv_table(lines: list[str], block: list[int], delimiter: str) -> list[Table]:
    """The tables among consecutive lines holding commas: runs of two or more rows of one width.
    A row of another width that holds a number, between or right after the rows of a table,
    is one of its rows cut short or run long (a value lost or added): the table goes on across
    it and it is reported (``ragged``), never read into other columns."""
    # (a line at a time: a quote a line leaves open would join the next lines to it, and each
    # row after it would be given the line of the one before)
    rows = [Row(i, [c.strip() for c in next(csv.reader([lines[i].rstrip(delimiter + " \t")],
                                                       delimiter=delimiter))], {i})
            for i in block]
    groups = [list(run) for _, run in itertools.groupby(rows, key=lambda r: len(r.cells))]
    tables: list[Table] = []
    k = 0
    while k < len(groups):
        width = len(groups[k][0].cells)
        table_rows, odd = list(groups[k]), []
        j = k + 1
        while j + 1 < len(groups) and len(groups[j]) == 1 and len(groups[j + 1][0].cells) == width:
            odd += groups[j]  # (one row of another width, then this width again)
            table_rows += groups[j + 1]
            j += 2
        if len(table_rows) >= 2 and width >= 2:
            if j == len(groups) - 1 and len(groups[j]) == 1:
                odd += groups[j]  # (the last row, cut short or run long)
            tables.append(Table("csv", table_rows[0].line, table_rows[-1].line, table_rows,
                                ragged={r.line for r in odd if DIGIT.search(lines[r.line])}))
        k = j
    return tables
