"""The JSSE side of :func:`cipherlab.capture_tls` (``backend="jsse"``): the seed's experiment on
the JDK itself.

Why this module exists: the OpenJDK seed measured Java's TLS stack, not OpenSSL's, so the Python
backend of ``capture_tls`` answers a neighbouring question. Here the two processes are
``runners/java/cipherlab/TlsPeer.java`` (a server that receives and times first byte to last, a
client that writes in 1 MiB buffers, as the seed's ``Server.java``/``Client.java``), run under the
JVM conditions of :mod:`cipherlab.runners._jvm`; everything else (the plan, the bounds, the
reaping of both processes, the capture folder) is ``capture_tls``'s own.

Suites are JSSE's (IANA) names: ``TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256``. The throw-away
certificate is ECDSA P-256, so TLS 1.2 ``*_ECDHE_ECDSA_*`` suites and the TLS 1.3 suites can run;
the seed's own GCM suite, static ``TLS_ECDH_ECDSA_WITH_AES_128_GCM_SHA256``, is refused by every
current JDK (``ECDH`` is in ``jdk.tls.disabledAlgorithms``), and its ECDHE twin has the same
record layer. The key pair lives in a PKCS#12 keystore written with ``cryptography`` in the
capture's temporary directory (random password), deleted on every exit path with it.
"""

from __future__ import annotations

import functools
import json
import re
import secrets
import subprocess
from pathlib import Path
from typing import Iterable

from cipherlab.errors import CaptureError, UnsupportedAlgorithmError
from cipherlab.runners._jvm import Jdk, java_command

__all__ = ["DEFAULT_SUITES", "jsse_suites", "make_keystore", "resolve_suites"]

#: The seed's two suites, with ephemeral ECDH (the static-ECDH one is disabled in today's JDKs).
DEFAULT_SUITES = ("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
                  "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256")
_TLS13 = ("TLS_AES_", "TLS_CHACHA20_")


@functools.lru_cache(maxsize=8)
def _suites_report(jdk: Jdk) -> dict:
    cmd = java_command(jdk, None, "TlsPeer", ["suites"])
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise CaptureError(f"{jdk.java} did not list its TLS suites within 120 s") from None
    for line in proc.stdout.splitlines():
        rec = json.loads(line) if line.startswith("{") else {}
        if rec.get("event") == "suites":
            return rec
    raise CaptureError(f"{jdk.java} could not list its TLS suites (exit {proc.returncode}): "
                       f"{(proc.stderr.strip().splitlines() or ['no output'])[0]}")


def _runnable(name: str) -> bool:
    return name.startswith(_TLS13) or "_ECDHE_ECDSA_" in name


def jsse_suites(jdk: Jdk) -> list[str]:
    """The suites this JDK enables by default that the ECDSA certificate can run, TLS 1.2 first."""
    enabled = _suites_report(jdk)["enabled"]
    return sorted((s for s in enabled if _runnable(s)), key=lambda s: (s.startswith(_TLS13), s))


def resolve_suites(suites: Iterable[str] | str | None, jdk: Jdk):
    """JSSE suite names -> :class:`~cipherlab.runners._tls.TlsSuite`, or a clear refusal."""
    from cipherlab.runners._tls import TlsSuite, suite_list
    suites = suite_list(suites, DEFAULT_SUITES)
    report = _suites_report(jdk)
    runnable = jsse_suites(jdk)
    out = []
    for s in suites:
        name = str(s).strip().upper()
        if name in runnable:
            out.append(TlsSuite(name, "1.3" if name.startswith(_TLS13) else "1.2", name))
            continue
        blocked = _disabled_part(name, report.get("disabled_algorithms") or "")
        if blocked:
            why = (f"JDK {jdk.version} refuses TLS suite {name}: {blocked!r} is in its "
                   f"jdk.tls.disabledAlgorithms ({report.get('disabled_algorithms')})")
        elif name in report["enabled"]:
            why = (f"JDK {jdk.version} offers {name}, but capture_tls cannot run it: its "
                   f"throw-away certificate is ECDSA P-256, so only *_ECDHE_ECDSA_* and TLS 1.3 "
                   f"suites can be negotiated")
        else:
            why = f"JDK {jdk.version} does not know TLS suite {name!r} (JSSE spells suites the IANA way)"
        raise UnsupportedAlgorithmError(f"{why}. Suites that can run here: {', '.join(runnable)}")
    return out


def _disabled_part(suite: str, disabled: str) -> str | None:
    """The entry of ``jdk.tls.disabledAlgorithms`` that rules out ``suite`` (JSSE drops disabled
    suites from every list it offers, so the name alone must say why), or None."""
    m = re.match(r"^(?:TLS|SSL)_(?P<kx>.+?)_WITH_(?P<cipher>.+)_(?P<mac>[A-Z0-9]+)$", suite)
    if m is None:
        return None
    parts = {*m["kx"].split("_"), m["kx"], m["cipher"], *m["cipher"].split("_"), m["mac"]}
    names = {p.upper() for p in parts}
    for entry in map(str.strip, disabled.split(",")):
        if entry and " " not in entry and entry.upper() in names:  # "DH keySize < 1024": a limit
            return entry
    return None


def make_keystore(folder: Path, cert: Path, key: Path) -> tuple[Path, str]:
    """A PKCS#12 keystore holding ``key`` and ``cert`` (PEM files), with a random password."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12

    password = secrets.token_hex(16)
    blob = pkcs12.serialize_key_and_certificates(
        b"cipherlab", serialization.load_pem_private_key(key.read_bytes(), None),
        x509.load_pem_x509_certificate(cert.read_bytes()), None,
        serialization.BestAvailableEncryption(password.encode()))
    path = folder / "keystore.p12"
    path.touch(mode=0o600)
    path.write_bytes(blob)
    return path, password
