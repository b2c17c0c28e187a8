"""Tables shaped like ``openssl speed`` output inside documents: Markdown, HTML, wiki pastes.

Why this module exists: people rarely paste ``openssl speed``'s own text table into a wiki or a
report. They retype it as a Markdown pipe table, an HTML ``<table>`` or MediaWiki markup
(``{| ... |}``), or copy a rendered wiki table, which arrives as tab-separated cells, or align
it with spaces in a block of preformatted text (a fence, ``[code]``, ``<pre>``). Rows are
algorithms and columns are block sizes (``16 bytes``), cells keep openssl's ``k`` suffix (x1000
bytes/s) and sometimes gain thousands separators (``6,916.78k``); the condition the author
varied becomes an extra column (the AWS wiki's ``AES-NI Enabled``). Some pages transpose the table: rows are implementation tiers
(``no-asm``, ``asm``, ``Kernel``), columns are algorithms, and the single block size is stated
in the prose (``Using the results for 8,192 byte blocks``).

Tables in any other orientation (sizes, operations or versions as rows; builds, libraries or
statistics as columns; derived columns beside them) are read by :mod:`._grids`, which tells
what each header cell and row name is; this module finds the tables and builds their runs.

:func:`find_tables` finds those tables among the decoded lines of a document and returns
:class:`cipherlab.model.Run` records plus the indices of the lines it consumed; the dispatcher
(``readers._api``) hands every other line to the openssl text parser. Run metadata (tool version,
machine, timing, clock) comes from the nearest preceding prose and from section rows inside the
table (``| VIA Luke @ 1.0 GHz | |||``, ``| OpenSSL 3.0.2 on Debian ... | |||``).

Conditions that vary from row to row (``aesni``, ``tier``, ``note``) are stored on the cells;
:func:`cipherlab.model.to_frame` turns cell keys outside ``CELL_FIELDS`` into condition columns.

Units: a ``k`` cell is thousands of bytes/s (openssl's), a cell may carry its own unit
(``522 MB/s``). A table that uses ``k`` follows openssl's convention: its plain cells are
bytes/s (above 10000, which openssl never prints, they are warned about). In a table without
any ``k`` a person chose the unit: it is the one the text states (a column title ``16 bytes
(MB/s)``, a header cell or caption ``Throughput (MiB/s)``, a sentence above the table "numbers
in 1000s of bytes per second"; where none of those says, a caption or sentence right below
it: "Figures in MB/s"; see :mod:`cipherlab.readers._units`). When nothing states it,
the cells are kept as printed, flagged ``unit unknown`` and warned about: never guessed. A
footnote mark glued to a value (``221.7*``, ``<sup>1</sup>``, ``[2]``) is no part of it: the
row's cells get what the footnote says (or the mark) as their ``note``.
"""

from __future__ import annotations

import csv
import functools
import html
import itertools
import re
import warnings
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from typing import Any

from cipherlab.model import Run
from cipherlab.readers._context import TEMPLATE_SECTION, label_above
from cipherlab.readers._grids import (ALGORITHM_CLASS, RUN_HEADER, algorithm_words, is_derived,
                                      measured_columns_only, named_algorithms, read_grid, run_meta)
from cipherlab.readers._names import FLAG_NAME_UNCLEAR, NO, YES, canonical, made_up
from cipherlab.readers._text import LineWarning
from cipherlab.readers._terminal import times_1000
from cipherlab.readers._units import (DOT_GROUP, FLAG_UNIT_UNKNOWN, FOOTNOTE_MARK,
                                      INTEGER, block_size, block_size_in_prose, decimal_comma,
                                      dot_grouped, footnote_mark, around_value, is_range,
                                      mark_key, plain_number, stated_unit, value_with_unit)

__all__ = ["find_tables", "lines_with", "parse_value", "prose_cpu", "tier_name"]

# A header that says its bare numbers are block sizes ("Block size (bytes)", "type \\ bytes").
_SIZE_HINT = re.compile(r"\b(?:bytes?\b|block|size)", re.IGNORECASE)
# Prose saying the bare numbers of the table below are block sizes ("Sizes in bytes", "block
# sizes are columns"; not "key sizes in bits").
_SIZES_STATED = re.compile(r"(?<!key )\b(?:(?:block|buffer|chunk|payload|message|input)[\s-]+"
                           r"sizes?\b|sizes?\s+(?:are\s+)?(?:in\s+)?\(?bytes?\b)", re.IGNORECASE)
# A throughput cell: openssl's "%11.2fk" / "%11.2f", possibly with thousands separators ("," or
# a Swiss "'" or typeset "’", one kind in a number).
_VALUE = re.compile(r"^([+-]?(?:\d{1,3}(?:[,'\u2019]\d{3})+|\d+)"
                    r"(?:\.\d+)?(?:e[+-]?\d+)?|[+-]?inf|-?nan)\s*(k)?$", re.IGNORECASE)
_GROUPS = str.maketrans("", "", ",'\u2019")
# Cells that say "nothing here" rather than a number.
_BLANK_CELLS = {"", "-", "--", "\u2013", "\u2014", "n/a", "na", "?", "x"}
# Footnote marks after a cell's text ("aes-256-gcm\u00b9", "sha256\u2020").
_MARKS = "\u00b9\u00b2\u00b3\u2070-\u2079\u2020\u2021"
_FOOTNOTE_MARK = re.compile(f"[{_MARKS}]+$")
_CLEAN_HINT = re.compile(f"[&\u00a0*_`\\[{_MARKS}]")  # what only _clean(), not a strip, removes
_EMPHASIS = re.compile(r"^(\*\*|__|\*|_|`)(.*)\1$")
# A Markdown link around a whole cell ("[aes-128-cbc](https://...)"): its text is the cell.
_LINK = re.compile(r"^\[([^\[\]]+)\]\([^()\s]*\)$")
_QUOTE = re.compile(r"^\s*(?:>\s?)+")
_SEPARATOR_CELL = re.compile(r"^:?-{1,}:?$")
_RULE_LINE = re.compile(r"^\s*[|+]?[-=:]+(?:[+|][-=:]+)*[+|]?\s*$")
_HTML_TABLE = re.compile("<table", re.IGNORECASE)
_HEADING = re.compile(r"^\s*#{1,6}\s+(.*?)\s*#*\s*$")

# Prose facts. Versions as openssl prints them, or as people write them ("OpenSSL version 1.0.1f").
_VERSION = re.compile(r"\b(OpenSSL|LibreSSL|SSLeay)\s+(?:version\s+)?v?"
                      r"(\d+\.\d+\.\d+[a-z]{0,2}(?:-(?!on\b)[\w.]+)?)", re.IGNORECASE)
_SPEED_COMMAND = re.compile(r"\bopenssl\s+speed\b", re.IGNORECASE)
_AWS = re.compile(r"\bAWS\b.*?\b([a-z]\d[a-z0-9-]*\."
                  r"(?:\d*x?large|medium|small|micro|nano|metal))\b")
_CLOCK = re.compile(r"@\s*(\d+(?:\.\d+)?)\s*([GM])Hz\b", re.IGNORECASE)
# A CPU named in prose starts at a vendor or family word; "Core", "Atom", "Nano" ... are words
# too, so they name a CPU only after a vendor or before a model number (see prose_cpu).
_VENDORS = ("Intel|AMD|VIA|Apple|ARM|Arm|Qualcomm|Ampere|IBM|Cyrix|Transmeta|Marvell|Cavium|"
            "HiSilicon|Broadcom|Allwinner|Rockchip|Amlogic|NVIDIA|Samsung|MediaTek|NXP|"
            "Freescale|Motorola|Fujitsu|SiFive|StarFive|Loongson|Hygon|Zhaoxin|Centaur")
_FAMILIES = ("Xeon|Pentium|Celeron|EPYC|Ryzen|Threadripper|Opteron|Athlon|Phenom|Turion|"
             "Sempron|Cortex-[AMRX]\\d+\\w*|Neoverse[-\\w]*|Graviton\\d*|Altra|Snapdragon|Kryo|"
             "Exynos|POWER\\d+\\w*|PowerPC|UltraSPARC[-\\w]*|SPARC[-\\w]*|Itanium|ThunderX\\d*|"
             "Kunpeng|Tegra|(?:Core\\s+)?[iI][3579]-\\d{4,5}\\w*")
_WEAK_FAMILIES = "Core|Atom|Nano|Eden|Luke|Esther|Nehemiah|C3|C7|G[345]|M[1-5]"
_CPU_START = re.compile(rf"\b(?:(?P<vendor>{_VENDORS})|(?P<family>{_FAMILIES})|"
                        rf"(?P<weak>{_WEAK_FAMILIES}))(?![\w-])")
_IS_FAMILY = re.compile(rf"(?:{_FAMILIES}|{_WEAK_FAMILIES})$")
_TRADEMARK = re.compile("\\((?:R|TM|tm)\\)|[\u00ae\u2122]")
_CLOCK_WORD = re.compile(r"\(?(\d+(?:\.\d+)?)\s*([GM])Hz\)?$", re.IGNORECASE)
_CLOCK_NEXT = re.compile(r"\s*" + _CLOCK.pattern, re.IGNORECASE)  # (right after a name)
_WORD = re.compile(r"\S+")
_NAME_END = re.compile("[,;:()\\[\\]@/|]|\\s[-\u2013\u2014]\\s")
_GCC = re.compile(r"\bgcc\s*[-\u2013]?\s*(\d+\.\d+(?:\.\d+)?)", re.IGNORECASE)
_LEADING_OPTIONAL = re.compile(r"^\(\?:[^()|]*\)\?")
_ONE_LETTER_CLASS = re.compile(r"^\[(\w)\1*\]")


