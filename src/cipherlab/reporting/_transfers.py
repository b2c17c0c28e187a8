"""The TLS section: whole-protocol transfer throughput."""

from __future__ import annotations

import pandas as pd

from cipherlab.algorithms import GCM_CBC_PAIRS
from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._select import MACHINE, describe, experiment_keys
from cipherlab.reporting._words import esc, p_text, rate_text, ratio_text, unique_values
from cipherlab.runners._isa import all_on


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
            test = ("one run per side: a descriptive ratio, no test" if r["test"] == "no replication"
                    else f"{r['test']}, {p_text(r['p_adjusted'])}")
            sec.say(f"Over TLS ({esc(where)}), {esc(a)} moves data at {ratio_text(r)} the rate "
                    f"of {esc(b)} ({test}).{_scale(df, a, r.get(MACHINE))}")
            sec.findings.append(f"<b>TLS, {esc(where)}</b>: {esc(a)} at {ratio_text(r)} the "
                                f"throughput of {esc(b)}.")
    _seed_on_the_jdk(df, d, sec, w)
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
    rows = rows[all_on(rows)]  # nothing switched off
    return float(rows["bytes_per_s"].max()) if len(rows) else None


#: measured / predicted from which a transfer counts as bound by its cipher.
CIPHER_BOUND = 0.8
SEED_RATIO = 5.2 / 100  # the OpenJDK seed's GCM / CBC over JSSE (OpenJDK 8 b124)


def _seed_on_the_jdk(df: pd.DataFrame, transfers: pd.DataFrame, sec: Section, w: Writer) -> None:
    """The OpenJDK seed re-run on the JDK: GCM / CBC over JSSE and in SunJCE alone, per JVM
    condition, and whether the transfers were bound by the cipher."""
    from cipherlab import stats

    jsse = transfers[transfers["tool"].astype("object").eq("jsse")]
    if jsse.empty or "jvm" not in jsse.columns:
        return
    keys = ["tool_version", "jvm", "operation", "block_bytes"]
    over_tls = stats.compare(jsse, by="cipher", baseline="aes-128-cbc", candidate="aes-128-gcm",
                             groupby=keys)
    jca = df[df["tool"].astype("object").eq("jdk") & df["bytes_per_s"].notna()
             & df["block_bytes"].eq(16384)]
    alone = (stats.compare(jca, by="algorithm", baseline="aes-128-cbc", candidate="aes-128-gcm",
                           groupby=keys) if len(jca) else pd.DataFrame(columns=["jvm"]))
    bound = {}
    if len(jca):
        try:
            pred = stats.predict_tls(jsse, jca, on="jvm")
            bound = (pred.astype({"cipher": object, "jvm": object})
                     .groupby(["jvm", "cipher"])["measured_over_predicted"].median().to_dict())
        except Exception as err:  # noqa: BLE001 - the section says why instead of failing
            sec.say(f"No record-layer prediction for the JSSE rows: {esc(err)}")
    sec.say(
        "<b>The OpenJDK seed on the JDK itself.</b> The seed sent 100 MiB over JSSE and got GCM at "
        f"{SEED_RATIO:.3f} of CBC's rate (5.2 against 100 MiB/s, OpenJDK 8 b124, pure-Java GHASH). "
        "Here the same experiment ran on this machine's JDK (<code>capture_tls(backend='jsse')</code>"
        ", 1 MiB writes, the receiver timing first to last byte) under HotSpot switches: "
        "<code>native</code> is today's JDK, <code>seed-era</code> switches off the GHASH and "
        "AES-CTR intrinsics the seed's JDK did not have yet. Ratios are GCM / CBC with Welch "
        "intervals over the repeats (separate JVM pairs).")
    lines = []
    for _, r in over_tls.iterrows():
        prim = alone[alone["jvm"].astype("object").eq(r["jvm"])] if len(alone) else alone
        prim_text = (f"; the SunJCE ciphers alone at 16 KiB (<code>capture_jca</code>): "
                     f"{ratio_text(prim.iloc[0])}" if len(prim) else "")
        shares = [bound.get((r["jvm"], c)) for c in ("aes-128-gcm", "aes-128-cbc")]
        shares = [v for v in shares if v is not None and pd.notna(v)]
        how = ("" if not shares else
               f"; measured / predicted {min(shares):.2f}-{max(shares):.2f}: "
               + ("cipher-bound" if min(shares) >= CIPHER_BOUND else "<b>not</b> cipher-bound"))
        lines.append(f"<b>{esc(r['jvm'])}</b> (JDK {esc(r['tool_version'])}): GCM / CBC over "
                     f"JSSE {ratio_text(r)} (n = {int(r['n_candidate'])} + "
                     f"{int(r['n_baseline'])}){prim_text}{how}")
    sec.items(lines)
    for jvm, word in (("seed-era", "with the GHASH intrinsic off"), ("native", "on today's JDK")):
        row = over_tls[over_tls["jvm"].astype("object").eq(jvm)]
        if row.empty:
            continue
        r = row.iloc[0]
        far = r["ci_high"] < 0.5
        sec.findings.append(
            f"<b>OpenJDK seed, {esc(jvm)}</b>: {word} GCM moves "
            f"{'far below' if far else 'not far below' if r['ci_low'] > 0.5 else 'below'} CBC "
            f"over JSSE, at {ratio_text(r)} its rate (the seed: {SEED_RATIO:.3f}).")
    sec.blocks.append(w.table(
        "jsse-gcm-over-cbc", pd.concat([over_tls.assign(measured="JSSE transfer"),
                                        alone.assign(measured="SunJCE at 16 KiB")]),
        "GCM / CBC per JVM condition: over a JSSE transfer and in the SunJCE ciphers alone.",
        ["measured", "tool_version", "jvm", "ratio", "ci_low", "ci_high", "p_adjusted",
         "n_candidate", "n_baseline"]))
