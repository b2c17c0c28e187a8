"""The human-readable ``openssl speed`` summary: header block, throughput table, public-key tables.

Why this module exists: this is the form people paste most (SSLeay/OpenSSL 0.9.7 to 4.x and
LibreSSL terminal output). It knows the printf formats of ``apps/speed.c`` (see
``openssl-speed-formats.md`` §3-§5) and nothing about runs or frames: each function looks at one
cleaned line and says what it is. The run-building state machine lives in ``_openssl.py``.
"""

from __future__ import annotations

import re

from cipherlab.readers import _units
from cipherlab.readers._units import times_1000
from cipherlab.readers._names import pkey_algorithm

# --- header block (§3.2) --------------------------------------------------------------------
# (`openssl version` prints "OpenSSL 3.4.1, built on ..." from 3.4 on; people introduce it
# with "Version: OpenSSL 1.1.0f  25 May 2017"; after the version it prints a date, "xx XXX xxxx"
# in a development build, "FIPS", "[engine]" or "(Library: ...)": other words after one are
# prose, "OpenSSL 3.1.4 on the Pi 5:", read as prose)
_VERSION_OLD = re.compile(
    r"^(?:[Vv]ersion:\s*)?(?P<lib>OpenSSL|LibreSSL|SSLeay|BoringSSL)\s+"
    r"(?P<version>\d+\.\d+\.\d+[a-z]{0,2}(?:-[\w.]+)*)"
    r"(?:,?\s+(?P<rest>(?:\d|xx\b|FIPS\b|\[|built\b|\(Library\b).*?))?\s*$")
_VERSION_NEW = re.compile(r"^version:\s*(?P<version>\d+\.\d+\.\d+\S*)\s*$")
_META = (
    ("built_on", re.compile(r"^built on:?\s*(?:built on:\s*)?(?P<v>.*?)\s*$")),
    ("options", re.compile(r"^options:\s?(?P<v>.*?)\s*$")),
    ("compiler", re.compile(r"^(?:compiler:|C flags:)\s?(?P<v>.*?)\s*$")),
    ("cpuinfo", re.compile(r"^CPUINFO:\s*(?P<v>.*?)\s*$")),
    ("timing_options", re.compile(r"^available timing options:\s*(?P<v>.*?)\s*$")),
    ("timing_function", re.compile(r"^timing function used:\s*(?P<v>.*?)\s*$")),
)
#: What every line :func:`meta_line` (or :func:`version_line`) reads starts with.
META_PREFIXES = ("built on", "options:", "compiler:", "C flags:", "CPUINFO:", "available timing",
                 "timing function")
VERSION_PREFIXES = ("version:", "Version:", "OpenSSL", "LibreSSL", "SSLeay", "BoringSSL")
ELAPSED_NOTICES = ("You have chosen to measure elapsed time",)
# (0.9.8 prints "To get the most accurate results" whenever user time is not measured: with
# -elapsed, or where times() is missing; timing comes from "timing function used:")
NOTICES = ("The 'numbers' are in 1000s of bytes", "First we calculate the approximate speed",
           "[exit status:", "----- stdout", "----- stderr",
           "To get the most accurate results, try to run this", "program when this computer is idle.")
_ENGINE = re.compile(r'^[Ee]ngine "(?P<engine>[^"]+)" set\.\s*$')
# Error stacks and failure notices (stderr); they explain missing rows, they are not data.
_ERR_STACK = re.compile(r"^(?:[0-9A-Fa-f]+|\d+):error:[0-9A-Fa-f]+:")
_FAILURE = re.compile(r"failure|error!|don't match|^Error |^Too many |MemAlloc|Signing error|"
                      r"Verify (?:2 )?error|Encaps error|Decaps error|^Child |^Waiting for child|"
                      r"^Waitng for child|^Don't understand line|^Unknown type|^fdopen failure|"
                      r"^Error initializing")
# Continuations of wrapped `options:` (`aes(partial) blowfish(idx)`) and `compiler:` lines.
# (The possessive `++` keeps a failing match linear: a word split every way it can be took
# 10 us on "compiler: gcc", 50 ms on "available timing options: ...". Same lines match.)
OPTIONS_CONT = re.compile(r"^(?:[a-z0-9_]++(?:\([^)]*\))?\s*)+$")
COMPILER_CONT = re.compile(r"^-[A-Za-z]")


