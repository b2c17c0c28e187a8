"""The two engines of the line pass (``_openssl.ENGINES``) read every real text alike.

The block readers (``_blocks``) are the line pass's fast path: each must have exactly the effect
the per-line dispatch gives the lines it reads. The ``engine`` fixture runs the reader tests
through both; this test compares the two directly, run for run and field for field (labels,
metadata, cells, progress records, unplaced lines), on every real dump and paste bundled.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cipherlab.readers import _openssl
from cipherlab.readers._api import FINDERS, decode
from cipherlab.readers._text import normalise, strip_shared_prefix

DATA = Path(__file__).resolve().parent.parent / "data"
REAL = [p for p in sorted(DATA.rglob("*"))
        if p.is_file() and p.suffix in (".txt", ".md", ".html") and "synthetic" not in p.parts
        and not p.name.startswith("README") and ".expected." not in p.name]


def _line_pass(path: Path, engine: str):
    """What ``read_runs`` gets from the line pass for the text at ``path`` with ``engine``."""
    lines, _ = normalise(decode(path.read_bytes(), str(path)))
    taken: set[int] = set()
    for finder in FINDERS:
        taken |= finder(lines, str(path), taken, [])[1]
    before = _openssl.ENGINE
    _openssl.ENGINE = engine
    try:
        runs, unplaced = _openssl.parse(*strip_shared_prefix(lines), taken, str(path), {})
    finally:
        _openssl.ENGINE = before
    return runs, unplaced  # (Run is a dataclass: compared field for field)


def test_the_real_texts_are_many_and_of_every_kind():
    assert len(REAL) >= 90
    assert {p.parent.name for p in REAL} >= {"pastes", "gnutls"}


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name[:40])
def test_block_readers_give_what_the_lines_give(path):
    blocks = _line_pass(path, "blocks")
    assert blocks == _line_pass(path, "lines")
