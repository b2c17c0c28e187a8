"""Document tables in any orientation: what each header cell and row name of a grid says.

Why this module exists: people retype benchmark results into tables of every shape, not only
openssl's (algorithms as rows, block sizes as columns, read by :mod:`._tables`). Block sizes
become rows and builds the columns (``| 16 bytes | 14357.22k | 15271.90k |`` under ``| Decrypt
Test | Baseline | Optimized |``); operations become rows (``sign/s``, ``RSA 2048 signing``) and
libraries the columns (``AWS-LC (ops/sec)``); versions become rows and algorithms the columns,
the block size in the header cell (``AES-256-GCM (8K)``); one row per algorithm and size with
``min``/``max``/``avg`` columns (long format), rows grouped under a name written once, derived
columns (``Improvement``, ``-14.5%``, ``Speed-up``) beside the measurements.

The reading is the same for all of them. Every header cell and every row name (the leading
"key" cells of a row) is classified by :func:`role` as a block size, an algorithm (maybe with
its size or a variant tag: ``AES-256-GCM (8K)``, ``256 bits SM2 (Before)``), an operation
(``sign/s``), a public-key measure (``RSA 2048 verify (fresh key)``), a statistic (``avg``), a
derived or time quantity or a property (``Speed-up``, ``Key size``: never a measurement), the
measurement itself (``Throughput (MB/s)``, ``ops/sec``), or a run (anything else: a build,
version, library or machine). A cell is what its row and its column say together, completed
by the corner cell, the caption and the prose above (the one algorithm the command or the prose
names, the unit a heading states). A cell is placed only when that gives one algorithm and
either a block size (throughput) or an operation (ops/s); a row naming an algorithm whose
numbers cannot be placed so (no block size, two algorithms, a key agreement's number nothing
calls a rate) is reported, and a table whose cells name no algorithm is not a benchmark table.

Columns (or rows) that are runs give one :class:`~cipherlab.model.Run` each, labelled by their
text (``Baseline (C)``; a version such as ``1.1.1w`` also gives ``tool_version``, a library name
the ``tool``); statistic columns give a ``stat`` condition; key columns after the first that
describe the machine (``CPU MHz``, ``Cores``) give conditions named after their header.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Any

from cipherlab.readers._bssl import TOOL_NAME, describe
from cipherlab.readers._names import OPERATIONS, canonical, canonical_operation, is_curve, is_known, switch
from cipherlab.readers._units import INTEGER, PK_FAMILY, rates_in, sized_name, stated_unit, unit_only
from cipherlab.readers._units import block_size as _block_size  # (this module's block_size adds bare)

__all__ = ["ALGORITHM_CLASS", "CPU_COUNTS", "RUN_HEADER", "Repeat", "Role", "algorithm_of", "algorithm_words",
           "condition_key", "is_derived", "named_algorithms", "read_grid", "role", "run_meta",
           "split_tag"]

# Kinds of role.
SIZE, ALGORITHM, OPERATION, MEASURE, STAT, DERIVED, PROPERTY, VALUE, RUN, SWITCH, BLANK = (
    "size", "algorithm", "operation", "measure", "stat", "derived", "property", "value", "run",
    "switch", "blank")
REPEAT = "repeat"  # (a row's repetition: a run of its own, of the same setting as the others)
_MEASURED = (SIZE, OPERATION, MEASURE, STAT, DERIVED, VALUE, BLANK)  # (a column's title says so)

_DECIMAL = re.compile(r"\d[.,]\d")  # (in a value or a version, never in an algorithm's name)
_BITS = re.compile(r"^(\d+)\s*bits?\s+", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
# Quantities computed from the measurements, or times: never a measurement of their own.
# (a word boundary before the alternatives, not in each: the same matches, ten times faster)
_DERIVED = re.compile(r"\b(?:improv|ratios?\b|speed-?ups?\b|gains?\b|changes?\b|diff|delta\b|"
                      r"relative\b|factor\b|scaling\b|vs\.?(?!\w)|versus\b|increase|decrease|"
                      r"faster\b|slower\b|percent|std|stdev\b|deviation\b|cv\b|errors?\b|"
                      r"latency\b|time\b|ms\b|us\b|ns\b|seconds?\b|limits?\b|bounds?\b|asymptotic|"
                      r"predicted\b|theoretical\b|shares?\b|fraction\b|overhead\b|"
                      r"per[\s-]?(?:core|thread|process|proc|cpu|job|worker)\b)|/\s*(?:core|thread)\b|"
                      r"%|\u00b5s|[\u0394\u2206]|\(\s*(?:s|secs?)\s*\)",  # (a delta sign, "Δ"; "(s)")
                      re.IGNORECASE)
# (a time: openssl's "0.0002s" beside a rate, or time(1)'s "0m18.127s", "1h2m3.5s")
_DERIVED_CELL = re.compile(r"^[+-]?[\d.,]+\s*(?:%|x|\u00d7)$|^baseline$|^[+-]?(?:\d+h)?(?:\d+m)?[\d.]+s$",
                           re.IGNORECASE)
# A title stating how many processes measured the cells under it (``-multi 4``, ``8 threads``,
# ``single-threaded``): openssl's ``-multi``, a condition of those cells. ("16 cores" may as
# well be a machine's size, a VM's: a run's name.)
_PROCESS_COUNT = re.compile(r"^(?:-(?:multi|j)\s*=?\s*(?P<option>\d+)|multi\s*[=:]\s*(?P<key>\d+)|"
                            r"(?P<n>\d+)[\s-]*(?:process(?:es)?|procs?|threads?|threaded|jobs?|workers?)|"
                            r"single[\s-]*(?:process|thread(?:ed)?|core|job))$", re.IGNORECASE)
# A header whose rows' numbers count the processes run (``-multi``, ``Processes``, ``Jobs``)...
_PROCESS_HEADER = re.compile(r"^(?:-?multi(?:\s+n)?|n?procs?|processes|jobs|workers|parallel(?:ism)?|"
                             r"concurrency|-j)(?:\s*[(\[].*[)\]])?$", re.IGNORECASE)
# ... or the CPUs of a machine or the processes run (``Threads``, ``Cores``): a count of
# processes only where it varies between the cells of one run (see :data:`CPU_COUNTS`).
_CPU_COUNT_HEADER = re.compile(r"^(?P<key>threads?|cores?|cpus|vcpus)(?:\s*[(\[].*[)\]])?$",
                               re.IGNORECASE)
#: The conditions :func:`condition_key` names from a header counting CPUs or processes.
CPU_COUNTS = ("threads", "cores", "cpus", "vcpus")
# A row or column summing up the others: never a measurement of its own.
_SUMMARY = re.compile(r"^(?:total|sum|overall|geo-?mean|geometric mean|all)$", re.IGNORECASE)
# A value no title or name is: openssl's "%.2fk", or a number too long for a version ("41120.7")
_VALUE_TEXT = re.compile(r"\d[\d,]*\.\d+k|\d{3,}[\d,]*\.\d+")
#: Flag of a cell that is a statistic of runs the text does not show (a min, max, mean or
#: median column): no run's measurement, so no replicate either.
FLAG_SUMMARY = "summary of runs"
_STATS = {"min": "min", "minimum": "min", "max": "max", "maximum": "max", "avg": "mean",
          "average": "mean", "mean": "mean", "median": "median", "med": "median"}
# A column that holds the measurement itself, without naming a run ("Throughput (MB/s)").
_VALUE_WORDS = re.compile(r"(?:throughput|speed|rate|result|results|value|performance|"
                          r"bandwidth|ops|operations|aggregate)", re.IGNORECASE)
# A value word and a unit apart from it by a blank, "_", ":" or "-" (a spreadsheet's or a
# script's column title): the unit is checked by unit_only
_WORDED_UNIT = re.compile(_VALUE_WORDS.pattern + r"[\s_:-]+(?P<unit>\S+)", re.IGNORECASE)
# Where rows count processes, a "Total" is the sum over them: openssl -multi's own figure.
_TOTAL = re.compile(r"^(?:total|sum|combined)$", re.IGNORECASE)
_OPS_UNIT = re.compile(r"(?:ops?|operations?)(?:/|\s+per\s+)s(?:ec(?:ond)?)?", re.IGNORECASE)
# Header words of the key columns (row names): what the cells under them are.
_SIZE_HEADER = re.compile(r"\b(?:bytes?\b|block|buffer|chunk|payload)|(?<![\w-])size\b",
                          re.IGNORECASE)
# Sizes in a header that are not block sizes ("Key size", "IV bytes").
_NOT_BLOCK_SIZE = re.compile(r"\b(?:key|digest|hash|output|bits?\b|security|tag\b|iv\b|nonce|salt)",
                             re.IGNORECASE)
# Properties of an algorithm, not measurements (nor block sizes): "Key size", "Digest length".
_PROPERTY = re.compile(r"\b(?:keys?\b|bits?\b|length|size\b|level\b|years?\b|date\b|price|"
                       r"count\b|notes?\b|security|cycles|cpb\b|digest\b|output\b|rounds?\b)",
                       re.IGNORECASE)
# Counts, positions and test statistics (a results table's "n", "p (Holm)", "Line", "R²"):
# never a measurement, however numeric.
_COUNT = re.compile(r"n(?:\u00bd|\s+\w+|_\w+)?|p(?:[\s_-]?(?:values?|adj(?:usted|\.)?))?|lines?|"
                    r"files?|sources?|runs|cells|samples|repeats|r\u00b2|r\^?2|r_squared|sizes|"
                    r"signif\.?|significant|min_p|r", re.IGNORECASE)  # ("R²": its "²" read as a mark)
_PK_OP_WORD = re.compile(r"\b(?:sign|signing|signs|verify|verification|key generation|keygen|"
                         r"generate|parse|encaps?|decaps?|encrypt|decrypt|derive)\b", re.IGNORECASE)
#: A header cell saying its column names runs (builds, versions, machines), not algorithms.
# A column counting repetitions of one setting ("rep", "iteration", "trial", "run #"): with
# whole numbers under it, each row is a run of its own, and the number names no machine or
# setting (the runs are replicates, the unit the statistics count).
_REPEAT_HEADER = re.compile(r"^(?:reps?|repeats?|repetitions?|replicates?|iterations?|iter|"
                            r"trials?|rounds?|attempts?|samples?|runs?)(?:\s*(?:#|no\.?|n|id|idx|index))?$",
                            re.IGNORECASE)


class Repeat(str):
    """A repetition's number in a run key: it keeps the runs apart, it names none of them."""


