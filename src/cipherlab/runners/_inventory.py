"""The hosts of a fleet capture, from the lists and inventories users already keep.

Why this module exists: people with many machines already list them, as ``~/.ssh/config``
aliases or in an Ansible inventory, often with variables that say what each machine is
(``instance_type=c7g.large``, ``rack=3``). :func:`read_hosts` takes all of these:

* ``alice,bob@build-box,pi4:2222``: host names or ``~/.ssh/config`` aliases, ``[user@]host[:port]``;
* ``@FILE``: an Ansible inventory, INI or YAML (JSON is YAML), with groups, ``:vars``,
  ``:children`` and host ranges (``web[01:03]``, ``db-[a:c]``). ``ansible_host``,
  ``ansible_port``, ``ansible_user`` and ``ansible_ssh_private_key_file`` (and their older
  ``ansible_ssh_*`` spellings) say how to connect, ``openssl_path`` which ``openssl`` to run; every
  other variable becomes a *label* of the host, carried on each of its rows.

Variables apply from the outermost group inwards (``all``, then parents before children,
siblings by name), host variables last, as Ansible does. Other ``ansible_*`` variables are
connection settings cipherlab has no use for and are ignored; passwords and other variables
whose name says they are secret are never kept as labels (they would land in every results
file), and an ``ansible_connection`` other than ``ssh`` is an error rather than a silent ssh
attempt.

Examples
--------
>>> [h.name for h in read_hosts("alice,bob@build-box")]
['alice', 'bob@build-box']
>>> import tempfile, pathlib
>>> inv = pathlib.Path(tempfile.mkdtemp()) / "hosts.ini"
>>> _ = inv.write_text("[arm]\\npi[3:4] ansible_user=pi board=rpi\\n"
...                    "[arm:vars]\\nopenssl_path=/opt/ssl/bin/openssl\\n")
>>> read_hosts(f"@{inv}")
[SshHost(name='pi3', user='pi', openssl='/opt/ssl/bin/openssl', labels={'board': 'rpi'}),
 SshHost(name='pi4', user='pi', openssl='/opt/ssl/bin/openssl', labels={'board': 'rpi'})]
"""

from __future__ import annotations

import json
import os
import re
import shlex
import string
from pathlib import Path
from typing import Any, Iterable, Mapping

from cipherlab.errors import InventoryError
from cipherlab.runners._remote import SshHost
from cipherlab.runners._system import warn

__all__ = ["read_hosts", "read_inventory"]

_CONNECT = {"ansible_host": "address", "ansible_ssh_host": "address",
            "ansible_port": "port", "ansible_ssh_port": "port",
            "ansible_user": "user", "ansible_ssh_user": "user",
            "ansible_ssh_private_key_file": "identity_file",
            "ansible_private_key_file": "identity_file", "openssl_path": "openssl"}
_SECRET = re.compile(r"pass|secret|token|credential|vault", re.I)
_RANGE = re.compile(r"\[([0-9a-zA-Z]+):([0-9a-zA-Z]+)(?::(\d+))?\]")


def read_hosts(spec: str | Iterable[str | SshHost]) -> list[SshHost]:
    """The hosts named by ``spec``: a comma-separated string or a list of names, ``@FILE``
    inventories and :class:`~cipherlab.runners._remote.SshHost` objects. Names must be unique.
    """
    items = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else list(spec)
    hosts: list[SshHost] = []
    for item in items:
        if isinstance(item, SshHost):
            hosts.append(item)
        elif not isinstance(item, str):
            raise TypeError(f"hosts must be names, '@FILE' inventories or SshHost; not {item!r}")
        elif item.startswith("@"):
            hosts.extend(read_inventory(item[1:]))
        elif item:
            hosts.append(SshHost.parse(item))
    if not hosts:
        raise ValueError(f"hosts must name at least one host; got {spec!r}")
    seen: set[str] = set()
    for h in hosts:
        if h.name in seen:
            raise ValueError(f"host {h.name!r} is listed twice in hosts={spec!r}")
        seen.add(h.name)
    return hosts


def read_inventory(path: str | os.PathLike) -> list[SshHost]:
    """The hosts of an Ansible inventory file (INI, or YAML for ``.yml``/``.yaml``/``.json``
    and for files whose first entry is a ``key:`` line), in the order they first appear."""
    p = Path(path).expanduser()
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise InventoryError(p, f"cannot read the inventory: {err.strerror or err}") from None
    first = next((ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith(
        ("#", ";", "---"))), "")
    yaml_like = p.suffix.lower() in (".yml", ".yaml", ".json") or re.match(r"^[\w.-]+:\s*$", first)
    groups = _yaml_groups(p, text) if yaml_like else _ini_groups(p, text)
    return _resolve(p, groups)