def version_line(line: str) -> tuple[str, str] | None:
    """``(tool, version)`` from the first line of the header block, else None.

    >>> version_line("OpenSSL 1.1.1w  11 Sep 2023"), version_line("version: 3.0.19")
    (('openssl', '1.1.1w'), ('openssl', '3.0.19'))
    >>> version_line("LibreSSL 2.2.7"), version_line("OpenSSL offers a speed tool")
    (('libressl', '2.2.7'), None)
    >>> version_line("OpenSSL 3.4.1, built on 11 Feb 2025"), version_line("Version: OpenSSL 1.1.0f")
    (('openssl', '3.4.1'), ('openssl', '1.1.0f'))
    >>> version_line("OpenSSL 3.1.4 on the Pi 5:") is None  # (prose that states a version)
    True
    """
    c = line[:1]
    if c == "v":
        m = _VERSION_NEW.match(line)
        if m:
            return "openssl", m["version"]
    if c in "OLSBVv":
        m = _VERSION_OLD.match(line)
        if m:
            return m["lib"].lower(), m["version"]
    return None


def meta_line(line: str) -> tuple[str, str] | None:
    """``(field, value)`` for ``built on:``, ``options:``, ``compiler:``, ``CPUINFO:`` ... lines.

    >>> meta_line("built on: built on: Thu Aug  5 18:45:56 2021 UTC")
    ('built_on', 'Thu Aug  5 18:45:56 2021 UTC')
    """
    if not line.startswith(META_PREFIXES):
        return None
    for field, rx in _META:
        m = rx.match(line)
        if m:
            return field, m["v"]
    return None


def timing_of(functions: str) -> str | None:
    """The timing a 0.9.x ``timing function used:`` line names: ``times`` and ``getrusage``
    measure user CPU time, ``ftime`` and ``gettimeofday`` the wall clock (``-elapsed``).

    >>> timing_of("times"), timing_of("getrusage"), timing_of("gettimeofday"), timing_of("")
    ('cpu', 'cpu', 'elapsed', None)
    """
    names = set(functions.replace(",", " ").split())
    if names & {"times", "getrusage"}:
        return "cpu"
    return "elapsed" if names & {"ftime", "gettimeofday"} else None


def engine_line(line: str) -> str | None:
    m = _ENGINE.match(line) if line[:1] in "Ee" else None
    return m["engine"] if m else None


# Texts one of which each line _ERR_STACK or _FAILURE match holds ("rror": "error", "Error"):
# most lines hold none, and are told so without a regex.
FAILURE_WORDS = ("rror", "failure", "don't match", "MemAlloc")
FAILURE_STARTS = ("Too many ", "Child ", "Waiting for child", "Waitng for child",
                  "Don't understand line", "Unknown type")


def is_failure(line: str) -> bool:
    """Error-stack and failure lines: kept out of the data, never warned about."""
    if not (line.startswith(FAILURE_STARTS) or any(w in line for w in FAILURE_WORDS)):
        return False
    return bool(_ERR_STACK.match(line) or _FAILURE.search(line))


