"""The JDK as an instrument: JVM conditions checked against the real HotSpot, the JCA harness and
the JSSE transfer run by the real java/javac, their faults (a missing JDK, a refused suite, a
hung transfer) ending cleanly. Sizes are tiny: the mechanics are under test, never the speed."""

from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path

import pandas as pd
import pytest

from cipherlab.errors import CaptureError, CaptureWarning, UnsupportedAlgorithmError
from cipherlab.runners._jca import capture_jca
from cipherlab.runners._jvm import (JVM_PRESETS, class_path, find_jdk, java_command,
                                    parse_flags_final, resolve_jvm)
from cipherlab.runners._tls import capture_tls
from cipherlab.stats import predict_tls

pytestmark = [pytest.mark.jdk, pytest.mark.slow]
GCM = "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"
CBC = "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"


def _java_children() -> list[str]:
    """Command lines of this process's children that run cipherlab's Java programs."""
    out = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2:].split()[1]) == os.getpid() and "cipherlab." in cmd:
            out.append(cmd)
    return out


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    """A temporary directory of its own, to see that keys and keystores are removed."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    yield tmp
    assert list(tmp.iterdir()) == [], "temporary keys left behind"
    assert _java_children() == [], "JVMs left running"


def test_every_preset_is_checked_against_hotspot():
    jdk = find_jdk()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        conds = {c.name: c for c in resolve_jvm(list(JVM_PRESETS), "native,no-aesni", jdk=jdk)}
    final = {name: dict(c.final) for name, c in conds.items()}
    assert final["seed-era"]["UseGHASHIntrinsics"] == "false"
    assert final["seed-era"]["UseAESCTRIntrinsics"] == "false"
    assert final["seed-era"]["UseAESIntrinsics"] == final["native"]["UseAESIntrinsics"]
    assert final["no-ghash-intrinsics"]["UseGHASHIntrinsics"] == "false"
    assert final["no-aesni"]["UseAES"] == "false" and conds["no-aesni"].aesni == "off"
    assert final["seed-era+no-aesni"]["UseCLMUL"] == "false"
    assert conds["native"].flags == () and conds["native"].aesni == "on"
    # The fused AES-GCM stub came with JDK 18: older JDKs refuse the option, and say so.
    if int(jdk.version.split(".")[0]) < 18:
        assert "no-aesgcm-intrinsics" not in conds
        assert any("no-aesgcm-intrinsics" in str(w.message) and "refuses" in str(w.message)
                   for w in caught)
    else:
        assert "-XX:DisableIntrinsic=_galoisCounterMode_AESCrypt" in conds["seed-era"].flags


def test_flags_hotspot_overrides_are_warned_about():
    """The presets fit this CPU, so ask for what HotSpot must refuse: GHASH without CLMUL."""
    from cipherlab.runners import _jvm
    jdk = find_jdk()
    native = _jvm.parse_flags_final(_jvm._flags_final(jdk.java, ())[1])
    flags = ("-XX:+UnlockDiagnosticVMOptions", "-XX:-UseCLMUL", "-XX:+UseGHASHIntrinsics")
    with pytest.warns(CaptureWarning, match="set UseGHASHIntrinsics=false although"):
        cond = _jvm._verify(jdk, "odd", "odd", "native", flags, native)
    assert dict(cond.final)["UseGHASHIntrinsics"] == "false"


@pytest.mark.parametrize("kwargs, match", [
    ({"jvm": "no-such"}, "jvm must name presets among native"),
    ({"isa": "~0x200000200000000"}, "isa .for a JDK capture. must name presets"),
])
def test_unknown_conditions_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        resolve_jvm(**kwargs)


def test_a_missing_jdk_names_what_to_install(monkeypatch, capsys):
    with pytest.raises(CaptureError, match="apt install default-jdk-headless"):
        find_jdk("/no/such/java")
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("JAVA_HOME", raising=False)
    with pytest.raises(CaptureError, match="no `java` found on PATH; install a JDK"):
        find_jdk()
    from cipherlab.cli import main
    assert main(["capture-tls", "--backend", "jsse", "--megabytes", "1"]) == 1  # environment
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "default-jdk-headless" in err[0]


def test_a_jvm_that_cannot_start_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("JAVA_TOOL_OPTIONS", "-XX:+NoSuchCipherlabOption")
    from cipherlab.runners import _jvm
    _jvm._version.cache_clear()
    try:
        with pytest.raises(CaptureError, match="NoSuchCipherlabOption"):
            find_jdk()
    finally:
        _jvm._version.cache_clear()


def test_the_java_programs_compile_once_into_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    jdk = find_jdk()
    first = class_path(jdk)
    assert (first / "cipherlab" / "TlsPeer.class").is_file() and first.is_relative_to(tmp_path)
    stamp = (first / "cipherlab" / "JcaBench.class").stat().st_mtime_ns
    assert class_path(jdk) == first
    assert (first / "cipherlab" / "JcaBench.class").stat().st_mtime_ns == stamp
    assert [p.name for p in first.parent.iterdir()] == [first.name]  # no half builds left
    assert java_command(jdk, None, "TlsPeer", ["suites"])[-2:] == ["cipherlab.TlsPeer", "suites"]


@pytest.fixture(scope="module")
def jca(tmp_path_factory):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CaptureWarning)  # a busy CI machine, CBC unmoved by GHASH
        return capture_jca(["aes-128-gcm", "aes-128-cbc", "hmac(sha256)"], sizes=[16384],
                           seconds=0.2, warmup_s=0.2, repeats=1, jvm="native,seed-era",
                           out=tmp_path_factory.mktemp("jca"), progress=False)


def test_jca_rows_land_in_the_tidy_table(jca):
    assert set(jca["tool"]) == {"jdk"} and jca["tool_version"].nunique() == 1
    assert sorted(set(zip(jca["algorithm"], jca["operation"], strict=True))) == [
        ("aes-128-cbc", "encrypt"), ("aes-128-gcm", "encrypt"), ("hmac(sha256)", "digest")]
    assert set(jca["jvm"]) == {"native", "seed-era"}
    assert jca["provider"].astype(str).str.startswith("SunJCE").all()
    by = jca.set_index(["algorithm", "jvm"])
    assert by.loc[("aes-128-gcm", "seed-era"), "intrinsics"] == "aes"
    assert "ghash" in by.loc[("aes-128-gcm", "native"), "intrinsics"]
    assert (jca["bytes_per_s"] > 0).all()
    assert (jca["bytes_per_s"] == jca["count"] * 16384 / jca["seconds"]).all()


def test_jca_bad_input_is_refused(tmp_path):
    with pytest.raises(UnsupportedAlgorithmError, match="algorithms must be among"):
        capture_jca("rc4", out=tmp_path)
    with pytest.raises(ValueError, match="sizes must be"):
        capture_jca("aes-128-gcm", sizes=[0], out=tmp_path)


@pytest.fixture(scope="module")
def jsse(tmp_path_factory):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CaptureWarning)
        return capture_tls([GCM, CBC], backend="jsse", jvm="native,seed-era", megabytes=2,
                           repeats=1, out=tmp_path_factory.mktemp("jsse"), progress=False)


def test_jsse_transfers_run_under_each_jvm_condition(jsse):
    assert len(jsse) == 4 and set(jsse["tool"]) == {"jsse"}
    assert set(jsse["algorithm"]) == {GCM, CBC} and set(jsse["protocol"]) == {"TLSv1.2"}
    assert set(jsse["cipher"]) == {"aes-128-gcm", "aes-128-cbc"}
    assert set(jsse["jvm"]) == {"native", "seed-era"}
    assert set(jsse["block_bytes"]) == {1 << 20}  # the seed's 1 MiB writes
    assert jsse["provider"].astype(str).str.startswith("SunJCE").all()
    assert (jsse["count"] > 0).all() and (jsse["count"] < 2_000_000).all()  # first read left out
    seed = jsse[jsse["jvm"] == "seed-era"]
    assert set(seed["jvm_flags"].astype(str).str.contains("-XX:-UseGHASHIntrinsics")) == {True}


def test_jsse_keys_removed_and_jvms_reaped(private_tmp, tmp_path):
    df = capture_tls(GCM, backend="jsse", megabytes=1, repeats=1, out=tmp_path / "c",
                     progress=False)
    assert df["tool"].tolist() == ["jsse"]
    runs = pd.read_json(tmp_path / "c" / "runs.jsonl", lines=True)
    assert runs["server_java_version"].iloc[0] == df["tool_version"].iloc[0]


def test_predict_tls_covers_jsse_from_a_jca_capture(jsse, jca):
    pred = predict_tls(jsse, jca, on="jvm")
    assert len(pred) == 4 and pred["predicted_bytes_per_s"].notna().all()
    cbc = pred[pred["algorithm"] == CBC]
    assert set(cbc["primitives"]) == {"aes-128-cbc + hmac(sha256)"}
    assert (pred["measured_over_predicted"] > 0).all()


@pytest.mark.parametrize("suite, match", [
    ("TLS_ECDH_ECDSA_WITH_AES_128_GCM_SHA256", "refuses TLS suite .* jdk.tls.disabledAlgorithms"),
    ("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "certificate is ECDSA"),
    ("ECDHE-ECDSA-AES128-GCM-SHA256", "does not know TLS suite .* IANA"),
])
def test_a_suite_the_jdk_refuses_is_a_clear_error(suite, match, tmp_path):
    with pytest.raises(UnsupportedAlgorithmError, match=match):
        capture_tls(suite, backend="jsse", megabytes=1, out=tmp_path, progress=False)


def test_a_handshake_the_jdk_refuses_ends_both_processes(private_tmp):
    """Past the up-front check: the real JVMs refuse the seed's static-ECDH suite themselves."""
    from cipherlab.runners import _tls
    from cipherlab.runners._jsse import make_keystore
    jdk = find_jdk()
    suite = _tls.TlsSuite("TLS_ECDH_ECDSA_WITH_AES_128_GCM_SHA256", "1.2",
                          "TLS_ECDH_ECDSA_WITH_AES_128_GCM_SHA256")
    with tempfile.TemporaryDirectory() as tmp:
        cert, key = _tls._make_certificate(Path(tmp))
        store, password = make_keystore(Path(tmp), cert, key)
        with pytest.raises(CaptureError, match="failed") as info:
            _tls._transfer(java_command(jdk, None, "TlsPeer", []), suite,
                           server_opts=["--keystore", str(store), "--storepass", password],
                           cert=cert, nbytes=1_000_000, write_size=1 << 20, env=dict(os.environ),
                           timeout_s=60)
    assert "TLS_ECDH_ECDSA_WITH_AES_128_GCM_SHA256" in str(info.value)


def test_a_hung_transfer_is_stopped_and_both_jvms_reaped(private_tmp, tmp_path):
    with pytest.raises(CaptureError, match="limit"):
        capture_tls(CBC, backend="jsse", megabytes=100_000, repeats=1, timeout_s=3,
                    out=tmp_path / "c", progress=False)


def test_cli_capture_tls_jsse(tmp_path, capsys):
    from cipherlab.cli import main
    assert main(["capture-tls", "--backend", "jsse", "--list-suites"]) == 0
    assert GCM in capsys.readouterr().out.split()
    assert main(["capture-tls", "--backend", "jsse", "--suites", CBC, "--megabytes", "1",
                 "--repeats", "1", "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert CBC in out and "native" in out


def test_parse_flags_final_reads_every_kind_of_value():
    text = ("     bool UseAES      = true    {product} {default}\n"
            "     intx UseAVX      = 2       {ARCH product} {command line}\n"
            "ccstrlist DisableIntrinsic  =   {diagnostic} {default}\n")
    assert parse_flags_final(text) == {"UseAES": "true", "UseAVX": "2", "DisableIntrinsic": ""}
