"""The TLS section: whole-protocol transfer throughput."""

from __future__ import annotations

import pandas as pd

from cipherlab.algorithms import GCM_CBC_PAIRS
from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._select import MACHINE, describe, experiment_keys
from cipherlab.reporting._words import esc, p_text, rate_text, ratio_text, unique_values


def transfers(df: pd.DataFrame, w: Writer) -> Section:
    from cipherlab import plots, stats

    sec = Section("tls", "TLS transfers: whole-protocol throughput")
    d = df[df["operation"].astype("object").eq("transfer") & df["bytes_per_s"].notna()]
    if d.empty or "cipher" not in d.columns:
        sec.say("These data hold no TLS transfer measurements.")
        return sec
    sec.say(
        "A TLS transfer measures the whole record layer (cipher, MAC or tag, framing, copies) "
        "through one implementation. Cycles per byte (clock / throughput) make such figures "
        "comparable with the cipher benchmarks above: a TLS stack cannot move data faster than "
        "its cipher, so a gap of orders of magnitude points at the implementation, not the "
        "algorithm.")
    cpb = stats.cycles_per_byte(d)
    lines = []
    for _, r in cpb.iterrows():
        cycles = (f", {r['cycles_per_byte']:.3g} cycles per byte at "
                  f"{r['clock_hz'] / 1e9:.3g} GHz" if pd.notna(r["cycles_per_byte"]) else "")
        lines.append(f"<b>{esc(r['algorithm'])}</b> ({esc(r['tool'])} {esc(r['tool_version'])}"
                     f", {esc(r[MACHINE])}): "
                     f"{esc(rate_text(r['bytes_per_s']))}{cycles}")
    sec.items(lines)
    ciphers = unique_values(d["cipher"])
    for a, b in GCM_CBC_PAIRS:
        if not {a, b} <= set(ciphers):
            continue
        keys = [*experiment_keys(d, by="cipher"), "block_bytes"]
        res = stats.compare(d, by="cipher", baseline=b, candidate=a, groupby=keys)
        for _, r in res.iterrows():
            where = describe({k: r[k] for k in keys if k != "block_bytes"})
            test = ("one value per side: a descriptive ratio, no test" if r["test"] == "single value"
                    else f"{r['test']}, {p_text(r['p_adjusted'])}")
            sec.say(f"Over TLS ({esc(where)}), {esc(a)} moves data at {ratio_text(r)} the rate "
                    f"of {esc(b)} ({test}).{_scale(df, a, r.get(MACHINE))}")
            sec.findings.append(f"<b>TLS, {esc(where)}</b>: {esc(a)} at {ratio_text(r)} the "
                                f"throughput of {esc(b)}.")
    reference = {c: r for c in ciphers if (r := _alone(df, c)) is not None}
    sec.blocks.append(w.figure(
        "tls-transfers", lambda ax: plots.transfers(d, reference=reference, palette=w.colours,
                                                    label=[MACHINE, "tool", "cipher"], ax=ax),
        "Throughput over TLS by record cipher (median of the transfers, whisker their range)"
        + (", with the cipher's own rate on one core in these data (black tick: openssl speed "
           "at 16 KiB, the TLS record size). A bar far below its tick is the implementation, "
           "not the cipher." if reference else "; no cipher benchmark in these data to set "
           "beside it."), aspect=0.18 + 0.07 * d.groupby([MACHINE, "tool", "cipher"],
                                                        observed=True).ngroups))
    sec.blocks.append(w.table(
        "tls-transfers", cpb, "TLS transfer throughput with cycles per byte where the clock is "
        "known.", [MACHINE, "tool", "tool_version", "algorithm", "cipher",
                   "protocol", "bytes_per_s", "clock_hz", "cycles_per_byte"]))
    return sec


def _scale(df: pd.DataFrame, cipher: str, machine) -> str:
    """The fastest one-core cipher benchmark of ``cipher`` in the data (the same machine first)."""
    best = df[df["algorithm"].astype("object").eq(cipher) & df["bytes_per_s"].notna()
              & ~df["operation"].astype("object").eq("transfer") & df["flag"].isna()]
    if "multi" in best.columns:  # one process, like a TLS connection
        best = best[best["multi"].isna() | (best["multi"] <= 1)]
    same = best[best[MACHINE].astype("object") == machine]
    best = same if len(same) else best
    if best.empty:
        return ""
    top = best.loc[best["bytes_per_s"].idxmax()]
    key = {k: top[k] for k in (MACHINE, "tool", "tool_version") if k in top.index}
    return (f" For scale: the cipher benchmarks in these data reach "
            f"{esc(rate_text(top['bytes_per_s']))} for {esc(cipher)} on one core "
            f"({esc(describe(key))}{'' if len(same) else ', another machine'}).")


def _alone(df: pd.DataFrame, cipher: str):
    """The cipher's best one-core ``openssl speed`` rate at the TLS record size, if measured."""
    from cipherlab.algorithms import TLS_RECORD_BYTES

    rows = df[df["algorithm"].astype("object").eq(cipher) & df["bytes_per_s"].notna()
              & df["block_bytes"].eq(TLS_RECORD_BYTES).fillna(False)
              & df["tool"].astype("object").eq("openssl") & df["flag"].isna()]
    if "multi" in rows.columns:
        rows = rows[rows["multi"].isna() | (rows["multi"] <= 1)]
    if "aesni" in rows.columns:
        rows = rows[rows["aesni"].isna() | (rows["aesni"] == "on")]
    return float(rows["bytes_per_s"].max()) if len(rows) else None
