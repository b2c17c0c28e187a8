"""SshExecutor against a real sshd (tests/fleet/conftest.py): output, quoting, keys, cleanup.

Every command goes through the system ssh client to the fixture's sshd on 127.0.0.1, and what
the remote side did is checked on the remote side: the files it wrote (or did not), the
processes sshd still runs after the local side was killed.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time

import pytest

from cipherlab.errors import RemoteError
from cipherlab.runners._remote import SshExecutor, SshHost

pytestmark = pytest.mark.ssh

HOSTILE = ["$(touch {p})", "`touch {p}`", "; touch {p}", "' ; touch {p} ; '", '" ; touch {p} #',
           "a\nb; touch {p}", "&& touch {p}", "| touch {p}", "\\'$(touch {p})", "*", "~", "-n"]


@pytest.fixture
def alpha(sshd):
    ex = SshExecutor(SshHost("alpha"), ssh_config=sshd.config)
    yield ex
    ex.close()


def test_output_exit_status_and_environment(alpha):
    r = alpha.run(["sh", "-c", 'echo "out:$X:${Y-unset}"; echo err >&2; exit 7'],
                  {"X": "a b", "Y": None})
    assert (r.returncode, r.stdout, r.stderr) == (7, "out:a b:unset\n", "err\n")
    # exit status 255 of the command itself is not mistaken for an ssh failure
    assert alpha.run(["sh", "-c", "exit 255"]).returncode == 255
    assert alpha.run(["sh", "-c", "printf 'no newline' >&2"]).stderr == "no newline"


def test_hostile_arguments_and_values_arrive_verbatim(alpha, tmp_path):
    pwned = tmp_path / "pwned"
    words = [w.format(p=pwned) for w in HOSTILE]
    r = alpha.run(["printf", "%s\\n", *words], {"V": words[0]})
    assert r.returncode == 0 and r.stdout == "".join(w + "\n" for w in words)
    assert alpha.run(["sh", "-c", 'printf %s "$V"'], {"V": words[3]}).stdout == words[3]
    assert not pwned.exists()
    with pytest.raises(ValueError, match="shell identifiers"):
        alpha.run(["true"], {"X;touch /tmp/x": "1"})


def test_a_host_name_cannot_become_an_ssh_option(sshd, tmp_path):
    pwned = tmp_path / "pwned"
    with pytest.raises(ValueError, match="no leading '-'"):
        SshHost(f"-oProxyCommand=touch {pwned}")
    # a hostile *name* is only a name: the address is what ssh gets, after "--"
    ex = SshExecutor(SshHost(f"-oProxyCommand=touch {pwned}", address="alpha"),
                     ssh_config=sshd.config)
    try:
        argv = ex.ssh_argv("true")
        assert argv[-3:] == ["--", "alpha", "true"]
        assert ex.run(["echo", "ok"]).stdout == "ok\n"
    finally:
        ex.close()
    assert not pwned.exists()


def test_each_host_runs_its_own_openssl_on_path(sshd):
    ex = SshExecutor(SshHost("beta"), ssh_config=sshd.config)
    try:
        assert ex.run(["sh", "-c", "command -v openssl"]).stdout.strip() == str(sshd.other_openssl)
        assert ex.run(["openssl", "version"]).stdout.startswith("OpenSSL")
    finally:
        ex.close()


def test_a_refused_login_says_so(sshd):
    for multiplex in (True, False):
        ex = SshExecutor(SshHost("refuse"), ssh_config=sshd.config, multiplex=multiplex)
        with pytest.raises(RemoteError, match=r"^refuse: login refused .*Permission denied"):
            ex.run(["true"])
        ex.close()


def test_unreachable_host(sshd, tmp_path):
    cfg = tmp_path / "cfg"
    cfg.write_text(sshd.config.read_text().replace(f"Port {sshd.ports['alpha']}", "Port 1"))
    ex = SshExecutor(SshHost("alpha"), ssh_config=cfg)
    with pytest.raises(RemoteError, match="connection refused"):
        ex.run(["true"])
    ex.close()


def test_host_keys_are_verified_and_accept_new_learns_only_new_ones(sshd, tmp_path):
    known = tmp_path / "known_hosts"
    known.write_text("")
    cfg = tmp_path / "cfg"
    cfg.write_text(sshd.config.read_text().replace(str(sshd.known_hosts), str(known)))
    strict = SshExecutor(SshHost("alpha"), ssh_config=cfg)
    with pytest.raises(RemoteError, match="host key .*--accept-new"):
        strict.run(["true"])
    strict.close()
    learner = SshExecutor(SshHost("alpha"), ssh_config=cfg, accept_new=True)
    assert learner.run(["echo", "hi"]).stdout == "hi\n"
    learner.close()
    assert known.read_text().split()[1:3] == sshd.known_hosts.read_text().split()[1:3]
    # a known host presenting another key is refused, accept_new or not
    other = subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                            str(tmp_path / "other")], check=True)
    assert other.returncode == 0
    name = known.read_text().split()[0]
    known.write_text(f"{name} {(tmp_path / 'other.pub').read_text()}")
    changed = SshExecutor(SshHost("alpha"), ssh_config=cfg, accept_new=True)
    with pytest.raises(RemoteError, match="host key"):
        changed.run(["true"])
    changed.close()


def _marker_processes(sshd, marker: str) -> list[str]:
    return [c for c in sshd.remote_processes() if marker in c]


@pytest.mark.parametrize("multiplex", [True, False])
def test_killing_the_ssh_client_kills_the_remote_command(sshd, multiplex):
    ex = SshExecutor(SshHost("alpha"), ssh_config=sshd.config, multiplex=multiplex)
    marker = f"sleep 3{int(multiplex)}7"
    proc = ex.spawn([], marker.split(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while not _marker_processes(sshd, marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _marker_processes(sshd, marker), "the remote command never started"
    proc.send_signal(signal.SIGKILL)  # the local side dies without a word
    proc.wait()
    deadline = time.monotonic() + 15
    while _marker_processes(sshd, marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _marker_processes(sshd, marker) == []
    ex.close()
    assert sshd.wait_idle() == []
    assert sshd.local_clients() == []


def test_a_dropped_connection_raises_and_the_next_command_reconnects(sshd):
    ex = SshExecutor(SshHost("alpha"), ssh_config=sshd.config)
    try:
        ex.run(["true"])
        master = ex._master
        killer = subprocess.Popen([sys.executable, "-c", f"import os,time,signal; time.sleep(1); "
                                   f"os.kill({master.pid}, signal.SIGKILL)"])
        with pytest.raises(RemoteError, match="^alpha: the connection dropped .* `sleep` ran"):
            ex.run(["sleep", "30"], timeout=60)
        killer.wait()
        assert ex.run(["echo", "again"]).stdout == "again\n"
    finally:
        ex.close()
    assert sshd.wait_idle() == []


def test_kill_9_of_the_python_parent_leaves_nothing_on_either_side(sshd):
    code = ("import sys; sys.path.insert(0, 'src'); from cipherlab.runners._remote import *; "
            f"SshExecutor(SshHost('alpha'), ssh_config={str(sshd.config)!r}).run(['sleep', '347'])")
    parent = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.monotonic() + 30
    while not _marker_processes(sshd, "sleep 347") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _marker_processes(sshd, "sleep 347")
    parent.kill()
    parent.wait()
    assert sshd.wait_idle() == []
    deadline = time.monotonic() + 15
    while sshd.local_clients() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sshd.local_clients() == []


def test_timeout_kills_the_remote_command(alpha, sshd):
    with pytest.raises(subprocess.TimeoutExpired):
        alpha.run(["sleep", "359"], timeout=1)
    deadline = time.monotonic() + 15
    while _marker_processes(sshd, "sleep 359") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _marker_processes(sshd, "sleep 359") == []


def test_no_ssh_client_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert shutil.which("ssh") is None
    with pytest.raises(RemoteError, match="no `ssh` client on PATH"):
        SshExecutor(SshHost("alpha"))
