"""``Doing ...`` progress lines: the exact operation counts and seconds behind every table cell.

Why this module exists: the summary tables round (``%.2f``) and lose the raw count; the
progress lines on stderr keep ``count`` and ``seconds``. They fill those columns of table cells,
and when a paste holds only stderr (no table), they are the measurements. Formats: §6 of
``openssl-speed-formats.md`` (0.9.7 ``'s in``, 3.2+ ``ops in``, the non-SIGALRM ``N times`` form,
public-key, KEM and signature prompts).
"""

from __future__ import annotations

import re
from functools import lru_cache, partial
from typing import Iterable, Iterator, NamedTuple

from cipherlab.readers._names import canonical, pkey_algorithm
from cipherlab.readers._terminal import family

_DOING_SYM = re.compile(
    r"^Doing (?P<alg>.+?)(?: ops)? for (?P<secs>\d+)s on (?P<len>\d+) size blocks:\s?(?P<rest>.*)$")
#: A whole symmetric progress line (prompt and result): groups name, block, count, seconds.
DOING_FULL = re.compile(
    r"^Doing (.+?)(?: ops)? for \d+s on (\d+) size blocks: (-?\d+) "
    r"(?:.+?)(?:'s| ops) in (\d+\.\d+)s\s*$")
# Characters that clean() never removes from the inside of a line (no controls, no "^[" escape
# renderings): a raw line made of them, starting at its first column, is its own clean() plus
# trailing blanks. The block patterns read such raw lines straight from the whole text. A word of
# such characters (no blank; no "'" in the result's name), here printable ASCII (what openssl
# prints: ranges are read faster than a negated class, as are ASCII digits than \d; a block only
# ends sooner on other lines, which then go one by one):
_WORD = r"[!-\]_-~]+"
_RESULT_WORD = r"[!&(-\]_-~]+"
#: DOING_FULL for raw lines ending in a newline whose names are one word (what openssl prints),
#: with the same groups: a one-word name cannot end earlier, so the lazy names of DOING_FULL are
#: these words, and plain repeats read them a third faster. A block of such lines (DOING_BLOCK);
#: DOING_LINES finds (cheaply) the lines that may form a block. Other lines go one by one.
DOING_LINE = re.compile(
    rf"^Doing ({_WORD})(?: ops)? for [0-9]+s on ([0-9]+) size blocks: (-?[0-9]+) "
    rf"{_RESULT_WORD}(?:'s| ops) in ([0-9]+\.[0-9]+)s[^\S\n]*\n", re.M)
DOING_BLOCK = re.compile(f"(?:{DOING_LINE.pattern})+", re.M)
DOING_LINES = re.compile(r"(?:Doing [^\n]*\n)+")
#: Lines starting "Doing " that clean() leaves as they are: printable ASCII but for "^", "*" and
#: "`" (escapes and markup), no blank at their end (read by ``_blocks``' ``plain_doing_block``).
DOING_PLAIN_LINES = re.compile(r"(?:Doing [ -)+-\]_a-~]*[!-)+-\]_a-~]\n)+")
_DOING_SYMN = re.compile(r"^Doing (?P<alg>.+?) (?P<n>\d+) times on (?P<len>\d+) size blocks:\s?(?P<rest>.*)$")
_DOING_PK = re.compile(
    r"^Doing (?P<bits>\d+) bits? (?P<what>.*?)(?:'s| ops) for (?P<secs>\d+)s:\s?(?P<rest>.*)$")
_DOING_PKN = re.compile(r"^Doing (?P<n>\d+) (?P<bits>\d+) bits? (?P<what>.*?)'s:\s?(?P<rest>.*)$")
_DOING_KS = re.compile(
    r"^Doing (?P<alg>\S+) (?P<op>keygen|encaps|decaps|signs|verify) ops for (?P<secs>\d+)s:\s?(?P<rest>.*)$")
_RES_SYM = re.compile(r"^(?P<count>-?\d+) (?P<alg>.+?)(?:'s| ops) in (?P<time>\d+\.\d+)s\s*$")
_RES_PK = re.compile(r"^(?P<count>-?\d+) (?:(?P<bits>\d+)[ -]bits? )?(?P<desc>.+?) in (?P<time>\d+\.\d+)s\s*$")
_RES_KS = re.compile(r"^(?P<count>-?\d+) (?P<alg>\S+) (?:KEM|signature) (?P<op>\w+) ops in (?P<time>\d+\.\d+)s\s*$")
_RSA_OPS = {"private": "sign", "public": "verify"}


class Progress:
    """One progress measurement: what was measured, and (once known) count and seconds."""

    __slots__ = ("lineno", "name", "block", "family", "bits", "algorithm", "operation", "count",
                 "seconds", "used", "bit")

    def __init__(self, lineno, name, block, family, bits, algorithm, operation, count=None,
                 seconds=None):
        self.lineno, self.name, self.block = lineno, name, block
        self.family, self.bits, self.algorithm, self.operation = family, bits, algorithm, operation
        self.count, self.seconds = count, seconds
        self.used = False
        self.bit = False  # the prompt says "bit", not "bits": a release before 1.1.1

    def key(self):
        """Symmetric: (algorithm, block); public key: (family, bits, operation)."""
        if self.block is not None:
            return (self.algorithm, self.block)
        return (self.family, self.bits, self.operation)

    def __repr__(self):
        return (f"Progress(line {self.lineno}: {self.name!r} {self.operation} "
                f"block={self.block} count={self.count} seconds={self.seconds})")


