"""``cryptsetup benchmark`` output -> runs of the tidy table.

Why this module exists: people who ask whether AES-NI is on paste ``cryptsetup benchmark``
beside ``openssl speed``; it measures the *kernel's* ciphers (what dm-crypt and LUKS use), so
it answers another question than openssl does, and its table has its own shape::

    # Tests are approximate using memory only (no storage IO).
    PBKDF2-sha256    2471278 iterations per second for 256-bit key
    argon2id      6 iterations, 1048576 memory, 4 parallel threads (CPUs) for 256-bit key (requested 2000 ms time)
    #     Algorithm |       Key |      Encryption |      Decryption
            aes-cbc        128b      1246.7 MiB/s      3758.2 MiB/s
            aes-xts        512b      2720.2 MiB/s      2720.9 MiB/s

What the numbers mean, read from cryptsetup 2.6.1's own code (``src/cryptsetup.c``,
``lib/crypto_backend/cipher_check.c``; the Debian source package): a row is
``"%15s  %9zub  %10.1f MiB/s  %10.1f MiB/s"`` (1.x printed the same fields narrower), MiB is
2^20 bytes, time is elapsed (``CLOCK_MONOTONIC_RAW``), and the kernel's crypto API (AF_ALG)
encrypts then decrypts a buffer of at least 1 MiB in requests of 64 KiB
(``CIPHER_BLOCK_BYTES``): ``block_bytes`` is 65536. The ``Key`` column is the whole key:
XTS splits it into two keys of half the size, so ``aes-xts 512b`` is ``aes-256-xts``, and
``aes-cbc 128b`` is ``aes-128-cbc``. Rows of ciphers the kernel lacks print ``N/A`` (nothing
measured: no cell). The numbers are printed in the user's locale (``1246,7 MiB/s``).

A ``PBKDF2-<hash>`` line is a rate too: iterations per second deriving a key of the stated size
(``ops_per_s`` of ``pbkdf2(sha256)``, operation ``derive``, ``key_bits`` a condition). An
``argon2`` line gives the parameters cryptsetup chose for its time budget, no rate: it is taken,
not read. A ``cryptsetup 2.6.1 flags: ...`` line (``cryptsetup --version``) gives
``tool_version``. A run is one benchmark: the ``# Tests are approximate`` line, prose between
records, or a row seen again opens the next; its label is the last line of prose above it that
can be one, as for ``bssl speed``. Lines below a header that hold numbers but no row go to
``unplaced``.

Examples
--------
>>> lines = ["# Tests are approximate using memory only (no storage IO).",
...          "PBKDF2-sha256    2471278 iterations per second for 256-bit key",
...          "#     Algorithm |       Key |      Encryption |      Decryption",
...          "        aes-xts        512b      2720.2 MiB/s      2720.9 MiB/s"]
>>> runs, taken = find_runs(lines, "demo", set(), [])
>>> [(c["algorithm"], c["operation"], c.get("block_bytes"), c.get("bytes_per_s") or c["ops_per_s"])
...  for c in runs[0].cells]  # doctest: +NORMALIZE_WHITESPACE
[('pbkdf2(sha256)', 'derive', None, 2471278.0),
 ('aes-256-xts', 'encrypt', 65536, 2852336435.2), ('aes-256-xts', 'decrypt', 65536, 2853070438.4)]
>>> sorted(taken), runs[0].meta["tool"], runs[0].meta["timing"]
([0, 1, 2, 3], 'cryptsetup', 'elapsed')
"""

from __future__ import annotations

import re

from cipherlab.model import Run
from cipherlab.readers._records import RecordRuns
from cipherlab.readers._text import clean

__all__ = ["BLOCK_BYTES", "find_runs"]

#: Bytes per request of cryptsetup's cipher benchmark (``CIPHER_BLOCK_BYTES``).
BLOCK_BYTES = 65536
_MIB = 2.0 ** 20
_NUMBER = r"\d+(?:[.,]\d+)?"  # (%.1f in the user's locale: a decimal comma in de_DE)
_ROW = re.compile(rf"^\s*(?P<cipher>[\w,]+)-(?P<mode>\w+)\s+(?P<bits>\d+)b\s+"
                  rf"(?:(?P<enc>{_NUMBER})\s*MiB/s\s+(?P<dec>{_NUMBER})\s*MiB/s|(?P<na>\S+)\s+(?P=na))\s*$")
_HEADER = re.compile(r"^\s*#[^|]*\|[^|]*\|[^|]*\|[^|]*\S\s*$")  # (translated: any words)
# (translated: "1927529 Iterationen pro Sekunde für 256-Bit-Schlüssel"; 1.x names no key size)
_PBKDF2 = re.compile(r"^\s*PBKDF2-(?P<hash>[\w-]+)\s+(?:(?P<rate>\d+)\s+[^\W\d]+[^\d]*"
                     r"(?:(?P<bits>\d+)[^\d]*)?|N/\w+)\s*$")
