"""Tables shaped like openssl output in Markdown, HTML and tab pastes (readers/_tables.py).

Every expected number below is copied from the source text named in the test (the cell as
printed, then x1000 for a ``k`` cell), not computed by the code under test.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

import cipherlab
from cipherlab.errors import IngestWarning
from cipherlab.model import to_frame
from cipherlab.readers._tables import find_tables, parse_value, prose_cpu, tier_name

SEEDS = Path(__file__).resolve().parents[1] / "data" / "seeds"
AWS_VARIANTS = [
    "aws-wiki-aesni-on-off.txt",            # the wiki page as pasted (Markdown table)
    "aws-wiki-aesni-on-off-html.html",      # the same table as an HTML <table>
    "aws-wiki-aesni-on-off-thousands.md",   # Markdown, thousands separators, alignment colons
    "aws-wiki-aesni-on-off-tabs.txt",       # copied from the rendered wiki: TAB-separated cells
    "aws-wiki-aesni-on-off-mail.txt",       # quoted in a reply mail ("> | ..."), CRLF line ends
]
TIER_VARIANTS = [
    "implementation-tiers-wiki.txt",            # the wiki page as pasted (Markdown-like)
    "implementation-tiers-wiki-html.html",      # as HTML: colspan section rows, <sup> footnotes
    "implementation-tiers-wiki-mediawiki.txt",  # as MediaWiki markup ({| |- ! || |})
]


def lines_of(name: str) -> list[str]:
    return (SEEDS / name).read_text(encoding="utf-8").replace("\r\n", "\n").split("\n")


def frame(name: str) -> pd.DataFrame:
    runs, _ = find_tables(lines_of(name), name)
    return to_frame(runs, source=name)


def one(df: pd.DataFrame, **where) -> pd.Series:
    mask = pd.Series(True, index=df.index)
    for col, value in where.items():
        mask &= df[col].astype("object").eq(value)
    rows = df[mask]
    assert len(rows) == 1, f"{len(rows)} rows match {where}"
    return rows.iloc[0]


# ---------------------------------------------------------------------------------- cells


@pytest.mark.parametrize("cell, expected", [
    ("282247.11k", 282247110.0),        # AWS seed, aes-128-gcm Yes, 16 bytes
    ("6,916.78k", 6916780.0),           # tier seed, VIA Luke 1.1.0l no-asm AES-256 CBC
    ("37,086,822.40k", 37086822400.0),  # tier seed, Ryzen 3.0.2 Kernel AES-256 CBC
    ("1000751.10k", 1000751100.0),      # AWS seed, aes-128-gcm Yes, 8192 bytes
    ("0.00", 0.0),                      # openssl's "not measured"
    ("9876.54", 9876.54),               # a cell without k is already bytes/s
    ("**522138.77k**", 522138770.0),    # Markdown emphasis
    ("1.5e3", 1500.0),
])
def test_parse_value_reads_openssl_cells(cell, expected):
    assert parse_value(cell) == expected


def test_parse_value_keeps_inf_and_refuses_words():
    assert math.isinf(parse_value("infk"))
    for cell in ("n/a", "Yes", "16 bytes", "", "12,34.5k"):
        assert parse_value(cell) is None, cell


@pytest.mark.parametrize("cell, expected", [
    ("Kerneld,e", ("kernel", "d,e")),
    ("Kerneld", ("kernel", "d")),
    ("Padlockb", ("padlock", "b")),
    ("asmc", ("asm", "c")),
    ("asm", ("asm", None)),
    ("no-asm", ("no-asm", None)),
    ("AES-NI & SHA Ext.", ("aes-ni+sha-ext", None)),
])
def test_tier_names_lose_their_footnote_letters(cell, expected):
    assert tier_name(cell) == expected


# ---------------------------------------------------------------------------------- AWS seed


@pytest.mark.parametrize("name", AWS_VARIANTS)
def test_aws_table_in_every_dialect(name):
    df = frame(name)
    # 12 rows (6 ciphers x Yes/no) x 5 block sizes, all in one run
    assert len(df) == 60 and df["run"].nunique() == 1
    assert sorted(df["block_bytes"].unique()) == [16, 64, 256, 1024, 8192]
    assert set(df["aesni"]) == {"on", "off"}
    assert (df.groupby("aesni", observed=True).size() == 30).all()
    # "| aes-128-gcm | Yes | 282247.11k | ..." and "| aes-128-gcm | no | 72770.61k | ..."
    on = one(df, algorithm="aes-128-gcm", aesni="on", block_bytes=16)
    off = one(df, algorithm="aes-128-gcm", aesni="off", block_bytes=16)
    assert on["bytes_per_s"] == 282247110.0
    assert off["bytes_per_s"] == 72770610.0
    assert on["name"] == "aes-128-gcm" and on["operation"] == "encrypt"
    # "| aes-256-cbc | no | ... | 210132.99k |" (8192 bytes)
    assert one(df, algorithm="aes-256-cbc", aesni="off", block_bytes=8192)["bytes_per_s"] == \
        210132990.0
    # the prose: "- AWS r3.xlarge instance", "- OpenSSL version 1.0.1f"
    assert on["tool"] == "openssl" and on["tool_version"] == "1.0.1f"
    assert on["dialect"] == {"html": "html", "txt": "tabs" if "tabs" in name else "markdown",
                             "md": "markdown"}[name.rsplit(".", 1)[1]]


def test_aws_seed_provenance_and_run_metadata():
    df = frame("aws-wiki-aesni-on-off.txt")
    row = one(df, algorithm="aes-128-gcm", aesni="on", block_bytes=16)
    # line 26 of the seed is "| aes-128-gcm | Yes | 282247.11k | ..."
    assert row["line"] == 26
    assert lines_of("aws-wiki-aesni-on-off.txt")[25].startswith("| aes-128-gcm | Yes | 282247.11k")
    assert row["label"] == "AWS r3.xlarge"
    assert row["timing"] == "elapsed"        # "openssl speed -elapsed -evp aes-128-cbc"
    assert row["compiler"] == "gcc 4.8.2"    # "- gcc - 4.8.2, and"


def test_aws_seed_consumes_exactly_the_table():
    lines = lines_of("aws-wiki-aesni-on-off.txt")
    _, consumed = find_tables(lines, "aws")
    assert {lines[i].split("|")[1].strip() for i in consumed} >= {"Cipher", "---", "aes-128-cbc"}
    assert all(lines[i].startswith("|") for i in consumed)
    assert len(consumed) == 14   # header + separator + 12 rows


def test_html_row_line_is_the_line_of_its_values():
    df = frame("aws-wiki-aesni-on-off-html.html")
    row = one(df, algorithm="aes-128-gcm", aesni="on", block_bytes=16)
    assert "<td>282247.11k</td>" in lines_of("aws-wiki-aesni-on-off-html.html")[row["line"] - 1]


# ---------------------------------------------------------------------------------- tier seed


@pytest.mark.parametrize("name", TIER_VARIANTS)
def test_implementation_tier_table(name):
    df = frame(name)
    # four sections (2 CPUs x 2 OpenSSL versions) of 4, 4, 4 and 3 methods x 6 algorithms
    assert df["run"].nunique() == 4 and len(df) == 90
    assert set(df["block_bytes"]) == {8192}    # "Using the results for 8,192 byte blocks:"
    assert set(df["algorithm"]) == {"aes-256-cbc", "idea-cbc", "md5", "sha1", "sha256", "sha512"}
    # VIA Luke, OpenSSL 3.0.2: "| Kerneld | 2,033,909.76k | 9,627.65k | ..."
    via = one(df, cpu="VIA Luke", tool_version="3.0.2", tier="kernel", algorithm="aes-256-cbc")
    assert via["bytes_per_s"] == 2033909760.0
    assert via["clock_hz"] == 1.0e9            # "VIA Luke @ 1.0 GHz"
    assert via["note"] == "d"
    # Ryzen 5 3600, OpenSSL 3.0.2: "| Kerneld | 37,086,822.40k | ..."; the text gives no clock
    ryzen = one(df, cpu="AMD Ryzen 5 3600", tool_version="3.0.2", tier="kernel",
                algorithm="aes-256-cbc")
    assert ryzen["bytes_per_s"] == 37086822400.0
    assert pd.isna(ryzen["clock_hz"])
    # VIA Luke, OpenSSL 1.1.0l: "| Kerneld,e | 11,127.92k |" and "| Padlockb | 520,596.10k |"
    assert one(df, cpu="VIA Luke", tool_version="1.1.0l", tier="kernel",
               algorithm="aes-256-cbc")[["bytes_per_s", "note"]].tolist() == [11127920.0, "d,e"]
    assert one(df, cpu="VIA Luke", tool_version="1.1.0l", tier="padlock",
               algorithm="aes-256-cbc")["bytes_per_s"] == 520596100.0
    # Ryzen 1.1.0l: "| AES-NI & SHA Ext. | 1,086,559.57k |"; Ryzen 3.0.2: "| asmc | 1,097,910.95k |"
    assert one(df, tool_version="1.1.0l", tier="aes-ni+sha-ext",
               algorithm="aes-256-cbc")["bytes_per_s"] == 1086559570.0
    asm = one(df, cpu="AMD Ryzen 5 3600", tool_version="3.0.2", tier="asm", algorithm="sha1")
    assert asm["bytes_per_s"] == 1036997970.0 and asm["note"] == "c"
    # "IDEAa CBC" (3.0.2 sections): printed name kept, footnote in note, canonical algorithm
    idea = one(df, cpu="VIA Luke", tool_version="3.0.2", tier="no-asm", algorithm="idea-cbc")
    assert idea["name"] == "IDEAa CBC" and idea["note"] == "a"
    assert idea["bytes_per_s"] == 9662710.0
    assert set(df["tier"]) == {"no-asm", "asm", "kernel", "padlock", "aes-ni+sha-ext"}


def test_tier_sections_label_their_runs():
    df = frame("implementation-tiers-wiki.txt")
    labels = df.groupby("run", observed=True)["label"].first().tolist()
    assert labels == [
        "VIA Luke @ 1.0 GHz / OpenSSL 1.1.0l on Debian Linux 11 for x86",
        "VIA Luke @ 1.0 GHz / OpenSSL 3.0.2 on Debian Linux 11 for x86",
        "AMD Ryzen 5 3600 / OpenSSL 1.1.0l with Debian Linux 11 for x86_64",
        "AMD Ryzen 5 3600 / OpenSSL 3.0.2 with Debian Linux 11 for x86_64",
    ]
    # line 37 of the seed is the Ryzen 3.0.2 Kernel row
    assert one(df, cpu="AMD Ryzen 5 3600", tool_version="3.0.2", tier="kernel",
               algorithm="md5")["line"] == 37


def test_documents_without_tables_yield_nothing():
    for name in ("netbsd-ml-three-os-openssl-speed.txt", "openjdk-ml-aes-gcm-slow.txt"):
        assert find_tables(lines_of(name), name) == ([], set())


# ---------------------------------------------------------------------------------- edge cases


def test_unreadable_row_is_left_for_the_caller_to_report():
    text = ["| type | 16 bytes | 64 bytes |", "|---|---|---|",
            "| md5 | 1.00k | 2.00k |", "| sha1 | 3.00k | oops |", "| Notes | see | below |",
            "| sha256 | 522 MB/s | 600 MB/s |", "| sha512 | 1.2.3k | 2.00k |"]
    unplaced: list = []
    runs, consumed = find_tables(text, "t", unplaced=unplaced)
    assert consumed == {0, 1, 2, 5}
    # (cells that carry their unit are read in it)
    assert [(c["name"], c["bytes_per_s"]) for c in runs[0].cells] == [
        ("md5", 1000.0), ("md5", 2000.0), ("sha256", 522e6), ("sha256", 600e6)]
    # rows with numbers are reported (1-based line); the wordy row is not a measurement
    assert unplaced == [(4, "| sha1 | 3.00k | oops |"), (7, "| sha512 | 1.2.3k | 2.00k |")]


def test_ingest_warns_about_an_unreadable_table_row_and_strict_raises():
    import cipherlab
    from cipherlab.errors import IngestError, IngestWarning

    text = ("Measured with OpenSSL 1.1.1w\n| type | 16 bytes | 64 bytes |\n|---|---|---|\n"
            "| md5 | 1.00k | 2.00k |\n| sha1 | 3.00k | oops |\n")
    with pytest.warns(IngestWarning, match=r"1 line\(s\) look like measurements .*line\(s\) 5"):
        df = cipherlab.ingest(text)
    assert df["name"].astype(str).tolist() == ["md5", "md5"]
    with pytest.raises(IngestError) as err:
        cipherlab.ingest(text, strict=True)
    assert (err.value.lineno, err.value.line) == (5, "| sha1 | 3.00k | oops |")


def test_tables_that_are_not_openssl_shaped_are_not_consumed():
    text = ["| Name | Age |", "|---|---|", "| Bob | 42 |", "", "if (a || b) { x |= 1; }"]
    assert find_tables(text, "t") == ([], set())


def test_transposed_table_needs_its_block_size_in_the_prose():
    table = ["| Method | AES-256 CBC | MD5 |", "|---|---|---|", "| asm | 1.00k | 2.00k |"]
    assert find_tables(table, "t") == ([], set())
    runs, consumed = find_tables(["Results for 16 byte blocks:", *table], "t")
    assert consumed == {1, 2, 3}
    assert {c["block_bytes"] for c in runs[0].cells} == {16}


def test_tab_indented_openssl_text_is_left_to_the_text_parser():
    text = ["type\t16 bytes\t64 bytes", "md5\t1.00k\t2.00k"]
    assert find_tables(text, "t") == ([], set())
    # openssl's public-key header with TABs for the blank name column, below prose that names
    # a block size: still openssl text, not a transposed table with a blank corner
    unplaced: list = []
    text = ["Results for 16 byte blocks", "\t\tsign\tverify\tsign/s\tverify/s",
            "rsa 2048 bits\t0.000801s\t0.000024s\t1247.7\t41682.7"]
    assert find_tables(text, "t", unplaced=unplaced) == ([], set()) and unplaced == []


def test_html_without_closing_cell_tags_and_with_colspan_sections():
    text = ["<p>OpenSSL 3.0.2 on my laptop</p>", "<table>",
            "<tr><th colspan=3>Laptop</th>",
            "<tr><th>Algorithm<th>16 bytes<th>64 bytes",
            "<tr><td>SHA-256<td>1,000.00k<td>9876.54", "</table>"]
    runs, consumed = find_tables(text, "t")
    assert consumed == {1, 2, 3, 4, 5}
    assert runs[0].meta["tool_version"] == "3.0.2" and runs[0].meta["label"] == "Laptop"
    assert [(c["algorithm"], c["block_bytes"], c["bytes_per_s"]) for c in runs[0].cells] == [
        ("sha256", 16, 1000000.0), ("sha256", 64, 9876.54)]


def test_repeated_header_starts_a_new_run_and_conditions_are_per_row():
    text = ["## With AES-NI", "| Cipher | AES-NI | 16 bytes |", "|---|---|---|",
            "| aes-128-gcm | enabled | 2.00k |", "| aes-128-gcm | disabled | 1.00k |", "",
            "## Second machine", "| Cipher | 16 bytes |", "|---|---|", "| md5 | 3.00k |"]
    runs, _ = find_tables(text, "t")
    df = to_frame(runs, source="t", conditions={"host": "x"})
    assert df.groupby("run", observed=True)["label"].first().tolist() == [
        "With AES-NI", "Second machine"]
    assert df["aesni"].astype("object").tolist()[:2] == ["on", "off"]
    assert pd.isna(df["aesni"].iloc[2])
    assert set(df["host"]) == {"x"}


# ---------------------------------------------------------------------------------- via ingest


def _measurements(df: pd.DataFrame) -> list[tuple]:
    return sorted(zip(df["algorithm"].astype(str), df["aesni"].astype(str),
                      df["block_bytes"].astype(int), df["bytes_per_s"]))


def test_every_aws_variant_ingests_to_the_same_measurements():
    import cipherlab

    frames = {name: cipherlab.ingest(SEEDS / name) for name in AWS_VARIANTS}
    reference = _measurements(frames["aws-wiki-aesni-on-off.txt"])
    assert len(reference) == 60
    for name, df in frames.items():
        assert _measurements(df) == reference, name
        assert set(df["tool_version"]) == {"1.0.1f"}, name


def test_netbsd_seed_three_runs_via_ingest():
    import cipherlab

    df = cipherlab.ingest(SEEDS / "netbsd-ml-three-os-openssl-speed.txt")
    labels = df.groupby("run", observed=True)["label"].first().tolist()
    assert labels == ["Linux (P3 750Mhz; 512MBram)", "OpenBSD (P3 500Mhz; 192MBram)",
                      "NetBSD (P3 750Mhz; 512MBram)"]
    assert df.groupby("run", observed=True)["tool_version"].first().tolist() == [
        "0.9.8g", "0.9.7j", "0.9.8e"]
    # "aes-128 cbc 21271.44k ..." (line 38), "... 14453.82k" (line 86), "... 13096.45k" (line 123)
    aes = df[(df["name"] == "aes-128 cbc") & (df["block_bytes"] == 16)]
    assert aes[["run", "line", "bytes_per_s"]].to_numpy().tolist() == [
        [0, 38, 21271440.0], [1, 86, 14453820.0], [2, 123, 13096450.0]]
    assert set(aes["algorithm"]) == {"aes-128-cbc"}
    # "camellia-128 cbc 0.00 0.00 0.00 0.00" wrapped, "0.00" on the next line: five cells,
    # all "not measured", in the Linux and NetBSD runs (0.9.7j has no camellia)
    cam = df[df["name"] == "camellia-128 cbc"]
    assert cam.groupby("run").size().to_dict() == {0: 5, 2: 5}
    assert set(cam["flag"]) == {"not measured"} and cam["bytes_per_s"].isna().all()
    assert set(cam.loc[cam["run"] == 0, "line"]) == {41}
    assert lines_of("netbsd-ml-three-os-openssl-speed.txt")[41] == "0.00"


def test_every_tier_variant_ingests_to_the_same_measurements():
    import cipherlab

    def cells(df):
        text = [df[c].astype("object").fillna("").tolist()
                for c in ("cpu", "tool_version", "tier", "note", "name")]
        return sorted(zip(*text, df["bytes_per_s"]))

    frames = {name: cipherlab.ingest(SEEDS / name) for name in TIER_VARIANTS}
    reference = cells(frames[TIER_VARIANTS[0]])
    assert len(reference) == 90
    for name, df in frames.items():
        assert cells(df) == reference, name


def test_openjdk_thread_has_no_openssl_measurements():
    # its two figures are prose; they are bundled as data/seeds/openjdk-tls-transfer.csv
    import cipherlab
    from cipherlab.errors import IngestError

    with pytest.raises(IngestError, match="no measurements"):
        cipherlab.ingest(SEEDS / "openjdk-ml-aes-gcm-slow.txt")


# ---------------------------------------------------------------------------------- units


def _rates(lines: list[str]) -> list[float]:
    runs, _ = find_tables(lines, "t")
    return [c["bytes_per_s"] for c in runs[0].cells]


TABLE = ["| Cipher | 16 bytes | 64 bytes |", "|---|---|---|",
         "| aes-128-cbc | 522138.77 | 9,876.54 |"]


def test_a_table_retyped_without_k_is_in_thousands_when_the_text_says_so():
    assert _rates(["Numbers in 1000s of bytes per second:", *TABLE]) == [522138770.0, 9876540.0]
    kbs = ["| Cipher | 16 bytes (kB/s) | 64 bytes (kB/s) |", *TABLE[1:]]
    assert _rates(kbs) == [522138770.0, 9876540.0]


def test_openssl_convention_wins_in_a_table_that_uses_k():
    # pasted verbatim under openssl's own units line: "9876.54" without k is bytes/s
    text = ["The 'numbers' are in 1000s of bytes per second processed.",
            "| type | 16 bytes | 64 bytes |", "|---|---|---|", "| md5 | 522138.77k | 9876.54 |"]
    assert _rates(text) == [522138770.0, 9876.54]


def test_plain_cells_above_10000_in_a_table_with_k_are_kept_and_warned_about():
    from cipherlab.errors import IngestWarning

    text = ["| Cipher | 16 bytes | 64 bytes |", "|---|---|---|", "| md5 | 1.00k | 2.00k |",
            "| aes-128-cbc | 522138.77 | 9,876.54 |"]
    with pytest.warns(IngestWarning, match=r"without 'k' above 10000 at line\(s\) 4 .*bytes/s"):
        assert _rates(text)[2:] == [522138.77, 9876.54]


def test_a_table_without_k_or_a_stated_unit_is_flagged_and_warned_about_never_guessed():
    from cipherlab.errors import IngestWarning

    with pytest.warns(IngestWarning, match=r"line\(s\) 3 have no unit.*flagged 'unit unknown'"):
        runs, _ = find_tables(TABLE, "t")
    assert [(c["bytes_per_s"], c["flag"]) for c in runs[0].cells] == [
        (522138.77, "unit unknown"), (9876.54, "unit unknown")]


@pytest.mark.parametrize("above, header, factor", [
    ("Throughput in MB/s:", "| Cipher | 16 bytes | 64 bytes |", 1e6),
    ("", "| Cipher (MiB/s) | 16 bytes | 64 bytes |", 2.0 ** 20),
    ("", "| Cipher | 16 bytes (GB/s) | 64 bytes (GB/s) |", 1e9),
    ("Rates in Mbps", "| Cipher | 16 bytes | 64 bytes |", 1e6 / 8),
    ("Numbers in KB/s", "| Cipher | 16 bytes | 64 bytes |", 1e3),
    ("Numbers in bytes per second", "| Cipher | 16 bytes | 64 bytes |", 1.0),
])
def test_a_table_without_k_is_in_the_unit_the_text_states(above, header, factor):
    rates = _rates([above, header, *TABLE[1:]])
    assert rates == pytest.approx([522138.77 * factor, 9876.54 * factor], rel=1e-12)


def test_a_quantity_in_the_prose_states_no_unit():
    from cipherlab.errors import IngestWarning

    with pytest.warns(IngestWarning, match="no unit"):
        runs, _ = find_tables(["The disk reads at 500 MB/s, for comparison.", *TABLE], "t")
    assert {c["flag"] for c in runs[0].cells} == {"unit unknown"}


# ---------------------------------------------------------------------------------- headers


def _cells(lines: list[str]) -> list[tuple]:
    runs, _ = find_tables(lines, "t")
    return [(c["name"], c["block_bytes"], c["bytes_per_s"]) for r in runs for c in r.cells]


def test_size_headers_with_units_and_two_level_headers():
    expected = [("md5", 16, 1000.0), ("md5", 1024, 2000.0)]
    assert _cells(["| Cipher | 16B | 1 KB |", "|---|---|---|", "| md5 | 1.00k | 2.00k |"]) == \
        expected
    # bare numbers are sizes when the header says so, in the corner ...
    assert _cells(["| type \\ bytes | 16 | 1024 |", "|---|---|---|",
                   "| md5 | 1.00k | 2.00k |"]) == expected
    # ... or in a spanning row above (HTML two-level header)
    assert _cells(["<table>", "<tr><th></th><th colspan=2>Block size (bytes)</th></tr>",
                   "<tr><th>Cipher</th><th>16</th><th>1024</th></tr>",
                   "<tr><td>md5</td><td>1.00k</td><td>2.00k</td></tr>", "</table>"]) == expected
    # but a data row of whole numbers is data, not a header (of no stated unit: warned)
    with pytest.warns(IngestWarning, match="no unit"):
        assert _cells(["| Cipher | 16 bytes | 1024 bytes |", "|---|---|---|",
                       "| md5 | 1000 | 2000 |"]) == [("md5", 16, 1000.0), ("md5", 1024, 2000.0)]


def test_a_section_row_sets_the_cpu_only_when_it_names_one():
    text = ["On an Intel Xeon @ 2.0 GHz:", "| Cipher | 16 bytes |", "|---|---|",
            "| **With AES-NI** | |", "| aes-128-gcm | 2.00k |"]
    runs, _ = find_tables(text, "t")
    assert runs[0].meta["label"] == "With AES-NI"
    assert (runs[0].meta["cpu"], runs[0].meta["clock_hz"]) == ("Intel Xeon", 2.0e9)


_MARKUP = [
    '<table><tr><td colspan="2">a &amp; b</td></tr>\n<tr><TD>1<br/>2</td><td>3</td></tr></table>',
    '<!doctype html>\n<TABLE BORDER=1><TR><TH COLSPAN="2">x<td colspan=3/><td colspan="&#50;">y</TABLE>',
    '<table>\n<caption>Cap &lt;x&gt;</caption>\n<tr>\n<td\ncolspan=3\n>\n1,024.5k\n</td>\n</tr>\n</table>',
    "<table><tr><td title='it' a=\"x>y\">&#49;&nbsp;2</td></tr></table><p>after</p>",
]
_NOT_PLAIN = [
    "<table><tr><td>1 < 2</td></tr></table>",  # a stray "<"
    "<table><!-- a comment --><tr><td>1</td></tr></table>",
    '<table><tr><td>1</td></tr></table><script>x = "<td>"</script>',
    '<table><tr><td a="1"b="2">1</td></tr></table>',  # attributes html.parser reads its own way
]


@pytest.mark.parametrize("markup", _MARKUP + [SEEDS.joinpath(name).read_text() for name in (
    "aws-wiki-aesni-on-off-html.html", "implementation-tiers-wiki-html.html")])
def test_plain_markup_route_reads_as_html_parser(markup):
    """The quick route for plain <table> markup finds what html.parser finds, lines included."""
    from cipherlab.readers._tables._html import _HTMLTableParser
    slow, quick = _HTMLTableParser(), _HTMLTableParser()
    slow.feed(markup)
    slow.close()
    assert quick.feed_plain(markup)
    assert quick.tables == slow.tables and quick.tables


@pytest.mark.parametrize("markup", _NOT_PLAIN)
def test_other_markup_is_left_to_html_parser(markup):
    from cipherlab.readers._tables._html import _HTMLTableParser
    parser = _HTMLTableParser()
    assert not parser.feed_plain(markup)
    assert parser.tables == []  # (nothing handed before the refusal)


@pytest.mark.parametrize("prose, expected", [
    ("Dell R720, Intel(R) Xeon(R) CPU E5-2680 v2 @ 2.80GHz:",
     {"cpu": "Intel Xeon CPU E5-2680 v2", "clock_hz": 2.8e9}),
    ("Running on the new EPYC 9654 box", {"cpu": "EPYC 9654"}),      # (a common noun ends it)
    ("Old Mac, Apple G5 1.8GHz", {"cpu": "Apple G5", "clock_hz": 1.8e9}),
    ("Raspberry Pi 4 @ 1.5GHz:", {"cpu": "Raspberry Pi 4", "clock_hz": 1.5e9}),
    ("Core 2 Duo E8400 @ 3.00GHz", {"cpu": "Core 2 Duo E8400", "clock_hz": 3.0e9}),
    # a vendor's technology, a library, a common word: no CPU
    ("Intel Advanced Encryption Standard New Instructions", {}),
    ("ARM Assembly MMM implementation", {}),
    ("on my quad Core laptop @ 2.4GHz", {}),
    # two machines in one sentence: which row ran on which is not known here
    ("a Pi 5 (Cortex-A76 @ 2.4GHz) against a Pi 4 (Cortex-A72 @ 1.8GHz)", {}),
])
def test_prose_names_a_cpu_only_when_it_names_one(prose, expected):
    assert prose_cpu(prose) == expected


def test_a_sentence_naming_two_machines_fills_no_cpu_or_clock(engine):
    df = cipherlab.ingest(
        "I ran it on a Pi 5 (Cortex-A76 @ 2.4GHz, OpenSSL 3.0.11) and on a Pi 4 (Cortex-A72 @ "
        "1.8GHz). All numbers are MB/s.\n\n| Cipher | Board | 16 B | 16 KiB |\n|---|---|---|---|\n"
        "| AES-128-GCM | Pi 5 | 412.3 | 3,120.4 |\n| AES-128-GCM | Pi 4 | 38.2 | 111.0 |\n")
    assert len(df) == 4 and df["cpu"].isna().all() and df["clock_hz"].isna().all()
    assert sorted(df["label"].unique()) == ["Pi 4", "Pi 5"]  # (a machine column: runs)


def test_the_prose_search_finds_every_line_a_fact_hint_finds():
    """The one search over a span of prose (grouped by first letter, for speed) misses no line
    that the per-line hints would read: facts, a unit, markup, a block size (the words
    block_size_in_prose looks for)."""
    from cipherlab.readers._tables._facts import FACT_HINT as _FACT_HINT
    from cipherlab.readers._tables._prose import _PROSE_HINT, UNIT_HINT as _UNIT_HINT
    lines = [line.lower() for path in Path(__file__).resolve().parents[1].joinpath("data").rglob("*")
             if path.suffix in (".txt", ".md", ".html") for line in path.read_text(errors="replace")
             .splitlines()] + ["per  s", "an i7-4770 box", "core i5-1240p", "cortex-a76 @ 2.4ghz",
                               "sha256\tat  16 kib"]
    hinted = [line for line in lines if _FACT_HINT.search(line) or "<" in line or "&" in line
              or _UNIT_HINT.search(" ".join(line.split())) or "block" in line or "byte" in line
              or "@" in line or " at " in " ".join(line.split())]
    assert len(hinted) > 500
    assert all(_PROSE_HINT.search(line) for line in hinted)
