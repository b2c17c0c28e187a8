"""RemoteSystem answers like LocalSystem, through a real sshd on this same machine."""

from __future__ import annotations

import pytest

from cipherlab.runners._remote import SshExecutor, SshHost
from cipherlab.runners._system import LocalSystem, RemoteSystem

pytestmark = pytest.mark.ssh


@pytest.fixture(scope="module")
def remote(sshd):
    ex = SshExecutor(SshHost("gamma"), ssh_config=sshd.config)
    yield RemoteSystem(ex)
    ex.close()


def test_remote_answers_equal_local_ones_on_the_same_machine(remote):
    local = LocalSystem()
    for path in ("/proc/cpuinfo", "/etc/os-release", "/nonexistent/file"):
        assert remote.read(path) == local.read(path)
    pattern = "/sys/devices/system/cpu/cpu[0-9]*"
    assert remote.glob(pattern) == local.glob(pattern) != []
    assert remote.glob("/nonexistent/*") == [] == local.glob("/nonexistent/*")
    assert remote.hostname() == local.hostname()
    assert remote.which("openssl") == local.which("openssl") and remote.which("nonesuch") is None
    assert remote.uname() == local.uname()
    assert remote.cpu_count() == local.cpu_count()
    assert len(remote.loadavg()) == 3
    assert remote.output(["openssl", "version"]) == local.output(["openssl", "version"])
    assert remote.output(["sh", "-c", 'echo "${X-unset}"'], {"X": "1"}) == "1\n"


def test_a_missing_tool_or_file_answers_like_a_local_one(remote):
    assert remote.output(["no-such-tool-here", "-v"]) == "" == LocalSystem().output(["no-such-tool-here"])
    assert remote.read("/etc/shadow-of-nothing") is None


def test_paths_and_patterns_are_data_not_code(remote, tmp_path):
    pwned = tmp_path / "pwned"
    assert remote.read(f"$(touch {pwned})") is None
    assert remote.glob(f"/x; touch {pwned}") == []
    assert remote.glob(f"`touch {pwned}`") == []
    assert not pwned.exists()
