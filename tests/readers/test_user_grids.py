"""Spot tests of the table-structure fixes the user document texts found (``tests/data/user/
documents``, read whole in ``test_user_pastes.py``; issue 12, layer 3): each rule on a small
text written here in another variant of its shape (other markup, names, units, orientation),
through both engines. Every expected number is the cell as printed times its stated unit.
"""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import cipherlab
from cipherlab.errors import IngestError, IngestWarning
from cipherlab.readers._grids import ALGORITHM_CLASS, role

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)


def read(text: str) -> tuple[pd.DataFrame | None, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            df = cipherlab.ingest(text)
        except IngestError:
            df = None
    return df, [str(w.message) for w in caught if issubclass(w.category, IngestWarning)]


def cells(df: pd.DataFrame, *columns: str) -> list[tuple]:
    return sorted(map(tuple, df[list(columns)].astype(object).itertuples(index=False)))


def test_hosts_as_rows_under_a_heading_that_says_perf_as_a_word():
    """A heading "Perf notes ..." (the English word) made the table look like perf's output;
    the program is ``perf`` in lower case, as a command names it."""
    df, _ = read("## Perf notes: sha256 on the build farm (OpenSSL 3.2.1)\n\n"
                 "Values in MB/s, from `openssl speed -evp sha256`.\n\n"
                 "| Machine | 64 bytes | 8192 bytes |\n|---|---|---|\n"
                 "| farm-01 | 512.5 | 2210.0 |\n| farm-02 | 498.25 | 2190.5 |\n")
    assert cells(df, "label", "algorithm", "block_bytes", "bytes_per_s") == [
        ("farm-01", "sha256", 64, 512.5e6), ("farm-01", "sha256", 8192, 2210.0e6),
        ("farm-02", "sha256", 64, 498.25e6), ("farm-02", "sha256", 8192, 2190.5e6)]
    assert df["flag"].isna().all() if "flag" in df else True


def test_a_table_introduced_by_perf_the_program_is_not_read():
    df, _ = read("perf stat output, per run:\n\n| Machine | 64 bytes | 8192 bytes |\n|---|---|---|\n"
                 "| farm-01 | 512.5 | 2210.0 |\n")
    assert df is None


@pytest.mark.parametrize("text, on, off", [
    ("AVX2 on", "avx2", "on"), ("without AVX2", "avx2", "off"), ("SHA-NI disabled", "shani", "off"),
    ("no-aesni", "aesni", "off"), ("AES-NI: yes", "aesni", "on")])
def test_a_cpu_feature_switched_on_or_off_is_a_condition(text, on, off):
    assert role(text).kind == "switch" and role(text).conditions == ((on, off),)


@pytest.mark.parametrize("text", [
    # conditions as columns, a derived ratio column beside them; size and unit in the prose
    "With and without AVX2 (OpenSSL 3.1.4), numbers in MiB/s at 8 KiB blocks.\n\n"
    "| Cipher | with AVX2 | without AVX2 | Ratio |\n|:--|--:|--:|--:|\n"
    "| chacha20-poly1305 | 2048.5 | 1024.25 | 2.00x |\n| aes-256-ctr | 3000 | 1500 | 2.00x |\n",
    # transposed: the conditions as rows, the algorithms as columns (TABs, a gain in %)
    "With and without AVX2 (OpenSSL 3.1.4), numbers in MiB/s at 8 KiB blocks.\n\n"
    "Build\tchacha20-poly1305\taes-256-ctr\tGain\nwith AVX2\t2048.5\t3000\t+100 %\n"
    "without AVX2\t1024.25\t1500\t-\n"])
def test_feature_on_off_columns_or_rows_are_conditions_and_ratios_are_derived(text):
    df, _ = read(text)
    mib = 2.0 ** 20
    assert cells(df, "algorithm", "avx2", "block_bytes", "bytes_per_s") == [
        ("aes-256-ctr", "off", 8192, 1500 * mib), ("aes-256-ctr", "on", 8192, 3000 * mib),
        ("chacha20-poly1305", "off", 8192, 1024.25 * mib),
        ("chacha20-poly1305", "on", 8192, 2048.5 * mib)]
    assert df["run"].nunique() == 1  # (a condition of the cells, not a run of its own)


@pytest.mark.parametrize("text", [
    "Raspberry Pi 5, OpenSSL 3.0.14. Block sizes in bytes; k = 1000s of bytes/s.\n\n"
    "| Digest | 64 | 1024 | 16384 |\n|---|---|---|---|\n"
    "| [md5](https://example.org/md5) | 401223.11k | 702334.50k | 751002.00k |\n"
    "| _sha1_\u2020 | 380001.00k | 900200.10k | 1001234.56k |\n",
    "Raspberry Pi 5, OpenSSL 3.0.14. Block sizes in bytes; k = 1000s of bytes/s.\n\n"
    "Digest\t64\t1024\t16384\nmd5\t401223.11k\t702334.50k\t751002.00k\n"
    "sha1\u00b2\t380001.00k\t900200.10k\t1001234.56k\n"])
def test_bare_sizes_as_headers_where_the_prose_says_they_are_block_sizes(text):
    """``| Digest | 64 | 1024 | 16384 |``: bare numbers as column titles are sizes when the text
    says so (a link, emphasis and a footnote mark around a row's name are not part of it)."""
    df, _ = read(text)
    assert cells(df, "algorithm", "block_bytes", "bytes_per_s") == [
        ("md5", 64, 401223110.0), ("md5", 1024, 702334500.0), ("md5", 16384, 751002000.0),
        ("sha1", 64, 380001000.0), ("sha1", 1024, 900200100.0), ("sha1", 16384, 1001234560.0)]
    assert set(df["name"]) == {"md5", "sha1"}


def test_bare_numbers_as_headers_are_not_sizes_unless_the_text_says_so():
    df, _ = read("RSA on the Pi, OpenSSL 3.0.14, sign/s.\n\n| Operation | 1024 | 2048 |\n|---|---|---|\n"
                 "| sign | 1200.5 | 301.5 |\n")
    assert df is None or "block_bytes" not in df or df["block_bytes"].isna().all()


@pytest.mark.parametrize("title", ["Symmetric", "Hash functions", "Block ciphers", "AEAD",
                                   "Public key", "MACs:"])
def test_a_section_row_naming_a_class_of_algorithms_starts_no_run(title):
    assert ALGORITHM_CLASS.match(title)
    text = (f"Numbers in MB/s (OpenSSL 3.3.0, i7-1165G7).\n\n<table>\n"
            f"<tr><th>Algorithm</th><th>16 bytes</th><th>1024 bytes</th></tr>\n"
            f"<tr><td colspan=3><b>{title}</b></td></tr>\n"
            f"<tr><td>aes-128-ctr</td><td>700.5</td><td>9000.25</td></tr>\n"
            f"<tr><td colspan=3><b>Digests</b></td></tr>\n"
            f"<tr><td>sha512</td><td>80.5</td><td>900.75</td></tr>\n</table>\n")
    df, _ = read(text)
    assert df["run"].nunique() == 1 and len(df) == 4
    assert not set(df["label"].dropna()) & {title, "Digests"}


def test_a_section_row_naming_a_machine_still_starts_a_run():
    assert not ALGORITHM_CLASS.match("Ryzen 9 7950X") and not ALGORITHM_CLASS.match("Legacy build")
    df, _ = read("Numbers in MB/s (OpenSSL 3.3.0).\n\n| Algorithm | 16 bytes | 1024 bytes |\n"
                 "|---|---|---|\n| **Ryzen 9 7950X** | | |\n| aes-128-ctr | 700.5 | 9000.25 |\n"
                 "| **Ryzen 5 3600** | | |\n| aes-128-ctr | 500.5 | 7000.25 |\n")
    assert df["run"].nunique() == 2


_ROWSPAN_HEADER = ("Numbers in MB/s, OpenSSL 3.4.0.\n<table>\n<tr>{}<th colspan=2>m7i (Xeon 8488C)</th>"
                   "<th colspan=2>m7a (EPYC 9R14)</th></tr>\n<tr><th>64 bytes</th><th>16384 bytes</th>"
                   "<th>64 bytes</th><th>16384 bytes</th></tr>\n<tr><td>aes-256-ctr</td><td>3001.5</td>"
                   "<td>12000.25</td><td>2800.5</td><td>11000.75</td></tr>\n</table>\n")
_ROWSPAN_BODY = ("OpenSSL 3.3.1, numbers in MB/s.\n<table><tr><th>{}</th><th>Digest</th><th>64 bytes</th>"
                 "</tr>\n<tr><td rowspan=\"3\">rpi5</td><td>sha1</td><td>300.5</td></tr>\n"
                 "<tr><td>sha256</td><td>200.25</td></tr>\n<tr><td>sha512</td><td>150.75</td></tr>\n"
                 "<tr><td>rpi4</td><td>sha1</td><td>100.5</td></tr></table>\n")
_M7 = [("m7a (EPYC 9R14)", "aes-256-ctr", 64, 2800.5e6),
       ("m7a (EPYC 9R14)", "aes-256-ctr", 16384, 11000.75e6),
       ("m7i (Xeon 8488C)", "aes-256-ctr", 64, 3001.5e6),
       ("m7i (Xeon 8488C)", "aes-256-ctr", 16384, 12000.25e6)]
_RPI = [("rpi4", "sha1", 64, 100.5e6), ("rpi5", "sha1", 64, 300.5e6), ("rpi5", "sha256", 64, 200.25e6),
        ("rpi5", "sha512", 64, 150.75e6)]


@pytest.mark.parametrize("text, expected", [
    # a corner spanning both header rows: the second starts one column right
    (_ROWSPAN_HEADER.format('<th rowspan="2">Cipher</th>'), _M7),
    (_ROWSPAN_HEADER.format("<th rowspan=2></th>"), _M7),
    # a machine spanning its group of rows (a machine column beside the algorithm's: runs)
    (_ROWSPAN_BODY.format("Machine"), _RPI), (_ROWSPAN_BODY.format("Board"), _RPI)])
def test_a_cell_spanning_rows_is_in_each_row_it_spans(text, expected):
    """``rowspan``: the rows under such a cell have a cell fewer. Read as they were, each size
    title of a second header row stood over the column left of its own (16 and 8192 silently
    swapped), and a group's second row put its cipher in the host's column."""
    df, _ = read(text)
    assert cells(df, "label", "algorithm", "block_bytes", "bytes_per_s") == expected
    assert not {"machine", "board"} & set(df.columns)


@pytest.mark.parametrize("summary", ["**Mean**", "Total", "Geomean", "_avg_"])
def test_a_summary_row_under_rows_of_runs_is_no_run(summary):
    """An 'Average' row under rows of hosts came out as a run 'Average' (silently)."""
    df, _ = read("OpenSSL 3.0.13, 16384-byte blocks, GB/s.\n\n| Device | aes-128-gcm | sha256 |\n"
                 f"|---|---|---|\n| nuc-a | 4.5 | 1.5 |\n| nuc-b | 5.5 | 2.5 |\n| {summary} | 5.0 | 2.0 |\n")
    assert sorted(set(df["label"])) == ["nuc-a", "nuc-b"] and len(df) == 4


def test_a_statistic_column_beside_run_columns_is_derived_and_a_table_of_stats_is_not():
    df, _ = read("OpenSSL 3.2.2 at 1024-byte blocks, numbers in MB/s.\n\n| Cipher | Try 1 | Try 2 | avg |\n"
                 "|---|---|---|---|\n| aes-128-ctr | 100.5 | 101.5 | 101.0 |\n")
    assert cells(df, "label", "bytes_per_s") == [("Try 1", 100.5e6), ("Try 2", 101.5e6)]
    df, _ = read("OpenSSL 3.2.2 at 1024-byte blocks, numbers in MB/s.\n\n| Cipher | min | max |\n"
                 "|---|---|---|\n| aes-128-ctr | 100.5 | 101.5 |\n")
    assert sorted(df["stat"]) == ["max", "min"]


def test_a_derived_row_under_two_builds_is_not_a_measurement():
    df, _ = read("OpenSSL 3.1.0 at 8192-byte blocks, in KB/s.\n\nBuild\tsha1\tmd5\nasm\t1000.5\t800.5\n"
                 "no-asm\t500.25\t400.25\nSpeed-up\t2.0\t2.0\n")
    assert len(df) == 4 and 2.0e3 not in set(df["bytes_per_s"])


@pytest.mark.parametrize("halves", [2, 3])
def test_a_table_split_in_halves_side_by_side_is_one_table(halves):
    """``| Algorithm | 64 bytes | Algorithm | 64 bytes |``: each row holds two algorithms; read
    as one, the second half's numbers were the first name's (silently)."""
    names = ["md4", "sha1", "sha512", "whirlpool", "md5", "sha384"][:2 * halves]
    values = [f"{100 + k}.5" for k in range(len(names))]
    header = "| Hash | 64 bytes " * halves + "|\n" + "|---|---" * halves + "|\n"
    rows = "".join("| " + " | ".join(f"{names[h * 2 + r]} | {values[h * 2 + r]}" for h in range(halves))
                   + " |\n" for r in range(2))
    df, _ = read("OpenSSL 1.1.1w, in 1000s of bytes per second\n\n" + header + rows)
    assert cells(df, "algorithm", "block_bytes", "bytes_per_s") == sorted(
        (n, 64, float(v) * 1e3) for n, v in zip(names, values, strict=True))
    assert df["run"].nunique() == 1


@pytest.mark.parametrize("text", [
    # a ``` fence, algorithms as rows, sizes as columns, the unit on the second header line
    "Xeon E3-1230 v2, OpenSSL 1.0.2u:\n\n```\nCipher        16 bytes    1024 bytes\n"
    "              (KiB/s)     (KiB/s)\nrc4           250112.5    610334.25\n"
    "des-ede3      24010.75    25120.5\n```\n",
    # a <pre> block, sizes as rows, the unit under each algorithm's name
    "<p>Xeon E3-1230 v2, OpenSSL 1.0.2u:</p>\n<pre>\nSize (bytes)   rc4         des-ede3\n"
    "               [KiB/s]     [KiB/s]\n16             250112.5    24010.75\n"
    "1024           610334.25   25120.5\n</pre>\n"])
def test_a_table_retyped_with_spaces_in_a_code_block_with_a_two_line_header(text):
    """A table aligned with spaces inside a code block (``[code]``, a fence, ``<pre>``) was not
    read; its second header line states the unit under each column (no run of its own)."""
    df, _ = read(text)
    kib = 1024.0
    assert cells(df, "algorithm", "block_bytes", "bytes_per_s") == [
        ("des-ede3-cbc", 16, 24010.75 * kib), ("des-ede3-cbc", 1024, 25120.5 * kib),
        ("rc4", 16, 250112.5 * kib), ("rc4", 1024, 610334.25 * kib)]
    assert df["label"].isna().all() or not df["label"].str.contains("KiB").any()
    assert df["flag"].isna().all() if "flag" in df else True


def test_openssl_output_in_a_code_block_is_left_to_the_text_parser():
    df, _ = read("```\nThe 'numbers' are in 1000s of bytes per second processed.\n"
                 "type             16 bytes     64 bytes\nmd5              51234.56k   151234.56k\n"
                 "sha1             61234.56k   171234.56k\n```\n")
    assert cells(df, "algorithm", "block_bytes", "bytes_per_s") == [
        ("md5", 16, 51234560.0), ("md5", 64, 151234560.0), ("sha1", 16, 61234560.0),
        ("sha1", 64, 171234560.0)]
    assert set(df["dialect"].dropna()) <= {"text"} if "dialect" in df else True


@pytest.mark.parametrize("unit, factor", [("(MB/s)", 1e6), ("[GB/s]", 1e9), ("(k)", 1e3)])
def test_a_unit_in_parentheses_under_a_column_title_is_its_unit_not_a_run(unit, factor):
    assert role(unit).kind == "value" and role(unit).unit == factor
    df, _ = read(f"OpenSSL 3.0.13.\n\n| Block | sha1 | sha512 |\n| (bytes) | {unit} | {unit} |\n"
                 "|---|---|---|\n| 64 | 1.5 | 2.5 |\n")
    assert cells(df, "algorithm", "block_bytes", "bytes_per_s") == [
        ("sha1", 64, 1.5 * factor), ("sha512", 64, 2.5 * factor)]
    assert unit not in set(df["label"].dropna())


@pytest.mark.parametrize("span", ['<th colspan="2">Speed (MiB/s)</th>', '<th colspan=2>MiB/s</th>'])
def test_a_spanning_title_over_the_size_header_gives_its_columns_unit(span):
    """``<th rowspan=2>Cipher</th><th colspan=2>Speed (MiB/s)</th>`` over the sizes: the unit
    was lost (the cells flagged 'unit unknown')."""
    df, _ = read(f"<p>OpenSSL 3.1.2</p>\n<table>\n<tr><th rowspan=\"2\">Cipher</th>{span}</tr>\n"
                 "<tr><th>64 bytes</th><th>8192 bytes</th></tr>\n"
                 "<tr><td>camellia-256-cbc</td><td>100.5</td><td>150.25</td></tr>\n</table>\n")
    assert cells(df, "block_bytes", "bytes_per_s") == [(64, 100.5 * 2 ** 20), (8192, 150.25 * 2 ** 20)]
    assert "flag" not in df or df["flag"].isna().all()


@pytest.mark.parametrize("name", ["Total", "**Sum**", "Geomean"])
def test_a_summary_row_under_algorithm_rows_is_no_algorithm(name):
    df, _ = read("OpenSSL 3.0.13 on i7-12700, numbers in MB/s.\n\n| Cipher | 16 bytes | Notes |\n"
                 "|---|---|---|\n| aes-128-gcm | 700.5 | AES-NI |\n| sha1 | 300.5 | |\n"
                 f"| {name} | 1001.0 | |\n")
    assert sorted(df["algorithm"]) == ["aes-128-gcm", "sha1"]


@pytest.mark.parametrize("title", ["**chacha20** (MB/s)", "### ChaCha20 256 (MB/s)", "__chacha20__ [MB/s]"])
def test_a_title_naming_the_primitive_gives_the_grid_its_algorithm_and_no_label(title):
    """A bold line or heading naming only the primitive (``**chacha20 256** (KB/s)``) over a
    row of sizes: the table was not read ('chacha20' was taken for a family), then labelled
    by the title; ``chacha20`` is openssl's cipher of that name, and the title names no run."""
    df, _ = read(f"OpenSSL 3.3.0 on a Ryzen 7 7840U.\n\n{title}\n\n| 64 bytes | 8192 bytes |\n"
                 "|---:|---:|\n| 900.5 | 2100.25 |\n")
    assert cells(df, "algorithm", "block_bytes", "bytes_per_s") == [
        ("chacha20", 64, 900.5e6), ("chacha20", 8192, 2100.25e6)]
    assert df["label"].isna().all() or "chacha" not in str(df["label"].iloc[0]).lower()


@pytest.mark.parametrize("statement, second", [
    ("All the figures below are in GB/s.", "| 64 bytes | 1.5 |"),
    ("Every table is in GB/s (openssl speed -evp, 3.0.13).", "| 64 bytes | 1.5 |")])
def test_a_unit_stated_for_all_tables_holds_under_each_heading(statement, second):
    """A table per machine under headings, the unit stated once above them all: the tables
    after the first were flagged 'unit unknown'. A unit stated for one table stays its own."""
    df, _ = read(f"{statement}\n\n### nuc-a\n\n| Size | sha512 |\n|---|---|\n| 64 bytes | 0.5 |\n\n"
                 f"### nuc-b\n\n| Size | sha512 |\n|---|---|\n{second}\n\n"
                 "### nuc-c, in MB/s\n\n| Size | sha512 |\n|---|---|\n| 64 bytes | 900.5 |\n\n"
                 "### nuc-d\n\n| Size | sha512 |\n|---|---|\n| 64 bytes | 2.5 |\n")
    assert cells(df, "line", "bytes_per_s") == [(7, 0.5e9), (13, 1.5e9), (19, 900.5e6), (25, 2.5e9)]
    assert "flag" not in df or df["flag"].isna().all()


def test_a_unit_stated_for_the_next_table_only_is_not_carried():
    df, _ = read("Numbers in GB/s:\n\n| Size | sha512 |\n|---|---|\n| 64 bytes | 0.5 |\n\n"
                 "Then on the other box:\n\n| Size | sha512 |\n|---|---|\n| 64 bytes | 1.5 |\n")
    assert df[df["bytes_per_s"] == 0.5e9].shape[0] == 1
    assert df[df["line"] == df["line"].max()]["flag"].notna().all()


@pytest.mark.parametrize("text", [
    "OpenSSL 3.0.13, 8192-byte blocks, numbers in MB/s:\n\n| Cipher | box-a | box-b | box-a / box-b |\n"
    "|---|---|---|---|\n| aes-128-gcm | 9000.5 | 8000.5 | 1.13 |\n| sha256 | 2000.5 | 1800.5 | 1.11 |\n",
    "OpenSSL 3.0.13, 8192-byte blocks, numbers in MB/s:\n\nHost\taes-128-gcm\tsha256\nbox-a\t9000.5\t2000.5\n"
    "box-b\t8000.5\t1800.5\nbox-a - box-b\t1000.0\t200.0\n"])
def test_a_ratio_or_difference_of_two_columns_or_rows_is_derived(text):
    """``box-a / box-b`` beside the two boxes' columns was read as a third machine (1.13 MB/s)."""
    df, _ = read(text)
    assert sorted(set(df["label"])) == ["box-a", "box-b"] and len(df) == 4


@pytest.mark.parametrize("tag, factor", [("(k)", 1e3), ("(K)", 1e3), ("(1000s of bytes/s)", 1e3),
                                         ("(MB/s)", 1e6)])
def test_a_unit_tagged_to_a_machine_column_is_its_unit_and_no_part_of_its_name(tag, factor):
    """``Pi 4 (k)`` titles the Pi 4's column in openssl's 1000s of bytes/s: the run is the
    ``Pi 4``, its cells are ``k``."""
    printed = {"ODROID-N2": [41220.10, 52870.94], "Rock 5B": [301118.45, 1402663.11]}
    printed = {k: [v * 1e3 / factor for v in vs] for k, vs in printed.items()}
    rows = [f"| {size} bytes | {a:.2f} | {b:.2f} |" for size, a, b in
            zip((16, 8192), printed["ODROID-N2"], printed["Rock 5B"], strict=True)]
    text = ("`openssl speed -evp aes-128-gcm` on both boards:\n\n"
            f"| size | ODROID-N2 {tag} | Rock 5B {tag} |\n|---:|---:|---:|\n" + "\n".join(rows) + "\n")
    df, warned = read(text)
    assert not warned and df.flag.isna().all()
    got = df.groupby("label", observed=True).bytes_per_s.agg(list).to_dict()
    assert got == {k: pytest.approx([round(v, 2) * factor for v in vs]) for k, vs in printed.items()}


@pytest.mark.parametrize("title", ["rep", "Iteration", "trial #", "Run"])
def test_a_column_counting_repetitions_makes_each_row_a_replicate(title):
    """A script's long table with a repetition column: each row is a run of its own, of the
    same machine and setting as the other repetitions (replicates, the unit the statistics
    count), the number naming none of them; a machine column still does."""
    rows = [("box-a", 1, "612.4"), ("box-a", 2, "609.8"), ("box-a", 3, "614.1"),
            ("box-b", 1, "455.2"), ("box-b", 2, "456.0")]
    text = f"host,cipher,block,{title},MB/s\n" + "".join(
        f"{h},chacha20-poly1305,8192,{n},{v}\n" for h, n, v in rows)
    df, warned = read(text)
    assert not warned and df.flag.isna().all()
    runs = df.groupby("run", observed=True).agg(label=("label", "first"), mb=("bytes_per_s", "first"))
    assert runs.label.tolist() == ["box-a"] * 3 + ["box-b"] * 2
    assert (runs.mb / 1e6).tolist() == pytest.approx([float(v) for _, _, v in rows])
    assert df.block_bytes.eq(8192).all() and df.rule.str.contains("repeat column").all()


def test_a_repetition_column_of_names_is_a_column_of_runs():
    text = ("| Run | aes-128-gcm @ 16 KiB (MB/s) |\n|---|---:|\n"
            "| baseline | 4012.5 |\n| patched | 4391.0 |\n")
    df, _ = read(text)
    assert df.label.tolist() == ["baseline", "patched"]


def test_a_column_of_words_beside_a_data_files_measurements_is_no_reason_to_refuse_it():
    text = ("host;cipher;block;MB/s;note\nbox-a;aes-256-gcm;16;512.4;fan at 100%\n"
            "box-a;aes-256-gcm;16384;5123.5;ok\n")
    df, warned = read(text)
    assert not warned and (df.bytes_per_s / 1e6).tolist() == pytest.approx([512.4, 5123.5])


def test_a_data_files_rows_that_no_reader_reads_are_reported_by_line():
    """A column of numbers no title calls a measurement (``t0_ns``): the file is not read, and
    its rows, which name a cipher beside numbers, are the error's, by line."""
    text = "host,cipher,block,MB/s,t0_ns\nbox-a,sha256,16,212.4,12\nbox-a,sha256,16384,2123.5,13\n"
    with pytest.raises(IngestError) as e:
        cipherlab.ingest(text)
    assert [n for n, _ in e.value.unplaced] == [2, 3] and "line 2" in str(e.value)


@pytest.mark.parametrize("title", ["\u0394", "\u2206 vs base", "\u0394 (%)"])
def test_a_delta_column_is_derived(title):
    """A column titled with a delta sign holds differences of the others: no run, nothing to
    report, whatever decorates its cells (``+14.5% 🚀``, ``~0%``)."""
    text = (f"AES-256-GCM, KB/s\n\n| block | base | patched | {title} |\n|---:|---:|---:|---:|\n"
            "| 16 B | 612,345 | 701,223 | +14.5% \U0001f680 |\n| 16 KiB | 5,120,113 | 5,119,870 | ~0% |\n")
    df, warned = read(text)
    assert not warned and sorted(df.label.unique()) == ["base", "patched"] and len(df) == 4


@pytest.mark.parametrize("title, tool", [("openssl", "openssl"), ("LibreSSL", "libressl")])
def test_a_column_titled_with_a_library_gives_its_versions_tool(title, tool):
    text = (f"host,{title},cipher,block,MB/s\nbox-a,3.0.13,aes-128-gcm,16,712.4\n"
            "box-a,3.3.1,aes-128-gcm,16,731.0\n")
    df, warned = read(text)
    assert not warned
    runs = df.groupby("run", observed=True).first()
    assert runs.tool.tolist() == [tool] * 2 and runs.tool_version.tolist() == ["3.0.13", "3.3.1"]
