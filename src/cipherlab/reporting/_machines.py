"""The machines section: the same benchmark on different systems."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from cipherlab.algorithms import is_aead
from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._select import common_size, complete_algorithms
from cipherlab.reporting._words import (at_size, esc, first_column, ratio_text, slugify,
                                        source_slug, span_text, unique_values)


def machines(df: pd.DataFrame, w: Writer) -> Section:
    from cipherlab import plots, stats

    sec = Section("machines", "Machines: the same benchmark on different systems")
    # the bundled data name machines in `host`; other dumps name each run in `label`
    machine = "host" if "host" in df.columns and df["host"].notna().any() else "label"
    rated = df[df["bytes_per_s"].notna() & df["block_bytes"].notna()]
    if "multi" in rated.columns:  # -multi rows are sums over processes: not one machine's speed
        rated = rated[rated["multi"].isna() | (rated["multi"] <= 1)]
    if "aesni" in rated.columns:  # ISA ablations are the AES-NI section's business
        rated = rated[rated["aesni"].isna() | (rated["aesni"] == "on")]
    if "tier" in rated.columns:  # implementation tiers get their own section
        rated = rated[rated["tier"].isna()]
    captured = rated["source"].astype("object").str.startswith("captures/")
    if "capture_id" in rated.columns:  # rows of capture folders (a fleet capture: one per host)
        captured |= rated["capture_id"].notna()
    groups = []
    for src in unique_values(rated.loc[~captured, "source"]):
        sub = rated[rated["source"] == src]
        if sub[machine].nunique() >= 2:
            groups.append((f"{Path(src).name}", source_slug(src), sub))
    captures = rated[captured & rated["tool"].astype("object").eq("openssl")
                     & rated["timing"].astype("object").eq("cpu")
                     & ~rated["algorithm"].map(is_aead).astype(bool)]
    if captures[machine].nunique() >= 2:
        groups.append(("the captures of " + " and ".join(unique_values(captures[machine])), "captures",
                       captures))
    if not groups:
        sec.say("No source compares two or more machines on the same algorithms.")
        return sec
    sec.say(
        "Each comparison below puts one machine's throughput over another's for the same "
        "algorithm. With one run per machine (a pasted dump) the ratios are described per "
        "block size, not tested: block sizes are not replicates. With repeated runs each cell "
        "is tested on its own (Welch's t-test on the runs' log throughput), p-values "
        "Holm-adjusted across each table. What else differs between the machines (versions, "
        "builds, clocks) is listed under the section's warnings. Where the clock is known, "
        "the same comparison per GHz tells whether a machine is faster per cycle or only "
        "clocked higher, under the assumption that throughput scales with the clock. Captures "
        "are compared on single-process runs timed in user CPU time "
        "(openssl's default) and without AEAD ciphers, whose benchmark loop differs between "
        "openssl versions and modes (<code>-aead</code>) in ways a dump does not always show.")
    results = []
    for title, slug, sub in groups:
        hosts = unique_values(sub[machine])
        size = common_size(sub)
        algos = complete_algorithms(sub, machine, size)
        if not algos:
            continue
        sub = sub[sub["algorithm"].isin(algos)]
        baseline = hosts[0]
        res = stats.compare(sub, by=machine, baseline=baseline)
        results.append(pd.DataFrame(res).assign(comparison=title))
        sec.blocks.append(f"<h3>{esc(title)}: {len(hosts)} machines, {len(algos)} algorithms"
                          "</h3>")
        lines = []
        for cand, rows in res.groupby("candidate", observed=True, sort=False):
            slow = rows.loc[rows["ratio"].idxmin()]
            fast = rows.loc[rows["ratio"].idxmax()]
            tested = rows["significant"].notna()
            verdict = (f"{int(rows['significant'].sum())} of {int(tested.sum())} tested ratios "
                       "significantly different from 1×" if tested.any() else
                       "one run per machine: described, not tested")
            lines.append(
                f"<b>{esc(cand)}</b> against <b>{esc(baseline)}</b>: from {ratio_text(slow)} "
                f"({esc(slow['algorithm'])}{at_size(slow)}) to {ratio_text(fast)} "
                f"({esc(fast['algorithm'])}{at_size(fast)}); {verdict}")
        sec.items(lines)
        per = stats.per_ghz(sub)
        if per["bytes_per_s_per_ghz"].notna().all():
            res_ghz = stats.compare(per, by=machine, baseline=baseline,
                                    metric="bytes_per_s_per_ghz")
            results.append(pd.DataFrame(res_ghz).assign(comparison=title + " (per GHz)"))
            clocks = per.groupby(machine, observed=True, sort=False)["clock_hz"].first()
            kinds = per.groupby(machine, observed=True, sort=False)["clock_source"].first()
            lines = [f"{esc(h)}: {c / 1e6:.0f} MHz ({esc(kinds[h])})" for h, c in clocks.items()]
            sec.say("Clocks as the sources give them: " + "; ".join(lines) +
                    ". Per GHz of clock:")
            sec.items(
                f"<b>{esc(cand)}</b> against <b>{esc(baseline)}</b> per cycle: "
                f"{esc(span_text(rows))} across algorithms"
                for cand, rows in res_ghz.groupby("candidate", observed=True, sort=False))
        focus = "aes-128-cbc" if "aes-128-cbc" in algos else algos[0]
        sec.findings.append(
            f"<b>Machines, {esc(title)}</b>: {esc(focus)} runs at {esc(_focus_text(res, focus))}"
            f" of {esc(baseline)}'s throughput.")
        sec.blocks.append(w.figure(
            f"machines-heatmap-{slug}", lambda ax, sub=sub, size=size: plots.heatmap(
                sub, rows=machine, columns="algorithm", block_bytes=size, ax=ax),
            f"Throughput by machine and algorithm at {size}-byte blocks ({title}); colour on a "
            "log scale.", aspect=0.22 + 0.07 * len(hosts)))
        sec.blocks.append(w.figure(
            f"machines-throughput-{slugify(focus)}-{slug}",
            lambda ax, sub=sub, focus=focus: plots.throughput(
                sub[sub["algorithm"] == focus], hue=machine, ax=ax),
            f"{focus} throughput by block size on each machine ({title})."))
        sec.blocks.append(w.figure(
            f"machines-ratio-{slug}", lambda ax, res=res: plots.speedup(
                res, expected=None, hue="algorithm", palette=w.colours, ax=ax,
                ylabel=f"Throughput relative to {baseline}" if len(baseline) < 30 else
                "Throughput relative to the baseline"),
            f"Throughput of each machine relative to {baseline} ({title}), with 95 % intervals; "
            "dotted: equal speed. Filled: significantly different from 1×."))
    if results:
        table = pd.concat(results, ignore_index=True)
        sec.blocks.append(w.table(
            "machines", first_column(table, "comparison"),
            "Machine against machine: throughput ratio candidate/baseline with 95 % interval, "
            "Holm-adjusted p-value and test.",
            ["comparison", "candidate", "baseline", "algorithm", "operation", "block_bytes",
             "ratio", "ci_low", "ci_high", "p_adjusted", "significant", "test", "n_candidate",
             "n_baseline"]))
    return sec


def _focus_text(res: pd.DataFrame, algorithm: str) -> str:
    rows = res[res["algorithm"].astype("object") == algorithm]
    if "block_bytes" in rows.columns:
        rows = rows[rows["block_bytes"] == rows["block_bytes"].max()]
    return ", ".join(f"{ratio_text(r)} for {r['candidate']}" for _, r in rows.iterrows())
