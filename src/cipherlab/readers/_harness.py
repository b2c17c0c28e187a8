"""Plain timing-loop output: ``name size rate rate ...`` lines under a ``python X backend Y`` line.

Why this module exists: people compare ``openssl speed`` with what their own code measures, and
paste the loop's output next to it (host-b's ``pyca.txt``: AES-GCM and ChaCha20-Poly1305 timed
through Python's ``cryptography`` package). The format is the simplest a harness prints: one
line per algorithm and block size, then one bytes-per-second value per repeat. Each value is one
cell with its ``repeat`` index, so statistics see every repeat.

Examples
--------
>>> h = Harness({}, header("python 3.12.3 backend OpenSSL 4.0.0 14 Apr 2026"))
>>> [(c["block_bytes"], c["bytes_per_s"], c["repeat"]) for c in h.row(3, "aes-128-gcm 16 100 200")]
[(16, 100.0, 0), (16, 200.0, 1)]
"""

from __future__ import annotations

import re
from typing import Any

from cipherlab.readers._names import canonical

_HEADER = re.compile(r"^python\s+(?P<python>\d+\.\d+(?:\.\d+)?)\s+backend\s+(?P<backend>.+?)\s*$",
                     re.IGNORECASE)
_ROW = re.compile(r"^(?P<name>[A-Za-z][\w()/.-]*)\s+(?P<size>\d+)(?P<values>(?:\s+\d+(?:\.\d+)?(?:e[+-]?\d+)?)+)\s*$")


def header(line: str) -> dict[str, str] | None:
    """``{'python': ..., 'backend': ...}`` from a harness header line, else None."""
    m = _HEADER.match(line)
    return m.groupdict() if m else None


class Harness:
    """Reads the rows of one harness block and sets its run's metadata."""

    def __init__(self, meta: dict[str, Any], facts: dict[str, str]):
        meta.setdefault("tool", "cryptography")
        meta.setdefault("backend", facts["backend"])
        meta.setdefault("python", facts["python"])
        meta.setdefault("timing", "elapsed")

    def row(self, lineno: int, line: str) -> list[dict[str, Any]] | None:
        """One cell per repeat of a ``name size v1 v2 ...`` line, else None."""
        m = _ROW.match(line)
        if m is None:
            return None
        algorithm, op = canonical(m["name"])
        size = int(m["size"])
        cells = []
        for k, tok in enumerate(m["values"].split()):
            v = float(tok)
            cells.append({"line": lineno, "algorithm": algorithm, "name": m["name"],
                          "operation": op, "block_bytes": size, "bytes_per_s": v,
                          "ops_per_s": v / size if size else None, "repeat": k})
        return cells