# --- symmetric table (§4) ---------------------------------------------------------------------
_SIZES = re.compile(_units.SIZE)
# (no `\s*` right after "type": two quantifiers over the same blanks made a failing match
# backtrack ten times longer; the sizes as people write them, see _units.SIZE)
_SYM_HEADER = re.compile(rf"^type((?:\s*{_units.SIZE})+)\s*$")
#: A `type` header cut short by a mail client (``type   16 bytes ... 8192``).
SYM_HEADER_HEAD = re.compile(r"^type(?:\s+\d+\s+bytes)*(?:\s+\d+)?\s*$")
# openssl prints "%11.2f" (k or not); exactly two decimals keeps prose numbers ("5.2") out.
_VAL = r"(?:-?\d[\d,]*\.\d\dk?|-?(?:inf|nan)k?)"
VALUE = re.compile(_VAL)
_VALUE_TOKEN = re.compile(_VAL + "$")
_VALUES_ONLY = re.compile(rf"^{_VAL}(?:\s+{_VAL})*$")
# cells of "%.2fk", or openssl's "0.00" for a size not measured (0 whether shifted or not)
_K_ROW = re.compile(r"(?:-?\d+\.\d\dk|0\.00)(?: (?:-?\d+\.\d\dk|0\.00))*")
# The values that end a row, read backwards: values (reversed, each a whole token) from the
# line's end, and the blanks before the first (so that a name, if any, ends where the match does).
_VAL_REVERSED = r"(?:k?\d\d\.[\d,]*\d-?|k?(?:fni|nan)-?)"
_VALUES_TAIL_REVERSED = re.compile(rf"\s*(?:{_VAL_REVERSED}(?=\s|$)\s*)+")
_ROW = re.compile(rf"^(?P<name>\S.*?)\s+(?P<values>{_VAL}(?:\s+{_VAL})*)\s*$")
# Blocks of table rows read from the raw text (``_blocks._BlockReaders.row_block``): the plain cells
# openssl prints for every measured size, and names made of printable characters other than "^"
# (clean() reads "^[" as an escape) whose words start with none of "-.0123456789", so that no
# value is taken for a word of the name (nor, as names with values are not rows, the reverse).
_PLAIN = r"\d++\.\d\dk?+"
_WORD = r"[!-,/:-\]_-~][!-\]_-~]*+"
#: A raw line ending in a newline that clean() only strips (blanks and ``>`` quoting before it):
#: a row of plain cells (groups name and values, as :func:`sym_row` splits the cleaned line),
#: or plain cells only (group 4: the tail of a row wrapped by a mail client). The name does not
#: start with "+" or "D" (such lines go through the whole dispatch) nor "|*#-" (more quoting).
#: A line of plain cells right after a row is taken with it (group 3), so that a row wrapped
#: once is one record. (Every part can match in one way only, as no word starts like a cell and
#: blanks part them: the possessive quantifiers say so, and save the regex a third of its time.)
_CELLS_LINE = rf"[ \t>]*+({_PLAIN}(?:[ \t]++{_PLAIN})*+)[ \t]*+\n"
ROW_LINE = re.compile(
    rf"^(?:[ \t>]*+((?![|*#+D>]){_WORD}(?:[ \t]++{_WORD})*+)((?:[ \t]++{_PLAIN})++)[ \t]*+\n"
    rf"(?:{_CELLS_LINE})?|{_CELLS_LINE})", re.M)
ROW_LINES = re.compile(f"(?:{ROW_LINE.pattern})+", re.M)
#: Lines that may be such rows (printable, ending in a cell), found cheaply.
ROW_CANDIDATES = re.compile(r"(?:[ \t>]*[!-~][ -~]*[\dk][ \t]*\n)+")


def sym_header(line: str) -> list[int] | None:
    """Block sizes of a ``type 16 bytes 64 bytes ...`` header, else None.

    >>> sym_header("type             16 bytes     64 bytes"), sym_header("type sign")
    ([16, 64], None)
    >>> sym_header("type 16B 64B 1KB 16K"), sym_header("type bytes16 bytes16384")
    ([16, 64, 1024, 16384], [16, 16384])
    """
    m = _SYM_HEADER.match(line)
    return [_units.block_size(x[0]) for x in _SIZES.finditer(m[1])] if m else None


def cut_value(toks: list[str]) -> bool:
    """Whether a row's last value lost its tail to the next line (a terminal's width): the
    last value is 10000 or more without openssl's ``k`` (openssl prints a rate below 10000 B/s
    in bytes, without it, and any larger one in thousands, with it).

    >>> cut_value(["2591570.71k", "40573"]), cut_value(["2591570.71k", "4057302.55k"])
    (True, False)
    >>> cut_value(["0.00", "0.00"]), cut_value(["10.00k", "1.00"]), cut_value(["10.00k", "405"])
    (False, False, False)
    """
    last = toks[-1]
    return last[-1] != "k" and last.replace(".", "", 1).isdigit() and float(last) >= 10000


def values_only(line: str) -> list[str] | None:
    """A line of value tokens only (the wrapped tail of a row), else None."""
    return line.split() if _VALUES_ONLY.match(line) else None


def sym_row(line: str) -> tuple[str, list[str]] | None:
    """``(name, value tokens)`` of a throughput row, else None.

    >>> sym_row("aes-128 cbc     1354589.59k  1789186.55k")
    ('aes-128 cbc', ['1354589.59k', '1789186.55k'])
    >>> sym_row("md4                  0.00         0.00 ")
    ('md4', ['0.00', '0.00'])
    """
    # The values are the longest blank-separated run of values that ends the line: matched on
    # the reversed line from its end, one match in C (a search for the leftmost run from each
    # start was quadratic on a long row followed by a word).
    m = _VALUES_TAIL_REVERSED.match(line[::-1])
    if m is None:
        return None
    start = len(line) - m.end()
    name = line[:start].split()
    if not name or (len(name) == 1 and _VALUE_TOKEN.match(name[0])):
        return None  # every token is a value: no name
    return " ".join(name), line[start:].split()


