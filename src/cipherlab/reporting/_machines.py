"""The machines section: the same benchmark on different systems."""

from __future__ import annotations

import pandas as pd

from cipherlab.algorithms import aead_loop_changed
from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._select import MACHINE, common_size, describe, experiments
from cipherlab.reporting._words import (at_size, esc, first_column, ratio_text, slugify, span_text,
                                        unique_values)
from cipherlab.runners._isa import all_on


def machines(df: pd.DataFrame, w: Writer) -> Section:

    sec = Section("machines", "Machines: the same benchmark on different systems")
    rated = df[df["bytes_per_s"].notna() & df["block_bytes"].notna()
               & ~df["operation"].astype("object").eq("transfer")]
    if "multi" in rated.columns:  # -multi rows are sums over processes: not one machine's speed
        rated = rated[rated["multi"].isna() | (rated["multi"] <= 1)]
    rated = rated[all_on(rated)]  # ISA ablations are the ISA section's business
    if "tier" in rated.columns:  # implementation tiers get their own section
        rated = rated[rated["tier"].isna()]
    groups = experiments(rated, ["tool", "timing"])
    compared = [(k, g) for k, g in groups if g[MACHINE].nunique() >= 2]
    if not compared:
        seen = [f"{esc(describe(k))}: {esc(', '.join(unique_values(g[MACHINE])))}"
                for k, g in groups]
        sec.say("No two machines were measured with the same tool and timing base, so there is "
                "no machine to compare with another" + (": " if seen else "."))
        sec.items(seen)
        return sec
    sec.say(
        "Each comparison below puts one machine's throughput over another's for the same "
        "algorithm, block size and tool, measured on one core with the same timing base. "
        "Machines are told apart by host (or the name given with <code>--label</code>), "
        "whatever files their runs came from. With one run per machine (a pasted dump) the "
        "ratios are described per cell, not tested: block sizes are not replicates. With "
        "repeated runs each cell is tested on its own (Welch's t-test on the runs' log "
        "throughput), p-values Holm-adjusted across each table. What else differs between the "
        "machines (versions, builds, clocks) is listed under the section's warnings. Where the "
        "clock is known, the same comparison per GHz tells whether a machine is faster per cycle "
        "or only clocked higher, under the assumption that throughput scales with the clock. "
        "The pairwise view gives, for any two machines, the range of their ratios over the "
        "cells both measured.")
    results, pairs = [], []
    for key, sub in compared:
        title = describe(key)
        sub, note = _like_for_like(sub)
        res, pair = _comparison(sec, w, title, sub, note)
        results += res
        pairs += pair
    if results:
        sec.blocks.append(w.table(
            "machines", first_column(pd.concat(results, ignore_index=True), "comparison"),
            "Machine against machine: throughput ratio candidate/baseline with 95 % interval, "
            "Holm-adjusted p-value and test.",
            ["comparison", "candidate", "baseline", "algorithm", "operation", "block_bytes",
             "ratio", "ci_low", "ci_high", "p_adjusted", "significant", "test", "n_candidate",
             "n_baseline"]))
    if pairs:
        sec.blocks.append(w.table(
            "machines-pairwise", pd.concat(pairs, ignore_index=True),
            "Every two machines: the range of their throughput ratios over the cells both "
            "measured, how many differ significantly (with repeated runs), and the range per GHz.",
            ["comparison", "candidate", "baseline", "operation", "cells", "ratio_min",
             "ratio_max", "significant", "per_ghz_min", "per_ghz_max"]))
    return sec


