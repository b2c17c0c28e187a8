"""Go's ``go test -bench`` output (and benchstat's tables of it) -> runs of the tidy table.

Why this module exists: Go's own crypto (``crypto/aes``, ``crypto/cipher``, ``crypto/sha256``,
``crypto/ecdsa``, ``crypto/rsa``, ``crypto/ed25519``, ``x/crypto``) is what Go programs use
instead of OpenSSL, and people paste its benchmarks beside ``openssl speed``. ``go test`` prints
a header for each package's test binary, then a record a line::

    goos: linux
    goarch: amd64
    pkg: crypto/cipher
    cpu: AMD EPYC
    BenchmarkAESGCM/Open-128-64-2   1516135   77.26 ns/op   828.38 MB/s   0 B/op   0 allocs/op
    PASS
    ok      crypto/cipher   3.757s

What the numbers mean, read from Go's ``testing`` package: ``ns/op`` is the wall-clock time of
one call (``ops_per_s`` = 1e9 / ns), ``MB/s`` is ``b.SetBytes`` bytes / 1e6 / seconds
(decimal), the count is ``b.N``; ``B/op`` and ``allocs/op`` are memory, no speed. The header's
``cpu`` is the run's CPU. One package's test binary is one process, so one run; a ``-count``
repeat of a benchmark is printed right below it, inside that process: the same run, with the
condition ``repeat`` (0, 1, ...), never a run of its own. The name's last ``-N`` is GOMAXPROCS
(``-cpu``; none where it is 1): :func:`_procs` tells it from a size ending the name by the run's
other names (the condition ``gomaxprocs``). A name becomes an algorithm only where the name and
the package say which one (:data:`_RULES`; the key sizes of names that print none are those
Go's benchmark code sets); otherwise the cell keeps the name and is flagged
:data:`~cipherlab.readers._names.FLAG_NAME_UNCLEAR`. The block size is the one the name writes
(``-1350``, ``1K``, ``8Bytes``) where the rate agrees with it (``AESCTR1K`` does 1019 bytes a
call: no block size).

A ``go version go1.19.8 linux/amd64`` line gives ``tool_version`` to what follows. Runs start at
a package's header, else as for every record-a-line tool (:class:`~cipherlab.readers._records.RecordRuns`).
benchstat's tables (:func:`_benchstat`) give one run per compared file, each cell the median (or,
before 2023, the mean) of its runs: flagged :data:`~cipherlab.readers._grids.FLAG_SUMMARY`; the
``delta`` / ``vs base`` column is derived, never read.

Examples
--------
>>> lines = ["pkg: crypto/cipher", "cpu: AMD EPYC",
...          "BenchmarkAESGCM/Seal-128-1350-2   355800   350.4 ns/op  3852.72 MB/s  0 B/op  0 allocs/op"]
>>> runs, taken = find_runs(lines, "demo", set(), [])
>>> [(c["algorithm"], c["operation"], c["block_bytes"], c["bytes_per_s"], c["gomaxprocs"])
...  for c in runs[0].cells]
[('aes-128-gcm', 'encrypt', 1350, 3852720000.0, 2)]
>>> runs[0].meta["tool"], runs[0].meta["cpu"], sorted(taken)
('go', 'AMD EPYC', [0, 1, 2])
"""

from __future__ import annotations

import re
from itertools import groupby
from typing import Any

from cipherlab.model import Run
from cipherlab.readers._grids import FLAG_SUMMARY
from cipherlab.readers._names import FLAG_NAME_UNCLEAR, is_known
from cipherlab.readers._records import RecordRuns
from cipherlab.readers._text import clean

__all__ = ["find_runs"]

_VERSION = re.compile(r"^\s*go version go(?P<version>\d+\.\d+(?:\.\d+)?\S*)\s+\S+/\S+\s*$")
_HEADER = re.compile(r"^\s*(?P<key>goos|goarch|pkg|cpu):\s*(?P<value>\S.*?)\s*$")
# The lines that close a package's output ("PASS", "ok  crypto/aes  0.486s", "FAIL")
_CLOSING = re.compile(r"^\s*(?:PASS|FAIL|(?:ok|FAIL|\?)\s+\S+\s+(?:[\d.]+s|\(cached\)|\[no test files\]).*)\s*$")
# "BenchmarkAESGCM/Open-128-64-2   1516135   77.26 ns/op   828.38 MB/s   0 B/op   0 allocs/op"
_RECORD = re.compile(r"^\s*Benchmark(?P<name>\S+)\s+(?P<n>\d+)\s+(?P<ns>\d+(?:\.\d+)?)\s+ns/op"
                     r"(?P<rest>(?:\s+[\d.]+(?:e[+-]?\d+)?\s+\S+)*)\s*$")
