"""The AES-NI section: speed-ups on/off and the test of the "2x" claim."""

from __future__ import annotations

import pandas as pd

from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._select import (MACHINE, describe, experiment_keys, experiments, has_pair,
                                         levels_text, runs_per_cell)
from cipherlab.reporting._words import (CLAIMED_SPEEDUP, EQUIVALENCE_MARGIN, esc, first_column,
                                        p_text, ratio_text, slugify, unique_values)


def aesni(df: pd.DataFrame, w: Writer) -> Section:
    from cipherlab import plots, stats

    sec = Section("aesni", f"AES-NI on and off: how much faster, and is it {CLAIMED_SPEEDUP:g}×?")
    if "aesni" not in df.columns or not df["aesni"].isin(["on", "off"]).any():
        sec.say("These data hold no AES-NI on/off pairs (no <code>aesni</code> condition): "
                "capture with <code>isa=\"native,no-aesni\"</code> or give "
                "<code>ingest(..., aesni=\"off\")</code> for a dump measured with it masked.")
        return sec
    d = df[df["aesni"].isin(["on", "off"]) & df["bytes_per_s"].notna()]
    groups = experiments(d, experiment_keys(d, by="aesni"))
    paired = [(k, g) for k, g in groups if has_pair(g, "aesni", ("on", "off"))]
    unpaired = [f"{esc(describe(k))}: {levels_text(g, 'aesni')}" for k, g in groups
                if not has_pair(g, "aesni", ("on", "off"))]
    if not paired:
        sec.say("No machine was measured with AES-NI both on and off on the same algorithm, "
                "build and conditions, so there is no speed-up to estimate:")
        sec.items(unpaired)
        return sec
    sec.say(
        "A common claim is that AES-NI makes AES \"about twice as fast\". Each machine below "
        "measured the same algorithms with AES-NI on and with it masked off "
        "(<code>OPENSSL_ia32cap</code>), so the ratio on/off can be read per mode and block "
        "size. The ratio is that of the throughputs (geometric means when there are repeats); "
        f"its interval is a {100 - 5:g} % confidence interval. The claim is then tested two ways: "
        f"a t-test of <i>ratio = {CLAIMED_SPEEDUP:g}</i> (does it <i>differ</i>?) and an "
        f"equivalence test (TOST) of <i>ratio within {CLAIMED_SPEEDUP:g}× ± "
        f"{EQUIVALENCE_MARGIN:.0%}</i> (is it <i>equal</i> for practical purposes?). "
        "p-values are Holm-adjusted within each machine and build, difference and equivalence "
        "tests in one family. Pairs are formed by machine, build and conditions, whatever files "
        "the runs came from. The unit of replication is the run (one process): a pasted dump "
        "has one run per side, so there the ratio of each block size is described, not tested "
        "(no p-value, no interval, no verdict; block sizes are not replicates); captures with "
        "repeated runs are tested cell by cell on the runs' log throughput.")
    if unpaired:
        sec.say("Not compared (AES-NI measured one way only):")
        sec.items(unpaired)
    speedups, tests = [], []
    for key, sub in paired:
        where = describe(key)
        slug = slugify(where)
        sp = stats.speedup(sub, by="aesni", on="on", off="off")
        rt = stats.ratio_test(sub, by="aesni", baseline="off", candidate="on",
                              expected=CLAIMED_SPEEDUP, margin=EQUIVALENCE_MARGIN)
        speedups.append(pd.DataFrame(sp).assign(machine=where))
        tests.append(pd.DataFrame(rt).assign(machine=where))
        sec.blocks.append(f"<h3>{esc(where)}</h3>")
        algos = unique_values(sub["algorithm"])
        sec.say(f"Compared: AES-NI on against off for {len(algos)} algorithm(s) "
                f"({esc(', '.join(algos))}) at {sub['block_bytes'].nunique()} block size(s), "
                f"{runs_per_cell(sub, 'aesni')}. " + _mask_text(sub))
        lines = []
        for alg, rows in sp.groupby("algorithm", observed=True, sort=False):
            rows = rows.sort_values("block_bytes")
            lo, hi = rows.loc[rows["ratio"].idxmin()], rows.loc[rows["ratio"].idxmax()]
            lines.append(
                f"<b>{esc(alg)}</b>: {ratio_text(lo)} at {int(lo['block_bytes'])} bytes to "
                f"{ratio_text(hi)} at {int(hi['block_bytes'])} bytes")
        sec.say("Speed-up with AES-NI, smallest and largest over the block sizes:")
        sec.items(lines)
        verdicts = []
        for _, row in rt.iterrows():
            at = f" at {int(row['block_bytes'])} bytes" if "block_bytes" in rt.columns else ""
            if row["test"] == "no replication":
                verdict = (f"<span class='meh'>{_inside_text(row)}</span> (a description: one "
                           "run per side, nothing to test)")
            elif _yes(row["equivalent"]):
                verdict = (f"<span class='ok'>equivalent to {CLAIMED_SPEEDUP:g}×</span> within "
                           f"±{EQUIVALENCE_MARGIN:.0%} (TOST {p_text(row['p_equivalence'])})")
            elif _yes(row["differs"]):
                verdict = (f"<span class='bad'>differs from {CLAIMED_SPEEDUP:g}×</span> "
                           f"(adjusted {p_text(row['p_adjusted'])})")
            else:
                verdict = (f"<span class='meh'>inconclusive</span>: neither shown different from "
                           f"{CLAIMED_SPEEDUP:g}× ({p_text(row['p_adjusted'])}) nor within "
                           f"±{EQUIVALENCE_MARGIN:.0%} of it (TOST {p_text(row['p_equivalence'])})")
            verdicts.append(f"<b>{esc(row['algorithm'])}</b>{at}: {ratio_text(row)}, {verdict}; "
                            f"{esc(row['test'])}, runs {int(row['n_candidate'])} vs "
                            f"{int(row['n_baseline'])}")
        sec.say(f"Test of the {CLAIMED_SPEEDUP:g}× claim:")
        sec.items(verdicts[:12])
        if len(verdicts) > 12:
            sec.say(f"… and {len(verdicts) - 12} more cells in the table below.")
        sec.findings.append(
            f"<b>AES-NI, {esc(where)}</b>: " + "; ".join(
                _claim_summary(alg, rows) for alg, rows in
                rt.groupby("algorithm", observed=True, sort=False)) + ".")
        sec.blocks.append(w.figure(
            f"aesni-throughput-{slug}", lambda ax, sub=sub: plots.throughput(
                sub, palette=w.colours, ax=ax),
            f"Throughput with AES-NI on (solid) and off (dashed), {where}. "
            "Log-log axes; with repeats the line is their median and the band their range."))
        sec.blocks.append(w.figure(
            f"aesni-speedup-{slug}", lambda ax, sp=sp: plots.speedup(
                sp, expected=CLAIMED_SPEEDUP, palette=w.colours, ax=ax),
            f"Speed-up on/off by block size with {100 - 5:g} % intervals, {where}; "
            f"dashed: the claimed {CLAIMED_SPEEDUP:g}×. Filled markers: significantly different "
            "from 1× after Holm adjustment; hollow: not, or untestable (one run per side)."))
        if "block_bytes" not in rt.columns:
            sec.blocks.append(w.figure(
                f"aesni-2x-test-{slug}", lambda ax, rt=rt: plots.speedup(
                    rt, expected=CLAIMED_SPEEDUP, palette=w.colours, ax=ax),
                f"The {CLAIMED_SPEEDUP:g}× claim per algorithm, block sizes pooled, "
                f"{where}: ratio with its interval, the claim (dashed) and the "
                f"±{EQUIVALENCE_MARGIN:.0%} equivalence region (grey). Filled: differs from "
                f"{CLAIMED_SPEEDUP:g}×."))
    sp_all = pd.concat(speedups, ignore_index=True)
    rt_all = pd.concat(tests, ignore_index=True)
    sec.blocks.append(w.table(
        "aesni-speedup", first_column(sp_all, MACHINE),
        "AES-NI speed-up (on/off) per machine, algorithm and block size, with intervals and "
        "Holm-adjusted p-values (test of ratio = 1).",
        [MACHINE, "algorithm", "operation", "block_bytes", "ratio", "ci_low", "ci_high",
         "p_adjusted", "test", "n_candidate", "n_baseline", "significant"]))
    sec.blocks.append(w.table(
        "aesni-2x-test", first_column(rt_all, MACHINE),
        f"Test of the {CLAIMED_SPEEDUP:g}× claim: ratio with interval, t-test of ratio = "
        f"{CLAIMED_SPEEDUP:g} (adjusted p, differs) and TOST within ±{EQUIVALENCE_MARGIN:.0%} "
        "(p_equivalence, equivalent).",
        [MACHINE, "algorithm", "operation", "block_bytes", "ratio", "ci_low", "ci_high",
         "p_adjusted", "differs", "p_equivalence_adjusted", "tost_low", "tost_high",
         "equivalent", "test", "n_candidate", "n_baseline"]))
    return sec


