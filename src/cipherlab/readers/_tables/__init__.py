"""Tables shaped like ``openssl speed`` output inside documents: Markdown, HTML, wiki pastes.

Why this module exists: people rarely paste ``openssl speed``'s own text table into a wiki or a
report. They retype it as a Markdown pipe table, an HTML ``<table>`` or MediaWiki markup
(``{| ... |}``), or copy a rendered wiki table, which arrives as tab-separated cells, or align
it with spaces in a block of preformatted text (a fence, ``[code]``, ``<pre>``). Rows are
algorithms and columns are block sizes (``16 bytes``), cells keep openssl's ``k`` suffix (x1000
bytes/s) and sometimes gain thousands separators (``6,916.78k``); the condition the author
varied becomes an extra column (the AWS wiki's ``AES-NI Enabled``). Some pages transpose the
table: rows are implementation tiers (``no-asm``, ``asm``, ``Kernel``), columns are algorithms,
and the single block size is stated in the prose (``Using the results for 8,192 byte blocks``).

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

The package, one job a module: the finders of tables in each markup (:mod:`._pipes` Markdown,
Jira, org/rst rules and MediaWiki; :mod:`._html` ``<table>``; :mod:`._plain` TABs, CSV and
space-aligned cells in code blocks) make :class:`~._cells.Table` s of raw cells; :mod:`._cells`
says what a cell holds; :mod:`._prose` and :mod:`._facts` what the text around a table states;
:mod:`._header` what a header row says; :mod:`._read` builds the runs and settles the units.
This module finds, orders and reads them (:func:`find_tables`) and warns about what it could
not read.
"""

from __future__ import annotations

import warnings

from cipherlab.model import Run
from cipherlab.readers._names import canonical, is_known
from cipherlab.readers._tables._cells import (DIALECTS, Table, clean_value, may_hold_measurements,
                                              parse_value, plain_numbers, unfolded)
from cipherlab.readers._tables._facts import prose_cpu
from cipherlab.readers._tables._header import tier_name
from cipherlab.readers._tables._html import html_tables
from cipherlab.readers._tables._latex import latex_tables
from cipherlab.readers._tables._pipes import asciidoc_tables, markdown_tables, mediawiki_tables
from cipherlab.readers._tables._plain import aligned_tables, csv_tables, tab_tables
from cipherlab.readers._tables._prose import Context, lines_with
from cipherlab.readers._tables._read import by_process_count, read_grid_table, read_table
from cipherlab.readers._text import LineWarning
from cipherlab.readers._units import FLAG_UNIT_UNKNOWN

__all__ = ["DIALECTS", "find_tables", "lines_with", "parse_value", "prose_cpu", "tier_name"]

# The finders in order: ``(lines, blob, taken)`` -> the tables among the lines not taken.
_FINDERS = (html_tables, latex_tables, mediawiki_tables, asciidoc_tables, markdown_tables, tab_tables,
            csv_tables, aligned_tables)


# What the unit checks of :class:`Context` say about the cells they collected ({lines}: theirs).
_NO_UNIT = (
    "{source}: table cells at line(s) {lines} have no unit: no 'k' and nothing in the table or "
    "the text above it says what the numbers are (1000s of bytes per second, MB/s, ...); they "
    f"are kept as printed and flagged '{FLAG_UNIT_UNKNOWN}'. State the unit above the table or "
    "in its header to read them.")
_K_AND_UNIT = (
    "{source}: table cells at line(s) {lines} mix openssl's 'k' with a unit the text states for "
    "them (MB/s, GB/s, ...): whether '1.5k' is 1500 bytes/s or 1.5 thousand of that unit cannot "
    f"be known; they are flagged '{FLAG_UNIT_UNKNOWN}'.")
_PLAIN_LARGE = (
    "{source}: table cells without 'k' above 10000 at line(s) {lines} were read as bytes/s. "
    "openssl prints such values with 'k' (1000s of bytes/s), so this table was retyped; if its "
    "numbers are 1000s of bytes per second, add the 'k' or say so above the table (e.g. 'in "
    "1000s of bytes per second').")


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
    # Each finder first asks whether its markup is in the text at all (one memchr in C: most
    # documents are openssl text with no table, and they must cost next to nothing here).
    blob = "\n".join(lines)
    tables: list[Table] = []
    taken: set[int] = set()  # (the lines of the tables found: no other finder's)
    for find in _FINDERS:
        found = find(lines, blob, taken)
        tables += found
        taken.update(*(t.span for t in found))
    if not any(may_hold_measurements(t) for t in tables):
        return [], set()
    # (of tables starting on the same line, the last found is read; one starting inside the
    # table read before it is that table's)
    tables = list({t.start: t for t in sorted(tables, key=lambda t: t.start)}.values())

    runs: list[Run] = []
    consumed: set[int] = set()
    context = Context(lines)
    done = 0  # the lines above this one are read, as prose or as a table
    for table in tables:
        if table.start < done:
            continue
        context.read_prose(done, table.start)
        done = table.end + 1
        found, used, bad = [], set(), []
        if may_hold_measurements(table):
            table = unfolded(table)
            table.lines = lines
            plain_numbers(table)
            found, used, bad = read_table(table, context)
            if not found:  # not openssl's orientation: perhaps another one (_grids)
                found, used, grid_bad = read_grid_table(table, context)
                bad = grid_bad if found or grid_bad else bad
        if not (found or used or bad) and table.dialect == "csv":
            bad = _measured_rows(table)  # (no other reader reads a data file's rows: reported)
        if unplaced is not None:
            ragged = sorted(table.ragged) if found else []  # (only a table read has rows cut short)
            unplaced.extend((j + 1, lines[j]) for j in dict.fromkeys([*bad, *sorted(table.unclear), *ragged]))
        if found or used:  # (no run, but lines used: a table of derived figures, recognised)
            _switched_cells_keep_no_mask(found)
            runs.extend(by_process_count(found))
            consumed |= used
            context.after_table()
        else:
            # Not an openssl-shaped table: its text is prose (it may still name a machine).
            context.read_prose(table.start, done)
    for cells, message in ((context.unknown, _NO_UNIT), (context.clash, _K_AND_UNIT),
                           (context.plain_large, _PLAIN_LARGE)):
        if cells:
            warnings.warn(LineWarning(message.format(source=source, lines="{lines}"), cells),
                          stacklevel=2)
    return runs, consumed


def _measured_rows(table: Table) -> list[int]:
    """The rows (0-based lines) of a table no reader could read that look like measurements:
    a cell naming a known algorithm, another holding a number (other programs' tables, of
    disks or memory, name none)."""
    rows = []
    for row in table.rows[1:]:
        cells = row.clean_cells
        named = [k for k, c in enumerate(cells) if c and is_known(canonical(c)[0])]
        if named and any(clean_value(c) is not None for k, c in enumerate(cells) if k not in named):
            rows.append(row.line)
    return rows


_SWITCHED = ("aesni", "vaes", "avx", "shani", "shaext", "pclmul", "isa")  # (_names.switch's keys)


def _switched_cells_keep_no_mask(runs: list[Run]) -> None:
    """An ``OPENSSL_ia32cap`` value the caption above a table states is the table's runs' unless
    its cells switch a CPU feature themselves (an "AES-NI on" and an "AES-NI off" column: the
    mask masked one of them, not the table; which one the cells' condition says)."""
    if any("isa_mask" in run.meta for run in runs) and any(
            key.startswith(_SWITCHED) for run in runs for cell in run.cells for key in cell):
        for run in runs:
            run.meta.pop("isa_mask", None)