# The rest of a record a mail client wrapped onto the next line ("ns/op  828.38 MB/s  0 B/op")
_TAIL = re.compile(r"^\s*(?:ns/op|[\d.]+(?:e[+-]?\d+)?\s+\S+)(?:\s+[\d.]+(?:e[+-]?\d+)?\s+\S+)*\s*$")
_MBS = re.compile(r"([\d.]+)\s+MB/s")
_RECORDISH = re.compile(r"^\s*Benchmark\S+\s+\d+\s+\d")  # (a name, b.N and a number: a record's start)
_SUFFIX = re.compile(r"-(\d+)$")
# A size the name writes: "1350", "1K", "8K", "8Bytes", "16KB"
_SIZE = re.compile(r"(?<![A-Za-z])(?P<n>\d+)(?P<unit>K|KB|KiB|Bytes|B|M|MB)?$")
_SCALE = {None: 1, "B": 1, "Bytes": 1, "K": 1024, "KB": 1024, "KiB": 1024, "M": 2 ** 20, "MB": 2 ** 20}
# benchstat's header rows: before 2023 "name  old time/op  new time/op  delta", "name  speed" or
# "name \\ time/op  a.txt  b.txt"; since, a row of the files compared between box rules, "│ a.txt │",
# then one of the units, "│ sec/op │ sec/op  vs base │"
_BS_HEAD = re.compile(r"^\s*name(?:\s+\\\s+(?P<unit>\S+))?\s{2,}(?P<columns>\S.*?)\s*$")
_BS_RULE = "\u2502"
_BS_VALUE = re.compile(r"(?P<v>\d+(?:\.\d+)?)(?P<prefix>[nu\u00b5\u03bcmkKMGT]?i?)(?P<unit>s|B/s)?\s*\u00b1\s*"
                       r"(?:\d+(?:\.\d+)?%|\u221e)")
_BS_ROW = re.compile(r"^\s*(?P<name>[^\s\u2502]+)\s+(?P<values>\d.*?)\s*$")
# The end of a benchstat row a mail client wrapped onto the next line ("(p=0.008 n=5+5)", "equal)")
_BS_TAIL = re.compile(r"^\s*(?:\(\S.*|\S.*\))\s*$")
_BS_NOTE = re.compile(r"^\s*[\u00b9\u00b2\u00b3\u2074-\u2079]+\s")
_BS_KIND = {"time/op": "time", "sec/op": "time", "speed": "speed", "B/s": "speed"}
_PREFIX = {"": 1.0, "n": 1e-9, "u": 1e-6, "\u00b5": 1e-6, "\u03bc": 1e-6, "m": 1e-3, "k": 1e3, "K": 1e3,
           "M": 1e6, "G": 1e9, "T": 1e12}
_OPS = {"open": "decrypt", "seal": "encrypt", "encrypt": "encrypt", "decrypt": "decrypt",
        "sign": "sign", "signing": "sign", "verify": "verify", "verification": "verify",
        "generatekey": "keygen", "keygeneration": "keygen", "newkeyfromseed": "keygen"}
_UNSIZED = re.compile(r"^aes-[a-z]+$")  # (AES of no key size: which one, the text cannot say)


def _aes(m: re.Match, pkg: str | None) -> tuple[str, str, dict[str, Any]]:
    bits = m["bits"] or ("128" if pkg in ("crypto/cipher", "crypto/aes") else None)  # ([16]byte keys)
    mode = (m["mode"] or "ecb").lower()  # (crypto/aes's Encrypt: one block, no mode)
    op = _OPS.get((m["op"] or "encrypt").lower(), "encrypt")
    return (f"aes-{bits}-{mode}" if bits else f"aes-{mode}"), op, {}


def _hash(m: re.Match, pkg: str | None) -> tuple[str, str, dict[str, Any]]:
    api = (m["api"] or "").lower()
    family = (pkg or "").rpartition("/")[2]
    if api.startswith("sum") and family in ("sha256", "sha512"):  # (Sum224 of crypto/sha256)
        algorithm = "sha" + api[3:].replace("_", "-")
    else:
        algorithm = family if family in ("md5", "sha1", "sha256", "sha512") else "hash"
    return algorithm, "digest", {"api": api} if api else {}


