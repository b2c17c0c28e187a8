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
"key" cells of a row) is classified by :func:`label` as a block size, an algorithm (maybe with
its size or a variant tag: ``AES-256-GCM (8K)``, ``256 bits SM2 (Before)``), an operation
(``sign/s``), a public-key measure (``RSA 2048 verify (fresh key)``), a statistic (``avg``), a
derived or time quantity (never a measurement), or a run (anything else: a build, version,
library or machine). A cell is what its row and its column say together, completed by the
corner cell, the caption and the prose above (the one algorithm the command or the prose names,
the unit a heading states). A cell is placed only when that gives one algorithm and either a
block size (throughput) or an operation (ops/s); a row whose numbers cannot be placed is
reported, and a table in which nothing can be placed is not a benchmark table at all.

Columns (or rows) that are runs give one :class:`~cipherlab.model.Run` each, labelled by their
text (``Baseline (C)``; a version such as ``1.1.1w`` also gives ``tool_version``, a library name
the ``tool``); statistic columns give a ``stat`` condition; key columns after the first that
describe the machine (``CPU MHz``, ``Cores``) give conditions named after their header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from cipherlab.readers._bssl import _TOOL, describe
from cipherlab.readers._names import OPERATIONS, canonical, canonical_operation, is_curve, is_known
from cipherlab.readers._units import stated_unit

__all__ = ["Label", "label", "named_algorithms", "read_grid"]

# Kinds of label.
SIZE, ALGORITHM, OPERATION, MEASURE, STAT, DERIVED, RUN, BLANK = (
    "size", "algorithm", "operation", "measure", "stat", "derived", "run", "blank")

_TAG = re.compile(r"^(?P<base>[^()]*?)\s*\((?P<tag>[^()]*)\)$")
_SIZE = re.compile(r"^(\d{1,3}(?:,\d{3})+|\d+)\s*(bytes?|B|KiB|KB|K|MiB|MB|M)(?:[\s-]*blocks?)?$",
                   re.IGNORECASE)
_SIZE_UNITS = {"k": 1024, "m": 1024 * 1024}  # block sizes are powers of two: "8K" is 8192
_INT = re.compile(r"^\d{1,3}(?:,\d{3})+$|^\d+$")
_BITS = re.compile(r"^\d+\s*bits?\s+", re.IGNORECASE)
# Quantities computed from the measurements, or times: never a measurement of their own.
_DERIVED = re.compile(r"improv|ratio|speed-?up|gain|change|diff|delta|relative|factor|scaling|"
                      r"\bvs\.?(?!\w)|versus|increase|decrease|faster|slower|percent|%|"
                      r"\bstd|stdev|deviation|\bcv\b|error|latency|\btime\b|\bms\b|\bus\b|"
                      r"\u00b5s|seconds", re.IGNORECASE)
_DERIVED_CELL = re.compile(r"^[+-]?[\d.,]+\s*(?:%|x|\u00d7)$|^baseline$|^[+-]?[\d.]+s$",
                           re.IGNORECASE)
_STATS = {"min": "min", "minimum": "min", "max": "max", "maximum": "max", "avg": "mean",
          "average": "mean", "mean": "mean", "median": "median", "med": "median"}
# A column that holds the measurement itself, without naming a run ("Throughput (MB/s)").
_VALUE_WORDS = re.compile(r"^(?:throughput|speed|rate|result|results|value|performance|"
                          r"bandwidth|ops|operations)\b", re.IGNORECASE)
_OPS_UNIT = re.compile(r"\bops?(?:/|\s+per\s+)s(?:ec(?:ond)?)?\b|\boperations?/s", re.IGNORECASE)
# Header words of the key columns (row names): what the cells under them are.
_SIZE_HEADER = re.compile(r"\bbytes?\b|\bblock|\bsize|\blength|\bbuffer", re.IGNORECASE)
_RUN_HEADER = re.compile(r"^(?:openssl\s+)?(?:version|versions|release|build|builds|library|"
                         r"libraries|lib|machine|machines|host|hosts|system|systems|platform|"
                         r"device|board|cpu|processor|implementation|variant|tool)s?$",
                         re.IGNORECASE)
_KEY_HEADER = re.compile(r"^(?:cipher|ciphers|algorithm|algorithms|algo|type|name|digest|hash|"
                         r"primitive|function|mode|curve|key|operation|operations|op|test|"
                         r"test item|item|benchmark)s?$", re.IGNORECASE)