def bytes_per_s(tok: str) -> float:
    """A table cell in bytes/s: ``k`` cells are thousands (×1000, decimal), others are raw.

    >>> bytes_per_s("1354589.59k"), bytes_per_s("9876.54"), bytes_per_s("1,086,559.57k")
    (1354589590.0, 9876.54, 1086559570.0)
    """
    if "," in tok:
        tok = tok.replace(",", "")
    return times_1000(tok[:-1]) if tok[-1] == "k" else float(tok)


def row_bytes_per_s(tokens: list[str]) -> list[float]:
    """:func:`bytes_per_s` of each cell of a row, the common row in one go.

    A row of openssl's ``%.2fk`` cells only (the rule; ``0.00`` cells may be among them) gets
    :func:`times_1000`'s exact shift of the decimal point for all its cells at once, in C; any
    other row goes cell by cell.

    >>> row_bytes_per_s(["1354589.59k", "-0.01k", "0.00"]), row_bytes_per_s(["8723.72", "1,000.50k"])
    ([1354589590.0, -10.0, 0.0], [8723.72, 1000500.0])
    """
    text = " ".join(tokens)
    if _K_ROW.fullmatch(text):
        return list(map(float, text.replace(".", "").replace("k", "0").split()))
    return list(map(bytes_per_s, tokens))


def plain_values(text: str) -> list[float]:
    """:func:`bytes_per_s` of each plain cell (``%.2f`` or ``%.2fk``) of a text, in C.

    A ``k`` cell written with the exponent ``e3`` is the same decimal number as the shifted
    text of :func:`times_1000`, and ``float`` rounds both correctly: the same float.

    >>> plain_values("1354589.59k 4948.62\\n 0.00")
    [1354589590.0, 4948.62, 0.0]
    """
    return list(map(float, text.replace("k", "e3").split()))


# --- public-key tables (§5) -------------------------------------------------------------------
# kind -> operations of the rate columns, in order
OPS = {
    "sign": ("sign", "verify"),
    "rsa4": ("sign", "verify", "encrypt", "decrypt"),
    "op": ("derive",),
    "kem": ("keygen", "encaps", "decaps"),
    "sig": ("keygen", "sign", "verify"),
}
_HEADERS = (
    ("rsa4", re.compile(r"^sign\s+verify\s+encrypt\s+decrypt\s+sign/s\s+verify/s\s+encr\./s\s+decr\./s$")),
    ("sign", re.compile(r"^sign\s+verify\s+sign/s\s+verify/s$")),
    ("op", re.compile(r"^op\s+op/s$")),
    ("kem", re.compile(r"^keygen\s+encaps\s+decaps\s+keygens/s\s+encaps/s\s+decaps/s$")),
    ("sig", re.compile(r"^keygen\s+signs\s+verify\s+keygens/s\s+sign/s\s+verify/s$")),
)
# Leading parts of wrapped public-key headers, with the kind they can grow into.
_HEADER_HEADS = (
    ("rsa4", re.compile(r"^sign\s+verify\s+encrypt\s+decrypt(?:\s+sign/s(?:\s+verify/s(?:\s+encr\./s)?)?)?$")),
    ("sign", re.compile(r"^sign\s+verify(?:\s+sign/s)?$")),
    ("kem", re.compile(r"^keygen\s+encaps\s+decaps(?:\s+keygens/s(?:\s+encaps/s)?)?$")),
    ("sig", re.compile(r"^keygen\s+signs\s+verify(?:\s+keygens/s(?:\s+sign/s)?)?$")),
)
_NUM = r"(?:\d+\.\d+|-?inf|-?nan)"
_PK_NAME = re.compile(
    r"^\s*(?:(?P<rd>rsa|dsa)\s+(?P<rbits>\d+)\s+bits?"
    r"|(?P<bits>\d+)\s*-?\s*bits?\s+(?:(?P<kind>ecdsa|ecdh|EdDSA|SM2|EC|eddsa|sm2)\s+\(\s*(?P<curve>[^)]+?)\s*\)"
    r"|(?P<ffdh>ffdh)))(?P<rest>(?:\s+" + _NUM + r"s?)*)\s*$")
#: A raw line (ending in a newline) that clean() only strips, holding a public-key row as
#: openssl prints it: ``rsa|dsa N bits`` or ``N bits ecdsa|ecdh|EdDSA|SM2 (curve)`` or ``N bits
#: ffdh`` (group 1, the name :func:`pkey_row` gives; 1.0.2 prints "bit"), times ``0.000289s``
#: (group 2) and rates of one decimal ``%.1f`` (group 3). The last cell thus is no table value
#: (:func:`sym_row` reads none), and :func:`pkey_row` reads the same name and tokens.
PK_LINE = re.compile(
    r"^[ \t>]*+((?:rsa|dsa) ++\d++ ++bits?|\d++ ++bits? ++(?:(?:ecdsa|ecdh|EdDSA|SM2) ++\([\w-]++\)"
    r"|ffdh))"
    r"((?: ++\d++\.\d++s)++)((?: ++\d++\.\d)++)[ \t]*+\n", re.M)
