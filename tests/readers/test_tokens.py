"""Layer 2, typing tokens: values, units, sizes, times and names as people write them.

Shown on texts written here, in other variants than the real pastes (other algorithms, units,
separators); every test runs through both engines (conftest).
"""

from __future__ import annotations

import pandas as pd
import pytest

import cipherlab

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)


def notes(df):
    return [None if pd.isna(v) else v for v in df.note]


def pk(df):
    return list(zip(df.algorithm.astype(str), df.operation.astype(str), df.ops_per_s))


def test_public_key_rates_typed_after_their_labels():
    text = ("## DSA and ECDH on the router\n\n"
            "dsa 1024 bits sign/s=1,234.5, verify/s=2,345.6\n"
            "dsa 2048 bits sign/s: 456.7 | verify/s: 789.0\n"
            "256 bits ecdh (nistp256) op/s: 12345.6\n")
    df = cipherlab.ingest(text, strict=True)
    assert pk(df) == [("dsa1024", "sign", 1234.5), ("dsa1024", "verify", 2345.6),
                      ("dsa2048", "sign", 456.7), ("dsa2048", "verify", 789.0),
                      ("ecdh-p256", "derive", 12345.6)]
    assert df.label.unique().tolist() == ["DSA and ECDH on the router"]
    assert df.line.tolist() == [3, 3, 4, 4, 5]


def test_labelled_rates_of_the_same_row_again_open_the_next_run():
    text = ("before:\nrsa 3072 bits sign/s: 100.0; verify/s: 5000.0\n"
            "after:\nrsa 3072 bits sign/s: 120.0; verify/s: 5100.0\n")
    df = cipherlab.ingest(text, strict=True)
    assert df.groupby("run").label.first().tolist() == ["before", "after"]


@pytest.mark.parametrize("line", [
    "rsa 2048 bits sign/s: 1533.00; verify/s 51018.50 on a good day",  # words after the rates
    "we got sign/s: 1533.00 on rsa 2048 bits",                          # a sentence
])
def test_labelled_rates_inside_prose_are_not_rows(line):
    from cipherlab.readers._units import labelled_rates
    assert labelled_rates(line) is None


def test_a_link_line_does_not_label_the_run_below_it():
    text = ("### Board B\n(see https://example.org/board-b/results.html)\n"
            "type 16 bytes 64 bytes\nsha224 1.50k 2.50k\n")
    assert cipherlab.ingest(text, strict=True).label.unique().tolist() == ["Board B"]


def test_a_zero_rate_beside_a_measured_time_is_a_measurement():
    text = ("version: 3.0.13\n"
            "                   sign    verify    sign/s verify/s\n"
            "rsa 4096 bits 0.004000s 0.000100s    250.0  10000.0\n"
            "rsa 15360 bits 12.500000s 0.002000s      0.0    500.0\n"
            "dsa 2048 bits 0.000000s 0.000000s      0.0      0.0\n")
    df = cipherlab.ingest(text, strict=True)
    got = dict(zip(zip(df.algorithm.astype(str), df.operation.astype(str)), df.ops_per_s))
    assert got[("rsa15360", "sign")] == 1 / 12.5 and got[("rsa15360", "verify")] == 500.0
    assert df[df.algorithm == "dsa2048"].flag.eq("not measured").all()  # no time: not measured


# --- words after a row's values: a note, or the machine the rows ran on ----------------------
def test_words_in_parentheses_on_one_row_are_its_note():
    text = ("Results on the gateway:\n"
            "type             16 bytes     64 bytes\n"
            "aes-192-cbc      1000.00k     2000.00k  (via engine)\n"
            "camellia-128-cbc 3000.00k     4000.00k\n"
            "                  sign    verify    sign/s verify/s\n"
            "rsa 2048 bits 0.001000s 0.000100s   1000.0  10000.0\n")
    df = cipherlab.ingest(text, strict=True)
    assert df.run.unique().tolist() == [0] and df.label.unique().tolist() == ["Results on the gateway"]
    assert notes(df) == ["via engine"] * 2 + [None] * 4


