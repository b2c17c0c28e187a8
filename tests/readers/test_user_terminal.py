"""Pastes of openssl's own output written as users post them (``tests/data/user/terminal``),
read to their hand-written expected tables (issue 12).

Each paste is a shape the real-paste corpus (``tests/data/pastes``) lacks: a GitHub issue, PR
or ``<details>`` block, a mail reply, quoted-printable mail, BBCode, a chat log, a Windows
console, a PDF flattened to text, distractors (``dd``, ``time``, ``iostat``) beside the data,
0.9.7 to 3.5 output, ``-mr``, ``-multi``, bssl. Their expectations (``NNN_name.expected.toml``,
format: ``paste_score.py``) were written by hand from the text; the same scoring machinery as
``test_pastes.py`` compares the whole table. See them scored:
``python tests/readers/paste_score.py --dir tests/data/user/terminal``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import paste_score as P  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

USER = Path(__file__).resolve().parents[1] / "data" / "user" / "terminal"
PASTES = P.pastes(USER)

# What the reader gets wrong or misses, per paste (the mark must go when it is fixed).
XFAIL: dict[str, str] = {
    "001": "'Without (OPENSSL_ia32cap=...)' read as a negated mask: the run gets no isa_mask",
    "002": "'That matches what I see on a 2620 v2 (AES-NI on):' gives no label",
    "003": "'openssl 1.1.1k' in the prose above headerless rows gives no tool_version",
    "005": "the BBCode tag '[code]' is taken for the run's label",
    "006": "chat-log lines ('[14:02] <mk> aes-128-cbc ...') are not read (reported)",
    "011": "macOS 'Last login: ... on ttys000' is taken for the run's label",
    "012": "the TAB lines of 'time' (real/user/sys) are reported as unplaced data (_tables)",
    "015": "quoted-printable body under MIME headers ('charset=\"utf-8\"') is not decoded",
}


def _param(p: Path):
    reason = XFAIL.get(p.name[:3])
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(p, id=p.name[:3], marks=marks)


def test_there_are_twenty_pastes_each_with_an_expectation():
    files = sorted(p.name for p in USER.iterdir() if not p.name.endswith(".toml"))
    assert len(files) >= 20 and [p.name for p in PASTES] == files


@pytest.mark.parametrize("paste", [pytest.param(p, id=p.name[:3]) for p in PASTES])
def test_expectation_is_copied_from_the_text(paste):
    assert not P.untraced(P.load(paste))


@pytest.mark.parametrize("paste", [pytest.param(p, id=p.name[:3]) for p in PASTES])
def test_every_k_figure_of_the_text_is_expected(paste):
    assert not P.unclaimed_k_figures(P.load(paste))


@pytest.mark.parametrize("paste", [_param(p) for p in PASTES])
def test_paste_reads_to_its_expected_table(paste):
    s = P.score(paste)
    report = "\n".join(s.problems + s.details)
    assert s.right == s.expected and not s.spurious and not s.problems, (
        f"{s.right}/{s.expected} right, {s.wrong} wrong, {s.spurious} spurious, {s.missed} "
        f"missed, {s.flagged} flagged:\n{report}")
