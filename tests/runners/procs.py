"""The process table as the orphan and TLS tests read it (from /proc; psutil is not a dependency)."""

from __future__ import annotations

import os
from pathlib import Path


def children(parent: int) -> dict[int, tuple[str, str]]:
    """{pid: (state, cmdline)} of the processes whose parent is ``parent``.

    A zombie shows state 'Z' and an empty cmdline.
    """
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue  # ended while we looked
        # comm (field 2) may hold spaces and parentheses: split after its closing parenthesis
        state, ppid = stat[stat.rindex(")") + 2:].split()[:2]
        if int(ppid) == parent:
            out[int(entry)] = (state, cmd)
    return out
