"""capture() against the real openssl binary, with short settings (-seconds 1, one size).

Budget: about 12 openssl runs of ~1 s in the whole module. What is checked: the rows match the
raw text openssl printed, conditions are interleaved, each run records the mask openssl reports,
the folder reads back through cipherlab.ingest, resume runs only what is missing, Ctrl-C keeps
finished runs (a real SIGINT to a real capture), and bad arguments give the promised messages.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pandas as pd
import pytest

import cipherlab
from cipherlab.errors import CaptureError, UnsupportedAlgorithmError
from cipherlab.runners import IsaCondition, capture, effective_mask, isa_env

pytestmark = pytest.mark.openssl

SHORT = dict(sizes=[16384], seconds=1, progress=False)


@pytest.fixture(scope="module")
def captured(tmp_path_factory):
    out = tmp_path_factory.mktemp("capture")
    df = capture("aes-128-gcm", repeats=2, isa="native,no-aesni", out=out, **SHORT)
    return out, df


def _jsonl(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "runs.jsonl").read_text().splitlines()]


def test_one_row_per_run_with_conditions_and_provenance(captured):
    out, df = captured
    assert len(df) == 4 and set(df["tool"]) == {"openssl"}
    assert df["tool_version"].iloc[0] == cipherlab.host_info()["openssl_version"]
    assert set(df["algorithm"]) == {"aes-128-gcm"} and set(df["block_bytes"]) == {16384}
    assert sorted(zip(df["isa"].astype(str), df["repeat"])) == [
        ("native", 1), ("native", 2), ("no-aesni", 1), ("no-aesni", 2)]
    assert dict(zip(df["isa"].astype(str), df["aesni"].astype(str))) == {"native": "on",
                                                                         "no-aesni": "off"}
    assert df["run"].is_unique and df["source"].astype(str).str.startswith(f"{out.name}/runs/").all()
    assert set(df["timing"].astype(str)) == {"cpu"} and df["cpu"].notna().all()


def test_each_run_records_the_mask_openssl_reports(captured):
    _, df = captured
    for isa, mask in zip(df["isa"].astype(str), df["isa_mask"].astype(str)):
        value = cipherlab.ISA_PRESETS[isa]
        assert mask == effective_mask(isa_env(IsaCondition(isa, value)))
    native = df.loc[df["isa"] == "native", "bytes_per_s"].median()
    off = df.loc[df["isa"] == "no-aesni", "bytes_per_s"].median()
    assert native > 2 * off  # GCM without AES-NI/PCLMULQDQ is several times slower


def test_rows_equal_the_numbers_openssl_printed(captured):
    out, df = captured
    for rec in _jsonl(out):
        raw = (out / rec["source"]).read_text()
        f_line = next(ln for ln in raw.splitlines() if ln.startswith("+F:"))
        printed = float(f_line.rsplit(":", 1)[1])  # bytes/s, one -bytes size
        row = df[df["source"].astype(str) == f"{out.name}/{rec['source']}"]
        assert row["bytes_per_s"].tolist() == [printed]
        assert rec["command"][:3] == [rec["command"][0], "speed", "-mr"]
        assert ["-bytes", "16384"] == rec["command"][rec["command"].index("-bytes"):][:2]


def test_conditions_are_interleaved_by_repeat(captured):
    out, _ = captured
    recs = _jsonl(out)
    assert [r["repeat"] for r in recs] == [1, 1, 2, 2]
    assert {r["isa"] for r in recs[:2]} == {"native", "no-aesni"}


def test_folder_holds_raw_text_tables_and_host(captured):
    out, df = captured
    assert len(list((out / "runs").glob("*.txt"))) == 4
    assert (out / "results.csv").exists() and (out / "results.parquet").exists()
    host = json.loads((out / "host.json").read_text())
    assert host["openssl_version"] == df["tool_version"].iloc[0]


def test_ingest_reads_the_folder_back(captured):
    out, df = captured
    back = cipherlab.ingest(out)
    key = ["source", "block_bytes"]
    pd.testing.assert_frame_equal(back.sort_values(key).reset_index(drop=True)[df.columns],
                                  df.sort_values(key).reset_index(drop=True),
                                  check_categorical=False)


def test_resume_runs_only_what_is_missing(captured, tmp_path):
    out, df = captured
    again = capture("aes-128-gcm", repeats=2, isa="native,no-aesni", out=out, resume=True,
                    **SHORT)
    assert len(_jsonl(out)) == 4 and len(again) == 4  # nothing redone
    more = capture("aes-128-gcm", repeats=3, isa="native,no-aesni", out=out, resume=True,
                   **SHORT)
    recs = _jsonl(out)
    assert len(recs) == 6 and len({r["key"] for r in recs}) == 6
    assert sorted(more["repeat"]) == [1, 1, 2, 2, 3, 3]
    with pytest.raises(CaptureError, match="resume=True"):
        capture("aes-128-gcm", repeats=1, isa="native", out=out, **SHORT)


def test_ctrl_c_keeps_finished_runs_and_resume_completes(tmp_path):
    out = tmp_path / "cap"
    cmd = [sys.executable, "-m", "cipherlab", "capture", "--algorithms", "aes-128-cbc",
           "--sizes", "16", "--seconds", "1", "--repeats", "3", "--isa", "native", "-o", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    jsonl = out / "runs.jsonl"
    deadline = time.monotonic() + 180  # (generous: CI machines can be heavily loaded)
    while time.monotonic() < deadline and not (jsonl.exists() and jsonl.read_text().strip()):
        assert proc.poll() is None, proc.communicate()[1]
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)  # in the middle of run 2 of 3
    _, err = proc.communicate(timeout=180)
    assert proc.returncode == 130 and "interrupted" in err, (proc.returncode, err)
    done = _jsonl(out)
    assert 1 <= len(done) < 3, err
    table = pd.read_csv(out / "results.csv")
    assert sorted(table["source"]) == sorted(r["source"] for r in done)
    assert all((out / r["source"]).read_text().strip() for r in done)
    assert not list(out.rglob("*.tmp"))

    df = capture("aes-128-cbc", sizes=[16], seconds=1, repeats=3, isa="native", out=out,
                 resume=True, progress=False)
    recs = _jsonl(out)
    assert [r["key"] for r in recs[:len(done)]] == [r["key"] for r in done]  # kept, not redone
    assert len(recs) == 3 and sorted(df["repeat"]) == [1, 2, 3]


# -- bad arguments: each fails before any benchmark runs ----------------------------------------

def test_no_openssl_on_path_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(CaptureError, match=r"no `openssl` found on PATH.*apt install openssl"):
        capture("aes-128-gcm", out=tmp_path / "x", **SHORT)


def test_missing_binary_path_is_named(tmp_path):
    with pytest.raises(CaptureError, match=r"openssl='/nonexistent/openssl' is not an executable"):
        capture("aes-128-gcm", openssl="/nonexistent/openssl", out=tmp_path, **SHORT)


def test_unknown_algorithm_lists_what_this_openssl_has(tmp_path):
    with pytest.raises(UnsupportedAlgorithmError) as info:
        capture(["aes-128-gcm", "aes-128-gcn"], out=tmp_path, **SHORT)
    msg = str(info.value)
    assert "'aes-128-gcn'" in msg and "aes-128-gcm" in msg.split("it has")[1]
    assert "rsa2048" in msg and "@" not in msg
    assert not list(tmp_path.iterdir())  # nothing was written before the check


def test_fractional_seconds_on_an_integer_only_openssl(tmp_path):
    help_text = subprocess.run(["openssl", "speed", "-help"], capture_output=True,
                               text=True).stderr
    if "-seconds +int" not in help_text:
        pytest.skip("this openssl accepts fractional -seconds")
    with pytest.raises(CaptureError, match=r"seconds must be a whole number .*not 1\.5"):
        capture("aes-128-gcm", sizes=[16], seconds=1.5, out=tmp_path, progress=False)


def test_unwritable_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(CaptureError, match="cannot write to the capture folder"):
        capture("aes-128-gcm", out=blocker / "cap", **SHORT)


@pytest.mark.parametrize("kwargs, match", [
    (dict(timing="wall"), r"timing must be one of 'cpu' or 'elapsed'; not 'wall'"),
    (dict(repeats=0), r"repeats must be a whole number >= 1; not 0"),
    (dict(sizes=[16, -1]), r"sizes must be a list of whole numbers"),
    (dict(isa="native,aes-off"), r"isa must name presets .*not 'aes-off'"),
])
def test_bad_parameters_name_the_parameter(tmp_path, kwargs, match):
    args = {**SHORT, **kwargs}
    with pytest.raises(ValueError, match=match):
        capture("aes-128-gcm", out=tmp_path, **args)


# -- the command line: one line per problem, 2 for usage, 1 for a failed run or environment ------

def _cli(*args, env=None):
    import os
    return subprocess.run([sys.executable, "-m", "cipherlab", "capture", *args],
                          capture_output=True, text=True, env={**os.environ, **(env or {})})


@pytest.mark.parametrize("args, status, says", [
    (["--sizes", "0"], 2, "argument --sizes: expected block sizes in bytes >= 1, e.g. 16,1024; not '0'"),
    (["--seconds", "-2"], 2, "argument --seconds: expected a positive number; not '-2'"),
    (["--repeats", "0"], 2, "argument --repeats: expected a whole number >= 1; not '0'"),
    (["--isa", "aes-off"], 2, "isa must name presets (native, no-aesni,"),
    (["--algorithms", "nope"], 2, "does not run 'nope'"),
])
def test_cli_bad_arguments_are_one_line_and_status_2(tmp_path, args, status, says):
    r = _cli(*args, "-o", str(tmp_path / "x"))
    assert r.returncode == status and says in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and r.stderr.strip().splitlines()[-1].startswith(
        "cipherlab capture: error:")


def test_cli_environment_problems_are_one_line_and_status_1(tmp_path):
    r = _cli("-o", str(tmp_path / "x"), env={"PATH": str(tmp_path)})
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert "no `openssl` found on PATH" in r.stderr
    blocker = tmp_path / "file"
    blocker.write_text("")
    r = _cli("--sizes", "16", "--seconds", "1", "--repeats", "1", "--isa", "native",
             "-o", str(blocker / "cap"))
    assert r.returncode == 1 and "cannot write to the capture folder" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_a_folder_of_capture_folders_ingests_as_one_table_with_machines_apart(tmp_path):
    from cipherlab.runners._folder import CaptureFolder
    from cipherlab.runners._host import host_id
    parent = tmp_path / "all"
    for name in ("a", "b"):
        capture("aes-128-cbc", repeats=1, isa="native", out=parent / name, **SHORT)
    # a folder written on another machine (its id given): the rows of one of our runs
    other = CaptureFolder(parent / "c", host_id="feedfacefeedface")
    run = cipherlab.ingest(parent / "a")
    other.add_run("x", "raw\n", run.drop(columns=["capture_id", "host_id"])
                  .assign(source=other.source_name("x")))
    other.close()
    df = cipherlab.ingest(parent)
    assert len(df) == 3  # each folder's table once; its raw runs/*.txt are not read again
    assert df["capture_id"].nunique() == 3
    assert set(df["host_id"]) == {host_id(), "feedfacefeedface"}
    assert not df.duplicated(["source", "run"]).any()
    assert sorted(df["source"].astype(str).str.split("/").str[0]) == ["a", "b", "c"]


def _checked(df, caught):
    """For every (condition, algorithm) the checker asks about: did it warn, and should it have
    (p of the sign-flip test recomputed here from the returned rows, >= 0.05)?"""
    from cipherlab.runners._plan import paired_ratios, sign_flip_p
    out = {}
    for cond in set(df["isa"].astype(str)) - {"native"}:
        for alg, g in paired_ratios(df, cond).groupby("algorithm"):
            warned = any(f"{cond!r}" in str(w.message) and f"rate of {alg}" in str(w.message)
                         for w in caught)
            out[(cond, alg)] = (warned, sign_flip_p(g["log_ratio"]) >= 0.05)
    return out


def test_presets_are_verified_by_behaviour_on_the_real_openssl(tmp_path):
    from cipherlab.runners._isa import features
    if "vaes" not in features(effective_mask({})):
        pytest.skip("no VAES on this CPU: no-vaes is skipped, nothing to verify")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = capture("aes-128-gcm", repeats=6, isa="native,no-aesni,no-vaes", out=tmp_path,
                     **SHORT)
    checked = _checked(df, caught)
    assert set(checked) == {("no-aesni", "aes-128-gcm"), ("no-vaes", "aes-128-gcm")}
    for key, (warned, should) in checked.items():
        assert warned == should, (key, [str(w.message) for w in caught])


def test_two_builds_are_a_condition_interleaved_with_their_versions_on_record(tmp_path):
    import shutil
    from cipherlab import stats
    # the same app against a copy of its libcrypto (LD_LIBRARY_PATH): a real second build that
    # this machine can run; an A/A comparison, so the test asserts mechanics, not a speed-up
    libdir = tmp_path / "lib"
    libdir.mkdir()
    lib = subprocess.run(["sh", "-c", f"ldd {shutil.which('openssl')} | grep libcrypto"],
                         capture_output=True, text=True).stdout.split("=>")[1].split()[0]
    shutil.copy(lib, libdir)
    out = tmp_path / "cap"
    df = capture("aes-128-cbc", repeats=2, isa="native",
                 openssl=f"sys={shutil.which('openssl')},copy={shutil.which('openssl')}@{libdir}",
                 out=out, **SHORT)
    assert sorted(zip(df["build"].astype(str), df["repeat"])) == [
        ("copy", 1), ("copy", 2), ("sys", 1), ("sys", 2)]
    recs = _jsonl(out)
    assert [r["repeat"] for r in recs] == [1, 1, 2, 2]  # builds side by side in every block
    assert {r["build"]: r["env"].get("LD_LIBRARY_PATH") for r in recs} == {"sys": None,
                                                                           "copy": str(libdir)}
    builds = json.loads((out / "builds.json").read_text())
    assert set(builds) == {"sys", "copy"} and builds["copy"]["env"] == {"LD_LIBRARY_PATH": str(libdir)}
    assert all("options:" in b["openssl_version_a"] for b in builds.values())  # build options
    sp = stats.speedup(df, by="build", on="copy", off="sys")
    assert len(sp) == 1 and sp["ratio"].iloc[0] > 0


def test_builds_that_would_share_a_name_are_refused(tmp_path):
    with pytest.raises(ValueError, match="distinct names; .* would name two of them"):
        capture("aes-128-cbc", openssl="openssl,openssl", out=tmp_path, **SHORT)


def test_an_arm_capture_records_the_armcap_mask_it_ran_under(arm_captured, arm_openssl):
    """Debian's arm64 openssl under qemu: the default isa means ARMv8 AES + PMULL off, each run
    records OPENSSL_armcap as set and the word the binary reported, and reads back labelled."""
    back = cipherlab.ingest(arm_captured)
    native = effective_mask({}, openssl=arm_openssl)
    for rec in _jsonl(arm_captured):
        if rec["isa"] == "native":
            assert rec["env"] == {"OPENSSL_ia32cap": None} and rec["isa_mask"] == native
        else:
            assert rec["env"] == {"OPENSSL_armcap": rec["isa_mask"].removeprefix("armcap=")}
            assert effective_mask(rec["env"], openssl=arm_openssl) == rec["isa_mask"]
    got = back[["isa", "isa_off", "aesni"]].astype(str).drop_duplicates().values.tolist()
    assert sorted(got) == [["native", "none", "on"], ["no-aesni", "aes+pmull", "off"]]
    assert set(back["tool_version"].astype(str)) == {"3.0.22"}


def test_an_emulated_openssl_is_loud_about_whose_cpu_the_host_facts_describe(arm_openssl):
    from cipherlab.errors import CaptureWarning
    from cipherlab.runners._host import check_host
    facts = cipherlab.host_info(arm_openssl)
    if facts["machine"].lower() not in ("x86_64", "amd64"):
        pytest.skip(f"the ARM openssl is emulated only on x86 (this is {facts['machine']})")
    with pytest.warns(CaptureWarning, match=r"another CPU family .*ARM openssl on x86_64; "
                                            r"CPUINFO: OPENSSL_armcap=0x[0-9a-f]+\).*emulat"):
        check_host({**facts, "hypervisor": None, "load": None})
    assert "pmull" not in facts["flags"] and "sha_ni" in facts["flags"]  # (this x86 machine's)


def test_a_32_bit_capture_records_its_build_its_own_mask_and_says_it_is_32_bit(i386_captured,
                                                                                i386_openssl):
    """Debian's i386 openssl run natively on this x86-64 machine: the build's platform and word
    size, a CPUINFO line whose second word lacks the leaf-7 ECX bits (VAES, VPCLMULQDQ) a 32-bit
    build never reads, and so a no-aesni condition that switched off AES-NI and PCLMULQDQ only."""
    from cipherlab.errors import CaptureWarning
    from cipherlab.runners._host import check_host
    from cipherlab.runners._isa import features

    host = json.loads((i386_captured / "host.json").read_text())
    version_a = host["openssl_version_a"]
    assert "platform: debian-i386" in version_a and "bn(64,32)" in version_a
    assert host["machine"] == "x86_64" and host["openssl_version"] == "3.0.22"
    native = effective_mask({}, openssl=i386_openssl)
    assert native in version_a and native != effective_mask({})  # not the 64-bit one's mask
    assert "vaes" not in features(native)
    if host["flags"].get("vaes"):  # (the 64-bit build reads it on this CPU)
        assert "vaes" in features(effective_mask({}))
    back = cipherlab.ingest(i386_captured)
    got = back[["isa", "isa_off", "aesni"]].astype(str).drop_duplicates().values.tolist()
    assert sorted(got) == [["native", "none", "on"], ["no-aesni", "aesni+pclmulqdq", "off"]]
    with pytest.warns(CaptureWarning, match=r"32-bit build on a 64-bit machine \(32-bit x86 on "
                                            r"x86_64; CPUINFO: OPENSSL_ia32cap=0x.*32-bit code"):
        check_host({**host, "hypervisor": None, "load": None})
