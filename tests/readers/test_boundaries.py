"""Where a run ends (issue 12, layer 4): each rule of ``readers._boundaries.BOUNDARIES`` alone,
on a parser that has read a small text written here, then the ``rule`` column that names the
inferred ones, through both engines."""

from __future__ import annotations

import pytest

import cipherlab
from cipherlab.readers import _boundaries as B
from cipherlab.readers._openssl import _Parser

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

RULES = {b.name: b for b in B.BOUNDARIES}
TABLE = ["type 16 bytes 64 bytes", "sha1 2.00k 4.00k"]
PK = ["                  sign    verify    sign/s verify/s",
      "rsa 4096 bits 0.01s 0.001s 100.0 1000.0"]


def parsed(lines: list[str]) -> _Parser:
    """A parser that has read ``lines`` (its current run is the last one)."""
    p = _Parser(lines, set(), "<test>", {})
    p.comment_blocks = None
    p.parse()
    return p


# (rule, text read so far, event, whether the rule holds)
CASES = [
    ("first run", [], B.Event(B.PROGRESS, ("sha1", 16), 1, 16, 1.0), True),
    ("header block again", ["LibreSSL 3.9.2", *TABLE], B.Event(B.VERSION), True),
    ("header block again", ["$ openssl speed sha1"], B.Event(B.VERSION), False),
    ("table header again", TABLE, B.Event(B.SYM_HEADER), True),
    ("table header again", ["LibreSSL 3.9.2"], B.Event(B.SYM_HEADER), False),
    ("command line", TABLE, B.Event(B.PROMPT), True),
    ("forked after cells", TABLE, B.Event(B.FORKED), True),
    ("forked after cells", ["$ openssl speed -multi 2 sha1"], B.Event(B.FORKED), False),
    ("text moved on", [*TABLE, "and on the second box:"], B.Event(B.PK_HEADER), True),
    ("text moved on", [*TABLE, "[exit status: 0]"], B.Event(B.PROGRESS, ("sha1", 16), 1, 16, 1.0), True),
    ("text moved on", TABLE, B.Event(B.PK_HEADER), False),
    ("after a printed table", TABLE, B.Event(B.MR_TABLE), True),
    ("after a printed table", ["+DT:sha1:3:16", "+R:100:sha1:3.00"], B.Event(B.MR_TABLE), False),
    ("record repeats", PK, B.Event(B.PK_ROW, (("rsa4096", "sign", None),)), True),
    ("record repeats", PK, B.Event(B.PK_ROW, (("rsa4096", "sign", "sig"),)), False),
    ("record repeats", ["Doing sha1 for 3s on 16 size blocks: 3000 sha1's in 3.00s", *TABLE],
     B.Event(B.PROGRESS, ("sha1", 16), 3000, 16, 3.0), True),
    ("record repeats", PK, B.Event(B.PK_ROW, (("rsa2048", "sign", None),)), False),
    # 2.00k at 16 bytes is 125 sha1's a second: 3000 in 3 s is another run's
    ("not a record of the table", TABLE, B.Event(B.PROGRESS, ("sha1", 16), 3000, 16, 3.0), True),
    ("not a record of the table", TABLE, B.Event(B.PROGRESS, ("sha1", 16), 375, 16, 3.0), False),
    ("row again after prose", [*TABLE, "and with the ia32cap mask:"], B.Event(B.SYM_ROW, "sha1"), True),
    ("row again after prose", [*TABLE, "and with the ia32cap mask:"], B.Event(B.SYM_ROW, "md5"), False),
    ("row again after prose", TABLE, B.Event(B.SYM_ROW, "sha1"), False),
]


@pytest.mark.parametrize("name, text, event, holds", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_boundary_rule_alone(name, text, event, holds):
    p = parsed(text)
    assert RULES[name].test(p, p.cur, event) is holds
    assert event.kind in RULES[name].events


def test_the_rules_are_ordered_named_and_documented():
    assert [b.name for b in B.BOUNDARIES][0] == "first run"
    assert len(RULES) == len(B.BOUNDARIES)
    assert all(b.test.__doc__ for b in B.BOUNDARIES)
    # every kind of event is judged by the first-run rule, then by its own rules
    assert all(B.BOUNDARIES[0] in B._BY_EVENT[kind] for kind in B.BOUNDARIES[0].events)
    assert set(B._BY_EVENT) == set().union(*(b.events for b in B.BOUNDARIES))


def test_the_rule_column_names_the_inferred_rules_only():
    table = "\n".join(TABLE) + "\n"
    # a capture's own structure (header blocks, command lines): no rule
    df = cipherlab.ingest(f"$ openssl speed sha1\nLibreSSL 3.9.2\n{table}$ openssl speed sha1\n{table}")
    assert "rule" not in df.columns
    # runs told apart by inference, labels found in prose: named
    df = cipherlab.ingest(f"Old NAS:\n{table}"
                          "Doing sha1 for 3s on 16 size blocks: 3000 sha1's in 3.00s\n")
    assert df.groupby("run").rule.first().tolist() == [
        "label: caption", "run: not a record of the table; label: label of the run above"]
    assert "rule" not in cipherlab.model.condition_columns(df)


def test_a_row_again_after_prose_is_the_next_run_under_the_same_header():
    # one table header, then the row again under a sentence: two runs, never one run's duplicates
    text = ("type 16 bytes 64 bytes 256 bytes 1024 bytes 8192 bytes\n"
            "aes-128-gcm 500000.00k 1500000.00k 3000000.00k 4000000.00k 4500000.00k\n"
            "aes-128-cbc 600000.00k 900000.00k 1000000.00k 1100000.00k 1200000.00k\n\n"
            "and the same box with the AES instructions masked:\n\n"
            "aes-128-gcm 90000.00k 100000.00k 110000.00k 115000.00k 116000.00k\n")
    df = cipherlab.ingest(text)
    assert df.groupby("run").size().tolist() == [10, 5]
    second = df[df.run == 1]
    assert second.block_bytes.tolist() == [16, 64, 256, 1024, 8192]
    assert second.bytes_per_s.iloc[0] == 90_000_000.0
    assert second.rule.iloc[0].startswith("run: row again after prose")
