"""``openssl speed -mr``: the machine-readable records (``+DT``, ``+R*``, ``+H``, ``+F``..``+F10``).

Why this module exists: ``-mr`` output is what scripts (and cipherlab's own capture) read, and
what ``-multi`` children send their parent (``Got: ... from N``). It carries no version line, yet
the meaning of several records changed between releases (§7 of ``openssl-speed-formats.md``):
``+F2..+F5`` hold seconds per operation up to 1.1.0 and operations per second from 1.1.1 on,
``+F5`` swapped its two fields at the same release, ``+R<n>`` was renumbered in 3.2 and 4.0, and
``+F7..+F9`` mean different tables in 3.x and 4.0. Records are therefore read version-aware:
from the caller's ``tool_version`` hint when given, else from the surrounding records (the
``+DTP`` prompt before each ``+R<n>``, ``+F10`` presence), else from the values themselves.
"""

from __future__ import annotations

import re

from cipherlab.readers._names import canonical, pkey_algorithm
from cipherlab.readers._progress import Progress, pk_identity
from cipherlab.readers._terminal import family

# The records of a -mr table as raw lines ending in a newline, whose names are without the
# characters clean() removes (see ``_progress.DOING_LINE``) and whose values float() reads as
# the line-by-line reading does (ASCII digits, read faster than \d): each algorithm's
# ``+DT:name:secs:block`` prompts, each directly followed by its ``+R:count:name:seconds``
# result (same name), then its ``+H:sizes`` and ``+F:n:name:values`` lines.
_NAME = r"[^:\x00-\x08\x0a-\x1f\x7f^]+"
_NUM = r"[0-9]+(?:\.[0-9]+)?"
_PAIR = (rf"\+DT:({_NAME}):[0-9]+:([0-9]+)[^\S\n]*\n"
         rf"\+R:(-?[0-9]+):\1:({_NUM})[^\S\n]*\n")
_TABLE = (rf"\+H:([0-9]+(?::[0-9]+)*)[^\S\n]*\n"
          rf"\+F:[0-9]+:({_NAME}):({_NUM}(?::{_NUM})*)[^\S\n]*\n")
#: A pair of -mr lines: a +DT/+R pair (groups name, block, count, seconds) or a +H/+F table
#: (groups sizes, name, values); a block of such pairs; the lines that may form a block.
MR_UNIT = re.compile(f"^(?:{_PAIR}|{_TABLE})", re.M)
MR_UNITS = re.compile(f"(?:{MR_UNIT.pattern})+", re.M)
# (at most 256 lines: whole pairs, as a block starts with one; small blocks are read faster)
MR_LINES = re.compile(r"(?:\+(?:DT|R|H|F):[^\n]*\n){1,256}")

# EC curve index tables of +F4/+F5 (with EC2M compiled in), §7.4.
_EC_098 = ["secp160r1", "nistp192", "nistp224", "nistp256", "nistp384", "nistp521",
           "nistk163", "nistk233", "nistk283", "nistk409", "nistk571",
           "nistb163", "nistb233", "nistb283", "nistb409", "nistb571"]
_EC_110 = _EC_098 + ["X25519"]
_EC_111 = _EC_098 + ["brainpoolP256r1", "brainpoolP256t1", "brainpoolP384r1", "brainpoolP384t1",
                     "brainpoolP512r1", "brainpoolP512t1", "X25519", "X448"]
_EC_40 = _EC_111[:22] + ["Ed25519", "Ed448", "X25519", "X448", "SM2", "SM2"]
_BITS = {"secp160r1": 160, "nistp192": 192, "nistp224": 224, "nistp256": 256, "nistp384": 384,
         "nistp521": 521, "nistk163": 163, "nistk233": 233, "nistk283": 283, "nistk409": 409,
         "nistk571": 571, "nistb163": 163, "nistb233": 233, "nistb283": 283, "nistb409": 409,
         "nistb571": 571, "brainpoolP256r1": 256, "brainpoolP256t1": 256, "brainpoolP384r1": 384,
         "brainpoolP384t1": 384, "brainpoolP512r1": 512, "brainpoolP512t1": 512, "X25519": 253,
         "X448": 448, "Ed25519": 253, "Ed448": 456, "SM2": 256}
