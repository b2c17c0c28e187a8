"""The small-block section: the per-call cost of GCM against CBC."""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from cipherlab.algorithms import GCM_CBC_PAIRS, aead_loop_changed
from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._select import (MACHINE, describe, experiment_keys, experiments, rows_of,
                                         runs_per_cell)
from cipherlab.reporting._words import esc, slugify, unique_values


def small_blocks(df: pd.DataFrame, w: Writer) -> Section:
    from cipherlab import plots, stats

    sec = Section("small-blocks", "Small blocks: the per-call cost of GCM against CBC")
    rated = df[df["bytes_per_s"].notna() & df["block_bytes"].notna()]
    groups = experiments(rated, experiment_keys(rated))
    for a, b in GCM_CBC_PAIRS:
        both = [(k, g) for k, g in groups if _sizes(g, a) >= 2 and _sizes(g, b) >= 2]
        if both:
            break
    else:
        measured = sorted({alg for _, g in groups for alg in unique_values(g["algorithm"])
                           if any(alg in pair for pair in GCM_CBC_PAIRS)})
        sec.say("No machine measured an AES-GCM and the AES-CBC of the same key size side by "
                "side (same build and conditions, at two or more block sizes each), so the "
                "per-call cost comparison is not possible on these data"
                + (f" (measured: {esc(', '.join(measured))})." if measured else "."))
        return sec
    sec.say(
        "GCM authenticates as well as encrypts, and each call pays a fixed price (context, IV, "
        "GHASH key powers, tag) before the first byte. The time per call is close to a straight "
        "line in the message length, <i>t(n) = t<sub>0</sub> + c·n</i>: <i>t<sub>0</sub></i> is "
        "the fixed cost per call, <i>c</i> the cost per byte. A weighted least-squares fit over "
        "the block sizes gives both with 95 % intervals; where the GCM and CBC lines cross, GCM "
        "becomes the faster choice. On small messages the fixed cost dominates, so a "
        "16-byte benchmark says little about bulk throughput and the other way round.")
    sec.say(f"Compared: {esc(a)} against {esc(b)} on " + "; ".join(
        f"{esc(describe(k))} ({g['block_bytes'].nunique()} block sizes, "
        f"{runs_per_cell(g[g['algorithm'].isin([a, b])])})" for k, g in both) + ".")
    sub = pd.concat([g[g["algorithm"].isin([a, b])] for _, g in both])
    keys = ["algorithm", "operation", *[k for k in experiment_keys(sub) if k != "operation"]]
    fit = stats.cost_model(sub, groupby=keys)
    cross = stats.crossover(sub, a, b, groupby=keys)
    over = stats.small_block_overhead(sub, a, b, groupby=keys)
    lines = []
    for _, row in cross.iterrows():
        fa, fb = _fit_row(fit, row, keys, a), _fit_row(fit, row, keys, b)
        costs = ""
        if fa is not None and fb is not None:
            costs = (f" Fixed cost per call {_t0(fa)} for {a} against {_t0(fb)} for {b}; "
                     f"per byte {fa['c_ns_per_byte']:.3g} against {fb['c_ns_per_byte']:.3g} ns.")
        lines.append(f"{esc(_context(row, keys))}: {_crossing(row)}.{costs}")
    era = _era_caveat(sub, a)
    if era:
        sec.say(era)
    sec.say(f"Where the lines of <b>{a}</b> and <b>{b}</b> cross, and which one is faster above:")
    sec.items(lines)
    small = over[over["block_bytes"] == over["block_bytes"].min()]
    for _, row in small.iterrows():
        fa, fb = _fit_row(fit, row, keys, a), _fit_row(fit, row, keys, b)
        costs = (f" (fixed cost per call {_t0(fa, interval=False)} against "
                 f"{_t0(fb, interval=False)})" if fa is not None and fb is not None else "")
        sec.findings.append(
            f"<b>{esc(a)} against {esc(b)}, {esc(_context(row, keys))}</b>: at "
            f"{int(row['block_bytes'])} bytes GCM runs at {row['ratio']:.2g}× CBC's speed"
            f"{costs}; {_crossing(_match(cross, row, keys))}.")
    group_keys = [k for k in keys if k != "algorithm"]
    for _, first in fit.drop_duplicates(group_keys).iterrows():
        key = {k: first[k] for k in group_keys}
        rows, sub_rows = fit[rows_of(fit, key)], sub[rows_of(sub, key)]
        crossing = cross[rows_of(cross, key)]
        where = _context(first, keys)
        sec.blocks.append(w.figure(
            f"cost-model-{slugify(where)}",
            lambda ax, rows=rows, sub_rows=sub_rows, c=crossing:
            plots.cost_model(rows, sub_rows, crossover=c, palette=w.colours, ax=ax),
            f"Time per call against block size with the fitted t0 + c·n lines and their 95 % "
            f"bands, {where}; dashed vertical: where the two lines cross (shaded: its interval)."
            + _era_note(sub_rows, a)))
    sec.blocks.append(w.figure(
        f"overhead-{slugify(a)}-vs-{slugify(b)}", lambda ax: plots.overhead(
            over, a=a, b=b, ax=ax),
        f"Throughput of {a} relative to {b} by block size (dashed: equal speed). Below the line, "
        f"{b} is faster: the fixed per-call cost of {a} dominates small messages."
        + _era_note(sub, a), aspect=0.45 + 0.06 * len(fit.drop_duplicates(group_keys))))
    sec.blocks.append(w.table(
        "cost-model", fit, f"Per-call cost fits t(n) = t0 + c·n of {a} and {b}: fixed cost t0 "
        "(ns), cost per byte c (ns), asymptotic throughput, half-performance length n½ = t0/c.",
        [*keys, "t0_ns", "t0_ci_low", "t0_ci_high", "c_ns_per_byte", "c_ci_low", "c_ci_high",
         "asymptotic_bytes_per_s", "n_half_bytes", "r_squared", "n_sizes"]))
    sec.blocks.append(w.table(
        "crossover", cross, f"Block size where the cost lines of {a} and {b} cross (the regime "
        "says which overtakes which), with its 95 % interval (delta method; inf when the slopes "
        "are not clearly different).",
        group_keys + ["a", "b", "crossover_bytes", "ci_low", "ci_high", "regime"]))
    sec.blocks.append(w.table(
        "small-block-overhead", over, f"Throughput ratio {a}/{b} by block size and the share of "
        "each call spent in fixed overhead (from the fits).",
        group_keys + ["block_bytes", "ratio", "t0_a_ns", "t0_b_ns", "overhead_share_a",
                      "overhead_share_b"]))
    return sec


