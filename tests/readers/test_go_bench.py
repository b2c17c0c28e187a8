"""Go's ``go test -bench`` output and benchstat's tables (``readers/_gobench.py``): the real runs
of ``tests/data/go`` (Go 1.19.8's standard library and x/crypto, on this project's machine) read
whole, then each rule on small texts in the shapes people paste: repeats, GOMAXPROCS suffixes,
names a package must explain, benchstat's summaries."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

import cipherlab
from cipherlab.errors import IngestWarning

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_embedded_tools import _cell, _read  # noqa: E402  (a record-a-line tool's helpers)

GO = Path(__file__).resolve().parents[1] / "data" / "go"


@pytest.mark.parametrize("path", sorted(GO.glob("*.txt")), ids=lambda p: p.stem)
def test_every_real_record_is_read_in_one_run_with_the_header_cpu(path):
    records = [n for n, line in enumerate(path.read_text().splitlines(), 1) if line.startswith("Benchmark")]
    df = _read(path)
    assert sorted(df.line) == records and df.run.nunique() == 1
    assert set(df.tool) == {"go"} and df.tool_version.isna().all()  # (no `go version` line)
    assert set(df.cpu) == {"AMD EPYC"} and set(df.timing) == {"elapsed"}


def test_the_real_cipher_run_reads_names_sizes_and_both_rates():
    df = _read(GO / "cipher.txt")  # (values copied by hand from the text)
    seal = _cell(df, "BenchmarkAESGCM/Seal-128-1350-2")
    assert (seal.algorithm, seal.operation, seal.block_bytes, seal.gomaxprocs) == ("aes-128-gcm", "encrypt", 1350, 2)
    assert seal.bytes_per_s == pytest.approx(3852.72e6) and seal.ops_per_s == pytest.approx(1e9 / 350.4)
    assert seal["count"] == 355800 and pd.isna(seal.flag)
    assert _cell(df, "BenchmarkAESGCM/Open-256-8192-2").algorithm == "aes-256-gcm"
    cbc = _cell(df, "BenchmarkAESCBCDecrypt1K-2")
    assert (cbc.algorithm, cbc.operation, cbc.block_bytes) == ("aes-128-cbc", "decrypt", 1024)
    ctr = _cell(df, "BenchmarkAESCTR1K-2")  # (1019 bytes a call: 829.67 MB/s x 1228 ns)
    assert ctr.algorithm == "aes-128-ctr" and pd.isna(ctr.block_bytes) and pd.isna(ctr.flag)
    assert ctr.ops_per_s == pytest.approx(1e9 / 1228) and ctr.bytes_per_s == pytest.approx(829.67e6)
    xor = df[df.name.str.startswith("BenchmarkXORBytes")]  # (no cipher: kept, flagged)
    assert len(xor) == 4 and set(xor.flag) == {"name unclear"}


def test_public_key_benchmarks_are_operations_a_second_from_ns():
    df = _read(GO / "ecdsa.txt")
    sign = _cell(df, "BenchmarkSign/P384-2")
    assert (sign.algorithm, sign.operation, sign.ops_per_s) == ("ecdsa-p384", "sign", pytest.approx(1e9 / 387690))
    assert pd.isna(sign.block_bytes) and pd.isna(sign.bytes_per_s)
    assert _cell(df, "BenchmarkGenerateKey/P521-2").operation == "keygen"
    rsa = _read(GO / "rsa.txt")
    assert _cell(rsa, "Benchmark3PrimeRSA2048Decrypt-2").primes == "3"  # (as openssl's -primes 3)
    assert _cell(rsa, "BenchmarkRSA2048Sign-2").ops_per_s == pytest.approx(1e9 / 2729333)
    ed = _read(GO / "ed25519.txt").set_index("name")
    assert ed.loc["BenchmarkNewKeyFromSeed-2", "api"] == "newkeyfromseed"
    assert ed.operation.tolist() == ["keygen", "keygen", "sign", "verify"]


def test_count_repeats_are_repeats_inside_one_run():
    df = _read(GO / "sha256-count3.txt")
    assert df.run.nunique() == 1 and df.repeat.tolist() == [0, 1, 2] * 9
    new = df[df.name == "BenchmarkHash1K/New-2"]
    assert new.bytes_per_s.tolist() == [210.54e6, 214.36e6, 470.21e6]
    assert set(new.algorithm) == {"sha256"} and set(new.api) == {"new"} and set(new.block_bytes) == {1024}
    assert set(df[df.api == "sum224"].algorithm) == {"sha224"}
    twice = (GO / "sha256.txt").read_text()  # (the same run pasted again: a run of its own)
    assert "repeat" not in _read(twice).columns and _read(twice + twice).run.nunique() == 2


def test_a_cpu_list_prints_bare_names_at_gomaxprocs_one():
    df = _read(GO / "cipher-cpu1-2.txt")
    bare, two = _cell(df, "BenchmarkAESGCM/Open-128-64"), _cell(df, "BenchmarkAESGCM/Open-128-64-2")
    assert (bare.gomaxprocs, bare.block_bytes, two.gomaxprocs, two.block_bytes) == (1, 64, 2, 64)
    assert _cell(df, "BenchmarkAESCTR8K").gomaxprocs == 1 and df.flag.isna().all()


_HEAD = "pkg: crypto/cipher\n"
_LINE = "Benchmark{}   \t 1000000\t       196.0 ns/op\t 326.52 MB/s\n"


def test_a_trailing_number_that_may_be_a_size_or_gomaxprocs_is_flagged():
    # (run at GOMAXPROCS 1, every name ending in its size: -64 and -1350 could be suffixes)
    text = _HEAD + "".join(_LINE.format(n) for n in
                           ("AESGCM/Open-128-64", "AESGCM/Seal-128-64", "AESGCM/Open-128-1350"))
    df = _read(text)
    assert set(df.flag) == {"name unclear"} and "gomaxprocs" not in df.columns
    mixed = _read(text + _LINE.format("AESCTR1K"))  # (a name with no suffix: all ran at 1)
    assert mixed.flag.isna().all() and set(mixed.gomaxprocs) == {1}
    assert mixed.block_bytes.iloc[0] == 64


def test_a_name_is_an_algorithm_only_where_its_package_says_which():
    hashed = "BenchmarkHash1K-8   \t   53706\t      2501 ns/op\t 409.41 MB/s\n"
    assert _read(hashed).flag.tolist() == ["name unclear"]  # (md5? sha1? sha256? every one has it)
    df = _read("pkg: crypto/sha1\n" + hashed)
    assert (df.algorithm.iloc[0], df.block_bytes.iloc[0]) == ("sha1", 1024) and df.flag.isna().all()
    ctr = "BenchmarkAESCTR1K-8  \t   93895\t      1228 ns/op\t 829.67 MB/s\n"
    assert _read(ctr).algorithm.tolist() == ["aesctr1k"]  # (its key size is the package's)
    gcm = _read("BenchmarkAESGCMSeal1K-8  \t 1000000\t  1050 ns/op\t 975.24 MB/s\n")
    assert (gcm.algorithm.iloc[0], gcm.flag.iloc[0]) == ("aes-gcm", "name unclear")  # (AES-128? -256?)


def test_a_go_version_line_gives_the_version_and_packages_are_runs():
    text = ("$ go version\ngo version go1.19.8 linux/amd64\n" + (GO / "ecdsa.txt").read_text()
            + (GO / "rsa.txt").read_text())
    df = _read(text)
    assert df.run.nunique() == 2 and set(df.tool_version) == {"1.19.8"}
    assert df.groupby("run").algorithm.first().tolist() == ["ecdsa-p256", "rsa2048"]


def test_a_cut_record_is_reported_by_line():
    text = (GO / "aes.txt").read_text().replace("2437.41 MB/s", "24")
    with pytest.warns(IngestWarning, match=r"line\(s\) 6\b"):
        df = cipherlab.ingest(text)
    assert "BenchmarkDecrypt-2" not in set(df.name)


_OLD = """\
name                     old time/op    new time/op    delta
AESGCM/Open-128-64-2       77.3ns ± 2%    70.1ns ± 1%   -9.31%  (p=0.008 n=5+5)
AESGCM/Open-128-8192-2     1.54µs ± 2%    1.40µs ± 1%   -9.09%  (p=0.008 n=5+5)

