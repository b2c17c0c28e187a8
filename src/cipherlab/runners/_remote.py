"""Run commands on another machine through the system OpenSSH client, leaving nothing behind.

Why this module exists: a fleet capture runs ``openssl speed`` on machines that have ``openssl``
and ``sshd`` but no Python. Every remote run goes through :class:`SshExecutor`, which has the
two calls a runner makes on this machine (``run`` an argument list with environment changes and
get its output; ``spawn`` it to stream the output), so ``runners._system.RemoteSystem`` can stand
in for ``LocalSystem`` and a runner written against one runs on the other unchanged.

Why the system ``ssh`` and not an SSH library: it already knows the user's ``~/.ssh/config``
aliases, ``ProxyJump`` bastions, agents, hardware keys, certificates and ``known_hosts``, which a
library would have to re-implement or ignore; and connection sharing (``ControlMaster``) makes
each run after the first cost one channel, not one handshake.

What every call guarantees:

* **No shell interpolation of user input.** The remote side always gets one POSIX ``sh`` line
  built here, in which every argument and environment value is quoted with :func:`shlex.quote`;
  the destination follows ``--``, so a host name cannot become an ``ssh`` option.
* **Host keys are verified**: ``StrictHostKeyChecking=yes`` unless ``accept_new`` (OpenSSH's
  ``accept-new``: unknown keys are learnt, changed keys still refused); ``BatchMode=yes``, so
  ``ssh`` never asks for a password (there is no way to pass one).
* **Nothing keeps running remotely** once the local side goes away. The remote line starts a
  watcher that blocks reading the session's stdin, which the local side holds open and never
  writes; when ``ssh`` dies (Ctrl-C, SIGTERM, kill -9 of cipherlab, a dropped connection) sshd
  closes that pipe, the watcher reads end-of-file and kills the session's process group (sshd
  makes every session its own group, so ``openssl speed -multi`` children die too).
* **A dropped connection is told apart from a failing command**: the remote line ends by
  printing the command's exit status after a marker on stderr; no marker means the connection
  or the remote shell died, which raises :class:`~cipherlab.errors.RemoteError`.

Examples
--------
>>> print(remote_line(["openssl", "speed", "-evp", "aes-128-gcm"], {"OPENSSL_ia32cap": "~0x0"}))
... # doctest: +NORMALIZE_WHITESPACE
exec 3<&0 </dev/null; { while read -r _ <&3; do :; done; kill -KILL 0; } >/dev/null 2>&1 &
OPENSSL_ia32cap='~0x0'; export OPENSSL_ia32cap; openssl speed -evp aes-128-gcm 3<&-; rc=$?;
kill $! 2>/dev/null; printf '\\n@cipherlab-exit %s\\n' "$rc" >&2; exit $rc
>>> "; echo '$(reboot)' 3<&-;" in remote_line(["echo", "$(reboot)"], {"X": None})
True
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from cipherlab.errors import RemoteError
from cipherlab.runners._exec import Completed, kill_group

__all__ = ["SshExecutor", "SshHost", "explain_ssh_failure", "remote_line"]

EXIT_MARK = "@cipherlab-exit"
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MARK_TAIL = re.compile(r"\n" + EXIT_MARK + r" (\d+)\n\Z")

# The watcher: holds the session's stdin (fd 3) and kills the session's process group at EOF.
_WATCH = "exec 3<&0 </dev/null; { while read -r _ <&3; do :; done; kill -KILL 0; } >/dev/null 2>&1 &"


def remote_line(argv: Sequence[str], env: Mapping[str, str | None] | None = None) -> str:
    """The ``sh`` command line that runs ``argv`` under ``env`` on the remote side.

    ``env`` maps variable names to values (``None`` unsets the variable); names must be shell
    identifiers, values and arguments are quoted with :func:`shlex.quote`.
    """
    if not argv:
        raise ValueError("argv must name a command; got an empty list")
    parts = []
    for name, value in (env or {}).items():
        if not _ENV_NAME.match(name):
            raise ValueError(f"environment variable names must be shell identifiers "
                             f"([A-Za-z_][A-Za-z0-9_]*); not {name!r}")
        parts.append(f"unset {name}" if value is None
                     else f"{name}={shlex.quote(str(value))}; export {name}")
    command = " ".join(shlex.quote(str(a)) for a in argv)
    return _WATCH + " " + "; ".join([
        *parts, f"{command} 3<&-", "rc=$?", "kill $! 2>/dev/null",
        f"printf '\\n{EXIT_MARK} %s\\n' \"$rc\" >&2", "exit $rc"])


@dataclass(frozen=True)
class SshHost:
    """One machine of a fleet as an inventory names it.

    ``name`` is how the tables and folders call it (an inventory name or ``~/.ssh/config``
    alias); ``address`` where ``ssh`` connects (``ansible_host``; default ``name``), with
    ``port``, ``user`` and ``identity_file`` left to ``ssh`` and its config when ``None``.
    ``openssl`` is the remote binary; ``labels`` are the inventory's other variables.

    >>> SshHost("pi4", user="bob", port=2222).destination
    'pi4'
    >>> SshHost.parse("bob@[::1]:2222")
    SshHost(name='bob@[::1]:2222', address='::1', port=2222, user='bob')
    """

    name: str
    address: str | None = None
    port: int | None = None
    user: str | None = None
    identity_file: str | None = None
    openssl: str = "openssl"
    labels: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        if not self.name or re.search(r"[\x00-\x1f\x7f]", self.name):
            raise ValueError(f"host name {self.name!r} must be non-empty, without control "
                             f"characters")
        dest = self.destination
        if dest.startswith("-") or re.search(r"[\s\x00-\x1f\x7f]", dest):
            raise ValueError(f"{dest!r} (host {self.name!r}) is not an address ssh can connect "
                             f"to: no spaces or control characters, and no leading '-'")
        if self.port is not None and not (isinstance(self.port, int) and 0 < self.port < 65536):
            raise ValueError(f"port of host {self.name!r} must be a whole number 1-65535; "
                             f"not {self.port!r}")
        if self.user is not None and (not self.user or self.user.startswith("-")
                                      or re.search(r"[\s@\x00-\x1f\x7f]", self.user)):
            raise ValueError(f"user {self.user!r} of host {self.name!r} is not a login name")

    def __repr__(self) -> str:
        fields = [f"name={self.name!r}"] + [
            f"{k}={getattr(self, k)!r}" for k in ("address", "port", "user", "identity_file")
            if getattr(self, k) is not None]
        if self.openssl != "openssl":
            fields.append(f"openssl={self.openssl!r}")
        if self.labels:
            fields.append(f"labels={dict(self.labels)!r}")
        return f"SshHost({', '.join(fields)})"

    @property
    def destination(self) -> str:
        return self.address or self.name

    @classmethod
    def parse(cls, spec: str) -> SshHost:
        """``[user@]host[:port]`` (IPv6 in brackets) or ``ssh://[user@]host[:port]``."""
        text = spec.strip()
        rest = text[len("ssh://"):] if text.startswith("ssh://") else text
        user, _, hostport = rest.rpartition("@")
        m = re.match(r"^\[(?P<h>[^\]]+)\](?::(?P<p>\d+))?$|^(?P<h2>[^:]+)(?::(?P<p2>\d+))?$",
                     hostport)
        if m is None:  # a bare IPv6 address, or something ssh will judge
            host, port = hostport, None
        else:
            host, port = m["h"] or m["h2"], m["p"] or m["p2"]
        address = host if (host != text or port) else None
        return cls(text, address=address, port=int(port) if port else None, user=user or None)