def _pk(algorithm: str):
    def rule(m: re.Match, pkg: str | None) -> tuple[str, str, dict[str, Any]]:
        groups = m.groupdict()
        conditions = {k: groups[k].lower() for k in ("padding", "primes") if groups.get(k)}
        if m["op"] == "NewKeyFromSeed":  # (a key from a given seed: no random bytes drawn)
            conditions["api"] = "newkeyfromseed"
        return algorithm.format(bits=groups.get("bits") or ""), _OPS[m["op"].lower()], conditions
    return rule


def _chacha(m: re.Match, pkg: str | None) -> tuple[str, str, dict[str, Any]]:
    return ("xchacha20-poly1305" if m["x"] else "chacha20-poly1305"), _OPS[m["op"].lower()], {}


#: (package the name must come from, "" for any named one, None for none needed; pattern of the
#: name; rule giving ``(algorithm, operation, conditions)``): names Go's own benchmarks print.
_RULES = (
    (None, re.compile(r"^AES(?P<mode>GCM)/?(?P<op>Open|Seal)-?(?:(?P<bits>128|192|256)-)?(?P<size>\d+K?)$"),
     _aes),
    ("crypto/cipher", re.compile(r"^AES(?P<mode>CTR|CBC|CFB|OFB)(?P<op>Encrypt|Decrypt)?(?P<bits>)"
                                 r"(?P<size>\d+K)$"), _aes),
    ("crypto/aes", re.compile(r"^(?P<op>Encrypt|Decrypt)(?:/AES-(?P<bits>128|192|256))?(?P<mode>)$"),
     _aes),
    ("", re.compile(r"^Hash(?P<size>\d+(?:Bytes|K))(?:/(?P<api>New|Sum\d+(?:_\d+)?))?$"), _hash),
    ("crypto/ecdsa", re.compile(r"^(?P<op>Sign|Verify|GenerateKey)/?P(?P<bits>224|256|384|521)$"),
     _pk("ecdsa-p{bits}")),
    ("ed25519", re.compile(r"^(?P<op>KeyGeneration|NewKeyFromSeed|Signing|Verification)$"),
     _pk("ed25519")),
    ("crypto/rsa", re.compile(r"^(?:(?P<primes>\d)Prime)?RSA(?P<bits>\d+)(?P<op>Decrypt|Sign)$"),
     _pk("rsa{bits}")),
    ("crypto/rsa", re.compile(r"^(?P<op>Encrypt|Decrypt|Sign|Verify)(?P<padding>PKCS1v15|OAEP|PSS)"
                              r"/(?P<bits>\d+)$"), _pk("rsa{bits}")),
    ("chacha20poly1305", re.compile(r"^Chacha20Poly1305/(?P<op>Open|Seal)-(?P<size>\d+)(?P<x>-X)?$"),
     _chacha),
)


def _named(name: str, pkg: str | None) -> tuple[str, str | None, int | None, dict[str, Any], bool]:
    """``(algorithm, operation, size the name writes, conditions, clear)`` of a benchmark's name
    (without ``Benchmark`` and GOMAXPROCS); an unknown name is kept, unclear.

    >>> _named("AESGCM/Open-256-8192", "crypto/cipher"), _named("AESCTR1K", "crypto/cipher")[::4]
    (('aes-256-gcm', 'decrypt', 8192, {}, True), ('aes-128-ctr', True))
    >>> _named("AESGCM/Seal-1K", None)[::2], _named("AESCTR1K", None)[::4]  # (its key's size?)
    (('aes-gcm', 1024, False), ('aesctr1k', False))
    >>> _named("Hash8Bytes/Sum224", "crypto/sha256"), _named("Hash1K", None)[::4]
    (('sha224', 'digest', 8, {'api': 'sum224'}, True), ('hash1k', False))
    """
    for needs, pattern, rule in _RULES:
        if (m := pattern.match(name)) and (needs is None or (pkg is not None and pkg.endswith(needs))):
            algorithm, op, conditions = rule(m, pkg)
            size = m.groupdict().get("size")
            sized = _SIZE.fullmatch(size) if size else None
            block = int(sized["n"]) * _SCALE[sized["unit"]] if sized else None
            return algorithm, op, block, conditions, is_known(algorithm) and not _UNSIZED.match(algorithm)
    words = re.findall(r"[A-Z][a-z]+", name)
    op = next((_OPS[w.lower()] for w in reversed(words) if w.lower() in _OPS), None)
    return name.lower(), op, None, {}, False


