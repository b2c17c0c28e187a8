"""The TLS section: whole-protocol transfer throughput."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from cipherlab.algorithms import GCM_CBC_PAIRS
from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._words import describe_short, esc, rate_text, ratio_text, unique_values


def transfers(df: pd.DataFrame, w: Writer) -> Section:
    from cipherlab import stats

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
                     f", {esc(r['host']) if 'host' in r.index else esc(r['label'])}): "
                     f"{esc(rate_text(r['bytes_per_s']))}{cycles}")
    sec.items(lines)
    ciphers = unique_values(d["cipher"])
    for a, b in GCM_CBC_PAIRS:
        if {a, b} <= set(ciphers):
            keys = [k for k in ("source", "tool", "protocol") if k in d.columns]
            res = stats.compare(d, by="cipher", baseline=b, candidate=a, groupby=keys)
            for _, r in res.iterrows():
                best = df[df["algorithm"].astype("object").eq(a) & df["bytes_per_s"].notna()
                          & ~df["operation"].astype("object").eq("transfer") & df["flag"].isna()]
                if "multi" in best.columns:  # one process, like a TLS connection
                    best = best[best["multi"].isna() | (best["multi"] <= 1)]
                ref = ""
                if len(best):
                    top = best.loc[best["bytes_per_s"].idxmax()]
                    ref = (f" For scale: the cipher benchmarks in these data reach "
                           f"{esc(rate_text(top['bytes_per_s']))} for {esc(a)} on one core "
                           f"({esc(describe_short(df, top['source']))}).")
                sec.say(f"Over TLS ({esc(r['source'])}), {esc(a)} moves data at "
                        f"{ratio_text(r)} the rate of {esc(b)} (one value per side: a descriptive "
                        f"ratio, no test).{ref}")
                sec.findings.append(
                    f"<b>TLS, {esc(Path(str(r['source'])).name)}</b>: {esc(a)} at "
                    f"{ratio_text(r)} the throughput of {esc(b)}.")
    sec.blocks.append(w.table(
        "tls-transfers", cpb, "TLS transfer throughput with cycles per byte where the clock is "
        "known.", ["source", "line", "label", "tool", "tool_version", "algorithm", "cipher",
                   "protocol", "bytes_per_s", "clock_hz", "cycles_per_byte"]))
    return sec
