"""The ISA section: speed-ups with ISA features on and off, and the test of the "2x AES-NI" claim.

Which column a comparison reads and how its sides and effects are named is decided in one place,
:mod:`cipherlab.runners._isa` (``isa_contrast``, ``effect_label``, ``aes_name``): an effect is
"AES-NI" ("ARMv8 AES" on ARM) only for an AES algorithm under a condition that switched off
nothing but the AES instructions, and the claim is named by the CPU family the data are of.
"""

from __future__ import annotations

import pandas as pd

from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._select import (MACHINE, describe, experiment_keys, experiments, has_pair,
                                         levels_text, runs_per_cell)
from cipherlab.reporting._words import (CLAIMED_SPEEDUP, EQUIVALENCE_MARGIN, esc, first_column,
                                        p_text, ratio_text, slugify, unique_values)
from cipherlab.runners._isa import (AES_NAMES, ISA_COLUMNS, IsaContrast, aes_name, cpu_families,
                                    isa_column, isa_contrast)


def _comparisons(df: pd.DataFrame):
    """``(key, rows, contrast, off)`` for every experiment and level compared with nothing off,
    and the experiments measured one way only (HTML lines)."""
    reads = isa_column(df)
    paired, unpaired = [], []
    for column in ISA_COLUMNS:
        rows = df[reads.eq(column)]
        for key, g in experiments(rows, experiment_keys(rows, by=column)):
            contrast = isa_contrast(g)
            pairs = [] if contrast is None else [
                (key, g[g[column].isin([contrast.on, off])], contrast, off)
                for off in contrast.offs if has_pair(g, column, (contrast.on, off))]
            paired += pairs
            if not pairs:
                unpaired.append(f"{esc(describe(key))}: {levels_text(g, column)}")
    return paired, unpaired


def aesni(df: pd.DataFrame, w: Writer) -> Section:
    d = df[df["bytes_per_s"].notna()]
    aes = aes_name(d)
    sec = Section("aesni", f"ISA features on and off: how much faster, and is {aes} "
                  f"{CLAIMED_SPEEDUP:g}×?")
    if not isa_column(d).notna().any():
        sec.say("These data hold no ISA on/off pairs (no <code>isa_off</code>, <code>aesni</code> "
                "or <code>isa</code> condition): capture with <code>isa=\"native,no-aesni\"</code> "
                "or give <code>ingest(..., aesni=\"off\")</code> for a dump measured with AES-NI "
                "masked.")
        return sec
    paired, unpaired = _comparisons(d)
    if not paired:
        sec.say("No machine was measured with an ISA feature both on and off on the same "
                "algorithm, build and conditions, so there is no speed-up to estimate:")
        sec.items(unpaired)
        return sec
    sec.say(
        f"A common claim is that the AES instructions ({esc(aes)}) make AES \"about twice as "
        "fast\". Each machine below measured the same algorithms with every ISA feature on and "
        "with some switched off (for OpenSSL <code>OPENSSL_ia32cap</code> on x86, "
        "<code>OPENSSL_armcap</code> on ARM), so the ratio can be read per mode and block "
        "size. A condition is named by what it switched off, decoded from the mask in effect "
        "(<code>isa_off</code>) where the data record it, else by a document's own AES-NI "
        "on/off column, else by the preset set. An effect is called <i>AES-NI</i> (x86) or "
        "<i>ARMv8 AES</i> (ARM) only for an AES algorithm under a condition that switched off "
        "nothing but the AES instructions (and the carry-less multiply GCM pairs them with); "
        "otherwise the features switched off are named (the AWS-wiki mask also zeroes AVX2, "
        "AVX-512 and SHA-NI on OpenSSL 3.x, which speeds ChaCha20 up too). The ratio is that of "
        "the throughputs (geometric means when there are repeats); "
        f"its interval is a {100 - 5:g} % confidence interval. The claim is then tested on AES "
        f"algorithms only, two ways: a t-test of <i>ratio = {CLAIMED_SPEEDUP:g}</i> (does it "
        f"<i>differ</i>?) and an equivalence test (TOST) of <i>ratio within {CLAIMED_SPEEDUP:g}× ± "
        f"{EQUIVALENCE_MARGIN:.0%}</i> (is it <i>equal</i> for practical purposes?). "
        "p-values are Holm-adjusted within each machine and build, difference and equivalence "
        "tests in one family. Pairs are formed by machine, build and conditions, whatever files "
        "the runs came from. The unit of replication is the run (one process): a pasted dump "
        "has one run per side, so there the ratio of each block size is described, not tested "
        "(no p-value, no interval, no verdict; block sizes are not replicates); captures with "
        "repeated runs are tested cell by cell on the runs' log throughput.")
    if unpaired:
        sec.say("Not compared (measured one way only):")
        sec.items(unpaired)
    speedups, tests = [], []
    for key, sub, c, off in paired:
        sp, rt = _compared(sec, w, key, sub, c, off)
        speedups.append(sp)
        if rt is not None:
            tests.append(rt)
    sp_all = pd.concat(speedups, ignore_index=True)
    sec.blocks.append(w.table(
        "aesni-speedup", first_column(sp_all, MACHINE),
        "Speed-up with nothing switched off over each ISA condition, per machine, algorithm and "
        "block size, with intervals and Holm-adjusted p-values (test of ratio = 1). "
        f"The Effect column names what differed: {esc(aes)} only for AES algorithms under a "
        "condition that switched off nothing but the AES instructions.",
        [MACHINE, "algorithm", "effect", "operation", "block_bytes", "ratio",
         "ci_low", "ci_high", "p_adjusted", "test", "n_candidate", "n_baseline", "significant"]))
    if tests:
        rt_all = pd.concat(tests, ignore_index=True)
        sec.blocks.append(w.table(
            "aesni-2x-test", first_column(rt_all, MACHINE),
            f"Test of the {CLAIMED_SPEEDUP:g}× {esc(aes)} claim on AES algorithms: ratio with "
            f"interval, t-test of ratio = {CLAIMED_SPEEDUP:g} (adjusted p, differs) and TOST "
            f"within ±{EQUIVALENCE_MARGIN:.0%} (p_equivalence, equivalent); the Effect column "
            f"says when more than {esc(aes)} was switched off.",
            [MACHINE, "algorithm", "effect", "operation", "block_bytes", "ratio",
             "ci_low", "ci_high", "p_adjusted", "differs", "p_equivalence_adjusted", "tost_low",
             "tost_high", "equivalent", "test", "n_candidate", "n_baseline"]))
    return sec