RUN_HEADER = re.compile(r"^(?:openssl\s+)?(?:version|versions|release|build|builds|library|"
                         r"libraries|lib|machine|machines|host|hosts|system|systems|platform|"
                         r"device|board|cpu|processor|implementation|variant|tool)s?$",
                         re.IGNORECASE)
#: A section row naming a class of algorithms ("Hashes", "Symmetric ciphers", "Public key"):
#: it groups the rows below it, it starts no run.
ALGORITHM_CLASS = re.compile(r"^(?:(?:symmetric|asymmetric|public[\s-]key|block|stream|"
                             r"authenticated|post[\s-]quantum|pqc?)\s*)?(?:ciphers?|aead|"
                             r"encryption|hash(?:es|ing)?(?: functions?)?|digests?|macs?|"
                             r"signatures?|key (?:exchange|agreement)|kems?|kex|algorithms?|"
                             r"primitives?|crypto(?:graphy)?)?\s*:?$", re.IGNORECASE)
_KEY_HEADER = re.compile(r"^(?:cipher|ciphers|algorithm|algorithms|algo|type|name|digest|hash|"
                         r"primitive|function|mode|curve|key|operation|operations|op|test|"
                         r"test item|item|benchmark)s?$", re.IGNORECASE)
# Columns that describe the machine: conditions, not measurements, even though they hold numbers.
_CONDITION_HEADER = re.compile(r"^(?:cpu\s+)?(?:mhz|ghz|clock|freq|frequency|cores?|threads?|cpus?|"
                               r"model|cpu model|version|kernel|compiler|os|memory|ram)"
                               r"(?:\s*[(\[].*[)\]])?$", re.IGNORECASE)
