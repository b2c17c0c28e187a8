"""The bundled data and ``cipherlab.datasets.load``: every file loads, with host and source set."""

from __future__ import annotations

import pandas as pd
import pytest

import cipherlab
from cipherlab import datasets


@pytest.fixture(scope="module")
def everything() -> pd.DataFrame:
    return datasets.load()


def test_data_files_are_the_measurements_only():
    names = {p.relative_to(datasets.root()).as_posix() for p in datasets.data_files()}
    assert "seeds/openjdk-tls-transfer.csv" in names
    assert "captures/host-b-openssl-3.0.22/evp.txt" in names
    left_out = ("README.md", "host.txt", "openjdk-ml-aes-gcm-slow.txt")
    assert not any(n.endswith(left_out) for n in names)


def test_load_everything_covers_every_file_and_host(everything):
    sources = set(everything["source"])
    for p in datasets.data_files():
        rel = p.relative_to(datasets.root()).as_posix()
        if p.suffix == ".csv":
            continue
        assert rel in sources, rel
    assert "seeds/openjdk-ml-aes-gcm-slow.txt" in sources   # the CSV's rows point into it
    hosts = set(everything["host"])
    assert {"host-a", "host-b", "AWS r3.xlarge", "VIA Luke", "AMD Ryzen 5 3600",
            "Linux (P3 750Mhz; 512MBram)", "OpenBSD (P3 500Mhz; 192MBram)",
            "NetBSD (P3 750Mhz; 512MBram)", "i7-4770 @ 3.40GHz"} <= hosts
    assert everything["host"].notna().all()
    assert everything["source"].notna().all() and everything["line"].notna().all()


def test_captures_are_tagged_by_host(everything):
    a = everything[everything["source"].astype(str).str.startswith("captures/host-a-")]
    b = everything[everything["source"].astype(str).str.startswith("captures/host-b-")]
    assert len(a) and len(b)
    assert set(a["host"]) == {"host-a"} and set(b["host"]) == {"host-b"}
    # same file name on both hosts, kept apart by source
    assert {"captures/host-a-openssl-3.0.19/multi-mr.txt",
            "captures/host-b-openssl-3.0.22/multi-mr.txt"} <= set(everything["source"])


def test_load_one_file_by_name():
    aws = datasets.load("aws-wiki-aesni-on-off.txt")
    assert set(aws["source"]) == {"seeds/aws-wiki-aesni-on-off.txt"}
    # "| aes-128-gcm | Yes | 282247.11k | ..." (line 26 of the seed)
    cell = aws[(aws.algorithm == "aes-128-gcm") & (aws.aesni == "on") & (aws.block_bytes == 16)]
    assert cell[["bytes_per_s", "line", "host"]].to_numpy().tolist() == [
        [282247110.0, 26, "AWS r3.xlarge"]]


def test_load_a_capture_by_relative_path():
    evp = datasets.load("captures/host-b-openssl-3.0.22/evp.txt")
    assert set(evp["host"]) == {"host-b"}
    # relabelled by what the AWS-wiki mask switched off: no aesni=off, and no warning about it
    assert set(evp["aesni"].dropna()) == {"on"}
    off = set(evp["isa_off"].dropna()) - {"none"}
    assert len(off) == 1 and {"aesni", "avx2", "shani", "vaes"} <= set(off.pop().split("+"))


def test_bundled_host_b_loads_without_an_aesni_warning():
    import warnings

    from cipherlab.runners import isa_contrast
    datasets._load_file.cache_clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        b = datasets.load("captures/host-b-openssl-3.0.22")
    evp, pyca = (b[b["source"].astype(str).str.endswith(f)] for f in ("evp.txt", "pyca.txt"))
    assert isa_contrast(evp).column == "isa_off"
    assert isa_contrast(pyca).column == "isa" and pyca["aesni"].isna().all()


def test_load_a_folder():
    b = datasets.load("captures/host-b-openssl-3.0.22")
    assert set(b["host"]) == {"host-b"}
    assert set(b["source"]) == {"captures/host-b-openssl-3.0.22/" + f
                                for f in ("evp.txt", "multi-mr.txt", "plain.txt", "pyca.txt")}
    seeds = datasets.load("seeds")
    assert set(seeds["source"].astype(str).str.split("/").str[0]) == {"seeds"}


def test_openjdk_figures():
    jdk = datasets.load("openjdk-tls-transfer.csv")
    assert jdk["algorithm"].astype(str).tolist() == [
        "TLS_ECDH_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"]
    # "a transfer rate of around 5.2 / MiB/second", "I reach 100 MiB/s"
    assert jdk["bytes_per_s"].tolist() == [5.2 * 1048576, 100 * 1048576]
    assert set(jdk["operation"]) == {"transfer"} and set(jdk["clock_hz"]) == {3.4e9}
    text = datasets.path("openjdk-ml-aes-gcm-slow.txt").read_text(encoding="utf-8").splitlines()
    assert "5.2" in text[jdk["line"].iloc[0] - 1]
    assert "100 MiB/s" in text[jdk["line"].iloc[1] - 1]
    # the CSV also reads as a plain tidy table
    assert len(cipherlab.read_table(datasets.path("openjdk-tls-transfer.csv"))) == 2


def test_each_call_returns_a_new_frame():
    first = datasets.load("aws-wiki-aesni-on-off.txt")
    first["bytes_per_s"] = 0.0
    assert datasets.load("aws-wiki-aesni-on-off.txt")["bytes_per_s"].max() > 0


def test_unknown_name_lists_the_bundled_files():
    with pytest.raises(FileNotFoundError, match="aws-wiki-aesni-on-off.txt"):
        datasets.load("no-such-file.txt")
