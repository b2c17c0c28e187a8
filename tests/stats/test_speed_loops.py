"""The loops of ``openssl speed`` (``stats.speed_loop``): a cipher timed by its named test and by
``-evp`` is two cells, never replicates of one; and a condition that differs between the sides
of a comparison (one host's masked run against another's unmasked dump) is named."""

from __future__ import annotations

import shutil
import subprocess
import warnings

import pandas as pd
import pytest

import cipherlab
import cipherlab.stats as st
from cipherlab.errors import ComparabilityWarning

EVP, NAMED, LOW = "-evp (EVP_EncryptUpdate)", "named (EVP_Cipher)", "named (low-level API)"


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.fixture(scope="module")
def both_loops(tmp_path_factory):
    """Three runs of this machine's openssl per loop, 16-byte AES-128-CBC, a dump each."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl on PATH")
    folder = tmp_path_factory.mktemp("loops")
    for i, args in enumerate([["aes-128-cbc"]] * 3 + [["-evp", "aes-128-cbc"]] * 3):
        done = subprocess.run(["openssl", "speed", "-seconds", "1", "-bytes", "16", *args],
                              capture_output=True, text=True, check=True)
        (folder / f"run-{i}.txt").write_text(done.stderr + done.stdout)
    return _quiet(cipherlab.ingest, folder)


@pytest.mark.openssl
def test_the_named_test_and_evp_are_told_apart_on_real_runs(both_loops):
    df = both_loops[both_loops["algorithm"] == "aes-128-cbc"]
    loop = st.speed_loop(df)
    major = int(str(df["tool_version"].iloc[0]).split(".")[0])
    named = NAMED if major >= 3 else LOW
    run = df["source"].astype(str).str.extract(r"run-(\d)")[0].astype(int)
    by_source = dict(zip(run, loop, strict=True))
    assert by_source == {0: named, 1: named, 2: named, 3: EVP, 4: EVP, 5: EVP}
    # pooled (one label for all six runs), the two loops are named as one cell's rows
    labelled = df.assign(label=pd.Categorical(["this host"] * len(df)))
    with pytest.warns(ComparabilityWarning, match="different loops of openssl speed"):
        found = st.comparable(labelled, by="label", groupby=["algorithm", "block_bytes"])
    assert set(found.loc[found["check"] == "speed-loop", "value"]) == {named, EVP}
    # kept apart, the loops are what is compared: three runs a side, tested
    result = _quiet(st.compare, df.assign(loop=loop), by="loop", baseline=named)
    row = result.iloc[0]
    assert (row["n_candidate"], row["n_baseline"]) == (3, 3)
    assert row["candidate"] == EVP and row["p_value"] == row["p_value"]  # a test ran
    assert 0.2 < row["ratio"] < 5


def test_names_by_version():
    df = pd.DataFrame({
        "tool": "openssl", "dialect": "text",
        "operation": ["encrypt"] * 8 + ["digest"] + ["encrypt"] * 4 + ["sign"],
        "algorithm": ["aes-128-cbc", "aes-128-cbc", "aes-128-cbc", "aes-128-cbc", "rc4", "rc4",
                      "des-ede3-cbc", "chacha20-poly1305", "sha256", "aes-128-gcm", "aes-128-cbc",
                      "cast5-cbc", "salsa20-256", "rsa2048"],
        "tool_version": ["3.0.19", "3.0.19", "1.1.1w", "1.1.1w", "1.1.1w", "3.2.1", "1.0.2u",
                         "3.5.0", "3.0.19", "3.0.2", None, "1.1.1w", "0.9.8zh", "3.0.19"],
        "name": ["AES-128-CBC", "aes-128-cbc", "aes-128-cbc", "aes-128 cbc", "rc4", "RC4",
                 "des ede3", "ChaCha20-Poly1305", "sha256", "evp", "aes-128-cbc", "cast cbc",
                 "salsa20-256", "rsa 2048 bits"]})
    # (every cipher family, whatever its name: cast5, GOST's and Salsa20's rows encrypt too)
    assert st.speed_loop(df).tolist() == [EVP, NAMED, EVP, LOW, None, EVP, LOW, EVP, None, EVP,
                                          None, LOW, EVP, None]
    # a person's table ('AES-256 CBC' in a wiki) says nothing about the loop
    typed = df.assign(dialect="markdown")
    assert st.speed_loop(typed).isna().all()


def test_the_bundled_hosts_compared_name_the_loops_then_the_mask():
    """host-b's capture holds named and -evp AES-128-CBC runs, the -evp ones with and without
    a capability mask; host-a's dumps state no mask. Compared by version, the two loops are
    named first; kept apart, host-b's masked run is what meets host-a's -evp rows: named too."""
    paths = [cipherlab.datasets.root() / "captures" / p
             for p in ("host-a-openssl-3.0.19", "host-b-openssl-3.0.22")]
    df = pd.concat([_quiet(cipherlab.ingest, p) for p in paths], ignore_index=True)
    aes = df[df["algorithm"].astype(str) == "aes-128-cbc"]
    with pytest.warns(ComparabilityWarning) as record:
        st.compare(aes, by="tool_version", baseline="3.0.19")
    assert any("different loops" in str(w.message) for w in record)
    with pytest.warns(ComparabilityWarning) as record:
        st.compare(aes.assign(loop=st.speed_loop(aes)), by="tool_version", baseline="3.0.19")
    messages = [str(w.message) for w in record]
    assert not any("different loops" in m for m in messages)
    assert any("differ in the condition isa (no-aesni-classic, not stated)" in m for m in messages)