def _procs(names: list[str]) -> list[tuple[str, int | None]]:
    """Each name of one run without its GOMAXPROCS suffix, and the GOMAXPROCS (None: unknown).

    Go appends ``-N`` unless N is 1, so a name's last number is a size or the suffix: every name
    ending in one ``-N`` shares it (``-8``); a name also printed with ``-N`` added is at 1
    (``-cpu 1,2``); with several suffixes, a benchmark's lines are together (``-cpu 2,4``);
    where a name has no suffix and none is printed with one, every name is at 1.

    >>> _procs(["Encrypt-8", "Expand-8"]), _procs(["AESCTR1K", "AESCTR1K-2"])
    ([('Encrypt', 8), ('Expand', 8)], [('AESCTR1K', 1), ('AESCTR1K', 2)])
    >>> _procs(["AESGCM/Open-128-64", "AESCTR1K"])
    [('AESGCM/Open-128-64', 1), ('AESCTR1K', 1)]
    >>> _procs(["AESGCM/Open-128-64", "AESGCM/Seal-128-64", "AESGCM/Open-128-1350"])
    [('AESGCM/Open-128-64', None), ('AESGCM/Seal-128-64', None), ('AESGCM/Open-128-1350', None)]
    """
    split = [(n[:m.start()], int(m[1])) if (m := _SUFFIX.search(n)) else (n, None) for n in names]
    known = set(names)
    if any(base in known for base, n in split if n is not None):  # (-cpu 1,...: bare names at 1)
        printed_with = {base for base, n in split if n is not None and base in known}
        return [(base, n) if n is not None and base in known else (name, 1) if name in printed_with
                else (name, None)
                for name, (base, n) in zip(names, split)]
    if any(n is None for _, n in split):  # (a name without a suffix: GOMAXPROCS was 1)
        return [(name, 1) for name in names]
    suffixes = {n for _, n in split}
    bases = [base for base, _ in groupby(base for base, _ in split)]
    if len(suffixes) == 1 or len(bases) == len(set(bases)):  # (-cpu 2,4: each benchmark's together)
        return split
    return [(name, None) for name in names]


def _agrees(block: int, ns: str, mbs: str) -> bool:
    """Whether ``ns`` ns/op and ``mbs`` MB/s, as printed, are ``block`` bytes a call: within
    half a unit of the last digit of each (Go computes both from one unrounded time).

    >>> _agrees(1024, "1228", "829.67"), _agrees(8192, "10012", "817.70"), _agrees(8192, "1542", "5314.10")
    (False, False, True)
    """
    return abs(float(mbs) * float(ns) * 1e-3 / block - 1) <= _slack(ns) + _slack(mbs) + 1e-9


def _slack(printed: str) -> float:
    """The relative rounding of a number as printed: half a unit of its last digit."""
    return 0.5 * 10.0 ** -len(printed.partition(".")[2]) / float(printed)


def _cells(records: list[tuple[int, re.Match]], pkg: str | None) -> list[dict[str, Any]]:
    """The cells of one package's records (GOMAXPROCS and repeats need all of them)."""
    cells = []
    names = [m["name"] for _, m in records]
    previous, repeat = None, 0
    runs_of = {name: len(list(g)) for name, g in groupby(names)}  # (a -count group's length)
    for (idx, m), (base, procs) in zip(records, _procs(names)):
        repeat = repeat + 1 if m["name"] == previous else 0
        previous = m["name"]
        algorithm, op, block, conditions, clear = _named(base, pkg)
        ns = float(m["ns"])
        mbs = _MBS.search(m["rest"] or "")
        rate = float(mbs[1]) * 1e6 if mbs else None
        if block and rate and not _agrees(block, m["ns"], mbs[1]):
            block = None  # (the name's size is not what a call did: "AESCTR1K" does 1019 bytes)
        cell = {"line": idx + 1, "algorithm": algorithm,
                "name": "Benchmark" + m["name"], "operation": op, "block_bytes": block,
                "bytes_per_s": rate, "ops_per_s": 1e9 / ns if ns else None, "count": int(m["n"]),
                **conditions}
        if procs is not None:
            cell["gomaxprocs"] = procs
        if runs_of.get(m["name"], 1) > 1 or repeat:
            cell["repeat"] = repeat
        if not clear or procs is None:
            cell["flag"] = FLAG_NAME_UNCLEAR
        cells.append(cell)
    return cells