name                     old speed      new speed      delta
AESGCM/Open-128-64-2      828MB/s ± 2%   913MB/s ± 1%  +10.27%  (p=0.008 n=5+5)
AESGCM/Open-128-8192-2   5.31GB/s ± 2%  5.84GB/s ± 1%   +9.98%  (p=0.008 n=5+5)

name                     old alloc/op   new alloc/op   delta
AESGCM/Open-128-64-2        0.00B          0.00B          ~     (all equal)
"""


def test_old_benchstat_columns_are_runs_of_flagged_means():
    df = _read(_OLD)
    assert df.groupby("run").label.first().tolist() == ["old", "new"] and len(df) == 4
    assert set(df.flag) == {"summary of runs"} and set(df["stat"]) == {"mean"}
    new = _cell(df, "AESGCM/Open-128-8192-2", label="new")
    assert new.ops_per_s == pytest.approx(1 / 1.40e-6) and new.bytes_per_s == pytest.approx(5.84e9)
    assert (new.algorithm, new.block_bytes, new.gomaxprocs) == ("aes-128-gcm", 8192, 2)


_NEW = """\
pkg: crypto/cipher
cpu: AMD EPYC
                     │  go1.19.txt  │              go1.21.txt              │
                     │    sec/op    │    sec/op     vs base                │