def _by_first_letter(alternatives: list[str]) -> re.Pattern:
    """The alternation of ``alternatives`` (patterns), grouped by their first letter:
    re tries every alternative at every position of a text, this only those that start with
    the letter there (70 words made the search of a page of prose cost milliseconds). Used to
    tell whether a text holds a match, for which a leading optional group does not matter: it
    is left out, and a class of one letter is that letter (``[ii]``, what lower() makes of
    ``[iI]``), so that alternatives start with a literal (re then skips other characters fast).

    >>> _by_first_letter(["aws", "amd", "(?:core )?[ii][3579]-", "<"]).pattern
    'a(?:ws|md)|i(?:[3579]-)|<'
    """
    groups: dict[str, list[str]] = {}
    for alt in alternatives:
        alt = _ONE_LETTER_CLASS.sub(r"\1", _LEADING_OPTIONAL.sub("", alt))
        plain = alt[0].isalnum() and alt[1:2] not in ("?", "*", "+", "{")
        groups.setdefault(alt[0] if plain else alt, []).append(alt[1:])
    return re.compile("|".join(f"{first}(?:{'|'.join(rests)})" if len(first) == 1 and
                               first.isalnum() else first for first, rests in groups.items()))


# Lower-case words one of which a line must contain to state a fact _facts() looks for (the
# weak family words name a CPU only beside a vendor or a model number, which this finds).
_FACT_WORDS = ["ssl", "aws", "hz", "gcc", "core", *_VENDORS.lower().split("|"),
               *_FAMILIES.lower().split("|")]
_FACT_HINT = _by_first_letter(_FACT_WORDS)
# The words a CPU name starts with (see prose_cpu), for a quick "none here".
_CPU_HINT = _by_first_letter([*_VENDORS.split("|"), *_FAMILIES.split("|"),
                              *_WEAK_FAMILIES.split("|")])
# A sentence stating the unit of every table below it, not only of the next one (the words
# within 80 characters of "all": bounded, so a long line of "all"s stays linear).
_FOR_ALL_TABLES = re.compile(r"\ball\b[^.;]{0,80}?\b(?:below|numbers|values|figures|results|tables|"
                             r"throughputs?)\b|\bthroughout\b|\b(?:every|each) table\b",
                             re.IGNORECASE)
# Lower-case texts one of which a line must hold to state a unit (see _units.stated_unit).
_UNIT_HINT = re.compile(r"/s|ps\b|per s|1000s|thousands|\(k\)")
# What a raw line (lower case) holds when, read as prose, it may state a fact, a block size
# (the words block_size_in_prose looks for; its " at " may have any blanks around it here), a
# unit or a heading: the hints above, with any space in them, or markup that may hide them.
_PROSE_HINT = _by_first_letter([*_FACT_WORDS, "block", "byte", "@", r"at\s",
                                *_UNIT_HINT.pattern.replace(" ", r"\s+").split("|"), "<", "&"])
_HEADING_HINT = re.compile(r"#|<|&")
_DIGIT_HINT = re.compile(r"[\d&]")  # (an entity may be a digit)
# openssl prints values above this with a "k"; a plain cell above it was retyped by a person.
_PLAIN_LIMIT = 10000.0
_DIGIT = re.compile(r"\d")
# What a cell must hold to be read as a value ("&" may be an escaped digit: "&#49;").
_VALUE_HINT = re.compile(r"\d|inf|nan|&", re.IGNORECASE)

# Column headers that name the row-name column of an ordinary (rows = algorithms) table.
_NAME_HEADERS = {"cipher", "ciphers", "algorithm", "algorithms", "algo", "type", "name", "digest",
                 "hash", "primitive", "function", "mode", "cipher suite", "suite"}
# First header cell of a transposed table (rows = implementation, columns = algorithms).
_TIER_HEADERS = {"method", "methods", "implementation", "implementations", "tier", "tiers",
                 "engine", "provider", "build", "variant", "configuration", "config", ""}
# Implementation tiers people write as a row name, and their canonical spelling.
_TIER_WORDS = {
    "no-asm": "no-asm", "noasm": "no-asm", "no asm": "no-asm", "portable c": "no-asm",
    "c": "no-asm", "asm": "asm", "assembler": "asm", "assembly": "asm",
    "kernel": "kernel", "afalg": "kernel", "af_alg": "kernel", "af-alg": "kernel",
    "padlock": "padlock", "aes-ni": "aes-ni", "aesni": "aes-ni", "sha ext": "sha-ext",
    "sha-ext": "sha-ext", "sha extensions": "sha-ext", "sha-ni": "sha-ext", "shani": "sha-ext",
    "avx2": "avx2", "avx512": "avx512", "vaes": "vaes", "qat": "qat", "engine": "engine",
}
# "Kerneld,e" / "Padlockb" / "asmc": a known tier word with footnote letters glued to it.
_TIER_FOOTNOTE = re.compile(
    r"^(" + "|".join(sorted((re.escape(w) for w in _TIER_WORDS if len(w) > 1), key=len,
                            reverse=True)) + r")((?:[a-z],)*[a-z])$", re.IGNORECASE)
# "IDEAa" in "IDEAa CBC": an upper-case algorithm word with footnote letters glued to it.
_NAME_FOOTNOTE = re.compile(r"^([A-Z][A-Z0-9-]+)((?:[a-z],)*[a-z])$")
_TIER_JOINS = re.compile(r"\s*(?:&|\+|/|\band\b)\s*")  # "AES-NI & SHA Ext.", "asm+padlock"
_TIER_SPACES = re.compile(r"[\s.]+")
_PIPE = re.compile(r"(?<!\\)\|")  # a cell border (an escaped "\|" is text)
_TAG = re.compile(r"<[^>]+>")
_OPENSSL = re.compile(r"\bopenssl\b", re.IGNORECASE)
_ELAPSED = re.compile(r"(?:^|\s)-elapsed\b")


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
    return _value(_clean(cell))


def _value(cell: str) -> float | None:
    # parse_value() for a cell already passed through _clean().
    if cell[-1:] == "k":  # (openssl's "%.2fk", maybe with thousands marked: the common case)
        head, dot, frac = cell[:-1].partition(".")
        if dot and frac.isdecimal() and (head.isdecimal() or INTEGER.match(head)):
            return times_1000(f"{head.replace(',', '')}.{frac}")
    m = _VALUE.match(cell)
    if m is None:
        return None
    number = m[1].translate(_GROUPS)
    return times_1000(number) if m[2] else float(number)


def tier_name(cell: str) -> tuple[str, str | None]:
    """Canonical implementation tier and the footnote letters glued to it.

    Examples
    --------
    >>> tier_name("Kerneld,e"), tier_name("Padlockb"), tier_name("asmc"), tier_name("no-asm")
    (('kernel', 'd,e'), ('padlock', 'b'), ('asm', 'c'), ('no-asm', None))
    >>> tier_name("AES-NI & SHA Ext.")
    ('aes-ni+sha-ext', None)
    """
    parts, notes = [], []
    for part in _TIER_JOINS.split(_clean(cell)):
        word = part.strip().rstrip(".").strip()
        if not word:
            continue
        key = word.lower()
        if key not in _TIER_WORDS:
            m = _TIER_FOOTNOTE.match(word)
            if m:
                key, notes = m[1].lower(), notes + m[2].split(",")
        parts.append(_TIER_WORDS.get(key, _TIER_SPACES.sub("-", key).strip("-")))
    return "+".join(parts), (",".join(notes) if notes else None)


