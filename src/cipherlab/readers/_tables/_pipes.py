"""Finders of tables drawn with pipes: Markdown (GitHub, Notion, Obsidian), Jira/Confluence
``||`` headers, org-mode and reStructuredText grid rules (``|----+----|``, ``+====+``),
MediaWiki markup pasted from a wiki's editor (``{|`` ... ``|-`` ... ``|}``) and AsciiDoc
(``|===`` ... ``|===``, a cell a line or a row a line, its ``.Title`` the caption).

Each finder returns the :class:`~._cells.Table` s of raw cells among the lines not ``taken``
by a finder before it; reading them is :mod:`._read`'s job.
"""

from __future__ import annotations

import re

from cipherlab.readers._tables._cells import Row, Table
from cipherlab.readers._tables._prose import unquote

_SEPARATOR_CELL = re.compile(r"^:?-{1,}:?$")
_RULE_LINE = re.compile(r"^\s*[|+]?[-=:]+(?:[+|][-=:]+)*[+|]?\s*$")


_PIPE = re.compile(r"(?<!\\)\|")  # a cell border (an escaped "\|" is text)


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


_GRID_RULE = "\0rule"  # (a cell of a reST grid line that is a rule: the cell above ends)
_GRID_JOINT = re.compile(r"\+(?=[-=])|(?<=[-=])\+")  # (a "+" of a grid's rules: a border)


def _grid_cells(text: str, bounds: list[int]) -> list[str]:
    """The cells of a line of a reST grid table, one per column between ``bounds`` (the
    rule's "+"): a cell spanning columns (no border where a column ends) is in its first, the
    others blank; a stretch of rule ("+-----+" under a spanning title) is ``_GRID_RULE``."""
    cells: list[str] = []
    start = bounds[0]
    for end in bounds[1:]:
        if text[end] in "|+":
            cell = text[start + 1:end].strip()
            width = sum(1 for b in bounds if start <= b < end)  # (columns it spans)
            cells += [_GRID_RULE if cell and set(cell) <= set("-=") else cell] + [""] * (width - 1)
            start = end
    return cells


def markdown_tables(lines: list[str], blob: str, taken: set[int]) -> list[Table]:
    """Pipe tables; a row a mail client wrapped (``| aes | 1.0 | 2.0 |`` / ``3.0 | 4.0 |``: the
    rest starts without a pipe) is joined again where the pieces make a row as wide as the
    separator row, else the table ends there (its rows are reported, not guessed). In a
    reStructuredText grid table (``+---+`` rules) the lines between two rules are one row."""
    if "|" not in blob:
        return []
    tables: list[Table] = []
    block: list[tuple[int, list[str] | None, str]] = []

    def close() -> None:
        rows: list[Row] = []
        markup: set[int] = set()
        width = next((len(_pipe_cells(text) or ()) for _, c, text in block if c and _separator(c)), 0)
        grid = any(text[:2] == "+-" or text[:2] == "+=" for _, _, text in block)
        # (each line as wide as the rules cut at the columns' borders, the "+" of every rule:
        # a title may span some; a line of another width, TABs in it, is split at its pipes)
        ruler = next((len(text) for _, _, text in block if text[:1] == "+"), 0) if grid else 0
        bounds = sorted({m.start() for _, _, text in block if len(text) == ruler
                         for m in _GRID_JOINT.finditer(text)})
        if bounds:
            block[:] = [(i, _grid_cells(text, bounds) if text[:1] == "|" and len(text) == ruler
                         else cells, text) for i, cells, text in block]
        ruled: set[int] = set()  # (grid lines holding a rule under some cells: a row ends)
        for i, cells, text in block:
            last = rows[-1] if rows else None
            if grid and cells and _GRID_RULE in cells:
                ruled.add(i)
                cells = [c if c != _GRID_RULE else "" for c in cells]
            if grid and last and cells and text[:1] == "|" and max(last.lines) == i - 1 and \
                    i - 1 not in ruled and len(cells) == len(last.cells):
                # (a reST grid row goes on to the next rule)
                last.cells[:] = [f"{a} {b}".strip() for a, b in zip(last.cells, cells, strict=True)]
                last.lines.add(i)
                continue
            if width and last and max(last.lines) == i - 1 and len(last.cells) < width and \
                    text[:1] != "|" and lines[last.line].lstrip()[:1] in "|>":
                joined = _pipe_cells(f"{unquote(lines[last.line]).strip()} {text}")
                if joined and len(joined) == width:  # (every piece fits: one row again)
                    last.cells[:] = joined
                    last.lines.add(i)
                    continue
            if cells is None:  # (a piece that fits no row: the table ends above it)
                _add(tables, rows, markup)
                rows, markup = [], set()
            elif _separator(cells):
                markup.add(i)
            else:
                rows.append(Row(i, cells, {i}))
        _add(tables, rows, markup)
        block.clear()

    prev = -2
    for i in [i for i, line in enumerate(lines)
              if ("|" in line or line.lstrip()[:1] == "+") and i not in taken]:
        text = unquote(lines[i]).strip()
        # (a rule of an org-mode "|----+----|" or reStructuredText "+====+====+" grid table)
        cells = ["-"] if _RULE_LINE.match(text) else _pipe_cells(text)
        if cells is None and text[:1] == "|" and _GRID_JOINT.search(text):
            cells = []  # (a reST grid line with a rule under a spanning title: close() reads it)
        piece = cells is None and block and text[-1:] == "|"  # (the rest of a wrapped row?)
        if (cells is None and not piece) or i != prev + 1:
            close()
        if cells is not None or piece and block:
            block.append((i, cells, text))
            prev = i
    close()
    return tables


