"""Where a run ends (issue 12, layer 4): each rule of ``readers._boundaries.BOUNDARIES`` alone,
on a parser that has read a small text written here, then the ``rule`` column that names the
inferred ones, through both engines."""

from __future__ import annotations

import warnings

import pytest

import cipherlab
from cipherlab.readers import _boundaries as B
from cipherlab.readers._openssl import _Parser

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

RULES = {b.name: b for b in B.BOUNDARIES}
TABLE = ["type 16 bytes 64 bytes", "sha1 2.00k 4.00k"]
TABLE2 = ["type 16 bytes 64 bytes", "sha1 1.00k 4.00k"]
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
    ("header line after a table", [*TABLE, "and on the other box:"], B.Event(B.HEADER_LINE, "compiler"), True),
    ("header line after a table", ["compiler: gcc", *TABLE], B.Event(B.HEADER_LINE, "compiler"), True),
    ("header line after a table", ["compiler: gcc", *TABLE], B.Event(B.HEADER_LINE, "cpuinfo"), False),
    ("header line after a table", ["version: 3.0.2", "and on the other box:"],
     B.Event(B.HEADER_LINE, "compiler"), False),
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
    # 2.00k at 16 bytes is 375 sha1's in 3 s: the table above's record, not the current one's
    ("record of a table above", [*TABLE, *TABLE2], B.Event(B.PROGRESS, ("sha1", 16), 375, 16, 3.0), True),
    ("record of a table above", [*TABLE, *TABLE2], B.Event(B.PROGRESS, ("sha1", 16), 200, 16, 3.2), False),
    ("record of a table above", [*TABLE, "Doing sha1 for 3s on 16 size blocks: 375 sha1's in 3.00s",
                                 *TABLE2], B.Event(B.PROGRESS, ("sha1", 16), 375, 16, 3.0), False),
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


def _speed(version: str, runs: dict) -> tuple[str, str]:
    """The stdout (header block and table) and stderr (Doing lines) of one ``openssl speed
    -seconds 1`` run of 3.0: ``runs`` maps each algorithm to its counts at 16, 64, 256 bytes
    and its seconds."""
    out = (f"version: {version}\nbuilt on: Sun Jan  1 00:00:00 2023 UTC\noptions: bn(64,64)\n"
           "compiler: gcc -O3\nThe 'numbers' are in 1000s of bytes per second processed.\n"
           "type             16 bytes     64 bytes    256 bytes\n")
    out += "".join(f"{alg:<16}" + "".join(f"{c * n / s / 1000:>12.2f}k" for c, n in
                                          zip(counts, (16, 64, 256))) + "\n"
                   for alg, (counts, s) in runs.items())
    err = "".join(f"Doing {alg} for 1s on {n} size blocks: {c} {alg}'s in {s:.2f}s\n"
                  for alg, (counts, s) in runs.items() for n, c in zip((16, 64, 256), counts))
    return out, err


def test_records_printed_after_two_tables_join_their_tables_runs():
    """``cmd 2>err; cat err``: both runs' tables (stdout), then both runs' Doing lines (stderr).
    Each record joins the run whose printed rate it gives, in order (the 64-byte md5 rate is
    the same in both tables: the first run's record comes first); never a third run."""
    first = {"md5": ((9876543, 5432109, 2109876), 0.99), "sha256": ((12345678, 7654321, 3456789), 1.0)}
    second = {"md5": ((9000001, 5432109, 2000005), 0.99), "sha256": ((11111111, 6666667, 3333333), 0.98)}
    (out1, err1), (out2, err2) = _speed("3.0.2", first), _speed("3.0.13", second)
    text = ("$ for v in 3.0.2 3.0.13; do /opt/openssl-$v/bin/openssl speed -seconds 1 md5 sha256;"
            f" done 2>err; cat err\n{out1}{out2}{err1}{err2}")
    df = cipherlab.ingest(text)
    assert df.groupby("run").tool_version.first().tolist() == ["3.0.2", "3.0.13"]
    assert df["count"].tolist() == [c for runs in (first, second) for counts, _ in runs.values()
                                    for c in counts]
    assert df.seconds.tolist()[:3] == [0.99] * 3 and df.seconds.tolist()[-3:] == [0.98] * 3
    assert "rule" not in df.columns and df.flag.isna().all()
    # the records of the second table only (the first one's were not pasted): its own
    df = cipherlab.ingest(f"{out1}{out2}{err2}")
    assert df[df.run == 0]["count"].isna().all()
    assert df[df.run == 1]["count"].tolist() == [c for counts, _ in second.values() for c in counts]


def _facts(df, *columns) -> list[tuple]:
    runs = df.groupby("run", observed=True)
    return [tuple(None if v != v else v for v in row)
            for row in zip(*(runs[c].first() if c in df else [None] * len(runs) for c in columns))]


