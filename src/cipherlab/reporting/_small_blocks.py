"""The small-block section: the per-call cost of GCM against CBC."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pandas as pd

from cipherlab.algorithms import GCM_CBC_PAIRS
from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._select import pair_keys
from cipherlab.reporting._words import describe_short, esc, slugify, source_slug, unique_values


def small_blocks(df: pd.DataFrame, w: Writer) -> Section:
    from cipherlab import plots, stats

    sec = Section("small-blocks", "Small blocks: the per-call cost of GCM against CBC")
    rated = df[df["bytes_per_s"].notna() & df["block_bytes"].notna()]
    pairs = []
    for a, b in GCM_CBC_PAIRS:
        both = [s for s in unique_values(rated["source"])
                if {a, b} <= set(unique_values(rated.loc[rated["source"] == s, "algorithm"]))]
        if both:
            pairs.append((a, b, both))
    if not pairs:
        sec.say("No source measures an AES-GCM and an AES-CBC variant side by side, so the "
                "per-call cost comparison is not possible on these data.")
        return sec
    sec.say(
        "GCM authenticates as well as encrypts, and each call pays a fixed price (context, IV, "
        "GHASH key powers, tag) before the first byte. The time per call is close to a straight "
        "line in the message length, <i>t(n) = t<sub>0</sub> + c·n</i>: <i>t<sub>0</sub></i> is "
        "the fixed cost per call, <i>c</i> the cost per byte. A weighted least-squares fit over "
        "the block sizes gives both with 95 % intervals; where the GCM and CBC lines cross, GCM "
        "becomes the faster choice. On small messages the fixed cost dominates, so a "
        "16-byte benchmark says little about bulk throughput and the other way round.")
    a, b, sources = pairs[0]
    sub = rated[rated["source"].isin(sources) & rated["algorithm"].isin([a, b])]
    keys = pair_keys(sub)
    fit = stats.cost_model(sub, groupby=keys)
    cross = stats.crossover(sub, a, b, groupby=keys)
    over = stats.small_block_overhead(sub, a, b, groupby=keys)
    lines = []
    for _, row in cross.iterrows():
        where = esc(_context(row, keys, df))
        fa = _fit_row(fit, row, keys, a)
        fb = _fit_row(fit, row, keys, b)
        costs = ""
        if fa is not None and fb is not None:
            costs = (f" Fixed cost per call {_t0(fa)} for {a} against {_t0(fb)} for {b}; "
                     f"per byte {fa['c_ns_per_byte']:.3g} against {fb['c_ns_per_byte']:.3g} ns.")
        lines.append(f"{where}: {_crossing(row)}.{costs}")
    eras = {}
    for src in sources:
        versions = unique_values(sub.loc[sub["source"] == src, "tool_version"])
        eras[src] = {stats.aead_era(v) for v in versions} - {None}
    if len(set().union(*eras.values())) > 1:
        new = [Path(str(x)).name for x, e in eras.items() if "new" in e]
        old = [Path(str(x)).name for x, e in eras.items() if "old" in e]
        sec.say(
            "<b>Not like for like across sources:</b> OpenSSL 3.0.16, 3.1.8, 3.2.4, 3.3.3 and 3.4 "
            "changed what <code>openssl speed</code> times for AEAD ciphers (PR #25823): each "
            "message now pays a full init, IV, AAD and tag, where older versions streamed one "
            f"context. The fixed cost of GCM from {esc(', '.join(new))} (new loop) therefore "
            f"includes work that {esc(', '.join(old))} (old loop) did not time; compare "
            "t<sub>0</sub> within a source, not across these.")
    sec.say(f"Where <b>{a}</b> overtakes <b>{b}</b>:")
    sec.items(lines)
    small = over[over["block_bytes"] == over["block_bytes"].min()]
    for _, row in small.iterrows():
        fa, fb = _fit_row(fit, row, keys, a), _fit_row(fit, row, keys, b)
        costs = (f" (fixed cost per call {_t0(fa, interval=False)} against "
                 f"{_t0(fb, interval=False)})" if fa is not None and fb is not None else "")
        sec.findings.append(
            f"<b>{esc(a)} against {esc(b)}, {esc(_context(row, keys, df))}</b>: at "
            f"{int(row['block_bytes'])} bytes GCM runs at {row['ratio']:.2g}× CBC's speed"
            f"{costs}; {_crossing(cross_row(cross, row, keys))}.")
    for key, rows in fit.groupby([k for k in keys if k != "algorithm"], observed=True,
                                 dropna=False, sort=False):
        rows = pd.DataFrame(rows)
        mask = pd.Series(True, index=cross.index)
        for k, v in zip([k for k in keys if k != "algorithm"], key if isinstance(key, tuple)
                        else (key,)):
            mask &= cross[k].isna() if pd.isna(v) else (cross[k].astype("object") == v)
        values = dict(zip([k for k in keys if k != "algorithm"],
                          key if isinstance(key, tuple) else (key,)))
        name = "-".join([source_slug(values.get("source", "data"))] + [
            f"{k}-{v}" for k, v in values.items()
            if k not in ("source", "operation", "host") and pd.notna(v)])
        sub_rows = sub
        for k, v in zip([k for k in keys if k != "algorithm"], key if isinstance(key, tuple)
                        else (key,)):
            sub_rows = sub_rows[sub_rows[k].isna() if pd.isna(v) else
                                (sub_rows[k].astype("object") == v)]
        sec.blocks.append(w.figure(
            f"cost-model-{slugify(name)}", lambda ax, rows=rows, sub_rows=sub_rows, c=cross[mask]:
            plots.cost_model(rows, sub_rows, crossover=c, palette=w.colours, ax=ax),
            f"Time per call against block size with the fitted t0 + c·n lines and their 95 % "
            f"bands, {_context(rows.iloc[0], keys, df)}; dashed vertical: where {a} overtakes "
            f"{b} (shaded: its interval)."))
    sec.blocks.append(w.figure(
        f"overhead-{slugify(a)}-vs-{slugify(b)}", lambda ax: plots.overhead(
            over, a=a, b=b, ax=ax),
        f"Throughput of {a} relative to {b} by block size (dashed: equal speed). Below the line, "
        f"{b} is faster: the fixed per-call cost of {a} dominates small messages.", aspect=0.4))
    sec.blocks.append(w.table(
        "cost-model", fit, f"Per-call cost fits t(n) = t0 + c·n of {a} and {b}: fixed cost t0 "
        "(ns), cost per byte c (ns), asymptotic throughput, half-performance length n½ = t0/c.",
        [*keys, "t0_ns", "t0_ci_low", "t0_ci_high", "c_ns_per_byte", "c_ci_low", "c_ci_high",
         "asymptotic_bytes_per_s", "n_half_bytes", "r_squared", "n_sizes"]))
    sec.blocks.append(w.table(
        "crossover", cross, f"Block size where {a} overtakes {b}, with its 95 % interval "
        "(delta method; inf when the slopes are not clearly different).",
        [k for k in keys if k != "algorithm"] + ["a", "b", "crossover_bytes", "ci_low",
                                                 "ci_high", "regime"]))
    sec.blocks.append(w.table(
        "small-block-overhead", over, f"Throughput ratio {a}/{b} by block size and the share of "
        "each call spent in fixed overhead (from the fits).",
        [k for k in keys if k != "algorithm"] + ["block_bytes", "ratio", "t0_a_ns", "t0_b_ns",
                                                 "overhead_share_a", "overhead_share_b"]))
    return sec


def cross_row(cross: pd.DataFrame, row: pd.Series, keys: Sequence[str]):
    mask = pd.Series(True, index=cross.index)
    for k in keys:
        if k == "algorithm" or k not in cross.columns:
            continue
        v = row[k]
        mask &= cross[k].isna() if pd.isna(v) else (cross[k].astype("object") == v)
    return cross[mask].iloc[0] if mask.any() else None


def _fit_row(fit: pd.DataFrame, row: pd.Series, keys: Sequence[str], algorithm: str):
    mask = fit["algorithm"].astype("object") == algorithm
    for k in keys:
        if k == "algorithm":
            continue
        v = row[k]
        mask &= fit[k].isna() if pd.isna(v) else (fit[k].astype("object") == v)
    return fit[mask].iloc[0] if mask.any() else None


def _t0(row, interval: bool = True) -> str:
    from cipherlab.plots import format_seconds

    text = format_seconds(row["t0_ns"] * 1e-9)
    if interval and pd.notna(row.get("t0_ci_low")) and pd.notna(row.get("t0_ci_high")):
        text += (f" [{format_seconds(row['t0_ci_low'] * 1e-9)}, "
                 f"{format_seconds(row['t0_ci_high'] * 1e-9)}]")
    return text


def _crossing(row) -> str:
    from cipherlab.plots import format_bytes

    if row is None:
        return "no crossover estimate"
    regime = str(row["regime"])
    a, b = row["a"], row["b"]
    if regime == "a overtakes b":
        hi = row["ci_high"]
        ci = (f" (95 % interval {format_bytes(row['ci_low'])} to "
              f"{'unbounded' if not pd.notna(hi) or hi == float('inf') else format_bytes(hi)})")
        return f"{esc(a)} overtakes {esc(b)} above {format_bytes(row['crossover_bytes'])}{ci}"
    if regime == "a always faster":
        return f"{esc(a)} is faster at every size"
    if regime == "never":
        return f"{esc(a)} is never faster than {esc(b)}"
    if regime == "b overtakes a":
        return f"{esc(a)} is faster only for small messages; {esc(b)} overtakes it"
    return "the lines could not be fitted"


def _context(row, keys: Sequence[str], df: pd.DataFrame) -> str:
    """``AWS r3.xlarge (aws-wiki-aesni-on-off.txt), aesni=on`` for a result row."""
    parts = []
    if "source" in keys and "source" in row.index:
        parts.append(describe_short(df, row["source"]))
    for k in keys:
        if k in ("algorithm", "operation", "source", "host") or k not in row.index:
            continue
        if pd.notna(row[k]):
            parts.append(f"{k}={row[k]}")
    return ", ".join(parts)
