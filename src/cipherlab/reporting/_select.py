"""What the sections pair and compare: experiments by machine, build and conditions, never by file.

An *experiment* is every row measured on one machine, with one build of one tool, one timing base
and one setting of the other conditions; the rows of all its runs (the files of a capture folder,
the repeats of a dump) are its replicates. A section compares levels of one column (an ISA
condition: ``isa_off``, ``aesni`` or ``isa``; ``tier``; the machine) inside experiments that agree
on everything else.
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from cipherlab.model import condition_columns
from cipherlab.reporting._words import esc, unique_values
from cipherlab.runners._isa import ISA_COLUMNS, side_name

#: The column the report adds: the machine a row was measured on (see ``_inputs.machines``).
MACHINE = "machine"
#: The build of a tool a row was measured with, where one machine holds several (a capture's
#: ``openssl=`` builds; or ``_inputs`` names them: two captures of one host with two binaries).
BUILD = "build"
# Conditions that never split an experiment: repeats are pooled, notes and child numbers
# describe rows, and the host (and its id) is already the machine.
_POOLED = ("repeat", "note", "child", "host", "host_id", MACHINE)
# Conditions named by another: a capture's isa_mask follows from its isa preset, and its id
# from the build where the report names each capture's build. (isa_off, which follows too, is
# kept: it is what an experiment's ISA condition is named by.)
_NAMED_BY = {"isa_mask": "isa", "capture_id": BUILD}
# What identifies a build and its measurement, beside the machine.
_BUILD = ("tool", "tool_version", BUILD, "timing", "multi")


def experiment_keys(df: pd.DataFrame, by: str | None = None) -> list[str]:
    """The columns that define an experiment in ``df``, leaving out ``by`` and what follows it.

    A condition that is a function of ``by`` on each machine and build (``isa=no-aesni``
    whenever ``isa_off`` names its mask) names the same contrast and would split every pair, so
    it is left out with ``by``. Columns without a
    value in ``df`` are left out too.
    """
    conds = [c for c in condition_columns(df) if c not in (*_POOLED, *_BUILD) and c != by]
    keys = [MACHINE, *_BUILD, *conds]
    keys = [k for k in keys if k in df.columns and df[k].notna().any()]
    keys = [k for k in keys if _NAMED_BY.get(k) not in keys]
    if by is not None and by in df.columns:
        # on each machine and build apart: another input's rows (a dump without ``isa`` beside
        # a capture's presets) must not make a capture's presets split its own pairs
        scope = [k for k in keys if k == MACHINE or k in _BUILD]
        levels = [df[k].astype("object") for k in [*scope, by]]
        keys = [k for k in keys if k in scope or df[k].astype("object").groupby(
            levels, dropna=False).nunique(dropna=False).max() > 1]
    return keys


def experiments(df: pd.DataFrame, keys: Sequence[str]) -> list[tuple[dict, pd.DataFrame]]:
    """``[(key values, rows)]`` for every experiment, in the order of the data."""
    if df.empty:
        return []
    groups = df.groupby([df[k].astype("object") for k in keys], dropna=False, sort=False)
    return [(dict(zip(keys, key if isinstance(key, tuple) else (key,))), rows)
            for key, rows in groups]


def describe(key: dict, *, conditions: bool = True) -> str:
    """``vm, openssl 3.0.22, CPU time, nothing off`` for an experiment's key values (plain text)."""
    parts = [str(key[MACHINE])] if pd.notna(key.get(MACHINE)) else []
    tool = " ".join(str(key[k]) for k in ("tool", "tool_version") if pd.notna(key.get(k)))
    if tool:
        parts.append(tool)
    if pd.notna(key.get(BUILD)):
        parts.append(f"build {key[BUILD]}")
    if pd.notna(key.get("timing")):
        parts.append({"cpu": "CPU time", "elapsed": "wall-clock time"}.get(
            str(key["timing"]), f"{key['timing']} time"))
    if pd.notna(key.get("multi")) and int(key["multi"]) > 1:
        parts.append(f"{int(key['multi'])} processes")
    if conditions:
        parts += [f"{k}={v}" for k, v in key.items()
                  if k not in (MACHINE, *_BUILD, *_NAMED_BY, *ISA_COLUMNS) and pd.notna(v)]
        # the ISA condition once, from the column it is read from, as named everywhere
        isa = next((c for c in ISA_COLUMNS if pd.notna(key.get(c))), None)
        if isa is not None:
            parts.append(side_name(isa, key[isa]))
    return ", ".join(parts)