def _sizes(rows: pd.DataFrame, algorithm: str) -> int:
    return rows.loc[rows["algorithm"].astype("object") == algorithm, "block_bytes"].nunique()


def _eras(rows: pd.DataFrame) -> set:
    from cipherlab import stats

    openssl = rows[rows["tool"].astype("object") == "openssl"]
    return {stats.aead_era(v) for v in unique_values(openssl["tool_version"])} - {None}


def _era_caveat(sub: pd.DataFrame, aead: str) -> str:
    """The AEAD-loop caveat (openssl PR #25823) for the section text, when it applies."""
    if not aead_loop_changed(aead) or not _eras(sub):
        return ""
    by_era = {}
    for key, g in experiments(sub, [MACHINE, "tool", "tool_version"]):
        for era in _eras(g):
            by_era.setdefault(era, []).append(describe(key))
    mixed = len(by_era) > 1
    text = ("<b>The AEAD benchmark loop:</b> OpenSSL 3.0.16, 3.1.8, 3.2.4, 3.3.3 and 3.4 changed "
            "what <code>openssl speed</code> times for GCM/CCM/OCB/SIV (PR #25823): each message "
            "now pays a full init, IV, AAD and tag, where older versions streamed one context. ")
    if "new" in by_era:
        text += (f"The fixed cost of {esc(aead)} from {esc('; '.join(by_era['new']))} (new loop) "
                 "includes that per-message set-up, which a TLS record layer also pays. ")
    if mixed:
        text += (f"{esc('; '.join(by_era['old']))} (old loop) did not time it: compare "
                 "t<sub>0</sub> within a machine and build, not across these.")
    return text


def _era_note(rows: pd.DataFrame, aead: str) -> str:
    """The short caption form of the caveat."""
    eras = _eras(rows) if aead_loop_changed(aead) else set()
    if not eras:
        return ""
    if eras == {"new"}:
        return (" OpenSSL's new AEAD loop (3.0.16+/3.4+, PR #25823): t0 includes a full "
                "init/IV/tag per message.")
    if eras == {"old"}:
        return " OpenSSL's old AEAD loop (before PR #25823): one context streamed, no per-message init."
    return " Mixed AEAD loops (PR #25823): t0 not comparable across versions."


def _match(frame: pd.DataFrame, row: pd.Series, keys: Sequence[str]):
    key = {k: row[k] for k in keys if k != "algorithm" and k in frame.columns}
    hit = frame[rows_of(frame, key)]
    return hit.iloc[0] if len(hit) else None


def _fit_row(fit: pd.DataFrame, row: pd.Series, keys: Sequence[str], algorithm: str):
    return _match(fit[fit["algorithm"].astype("object") == algorithm], row, keys)


def _t0(row, interval: bool = True) -> str:
    from cipherlab.plots import format_seconds

    text = format_seconds(row["t0_ns"] * 1e-9)
    if interval and pd.notna(row.get("t0_ci_low")) and pd.notna(row.get("t0_ci_high")):
        text += (f" [{format_seconds(row['t0_ci_low'] * 1e-9)}, "
                 f"{format_seconds(row['t0_ci_high'] * 1e-9)}]")
    return text


def _crossing(row) -> str:
    from cipherlab.narrative import crossover_sentence

    return "no crossover estimate" if row is None else esc(crossover_sentence(row))


def _context(row, keys: Sequence[str]) -> str:
    """``vm, openssl 3.0.22, CPU time, AES-NI on`` for a result row."""
    return describe({k: row[k] for k in keys if k not in ("algorithm", "operation")
                     and k in row.index})
