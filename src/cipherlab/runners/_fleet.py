"""Fleet capture: the same capture on many machines over SSH at once, one table at the end.

Why this module exists: comparing AES-NI, ARMv8 crypto extensions or OpenSSL builds across
machines used to mean installing cipherlab everywhere and merging folders that could not be told
apart. ``capture(..., hosts=[...])`` runs the ordinary :func:`~cipherlab.capture` once per host,
each in its own thread inside ``_system.using(RemoteSystem(host))``, so every command (probes,
``openssl version -a`` per ISA condition, host facts, each ``openssl speed`` run) goes over that
host's SSH connection while the plan, interleaving, repeats, resume and crash-safety stay the
local capture's own. Only ``openssl`` and a POSIX shell are needed remotely.

* **Parallel across machines, never within one.** Hosts run at the same time, each one run
  after another. Hosts that turn out to be one machine (same host name and boot id: two aliases
  of one box, containers on one kernel) share a thread, with a warning, so no benchmark competes
  with another for its CPU; ``parallel="host"`` overrides that.
* **One host failing never stops the others.** Unreachable, login refused, unknown host key, no
  openssl, a dropped connection: the host is reported by name at the end (a
  :class:`~cipherlab.errors.CaptureWarning`, and ``fleet.json``), its finished runs stay on disk
  and ``resume=True`` continues it. Only when every host fails does the call raise.
* **Interrupts.** Ctrl-C, SIGTERM or SIGHUP stop every host (their ssh clients are killed, the
  remote watcher kills the commands), finished runs are kept and the note says how to resume.

Layout::

    <out>/
      fleet.json      the hosts (name, address, labels, folder) and how each one ended
      <host>/         one capture folder per host, as a local capture writes it

``cipherlab.ingest(out)`` reads every host folder into one table; each row carries ``host``
(the host's name), ``host_id`` (stable: machine id, host name and inventory name), ``label``
(the host's name) and the host's inventory variables as columns.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import pandas as pd

from cipherlab.errors import CaptureError, CipherlabError
from cipherlab.runners._exec import terminating_signals
from cipherlab.runners._inventory import read_hosts
from cipherlab.runners._remote import SshExecutor, SshHost
from cipherlab.runners._system import RemoteSystem, using, warn

__all__ = ["FLEET_JSON", "capture_fleet", "host_folder_name"]

FLEET_JSON = "fleet.json"

# A host's first command: is it reachable, and which machine is it (boot id: same kernel = same CPU)
_IDENTIFY = ('printf "boot=%s\\nname=%s\\n" "$(cat /proc/sys/kernel/random/boot_id 2>/dev/null '
             '|| sysctl -n kern.boottime 2>/dev/null)" "$(uname -n)"')


def host_folder_name(name: str) -> str:
    """The host's folder under the fleet folder: its name when that is a safe file name, else a
    readable slug plus a hash of the name (so ``a/b`` and ``a_b`` cannot collide, and ``..``
    cannot climb out).

    >>> host_folder_name("pi4"), host_folder_name("../etc")
    ('pi4', 'etc-f7f9121f')
    """
    from cipherlab.runners._plan import slug
    safe = slug(name)
    if safe == name and not name.startswith("."):
        return name
    return f"{safe.strip('._') or 'host'}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"


@dataclass
class _Member:
    host: SshHost
    executor: SshExecutor
    folder: Path
    system: RemoteSystem | None = None
    machine: str | None = None
    table: pd.DataFrame | None = None
    error: str | None = None

    @property
    def name(self) -> str:
        return self.host.name


def _describe(err: BaseException) -> str:
    return str(err) if isinstance(err, CipherlabError) else f"{type(err).__name__}: {err}"


def _reserved() -> set[str]:
    """Columns a host label may not take: the table's own and the conditions capture writes."""
    from cipherlab.model import COLUMNS
    from cipherlab.runners._isa import IsaCondition, labels
    return {*COLUMNS, *labels(IsaCondition("native", None), "", ""), "repeat", "host",
            "host_id", "capture_id", "loop", "strict", "n_jobs"}


def _identify(m: _Member) -> None:
    """First contact: connect, learn the machine (for grouping) and the host's identity."""
    out = m.executor.run(["sh", "-c", _IDENTIFY], timeout=120).stdout
    facts = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    hostname = facts.get("name") or m.name
    m.machine = f"{hostname}|{facts['boot']}" if facts.get("boot") else None
    h = m.host
    where = (f"{h.user}@" if h.user else "") + h.destination + (f":{h.port}" if h.port else "")
    m.system = RemoteSystem(m.executor, {"host": m.name, "hostname": hostname, "ssh": where,
                                         "labels": dict(h.labels)})


def _groups(members: list[_Member], parallel: str) -> list[list[_Member]]:
    """One list per thread: hosts of one machine together (unless ``parallel='host'``)."""
    by_machine: dict[Any, list[_Member]] = {}
    for m in members:
        by_machine.setdefault(m.machine or id(m), []).append(m)
    for group in by_machine.values():
        if len(group) > 1:
            names = ", ".join(repr(m.name) for m in group)
            if parallel == "host":
                warn(f"hosts {names} are one machine (same host name and boot id) and "
                     f"run at the same time (parallel='host'): their runs compete for "
                     f"its CPUs, so no rate is that host's alone.")
            else:
                warn(f"hosts {names} are one machine (same host name and boot id): they "
                     f"run one after another, so each run has the machine to itself "
                     f"(parallel='host' runs them at once).")
    if parallel == "host":
        return [[m] for m in members]
    return list(by_machine.values())