class Complete(NamedTuple):
    """A symmetric progress record read whole: :class:`Progress`'s fields and key, immutable.

    Blocks of complete ``Doing`` lines and ``+DT``/``+R`` pairs hold most records of a capture;
    they are kept as columns, and when records are needed a tuple is built in C from them, where
    a :class:`Progress` costs a Python call per record.
    """

    lineno: int
    name: str
    block: int
    family: None
    bits: None
    algorithm: str
    operation: str
    count: int
    seconds: float

    def key(self):
        return (self.algorithm, self.block)


def completes(fields: Iterable[tuple]) -> Iterator[Complete]:
    """:class:`Complete` records from tuples of their fields, made in C (``_make`` is Python)."""
    return map(partial(tuple.__new__, Complete), fields)


@lru_cache(maxsize=1024)  # (pure; a run's prompts repeat from run to run)
def pk_identity(bits: int, what: str) -> tuple[str, str, str]:
    """``(family, algorithm, operation)`` from a public-key prompt's ``bits`` and ``what``.

    ``what`` is ``str str2`` of ``pkey_print_message``: ``private rsa``, ``public rsa verify``,
    ``sign dsa``, ``verify ecdsa``, `` ecdh``, ``sign Ed25519``, ``verify CurveSM2``, ``ffdh``,
    4.0's ``sign prime256v1`` and `` X25519``. Curves are not named for ECDSA/ECDH: the NIST
    curve of that size is assumed for the algorithm (the family key still ties the record to the
    right table row).

    >>> pk_identity(2048, "private rsa"), pk_identity(256, " ecdh")
    (('rsa', 'rsa2048', 'sign'), ('ecdh', 'ecdh-p256', 'derive'))
    >>> pk_identity(2048, "public rsa encrypt"), pk_identity(253, "sign Ed25519")
    (('rsa', 'rsa2048', 'encrypt'), ('ed25519', 'ed25519', 'sign'))
    """
    words = what.split()
    low = [w.lower() for w in words]
    op = None
    for w in low:
        if w in ("sign", "signs", "verify", "encrypt", "decrypt", "private", "public"):
            op = w
    kinds = [w for w in low if w in ("rsa", "dsa", "ecdsa", "ecdh", "ffdh")]
    if kinds:
        kind = kinds[0]
        if kind == "rsa":
            last = low[-1]
            op = last if last in ("sign", "verify", "encrypt", "decrypt") else _RSA_OPS.get(low[0], op)
            return "rsa", f"rsa{bits}", op
        if kind in ("dsa", "ffdh"):
            return kind, f"{kind}{bits}", "sign" if op in ("sign", "signs") else (op or "derive")
        if kind == "ecdh":
            algorithm = pkey_algorithm("ecdh", bits, _NIST.get(bits, str(bits)))
            return family("ecdh", algorithm), algorithm, "derive"
        algorithm = pkey_algorithm("ecdsa", bits, _NIST.get(bits, str(bits)))
        return "ecdsa", algorithm, "sign" if op in ("sign", "signs") else op
    # EdDSA / SM2 (curve named), or 4.0 prompts that name a group instead of a family.
    curve = next((w for w in words if w.lower() not in ("sign", "signs", "verify")), "")
    is_ecdh = op is None
    algorithm = pkey_algorithm("ecdh" if is_ecdh else "ec", bits, curve)
    return family("ecdh" if is_ecdh else "ec", algorithm), algorithm, \
        "derive" if is_ecdh else ("sign" if op in ("sign", "signs") else op)


_NIST = {160: "secp160r1", 192: "nistp192", 224: "nistp224", 256: "nistp256", 384: "nistp384",
         521: "nistp521", 253: "X25519", 448: "X448", 163: "nistk163", 233: "nistk233",
         283: "nistk283", 409: "nistk409", 571: "nistk571"}


# Curves of each size in the order openssl runs them (its ECDSA/ECDH tables, 0.9.8-3.6): NIST
# prime or Koblitz curves, binary curves, then brainpool r1 and t1 (1.1.1+). A prompt that
# names no curve ("Doing 256 bits ecdh's") is the n-th curve of its size in the run.
#: A record of this flag measured an ECDSA/ECDH curve the text names only by its size.
FLAG_CURVE_UNKNOWN = "curve unknown"
_CURVE_ORDER = {
    256: ("p256", "brainpoolp256r1", "brainpoolp256t1"),
    384: ("p384", "brainpoolp384r1", "brainpoolp384t1"),
    512: ("brainpoolp512r1", "brainpoolp512t1"),
    **{b: (f"k{b}", f"b{b}") for b in (163, 233, 283, 409, 571)},
}
_SIZE_ONLY = {"bit", "bits", "sign", "signs", "verify", "ecdsa", "ecdh"}  # no curve named
_BRAINPOOL_ONLY_LATER = {256, 384}
_CURVE_ARG = re.compile(r"^(?:evp)?(ecdsa|ecdh)(p\d+|k\d+|b\d+|brp\d+[rt]1)$")


