"""The finder of LaTeX tables (a paper's source, cipherlab's own ``.tex`` export): a
``tabular`` (``tabular*``, ``tabularx``, ``longtable``, ...) split into rows at ``\\\\`` and
cells at ``&``, its rules (booktabs' ``\\toprule``, ``\\cmidrule``, ``\\hline``) markup.

``\\multicolumn{3}{c}{GB/s}`` fills three columns (its text in the first),
``\\multirow{2}{*}{host}`` stands in the rows below it too, and a cell reads as it prints
(:func:`~._tex.tex_text`). The ``\\caption`` of the float around the tabular is the table's
caption (a unit it states is the table's).
"""

from __future__ import annotations

import bisect
import re

from cipherlab.readers._tables._cells import Row, Table
from cipherlab.readers._tables._prose import unquote
from cipherlab.readers._tables._tex import tex_text

_BEGIN = re.compile(r"\\begin\{(tabular\*?|tabularx|tabulary|tabu|longtable\*?|xltabular|tblr)\}")
_FLOAT = re.compile(r"\\(begin|end)\{(?:table|figure)\*?\}")
_COMMENT = re.compile(r"(?<!\\)%.*")
# What ends a row (``\\``, ``\\[2pt]``, ``\\*``, ``\tabularnewline``) and separates cells.
_ROW_END = re.compile(r"\\\\\*?(?:\s*\[[^\]]*\])?|\\tabularnewline\b")
# Rules and spacing between rows, and longtable's head/foot markers: no cell of their own.
_RULE = re.compile(r"\s*\\(?:toprule|midrule|bottomrule|hline|hhline|addlinespace|morecmidrules|"
                   r"endhead|endfirsthead|endfoot|endlastfoot|noalign|specialrule|cline|cmidrule|"
                   r"rowcolor|arrayrulecolor)\b(?:\s*\[[^\]]*\])?(?:\s*\([^)]*\))?(?:\s*\{[^{}]*\})*")
_MULTICOLUMN = re.compile(r"^\\multicolumn\{(\d+)\}\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}")
_MULTIROW = re.compile(r"^\\multirow(?:\[[^\]]*\])?\{(-?\d+)\}(?:\[[^\]]*\])?\{[^{}]*\}(?:\[[^\]]*\])?")
def latex_tables(lines: list[str], blob: str, taken: set[int]) -> list[Table]:
    """The tabulars of a LaTeX text, each with the caption of the float around it."""
    if "\\begin" not in blob or not _BEGIN.search(blob):
        return []
    plain = [_COMMENT.sub("", unquote(line)) if "%" in line or ">" in line else line
             for line in lines]  # (comments and mail quoting out)
    starts = [0]  # (the offset each line starts at, to tell a row's line)
    for line in plain:
        starts.append(starts[-1] + len(line) + 1)
    text = "\n".join(plain)
    tables: list[Table] = []
    pos = 0
    for m in _BEGIN.finditer(text):
        if m.start() < pos or bisect.bisect_right(starts, m.start()) - 1 in taken:
            continue  # (a tabular inside the one just read, or a line another finder took)
        body = _after_arguments(text, m.end(), 2 if m[1] in ("tabular*", "tabularx", "xltabular") else 1)
        end = text.find(f"\\end{{{m[1]}}}", body)
        if end < 0:
            continue
        pos = end
        line_of = lambda offset: bisect.bisect_right(starts, offset) - 1  # noqa: E731
        rows = _rows(text, body, end, line_of)
        first, last = line_of(m.start()), line_of(end)
        in_rows = set().union(*(r.lines for r in rows)) if rows else set()
        tables.append(Table("latex", first, last, rows, set(range(first, last + 1)) - in_rows,
                            _caption(text, m.start(), end)))
    return tables


def _after_arguments(text: str, at: int, count: int) -> int:
    """The offset after ``count`` braced arguments (and optional ``[...]`` ones) from ``at``."""
    for _ in range(count):
        while at < len(text) and text[at] in " \t\n[":
            at = text.find("]", at) + 1 if text[at] == "[" else at + 1
        if at >= len(text) or text[at] != "{":
            return at
        at = _closing(text, at) + 1
    return at


