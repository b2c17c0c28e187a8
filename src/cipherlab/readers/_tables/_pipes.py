"""Finders of tables drawn with pipes: Markdown (GitHub, Notion, Obsidian), Jira/Confluence
``||`` headers, org-mode and reStructuredText grid rules (``|----+----|``, ``+====+``), and
MediaWiki markup pasted from a wiki's editor (``{|`` ... ``|-`` ... ``|}``).

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


def markdown_tables(lines: list[str], blob: str, taken: set[int]) -> list[Table]:
    if "|" not in blob:
        return []
    tables: list[Table] = []
    block: list[tuple[int, list[str]]] = []

    def close() -> None:
        if block:
            rows, markup = [], set()
            for i, cells in block:
                if all(_SEPARATOR_CELL.match(c) for c in cells if c) and any(cells):
                    markup.add(i)
                else:
                    rows.append(Row(i, cells, {i}))
            tables.append(Table("markdown", block[0][0], block[-1][0], rows, markup))
            block.clear()

    prev = -2
    for i in [i for i, line in enumerate(lines)
              if ("|" in line or line.lstrip()[:1] == "+") and i not in taken]:
        text = unquote(lines[i])
        # (a rule of an org-mode "|----+----|" or reStructuredText "+====+====+" grid table)
        cells = ["-"] if _RULE_LINE.match(text) else _pipe_cells(text)
        if cells is None or i != prev + 1:
            close()
        if cells is not None:
            block.append((i, cells))
            prev = i
    close()
    return tables


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
