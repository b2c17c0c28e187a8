"""The machine a runner benchmarks: this one, or another one over SSH.

Why this module exists: a capture runs commands (``openssl speed``, ``openssl version -a``) and
reads host facts from files (``/proc/cpuinfo``, ``/proc/stat``, ``/sys/...``) and commands
(``lscpu``, ``sysctl``). A fleet capture needs all of it on machines that have no Python, done by
the same code. So runners ask a *system*, and two systems answer the same questions:

* :class:`LocalSystem` with ``subprocess``, ``open`` and ``glob``;
* :class:`RemoteSystem` over an :class:`~cipherlab.runners._remote.SshExecutor`: the command
  itself, ``cat``, a ``sh`` glob; only a POSIX shell is needed on the other side, and each answer
  is one command over the host's shared connection (milliseconds on a LAN).

``execute(argv, env)`` and ``spawn(procs, argv, env=...)`` run benchmark commands; ``env`` holds
changes to the system's own environment (``None`` removes a variable), which is what an ISA
preset is. ``output(argv)`` is the stdout of a fact-gathering command ('' when the tool is
missing).

Which system a runner talks to is a property of the thread that runs it (:func:`current`, set by
:func:`using`): a fleet capture gives each host a thread that runs the ordinary ``capture``
inside ``using(RemoteSystem(...))``, and the few functions that touch the machine
(``_exec.execute``/``spawn``, the host facts, ``find_openssl``) ask :func:`current`. A capture on
this machine never sees a difference.

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
import threading
from typing import Iterator, Mapping, Sequence

__all__ = ["LOCAL", "LocalSystem", "RemoteSystem", "changes", "current", "using", "warn"]

Env = Mapping[str, "str | None"]


def changes(env: Mapping[str, str] | None) -> dict[str, str | None]:
    """A whole environment (what a local child gets) as changes to this process's environment.

    >>> changes({**os.environ, "X_CHANGED": "1"})
    {'X_CHANGED': '1'}
    """
    if env is None:
        return {}
    out: dict[str, str | None] = {k: v for k, v in env.items() if os.environ.get(k) != v}
    out.update({k: None for k in os.environ if k not in env})
    return out


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

    def execute(self, argv: Sequence[str], env: Env | None = None, *, timeout: float | None = None):
        """Run ``argv``; an ``_exec.Completed``. OSError when it cannot start."""
        from cipherlab.runners._exec import execute
        with using(LOCAL):
            return execute(argv, self.environ(env), timeout=timeout)

    def spawn(self, procs: list, argv: Sequence[str], **popen) -> subprocess.Popen:
        """Start ``argv`` like ``_exec.spawn`` (``env=`` is the child's whole environment)."""
        from cipherlab.runners._exec import spawn
        with using(LOCAL):
            return spawn(procs, argv, **popen)

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

    def identity(self) -> dict:
        """Facts that name this system in a capture beyond what it reports (none here)."""
        return {}

    def stop(self) -> None:
        """Nothing runs here that the capture itself does not kill."""

    def close(self) -> None:
        """Nothing to release on this machine."""


#: This machine (one instance, so caches keyed by system find it again).
LOCAL = LocalSystem()
_here = threading.local()


def current() -> LocalSystem:
    """The system the calling thread benchmarks: :data:`LOCAL` unless :func:`using` says other."""
    return getattr(_here, "system", LOCAL)


def warn(message: str, category: type[Warning] | None = None) -> None:
    """A capture warning at the user's line, naming the fleet host it is about (a warning raised
    in a host's thread would otherwise not say which host)."""
    from cipherlab.errors import CaptureWarning, warn_caller

    system = current()
    if system is not LOCAL and not message.startswith(f"{system.name}: "):
        message = f"{system.name}: {message}"
    warn_caller(message, category or CaptureWarning)


@contextlib.contextmanager
def using(system: LocalSystem) -> Iterator[LocalSystem]:
    """Within the block, :func:`current` is ``system`` for the calling thread."""
    previous = current()
    _here.system = system
    try:
        yield system
    finally:
        _here.system = previous


class RemoteSystem(LocalSystem):
    """Another machine, through an executor (an SshExecutor: ``run``, ``spawn``, ``stop``,
    ``close``); ``identity`` holds the facts that name it in a fleet (``host``, ``labels``, ...).

    Connection failures propagate (``RemoteError``): a host whose facts cannot be read is a host
    that cannot be benchmarked. A command that fails remotely answers as a local one would.
    """

    def __init__(self, executor, identity: Mapping | None = None):
        self.executor = executor
        self.name = executor.name
        self._identity = dict(identity or {})

    def __repr__(self) -> str:
        return f"RemoteSystem({self.name!r})"

    def identity(self) -> dict:
        return dict(self._identity)

    def execute(self, argv: Sequence[str], env: Env | None = None, *, timeout: float | None = None):
        return self.executor.run(argv, env, timeout=timeout)

    def spawn(self, procs: list, argv: Sequence[str], *, env: Mapping[str, str] | None = None,
              stdin=None, **popen) -> subprocess.Popen:
        return self.executor.spawn(procs, argv, changes(env), **popen)

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