def _closing(text: str, at: int) -> int:
    """The offset of the brace closing the one at ``at`` (the end of the text if none)."""
    depth = 0
    for k in range(at, len(text)):
        c = text[k]
        if c == "{" and text[k - 1] != "\\":
            depth += 1
        elif c == "}" and text[k - 1] != "\\":
            depth -= 1
            if not depth:
                return k
    return len(text)


def _rows(text: str, start: int, end: int, line_of) -> list[Row]:
    """The rows between ``start`` and ``end``: cells split at ``&`` outside braces, rows at
    ``\\\\``, rules left out; a ``\\multirow`` cell's text carried into the rows it spans."""
    rows: list[Row] = []
    down: dict[int, list] = {}  # (column -> [text, rows left] of a \multirow spanning down)
    for s, e in _row_spans(text, start, end):
        raw = text[s:e]
        lead = 0
        while m := _RULE.match(raw, lead):
            if m.end() == lead:
                break
            lead = m.end()
        if not raw[lead:].strip():
            continue
        cells: list[str] = []
        for part in _split_cells(raw[lead:]):
            part = part.strip()
            span = _MULTICOLUMN.match(part)
            if span:
                part = _unbraced(part[span.end():])
            rows_down = _MULTIROW.match(part)
            if rows_down:
                part = _unbraced(part[rows_down.end():])
            cell = tex_text(part)
            if not cell and len(cells) in down:  # (a row a \multirow above spans)
                cell = down[len(cells)][0]
                down[len(cells)][1] -= 1
                if not down[len(cells)][1]:
                    del down[len(cells)]
            if rows_down:
                n = int(rows_down[1])
                if n > 1:
                    down[len(cells)] = [cell, n - 1]
                for above in rows[len(rows) + n + 1:] if n < -1 else ():  # (text at its bottom)
                    if len(cells) < len(above.cells) and not above.cells[len(cells)]:
                        above.cells[len(cells)] = cell
            cells.extend([cell] + [""] * (int(span[1]) - 1 if span else 0))
        first = s + lead + len(raw[lead:]) - len(raw[lead:].lstrip())
        rows.append(Row(line_of(first), cells, set(range(line_of(first), line_of(max(first, e - 1)) + 1))))
    return rows


def _row_spans(text: str, start: int, end: int):
    """``(start, end)`` of each row: up to each ``\\\\`` outside braces, and the rest."""
    depth, at = 0, start
    k = start
    while k < end:
        c = text[k]
        if c == "\\":
            m = _ROW_END.match(text, k) if not depth else None
            if m:
                yield at, k
                at = k = m.end()
                continue
            k += 2
            continue
        depth += (c == "{") - (c == "}")
        k += 1
    yield at, end


def _split_cells(row: str) -> list[str]:
    """A row's cells: split at each ``&`` outside braces that is not ``\\&``."""
    cells, depth, at = [], 0, 0
    for k, c in enumerate(row):
        if c == "{" and row[k - 1:k] != "\\":
            depth += 1
        elif c == "}" and row[k - 1:k] != "\\":
            depth -= 1
        elif c == "&" and not depth and row[k - 1:k] != "\\":
            cells.append(row[at:k])
            at = k + 1
    return [*cells, row[at:]]


def _unbraced(text: str) -> str:
    text = text.strip()
    return text[1:_closing(text, 0)] if text[:1] == "{" else text


def _caption(text: str, start: int, end: int) -> str | None:
    """The ``\\caption`` of the float (``table``, ``figure``) the tabular at ``start..end`` is in."""
    opened = [m for m in _FLOAT.finditer(text, 0, start)]
    if not opened or opened[-1][1] != "begin":
        return None
    close = _FLOAT.search(text, end)
    stop = close.start() if close and close[1] == "end" else end
    for span in ((opened[-1].end(), start), (end, stop)):
        at = text.find("\\caption", *span)
        if at >= 0:
            arg = _after_arguments(text, at + len("\\caption"), 0)
            while arg < len(text) and text[arg] in " [":
                arg = text.find("]", arg) + 1 if text[arg] == "[" else arg + 1
            if text[arg:arg + 1] == "{":
                return tex_text(text[arg + 1:_closing(text, arg)]) or None
    return None
