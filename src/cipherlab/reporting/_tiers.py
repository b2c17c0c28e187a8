"""The implementation-tier section: portable C, assembler, hardware."""

from __future__ import annotations

import pandas as pd

from cipherlab.algorithms import is_aes
from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._select import (MACHINE, common_size, describe, experiment_keys,
                                         experiments, levels_text)
from cipherlab.reporting._words import esc, first_column, ratio_text, unique_values


def tiers(df: pd.DataFrame, w: Writer) -> Section:
    from cipherlab import plots, stats

    sec = Section("tiers", "Implementation tiers: portable C, assembler, hardware")
    if "tier" not in df.columns or df["tier"].isna().all():
        sec.say("These data hold no implementation tiers (no <code>tier</code> condition).")
        return sec
    d = df[df["tier"].notna() & df["bytes_per_s"].notna()].copy()
    sec.say(
        "OpenSSL can run a cipher as portable C (<code>no-asm</code>), as hand-written assembler "
        "(<code>asm</code>, which on recent CPUs already uses AES-NI and SHA extensions), or "
        "through hardware and kernel engines (VIA PadLock, the Linux kernel's AF_ALG). The "
        "ratios below are each tier's throughput over the baseline tier (<code>no-asm</code> "
        "unless <code>--baseline</code> names another) on the same machine and "
        "build. These tables hold one run per machine and tier at one block size, so the ratios "
        "are descriptive: there is nothing to test them against (the table says "
        "<code>no replication</code>).")
    base = w.baseline if w.baseline in set(unique_values(d["tier"])) else "no-asm"
    results, gains, lines, skipped = [], [], [], []
    for key, sub in experiments(d, experiment_keys(d, by="tier")):
        where = describe(key, conditions=False)
        if base not in set(unique_values(sub["tier"])) or sub["tier"].nunique() < 2:
            skipped.append(f"{esc(where)}: {levels_text(sub, 'tier')}")
            continue
        res = pd.DataFrame(stats.compare(sub, by="tier", baseline=base))
        results.append(res.assign(machine=where))
        # cells that fail the plausibility checks are shown but not quoted as a tier's gain
        found = stats.lint(sub, warn=False)
        flagged = set(zip(found["tier"].astype("object"), found["algorithm"].astype("object")))
        bad = [(c, a) in flagged for c, a in zip(res["candidate"].astype("object"),
                                                 res["algorithm"].astype("object"))]
        ok = res[[not b for b in bad]]
        if len(ok):
            best = ok.loc[ok["ratio"].idxmax()]
            text = (f"{esc(where)}: {esc(best['candidate'])} "
                    f"{ratio_text(best, 3)} for {esc(best['algorithm'])}")
            implausible = sorted({f"{c} {a}" for (c, a), b in zip(
                zip(res["candidate"].astype("object"), res["algorithm"].astype("object")), bad)
                if b})
            if implausible:
                text += f" ({esc(', '.join(implausible))}: implausible, see Plausibility)"
            gains.append(text)
        aes = res[res["algorithm"].map(is_aes).astype(bool)]
        if len(aes):
            lines.append(f"<b>{esc(where)}</b>: " + "; ".join(
                f"{esc(r['candidate'])} {ratio_text(r, 3)}" + (
                    " (<span class='bad'>implausible</span>)"
                    if (r["candidate"], r["algorithm"]) in flagged else "")
                for _, r in aes.iterrows()) + f" ({esc(aes['algorithm'].iloc[0])} against "
                f"{esc(base)})")
    if gains:
        sec.findings.append(f"<b>Largest plausible gain over {esc(base)}</b>: "
                            + "; ".join(gains) + ".")
    sec.items(lines)
    if skipped:
        sec.say(f"Not compared (no {esc(base)} baseline, or one tier only):")
        sec.items(skipped)
    if results:
        sec.blocks.append(w.table(
            "tiers", first_column(pd.concat(results, ignore_index=True), MACHINE),
            f"Each tier's throughput over {base} on the same machine and build (one value per "
            "cell: descriptive ratios).",
            [MACHINE, "candidate", "baseline", "algorithm", "block_bytes", "ratio", "test"]))
    d["machine · tier"] = (d[MACHINE].astype("object") + " " + d["tool_version"].astype("object")
                           .fillna("") + " · " + d["tier"].astype("object"))
    size = common_size(d, by="machine · tier")
    sec.blocks.append(w.figure(
        "tiers-heatmap", lambda ax: plots.heatmap(d, rows="machine · tier", columns="algorithm",
                                                  block_bytes=size, ax=ax),
        f"Throughput by machine, OpenSSL build and implementation tier at {size}-byte blocks; "
        "colour on a log scale. Blank: not measured; hatched with a !: implausible (see "
        "Plausibility), left out of the colour scale.", aspect=0.12 + 0.035 * d["machine · tier"].nunique()))
    return sec