_FAILURES = [  # (what ssh printed, what it means) for ssh's own exit status 255
    (r"Host key verification failed|No \S+ host key is known|HOST IDENTIFICATION HAS CHANGED",
     "its host key is not in known_hosts or has changed (ssh refused it); check it and add it "
     "(ssh-keyscan, or connect once by hand), or pass --accept-new to learn keys of new hosts"),
    (r"Permission denied|Too many authentication failures",
     "login refused (no key that this host accepts; BatchMode is on, so passwords are never "
     "tried: use ssh-agent or an identity file)"),
    (r"Could not resolve hostname|Name or service not known", "the host name does not resolve"),
    (r"Connection refused", "connection refused (no sshd listening on that port)"),
    (r"timed out|No route to host|Network is unreachable", "unreachable (connection timed out)"),
    (r"Broken pipe|Connection reset|closed by remote host|Connection to .* closed|"
     r"Timeout, server .* not responding|mux_client", "the connection dropped mid-run"),
]


def explain_ssh_failure(stderr: str, running: str | None = None) -> str:
    """What a failed ``ssh`` means, from its message (``running``: the command it ran).

    >>> explain_ssh_failure("root@10.0.0.9: Permission denied (publickey).")
    'login refused (no key that this host accepts; ... use ssh-agent or an identity file):
    root@10.0.0.9: Permission denied (publickey).'
    >>> explain_ssh_failure("", running="openssl")
    'the connection dropped (or the remote shell died) while `openssl` ran: ssh printed nothing'
    """
    text = stderr.strip()
    last = text.splitlines()[-1] if text else "ssh printed nothing"
    for pattern, meaning in _FAILURES:
        if re.search(pattern, text):
            return f"{meaning}: {last}"
    if running is not None:
        return f"the connection dropped (or the remote shell died) while `{running}` ran: {last}"
    return f"the connection failed: {last}"