# Operation words a corner cell or caption may hold ("Decrypt Test").
_CORNER_OPS = {"encrypt": "encrypt", "encryption": "encrypt", "decrypt": "decrypt",
               "decryption": "decrypt", "sign": "sign", "signing": "sign", "verify": "verify",
               "verification": "verify", "keygen": "keygen"}
# Programs whose tables are not cipher benchmarks, named in the sentence introducing a table
# ("perf" in lower case, as the program is written: "Perf check for ..." is a word).
_OTHER_PROGRAM = re.compile(r"\b(?:(?-i:perf)|sysbench|fio|"
                            r"iperf3?|wrk|h2load|hdparm|ioping|7-?zip|geekbench|tinymembench|mbw|"
                            r"iostat|vmstat|sar)\b", re.IGNORECASE)
_MEASURE_OPS = set(OPERATIONS) | {"parse"}
_VERSION_LABEL = re.compile(r"^v?(\d+\.\d+(?:\.\d+)?[a-z]{0,2})(?:[-+][\w.]+)?$")
_LIBRARY_VERSION = re.compile(r"\b(openssl|libressl|boringssl|aws-lc|tongsuo)\b[\s-]*v?"
                              r"(\d+\.\d+(?:\.\d+)?[a-z]{0,2})?", re.IGNORECASE)
# A token of prose that may name an algorithm: a MAC with its digest ("hmac(sha512)"), words
# joined by '-' or '_', or with digits, or one of the digit-less names no English word
# shares ("whirlpool"; not "seed", "idea", "cast": those name nothing in a sentence).
# (a token starts a word: one attempt per word keeps the scan linear)
_NAME_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:(?i:[hc]mac)\([\w-]{1,40}\)"
                         r"|[A-Za-z][A-Za-z0-9]*(?:[-_/][A-Za-z0-9]+)+"
                         r"|[A-Za-z]+\d[A-Za-z0-9]*"
                         r"|(?i:whirlpool|blowfish|siphash|ghash)(?![A-Za-z0-9]))")
# ("chacha20" alone is openssl's stream cipher of that name, "chacha20-256" a made-up one)
_FAMILY_ONLY = re.compile(r"^(?:aes|aria|camellia|sm4|des)(?:-\d+)?$|^chacha20-\d+$|"
                          r"^(?:aes-ni|rsa|dsa|ecdsa|ecdh|ffdh)$|-(?:gcm|cbc|ccm|ctr)-|"
                          r"(?<!^hmac)(?<!^cmac)\(")  # (a tag left in the name; a MAC's digest is not)


# MACs named by the digest they wrap, in parentheses (openssl's "hmac(sha256)").
_MAC_WRAPPERS = ("hmac", "cmac")


@dataclass(frozen=True)
class Role:
    """The role one header cell or row name plays in a grid, and what it says.

    >>> role("AES-256-GCM (8K)")
    Role(kind='algorithm', text='AES-256-GCM (8K)', algorithm='aes-256-gcm', operation='encrypt', block=8192)
    >>> role("RSA 2048 verify (fresh key)").conditions, role("sign/s").operation
    ((('key', 'fresh'),), 'sign')
    >>> role("AWS-LC (ops/sec)").run, role("Improvement ratio").kind, role("16 bytes").block
    ('AWS-LC', 'derived', 16)
    """

    kind: str
    text: str
    algorithm: str | None = None
    operation: str | None = None
    block: int | None = None
    run: str | None = None                       # the run a RUN role names (unit tag removed)
    tag: str | None = None                       # a variant tag: "(Before)" in "SM2 (Before)"
    unit: float | None = None                    # bytes/s per unit its parentheses state
    ops: bool = False                            # it says its numbers are operations/s
    conditions: tuple[tuple[str, str], ...] = ()

    def __repr__(self) -> str:  # only the fields that say something
        shown = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items()
                          if k in ("kind", "text") or v not in (None, (), False))
        return f"Role({shown})"


def block_size(text: str, bare: bool = False) -> int | None:
    """Bytes of a block-size cell or name (``16 bytes``, ``8K``, ``1,024 B``; a bare integer only
    when ``bare``: its column says it holds sizes).

    >>> block_size("16 bytes"), block_size("8K"), block_size("8 KB"), block_size("64", bare=True)
    (16, 8192, 8192, 64)
    """
    size = _block_size(text)  # (block sizes are powers of two: "8K" is 8192)
    if size is not None:
        return size
    return int(text.replace(",", "")) if bare and INTEGER.match(text) else None


def algorithm_of(name: str) -> str | None:
    """The canonical algorithm a name specifies, or None (a family alone, ``AES``, names none).

    >>> algorithm_of("AES-128-CBC"), algorithm_of("SM2"), algorithm_of("AES"), algorithm_of("RV64GC")
    ('aes-128-cbc', 'sm2', None, None)
    """
    if _DECIMAL.search(name):
        return None  # ("chacha20-poly1305 1,012.4 MB/s": a name and a value, cells run together)
    algorithm = canonical(name)[0]
    if not is_known(algorithm) or _FAMILY_ONLY.search(algorithm):
        m = _BITS.match(name)  # "2048 bits RSA", "256 bits SM2"
        if m is None:
            return None
        rest = name[m.end():].strip()
        sized = rest.lower() in ("rsa", "dsa", "ffdh")
        algorithm = canonical(f"{rest}{m[1]}" if sized else rest)[0]
        if not is_known(algorithm) or _FAMILY_ONLY.search(algorithm):
            return None
    return algorithm