_KS_ROW = re.compile(r"^(?P<name>\S+)(?P<rest>(?:\s+" + _NUM + r"s?)+)\s*$")
_PK_CONT = re.compile(r"^(?:" + _NUM + r"s?\s*)+$")


def pkey_header(line: str) -> str | None:
    """The kind of a public-key table header (``sign``, ``rsa4``, ``op``, ``kem``, ``sig``)."""
    for kind, rx in _HEADERS:
        if rx.match(line):
            return kind
    return None


def pkey_header_head(line: str) -> str | None:
    """The kind a wrapped (cut short) public-key header will become, else None."""
    for kind, rx in _HEADER_HEADS:
        if rx.match(line):
            return kind
    return None


def pkey_continuation(line: str) -> list[str] | None:
    """The wrapped tail of a public-key row (``0.000017s  59355.3``), else None."""
    return line.split() if _PK_CONT.match(line) else None


def pkey_row(line: str) -> tuple[str, str, str, int | None, list[str]] | None:
    """Parse a public-key row; return ``(name, family, algorithm, bits, number tokens)``.

    ``family`` is how progress lines name the algorithm (``rsa``, ``dsa``, ``ecdsa``, ``ecdh``,
    ``ffdh``, or the algorithm itself for ``ed25519``/``ed448``/``sm2``): the key that ties a
    row to its ``Doing ...`` lines.

    >>> pkey_row("rsa 2048 bits 0.000289s 0.000016s   3457.6  64488.0")[1:4]
    ('rsa', 'rsa2048', 2048)
    >>> pkey_row(" 253 bits EdDSA (Ed25519)   0.0000s   0.0001s  29301.0  11179.8")[1:4]
    ('ed25519', 'ed25519', 253)
    """
    m = _PK_NAME.match(line)
    if m is None:
        return None
    rest = m["rest"].split()
    name = line[: m.start("rest")].strip()
    if m["rd"]:
        bits = int(m["rbits"])
        return name, m["rd"], f"{m['rd']}{bits}", bits, rest
    bits = int(m["bits"])
    if m["ffdh"]:
        return name, "ffdh", f"ffdh{bits}", bits, rest
    kind = m["kind"].lower()
    algorithm = pkey_algorithm(kind, bits, m["curve"])
    return name, family(kind, algorithm), algorithm, bits, rest


def family(kind: str, algorithm: str) -> str:
    """The progress-line family of a public-key algorithm (see :func:`pkey_row`)."""
    if algorithm in ("ed25519", "ed448", "sm2"):
        return algorithm
    if kind in ("rsa", "dsa", "ffdh"):
        return kind
    return "ecdh" if kind == "ecdh" or algorithm.startswith("ecdh") or algorithm in (
        "x25519", "x448") else "ecdsa"


def kem_sig_row(line: str) -> tuple[str, list[str]] | None:
    """``(name, number tokens)`` of a KEM/SIG row (``rsa2048 0.034757s ... 59290.0``)."""
    m = _KS_ROW.match(line)
    return (m["name"], m["rest"].split()) if m else None


def rates(tokens: list[str]) -> list[float]:
    """The rate columns of a public-key row: the tokens without the ``s`` suffix.

    A rate printed ``0.0`` beside a measured time per operation is a measurement too slow for
    ``%.1f`` (rsa15360's keygen: 73.9 s, 0.0/s), so it is the time's inverse; with no time
    beside it (a zero time, or no time column) it stays 0.0, openssl's "not measured".

    >>> rates(["73.900000s", "0.000746s", "0.0", "1339.7"]), rates(["0.000000s", "0.0"])
    ([0.0135318, 1339.7], [0.0])
    """
    out = [float(t) for t in tokens if t[-1] != "s"]
    if 0.0 in out:
        per_op = [float(t[:-1]) for t in tokens if t[-1] == "s"]
        if len(per_op) == len(out):
            out = [1.0 / t if r == 0.0 and t > 0.0 else r for r, t in zip(out, per_op)]
    return out


def times(tokens: list[str]) -> list[float]:
    """The time columns (seconds per operation) of a public-key row."""
    return [float(t[:-1]) for t in tokens if t[-1] == "s"]
