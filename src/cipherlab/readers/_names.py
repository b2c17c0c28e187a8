"""Canonical algorithm and operation names.

Why this module exists: the same cipher is printed under many names across twenty years of
``openssl speed`` (``aes-128 cbc`` up to 1.1.1, ``aes-128-cbc`` in 3.x, ``AES-128-CBC`` as a 3.x
EVP provider name, ``AES-128 CBC`` in wiki tables), and public-key rows spell key sizes and curves
in prose (``256 bits ecdsa (nistp256)``, ``4.0``'s ``EC (prime256v1)``). Analyses group by
``algorithm``, so every reader maps what it saw to one spelling here; the name as printed is kept
in the ``name`` column.

Canonical spellings are lowercase EVP-style names (``aes-128-cbc``, ``des-ede3-cbc``, ``bf-cbc``,
``sha256``, ``ripemd160``, ``hmac(sha256)``), public-key algorithms fused with their size or
curve (``rsa2048``, ``dsa1024``, ``ecdsa-p256``, ``ecdh-p256``, ``x25519``, ``ed25519``, ``sm2``,
``ffdh2048``) and KEM/signature provider names lowercased (``ml-kem-768``).

Operations (:data:`OPERATIONS`): ``encrypt``, ``decrypt``, ``digest`` (hashes and MACs),
``sign``, ``verify``, ``derive`` (ECDH/FFDH), ``keygen``, ``encaps``, ``decaps``, ``transfer``
(TLS) and ``generate`` (openssl's ``rand`` row: random bytes).

Examples
--------
>>> canonical("aes-128 cbc")
('aes-128-cbc', 'encrypt')
>>> canonical("AES-128-GCM")
('aes-128-gcm', 'encrypt')
>>> canonical("SHA-256")
('sha256', 'digest')
>>> canonical("rsa 2048 bits", "sign/s")
('rsa2048', 'sign')
>>> canonical("256 bits ecdsa (nistp256)")
('ecdsa-p256', None)
>>> canonical(" 253 bits ecdh (X25519)")
('x25519', 'derive')
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["FLAG_NAME_UNCLEAR", "NO", "OPERATIONS", "YES", "canonical", "canonical_operation",
           "curve_name", "glued_condition", "is_curve", "is_digest", "is_known", "made_up",
           "needs_more", "pkey_algorithm"]

#: The flag of a cell whose name is a whole algorithm with a bare number glued on (``md5 1024``,
#: ``chacha20 256``) or a curve family with a size only (``ecdsa 256``: which curve?).
FLAG_NAME_UNCLEAR = "name unclear"

#: Every operation name the tidy table uses.
OPERATIONS = ("encrypt", "decrypt", "digest", "sign", "verify", "derive", "keygen", "encaps",
              "decaps", "transfer", "generate")

# Whole-name aliases, after lowercasing and turning blanks into "-". Legacy (<= 1.1.1) row names,
# 3.x short row names and provider names all land on the EVP cipher/digest name.
_ALIASES = {
    "des-ede3": "des-ede3-cbc", "des3": "des-ede3-cbc", "des-ede3-cbc": "des-ede3-cbc",
    "3des": "des-ede3-cbc", "3des-cbc": "des-ede3-cbc", "triple-des": "des-ede3-cbc",
    # openssl's EVP aliases of the CBC ciphers (`openssl enc -aes256`)
    "aes128": "aes-128-cbc", "aes192": "aes-192-cbc", "aes256": "aes-256-cbc",
    "camellia128": "camellia-128-cbc", "camellia192": "camellia-192-cbc",
    "camellia256": "camellia-256-cbc", "aria128": "aria-128-cbc", "aria192": "aria-192-cbc",
    "aria256": "aria-256-cbc",
    "des": "des-cbc",
    "idea": "idea-cbc", "seed": "seed-cbc", "rc2": "rc2-cbc", "rc5": "rc5-cbc",
    "rc5-32/12-cbc": "rc5-cbc", "rc5-32/12": "rc5-cbc",
    "blowfish": "bf-cbc", "blowfish-cbc": "bf-cbc", "bf": "bf-cbc",
    "cast": "cast5-cbc", "cast-cbc": "cast5-cbc", "cast5": "cast5-cbc",
    "rmd160": "ripemd160", "ripemd-160": "ripemd160", "ripemd": "ripemd160",
    "sha-1": "sha1", "sha-224": "sha224", "sha-256": "sha256", "sha-384": "sha384",
    "sha-512": "sha512", "sha2-224": "sha224", "sha2-256": "sha256", "sha2-384": "sha384",
    "sha2-512": "sha512", "sha2-512/224": "sha512-224", "sha2-512/256": "sha512-256",
    "sha512/224": "sha512-224", "sha512/256": "sha512-256",
    "md-5": "md5", "chacha20-poly1305": "chacha20-poly1305", "chacha-poly": "chacha20-poly1305",
    "arc4": "rc4",  # (RSA's trademark kept "RC4" out of free libraries' names: mbed TLS, wolfSSL)
    "aes-ni": "aes-ni",
}

_DIGESTS = {
    "md2", "md4", "md5", "mdc2", "sha1", "sha224", "sha256", "sha384", "sha512", "sha512-224",
    "sha512-256", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "shake128", "shake256",
    "ripemd160", "whirlpool", "sm3", "blake2b512", "blake2s256", "ghash", "kmac128", "kmac256",
    "poly1305", "siphash", "md5-sha1",
}

# Curve spellings -> short curve name used inside canonical algorithm names.
_CURVES = {
    "nistp192": "p192", "prime192v1": "p192", "secp192r1": "p192", "p-192": "p192",
    "nistp224": "p224", "secp224r1": "p224", "p-224": "p224",
    "nistp256": "p256", "prime256v1": "p256", "secp256r1": "p256", "p-256": "p256",
    "nistp384": "p384", "secp384r1": "p384", "p-384": "p384",
    "nistp521": "p521", "secp521r1": "p521", "p-521": "p521",
    "secp160r1": "secp160r1",
    "nistk163": "k163", "sect163k1": "k163", "nistk233": "k233", "sect233k1": "k233",
    "nistk283": "k283", "sect283k1": "k283", "nistk409": "k409", "sect409k1": "k409",
    "nistk571": "k571", "sect571k1": "k571",
    "nistb163": "b163", "sect163r2": "b163", "nistb233": "b233", "sect233r1": "b233",
    "nistb283": "b283", "sect283r1": "b283", "nistb409": "b409", "sect409r1": "b409",
    "nistb571": "b571", "sect571r1": "b571",
    "brp256r1": "brainpoolp256r1", "brp256t1": "brainpoolp256t1", "brp384r1": "brainpoolp384r1",
    "brp384t1": "brainpoolp384t1", "brp512r1": "brainpoolp512r1", "brp512t1": "brainpoolp512t1",
    "p256": "p256", "p384": "p384", "p521": "p521", "p192": "p192", "p224": "p224",
}
# Curves that name a whole algorithm rather than a curve under ECDSA/ECDH.
_SELF_NAMED = {"ed25519": "ed25519", "ed448": "ed448", "x25519": "x25519", "x448": "x448",
               "curvesm2": "sm2", "sm2": "sm2"}

_OPERATION_WORDS = {
    "encrypt": "encrypt", "encryption": "encrypt", "enc": "encrypt", "encr./s": "encrypt",
    "encr": "encrypt", "encrypt/s": "encrypt",
    "decrypt": "decrypt", "decryption": "decrypt", "dec": "decrypt", "decr./s": "decrypt",
    "decr": "decrypt", "decrypt/s": "decrypt",
    "digest": "digest", "hash": "digest", "mac": "digest",
    "sign": "sign", "signs": "sign", "sign/s": "sign", "private": "sign",
    "verify": "verify", "verify/s": "verify", "verifies": "verify", "public": "verify",
    "derive": "derive", "op": "derive", "op/s": "derive", "ops": "derive", "ecdh": "derive",
    "ffdh": "derive", "keygen": "keygen", "keygens": "keygen", "keygens/s": "keygen",
    "encaps": "encaps", "encaps/s": "encaps", "decaps": "decaps", "decaps/s": "decaps",
    "transfer": "transfer", "generate": "generate", "rand": "generate",
}

_BLANKS = re.compile(r"[\s_]+")
_PKEY_SIZE = re.compile(r"^(rsa|dsa)[\s-]*(\d+)(?:[\s-]*bits?)?$")
_PKEY_CURVE = re.compile(
    r"^(?:(\d+)\s*bits?\s+)?(ecdsa|ecdh|eddsa|sm2|ec)\s*\(\s*([^)]+?)\s*\)$")
_FFDH = re.compile(r"^(?:(\d+)\s*-?bits?\s+)?ffdh\s*(\d+)?$")
# Command-line spellings (`openssl speed ecdsap256 ecdhx25519 ecdsabrp256r1 ffdh2048`).
_CLI_PKEY = re.compile(r"^(ecdsa|ecdh)(p\d+|k\d+|b\d+|brp\d+[rt]1|x25519|x448|secp160r1)$")
_SYM_MODE = re.compile(r"^(?P<base>.*?)[\s-]+(?P<mode>cbc|ecb|cfb\d*|ofb|ctr|gcm|ccm|ocb|xts|ige|wrap)$")
# KEM and signature provider names (3.2+): their rows carry several operations.
_KEM_SIG = re.compile(r"^(?:ml-kem|ml-dsa|slh-dsa|ecp-|mlkem|mldsa|falcon|sphincs|frodo|kyber|"
                      r"dilithium|bike|hqc|p\d+_|x25519mlkem|x448mlkem|secp\d+r1mlkem|"
                      r".*mlkem\d+$)")
_WRAPPED = re.compile(r"^(hmac|cmac)\((.+)\)$")


# Families of the canonical vocabulary: a name outside them is not a known algorithm.
_KNOWN = re.compile(
    r"^(?:aes|aria|camellia|sm4|des|bf|cast5?|idea|seed|rc[245]|x?chacha20|blowfish|evp|rand|"
    r"ghash|poly1305|siphash|md[245]|mdc2|sha|shake|ripemd|rmd|whirlpool|sm3|blake2[bs]|hmac|cmac|"
    r"kmac|rsa|dsa|ecdsa|ecdh|ffdh|ed25519|ed448|x25519|x448|sm2|ecdh-sm2|nist[pkb]|sec[pt]\d|prime\d|brainpool|gost)(?![a-z])")


def is_known(algorithm: str) -> bool:
    """Whether a canonical algorithm belongs to the vocabulary of cipher benchmarks.

    A row with neither an openssl-like header above it nor a known name is not a cipher's
    (``sda`` in ``iostat``, ``all`` in ``sar``); nor is a name :func:`made_up` from a known one.

    >>> is_known("aes-128-cbc"), is_known("sha256"), is_known("ml-kem-768"), is_known("sda")
    (True, True, True, False)
    >>> is_known("md5-1024"), is_known("ecdsa-256")
    (False, False)
    """
    return bool(_KNOWN.match(algorithm) or _KEM_SIG.match(algorithm)) and not made_up(algorithm)


_GLUED = re.compile(r"^(.+)-(\d+)$")
#: How a table says a condition held or not ("AES-NI Enabled: Yes", "✓", "without").
YES = {"yes", "y", "true", "on", "enabled", "enable", "1", "\u2713", "\u2714", "with"}
NO = {"no", "n", "false", "off", "disabled", "disable", "0", "\u2717", "\u2718", "without"}
# (those of them a name can end in, glued on: words, not a letter or a digit)
_CONDITION_WORDS = {w for w in YES | NO if len(w) > 1 and w.isalpha()}
_WHOLE = {*_ALIASES.values(), "chacha20"}
# A CPU feature switched on or off ("AES-NI on", "without AVX2", "SHA-NI disabled", in Chinese
# "关闭AES-NI", "AES-NI 开启", in Japanese "AES-NI 無効"): a condition of the cells it covers, not
# an algorithm nor a run.
_CJK_SWITCH = "已?(?:开启|启用|打开|关闭|禁用)|有効|無効|あり|なし|有り|無し"
_SWITCH_BODY = (rf"(?:(?P<pre>with|without|mit|ohne|no)[\s-]+|(?P<pre_short>w/o?)\s*|"
                rf"(?P<cjk_pre>{_CJK_SWITCH}|无)\s*)?"
                r"(?P<feature>aes[\s_-]?ni|vaes|avx[\s_-]?(?:2|512\w*)|sha[\s_-]?(?:ni|ext\w*)|neon|"
                rf"sve2?|pclmul\w*|padlock)(?:\s*[:=]?\s*(?P<post>on|off|yes|no|enabled|disabled|an|aus|"
                rf"{_CJK_SWITCH}))?")
_SWITCH = re.compile(rf"^{_SWITCH_BODY}$", re.IGNORECASE)
# The same words inside a line ("aes-128-gcm w/o AES-NI, 16 bytes"): not inside another word.
_SWITCH_IN = re.compile(rf"(?<![A-Za-z\d/-]){_SWITCH_BODY}(?![A-Za-z\d-])", re.IGNORECASE)
_CJK_OFF = ("关闭", "禁用", "无", "無効", "なし", "無し")
_OFF_WORDS = ("without", "ohne", "no", "w/o", "off", "disabled", "aus")
# Families a size alone does not complete: a curve (ecdsa 256), a mode (aes 128: CBC? GCM?).
_NEEDS_MORE = {"ecdsa", "ecdh", "aes", "aria", "camellia"}


def made_up(algorithm: str) -> bool:
    """Whether :func:`canonical` glued a bare number to a name that is whole without it
    (``md5 1024`` -> ``md5-1024``: a block size? ``chacha20 256``: its key bits?) or to a family
    it does not complete (``ecdsa 256``: P-256 or brainpoolP256r1? ``aes 128``: which mode?).
    No such algorithm exists: a reader flags or reports the name rather than invent one.

    >>> made_up("md5-1024"), made_up("chacha20-256"), made_up("aes-128-cbc-16"), made_up("ecdh-384")
    (True, True, True, True)
    >>> made_up("aes-128"), made_up("sha512-256"), made_up("sha3-256"), made_up("ml-kem-768")
    (True, False, False, False)
    """
    m = _GLUED.match(algorithm) if algorithm[-1:].isdigit() else None
    if m is None or algorithm in _DIGESTS:
        return False
    base = m[1]
    return base in _NEEDS_MORE or base in _DIGESTS or base in _WHOLE or \
        bool(_SYM_MODE.match(base))


def needs_more(algorithm: str) -> bool:
    """Whether a name is a family alone that names no one algorithm (``aes``: which key size
    and mode? ``ecdsa``: which curve?).

    >>> needs_more("aes"), needs_more("aes-128-gcm"), needs_more("chacha20")
    (True, False, False)
    """
    return algorithm in _NEEDS_MORE


def glued_condition(algorithm: str) -> bool:
    """Whether :func:`canonical` glued a condition's word to a name: a retyped table's extra
    column (``AES-NI Enabled``) whose cells ran into the row names when its TABs became
    spaces (``aes-128-cbc Yes`` -> ``aes-128-cbc-yes``). No such algorithm exists either.

    >>> glued_condition("aes-128-cbc-yes"), glued_condition("sha256-off")
    (True, True)
    >>> glued_condition("chacha20-poly1305"), glued_condition("aes-128-cbc")
    (False, False)
    """
    head, dash, word = algorithm.rpartition("-")
    return bool(dash and head) and word in _CONDITION_WORDS


def switch(text: str) -> tuple[str, str] | None:
    """The condition a title or tag states by switching a CPU feature on or off, else None.

    >>> switch("AES-NI off"), switch("without AVX2"), switch("关闭AES-NI"), switch("AES-NI")
    (('aesni', 'off'), ('avx2', 'off'), ('aesni', 'off'), None)
    >>> switch("AES-NI 有効"), switch("AES-NI無効"), switch("已开启 AES-NI"), switch("w/o AES-NI")
    (('aesni', 'on'), ('aesni', 'off'), ('aesni', 'on'), ('aesni', 'off'))
    >>> switch("ohne AES-NI"), switch("mit SHA-NI")
    (('aesni', 'off'), ('shani', 'on'))
    """
    m = _SWITCH.match(text)
    return None if m is None else _switched(m)


def switches_in(text: str) -> list[tuple[int, int, tuple[str, str]]]:
    """The CPU features a line switches on or off in its words, not in a tag of their own
    (``aes-128-gcm w/o AES-NI, 16 bytes``): each phrase's span and condition, as :func:`switch`
    reads it (one vocabulary). A feature's name alone is none.

    >>> switches_in("- aes-128-gcm w/o AES-NI, 16 bytes: 142 MB/s")
    [(14, 24, ('aesni', 'off'))]
    >>> [c for *_, c in switches_in("sha256 without SHA-NI 1024 bytes, aes-128-gcm AES-NI on")]
    [('shani', 'off'), ('aesni', 'on')]
    >>> switches_in("aes-128-gcm aesni 16 bytes"), switches_in("windows-avx2 build")
    ([], [])
    """
    out = []
    for m in _SWITCH_IN.finditer(text):
        if (got := _switched(m)) is not None:
            out.append((m.start(), m.end(), got))
    return out


def _switched(m: re.Match) -> tuple[str, str] | None:
    if not (m["pre"] or m["pre_short"] or m["cjk_pre"] or m["post"]):
        return None  # (a feature's name alone switches nothing: "AES-NI" titles a column of yes/no)
    pre, post = (m["pre"] or m["pre_short"] or "").lower(), (m["post"] or "").lower()
    off = pre in _OFF_WORDS or post in _OFF_WORDS or \
        any(w.lstrip("已") in _CJK_OFF for w in (post, m["cjk_pre"] or ""))
    return re.sub(r"[\s_-]", "", m["feature"].lower()), "off" if off else "on"


def curve_name(curve: str) -> str:
    """Short, lowercase curve name used inside canonical algorithm names.

    >>> curve_name("nistp256"), curve_name("prime256v1"), curve_name("brainpoolP256r1")
    ('p256', 'p256', 'brainpoolp256r1')
    """
    key = curve.strip().lower()
    return _CURVES.get(key, _SELF_NAMED.get(key, key))


def is_curve(word: str) -> bool:
    """Whether ``word`` names an elliptic curve (``nistp256``, ``X25519``, ``CurveSM2``).

    >>> is_curve("nistp256"), is_curve("brainpoolP256r1"), is_curve("Before")
    (True, True, False)
    """
    key = word.strip().lower()
    return key in _CURVES or key in _SELF_NAMED or key.startswith("brainpool")


def pkey_algorithm(kind: str, bits: int | str | None = None, curve: str | None = None) -> str:
    """Canonical public-key algorithm from its family, key size and curve.

    ``kind`` is what openssl prints: ``rsa``, ``dsa``, ``ecdsa``, ``ecdh``, ``EdDSA``, ``SM2``,
    ``EC`` (4.0's merged table), ``ffdh``; or a curve/key name alone (``Ed25519``, ``X25519``).

    >>> pkey_algorithm("rsa", 2048), pkey_algorithm("ecdh", 253, "X25519")
    ('rsa2048', 'x25519')
    >>> pkey_algorithm("EC", 256, "prime256v1"), pkey_algorithm("EdDSA", 456, "Ed448")
    ('ecdsa-p256', 'ed448')
    """
    k = kind.strip().lower()
    if k in ("rsa", "dsa", "ffdh"):
        return f"{k}{int(bits)}" if bits is not None else k
    if curve is not None:
        c = curve.strip().lower()
        if c in _SELF_NAMED:
            short = _SELF_NAMED[c]
            # 4.0 prints curveSM2 ECDH as "SM2" in the ECDH table: keep it apart from SM2 signing.
            return "ecdh-sm2" if short == "sm2" and k == "ecdh" else short
        if k in ("eddsa", "sm2"):
            return c
        family = "ecdh" if k == "ecdh" else "ecdsa"
        return f"{family}-{curve_name(c)}"
    return _SELF_NAMED.get(k, k)


def is_digest(algorithm: str) -> bool:
    """True for hashes and MACs (their operation is ``digest``).

    >>> is_digest("sha256"), is_digest("hmac(md5)"), is_digest("aes-128-cbc")
    (True, True, False)
    """
    return algorithm in _DIGESTS or bool(_WRAPPED.match(algorithm)) or algorithm.startswith(
        ("sha3-", "shake", "blake2", "hmac-", "kmac"))


def canonical_operation(word: str) -> str:
    """Canonical operation from a column header or progress word (``sign/s``, ``encr./s``, ``op``).

    >>> canonical_operation("encr./s"), canonical_operation("private"), canonical_operation("op/s")
    ('encrypt', 'sign', 'derive')

    Unknown words are returned lowercased, so nothing is lost.
    """
    w = word.strip().lower()
    return _OPERATION_WORDS.get(w, w)


def _default_operation(algorithm: str) -> str | None:
    if algorithm == "rand":
        return "generate"
    if is_digest(algorithm):
        return "digest"
    if algorithm.startswith(("rsa", "dsa", "ecdsa", "ed25519", "ed448", "sm2")) and \
            re.match(r"^(rsa|dsa)\d+$|^ecdsa-|^ed\d+$|^sm2$", algorithm):
        return None
    if algorithm.startswith(("ecdh-", "ffdh")) or algorithm in ("x25519", "x448"):
        return "derive"
    if _KEM_SIG.match(algorithm):
        return None
    return "encrypt"


@lru_cache(maxsize=4096)
def _canonical_name(name: str) -> tuple[str, str | None]:
    raw = name.strip()
    low = _BLANKS.sub(" ", raw.lower())
    m = _PKEY_SIZE.match(low)
    if m:
        return f"{m[1]}{m[2]}", None
    m = _PKEY_CURVE.match(low)
    if m:
        algorithm = pkey_algorithm(m[2], m[1], m[3])
        return algorithm, ("derive" if m[2] == "ecdh" else None)
    m = _FFDH.match(low)
    if m and (m[1] or m[2]):
        return f"ffdh{m[1] or m[2]}", "derive"
    m = _CLI_PKEY.match(low)
    if m:
        algorithm = pkey_algorithm(m[1], None, m[2])
        return algorithm, ("derive" if m[1] == "ecdh" else None)
    m = _WRAPPED.match(low.replace(" ", ""))
    if m:
        inner = _canonical_name(m[2])[0]
        return f"{m[1]}({inner})", "digest"
    if low in _SELF_NAMED:
        algorithm = _SELF_NAMED[low]
        return algorithm, _default_operation(algorithm)
    low = re.sub(r"^id-aes(\d+)-", r"aes-\1-", low)  # <= 1.0.x OBJ long names
    key = low.replace(" ", "-")
    algorithm = _ALIASES.get(key)
    if algorithm is None:
        m = _SYM_MODE.match(low)
        if m:
            base = m["base"].replace(" ", "-")
            base = {"des": "des", "blowfish": "bf", "cast": "cast5", "rc5-32/12": "rc5"}.get(base, base)
            # "aes128" / "camellia256" -> "aes-128" / "camellia-256"
            base = re.sub(r"^(aes|camellia|aria|sm4)-?(\d+)$", r"\1-\2", base)
            algorithm = _ALIASES.get(f"{base}-{m['mode']}", f"{base}-{m['mode']}")
        else:
            algorithm = key
    return algorithm, _default_operation(algorithm)


def canonical(name: str, operation: str | None = None) -> tuple[str, str | None]:
    """Map a name as printed to ``(algorithm, operation)``.

    Parameters
    ----------
    name : str
        The row name as printed (``aes-128 cbc``, ``AES-128-GCM``, ``hmac(md5)``,
        ``rsa 2048 bits``, ``256 bits ecdsa (nistp256)``, ``2048 bits ffdh``, ``ML-KEM-768``).
    operation : str, optional
        The column or progress word the value came from (``sign/s``, ``verify``, ``encr./s``,
        ``op/s``, ``decaps``). Without it, the operation implied by the algorithm is returned:
        ``encrypt`` for ciphers, ``digest`` for hashes and MACs, ``derive`` for key agreement,
        ``generate`` for ``rand``, and ``None`` for signature algorithms (whose rows carry
        several operations).

    Returns
    -------
    tuple of (str, str or None)

    Examples
    --------
    >>> canonical("des ede3"), canonical("DES-EDE3-CBC")[0], canonical("blowfish cbc")[0]
    (('des-ede3-cbc', 'encrypt'), 'des-ede3-cbc', 'bf-cbc')
    >>> canonical("hmac(SHA256)"), canonical("rand")
    (('hmac(sha256)', 'digest'), ('rand', 'generate'))
    >>> canonical("rsa2048", "decaps"), canonical("2048 bits ffdh")
    (('rsa2048', 'decaps'), ('ffdh2048', 'derive'))
    >>> canonical("ML-KEM-768"), canonical("id-aes128-GCM")
    (('ml-kem-768', None), ('aes-128-gcm', 'encrypt'))
    >>> canonical("AES-256 CBC"), canonical("256 bit ecdsa (nistp256)", "verify/s")
    (('aes-256-cbc', 'encrypt'), ('ecdsa-p256', 'verify'))
    >>> canonical("3DES")[0], canonical("aes256")[0], canonical("RSA-2048")[0], canonical("AES256-GCM")[0]
    ('des-ede3-cbc', 'aes-256-cbc', 'rsa2048', 'aes-256-gcm')
    """
    algorithm, default = _canonical_name(name)
    if operation is None:
        return algorithm, default
    return algorithm, canonical_operation(operation)