def _bs_value(v: str, prefix: str) -> float:
    """A benchstat value with its SI prefix (``77.26n``) or binary one (``790.0Mi``: 2^20).

    >>> _bs_value("790.0", "Mi") == 790.0 * 2 ** 20, round(_bs_value("77.26", "n") * 1e9, 2)
    (True, 77.26)
    """
    if prefix.endswith("i"):
        return float(v) * 1024.0 ** "KMGT".index(prefix[0].upper()) * 1024
    return float(v) * _PREFIX[prefix]


def _bs_unit(unit: str) -> bool:
    """Whether a column's unit is one benchstat prints (a speed, a time or memory a call)."""
    return unit.endswith("/op") or unit in _BS_KIND


def _bs_header(lines: list[str], idx: int) -> tuple[list[str | None], str | None, int] | None:
    """``(column labels, unit, rows start)`` of a benchstat header at ``idx``, None for none."""
    line = clean(lines[idx])
    if m := _BS_HEAD.match(line):
        columns = [c for c in re.split(r"\s{2,}", m["columns"]) if c != "delta"]
        if m["unit"]:  # ("name \ time/op  a.txt  b.txt")
            return (columns, m["unit"], idx + 1) if _bs_unit(m["unit"]) else None
        split = [c.rpartition(" ") for c in columns]
        units = {unit for _, _, unit in split}
        return ([label or None for label, _, _ in split], units.pop(), idx + 1) if (
            len(units) == 1 and _bs_unit(next(iter(units)))) else None
    if _BS_RULE in line and idx + 1 < len(lines) and _BS_RULE in lines[idx + 1]:
        labels = [c.strip() for c in line.split(_BS_RULE)[1:-1]]
        units = [c.split()[0] for c in lines[idx + 1].split(_BS_RULE)[1:-1] if c.split()]
        if labels and len(units) == len(labels) and len(set(units)) == 1 and _bs_unit(units[0]):
            return labels, units[0], idx + 2
    return None


def _benchstat(lines: list[str], skip: set[int], unplaced: list[tuple[int, str]]) -> tuple[list[Run], set[int]]:
    """benchstat's tables in ``lines``: one run for each file compared, its time and speed
    tables one cell a benchmark, each a summary of the file's runs (median; mean before 2023)."""
    by_label: dict[Any, Run] = {}
    cells: dict[tuple, dict[str, Any]] = {}
    slack: dict[tuple, float] = {}  # (how far a cell's rate and time may disagree, as printed)
    taken: set[int] = set()
    pkg = cpu = version = None
    idx = 0
    while idx < len(lines):
        line = "" if idx in skip else lines[idx]
        if "go version" in line and (m := _VERSION.match(clean(line))):
            version = m["version"]
        if ":" in line and (m := _HEADER.match(clean(line))):
            pkg, cpu = (m["value"], cpu) if m["key"] == "pkg" else (pkg, m["value"]) if m["key"] == "cpu" else (pkg, cpu)
        head = _bs_header(lines, idx) if "name" in line or _BS_RULE in line else None
        if head is None:
            idx += 1
            continue
        labels, unit, idx = head
        taken.update(range(idx - (2 if _BS_RULE in line else 1), idx))
        new = _BS_RULE in line
        rows = []
        while idx < len(lines) and idx not in skip and (
                (row := _BS_ROW.match(clean(lines[idx]))) or rows and _BS_TAIL.match(lines[idx])):
            if row:
                rows.append((idx, row))
            taken.add(idx)
            idx += 1
        kind = _BS_KIND.get(unit)
        named = [r["name"] for _, r in rows if r["name"] != "geomean"]
        procs = dict(zip(named, _procs(named)))
        for i, row in rows:
            values = _BS_VALUE.findall(row["values"])  # (each with its "±": no delta, no geomean)
            if row["name"] == "geomean" or kind is None:
                continue  # (a mean of the rows; or memory, no speed)
            if len(values) != len(labels):
                unplaced.append((i + 1, lines[i]))  # (a column left empty: which file's?)
                continue
            base, gomaxprocs = procs[row["name"]]
            for label, (v, prefix, _) in zip(labels, values):
                key = (label, pkg, row["name"])
                if key not in cells:
                    algorithm, op, block, conditions, clear = _named(base, pkg)
                    cells[key] = cell = {"line": i + 1, "algorithm": algorithm, "name": row["name"],
                                         "operation": op, "block_bytes": block, **conditions,
                                         "stat": "median" if new else "mean", "flag": FLAG_SUMMARY}
                    if gomaxprocs is not None:
                        cell["gomaxprocs"] = gomaxprocs
                    run = by_label.setdefault((label, pkg), Run(meta={
                        "label": label, "tool": "go", "tool_version": version, "timing": "elapsed",
                        "dialect": "benchstat", "cpu": cpu}))
                    run.cells.append(cell)
                value = _bs_value(v, prefix)
                cell = cells[key]
                if kind == "time":
                    cell["ops_per_s"] = 1 / value if value else None
                else:
                    cell["bytes_per_s"] = value
                slack[key] = slack.get(key, 1e-3) + _slack(v)  # (a mean's or median's reciprocal: 0.1 %)
        while idx < len(lines) and (not lines[idx].strip() or _BS_NOTE.match(lines[idx])):
            idx += 1  # (the footnotes below it: "¹ need >= 6 samples ...")
            if lines[idx - 1].strip():
                taken.add(idx - 1)
    for key, cell in cells.items():  # (the name's size, unless the summaries disagree with it)
        block, rate, ops = cell["block_bytes"], cell.get("bytes_per_s"), cell.get("ops_per_s")
        if block and rate and ops and abs(rate / ops / block - 1) > slack[key]:
            cell["block_bytes"] = None
    return list(by_label.values()), taken


