"""The machines and builds sections: the same benchmark on different systems, and with
different builds of a tool on one machine (the same CPU: a build comparison, never a machine's)."""

from __future__ import annotations

import pandas as pd

from cipherlab.algorithms import aead_loop_changed
from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._select import BUILD, MACHINE, common_size, describe, experiments
from cipherlab.reporting._words import (at_size, esc, first_column, ratio_text, slugify, span_text,
                                        unique_values)
from cipherlab.runners._isa import all_on


def _rated(df: pd.DataFrame) -> pd.DataFrame:
    """The rows a machine or build comparison reads: one core's rates, every ISA feature on."""
    rated = df[df["bytes_per_s"].notna() & df["block_bytes"].notna()
               & ~df["operation"].astype("object").eq("transfer")]
    if "multi" in rated.columns:  # -multi rows are sums over processes: not one machine's speed
        rated = rated[rated["multi"].isna() | (rated["multi"] <= 1)]
    rated = rated[all_on(rated)]  # ISA ablations are the ISA section's business
    if "tier" in rated.columns:  # implementation tiers get their own section
        rated = rated[rated["tier"].isna()]
    return rated


def builds(df: pd.DataFrame, w: Writer) -> Section:
    """Each machine's builds of one tool against each other (``build``: see ``_select``)."""
    sec = Section("builds", "Builds: different builds of a tool on one machine")
    rated = _rated(df)
    groups = experiments(rated, [MACHINE, "tool", "timing"]) if BUILD in rated.columns else []
    compared = [(k, g) for k, g in groups if g[BUILD].nunique() >= 2]
    if not compared:
        sec.say("No machine was measured with two builds of the same tool (two openssl binaries "
                "captured on one host, or a capture's <code>openssl=</code> builds), so there is "
                "no build to compare with another.")
        return sec
    sec.say(
        "Each comparison below puts one build's throughput over another's on the same machine: "
        "the same CPU, clock and operating system, so what differs is the build (version, "
        "platform, compiler, word size and the code paths they select), never the hardware. "
        "Cells are matched by algorithm, block size and tool, with every ISA feature on. With "
        "repeated runs each cell is tested on its own (Welch's t-test on the runs' log "
        "throughput), p-values Holm-adjusted across each table; one run per side is described, "
        "not tested. The builds' facts are side by side in the first section.")
    results, pairs = [], []
    for key, sub in compared:
        sub, note = _like_for_like(sub)
        res, pair = _comparison(sec, w, describe(key), sub, note, by=BUILD)
        results += res
        pairs += pair
    _tables(sec, w, "builds", results, pairs, "Build against build")
    return sec


def machines(df: pd.DataFrame, w: Writer) -> Section:

    sec = Section("machines", "Machines: the same benchmark on different systems")
    rated = _rated(df)
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
        "Machines are told apart by host (or the name given with <code>--label</code>; "
        "two hosts of one name by their host id or CPU), whatever files their runs came "
        "from. With one run per machine (a pasted dump) the "
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
    _tables(sec, w, "machines", results, pairs, "Machine against machine")
    return sec


def _tables(sec: Section, w: Writer, name: str, results: list, pairs: list, what: str) -> None:
    noun = "builds" if name == "builds" else "machines"
    # a build's table names its candidates "build" (a machine's: "candidate", headed Machine)
    cand = {"candidate": BUILD} if noun == "builds" else {}
    results = [r.rename(columns=cand) for r in results]
    pairs = [p.rename(columns=cand) for p in pairs]
    columns = [cand.get(c, c) for c in (
        "comparison", "candidate", "baseline", "algorithm", "operation", "block_bytes",
        "ratio", "ci_low", "ci_high", "p_adjusted", "significant", "test", "n_candidate",
        "n_baseline")]
    if results:
        sec.blocks.append(w.table(
            name, first_column(pd.concat(results, ignore_index=True), "comparison"),
            f"{what}: throughput ratio candidate/baseline with 95 % interval, "
            "Holm-adjusted p-value and test.", columns))
    if pairs:
        sec.blocks.append(w.table(
            f"{name}-pairwise", pd.concat(pairs, ignore_index=True),
            f"Every two {noun}: the range of their throughput ratios over the cells both "
            "measured, how many differ significantly (with repeated runs)"
            + (", and the range per GHz." if noun == "machines" else "."),
            ["comparison", cand.get("candidate", "candidate"), "baseline", "operation", "cells", "ratio_min",
             "ratio_max", "significant",
             *(["per_ghz_min", "per_ghz_max"] if noun == "machines" else [])]))


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


