"""The machine a runner benchmarks: this one, or another one over SSH.

Why this module exists: a capture runs commands (``openssl speed``, ``openssl version -a``) and
reads host facts from files (``/proc/cpuinfo``, ``/proc/stat``, ``/sys/...``) and commands
(``lscpu``, ``sysctl``). A fleet capture needs all of it on machines that have no Python, done by
the same code. So runners ask a *system*, and two systems answer the same questions:

* :class:`LocalSystem` with ``subprocess``, ``open`` and ``glob``;
* :class:`RemoteSystem` over an :class:`~cipherlab.runners._remote.SshExecutor`: the command
  itself, ``cat``, a ``sh`` glob; only a POSIX shell is needed on the other side, and each answer
  is one command over the host's shared connection (milliseconds on a LAN).

``execute(argv, env)`` and ``popen(argv, env)`` run benchmark commands; ``env`` holds changes to
the system's own environment (``None`` removes a variable), which is what an ISA preset is.
``output(argv)`` is the stdout of a fact-gathering command ('' when the tool is missing).

Examples
--------
>>> LocalSystem().read("/nonexistent") is None
True
>>> LocalSystem().execute(["sh", "-c", "echo ${X-unset} ${HOME+home}"], {"X": "1", "HOME": None}).stdout
'1\\n'
"""

from __future__ import annotations

import contextlib
import glob as _glob
import os
import platform
import shutil
import socket
import subprocess
from typing import Iterator, Mapping, Sequence

__all__ = ["LocalSystem", "RemoteSystem"]

Env = Mapping[str, "str | None"]


def _reap(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


class LocalSystem:
    """This machine."""

    name = "localhost"

    def __repr__(self) -> str:
        return "LocalSystem()"

    @staticmethod
    def environ(env: Env | None) -> dict[str, str]:
        """This process's environment with ``env``'s changes applied."""
        merged = dict(os.environ)
        for key, value in (env or {}).items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = value
        return merged

    def execute(self, argv: Sequence[str], env: Env | None = None, *,
                timeout: float | None = None) -> subprocess.CompletedProcess:
        """Run ``argv``; its exit status, stdout and stderr. OSError when it cannot start."""
        return subprocess.run(list(argv), env=self.environ(env), capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=timeout, check=False)

    @contextlib.contextmanager
    def popen(self, argv: Sequence[str], env: Env | None = None,
              **kwargs) -> Iterator[subprocess.Popen]:
        """Start ``argv`` (streams as ``kwargs`` ask); killed and reaped when the block ends."""
        proc = subprocess.Popen(list(argv), env=self.environ(env), text=True,
                                stdin=subprocess.DEVNULL, **kwargs)
        try:
            yield proc
        finally:
            _reap(proc)

    def output(self, argv: Sequence[str], env: Env | None = None) -> str:
        """A fact-gathering command's stdout ('' when it cannot run)."""
        try:
            return self.execute(argv, env, timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            return ""

    def read(self, path: str) -> str | None:
        """The text of a file, or None when it cannot be read."""
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                return fh.read()
        except OSError:
            return None

    def glob(self, pattern: str) -> list[str]:
        return sorted(_glob.glob(pattern))

    def which(self, name: str) -> str | None:
        return shutil.which(name)

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

    def close(self) -> None:
        """Nothing to release on this machine."""


class RemoteSystem(LocalSystem):
    """Another machine, through an executor (an SshExecutor: ``run``, ``popen``, ``stop``,
    ``close``).

    Connection failures propagate (``RemoteError``): a host whose facts cannot be read is a host
    that cannot be benchmarked. A command that fails remotely answers as a local one would.
    """

    def __init__(self, executor):
        self.executor = executor
        self.name = executor.name

    def __repr__(self) -> str:
        return f"RemoteSystem({self.name!r})"

    def execute(self, argv: Sequence[str], env: Env | None = None, *,
                timeout: float | None = None) -> subprocess.CompletedProcess:
        return self.executor.run(argv, env, timeout=timeout)

    def popen(self, argv: Sequence[str], env: Env | None = None, **kwargs):
        return self.executor.popen(argv, env, **kwargs)

    def output(self, argv: Sequence[str], env: Env | None = None) -> str:
        # `command -v` first: a missing tool answers '' (as locally), not the shell's complaint
        return self.execute(["sh", "-c", 'command -v "$1" >/dev/null && exec "$@"', "sh", *argv],
                            env, timeout=60).stdout

    def read(self, path: str) -> str | None:
        r = self.execute(["cat", "--", path], timeout=60)
        return r.stdout if r.returncode == 0 else None

    def glob(self, pattern: str) -> list[str]:
        # the unquoted $1 is split and expanded by the remote sh: the pattern is data, not code
        r = self.execute(["sh", "-c", 'for f in $1; do [ -e "$f" ] && printf "%s\\n" "$f"; done; '
                                      'exit 0', "sh", pattern], timeout=60)
        return sorted(r.stdout.splitlines())

    def which(self, name: str) -> str | None:
        found = self.execute(["sh", "-c", 'command -v "$1"', "sh", name], timeout=60).stdout.strip()
        return found if found.startswith("/") else None

    def hostname(self) -> str:
        return self.output(["uname", "-n"]).strip() or self.name

    def uname(self) -> tuple[str, str, str]:
        system, release, machine = (self.output(["uname", "-s", "-r", "-m"]).split()
                                    + ["", "", ""])[:3]
        return system, release, machine

    def cpu_count(self) -> int | None:
        n = (self.output(["getconf", "_NPROCESSORS_ONLN"]).strip()
             or self.output(["sysctl", "-n", "hw.ncpu"]).strip())
        return int(n) if n.isdigit() else None

    def loadavg(self) -> tuple[float, float, float] | None:
        text = self.read("/proc/loadavg") or ""
        if not text:  # BSD, macOS: "{ 0.52 0.41 0.38 }"
            text = self.output(["sysctl", "-n", "vm.loadavg"]).strip("{} \n")
        try:
            a, b, c = (float(x) for x in text.split()[:3])
        except ValueError:
            return None
        return a, b, c

    def stop(self) -> None:
        self.executor.stop()

    def close(self) -> None:
        self.executor.close()
