"""No orphans: a capture's children end with it, however it ends (real processes, real signals).

Each test starts a real ``cipherlab capture`` (or ``capture-tls``) command, finds its real
``openssl speed`` / TLS worker children in /proc, ends the parent the way the test names
(SIGTERM, SIGHUP, the terminal's Ctrl-C to the whole group, ``kill -9``) and checks the children
are gone within a few seconds, not after their 30-40 s of remaining work.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from procs import children  # noqa: E402

pytestmark = pytest.mark.openssl

if not sys.platform.startswith("linux"):
    pytest.skip("reads /proc and relies on PR_SET_PDEATHSIG", allow_module_level=True)




def _running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _wait_for(what, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = what()
        if got:
            return got
        time.sleep(0.05)
    return what()


def _gone(pids, timeout=5.0) -> list[int]:
    """The pids still running after ``timeout`` seconds (the children ran 30 s+ of work)."""
    _wait_for(lambda: not any(_running(p) for p in pids), timeout)
    return [p for p in pids if _running(p)]


def _cli(*args, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cipherlab", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, **popen)


def _openssl_child(cli: subprocess.Popen) -> int:
    found = _wait_for(lambda: [p for p, (st, cmd) in children(cli.pid).items()
                               if "openssl speed" in cmd and "-seconds 30" in cmd and st != "Z"])
    assert found, f"no openssl speed child of the capture: {children(cli.pid)}"
    return found[0]


def _long_capture(out: Path, repeats: int = 2) -> subprocess.Popen:
    # the second run takes 30 s: long enough that only a kill ends it early
    return _cli("capture", "--algorithms", "aes-128-cbc", "--sizes", "16", "--seconds", "30",
                "--repeats", str(repeats), "--isa", "native", "-o", str(out))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_end_a_capture_like_ctrl_c(tmp_path, sig):
    out = tmp_path / "cap"
    cli = _long_capture(out)
    try:
        child = _openssl_child(cli)
        assert os.getpgid(child) != os.getpgid(cli.pid)  # its own group: a terminal's ^C skips it
        cli.send_signal(sig)
        _, err = cli.communicate(timeout=20)
        assert cli.returncode == 130, err
        assert "Continue with:" in err and f"-o {out} --resume" in err
        assert not _gone([child])
    finally:
        if cli.poll() is None:
            os.killpg(cli.pid, signal.SIGKILL)
            cli.wait()


def test_ctrl_c_from_the_terminal_reaches_the_group_and_the_child_still_ends(tmp_path):
    cli = _long_capture(tmp_path / "cap")
    try:
        child = _openssl_child(cli)
        os.killpg(cli.pid, signal.SIGINT)  # what a terminal does: the whole foreground group
        _, err = cli.communicate(timeout=20)
        assert cli.returncode == 130 and "--resume" in err, err
        assert not _gone([child])
    finally:
        if cli.poll() is None:
            os.killpg(cli.pid, signal.SIGKILL)
            cli.wait()


def test_kill_9_of_the_capture_takes_its_openssl_child_along(tmp_path):
    cli = _long_capture(tmp_path / "cap")
    try:
        child = _openssl_child(cli)
        os.kill(cli.pid, signal.SIGKILL)  # no handler runs: only the parent-death signal helps
        cli.wait()
        assert not _gone([child]), "openssl speed outlived a kill -9 of its capture"
    finally:
        if cli.poll() is None:
            os.killpg(cli.pid, signal.SIGKILL)
            cli.wait()


def test_kill_9_of_a_tls_capture_ends_its_workers_and_the_next_start_removes_its_key(tmp_path):
    from cipherlab.runners._tls import capture_tls
    tmp = Path(tempfile.gettempdir())
    cli = _cli("capture-tls", "--suites", "ECDHE-ECDSA-AES128-SHA256", "--megabytes", "100000",
               "--repeats", "1", "-o", str(tmp_path / "tls"))
    try:
        workers = _wait_for(lambda: [p for p, (st, cmd) in children(cli.pid).items()
                                     if "_tls_worker" in cmd and st != "Z"] if len(
            [1 for _, (st, cmd) in children(cli.pid).items() if "_tls_worker" in cmd]) == 2
            else [])
        assert len(workers) == 2, children(cli.pid)
        keys = list(tmp.glob(f"cipherlab-tls-{cli.pid}-*"))
        assert len(keys) == 1 and (keys[0] / "key.pem").exists()
        os.kill(cli.pid, signal.SIGKILL)
        cli.wait()
        assert not _gone(workers), "TLS workers outlived a kill -9 of their capture"
        assert keys[0].exists()  # nothing could remove it then ...
        capture_tls(["ECDHE-ECDSA-AES128-SHA256"], megabytes=1, repeats=1,
                    out=tmp_path / "next", progress=False)
        assert not keys[0].exists()  # ... the next capture did
    finally:
        if cli.poll() is None:
            os.killpg(cli.pid, signal.SIGKILL)
            cli.wait()


def test_finished_runs_survive_a_kill_9_and_resume_completes(tmp_path):
    import cipherlab
    out = tmp_path / "cap"
    cli = _cli("capture", "--algorithms", "aes-128-cbc", "--sizes", "16", "--seconds", "1",
               "--repeats", "30", "--isa", "native", "-o", str(out))
    try:
        _wait_for(lambda: (out / "runs.jsonl").exists()
                  and len((out / "runs.jsonl").read_text().splitlines()) >= 2)
        os.kill(cli.pid, signal.SIGKILL)
        cli.wait()
    finally:
        if cli.poll() is None:
            os.killpg(cli.pid, signal.SIGKILL)
            cli.wait()
    done = [json.loads(line)["key"] for line in (out / "runs.jsonl").read_text().splitlines()]
    back = cipherlab.ingest(out)
    assert len(back) == len(done) and back["bytes_per_s"].gt(0).all()
    with pytest.warns(Warning):  # busy/virtualised host, at least
        df = cipherlab.capture("aes-128-cbc", sizes=[16], seconds=1, repeats=len(done) + 1,
                               isa="native", out=out, resume=True, progress=False)
    assert len(df) == len(done) + 1  # only the missing run ran; the lock of the dead one is free
