"""Document tables written as users post them (``tests/data/user/documents``), read to their
hand-written expected tables with the paste score's machinery (``paste_score.py --dir``).

Each text is a shape the real-paste corpus lacks (Jira/Confluence/WordPress/MediaWiki/org/rst
tables, machines or versions as rows, one size in prose, units in captions, cycles/byte, ...);
its ``.expected.toml`` was written by hand from the text. The texts the reader does not read
right yet are ``xfail(strict=True)`` with what it gets wrong (misses and flags: loud, never a
silently wrong cell, which ``test_no_text_is_silently_wrong`` forbids for all of them).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import paste_score as P  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

DOCUMENTS = Path(__file__).resolve().parents[1] / "data" / "user" / "documents"
TEXTS = P.pastes(DOCUMENTS)

# What the current reader gets wrong, per text (all loud or missed; remove when fixed).
XFAIL: dict[str, str] = {
    "101": "label: the issue template's '### Describe the bug' heading, not the <summary>",
    "102": "the unit is in the <figcaption> after the table: flagged 'unit unknown'",
    "105": "a two-line header (names, then '(MiB/s)' under each) in a [code] block: not read",
    "108": "hosts as rows, sizes as columns, one algorithm in the prose: not read (loud error)",
    "109": "AES-NI on/off as columns with derived 'x' and '%' columns: reported, not read",
    "110": "bold section rows with empty cells and bare sizes as headers: reported, not read",
    "113": "reStructuredText grid table (+---+ borders): not read",
    "116": "org-mode table: not read",
    "117": "cells with their own unit (GB/s), size in the command's -bytes: not read",
    "119": "tables titled by a bold line naming the primitive ('chacha20 256'): not read",
    "120": "a footnote mark (<sup>*</sup>) in a cell: that row's sign is not read",
}


def _param(p: Path):
    reason = XFAIL.get(p.name[:3])
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(p, id=p.name[:3], marks=marks)


def test_there_are_twenty_texts_with_expectations():
    assert len(TEXTS) >= 20
    assert set(XFAIL) <= {p.name[:3] for p in TEXTS}


@pytest.mark.parametrize("text", [pytest.param(p, id=p.name[:3]) for p in TEXTS])
def test_expectation_is_copied_from_the_text(text):
    assert not P.untraced(P.load(text))


@pytest.mark.parametrize("text", [pytest.param(p, id=p.name[:3]) for p in TEXTS])
def test_every_k_figure_of_the_text_is_expected(text):
    assert not P.unclaimed_k_figures(P.load(text))


@pytest.mark.parametrize("text", [_param(p) for p in TEXTS])
def test_text_reads_to_its_expected_table(text):
    s = P.score(text)
    report = "\n".join(s.problems + s.details)
    assert s.right == s.expected and not s.spurious and not s.problems, (
        f"{s.right}/{s.expected} right, {s.wrong} wrong, {s.spurious} spurious, {s.missed} "
        f"missed, {s.flagged} flagged:\n{report}")


@pytest.mark.parametrize("text", [pytest.param(p, id=p.name[:3]) for p in TEXTS])
def test_no_text_is_silently_wrong(text):
    """Right or loud: a cell the reader returns unflagged is the text's, with its value, run and
    conditions (cycles per byte, a locale's digit groups and min/max columns included)."""
    s = P.score(text)
    assert not s.silent, "\n".join(s.details)


def _ingest(tmp_path, name: str, text: str):
    import warnings

    import cipherlab
    from cipherlab.errors import IngestError

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return cipherlab.ingest(path)
        except IngestError:
            return None


@pytest.mark.parametrize("name, text", [
    ("mac.md", "#### 1024-byte blocks, KB/s (OpenSSL 1.1.1t)\n\n| Name | Result |\n|---|---|\n"
               "| hmac(sha512) | 690213.12 |\n| md4 | 811320.07 |\n"),
    ("mac.txt", "openssl speed, 8192-byte blocks, in 1000s of bytes per second\n\n"
                "algorithm\t1.1.1w\t3.0.13\nhmac(sha256)\t1290331.02\t1288004.50\n"
                "sha256\t1301992.11\t1299403.27\n"),
])
def test_a_mac_named_with_its_digest_in_parentheses_is_one_algorithm(tmp_path, name, text):
    """``hmac(sha512)`` in a grid is the MAC, not ``hmac`` tagged ``sha512`` (which made a run
    labelled 'sha512' of an 'hmac' cipher 'encrypt'), nor a dropped row."""
    df = _ingest(tmp_path, name, text)
    macs = df[df["algorithm"].str.startswith(("hmac", "cmac"))]
    assert set(macs["algorithm"]) <= {"hmac(sha512)", "cmac(aes-128-cbc)", "hmac(sha256)"}
    assert len(macs) >= 1 and set(macs["operation"]) == {"digest"}
    assert not (df["label"].astype(str).str.fullmatch(r"sha\d+")).any()


@pytest.mark.parametrize("name, text", [
    ("jira.txt", "Ran openssl speed -evp aes-128-gcm on both hosts.\n\n"
                 "||Host||16 bytes (MB/s)||1024 bytes (MB/s)||\n|edge-a (EPYC 7313P)|526.2|3971.2|\n"
                 "|edge-b|481.2|3377.5|\n"),
    ("hosts.md", "openssl speed -evp sha256, KB/s\n\n| Machine | 16 bytes | 8192 bytes |\n"
                 "|---|---|---|\n| db-01 (Xeon) | 154224.18 | 1256789.33 |\n"
                 "| web-2 | 140332.02 | 1201355.41 |\n"),
])
def test_rows_under_a_host_header_are_never_algorithms(tmp_path, name, text):
    """A Jira ``||Host||16 bytes||`` header (its cells were split on every '|', shifting the
    values one column) or a Markdown ``| Machine |`` corner: the rows name machines, so no
    'edge-a-(epyc-7313p)' cipher; read as runs of the prose's algorithm, or not at all."""
    df = _ingest(tmp_path, name, text)
    if df is not None:
        assert set(df["algorithm"]) <= {"aes-128-gcm", "sha256"}


def test_a_line_warning_survives_the_trip_back_from_a_worker():
    """Folders are read by worker processes; a warning naming lines (a document table's
    'unit unknown') is pickled back, and rebuilding it from its message alone crashed the pool
    (``BrokenProcessPool``)."""
    import pickle

    from cipherlab.readers._text import LineWarning

    w = pickle.loads(pickle.dumps(LineWarning("cells at line(s) {lines} have no unit", [2, 0])))
    assert (str(w), w.numbers) == ("cells at line(s) 1, 3 have no unit", [1, 3])
