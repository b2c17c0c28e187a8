"""capture_tls: real TLS transfers over loopback between two real child processes (the
record-layer prediction is tested in tests/stats/test_tls_prediction.py).

Every transfer here is a few MB (a fraction of a second each); the point is the mechanics
(negotiated suite, ISA environment in both children, folder, bounds, reaping), not the speed,
so no test asserts a rate beyond "positive and consistent with count / seconds".
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from procs import children  # noqa: E402

from cipherlab.errors import CaptureError, UnsupportedAlgorithmError
from cipherlab.runners import ISA_PRESETS
from cipherlab.runners._tls import DEFAULT_SUITES, TLS13_DEFAULT, capture_tls, tls_suites
from cipherlab.stats import predict_tls

GCM = "ECDHE-ECDSA-AES128-GCM-SHA256"
CBC = "ECDHE-ECDSA-AES128-SHA256"
MB = 3  # per transfer: enough for thousands of records, still well under a second




def _still_running(pid: int) -> bool:
    """Whether ``pid`` is still a running TLS worker (not gone, not a zombie awaiting the
    container's init, not a new process that reuses the number)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z" and b"_tls_worker" in cmd


def _workers(parent: int) -> dict[int, tuple[str, str]]:
    return {pid: v for pid, v in children(parent).items()
            if "_tls_worker" in v[1] or v[0] == "Z"}


@pytest.fixture
def no_leftovers():
    """Fail the test if it leaves a TLS worker (running or zombie) behind in this process."""
    before = set(_workers(os.getpid()))
    yield
    left = {pid: v for pid, v in _workers(os.getpid()).items() if pid not in before}
    assert left == {}, f"TLS child processes left behind: {left}"


@pytest.mark.openssl
def test_every_default_suite_transfers_and_is_recorded(tmp_path, no_leftovers):
    out = tmp_path / "tls"
    df = capture_tls(DEFAULT_SUITES, megabytes=MB, repeats=1, out=out, progress=False)

    assert len(df) == len(DEFAULT_SUITES)
    assert set(df["name"]) == set(DEFAULT_SUITES)
    assert (df["tool"] == "tls").all() and (df["operation"] == "transfer").all()
    assert (df["timing"] == "elapsed").all() and (df["isa"] == "native").all()
    assert df["block_bytes"].eq(16384).all()
    by_name = df.set_index(df["name"].astype(str))
    for suite in DEFAULT_SUITES[:3]:  # TLS 1.2 suites: negotiated exactly as asked
        assert by_name.loc[suite, "algorithm"] == suite
        assert by_name.loc[suite, "protocol"] == "TLSv1.2"
    assert by_name.loc[TLS13_DEFAULT, "protocol"] == "TLSv1.3"
    assert str(by_name.loc[TLS13_DEFAULT, "algorithm"]).startswith("TLS_")
    # measured as the seed's Server.java: bytes between first and last byte / that time
    assert np.allclose(df["bytes_per_s"], df["count"].astype(float) / df["seconds"])
    assert (df["count"] > MB * 1e6 - 16384 - 1).all() and (df["count"] < MB * 1e6).all()
    assert (df["bytes_per_s"] > 0).all()

    # the capture folder: host facts, one raw report and one runs.jsonl line per run, the table
    assert json.loads((out / "host.json").read_text())["cpu"]
    runs = [json.loads(line) for line in (out / "runs.jsonl").read_text().splitlines()]
    assert len(runs) == len(DEFAULT_SUITES)
    for rec in runs:
        raw = json.loads((out / rec["source"]).read_text())
        assert raw["server"]["cipher"] == raw["client"]["cipher"]
        assert raw["server"]["bytes"] == raw["client"]["bytes"] == MB * 10**6
    import cipherlab
    back = cipherlab.ingest(out)  # a capture folder reads back as the same table
    assert sorted(back["name"].astype(str)) == sorted(DEFAULT_SUITES)


@pytest.mark.openssl
def test_isa_preset_reaches_both_processes(tmp_path, no_leftovers):
    df = capture_tls([GCM], megabytes=MB, repeats=1, isa=["native", "no-aesni"],
                     out=tmp_path, progress=False)
    rows = df.set_index(df["isa"].astype(str))
    assert rows.loc["native", "aesni"] == "on" and rows.loc["no-aesni", "aesni"] == "off"
    assert rows.loc["native", "isa_mask"] != rows.loc["no-aesni", "isa_mask"]
    for rec in map(json.loads, (tmp_path / "runs.jsonl").read_text().splitlines()):
        want = ISA_PRESETS[rec["isa"]]
        # each child reports the OPENSSL_ia32cap it was started with
        assert rec["server_ia32cap"] == want and rec["client_ia32cap"] == want, rec


@pytest.mark.openssl
def test_resume_runs_only_what_is_missing(tmp_path, no_leftovers):
    first = capture_tls([GCM], megabytes=1, repeats=1, out=tmp_path, progress=False)
    with pytest.raises(CaptureError, match="resume=True"):
        capture_tls([GCM], megabytes=1, repeats=2, out=tmp_path, progress=False)
    both = capture_tls([GCM], megabytes=1, repeats=2, out=tmp_path, resume=True, progress=False)
    assert sorted(both["repeat"].tolist()) == [1, 2]  # repeats count from 1, as in capture
    assert both.loc[both["repeat"] == 1, "bytes_per_s"].item() == first["bytes_per_s"].item()


@pytest.mark.parametrize("suite, message", [
    ("ECDHE-RSA-AES128-GCM-SHA256", "only ECDHE-ECDSA suites"),
    ("NO-SUCH-SUITE", "does not offer TLS suite 'NO-SUCH-SUITE'"),
    ("TLS_AES_128_CCM_8_SHA256", "does not offer TLS suite"),
])
def test_suite_the_local_openssl_cannot_run_is_a_clear_error(suite, message, tmp_path,
                                                             no_leftovers):
    with pytest.raises(UnsupportedAlgorithmError, match=message) as info:
        capture_tls([suite], megabytes=1, out=tmp_path, progress=False)
    assert GCM in str(info.value)  # the message lists what can run
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("kwargs, name", [
    ({"megabytes": 0}, "megabytes"), ({"repeats": -1}, "repeats"), ({"repeats": 1.5}, "repeats"),
    ({"write_size": "big"}, "write_size"), ({"timeout_s": float("nan")}, "timeout_s"),
])
def test_bad_sizes_name_the_parameter(kwargs, name, tmp_path):
    with pytest.raises(ValueError, match=name):
        capture_tls([GCM], out=tmp_path, progress=False, **kwargs)
    assert not (tmp_path / "runs.jsonl").exists()


@pytest.mark.openssl
def test_a_run_over_its_time_limit_stops_and_reaps_both_processes(tmp_path, no_leftovers):
    t0 = time.monotonic()
    with pytest.raises(CaptureError, match="limit") as info:
        capture_tls([CBC], megabytes=100_000, repeats=1, timeout_s=0.5, out=tmp_path,
                    progress=False)
    assert time.monotonic() - t0 < 15
    assert "100000000000 bytes" in str(info.value)


@pytest.mark.openssl
def test_ctrl_c_in_process_reaps_both_children(tmp_path, no_leftovers):
    seen: dict[int, tuple[str, str]] = {}

    def interrupt_when_both_run():
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            seen.update({p: v for p, v in _workers(os.getpid()).items() if v[0] != "Z"})
            cmds = " ".join(v[1] for v in seen.values())
            if " server " in cmds and " client " in cmds:
                break
            time.sleep(0.02)
        time.sleep(0.2)  # mid-transfer
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    killer = threading.Thread(target=interrupt_when_both_run, daemon=True)
    killer.start()
    with pytest.raises(KeyboardInterrupt) as info:
        capture_tls([CBC], megabytes=100_000, repeats=1, out=tmp_path, progress=False)
    killer.join()
    assert "resume=True" in "".join(getattr(info.value, "__notes__", [""]))
    assert len(seen) == 2, seen
    for pid in seen:  # reaped: not even a zombie entry remains
        assert not Path(f"/proc/{pid}").exists(), (pid, seen[pid])


@pytest.mark.openssl
def test_ctrl_c_on_the_command_line_leaves_nothing_running(tmp_path):
    cli = subprocess.Popen(
        [sys.executable, "-m", "cipherlab", "capture-tls", "--suites", CBC, "--megabytes",
         "100000", "--repeats", "1", "-o", str(tmp_path / "tls")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        workers: dict[int, tuple[str, str]] = {}
        deadline = time.monotonic() + 30
        while len(workers) < 2 and time.monotonic() < deadline:
            # running workers only: a zombie child of the CLI is a finished command of the
            # host facts (openssl version, lscpu...) caught before it was reaped
            workers.update((pid, v) for pid, v in _workers(cli.pid).items() if v[0] != "Z")
            time.sleep(0.05)
        assert len(workers) == 2, f"the CLI did not start both TLS processes: {workers}"
        time.sleep(0.2)
        cli.send_signal(signal.SIGINT)
        _, err = cli.communicate(timeout=20)
        assert cli.returncode == 130, err
        assert "interrupted" in err
        for pid in workers:
            assert not _still_running(pid), (pid, workers[pid])
    finally:
        if cli.poll() is None:
            os.killpg(cli.pid, signal.SIGKILL)
            cli.wait()


@pytest.mark.openssl
def test_cli_capture_tls_writes_a_folder(tmp_path, capsys):
    from cipherlab.cli import main
    assert main(["capture-tls", "--suites", GCM, "--megabytes", "1", "--repeats", "1",
                 "--write-size", "4096", "-o", str(tmp_path)]) == 0
    assert "capture folder" in capsys.readouterr().out
    df = pd.read_csv(tmp_path / "results.csv")
    assert df["block_bytes"].tolist() == [4096] and df["algorithm"].tolist() == [GCM]
    assert main(["capture-tls", "--suites", "NO-SUCH-SUITE", "-o", str(tmp_path / "x")]) == 2
    assert "NO-SUCH-SUITE" in capsys.readouterr().err


@pytest.mark.openssl
def test_cli_predicts_from_a_real_openssl_speed_capture(tmp_path, capsys):
    import cipherlab
    from cipherlab.cli import main
    speed = tmp_path / "speed"
    cipherlab.capture("aes-128-gcm", sizes=[16384], seconds=1, repeats=1, isa="native",
                      out=speed, progress=False)
    assert main(["capture-tls", "--suites", GCM, "--megabytes", "2", "--repeats", "1",
                 "--predict", str(speed), "-o", str(tmp_path / "tls")]) == 0
    out = capsys.readouterr().out
    assert "measured_over_predicted" in out and "aes-128-gcm" in out
    pred = predict_tls(cipherlab.ingest(tmp_path / "tls"), cipherlab.ingest(speed))
    ratio = pred["measured_over_predicted"].item()
    # a transfer adds copies and syscalls to the crypto; it cannot beat the crypto by much
    assert 0 < ratio < 1.5, pred[["bytes_per_s", "predicted_bytes_per_s"]]


def test_tls_suites_lists_what_can_run():
    suites = tls_suites()
    assert set(DEFAULT_SUITES) <= set(suites)
    assert all(s.startswith(("ECDHE-ECDSA-", "TLS_")) for s in suites[:-1])


@pytest.mark.openssl
def test_a_tls13_suite_is_chosen_through_openssl_conf(tmp_path, no_leftovers):
    suites = ["TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_128_GCM_SHA256"]
    df = capture_tls(suites, megabytes=1, repeats=1, out=tmp_path, progress=False)
    assert sorted(df["algorithm"].astype(str)) == sorted(suites)
    assert set(df["protocol"]) == {"TLSv1.3"}
    assert sorted(df["cipher"].astype(str)) == ["aes-128-gcm", "chacha20-poly1305"]
