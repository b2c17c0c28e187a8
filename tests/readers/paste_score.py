"""Score ``cipherlab.ingest`` on the real pastes of ``tests/data/pastes`` against their
hand-written expected tables (issue 12's headline metric).

    python tests/readers/paste_score.py              # every paste: a table, then the totals
    python tests/readers/paste_score.py 005 037      # some pastes, with every difference listed
    python tests/readers/paste_score.py --expected 005   # a paste's expected cells, as a table
    python tests/readers/paste_score.py --dir tests/data/user/terminal   # another folder

Each paste ``NNN_name.txt`` has ``NNN_name.expected.toml`` beside it, written by hand from the
text (never from the reader's output). Its format::

    unplaced = [12]            # lines of openssl data a careful reader cannot place: reported
    distractors = ["30-41"]    # lines of other programs' output: no cell from them, never reported

    [[run]]                    # one per run, in order of appearance
    label = "Raspberry Pi 4"   # what a careful reader calls it; omitted: no sensible label (NA)
    labels = ["RPi 4"]         # other acceptable labels (each compared whole: case, blanks
                               # and markup aside; a label that only holds one is no match)
    tool = "openssl"           # tool, tool_version, timing: checked when given
    tool_version = "1.1.1n"
    timing = "elapsed"
    cpu = "Cortex-A72"         # the CPU the text names for the run (as written; "": none, as
                               # where only a board or a host is named); checked when given
    conditions = {aesni = "off"}   # conditions the cells must carry (none others)
    optional = {aesni = "off"}     # conditions that may be absent, but must match when present
    unit = "k"                 # unit of values printed without one: k (1000 B/s), B/s, KB/s
                               # (1000 B/s), KiB/s, MB/s (1e6), MiB/s, GB/s (1e9), GiB/s,
                               # Mbps, Gbps (bits)
    sizes = [16, 64, 256, 1024, 8192]
    rtol = 1e-9
    decimal = ","              # the text's decimal mark, where it is a comma (1.234,56 = 1234.56)
    may_split = true           # the reader may give these cells as several runs
    rows = [
      "aes-128 cbc | aes-128-cbc | 95535.38k 104996.27k 107651.51k 108085.93k 108503.04k",
      "aes-128-cbc | aes-128-cbc decrypt | 16:1234/3.00 64:...",
      "rsa 2048 bits | rsa2048 | sign=1039.8 verify=35559.8",
      "AES-128-ECB | aes-128-ecb | 1371968.28 ... | aesni=no",
      "RSA 2048 verify (fresh key) | rsa2048 | verify=29552.8 | ?key=fresh",
    ]

A row is ``name as printed | canonical algorithm [operation] | cells [| conditions]``; the
operation defaults to what :func:`cipherlab.readers._names.canonical` implies (``encrypt``,
``digest``, ``derive``). A cell is a throughput value for the next size of ``sizes``, or
``SIZE:value`` for an explicit size, or ``OP=value`` for a public-key operation (ops/s). A
value is a number as printed with an optional ``k`` (1000s of bytes/s), or ``count/seconds``
from a progress line (count x size / seconds bytes/s; count / seconds ops/s), or a time per
operation ``0.5s`` (1 / 0.5 ops/s, where a table prints a rate of 0.0) or as Go prints one
(``1228_ns``: ``1228 ns/op``; benchstat's ``77.26n``, ``1.05µs``, ``2.41ms``), or a rate with
benchstat's prefix (``790.0Mi``: 2^20 bytes/s; ``828MB/s``), and a trailing
``!`` means the text cannot tell: the reader must flag the cell or leave it out. ``-`` skips a
size. Thousands separators (``,`` ``'`` ``’``) are dropped; ``_`` stands for a blank one (a
space or no-break space in the text: ``1_013_842``). A row's conditions add to the run's;
a ``?`` before a name makes it optional. ``labels`` may hold ``""``: no label is also right.
``isa`` and ``isa_off``, which the reader decodes from ``isa_mask``, need not be written where
``isa_mask`` is (:data:`DECODED`).

Scoring (:func:`score`): each of the reader's runs goes to the expected run it shares the most
cells with (several may go to one: a split, reported unless the run says ``may_split``); a
reader run holding cells of two expected runs has the minority in the wrong run. An expected
cell is **right** when a cell with its algorithm, operation and block size is in a reader run
of its expected run, with a value within ``rtol``, the expected conditions and no flag;
**flagged** when that cell is flagged (loud, not wrong, not right); **wrong** when it is
returned unflagged with another value, in another run or with other conditions (silently
wrong); **missed** when it is not returned. Cells the reader returns unflagged that no expected
cell claims are **spurious** (also silently wrong); flagged ones (``-multi`` children) are not
counted. Labels, tool, version and timing of every run, splits, unreported unplaced lines, and
distractor lines that were read or reported are the paste's **problems**. A paste reads right
when every expected cell is right, none is spurious and it has no problem.
"""

