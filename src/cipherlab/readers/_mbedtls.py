"""mbed TLS's (and PolarSSL's) benchmark (``programs/test/benchmark``) output -> runs.

Why this module exists: mbed TLS is the TLS library of microcontrollers and of many embedded
Linux builds, and its benchmark is pasted beside ``openssl speed`` when people compare the two.
It prints a record a line (``"  %-24s :  "`` then the rate)::

      SHA-256                  :     211843 KiB/s,         11 cycles/byte
      AES-GCM-128              :     762938 KiB/s,          3 cycles/byte
      RSA-2048                 :      1234 private/s
      ECDSA-secp256r1          :      3456 sign/s
      ECDHE-secp256r1          :      1789 handshake/s

What the numbers mean, read from the program's code (``programs/test/benchmark.c``, 2.x and
3.x; PolarSSL 1.x's is the same loop): a symmetric rate is ``i * BUFSIZE / 1024`` for the ``i``
buffers of ``BUFSIZE`` (1024) bytes done in one second of an alarm, so KiB/s (2^10 bytes;
PolarSSL printed the same number as ``Kb/s``: kibibytes, not kilobits), the block size 1024 and
the time elapsed. The cycles per byte beside it come from the TSC: a cost, not read. A
public-key rate is operations per second over three seconds. ``public``/``private`` are RSA's
raw public and private operations (verify and sign, as openssl's ``rsa`` table calls them);
an ``ECDHE``/``DHE`` "handshake" makes a key pair and derives the secret (``derive`` with the
condition ``key=ephemeral``), an ``ECDH``/``DH`` one derives it from fixed keys (``derive``,
as openssl's ``ecdh`` rows), a "full handshake" does both sides of an ECDHE exchange
(``handshake=full``); ``ECDHE-Curve25519`` measures x25519 a second time, through the low-level
ECP functions (``api=ecp``). Names become openssl's (``AES-CBC-128`` -> ``aes-128-cbc``,
``AES-CMAC-128`` -> ``cmac(aes-128-cbc)``); ``CTR_DRBG (PR)`` is ``ctr-drbg`` with
``prediction_resistance=yes``. A ``FAILED`` or ``Feature Not Available`` record measured
nothing. The program prints no version: a line or a sentence naming one (``mbed TLS 3.6.0``,
``Mbed TLS``, ``PolarSSL``) gives the ``tool_version`` of the records below it. Runs start as
for every record-a-line tool (:class:`~cipherlab.readers._records.RecordRuns`).

Examples
--------
>>> lines = ["  AES-CBC-128              :    1006433 KiB/s,          2 cycles/byte",
...          "  RSA-2048                 :      1234 private/s"]
>>> runs, taken = find_runs(lines, "demo", set(), [])
>>> [(c["algorithm"], c["operation"], c.get("block_bytes"), c.get("bytes_per_s") or c["ops_per_s"])
...  for c in runs[0].cells]
[('aes-128-cbc', 'encrypt', 1024, 1030587392.0), ('rsa2048', 'sign', None, 1234.0)]
>>> runs[0].meta["tool"], runs[0].meta["timing"], sorted(taken)
('mbedtls', 'elapsed', [0, 1])
"""

from __future__ import annotations

import re
from typing import Any

from cipherlab.model import Run
from cipherlab.readers._names import (FLAG_NAME_UNCLEAR, canonical, canonical_operation, is_known,
                                      pkey_algorithm)
from cipherlab.readers._records import RecordRuns
from cipherlab.readers._text import clean

__all__ = ["BLOCK_BYTES", "find_runs"]

#: Bytes per buffer of mbed TLS's symmetric benchmark (``BUFSIZE``).
BLOCK_BYTES = 1024
_NAME = r"^\s*(?P<name>\S(?:[^:]*\S)?)\s*:\s+"
_SYM = re.compile(_NAME + r"(?P<rate>\d+)\s+(?:KiB|Kb|KB)/s,\s+\d+\s+cycles/byte\s*$")
_PK = re.compile(_NAME + r"(?P<rate>\d+)\s+(?P<op>public|private|sign|verify|(?:full )?handshake|"
                 r"keygen|encap|decap|encaps|decaps)/s\b")
_FAILED = re.compile(_NAME + r"(?:FAILED\b|Feature Not Available|.*not available)", re.IGNORECASE)
# (the program prints none: a line or a sentence naming one, "Both are mbed TLS 3.5.2 built ...")
_VERSION = re.compile(r"\b(?:mbed\s*TLS|PolarSSL)\s+(?:version\s+)?v?(?P<version>\d+\.\d+\.\d+)\b",
                      re.IGNORECASE)
# "AES-CBC-128", "CAMELLIA-CBC-256", "AES-CFB128-128": cipher, mode, key bits
_MODE_LAST = re.compile(r"^(?P<cipher>aes|aria|camellia|blowfish)-(?P<mode>[a-z]+?)(?:128)?-(?P<bits>\d+)$")
_CMAC = re.compile(r"^(?P<cipher>aes|3des|des)-cmac(?:-prf)?(?:-(?P<bits>\d+))?$")
_DRBG = re.compile(r"^(?P<kind>ctr|hmac)_drbg(?:\s+(?P<hash>[\w-]+))?\s*\((?P<pr>no)?pr\)$")
# The Montgomery curves as 2.x's benchmark names them when it measures them a second time,
# through mbedtls_ecdh_gen_public and _compute_shared (the first time they are "x25519").
_LOW_LEVEL = {"curve25519": "x25519", "curve448": "x448"}
_PK_NAME = re.compile(r"^(?P<family>rsa|dhe|dh|ecdsa|ecdhe|ecdh)-(?P<param>[\w-]+)$")


