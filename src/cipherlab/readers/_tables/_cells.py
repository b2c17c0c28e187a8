"""A table found in a document (:class:`Table`, its :class:`Row` s) and how its cells read.

The finders (:mod:`._pipes`, :mod:`._html`, :mod:`._plain`) make :class:`Table` s of raw
cells; this module says what a cell holds: its text without markup (:func:`clean_cell`:
entities, emphasis, a link, NBSPs), its number (:func:`parse_value`, :func:`cell_value`), and,
before a table is read, its numbers as openssl would print them (:func:`plain_numbers`:
decimal commas, footnote marks, ``~``), halves printed side by side (:func:`unfolded`), and
whether it may hold measurements at all (:func:`may_hold_measurements`).
"""

from __future__ import annotations

import functools
import html
import itertools
import re
from dataclasses import dataclass, field, replace

from cipherlab.readers._tables._prose import text_below
from cipherlab.readers._terminal import times_1000
from cipherlab.readers._units import (DOT_GROUP, FOOTNOTE_MARK, INTEGER, around_value,
                                      decimal_comma, dot_grouped, footnote_mark, mark_key,
                                      plain_number)

# A throughput cell: openssl's "%11.2fk" / "%11.2f", possibly with thousands separators ("," or
# a Swiss "'" or typeset "’", one kind in a number).
_VALUE = re.compile(r"^([+-]?(?:\d{1,3}(?:[,'\u2019]\d{3})+|\d+)"
                    r"(?:\.\d+)?(?:e[+-]?\d+)?|[+-]?inf|-?nan)\s*(k)?$", re.IGNORECASE)
_GROUPS = str.maketrans("", "", ",'\u2019")
# Cells that say "nothing here" rather than a number.
BLANK_CELLS = {"", "-", "--", "\u2013", "\u2014", "n/a", "na", "?", "x"}
# Footnote marks after a cell's text ("aes-256-gcm\u00b9", "sha256\u2020").
_MARKS = "\u00b9\u00b2\u00b3\u2070-\u2079\u2020\u2021"
_FOOTNOTE_MARK = re.compile(f"[{_MARKS}]+$")
_CLEAN_HINT = re.compile(f"[&\u00a0*_`\\[{_MARKS}]")  # what only clean_cell(), not a strip, removes
_EMPHASIS = re.compile(r"^(\*\*|__|\*|_|`)(.*)\1$")
# A Markdown link around a whole cell ("[aes-128-cbc](https://...)"): its text is the cell.
_LINK = re.compile(r"^\[([^\[\]]+)\]\([^()\s]*\)$")


# What a cell must hold to be read as a value ("&" may be an escaped digit: "&#49;").
_VALUE_HINT = re.compile(r"\d|inf|nan|&", re.IGNORECASE)


def parse_value(cell: str) -> float | None:
    """Bytes per second from a table cell, or ``None`` when the cell is not a number.

    A ``k`` suffix means thousands of bytes per second (openssl's decimal ``k``); a cell without
    it is already bytes per second. Thousands separators are dropped.

    Examples
    --------
    >>> parse_value("282247.11k"), parse_value("6,916.78k"), parse_value("0.00"), parse_value("98'412.3")
    (282247110.0, 6916780.0, 0.0, 98412.3)
    >>> parse_value("n/a") is None
    True
    """
    return clean_value(clean_cell(cell))


def clean_value(cell: str) -> float | None:
    # parse_value() for a cell already passed through clean_cell().
    if cell[-1:] == "k":  # (openssl's "%.2fk", maybe with thousands marked: the common case)
        head, dot, frac = cell[:-1].partition(".")
        if dot and frac.isdecimal() and (head.isdecimal() or INTEGER.match(head)):
            return times_1000(f"{head.replace(',', '')}.{frac}")
    m = _VALUE.match(cell)
    if m is None:
        return None
    number = m[1].translate(_GROUPS)
    return times_1000(number) if m[2] else float(number)


