"""Where host facts are read from: this machine, or another one over SSH.

Why this module exists: host facts (``runners._host``) come from files (``/proc/cpuinfo``,
``/proc/stat``, ``/sys/...``) and commands (``lscpu``, ``sysctl``, ``openssl version -a``). A
fleet capture needs the same facts from machines that have no Python, parsed by the same code.
So the fact-gathering code asks a *system* for them, and two systems answer the same four
questions: :class:`LocalSystem` with ``open``/``subprocess``/``glob``, :class:`RemoteSystem`
with ``cat``/the command/a ``sh`` glob over an executor (``runners._remote.SshExecutor``), which
needs only a POSIX shell on the other side (each answer is one command over the host's shared
connection, a few milliseconds on a LAN).

Examples
--------
>>> LocalSystem().read("/nonexistent") is None
True
>>> LocalSystem().run(["sh", "-c", "echo hi"])
'hi\\n'
"""

from __future__ import annotations

import glob as _glob
import os
import platform
import socket
import subprocess
from typing import Sequence

__all__ = ["LocalSystem", "RemoteSystem"]


class LocalSystem:
    """This machine."""

    name = "localhost"

    def read(self, path: str) -> str | None:
        """The text of a file, or None when it cannot be read."""
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                return fh.read()
        except OSError:
            return None

    def run(self, argv: Sequence[str], env: dict[str, str | None] | None = None) -> str:
        """A command's stdout ('' when it cannot run or fails to start)."""
        from cipherlab.runners._remote import LocalExecutor
        try:
            return LocalExecutor().run(argv, env, timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            return ""

    def glob(self, pattern: str) -> list[str]:
        return sorted(_glob.glob(pattern))

    def hostname(self) -> str:
        return socket.gethostname()

    def uname(self) -> tuple[str, str, str]:
        """(kernel name, release, machine): ``('Linux', '6.1.0-13-amd64', 'x86_64')``."""
        u = platform.uname()
        return u.system, u.release, u.machine

    def cpu_count(self) -> int | None:
        return os.cpu_count()

    def loadavg(self) -> tuple[float, float, float] | None:
        try:
            return os.getloadavg()
        except (AttributeError, OSError):
            return None


class RemoteSystem:
    """Another machine, asked through an executor with ``run(argv, env)`` (an SshExecutor).

    Connection failures propagate (``RemoteError``): a host whose facts cannot be read is a host
    that cannot be benchmarked. A command that fails remotely answers '' like a local one.
    """

    def __init__(self, executor):
        self.executor = executor
        self.name = executor.name

    def __repr__(self) -> str:
        return f"RemoteSystem({self.name!r})"

    def read(self, path: str) -> str | None:
        r = self.executor.run(["cat", "--", path])
        return r.stdout if r.returncode == 0 else None

    def run(self, argv: Sequence[str], env: dict[str, str | None] | None = None) -> str:
        # `command -v` first: a missing tool answers '' (as locally), not the shell's complaint
        return self.executor.run(["sh", "-c", 'command -v "$1" >/dev/null && exec "$@"', "sh",
                                  *argv], env).stdout

    def glob(self, pattern: str) -> list[str]:
        # the unquoted $1 is split and expanded by the remote sh: the pattern is data, not code
        r = self.executor.run(["sh", "-c", 'for f in $1; do [ -e "$f" ] && printf "%s\\n" "$f"; '
                                           'done; exit 0', "sh", pattern])
        return sorted(r.stdout.splitlines())

    def hostname(self) -> str:
        return (self.run(["uname", "-n"]).strip() or self.run(["hostname"]).strip()
                or self.name)

    def uname(self) -> tuple[str, str, str]:
        system, release, machine = (self.run(["uname", "-s", "-r", "-m"]).split() + ["", "", ""])[:3]
        return system, release, machine

    def cpu_count(self) -> int | None:
        n = self.run(["getconf", "_NPROCESSORS_ONLN"]).strip() or self.run(
            ["sysctl", "-n", "hw.ncpu"]).strip()
        return int(n) if n.isdigit() else None

    def loadavg(self) -> tuple[float, float, float] | None:
        text = self.read("/proc/loadavg") or ""
        if not text:  # BSD, macOS: "{ 0.52 0.41 0.38 }"
            text = self.run(["sysctl", "-n", "vm.loadavg"]).strip("{} \n")
        try:
            a, b, c = (float(x) for x in text.split()[:3])
        except ValueError:
            return None
        return a, b, c