def _like_for_like(sub: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """Leave out AEAD rows when the machines' openssl versions straddle the AEAD-loop change."""
    from cipherlab import stats

    versions = unique_values(sub.loc[sub["tool"].astype("object") == "openssl", "tool_version"])
    if len({stats.aead_era(v) for v in versions} - {None}) < 2:
        return sub, ""
    aead = sub["algorithm"].map(aead_loop_changed).astype(bool)
    if not aead.any():
        return sub, ""
    left = unique_values(sub.loc[aead, "algorithm"])
    return sub[~aead], (
        f"Left out: {esc(', '.join(left))}, whose <code>openssl speed</code> loop changed between "
        f"the versions compared here ({esc(', '.join(versions))}; PR #25823), so their ratios "
        "would mix the machines with the benchmark.")


def _comparison(sec: Section, w: Writer, title: str, sub: pd.DataFrame, note: str):
    """One tool and timing base: every machine against the baseline, and the pairwise view."""
    from cipherlab import plots, stats

    hosts = unique_values(sub[MACHINE])
    cells = sub.groupby(sub[MACHINE].astype("object"), sort=False).size()
    baseline = w.baseline if w.baseline in hosts else str(cells.idxmax())
    shared = _shared_cells(sub, baseline)
    cands = [h for h in hosts if h != baseline and shared.get(h, 0)]
    sec.blocks.append(f"<h3>{esc(title)}: {len(hosts)} machines</h3>")
    sec.say(f"Compared: {esc(', '.join(cands))} against <b>{esc(baseline)}</b> "
            f"({'chosen with --baseline' if baseline == w.baseline else 'the machine with the most cells'}"
            f"), on the cells each shares with it ("
            + ", ".join(f"{esc(h)} {shared[h]}" for h in cands) + ").")
    alone = [h for h in hosts if h != baseline and not shared.get(h, 0)]
    if alone:
        sec.say(f"Not compared with {esc(baseline)}: {esc(', '.join(alone))} (no algorithm and "
                "block size in common).")
    if note:
        sec.say(note)
    if not cands:
        return [], []
    sub = sub[sub[MACHINE].isin([baseline, *cands])]
    res = stats.compare(sub, by=MACHINE, baseline=baseline, candidate=cands)
    results = [pd.DataFrame(res).assign(comparison=title)]
    lines = []
    for cand, rows in res.groupby("candidate", observed=True, sort=False):
        slow, fast = rows.loc[rows["ratio"].idxmin()], rows.loc[rows["ratio"].idxmax()]
        tested = rows["test"].astype("object").ne("no replication")
        n_sig = int(rows["significant"].fillna(False).astype(bool).sum())
        lines.append(
            f"<b>{esc(cand)}</b> against <b>{esc(baseline)}</b>: from {ratio_text(slow)} "
            f"({esc(slow['algorithm'])}{at_size(slow)}) to {ratio_text(fast)} "
            f"({esc(fast['algorithm'])}{at_size(fast)}); "
            + (f"{n_sig} of {int(tested.sum())} tested ratios significantly different from 1×"
               if tested.any() else "one run on a side: described, not tested"))
    sec.items(lines)
    per = stats.per_ghz(sub)
    clocked = unique_values(per.loc[per["bytes_per_s_per_ghz"].notna(), MACHINE])
    if baseline in clocked and len(clocked) >= 2:
        per = per[per[MACHINE].isin(clocked)]
        res_ghz = stats.compare(per, by=MACHINE, baseline=baseline,
                                metric="bytes_per_s_per_ghz")
        results.append(pd.DataFrame(res_ghz).assign(comparison=title + " (per GHz)"))
        clocks = per.groupby(per[MACHINE].astype("object"), sort=False)["clock_hz"].median()
        sec.say("Clocks as the data give them: " + "; ".join(
            f"{esc(h)}: {c / 1e6:.0f} MHz" for h, c in clocks.items()) + ". Per GHz of clock:")
        sec.items(f"<b>{esc(cand)}</b> against <b>{esc(baseline)}</b> per cycle: "
                  f"{esc(span_text(rows))} across algorithms"
                  for cand, rows in res_ghz.groupby("candidate", observed=True, sort=False))
    else:
        sec.say("Per GHz: not possible, the clock of "
                + esc(", ".join(h for h in [baseline, *cands] if h not in clocked))
                + " is not known (give it with <code>clock_hz</code> or in the label).")
    pairs = _pairwise(sec, sub, title)
    algos = unique_values(res["algorithm"])
    focus = "aes-128-cbc" if "aes-128-cbc" in algos else algos[0]
    sec.findings.append(
        f"<b>Machines, {esc(title)}</b>: {esc(_focus_text(res, focus))}, relative to "
        f"{esc(baseline)}.")
    slug = slugify(title)
    size = common_size(sub, by=MACHINE)
    shown = _heatmap_algorithms(sub, size)
    sec.blocks.append(w.figure(
        f"machines-heatmap-{slug}", lambda ax, sub=sub[sub["algorithm"].isin(shown)], size=size:
        plots.heatmap(sub, rows=MACHINE, columns="algorithm", block_bytes=size, ax=ax),
        f"Throughput by machine and algorithm at {size}-byte blocks ({title}); colour on a "
        "log scale. Blank: not measured."
        + (f" The {len(shown)} algorithms most machines measured." if len(shown) < sub[
            "algorithm"].nunique() else ""), aspect=0.45 + 0.06 * len(hosts)))
    sec.blocks.append(w.figure(
        f"machines-throughput-{slugify(focus)}-{slug}",
        lambda ax, sub=sub, focus=focus: plots.throughput(
            sub[sub["algorithm"] == focus], hue=MACHINE, style=None, ax=ax),
        f"{focus} throughput by block size on each machine ({title}): the median of its runs, "
        "the band their range."))
    sec.blocks.append(w.figure(
        f"machines-ratio-{slug}", lambda ax, res=res[res["algorithm"].isin(shown[:4])]: plots.speedup(
            res, expected=None, hue="algorithm", palette=w.colours, ax=ax,
            ylabel=f"Relative to {baseline}" if len(baseline) < 16 else "Relative to baseline"),
        f"Throughput of each machine relative to {baseline} ({title}), with 95 % intervals "
        "where runs are repeated; dotted: equal speed. Filled: significantly different from 1×."
        + (f" The {min(len(shown), 4)} algorithms most machines measured; all in the table."
           if min(len(shown), 4) < sub["algorithm"].nunique() else ""), aspect=0.45 + 0.1 * len(hosts)))
    return results, pairs


def _heatmap_algorithms(sub: pd.DataFrame, size, most: int = 12) -> list[str]:
    """The algorithms measured at ``size`` by the most machines, at most ``most`` of them."""
    at = sub[sub["block_bytes"] == size]
    machines = at.groupby(at["algorithm"].astype("object"), sort=False)[MACHINE].nunique()
    return list(machines.sort_values(ascending=False, kind="stable").index[:most])


def _shared_cells(sub: pd.DataFrame, baseline: str) -> dict[str, int]:
    cell = sub[["algorithm", "operation", "block_bytes"]].astype("object").apply(tuple, axis=1)
    base = set(cell[sub[MACHINE].astype("object") == baseline])
    return {str(m): len(set(c) & base) for m, c in cell.groupby(sub[MACHINE].astype("object"))}


def _pairwise(sec: Section, sub: pd.DataFrame, title: str) -> list[pd.DataFrame]:
    """Every two machines: the range of their per-cell ratios over the cells both measured."""
    from cipherlab import stats
    from cipherlab.plots import format_ratio

    hosts = unique_values(sub[MACHINE])
    out, lines = [], []
    for i, a in enumerate(hosts):
        for b in hosts[i + 1:]:
            pair = sub[sub[MACHINE].isin([a, b])]
            if _shared_cells(pair, b).get(a, 0) < 2:
                continue
            res = pd.DataFrame(stats.compare(pair, by=MACHINE, baseline=b, candidate=a,
                                             check=False))
            per = stats.per_ghz(pair)
            ghz = (pd.DataFrame(stats.compare(per, by=MACHINE, baseline=b, candidate=a,
                                              check=False, metric="bytes_per_s_per_ghz"))
                   if per["bytes_per_s_per_ghz"].notna().all() else None)
            for op, rows in res.groupby(res["operation"].astype("object"), sort=False):
                g = ghz[ghz["operation"].astype("object") == op] if ghz is not None else None
                row = {"comparison": title, "candidate": a, "baseline": b, "operation": op,
                       "cells": len(rows), "ratio_min": rows["ratio"].min(),
                       "ratio_max": rows["ratio"].max(),
                       "significant": int(rows["significant"].fillna(False).astype(bool).sum()),
                       "per_ghz_min": g["ratio"].min() if g is not None else float("nan"),
                       "per_ghz_max": g["ratio"].max() if g is not None else float("nan")}
                out.append(pd.DataFrame([row]))
                tested = rows["test"].astype("object").ne("no replication").any()
                lines.append(
                    f"<b>{esc(a)}</b> against <b>{esc(b)}</b> ({esc(op)}): "
                    f"{format_ratio(row['ratio_min'])} to {format_ratio(row['ratio_max'])} over "
                    f"{row['cells']} cells"
                    + (f", {row['significant']} significantly different from 1×" if tested
                       else " (one run on a side: described, not tested)")
                    + (f"; per GHz {format_ratio(row['per_ghz_min'])} to "
                       f"{format_ratio(row['per_ghz_max'])}" if g is not None else ""))
    if lines:
        sec.say("Pairwise, every two machines that share at least two cells:")
        sec.items(lines)
    return out


def _focus_text(res: pd.DataFrame, algorithm: str) -> str:
    """``aes-128-cbc at 16384 bytes: 0.85× on vm, 1.2× on box`` (the largest block measured)."""
    rows = res[res["algorithm"].astype("object") == algorithm]
    where = algorithm
    if "block_bytes" in rows.columns:
        rows = rows[rows["block_bytes"] == rows["block_bytes"].max()]
        where += f" at {int(rows['block_bytes'].iloc[0])} bytes" if len(rows) else ""
    return where + ": " + ", ".join(f"{ratio_text(r)} on {r['candidate']}"
                                    for _, r in rows.iterrows())
