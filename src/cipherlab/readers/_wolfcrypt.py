"""wolfSSL's benchmark (``wolfcrypt/benchmark/benchmark``) output -> runs of the tidy table.

Why this module exists: wolfSSL is the TLS library of embedded boards and firmware, and people
who compare it with OpenSSL paste its benchmark beside ``openssl speed``. It prints a record a
line, in one of three generations::

    wolfCrypt Benchmark (block bytes 1048576, min 1.0 sec each)
    AES-128-CBC-enc           1365 MiB took 1.002 seconds, 1362.280 MiB/s Cycles per byte = 2.10
    AES-128-GCM-enc-no_AAD    5430 MiB took 1.000 seconds, 5429.055 MiB/s
    RSA     2048   public    184200 ops took 1.000 sec, avg 0.005 ms, 184166.468 ops/sec
    ECDSA [      SECP256R1]   256     sign     92800 ops took 1.000 sec, avg 0.011 ms, 92764.520 ops/sec
    ED     25519   verify     47600 ops took 1.000 sec, avg 0.021 ms, 47581.591 ops/sec

(5.x; 4.x printed ``MB`` where 5.x prints ``MiB``, and ``ECDSA    256 sign``; 3.x printed
``AES      25 megs took 0.091 seconds, 275.695 MB/s`` and ``RSA 2048 encryption took  0.027
milliseconds, avg over 100 iterations``).

What the numbers mean: the rate is the printed one (the amount and the seconds beside it are
rounded to whole units and milliseconds: the rate is the more exact). ``MiB``/``KiB`` are
2^20/2^10 bytes; ``MB``/``KB`` are 10^6/10^3 in 5.5.4's code (its ``-base10``; ``mB``/``kB`` in
its threaded summary) and later, but earlier releases printed ``MB`` (and ``megs``) for 2^20
bytes: below a ``wolfSSL version`` line of 5.5.4 or later they are read as decimal, elsewhere
as decimal and flagged :data:`FLAG_UNIT_BASE` (5 % apart: never silently one of them). Time is elapsed (the
benchmark's ``current_time`` is the wall clock). The block size is the header's ``block
bytes`` (1 MiB unless ``-blocksize`` changed it); a run without that header has none.
``-enc``/``-dec`` name the operation; ``-no_AAD`` becomes the condition ``aad=no``. Public-key
rows give ``ops_per_s`` (3.x's milliseconds per operation are turned into operations per
second). An ``ECC``/``ECDHE``/``ECDSA`` row names its curve, or only its size, for which the
benchmark takes the NIST prime curve of that size (``wc_ecc_make_key``'s default); an ``ECC``
key generation, of ECDH and ECDSA keys alike, is filed as ``ecdsa-<curve>`` ``keygen``.

With ``-csv`` it prints the same measurements as two comma-separated sections, each under a
title and a header row (``Algorithm,MB/s,Cycles per byte,`` then ``AES-128-CBC-enc,182.097377,
13.596280,``; ``Algorithm,key size,operation,avg ms,ops/sec,`` then ``RSA,2048,public,0.036,
27752.961,``), one run. Its ``MB/s`` is 2^20 bytes unless ``-base10`` was given, the header the
same either way: the command line (``benchmark -csv [-base10]``) tells where the text holds it;
elsewhere the rate is read as decimal and flagged :data:`FLAG_UNIT_BASE` (:func:`_csv_unit`).
Names and operations are read as in the text form.

A ``wolfSSL version X.Y.Z`` line gives ``tool_version`` and starts a run, as does the
``wolfCrypt Benchmark`` header; otherwise runs start as for every record-a-line tool
(:class:`~cipherlab.readers._records.RecordRuns`). Lines that read like a record but are none
go to ``unplaced``.

Examples
--------
>>> lines = [" wolfSSL version 5.6.4", "wolfCrypt Benchmark (block bytes 1048576, min 1.0 sec each)",
...          "AES-128-GCM-enc           5405 MiB took 1.000 seconds, 5403.709 MiB/s",
...          "RSA     2048  private      3700 ops took 1.021 sec, avg 0.276 ms, 3624.981 ops/sec"]
>>> runs, taken = find_runs(lines, "demo", set(), [])
>>> [(c["algorithm"], c["operation"], c.get("block_bytes"), round(c.get("bytes_per_s") or c["ops_per_s"]))
...  for c in runs[0].cells]
[('aes-128-gcm', 'encrypt', 1048576, 5666199568), ('rsa2048', 'sign', None, 3625)]
>>> runs[0].meta["tool"], runs[0].meta["tool_version"], sorted(taken)
('wolfssl', '5.6.4', [0, 1, 2, 3])
"""

