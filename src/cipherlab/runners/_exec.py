"""Running a benchmark child: one function, so nothing outlives the capture that started it.

Why this module exists: a capture's children must not outlive it. A Ctrl-C, a ``kill`` (SIGTERM,
SIGHUP from a closed terminal) or a ``kill -9`` of the parent used to leave ``openssl speed``
running on for its remaining 40 s and more, skewing whatever ran next. Every child therefore

* runs in its own session (process group), which a terminal's Ctrl-C does not reach: the parent
  alone decides when it ends, and kills the whole group (``openssl speed -multi`` forks);
* gets ``PR_SET_PDEATHSIG`` = SIGKILL on Linux (``prctl`` through ctypes, in the child between
  fork and exec), so even a parent killed with SIGKILL takes it along;
* is killed and reaped on every way out of :func:`execute` (timeout, exception, interrupt).

:func:`execute` is the one place that runs "this argv with this environment and collect its
output"; a remote executor (SSH) can stand in for it. :func:`terminating_signals` turns SIGTERM and
SIGHUP into ``KeyboardInterrupt`` for the duration of a capture, so they take the Ctrl-C path
(finished runs kept, resume command printed).

Examples
--------
>>> r = execute(["sh", "-c", "echo out; echo err >&2"], {"PATH": "/usr/bin:/bin"})
>>> r.returncode, r.stdout, r.stderr
(0, 'out\\n', 'err\\n')
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping, Sequence

from cipherlab.runners._system import LOCAL, changes, current

__all__ = ["Completed", "die_with_parent", "execute", "kill_group", "spawn", "terminating_signals"]

_PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class Completed:
    """What a child did: exit status, its stdout and stderr (text), and wall seconds."""

    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    wall_s: float


def die_with_parent(parent: int | None = None, *, mask: Iterable[int] = ()):
    """A ``preexec_fn`` that makes the child receive SIGKILL when its parent dies (Linux).

    ``parent`` is the pid the child should belong to (default: the caller's); if that parent is
    already gone by the time the child runs this, the child exits at once. ``mask`` is the signal
    mask the child starts with (the parent blocks interrupts while it forks, see :func:`spawn`).
    """
    parent = os.getpid() if parent is None else parent
    mask = set(mask)
    prctl = None
    if sys.platform.startswith("linux"):
        import ctypes
        prctl = ctypes.CDLL(None, use_errno=True).prctl

    def preexec() -> None:
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != parent:  # the parent died before prctl took effect
                os._exit(1)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    return preexec


_HELD = {signal.SIGINT, *(s for s in (getattr(signal, "SIGTERM", None),
                                      getattr(signal, "SIGHUP", None)) if s is not None)}


def spawn(procs: list[subprocess.Popen], argv: Sequence[str], **popen) -> subprocess.Popen:
    """``Popen(argv)`` in a new session that dies with its parent, appended to ``procs``.

    Interrupts are held off until the child is in ``procs``: a Ctrl-C arriving during the fork
    would be lost in Python's at-fork hooks (seen: "Exception ignored in _releaseLock"), and one
    arriving before the bookkeeping would leave a child nobody kills. Held, it is raised as soon
    as this returns, inside the caller's ``try: ... finally: kill_group(...)`` over ``procs``.

    In a fleet capture's host thread (``_system.current()`` is a remote system) the child is the
    ``ssh`` client that runs ``argv`` there.
    """
    system = current()
    if system is not LOCAL:
        return system.spawn(procs, argv, **popen)
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        proc = subprocess.Popen(list(argv), start_new_session=True,
                                preexec_fn=die_with_parent(mask=old), **popen)
        procs.append(proc)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    return proc


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the child's whole process group (it leads its own session) and reap the child."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    interrupted = None
    while True:
        try:
            proc.wait()  # SIGKILL cannot be ignored: this returns promptly
            break
        except KeyboardInterrupt as err:  # a second Ctrl-C: reap first, then pass it on
            interrupted = err
    if interrupted is not None:
        raise interrupted


def execute(argv: Sequence[str], env: Mapping[str, str], *,
            timeout: float | None = None) -> Completed:
    """Run ``argv`` with exactly ``env``; return its exit status and output.

    The child runs in its own session with the parent-death signal set, and is killed (whole
    group) and reaped if anything, a timeout included (``subprocess.TimeoutExpired``), interrupts
    the wait. Raises OSError when the program cannot be started. In a fleet capture's host
    thread it runs on that host (``_system.current()``), ``env`` applied as changes to the
    host's own environment.
    """
    system = current()
    if system is not LOCAL:
        return system.execute(argv, changes(env), timeout=timeout)
    t0 = time.perf_counter()
    procs = []
    try:
        spawn(procs, argv, env=dict(env), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
              stderr=subprocess.PIPE, text=True)
        out, err = procs[0].communicate(timeout=timeout)
    finally:
        for proc in procs:
            kill_group(proc)
            for stream in (proc.stdout, proc.stderr):
                with contextlib.suppress(OSError):
                    stream.close()
    return Completed(tuple(argv), procs[0].returncode, out, err, time.perf_counter() - t0)


_TERMINATING = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
                     if s is not None)


def _as_interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")


@contextlib.contextmanager
def terminating_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise KeyboardInterrupt, as Ctrl-C does (main thread
    only; elsewhere, and for handlers someone else installed, nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for sig in _TERMINATING:
        if signal.getsignal(sig) in (signal.SIG_DFL, None):
            previous[sig] = signal.signal(sig, _as_interrupt)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