def _separator(cells: list[str]) -> bool:
    return all(_SEPARATOR_CELL.match(c) for c in cells if c) and any(cells)


def _add(tables: list[Table], rows: list[Row], markup: set[int]) -> None:
    lines = [*markup, *(i for r in rows for i in r.lines)]
    if lines:
        tables.append(Table("markdown", min(lines), max(lines), rows, markup))


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


def mediawiki_tables(lines: list[str], blob: str, taken: set[int]) -> list[Table]:
    """MediaWiki table markup pasted from a wiki's editor (``{|`` ... ``|-`` ... ``|}``)."""
    if "{" not in blob or "{|" not in blob:
        return []
    tables: list[Table] = []
    table: Table | None = None
    row: Row | None = None

    def end_row() -> None:
        nonlocal row
        if table is not None and row is not None and row.cells:
            table.rows.append(row)
        row = None

    for i, line in enumerate(lines):
        if i in taken:
            continue
        text = unquote(line).strip()
        if table is None:
            if text.startswith("{|"):
                table = Table("mediawiki", i, i, [], {i})
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
                row = Row(i, [], set())
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


_ASCIIDOC_FENCE = re.compile(r"^\s*\|={3,}\s*$", re.MULTILINE)
_ASCIIDOC_SPEC = re.compile(r"(?:\d+(?:\.\d+)?[+*])?[<^>]?(?:\.[<^>])?[adehlmsv]?$")  # ("2+", "a", ">")
_ASCIIDOC_COLS = re.compile(r"""\bcols\s*=\s*["']?([^"'\]]*)""")


def asciidoc_tables(lines: list[str], blob: str, taken: set[int]) -> list[Table]:
    """AsciiDoc tables: cells start at ``|`` (a cell spec such as ``2+`` or ``a`` before it
    is dropped, the cells it spans left blank); rows are as wide as the ``cols`` attribute or
    the first row, whether written a row a line or a cell a line."""
    if "|===" not in blob:
        return []
    fences = [i for i, line in enumerate(lines) if "|==" in line and _ASCIIDOC_FENCE.match(line)
              and i not in taken]
    tables = []
    for open_, close in zip(fences[::2], fences[1::2], strict=False):  # (an odd one: unclosed)
        start, width, caption = open_, 0, None
        for k in (open_ - 1, open_ - 2):  # ("[cols=...]" and ".Title" above the fence)
            above = lines[k].strip() if k >= 0 else ""
            if above.startswith("[") and above.endswith("]"):
                m = _ASCIIDOC_COLS.search(above)
                width = len(m[1].split(",")) if m and m[1].split(",")[0].strip() else 0
                start = k
            elif above.startswith(".") and above[1:2].isalnum():
                caption, start = above[1:].strip(), k
        cells: list[tuple[int, str, int]] = []  # (line, text, columns it spans)
        first_row = 0
        for i in range(open_ + 1, close):
            parts = _PIPE.split(unquote(lines[i]))
            if len(parts) < 2:
                if parts[0].strip() and cells:  # (a cell's text continued)
                    j, text, span = cells[-1]
                    cells[-1] = (j, f"{text} {parts[0].strip()}", span)
                continue
            first_row = first_row or len(parts) - 1
            for spec, text in zip(parts[:-1], parts[1:], strict=True):
                m = re.match(r"(\d+)\+", spec.strip())
                cells.append((i, text.replace("\\|", "|").strip(), int(m[1]) if m else 1))
        width = width or first_row
        rows: list[Row] = []
        row: Row | None = None
        for i, text, span in cells:
            if row is None or len(row.cells) >= width:
                row = Row(i, [], set())
                rows.append(row)
            row.cells.extend([text] + [""] * (span - 1))
            row.lines.add(i)
        in_rows = set().union(*(r.lines for r in rows)) if rows else set()
        tables.append(Table("asciidoc", start, close, rows, set(range(start, close + 1)) - in_rows,
                            caption))
    return tables