_RATIO_OF = re.compile(r"^([^/\u00f7]{1,40})[/\u00f7]([^/\u00f7]{1,40})$")  # ("16K / 1K")


def is_derived(text: str) -> bool:
    """Whether a column title names a quantity derived from the measurements (``Gain``).

    >>> is_derived("Speed-up"), is_derived("Off/On (%)"), is_derived("aes-128-gcm")
    (True, True, False)

    An algorithm's name before the quantity's words names what it is derived from (the
    vocabulary takes "sha256 relative to baseline" for a name of its own, a variant of sha256):

    >>> is_derived("sha256 relative to baseline"), is_derived("AES-128-GCM speed-up")
    (True, True)
    >>> is_derived("16K / 1K"), is_derived("16384 B \u00f7 64 B"), is_derived("MB/s")
    (True, True, False)
    """
    if not text or block_size(text) is not None:
        return False
    ratio = _RATIO_OF.match(text) if "/" in text or "\u00f7" in text else None
    if ratio and all(block_size(side.strip()) is not None for side in ratio.groups()):
        return True  # ("16K / 1K": one size's rate over another's)
    if _SUMMARY.match(text) is not None:
        return algorithm_of(text) is None
    m = _DERIVED.search(text)
    if m is None:
        return False
    return algorithm_of(text) is None or (m.start() > 0 and algorithm_of(text[:m.start()].strip()) is not None)


# The rate columns of cipherlab's tidy frame (a table of it exported: ``stats.to_markdown``).
_TIDY_RATES = {"bytes_per_s": Role(VALUE, "", unit=1.0), "ops_per_s": Role(VALUE, "", ops=True)}


@functools.lru_cache(maxsize=4096)  # (a Role is frozen; tables repeat their names and titles)
def role(text: str, *, sizes: bool = False) -> Role:
    """Classify a header cell or row name (``sizes``: bare integers are block sizes)."""
    if not text:
        return Role(BLANK, text)
    if text[0] in "([" and text[-1] in ")]" and len(text) > 2:  # ("(MiB/s)" under "aes-128-cbc")
        inner = role(text[1:-1].strip(), sizes=sizes)
        unit = stated_unit(text) if inner.kind == RUN else None
        if inner.kind != RUN or unit is not None:
            return replace(inner, text=text) if unit is None else Role(VALUE, text, unit=unit)
    size = block_size(text, sizes)
    if size is not None:
        return Role(SIZE, text, block=size)
    low = text.lower()
    if low in _TIDY_RATES:  # (cipherlab's own columns, in a table it wrote: the unit is the name)
        return replace(_TIDY_RATES[low], text=text)
    switched = switch(text)
    if switched is not None:
        return Role(SWITCH, text, conditions=(switched,))
    count = _PROCESS_COUNT.match(text)
    if count:  # (a condition of the cells under it, as a switch is)
        n = count["option"] or count["key"] or count["n"] or "1"
        return Role(SWITCH, text, conditions=(("multi", str(int(n))),))
    if low in _STATS:
        return Role(STAT, text, conditions=(("stat", _STATS[low]), ("flag", FLAG_SUMMARY)))
    if _DERIVED.search(text) or _SUMMARY.match(text):
        return Role(DERIVED, text)
    if _OPS_UNIT.fullmatch(low):
        return Role(VALUE, text, ops=True)  # "op/s", "ops/sec": the rate, of no run
    operation = canonical_operation(text)
    if operation in OPERATIONS and low not in ("op", "ops"):
        return Role(OPERATION, text, operation=operation)
    if PK_FAMILY.match(text) and _PK_OP_WORD.search(text):
        algorithm, operation, _, conditions = describe(text)
        if operation in _MEASURE_OPS and is_known(algorithm):
            return Role(MEASURE, text, algorithm, operation,
                         conditions=tuple(sorted(conditions.items())))
    base, tag = split_tag(text)
    unit = _tag_unit(tag)
    ops = bool(tag and _OPS_UNIT.search(tag))
    sized = sized_name(base)  # "md5 1024", "AES-128-GCM 8K": the name at that block size
    name, size = sized if sized and algorithm_of(sized[0]) else (base, block_size(tag) if tag else None)
    algorithm = algorithm_of(name)
    if algorithm is not None:
        switched = switch(tag) if tag and size is None else None
        if switched is not None:  # ("AES-128-GCM (AES-NI off)": that row's condition)
            return Role(ALGORITHM, text, algorithm, canonical(name)[1], conditions=(switched,))
        return Role(ALGORITHM, text, algorithm, canonical(name)[1], block=size, unit=unit,
                     tag=None if size is not None or unit is not None or ops else tag)
    if _PROPERTY.search(text) or _COUNT.fullmatch(base):
        return Role(PROPERTY, text)
    if unit is not None or ops:
        inner = role(base)
        if inner.kind != RUN:
            return replace(inner, text=text, unit=unit, ops=ops)
        return Role(VALUE if _VALUE_WORDS.match(base) else RUN, text, run=base, unit=unit, ops=ops)
    unit = unit_only(text)  # ("MB/s" titling the one column of values: the rate, of no run)
    if unit is None:  # ("Throughput MB/s", "throughput_MBps": the rate's word, then its unit)
        worded = _WORDED_UNIT.fullmatch(text)
        unit = unit_only(worded["unit"]) if worded else None
    if unit is not None:
        return Role(VALUE, text, unit=unit)
    return Role(VALUE, text) if _VALUE_WORDS.fullmatch(text) else Role(RUN, text, run=text)