def _claim_summary(algorithm: str, rows: pd.DataFrame) -> str:
    """``aes-128-cbc 1.98× (≈ 2×)`` or, per block size, ``aes-128-gcm 0.857×–42.6× (≠ 2× in 5/6)``."""
    from cipherlab.plots import format_ratio

    def short(row) -> str:
        if row["test"] == "no replication":
            return f"{_inside_text(row)}, one run per side: described, not tested"
        if _yes(row["equivalent"]):
            return f"≈ {CLAIMED_SPEEDUP:g}×"
        if _yes(row["differs"]):
            return f"≠ {CLAIMED_SPEEDUP:g}×"
        return "inconclusive"

    if len(rows) == 1:
        row = rows.iloc[0]
        return f"{esc(algorithm)} {format_ratio(row['ratio'])} ({short(row)})"
    if (rows["test"] == "no replication").all():
        inside = int(rows.apply(_inside, axis=1).sum())
        where = ("at every size" if inside == len(rows) else
                 f"at {inside}/{len(rows)} sizes" if inside else "at no size")
        return (f"{esc(algorithm)} {format_ratio(rows['ratio'].min())}–"
                f"{format_ratio(rows['ratio'].max())} (within {CLAIMED_SPEEDUP:g}× "
                f"±{EQUIVALENCE_MARGIN:.0%} {where}; one run per side: described, not tested)")
    n_diff, n_eq = int(rows["differs"].sum()), int(rows["equivalent"].sum())
    verdict = ", ".join(x for x in (
        f"≠ {CLAIMED_SPEEDUP:g}× in {n_diff}/{len(rows)} sizes" if n_diff else "",
        f"≈ {CLAIMED_SPEEDUP:g}× in {n_eq}/{len(rows)}" if n_eq else "") if x) or "inconclusive"
    return (f"{esc(algorithm)} {format_ratio(rows['ratio'].min())}–"
            f"{format_ratio(rows['ratio'].max())} ({verdict})")