_EDDSA = ["Ed25519", "Ed448"]

# +R<n> meaning by era when no +DTP says it: n -> (family or kind, operation)
_R_30 = {1: ("rsa", "sign"), 2: ("rsa", "verify"), 3: ("dsa", "sign"), 4: ("dsa", "verify"),
         5: ("ecdsa", "sign"), 6: ("ecdsa", "verify"), 7: ("ecdh", "derive"),
         8: ("eddsa", "sign"), 9: ("eddsa", "verify"), 10: ("sm2", "sign"), 11: ("sm2", "verify"),
         12: ("ffdh", "derive")}
_R_32 = {1: ("rsa", "sign"), 2: ("rsa", "verify"), 3: ("rsa", "encrypt"), 4: ("rsa", "decrypt"),
         5: ("dsa", "sign"), 6: ("dsa", "verify"), 7: ("ecdsa", "sign"), 8: ("ecdsa", "verify"),
         9: ("ecdh", "derive"), 10: ("eddsa", "sign"), 11: ("eddsa", "verify"),
         12: ("sm2", "sign"), 13: ("sm2", "verify"), 14: ("ffdh", "derive"),
         15: ("kem", "keygen"), 16: ("kem", "encaps"), 17: ("kem", "decaps"),
         18: ("sig", "keygen"), 19: ("sig", "sign"), 20: ("sig", "verify")}
_R_40 = {**_R_32, 7: ("ec", "sign"), 8: ("ec", "verify"), 9: ("ecdh", "derive")}


def parse_version(text: str | None) -> tuple[int, int, int] | None:
    """``'1.1.0l'`` -> ``(1, 1, 0)``; LibreSSL and unknown strings give None.

    >>> parse_version("1.1.0l"), parse_version("3.2.0-alpha1"), parse_version(None)
    ((1, 1, 0), (3, 2, 0), None)
    """
    if not text:
        return None
    parts = []
    for piece in str(text).split(".")[:3]:
        digits = ""
        for ch in piece:
            if not ch.isdigit():
                break
            digits += ch
        if not digits:
            return None
        parts.append(int(digits))
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts)


class Cell:
    """A public-key measurement from an ``+F<n>`` record."""

    __slots__ = ("family", "algorithm", "bits", "operation", "ops_per_s", "name")

    def __init__(self, fam, algorithm, bits, operation, ops_per_s, name):
        self.family, self.algorithm, self.bits = fam, algorithm, bits
        self.operation, self.ops_per_s, self.name = operation, ops_per_s, name


def _ec_curve(idx: int, bits: int, version) -> str:
    tables = []
    if version is not None and version >= (4, 0, 0):
        tables.append(_EC_40)
    elif version is not None and version < (1, 1, 1):
        tables.append(_EC_110 if version >= (1, 1, 0) else _EC_098)
    tables += [_EC_111, [c for c in _EC_111 if not c.startswith(("nistk", "nistb"))], _EC_40]
    for table in tables:
        if idx < len(table) and _BITS.get(table[idx]) == bits:
            return table[idx]
    return {256: "nistp256", 384: "nistp384", 521: "nistp521", 224: "nistp224",
            192: "nistp192", 253: "X25519", 448: "X448"}.get(bits, f"{bits}-bit curve #{idx}")


def _per_second(a: float, b: float, version, kind: str) -> tuple[float, float]:
    """Two +F2/+F3/+F4 values as (op1/s, op2/s), whichever unit the release wrote."""
    if version is not None:
        old = version < (1, 1, 1)
    elif a < 1.0 and b < 1.0:
        old = True  # seconds per op: nothing real runs below one op per second on both
    elif a >= 1.0 and b >= 1.0:
        old = False
    else:
        old = a > b  # s/op: slow sign (seconds), fast verify (fraction); rates go the other way
    if old:
        return (1.0 / a if a else 0.0), (1.0 / b if b else 0.0)
    return a, b


