"""Texts written here as users post them (``tests/data/user/<area>``), read to their
hand-written expected tables with the paste score's machinery (issue 12).

Each is a shape the real-paste corpus (``tests/data/pastes``) lacks: openssl's own output in
GitHub issues, mail replies, quoted-printable, BBCode, chat logs, Windows consoles, PDFs
flattened to text, beside distractors, 0.9.7 to 3.5, ``-mr``, ``-multi``, bssl (``terminal``);
document tables in Jira, Confluence, WordPress, MediaWiki, org and rst markup, machines or
versions as rows, one size in prose, units in captions, cycles per byte (``documents``); openssl's
output copied out of CI, container, journal and terminal logs, behind their prefixes (``logs``);
output held in JSON: executed notebooks, API replies, JSON logs (``notebooks``). Their
``.expected.toml`` were written by hand from the text. The texts not read right yet are
``xfail(strict=True)`` with what the reader gets wrong; none may be silently wrong. See them
scored: ``python tests/readers/paste_score.py --dir tests/data/user/<area>``. The spot tests of
each fix are in ``test_user_terminal.py``, ``test_user_documents.py`` and ``test_log_prefixes.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import paste_score as P  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

USER = Path(__file__).resolve().parents[1] / "data" / "user"
AREAS = ("terminal", "documents", "logs", "notebooks")
# Texts an area must hold at least: twenty shapes each, but JSON containers (notebooks, API
# replies, JSON logs) come in fewer shapes: nine, each a different container.
MINIMUM = {"notebooks": 9}
TEXTS = [p for area in AREAS for p in P.pastes(USER / area)]

# What the reader gets wrong or misses, per text (all loud or missed; the mark goes when fixed).
XFAIL: dict[str, str] = {
}


def _id(p: Path) -> str:
    return f"{p.parent.name}/{p.name[:3]}"


def _params(xfail: bool = False) -> list:
    return [pytest.param(p, id=_id(p), marks=[pytest.mark.xfail(strict=True, reason=XFAIL[_id(p)])]
                         if xfail and _id(p) in XFAIL else []) for p in TEXTS]


@pytest.mark.parametrize("area", AREAS)
def test_each_area_has_twenty_texts_each_with_an_expectation(area):
    files = sorted(p.name for p in (USER / area).iterdir()
                   if not p.name.endswith(".toml") and p.name != "README.md")
    assert len(files) >= MINIMUM.get(area, 20) and [p.name for p in P.pastes(USER / area)] == files
    assert {k for k in XFAIL if k.startswith(f"{area}/")} <= {_id(p) for p in TEXTS}


@pytest.mark.parametrize("text", _params())
def test_expectation_is_copied_from_the_text(text):
    assert not P.untraced(P.load(text))


@pytest.mark.parametrize("text", _params())
def test_every_k_figure_of_the_text_is_expected(text):
    assert not P.unclaimed_k_figures(P.load(text))


@pytest.mark.parametrize("text", _params(xfail=True))
def test_text_reads_to_its_expected_table(text):
    P.assert_reads_right(text)


@pytest.mark.parametrize("text", _params())
def test_no_text_is_silently_wrong(text):
    """Right or loud: a cell the reader returns unflagged is the text's, with its value, run and
    conditions (cycles per byte, a locale's digit groups and min/max columns included)."""
    s = P.score(text)
    assert not s.silent, "\n".join(s.details)