def test_a_page_number_after_a_row_is_its_note_not_a_cell():
    text = ("type             16 bytes     64 bytes    256 bytes\n"
            "whirlpool        1000.00k     2000.00k     3000.00k   212\n"
            "sm3              1500.00k     2500.00k     3500.00k\n")
    df = cipherlab.ingest(text, strict=True)
    assert df.block_bytes.tolist() == [16, 64, 256] * 2
    assert notes(df) == ["212"] * 3 + [None] * 3


def test_words_in_parentheses_on_several_rows_name_their_machines():
    text = ("type             16 bytes     64 bytes\n"
            "sha512           1000.00k     2000.00k (big.LITTLE big)\n"
            "sha512            300.00k      600.00k (big.LITTLE little)\n")
    df = cipherlab.ingest(text, strict=True)
    assert df.groupby("run").label.first().tolist() == ["big.LITTLE big", "big.LITTLE little"]
    assert "note" not in df.columns


# --- block sizes, numbers and names as people write them -------------------------------------
@pytest.mark.parametrize("header, sizes", [
    ("type 16B 64B 256B", [16, 64, 256]),
    ("type   16 B   64 B   256 B", [16, 64, 256]),
    ("type 1K 8K 16K", [1024, 8192, 16384]),
    ("type 1 KB 8 KiB 16 KB", [1024, 8192, 16384]),
    ("type 16-byte 64-byte 256-byte", [16, 64, 256]),
    ("type bytes16 bytes64 bytes256", [16, 64, 256]),
    ("type 1,024 bytes 8,192 bytes 16,384 bytes", [1024, 8192, 16384]),
])
def test_type_header_block_sizes_in_any_spelling(header, sizes):
    text = f"{header}\ncamellia-256-cbc   1000.00k   2000.00k   3000.00k\n"
    df = cipherlab.ingest(text, strict=True)
    assert df.block_bytes.tolist() == sizes and df.bytes_per_s.tolist() == [1e6, 2e6, 3e6]


@pytest.mark.parametrize("token, value", [
    ("1'250 Mbps", 1250e6 / 8), ("2\u2019500.5 kB/s", 2500500.0), ("3,000 MiB/s", 3000 * 2.0 ** 20),
    ("12.5 GiB/s", 12.5 * 2.0 ** 30), ("7 GB/s", 7e9), ("0.5 Gbps", 0.5e9 / 8), ("64 KiB/s", 65536.0),
    ("812 MBit/s", 812e6 / 8), ("1.5 GBits/s", 1.5e9 / 8),  # (a capital B before "it": bits)
])
def test_values_with_units_and_thousands_marks(token, value):
    from cipherlab.readers._units import value_with_unit
    assert value_with_unit(token) == value


@pytest.mark.parametrize("name, algorithm", [
    ("3DES", "des-ede3-cbc"), ("Triple-DES", "des-ede3-cbc"), ("aes192", "aes-192-cbc"),
    ("Camellia256", "camellia-256-cbc"), ("RSA-3072", "rsa3072"), ("AES128-GCM", "aes-128-gcm"),
    ("DSA 2048", "dsa2048"),
])
def test_names_people_write_map_to_the_canonical_vocabulary(name, algorithm):
    from cipherlab.readers._names import canonical
    assert canonical(name)[0] == algorithm


# ------------------------------------------------------------- a name followed by a block size
@pytest.mark.parametrize("text, name, block", [
    ("whirlpool 1024", "whirlpool", 1024), ("SHA-384 16 bytes", "SHA-384", 16),
    ("Camellia-128-CBC 8K", "Camellia-128-CBC", 8192), ("aria-256-gcm @ 16KiB", "aria-256-gcm", 16384),
    ("hmac(sha512), 64B", "hmac(sha512)", 64), ("sm3 at 1 KB", "sm3", 1024),
    ("AES-192 CTR 4,096", "AES-192 CTR", 4096), ("bf-cbc 256 bytes", "bf-cbc", 256),
])
def test_a_name_then_a_block_size_is_that_algorithm_at_that_size(text, name, block):
    from cipherlab.readers._units import sized_name
    assert sized_name(text) == (name, block)


