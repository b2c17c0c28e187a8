"""``gnutls-cli --benchmark-ciphers`` output -> runs of the tidy table.

Why this module exists: GnuTLS is the third C TLS library beside OpenSSL and the JDK, and its
benchmark prints its own shape::

    Checking AEAD ciphers, payload size: 16384
                 AES-128-GCM 5.72 GB/sec
    Checking cipher-MAC combinations, payload size: 16384
            AES-128-CBC-SHA1 0.94 GB/sec
    Checking MAC algorithms, payload size: 16384
                      SHA256 2.12 GB/sec
    Checking ciphers, payload size: 16384
                 AES-128-CBC 1.69 GB/sec

What the numbers mean, read from gnutls-cli 3.7.9's own code (``src/benchmark.c``, checked in the
Debian binary): units are decimal (``KB`` = 10^3 bytes ... ``GB`` = 10^9, chosen by the bytes
processed, not the rate), time is the process's CPU time (``CLOCK_PROCESS_CPUTIME_ID``), one
payload size per section. AEAD and cipher rows encrypt; cipher-MAC rows encrypt and MAC each
payload (``aes-128-cbc-hmac-sha1``, as OpenSSL names its stitched ciphers); the "MAC algorithms"
rows are HMACs (``SHA256`` -> ``hmac(sha256)``, the MAC of TLS's CBC suites), except the
GOST MACs that are MACs by themselves.

A run is one benchmark: a section name seen again starts the next run. A ``gnutls-cli X.Y.Z``
line (``gnutls-cli --version``, which :func:`cipherlab.capture_gnutls` writes atop each raw run)
gives ``tool_version``. Rows under a section header that hold a number but not ``<rate> <unit>/sec``
are returned as unplaced, so :func:`cipherlab.ingest` warns about them.

Examples
--------
>>> lines = ["Checking AEAD ciphers, payload size: 16384", "   AES-128-GCM 5.72 GB/sec",
...          "", "Checking MAC algorithms, payload size: 16384", "     SHA256 2.12 GB/sec"]
>>> runs, taken = find_runs(lines, "demo", set(), [])
>>> [(c["algorithm"], c["operation"], c["bytes_per_s"]) for c in runs[0].cells]
[('aes-128-gcm', 'encrypt', 5720000000.0), ('hmac(sha256)', 'digest', 2120000000.0)]
>>> sorted(taken), runs[0].meta["tool"], runs[0].meta["timing"]
([0, 1, 3, 4], 'gnutls', 'cpu')
"""

from __future__ import annotations

import re

from cipherlab.model import Run
from cipherlab.readers._names import canonical

__all__ = ["find_runs"]

_HEADER = re.compile(r"^\s*Checking (?P<section>AEAD ciphers|cipher-MAC combinations|"
                     r"MAC algorithms|ciphers), payload size: (?P<size>\d+)\s*$")
_ROW = re.compile(r"^\s*(?P<name>\S+)\s+(?P<value>\d+(?:\.\d+)?)\s+(?P<unit>bytes|KB|MB|GB)/sec\s*$")
_VERSION = re.compile(r"^\s*gnutls-cli (?P<version>\d+\.\d+\.\d+\S*)\s*$")
_UNITS = {"bytes": 1.0, "KB": 1e3, "MB": 1e6, "GB": 1e9}
_HASH_MAC = re.compile(r"^(?:SHA\d*|MD5|STREEBOG-\d+|GOSTR341194)$")
_CIPHER_MAC = re.compile(r"^(?P<cipher>.+?)-(?P<mac>SHA\d*|MD5)$")


def _algorithm(section: str, name: str) -> tuple[str, str]:
    if section == "MAC algorithms":
        return (f"hmac({name.lower()})" if _HASH_MAC.match(name) else name.lower()), "digest"
    if section == "cipher-MAC combinations":
        m = _CIPHER_MAC.match(name)
        if m:
            return f"{canonical(m['cipher'])[0]}-hmac-{m['mac'].lower()}", "encrypt"
        return name.lower(), "encrypt"
    return canonical(name)[0], "encrypt"


def find_runs(lines: list[str], source: str, skip: set[int],
              unplaced: list[tuple[int, str]]) -> tuple[list[Run], set[int]]:
    """Runs of ``gnutls-cli --benchmark-ciphers`` output in ``lines`` (one of ``_api.FINDERS``).

    Lines in ``skip`` (0-based) are another reader's. Returns the runs and the 0-based indices
    of the lines they took (headers, rows, version lines); rows under a header that hold
    numbers but do not read as ``NAME <rate> <unit>/sec`` go to ``unplaced`` as
    ``(1-based line, line)``.
    """
    runs: list[Run] = []
    taken: set[int] = set()
    if "payload size:" not in "\n".join(lines):
        return runs, taken
    version = None
    run: Run | None = None
    seen: set[str] = set()
    section, size = None, None
    for idx, line in enumerate(lines):
        if idx in skip:
            continue
        if "gnutls-cli" in line and (m := _VERSION.match(line)):
            version, run = m["version"], None  # a new invocation's output follows
            taken.add(idx)
            continue
        if "Checking" in line and (m := _HEADER.match(line)):
            section, size = m["section"], int(m["size"])
            if run is None or section in seen:
                run = Run({"tool": "gnutls", "tool_version": version, "timing": "cpu",
                           "dialect": "gnutls-cli"})
                runs.append(run)
                seen = set()
            seen.add(section)
            taken.add(idx)
            continue
        if section is None:
            continue
        if not line.strip():
            section = None  # a blank line ends a section
            continue
        m = _ROW.match(line)
        if m is None:
            if len(line.split()) == 1:
                taken.add(idx)  # a name without a rate: a benchmark cut short, nothing measured
            elif any(ch.isdigit() for ch in line):
                unplaced.append((idx + 1, line))
            continue
        algorithm, operation = _algorithm(section, m["name"])
        rate = float(m["value"]) * _UNITS[m["unit"]]
        run.cells.append({"line": idx + 1, "algorithm": algorithm, "name": m["name"],
                          "operation": operation, "block_bytes": size, "bytes_per_s": rate,
                          "ops_per_s": rate / size})
        taken.add(idx)
    return [r for r in runs if r.cells], taken
