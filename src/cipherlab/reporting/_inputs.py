"""What the report reads: any mix of inputs, each row tied to the machine it was measured on.

Inputs are anything :func:`cipherlab.ingest` reads (files, folders, capture folders, folders of
captures, tidy CSV/Parquet, text, file objects) or a tidy DataFrame. The sections compare
machines, builds and conditions, so every row gets a ``machine``:

1. the input's ``label`` when the caller gives one (``--label``);
2. else the ``host`` condition (captures record it), else the ``cpu`` the text names;
3. else the run label, when the runs of one input measure the same cells under the same
   conditions (one benchmark pasted for several systems, as mailing-list dumps do);
4. else the input itself: its file name (``alice.txt`` -> ``alice``), or ``input 2``.

Run labels that only tell the runs of one machine apart (``evp aes-128-gcm aesni=on``) are thus
never taken for machines. Host facts that are not in the table (OS, cores, ``openssl version
-a``) come from the ``host.json`` of every capture folder among the inputs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from cipherlab.reporting._select import MACHINE

_CELL = ["algorithm", "operation", "block_bytes"]


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


def _input_name(source, i: int) -> str:
    if isinstance(source, (str, Path)) and "\n" not in str(source):
        path = Path(str(source))
        if path.name in ("results.csv", "results.parquet"):
            path = path.parent
        return path.stem or path.name or f"input {i + 1}"
    name = getattr(source, "name", None)
    if isinstance(name, str) and name not in ("<stdin>", ""):
        return Path(name).stem
    return f"input {i + 1}"


def _labels_name_machines(df: pd.DataFrame) -> bool:
    """True when two run labels of one input hold the same cell under the same conditions."""
    from cipherlab.model import condition_columns

    if "label" not in df.columns or df["label"].nunique() < 2:
        return df["label"].notna().any() if "label" in df.columns else False
    conds = [c for c in condition_columns(df) if c not in ("repeat", "note", "child")]
    keys = [k for k in [*_CELL, *conds] if k in df.columns]
    per_cell = df.groupby([df[k].astype("object") for k in keys], dropna=False)["label"].nunique()
    return bool((per_cell >= 2).any())


def machine_names(df: pd.DataFrame, name: str, label: str | None) -> pd.Series:
    """The machine of every row of one input (rules in the module docstring)."""
    auto = pd.Series(None, index=df.index, dtype="object")
    for col in ("host", "cpu"):
        if col in df.columns:
            auto = auto.where(auto.notna(), df[col].astype("object"))
    if auto.isna().any() and _labels_name_machines(df[auto.isna()]):
        auto = auto.where(auto.notna(), df["label"].astype("object"))
    if label is not None:
        several = auto.nunique() > 1
        return auto.map(lambda m: f"{label}: {m}") if several else pd.Series(
            label, index=df.index, dtype="object")
    return auto.fillna(name)


def _host_facts(source) -> list[dict[str, Any]]:
    if not isinstance(source, (str, Path)) or "\n" in str(source):
        return []
    path = Path(str(source))
    if path.is_file():
        path = path.parent if path.name.startswith("results.") else None
    if path is None or not path.is_dir():
        return []
    found = [path / "host.json"] if (path / "host.json").is_file() else sorted(
        path.rglob("host.json"))
    out = []
    for f in found:
        try:
            out.append(json.loads(f.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue  # a damaged host.json costs the facts table a column, not the report
    return out


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
    frames, facts, names = [], {}, []
    for i, (source, lab) in enumerate(zip(items, labels)):
        name = _input_name(source, i)
        frame = (source.copy() if isinstance(source, pd.DataFrame)
                 else cipherlab.ingest(source))
        frame[MACHINE] = machine_names(frame, name, lab)
        for host in _host_facts(source):
            rows = frame[frame["host"].astype("object") == host.get("host")] if (
                "host" in frame.columns) else frame.iloc[:0]
            machine = rows[MACHINE].iloc[0] if len(rows) else lab or host.get("host")
            facts[str(machine)] = host
        frames.append(frame)
        names.append(f"{lab} ({name})" if lab and lab != name else name)
    df = cipherlab.concat(frames)
    df[MACHINE] = pd.concat([f[MACHINE] for f in frames], ignore_index=True).astype("category")
    return Inputs(df, facts, names)