class _Group:
    def __init__(self) -> None:
        self.hosts: dict[str, tuple[dict[str, Any], int | None]] = {}  # name -> (vars, line)
        self.vars: dict[str, Any] = {}
        self.children: list[str] = []


def _expand(pattern: str, path: Path, lineno: int | None) -> list[str]:
    """Ansible host ranges: ``web[01:03]`` -> web01 web02 web03; ``[a:c]``; ``[0:10:5]``."""
    m = _RANGE.search(pattern)
    if m is None:
        if "[" in pattern or "]" in pattern:
            raise InventoryError(path, f"host {pattern!r} has a bracket that is not a range like "
                                       f"[01:10] or [a:f]", lineno)
        return [pattern]
    lo, hi, step = m[1], m[2], int(m[3] or 1)
    if lo.isdigit() and hi.isdigit():
        width = len(lo) if lo.startswith("0") else 0
        values = [str(i).zfill(width) for i in range(int(lo), int(hi) + 1, step)]
    elif len(lo) == len(hi) == 1 and lo in string.ascii_letters and hi in string.ascii_letters:
        values = [chr(c) for c in range(ord(lo), ord(hi) + 1, step)]
    else:
        values = []
    if not values:
        raise InventoryError(path, f"host range {m[0]!r} in {pattern!r} is empty or mixes "
                                   f"numbers and letters", lineno)
    return [name for v in values
            for name in _expand(pattern[:m.start()] + v + pattern[m.end():], path, lineno)]


