"""capture(..., hosts=[...]) through the real sshd of tests/fleet/conftest.py.

The "hosts" are ports of one sshd on this machine, so the whole fleet is one machine: the tests
that need hosts running at the same time say parallel="host", and one test checks that the
default runs them one after another. What ran where is observed on the server side: the
``openssl speed`` processes below sshd, attributed to a host by the port in their
``SSH_CONNECTION``. Budget: about 25 openssl runs of 1 s (one block size).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pandas as pd
import pytest

import cipherlab
from cipherlab.errors import CaptureError, CaptureWarning
from cipherlab.runners._fleet import FLEET_JSON

pytestmark = [pytest.mark.ssh, pytest.mark.openssl, pytest.mark.slow]

SHORT = dict(sizes=[16384], seconds=1, isa="native", progress=False)


class RemoteRuns:
    """Samples, every 50 ms, how many ``openssl speed`` processes sshd runs per port."""

    def __init__(self, sshd):
        self.sshd = sshd
        self.samples: list[dict[int, int]] = []
        self._stop = threading.Event()

    def _sample(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for cmd, env in self.sshd.remote_commands():
            if cmd.split(" ", 2)[1:2] == ["speed"] and cmd.split()[0].endswith("openssl"):
                port = int(env.get("SSH_CONNECTION", "0 0 0 0").split()[3])
                counts[port] = counts.get(port, 0) + 1
        return counts

    def __enter__(self):
        def loop():
            while not self._stop.wait(0.05):
                self.samples.append(self._sample())
        self._thread = threading.Thread(target=loop, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def most_at_once(self) -> int:
        return max((sum(s.values()) for s in self.samples), default=0)

    def most_on_one_host(self) -> int:
        return max((max(s.values(), default=0) for s in self.samples), default=0)


def _runs(folder: Path) -> list[dict]:
    p = folder / "runs.jsonl"
    return [json.loads(ln) for ln in p.read_text().splitlines()] if p.exists() else []


@pytest.fixture(scope="module")
def fleet(sshd, tmp_path_factory):
    out = tmp_path_factory.mktemp("fleet")
    with RemoteRuns(sshd) as seen, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.capture("aes-128-cbc", repeats=2, hosts="alpha,beta,gamma",
                               ssh_config=sshd.config, out=out, parallel="host", **SHORT)
    return out, df, seen, caught


def test_three_hosts_land_in_one_table_with_distinct_machines(fleet):
    out, df, _, _ = fleet
    assert df.groupby("host", observed=True).size().to_dict() == {"alpha": 2, "beta": 2,
                                                                  "gamma": 2}
    assert df["host_id"].nunique() == 3 and sorted(df["label"].unique()) == ["alpha", "beta",
                                                                             "gamma"]
    assert df["capture_id"].nunique() == 3
    back = cipherlab.ingest(out)
    assert len(back) == len(df) and back["host_id"].nunique() == 3
    assert sorted(back["host"].unique()) == ["alpha", "beta", "gamma"]


def test_hosts_ran_at_the_same_time_but_one_run_at_a_time_each(fleet):
    _, _, seen, _ = fleet
    assert seen.most_on_one_host() == 1
    assert seen.most_at_once() >= 2


def test_each_host_folder_holds_that_hosts_facts_and_raw_runs(fleet, sshd):
    out, df, _, _ = fleet
    facts = {name: json.loads((out / name / "host.json").read_text())
             for name in ("alpha", "beta", "gamma")}
    assert facts["beta"]["openssl"] == str(sshd.other_openssl)  # its own PATH's openssl
    assert facts["alpha"]["openssl"] == facts["gamma"]["openssl"] != str(sshd.other_openssl)
    for name, f in facts.items():
        assert f["host"] == name and f["ssh"] == name and f["python"] is None
        assert f["hostname"] == os.uname().nodename and f["cores"] == os.cpu_count()
        assert f["openssl_version"] == cipherlab.host_info()["openssl_version"]
        assert f["cpu"] == cipherlab.host_info()["cpu"] and f["flags"]["aes"] is True
        recs = _runs(out / name)
        assert len(recs) == 2
        for r in recs:
            raw = (out / name / r["source"]).read_text()
            assert raw.startswith("+DT:") or "+F:" in raw
            assert "@cipherlab-exit" not in raw
    record = json.loads((out / FLEET_JSON).read_text())
    assert [(h["name"], h["status"], h["folder"]) for h in record["hosts"]] == [
        ("alpha", "done", "alpha"), ("beta", "done", "beta"), ("gamma", "done", "gamma")]


def test_hosts_of_one_machine_run_one_after_another_by_default(sshd, tmp_path):
    with RemoteRuns(sshd) as seen, pytest.warns(CaptureWarning, match=r"hosts 'alpha', 'gamma' "
                                                r"are one machine .* one after another"):
        df = cipherlab.capture("aes-128-cbc", repeats=1, hosts=["alpha", "gamma"],
                               ssh_config=sshd.config, out=tmp_path / "f", **SHORT)
    assert sorted(df["host"].unique()) == ["alpha", "gamma"]
    assert seen.most_at_once() == 1


def test_a_failing_host_never_stops_the_others(sshd, tmp_path):
    inv = tmp_path / "hosts.ini"
    inv.write_text("alpha\nrefuse\ngamma openssl_path=/nonexistent/openssl\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.capture("aes-128-cbc", repeats=1, hosts=f"@{inv}",
                               ssh_config=sshd.config, out=tmp_path / "f", **SHORT)
    assert df["host"].unique().tolist() == ["alpha"] and len(df) == 1
    assert set(df.attrs["failed_hosts"]) == {"refuse", "gamma"}
    messages = [str(w.message) for w in caught if issubclass(w.category, CaptureWarning)]
    assert any("host 'refuse' failed (refuse: login refused" in m and "resume=True" in m
               for m in messages)
    assert any("host 'gamma' failed (openssl='/nonexistent/openssl' is not an executable file "
               "of host 'gamma'" in m for m in messages)
    status = {h["name"]: h["status"] for h in
              json.loads((tmp_path / "f" / FLEET_JSON).read_text())["hosts"]}
    assert status == {"alpha": "done", "refuse": "failed", "gamma": "failed"}
    with pytest.raises(CaptureError, match=r"every host failed:\n  refuse: login refused"):
        cipherlab.capture("aes-128-cbc", repeats=1, hosts="refuse", ssh_config=sshd.config,
                          out=tmp_path / "g", **SHORT)


def _master_of(sshd, host: str) -> int | None:
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") if Path(
                f"/proc/{pid}").exists() else []
            words = [w.decode(errors="replace") for w in cmd]
            if "ControlMaster=yes" in words and str(sshd.config) in words and \
                    words[words.index("--") + 1:words.index("--") + 2] == [host]:
                return int(pid)
    return None


def test_a_connection_killed_mid_run_fails_that_host_only_and_resume_completes(sshd, tmp_path):
    out = tmp_path / "f"
    opts = dict(repeats=3, hosts="alpha,gamma", ssh_config=sshd.config, out=out,
                parallel="host", **SHORT)

    def kill_alpha_during_its_second_run():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (
                _runs(out / "alpha") and RemoteRuns(sshd)._sample().get(sshd.ports["alpha"])):
            time.sleep(0.02)
        # the connection drops while openssl runs (between runs it would just reconnect)
        os.kill(_master_of(sshd, "alpha"), signal.SIGKILL)

    killer = threading.Thread(target=kill_alpha_during_its_second_run)
    killer.start()
    with pytest.warns(CaptureWarning, match=r"host 'alpha' failed \(alpha: the connection "
                                            r"dropped"):
        df = cipherlab.capture("aes-128-cbc", **opts)
    killer.join()
    kept = [r["key"] for r in _runs(out / "alpha")]
    assert 1 <= len(kept) < 3 and len(_runs(out / "gamma")) == 3
    assert (df["host"] == "alpha").sum() == 0 and (df["host"] == "gamma").sum() == 3
    assert sshd.wait_idle() == [] and sshd.local_clients() == []

    again = cipherlab.capture("aes-128-cbc", resume=True, **opts)
    assert again.groupby("host", observed=True).size().to_dict() == {"alpha": 3, "gamma": 3}
    assert [r["key"] for r in _runs(out / "alpha")][:len(kept)] == kept  # kept, not redone
    assert len(_runs(out / "gamma")) == 3  # nothing of gamma redone
    assert again.attrs["failed_hosts"] == {}


def test_hostile_names_labels_and_paths_are_data(sshd, tmp_path):
    pwned = tmp_path / "pwned"
    inv = tmp_path / "hosts.ini"
    inv.write_text(
        f"'../x y;$(touch {pwned})' ansible_host=alpha note=\"$(touch {pwned}); `touch {pwned}`\""
        f" quote=\"it's \\\"x\\\"\"\n"
        f"bad ansible_host=gamma openssl_path=\"/bin/sh; touch {pwned}\"\n")
    with pytest.warns(CaptureWarning, match="host 'bad' failed .*is not an executable file"):
        df = cipherlab.capture("aes-128-cbc", repeats=1, hosts=f"@{inv}", parallel="host",
                               ssh_config=sshd.config, out=tmp_path / "f", **SHORT)
    name = f"../x y;$(touch {pwned})"
    assert df["host"].tolist() == [name] and df["label"].tolist() == [name]
    assert df["note"].tolist() == [f"$(touch {pwned}); `touch {pwned}`"]
    assert df["quote"].tolist() == ['it\'s "x"']
    folders = [p.name for p in (tmp_path / "f").iterdir() if p.is_dir()]
    assert len(folders) == 1 and folders[0].startswith("x_y")  # 'bad' failed before its folder
    assert not pwned.exists() and not (tmp_path / "x y").exists()


def test_bad_fleet_arguments_are_one_clear_error(sshd, tmp_path):
    with pytest.raises(ValueError, match="with hosts=... every row's label is its host's name"):
        cipherlab.capture("aes-128-cbc", hosts="alpha", label="x", out=tmp_path / "a", **SHORT)
    inv = tmp_path / "hosts.ini"
    inv.write_text("alpha algorithm=x\n")
    with pytest.raises(ValueError, match=r"host 'alpha': inventory variable\(s\) algorithm would "
                                         r"overwrite"):
        cipherlab.capture("aes-128-cbc", hosts=f"@{inv}", out=tmp_path / "b", **SHORT)
    with pytest.raises(ValueError, match="parallel must be 'machine' or 'host'"):
        cipherlab.capture("aes-128-cbc", hosts="alpha", parallel="all", out=tmp_path / "c",
                          **SHORT)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / FLEET_JSON).write_text("{}")
    with pytest.raises(CaptureError, match="already holds a fleet capture; pass resume=True"):
        cipherlab.capture("aes-128-cbc", hosts="alpha", out=tmp_path / "d", **SHORT)


def _cli(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cipherlab", "capture", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_sigterm_of_the_cli_leaves_nothing_running_and_resume_completes(sshd, tmp_path):
    out = tmp_path / "f"
    args = ["--hosts", "alpha,gamma", "--ssh-config", str(sshd.config), "--parallel", "host",
            "--algorithms", "aes-128-cbc", "--sizes", "16384", "--seconds", "1", "--repeats",
            "4", "--isa", "native", "-o", str(out)]
    cli = _cli(*args)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (_runs(out / "alpha") or _runs(out / "gamma")):
        time.sleep(0.05)
    cli.send_signal(signal.SIGTERM)
    _, err = cli.communicate(timeout=120)
    assert cli.returncode == 130 and "Continue with:" in err and "--resume" in err
    assert sshd.wait_idle() == [] and sshd.local_clients() == []
    done = len(_runs(out / "alpha")) + len(_runs(out / "gamma"))
    assert 1 <= done < 8

    again = _cli(*args, "--resume")
    stdout, err = again.communicate(timeout=600)
    assert again.returncode == 0, err
    assert len(_runs(out / "alpha")) == len(_runs(out / "gamma")) == 4
    assert "alpha" in stdout and "gamma" in stdout  # the summary has a line per host


def test_cli_exit_status_says_a_host_failed(sshd, tmp_path):
    cli = _cli("--hosts", "alpha,refuse", "--ssh-config", str(sshd.config), "--algorithms",
               "aes-128-cbc", "--sizes", "16384", "--seconds", "1", "--repeats", "1", "--isa",
               "native", "-o", str(tmp_path / "f"))
    stdout, err = cli.communicate(timeout=300)
    assert cli.returncode == 1
    assert "warning: host 'refuse' failed (refuse: login refused" in err
    assert "1 host(s) failed: refuse" in err and "Traceback" not in err
    # a warning raised while a host ran names it (the busy-machine warning names none itself)
    assert all(ln.startswith("cipherlab capture: warning: alpha: ") for ln in err.splitlines()
               if "warning:" in ln and "refuse" not in ln)
    assert "capture folder:" in stdout


def test_report_of_a_fleet_folder_compares_the_three_machines(fleet, tmp_path):
    out, _, _, _ = fleet
    page = cipherlab.report(out, out=tmp_path / "report").read_text()
    machines = page[page.index("Machines: the same benchmark"):]
    assert "3 machines" in machines
    for name in ("alpha", "beta", "gamma"):
        assert name in machines
    table = pd.read_csv(tmp_path / "report" / "tables" / "machines.csv")
    assert set(table["candidate"]) == {"beta", "gamma"} and set(table["baseline"]) == {"alpha"}
    assert set(table["n_candidate"]) == {2}  # two runs per host: the unit is the run
    facts = pd.read_csv(tmp_path / "report" / "tables" / "machines-facts.csv", index_col="fact")
    assert list(facts.columns) == ["alpha", "beta", "gamma"]  # the hosts' facts side by side
    assert set(facts.loc["cores"].astype(int)) == {os.cpu_count()}


def test_the_explorer_takes_a_fleet_folder(fleet):
    import cipherlab.widgets
    out, _, _, _ = fleet
    w = cipherlab.widgets.explorer(cipherlab.ingest(out))
    assert "host" in w.condition.options
    w.condition.value = "host"
    assert sorted(w.levels.options) == ["alpha", "beta", "gamma"]
    assert w.png


def test_isa_presets_are_the_environment_of_the_remote_command(sshd, tmp_path):
    df = cipherlab.capture("aes-128-gcm", repeats=1, hosts="gamma", ssh_config=sshd.config,
                           out=tmp_path / "f", **{**SHORT, "isa": "native,no-aesni"})
    by = df.set_index(df["isa"].astype(str))
    assert by.loc["native", "isa_mask"] == cipherlab.runners.effective_mask({})
    assert by.loc["no-aesni", "isa_mask"] != by.loc["native", "isa_mask"]
    assert "aesni" in str(by.loc["no-aesni", "isa_off"])
    assert by.loc["native", "bytes_per_s"] > 2 * by.loc["no-aesni", "bytes_per_s"]
    envs = {r["isa"]: r["env"] for r in _runs(tmp_path / "f" / "gamma")}
    assert envs["no-aesni"]["OPENSSL_ia32cap"] == cipherlab.ISA_PRESETS["no-aesni"]