def _effects(result: pd.DataFrame, c: IsaContrast, off: str) -> pd.DataFrame:
    effect = {a: c.effect(a, off) for a in result["algorithm"].astype("object").unique()}
    return result.assign(effect=result["algorithm"].astype("object").map(effect),
                         comparison=f"{c.side(c.on)} / {c.side(off)}")


def _compared(sec: Section, w: Writer, key: dict, sub: pd.DataFrame, c: IsaContrast,
              off: str) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """One machine's comparison of nothing off with ``off``: text, figures, result rows."""
    from cipherlab import plots, stats

    where = describe(key)
    on_side, off_side = c.side(c.on), c.side(off)
    named = aes_name(sub)  # (the AES instructions: AES-NI, ARMv8 AES)
    slug = slugify(where if len(c.offs) == 1 else f"{where} {off}")
    # the tables' machine column names the condition too when a machine has several
    machine = where if len(c.offs) == 1 else f"{where}; {off_side}"
    sp = _effects(stats.speedup(sub, by=c.column, on=c.on, off=off), c, off).assign(machine=machine)
    aes = sub[sub["algorithm"].astype("object").map(c.claim_applies).astype(bool)]
    # (the claim needs an AES cell measured both ways: the pair may be a SHA-256's alone)
    rt = None if not has_pair(aes, c.column, (c.on, off)) else _effects(stats.ratio_test(
        aes, by=c.column, baseline=off, candidate=c.on, expected=CLAIMED_SPEEDUP,
        margin=EQUIVALENCE_MARGIN), c, off).assign(machine=machine)
    sec.blocks.append(f"<h3>{esc(where)}: {esc(on_side)} against {esc(off_side)}</h3>")
    algos = unique_values(sub["algorithm"])
    sec.say(f"Compared: {esc(on_side)} against {esc(off_side)} for {len(algos)} algorithm(s) "
            f"({esc(', '.join(algos))}) at {sub['block_bytes'].nunique()} block size(s), "
            f"{runs_per_cell(sub, c.column)}. " + _mask_text(sub, c, off))
    effects = list(dict.fromkeys(sp["effect"]))
    for effect in effects:
        lines = []
        for alg, rows in sp[sp["effect"] == effect].groupby("algorithm", observed=True,
                                                              sort=False):
            rows = rows.sort_values("block_bytes")
            lo, hi = rows.loc[rows["ratio"].idxmin()], rows.loc[rows["ratio"].idxmax()]
            lines.append(
                f"<b>{esc(alg)}</b>: {ratio_text(lo)} at {int(lo['block_bytes'])} bytes to "
                f"{ratio_text(hi)} at {int(hi['block_bytes'])} bytes")
        sec.say(f"Speed-up, effect: <b>{esc(effect)}</b> (smallest and largest over the block "
                "sizes):")
        sec.items(lines)
    if rt is None and aes.empty:
        sec.say(f"No AES algorithm here: the {CLAIMED_SPEEDUP:g}× {esc(named)} claim does not "
                "apply.")
    elif rt is None:
        algos = esc(", ".join(unique_values(aes["algorithm"])))
        sec.say(f"No AES algorithm was measured both ways here ({algos}: "
                f"{levels_text(aes, c.column)}): the {CLAIMED_SPEEDUP:g}× {esc(named)} claim "
                "cannot be tested.")
    else:
        _claim(sec, rt, where, named)
    others = sp[~sp["algorithm"].astype("object").map(c.claim_applies).astype(bool)]
    if not others.empty:
        sec.findings.append(f"<b>{esc(where)}, not AES</b>: " + "; ".join(
            f"{esc(alg)} {plots.format_ratio(rows['ratio'].min())}–"
            f"{plots.format_ratio(rows['ratio'].max())} ({esc(rows['effect'].iloc[0])})"
            for alg, rows in others.groupby("algorithm", observed=True, sort=False)) + ".")
    sec.blocks.append(w.figure(
        f"aesni-throughput-{slug}", lambda ax, sub=sub: plots.throughput(
            sub, palette=w.colours, ax=ax),
        f"Throughput with {on_side} and {off_side} (line styles, named in the legend), {where}. "
        "Log-log axes; with repeats the line is their median and the band their range."))
    claim = CLAIMED_SPEEDUP if rt is not None else None
    sec.blocks.append(w.figure(
        f"aesni-speedup-{slug}", lambda ax, sp=sp: plots.speedup(
            sp, expected=claim, palette=w.colours, ax=ax),
        f"Speed-up ({on_side} over {off_side}) by block size with {100 - 5:g} % intervals, "
        f"{where}; effect: {'; '.join(effects)}"
        + (f"; dashed: the claimed {CLAIMED_SPEEDUP:g}× of {named} (a claim about AES only)"
           if claim else "") + ". Filled markers: significantly different from 1× after Holm "
        "adjustment; hollow: not, or untestable (one run per side)."))
    if rt is not None and "block_bytes" not in rt.columns:
        sec.blocks.append(w.figure(
            f"aesni-2x-test-{slug}", lambda ax, rt=rt: plots.speedup(
                rt, expected=CLAIMED_SPEEDUP, palette=w.colours, ax=ax),
            f"The {CLAIMED_SPEEDUP:g}× {named} claim per AES algorithm, block sizes pooled, "
            f"{where}: ratio with its interval, the claim (dashed) and the "
            f"±{EQUIVALENCE_MARGIN:.0%} equivalence region (grey). Filled: differs from "
            f"{CLAIMED_SPEEDUP:g}×."))
    return sp, rt