_ARGON2 = re.compile(r"^\s*argon2i?d?\s+(?:\d+\s+\w+, .*\)|N/\w+)\s*$")
# The comment cryptsetup prints first ("# Tests are approximate using memory only (no storage
# IO)." in English): a sentence after '#', right above a record or the header.
_START = re.compile(r"^\s*#\s+\w.*\.\s*$")
_VERSION = re.compile(r"^\s*cryptsetup (?P<version>\d+\.\d+(?:\.\d+)?\S*)(?:\s+flags:.*)?\s*$")
# Ciphers whose key size varies: the size goes into the name (``aes-256-xts``); others keep theirs.
_SIZED = {"aes", "serpent", "twofish", "camellia", "aria", "cast6", "mars", "rc6"}


def _algorithm(cipher: str, mode: str, bits: int) -> tuple[str, dict[str, int]]:
    """The canonical name of a row's cipher, and the conditions its name cannot hold.

    >>> _algorithm("aes", "xts", 512), _algorithm("twofish", "cbc", 128)
    (('aes-256-xts', {}), ('twofish-128-cbc', {}))
    >>> _algorithm("xchacha12,aes", "adiantum", 256)
    ('xchacha12,aes-adiantum', {'key_bits': 256})
    """
    cipher, mode = cipher.lower(), mode.lower()
    if cipher not in _SIZED:
        return f"{cipher}-{mode}", {"key_bits": bits}
    return f"{cipher}-{bits // 2 if mode == 'xts' else bits}-{mode}", {}


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def _cells(idx: int, line: str) -> list[dict] | None:
    """The cells of a record line (none for ``N/A`` and ``argon2`` lines), None for no record."""
    if m := _ROW.match(line):
        if m["na"] is not None:
            return [] if m["na"].isalpha() or "/" in m["na"] else None  # N/A, translated
        algorithm, extra = _algorithm(m["cipher"], m["mode"], int(m["bits"]))
        name = f"{m['cipher']}-{m['mode']} {m['bits']}b"
        return [{"line": idx + 1, "algorithm": algorithm, "name": name, "operation": op,
                 "block_bytes": BLOCK_BYTES, "bytes_per_s": _number(m[key]) * _MIB,
                 "ops_per_s": _number(m[key]) * _MIB / BLOCK_BYTES, **extra}
                for op, key in (("encrypt", "enc"), ("decrypt", "dec"))]
    if m := _PBKDF2.match(line):
        if m["rate"] is None:
            return []
        extra = {"key_bits": int(m["bits"])} if m["bits"] else {}
        return [{"line": idx + 1, "algorithm": f"pbkdf2({m['hash'].lower()})",
                 "name": f"PBKDF2-{m['hash']}", "operation": "derive",
                 "ops_per_s": float(m["rate"]), **extra}]
    return [] if _ARGON2.match(line) else None


def _above_output(lines: list[str], idx: int) -> bool:
    """Whether line ``idx`` is a record of cryptsetup's benchmark or its header."""
    line = clean(lines[idx]) if idx < len(lines) else ""
    return any(p.match(line) for p in (_PBKDF2, _ARGON2, _HEADER, _ROW))


def find_runs(lines: list[str], source: str, skip: set[int],
              unplaced: list[tuple[int, str]]) -> tuple[list[Run], set[int]]:
    """Runs of ``cryptsetup benchmark`` output in ``lines`` (one of ``_api.FINDERS``).

    Lines in ``skip`` (0-based) are another reader's. Returns the runs and the 0-based indices
    of the lines they took; a line under a header that holds numbers but no row goes to
    ``unplaced`` as ``(1-based line, line)``.
    """
    blob = "\n".join(lines)
    if "MiB/s" not in blob and "PBKDF2-" not in blob:  # (a cheap look before the lines)
        return [], set()
    runs = RecordRuns(command="cryptsetup")
    taken: set[int] = set()
    version = None
    in_table = started = False  # started: a benchmark's first line was just seen

    for idx, raw in enumerate(lines):
        if idx in skip:
            continue
        line = clean(raw)
        if not line.strip():
            in_table = False  # (rows are rows anywhere: the table only says what else is data)
            continue
        if "cryptsetup" in line and (m := _VERSION.match(line)):
            version = m["version"]  # a new invocation's output follows
            runs.text()
            taken.add(idx)
            continue
        if _START.match(line) and _above_output(lines, idx + 1):
            started = True
            runs.text()
            taken.add(idx)
            continue
        cells = _cells(idx, line)
        if cells is None:
            if in_table and _HEADER.match(line) is None and any(ch.isdigit() for ch in line):
                unplaced.append((idx + 1, raw))
            elif _HEADER.match(line) and ("Algorithm" in line or runs.runs or started):
                in_table = True
                taken.add(idx)
                continue
            else:
                in_table, started = False, False
                runs.text(line)
            continue
        taken.add(idx)
        started = False
        keys = {(c["algorithm"], c["operation"], c.get("key_bits")) for c in cells}
        runs.add(cells, keys, {"tool": "cryptsetup", "tool_version": version, "timing": "elapsed",
                               "dialect": "cryptsetup benchmark"})
    return [r for r in runs.runs if r.cells], taken
