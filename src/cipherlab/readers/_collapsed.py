"""A throughput table whose line breaks were lost: header and rows run together on one line.

Why this module exists: pages extracted to text (a PDF, an HTML page flattened by a scraper)
keep openssl's table but join its lines with single spaces: ``... type 16 bytes 64 bytes ...
8192 bytes md2 1841.78k 3965.80k ... md4 17326.58k ...``. With the header's block sizes the
rows are told apart again: a name (words that are not values) followed by exactly one value per
size. Nothing is guessed: every name must be a known algorithm and every row whole, else the
line is left to the openssl pass (which reports it).

A PDF keeps even less of a one-row run: the size headers and the values on one line, with no
``type`` and no row name (``16 bytes 64 bytes ... 8192 bytes 646’811.75k ... 732’106.54k``),
the algorithm named only by the command above it (``$ openssl speed -evp aes-128-cbc``). Such
a row is read when exactly one value follows each size and the command a few lines above names
exactly one algorithm; otherwise it is reported as unplaced, never guessed.

:func:`find_runs` has the signature of the other whole-text readers (``_api.FINDERS``).
"""

from __future__ import annotations

import re

from cipherlab.model import Run
from cipherlab.readers._grids import named_algorithms
from cipherlab.readers._names import canonical, is_known
from cipherlab.readers._tables import lines_with
from cipherlab.readers._terminal import row_bytes_per_s
from cipherlab.readers._context import prose_label

__all__ = ["find_runs"]

_HEADER = re.compile(r"\btype((?: +\d+ bytes){2,})(?= )")
_VALUE = re.compile(r"^-?\d[\d,]*\.\d\dk?$")
_DATA = re.compile(r"^-?\d[\d,]*\.\d+[ks]?$")  # a value or time token (what else may follow)
_MIN_ROWS = 2  # a header and one row on a line is a table's start, not a collapsed table
# Size headers then values, no "type" and no row name (the thousands mark may be ’ or ').
_SIZES = re.compile(r"(?<![\w.])((?:\d+ bytes +){2,})")
_MARKED_VALUE = re.compile(r"^-?\d{1,3}(?:[,'\u2019]\d{3})*(?:\d*)\.\d\dk$")
_MARK = re.compile(r"[,'\u2019]")
_COMMAND = re.compile(r"\bspeed\b(.*)$")
_LOOK_BACK = 3  # non-blank lines between a command and its output


def _rows(tokens: list[str], n: int) -> tuple[list[tuple[str, list[str]]], int] | None:
    """``(name, values)`` rows of ``n`` values each from the tokens after a header, up to the
    first token that ends the table, and how many tokens they took; None when a row is not
    whole or not a known algorithm."""
    rows, name, values, end = [], [], [], 0
    for k, tok in enumerate(tokens):
        if _VALUE.match(tok):
            if not name:
                return None  # values without a name
            values.append(tok)
            if len(values) == n:
                rows.append((" ".join(name), values))
                name, values, end = [], [], k + 1
            continue
        if values:
            return None  # a name inside a row's values: the row is not whole
        name.append(tok)
        if len(name) > 3:
            break  # prose after the table
    if any(not is_known(canonical(nm)[0]) for nm, _ in rows):
        return None
    return rows, end


def _command_above(lines: list[str], i: int) -> tuple[str | None, str | None]:
    """The one algorithm the ``... speed ...`` command above line ``i`` names (None: none or
    several) and the label of the prose line above that command."""
    near = _filled_above(lines, i)
    for j in near:
        m = _COMMAND.search(lines[j]) if "speed" in lines[j] else None
        if m:
            names = list(dict.fromkeys(named_algorithms(m[1])))
            above = next(iter(_filled_above(lines, j)), None)
            return (names[0] if len(names) == 1 else None), \
                (prose_label(lines[above]) if above is not None else None)
    return None, None


def _filled_above(lines: list[str], i: int) -> list[int]:
    """Indices of the (at most ``_LOOK_BACK``) non-blank lines just above line ``i``, nearest
    first, among the ``4 * _LOOK_BACK`` lines above it (a bounded look, whatever the text)."""
    window = range(i - 1, max(-1, i - 1 - 4 * _LOOK_BACK), -1)
    return [j for j in window if lines[j].strip()][:_LOOK_BACK]


def _unnamed_row(lines: list[str], i: int, unplaced) -> Run | None:
    """The run of line ``i`` when it is size headers and one unnamed row of values."""
    m = _SIZES.search(lines[i])
    if m is None:
        return None
    sizes = [int(x) for x in re.findall(r"\d+", m[1])]
    tokens = lines[i][m.end():].split()[:len(sizes)]
    if len(tokens) < len(sizes) or not all(_MARKED_VALUE.match(t) for t in tokens):
        return None
    name, label = _command_above(lines, i)
    if name is None:
        if unplaced is not None:
            unplaced.append((i + 1, lines[i]))  # a row of values nothing names
        return None
    run = Run(meta={"dialect": "text", "tool": "openssl", "label": label})
    values = row_bytes_per_s([_MARK.sub("", t) for t in tokens])
    run.rows.append((i + 1, name, name, canonical(name)[1], sizes, values, None, None))
    return run


def find_runs(lines: list[str], source: str, taken: set[int], unplaced=None):
    """Runs of the collapsed tables among ``lines`` and the 0-based indices of their lines."""
    runs, used = [], set()
    for i in lines_with("bytes", "\n".join(lines)):
        line = lines[i]
        if i in taken:
            continue
        if len(line) < 200 or "type" not in line:
            run = _unnamed_row(lines, i, unplaced) if " bytes " in line and "k" in line else None
            if run is not None:
                runs.append(run)
                used.add(i)
            continue
        m = _HEADER.search(line)
        if m is None:
            continue
        sizes = [int(x) for x in re.findall(r"\d+", m[1])]
        tokens = line[m.end():].split()
        got = _rows(tokens, len(sizes))
        if not got or len(got[0]) < _MIN_ROWS:
            continue
        rows, end = got
        if unplaced is not None and sum(1 for t in tokens[end:] if _DATA.match(t)) >= 2:
            unplaced.append((i + 1, line))  # more measurements after the table: not placed
        run = Run(meta={"dialect": "text", "tool": "openssl"})
        for name, values in rows:
            algorithm, op = canonical(name)
            run.rows.append((i + 1, algorithm, name, op, sizes, row_bytes_per_s(values), None, None))
        runs.append(run)
        used.add(i)
    return runs, used