from __future__ import annotations

import re
from typing import Any

from cipherlab.model import Run
from cipherlab.readers._names import FLAG_NAME_UNCLEAR, canonical, is_known, pkey_algorithm
from cipherlab.readers._records import RecordRuns
from cipherlab.readers._text import clean
from cipherlab.readers._units import FLAG_UNIT_BASE, unit_only

__all__ = ["find_runs"]

_VERSION = re.compile(r"^\s*wolfSSL version (?P<version>\d+\.\d+\.\d+\S*)\s*$")
# The lines between its version line and its header, and its last: the math library it uses
_BANNER = re.compile(r"^\s*(?:Math:|Single Precision:|Multi-Precision:|Benchmark complete\s*$|"
                     r"This format allows you to easily copy the output to a csv file\.)")
_HEADER = re.compile(r"^\s*wolfCrypt Benchmark \((?:block bytes (?P<block>\d+), )?[^()]*\)\s*$")
# "AES-128-CBC-enc  1365 MiB took 1.002 seconds, 1362.280 MiB/s[ Cycles per byte = 2.10]"
_SYM = re.compile(r"^\s*(?P<name>\S(?:.*\S)?)\s+\d+(?:\.\d+)?\s+(?:[KMG]i?B|[kmg]B|bytes|megs|kB)"
                  r"\s+took\s+\d+(?:\.\d+)?\s+seconds?,\s+(?P<rate>\d+(?:\.\d+)?)\s+"
                  r"(?P<unit>[KMG]i?B|[kmg]B|bytes)/s(?:\s+Cycles per byte\s*=\s*[\d.]+)?\s*$")
# "RSA 2048 public 184200 ops took 1.000 sec, avg 0.005 ms, 184166.468 ops/sec"
_PK = re.compile(r"^\s*(?P<what>[A-Za-z][\w-]*(?:\s*\[[^\]]*\])?(?:\s+[\w-]+)*?)\s+\d+\s+ops\s+took\s+"
                 r"[\d.]+\s+sec,\s+avg\s+[\d.]+\s+ms,\s+(?P<rate>\d+(?:\.\d+)?)\s+ops/sec\s*$")
# 3.x: "RSA 2048 encryption took  0.027 milliseconds, avg over 100 iterations"
_PK_3X = re.compile(r"^\s*(?P<what>[A-Za-z][\w-]*(?:\s+[\w-]+)*?)\s+(?:took\s+)?(?P<ms>\d+(?:\.\d+)?)"
                    r"\s+milliseconds,\s+avg over\s+\d+\s+iterations\s*$")
# -csv: a section's title and header row, then "AES-128-CBC-enc,182.097377,13.596280," (a rate
# in the header's "MB/s" and the cycles per byte, which a build without a cycle counter leaves
# out) or "RSA,2048,public,0.036,27752.961," (milliseconds per operation, operations a second)
_CSV_TITLE = re.compile(r"^\s*(?:Symmetric|Asymmetric|Post Quantum Asymmetric) Ciphers:\s*$")
_CSV_HEADER = re.compile(r"^\s*Algorithm,(?:(?P<sym>MB/s,Cycles per byte)|key size,operation,avg ms,"
                         r"ops/sec),\s*$")