def system(machine, build=None) -> str:
    """The name of a machine with one of its builds: ``vm``, ``vm, build 3.0.22 debian-i386``."""
    return str(machine) if build is None or pd.isna(build) else f"{machine}, build {build}"


def systems(df: pd.DataFrame) -> pd.Series:
    """Per row, :func:`system` of its machine and build (the machine where no build is named)."""
    if BUILD not in df.columns or df[BUILD].isna().all():
        return df[MACHINE].astype("object").astype(str)
    return pd.Series([system(m, b) for m, b in zip(df[MACHINE].astype("object"),
                                                   df[BUILD].astype("object"), strict=True)],
                     index=df.index, dtype="object")


def rows_of(df: pd.DataFrame, key: dict) -> pd.Series:
    """The mask of the rows of ``df`` that match ``key`` (NaN matches NaN)."""
    mask = pd.Series(True, index=df.index)
    for k, v in key.items():
        if k in df.columns:
            col = df[k].astype("object")
            mask &= col.isna() if pd.isna(v) else (col == v)
    return mask


def levels_text(df: pd.DataFrame, by: str) -> str:
    """``only aesni=on`` for what one experiment measured of ``by`` (HTML)."""
    found = unique_values(df[by]) if by in df.columns else []
    return f"only {esc(by)}={esc(found[0])}" if len(found) == 1 else (
        f"{esc(by)} " + ", ".join(esc(x) for x in found) if found else f"no {esc(by)} value")


def has_pair(sub: pd.DataFrame, by: str, levels: Sequence[str]) -> bool:
    if by not in sub.columns:
        return False
    both = sub[sub[by].isin(levels)].groupby("algorithm", observed=True)[by].nunique()
    return bool((both >= len(levels)).any())


def common_size(sub: pd.DataFrame, by: str | None = None, preferred: int = 8192):
    """The block size a one-size figure shows: of those the most levels of ``by`` (machines,
    tiers) measured, ``preferred`` if there, else the largest; None without sizes.

    (A machine that measured only 64 and 16384 bytes once vanished from an 8 KiB heatmap.)
    """
    sizes = sub["block_bytes"].dropna()
    if sizes.empty:
        return None
    if by is not None and by in sub.columns:
        reach = sub.loc[sizes.index, by].astype("object").groupby(sizes.astype(int)).nunique()
        sizes = reach.index[reach == reach.max()]
    sizes = sorted(int(x) for x in pd.unique(sizes))
    return preferred if preferred in sizes else sizes[-1]


def _cell_counts(sub: pd.DataFrame, by: str | None) -> pd.Series:
    keys = list(dict.fromkeys(["algorithm", "operation", "block_bytes", *([by] if by else [])]))
    return sub.groupby([sub[k].astype("object") for k in keys], dropna=False).size()


def has_repeats(sub: pd.DataFrame, by: str | None = None) -> bool:
    counts = _cell_counts(sub, by)
    return bool(len(counts)) and int(counts.min()) >= 2


def runs_per_cell(sub: pd.DataFrame, by: str | None = None) -> str:
    """``3 runs per cell`` / ``one value per cell`` / ``1-3 runs per cell`` (plain text)."""
    counts = _cell_counts(sub, by)
    if counts.empty:
        return "no values"
    lo, hi = int(counts.min()), int(counts.max())
    if hi == 1:
        return "one value per cell"
    return f"{lo} runs per cell" if lo == hi else f"{lo}–{hi} runs per cell"