def split_tag(text: str) -> tuple[str, str | None]:
    """``AES-256-GCM (8K)`` -> (``AES-256-GCM``, ``8K``); a curve in parentheses is part of the
    name (``256 bits ecdsa (nistp256)``), and so is a MAC's digest (``hmac(sha512)``).

    >>> split_tag("AES-256-GCM (8K)"), split_tag("hmac(sha512)")
    (('AES-256-GCM', '8K'), ('hmac(sha512)', None))
    """
    k = text.rfind("(")
    if k <= 0 or not text.endswith(")") or ")" in text[k:-1]:
        return text, None
    tag = text[k + 1:-1].strip()
    wrapped = text[:k].strip().lower() in _MAC_WRAPPERS
    return (text, None) if wrapped or is_curve(tag) else (text[:k].rstrip(), tag)


def _tag_unit(tag: str | None) -> float | None:
    """The unit a title's parenthesised tag states: ``MB/s``, ``Gbps``, openssl's ``k``.

    >>> _tag_unit("k"), _tag_unit("MiB/s"), _tag_unit("1000s of bytes/s"), _tag_unit("8K")
    (1000.0, 1048576.0, 1000.0, None)
    """
    low = tag.lower() if tag else ""
    return stated_unit(f"({tag})") if low == "k" or "/" in low or "ps" in low or "1000s" in low \
        else None


def named_algorithms(text: str) -> list[str]:
    """The algorithms a line of prose names specifically (``AES-128-CBC``, ``rsa2048``).

    >>> named_algorithms("openssl speed -seconds 1 rsa2048 on an SG2042 (RV64GC)")
    ['rsa2048']
    """
    return [a for _, a in algorithm_words(text)]


def algorithm_words(text: str) -> list[tuple[str, str]]:
    """The words of a line of prose that name an algorithm, each with the algorithm.

    >>> algorithm_words("**chacha20 256** (KB/s)")
    [('chacha20', 'chacha20')]
    """
    return [(t, a) for t in _NAME_TOKEN.findall(text) if (a := algorithm_of(t)) is not None]


def run_meta(text: str) -> dict[str, Any]:
    """The run facts a run's name states: ``tool`` and ``tool_version``.

    >>> run_meta("1.1.1w"), run_meta("AWS-LC (ops/sec)")
    ({'tool_version': '1.1.1w'}, {'tool': 'aws-lc', 'tool_version': None})
    >>> run_meta("OpenSSL 3.0.2 on Debian")
    {'tool': 'openssl', 'tool_version': '3.0.2'}
    """
    m = _VERSION_LABEL.match(text)
    if m:
        return {"tool_version": m[1]}
    t = TOOL_NAME.search(text)
    if t:
        return {"tool": "aws-lc" if t[1].lower().startswith("aws") else "boringssl",
                "tool_version": None}
    m = _LIBRARY_VERSION.search(text)
    if m:
        return {"tool": m[1].lower(), "tool_version": m[2]}
    return {}


# --------------------------------------------------------------------------------------------
# Reading a grid


def _is_derived_column(values: list[str]) -> bool:
    filled = [v for v in values if v and v.lower() not in ("-", "n/a", "\u2013", "\u2014")]
    return bool(filled) and all(_DERIVED_CELL.match(v) for v in filled)


def _key_columns(header: list[str], body: list[list[str]], number) -> int:
    """How many leading columns hold row names (or machine facts), not measurements: none when
    the first column is titled as measurements and holds numbers only (``| 16 bytes | 64
    bytes |`` under a title naming the algorithm)."""
    first = [r[0] for r in body if r and r[0]]
    if first and role(header[0]).kind in (SIZE, OPERATION, MEASURE, STAT, VALUE) and \
            all(number(c) is not None for c in first):
        return 0
    n = 1
    while n < len(header) - 1:
        head = header[n]
        if _KEY_HEADER.match(head):  # ("Digest", which is an operation's word too)
            n += 1
            continue
        if role(head).kind in (SIZE, ALGORITHM, OPERATION, MEASURE, STAT, DERIVED, VALUE, SWITCH):
            break  # a column title of measurements ("16 bytes", "sign", "avg")
        if stated_unit(head) is not None:
            break  # (a rate's unit titles values: "portable MB/s" over "2510.2 (C)", no names)
        cells = [r[n] for r in body if n < len(r) and r[n]]
        if _names_sizes(head) or _CONDITION_HEADER.match(head) or _counts_processes(head) or \
                _KEY_HEADER.match(head) or (cells and all(number(c) is None for c in cells)) or \
                _REPEAT_HEADER.match(head) and cells and all(INTEGER.match(c) for c in cells):
            n += 1
        else:
            break
    return n