from __future__ import annotations

import math
import re
import sys
import tomllib
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PASTES = Path(__file__).resolve().parents[1] / "data" / "pastes"
UNITS = {"k": 1e3, "B/s": 1.0, "bytes/s": 1.0, "KB/s": 1e3, "kB/s": 1e3, "KiB/s": 1024.0,
         "MB/s": 1e6, "MiB/s": 2.0 ** 20, "GB/s": 1e9, "GiB/s": 2.0 ** 30, "ops/s": 1.0,
         "Mbps": 1e6 / 8, "Gbps": 1e9 / 8}
# Columns of the tidy table that describe a cell or its run but are not conditions.
NOT_CONDITIONS = {"note", "rule", "table"}
# Conditions the reader decodes from another one (runners._isa.label_asked: the ISA condition a
# stated OPENSSL_ia32cap value is): compared where an expectation names them, else they follow
# from the one it checks (and a spurious one of those is still wrong).
DECODED = {"isa": "isa_mask", "isa_off": "isa_mask"}
_COMMAND = re.compile(r"(?:^|[\s/])(?:openssl|bssl|tongsuo)(?:-[\w.]+)?\s+speed\b")  # the binary, lowercase
_THOUSANDS = re.compile(r"(?<=\d)[,'\u2019_](?=\d{3}(?!\d))")
# A time per operation as Go and benchstat print it; a rate with benchstat's prefixes.
_TIME = re.compile(r"^(?P<v>[\d.]+)_?(?P<unit>ns|n|\u00b5s|\u00b5|us|ms)$")
_SECONDS = {"ns": 1e-9, "n": 1e-9, "\u00b5s": 1e-6, "\u00b5": 1e-6, "us": 1e-6, "ms": 1e-3}
_PREFIXED = re.compile(r"^(?P<v>[\d.]+)(?P<unit>[KMGT]i|[kMGT]B/s)$")
_CELL = re.compile(r"^(?:(?P<size>\d+):|(?P<op>[a-z][a-z_-]*)=)?(?P<value>[^!]+?)(?P<loud>!)?$")


@dataclass
class Cell:
    run: int
    algorithm: str
    operation: str | None
    block: int | None
    value: float
    loud: bool = False  # the text cannot tell: the reader must flag it or leave it out
    conditions: dict[str, str] = field(default_factory=dict)
    optional: dict[str, str] = field(default_factory=dict)
    name: str = ""
    rtol: float = 1e-9
    row: tuple[int, int] = (0, 0)  # (run, row) of the expectation it came from
    token: str = ""  # the value as written in the expectation (copied from the text)


@dataclass
class Expectation:
    paste: Path
    runs: list[dict[str, Any]]
    cells: list[Cell]
    unplaced: list[int]
    distractors: list[tuple[int, int]]

    @property
    def n_throughput(self) -> int:
        """Throughput cells a careful reader extracts (not those the text cannot tell)."""
        return sum(c.block is not None and not c.loud for c in self.cells)

    @property
    def n_pk_rows(self) -> int:
        """Public-key rows, those the text cannot tell included (kept as rows, not scored)."""
        return len({c.row for c in self.cells if c.block is None})


def expectation_path(paste: Path) -> Path:
    stem = Path(paste.stem).stem if paste.suffix == ".gz" else paste.stem  # (t.mbox.gz: t)
    return paste.with_name(f"{stem}.expected.toml")


