"""Host facts and the capture folder (no benchmark runs here: these are fast)."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import pandas as pd
import pytest

import cipherlab

from cipherlab.errors import CaptureError, CaptureWarning
from cipherlab.model import Run, to_frame
from cipherlab.runners import host_frame, host_info
from cipherlab.runners._folder import CaptureFolder
from cipherlab.runners._plan import interleave, verify_presets

HOST_KEYS = {"date", "host", "os", "kernel", "machine", "cpu", "vendor", "cores", "flags",
             "clock_hz", "clock_source", "load_1m", "python", "openssl", "openssl_version",
             "openssl_library", "openssl_version_a", "cryptography", "cryptography_openssl",
             "host_id", "flags_all", "hypervisor", "container", "steal_share", "governor", "boost", "smt",
             "isolated_cpus", "boot_time", "load", "online_cpus"}


def test_host_info_has_every_key_and_is_json():
    facts = host_info()
    assert set(facts) == HOST_KEYS
    assert json.loads(json.dumps(facts)) == facts
    assert facts["cores"] >= 1 and facts["python"].count(".") == 2
    if facts["clock_hz"] is not None:
        assert 1e8 < facts["clock_hz"] < 1e10 and facts["clock_source"]
    if facts["flags"]:
        assert set(facts["flags"]) >= {"aes", "pclmulqdq", "ssse3"} or "pmull" in facts["flags"]
    assert facts["openssl_version"] and facts["openssl_version"] in facts["openssl_version_a"]


def test_noise_facts_are_what_the_kernel_reports():
    from pathlib import Path
    facts = host_info()
    flags = open("/proc/cpuinfo").read().split("flags")[1].split("\n")[0].split(":")[1].split()
    assert facts["flags_all"] == sorted(set(flags))  # the full list, not only the crypto ones
    assert ("hypervisor" in flags) == (facts["hypervisor"] is not None)
    assert 0 <= facts["steal_share"] < 1 and len(facts["load"]) == 3
    assert facts["boot_time"] < facts["date"]
    smt = Path("/sys/devices/system/cpu/smt/active")
    if smt.exists():
        assert facts["smt"] == (smt.read_text().strip() == "1")
    assert facts["isolated_cpus"] == Path("/sys/devices/system/cpu/isolated").read_text().strip()
    assert len(facts["host_id"]) == 16 and facts["host_id"] == host_info()["host_id"]


def test_a_virtualised_or_busy_host_is_warned_about():
    from cipherlab.runners._host import check_host
    with pytest.warns(CaptureWarning, match=r"hypervisor \(kvm\).*busy \(load 7 on 2 cores\)"):
        check_host({"hypervisor": "kvm", "steal_share": 0.0, "load": [7, 1, 1], "cores": 2})
    facts = host_info()
    if facts["hypervisor"]:  # this machine: the real facts give the warning
        with pytest.warns(CaptureWarning, match=facts["hypervisor"]):
            check_host(facts)


def test_steal_between_two_samples_of_the_real_counters():
    from cipherlab.runners._host import cpu_times, steal_share
    a = cpu_times()
    sum(i * i for i in range(200_000))
    share = steal_share(a, cpu_times())
    assert share is None or 0 <= share <= 1


def test_host_frame_is_one_row_with_flag_columns():
    df = host_frame()
    assert len(df) == 1 and "cpu" in df.columns
    flags = host_info()["flags"]
    assert {f"flag_{k}" for k in flags} <= set(df.columns)
    assert all(df[f"flag_{k}"].dtype == bool for k in flags)


def test_cli_host_prints_the_facts():
    out = subprocess.run([sys.executable, "-m", "cipherlab", "host"], capture_output=True,
                         text=True, check=True).stdout
    assert set(json.loads(out)) == HOST_KEYS


# -- the folder cannot be corrupted -------------------------------------------------------------


def _frame(key, rate=1e9):
    return to_frame([Run({"tool": "openssl"}, [{"algorithm": "sha256", "operation": "digest",
                                               "block_bytes": 16, "bytes_per_s": rate}])],
                    source=f"runs/{key}.txt")


def test_unwritable_folder_is_a_clear_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(CaptureError, match=r"cannot write to the capture folder .*a-file/sub"):
        CaptureFolder(blocker / "sub")


def test_rows_of_a_run_without_its_done_mark_are_dropped_on_reopen(tmp_path):
    folder = CaptureFolder(tmp_path)
    folder.add_run("a", "raw a\n", _frame("a"), {"wall_s": 1})
    folder.close()
    # a crash after the rows of "b" reached results.csv but before runs.jsonl got its line
    b = _frame("b").assign(capture_id=folder.capture_id, host_id=folder.host_id)
    b.to_csv(tmp_path / "runs" / "b.csv", index=False)
    b.to_csv(tmp_path / "results.csv", mode="a", header=False, index=False)
    assert len(pd.read_csv(tmp_path / "results.csv")) == 2
    again = CaptureFolder(tmp_path, resume=True)
    assert again.done_keys() == {"a"}
    assert again.table()["source"].astype(str).tolist() == ["runs/a.txt"]
    for name in ("results.csv", "results.parquet"):  # both rewritten without the torn run
        assert cipherlab.model.read_table(tmp_path / name)["source"].tolist() == ["runs/a.txt"]
    assert (tmp_path / "runs" / "a.txt").read_text() == "raw a\n"
    assert not list(tmp_path.rglob("*.tmp"))


def test_parquet_is_never_older_than_the_csv(tmp_path):
    folder = CaptureFolder(tmp_path)
    folder.add_run("a", "raw a\n", _frame("a"))
    folder.close()
    assert (tmp_path / "results.parquet").exists()
    again = CaptureFolder(tmp_path, resume=True)
    again.add_run("b", "raw b\n", _frame("b"))  # a session that then crashes before close()
    assert not (tmp_path / "results.parquet").exists()
    assert len(cipherlab.ingest(tmp_path)) == 2  # ingest falls back to the current CSV
    again.close()
    assert len(cipherlab.model.read_table(tmp_path / "results.parquet")) == 2


def test_planned_runs_already_done_need_resume(tmp_path):
    CaptureFolder(tmp_path).add_run("a", "raw\n", _frame("a"))
    with pytest.raises(CaptureError, match="resume=True"):
        CaptureFolder(tmp_path).check_plan(["a", "b"])
    CaptureFolder(tmp_path, resume=True).check_plan(["a", "b"])
    CaptureFolder(tmp_path).check_plan(["c"])  # new runs may join an existing folder


def test_interleave_blocks_by_repeat_and_pairs_conditions():
    plan = interleave(list("abc"), ["on", "off"], repeats=3, seed=1)
    assert plan == interleave(list("abc"), ["on", "off"], repeats=3, seed=1)  # seeded
    for r in (1, 2, 3):
        block = [(c, i) for c, i, rep in plan if rep == r]
        assert sorted(block) == sorted((c, i) for c in "abc" for i in ("on", "off"))
        # each cell's two conditions run back to back
        assert all(block[k][0] == block[k + 1][0] for k in range(0, 6, 2))
    firsts = [plan[k][1] for k in range(0, len(plan), 2)]
    assert len(set(firsts)) == 2  # the order inside the pairs varies (A B, then B A)


def _pairs(tool, isa, isa_off, ratios, backend=None, alg="aes-128-gcm"):
    rows = []
    for rep, ratio in enumerate(ratios, 1):
        for cond, rate in (("native", 5e9 * (1 + 0.03 * (-1) ** rep)), (isa, None)):
            rate = rate if rate is not None else rows[-1]["bytes_per_s"] * ratio
            rows.append({"tool": tool, "tool_version": "1.0", "backend": backend,
                         "algorithm": alg, "operation": "encrypt", "block_bytes": 16384,
                         "bytes_per_s": rate, "ops_per_s": rate / 16384, "repeat": rep,
                         "isa": cond, "isa_off": "none" if cond == "native" else isa_off})
    return pd.DataFrame(rows)


def test_a_preset_that_changed_nothing_is_named_with_its_library():
    # noise of -2 % .. +56 % around no change (as seen): a 3 % rule on medians would pass it
    df = _pairs("cryptography", "no-aesni", "aesni+pclmulqdq", [0.98, 1.56, 1.01, 0.97, 1.3, 0.99],
                backend="OpenSSL 4.0.3 29 Sep 2026")
    with pytest.warns(CaptureWarning, match=r"cryptography 1.0 \(it bundles its own OpenSSL 4.0.3 "
                      r".*'no-aesni' \(switched off aesni\+pclmulqdq\) did not change the rate "
                      r"of aes-128-gcm detectably .*over 6 interleaved pairs"):
        assert len(verify_presets(df)) == 1


def test_a_preset_that_changed_the_rate_passes_and_non_aes_algorithms_are_not_asked():
    moved = _pairs("openssl", "no-aesni", "aesni+pclmulqdq", [0.06, 0.07, 0.05, 0.06, 0.08, 0.06])
    chacha = _pairs("openssl", "no-aesni", "aesni+pclmulqdq", [1.0] * 6, alg="chacha20-poly1305")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert verify_presets(pd.concat([moved, chacha])) == []
    # a mask that also switched off AVX2 may move ChaCha20 too: then it is asked
    wide = _pairs("openssl", "classic", "aesni+pclmulqdq+avx2", [1.0] * 6, alg="chacha20-poly1305")
    with pytest.warns(CaptureWarning, match="did not change the rate of chacha20-poly1305"):
        verify_presets(wide)


def test_too_few_pairs_are_said_to_be_too_few():
    df = _pairs("openssl", "no-aesni", "aesni+pclmulqdq", [0.1, 0.1, 0.1])
    with pytest.warns(CaptureWarning, match=r"only 3 interleaved pair\(s\) .* use repeats >= 6"):
        verify_presets(df)


def test_busy_machine_warning_only_below_the_limit():
    from cipherlab.runners._plan import check_busy
    with pytest.warns(CaptureWarning, match="openssl got a median 35% of a core"):
        check_busy([0.3, 0.35, 0.4], tool="openssl")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_busy([0.97, 0.99, 1.0], tool="openssl")
        check_busy([], tool="openssl")


def test_run_progress_learns_what_each_kind_of_run_takes():
    from cipherlab.runners._plan import RunProgress
    p = RunProgress([("rsa", 2.0), ("gcm", 6.0), ("rsa", 2.0), ("gcm", 6.0)], desc="x",
                    enabled=False)
    assert p.estimate() == 16.0  # nominal until something is known
    p.done(3.0)  # an rsa run took 1.5x its nominal time (3.2+ also times it as KEM and SIG)
    assert p.estimate() == 6.0 * 1.5 + 2.0 * 1.5 + 6.0 * 1.5  # unseen kinds: median factor
    p.done(6.6)  # gcm took 1.1x
    assert p.estimate() == pytest.approx(2.0 * 1.5 + 6.0 * 1.1)
    p.close()


def test_a_second_capture_into_a_folder_being_written_fails_clearly(tmp_path):
    first = CaptureFolder(tmp_path)
    # another process: flock is per open file, so a real second interpreter is the honest test
    code = ("import sys; from cipherlab.runners._folder import CaptureFolder\n"
            "try:\n    CaptureFolder(sys.argv[1])\nexcept Exception as e:\n    print(e)")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                         text=True, check=True).stdout
    assert f"another capture (pid {__import__('os').getpid()} since" in out and "is writing" in out
    first.close()
    again = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                           text=True, check=True).stdout
    assert again == ""  # released by close()


def test_a_torn_done_list_is_repaired_and_the_glued_record_recovered(tmp_path):
    folder = CaptureFolder(tmp_path)
    for k in "abc":
        folder.add_run(k, f"raw {k}\n", _frame(k, rate=2047297.5))
    folder.close()
    jsonl = tmp_path / "runs.jsonl"
    lines = jsonl.read_text().splitlines()
    # a full disk cut record b in the middle; the next session appended c right after it
    jsonl.write_text(lines[0] + "\n" + lines[1][:25] + lines[2] + "\n")
    with pytest.warns(CaptureWarning, match="repaired a line torn"):
        again = CaptureFolder(tmp_path, resume=True)
    assert again.done_keys() == {"a", "c"}  # b is not done: it runs again on resume
    assert [json.loads(line)["key"] for line in jsonl.read_text().splitlines()] == ["a", "c"]
    assert sorted(again.table()["source"]) == ["runs/a.txt", "runs/c.txt"]
    again.close()


def test_a_torn_results_row_is_rebuilt_from_the_done_runs(tmp_path):
    folder = CaptureFolder(tmp_path)
    folder.add_run("a", "raw a\n", _frame("a", rate=2047297.5))
    folder.add_run("b", "raw b\n", _frame("b", rate=2047297.5))
    folder.close()
    csv = tmp_path / "results.csv"
    csv.write_bytes(csv.read_bytes()[:csv.read_bytes().rindex(b"2047297.5") + 4])  # torn: "2047"
    (tmp_path / "results.parquet").unlink()
    CaptureFolder(tmp_path, resume=True).close()
    back = cipherlab.ingest(tmp_path)
    assert back["bytes_per_s"].tolist() == [2047297.5, 2047297.5]
    assert pd.read_csv(csv)["bytes_per_s"].tolist() == [2047297.5, 2047297.5]


def test_every_row_carries_the_capture_and_host_id_and_the_folder_its_format(tmp_path):
    from cipherlab.runners._folder import FORMAT_VERSION
    from cipherlab.runners._host import host_id
    folder = CaptureFolder(tmp_path)
    folder.add_run("a", "raw\n", _frame("a"))
    folder.close()
    info = json.loads((tmp_path / "capture.json").read_text())
    assert info["format"] == FORMAT_VERSION and info["host_id"] == host_id()
    df = cipherlab.ingest(tmp_path)
    assert set(df["capture_id"]) == {info["capture_id"]} and set(df["host_id"]) == {host_id()}


def test_resume_on_another_machine_is_refused_unless_forced(tmp_path):
    CaptureFolder(tmp_path, host_id="0123456789abcdef").add_run("a", "raw\n", _frame("a"))
    with pytest.raises(CaptureError, match=r"runs from another machine .*host id "
                                           r"0123456789abcdef.*force=True \(CLI: --force\)"):
        CaptureFolder(tmp_path, resume=True)
    forced = CaptureFolder(tmp_path, resume=True, force=True)
    forced.add_run("b", "raw\n", _frame("b"))
    ids = dict(zip(forced.table()["source"].astype(str), forced.table()["host_id"]))
    assert ids["runs/a.txt"] == "0123456789abcdef" and ids["runs/b.txt"] == forced.host_id
    forced.close()


def test_a_folder_from_a_newer_format_is_refused(tmp_path):
    (tmp_path / "capture.json").write_text(json.dumps({"format": 99, "capture_id": "x"}))
    with pytest.raises(CaptureError, match=r"capture format 99 by a newer cipherlab"):
        CaptureFolder(tmp_path)


def _tmpfs(path, size="64k", ro=False):
    path.mkdir(exist_ok=True)
    opts = f"size={size}" + (",ro" if ro else "")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(path)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({r.stderr.strip()}): no real full disk")
    return path


def test_a_full_disk_is_one_clear_error_and_keeps_the_finished_runs(tmp_path):
    disk = _tmpfs(tmp_path / "disk")
    try:
        folder = CaptureFolder(disk / "cap")
        big = "x" * 4000 + "\n"
        with pytest.raises(CaptureError, match=r"No space left on device \(the disk is full\); "
                                               r"the \d+ runs finished before are kept"):
            for i in range(100):
                folder.add_run(f"r{i}", big, _frame(f"r{i}"))
        done = folder.done_keys()
        with pytest.warns(CaptureWarning, match="results.parquet not written"):
            folder.close()
        assert done and not list(disk.rglob("*.tmp"))
        subprocess.run(["mount", "-o", "remount,size=4m", str(disk)], check=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CaptureWarning)  # a torn line, if the disk cut one
            again = CaptureFolder(disk / "cap", resume=True)
        assert again.done_keys() == done and len(again.table()) == len(done)
        again.close()
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def test_a_read_only_folder_is_one_clear_error(tmp_path):
    disk = _tmpfs(tmp_path / "ro", ro=True)
    try:
        with pytest.raises(CaptureError, match=r"cannot write to the capture folder .*"
                                               r"Read-only file system"):
            CaptureFolder(disk / "cap")
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