def _record(lines: list[str], idx: int, skip: set[int]) -> tuple[re.Match, int] | None:
    """The record at ``lines[idx]`` and the index after its last line (the rest of a record a
    mail client wrapped onto the next lines is rejoined), None for no record."""
    line, end = clean(lines[idx]), idx + 1
    m = _RECORD.match(line)
    while end < len(lines) and end not in skip and _TAIL.match(more := clean(lines[end])):
        joined = _RECORD.match(f"{line} {more}")
        if joined is None and m is not None:
            break
        line, m, end = f"{line} {more}", joined, end + 1
    return (m, end) if m else None


def find_runs(lines: list[str], source: str, skip: set[int],
              unplaced: list[tuple[int, str]]) -> tuple[list[Run], set[int]]:
    """Runs of ``go test -bench`` output and benchstat tables in ``lines`` (one of ``_api.FINDERS``).

    Lines in ``skip`` (0-based) are another reader's. Returns the runs and the 0-based indices
    of the lines they took; a ``Benchmark...`` line with ``ns/op`` that is no record goes to
    ``unplaced`` as ``(1-based line, line)``.
    """
    text = "\n".join(lines)
    if "ns/op" not in text and "time/op" not in text and "sec/op" not in text:  # (a cheap look)
        return [], set()
    found, taken = _benchstat(lines, skip, unplaced) if "/op" in text else ([], set())
    skip = skip | taken
    runs = RecordRuns(command="go test")
    version = None
    facts: dict[str, str] = {}
    block: list[tuple[int, re.Match]] = []

    def flush() -> None:
        meta = {"tool": "go", "tool_version": version, "timing": "elapsed",
                "dialect": "go test -bench", "cpu": facts.get("cpu")}
        for name, group in groupby(_cells(block, facts.get("pkg")), key=lambda c: c["name"]):
            group = list(group)  # (a -count group: its repeats are one record's)
            runs.add(group, {(name, group[0].get("gomaxprocs"))}, meta)
        block.clear()

    end = 0
    for idx, raw in enumerate(lines):
        if idx in skip or idx < end:
            continue
        line = clean(raw)
        if not line.strip() or line.startswith(("```", "~~~")):
            continue
        if line.lstrip().startswith("Benchmark") and (m := _record(lines, idx, skip)):
            m, end = m
            block.append((idx, m))
            taken.update(range(idx, end))
            continue
        if block:
            flush()
        if m := _VERSION.match(line):
            version = m["version"]
        elif m := _HEADER.match(line):
            if m["key"] == "goos" or m["key"] in facts:
                facts = {}  # (another package's test binary)
            facts[m["key"]] = m["value"]
        elif not _CLOSING.match(line):
            if _RECORDISH.match(line):
                unplaced.append((idx + 1, raw))
            runs.text(line)
            continue
        runs.text()
        taken.add(idx)
    if block:
        flush()
    return runs.runs + found, taken