def _comparison(sec: Section, w: Writer, title: str, sub: pd.DataFrame, note: str,
                by: str = MACHINE):
    """One tool and timing base: every machine (or build, ``by``) against the baseline, and the
    pairwise view. Per GHz only between machines: builds of one machine share its clock."""
    from cipherlab import plots, stats

    noun = "build" if by == BUILD else "machine"
    hosts = unique_values(sub[by])
    cells = sub.groupby(sub[by].astype("object"), sort=False).size()
    baseline = w.baseline if w.baseline in hosts else str(cells.idxmax())
    shared = _shared_cells(sub, baseline, by)
    cands = [h for h in hosts if h != baseline and shared.get(h, 0)]
    sec.blocks.append(f"<h3>{esc(title)}: {len(hosts)} {noun}s</h3>")
    sec.say(f"Compared: {esc(', '.join(cands))} against <b>{esc(baseline)}</b> "
            f"({'chosen with --baseline' if baseline == w.baseline else f'the {noun} with the most cells'}"
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
    sub = sub[sub[by].isin([baseline, *cands])]
    res = stats.compare(sub, by=by, baseline=baseline, candidate=cands)
    results = [pd.DataFrame(res).assign(comparison=title)]
    lines = []
    for cand, rows in res.groupby("candidate", observed=True, sort=False):
        slow, fast = rows.loc[rows["ratio"].idxmin()], rows.loc[rows["ratio"].idxmax()]
        tested = rows["test"].astype("object").ne("no replication")
        n_sig = int(rows["significant"].fillna(False).astype(bool).sum())
        where = [f"{ratio_text(r)} ({esc(r['algorithm'])}{at_size(r)})" for r in (slow, fast)]
        lines.append(
            f"<b>{esc(cand)}</b> against <b>{esc(baseline)}</b>: "
            + (where[0] if len(rows) == 1 else f"from {where[0]} to {where[1]}") + "; "
            + (f"{n_sig} of {int(tested.sum())} tested ratios significantly different from 1×"
               if tested.any() else "one run on a side: described, not tested"))
    sec.items(lines)
    if by == MACHINE:
        results += _per_ghz(sec, sub, title, baseline, cands)
    pairs = _pairwise(sec, sub, title, by)
    algos = unique_values(res["algorithm"])
    focus = "aes-128-cbc" if "aes-128-cbc" in algos else algos[0]
    sec.findings.append(  # (builds differ by code path: the range says which ciphers gain)
        f"<b>Builds, {esc(title)}</b>: " + "; ".join(lines) + "." if by == BUILD else
        f"<b>Machines, {esc(title)}</b>: {esc(_focus_text(res, focus))}, relative to "
        f"{esc(baseline)}.")
    slug = slugify(title)
    size = common_size(sub, by=by)
    shown = _heatmap_algorithms(sub, size, by)
    cells, two_ways = _one_way(sub[sub["algorithm"].isin(shown)])
    sec.blocks.append(w.figure(
        f"{noun}s-heatmap-{slug}", lambda ax, sub=cells, size=size:
        plots.heatmap(sub, rows=by, columns="algorithm", block_bytes=size, ax=ax),
        f"Throughput by {noun} and algorithm at {size}-byte blocks ({title}); colour on a "
        "log scale. Blank: not measured."
        + (f" The {_algorithms(len(shown))} most {noun}s measured." if len(shown) < sub[
            "algorithm"].nunique() else "")
        + (" Encrypting, where a cipher was timed both ways." if two_ways else ""),
        aspect=0.45 + 0.06 * len(hosts)))
    sec.blocks.append(w.figure(
        f"{noun}s-throughput-{slugify(focus)}-{slug}",
        lambda ax, sub=sub, focus=focus: plots.throughput(
            sub[sub["algorithm"] == focus], hue=by, style=None, ax=ax),
        f"{focus} throughput by block size with each {noun} ({title}): the median of its runs, "
        "the band their range."))
    # the ratio figure draws what the comparison holds: the algorithms compared at the most
    # block sizes (long lines), among as many the heatmap's order
    counts = res["algorithm"].astype("object").value_counts()
    compared = unique_values(res["algorithm"])
    drawn = sorted(compared, key=lambda a: (-counts[a], shown.index(a) if a in shown
                                            else len(shown)))[:4]
    ratios = res[res["algorithm"].isin(drawn)]
    sec.blocks.append(w.figure(
        f"{noun}s-ratio-{slug}", lambda ax, res=ratios: plots.speedup(
            res, expected=None, hue="algorithm", palette=w.colours, ax=ax,
            ylabel=f"Relative to {baseline}" if len(baseline) < 16 else "Relative to baseline"),
        f"Throughput of each {noun} relative to {baseline} ({title}), with 95 % intervals "
        "where runs are repeated; dotted: equal speed. Filled: significantly different from 1×."
        + (f" The {_algorithms(len(drawn))} compared at the most block sizes, of "
           f"{len(compared)}; all in the table." if len(drawn) < len(compared) else ""),
        aspect=0.45 + 0.1 * len(hosts)))
    return results, pairs


def _algorithms(n: int) -> str:
    return "algorithm" if n == 1 else f"{n} algorithms"


def _per_ghz(sec: Section, sub: pd.DataFrame, title: str, baseline: str, cands: list) -> list:
    """The machines' comparison per GHz of their clocks, where the data give them."""
    from cipherlab import stats

    per = stats.per_ghz(sub)
    clocked = unique_values(per.loc[per["bytes_per_s_per_ghz"].notna(), MACHINE])
    if baseline not in clocked or len(clocked) < 2:
        unknown = [h for h in [baseline, *cands] if h not in clocked]
        sec.say(f"Per GHz: not possible, the clock{'s' if len(unknown) > 1 else ''} of "
                + esc(" and ".join([", ".join(unknown[:-1]), unknown[-1]] if len(unknown) > 1
                                   else unknown))
                + f" {'are' if len(unknown) > 1 else 'is'} not known (give "
                "<code>clock_hz</code>, or name the clock in the label).")
        return []
    per = per[per[MACHINE].isin(clocked)]
    res_ghz = stats.compare(per, by=MACHINE, baseline=baseline, metric="bytes_per_s_per_ghz")
    clocks = per.groupby(per[MACHINE].astype("object"), sort=False)["clock_hz"].median()
    sec.say("Clocks as the data give them: " + "; ".join(
        f"{esc(h)}: {c / 1e6:.0f} MHz" for h, c in clocks.items()) + ". Per GHz of clock:")
    sec.items(f"<b>{esc(cand)}</b> against <b>{esc(baseline)}</b> per cycle: "
              f"{esc(span_text(rows))} across algorithms"
              for cand, rows in res_ghz.groupby("candidate", observed=True, sort=False))
    return [pd.DataFrame(res_ghz).assign(comparison=title + " (per GHz)")]


def _heatmap_algorithms(sub: pd.DataFrame, size, by: str, most: int = 12) -> list[str]:
    """The algorithms measured at ``size`` by the most machines (builds), at most ``most``;
    among as many, the well-known ciphers first (:data:`~cipherlab.algorithms.ALGORITHM_RANK`:
    AES before md2 in a 0.9.8 dump of 34), then in the order of the text."""
    from cipherlab.algorithms import ALGORITHM_RANK

    at = sub[sub["block_bytes"] == size]
    machines = at.groupby(at["algorithm"].astype("object"), sort=False)[by].nunique()
    order = sorted(range(len(machines)), key=lambda i: (
        -machines.iloc[i], ALGORITHM_RANK.get(machines.index[i], len(ALGORITHM_RANK)), i))
    return [machines.index[i] for i in order[:most]]


def _one_way(sub: pd.DataFrame) -> tuple[pd.DataFrame, bool]:
    """``sub`` without the decrypt cells of the ciphers it also holds encrypt cells of (one
    operation a figure), and whether any were left out."""
    op = sub["operation"].astype("object")
    encrypted = set(sub.loc[op.eq("encrypt").to_numpy(), "algorithm"].astype("object"))
    drop = (op.eq("decrypt") & sub["algorithm"].astype("object").isin(encrypted)).to_numpy()
    return sub[~drop], bool(drop.any())


def _shared_cells(sub: pd.DataFrame, baseline: str, by: str) -> dict[str, int]:
    cell = sub[["algorithm", "operation", "block_bytes"]].astype("object").apply(tuple, axis=1)
    base = set(cell[sub[by].astype("object") == baseline])
    return {str(m): len(set(c) & base) for m, c in cell.groupby(sub[by].astype("object"))}


def _pairwise(sec: Section, sub: pd.DataFrame, title: str, by: str) -> list[pd.DataFrame]:
    """Every two machines (builds): the range of their per-cell ratios over the cells both
    measured, and per GHz between machines whose clocks are known."""
    from cipherlab import stats
    from cipherlab.plots import format_ratio

    hosts = unique_values(sub[by])
    out, lines = [], []
    for i, a in enumerate(hosts):
        for b in hosts[i + 1:]:
            pair = sub[sub[by].isin([a, b])]
            if _shared_cells(pair, b, by).get(a, 0) < 2:
                continue
            res = pd.DataFrame(stats.compare(pair, by=by, baseline=b, candidate=a,
                                             check=False))
            per = stats.per_ghz(pair) if by == MACHINE else None
            ghz = (pd.DataFrame(stats.compare(per, by=MACHINE, baseline=b, candidate=a,
                                              check=False, metric="bytes_per_s_per_ghz"))
                   if per is not None and per["bytes_per_s_per_ghz"].notna().all() else None)
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
        sec.say(f"Pairwise, every two {'builds' if by == BUILD else 'machines'} that share at "
                "least two cells:")
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
