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
    return repr((runs, unplaced))  # (field for field; a nan cell equals no other nan)


def test_the_real_texts_are_many_and_of_every_kind():
    assert len(REAL) >= 90
    assert {p.parent.name for p in REAL} >= {"pastes", "gnutls"}


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name[:40])
def test_block_readers_give_what_the_lines_give(path):
    blocks = _line_pass(path, "blocks")
    assert blocks == _line_pass(path, "lines")


# --- the prose fast path ------------------------------------------------------------------------
from unittest import mock  # noqa: E402

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

# Lines of the real texts, and lines near the prose test's edges: a digit of another script
# (``\d`` reads it), inf/nan, failure words, prefixes of the handlers without digits.
_LINES = sorted({line for p in REAL for line in normalise(decode(p.read_bytes(), str(p)))[0]})
_EDGES = ["\u0663 bits ffdh", "x inf", "nan", "md5 inf inf", "Error opening", "speed", "ok",
          "options:", "compiler: gcc", "built on unknown", "keygen encaps decaps",
          "sign verify", "op op/s", "engine \"x\" set.", "You have chosen to measure elapsed time",
          "The 'numbers' are in 1000s", "Child terminated", "Got: +F:1:x:2.00 from 0", "type",
          "---", "===", "# label", "* item", "> quoted", "On Mon, Bob wrote:", "",
          "$ openssl speed -elapsed", "$ openssl speed -evp aes-cbc"]


def _runs_of(lines: list[str]) -> str:
    return repr(_openssl.parse(*strip_shared_prefix(lines), set(), "t", {}))


_TEXTS = st.lists(st.sampled_from(_LINES) | st.sampled_from(_EDGES) | st.text(max_size=30),
                  max_size=40)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXTS)
def test_block_readers_give_what_the_lines_give_on_any_mix_of_lines(lines):
    blocks = _runs_of(lines)
    with mock.patch.object(_openssl, "ENGINE", "lines"):
        assert _runs_of(lines) == blocks


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXTS)
def test_lines_sent_to_prose_at_once_are_read_as_the_dispatch_reads_them(lines):
    # (is_prose says a line no handler takes: asking every handler must give the same runs)
    fast = _runs_of(lines)
    with mock.patch.object(_openssl, "is_prose", lambda line: False):
        assert _runs_of(lines) == fast
