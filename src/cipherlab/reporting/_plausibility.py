"""The plausibility section: numbers that cannot be right."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._select import MACHINE
from cipherlab.reporting._words import esc, rate_text


def plausibility(df: pd.DataFrame, w: Writer) -> Section:
    from cipherlab import stats

    sec = Section("plausibility", "Plausibility: numbers that cannot be right")
    found = stats.lint(df, warn=False)
    sec.say(
        "Every cell is checked against what the hardware can physically do (the fewest cycles "
        "per byte any CPU of its class needs for the algorithm, at the clock the source gives "
        "or a generous 6.5 GHz), and against throughput that falls as blocks grow within a run, "
        "and for negative or infinite rates. Comparisons in the sections above were also checked "
        "for like-for-like measurement (timing base, the AEAD benchmark loop that changed in "
        "OpenSSL 3.0.16/3.4, legacy names without AES-NI, <code>-multi</code> runs); their "
        "warnings are listed with each section.")
    if found.empty:
        sec.say("<span class='ok'>No cell failed these checks.</span>")
        return sec
    found = _with_machine(found, df)
    counts = found.groupby("check", observed=True).size()
    sec.say("Cells that failed: " + ", ".join(f"<b>{esc(k)}</b> {int(v)}"
                                             for k, v in counts.items()) + ".")
    lines = []
    for _, row in found.head(8).iterrows():
        from cipherlab.plots import format_rate

        where = f"{row[MACHINE]}: {row['source']}" + (
            f", line {int(row['line'])}" if "line" in row.index and pd.notna(row["line"]) else "")
        tier = f" ({row['tier']})" if "tier" in row.index and pd.notna(row.get("tier")) else ""
        lines.append(f"<b>{esc(row['algorithm'])}</b>{esc(tier)} at "
                     f"{format_rate(row['bytes_per_s'])} [{esc(where)}]: {esc(row['message'])}")
    sec.items(lines)
    cells = [f"{esc(r['algorithm'])} at {esc(rate_text(r['bytes_per_s']))} "
             f"({esc(Path(str(r['source'])).name)}" + (f", line {int(r['line'])}" if "line" in
                                                      r.index and pd.notna(r["line"]) else "") + ")"
             for _, r in found.head(4).iterrows()]
    sec.findings.append(
        f"<b>Plausibility</b>: {len(found)} cell(s) cannot be right: " + "; ".join(cells)
        + ("; …" if len(found) > 4 else "") + ". Details and reasons in the Plausibility section.")
    sec.blocks.append(w.table(
        "plausibility", found, "Cells that fail a plausibility check, with their provenance.",
        ["check", MACHINE, "source", "line", "tier", "algorithm", "block_bytes", "bytes_per_s",
         "limit_bytes_per_s", "message"]))
    return sec


def _with_machine(found: pd.DataFrame, df: pd.DataFrame) -> pd.DataFrame:
    """The machine of each finding, from the run it points at."""
    runs = df[["source", "run", MACHINE]].astype("object").drop_duplicates(["source", "run"])
    keys = found[["source", "run"]].astype("object")
    machine = keys.merge(runs, on=["source", "run"], how="left")[MACHINE]
    return found.assign(**{MACHINE: machine.to_numpy()})
