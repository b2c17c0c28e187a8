"""The report's first section: what data it reads, and the machines and builds side by side."""

from __future__ import annotations

import re

import pandas as pd

from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._select import MACHINE, systems
from cipherlab.reporting._words import esc, unique_values
from cipherlab.runners._host import foreign_binary

# Lines of `openssl version -a` (a capture's host.json) that a dump prints in its header.
_VERSION_A = {"built_on": r"^built on:\s*(.+)$", "platform": r"^platform:\s*(.+)$",
              "options": r"^options:\s*(.+)$",
              "compiler": r"^compiler:\s*(.+)$", "cpuinfo": r"^CPUINFO:\s*(.+)$"}
_LONG = 32  # longer facts (compiler flags) are cut in the table; data.csv keeps them whole


def overview(df: pd.DataFrame, w: Writer) -> Section:
    sec = Section("data", "The data")
    rates = df[df["bytes_per_s"].notna()]
    sizes = sorted(int(s) for s in rates["block_bytes"].dropna().unique())
    machines = unique_values(df[MACHINE])
    sec.say(f"The analysis reads <b>{len(df):,}</b> measured cells of <b>{len(machines)}</b> "
            f"machine(s) ({esc(', '.join(machines[:8]))}{', …' if len(machines) > 8 else ''}) "
            f"from {df['source'].nunique()} file(s) or run(s) "
            f"({esc(', '.join(unique_values(df['tool'])))}); "
            f"{len(rates):,} cells carry a throughput, at {len(sizes)} block sizes from "
            f"{sizes[0] if sizes else '–'} to {sizes[-1] if sizes else '–'} bytes. "
            "Sections pair runs by machine, build and conditions, whatever file they came from. "
            "Every cell keeps its source file and line, so each number below can be traced back "
            "to the text it came from (<code>data.csv</code> in this folder).")
    sec.blocks.append(w.table("inputs", machine_summary(df),
                              "Machines analysed: runs, cells, algorithms and tools of each."))
    facts = facts_table(df, w.facts)
    sec.say("System and build facts of every machine, side by side, as the data and the "
            "captures' host facts give them (– where they do not say):")
    sec.blocks.append(w.table("machines-facts", facts,
                              "System and build facts per machine (– not recorded)."))
    return sec


def machine_summary(df: pd.DataFrame) -> pd.DataFrame:
    """One row per machine (per build, where a machine has several): runs, cells, algorithms
    and tools (``tool version``)."""
    runs = df[["source", "run"]].astype("object").apply(tuple, axis=1)
    name = systems(df)
    g = df.groupby(name, sort=False)
    tools = (df["tool"].astype("object").fillna("") + " "
             + df["tool_version"].astype("object").fillna("")).str.strip()
    return pd.DataFrame({
        "machine": list(g.groups),
        "runs": runs.groupby(name, sort=False).nunique().to_numpy(),
        "cells": g.size().to_numpy(),
        "algorithms": g["algorithm"].nunique().to_numpy(),
        "tools": tools.groupby(name, sort=False).agg(
            lambda s: ", ".join(sorted(set(s) - {""}))).to_numpy(),
    })


def _version_a(text: str, fact: str) -> str | None:
    m = re.search(_VERSION_A[fact], text or "", re.MULTILINE)
    return m.group(1).strip() if m else None


def _cut(text: str) -> str:
    return text if len(text) <= _LONG else text[:_LONG - 1].rstrip() + "…"


def facts_table(df: pd.DataFrame, host_facts: dict) -> pd.DataFrame:
    """Facts as rows, machines (and their builds) as columns: CPU, clock, cores, OS, tool, build
    platform and options, mask in effect."""
    from cipherlab import stats

    clock = stats.resolve_clock(df)
    out = {}
    for machine, rows in df.groupby(systems(df), sort=False):  # (each build of a machine too)
        host = host_facts.get(str(machine), {})
        version_a = host.get("openssl_version_a", "")

        def seen(col, rows=rows):
            return "; ".join(unique_values(rows[col])[:3]) if col in rows.columns else ""

        ghz = clock[rows.index].dropna()
        tools = sorted({f"{t} {v}".strip() for t, v in rows[["tool", "tool_version"]]
                        .astype("object").fillna("").itertuples(index=False)} - {""})
        mask = seen("cpuinfo") or _version_a(version_a, "cpuinfo") or seen("isa_mask")
        # the words of the mask, so a narrow column can break it: "0x…ffff: 0x…2ffb"
        mask = mask.replace("OPENSSL_ia32cap=", "").replace(":", ": ")
        out[str(machine)] = {
            "CPU": seen("cpu") or host.get("cpu", ""),
            "clock": (f"{ghz.median() / 1e9:.2f} GHz" if len(ghz) else ""),
            "cores": str(host.get("cores", "")),
            "OS": host.get("os", ""),
            "tool": ", ".join(tools),
            "timing": seen("timing"),
            "built on": seen("built_on") or _version_a(version_a, "built_on") or "",
            "platform": _version_a(version_a, "platform") or "",
            "options": seen("options") or _version_a(version_a, "options") or "",
            "compiler": seen("compiler") or _version_a(version_a, "compiler") or "",
            "mask in effect": mask,
        }
        other = foreign_binary(host)
        if other:  # (the CPU row is this machine's; the rates are of another kind of binary)
            out[str(machine)][other[0]] = other[1]
    table = pd.DataFrame(out).fillna("").map(lambda v: _cut(str(v)) if str(v).strip() else "–")
    return table.rename_axis("fact").reset_index()
