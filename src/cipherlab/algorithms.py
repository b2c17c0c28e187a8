"""Facts about algorithms, in one place: what kind a canonical name is, and the order of colours.

Why a module of its own: the report, the statistics, the plots and the TLS prediction all ask the
same questions of an algorithm name ("is it an AEAD?", "is it AES?", "is it a public-key
operation?", "what does this TLS suite do per record?"). Each used to answer with its own regex
and they disagreed (one counted ChaCha20-Poly1305 as an AEAD, one did not). The names are
cipherlab's canonical ones (``readers._names``): ``aes-128-gcm``, ``chacha20-poly1305``,
``hmac(sha256)``, ``rsa2048``, ``ecdsa-p256``, ``x25519``, ``ml-kem-768``, ...

>>> from cipherlab import algorithms
>>> algorithms.is_aead("chacha20-poly1305"), algorithms.aead_loop_changed("chacha20-poly1305")
(True, False)
>>> algorithms.is_public_key("ecdsa-p256"), algorithms.is_aes("aes-256-cbc")
(True, True)
"""

from __future__ import annotations

import re
from typing import Any

from cipherlab.errors import UnsupportedAlgorithmError

__all__ = ["ALGORITHM_ORDER", "ALGORITHM_RANK", "GCM_CBC_PAIRS", "TLS_RECORD_BYTES",
           "aead_loop_changed", "is_aead", "is_aes", "is_public_key", "suite_primitives"]

#: Canonical algorithm names with a reserved colour, in the order of the colour cycle
#: (:data:`cipherlab.plots.COLORS`): the slot of a name is its position here.
ALGORITHM_ORDER: tuple[str, ...] = (
    "aes-128-gcm",
    "aes-128-cbc",
    "aes-256-gcm",
    "aes-256-cbc",
    "chacha20-poly1305",
    "aes-192-gcm",
    "aes-192-cbc",
    "sha256",
    "sha1",
    "md5",
    "sha512",
    "aes-128-ctr",
    "aes-256-ctr",
    "idea-cbc",
    "des-ede3",
    "rc4",
)

#: A known name's position in :data:`ALGORITHM_ORDER`: its colour slot, and its rank where the
#: well-known ciphers come first (the report's heatmap).
ALGORITHM_RANK: dict[str, int] = {name: i for i, name in enumerate(ALGORITHM_ORDER)}

#: The AEAD/CBC pairs whose per-call cost the small-block analysis compares (same key size).
GCM_CBC_PAIRS: tuple[tuple[str, str], ...] = (("aes-128-gcm", "aes-128-cbc"),
                                              ("aes-256-gcm", "aes-256-cbc"))

#: Largest TLS plaintext record (RFC 8446 §5.1, RFC 5246 §6.2.1): the size the record layer seals.
TLS_RECORD_BYTES = 16384

_AEAD_RE = re.compile(r"gcm|ccm|ocb|siv|poly1305")
# The modes whose `openssl speed` loop openssl PR #25823 changed (measurement-notes §1.3): one
# full init/IV/AAD/tag per message since 3.0.16/3.1.8/3.2.4/3.3.3/3.4. ChaCha20-Poly1305 is an
# AEAD but was not part of that change.
_AEAD_LOOP_RE = re.compile(r"gcm|ccm|ocb|siv")
_PUBLIC_KEY_RE = re.compile(
    r"^(rsa|dsa|ffdh)\d+$|^(ecdsa|ecdh|eddsa)-|^(x25519|x448|ed25519|ed448|sm2)$|"
    r"^(ml-kem|ml-dsa|slh-dsa|mlkem|mldsa|falcon|sphincs|frodo|kyber|dilithium|bike|hqc)|mlkem\d+$")


def is_aead(algorithm: object) -> bool:
    """True for authenticated encryption with associated data: GCM, CCM, OCB, SIV, *-Poly1305.

    >>> is_aead("aes-128-gcm"), is_aead("chacha20-poly1305"), is_aead("aes-128-cbc")
    (True, True, False)
    >>> is_aead("hmac(sha256)")
    False
    """
    return bool(_AEAD_RE.search(str(algorithm).lower()))


def aead_loop_changed(algorithm: object) -> bool:
    """True for the AEAD modes whose ``openssl speed`` loop changed in patch releases (PR #25823).

    >>> aead_loop_changed("aes-256-gcm"), aead_loop_changed("aes-128-ocb")
    (True, True)
    >>> aead_loop_changed("chacha20-poly1305"), aead_loop_changed("aes-128-cbc")
    (False, False)
    """
    return bool(_AEAD_LOOP_RE.search(str(algorithm).lower()))


def is_aes(algorithm: object) -> bool:
    """True for AES in any mode and key size (``aes-128-cbc``, ``aes-256-gcm``).

    >>> is_aes("aes-256-cbc"), is_aes("hmac(sha256)"), is_aes("ECDHE-ECDSA-AES128-SHA256")
    (True, False, False)
    """
    return str(algorithm).lower().startswith("aes-")


def is_public_key(algorithm: object) -> bool:
    """True for public-key algorithms: RSA, DSA, FFDH, EC(DSA/DH), X/Ed25519/448, SM2, ML-KEM/DSA.

    Their rows are operations per second (sign, verify, derive, encaps, ...), not throughput.

    >>> [is_public_key(a) for a in ("rsa2048", "ecdh-p256", "x25519", "ml-kem-768", "sha256")]
    [True, True, True, True, False]
    """
    return bool(_PUBLIC_KEY_RE.search(str(algorithm).lower()))


def suite_primitives(suite: str) -> dict[str, Any]:
    """What the record layer does per record for ``suite``, as ``openssl speed`` algorithm names.

    Returns ``{"kind": "aead", "cipher": ..., "mac": None}`` (one seal per record) or
    ``{"kind": "cbc-hmac", "cipher": ..., "mac": "hmac(sha256)"}`` (one HMAC and one CBC pass per
    record); the names are cipherlab's canonical ones (see ``readers._names``).

    Examples
    --------
    >>> suite_primitives("ECDHE-ECDSA-AES128-SHA256")
    {'kind': 'cbc-hmac', 'cipher': 'aes-128-cbc', 'mac': 'hmac(sha256)'}
    >>> suite_primitives("TLS_AES_256_GCM_SHA384")
    {'kind': 'aead', 'cipher': 'aes-256-gcm', 'mac': None}
    >>> suite_primitives("ECDHE-ECDSA-CHACHA20-POLY1305")["cipher"]
    'chacha20-poly1305'
    """
    s = suite.upper().replace("_", "-")
    if "CHACHA20" in s:
        return {"kind": "aead", "cipher": "chacha20-poly1305", "mac": None}
    m = re.search(r"AES-?(128|256)", s)
    if not m:
        raise UnsupportedAlgorithmError(
            f"suite must use AES-128/256 or ChaCha20-Poly1305 for a record-layer prediction; "
            f"not {suite!r}")
    bits = m.group(1)
    for mode in ("GCM", "CCM"):
        if re.search(rf"\b{mode}8?\b", s):  # CCM8: the same cipher with an 8-byte tag
            return {"kind": "aead", "cipher": f"aes-{bits}-{mode.lower()}", "mac": None}
    h = re.search(r"-SHA(1|256|384)?$", s)
    if not h:
        raise UnsupportedAlgorithmError(f"cannot tell the MAC of suite {suite!r}")
    return {"kind": "cbc-hmac", "cipher": f"aes-{bits}-cbc", "mac": f"hmac(sha{h.group(1) or '1'})"}