def _value(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _ini_groups(path: Path, text: str) -> dict[str, _Group]:
    groups: dict[str, _Group] = {"all": _Group(), "ungrouped": _Group()}
    group, kind = "ungrouped", "hosts"
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        m = re.match(r"^\[([^\]:\s]+)(?::(vars|children))?\]$", line)
        if m:
            group, kind = m[1], m[2] or "hosts"
            groups.setdefault(group, _Group())
            continue
        if line.startswith("["):
            raise InventoryError(path, f"expected a section header like [group], [group:vars] "
                                       f"or [group:children]; got {line!r}", lineno)
        g = groups[group]
        if kind == "vars":
            if "=" not in line:
                raise InventoryError(path, f"expected key=value in [{group}:vars]; got {line!r}",
                                     lineno)
            key, value = line.split("=", 1)
            g.vars[key.strip()] = _value(value)
        elif kind == "children":
            g.children.append(line.split()[0])
            groups.setdefault(line.split()[0], _Group())
        else:
            try:
                words = shlex.split(line, comments=True)
            except ValueError as err:
                raise InventoryError(path, f"{err} in {line!r}", lineno) from None
            host_vars = {}
            for word in words[1:]:
                if "=" not in word:
                    raise InventoryError(path, f"expected key=value host variables after the "
                                               f"host name; got {word!r}", lineno)
                key, value = word.split("=", 1)
                host_vars[key] = value
            for name in _expand(words[0], path, lineno):
                g.hosts[name] = (host_vars, lineno)
    return groups


def _yaml_groups(path: Path, text: str) -> dict[str, _Group]:
    import yaml
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        raise InventoryError(path, f"not valid YAML: {getattr(err, 'problem', None) or err}",
                             mark.line + 1 if mark else None) from None
    if not isinstance(data, dict):
        raise InventoryError(path, "expected a YAML mapping of groups (all: hosts: ... children: "
                                   f"...); got {type(data).__name__}")
    groups: dict[str, _Group] = {"all": _Group(), "ungrouped": _Group()}

    def mapping(value: Any, where: str) -> dict:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise InventoryError(path, f"{where} must be a mapping; got {value!r}")
        return value

    def add(name: str, body: Any, where: str) -> None:
        g = groups.setdefault(str(name), _Group())
        body = mapping(body, where)
        unknown = set(body) - {"hosts", "vars", "children"}
        if unknown:
            raise InventoryError(path, f"{where} may hold hosts, vars and children; not "
                                       f"{', '.join(sorted(map(str, unknown)))}")
        for host, host_vars in mapping(body.get("hosts"), f"{where}.hosts").items():
            for h in _expand(str(host), path, None):
                g.hosts[h] = (mapping(host_vars, f"{where}.hosts.{host}"), None)
        g.vars.update(mapping(body.get("vars"), f"{where}.vars"))
        for child, child_body in mapping(body.get("children"), f"{where}.children").items():
            g.children.append(str(child))
            add(child, child_body, f"{where}.children.{child}")

    for name, body in data.items():
        add(name, body, str(name))
    return groups


def _ancestry(groups: Mapping[str, _Group]) -> dict[str, int]:
    """Each group's depth below ``all`` (its longest chain of parents)."""
    parents: dict[str, list[str]] = {name: [] for name in groups}
    for name, g in groups.items():
        for child in g.children:
            parents[child].append(name)
    depth: dict[str, int] = {}

    def of(name: str, seen: frozenset = frozenset()) -> int:
        if name == "all":
            return 0
        if name in seen:  # a loop of children: Ansible refuses it too
            raise ValueError(f"group {name!r} is its own ancestor")
        if name not in depth:
            depth[name] = 1 + max((of(p, seen | {name}) for p in parents[name] if p != "all"),
                                  default=0)
        return depth[name]

    for name in groups:
        of(name)
    return depth


def _resolve(path: Path, groups: dict[str, _Group]) -> list[SshHost]:
    try:
        depth = {"all": 0, **_ancestry(groups)}
    except ValueError as err:
        raise InventoryError(path, str(err)) from None
    member: dict[str, set[str]] = {}  # host -> every group it is in, ancestors included
    order: dict[str, int | None] = {}

    def collect(group: str, host: str, seen: set[str]) -> None:
        member.setdefault(host, set()).add(group)
        for name, g in groups.items():
            if group in g.children and name not in seen:
                collect(name, host, seen | {name})

    for name, g in groups.items():
        for host, (_, lineno) in g.hosts.items():
            order.setdefault(host, lineno)
            collect(name, host, {name})
    if not order:
        raise InventoryError(path, "the inventory lists no hosts")
    hosts = []
    for host, lineno in order.items():
        merged: dict[str, Any] = dict(groups["all"].vars)
        for g in sorted(member[host] - {"all"}, key=lambda n: (depth[n], n)):
            merged.update(groups[g].vars)
        for g in groups.values():
            if host in g.hosts:
                merged.update(g.hosts[host][0])
        hosts.append(_host(path, host, merged, lineno))
    return hosts


def _label(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json.dumps(value, sort_keys=True)
    return str(value)


def _host(path: Path, name: str, variables: Mapping[str, Any], lineno: int | None) -> SshHost:
    connection = str(variables.get("ansible_connection", "ssh"))
    if connection not in ("ssh", "smart", "paramiko"):
        raise InventoryError(path, f"host {name!r} has ansible_connection={connection}; cipherlab "
                                   f"captures over ssh only (run `cipherlab capture` on that "
                                   f"machine instead)", lineno)
    fields: dict[str, Any] = {}
    labels: dict[str, str] = {}
    for key, value in variables.items():
        if key in _CONNECT:
            fields[_CONNECT[key]] = value
        elif key.startswith("ansible_") and "pass" in key:
            warn(f"{path}: {key} of host {name!r} is not used: cipherlab never sends "
                 f"passwords (ssh runs with BatchMode=yes); the host needs a key "
                 f"(ssh-agent or ansible_ssh_private_key_file)")
        elif _SECRET.search(key):
            warn(f"{path}: variable {key!r} of host {name!r} looks secret and is not kept "
                 f"as a label (labels are written into every results file)")
        elif not key.startswith("ansible_"):
            labels[key] = _label(value)
    address = fields.pop("address", None)
    try:
        parsed = SshHost.parse(name) if address is None else None
        if parsed is not None and parsed.port is not None:  # "db:5309": Ansible's name is "db"
            fields.setdefault("port", parsed.port)
            name = parsed.address
        port = fields.get("port")
        if port is not None:
            if not str(port).strip().isdigit():
                raise ValueError(f"ansible_port of host {name!r} must be a whole number; "
                                 f"not {port!r}")
            fields["port"] = int(port)
        if "identity_file" in fields:
            fields["identity_file"] = os.path.expanduser(str(fields["identity_file"]))
        return SshHost(name, address=None if address is None else str(address),
                       labels=labels, **{k: v if k == "port" or v is None else str(v)
                                         for k, v in fields.items()})
    except ValueError as err:
        raise InventoryError(path, str(err), lineno) from None