# (one charset: fast)
_MARK_CHARS = re.compile("[*\\]\u2020\u2021\u00a7\u00b6\u00b9\u00b2\u00b3\u2070\u2074-\u2079]")
_MARK_END = re.compile(rf"(?:{FOOTNOTE_MARK})(?=\t|$)")  # (a cell that ends in a footnote mark)
# A status before a value: a check mark, a cross, an emoji ("✅", "❌", "⚠️", "🟢"), a
# GitHub shortcode (":white_check_mark:"); _STATUS finds one in a table's cells (joined).
_SYMBOLS = "[☀-➿⬀-⯿🀀-🫿][️‍]?"
_STATUS_PREFIX = re.compile(rf"((?:{_SYMBOLS})+|:[a-z0-9_+-]{{1,40}}:)\s*(?=[~≈+-]?\d)")
_STATUS = re.compile(rf"(?:^|\t){_STATUS_PREFIX.pattern}")
_NUMBER_FIRST = re.compile(r"[~\u2248\u223c+-]?\s*\d|(?:ca\.|approx\.|about)\s*\d", re.IGNORECASE)


def plain_numbers(table: Table) -> None:
    """Each cell that holds a number as openssl would print it (see :func:`_units.plain_number`):
    in the table's way of writing decimals, without what is written around the value. A cell
    of an aligned table keeps its blanks (they split its cells: "1 013 842" is not read); one
    that may be decimals or a thousands group (``1.402`` where no cell says which) is emptied
    and its row reported (``table.unclear``)."""
    rows = [r for r in table.rows if any(r.cells)]
    cells = "\t".join(["\t".join(r.clean_cells) for r in rows])
    comma = decimal_comma(cells)
    marked = _MARK_CHARS.search(cells) is not None and _MARK_END.search(cells) is not None
    unclear = not comma and dot_grouped(cells)
    status = (":" in cells or not cells.isascii()) and _STATUS.search(cells) is not None
    if not comma and not marked and not unclear and not status and not around_value(cells):
        return  # (one look at the whole table: most write their numbers as openssl does)
    blanks = table.dialect != "aligned"
    footnote = lambda m: table.footnotes.get(mark_key(m), m)  # noqa: E731 (else the mark)
    for r in rows:
        plain, marks = [], []
        for j, c in enumerate(r.clean_cells):
            if unclear and DOT_GROUP.fullmatch(c):
                c = ""  # ("1.402": 1.402 or 1402? never guessed: the row is reported)
                table.unclear.add(r.line)
                plain.append(c)
                continue
            m = _STATUS_PREFIX.match(c) if status else None
            if m:  # ("✅ 6,842 MB/s", ":warning: 1,402": the value's status, no part of it)
                c, r.notes[j] = c[m.end():], m[1]
            c, mark = footnote_mark(c) if marked else (c, None)
            if _NUMBER_FIRST.match(c):  # (a mark glued to a value is that cell's: "567†")
                c = plain_number(c, comma=comma, blanks=blanks)
                if mark:
                    r.notes[j] = "; ".join(filter(None, (r.notes.get(j), footnote(mark))))
            elif mark:
                marks.append(mark)  # (... to a name, the row's: "aes-128-gcm¹")
            plain.append(c)
        r._clean_cells = plain
        if marks:
            r.note = "; ".join(footnote(m) for m in dict.fromkeys(marks))


def may_hold_measurements(table: Table) -> bool:
    """Whether reading ``table`` can give a run or a row to report: a header row, then a row
    with something a value may be read from. (Most candidates are one ``|`` line of a shell
    pipe or a TAB-indented line: refused here, before their cells are read.)"""
    filled = [row for row in table.rows if any(row.cells)]
    below = "\t".join(cell for row in filled[1:] for cell in row.cells)
    # (any other script may hold digits \d does not match, "²": such a table is read)
    return len(filled) >= 2 and (_VALUE_HINT.search(below) is not None or not below.isascii())