def f_records(n: int, fields: list[str], version, kem_names: list[str], sig_names: list[str],
              f10_seen: bool, ks_seen: list[int]) -> list[Cell]:
    """Cells of one ``+F<n>`` record (``fields`` = everything after ``+F<n>:``).

    KEM/SIG records carry only a provider index, which is not stable across builds; records come
    in index order, one per algorithm that ran, so the k-th record of a kind gets the k-th name
    seen in that kind's ``+DTP`` prompts (``ks_seen`` counts them per run: [kem, sig]). Beyond
    the names seen, a record cannot be placed: ValueError (the caller reports its line).
    """
    era40 = version is not None and version >= (4, 0, 0)
    out: list[Cell] = []
    if n == 2:  # RSA
        bits = int(fields[1])
        vals = [float(x) for x in fields[2:]]
        alg = f"rsa{bits}"
        if len(vals) >= 4:
            for op, v in zip(("sign", "verify", "encrypt", "decrypt"), vals):
                out.append(Cell("rsa", alg, bits, op, v, f"rsa {bits} bits"))
        else:
            s, v = _per_second(vals[0], vals[1], version, "rsa")
            out += [Cell("rsa", alg, bits, "sign", s, f"rsa {bits} bits"),
                    Cell("rsa", alg, bits, "verify", v, f"rsa {bits} bits")]
    elif n == 3:  # DSA
        bits = int(fields[1])
        s, v = _per_second(float(fields[2]), float(fields[3]), version, "dsa")
        out += [Cell("dsa", f"dsa{bits}", bits, "sign", s, f"dsa {bits} bits"),
                Cell("dsa", f"dsa{bits}", bits, "verify", v, f"dsa {bits} bits")]
    elif n == 4:  # ECDSA (4.0: every EC signature)
        idx, bits = int(fields[0]), int(fields[1])
        curve = _ec_curve(idx, bits, version)
        s, v = _per_second(float(fields[2]), float(fields[3]), version, "ecdsa")
        kind = "EC" if era40 else "ecdsa"
        alg = pkey_algorithm("ec", bits, curve)
        fam = family("ec", alg)
        name = f"{bits} bits {kind} ({curve})"
        out += [Cell(fam, alg, bits, "sign", s, name), Cell(fam, alg, bits, "verify", v, name)]
    elif n == 5:  # ECDH: fields swap at 1.1.1; the rate is the larger of the two either way
        idx, bits = int(fields[0]), int(fields[1])
        a, b = float(fields[2]), float(fields[3])
        curve = _ec_curve(idx, bits, version)
        alg = pkey_algorithm("ecdh", bits, curve)
        out.append(Cell(family("ecdh", alg), alg, bits, "derive", max(a, b), f"{bits} bits ecdh ({curve})"))
    elif n in (6, 7) and len(fields) >= 5 and not _is_number(fields[2]):  # EdDSA / 3.x SM2
        bits, curve = int(fields[1]), fields[2]
        alg = pkey_algorithm("eddsa" if n == 6 else "sm2", bits, curve)
        kind = "EdDSA" if n == 6 else "SM2"
        name = f"{bits} bits {kind} ({curve})"
        out += [Cell(alg, alg, bits, "sign", float(fields[3]), name),
                Cell(alg, alg, bits, "verify", float(fields[4]), name)]
    elif (n == 8 and not era40 and len(fields) == 4 and _ffdh_like(fields)) or (n == 7 and len(fields) == 4):
        bits = int(fields[1])
        a, b = float(fields[2]), float(fields[3])
        out.append(Cell("ffdh", f"ffdh{bits}", bits, "derive", max(a, b), f"{bits} bits ffdh"))
    elif n in (8, 9, 10):  # KEM / SIG: idx : three rates
        idx = int(fields[0])
        vals = [float(x) for x in fields[1:4]]
        is_sig = n == 10 or (n == 9 and (era40 or (not f10_seen and not kem_names and bool(sig_names))))
        names = sig_names if is_sig else kem_names
        pos = ks_seen[is_sig]
        if pos >= len(names):  # (a provider index is no name: which algorithm cannot be known)
            raise ValueError(f"+F{n} record {idx} names no algorithm: no +DTP prompt before it")
        ks_seen[is_sig] += 1
        name = names[pos]
        alg = canonical(name)[0]
        ops = ("keygen", "sign", "verify") if is_sig else ("keygen", "encaps", "decaps")
        fam = f"{'sig' if is_sig else 'kem'}:{alg}"
        out += [Cell(fam, alg, None, op, v, name) for op, v in zip(ops, vals)]
    else:
        raise ValueError(f"+F{n} with {len(fields)} fields")
    return out