_CSV_SYM = re.compile(r"^\s*(?P<name>[^,\s][^,]*),(?P<rate>\d+(?:\.\d+)?),(?:\d+(?:\.\d+)?,)?\s*$")
_CSV_PK = re.compile(r"^\s*(?P<what>[^,\s][^,]*,\d+,[^,]+),\d+(?:\.\d+)?,(?P<rate>\d+(?:\.\d+)?),\s*$")
# The command line of a -csv run: its -base10 says in which base its "MB/s" are
_CSV_COMMAND = re.compile(r"\bbenchmark\b.*\s-csv\b")
# What shows a line is meant as a record (for unplaced): the words every record has.
_RECORDISH = re.compile(r"\btook\b.*\d|\d.*\bops/sec\b")
# The first release whose code was read to print MiB/KiB for 2^n and MB/KB for 10^n (5.5.4)
_IEC_SINCE = (5, 5, 4)
# wolfSSL's names for what openssl calls otherwise.
_ALIASES = {"sha": "sha1", "chacha": "chacha20", "cha-poly": "chacha20-poly1305", "rng": "rand"}
# Names of its own that are clear though openssl has none such (GMAC's GHASH table size follows)
_OWN = ("gmac", "pbkdf2")
_HMAC = re.compile(r"^hmac-(?P<hash>\w+)$")
_UNSIZED = re.compile(r"^(?:aes|aria|camellia)(?:-[a-z]+)?$")  # (a cipher of several key sizes)
# (name, operation) of wolfSSL's public-key operation words
_PK_OPS = {"key gen": "keygen", "key generation": "keygen", "agree": "derive",
           "key agreement": "derive", "public": "verify", "private": "sign", "encryption": "verify",
           "decryption": "sign", "sign": "sign", "verify": "verify", "encap": "encaps",
           "decap": "decaps", "sign time": "sign", "verify time": "verify"}
_PK_OP = re.compile(r"\s+(?P<op>key gen(?:eration)?|key agreement|agree|public|private|encryption|"
                    r"decryption|sign(?: time)?|verify(?: time)?|encap|decap)$")
_NIST = {"192": "p192", "224": "p224", "256": "p256", "384": "p384", "521": "p521"}


def _symmetric(name: str) -> tuple[str, str, dict[str, str], bool]:
    """``(algorithm, operation, conditions, clear)`` of a symmetric row's name.

    >>> _symmetric("AES-128-GCM-dec-no_AAD"), _symmetric("HMAC-SHA256")
    (('aes-128-gcm', 'decrypt', {'aad': 'no'}, True), ('hmac(sha256)', 'digest', {}, True))
    >>> _symmetric("CHA-POLY"), _symmetric("AES")
    (('chacha20-poly1305', 'encrypt', {}, True), ('aes', 'encrypt', {}, False))
    """
    conditions = {}
    low = name.lower()
    if low.endswith("-no_aad"):
        conditions["aad"], low = "no", low[: -len("-no_aad")]
    op = None
    for suffix, word in (("-enc", "encrypt"), ("-dec", "decrypt")):
        if low.endswith(suffix):
            op, low = word, low[: -len(suffix)]
    low = _ALIASES.get(low, low)
    if low.startswith(_OWN):
        algorithm, _, variant = low.partition(" ")
        return algorithm, "derive" if algorithm == "pbkdf2" else "digest", (
            {"implementation": variant} if variant else {}), True
    if m := _HMAC.match(low):
        low = f"hmac({_ALIASES.get(m['hash'], canonical(m['hash'])[0])})"
    algorithm, default = canonical(low)
    # (3.x's "AES" and "AES-GCM" name no key size: which one it was, the text cannot say)
    clear = is_known(algorithm) and not _UNSIZED.match(algorithm)
    return algorithm, op or default or "encrypt", conditions, clear