# Columns that describe the machine: conditions, not measurements, even though they hold numbers.
_CONDITION_HEADER = re.compile(r"mhz|ghz|clock|freq|\bcores?\b|\bthreads?\b|\bcpus?\b|model|"
                               r"version|kernel|compiler|\bgcc\b|\bos\b|memory|\bram\b",
                               re.IGNORECASE)
# Operation words a corner cell or caption may hold ("Decrypt Test").
_CORNER_OPS = {"encrypt": "encrypt", "encryption": "encrypt", "decrypt": "decrypt",
               "decryption": "decrypt", "sign": "sign", "signing": "sign", "verify": "verify",
               "verification": "verify", "keygen": "keygen"}
# Programs whose tables are not cipher benchmarks, named in the sentence introducing a table.
_OTHER_PROGRAM = re.compile(r"\b(?:perf|sysbench|fio|iperf3?|wrk|h2load|hdparm|ioping|7-?zip|"
                            r"geekbench|tinymembench|mbw|iostat|vmstat|sar)\b", re.IGNORECASE)
_PK_FAMILY = re.compile(r"^(?:rsa|dsa|ecdsa|ecdh|eddsa|ed25519|ed448|x25519|x448|ffdh|sm2|"
                        r"ml-kem|ml-dsa|slh-dsa)\b", re.IGNORECASE)
_MEASURE_OPS = set(OPERATIONS) | {"parse"}
_VERSION_LABEL = re.compile(r"^v?(\d+\.\d+(?:\.\d+)?[a-z]{0,2})(?:[-+][\w.]+)?$")
_LIBRARY_VERSION = re.compile(r"\b(openssl|libressl|boringssl|aws-lc|tongsuo)\b[\s-]*v?"
                              r"(\d+\.\d+(?:\.\d+)?[a-z]{0,2})?", re.IGNORECASE)
# A token of prose that may name an algorithm: words joined by '-' or '_', or with digits.
_NAME_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_/][A-Za-z0-9]+)+|[A-Za-z]+\d[A-Za-z0-9]*")
_FAMILY_ONLY = re.compile(r"^(?:aes|aria|camellia|sm4|des|chacha20)(?:-\d+)?$|^aes-ni$|\(")


@dataclass(frozen=True)
class Label:
    """What one header cell or row name of a grid says.

    >>> label("AES-256-GCM (8K)")
    Label(kind='algorithm', text='AES-256-GCM (8K)', algorithm='aes-256-gcm', operation='encrypt', block=8192)
    >>> label("RSA 2048 verify (fresh key)").conditions, label("sign/s").operation
    ((('key', 'fresh'),), 'sign')
    >>> label("AWS-LC (ops/sec)").run, label("Improvement ratio").kind, label("16 bytes").block
    ('AWS-LC', 'derived', 16)
    """

    kind: str
    text: str
    algorithm: str | None = None
    operation: str | None = None
    block: int | None = None
    run: str | None = None                       # the run a RUN label names (unit tag removed)
    tag: str | None = None                       # a variant tag: "(Before)" in "SM2 (Before)"
    unit: float | None = None                    # bytes/s per unit its parentheses state
    conditions: tuple[tuple[str, str], ...] = ()

    def __repr__(self) -> str:  # only the fields that say something
        shown = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items()
                          if k in ("kind", "text") or v not in (None, ()))
        return f"Label({shown})"


def block_size(text: str, bare: bool = False) -> int | None:
    """Bytes of a block-size label (``16 bytes``, ``8K``, ``1,024 B``; a bare integer only
    when ``bare``: its column says it holds sizes).

    >>> block_size("16 bytes"), block_size("8K"), block_size("8 KB"), block_size("64", bare=True)
    (16, 8192, 8192, 64)
    """
    m = _SIZE.match(text)
    if m:
        return int(m[1].replace(",", "")) * _SIZE_UNITS.get(m[2][0].lower(), 1)
    return int(text.replace(",", "")) if bare and _INT.match(text) else None


def algorithm_of(name: str) -> str | None:
    """The canonical algorithm a name specifies, or None (a family alone, ``AES``, names none).

    >>> algorithm_of("AES-128-CBC"), algorithm_of("SM2"), algorithm_of("AES"), algorithm_of("RV64GC")
    ('aes-128-cbc', 'sm2', None, None)
    """
    algorithm = canonical(name)[0]
    if not is_known(algorithm) or _FAMILY_ONLY.search(algorithm):
        algorithm = canonical(_BITS.sub("", name))[0] if _BITS.match(name) else None
        if algorithm is None or not is_known(algorithm) or _FAMILY_ONLY.search(algorithm):
            return None
    return algorithm