@pytest.mark.parametrize("text", [
    "rsa 3072", "DSA 1024", "ecdsa 384", "ECDH 521", "ffdh 6144", "ed25519 256", "ML-KEM 768",
    "bf-cbc 128",        # a cipher whose name leaves its key size open: 128 may be the key
    "sha512 224",        # SHA-512/224, a digest of its own
    "blake2s 256",       # BLAKE2s-256
    "iostat 1024",       # not an algorithm
])
def test_a_number_that_may_be_a_key_size_or_part_of_the_name_is_no_block_size(text):
    from cipherlab.readers._units import sized_name
    assert sized_name(text) is None


def _read_quiet(text):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cipherlab.ingest(text)


def _cells(df):
    out = df.assign(value=df.bytes_per_s.fillna(df.ops_per_s))
    return sorted(zip(df.label.astype(str), df.algorithm.astype(str), df.operation.astype(str),
                      df.block_bytes.astype("Float64").fillna(-1).astype(int), out.value))


def test_name_and_size_row_titles_in_a_long_table():
    text = ("Digests on the NAS, in MiB/s:\n\n"
            "| Test | Rate (MiB/s) |\n|---|---|\n"
            "| whirlpool 1024 | 210.5 |\n| SHA-384 16 bytes | 44.25 |\n"
            "| Camellia-128-CBC 8K | 150 |\n")
    got = _cells(_read_quiet(text))
    mib = 2.0 ** 20
    assert [(a, op, b, v) for _, a, op, b, v in got] == [
        ("camellia-128-cbc", "encrypt", 8192, 150 * mib), ("sha384", "digest", 16, 44.25 * mib),
        ("whirlpool", "digest", 1024, 210.5 * mib)]


def test_one_column_per_name_and_size_builds_as_rows():
    text = ("All figures in GB/s.\n\n| Build | sm3 1024 | aria-256-gcm @ 16KiB | SHA-224, 64B |\n"
            "|---|---|---|---|\n| 3.2.1 | 0.5 | 2.25 | 0.125 |\n| 3.3.0 | 0.75 | 2.5 | 0.25 |\n")
    got = _cells(_read_quiet(text))
    assert [(lab, a, b, v) for lab, a, _, b, v in got] == [
        ("3.2.1", "aria-256-gcm", 16384, 2.25e9), ("3.2.1", "sha224", 64, 0.125e9),
        ("3.2.1", "sm3", 1024, 0.5e9), ("3.3.0", "aria-256-gcm", 16384, 2.5e9),
        ("3.3.0", "sha224", 64, 0.25e9), ("3.3.0", "sm3", 1024, 0.75e9)]


def test_name_and_size_stated_in_the_prose_above_a_machines_table():
    text = ("Throughput of `sha3-384 @ 8K`, in MB/s:\n\n"
            "| Board | LibreSSL 3.9 | OpenSSL 3.3 |\n|---|---|---|\n"
            "| Rock 5B | 101.5 | 99.5 |\n")
    got = _cells(_read_quiet(text))
    assert {(a, b) for _, a, _, b, _ in got} == {("sha3-384", 8192)}
    assert sorted(v for *_, v in got) == [99.5e6, 101.5e6]


def test_a_key_size_after_a_public_key_name_is_not_read_as_a_block_size():
    text = ("Signing on the NAS, ops/s:\n\n"
            "| Library | dsa 2048 | ecdsa 384 |\n|---|---|---|\n| LibreSSL | 1500.5 | 3000.5 |\n")
    with pytest.raises(cipherlab.IngestError):  # no operation: reported, never a block size
        _read_quiet(text)