def _yes(value) -> bool:
    """A verdict that was reached and is yes (NA: not tested)."""
    return not pd.isna(value) and bool(value)


def _inside(row) -> bool:
    return (CLAIMED_SPEEDUP * (1 - EQUIVALENCE_MARGIN) <= row["ratio"]
            <= CLAIMED_SPEEDUP * (1 + EQUIVALENCE_MARGIN))


def _inside_text(row) -> str:
    where = "within" if _inside(row) else "outside"
    return f"{where} {CLAIMED_SPEEDUP:g}× ±{EQUIVALENCE_MARGIN:.0%}"


def _mask_text(sub: pd.DataFrame) -> str:
    """What the data say about the capability mask in effect on each side (openssl's CPUINFO
    line in a dump, the mask a capture set)."""
    col = next((c for c in ("cpuinfo", "isa_mask") if c in sub.columns and sub[c].notna().any()),
               None)
    if col is None:
        return ("The data do not record the capability mask in effect (openssl's "
                "<code>CPUINFO</code> line), so they cannot show that masking AES-NI took effect; "
                "the ratios below are the evidence.")
    parts = []
    for level in ("on", "off"):
        masks = unique_values(sub.loc[sub["aesni"] == level, col])
        if masks:
            parts.append(f"AES-NI {level}: <code>{esc('; '.join(masks[:2]))}</code>")
    how = "as openssl printed it" if col == "cpuinfo" else "as the capture set it"
    return (f"Capability mask in effect, {how}: " + ", ".join(parts) + ". "
            "Bit 57 of the first word is AES-NI, bit 33 PCLMULQDQ, bit 41 SSSE3 (which selects "
            "the vector-permute fallback when AES-NI is off).")