def _public_key(what: str) -> tuple[str, str, bool] | None:
    """``(algorithm, operation, clear)`` of a public-key row's description, None if none.

    >>> _public_key("ECDSA [      SECP256R1]   256     sign"), _public_key("ECDHE    256 agree")
    (('ecdsa-p256', 'sign', True), ('ecdh-p256', 'derive', True))
    >>> _public_key("CURVE  25519  key gen"), _public_key("DH      2048    agree")
    (('x25519', 'keygen', True), ('ffdh2048', 'derive', True))
    """
    m = _PK_OP.search(what)
    if m is None:
        return None
    op = _PK_OPS[m["op"]]
    curve = re.search(r"\[\s*([^\]\s]+)\s*\]", what)
    words = re.sub(r"\[[^\]]*\]", " ", what[:m.start()]).split()
    if not words:
        return None
    family, sizes = words[0].lower(), [w for w in words[1:] if w.isdigit()]
    size = sizes[0] if sizes else None
    if family in ("rsa", "dh"):
        return (f"{'ffdh' if family == 'dh' else 'rsa'}{size}" if size else family), op, size is not None
    if family in ("ecc", "ecdhe", "ec-dhe", "ecdh", "ecdsa", "ec-dsa"):
        kind = "ecdh" if "dh" in family or op == "derive" else "ecdsa"
        name = curve[1] if curve else _NIST.get(size or "")
        if name is None:
            return f"{kind}-{size or ''}".rstrip("-"), op, False
        return pkey_algorithm(kind, None, name), op, True
    if family in ("curve", "ed") and size in ("25519", "448"):
        return f"{'x' if family == 'curve' else 'ed'}{size}", op, True
    algorithm = canonical("-".join(w.lower() for w in words))[0]
    return algorithm, op, is_known(algorithm)


def _unit(unit: str, version: str | None) -> tuple[float, bool]:
    """Bytes in a printed unit, and whether the text tells which base it is in.

    >>> _unit("MiB", None), _unit("MB", None), _unit("MB", "5.5.4"), _unit("mB", None)
    ((1048576.0, True), (1000000.0, False), (1000000.0, True), (1000000.0, True))
    """
    scale = unit_only(unit[0].upper() + unit[1:] + "/s")  # (its threaded summary's "mB": MB)
    if "i" in unit or unit == "bytes":
        return scale, True
    return scale, unit[0].islower() or (version is not None and _release(version) >= _IEC_SINCE)


def _csv_unit(command: str | None) -> tuple[float, bool]:
    """Bytes in the ``MB`` of -csv's ``MB/s`` header, and whether the text tells which base.

    Its code prints the rate in 2^20 bytes unless ``-base10`` was given (5.5.4; earlier releases
    had no ``-base10`` and printed 2^20 bytes as ``MB``), under the same header: the command line
    tells, where it is in the text.

    >>> _csv_unit("$ ./wolfcrypt/benchmark/benchmark -csv"), _csv_unit(None)
    ((1048576.0, True), (1000000.0, False))
    """
    if command is None:
        return 1e6, False
    return (1e6 if "-base10" in command else float(2 ** 20)), True


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def _cell(lineno: int, line: str, block: int | None, version: str | None,
          csv: tuple[float, bool] | None = None) -> dict[str, Any] | None:
    """The cell of a record line (of a -csv section where ``csv`` gives its unit), None for no
    record."""
    if m := (_CSV_SYM.match(line) if csv else _SYM.match(line)):
        algorithm, op, conditions, clear = _symmetric(m["name"])
        scale, known = csv or _unit(m["unit"], version)
        rate = float(m["rate"]) * scale
        sized = block if op != "derive" else None  # (PBKDF2: bytes of key derived a second)
        cell = {"line": lineno, "algorithm": algorithm, "name": m["name"], "operation": op,
                "block_bytes": sized, "bytes_per_s": rate, "ops_per_s": rate / sized if sized else None,
                **conditions}
        flag = None if known else FLAG_UNIT_BASE
    else:
        m = _CSV_PK.match(line) if csv is not None else _PK.match(line) or _PK_3X.match(line)
        described = _public_key(m["what"].replace(",", " ")) if m else None  # (-csv's commas)
        if described is None:
            return None
        algorithm, op, clear = described
        ms = float(m["ms"]) if "ms" in m.groupdict() else None
        rate = float(m["rate"]) if ms is None else 1e3 / ms if ms else None
        cell = {"line": lineno, "algorithm": algorithm, "name": m["what"].strip(), "operation": op,
                "ops_per_s": rate}
        flag = None
    flag = flag if clear else FLAG_NAME_UNCLEAR  # (which algorithm, before in which unit)
    return {**cell, "flag": flag} if flag else cell