def read_grid(rows: list[tuple[int, list[str]]], context, number, caption: str | None, *,
              measured_only: bool = False):
    """Cells of a grid whose rows and columns the roles of their names explain.

    ``rows`` are (0-based line, cleaned cells) from the header row on; ``context`` the prose
    facts (``named`` algorithms, ``last_line``, ``block_bytes``); ``number(text)`` the value
    of a cell or None. ``measured_only``: read the grid only when every column after its row
    names is titled as a measurement (a size, a unit, an operation, a statistic, a derived
    figure), none by a name of its own: how the fields of a data file (``t0_ns``,
    ``r_squared``, ``source``) are told from a document's columns of builds or machines, which
    such a file cannot be told apart from. Returns ``(groups, bad, header)``: ``groups`` maps
    a run key (section, run roles) to ``[(cell, ops, value text, column)]`` (``ops``: the
    value is operations/s, not a throughput), ``bad`` the lines holding numbers that could not
    be placed, ``header`` the title of each column (its header cells joined); ``None`` when
    this is not a benchmark grid (no cell names an algorithm).
    """
    if _OTHER_PROGRAM.search(context.last_line or "") or len(rows) < 2:
        return None
    n_head = _header_rows(rows, number)
    # (each column's lowest title: a unit line under the titles leaves the corner's above it)
    header = [next((cells[j] for _, cells in reversed(rows[:n_head]) if j < len(cells) and cells[j]),
                   "") for j in range(len(rows[n_head - 1][1]))]
    if any(_VALUE_TEXT.fullmatch(c) for c in header):
        return None  # a row of openssl's values is no header ("ghash<TAB>1091439.55k")
    body = rows[n_head:]
    keys = _key_columns(header, [cells for _, cells in body], number)
    if measured_only and not all(role(c).kind in _MEASURED or _no_numbers(body, j, number)
                                 for j, c in enumerate(header[keys:], keys)):
        return None  # (a column of words, "note", is no measurement of a run of its own)
    corner = next((cells[0] for _, cells in rows[:n_head] if cells[0]), "")
    # (the grid's own algorithm and operation, looked for when a cell first needs them)
    defaults = functools.cache(lambda: _table_defaults(corner, caption, context))
    titles = _titles(rows[:n_head], keys)
    counted = any(_counts_processes(h) for h in header[:keys])
    columns = _value_columns(titles, keys, [cells for _, cells in body], counted)
    joined = [" ".join(t for t in texts if t) for texts in titles]
    if not any(j < len(cells) and number(cells[j]) is not None for j, _ in columns for _, cells in body):
        # (no measurement column holds a number: a grid of figures derived from measurements,
        # ratios, fits, p-values, is recognised, its rows no unplaced data; any other, none)
        # (one whose numbers stand where no derived figure is titled: its rows, reported)
        bad = _derived_figures(body, keys, joined)
        return None if bad is None else ({}, bad, joined)
    stat_rows = sum(bool(keys) and cells[0].lower() in _STATS for _, cells in body)  # (role STAT)
    row_names = {cells[0].lower() for _, cells in body if keys and cells}
    groups: dict[tuple, list] = {}
    short: list[tuple[int, int]] = []  # (line, cells it could not place) of rows left short
    section: tuple[str | None, list[Role]] = (None, [])
    above: list[str] = [""] * keys
    for line, cells in body:
        filled = [c for c in cells if c]
        if not filled:
            continue
        if len(filled) == 1 and number(filled[0]) is None and cells[0]:
            if not ALGORITHM_CLASS.match(filled[0]):  # ("Hashes" groups rows of one run)
                section, above = _section(filled[0]), [""] * keys
            continue
        cells = cells + [""] * (len(header) - len(cells))
        if any(_VALUE_TEXT.fullmatch(c) for c in cells[:keys]):
            short.append((line, 1))  # values where its name should be: the row was cut
            continue
        names = [c or above[k] for k, c in enumerate(cells[:keys])]  # grouped rows continue
        above = names
        row_roles, conditions = _row_roles(header, names)
        if _summary(row_roles, stat_rows, len(body)) or keys and _of_columns(cells[0].lower(), row_names):
            continue  # ("Average" under rows of hosts, "Speed-up" or "a / b" under two builds)
        placed = holding = unplaced = 0
        for j, col_roles in columns:
            text = cells[j]
            if not text or text.lower() in _NOTHING or (_DERIVED_CELL.match(text) and text[-1:] in "sS"):
                continue  # nothing measured, or a time beside the rate ("0.0002s")
            holding += any(ch.isdigit() for ch in text)
            cell = _combine([*section[1], *row_roles, *col_roles], defaults, context)
            if cell is None or cell is _UNPLACED or number(text) is None:
                unplaced += cell is _UNPLACED
                continue
            cell, run_key, ops = cell
            cell.update(conditions, line=line + 1)
            groups.setdefault((section[0], *run_key), []).append((cell, ops, text, j))
            placed += 1
        if holding and placed < holding:
            short.append((line, unplaced))
    # (judged once the whole grid is read: a row above the first placed one is reported too;
    # so is every row under columns of public-key operations, sign/verify... of an algorithm
    # the text does not settle, "ecdsa 256": no other program's table has such columns)
    measured = any(r.kind == OPERATION for _, col_roles in columns for r in col_roles)
    bad = [line for line, unplaced in short if groups or unplaced or measured]
    return (groups, bad, joined) if groups or bad else None


def _no_numbers(body: list[tuple[int, list[str]]], j: int, number) -> bool:
    """Whether column ``j`` holds no number in any row."""
    return all(j >= len(cells) or number(cells[j]) is None for _, cells in body)


def _derived_figures(body: list[tuple[int, list[str]]], keys: int, titles: list[str]) -> list[int] | None:
    """The lines of a grid none of whose columns is a measurement that hold numbers no
    derived figure explains, or None where its rows name no algorithm beside a number (no
    benchmark's grid). A grid of figures derived from a benchmark (``| aes-128-cbc | 64 |
    14.80 [14.21, 15.41] | 0.0012 |`` under ``Ratio [95% CI]``, ``p (Holm)``) has none; a
    number under a measurement's title that is no value (``5310.2 (asm path)``), a rate in a
    column of notes (``about 5300 MB/s``) or under a sentence cut into cells (``I measured the
    speed-up.``) is data the grid cannot place: reported, never dropped as derived."""
    rows = [(line, cells) for line, cells in body
            if any(algorithm_of(c) for c in cells[:keys]) and _DIGIT.search(" ".join(cells[keys:]))]
    if not rows:
        return None
    kinds = [_figure_kind(t) for t in titles]
    return [line for line, cells in rows if any(
        _unexplained(c, kinds[j] if j < len(kinds) else VALUE) for j, c in enumerate(cells[keys:], keys))]


