"""The cross-library view and the OpenJDK seed re-run on the JDK, on the bundled host-c captures
(real openssl, cryptography, GnuTLS, SunJCE and JSSE runs of one machine)."""

from __future__ import annotations

import re

import pandas as pd
import pytest

import cipherlab
from cipherlab import datasets, stats
from cipherlab.reporting._libraries import library_rows

HOST_C = "captures/host-c-libraries"


@pytest.fixture(scope="module")
def host_c():
    return datasets.load(HOST_C)


def test_four_libraries_land_in_one_table_with_their_versions(host_c):
    d = library_rows(host_c)
    assert set(d["tool"]) == {"openssl", "cryptography", "gnutls", "jdk"}
    names = set(d["library"].astype(str))
    assert any(re.fullmatch(r"cryptography \S+ \(OpenSSL \S+\)", n) for n in names)
    assert any(n.startswith("GnuTLS 3.") for n in names)
    assert any(n.startswith("JDK (SunJCE) 17.") for n in names)
    assert set(d["isa"]) == {"native", "no-aesni"}  # the preset every library ran under
    # the JVM intrinsic switches are the seed's experiment, not the library as shipped
    assert set(d.loc[d["tool"] == "jdk", "jvm"]) == {"native", "no-aesni"}
    assert (set(host_c["host"]) == {"host-c"})


def test_speedup_by_tool_compares_every_library_with_the_openssl_cli(host_c):
    d = library_rows(host_c)
    res = stats.speedup(d, by="tool", on=["cryptography", "gnutls", "jdk"], off="openssl",
                        groupby=["algorithm", "operation", "block_bytes", "isa"])
    cells = set(zip(res["candidate"], res["algorithm"], res["block_bytes"], res["isa"], strict=True))
    assert ("gnutls", "aes-128-gcm", 16384, "no-aesni") in cells
    assert ("jdk", "aes-128-cbc", 16, "native") in cells
    assert ("cryptography", "chacha20-poly1305", 1024, "native") in cells
    assert (res["n_candidate"] >= 3).all() and (res["n_baseline"] == 3).all()
    assert res["ratio"].between(res["ci_low"], res["ci_high"]).all()


def test_the_report_shows_the_libraries_and_the_seed_on_the_jdk(tmp_path, host_c):
    page = cipherlab.report([datasets.root() / HOST_C], out=tmp_path).read_text()
    text = re.sub(r"<[^>]+>", "", page)
    assert "One machine, four libraries" in text
    for name in ("openssl CLI 3.", "GnuTLS 3.", "JDK (SunJCE) 17."):
        assert name in text
    # what the preset switched off, per library: decoded masks for OpenSSL, AES-NI for the rest
    assert "isa=no-aesni openssl CLI: off: aesni+pclmulqdq+vaes+vpclmulqdq" in text
    assert "isa=no-aesni GnuTLS: AES-NI off" in text
    seed = text[text.index("The OpenJDK seed on the JDK itself"):]
    for jvm in ("native", "seed-era"):
        assert re.search(rf"{jvm} \(JDK 17\.[\d.]+\): GCM / CBC over JSSE [\d.]+× \[[\d.]+, [\d.]+\]",
                         seed)
    assert re.search(r"measured / predicted [\d.]+-[\d.]+: (not )?cipher-bound", seed)
    assert re.search(r"OpenJDK seed, seed-era: with the GHASH intrinsic off GCM moves", text)
    table = pd.read_csv(tmp_path / "tables" / "jsse-gcm-over-cbc.csv")
    assert set(table["measured"]) == {"JSSE transfer", "SunJCE at 16 KiB"}
    assert (tmp_path / "figures" / "libraries-heatmap.png").is_file()