def pastes(folder: Path = PASTES) -> list[Path]:
    """Every paste of ``folder`` (``.txt``, ``.md``, ``.html``) that has an expectation, in file
    order (the real-paste corpus by default)."""
    return sorted(p for p in folder.iterdir()
                  if p.suffix in SUFFIXES and expectation_path(p).exists())


SUFFIXES = (".txt", ".md", ".html", ".ipynb", ".json", ".jsonl", ".cast", ".eml", ".mbox", ".gz")
MAIL = (".eml", ".mbox", ".gz")  # (raw mail: its texts decoded from their parts)


def numbered_lines(paste: Path) -> list[tuple[int, str]]:
    """The paste's lines with their line numbers; for a JSON container (a notebook, an API
    reply), the lines of the text it holds, as Jupyter or a viewer shows it (a value may be
    cut across two JSON strings: a stream's chunks), each with the JSON line it came from."""
    from cipherlab.readers._json import held_text

    if paste.suffix in MAIL:  # (each part's lines decoded, with the file's line each came from)
        from cipherlab.readers._mail import documents
        from cipherlab.readers._text import decode, split_lines
        parts = documents(split_lines(decode(paste.read_bytes(), str(paste))), copies=True) or []
        return [(n, line) for part in parts for n, line in zip(part.origin[1:], part.lines, strict=True)]
    text = paste.read_text(encoding="utf-8-sig", errors="replace")
    held = held_text(text) if paste.suffix in (".ipynb", ".json", ".jsonl", ".cast") else None
    if held is None:
        return list(enumerate(text.splitlines(), 1))
    lines, origin = held
    return list(zip(origin[1:], lines, strict=True))


def _number(text: str) -> float:
    return float(_THOUSANDS.sub("", text.strip()))


def _value(token: str, factor: float, size: int | None) -> float:
    """A value as written in an expectation -> bytes/s (throughput) or ops/s (public key)."""
    if m := _TIME.match(token):
        return 1.0 / (_number(m["v"]) * _SECONDS[m["unit"]])
    if m := _PREFIXED.match(token):
        step = 1024.0 if m["unit"].endswith("i") else 1000.0
        return _number(m["v"]) * step ** ("KMGT".index(m["unit"][0].upper()) + 1)
    if "/" in token:  # count/seconds from a progress line (0.00s: infinite)
        count, seconds = map(_number, token.split("/"))
        return count * (size or 1) / seconds if seconds else math.inf
    if token.endswith("k"):
        return _number(token[:-1]) * 1e3
    if token.endswith("s"):  # seconds per operation (where the rate is printed as 0.0)
        return 1.0 / _number(token[:-1])
    return _number(token) * factor


def untraced(exp: Expectation) -> list[str]:
    """Names and values of the expectation that are not copied from the paste's text.

    A name must appear in the text (blanks collapsed, any case); a printed value verbatim; a
    ``count/seconds`` pair on one line (each as a whole number).
    """
    lines = [re.sub(r"[\s*]+", " ", line).lower() for _, line in numbered_lines(exp.paste)]
    flat = " ".join(lines)
    missing = []
    for c in exp.cells:
        if re.sub(r"\s+", " ", c.name).lower() not in flat:
            missing.append(f"name {c.name!r}")
        if "/" in c.token and not _PREFIXED.match(c.token):
            count, seconds = c.token.split("/")
            pair = re.compile(rf"(?<![\w.]){re.escape(count)}(?![\w.]).*(?<![\w.]){re.escape(seconds)}(?![\d])")
            if not any(pair.search(line) for line in lines):
                missing.append(f"progress {c.token!r} of {c.name!r}")
        elif c.token.lower().replace("_", " ") not in flat:
            missing.append(f"value {c.token!r} of {c.name!r}")
    return list(dict.fromkeys(missing))