def find_tables(lines: list[str], source: str, *,
                unplaced: list[tuple[int, str]] | None = None) -> tuple[list[Run], set[int]]:
    """Find every openssl-shaped table in a document and read it into runs.

    Parameters
    ----------
    lines : list of str
        The decoded lines of the document (line ends removed, mojibake repaired, nothing else
        stripped: mail quoting ``>`` and indentation are handled here).
    source : str
        The source name, used in messages.
    unplaced : list, optional
        When given, ``(lineno, line)`` (1-based) is appended for every row of a recognised
        table that holds numbers but cannot be read (a cell that is not a number, a missing
        name), so the caller can warn about it or, with ``strict``, raise.

    Returns
    -------
    runs : list of cipherlab.model.Run
        One run per table, or per section of a table (section rows such as
        ``| VIA Luke @ 1.0 GHz | | |`` or a repeated header start a new run), in document
        order. Cells carry ``line`` (1-based), ``algorithm``/``operation`` (canonical),
        ``name`` (as printed), ``block_bytes`` and ``bytes_per_s``; conditions that vary by row
        (``aesni``, ``tier``, ``note``) are cell keys too. ``meta`` holds ``dialect``
        (``markdown``, ``html``, ``mediawiki`` or ``tabs``), ``label`` and what the prose
        says (``tool``, ``tool_version``, ``timing``, ``cpu``, ``clock_hz``, ``compiler``).
    consumed : set of int
        0-based indices of the lines that belong to the tables found (markup, headers, section
        rows and data rows). Rows whose cells could not be read are left out, so the caller
        reports them.

    Examples
    --------
    >>> text = '''Tested on OpenSSL 1.0.1f, AWS r3.xlarge.
    ... | Cipher | AES-NI Enabled | 16 bytes | 64 bytes |
    ... |---|---|---|---|
    ... | aes-128-gcm | Yes | 282247.11k | 687515.58k |
    ... | aes-128-gcm | no | 72,770.61k | 83879.10k |'''
    >>> runs, consumed = find_tables(text.splitlines(), "<text>")
    >>> runs[0].meta["tool_version"], runs[0].meta["label"], sorted(consumed)
    ('1.0.1f', 'AWS r3.xlarge', [1, 2, 3, 4])
    >>> for c in runs[0].cells[1:3]:
    ...     print(c["line"], c["algorithm"], c["aesni"], c["block_bytes"], c["bytes_per_s"])
    4 aes-128-gcm on 64 687515580.0
    5 aes-128-gcm off 16 72770610.0
    """
    # One pass over the whole text in C decides which scanners can find anything at all: most
    # documents are openssl text with no table, and they must cost next to nothing here.
    blob = "\n".join(lines)
    # (a one-character test first where it can say no: it is a memchr, ten times cheaper)
    tables = _html_tables(lines) if "<" in blob and _HTML_TABLE.search(blob) else []
    taken = set().union(*(t.span for t in tables)) if tables else set()
    if "{" in blob and "{|" in blob:
        tables += _mediawiki_tables(lines, taken)
        taken = set().union(*(t.span for t in tables)) if tables else set()
    if "|" in blob:
        tables += _markdown_tables(lines, taken)
        taken = set().union(*(t.span for t in tables)) if tables else set()
    if "\t" in blob:
        tables += _tab_tables(lines, taken)
        taken = set().union(*(t.span for t in tables)) if tables else set()
    if "," in blob:
        tables += _csv_tables(lines, taken)
        taken = set().union(*(t.span for t in tables)) if tables else set()
    if "  " in blob:
        tables += _aligned_tables(lines, blob, taken)
    if not any(_may_hold_measurements(t) for t in tables):
        return [], set()
    # (of tables starting on the same line, the last found is read; one starting inside the
    # table read before it is that table's)
    tables = list({t.start: t for t in sorted(tables, key=lambda t: t.start)}.values())

    runs: list[Run] = []
    consumed: set[int] = set()
    context = _Context(lines)
    done = 0  # the lines above this one are read, as prose or as a table
    for table in tables:
        if table.start < done:
            continue
        context.read_prose(done, table.start)
        done = table.end + 1
        found, used, bad = [], set(), []
        if _may_hold_measurements(table):
            table = _unfolded(table)
            table.lines = lines
            _plain_numbers(table)
            found, used, bad = _read_table(table, context)
            if not found:  # not openssl's orientation: perhaps another one (_grids)
                found, used, grid_bad = _read_grid(table, context)
                bad = grid_bad if found or grid_bad else bad
        if unplaced is not None:
            unplaced.extend((j + 1, lines[j]) for j in dict.fromkeys([*bad, *sorted(table.unclear)]))
        if found:
            runs.extend(found)
            consumed |= used
            context.after_table()
        else:
            # Not an openssl-shaped table: its text is prose (it may still name a machine).
            context.read_prose(table.start, done)
    if context.unknown:
        warnings.warn(LineWarning(
            f"{source}: table cells at line(s) {{lines}} have no unit: no 'k' and nothing in the "
            f"table or the text above it says what the numbers are (1000s of bytes per second, "
            f"MB/s, ...); they are kept as printed and flagged '{FLAG_UNIT_UNKNOWN}'. State the "
            f"unit above the table or in its header to read them.", context.unknown), stacklevel=2)
    if context.clash:
        warnings.warn(LineWarning(
            f"{source}: table cells at line(s) {{lines}} mix openssl's 'k' with a unit the text "
            f"states for them (MB/s, GB/s, ...): whether '1.5k' is 1500 bytes/s or 1.5 thousand "
            f"of that unit cannot be known; they are flagged '{FLAG_UNIT_UNKNOWN}'.",
            context.clash), stacklevel=2)
    if context.plain_large:
        warnings.warn(LineWarning(
            f"{source}: table cells without 'k' above 10000 at line(s) {{lines}} were read as "
            f"bytes/s. openssl prints such values with 'k' (1000s of bytes/s), so this table was "
            f"retyped; if its numbers are 1000s of bytes per second, add the 'k' or say so above "
            f"the table (e.g. 'in 1000s of bytes per second').", context.plain_large), stacklevel=2)
    return runs, consumed


_MARK_CHARS = re.compile("[*\\]\u2020\u2021\u00a7\u00b6\u00b9\u00b2\u00b3\u2070\u2074-\u2079]")  # (one charset: fast)
_MARK_END = re.compile(rf"(?:{FOOTNOTE_MARK})(?=\t|$)")  # (a cell that ends in a footnote mark)
_NUMBER_FIRST = re.compile(r"[~\u2248\u223c+-]?\s*\d|(?:ca\.|approx\.|about)\s*\d", re.IGNORECASE)


def _plain_numbers(table: _Table) -> None:
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
    if not comma and not marked and not unclear and not around_value(cells):
        return  # (one look at the whole table: most write their numbers as openssl does)
    blanks = table.dialect != "aligned"
    for r in rows:
        plain, marks = [], []
        for c in r.clean_cells:
            if unclear and DOT_GROUP.fullmatch(c):
                c = ""  # ("1.402": 1.402 or 1402? never guessed: the row is reported)
                table.unclear.add(r.line)
            else:  # (a mark glued to a value or a name: "221.7*", "aes-128-gcm¹")
                c, mark = footnote_mark(c) if marked else (c, None)
                marks += [mark] if mark else []
                if _NUMBER_FIRST.match(c):
                    c = plain_number(c, comma=comma, blanks=blanks)
            plain.append(c)
        r._clean_cells = plain
        if marks:  # (what the table's footnotes say each mark stands for, else the mark)
            r.note = "; ".join(table.footnotes.get(mark_key(m), m) for m in dict.fromkeys(marks))


def _text_below(lines: list[str], table: _Table) -> list[str]:
    """The prose right below a table, as read: an HTML table's ``<figcaption>`` or text after
    ``</table>`` on its last line, then the lines after it up to the paragraph's end (one blank
    line may come first). A heading or another table ends it; a paragraph right above another
    table or block ("Next, in MB/s" over it) is that one's, not this one's."""
    tail, out = [], []
    html_ = table.dialect == "html"
    if html_:
        rest = re.split("</table>", lines[table.end], flags=re.IGNORECASE)[-1]
        tail = [_prose_text(_SUP.sub(r"[\1]", rest))] if len(rest) < len(lines[table.end]) else []
    i = table.end + 1
    for i in range(table.end + 1, min(len(lines), table.end + 3 + _BELOW_REACH)):
        line = lines[i]
        text = _prose_text(_SUP.sub(r"[\1]", line) if html_ and "<" in line else line)
        if not text:
            if out:
                break
            continue
        if _HEADING.match(text) or _STARTS_TABLE.search(line):
            break
        out.append(text)
        if len(out) > _BELOW_REACH:
            break
    below = next((line for line in itertools.islice(lines, i, i + 3) if line.strip()), "")
    if out and _STARTS_TABLE.search(below):
        out = []  # (it introduces what follows)
    return [t for t in tail + out if t]


def _may_hold_measurements(table: _Table) -> bool:
    """Whether reading ``table`` can give a run or a row to report: a header row, then a row
    with something a value may be read from. (Most candidates are one ``|`` line of a shell
    pipe or a TAB-indented line: refused here, before their cells are read.)"""
    filled = [row for row in table.rows if any(row.cells)]
    below = "\t".join(cell for row in filled[1:] for cell in row.cells)
    # (any other script may hold digits \d does not match, "²": such a table is read)
    return len(filled) >= 2 and (_VALUE_HINT.search(below) is not None or not below.isascii())


