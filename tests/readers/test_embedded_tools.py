"""The benchmark programs of wolfSSL and mbed TLS (``readers/_wolfcrypt.py``, ``_mbedtls.py``):
real runs of both (``tests/data/wolfssl``, ``tests/data/mbedtls``: built from Debian 12's
sources on this project's machine) read whole, then each rule of the readers on texts in the
shapes people paste, and where runs start for every record-a-line tool (``_records.py``)."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pandas as pd
import pytest

import cipherlab
from cipherlab.errors import IngestWarning

DATA = Path(__file__).resolve().parents[1] / "data"
WOLF = DATA / "wolfssl" / "benchmark-5.5.4.txt"
WOLF_BASE10 = DATA / "wolfssl" / "benchmark-5.5.4-base10.txt"
WOLF_CSV = DATA / "wolfssl" / "benchmark-5.5.4-csv.txt"
WOLF_CSV_BASE10 = DATA / "wolfssl" / "benchmark-5.5.4-csv-base10.txt"
MBED = DATA / "mbedtls" / "benchmark-2.28.3.txt"
MIB = 2.0 ** 20


def _read(source):
    with warnings.catch_warnings():
        warnings.simplefilter("error", IngestWarning)  # (every line here is placed)
        return cipherlab.ingest(source)


def _cell(df: pd.DataFrame, name: str, **where) -> pd.Series:
    rows = df[df.name == name]
    for key, value in where.items():
        rows = rows[rows[key] == value]
    assert len(rows) == 1, rows
    return rows.iloc[0]


# --- wolfSSL --------------------------------------------------------------------------------
def test_the_real_wolfssl_run_is_read_record_for_record():
    text = WOLF.read_text()
    records = [n for n, line in enumerate(text.splitlines(), 1) if " took " in line]
    df = _read(WOLF)
    assert sorted(df.line) == records and df.run.nunique() == 1
    assert df.flag.isna().all()
    assert set(df.tool) == {"wolfssl"} and set(df.tool_version) == {"5.5.4"}
    assert set(df.timing) == {"elapsed"}
    gcm = _cell(df, "AES-128-GCM-enc")  # (values copied by hand from the text)
    assert (gcm.algorithm, gcm.operation, gcm.block_bytes) == ("aes-128-gcm", "encrypt", 1048576)
    assert gcm.bytes_per_s == pytest.approx(98.692 * MIB)
    assert _cell(df, "AES-128-GCM-dec").operation == "decrypt"
    assert (_cell(df, "HMAC-SHA").algorithm, _cell(df, "CHA-POLY").algorithm) == (
        "hmac(sha1)", "chacha20-poly1305")
    sign = _cell(df, "RSA     2048  private")
    assert (sign.algorithm, sign.operation, sign.ops_per_s) == ("rsa2048", "sign", 278.567)
    assert pd.isna(sign.block_bytes) and pd.isna(sign.bytes_per_s)
    ecdsa = df[df.algorithm == "ecdsa-p256"].set_index("operation").ops_per_s.to_dict()
    assert ecdsa == {"keygen": 1539.483, "sign": 1593.672, "verify": 2469.485}
    assert _cell(df, "ECDHE [      SECP256R1]   256    agree").algorithm == "ecdh-p256"
    assert df[df.algorithm == "x25519"].operation.tolist() == ["keygen", "derive"]
    pbkdf2 = _cell(df, "PBKDF2")  # (bytes of key derived a second: no block size)
    assert pbkdf2.operation == "derive" and pd.isna(pbkdf2.block_bytes)
    assert _cell(df, "GMAC Table 4-bit").implementation == "table 4-bit"


def test_base10_megabytes_are_decimal_below_a_version_that_prints_mib_otherwise():
    df = _read(WOLF_BASE10)
    assert df.flag.isna().all()
    assert _cell(df, "AES-128-CBC-enc").bytes_per_s == pytest.approx(167.327e6)


_WOLF_4X = """\
wolfCrypt Benchmark (block bytes 1048576, min 1.0 sec each)
RNG                135 MB took 1.023 seconds,  131.964 MB/s Cycles per byte =  25.10
AES-128-CBC-enc    275 MB took 1.003 seconds,  274.163 MB/s Cycles per byte =  12.08
RSA     2048 public      15500 ops took 1.002 sec, avg 0.065 ms, 15469.586 ops/sec
ECDSA    256 sign         8300 ops took 1.006 sec, avg 0.121 ms, 8250.497 ops/sec
"""


@pytest.mark.parametrize("above", ["", " wolfSSL version 4.8.1\n"])
def test_megabytes_of_a_release_before_iec_units_are_flagged_not_guessed(above):
    df = _read(above + _WOLF_4X)
    rates = df[df.bytes_per_s.notna()]
    assert set(rates.flag) == {"unit base unknown"}  # (2^20 then, 10^6 with -base10 now)
    assert _cell(df, "AES-128-CBC-enc").bytes_per_s == pytest.approx(274.163e6)
    assert df[df.ops_per_s.notna() & df.bytes_per_s.isna()].flag.isna().all()
    assert _cell(df, "ECDSA    256 sign").algorithm == "ecdsa-p256"  # (the NIST curve of 256 bits)


def test_the_3x_records_in_megs_and_milliseconds_per_operation():
    text = ("AES      25 megs took 0.091 seconds, 275.695 MB/s Cycles per byte =  7.88\n"
            "AES-GCM  25 megs took 0.077 seconds, 322.910 MB/s Cycles per byte =  6.72\n"
            "SHA-256  25 megs took 0.150 seconds, 166.667 MB/s Cycles per byte = 13.02\n"
            "RSA 2048 encryption took  0.027 milliseconds, avg over 100 iterations\n"
            "RSA 2048 decryption took  1.181 milliseconds, avg over 100 iterations\n")
    df = _read(text)
    assert _cell(df, "RSA 2048 encryption").ops_per_s == pytest.approx(1e3 / 0.027)
    assert _cell(df, "RSA 2048 decryption").operation == "sign"
    flags = df[df.bytes_per_s.notna()].set_index("name").flag.astype(str).to_dict()
    assert flags == {"AES": "name unclear", "AES-GCM": "name unclear",  # (of which key size?)
                     "SHA-256": "unit base unknown"}


def test_a_no_aad_record_is_the_cipher_with_a_condition():
    text = ("wolfCrypt Benchmark (block bytes 1048576, min 1.0 sec each)\n"
            "AES-128-GCM-enc           5405 MiB took 1.000 seconds, 5403.709 MiB/s\n"
            "AES-128-GCM-enc-no_AAD    5430 MiB took 1.000 seconds, 5429.055 MiB/s\n")
    df = _read(text)
    assert df.algorithm.tolist() == ["aes-128-gcm"] * 2 and df.run.nunique() == 1
    assert df.aad.isna().tolist() == [True, False] and df.aad.iloc[1] == "no"


def test_a_damaged_record_is_reported_by_line():
    text = WOLF.read_text().replace("173.465 MiB/s", "173.465")
    line = next(n for n, s in enumerate(text.splitlines(), 1) if s.startswith("SHA-256 "))
    with pytest.warns(IngestWarning, match=rf"line\(s\) {line}\b"):
        df = cipherlab.ingest(text)
    assert "sha256" not in set(df.algorithm)


def test_runs_split_at_captions_and_at_a_record_seen_again():
    records = "\n".join(WOLF.read_text().splitlines()[4:8]) + "\n"
    df = _read("**Pi 4 (Cortex-A72)**\n\n" + records + "\nand on the Pi 5:\n\n" + records + records)
    assert df.groupby("run").size().tolist() == [4, 4, 4]
    labels = df.drop_duplicates("run").label.astype(object).tolist()
    assert labels[0] == "Pi 4 (Cortex-A72)" and labels[1] == "Pi 5" and pd.isna(labels[2])


def test_beside_openssl_speed_each_tool_keeps_its_own_runs():
    openssl = DATA / "samples" / "openssl-3.0.19-host-a" / "evp-aes.txt"  # (a real capture)
    df = _read("$ ./wolfcrypt/benchmark/benchmark\n" + WOLF.read_text() + "\n" + openssl.read_text()
               + "\n$ programs/test/benchmark\n" + MBED.read_text())
    assert df.groupby("tool", observed=True).run.unique().map(list).to_dict() == {
        "mbedtls": [2], "openssl": [1], "wolfssl": [0]}
    alone = _read(openssl)
    assert (df.tool == "openssl").sum() == len(alone)
    assert df[df.tool == "openssl"].bytes_per_s.tolist() == alone.bytes_per_s.tolist()


def _csv_records(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1)
            if line.count(",") >= 2 and not line.startswith("Algorithm,")]


def test_the_real_csv_run_is_one_run_its_mb_base_flagged_without_the_command_line():
    text = WOLF_CSV.read_text()
    df = _read(WOLF_CSV)
    assert sorted(df.line) == _csv_records(text) and df.run.nunique() == 1
    assert set(df.tool) == {"wolfssl"} and set(df.tool_version) == {"5.5.4"}
    rates = df[df.bytes_per_s.notna()]  # (2^20 by default, 10^6 with -base10: same header)
    assert set(rates.flag) == {"unit base unknown"} and len(rates) == 34
    gcm = _cell(df, "AES-128-GCM-enc")  # (values copied by hand from the text)
    assert (gcm.algorithm, gcm.operation, gcm.block_bytes) == ("aes-128-gcm", "encrypt", 1048576)
    assert gcm.bytes_per_s == pytest.approx(104.031589e6)
    pk = df[df.bytes_per_s.isna()]
    assert pk.flag.isna().all() and len(pk) == 13
    assert _cell(df, "ECC   [      SECP256R1],256,key gen").algorithm == "ecdsa-p256"
    assert _cell(df, "ECDHE [      SECP256R1],256,agree").ops_per_s == 1891.371
    assert _cell(df, "RSA,2048,private").operation == "sign"
    assert _cell(df, "ED,25519,verify").algorithm == "ed25519"


def test_the_csv_command_line_tells_the_base_of_its_mb():
    binary = _read("$ ./wolfcrypt/benchmark/benchmark -csv\n" + WOLF_CSV.read_text())
    assert binary.flag.isna().all()
    assert _cell(binary, "AES-128-GCM-enc").bytes_per_s == pytest.approx(104.031589 * MIB)
    decimal = _read("$ ./wolfcrypt/benchmark/benchmark -csv -base10 -aes-cbc -sha256 -rsa -ecc\n"
                    + WOLF_CSV_BASE10.read_text())
    assert decimal.flag.isna().all() and len(decimal) == len(_csv_records(WOLF_CSV_BASE10.read_text()))
    assert _cell(decimal, "SHA-256").bytes_per_s == pytest.approx(197.841583e6)


def test_csv_rows_outside_a_section_are_no_records():
    text = "Algorithm,MB/s,Cycles per byte,\nAES-128-CBC-enc,182.097377,13.596280,\n\nfoo,1.5,2.5,\n"
    df = _read(text)
    assert df.name.tolist() == ["AES-128-CBC-enc"]


# --- mbed TLS -------------------------------------------------------------------------------
def test_the_real_mbedtls_run_is_read_record_for_record():
    text = MBED.read_text()
    records = [n for n, line in enumerate(text.splitlines(), 1) if re.match(r"  \S.* :  ", line)]
    df = _read(MBED)
    assert sorted(df.line) == records and df.run.nunique() == 1
    assert df.flag.isna().all() and set(df.tool) == {"mbedtls"} and set(df.timing) == {"elapsed"}
    gcm = _cell(df, "AES-GCM-128")  # (values copied by hand from the text)
    assert (gcm.algorithm, gcm.block_bytes, gcm.bytes_per_s) == ("aes-128-gcm", 1024, 134135 * 1024)
    assert (_cell(df, "AES-XTS-256").algorithm, _cell(df, "ARC4").algorithm) == ("aes-256-xts", "rc4")
    assert _cell(df, "BLOWFISH-CBC-192").key_bits == 192
    drbg = _cell(df, "CTR_DRBG (PR)")
    assert (drbg.algorithm, drbg.operation, drbg.prediction_resistance) == ("ctr-drbg", "generate", "yes")
    rsa = df[df.algorithm == "rsa2048"].set_index("operation").ops_per_s.to_dict()
    assert rsa == {"verify": 24437.0, "sign": 521.0}
    x25519 = df[df.algorithm == "x25519"]
    assert len(x25519) == 5 and set(x25519.operation) == {"derive"}
    assert _cell(x25519, "ECDHE-x25519", handshake="full").ops_per_s == 313
    assert _cell(x25519, "ECDH-Curve25519").api == "ecp"
    assert _cell(df, "DHE-2048").key == "ephemeral" and pd.isna(_cell(df, "DH-2048").key)


def test_failed_records_measured_nothing_and_polarssl_kb_are_kibibytes():
    text = ("mbed TLS 2.16.12\n"
            "  AES-CBC-128              :      82380 Kb/s,         19 cycles/byte\n"
            "  AES-GCM-128              :  FAILED: -0x0012\n"
            "  RSA-2048                 :    1187  public/s\n")
    df = _read(text)
    assert len(df) == 2 and set(df.tool_version) == {"2.16.12"}
    assert _cell(df, "AES-CBC-128").bytes_per_s == 82380 * 1024
