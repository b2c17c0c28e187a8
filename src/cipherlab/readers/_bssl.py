"""``bssl speed`` of BoringSSL and AWS-LC: its text lines and its ``-json`` records.

Why this module exists: people paste BoringSSL's and AWS-LC's benchmark beside openssl's. Its
one line per measurement, ``Did N <what> operations in Tus (R ops/sec)[: X MB/s]``, and its
``-json`` records (``{"description": ..., "numCalls": N, "microseconds": T, "bytesPerCall":
B}``) give the exact count and time; the rate is computed from them (the printed ``MB/s`` has
one decimal). ``<what>`` is ``AES-128-GCM (16 bytes) seal`` (``seal`` encrypts, ``open``
decrypts), ``SHA-256 (8192 bytes)``, ``RSA 2048 signing``, ``RSA 2048 verify (fresh key)``,
``ECDH P-256``, ``Ed25519 key generation``, ``ECMUL P-256 mul base``.

:func:`find_runs` finds such lines among a text's lines and returns runs plus the lines it
took, like :func:`cipherlab.readers._tables.find_tables`. The tool is ``aws-lc`` or
``boringssl`` as the text names it (a heading, the prose, a path); when the text names neither,
``bssl``: the binary, not a guess at the library behind it.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from typing import Any

from cipherlab.model import Run
from cipherlab.readers._names import canonical, curve_name, pkey_algorithm
from cipherlab.readers._records import RecordRuns
from cipherlab.readers._text import clean

__all__ = ["TOOL_NAME", "describe", "find_runs"]

_DID = re.compile(r"^Did (?P<count>\d+) (?P<what>.+?) operations in (?P<us>\d+)us"
                  r" \((?P<rate>[\d.]+) ops/sec\)(?:: [\d.]+ [KMG]?B/s)?\s*$")
_DID_START = re.compile(r"Did \d+ \S.* operations\b")  # how only a bssl record starts
_PIECES = 2  # lines a wrapped record may continue on
# A -json record (one object; bssl prints them one per line inside a JSON array).
# (keys whose values are numbers may come first: `python -m json.tool --sort-keys`)
_JSON = re.compile(r'\{(?:\s*"\w+"\s*:\s*-?[\d.]+\s*,)*\s*"description"\s*:\s*"[^"\n]*"[^{}\n]*\}')
_COUNT = re.compile(r'"numCalls"')
_PROMPT = re.compile(r"(?:^|[\s/])bssl(?:\.exe)?\s+speed\b")
#: The library a line names (AWS-LC, BoringSSL), as `tool` takes it.
TOOL_NAME = re.compile(r"\b(aws[- ]?lc|boring[- ]?ssl)\b", re.IGNORECASE)
_SIZE = re.compile(r"^(?P<name>.+?) \((?P<bytes>\d+) bytes\)(?: (?P<op>\w+))?$")
_KEY = re.compile(r"\s*\((?P<key>\w+) key\)$")
_SYM_OPS = {"seal": "encrypt", "open": "decrypt", "encrypt": "encrypt", "decrypt": "decrypt"}
_PK_OPS = {"signing": "sign", "sign": "sign", "verify": "verify", "verification": "verify",
           "key generation": "keygen", "keygen": "keygen", "generate": "keygen",
           "private key parse": "parse", "encap": "encaps", "decap": "decaps", "encaps": "encaps",
           "decaps": "decaps"}


def describe(what: str) -> tuple[str, str | None, int | None, dict[str, str]]:
    """``(algorithm, operation, block bytes, conditions)`` of a ``bssl speed`` description.

    >>> describe("AES-128-GCM (16 bytes) seal"), describe("SHA-256 (8192 bytes)")
    (('aes-128-gcm', 'encrypt', 16, {}), ('sha256', 'digest', 8192, {}))
    >>> describe("RSA 2048 verify (fresh key)"), describe("ECDH P-256")
    (('rsa2048', 'verify', None, {'key': 'fresh'}), ('ecdh-p256', 'derive', None, {}))
    >>> describe("ECMUL P-256 mul base"), describe("Ed25519 key generation")
    (('ecmul-p256', 'mul-base', None, {}), ('ed25519', 'keygen', None, {}))
    """
    m = _SIZE.match(what)
    if m:
        algorithm, default = canonical(m["name"])
        op = _SYM_OPS.get((m["op"] or "").lower(), default)
        return algorithm, op, int(m["bytes"]), {}
    conditions = {}
    k = _KEY.search(what)
    if k:
        conditions["key"] = k["key"].lower()
        what = what[:k.start()]
    words = what.split()
    head = words[0].lower()
    if head in ("rsa", "dsa") and len(words) > 1 and words[1].isdigit():
        algorithm, rest = f"{head}{words[1]}", words[2:]
    elif head in ("ecdh", "ecdsa") and len(words) > 1:
        algorithm, rest = pkey_algorithm(head, None, words[1]), words[2:]
    elif head == "ecmul" and len(words) > 1:
        algorithm, rest = f"ecmul-{curve_name(words[1])}", words[2:]
    else:
        algorithm, rest = canonical(words[0])[0], words[1:]
    text = " ".join(rest).lower()
    op = _PK_OPS.get(text) or ("-".join(rest).lower() if rest else
                               "derive" if head == "ecdh" else canonical(words[0])[1])
    return algorithm, op, None, conditions


def _cell(lineno: int, what: str, count: int, micros: int) -> dict[str, Any]:
    algorithm, op, block, conditions = describe(what)
    seconds = micros / 1e6
    ops = count / seconds if seconds else float("inf")
    return {"line": lineno, "algorithm": algorithm, "name": what, "operation": op,
            "block_bytes": block, "bytes_per_s": ops * block if block else None,
            "ops_per_s": ops, "count": count, "seconds": seconds, **conditions}


def _record(lineno: int, line: str) -> dict[str, Any] | None:
    """The cell of a ``Did ...`` line on line ``lineno`` (None: no whole record)."""
    m = _DID.match(line)
    return _cell(lineno, m["what"], int(m["count"]), int(m["us"])) if m else None


def _json_cell(lineno: int, record: str) -> dict[str, Any] | None:
    """The cell of one ``-json`` record (its text), None when it is no whole record."""
    try:
        rec = json.loads(record)
        what, count, micros = rec["description"], int(rec["numCalls"]), int(rec["microseconds"])
    except (ValueError, KeyError, TypeError):
        return None
    if rec.get("bytesPerCall") and "bytes)" not in what:
        what = f"{what} ({int(rec['bytesPerCall'])} bytes)"
    return _cell(lineno, what, count, micros)


def _rejoined(lines: list[str], i: int, line: str, taken: set[int]) -> tuple[dict | None, int]:
    """The cell of a ``Did`` line a mail client wrapped (``... (39735.4`` / ``ops/sec)``),
    joined with the lines after it that complete it, and how many lines those are."""
    text = line
    for k in range(1, _PIECES + 1):
        if i + k >= len(lines) or i + k in taken:
            break
        nxt = clean(lines[i + k])
        if not nxt or nxt.startswith("Did "):
            break
        text = f"{text} {nxt}"
        cell = _record(i + 1, text)
        if cell is not None:
            return cell, k
    return None, 0


def _json_records(lines: list[str], taken: set[int]
                  ) -> tuple[dict[int, list[dict[str, Any]]], set[int], list[int]]:
    """The ``-json`` records among ``lines``, however their lines are broken: one a line as
    bssl prints them, wrapped by a mail client (a record may end and the next begin on one
    line), or pretty-printed by ``jq .`` or ``python -m json.tool`` (a key a line).

    Returns the cells by the 0-based line their record starts on, the lines the records'
    blocks span, and the lines where a record with a count holds no whole record.
    """
    found: dict[int, list[dict[str, Any]]] = {}
    spanned: set[int] = set()
    bad: list[int] = []
    i, n = 0, len(lines)
    while i < n:
        if i in taken or '"description"' not in lines[i]:
            i += 1
            continue
        text, offsets, depth, j = "", [], 0, i
        while j < n and j not in taken:
            line = clean(lines[j]).strip()
            if not line or (j > i and depth <= 0 and '"description"' not in line
                            and not line.startswith(("{", "}", "]", ","))):
                break  # (the block ends where a line neither continues nor starts a record)
            if j == i and "{" not in line.partition('"description"')[0]:
                line = "{" + line  # (the brace alone on the line above: pretty-printed)
            offsets.append(len(text))
            text += line + " "
            depth += line.count("{") - line.count("}")
            j += 1
        spans: list[tuple[int, int]] = []
        for m in _JSON.finditer(text):
            at = i + bisect_right(offsets, m.start()) - 1
            cell = _json_cell(at + 1, m[0])
            if cell is not None:
                found.setdefault(at, []).append(cell)
                spans.append(m.span())
        starts = [a for a, _ in spans]
        for m in _COUNT.finditer(text):  # (a count outside every record read: one cut short)
            k = bisect_right(starts, m.start()) - 1
            if k < 0 or m.start() >= spans[k][1]:
                bad.append(i + bisect_right(offsets, m.start()) - 1)
        spanned.update(range(i, j))
        i = j
    return found, spanned, bad


def find_runs(lines: list[str], source: str, taken: set[int],
              unplaced: list[tuple[int, str]] | None = None) -> tuple[list[Run], set[int]]:
    """Every ``bssl speed`` run among ``lines`` (0-based indices in ``taken`` are skipped).

    A run is the records between two texts that are not records (a heading, prose, a
    ``bssl speed`` command), or from one record repeating a description of the run on.
    Returns the runs and the 0-based indices of the lines they took; a ``Did`` line that is
    no whole record, alone or with the lines after it, is appended to ``unplaced``.
    """
    blob = "\n".join(lines)
    if "Did " not in blob and ("{" not in blob or '"description"' not in blob):
        return [], set()
    runs = RecordRuns()
    used: set[int] = set()
    tool = None
    resume = 0
    records, in_json, cut_short = _json_records(lines, taken) if '"description"' in blob else ({}, set(), [])
    if unplaced is not None:
        unplaced += [(k + 1, lines[k]) for k in cut_short]
    if records:  # (a block of records takes its lines, but those of a record cut short)
        used |= in_json - set(cut_short)
    for i, raw in enumerate(lines):
        if i in taken or i < resume:
            continue
        if i in in_json:  # (a -json block: its records, and no prose)
            cells = records.get(i, [])
        else:
            line = clean(raw)
            cell = _record(i + 1, line) if line.startswith("Did ") else None
            if cell is None and _DID_START.match(line):
                cell, extra = _rejoined(lines, i, line, taken)
                if cell is None:
                    if unplaced is not None:
                        unplaced.append((i + 1, raw))
                    continue
                used.update(range(i + 1, i + 1 + extra))
                resume = i + 1 + extra
            if cell is None:
                if not line or line.startswith(("```", "~~~", "[", "]")):
                    continue
                t = TOOL_NAME.search(line)
                if t:
                    tool = "aws-lc" if t[1].lower().startswith("aws") else "boringssl"
                runs.text(None if _PROMPT.search(line) else line)
                continue
            cells = [cell]
        for cell in cells:
            key = (cell["algorithm"], cell["operation"], cell["block_bytes"], cell.get("key"))
            runs.add([cell], {key}, {"tool": tool or "bssl", "dialect": "bssl", "timing": "elapsed"})
            used.add(i)
    return runs.runs, used