def _claim(sec: Section, rt: pd.DataFrame, where: str, aes: str) -> None:
    """The test of the claim on the AES algorithms of one comparison (``aes``: what its AES
    instructions are called), and its finding."""
    effects = list(dict.fromkeys(rt["effect"]))
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
    plain = [e for e in effects if e not in AES_NAMES.values()]
    sec.say(f"Test of the {CLAIMED_SPEEDUP:g}× {esc(aes)} claim on the AES algorithms"
            + (f". <b>Not {esc(aes)} alone</b>: the effect measured is {esc('; '.join(plain))}, "
               f"so a ratio here is not {esc(aes)}'s alone:" if plain else ":"))
    sec.items(verdicts[:12])
    if len(verdicts) > 12:
        sec.say(f"… and {len(verdicts) - 12} more cells in the table below.")
    sec.findings.append(
        f"<b>{esc('; '.join(effects))}, {esc(where)}</b>: " + "; ".join(
            _claim_summary(alg, rows) for alg, rows in
            rt.groupby("algorithm", observed=True, sort=False)) + ".")


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


def _mask_text(sub: pd.DataFrame, c: IsaContrast, off: str) -> str:
    """What the data say about the capability mask in effect on each side (openssl's CPUINFO
    line in a dump, the mask a capture set)."""
    col = next((k for k in ("cpuinfo", "isa_mask") if k in sub.columns and sub[k].notna().any()),
               None)
    if col is None:
        return ("The data do not record the capability mask in effect (openssl's "
                "<code>CPUINFO</code> line), so they cannot show what the condition switched off; "
                "the ratios below are the evidence.")
    parts = []
    for level in (c.on, off):
        masks = unique_values(sub.loc[sub[c.column] == level, col])
        if masks:
            parts.append(f"{esc(c.side(level))}: <code>{esc('; '.join(masks[:2]))}</code>")
    how = "as openssl printed it" if col == "cpuinfo" else "as the capture set it"
    return (f"Capability mask in effect, {how}: " + ", ".join(parts) + ". "
            + " ".join(_BITS[f] for f in cpu_families(sub)))


#: What the bits of each family's capability word that decide AES are (docs/openssl-*cap.md).
_BITS = {"x86": "Bit 57 of the first word is AES-NI, bit 33 PCLMULQDQ, bit 41 SSSE3 (which "
                "selects the vector-permute fallback when AES-NI is off).",
         "arm": "<code>OPENSSL_armcap</code> replaces the capability word: bit 2 is ARMv8 AES, "
                "bit 5 PMULL (GHASH), bits 3, 4 and 6 SHA-1, SHA-256 and SHA-512, bit 0 NEON "
                "(which selects the vector-permute fallback when AES is off)."}
