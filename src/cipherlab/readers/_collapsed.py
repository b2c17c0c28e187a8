"""A throughput table whose line breaks were lost: header and rows run together on one line.

Why this module exists: pages extracted to text (a PDF, an HTML page flattened by a scraper)
keep openssl's table but join its lines with single spaces: ``... type 16 bytes 64 bytes ...
8192 bytes md2 1841.78k 3965.80k ... md4 17326.58k ...``. With the header's block sizes the
rows are told apart again: a name (words that are not values) followed by exactly one value per
size. Nothing is guessed: every name must be a known algorithm and every row whole, else the
line is left to the openssl pass (which reports it).

:func:`find_runs` has the signature of the other whole-text readers (``_api.FINDERS``).
"""

from __future__ import annotations

import re

from cipherlab.model import Run
from cipherlab.readers._names import canonical, is_known
from cipherlab.readers._terminal import row_bytes_per_s

__all__ = ["find_runs"]

_HEADER = re.compile(r"\btype((?: +\d+ bytes){2,})(?= )")
_VALUE = re.compile(r"^-?\d[\d,]*\.\d\dk?$")
_DATA = re.compile(r"^-?\d[\d,]*\.\d+[ks]?$")  # a value or time token (what else may follow)
_MIN_ROWS = 2  # a header and one row on a line is a table's start, not a collapsed table


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


def find_runs(lines: list[str], source: str, taken: set[int], unplaced=None):
    """Runs of the collapsed tables among ``lines`` and the 0-based indices of their lines."""
    runs, used = [], set()
    for i, line in enumerate(lines):
        if i in taken or len(line) < 200 or "bytes" not in line:
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