def _unexplained(cell: str, kind: str) -> bool:
    """Whether a cell under a title of ``kind`` (:func:`_figure_kind`) holds a value no derived
    figure explains: one that leads the cell or states its unit ("Doing md5 for 1s ..." in a
    tagged log's column is output, no value), not a derived cell ("2.1x"), under a
    measurement's title, or a rate in a property's (a note's "about 5300 MB/s")."""
    if kind == DERIVED or _DERIVED_CELL.match(cell):
        return False
    rates = rates_in(cell) if cell[:1].isdigit() or kind == PROPERTY or "/" in cell else []
    return bool(rates) if kind == PROPERTY else cell[:1].isdigit() or bool(rates)


def _figure_kind(title: str) -> str:
    """What a column title says of the numbers under it where none is a measurement: DERIVED
    (a ratio, a time: no measurement of its own), PROPERTY (a key size, a note: no rate but
    one it states), else VALUE (a measurement, or a sentence that says nothing of its column)."""
    if title.count(" ") >= 4 and title[-1:] in ".!?":
        return VALUE  # (a sentence above the rows, cut into cells at its double spaces)
    kind = role(title).kind
    if kind == DERIVED or is_derived(title) or _CONDITION_HEADER.match(title):
        return DERIVED
    return PROPERTY if kind == PROPERTY else VALUE


_UNPLACED = object()  # (what _combine returns for a cell it cannot place)
_NOTHING = {"-", "--", "n/a", "na", "?", "\u2013", "\u2014"}


def _header_rows(rows: list[tuple[int, list[str]]], number) -> int:
    """How many rows the header takes: a spanning row of titles above the column titles (not
    a row naming an algorithm beside a number no cell reads: ``aes-128-gcm | 5310.2 (asm)``)."""
    n = 1
    while n < len(rows) - 1 and sum(bool(c) for c in rows[n][1]) >= 2 and all(
            number(c) is None and c.lower() not in _NOTHING for c in rows[n][1]) and not (
            _DIGIT.search(" ".join(rows[n][1][1:])) and algorithm_of(rows[n][1][0])):
        n += 1
    return n


def _titles(head: list[tuple[int, list[str]]], keys: int) -> list[list[str]]:
    """The header texts over each column, top to bottom (a spanning cell, left blank in the
    columns after it, is theirs too)."""
    spans = []
    for _, cells in head[:-1]:
        carried, last = [], ""
        for j, c in enumerate(cells):
            last = c or (last if j > keys else "")
            carried.append(last)
        spans.append(carried)
    return [[row[j] for row in spans if j < len(row) and row[j]] + [c]
            for j, c in enumerate(head[-1][1])]


def _value_columns(titles: list[list[str]], keys: int, body: list[list[str]],
                   counted: bool) -> list[tuple[int, list[Role]]]:
    """The measurement columns after the ``keys`` row-name columns, with their roles
    (``counted``: the rows count processes, and a ``Total`` column is their sum, measured)."""
    columns = []
    bare = _bare_sizes([t[-1] for t in titles[keys:]])
    every = [_titled_runs([_measured_total(r) if counted else r
                           for r in (role(t, sizes=bare) for t in titles[j]) if r.kind != BLANK])
             for j in range(keys, len(titles))]
    stats = sum(any(r.kind == STAT for r in roles) for roles in every)
    named = {" ".join(t).lower() for t in titles[keys:]}
    for j, roles in enumerate(every, keys):
        values = [cells[j] if j < len(cells) else "" for cells in body]
        title = " ".join(titles[j])  # (sizes or a machine's facts, "Clock (GHz)": no values)
        facts = _names_sizes(title) and all(r.kind != SIZE for r in roles) or \
            _CONDITION_HEADER.match(title)
        if roles and not facts and not _summary(roles, stats, len(every)) and \
                not _is_derived_column(values) and not _of_columns(" ".join(titles[j]).lower(), named):
            columns.append((j, roles))
    return columns


# The block sizes openssl measures (its default, -aead's and -mb's series, and 4096): a row of
# column titles that are bare integers, each one of these, rising, is a row of block sizes
# (a spreadsheet's copy of openssl's table: `cipher<TAB>16<TAB>64<TAB>256 ...`).
_OPENSSL_SIZES = frozenset({2, 16, 31, 64, 136, 256, 1024, 4096, 8192, 16384, 32768, 65536, 131072})


def _bare_sizes(titles: list[str]) -> bool:
    """Whether the column titles after the row names are all bare block sizes: three or more
    integers, rising, each a size openssl measures (not counts of threads: ``1 2 4 8``).

    >>> _bare_sizes(["16", "64", "256", "1024"]), _bare_sizes(["1", "2", "4", "8"]), _bare_sizes(["16", "64"])
    (True, False, False)
    """
    if len(titles) < 3 or not all(t.isdigit() for t in titles):
        return False
    sizes = [int(t) for t in titles]
    return all(n in _OPENSSL_SIZES for n in sizes) and all(a < b for a, b in zip(sizes, sizes[1:]))


def _measured_total(r: Role) -> Role:
    """A ``Total (MB/s)`` title over rows of process counts: the measurement, not derived."""
    return replace(r, kind=VALUE) if r.kind == DERIVED and _TOTAL.match(split_tag(r.text)[0]) else r


_OPERATOR = re.compile(r"/|\u00f7|:| - | \u2212 ")  # (no \s* around: a run of blanks is linear)


def _titled_runs(roles: list[Role]) -> list[Role]:
    """A column's roles without a title spanning runs that says what they are ("Host",
    "Version" over "ci-x86" and "ci-arm"): a run's name is the title under it."""
    runs = [r for r in roles if r.kind == RUN]
    if len(runs) < 2:
        return roles
    return [r for r in roles if r.kind != RUN or r is runs[-1] or not RUN_HEADER.match(r.text)]


def _of_columns(title: str, titles: set[str]) -> bool:
    """Whether a column title (or row name) is a ratio or difference of two other columns'
    (rows') (``host-a / host-b``): derived from them, never a measurement of its own."""
    parts = [p.strip() for p in _OPERATOR.split(title)]
    return len(parts) == 2 and parts[0] != parts[1] and {parts[0], parts[1]} <= titles