def _symmetric(name: str) -> tuple[str, str, dict[str, str]]:
    """``(algorithm, operation, conditions)`` of a symmetric record's name.

    >>> _symmetric("AES-CFB128-128"), _symmetric("3DES-CMAC")
    (('aes-128-cfb', 'encrypt', {}), ('cmac(des-ede3-cbc)', 'digest', {}))
    >>> _symmetric("HMAC_DRBG SHA-256 (NOPR)"), _symmetric("BLOWFISH-CBC-192")
    ... # doctest: +NORMALIZE_WHITESPACE
    (('hmac-drbg(sha256)', 'generate', {'prediction_resistance': 'no'}),
     ('bf-cbc', 'encrypt', {'key_bits': 192}))
    """
    low = name.lower()
    if m := _DRBG.match(low):
        what = "ctr-drbg" if m["kind"] == "ctr" else f"hmac-drbg({canonical(m['hash'] or 'sha256')[0]})"
        return what, "generate", {"prediction_resistance": "no" if m["pr"] else "yes"}
    if m := _CMAC.match(low):
        cipher = "des-ede3-cbc" if m["cipher"] == "3des" else (
            "des-cbc" if m["cipher"] == "des" else f"aes-{m['bits'] or 128}-cbc")
        return f"cmac({cipher})", "digest", {}
    if m := _MODE_LAST.match(low):
        if m["cipher"] == "blowfish":  # (one name for every key size: the size is a condition)
            return canonical(f"bf-{m['mode']}")[0], "encrypt", {"key_bits": int(m["bits"])}
        low = f"{m['cipher']}-{m['bits']}-{m['mode']}"
    algorithm, op = canonical(low)
    return algorithm, op or "encrypt", {}


def _public_key(name: str, op: str) -> tuple[str, str, dict[str, str]] | None:
    """``(algorithm, operation, conditions)`` of a public-key record, None for an unknown name.

    >>> _public_key("ECDHE-x25519", "handshake"), _public_key("RSA-2048", "public")
    (('x25519', 'derive', {'key': 'ephemeral'}), ('rsa2048', 'verify', {}))
    >>> _public_key("ECDH-Curve25519", "handshake"), _public_key("ECDHE-secp256r1", "full handshake")
    (('x25519', 'derive', {'api': 'ecp'}), ('ecdh-p256', 'derive', {'key': 'ephemeral', 'handshake': 'full'}))
    """
    m = _PK_NAME.match(name.lower())
    if m is None:
        return None
    family, param = m["family"], m["param"]
    conditions = {"key": "ephemeral"} if family in ("dhe", "ecdhe") else {}
    if op == "full handshake":  # (both sides: parameters, both public keys, both secrets)
        conditions["handshake"] = "full"
    if param in _LOW_LEVEL:  # (x25519 again, through the ECP functions rather than ECDH's)
        conditions["api"] = "ecp"
    operation = "derive" if op.endswith("handshake") else canonical_operation(op)
    if family == "rsa":
        return f"rsa{param}", operation, conditions
    if family in ("dh", "dhe"):
        return f"ffdh{param}", operation, conditions
    curve = _LOW_LEVEL.get(param, param)
    return pkey_algorithm("ecdsa" if family == "ecdsa" else "ecdh", None, curve), operation, conditions


def _cell(lineno: int, line: str) -> dict[str, Any] | None:
    """The cell of a record line; ``{}`` for a record that measured nothing; None for none."""
    if m := _SYM.match(line):
        algorithm, op, conditions = _symmetric(m["name"])
        rate = float(m["rate"]) * 1024
        cell = {"line": lineno, "algorithm": algorithm, "name": m["name"], "operation": op,
                "block_bytes": BLOCK_BYTES, "bytes_per_s": rate, "ops_per_s": rate / BLOCK_BYTES,
                **conditions}
    elif (m := _PK.match(line)) and (described := _public_key(m["name"], m["op"])):
        algorithm, op, conditions = described
        cell = {"line": lineno, "algorithm": algorithm, "name": m["name"], "operation": op,
                "ops_per_s": float(m["rate"]), **conditions}
    else:
        return None
    return cell if is_known(algorithm) or "drbg" in algorithm else {**cell, "flag": FLAG_NAME_UNCLEAR}


def find_runs(lines: list[str], source: str, skip: set[int],
              unplaced: list[tuple[int, str]]) -> tuple[list[Run], set[int]]:
    """Runs of mbed TLS's benchmark output in ``lines`` (one of ``_api.FINDERS``).

    Lines in ``skip`` (0-based) are another reader's. Returns the runs and the 0-based indices
    of the lines they took (records, failed records, version lines).
    """
    if "cycles/byte" not in "\n".join(lines):  # (a cheap look: every symmetric record has it)
        return [], set()
    runs = RecordRuns(command="benchmark")
    taken: set[int] = set()
    version = None
    for idx, raw in enumerate(lines):
        if idx in skip:
            continue
        line = clean(raw)
        if not line.strip() or line.startswith(("```", "~~~")):
            continue
        cell = _cell(idx + 1, line)
        if cell is None and (m := _VERSION.search(line)):
            version = m["version"]  # (for the records below it)
            if _VERSION.fullmatch(line.strip()):
                runs.text()  # (a line of its own: no caption either)
                taken.add(idx)
                continue
        if cell is None:
            if runs.runs and _FAILED.match(line):
                taken.add(idx)  # (a record that measured nothing: the run goes on)
            else:
                runs.text(line)
            continue
        taken.add(idx)
        key = (cell["name"], cell["operation"], cell.get("handshake"))  # (a record as printed again)
        runs.add([cell], {key}, {"tool": "mbedtls", "tool_version": version, "timing": "elapsed",
                                 "dialect": "mbedtls benchmark"})
    return runs.runs, taken