def unclaimed_k_figures(exp: Expectation) -> list[tuple[int, str]]:
    """openssl ``k`` figures of the text (``123.45k``) outside the distractor lines that no
    expected cell copies: a cell the expectation may have missed."""
    claimed = {c.token for c in exp.cells}
    out = []
    for n, line in numbered_lines(exp.paste):
        if any(a <= n <= b for a, b in exp.distractors):
            continue
        out += [(n, k) for k in re.findall(r"(?<![\w.])[\d,'’]*\d\.\d+k(?!\w)", line)
                if k not in claimed]
    return out


def _conditions(text: str) -> dict[str, str]:
    return dict(part.strip().split("=", 1) for part in text.split(",") if part.strip())


def load(paste: Path) -> Expectation:
    """Read ``paste``'s expectation into cells (see the module docstring for the format)."""
    where = expectation_path(paste)
    spec = tomllib.loads(where.read_text(encoding="utf-8"))
    cells = [cell for run_no, run in enumerate(spec.get("run", []))
             for row_no, row in enumerate(run.get("rows", []))
             for cell in _row_cells(row, run, (run_no, row_no), where.name)]
    distractors = []
    for span in spec.get("distractors", []):
        a, _, b = str(span).partition("-")
        distractors.append((int(a), int(b or a)))
    return Expectation(paste, spec.get("run", []), cells, list(spec.get("unplaced", [])), distractors)


def _row_cells(row: str, run: dict[str, Any], at: tuple[int, int], source: str) -> list[Cell]:
    """One expectation row (``name | algorithm [operation] | cells [| conditions]``) -> cells."""
    from cipherlab.readers._names import canonical  # the project's vocabulary: default operation

    parts = [p.strip() for p in row.split("|")]
    if len(parts) not in (3, 4):
        raise ValueError(f"{source}: bad row {row!r}")
    name, algo_op, tokens = parts[:3]
    algorithm, *op = algo_op.split()
    own = _conditions(parts[3]) if len(parts) == 4 else {}
    conditions = {**run.get("conditions", {}), **{k: v for k, v in own.items() if k[0] != "?"}}
    optional = {**run.get("optional", {}), **{k[1:]: v for k, v in own.items() if k[0] == "?"}}
    factor, sizes = UNITS[run.get("unit", "k")], iter(run.get("sizes", []))
    cells = []
    for token in tokens.split():
        m = _CELL.match(token)
        if m is None:
            raise ValueError(f"{source}: bad cell {token!r} in {row!r}")
        if m["op"]:
            size, operation = None, m["op"]
        else:
            size = int(m["size"]) if m["size"] else next(sizes)
            operation = op[0] if op else canonical(algorithm)[1]
        if token == "-":  # a size without a cell
            continue
        value = m["value"]
        if run.get("decimal") == ",":  # ("1.234,56": "." groups thousands, "," is the decimal mark)
            value = value.replace(".", "").replace(",", ".")
        cells.append(Cell(at[0], algorithm, operation, size,
                          _value(value, 1.0 if size is None else factor, size),
                          bool(m["loud"]), conditions, optional, name, run.get("rtol", 1e-9),
                          at, m["value"]))
    return cells


# ---------------------------------------------------------------------------------------------
# reading and comparing


@dataclass
class Got:
    run: int
    algorithm: str
    operation: str | None
    block: int | None
    value: float
    flagged: bool
    conditions: dict[str, str]
    line: int | None


def _text(v: Any) -> str | None:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    try:
        import pandas as pd
        if pd.isna(v):
            return None
    except (TypeError, ValueError):
        pass
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return str(v)


def read(paste: Path):
    """``cipherlab.ingest(paste)`` -> (frame or None, got cells, unplaced lines reported, error)."""
    import cipherlab
    from cipherlab.errors import IngestError
    from cipherlab.model import condition_columns

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            df, error = cipherlab.ingest(paste), None
        except IngestError as err:
            df, error = None, err
    reported: set[int] = set()
    for w in caught:
        m = re.search(r"not placed \(line\(s\) ([\d, ]+)", str(w.message))
        if m:
            reported.update(int(n) for n in m[1].replace(",", " ").split())
    reported.update(n for n, *_ in getattr(error, "unplaced", None) or [])
    got: list[Got] = []
    if df is not None:
        conds = [c for c in condition_columns(df) if c not in NOT_CONDITIONS] + ["multi"]
        for row in df.to_dict("records"):
            block = None if _text(row["block_bytes"]) is None else int(row["block_bytes"])
            value = row["bytes_per_s"] if block is not None else row["ops_per_s"]
            got.append(Got(
                int(row["run"]), str(row["algorithm"]), _text(row["operation"]), block,
                math.nan if _text(value) is None else float(value), _text(row["flag"]) is not None,
                {c: t for c in conds if (t := _text(row.get(c))) is not None},
                None if _text(row["line"]) is None else int(row["line"])))
    return df, got, reported, error


