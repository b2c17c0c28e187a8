"""Real pastes (``tests/data/pastes``) read to their hand-written expected tables.

Every paste was collected as found (see its README and ``MANIFEST.tsv``); its expected table
``NNN_name.expected.toml`` was written by hand from the text, never from the reader's output
(format and scoring rules: ``paste_score.py``, which also prints issue 12's headline metric:
``python tests/readers/paste_score.py``). The whole table is compared: value, algorithm,
operation, block size, run, conditions and label, plus tool/version/timing where stated, the
lines that must be reported as unplaced and the distractor lines that must yield nothing.

Pastes the reader does not read right yet are ``xfail(strict=True)`` with what it gets wrong,
so the mark must go as soon as the reader is fixed.
"""

from __future__ import annotations

import csv
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import paste_score as P  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

# What the current reader gets wrong, per paste (remove the entry when the paste reads right).
XFAIL: dict[str, str] = {}

PASTES = P.pastes()
# Where MANIFEST.tsv miscounts (re-read against the text): paste -> corrected fields.
MANIFEST_ERRATA: dict[str, dict[str, str]] = {
    # 12 rows (3 ciphers x 4 clusters) of 6 sizes each are 72 cells, not 36
    "038": {"n_throughput_cells": "72"},
    # the second machine's one complete progress line (sign, 95080 in 10.00 s) is a row too
    "050": {"n_pk_rows": "2"},
}


def _param(p: Path):
    reason = XFAIL.get(p.name[:3])
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(p, id=p.name[:3], marks=marks)


def _manifest() -> dict[str, dict[str, str]]:
    with open(P.PASTES / "MANIFEST.tsv", encoding="utf-8", newline="") as f:
        return {row["file"]: row for row in csv.DictReader(f, delimiter="\t")}


def test_every_paste_has_an_expectation():
    files = sorted(p.name for p in P.PASTES.glob("*.txt"))
    assert len(files) == 60
    assert set(_manifest()) == set(files)
    assert [p.name for p in PASTES] == files
    assert set(XFAIL) <= {p.name[:3] for p in PASTES}


@pytest.mark.parametrize("paste", [pytest.param(p, id=p.name[:3]) for p in PASTES])
def test_expectation_agrees_with_manifest(paste):
    """The hand-written table has the manifest's cell and row counts and its spot values
    (the manifest was written by another hand: a disagreement means one of us misread)."""
    exp = P.load(paste)
    row = {**_manifest()[paste.name], **MANIFEST_ERRATA.get(paste.name[:3], {})}
    assert exp.n_throughput == int(row["n_throughput_cells"])
    assert exp.n_pk_rows == int(row["n_pk_rows"])
    for spot in (row["spot1"], row["spot2"], row["spot3"]):
        if spot == "-":
            continue
        name, column, value = spot.rsplit("|", 2)
        assert _spot_found(exp, name, column, value), spot


@pytest.mark.parametrize("paste", [pytest.param(p, id=p.name[:3]) for p in PASTES])
def test_expectation_is_copied_from_the_text(paste):
    """Every name and value of the hand-written table appears in the paste as written (a typo
    in an expectation would otherwise pass as a reader error)."""
    assert not P.untraced(P.load(paste))


@pytest.mark.parametrize("paste", [pytest.param(p, id=p.name[:3]) for p in PASTES])
def test_every_k_figure_of_the_text_is_expected(paste):
    """No table cell was left out of the expectation (outside the lines marked distractors)."""
    assert not P.unclaimed_k_figures(P.load(paste))


def _spot_found(exp: P.Expectation, name: str, column: str, value: str) -> bool:
    if column.isdigit():  # a block size; the value in 1000s of bytes/s
        want, cells = float(value) * 1e3, [c for c in exp.cells if c.block == int(column)]
        tol = 0.006e3  # the manifest rounds to 2 decimals
    elif column.endswith("/s"):
        op = {"op/s": None, "keygen/s": "keygen", "encaps/s": "encaps", "decaps/s": "decaps"}.get(
            column, column[:-2])
        want, tol = float(value), 0.051 + 1e-6 * float(value)
        cells = [c for c in exp.cells if c.block is None and (op is None or c.operation == op)]
    else:  # seconds per operation: not kept in the expectation
        return True
    named = [c for c in cells if P._norm_label(c.name).startswith(P._norm_label(name).split(" (")[0])
             or P._norm_label(name).startswith(P._norm_label(c.name))]
    return any(math.isclose(c.value, want, abs_tol=tol) for c in named or cells)


@pytest.mark.parametrize("paste", [_param(p) for p in PASTES])
def test_paste_reads_to_its_expected_table(paste):
    P.assert_reads_right(paste)


def test_no_paste_is_silently_wrong_beyond_the_known_ones():
    """The headline metric, printed; and no silently wrong cell outside the xfailed pastes."""
    scores = [P.score(p) for p in PASTES]
    n, right = sum(s.expected for s in scores), sum(s.right for s in scores)
    print(f"\n{right}/{n} cells right ({100 * right / n:.1f} %), "
          f"{sum(s.silent for s in scores)} silently wrong, {sum(s.missed for s in scores)} missed")
    silent = [s.paste for s in scores if s.silent and s.paste not in XFAIL]
    assert not silent


def test_score_tells_right_wrong_missed_spurious_and_cannot_tell_cells(tmp_path):
    """The metric itself, on a small paste the reader reads (so the counts are known)."""
    paste = tmp_path / "900_two-runs.txt"
    paste.write_text(
        "$ openssl speed md5 sha1 sha256\nversion: 3.0.2\n"
        "type             16 bytes     64 bytes\n"
        "md5              1000.00k     2000.00k\nsha1             3000.00k     4000.00k\n"
        "sha256           5000.00k     6000.00k\n\n"
        "$ openssl speed md5\nversion: 3.0.2\n"
        "type             16 bytes     64 bytes\nmd5              7000.00k     8000.00k\n")
    P.expectation_path(paste).write_text(
        '[[run]]\nsizes = [16, 64]\nrows = [\n'
        '  "md5 | md5 | 1000.00k 2000.00k",\n'     # right
        '  "sha1 | sha1 | 3000.00k 4001.00k",\n'   # one value off: silently wrong
        '  "rmd160 | ripemd160 | 9.00k 9.00k",\n'  # not in the text: missed
        ']\n'                                      # sha256: returned, not expected: spurious
        '[[run]]\nsizes = [16, 64]\nrows = ["md5 | md5 | 7000.00k 8000.00k! | aesni=on"]\n')
    s = P.score(paste)
    # the second run's 16-byte cell lacks its condition (wrong); its 64-byte cell is marked
    # '!' (the text cannot tell) and returned unflagged (wrong, and not an expected cell)
    assert (s.expected, s.right, s.wrong, s.missed, s.spurious) == (7, 3, 3, 2, 2)
    assert s.silent == 5 and not s.perfect
    assert any("value 4000000" in d for d in s.details)
