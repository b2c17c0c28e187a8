"""Document tables in other orientations (readers/_grids.py), read through ``cipherlab.ingest``.

Each text here was written for this test in a variant of a shape found in the real pastes
(``tests/data/pastes``: 016, 020, 032, 039, 051, 054), with other names, prefixes, units and
orientations, so that each rule is shown to be general rather than shaped to one paste. Every
expected number is the cell as printed (x1000 for a ``k`` cell, x10^6 for MB/s), not computed by
the code under test.
"""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import cipherlab
from cipherlab.errors import IngestError, IngestWarning
from cipherlab.readers._grids import role

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)


def read(text: str) -> tuple[pd.DataFrame, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest(text)
    return df, [str(w.message) for w in caught if issubclass(w.category, IngestWarning)]


def cells(df: pd.DataFrame, *extra: str) -> list[tuple]:
    """The cells as sorted tuples (label, algorithm, operation, block, value, *extra)."""
    cols = ["label", "algorithm", "operation", "block_bytes", "value", *extra]
    out = df.assign(value=df.bytes_per_s.fillna(df.ops_per_s))
    return sorted(tuple(None if pd.isna(v) else v for v in row)
                  for row in out[cols].astype(object).itertuples(index=False))


# -------------------------------------------------------------------------------- the roles


@pytest.mark.parametrize("text, kind, what", [
    ("1 KB", "size", {"block": 1024}),
    ("16384 bytes", "size", {"block": 16384}),
    ("ChaCha20-Poly1305 (16K)", "algorithm", {"algorithm": "chacha20-poly1305", "block": 16384}),
    ("SHA-512 (1 KB)", "algorithm", {"algorithm": "sha512", "block": 1024}),
    ("2048 bits RSA (patched)", "algorithm", {"algorithm": "rsa2048", "tag": "patched"}),
    ("256 bits ecdsa (nistp256)", "algorithm", {"algorithm": "ecdsa-p256", "tag": None}),
    ("ECDSA P-384 signing", "measure", {"algorithm": "ecdsa-p384", "operation": "sign"}),
    ("decr./s", "operation", {"operation": "decrypt"}),
    ("verify", "operation", {"operation": "verify"}),
    ("Speed-up", "derived", {}), ("% difference", "derived", {}), ("Ratio (new/old)", "derived", {}),
    ("median", "stat", {"conditions": (("stat", "median"), ("flag", "summary of runs"))}),
    ("LibreSSL 3.8.2", "run", {"run": "LibreSSL 3.8.2"}),
    ("BoringSSL (ops/sec)", "run", {"run": "BoringSSL"}),
    ("Graviton3 (MB/s)", "run", {"run": "Graviton3", "unit": 1e6}),
])
def test_roles_say_what_a_header_cell_or_row_name_is(text, kind, what):
    got = role(text)
    assert got.kind == kind
    for key, value in what.items():
        assert getattr(got, key) == value, key


# ---------------------------------------------------------------------------- orientations


def test_sizes_as_rows_builds_as_columns_cipher_from_the_prose():
    # (032's shape: other cipher, sizes written "16 B"/"1 KB", a 'Speed-up' column in 'x')
    text = """\
We compared ChaCha20-Poly1305 on the Cortex-A76 board with and without the NEON patch.

| Size | Before patch | After patch | Speed-up |
|------|--------------|-------------|----------|
| 16 B | 120,345.67k | 150,000.12k | 1.25x |
| 1 KB | 402,111.00k | 612,333.50k | 1.52x |
"""
    df, warned = read(text)
    assert not warned
    assert cells(df) == sorted([
        ("Before patch", "chacha20-poly1305", "encrypt", 16, 120345670.0),
        ("Before patch", "chacha20-poly1305", "encrypt", 1024, 402111000.0),
        ("After patch", "chacha20-poly1305", "encrypt", 16, 150000120.0),
        ("After patch", "chacha20-poly1305", "encrypt", 1024, 612333500.0)])
    assert df.run.nunique() == 2 and set(df.line) == {5, 6}


def test_sizes_as_rows_algorithms_as_columns_bare_sizes_under_a_size_corner():
    text = """\
| Block size | AES-128-CBC | AES-256-CBC |
|---|---|---|
| 16 | 600000.00k | 500000.00k |
| 8192 | 1200000.00k | 900000.00k |
"""
    df, _ = read(text)
    assert cells(df) == sorted([
        (None, "aes-128-cbc", "encrypt", 16, 6e8), (None, "aes-256-cbc", "encrypt", 16, 5e8),
        (None, "aes-128-cbc", "encrypt", 8192, 1.2e9), (None, "aes-256-cbc", "encrypt", 8192, 9e8)])


def test_machines_as_columns_cipher_version_and_unit_from_the_sentence_above():
    text = """\
openssl speed -evp aes-256-gcm, OpenSSL 3.0.2, numbers in 1000s of bytes per second

| bytes | Xeon E5 | EPYC 7763 |
|---|---|---|
| 16 | 412345.12 | 612345.12 |
"""
    df, warned = read(text)
    assert not warned
    assert cells(df, "tool_version") == sorted([
        ("Xeon E5", "aes-256-gcm", "encrypt", 16, 412345120.0, "3.0.2"),
        ("EPYC 7763", "aes-256-gcm", "encrypt", 16, 612345120.0, "3.0.2")])


def test_operations_as_rows_compilers_as_columns_algorithm_from_the_command():
    # (020's shape: an ECDSA curve, a '$' prompt, a delta column in percent)
    text = """\
    $ ./apps/openssl speed ecdsap384
| Op | gcc 12 | clang 17 | delta |
|---|---:|---:|---:|
| sign/s | 1500.2 | 1620.8 | +8% |
| verify/s | 480.1 | 512.3 | +6.7% |
"""
    df, _ = read(text)
    assert cells(df) == sorted([
        ("gcc 12", "ecdsa-p384", "sign", None, 1500.2), ("gcc 12", "ecdsa-p384", "verify", None, 480.1),
        ("clang 17", "ecdsa-p384", "sign", None, 1620.8),
        ("clang 17", "ecdsa-p384", "verify", None, 512.3)])


def test_measures_as_rows_libraries_as_columns():
    # (039's shape: ECDSA and Ed25519 measures, libraries named with versions, an n/a cell)
    text = """\
### bssl speed, re-tabulated

| Benchmark | AWS-LC 1.21 (ops/sec) | BoringSSL (ops/sec) |
|---|---|---|
| ECDSA P-256 signing | 48012.3 | 47110.9 |
| ECDSA P-256 verify | 16020.5 | n/a |
| Ed25519 key generation | 71234.0 | 70999.1 |
"""
    df, _ = read(text)
    assert cells(df, "tool") == sorted([
        ("AWS-LC 1.21", "ecdsa-p256", "sign", None, 48012.3, "aws-lc"),
        ("AWS-LC 1.21", "ecdsa-p256", "verify", None, 16020.5, "aws-lc"),
        ("AWS-LC 1.21", "ed25519", "keygen", None, 71234.0, "aws-lc"),
        ("BoringSSL", "ecdsa-p256", "sign", None, 47110.9, "boringssl"),
        ("BoringSSL", "ed25519", "keygen", None, 70999.1, "boringssl")])


def test_versions_as_columns_one_block_size_in_the_prose_unit_in_the_sentence():
    # (016 turned around: versions are the columns, algorithms the rows, MB/s stated above)
    text = """\
Throughput on 16384-byte blocks, in MB/s:

| Algorithm | OpenSSL 1.1.1w | OpenSSL 3.2.1 |
|---|---|---|
| aes-128-gcm | 5123.4 | 6012.9 |
| sha256 | 1890.2 | 1902.7 |
"""
    df, warned = read(text)
    assert not warned
    assert cells(df, "tool_version") == sorted([
        ("OpenSSL 1.1.1w", "aes-128-gcm", "encrypt", 16384, 5123.4e6, "1.1.1w"),
        ("OpenSSL 1.1.1w", "sha256", "digest", 16384, 1890.2e6, "1.1.1w"),
        ("OpenSSL 3.2.1", "aes-128-gcm", "encrypt", 16384, 6012.9e6, "3.2.1"),
        ("OpenSSL 3.2.1", "sha256", "digest", 16384, 1902.7e6, "3.2.1")])


def test_cpus_as_columns_with_units_in_the_cells_name_their_runs_cpu():
    text = """\
| Algorithm | Intel i7-8550U | EPYC 7763 |
|---|---|---|
| AES-128-GCM (16 KB) | 3,456 MB/s | 5,678 MB/s |
"""
    df, _ = read(text)
    assert cells(df, "cpu") == sorted([
        ("Intel i7-8550U", "aes-128-gcm", "encrypt", 16384, 3456e6, "Intel i7-8550U"),
        ("EPYC 7763", "aes-128-gcm", "encrypt", 16384, 5678e6, "EPYC 7763")])


def test_machines_as_rows_with_machine_columns_kept_as_conditions():
    # (016's shape with machines: the size in each header cell, MHz and cores beside the name)
    text = """\
| Machine | CPU MHz | Cores | AES-128-CBC (16 KB) | SHA-512 (16 KB) |
|---|---|---|---|---|
| Raspberry Pi 4 | 1500 | 4 | 85,123.45k | 120,456.78k |
| Odroid N2 | 2400 | 6 | 140,000.00k | 190,123.00k |
"""
    df, _ = read(text)
    assert cells(df, "cpu_mhz", "cores") == sorted([
        ("Raspberry Pi 4", "aes-128-cbc", "encrypt", 16384, 85123450.0, "1500", "4"),
        ("Raspberry Pi 4", "sha512", "digest", 16384, 120456780.0, "1500", "4"),
        ("Odroid N2", "aes-128-cbc", "encrypt", 16384, 140000000.0, "2400", "6"),
        ("Odroid N2", "sha512", "digest", 16384, 190123000.0, "2400", "6")])


def test_signature_rows_with_variant_tags_are_runs_and_times_are_not_rates():
    # (051's shape: RSA instead of SM2, other tags, 'sign'/'verify' times beside the rates)
    text = """\
| Key | sign | verify | sign/s | verify/s |
|---|---|---|---|---|
| rsa 2048 bits (stock) | 0.000712s | 0.000021s | 1404.5 | 47619.0 |
| rsa 2048 bits (patched) | 0.000650s | 0.000020s | 1538.5 | 50000.0 |
"""
    df, _ = read(text)
    assert cells(df) == sorted([
        ("stock", "rsa2048", "sign", None, 1404.5), ("stock", "rsa2048", "verify", None, 47619.0),
        ("patched", "rsa2048", "sign", None, 1538.5), ("patched", "rsa2048", "verify", None, 50000.0)])


def test_long_format_with_statistics_and_grouped_rows():
    text = """\
| Cipher | Block (bytes) | min | max | avg |
|---|---|---|---|---|
| aes-256-gcm | 16 | 601234.12k | 612345.67k | 607000.00k |
|  | 8192 | 4100000.00k | 4200000.00k | 4150000.00k |
| sha256 | 16 | 98000.10k | 99000.20k | 98500.15k |
"""
    df, _ = read(text)
    got = cells(df, "stat")
    assert len(got) == 9 and df.run.nunique() == 1
    assert ("", "aes-256-gcm", "encrypt", 8192, 4150000000.0, "mean") in [("",) + g[1:] for g in got]
    assert sorted(g[1:] for g in got[:3]) == sorted([
        ("aes-256-gcm", "encrypt", 16, 601234120.0, "min"),
        ("aes-256-gcm", "encrypt", 16, 612345670.0, "max"),
        ("aes-256-gcm", "encrypt", 16, 607000000.0, "mean")])
    assert [g[1:4] for g in got[6:]] == [("sha256", "digest", 16)] * 3


def test_spanning_header_over_sizes_gives_one_run_per_span():
    text = """\
| | OpenSSL 1.1.1w | | OpenSSL 3.0.13 | |
| Cipher | 16 bytes | 8192 bytes | 16 bytes | 8192 bytes |
|---|---|---|---|---|
| aes-128-cbc | 1000.00k | 2000.00k | 1100.00k | 2100.00k |
"""
    df, _ = read(text)
    assert cells(df, "tool_version") == sorted([
        ("OpenSSL 1.1.1w", "aes-128-cbc", "encrypt", 16, 1e6, "1.1.1w"),
        ("OpenSSL 1.1.1w", "aes-128-cbc", "encrypt", 8192, 2e6, "1.1.1w"),
        ("OpenSSL 3.0.13", "aes-128-cbc", "encrypt", 16, 1.1e6, "3.0.13"),
        ("OpenSSL 3.0.13", "aes-128-cbc", "encrypt", 8192, 2.1e6, "3.0.13")])


def test_a_unit_in_a_spanning_header_is_its_columns():
    text = """\
| | Graviton3 (MB/s) | | Xeon (KB/s) | |
| Cipher | 16 bytes | 8192 bytes | 16 bytes | 8192 bytes |
|---|---|---|---|---|
| aes-128-gcm | 500 | 4000 | 600000 | 5000000 |
"""
    df, warned = read(text)
    assert not warned
    assert cells(df) == sorted([
        ("Graviton3", "aes-128-gcm", "encrypt", 16, 500e6),
        ("Graviton3", "aes-128-gcm", "encrypt", 8192, 4000e6),
        ("Xeon", "aes-128-gcm", "encrypt", 16, 600000e3),
        ("Xeon", "aes-128-gcm", "encrypt", 8192, 5000000e3)])


def test_html_colspan_header_over_builds():
    text = """\
<table>
<tr><th>Size</th><th colspan="2">aes-128-ctr</th></tr>
<tr><th></th><th>no-asm</th><th>asm</th></tr>
<tr><td>64 bytes</td><td>150000.00k</td><td>900000.00k</td></tr>
<tr><td>1024 bytes</td><td>170000.00k</td><td>3000000.00k</td></tr>
</table>
"""
    df, _ = read(text)
    assert cells(df) == sorted([
        ("no-asm", "aes-128-ctr", "encrypt", 64, 150e6), ("no-asm", "aes-128-ctr", "encrypt", 1024, 170e6),
        ("asm", "aes-128-ctr", "encrypt", 64, 900e6), ("asm", "aes-128-ctr", "encrypt", 1024, 3000e6)])


def test_section_rows_name_the_algorithm_or_start_a_new_run():
    text = """\
| Size | gcc | clang |
|---|---|---|
| **AES-128-GCM** | | |
| 16 bytes | 500000.00k | 510000.00k |
| **ChaCha20-Poly1305** | | |
| 16 bytes | 300000.00k | 330000.00k |
"""
    df, _ = read(text)
    assert cells(df) == sorted([
        ("gcc", "aes-128-gcm", "encrypt", 16, 5e8), ("gcc", "chacha20-poly1305", "encrypt", 16, 3e8),
        ("clang", "aes-128-gcm", "encrypt", 16, 5.1e8),
        ("clang", "chacha20-poly1305", "encrypt", 16, 3.3e8)])


# ------------------------------------------------------------------------------ right or loud


def test_a_grid_without_a_stated_unit_is_flagged_and_warned_about():
    text = """\
| Algorithm | laptop | server |
|---|---|---|
| aes-128-gcm (8K) | 5123.4 | 6012.9 |
"""
    df, warned = read(text)
    assert set(df.flag) == {"unit unknown"} and any("no unit" in w for w in warned)


def test_a_grid_whose_cipher_the_prose_does_not_settle_is_reported_not_guessed():
    text = """\
Both AES-128-GCM and AES-256-GCM were run on the board.

| Size | Before | After |
|---|---|---|
| 16 bytes | 14357.22k | 15271.90k |
"""
    with pytest.raises(IngestError) as err:
        cipherlab.ingest(text)
    assert [n for n, _ in err.value.unplaced] == [5]


def test_a_grid_of_rates_without_a_block_size_is_reported_not_guessed():
    text = """\
| | AES-128-GCM | AES-256-GCM |
|---|---|---|
| Laptop | 4.1 GB/s | 3.5 GB/s |
| Server | 6.0 GB/s | 5.2 GB/s |
"""
    with pytest.raises(IngestError) as err:
        cipherlab.ingest(text)
    assert [n for n, _ in err.value.unplaced] == [3, 4]


def test_another_programs_table_is_not_read_and_not_reported():
    text = """\
| Curve | sign/s | verify/s |
|---|---|---|
| 256 bits ecdsa (nistp256) | 30211.4 | 10022.1 |

Same machine, measured with sysbench:

| Curve | sign/s | verify/s |
|---|---|---|
| 256 bits ecdsa (nistp256) | 29000 | 9900 |
"""
    df, warned = read(text)
    assert set(df.line) == {3} and not warned


def test_a_table_of_other_quantities_is_not_a_benchmark_grid():
    text = """\
| Version | New Connections | Resumed | Change |
|---|---:|---:|---:|
| 3.0.15 | 16,719 | 17,178 | -14.5% |
"""
    with pytest.raises(IngestError, match="no measurements"):
        cipherlab.ingest(text)


@pytest.mark.parametrize("text", [
    "| Cipher | Key size | Block size |\n|---|---|---|\n| AES-128-CBC | 128 | 16 |\n"
    "| DES-EDE3-CBC | 168 | 8 |\n",                                     # properties, not rates
    "| Algorithm | Security level | Notes |\n|---|---|---|\n| RSA 2048 | 112 | ok |\n",
    "| Hash | Digest length (bits) | Speed (MB/s) |\n|---|---|---|\n| SHA-256 | 256 | 1900 |\n",
    "We use 8192-byte blocks.\n\n| Cipher suite | Handshakes/s |\n|---|---|\n"
    "| AES128-GCM-SHA256 | 1234 |\n",                                     # a TLS suite
    "| Curve | Result |\n|---|---|\n| ECDH (nistp256) | 12000 |\n",    # no rate stated
])
def test_tables_of_properties_or_without_a_block_size_give_no_cells(text):
    with pytest.raises(IngestError, match="no measurements"):
        cipherlab.ingest(text)


# -------------------------------------------------------------- a PDF line without a row name


def test_a_pdf_line_of_sizes_and_values_is_named_by_the_command_above():
    # (054's shape: another digest, six sizes, the ' thousands mark, no prose after the values)
    text = """\
SHA-256 without the extension

% openssl speed -elapsed sha256

16 bytes 64 bytes 256 bytes 1024 bytes 8192 bytes 16384 bytes 98'765.43k 234'567.89k \
456'789.01k 567'890.12k 612'345.67k 615'000.00k
"""
    df, _ = read(text)
    assert list(df.bytes_per_s) == [98765430.0, 234567890.0, 456789010.0, 567890120.0, 612345670.0,
                                    615000000.0]
    assert set(df.algorithm) == {"sha256"} and set(df.label) == {"SHA-256 without the extension"}


def test_a_pdf_line_of_values_nothing_names_is_reported():
    text = "Results:\n\n16 bytes 64 bytes 256 bytes 1’000.00k 2’000.00k 3’000.00k\n"
    with pytest.raises(IngestError) as err:
        cipherlab.ingest(text)
    assert [n for n, _ in err.value.unplaced] == [3]


def test_machines_as_rows_versions_as_columns_with_the_size_in_kib_in_the_title():
    # the block size in the title as "16 KiB blocks", a derived column beside the measured ones
    text = """\
## Benchmarks (MB/s, aes-128-gcm, 16 KiB blocks)

| Machine         | OpenSSL 1.1.1w | OpenSSL 3.0.13 | 3.0 vs 1.1 |
|-----------------|---------------:|---------------:|-----------:|
| Raspberry Pi 4  |          112.3 |          108.9 |     -3.0 % |
| Ryzen 7 5800X   |        9,876.5 |        9,912.0 |     +0.4 % |
"""
    df, warned = read(text)
    assert not warned
    assert cells(df, "tool_version") == sorted([
        ("Raspberry Pi 4 / OpenSSL 1.1.1w", "aes-128-gcm", "encrypt", 16384, 112.3e6, "1.1.1w"),
        ("Raspberry Pi 4 / OpenSSL 3.0.13", "aes-128-gcm", "encrypt", 16384, 108.9e6, "3.0.13"),
        ("Ryzen 7 5800X / OpenSSL 1.1.1w", "aes-128-gcm", "encrypt", 16384, 9876.5e6, "1.1.1w"),
        ("Ryzen 7 5800X / OpenSSL 3.0.13", "aes-128-gcm", "encrypt", 16384, 9912.0e6, "3.0.13")])


# --------------------------------------- derived figures: never a measurement, never a cover

_TIMINGS = """\
Timings below, lower is better. Wall-clock seconds per GB, best of three runs.

Here is the table of it.  The seconds are what matters, the notes say why.
aes-128-gcm       0.19      AES-NI used, about 5300 MB/s
aes-256-gcm       0.21      about 4700 MB/s
"""


def test_a_sentence_cut_into_titles_covers_no_numbers_as_derived():
    # (the sentence right above the rows is cut into two "titles" at its double space; its
    # "seconds" made every column a time, and the rows vanished as derived figures)
    with pytest.raises(IngestError) as err:
        cipherlab.ingest(_TIMINGS)
    assert [n for n, _ in err.value.unplaced] == [4, 5]


def test_a_rate_in_a_column_of_notes_beside_times_is_reported():
    text = """\
Encrypting 1 GB, seconds (lower is better):

cipher            time      notes
aes-128-gcm       0.19      AES-NI used, about 5300 MB/s
aes-256-gcm       0.21      no SIMD here, slow
"""
    with pytest.raises(IngestError) as err:
        cipherlab.ingest(text)
    assert [n for n, _ in err.value.unplaced] == [4]  # (a time and a note: derived, no rate)


def test_a_value_with_words_after_it_beside_a_speed_up_is_reported_not_derived():
    text = """\
Speed-up from the new assembly, MB/s at 8 KB blocks

cipher          MB/s                       speed-up
aes-128-gcm     5310.2 (asm path taken)    2.1x
aes-256-gcm     4702.5                     2.0x
"""
    df, warned = read(text)
    assert cells(df) == [(None, "aes-256-gcm", "encrypt", 8192, 4702.5e6)]
    assert len(warned) == 1 and "line(s) 4;" in warned[0]


def test_a_column_titled_with_a_rate_unit_holds_values_not_row_names():
    # ("2510.2 (C)" is no number: the column had been taken for names, its cells for labels)
    text = """\
Speed-up over the portable C code, `openssl speed -evp` at 8 KB blocks:

cipher          portable MB/s   asm MB/s   speed-up
aes-128-gcm     2510.2 (C)      5310.2     2.1x
aes-256-gcm     2302.5          4702.5     2.0x
"""
    df, warned = read(text)
    assert cells(df) == sorted([
        ("asm MB/s", "aes-128-gcm", "encrypt", 8192, 5310.2e6),
        ("asm MB/s", "aes-256-gcm", "encrypt", 8192, 4702.5e6),
        ("portable MB/s", "aes-256-gcm", "encrypt", 8192, 2302.5e6)])
    assert len(warned) == 1 and "line(s) 4;" in warned[0]
