"""GnuTLS: its benchmark's output read into the tidy table, and captures with the real gnutls-cli
under the ISA presets (through GNUTLS_CPUID_OVERRIDE and NETTLE_FAT_OVERRIDE). Captures ask for the
first row only (the benchmark stops there), so each run takes a few seconds."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import cipherlab
from cipherlab.errors import CaptureError, CaptureWarning, IngestWarning
from cipherlab.readers._gnutls import find_runs
from cipherlab.runners._gnutls import capture_gnutls, in_effect

DATA = Path(__file__).parents[1] / "data" / "gnutls"
REAL = DATA / "benchmark-ciphers-3.7.9.txt"


def test_a_real_benchmark_reads_every_row():
    df = cipherlab.ingest(REAL)
    text = REAL.read_text().splitlines()
    rows = [ln for ln in text if ln.strip().endswith("/sec")]
    assert len(df) == len(rows) == 20
    assert set(df["tool"]) == {"gnutls"} and set(df["tool_version"]) == {"3.7.9"}
    assert set(df["timing"]) == {"cpu"} and set(df["block_bytes"]) == {16384}
    by = df.set_index("algorithm")
    assert by.loc["aes-128-gcm", "bytes_per_s"] == 5.72e9  # "5.72 GB/sec": decimal units
    assert by.loc["gost28147-tc26z-cnt-gost28147-tc26z-imit", "bytes_per_s"] == 63.68e6
    assert by.loc["hmac(sha256)", "operation"] == "digest"
    assert by.loc["aes-128-cbc-hmac-sha256", "name"] == "AES-128-CBC-SHA256"
    assert by.loc["gost28147-tc26z-imit", "operation"] == "digest"  # a MAC itself, not an HMAC
    for _, r in df.iterrows():  # each row's line is the line it came from
        assert text[r["line"] - 1].split()[0] == r["name"]


def test_two_benchmarks_in_one_text_are_two_runs_and_bad_rows_are_warned_about():
    one = REAL.read_text()
    damaged = one.replace("AES-128-CCM 0.98 GB/sec", "AES-128-CCM 0.98 GiB/sec")
    with pytest.warns(IngestWarning, match="1 line.*AES-128-CCM 0.98 GiB/sec"):
        df = cipherlab.ingest(one + "\n" + damaged)
    assert df["run"].nunique() == 2 and len(df) == 39


def test_a_benchmark_cut_short_keeps_what_it_printed():
    lines = ["Checking AEAD ciphers, payload size: 16384", "   AES-128-GCM 5.97 GB/sec",
             "   AES-128-CCM "]
    unplaced: list = []
    runs, taken = find_runs(lines, "cut", set(), unplaced)
    assert [c["algorithm"] for c in runs[0].cells] == ["aes-128-gcm"]
    assert taken == {0, 1, 2} and unplaced == []


def test_in_effect_reads_both_libraries():
    caps, nettle = in_effect("gnutls[2]: Intel SSSE3 was detected\n"
                             "gnutls[2]: Intel GCM accelerator (AVX) was detected\n"
                             "libnettle: cpu features: vendor:intel,aesni\n")
    assert caps == ["ssse3", "gcm-avx"] and nettle == ["vendor:intel", "aesni"]


@pytest.mark.gnutls
@pytest.mark.slow
def test_capture_applies_the_isa_presets_to_gnutls_and_nettle(tmp_path):
    with pytest.warns(CaptureWarning, match="no-vaes.*VAES"):
        df = capture_gnutls("aes-128-gcm", repeats=1, isa="native,no-aesni,no-vaes",
                            out=tmp_path, progress=False)
    assert sorted(df["isa"]) == ["native", "no-aesni"]
    by = df.set_index("isa")
    assert by.loc["native", "aesni"] == "on" and by.loc["no-aesni", "aesni"] == "off"
    assert "aes" in by.loc["native", "isa_mask"].split(";")[0]
    mask = by.loc["no-aesni", "isa_mask"]
    assert "aes" not in mask.split(";")[0] and "aesni" not in mask and "pclmul" not in mask
    assert set(df["algorithm"]) == {"aes-128-gcm"} and set(df["tool"]) == {"gnutls"}
    runs = pd.read_json(tmp_path / "runs.jsonl", lines=True).set_index("isa")
    assert runs.loc["no-aesni", "env"]["GNUTLS_CPUID_OVERRIDE"] != "0x3e"
    assert runs["stopped_early"].all()
    back = cipherlab.ingest(tmp_path)  # the folder reads back as its table
    assert len(back) == 2
    raw = cipherlab.ingest(sorted((tmp_path / "runs").iterdir())[0])  # and each raw run as text
    assert raw["tool_version"].iloc[0] == df["tool_version"].iloc[0]


@pytest.mark.gnutls
@pytest.mark.slow
def test_capture_errors_are_clear(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="raw OPENSSL_ia32cap masks mean nothing"):
        capture_gnutls("aes-128-gcm", isa="~0x200000200000000", out=tmp_path)
    with pytest.raises(CaptureError, match="apt install gnutls-bin"):
        capture_gnutls("aes-128-gcm", gnutls_cli="/no/such/gnutls-cli", out=tmp_path)
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(CaptureError, match="no `gnutls-cli` found on PATH"):
        capture_gnutls("aes-128-gcm", out=tmp_path)


@pytest.mark.gnutls
@pytest.mark.slow
def test_a_run_over_its_limit_is_stopped(tmp_path):
    with pytest.raises(CaptureError, match="did not finish within 2 s"):
        capture_gnutls(None, repeats=1, timeout_s=2, out=tmp_path, progress=False)
