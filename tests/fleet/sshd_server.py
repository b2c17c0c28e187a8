"""A real sshd on 127.0.0.1 standing for a small fleet: the SSH and fleet-capture tests
(``conftest.py``) and ``benchmarks/fleet_wall.py`` use it.

One ``sshd -D`` (Debian's openssh-server) listens on several free ports with a throw-away host
key; each port is a "host" of the client config written beside it (``Host`` aliases with
``HostName 127.0.0.1``, ``Port``, the throw-away user key and a known_hosts holding the host key):

* ``alpha``  a plain host;
* ``beta``   the same machine with another ``openssl`` first on its PATH (a wrapper script in
  the fixture's ``other-openssl/`` directory, set by sshd's ``SetEnv`` for that port);
* ``gamma``  a third plain host;
* ``refuse`` a port where sshd denies every login (``DenyUsers *``).

The login user is the one running the tests (root in CI: sshd then needs ``PermitRootLogin``
and its privilege-separation directory ``/run/sshd``). Everything lives in a temporary
directory; sshd and whatever it still runs are stopped at the end of the session. Tests that
need it skip with the reason when sshd cannot run here.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path


HOSTS = ("alpha", "beta", "gamma", "refuse")
SSHD = shutil.which("sshd") or "/usr/sbin/sshd"


def _free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            tree.setdefault(ppid, []).append(int(entry))
    return tree


def descendants(pid: int) -> list[int]:
    """Every living process below ``pid`` (zombies included until reaped)."""
    tree, out, todo = _children(), [], [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def processes_mentioning(text: str) -> list[str]:
    """Command lines of this machine's processes that contain ``text`` (this test's excluded)."""
    me = os.getpid()
    return [c for p in os.listdir("/proc") if p.isdigit() and int(p) != me
            and text in (c := cmdline(int(p)))]


class SshdUnavailable(RuntimeError):
    """sshd cannot run here; the message says why (the tests skip with it)."""


class SshFleet:
    """The running sshd: ``config`` (an ssh client config), ``ports``, ``pid``, ``root``."""

    def __init__(self, root: Path):
        self.root = root
        self.user = getpass.getuser()
        self.ports = dict(zip(HOSTS, _free_ports(len(HOSTS))))
        self.other_openssl = root / "other-openssl" / "openssl"
        self.known_hosts = root / "known_hosts"
        self.config = root / "ssh_config"
        self.log = root / "sshd.log"
        self._proc: subprocess.Popen | None = None
        self._made_run_dir = False

    def _write_files(self) -> None:
        r = self.root
        for name in ("host_key", "user_key"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", f"cipherlab-{name}",
                            "-f", str(r / name)], check=True)
        shutil.copy(r / "user_key.pub", r / "authorized_keys")
        self.other_openssl.parent.mkdir()
        real = shutil.which("openssl")
        self.other_openssl.write_text(f'#!/bin/sh\nexec {real} "$@"\n')
        self.other_openssl.chmod(0o755)
        host_key = (r / "host_key.pub").read_text().split()[:2]
        self.known_hosts.write_text(",".join(f"[127.0.0.1]:{p}" for p in self.ports.values())
                                    + " " + " ".join(host_key) + "\n")
        (r / "sshd_config").write_text("\n".join([
            "ListenAddress 127.0.0.1", *(f"Port {p}" for p in self.ports.values()),
            f"HostKey {r / 'host_key'}", f"PidFile {r / 'sshd.pid'}",
            f"AuthorizedKeysFile {r / 'authorized_keys'}", "PermitRootLogin prohibit-password",
            "PasswordAuthentication no", "KbdInteractiveAuthentication no", "UsePAM no",
            "StrictModes no", "LogLevel VERBOSE", "MaxSessions 50", "MaxStartups 50",
            f"Match LocalPort {self.ports['beta']}",
            f"  SetEnv PATH={self.other_openssl.parent}:/usr/local/bin:/usr/bin:/bin",
            f"Match LocalPort {self.ports['refuse']}", "  DenyUsers *", ""]))
        self.config.write_text("".join(
            f"Host {name}\n  HostName 127.0.0.1\n  Port {port}\n  User {self.user}\n"
            f"  IdentityFile {r / 'user_key'}\n  IdentitiesOnly yes\n"
            f"  UserKnownHostsFile {self.known_hosts}\n  GlobalKnownHostsFile /dev/null\n\n"
            for name, port in self.ports.items()))

    def start(self) -> None:
        """Start sshd, or raise SshdUnavailable saying why it cannot run here."""
        if not os.access(SSHD, os.X_OK):
            raise SshdUnavailable("no sshd (Debian: apt install openssh-server; `make system-deps` "
                                  "does it)")
        if not shutil.which("ssh") or not shutil.which("ssh-keygen"):
            raise SshdUnavailable("no ssh client (Debian: apt install openssh-client)")
        if os.geteuid() == 0 and not os.path.isdir("/run/sshd"):
            os.makedirs("/run/sshd", mode=0o755)  # sshd's privilege-separation directory
            self._made_run_dir = True
        self._write_files()
        cmd = [SSHD, "-D", "-f", str(self.root / "sshd_config"), "-E", str(self.log)]
        test = subprocess.run([*cmd[:1], "-t", *cmd[2:4]], capture_output=True, text=True)
        if test.returncode != 0:
            raise SshdUnavailable(f"sshd refuses its test config: {test.stderr.strip()}")
        self._proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise SshdUnavailable(f"sshd exited at start: {self.log.read_text()[-500:]}")
            try:
                for port in self.ports.values():
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise SshdUnavailable("sshd did not listen within 20 s")

    @property
    def pid(self) -> int:
        return self._proc.pid

    def remote_processes(self) -> list[str]:
        """Command lines of every process sshd runs now (sessions and what they started)."""
        return [cmdline(p) for p in descendants(self.pid)]

    def remote_commands(self) -> list[tuple[str, dict[str, str]]]:
        """(command line, environment) of every process sshd runs now."""
        out = []
        for pid in descendants(self.pid):
            try:
                raw = Path(f"/proc/{pid}/environ").read_bytes()
            except OSError:
                continue
            env = dict(kv.split("=", 1) for kv in raw.decode(errors="replace").split("\0")
                       if "=" in kv)
            out.append((cmdline(pid), env))
        return out

    def local_clients(self) -> list[str]:
        """Command lines of this machine's ssh clients that use the fixture's config."""
        return processes_mentioning(str(self.config))

    def wait_idle(self, timeout: float = 15) -> list[str]:
        """Wait until sshd runs nothing any more; return what still runs after ``timeout``."""
        deadline = time.monotonic() + timeout
        while (left := self.remote_processes()) and time.monotonic() < deadline:
            time.sleep(0.1)
        return left

    def stop(self) -> None:
        """Stop sshd and whatever it still runs; remove the /run/sshd this made."""
        if self._made_run_dir:
            shutil.rmtree("/run/sshd", ignore_errors=True)
            self._made_run_dir = False
        if self._proc is None:
            return
        left = descendants(self.pid)
        self._proc.terminate()
        self._proc.wait(timeout=10)
        for pid in left:  # sessions outlive the listener: end them too
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._proc = None