def _in_threads(jobs: list[Callable[[], None]], members: list[_Member]) -> None:
    """Run ``jobs`` in threads and wait; an interrupt of the wait stops every host first."""
    threads = [threading.Thread(target=job, daemon=True) for job in jobs]
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():
                t.join(0.2)
    except KeyboardInterrupt:
        for m in members:
            m.executor.stop()  # kills the running ssh clients; their threads end with an error
        for t in threads:
            t.join(60)
        raise


def _write_fleet(root: Path, members: list[_Member]) -> None:
    record = {"format": 1, "hosts": [
        {"name": m.name, "address": m.host.destination, "port": m.host.port, "user": m.host.user,
         "openssl": m.host.openssl, "labels": dict(m.host.labels), "folder": m.folder.name,
         "status": "failed" if m.error else ("done" if m.table is not None else "not run"),
         "error": m.error} for m in members]}
    tmp = root / (FLEET_JSON + ".tmp")
    tmp.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, root / FLEET_JSON)


def capture_fleet(capture: Callable[..., pd.DataFrame], hosts: str | Iterable,
                  options: Mapping[str, Any], *, out: str | os.PathLike | None, resume: bool,
                  progress: bool, ssh_config: str | os.PathLike | None = None,
                  accept_new: bool = False, parallel: str = "machine") -> pd.DataFrame:
    """Run ``capture(**options)`` on every host of ``hosts`` (``read_hosts`` syntax) over SSH.

    ``options`` are capture's own arguments, already checked; ``out`` is the fleet folder
    (default ``captures/fleet-<this host>-<UTC time>``). Returns the rows of every host that
    finished, in host order, with ``attrs["failed_hosts"]`` = ``{name: why}`` for the others.
    """
    from cipherlab.model import concat
    from cipherlab.runners._openssl import default_folder
    from cipherlab.runners._plan import add_note

    if parallel not in ("machine", "host"):
        raise ValueError(f"parallel must be 'machine' or 'host'; not {parallel!r}")
    if options.get("label") is not None:
        raise ValueError("label names one machine; with hosts=... every row's label is its "
                         "host's name (inventory variables add more columns)")
    host_list = read_hosts(hosts)
    reserved = _reserved()
    for h in host_list:
        clash = sorted(set(h.labels) & reserved)
        if clash:
            raise ValueError(f"host {h.name!r}: inventory variable(s) {', '.join(clash)} would "
                             f"overwrite the table's own column(s) of that name; rename them")
    root = Path(default_folder("fleet") if out is None else out)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise CaptureError(f"cannot create the fleet folder '{root}': {err.strerror or err}; "
                           f"choose another folder with out=...") from None
    if (root / FLEET_JSON).exists() and not resume:
        raise CaptureError(f"'{root}' already holds a fleet capture; pass resume=True (CLI: "
                           f"--resume) to continue it, or choose another folder with out=...")
    members = [_Member(h, SshExecutor(h, ssh_config=ssh_config, accept_new=accept_new),
                       root / host_folder_name(h.name)) for h in host_list]
    _write_fleet(root, members)

    def identify(m: _Member) -> Callable[[], None]:
        def job() -> None:
            try:
                _identify(m)
            except Exception as err:  # the host failed; the others go on
                m.error = _describe(err)
        return job

    def run(group: list[_Member]) -> Callable[[], None]:
        def job() -> None:
            for m in group:
                opts = {**options, **({"openssl": m.host.openssl}
                                      if m.host.openssl != "openssl" else {})}
                try:
                    with using(m.system):
                        m.table = capture(**opts, out=m.folder, resume=True, progress=progress)
                except Exception as err:  # the host failed; the others go on
                    m.error = _describe(err)
        return job

    try:
        with terminating_signals():  # SIGTERM/SIGHUP take the Ctrl-C path below
            _in_threads([identify(m) for m in members], members)
            reachable = [m for m in members if m.error is None]
            _in_threads([run(g) for g in _groups(reachable, parallel)], members)
    except KeyboardInterrupt as err:
        done = sum(len(m.table) > 0 for m in members if m.table is not None)
        add_note(err, f"cipherlab: the finished runs of every host are kept in '{root}' "
                      f"({done} of {len(members)} hosts complete); capture(..., hosts=..., "
                      f"out='{root}', resume=True) continues.")
        err.capture_folder = root
        raise
    finally:
        for m in members:
            m.executor.close()
        _write_fleet(root, members)

    failed = {m.name: m.error for m in members if m.error}
    if len(failed) == len(members):
        raise CaptureError("every host failed:\n" + "\n".join(f"  {why}" if why.startswith(
            f"{name}: ") else f"  {name}: {why}" for name, why in failed.items()))
    for name, why in failed.items():
        warn(f"host {name!r} failed ({why}); the other hosts went on. Its finished runs "
             f"stay in '{root}', and capture(..., hosts=..., out='{root}', resume=True) "
             f"retries it.")
    table = concat([m.table for m in members if m.table is not None and len(m.table)])
    table.attrs["failed_hosts"] = failed
    return table
