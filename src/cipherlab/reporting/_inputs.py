"""What the report reads: any mix of inputs, each row tied to the machine it was measured on.

Inputs are anything :func:`cipherlab.ingest` reads (files, folders, capture folders, folders of
captures, tidy CSV/Parquet, text, file objects) or a tidy DataFrame. The sections compare
machines, builds and conditions, so every row gets a ``machine``:

1. the input's ``label`` when the caller gives one (``--label``);
2. else the ``host`` condition (captures record it), else the ``cpu`` the text names; machines
   that share a host name (every cloud VM is ``ubuntu``) but not a ``host_id`` or CPU are named
   apart (``x86/ubuntu``, ``arm/ubuntu``), with a warning;
3. else the run label, where the labelled runs of one file measure the same cells under the
   same conditions (one benchmark pasted for several systems, as mailing-list dumps do), or
   were made by different builds and their labels say more than the build (``Linux (P3
   750Mhz)``, ``OpenBSD (P3 500Mhz)``: systems, each with its own openssl; not ``OpenSSL
   1.1.1w``); decided file by file, so a file's runs are named alike whatever it is read with;
4. else the input itself: a folder's name (``openssl-3.0.19-host-a``), a file's name without
   its type (``alice.txt`` -> ``alice``), its parent's too where two inputs share a name
   (``a/speed``, ``b/speed``), or ``input 2``.

Run labels that only tell the runs of one machine apart (``evp aes-128-gcm aesni=on``) are thus
never taken for machines. Host facts that are not in the table (OS, cores, ``openssl version
-a``) come from the ``host.json`` of every capture folder among the inputs.

Two inputs of one machine whose builds differ (a capture's ``openssl version -a``, a dump's
``built on``/``options``/``compiler`` lines: Debian's i386 and amd64 openssl on one x86-64 host)
are two builds of that machine, never one set of replicates: their rows get a ``build`` named
by version and ``platform:`` (``3.0.22 debian-i386``), else by the input.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from cipherlab.reporting._select import BUILD, MACHINE, system

_CELL = ["algorithm", "operation", "block_bytes"]
# What a dump says of the build that made it: two values of one of these, two builds.
_BUILD_FACTS = ("tool_version", "built_on", "options", "compiler")


@dataclass
class Inputs:
    """The table to analyse, the host facts of its machines, and how to name the inputs."""

    df: pd.DataFrame
    facts: dict[str, dict[str, Any]] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)


def _as_list(sources) -> list:
    if isinstance(sources, (str, Path, pd.DataFrame)) or hasattr(sources, "read"):
        return [sources]
    return list(sources)


# A file's suffix that is a type (``.txt``, ``.md``, ``.gz``), not a version's tail (``.19-host-a``).
_TYPE_SUFFIX = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}")


def _as_path(source) -> Path | None:
    """The path a source names (a ``str`` holding a line break is text, not a path), else None."""
    if isinstance(source, (str, Path)) and "\n" not in str(source):
        return Path(str(source))
    return None


def _input_name(source, i: int) -> str:
    """The name of an input: a folder's name, or a file's without its type suffixes.

    >>> _input_name("dumps/openssl-3.0.19-host-a", 0), _input_name("alice.speed.txt.gz", 1)
    ('openssl-3.0.19-host-a', 'alice.speed')
    """
    path = _as_path(source)
    if path is not None:
        if path.name in ("results.csv", "results.parquet"):
            path = path.parent
        return _without_type(path) or f"input {i + 1}"
    name = getattr(source, "name", None)
    if isinstance(name, str) and name not in ("<stdin>", ""):
        return _without_type(Path(name))
    return f"input {i + 1}"


def _without_type(path: Path) -> str:
    name = path.name
    if path.is_dir():
        return name
    for _ in range(2):  # speed.txt.gz
        stem, dot, suffix = name.rpartition(".")
        if not (stem and _TYPE_SUFFIX.fullmatch(dot + suffix)):
            break
        name = stem
    return name


def _distinct(names: list[str], sources: list) -> list[str]:
    """Names that tell the inputs apart: two ``speed.txt`` of two folders become ``a/speed`` and
    ``b/speed`` (their parents), never one machine."""
    out = list(names)
    for name in set(names):
        same = [i for i, n in enumerate(names) if n == name]
        if len(same) < 2:
            continue
        for i in same:
            path = _as_path(sources[i])
            parent = path.resolve().parent.name if path is not None else ""
            out[i] = f"{parent}/{name}" if parent else f"{name} ({i + 1})"
        if len({out[i] for i in same}) < len(same):  # the parents are named alike too
            for i in same:
                out[i] = f"{name} ({i + 1})"
    return out


def _cell_keys(df: pd.DataFrame) -> list[str]:
    """The columns of a cell measured under one build and setting: what replicates share."""
    from cipherlab.model import condition_columns

    conds = [c for c in condition_columns(df) if c not in ("repeat", "note", "child", "label")]
    return [k for k in dict.fromkeys([*_CELL, "tool", "tool_version", "timing", *conds])
            if k in df.columns]


def _labels_name_machines(df: pd.DataFrame) -> pd.Series:
    """Per row, True where its run label names its machine (rule 3 of the module docstring).

    >>> rows = pd.DataFrame({"source": "post.txt", "label": ["Linux (P3)", "OpenBSD (P3)"],
    ...                      "tool_version": ["0.9.8g", "0.9.7j"], "algorithm": "md5"})
    >>> _labels_name_machines(rows).tolist()
    [True, True]
    >>> _labels_name_machines(rows.assign(label=["OpenSSL 0.9.8g", "OpenSSL 0.9.7j"])).tolist()
    [False, False]
    """
    label = df["label"].astype("object")
    files = (df["source"].astype("object") if "source" in df.columns
             else pd.Series("", index=df.index, dtype="object")).fillna("")
    keys = [files, *(df[k].astype("object") for k in _cell_keys(df))]
    shared = label.groupby(keys, dropna=False).transform("nunique") >= 2
    builds = [c for c in _BUILD_FACTS if c in df.columns]
    built = (df[builds].astype("object").groupby([files, label], dropna=False).first()
             .groupby(level=0).nunique().gt(1).any(axis=1)) if builds else pd.Series(dtype=bool)
    differ = files.map(built).fillna(False).astype(bool) & label.map(
        lambda text: isinstance(text, str) and _says_more_than_build(text))
    alone = label.groupby(files).transform("nunique") < 2  # (one labelled run: its label names the system)
    return label.notna() & (alone | shared.groupby(files).transform("any") | differ)


# A label's words that name only the build it ran (``OpenSSL 1.1.1w``, ``LibreSSL 3.8.2:``).
_BUILD_WORDS = re.compile(r"(?i)\b(?:open|libre|boring)ssl\b|\baws-lc\b|\bversion\b|\bv?\d[\w.-]*")


def _says_more_than_build(label: str) -> bool:
    """True when a label names more than a tool's build: a system, a host, a CPU.

    >>> _says_more_than_build("OpenSSL 1.1.1w"), _says_more_than_build("NetBSD (P3 750Mhz)")
    (False, True)
    """
    return bool(re.search(r"[^\W\d_]{2}", _BUILD_WORDS.sub(" ", label)))


def machine_names(df: pd.DataFrame, name: str, label: str | None) -> pd.Series:
    """The machine of every row of one input (rules in the module docstring)."""
    auto = pd.Series(None, index=df.index, dtype="object")
    for col in ("host", "cpu"):
        if col in df.columns:
            auto = auto.where(auto.notna(), df[col].astype("object"))
    if auto.isna().any() and "label" in df.columns:
        named = _labels_name_machines(df[auto.isna()]).reindex(df.index, fill_value=False)
        auto = auto.where(auto.notna() | ~named, df["label"].astype("object"))
    if label is not None:
        several = auto.nunique() > 1
        return auto.map(lambda m: f"{label}: {m}") if several else pd.Series(
            label, index=df.index, dtype="object")
    return auto.fillna(_by_file(df[auto.isna()], name))


def _cpu_words(df: pd.DataFrame) -> pd.Series:
    """Per row, the capability words openssl printed for the CPU itself (``CPUINFO:
    OPENSSL_ia32cap=0x...:0x...`` with no ``env:`` mask of the run's own), else None."""
    if "cpuinfo" not in df.columns:
        return pd.Series(None, index=df.index, dtype="object")
    info = df["cpuinfo"].astype("object")
    own = info.where(info.notna() & ~info.fillna("").str.contains("env:", regex=False))
    return own.str.extract(r"(\w+cap=0x[0-9a-fA-F:x]+)", expand=False).astype("object")


# Runs of one machine and build differ by a few per cent (20 % on a loaded VM); files whose rates
# of the same cells are further apart than this are not its replicates.
_REPLICATE_SPREAD = 1.5


def _spread(rows: pd.DataFrame, keys: list[str]) -> float:
    """The median over cells of the fastest file's rate over the slowest's (1.0: no cell)."""
    rated = rows[rows["bytes_per_s"] > 0] if "bytes_per_s" in rows.columns else rows.iloc[:0]
    if rated.empty:
        return 1.0
    by_file = rated.groupby([*[rated[k].astype("object") for k in keys],
                             rated["source"].astype("object")], dropna=False)["bytes_per_s"].median()
    cells = by_file.groupby(level=list(range(len(keys))), dropna=False)
    spread = (cells.max() / cells.min())[cells.size() > 1]
    return float(spread.median()) if len(spread) else 1.0


def _builds_differ(rows: pd.DataFrame, source: pd.Series) -> str | None:
    """What says the files were made by different builds (versions, build lines that two files
    print and that differ), or None."""
    cols = [c for c in _BUILD_FACTS if c in rows.columns]
    facts = rows[cols].astype("object").groupby(source).first()  # (the first value each says)
    for col in cols:
        if facts[col].nunique() > 1:
            return (f"its files were made by different builds ({col.replace('_', ' ')}: "
                    f"{', '.join(map(str, facts[col].dropna().unique()))})")
    return None


def _by_file(rows: pd.DataFrame, name: str) -> pd.Series:
    """The machine of an input's rows that name none: the input, or each of its files where the
    files' CPUs or builds differ (a folder of several people's dumps is several machines), or
    where their rates of the same cells are too far apart for runs of one machine. Where the
    files cannot be told apart but measure the same cells, a warning says they are pooled as
    runs of one machine."""
    from cipherlab.errors import ComparabilityWarning, warn_caller

    machine = pd.Series(name, index=rows.index, dtype="object")
    if rows.empty or "source" not in rows.columns or rows["source"].nunique() < 2:
        return machine
    source = rows["source"].astype("object")
    stems = {s: _without_type(Path(str(s))) for s in source.unique()}
    words = _cpu_words(rows).groupby(source).first()
    if words.nunique() > 1:
        why = (f"its files come from {words.nunique()} machines (the CPUs' capability words "
               f"openssl printed differ: {', '.join(words.dropna().unique())})")
    else:
        why = _builds_differ(rows, source)
    keys = _cell_keys(rows)
    cell = rows.groupby([rows[k].astype("object") for k in keys], dropna=False)["source"]
    shared = source[cell.transform("nunique") > 1].nunique()
    spread = _spread(rows[cell.transform("nunique") > 1], keys)
    if why is None and spread > _REPLICATE_SPREAD:
        why = (f"its files measure the same cells at rates {spread:.3g}× apart (the median over "
               "those cells of the fastest file's rate over the slowest's), more than runs of "
               "one machine differ")
    if why is not None:
        warn_caller(f"{name}: {why}, and they name no host, so each file is taken as its own "
                    f"machine ({name}/<file>): compared, never pooled as runs of one; give each "
                    "machine's files as a source of its own (or a label) to name them, and one "
                    "label to sources that are one machine's builds", ComparabilityWarning)
        return source.map(lambda s: f"{name}/{stems[s]}")
    if shared:
        warn_caller(f"{name}: {shared} of its {source.nunique()} files measure the same cells "
                    "and name no host: "
                    "they are taken as runs of one machine; if they come from different "
                    "machines, give each as a source of its own (or a label)",
                    ComparabilityWarning)
    return machine


# What tells one machine from another that bears its name: the id a capture gives the machine
# it ran on (machine id and host name), and the CPU it names (a cloned image shares the id).
_IDENTITY = ("host_id", "cpu")


def _namesakes(frames: list[pd.DataFrame], inputs: list[str], labelled: list[bool]) -> None:
    """Name apart the machines that share a name (every cloud VM is ``ubuntu``, two
    ``localhost``s, two ``raspberrypi``s) but not a ``host_id`` or CPU: each becomes a machine
    of its own, named by its input where that tells them apart (``x86/ubuntu``, ``ubuntu
    (aws-2)``), else by its CPU, else by its host id, with a warning. A name given with a label
    is the caller's and stays; a warning says what it pools."""
    from cipherlab.errors import ComparabilityWarning, warn_caller

    rows = pd.concat([pd.DataFrame({
        MACHINE: f[MACHINE].astype("object"), "_input": i, "_row": range(len(f)),
        **{c: (f[c].astype("object") if c in f.columns else None) for c in _IDENTITY}})
        for i, f in enumerate(frames)], ignore_index=True)
    for machine, sub in rows.groupby(MACHINE, sort=False):
        split = [c for c in _IDENTITY if sub[c].nunique() > 1]
        if not split:
            continue
        told = sub[split[0]].astype("object")
        seen = ", ".join(f"{c} {', '.join(map(str, sub[c].dropna().unique()))}" for c in split)
        if any(labelled[i] for i in sub["_input"].unique()):
            warn_caller(f"the label {machine!r} names machines whose {seen} differ: they are "
                        "pooled as one machine, as the label says; give each its own label if "
                        "they are not one", ComparabilityWarning)
            continue
        names = _namesake_names(str(machine), sub, told, inputs)
        for i, part in sub[told.notna()].groupby("_input"):
            frame = frames[i]
            at = frame.index[part["_row"].to_numpy()]
            frame.loc[at, MACHINE] = told.loc[part.index].map(names).to_numpy()
        warn_caller(f"{told.nunique()} machines are named {machine!r} ({seen}): they are "
                    f"compared as {', '.join(repr(n) for n in names.values())}, never pooled "
                    "as runs of one machine nor taken for one machine's builds; give each "
                    "source a label to name them", ComparabilityWarning)


def _namesake_names(machine: str, sub: pd.DataFrame, told: pd.Series,
                    inputs: list[str]) -> dict[Any, str]:
    """The name of each machine that bears ``machine``: by its input where each is the only
    one of its input and their inputs are named apart, else by its CPU, else by its id."""
    where = sub.groupby(told, sort=False)["_input"].unique()
    if all(len(i) == 1 for i in where) and len({inputs[i[0]] for i in where}) == len(where):
        return {k: (inputs[i[0]] if inputs[i[0]].endswith(machine) else
                    f"{machine} ({inputs[i[0]]})") for k, i in where.items()}
    cpus = sub.groupby(told, sort=False)["cpu"].agg(lambda c: tuple(c.dropna().unique()))
    if all(len(c) == 1 for c in cpus) and len({c[0] for c in cpus}) == len(cpus):
        return {k: f"{machine} ({c[0]})" for k, c in cpus.items()}
    return {k: f"{machine} (host {str(k)[:8]})" for k in where.index}


def _host_facts(source) -> list[dict[str, Any]]:
    """The ``host.json`` of each capture folder of ``source``, with its ``builds.json`` (the
    facts of each build a capture compared) as ``_builds``."""
    path = _as_path(source)
    if path is None:
        return []
    if path.is_file():
        path = path.parent if path.name.startswith("results.") else None
    if path is None or not path.is_dir():
        return []
    found = [path / "host.json"] if (path / "host.json").is_file() else sorted(
        path.rglob("host.json"))
    out = []
    for f in found:
        try:
            host = json.loads(f.read_text(encoding="utf-8"))
            builds = f.with_name("builds.json")
            host["_builds"] = (json.loads(builds.read_text(encoding="utf-8"))
                               if builds.is_file() else {})
        except (OSError, ValueError):
            continue  # a damaged host.json costs the facts table a column, not the report
        out.append(host)
    return out


def _build_text(frame: pd.DataFrame, hosts: list[dict]) -> str | None:
    """What identifies the build an input measured (None: it does not say, or it holds several):
    its capture's ``openssl version -a`` without the ``CPUINFO:`` line, else its dumps' build
    lines."""
    if BUILD in frame.columns and frame[BUILD].notna().any():
        return None  # a capture of several builds names them itself
    if hosts:
        texts = {re.sub(r"^CPUINFO:.*$", "", h.get("openssl_version_a") or "", flags=re.M).strip()
                 for h in hosts}
        return texts.pop() if len(texts) == 1 and "" not in texts else None
    cols = [c for c in ("built_on", "options", "compiler") if c in frame.columns]
    found = frame[cols].astype("object").dropna(how="all").drop_duplicates() if cols else []
    return "\n".join(map(str, found.iloc[0].tolist())) if len(found) == 1 else None


def _build_names(texts: list[str], inputs: list[str]) -> list[str]:
    """What tells the builds of ``openssl version -a`` texts apart, shortest first: the
    ``platform:`` line (``debian-i386``), with the version (``3.0.22 debian-i386``), else the
    inputs' names."""
    def fact(pattern, text):
        m = re.search(pattern, text, re.M)
        return m[1] if m else ""
    platform = [fact(r"^platform:\s*(\S+)", t) for t in texts]
    version = [" ".join(filter(None, (fact(r"^\S+\s+(\d\S*)", t), p)))
               for t, p in zip(texts, platform, strict=True)]
    for names in (platform, version):
        if all(names) and len(set(names)) == len(set(texts)):
            return names
    return inputs


def _name_builds(frames: list[pd.DataFrame], texts: list[str | None], names: list[str]) -> None:
    """Give ``build`` to the rows of each machine that two inputs measured with two builds."""
    on: dict[str, list[int]] = {}
    for i, frame in enumerate(frames):
        for machine in frame[MACHINE].dropna().unique():
            on.setdefault(str(machine), []).append(i)
    for machine, inputs in on.items():
        inputs = [i for i in inputs if texts[i] is not None]
        if len({texts[i] for i in inputs}) < 2:
            continue
        labels = _build_names([texts[i] for i in inputs], [names[i] for i in inputs])
        for i, label in zip(inputs, labels, strict=True):
            rows = frames[i][MACHINE].astype("object") == machine
            frames[i].loc[rows, BUILD] = label


def _host_rows(frame: pd.DataFrame, host: dict[str, Any]) -> pd.Series:
    """The mask of the rows of ``frame`` measured on the host of a ``host.json`` (its name, and
    its id where both say one: two machines may share a name)."""
    mask = pd.Series("host" in frame.columns, index=frame.index)
    for col in ("host", "host_id"):
        if col in frame.columns and (col == "host" or host.get(col)):
            mask &= frame[col].astype("object") == host.get(col)
    return mask


def load(sources, label=None) -> Inputs:
    """Read ``sources`` (None: the bundled data) into one table with a ``machine`` column."""
    import cipherlab

    if sources is None:
        df = cipherlab.datasets.load()
        df[MACHINE] = machine_names(df, "bundled data", None)
        return Inputs(df, {}, ["the bundled data (four seed documents, two host captures)"])
    items = _as_list(sources)
    if not items:
        raise ValueError("`sources` must name at least one dump or capture folder, or be None "
                         "for the bundled data; not an empty list")
    labels = [label] * len(items) if label is None or isinstance(label, str) else list(label)
    if len(labels) != len(items):
        raise ValueError(f"`label` must give one name per source: {len(items)} source(s), "
                         f"{len(labels)} label(s)")
    frames, hosts, names = [], [], []
    input_names = _distinct([_input_name(s, i) for i, s in enumerate(items)], items)
    for source, lab, name in zip(items, labels, input_names):
        frame = (source.copy() if isinstance(source, pd.DataFrame)
                 else cipherlab.ingest(source))
        frame[MACHINE] = machine_names(frame, name, lab)
        frames.append(frame)
        hosts.append(_host_facts(source))
        names.append(f"{lab} ({name})" if lab and lab != name else name)
    _namesakes(frames, input_names, [lab is not None for lab in labels])
    _name_builds(frames, [_build_text(f, h) for f, h in zip(frames, hosts, strict=True)], input_names)
    facts = {}
    for frame, found, lab in zip(frames, hosts, labels, strict=True):
        for host in found:
            rows = frame[_host_rows(frame, host)]
            machine = rows[MACHINE].iloc[0] if len(rows) else lab or host.get("host")
            builds = host.pop("_builds")
            build = rows[BUILD].dropna().unique() if BUILD in rows.columns else []
            facts[system(machine, build[0] if len(build) == 1 else None)] = host
            for name, build_facts in builds.items():  # each build of the capture, its own facts
                facts[system(machine, name)] = {**host, **build_facts}
    df = cipherlab.concat(frames)
    df[MACHINE] = pd.concat([f[MACHINE] for f in frames], ignore_index=True).astype("category")
    return Inputs(df, facts, names)