def _close(a: float, b: float, rtol: float) -> bool:
    return math.isclose(a, b, rel_tol=rtol, abs_tol=0.0)


def _conditions_ok(cell: Cell, got: Got) -> bool:
    for key, value in got.conditions.items():
        want = cell.conditions.get(key, cell.optional.get(key))
        if want is None and key in DECODED and DECODED[key] in {**cell.optional, **cell.conditions}:
            continue  # (decoded from a condition the expectation checks)
        if want is None or str(want).lower() != value.lower():
            return False
    return all(key in got.conditions for key in cell.conditions)


def _norm_label(text: str | None) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[#*`_>:|\[\]]", " ", text or "")).strip().lower()


def _labels(run: dict[str, Any]) -> list[str]:
    """The labels an expected run accepts (``""``: none)."""
    return ([run["label"]] if "label" in run else []) + run.get("labels", [])


def label_ok(run: dict[str, Any], got_label: str | None) -> bool:
    """A label is right when it is one of the expected labels (normalised: case, blanks and
    markup; never a command line), or, when the expectation names none, when there is none.
    Exact: a label that only holds an expected one (a list number, a version or a sentence
    glued to it) is junk, unless the expectation accepts it as a name of its own."""
    accepted = _labels(run)
    got = _norm_label(got_label)
    if not accepted or "" in accepted and not got:
        return not got
    if _COMMAND.search(got_label or ""):  # a command line is never a label, whatever it holds
        return False
    return bool(got) and got in {_norm_label(a) for a in accepted}


@dataclass
class Score:
    paste: str
    expected: int = 0
    right: int = 0
    wrong: int = 0  # returned unflagged and different from the expectation
    missed: int = 0
    flagged: int = 0
    spurious: int = 0  # returned unflagged where no cell is expected
    extra_flagged: int = 0  # returned flagged where no cell is expected (-multi children, ...)
    problems: list[str] = field(default_factory=list)  # run metadata, labels, unplaced lines
    details: list[str] = field(default_factory=list)  # every cell that is not right

    @property
    def silent(self) -> int:
        return self.wrong + self.spurious

    @property
    def perfect(self) -> bool:
        return self.right == self.expected and not self.spurious and not self.problems


def _match_runs(exp: Expectation, got: list[Got]) -> dict[int, int]:
    """Reader's run -> expected run: the expected run it shares the most cells with.

    Several reader runs may go to one expected run (a split; reported unless the expected run
    says ``may_split``); a reader run that also holds another expected run's cells has those
    in the wrong run. Reader runs sharing no cell are paired in order with the expected runs
    left, so their labels and metadata are still compared.
    """
    common: dict[tuple[int, int], int] = {}
    for c in exp.cells:
        for g in got:
            if (g.algorithm, g.operation, g.block) == (c.algorithm, c.operation, c.block) and \
                    _close(g.value, c.value, c.rtol):
                common[g.run, c.run] = common.get((g.run, c.run), 0) + 1
    to_expected: dict[int, int] = {}
    ranked = sorted(common.items(), key=lambda kv: (-kv[1], kv[0]))
    for (g, e), n in ranked:  # one to one first (a quoted repeat of a run is a run of its own)
        if g not in to_expected and e not in to_expected.values():
            to_expected[g] = e
    for (g, e), n in ranked:  # then the splits
        to_expected.setdefault(g, e)
    rest_e = [e for e in range(len(exp.runs)) if e not in to_expected.values()]
    for g in sorted({g.run for g in got} - set(to_expected)):
        if rest_e:
            to_expected[g] = rest_e.pop(0)
    return to_expected


def _pair(exp: Expectation, got: list[Got], runs: dict[int, int]) -> dict[int, int]:
    """Expected cell -> reader's cell with its algorithm, operation and block size, in three
    rounds so no cell takes another's better match: the same run and value, then the same
    value in another run, then the same run with another value. Unflagged cells are tried
    first (a flagged ``-multi`` child's share equal to its parent's cell is no rival)."""
    key = lambda x: (x.algorithm, x.operation, x.block)  # noqa: E731
    order = sorted(range(len(got)), key=lambda j: got[j].flagged)
    rounds = [lambda c, g: runs.get(g.run) == c.run and _close(g.value, c.value, c.rtol),
              lambda c, g: _close(g.value, c.value, c.rtol),
              lambda c, g: runs.get(g.run) == c.run]
    pairs: dict[int, int] = {}
    for fits in rounds:
        taken = set(pairs.values())
        for i, c in enumerate(exp.cells):
            if i in pairs:
                continue
            j = next((j for j in order
                      if j not in taken and key(got[j]) == key(c) and fits(c, got[j])), None)
            if j is not None:
                pairs[i] = j
                taken.add(j)
    return pairs


def score(paste: Path, exp: Expectation | None = None, read_result=None) -> Score:
    """Compare ``cipherlab.ingest(paste)`` with the paste's expectation, cell by cell.

    Cells marked ``!`` (the text cannot tell) are not counted as expected: they only count as
    silently wrong when the reader returns them unflagged.
    """
    exp = exp or load(paste)
    df, got, reported, error = read_result or read(paste)
    s = Score(paste.name[:3], expected=sum(not c.loud for c in exp.cells))
    runs = _match_runs(exp, got)
    pairs = _pair(exp, got, runs)
    for i, c in enumerate(exp.cells):
        where = f"run {c.run + 1} {c.name!r} {c.operation} {c.block}"
        if i not in pairs:
            if not c.loud:
                s.missed += 1
                s.details.append(f"missed  {where}: {c.value:.6g}")
            continue
        g = got[pairs[i]]
        if g.flagged:
            if not c.loud:
                s.flagged += 1
                s.details.append(f"flagged {where}: got {g.value:.6g} (line {g.line})")
            continue
        wrong = [why for bad, why in (
            (c.loud, "not flagged (the text cannot tell)"),
            (not _close(g.value, c.value, c.rtol), f"value {g.value:.8g} != {c.value:.8g}"),
            (runs.get(g.run) != c.run, f"in reader's run {g.run}"),
            (not _conditions_ok(c, g), f"conditions {g.conditions} != {c.conditions}")) if bad]
        if wrong:
            s.wrong += 1
            s.details.append(f"WRONG   {where} (line {g.line}): " + "; ".join(wrong))
        else:
            s.right += 1
    for j in sorted(set(range(len(got))) - set(pairs.values())):
        g = got[j]
        if g.flagged:
            s.extra_flagged += 1
        else:
            s.spurious += 1
            s.details.append(f"SPURIOUS run {g.run} {g.algorithm} {g.operation} {g.block} "
                             f"{g.value:.6g} (line {g.line})")
    _check_runs(exp, df, runs, s)
    _check_lines(exp, got, reported, s)
    return s


def assert_reads_right(paste: Path) -> None:
    """Assert that ``paste`` reads to its expected table: every cell right, none spurious, no
    run or line problem (the message lists the differences)."""
    s = score(paste)
    report = "\n".join(s.problems + s.details)
    assert s.right == s.expected and not s.spurious and not s.problems, (
        f"{s.right}/{s.expected} right, {s.wrong} wrong, {s.spurious} spurious, {s.missed} "
        f"missed, {s.flagged} flagged:\n{report}")


def _check_runs(exp: Expectation, df, runs: dict[int, int], s: Score) -> None:
    """Labels, tool, version and timing of each reader run against its expected run; splits."""
    if df is None:
        return
    firsts = {int(r): grp.iloc[0] for r, grp in df.groupby("run", observed=True)}
    for e, run in enumerate(exp.runs):
        mine = sorted(g for g, to in runs.items() if to == e)
        if len(mine) > 1 and not run.get("may_split"):
            s.problems.append(f"run {e + 1} is split into the reader's runs {mine}")
        for g in mine:
            row = firsts[g]
            if not label_ok(run, _text(row["label"])):
                s.problems.append(f"run {e + 1}: label {_text(row['label'])!r}, expected "
                                  f"{' or '.join(map(repr, _labels(run))) or 'none'}")
            for col in ("tool", "tool_version", "timing", "cpu"):
                if col in run and (_text(row.get(col)) or "").lower() != str(run[col]).lower():
                    s.problems.append(f"run {e + 1}: {col} {_text(row.get(col))!r}, "
                                      f"expected {run[col]!r}")


def _check_lines(exp: Expectation, got: list[Got], reported: set[int], s: Score) -> None:
    """Unplaceable lines are reported; distractor lines yield nothing and are not reported."""
    missing = sorted(set(exp.unplaced) - reported)
    if missing and len(reported) < 5:  # (the warning names the first five lines only)
        s.problems.append(f"unplaced line(s) not reported: {missing}")
    inside = lambda n: any(a <= n <= b for a, b in exp.distractors)  # noqa: E731
    noise = sorted(n for n in reported if inside(n))
    if noise:
        s.problems.append(f"distractor line(s) reported as unplaced data: {noise}")
    cells = sorted({g.line for g in got if g.line is not None and inside(g.line)})
    if cells:
        s.problems.append(f"cells read from distractor line(s): {cells}")


_SHOWN = 15  # differences listed per paste


def expected_frame(exp: Expectation):
    """The expected cells as a DataFrame (run numbered from 0, as the tidy table's ``run``)."""
    import pandas as pd

    return pd.DataFrame([{
        "run": c.run, "label": next(iter(_labels(exp.runs[c.run])), None) or None, "algorithm": c.algorithm,
        "name": c.name, "operation": c.operation, "block_bytes": c.block, "value": c.value,
        "cannot_tell": c.loud, "conditions": c.conditions or None} for c in exp.cells])


def main(argv: list[str]) -> int:
    folder = PASTES
    if argv[:1] == ["--dir"]:  # another folder of pastes (tests/data/user/*)
        folder, argv = Path(argv[1]), argv[2:]
    if argv[:1] == ["--expected"]:
        import pandas as pd

        with pd.option_context("display.max_rows", None, "display.max_columns", None,
                               "display.width", 250):
            for p in pastes(folder):
                if any(p.name.startswith(a) for a in argv[1:]):
                    print(p.name, expected_frame(load(p)), sep="\n")
        return 0
    chosen = [p for p in pastes(folder) if not argv or any(p.name.startswith(a) for a in argv)]
    scores = []
    print(f"{'paste':<6}{'expected':>9}{'right':>7}{'silent':>7}{'(wrong':>7}{'spurious)':>10}"
          f"{'missed':>7}{'flagged':>8}  run/line problems")
    for p in chosen:
        s = score(p)
        scores.append(s)
        print(f"{s.paste:<6}{s.expected:>9}{s.right:>7}{s.silent:>7}{s.wrong:>7}{s.spurious:>10}"
              f"{s.missed:>7}{s.flagged:>8}  {'; '.join(s.problems)[:160]}")
        if argv:
            for d in s.details[:_SHOWN]:
                print("      " + d)
            if len(s.details) > _SHOWN:
                print(f"      ... and {len(s.details) - _SHOWN} more")
    n = sum(s.expected for s in scores)
    right = sum(s.right for s in scores)
    print(f"\n{len(scores)} pastes, {n} expected cells: {right} right ({100 * right / max(n, 1):.1f} %), "
          f"{sum(s.wrong for s in scores)} wrong and {sum(s.spurious for s in scores)} spurious "
          f"(silently wrong: {sum(s.silent for s in scores)}), {sum(s.missed for s in scores)} missed, "
          f"{sum(s.flagged for s in scores)} flagged; {sum(s.perfect for s in scores)} pastes "
          f"read perfectly, {sum(bool(s.problems) for s in scores)} with run/line problems")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
