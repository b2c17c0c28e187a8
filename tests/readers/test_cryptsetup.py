"""``cryptsetup benchmark`` output (``readers/_cryptsetup.py``): the real binary's lines, and each
rule of the reader on texts in the shapes people paste (the whole pastes, with hand-written
expected tables, are ``tests/data/user/terminal/090`` and ``091``)."""

from __future__ import annotations

import re
import shutil
import subprocess
import warnings

import pandas as pd
import pytest

import cipherlab
from cipherlab.errors import IngestWarning

CRYPTSETUP = shutil.which("cryptsetup") or (
    "/usr/sbin/cryptsetup" if shutil.which("cryptsetup", path="/usr/sbin:/sbin") else None)
needs_cryptsetup = pytest.mark.skipif(CRYPTSETUP is None, reason="cryptsetup is not installed")

_V2_TABLE = """\
# Tests are approximate using memory only (no storage IO).
#     Algorithm |       Key |      Encryption |      Decryption
        aes-cbc        128b      1246.7 MiB/s      3758.2 MiB/s
        aes-xts        256b      3277.7 MiB/s      3275.3 MiB/s
        aes-xts        512b      2720.2 MiB/s      2720.9 MiB/s
"""


def _read(text: str):
    with warnings.catch_warnings():
        warnings.simplefilter("error", IngestWarning)  # (every line here is placed)
        return cipherlab.ingest(text)


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([CRYPTSETUP, *args], capture_output=True, text=True, timeout=120,
                          env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})


@needs_cryptsetup
def test_the_real_binarys_pbkdf2_line_and_version_are_read():
    version = _run("--version").stdout
    bench = _run("benchmark", "--pbkdf", "pbkdf2", "--hash", "sha256")
    assert bench.returncode == 0, bench.stderr
    printed = int(re.search(r"PBKDF2-sha256\s+(\d+) iterations per second", bench.stdout)[1])
    df = _read(version + bench.stdout)
    assert df[["tool", "algorithm", "operation", "key_bits"]].astype(str).values.tolist() == [
        ["cryptsetup", "pbkdf2(sha256)", "derive", "256"]]
    assert df.ops_per_s.tolist() == [printed] and df.bytes_per_s.isna().all()
    assert df.tool_version[0] == re.search(r"cryptsetup (\S+)", version)[1]


@needs_cryptsetup
def test_the_real_binarys_cipher_rows_are_read_where_the_kernel_offers_its_ciphers():
    bench = _run("benchmark", "--cipher", "aes-xts-plain64", "--key-size", "512")
    if bench.returncode != 0:  # (no AF_ALG skcipher in this kernel or container)
        pytest.skip(f"the kernel's crypto API is not available here: {bench.stderr.strip()}")
    row = re.search(r"aes-xts\s+512b\s+([\d.]+) MiB/s\s+([\d.]+) MiB/s", bench.stdout)
    df = _read(bench.stdout).set_index("operation")
    assert set(df.algorithm) == {"aes-256-xts"} and set(df.block_bytes) == {65536}
    assert df.bytes_per_s["encrypt"] == pytest.approx(float(row[1]) * 2 ** 20)
    assert df.bytes_per_s["decrypt"] == pytest.approx(float(row[2]) * 2 ** 20)


def test_the_key_column_is_the_whole_key_and_xts_halves_it():
    df = _read(_V2_TABLE)
    assert df.drop_duplicates("line").algorithm.tolist() == ["aes-128-cbc", "aes-128-xts", "aes-256-xts"]
    assert df.operation.tolist() == ["encrypt", "decrypt"] * 3
    # MiB/s are 2**20 bytes a second, measured in 64 KiB requests of the kernel's crypto API
    assert df.bytes_per_s.tolist()[:2] == [1246.7 * 2 ** 20, 3758.2 * 2 ** 20]
    assert set(df.block_bytes) == {65536} and df.ops_per_s[0] == 1246.7 * 2 ** 20 / 65536
    assert set(df.timing) == {"elapsed"} and set(df.dialect) == {"cryptsetup benchmark"}