def unfolded(table: Table) -> Table:
    """A table printed as halves side by side (``| Algorithm | 16 bytes | Algorithm | 16 bytes
    |``: its header repeats) as one table, the rows of each half below those of the half
    before it; any other table as it is."""
    rows = [r for r in table.rows if any(r.cells)]
    head = [c.lower() for c in rows[0].clean_cells] if rows else []
    width = len(head)
    period = next((p for p in range(2, width // 2 + 1) if width % p == 0 and head[0] and
                   clean_value(head[0]) is None and head == head[:p] * (width // p)), None)
    if period is None:
        return table
    body = [r for r in table.rows if r is not rows[0]]
    halves = [Row(r.line, r.cells[k:k + period], r.lines) for k in range(0, width, period)
              for r in body if any(r.cells[k:k + period])]
    return replace(table, rows=[Row(rows[0].line, rows[0].cells[:period], rows[0].lines), *halves])


# A footnote: its mark, then its text ("* thermal throttling", "[1]: turbo off", "† est.").
FOOTNOTE_LINE = re.compile(rf"^({FOOTNOTE_MARK}):?\s*(\S.*)$")


@dataclass
class Row:
    line: int            # 0-based index of the row's (first) line
    cells: list[str]
    lines: set[int]      # 0-based indices the row occupies
    note: str | None = None  # what the footnote marks glued to its name say (plain_numbers)
    notes: dict[int, str] = field(default_factory=dict)  # ... to a value, by column; its status
    _clean_cells: list[str] | None = field(default=None, repr=False, compare=False)

    @property
    def clean_cells(self) -> list[str]:
        """The cells as they are read (see ``clean_cell``); most rows need only a strip."""
        if self._clean_cells is None:
            needs_clean = _CLEAN_HINT.search("".join(self.cells))
            self._clean_cells = [clean_cell(c) if needs_clean else c.strip() for c in self.cells]
        return self._clean_cells


#: The markups document tables are read from, one per finder (a run's ``dialect``; Jira, org
#: and reST pipe tables are ``markdown``'s): what stats calls a retyped table, whose clock was
#: copied from a CPU's name.
DIALECTS = frozenset({"html", "latex", "mediawiki", "asciidoc", "markdown", "tabs", "csv", "aligned"})


@dataclass
class Table:
    dialect: str  # one of DIALECTS
    start: int
    end: int
    rows: list[Row]
    markup: set[int] = field(default_factory=set)  # separator rows, <table> tags: no data
    caption: str | None = None
    lines: list[str] = field(default_factory=list, repr=False)  # the document's (for below)

    def __post_init__(self) -> None:
        if self.dialect not in DIALECTS:
            raise ValueError(f"unknown table dialect {self.dialect!r}: add it to DIALECTS")

    @functools.cached_property
    def below(self) -> list[str]:
        """The prose right below the table (see text_below), read when a unit or a footnote
        is looked for there."""
        return text_below(self.lines, self.end, self.dialect) if self.lines else []
    unclear: set[int] = field(default_factory=set)  # rows with a number read neither way
    ragged: set[int] = field(default_factory=set)  # rows of another width (reported if it is read)

    @functools.cached_property
    def footnotes(self) -> dict[str, str]:
        """What each footnote mark stands for, from its rows ("* throttled" in a ``<tfoot>``)
        and the lines right below it."""
        rows = (" ".join(c for c in r.clean_cells if c) for r in self.rows)
        # (a Markdown text escapes a mark that starts a line: "\\* throttled")
        found = (FOOTNOTE_LINE.match(t.removeprefix("\\")) for t in itertools.chain(rows, self.below))
        return {mark_key(m[1]): m[2] for m in found if m}

    @property
    def span(self) -> set[int]:
        return set(range(self.start, self.end + 1))


def clean_cell(cell: str) -> str:
    if "&" in cell:
        cell = html.unescape(cell)
    cell = cell.replace("\u00a0", " ").strip()
    if cell[:1] == "[":
        cell = _LINK.sub(r"\1", cell).strip()
    mark = _FOOTNOTE_MARK.search(cell) if cell[:1] in ("*", "_", "`") else None
    head, tail = (cell[:mark.start()], mark[0]) if mark else (cell, "")  # ("_sha1_†": a note)
    while head[:1] in ("*", "_", "`"):
        m = _EMPHASIS.match(head)
        if m is None:
            break
        head = m[2].strip()
    if head[:1] == "[":  # (a link inside the emphasis: "**[aes](url)**")
        head = _LINK.sub(r"\1", head).strip()
    return head + tail