def find_runs(lines: list[str], source: str, skip: set[int],
              unplaced: list[tuple[int, str]]) -> tuple[list[Run], set[int]]:
    """Runs of wolfSSL's benchmark output in ``lines`` (one of ``_api.FINDERS``).

    Lines in ``skip`` (0-based) are another reader's. Returns the runs and the 0-based indices
    of the lines they took; a line that reads like a record but is none goes to ``unplaced``
    as ``(1-based line, line)``. A record whose name is unclear (3.x's ``AES``) is read only in
    a text that is wolfSSL's (a version or header line, or a record with a clear name):
    ``Copied 100 MB took 2.000 seconds, 50.000 MB/s`` alone is another program's.
    """
    text = "\n".join(lines)
    if " took " not in text and "Algorithm," not in text:  # (a cheap look before the lines)
        return [], set()
    events: list[tuple[int, str, Any, str]] = []  # (index, "fact" | "cell" | "text", what, line)
    version, block, command, csv = None, None, None, None  # (csv: the -csv section's unit)
    for idx, raw in enumerate(lines):
        line = clean(raw) if idx not in skip else ""
        if not line.strip() or line.startswith(("```", "~~~", "---")):
            csv = csv if line.strip() else None  # (a blank line ends a -csv section)
            continue
        if m := _VERSION.match(line):
            version, block = m["version"], None  # (a new invocation's output follows)
        elif m := _HEADER.match(line):
            block = int(m["block"]) if m["block"] else None
        elif _BANNER.match(line) and events and events[-1][1] in ("fact", "banner"):
            events.append((idx, "banner", None, line))  # (its math library: taken, no caption)
            continue
        elif (h := _CSV_HEADER.match(line)) or _CSV_TITLE.match(line):
            csv = (_csv_unit(command) if h["sym"] else ()) if h else None
            events.append((idx, "csv", None, line))  # (a section of one run: no caption)
            continue
        elif _CSV_COMMAND.search(line):
            command = line
        cell = None if m else _cell(idx + 1, line, block, version, csv)
        csv = csv if cell else None  # (a section ends at its first line that is no row)
        events.append((idx, *(("fact", version) if m else ("cell", cell) if cell else ("text", None)), line))
    ours = any(kind in ("fact", "csv") or (kind == "cell" and what.get("flag") != FLAG_NAME_UNCLEAR)
               for _, kind, what, _ in events)
    runs = RecordRuns(command="benchmark")
    taken: set[int] = set()
    for idx, kind, what, line in events:
        if kind == "fact":
            version = what
            runs.text()
            taken.add(idx)
        elif kind in ("banner", "csv"):
            taken.add(idx)
        elif kind == "cell" and ours:
            taken.add(idx)
            key = (what["algorithm"], what["operation"], what.get("aad"), what["name"])
            runs.add([what], {key}, {"tool": "wolfssl", "tool_version": version, "timing": "elapsed",
                                     "dialect": "wolfcrypt benchmark"})
        elif ours and _RECORDISH.search(line):
            unplaced.append((idx + 1, lines[idx]))
        else:
            runs.text(line)
    return runs.runs, taken