def name_curves(records: list[Progress], args: list[str] | None) -> list[bool]:
    """Name the curves of ECDSA/ECDH records that give only a size, in place; return for each
    record whether its curve stays unknown.

    The n-th record of a size (and operation) is the n-th curve of that size that ran: of
    openssl's order, or of those the command line ``args`` names (``ecdhbrp256r1``). Without
    a command line a size with several curves is named only when the run holds all of them.
    """
    named: dict[str, set[str]] = {}
    for arg in args or ():
        m = _CURVE_ARG.match(arg.lower())
        if m:
            named.setdefault(m[1], set()).add(m[2].replace("brp", "brainpoolp"))
    seen: dict[tuple, int] = {}
    counts: dict[tuple, int] = {}
    sized = [p.family in ("ecdsa", "ecdh") and p.bits in _CURVE_ORDER and
             _SIZE_ONLY.issuperset(p.name.lower().split()[1:]) for p in records]
    for p, by_size in zip(records, sized):
        if by_size:
            counts[p.key()] = counts.get(p.key(), 0) + 1
    unknown = []
    for p, by_size in zip(records, sized):
        if not by_size:
            unknown.append(False)
            continue
        key = p.key()
        order = _CURVE_ORDER[p.bits]
        if p.bit and p.bits in _BRAINPOOL_ONLY_LATER:
            order = order[:1]  # "bit", not "bits": before 1.1.1, which added brainpool
        if p.family in named:
            order = tuple(c for c in order if c in named[p.family])
        n = seen[key] = seen.get(key, -1) + 1
        known = args is not None or counts[key] == len(order)
        if n < len(order):
            p.algorithm = f"{p.family}-{order[n]}"
        unknown.append(not known or n >= len(order))
    return unknown


def doing(line: str, lineno: int) -> tuple[Progress, str] | None:
    """Parse a ``Doing ...`` prompt; return the record and the text after the prompt."""
    sym = " size blocks:" in line  # (in every symmetric prompt: the others skip their regexes)
    m = DOING_FULL.match(line) if sym else None
    if m:  # the common case, prompt and result on one line: one regex instead of two
        name = m[1]
        algorithm, op = canonical(name)
        rec = Progress(lineno, name, int(m[2]), None, None, algorithm, op)
        rec.count, rec.seconds = int(m[3]), float(m[4])
        return rec, ""
    m = _DOING_SYM.match(line) if sym else None
    if m:
        name = m["alg"]
        algorithm, op = canonical(name)
        return Progress(lineno, name, int(m["len"]), None, None, algorithm, op), m["rest"]
    m = _DOING_PK.match(line) or _DOING_PKN.match(line)
    if m:
        bits = int(m["bits"])
        fam, algorithm, op = pk_identity(bits, m["what"])
        rec = Progress(lineno, f"{bits} bits {m['what'].strip()}", None, fam, bits, algorithm, op)
        rec.bit = " bit " in line[:m.start("what") + 1]
        return rec, m["rest"]
    m = _DOING_KS.match(line)
    if m:
        algorithm = canonical(m["alg"])[0]
        op = "sign" if m["op"] == "signs" else m["op"]
        # keygen is shared by KEM and SIG: "kem?" is settled by the result line or later records.
        kind = "sig" if m["op"] in ("signs", "verify") else "kem" if m["op"] in ("encaps", "decaps") else "kem?"
        return Progress(lineno, m["alg"], None, f"{kind}:{algorithm}", None, algorithm, op), m["rest"]
    m = _DOING_SYMN.match(line) if sym else None
    if m:
        name = m["alg"]
        algorithm, op = canonical(name)
        return Progress(lineno, name, int(m["len"]), None, None, algorithm, op), m["rest"]
    return None


def result(rec: Progress, rest: str) -> bool:
    """Fill ``count`` and ``seconds`` from the result text; True when it was a result."""
    rest = rest.strip()
    if not rest:
        return False
    if rec.block is not None:
        m = _RES_SYM.match(rest)
    elif rec.family.startswith(("kem:", "sig:")):
        m = _RES_KS.match(rest)
    else:
        m = _RES_PK.match(rest)
    if m is None:
        return False
    rec.count, rec.seconds = int(m["count"]), float(m["time"])
    if rec.family is not None and rec.family.startswith("kem?:"):
        rec.family = ("sig:" if " signature " in rest else "kem:") + rec.family[5:]
    return True


def looks_like_result(rest: str) -> bool:
    """A bare result line (``3302 2048 bits private RSA's in 1.00s``) split from its prompt."""
    return bool(_RES_SYM.match(rest) or _RES_PK.match(rest))