def test_a_cipher_without_a_size_in_its_name_keeps_its_key_bits_as_a_condition():
    df = _read("# Tests are approximate using memory only (no storage IO).\n"
               "#           Algorithm |       Key |      Encryption |      Decryption\n"
               "xchacha12,aes-adiantum        256b       812.4 MiB/s       815.0 MiB/s\n")
    assert set(df.algorithm) == {"xchacha12,aes-adiantum"} and set(df.key_bits) == {256}


def test_a_locale_s_decimal_comma_and_translated_lines_are_read():
    df = _read("# Die Tests sind nur annähernd genau, da sie nicht auf den Datenträger zugreifen.\n"
               "PBKDF2-sha256    4128378 Iterationen pro Sekunde für 256-Bit-Schlüssel\n"
               "#   Algorithmus | Schlüssel | Verschlüsselung | Entschlüsselung\n"
               "        aes-xts        512b      3512,0 MiB/s      3498,6 MiB/s\n")
    assert df.ops_per_s[0] == 4128378 and df.key_bits[0] == 256
    assert df.bytes_per_s.tolist()[1:] == [3512.0 * 2 ** 20, 3498.6 * 2 ** 20]
    assert df.label.isna().all()  # (cryptsetup's first comment names no run, in any language)


def test_n_a_rows_and_argon2_parameters_are_taken_without_a_cell():
    df = _read("# Tests are approximate using memory only (no storage IO).\n"
               "argon2id      4 iterations, 719853 memory, 4 parallel threads (CPUs) for 256-bit "
               "key (requested 2000 ms time)\n"
               "#     Algorithm |       Key |      Encryption |      Decryption\n"
               "    serpent-cbc        128b               N/A               N/A\n"
               "        aes-cbc        128b       667.9 MiB/s      1917.3 MiB/s\n")
    assert df.algorithm.tolist() == ["aes-128-cbc", "aes-128-cbc"]


def test_a_damaged_row_under_the_header_is_reported_by_line():
    text = _V2_TABLE.replace("3277.7 MiB/s", "3277.7 MB/s")
    with pytest.warns(IngestWarning, match=r"line\(s\) 4\b"):
        df = cipherlab.ingest(text)
    assert "aes-128-xts" not in set(df.algorithm)  # (never read in another unit)


def test_runs_split_at_prose_and_at_a_row_seen_again_and_take_the_version_above():
    text = ("cryptsetup 2.3.7\n" + _V2_TABLE + "\nLaptop on battery:\n\n" + _V2_TABLE
            + _V2_TABLE.split("\n", 1)[1])  # (the third: its rows again, no comment between)
    df = _read(text)
    assert df.groupby("run").size().tolist() == [6, 6, 6]
    labels = df.drop_duplicates("run").label.astype(object).tolist()
    assert pd.isna(labels[0]) and labels[1] == "Laptop on battery" and pd.isna(labels[2])
    assert set(df.tool_version.astype(str)) == {"2.3.7"}


def test_beside_openssl_speed_each_tool_keeps_its_own_runs():
    openssl = ("$ openssl speed -evp aes-128-cbc\n"
               "version: 3.0.15\n"
               "The 'numbers' are in 1000s of bytes per second processed.\n"
               "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes\n"
               "AES-128-CBC     995426.70k  1129452.71k  1155624.36k  1163271.51k  1166042.45k  1166305.28k\n")
    df = _read("$ cryptsetup benchmark\n" + _V2_TABLE + "\n" + openssl)
    assert df.groupby("tool", observed=True).run.unique().map(list).to_dict() == {
        "cryptsetup": [0], "openssl": [1]}
    assert (df.tool == "openssl").sum() == 6 and (df.tool == "cryptsetup").sum() == 6