AESCTR1K-2             1.228µ ± 1%    1.231µ ± ∞ ¹       ~ (p=0.699 n=6)
AESCBCEncrypt1K-2      1.111µ ± 0%    1.109µ ± 1%        ~ (p=0.240 n=6)
geomean                1.168µ         1.168µ        -0.04%
¹ need >= 6 samples for confidence interval at level 0.95

                     │  go1.19.txt   │              go1.21.txt               │
                     │      B/s      │      B/s       vs base                │
AESCTR1K-2             791.4Mi ± 1%    789.4Mi ± 2%        ~ (p=0.699 n=6)
AESCBCEncrypt1K-2      879.0Mi ± 0%    880.6Mi ± 1%        ~ (p=0.240 n=6)
geomean                834.0Mi         833.8Mi        -0.04%
"""


def test_benchstat_since_2023_columns_are_runs_of_flagged_medians():
    df = _read(_NEW)
    assert df.groupby("run").label.first().tolist() == ["go1.19.txt", "go1.21.txt"] and len(df) == 4
    assert set(df["stat"]) == {"median"} and set(df.cpu) == {"AMD EPYC"}
    cbc = _cell(df, "AESCBCEncrypt1K-2", label="go1.21.txt")
    assert cbc.bytes_per_s == pytest.approx(880.6 * 2 ** 20) and cbc.block_bytes == 1024
    ctr = _cell(df, "AESCTR1K-2", label="go1.19.txt")  # (1019 bytes a call, not the name's 1K)
    assert ctr.algorithm == "aes-128-ctr" and pd.isna(ctr.block_bytes)
    assert ctr.ops_per_s == pytest.approx(1 / 1.228e-6)


def test_the_cli_writes_go_and_wolfssl_rows_in_the_tables_units(tmp_path, capsys):
    from cipherlab.cli import main
    from cipherlab.model import read_table

    out = tmp_path / "go.csv"
    wolf = GO.parent / "wolfssl" / "benchmark-5.5.4-csv.txt"
    assert main(["ingest", str(GO / "cipher.txt"), str(wolf), "-o", str(out)]) == 0
    df = read_table(out)
    gcm = df[df.name == "BenchmarkAESGCM/Open-128-8192-2"].iloc[0]
    assert (gcm.tool, gcm.algorithm, gcm.operation, gcm.block_bytes) == ("go", "aes-128-gcm", "decrypt", 8192)
    assert gcm.bytes_per_s == pytest.approx(5314.10e6)  # (Go's MB/s: 10^6 bytes a second)
    rsa = df[(df.tool == "wolfssl") & (df.name == "RSA,2048,public")].iloc[0]
    assert (rsa.tool_version, rsa.algorithm, rsa.ops_per_s) == ("5.5.4", "rsa2048", 27752.961)


def test_a_record_a_mail_client_wrapped_is_rejoined():
    text = (_HEAD + "BenchmarkAESGCM/Open-128-64-2            1516135                77.26\n"
            "ns/op      828.38 MB/s           0 B/op          0 allocs/op\n"
            "BenchmarkAESGCM/Open-128-8192-2            77613              1542 ns/op\n"
            "5314.10 MB/s           0 B/op          0 allocs/op\n")
    df = _read(text)
    assert df.line.tolist() == [2, 4] and df.bytes_per_s.tolist() == [828.38e6, 5314.10e6]
    cut = _HEAD + "BenchmarkAESGCM/Open-128-64-2            1516135                77.26\n"
    with pytest.warns(IngestWarning, match=r"line\(s\) 2\b"):  # (its rest lost: reported)
        cipherlab.ingest(cut + "BenchmarkAESCTR1K-2  93895  1228 ns/op  829.67 MB/s\n")