def label(text: str, *, sizes: bool = False) -> Label:
    """Classify a header cell or row name (``sizes``: bare integers are block sizes)."""
    if not text:
        return Label(BLANK, text)
    size = block_size(text, sizes)
    if size is not None:
        return Label(SIZE, text, block=size)
    low = text.lower()
    if low in _STATS:
        return Label(STAT, text, conditions=(("stat", _STATS[low]),))
    if _DERIVED.search(text):
        return Label(DERIVED, text)
    operation = canonical_operation(text)
    if operation in OPERATIONS and low not in ("op", "ops", "op/s", "ops/s"):
        return Label(OPERATION, text, operation=operation)
    if _PK_FAMILY.match(text):
        algorithm, operation, _, conditions = describe(text)
        if operation in _MEASURE_OPS and is_known(algorithm) and text.split()[-1].lower() != "bits":
            return Label(MEASURE, text, algorithm, operation,
                         conditions=tuple(sorted(conditions.items())))
    base, tag = text, None
    m = _TAG.match(text)
    if m and not is_curve(m["tag"]):
        base, tag = m["base"], m["tag"]
    algorithm = algorithm_of(base)
    unit = _tag_unit(tag)
    if algorithm is not None:
        size = block_size(tag) if tag else None
        if size is not None or unit is not None:
            tag = None
        return Label(ALGORITHM, text, algorithm, canonical(base)[1], block=size, tag=tag,
                     unit=unit)
    if unit is not None or (tag and _OPS_UNIT.search(tag)):
        base_label = label(base)
        return replace(base_label, text=text, unit=unit) if base_label.kind != RUN else \
            Label(RUN, text, run=base, unit=unit)
    return Label(RUN, text, run=text)


def _tag_unit(tag: str | None) -> float | None:
    return stated_unit(tag) if tag and "/" in tag or tag and "ps" in tag.lower() else None


def named_algorithms(text: str) -> list[str]:
    """The algorithms a line of prose names specifically (``AES-128-CBC``, ``rsa2048``).

    >>> named_algorithms("openssl speed -seconds 1 rsa2048 on an SG2042 (RV64GC)")
    ['rsa2048']
    """
    return [a for a in (algorithm_of(t) for t in _NAME_TOKEN.findall(text)) if a is not None]


def run_meta(text: str) -> dict[str, Any]:
    """The run facts a run label states: ``tool`` and ``tool_version``.

    >>> run_meta("1.1.1w"), run_meta("AWS-LC (ops/sec)")
    ({'tool_version': '1.1.1w'}, {'tool': 'aws-lc', 'tool_version': None})
    >>> run_meta("OpenSSL 3.0.2 on Debian")
    {'tool': 'openssl', 'tool_version': '3.0.2'}
    """
    m = _VERSION_LABEL.match(text)
    if m:
        return {"tool_version": m[1]}
    t = _TOOL.search(text)
    if t:
        return {"tool": "aws-lc" if t[1].lower().startswith("aws") else "boringssl",
                "tool_version": None}
    m = _LIBRARY_VERSION.search(text)
    if m:
        return {"tool": m[1].lower(), "tool_version": m[2]}
    return {}


# --------------------------------------------------------------------------------------------
# Reading a grid


@dataclass
class _Column:
    index: int
    label: Label


def _is_derived_column(values: list[str]) -> bool:
    filled = [v for v in values if v and v.lower() not in ("-", "n/a", "\u2013", "\u2014")]
    return bool(filled) and all(_DERIVED_CELL.match(v) for v in filled)


def _key_columns(header: list[str], body: list[list[str]], number) -> int:
    """How many leading columns hold row names (or machine facts), not measurements."""
    n = 1
    while n < len(header) - 1:
        head = header[n]
        cells = [r[n] for r in body if n < len(r) and r[n]]
        if _SIZE_HEADER.search(head) or _CONDITION_HEADER.search(head) or \
                _KEY_HEADER.match(head) or (cells and all(number(c) is None for c in cells)):
            n += 1
        else:
            break
    return n