def _summary(roles: list[Role], stats: int, rows: int) -> bool:
    """Whether a row (or column) of these roles sums up the others: a derived quantity, or a
    statistic among rows that are not (a table of min, max and avg only holds statistics)."""
    return any(r.kind in (DERIVED, PROPERTY) or r.kind == STAT and stats < rows for r in roles)


def _section(title: str) -> tuple[str | None, list[Role]]:
    """A section row: an algorithm (or size) for the rows below it, or else a new run."""
    r = role(title)
    return (None, [r]) if r.kind in (ALGORITHM, SIZE, MEASURE) else (title, [])


def _row_roles(header: list[str], names: list[str]) -> tuple[list[Role], dict[str, str]]:
    """The roles of a row's name cells and the conditions its machine columns give."""
    roles, conditions = [], {}
    for k, name in enumerate(names):
        sizes = _names_sizes(header[k])
        if (k and _CONDITION_HEADER.match(header[k]) and not sizes) or \
                _counts_processes(header[k]) and INTEGER.match(name):
            if name:  # (a count of processes names no run, even in the first column)
                conditions[condition_key(header[k])] = name
        elif _REPEAT_HEADER.match(header[k]) and INTEGER.match(name):
            roles.append(Role(REPEAT, name))
        else:
            if _VERSION_LABEL.match(name) and _LIBRARY_VERSION.fullmatch(header[k].strip()):
                name = f"{header[k].strip()} {name}"  # ("openssl" over "3.0.13": the tool's)
            own = role(name, sizes=sizes)
            if name and RUN_HEADER.match(header[k]) and own.kind not in (SWITCH, STAT, DERIVED):
                own = Role(RUN, name, run=name)  # "Version | ...": each row is a run
            roles.append(own)
    return roles, conditions


def _names_sizes(header: str) -> bool:
    """Whether a row-name column holds block sizes ("Block (bytes)"; not "Key size", nor a
    column of rates whose unit names bytes, "Rock 5B (1000s of bytes/s)")."""
    return bool(_SIZE_HEADER.search(header)) and not _NOT_BLOCK_SIZE.search(header) and \
        stated_unit(header) is None


def _counts_processes(header: str) -> bool:
    return bool(_PROCESS_HEADER.match(header) or _CPU_COUNT_HEADER.match(header))


def condition_key(header: str) -> str:
    """The condition a column of row names or machine facts gives (``multi`` for a count of
    processes; ``threads``, ``cores``, ``cpus`` for a count a machine's CPUs may be too).

    >>> condition_key("AES-NI Enabled"), condition_key("-multi"), condition_key("Cores (n)")
    ('aesni', 'multi', 'cores')
    >>> condition_key("CPU MHz")
    'cpu_mhz'
    """
    low = header.lower()
    if re.search(r"aes[\s_-]?ni", low):
        return "aesni"
    if _PROCESS_HEADER.match(header):
        return "multi"
    m = _CPU_COUNT_HEADER.match(header)
    if m:
        key = m["key"].lower()
        return key if key.endswith("s") else key + "s"
    return re.sub(r"[^a-z0-9]+", "_", low).strip("_") or "condition"


def _table_defaults(corner: str, caption: str | None, context):
    """The algorithm and operation of the whole grid: its corner cell, caption, or the one
    algorithm the prose above names."""
    corner_role = role(corner)
    algorithm = corner_role.algorithm if corner_role.kind == ALGORITHM else None
    op = corner_role.operation if corner_role.kind == OPERATION else None
    for text in (corner, caption or ""):
        for word in re.findall(r"[a-z]+", text.lower()):
            op = op or _CORNER_OPS.get(word)
        algorithm = algorithm or _only(named_algorithms(text))
    if algorithm is None:
        algorithm = _only(context.named)
    return algorithm, op


def _only(names) -> str | None:
    distinct = list(dict.fromkeys(names))
    return distinct[0] if len(distinct) == 1 else None


def _combine(roles: list[Role], defaults, context):
    """One cell's facts from the roles of its row and column: None when they name no
    algorithm (not a benchmark's cell), ``_UNPLACED`` when they name one but not its block size
    or operation, or contradict each other (a cell to report, never to guess). ``defaults()``
    is the grid's own (algorithm, operation), for a cell whose roles name none."""
    algorithm = operation = block = None
    name = None
    run: list[str] = []
    conditions: dict[str, str] = {}
    for r in roles:
        if r.kind in (ALGORITHM, MEASURE):
            if algorithm is not None and algorithm != r.algorithm:
                return _UNPLACED
            algorithm, name = r.algorithm, r.text
        if r.kind in (OPERATION, MEASURE):
            if operation is not None and operation != r.operation:
                return _UNPLACED
            operation = r.operation
        if r.block is not None:
            if block is not None and block != r.block:
                return _UNPLACED
            block = r.block
        if r.kind == RUN:
            run.append(r.run)
        elif r.kind == REPEAT:
            run.append(Repeat(r.text))
        if r.tag:
            run.append(r.tag)
        conditions.update(r.conditions)
    if algorithm is None:
        algorithm = name = defaults()[0]
    if algorithm is None:
        return None
    if block is None and operation is None:
        operation = canonical(algorithm)[1]
        if operation is None:
            return _UNPLACED  # a signature algorithm's value without its operation
        if operation != "derive":  # a cipher's or hash's rate needs its block size
            block = context.block_bytes
            if block is None:
                return _UNPLACED
        elif not any(r.ops for r in roles):
            return _UNPLACED  # a key agreement's number that no role calls a rate
    if operation is None:
        operation = defaults()[1] or canonical(algorithm)[1]
    cell = {"algorithm": algorithm, "operation": operation, "name": name, **conditions}
    if block is not None:
        cell["block_bytes"] = block
    return cell, tuple(run), block is None
