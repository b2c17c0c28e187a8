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
from cipherlab.runners._plan import interleave, rate_warnings

HOST_KEYS = {"date", "host", "os", "kernel", "machine", "cpu", "vendor", "cores", "flags",
             "clock_hz", "clock_source", "load_1m", "python", "openssl", "openssl_version",
             "openssl_library", "openssl_version_a", "cryptography", "cryptography_openssl"}


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
    folder._append_csv(_frame("b"))
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


def test_rate_warnings_name_the_algorithms_a_preset_did_not_move():
    rows = []
    for isa, gcm, cbc in (("native", 5e9, 1.5e9), ("no-aesni", 5.05e9, 0.25e9)):
        for alg, rate in (("aes-128-gcm", gcm), ("aes-128-cbc", cbc)):
            rows.append({"algorithm": alg, "operation": "encrypt", "block_bytes": 16384,
                         "bytes_per_s": rate, "ops_per_s": rate / 16384, "isa": isa})
    with pytest.warns(CaptureWarning, match=r"'no-aesni' changed no median rate of aes-128-gcm "):
        messages = rate_warnings(pd.DataFrame(rows))
    assert len(messages) == 1 and "aes-128-cbc" not in messages[0]


def test_busy_machine_warning_only_below_the_limit():
    from cipherlab.runners._plan import check_busy
    with pytest.warns(CaptureWarning, match="openssl got a median 35% of a core"):
        check_busy([0.3, 0.35, 0.4], tool="openssl", stacklevel=2)
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