def read_grid(rows: list[tuple[int, list[str]]], context, number, caption: str | None):
    """Cells of a grid whose rows and columns the labels above explain.

    ``rows`` are (0-based line, cleaned cells) from the header row on; ``context`` the prose
    facts (``named`` algorithms, ``last_line``, ``block_bytes``); ``number(text)`` the value
    of a cell or None. Returns ``(groups, bad)``: ``groups`` maps a run key (section, run
    label) to ``[(cell, ops, value text, column)]`` (``ops``: the value is operations/s, not a
    throughput), ``bad`` the lines holding numbers that
    could not be placed; ``None`` when this is not a benchmark grid.
    """
    if _OTHER_PROGRAM.search(context.last_line or "") or len(rows) < 2:
        return None
    header = rows[0][1]
    body = [cells for _, cells in rows[1:]]
    keys = _key_columns(header, body, number)
    corner = header[0]
    corner_label = label(corner)
    table_algorithm, table_op = _table_defaults(corner, corner_label, caption, context)
    sizes_in_keys = [bool(_SIZE_HEADER.search(h)) for h in header[:keys]]
    columns = [_Column(j, label(header[j])) for j in range(keys, len(header))]
    columns = [c for c in columns if c.label.kind not in (DERIVED, BLANK)
               and not _is_derived_column([r[c.index] if c.index < len(r) else "" for r in body])]
    if not columns:
        return None
    groups: dict[tuple, list] = {}
    bad: list[int] = []
    section: str | None = None
    above: list[str] = [""] * keys
    for line, cells in rows[1:]:
        filled = [c for c in cells if c]
        if not filled:
            continue
        if len(filled) == 1 and number(filled[0]) is None and cells[0]:
            section, above = filled[0], [""] * keys  # a section row: a new run
            continue
        cells = cells + [""] * (len(header) - len(cells))
        # grouped rows: a blank key cell continues the one above
        names = [c or above[k] for k, c in enumerate(cells[:keys])]
        above = names
        row_labels, conditions = [], {}
        for k, name in enumerate(names):
            if k and _CONDITION_HEADER.search(header[k]) and not sizes_in_keys[k]:
                if name:
                    conditions[_condition_key(header[k])] = name
                continue
            row_labels.append(label(name, sizes=sizes_in_keys[k]))
        placed = holding = 0
        for col in columns:
            text = cells[col.index]
            if not text or text.lower() in ("-", "--", "n/a", "na", "?", "\u2013", "\u2014"):
                continue
            if _DERIVED_CELL.match(text) and text[-1:] in ("s", "S"):
                continue  # a time beside the rate ("0.0002s")
            holding += any(ch.isdigit() for ch in text)
            cell = _combine([*row_labels, col.label], table_algorithm, table_op, context)
            value = number(text)
            if cell is None or value is None:
                continue
            cell, run_key, ops = cell
            cell.update(conditions)
            cell["line"] = line + 1
            groups.setdefault((section, *run_key), []).append((cell, ops, text, col.index))
            placed += 1
        if holding and placed < holding:
            bad.append(line)
    if not groups:
        return None
    return groups, bad


def _condition_key(header: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", header.lower()).strip("_") or "condition"


def _table_defaults(corner: str, corner_label: Label, caption: str | None, context):
    """The algorithm and operation of the whole grid: its corner cell, caption, or the one
    algorithm the prose above names."""
    algorithm = corner_label.algorithm if corner_label.kind == ALGORITHM else None
    op = corner_label.operation if corner_label.kind == OPERATION else None
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


def _combine(labels: list[Label], table_algorithm: str | None, table_op: str | None, context):
    """One cell's facts from the labels of its row and column; None when they do not give one
    algorithm and a block size or an operation (or when two labels contradict)."""
    algorithm = operation = block = None
    name = None
    run: list[str] = []
    conditions: dict[str, str] = {}
    for lab in labels:
        if lab.kind in (ALGORITHM, MEASURE):
            if algorithm is not None and algorithm != lab.algorithm:
                return None
            algorithm, name = lab.algorithm, lab.text
        if lab.kind in (OPERATION, MEASURE):
            if operation is not None and operation != lab.operation:
                return None
            operation = lab.operation
        if lab.block is not None:
            if block is not None and block != lab.block:
                return None
            block = lab.block
        if lab.kind == RUN:
            run.append(lab.run)
        if lab.tag:
            run.append(lab.tag)
        conditions.update(lab.conditions)
    if algorithm is None:
        algorithm, name = table_algorithm, table_algorithm
    if algorithm is None:
        return None
    if block is None and operation is None:
        operation = canonical(algorithm)[1]
        if operation is None:
            return None  # a signature algorithm's value without its operation
        if operation != "derive":  # a cipher's or hash's rate needs its block size
            block = context.block_bytes
            if block is None:
                return None
    if operation is None:
        operation = table_op or canonical(algorithm)[1]
    cell = {"algorithm": algorithm, "operation": operation, "name": name, **conditions}
    if block is not None:
        cell["block_bytes"] = block
    return cell, tuple(run), block is None