def _ffdh_like(fields):
    a, b = float(fields[2]), float(fields[3])
    return fields[1] in ("2048", "3072", "4096", "6144", "8192") and 0.5 < a * b < 2.0


def _is_number(tok: str) -> bool:
    try:
        float(tok)
    except ValueError:
        return False
    return True


# The families each kind of +R<n> index measures (a +DTP prompt names one).
_INDEX_FAMILIES = {"rsa": ("rsa",), "dsa": ("dsa",), "ecdsa": ("ecdsa",), "ec": ("ecdsa",),
                   "ecdh": ("ecdh",), "eddsa": ("ed25519", "ed448"), "sm2": ("sm2",),
                   "ffdh": ("ffdh",), "kem": ("kem:", "kem?:"), "sig": ("sig:", "kem?:")}


def index_agrees(n: int, rec: Progress, version) -> bool:
    """Whether ``+R<n>``'s index names the operation its ``+DTP`` prompt announced (by the
    table of the release, or of any release when it is unknown); an unknown index cannot
    disagree.

    >>> sign = dtp_record(["2048", "private", "rsa", "10"], 1)
    >>> index_agrees(1, sign, (3, 0, 0)), index_agrees(2, sign, (3, 0, 0)), index_agrees(99, sign, None)
    (True, False, True)
    """
    tables = [_R_40 if version >= (4, 0, 0) else _R_32 if version >= (3, 2, 0) else _R_30] \
        if version is not None else [_R_30, _R_32, _R_40]
    kinds = [t[n] for t in tables if n in t]
    return not kinds or any(op == rec.operation and (rec.family or "").startswith(
        _INDEX_FAMILIES.get(kind, (kind,))) for kind, op in kinds)


def r_record(n: int, fields: list[str], pending: Progress | None, version,
             lineno: int) -> Progress | None:
    """Complete (or create) the progress record of an ``+R<n>:count:...:time`` line; None when
    its index contradicts the operation its ``+DTP`` prompt announced (it cannot be placed)."""
    count, time = int(fields[0]), float(fields[-1])
    middle = fields[1:-1]
    if pending is not None and not pending.used and pending.block is None and pending.count is None:
        if not index_agrees(n, pending, version):
            return None
        rec = pending
    else:
        table = _R_40 if version is not None and version >= (4, 0, 0) else \
            _R_32 if (version is not None and version >= (3, 2, 0)) or n > 12 else _R_30
        kind, op = table.get(n, ("pkey", None))
        bits = int(middle[0]) if middle and middle[0].isdigit() else None
        curve = next((x for x in middle if not x.isdigit()), None)
        if kind in ("rsa", "dsa", "ffdh"):
            fam, alg = kind, f"{kind}{bits}"
        elif kind in ("kem", "sig"):
            alg = canonical(curve or "?")[0]
            fam = f"{kind}:{alg}"
        else:
            what = f"{op} {curve}" if curve else f"{op} {kind}"
            if kind == "ecdh" and not curve:
                what = " ecdh"
            fam, alg, op = pk_identity(bits or 0, what)
        rec = Progress(lineno, f"+R{n}", None, fam, bits, alg, op)
    rec.count, rec.seconds = count, time
    return rec


def dtp_record(fields: list[str], lineno: int) -> Progress:
    """The progress record announced by ``+DTP:bits:str:str2:secs`` or ``+DTP:name:op:secs``."""
    if len(fields) == 3:  # 3.2+ KEM/SIG
        name, op = fields[0], fields[1]
        alg = canonical(name)[0]
        # keygen is shared by KEM and SIG: "kem?" is settled by the algorithm's later records.
        kind = "sig" if op in ("signs", "verify") else "kem" if op in ("encaps", "decaps") else "kem?"
        return Progress(lineno, name, None, f"{kind}:{alg}", None, alg,
                        "sign" if op == "signs" else op)
    bits = int(fields[0])
    fam, alg, op = pk_identity(bits, f"{fields[1]} {fields[2]}")
    return Progress(lineno, f"{bits} bits {fields[1]} {fields[2]}".replace("  ", " "), None, fam,
                    bits, alg, op)
