"""The implementation-tier section: portable C, assembler, hardware."""

from __future__ import annotations

import pandas as pd

from cipherlab.algorithms import is_aes
from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._select import common_size
from cipherlab.reporting._words import esc, first_column, ratio_text, short_label, unique_values


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
        "ratios below are each tier's throughput over <code>no-asm</code> on the same machine and "
        "build. These tables hold one run per machine and tier at one block size, so the ratios "
        "are descriptive: there is nothing to test them against (the table says "
        "<code>no replication</code>).")
    # cells that fail the plausibility checks are shown but not quoted as a tier's gain
    found = stats.lint(d, warn=False)
    flagged = set(zip(found["label"].astype("object"), found["tier"].astype("object"),
                      found["algorithm"].astype("object"))) if len(found) else set()
    results, gains = [], []
    for label, sub in d.groupby("label", observed=True, sort=False):
        if "no-asm" not in set(unique_values(sub["tier"])):
            continue
        res = stats.compare(sub, by="tier", baseline="no-asm")
        results.append(pd.DataFrame(res).assign(label=label))
        ok = res[[(label, c, a) not in flagged
                  for c, a in zip(res["candidate"].astype("object"),
                                  res["algorithm"].astype("object"))]]
        bad = sorted({f"{c} {a}" for c, a in zip(res["candidate"].astype("object"),
                                                  res["algorithm"].astype("object"))
                      if (label, c, a) in flagged})
        if len(ok):
            best = ok.loc[ok["ratio"].idxmax()]
            text = (f"{esc(short_label(label))}: {esc(best['candidate'])} "
                    f"{ratio_text(best, 3)} for {esc(best['algorithm'])}")
            if bad:
                text += f" ({esc(', '.join(bad))}: implausible, see Plausibility)"
            gains.append(text)
    if gains:
        sec.findings.append("<b>Largest plausible gain over portable C</b>: " + "; ".join(gains)
                            + ".")
    if results:
        table = pd.concat(results, ignore_index=True)
        lines = []
        for label, rows in table.groupby("label", observed=True, sort=False):
            aes = rows[rows["algorithm"].map(is_aes).astype(bool)]
            if len(aes):
                lines.append(f"<b>{esc(label)}</b>: " + "; ".join(
                    f"{esc(r['candidate'])} {ratio_text(r, 3)}" + (
                        " (<span class='bad'>implausible</span>)"
                        if (label, r["candidate"], r["algorithm"]) in flagged else "")
                    for _, r in aes.iterrows()) +
                    f" ({esc(aes['algorithm'].iloc[0])} against no-asm)")
        sec.items(lines)
        sec.blocks.append(w.table(
            "tiers", first_column(table, "label"),
            "Each tier's throughput over no-asm on the same machine and build (one value per "
            "cell: descriptive ratios).",
            ["label", "candidate", "baseline", "algorithm", "block_bytes", "ratio", "test"]))
    d["machine · tier"] = (d["label"].astype("object").map(short_label) + " · "
                           + d["tier"].astype("object"))
    size = common_size(d)
    sec.blocks.append(w.figure(
        "tiers-heatmap", lambda ax: plots.heatmap(d, rows="machine · tier", columns="algorithm",
                                                  block_bytes=size, ax=ax),
        f"Throughput by machine, OpenSSL build and implementation tier at {size}-byte blocks; "
        "colour on a log scale. Blank: not measured.", aspect=0.12 + 0.035 * d["machine · tier"].nunique()))
    return sec