def test_a_header_block_without_its_version_line_after_prose_starts_the_next_run():
    """A header block pasted without its ``version:`` line (from ``built on:``, ``compiler:``
    or ``CPUINFO:``) below a run's table, with a paragraph between, is the next run's: the next
    table takes its facts, never the first run's label, version or header (which keep theirs)."""
    first = ("OpenSSL 1.1.1w  11 Sep 2023\nbuilt on: Tue Sep 12 2023 UTC\noptions: bn(64,64) rc4(16x,int)\n"
             "compiler: gcc -O2 -DOPENSSL_USE_NODELETE\n"
             "The 'numbers' are in 1000s of bytes per second processed.\n"
             "type             16 bytes     64 bytes\naes-128-cbc     412873.11k   441206.30k\n")
    second = ("built on: Fri Mar 1 2024 UTC\noptions: bn(64,32)\ncompiler: arm-linux-gnueabihf-gcc -O3\n"
              "The 'numbers' are in 1000s of bytes per second processed.\n"
              "type             16 bytes     64 bytes\naes-128-cbc      31234.56k    35678.90k\n")
    df = cipherlab.ingest(f"Laptop:\n\n{first}\nThe board's build, same command, a while later.\n\n{second}")
    assert _facts(df, "tool_version", "compiler", "built_on", "options") == [
        ("1.1.1w", "gcc -O2 -DOPENSSL_USE_NODELETE", "Tue Sep 12 2023 UTC", "bn(64,64) rc4(16x,int)"),
        (None, "arm-linux-gnueabihf-gcc -O3", "Fri Mar 1 2024 UTC", "bn(64,32)")]
    assert df[df.run == 1].bytes_per_s.tolist() == [31_234_560.0, 35_678_900.0]
    assert _facts(df, "label")[0] == ("Laptop",) and _facts(df, "label")[1] != ("Laptop",)
    # 3.x's public-key table under a header block starting at CPUINFO, in a list item's prose
    pk = ("                  sign    verify    sign/s verify/s\n"
          "rsa 2048 bits 0.000652s 0.000019s   1533.0  51018.5\n")
    df = cipherlab.ingest(f"version: 3.0.13\ncompiler: gcc\nCPUINFO: OPENSSL_ia32cap=0x7ffaf3ffffebffff:0x29c67af\n{pk}"
                          f"\n- masked, same build:\n\nCPUINFO: OPENSSL_ia32cap=~0x200000200000000\n{pk}")
    assert _facts(df, "tool_version", "cpuinfo") == [
        ("3.0.13", "OPENSSL_ia32cap=0x7ffaf3ffffebffff:0x29c67af"),
        (None, "OPENSSL_ia32cap=~0x200000200000000")]
    # no prose between, but a fact the run states already: still the next run's header
    df = cipherlab.ingest(first + first.split("\n", 1)[1].replace("gcc -O2", "clang -O1"))
    assert _facts(df, "compiler") == [("gcc -O2 -DOPENSSL_USE_NODELETE",), ("clang -O1 -DOPENSSL_USE_NODELETE",)]


# Two openssl processes started together (`printf 'md5\nsha256\n' | xargs -P 2 -n 1 openssl
# speed -seconds 1`, OpenSSL 3.0.22 here): their progress lines interleave, with no tag to tell
# them apart, and then each prints its table.
INTERLEAVED = """\
Doing md5 for 1s on 16 size blocks: 2120753 md5's in 0.51s
Doing sha256 for 1s on 16 size blocks: 4523139 sha256's in 0.75s
Doing md5 for 1s on 64 size blocks: 2372863 md5's in 0.70s
Doing sha256 for 1s on 64 size blocks: 4239271 sha256's in 0.69s
version: 3.0.22
The 'numbers' are in 1000s of bytes per second processed.
type             16 bytes     64 bytes
version: 3.0.22
md5              66533.43k   216947.47k
The 'numbers' are in 1000s of bytes per second processed.
type             16 bytes     64 bytes
sha256           96493.63k   393207.74k
"""


def test_progress_lines_of_two_processes_interleaved_are_loud():
    with pytest.warns(UserWarning, match=r"line 3: md5's progress lines resume after another "
                                         r"algorithm's.*two processes' output is interleaved"):
        df = cipherlab.ingest(INTERLEAVED)
    # (every value is one the text holds; which run holds which is what cannot be told)
    assert set((df["bytes_per_s"] / 1e4).round()) <= {6653.0, 21695.0, 9649.0, 39321.0}
    one_after_the_other = "\n".join(sorted(INTERLEAVED.splitlines()[:4])) + "\n"  # md5, then sha256
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(cipherlab.ingest(one_after_the_other)) == 4