class SshExecutor:
    """Runs commands on one :class:`SshHost` through the system ``ssh``.

    Parameters
    ----------
    host : SshHost
    ssh_config : path, optional
        An OpenSSH client config (``ssh -F``) instead of ``~/.ssh/config``.
    accept_new : bool
        Learn the host keys of hosts not yet in known_hosts (``StrictHostKeyChecking=accept-new``);
        a changed key is refused either way.
    multiplex : bool
        Share one connection between the commands: a master ``ssh`` (``ControlMaster``) that is
        this process's child, not a daemon, so it ends with :meth:`close` or with this process.
    connect_timeout : int
        Seconds ``ssh`` waits for the connection (``ConnectTimeout``).

    Examples
    --------
    >>> ex = SshExecutor(SshHost("db1", user="bob"), multiplex=False)
    >>> ex.ssh_argv("true")[-5:]
    ['-l', 'bob', '--', 'db1', 'true']
    """

    def __init__(self, host: SshHost, *, ssh_config: str | os.PathLike | None = None,
                 accept_new: bool = False, multiplex: bool = True, connect_timeout: int = 15):
        if shutil.which("ssh") is None:
            raise RemoteError(host.name, "no `ssh` client on PATH; install OpenSSH (Debian/Ubuntu: "
                                         "`apt install openssh-client`)")
        self.host = host
        self.name = host.name
        self.ssh_config = None if ssh_config is None else os.fspath(ssh_config)
        self.accept_new = accept_new
        self.multiplex = multiplex
        self.connect_timeout = connect_timeout
        self._control_dir: str | None = None
        self._master: subprocess.Popen | None = None
        self._master_stdin: int | None = None
        self._live: set[subprocess.Popen] = set()
        self._lock = threading.Lock()
        self._stopped = False

    def __repr__(self) -> str:
        return f"SshExecutor({self.host!r})"

    def ssh_argv(self, *command: str, master: bool = False) -> list[str]:
        """The ``ssh`` argument list that runs ``command`` (a remote line) on the host."""
        h = self.host
        opts = {"BatchMode": "yes", "StrictHostKeyChecking": "accept-new" if self.accept_new
                else "yes", "ConnectTimeout": str(self.connect_timeout),
                "ServerAliveInterval": "15", "ServerAliveCountMax": "4", "LogLevel": "ERROR"}
        if self._control_dir:
            opts.update(ControlMaster="yes" if master else "no", ControlPersist="no",
                        ControlPath=os.path.join(self._control_dir, "%C"))
        argv = ["ssh", "-T", *(["-F", self.ssh_config] if self.ssh_config else [])]
        argv += [a for k, v in opts.items() for a in ("-o", f"{k}={v}")]
        argv += [*(["-p", str(h.port)] if h.port else []), *(["-l", h.user] if h.user else []),
                 *(["-i", h.identity_file] if h.identity_file else [])]
        return [*argv, "--", h.destination, *command]

    def connect(self) -> None:
        """Open the shared connection (when ``multiplex``), or raise RemoteError saying why not.

        Called by every command; reopens a connection that dropped. The master's remote side
        reads its stdin until end-of-file, which comes when :meth:`close` closes the pipe or
        this process dies.
        """
        if not self.multiplex or (self._master is not None and self._master.poll() is None):
            return
        self._end_master()
        self._control_dir = tempfile.mkdtemp(prefix="cl-ssh-", dir="/tmp" if os.path.isdir("/tmp")
                                              else None)  # a socket path must stay < 104 bytes
        read_end, self._master_stdin = os.pipe()
        err = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
        try:
            self._master = subprocess.Popen(
                self.ssh_argv("exec /bin/sh -c 'while read -r _; do :; done'", master=True),
                stdin=read_end, stdout=subprocess.DEVNULL, stderr=err)
        finally:
            os.close(read_end)
        with err:
            deadline = time.monotonic() + self.connect_timeout + 15
            while not os.listdir(self._control_dir):
                if self._master.poll() is not None or time.monotonic() > deadline:
                    err.seek(0)
                    message = err.read()
                    self._end_master()
                    raise RemoteError(self.name, explain_ssh_failure(message))
                time.sleep(0.02)

    def command(self, argv: Sequence[str], env: Mapping[str, str | None] | None = None) -> list[str]:
        """The ``ssh`` argument list that runs ``argv`` under ``env`` on the host (connecting
        first, so a host that cannot be reached fails here with the reason)."""
        self.connect()
        return self.ssh_argv("exec /bin/sh -c " + shlex.quote(remote_line(argv, env)))

    def spawn(self, procs: list, argv: Sequence[str], env: Mapping[str, str | None] | None = None,
              **popen) -> subprocess.Popen:
        """Start ``argv`` remotely: the ``ssh`` client's Popen (in its own session, like
        ``_exec.spawn``), appended to ``procs``.

        Its stdin is a pipe whose other end this process holds until the Popen is gone: the
        remote watcher kills the command when it reads end-of-file, that is when the client is
        killed (``_exec.kill_group``), the connection drops or this process dies.
        """
        cmd = self.command(argv, env)
        read_end, write_end = os.pipe()
        try:
            with self._lock:  # stop() cannot slip in between the check and the start
                if self._stopped:
                    raise RemoteError(self.name, "stopped (interrupted)")
                proc = subprocess.Popen(cmd, stdin=read_end, start_new_session=True, **popen)
                self._live = {p for p in self._live if p.poll() is None} | {proc}
        except BaseException:
            os.close(write_end)
            raise
        finally:
            os.close(read_end)
        weakref.finalize(proc, os.close, write_end)
        procs.append(proc)
        return proc

    def run(self, argv: Sequence[str], env: Mapping[str, str | None] | None = None, *,
            timeout: float | None = None) -> Completed:
        """Run ``argv`` remotely and return its exit status, stdout and stderr (``Completed``).

        Raises :class:`~cipherlab.errors.RemoteError` when the connection fails or drops (the
        message says which: unreachable, login refused, unknown host key, ...), and
        ``subprocess.TimeoutExpired`` after ``timeout`` seconds (the remote command is killed).
        """
        t0 = time.perf_counter()
        procs: list[subprocess.Popen] = []
        try:
            proc = self.spawn(procs, argv, env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
            out, err = proc.communicate(timeout=timeout)
        finally:
            for p in procs:
                kill_group(p)
                p.stdout.close()
                p.stderr.close()
        m = _MARK_TAIL.search(err)
        if m is None:
            if proc.returncode < 0:
                raise RemoteError(self.name, f"the ssh client was stopped (signal "
                                             f"{-proc.returncode}) while `{argv[0]}` ran")
            raise RemoteError(self.name, explain_ssh_failure(err, running=argv[0]))
        return Completed(tuple(argv), int(m[1]), out, err[:m.start()], time.perf_counter() - t0)

    def stop(self) -> None:
        """Kill every ``ssh`` client still running (their remote commands die with them) and
        refuse new commands (RemoteError): how an interrupt stops a host's capture thread."""
        with self._lock:
            self._stopped = True
            live = list(self._live)
        for proc in live:
            if proc.poll() is None:
                proc.kill()

    def close(self) -> None:
        """Stop running commands, end the shared connection and remove its socket directory."""
        self.stop()
        self._end_master()

    def _end_master(self) -> None:
        if self._master_stdin is not None:
            os.close(self._master_stdin)  # the remote read loop ends, then the master exits
            self._master_stdin = None
        if self._master is not None:
            try:
                self._master.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._master.kill()
                self._master.wait()
            self._master = None
        if self._control_dir is not None:
            shutil.rmtree(self._control_dir, ignore_errors=True)
            self._control_dir = None