def _unfolded(table: _Table) -> _Table:
    """A table printed as halves side by side (``| Algorithm | 16 bytes | Algorithm | 16 bytes
    |``: its header repeats) as one table, the rows of each half below those of the half
    before it; any other table as it is."""
    rows = [r for r in table.rows if any(r.cells)]
    head = [c.lower() for c in rows[0].clean_cells] if rows else []
    width = len(head)
    period = next((p for p in range(2, width // 2 + 1) if width % p == 0 and head[0] and
                   _value(head[0]) is None and head == head[:p] * (width // p)), None)
    if period is None:
        return table
    body = [r for r in table.rows if r is not rows[0]]
    halves = [_Row(r.line, r.cells[k:k + period], r.lines) for k in range(0, width, period)
              for r in body if any(r.cells[k:k + period])]
    return replace(table, rows=[_Row(rows[0].line, rows[0].cells[:period], rows[0].lines), *halves])


# --------------------------------------------------------------------------------------------
# Finding tables


@dataclass
class _Row:
    line: int            # 0-based index of the row's (first) line
    cells: list[str]
    lines: set[int]      # 0-based indices the row occupies
    note: str | None = None  # what the footnote marks glued to its values say (_plain_numbers)
    _clean_cells: list[str] | None = field(default=None, repr=False, compare=False)

    @property
    def clean_cells(self) -> list[str]:
        """The cells as they are read (see ``_clean``); most rows need only a strip."""
        if self._clean_cells is None:
            needs_clean = _CLEAN_HINT.search("".join(self.cells))
            self._clean_cells = [_clean(c) if needs_clean else c.strip() for c in self.cells]
        return self._clean_cells


@dataclass
class _Table:
    dialect: str
    start: int
    end: int
    rows: list[_Row]
    markup: set[int] = field(default_factory=set)  # separator rows, <table> tags: no data
    caption: str | None = None
    lines: list[str] = field(default_factory=list, repr=False)  # the document's (for below)

    @functools.cached_property
    def below(self) -> list[str]:
        """The prose right below the table (see _text_below), read when a unit or a footnote
        is looked for there."""
        return _text_below(self.lines, self) if self.lines else []
    unclear: set[int] = field(default_factory=set)  # rows with a number read neither way

    @functools.cached_property
    def footnotes(self) -> dict[str, str]:
        """What each footnote mark stands for, from its rows ("* throttled" in a ``<tfoot>``)
        and the lines right below it."""
        rows = (" ".join(c for c in r.clean_cells if c) for r in self.rows)
        found = (_FOOTNOTE_LINE.match(t) for t in itertools.chain(rows, self.below))
        return {mark_key(m[1]): m[2] for m in found if m}

    @property
    def span(self) -> set[int]:
        return set(range(self.start, self.end + 1))


def _clean(cell: str) -> str:
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
    return head + tail


def _unquote(line: str) -> str:
    m = _QUOTE.match(line) if ">" in line else None
    return line[m.end():] if m else line


def _pipe_cells(text: str) -> list[str] | None:
    text = text.strip()
    if "|" not in text:
        return None
    if text.startswith("||") and text.endswith("||"):  # a Jira/Confluence wiki header row
        return [c.strip() for c in text[2:-2].split("||")]
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    if "\\" in text:
        cells = [c.replace("\\|", "|").strip() for c in _PIPE.split(text)]
    else:  # (no escaped "|": a plain split)
        cells = [c.strip() for c in text.split("|")]
    return cells if len(cells) >= 2 else None


def _markdown_tables(lines: list[str], taken: set[int]) -> list[_Table]:
    tables: list[_Table] = []
    block: list[tuple[int, list[str]]] = []

    def close() -> None:
        if block:
            rows, markup = [], set()
            for i, cells in block:
                if all(_SEPARATOR_CELL.match(c) for c in cells if c) and any(cells):
                    markup.add(i)
                else:
                    rows.append(_Row(i, cells, {i}))
            tables.append(_Table("markdown", block[0][0], block[-1][0], rows, markup))
            block.clear()

    prev = -2
    for i in [i for i, line in enumerate(lines)
              if ("|" in line or line.lstrip()[:1] == "+") and i not in taken]:
        text = _unquote(lines[i])
        # (a rule of an org-mode "|----+----|" or reStructuredText "+====+====+" grid table)
        cells = ["-"] if _RULE_LINE.match(text) else _pipe_cells(text)
        if cells is None or i != prev + 1:
            close()
        if cells is not None:
            block.append((i, cells))
            prev = i
    close()
    return tables


def _tab_tables(lines: list[str], taken: set[int]) -> list[_Table]:
    """Tables copied from a rendered page: cells separated by TABs, one row per line.

    A line without TABs between two TAB rows is a section row (a cell spanning the table).
    """
    cells_at: dict[int, list[str]] = {}
    for i in [i for i, line in enumerate(lines) if "\t" in line and i not in taken]:
        text = _unquote(lines[i]).strip(" ")
        if "\t" in text.strip("\t"):
            cells_at[i] = [c.strip() for c in text.rstrip("\t").split("\t")]

    tables: list[_Table] = []
    rows: list[_Row] = []
    prev = -2
    for i, cells in cells_at.items():
        if rows and i != prev + 1:
            middle = prev + 1
            text = _unquote(lines[middle]).strip() if i == prev + 2 else ""
            if text and middle not in taken:
                rows.append(_Row(middle, [text], {middle}))
            else:
                tables.append(_Table("tabs", rows[0].line, rows[-1].line, rows))
                rows = []
        rows.append(_Row(i, cells, {i}))
        prev = i
    if rows:
        tables.append(_Table("tabs", rows[0].line, rows[-1].line, rows))
    # A TAB-indented paste of openssl's own text table ("type\t16 bytes\t...") belongs to the
    # text parser, which knows its wrapped rows and header block.
    return [t for t in tables if not any(r.cells and r.cells[0].lower() == "type" for r in t.rows)]


# A block of preformatted text: fenced, BBCode or HTML. (Led by a literal: re skips fast.)
_CODE_OPEN = re.compile(r"```|~~~|\[code\]|\[CODE\]|<pre\b|<PRE\b")  # (no groups: faster)
_CODE_LINE = re.compile(r"[ \t>]*$")  # (what may come before the marker on its line)
_CODE_CLOSE = {"```": re.compile("```"), "~~~": re.compile("~~~"),
               "[": re.compile(r"\[/code\]", re.I), "<": re.compile("</pre>", re.I)}
# Output of openssl itself (its table's "k" values, headers, records, times): the text parser's.
# Output of openssl itself (its table's "k" values, headers, records, times): the text parser's.
# (Each pattern led by a literal or a digit: re skips to the places where it may match.)
_OPENSSL_OUTPUT = [re.compile("Doing "), re.compile(r"\d\.\d\dk\b"),
                   re.compile(r"\n[ \t]*(?:type\s|\+[A-Z]{1,3}:|(?:version|built on|options|compiler):)"),
                   re.compile(r"\d\.\d{4,}s\b"), re.compile("'numbers'"), re.compile(r"/s\b")]
_PK_TITLE = re.compile(r"(?:sign|verify|keygen|encaps|decaps|enc|dec|op)s?/s\b")
_GAP_NUMBER = re.compile(r"  +[~\u2248+-]?\d")  # (what a row of aligned values holds)
_ALIGNED_CELL = re.compile(r"[^ \t]+(?: [^ \t]+)*")  # (cells: two spaces or a TAB between)


def _aligned_tables(lines: list[str], blob: str, taken: set[int]) -> list[_Table]:
    """Space-aligned tables retyped in a block of preformatted text (a fence, ``[code]``,
    ``<pre>``): cells are separated by two spaces or more, one row per line;
    consecutive lines of two cells or more, none more than the first, are a table; a row of
    fewer cells than the first has them under the columns they overlap (a unit under each
    name: ``(MiB/s)``). openssl's own output (its ``k`` values, ``type`` header, records) is
    left to the text parser, and a cell with single spaces stays one cell (``1 013 842``: a
    number grouped by spaces, never read as three)."""
    tables: list[_Table] = []
    for first, stop, start, end in _code_blocks(blob):
        if _openssl_output(blob, start, end) or not _GAP_NUMBER.search(blob, start, end):
            continue  # (openssl's own output, or no number after a gap: no aligned table)
        rows: list[_Row] = []
        spans: list[tuple[int, int]] = []  # (the first row's columns)
        for i in range(first, stop + 1):
            line = lines[i] if i < stop and i not in taken else ""
            found = list(_ALIGNED_CELL.finditer(_unquote(line))) if "  " in line or \
                "\t" in line else []
            if len(found) >= 2 and (not rows or len(found) <= len(spans)):
                if not rows:
                    spans = [m.span() for m in found]
                rows.append(_Row(i, _under_columns(found, spans), {i}))
                continue
            if len(rows) >= 2:
                tables.append(_Table("aligned", rows[0].line, rows[-1].line, _noted_header(rows)))
            rows = []
    return tables


_NOTE_CELL = re.compile(r"^[(\[][^()\[\]]*[)\]]$")  # "(MiB/s)", "(bytes)", "[ops/s]"


def _noted_header(rows: list[_Row]) -> list[_Row]:
    """A header's second line of notes in parentheses under its names (``(bytes)``,
    ``(MiB/s)``), joined to the names above them: one header row, ``aes-128-cbc (MiB/s)``."""
    notes = rows[1].cells
    if len(rows) < 3 or not any(notes) or not all(_NOTE_CELL.match(c) for c in notes if c):
        return rows
    head = rows[0]
    notes = [f"({n[1:-1]})" if n else n for n in notes]  # ("[KiB/s]": a unit in parentheses)
    cells = [f"{c} {n}".strip() for c, n in itertools.zip_longest(head.cells, notes, fillvalue="")]
    return [_Row(head.line, cells, head.lines | rows[1].lines), *rows[2:]]


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


def _csv_tables(lines: list[str], taken: set[int]) -> list[_Table]:
    """Tables written as comma-separated values (a spreadsheet's export, a retyped table): at
    least two consecutive lines with the same number (two or more) of fields, read as the
    ``csv`` module reads them (``"6,916.78k"`` quoted keeps its comma). Prose (a blank after its
    commas), pipe and HTML tables (their digit groups) and ``key: value`` lines are no
    candidates; any other is refused later, as every candidate is (no header of sizes or
    algorithms)."""
    tables: list[_Table] = []
    block: list[int] = []
    rows = (i for i, line in enumerate(lines) if "," in line and ", " not in line and "|" not in
            line and "<" not in line and not _KEY_VALUE.match(line) and i not in taken)
    for i in [*rows, -2]:
        if block and (i != block[-1] + 1 or i < 0):
            if len(block) >= 2:
                tables += _csv_table(lines, block)
            block = []
        block.append(i)
    return tables


def _csv_table(lines: list[str], block: list[int]) -> list[_Table]:
    """The tables among consecutive lines holding commas: runs of rows of one width."""
    rows = [_Row(i, [c.strip() for c in cells], {i})
            for i, cells in zip(block, csv.reader([lines[i].rstrip(", \t") for i in block]))]
    return [_Table("csv", group[0].line, group[-1].line, group)
            for _, run in itertools.groupby(rows, key=lambda r: len(r.cells))
            if len(group := list(run)) >= 2 and len(group[0].cells) >= 2]


class _HTMLTableParser(HTMLParser):
    """Collects ``<table>`` rows with the line each row starts on (nested tables kept apart)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[dict[str, Any]] = []
        self._stack: list[dict[str, Any]] = []
        self._cell: list[str] | None = None
        self._span = self._rows = 1  # (the open cell's colspan and rowspan)
        self._sup = False  # (inside a <sup> after a value)
        self._caption: list[str] | None = None

    def _line(self) -> int:
        return self.getpos()[0] - 1

    def _end_cell(self) -> None:
        if self._cell is not None and self._stack and self._stack[-1]["row"] is not None:
            table = self._stack[-1]
            cells = table["row"]["cells"]
            if table["down"]:
                self._carry(table)
            text = " ".join("".join(self._cell).split())
            if self._rows > 1:  # (a cell spanning rows is in each of them, as it is shown)
                for j in range(len(cells), len(cells) + self._span):
                    table["down"][j] = [text if j == len(cells) else "", self._rows - 1]
            cells.extend([text] + [""] * (self._span - 1))
        self._cell = None

    @staticmethod
    def _carry(table: dict[str, Any]) -> None:
        """Put into the open row the cells of rows above that span down to it, where it is."""
        cells, down = table["row"]["cells"], table["down"]
        while len(cells) in down:
            j = len(cells)
            cells.append(down[j][0])
            down[j][1] -= 1
            if not down[j][1]:
                del down[j]

    def _end_row(self) -> None:
        self._end_cell()
        table = self._stack[-1] if self._stack else None
        if table is not None and table["row"] is not None:
            if table["down"]:
                self._carry(table)
            row = table["row"]
            row["end"] = self._line()
            if row["cells"]:
                table["rows"].append(row)
            table["row"] = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._end_cell()
            self._stack.append({"start": self._line(), "rows": [], "row": None, "caption": None,
                                "down": {}})  # (column -> [text, rows] of cells spanning down)
        elif not self._stack:
            return
        elif tag == "tr":
            self._end_row()
            self._stack[-1]["row"] = {"start": self._line(), "line": self._line(), "cells": []}
        elif tag in ("td", "th"):
            self._end_cell()
            row = self._stack[-1]["row"]
            if row is None:
                row = self._stack[-1]["row"] = {"start": self._line(), "line": self._line(),
                                                "cells": []}
            if not row["cells"] and self._cell is None:
                row["line"] = self._line()  # provenance: the line the values start on
            self._span = self._rows = 1
            if attrs:
                spans = dict(attrs)
                self._span, self._rows = _span(spans.get("colspan")), _span(spans.get("rowspan"))
            self._cell = []
        elif tag == "caption":
            self._caption = []
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")
        elif tag == "sup" and self._cell is not None:
            # A superscript after a value is a footnote mark ("221.7 [*]", see _row_note);
            # after a word it stays glued ("IDEAa", read by _split_footnote and tier_name).
            self._sup = bool(self._cell) and self._cell[-1].rstrip()[-1:].isdigit()
            if self._sup:
                self._cell.append(" [")

    def handle_endtag(self, tag: str) -> None:
        if not self._stack:
            return
        if tag in ("td", "th"):
            self._end_cell()
        elif tag == "sup" and self._cell is not None and self._sup:
            self._cell.append("]")
            self._sup = False
        elif tag == "tr":
            self._end_row()
        elif tag == "caption" and self._caption is not None:
            self._stack[-1]["caption"] = " ".join("".join(self._caption).split()) or None
            self._caption = None
        elif tag == "table":
            self._end_row()
            table = self._stack.pop()
            table["end"] = self._line()
            self.tables.append(table)

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        elif self._caption is not None:
            self._caption.append(data)

    def feed_plain(self, text: str) -> bool:
        """Read ``text`` as ``feed`` and ``close`` would, when it is plain markup (tags and
        text, no comment, script or odd tag): a regex tokenizer, several times faster than
        html.parser's. False, and nothing read, for any other text."""
        tags = list(_PLAIN_TAG.finditer(text))
        if len(tags) != text.count("<") or _RAW_TEXT.search(text):
            return False  # (a "<" that starts no plain token)
        pos = last = 0
        for m in tags:
            start = m.start()
            if pos < start and (self._cell is not None or self._caption is not None):
                self.handle_data(html.unescape(text[pos:start]))
            pos = m.end()
            name, attrs, empty, end = m.groups()
            tag = (end or name or "").lower()
            if tag not in _TABLE_TAGS:
                continue  # (the handlers do nothing with other tags)
            self.lineno += text.count("\n", last, start)  # (getpos(): where the tag starts)
            last = start
            if end is not None:
                self.handle_endtag(tag)
            else:
                # (only a cell's colspan and rowspan are read: others need no parsing)
                span = attrs and tag in ("td", "th") and "span" in attrs.lower()
                self.handle_starttag(tag, [(a.lower(), _attr_value(v)) for a, v in
                                           _PLAIN_ATTR.findall(attrs)] if span else [])
                if empty:
                    self.handle_endtag(tag)
        if pos < len(text):
            self.handle_data(html.unescape(text[pos:]))
        return True


def _span(value: str | None) -> int:
    """The number of columns (rows) a cell's ``colspan`` (``rowspan``) spans: 1 when not given."""
    return int(value) if value and value.strip().isdigit() else 1


_WIKI_ATTRS = re.compile(r"^\s*[\w-]+\s*=")


def _wiki_cell(cell: str) -> tuple[str, int]:
    """A MediaWiki cell ``colspan="7" | text`` -> (``text``, 7)."""
    span = 1
    if "|" in cell:
        attrs, text = cell.split("|", 1)
        if _WIKI_ATTRS.match(attrs):
            m = re.search(r"colspan\s*=\s*[\"']?(\d+)", attrs)
            span = int(m[1]) if m else 1
            cell = text
    return cell.strip(), span


def _mediawiki_tables(lines: list[str], taken: set[int]) -> list[_Table]:
    """MediaWiki table markup pasted from a wiki's editor (``{|`` ... ``|-`` ... ``|}``)."""
    tables: list[_Table] = []
    table: _Table | None = None
    row: _Row | None = None

    def end_row() -> None:
        nonlocal row
        if table is not None and row is not None and row.cells:
            table.rows.append(row)
        row = None

    for i, line in enumerate(lines):
        if i in taken:
            continue
        text = _unquote(line).strip()
        if table is None:
            if text.startswith("{|"):
                table = _Table("mediawiki", i, i, [], {i})
            continue
        table.end = i
        if text.startswith("|}"):
            end_row()
            table.markup.add(i)
            tables.append(table)
            table = None
        elif text.startswith("|-"):
            end_row()
            table.markup.add(i)
        elif text.startswith("|+"):
            table.caption = _wiki_cell(text[2:])[0] or None
            table.markup.add(i)
        elif text[:1] in ("|", "!"):
            if row is None:
                row = _Row(i, [], set())
            row.lines.add(i)
            sep = "!!" if text[0] == "!" else "||"
            for part in text[1:].replace("||", sep).split(sep):
                cell, span = _wiki_cell(part)
                row.cells.extend([cell] + [""] * (span - 1))
        elif row is not None and row.cells and text:
            row.cells[-1] = f"{row.cells[-1]} {text}"  # a cell's text continued on the next line
            row.lines.add(i)
        else:
            table.markup.add(i)
    return tables


# Plain markup, which the quick route below reads as html.parser does: a start tag with plain
# attributes (its name, attributes and the "/" of an empty tag), an end tag or a doctype. Any
# other "<" (a comment, a stray "<", odd attributes) is no token: such text goes to html.parser.
_PLAIN_TAG = re.compile(r"<(?:([a-zA-Z][^\t\n\r\f />\x00<]*)((?:\s+[a-zA-Z_:][-.\w:]*"
                        r"(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*(/?)>"
                        r"|/([a-zA-Z][-.a-zA-Z0-9:_]*)\s*>|!(?i:doctype)[^<>]*>)")
_PLAIN_ATTR = re.compile(r"([a-zA-Z_:][-.\w:]*)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")
_TABLE_TAGS = frozenset({"table", "tr", "td", "th", "caption", "br", "sup"})  # what the handlers use
_RAW_TEXT = re.compile(r"<(?:script|style)", re.IGNORECASE)  # (html.parser: text, not markup)


def _attr_value(value: str) -> str | None:
    """An attribute's value as html.parser gives it (None when the attribute has no value)."""
    if not value:
        return None
    if value[0] in "\"'":
        value = value[1:-1]
    return html.unescape(value) if value else value


def _html_tables(lines: list[str]) -> list[_Table]:
    parser = _HTMLTableParser()
    text = "\n".join(_unquote(line) for line in lines)
    if not parser.feed_plain(text):
        parser.feed(text)
        parser.close()
    tables = []
    for t in parser.tables:
        if "end" not in t:
            continue
        rows = [_Row(r["line"], r["cells"], set(range(r["start"], r["end"] + 1)))
                for r in t["rows"]]
        in_rows = set().union(*(r.lines for r in rows)) if rows else set()
        markup = set(range(t["start"], t["end"] + 1)) - in_rows
        tables.append(_Table("html", t["start"], t["end"], rows, markup, t["caption"]))
    # Keep the outermost tables only; a nested table's rows are read inside its parent's span.
    outer = [t for t in tables
             if not any(o is not t and o.start <= t.start and t.end <= o.end for o in tables)]
    return outer


# --------------------------------------------------------------------------------------------
# Prose context


_LABEL_REACH = 40  # lines of prose above a table that may hold its label
_BELOW_REACH = 3  # lines of prose below a table that may state its unit or footnotes
_STARTS_TABLE = re.compile(r"\||\t|<table|```|~~~|\[code\]|<pre", re.IGNORECASE)  # (a line that may)
_SUP = re.compile(r"<sup>\s*([^<\s]{1,3})\s*</sup>", re.IGNORECASE)  # (a footnote mark: "[1]")
# A footnote: its mark, then its text ("* thermal throttling", "[1]: turbo off", "† est.").
_FOOTNOTE_LINE = re.compile(rf"^({FOOTNOTE_MARK}):?\s*(\S.*)$")


def _read_first(name: str) -> property:
    """A fact of the prose, once the prose not read yet is read (see ``_Context._read``)."""
    def get(context: _Context) -> Any:
        context._read()
        return getattr(context, name)
    return property(get)


@dataclass
class _Context:
    """Facts collected from the prose above a table; the nearest statement wins.

    The prose is read when a table first asks what it states: most prose lies above tables
    that are not benchmark tables (a shell session, a /proc/cpuinfo dump), and costs nothing.
    """

    lines: list[str]  # the document's
    plain_large: list[int] = field(default_factory=list)  # 0-based lines, for one warning
    unknown: list[int] = field(default_factory=list)  # 0-based lines of cells of unknown unit
    clash: list[int] = field(default_factory=list)  # ... of cells with k under another stated unit
    # Prose taken but not read yet: for its facts, its label, the algorithms it names.
    _unread: list[tuple[int, int]] = field(default_factory=list)
    _unlabelled: list[tuple[int, int]] = field(default_factory=list)
    _unnamed: list[tuple[int, int]] = field(default_factory=list)
    _facts: dict[str, Any] = field(default_factory=dict)
    _heading: str | None = None
    _block_bytes: int | None = None
    _unit: float | None = None  # bytes/s per unit of plain numbers, as the prose states it
    _unit_all: float | None = None  # the unit the prose states for every table below it
    _sizes: bool = False  # the prose says the table's bare numbers are block sizes
    _named: dict[str, None] = field(default_factory=dict)
    _label: tuple[str | None] | None = None  # (the label of the prose taken so far), once found

    def read_prose(self, start: int, stop: int) -> None:
        """Take ``lines[start:stop]`` as prose (read, line by line in effect, when asked)."""
        if start < stop:
            self._unread.append((start, stop))
            self._unlabelled.append((start, stop))
            self._unnamed.append((start, stop))
            self._label = None

    facts = _read_first("_facts")
    heading = _read_first("_heading")
    block_bytes = _read_first("_block_bytes")
    unit = _read_first("_unit")
    sizes_stated = _read_first("_sizes")

    @property
    def label(self) -> str | None:
        """The label the prose since the last table gives the next one: that of its nearest
        line that names a run (:func:`~cipherlab.readers._context.label_above`), looked for
        from the end among the last ``_LABEL_REACH`` lines of prose (once: each run of a
        table with sections asks)."""
        if self._label is None:
            nearest = (_prose_text(self.lines[i]) for start, stop in reversed(self._unlabelled)
                       for i in range(stop - 1, start - 1, -1))
            above = list(itertools.islice(filter(None, nearest), _LABEL_REACH))
            self._label = (label_above(above[::-1]),)
        return self._label[0]

    @property
    def last_line(self) -> str | None:
        """The last short line of the prose since the last table (looked for from the end)."""
        for start, stop in reversed(self._unlabelled):
            label = next(filter(None, map(_label, reversed(self.lines[start:stop]))), None)
            if label:
                return label
        return None

    def _read(self) -> None:
        """The facts of the prose not read yet. Most lines state none: one search over a span
        finds those that may; the heading is the last one, looked for from the end."""
        for start, stop in self._unread:
            low = "\n".join(self.lines[start:stop]).lower()
            for i in lines_with(_PROSE_HINT, low, start):
                self._read_facts(_prose_text(self.lines[i]))
            for i in reversed(lines_with(_HEADING_HINT, low, start)):
                m = _HEADING.match(_prose_text(self.lines[i]))
                if m:  # (an issue template's section names no run, but ends the one above)
                    self._heading = None if TEMPLATE_SECTION.match(m[1]) else m[1]
                    break
        self._unread = []

    def _read_facts(self, text: str) -> None:
        low = text.lower()
        if _FACT_HINT.search(low):
            facts = _facts(text)
            if "machine" in facts:
                self._facts.pop("cpu", None)
                self._facts.pop("clock_hz", None)
            self._facts.update(facts)
        self._block_bytes = block_size_in_prose(text) or self._block_bytes  # ("16 KiB blocks")
        if _UNIT_HINT.search(low):
            unit = stated_unit(text)
            self._unit = unit or self._unit
            if unit and _FOR_ALL_TABLES.search(text):
                self._unit_all = unit  # ("All numbers below are MB/s": every table's below)
        if "size" in low:
            self._sizes = self._sizes or _SIZES_STATED.search(text) is not None

    @property
    def named(self) -> dict[str, None]:
        """The algorithms the prose since the last table names, in order (read when asked)."""
        for start, stop in self._unnamed:
            for line in self.lines[start:stop]:
                text = _prose_text(line) if _DIGIT_HINT.search(line) else ""
                if _DIGIT.search(text):
                    self._named.update(dict.fromkeys(named_algorithms(text)))
        self._unnamed = []
        return self._named

    def after_table(self) -> None:
        # A label belongs to the table right below it; the facts (version, machine) stay in
        # force until the prose says otherwise.
        self._read()  # (the facts stay: they are read before the label, heading, unit go)
        self._heading, self._unit = None, self._unit_all
        self._sizes = False
        self._unlabelled, self._unnamed, self._named, self._label = [], [], {}, None

    def meta(self, dialect: str, caption: str | None) -> dict[str, Any]:
        meta: dict[str, Any] = {"dialect": dialect}
        for key in ("tool", "tool_version", "timing", "cpu", "clock_hz", "compiler"):
            if self.facts.get(key) is not None:
                meta[key] = self.facts[key]
        meta["label"] = caption or self.heading or self.facts.get("machine") or self.label
        return meta


def lines_with(what: str | re.Pattern, text: str, first: int = 0) -> list[int]:
    """The indices of the lines of ``text`` (lines joined by newlines, numbered from ``first``)
    that hold ``what`` (a word, or a pattern's match): one search per such line, no Python step
    for the others.

    >>> lines_with("bytes", "type 16 bytes\\nmd5 1.00k\\n64 bytes"), lines_with(_DIGIT, "a\\nb1", 5)
    ([0, 2], [6])
    """
    found, i, pos = [], first, 0
    while True:
        if isinstance(what, str):
            at = text.find(what, pos)
        else:
            m = what.search(text, pos)
            at = -1 if m is None else m.start()
        if at < 0:
            return found
        i += text.count("\n", pos, at)
        found.append(i)
        pos = text.find("\n", at) + 1
        if not pos:
            return found
        i += 1


def _label(line: str) -> str | None:
    """The label a line of prose gives the table below it, if it can be one (short, no command)."""
    text = _prose_text(line)
    if text and len(text) <= 80 and "speed" not in text.lower() and not text.startswith(("$", "#")):
        return text.lstrip("-*\u2022 ").rstrip(":").strip() or None
    return None


def _prose_text(line: str) -> str:
    """A line of prose as its facts are read: unquoted, without tags, one space between words."""
    text = _unquote(line)
    if "<" in text:
        text = _TAG.sub(" ", text)
    if "&" in text:
        text = html.unescape(text)
    return " ".join(text.split())


def _facts(text: str) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    # (a word each pattern needs is looked for first: most lines hold few. Beyond ASCII,
    # ignoring case is more than lower(): there every pattern is tried)
    low, every = text.lower(), not text.isascii()
    # (of two versions in a sentence, the last is nearest the table: "LibreSSL 3.3.6 is what
    # macOS ships, so I used OpenSSL 3.3.1")
    versions = _VERSION.findall(text) if every or "ssl" in low else None
    if versions:
        facts["tool"] = versions[-1][0].lower()
        facts["tool_version"] = versions[-1][1]
    elif (every or "openssl" in low) and _OPENSSL.search(text):
        facts["tool"] = "openssl"
    if (every or "speed" in low) and _SPEED_COMMAND.search(text) and _ELAPSED.search(text):
        facts["timing"] = "elapsed"
    m = _AWS.search(text) if "AWS" in text else None
    if m:
        facts["machine"] = f"AWS {m[1]}"
    cpu = prose_cpu(text)
    if cpu:
        facts.update(cpu)
    m = _GCC.search(text) if every or "gcc" in low else None
    if m:
        facts["compiler"] = f"gcc {m[1]}"
    return facts


def prose_cpu(text: str) -> dict[str, Any]:
    """``cpu`` and ``clock_hz`` from prose that names one CPU (``i7-4770 CPU @ 3.40GHz``).

    The name is a family word (``Xeon``, ``EPYC``, ``Cortex-A76``), or a vendor followed by a
    family or a model number, with the words after it while they look like a model's (a capital
    or a digit first: ``Xeon Gold 6230``, ``Ryzen 5 3600``); a lower-case word, punctuation or a
    clock ends it. The clock is the one written right after the name (``@ 2.4GHz``, ``1.8GHz``,
    ``(2.4 GHz)``); without a CPU name, a short capitalised phrase right before ``@ <clock>``
    names the machine (``Raspberry Pi 4 @ 1.5GHz``). Prose naming two CPUs (two machines
    compared in one sentence) gives neither: which row ran on which cannot be known here.

    >>> prose_cpu("On an Intel(R) Xeon(R) CPU E5-2680 v2 @ 2.80GHz box")
    {'cpu': 'Intel Xeon CPU E5-2680 v2', 'clock_hz': 2800000000.0}
    >>> prose_cpu("Running on the new EPYC 9654 box"), prose_cpu("Intel Advanced Encryption Standard")
    ({'cpu': 'EPYC 9654'}, {})
    >>> prose_cpu("a Pi 5 (Cortex-A76 @ 2.4GHz) and a Pi 4 (Cortex-A72 @ 1.8GHz)")
    {}
    """
    text = _TRADEMARK.sub("", text)
    if "@" not in text and not _CPU_HINT.search(text):
        return {}  # (no CPU word and no clock, the common case: one quick search says so)
    found: list[tuple[str, float | None, int]] = []  # (name, clock, where it ends)
    for m in _CPU_START.finditer(text):
        if found and m.start() < found[-1][2]:
            continue  # (a word inside the name just read)
        got = _cpu_at(text, m)
        if got is not None:
            found.append(got)
    if len({name for name, _, _ in found}) > 1:
        return {}
    if found:
        name, clock, _ = found[0]
        return {"cpu": name} if clock is None else {"cpu": name, "clock_hz": clock}
    c = _CLOCK.search(text)
    if c is None or _CLOCK.search(text, c.end()):
        return {}
    phrase = _NAME_END.split(text[: c.start()])[-1].strip(" -*")
    if not phrase or not (phrase[0].isupper() or phrase[0].isdigit()) or len(phrase.split()) > 4:
        return {}
    return {"cpu": phrase, "clock_hz": _hz(c[1], c[2])}


def _cpu_at(text: str, m: re.Match) -> tuple[str, float | None, int] | None:
    """The CPU name starting at ``m`` (a :data:`_CPU_START` match), its clock and where it
    ends, or None when the words there name no CPU (a vendor's technology, a common word)."""
    head = _NAME_END.search(text, m.start())
    stop = head.start() if head else len(text)
    words, clock, end = [], None, m.start()
    for w in itertools.islice(_WORD.finditer(text, m.start(), stop), 7):
        word = w[0]
        c = _CLOCK_WORD.match(word)
        if words and c is not None and (word[0].isdigit() or word[0] == "("):
            clock = _hz(c[1], c[2])
            break
        if words and not (word[0].isupper() or any(ch.isdigit() for ch in word)):
            break  # (a model number may start in lower case: "i7-4770", "v2")
        words.append(word)
        end = w.end()
    tail = words[1:]
    named = (m["family"] is not None
             or any(ch.isdigit() for w in tail for ch in w)
             or (m["vendor"] is not None and any(_IS_FAMILY.match(w) for w in tail)))
    if not named:
        return None
    if clock is None:
        c = _CLOCK_NEXT.match(text, end)
        clock = _hz(c[1], c[2]) if c else None
    return " ".join(words), clock, end


def _hz(value: str, prefix: str) -> float:
    return float(value) * (1e9 if prefix.upper() == "G" else 1e6)


# --------------------------------------------------------------------------------------------
# Reading one table


@dataclass
class _Header:
    kind: str                         # "sizes" (rows = algorithms) or "transposed"
    name_col: int
    sizes: dict[int, int]             # column -> block bytes ("sizes")
    conditions: dict[int, str]        # column -> condition name
    algorithms: dict[int, str]        # column -> name as printed ("transposed")
    block_bytes: int | None = None    # the one block size of a transposed table
    width: int = 0                    # number of header cells: data rows are padded to it
    unit: float | None = None         # bytes/s per unit of plain numbers, stated by the text
    units: dict[int, float] = field(default_factory=dict)  # column -> unit its title states
    has_k: bool = False               # a cell under this header has openssl's "k"
    ranged: set[int] = field(default_factory=set)  # rows with a range in a value cell
    plain: list[tuple[dict[str, Any], str, int, int]] = field(default_factory=list)
    # (cells without k: cell, text, row index, column)
    k_cells: list[tuple[dict[str, Any], str, int, int]] = field(default_factory=list)  # (with k)

    @functools.cached_property
    def named_columns(self) -> dict[int, tuple[str, str, str | None, list[str]]]:
        """Each algorithm column's name as printed, its algorithm, operation and footnotes."""
        out = {}
        for j, printed in self.algorithms.items():
            bare, notes = _split_footnote(printed)
            out[j] = (printed, *canonical(bare), notes)
        return out


def _condition_key(header: str) -> str:
    low = header.lower()
    if re.search(r"aes[\s_-]?ni", low):
        return "aesni"
    return re.sub(r"[^a-z0-9]+", "_", low).strip("_") or "condition"


def _condition_value(key: str, cell: str) -> str | None:
    if not cell:
        return None
    if key == "aesni":
        low = cell.lower()
        if low in YES:
            return "on"
        if low in NO:
            return "off"
    return cell


def _header(cells: list[str], context: _Context, dialect: str,
            hint_above: bool = False) -> _Header | None:
    """The header a row starts, or None.

    ``hint_above``: the row above was a section row about block sizes ("Block size (bytes)"),
    so bare numbers here are sizes, as in a two-level HTML header.
    """
    cleaned = cells
    sizes = {}
    for j, c in enumerate(cleaned):
        # (a header naming a block size: "16 bytes", "8192 Bytes", "1,024 B", "8 KB", "16 bytes (kB/s)")
        size = block_size(c) if c and c[-1] in "sSBeE)]" else None
        if size is not None:
            sizes[j] = size
    if not sizes:
        ints = {j: c for j, c in enumerate(cleaned)
                if c.isdecimal() or "," in c and INTEGER.match(c)}  # (isdecimal: a regex less)
        words = [c for j, c in enumerate(cleaned) if j not in ints]
        if len(ints) >= 2 and words and (hint_above or any(_SIZE_HINT.search(c) for c in words)
                                         or context.sizes_stated):  # ("Sizes in bytes" above)
            sizes = {j: int(c.replace(",", "")) for j, c in ints.items()}
    if sizes:
        others = [j for j in range(len(cleaned)) if j not in sizes]
        if not others or len(set(sizes.values())) < len(sizes):
            return None  # (one size twice: columns under a spanning header, read by _grids)
        name_col = next((j for j in others if cleaned[j].lower() in _NAME_HEADERS), others[0])
        if any(RUN_HEADER.match(cleaned[j]) for j in others):
            return None  # (rows of hosts or versions, not of algorithms: a grid, read by _grids)
        conditions = {j: _condition_key(cleaned[j]) for j in others
                      if j != name_col and cleaned[j]}
        return _Header("sizes", name_col, sizes, conditions, {}, width=len(cleaned))
    # A blank corner cell is normal in a marked-up table; in a TAB paste it is what openssl's
    # own public-key header ("\t\tsign\tverify\tsign/s") looks like, so it is not taken there.
    corner_ok = cleaned[0].lower() in _TIER_HEADERS and (cleaned[0] or dialect != "tabs")
    if (len(cleaned) >= 3 and corner_ok and context.block_bytes
            and all(c and _value(c) is None and not is_derived(c) for c in cleaned[1:])):
        key = "tier" if cleaned[0].lower() not in ("engine", "provider", "build") else \
            _condition_key(cleaned[0])
        return _Header("transposed", 0, {}, {0: key},
                       {j: c for j, c in enumerate(cleaned) if j > 0},
                       block_bytes=context.block_bytes, width=len(cleaned))
    return None


def _split_footnote(name: str) -> tuple[str, list[str]]:
    """``IDEAa CBC`` -> (``IDEA CBC``, [``a``]): footnote letters glued to upper-case words."""
    words, notes = [], []
    for word in name.split():
        m = _NAME_FOOTNOTE.match(word)
        if m:
            word, notes = m[1], notes + m[2].split(",")
        words.append(word)
    return " ".join(words), notes


def _title(cells: list[str]) -> str | None:
    """The text of a section row: one filled cell (usually spanning the table), not a number."""
    filled = [c for c in cells if c]
    if len(filled) == 1 and _value(filled[0]) is None:
        return filled[0]
    return None


@dataclass
class _Section:
    """Section rows seen inside a table: a machine (or other) row, then a version row."""

    machine: str | None = None
    version: str | None = None

    def read(self, title: str) -> None:
        if _VERSION.search(title):
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
            m = _VERSION.search(self.version)
            meta["tool"], meta["tool_version"] = m[1].lower(), m[2]
        label = " / ".join(t for t in (self.machine, self.version) if t)
        if label:
            meta["label"] = label
        return meta


def _read_table(table: _Table, context: _Context) -> tuple[list[Run], set[int], list[int]]:
    runs: list[Run] = []
    used: set[int] = set()
    bad: list[int] = []  # rows under a header that hold numbers but cannot be read
    header: _Header | None = None
    section = _Section()
    run: Run | None = None
    hint_above = False
    above: list[str] = []  # a row of titles spanning the header below it ("Throughput (MB/s)")
    for row in table.rows:
        cells = row.clean_cells
        if not any(cells):
            used |= row.lines
            continue
        new_header = _header(cells, context, table.dialect, hint_above)
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
            _read_units(header, cells, table.caption, context)  # ("(MiB/s)" under each title)
            used |= row.lines
            continue
        title = _title(cells)
        if title is not None:
            if _SIZE_HINT.search(title) and not _VERSION.search(title):
                hint_above = True  # "Block size (bytes)" above a row of bare sizes
                used |= row.lines
                continue
            if not ALGORITHM_CLASS.match(title):  # ("Hashes" groups rows of one run)
                section.read(title)
                run = None
            used |= row.lines
            continue
        if header is None:
            above = [] if _DIGIT.search("".join(cells)) else cells
            continue
        if is_derived(cells[header.name_col]):  # ("Speed-up", "Total": of the rows above)
            used |= row.lines
            continue
        found = _row_cells(row.line, cells, header)
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
            meta = context.meta(table.dialect, table.caption)
            meta.update({k: v for k, v in section.meta().items()})
            meta = {k: v for k, v in meta.items() if v is not None}
            run = Run(meta=meta)
            runs.append(run)
        run.cells.extend(cells)
        used |= row.lines
    _finish(header, context)
    if not runs:
        return [], set(), bad
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
    return len(filled) >= 1 and all(_UNIT_HINT.search(c.lower()) and stated_unit(c) is not None
                                    and not _DIGIT.search(c) for c in filled)


def _read_grid(table: _Table, context: _Context) -> tuple[list[Run], set[int], list[int]]:
    """A table in another orientation (:mod:`._grids`): one run per run its labels name."""
    rows = [(r.line, r.clean_cells) for r in table.rows if any(r.cells)]
    if table.dialect == "tabs" and rows and not rows[0][1][0]:
        return [], set(), []  # openssl's own public-key header, TAB-indented: the text parser's
    if table.dialect == "csv" and not measured_columns_only(rows, _cell_value):
        return [], set(), []  # a data file's fields (or builds: a CSV cannot tell), not read
    got = read_grid(rows, context, _cell_value, table.caption)
    if got is None:
        return [], set(), []
    groups, bad, titles = got
    columns = {j: c for j, c in enumerate(titles) if j}  # a unit in one is that column's
    header = _Header("grid", 0, {}, {}, columns)
    _read_units(header, titles, table, context)
    notes = {r.line + 1: r.note for r in table.rows if r.note}
    runs = []
    for key, cells in groups.items():
        meta = context.meta(table.dialect, table.caption)
        names = [k for k in key if k]
        for name in names:  # a version, a library, a CPU ("EPYC 7763", "i7-4770 @ 3.40GHz")
            meta.update(run_meta(name))
            meta.update(prose_cpu(name))
        if names:
            meta["label"] = " / ".join(names)
        elif meta.get("label") and _names_only(meta["label"]):
            meta["label"] = None  # ("**chacha20 256** (KB/s)" titles the grid's algorithm, no run)
        run = Run(meta={k: v for k, v in meta.items() if v is not None})
        for cell, ops, text, col in cells:
            _add_note([cell], notes.get(cell["line"]))
            if ops:
                cell["ops_per_s"] = _value(text)
            else:
                cell["bytes_per_s"] = _cell_value(text)
                _note_unit(header, cell, text, cell["line"] - 1, col)
            run.cells.append(cell)
        runs.append(run)
    _finish(header, context)
    used = {r.line for r in table.rows} | table.markup
    return runs, used - set(bad), bad


def _read_units(header: _Header, cells: list[str], table: _Table, context: _Context) -> None:
    """The units a header row, its table's caption, the prose above and, where those say
    nothing, the caption or sentence right below it state ("Figures in MB/s"; not a line that
    introduces what follows it, ending in ':')."""
    for j, c in enumerate(cells):
        unit = stated_unit(c) if _UNIT_HINT.search(c.lower()) else None
        if unit is not None:
            if j in header.sizes or j in header.algorithms:
                header.units[j] = unit  # "16 bytes (MB/s)": that column's
            else:
                header.unit = unit  # "Throughput (MB/s)" over the name column: every column's
    caption = table.caption
    header.unit = header.unit or (stated_unit(caption) if caption else None) or context.unit
    if header.unit is None:
        below = " ".join(table.below)  # (the paragraph: a mail client may have wrapped it)
        if below and not below.endswith(":") and _UNIT_HINT.search(below.lower()):
            header.unit = stated_unit(below)


def _finish(header: _Header | None, context: _Context) -> None:
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
        if unit is None:
            if cell["bytes_per_s"]:  # (0 is openssl's "not measured" in any unit)
                cell["flag"] = FLAG_UNIT_UNKNOWN
                context.unknown.append(index)
        elif unit == 1e3:
            cell["bytes_per_s"] = _value(text + "k")  # (exact decimal scaling, as for k)
        else:
            cell["bytes_per_s"] *= unit
    header.plain = []


def _note_unit(header: _Header, cell: dict[str, Any], text: str, index: int,
               col: int) -> dict[str, Any]:
    if text[-1:] in ("k", "K"):
        header.has_k = True
        header.k_cells.append((cell, text, index, col))
    elif value_with_unit(text) is None:
        header.plain.append((cell, text, index, col))
    return cell


def _row_cells(index: int, cells: list[str], header: _Header) -> list[dict[str, Any]] | None:
    """The cells of one data row (cleaned text), or None when it cannot be read as measurements."""

    if len(cells) < header.width:
        cells = cells + [""] * (header.width - len(cells))
    at = cells.__getitem__
    out: list[dict[str, Any]] = []
    texts: list[str] = []  # the value text of each cell in ``out``
    if header.kind == "sizes":
        name = at(header.name_col)
        if not name or _value(name) is not None:
            return None
        conditions = {key: _condition_value(key, at(j)) for j, key in header.conditions.items()}
        algorithm, operation = canonical(name)
        if made_up(algorithm):  # ("md5 1024", "ecdsa 256": no such algorithm; never guessed)
            conditions["flag"] = FLAG_NAME_UNCLEAR
        for j, size in header.sizes.items():
            if at(j).lower() in _BLANK_CELLS:
                continue
            value = _cell_value(at(j))
            if value is None:
                if _ranged(header, at(j), index):
                    continue
                return None
            out.append({"line": index + 1, "algorithm": algorithm, "operation": operation,
                        "name": name, "block_bytes": size, "bytes_per_s": value, **conditions})
            texts.append((at(j), j))
        return _noted(header, out, texts, index)
    key = header.conditions[0]
    method = at(0)
    if not method or _value(method) is not None:
        return None
    if key == "tier":
        tier, note = tier_name(method)
        row_notes = note.split(",") if note else []
    else:
        tier, row_notes = method, []
    for j, (printed, algorithm, operation, name_notes) in header.named_columns.items():
        if at(j).lower() in _BLANK_CELLS:
            continue
        value = _cell_value(at(j))
        if value is None:
            if _ranged(header, at(j), index):
                continue
            return None
        texts.append((at(j), j))
        notes = sorted(set(row_notes + name_notes))
        out.append({"line": index + 1, "algorithm": algorithm, "operation": operation,
                    "name": printed, "block_bytes": header.block_bytes, "bytes_per_s": value,
                    key: tier, "note": ",".join(notes) if notes else None})
    return _noted(header, out, texts, index)


def _ranged(header: _Header, cell: str, index: int) -> bool:
    """Whether a cell that is no number gives a range ("4201.3\u20134350.8"): no one value, so
    the row's other cells are read and the row is reported (``header.ranged``)."""
    if is_range(cell):
        header.ranged.add(index)
        return True
    return False


def _cell_value(cell: str) -> float | None:
    """A data cell's number: openssl's (``k`` or plain, unit settled later) or with its unit."""
    value = _value(cell)
    return value if value is not None else value_with_unit(cell)


def _add_note(cells: list[dict[str, Any]], note: str | None) -> None:
    for cell in cells if note else ():
        cell["note"] = f"{cell['note']}; {note}" if cell.get("note") else note


def _noted(header: _Header, out: list[dict[str, Any]], texts: list[tuple[str, int]],
           index: int) -> list[dict[str, Any]] | None:
    # Only rows that are read register their cells' units (an unreadable row adds nothing).
    for cell, (text, col) in zip(out, texts):
        _note_unit(header, cell, text, index, col)
    return out or None
