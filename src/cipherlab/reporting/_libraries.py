"""The cross-library section: the same cipher through the openssl CLI, ``cryptography`` (its
bundled OpenSSL), GnuTLS and the JDK's SunJCE, on one machine, under the same ISA presets."""

from __future__ import annotations

import pandas as pd

from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._words import esc, ratio_text, unique_values
from cipherlab.runners._isa import isa_sides

#: The libraries side by side, reference first; ``tool`` values of their rows.
LIBRARIES = ("openssl", "cryptography", "gnutls", "jdk")
_NAMES = {"openssl": "openssl CLI", "cryptography": "cryptography", "gnutls": "GnuTLS",
          "jdk": "JDK (SunJCE)"}


def library_rows(df: pd.DataFrame) -> pd.DataFrame:
    """Cipher rows of the libraries, one machine's, under ISA conditions only (JVM intrinsic
    switches are the seed's experiment, not the library as shipped), with a ``library`` label
    that names the version: ``openssl CLI 3.0.19``, ``cryptography 50.0.2 (OpenSSL 4.0.3)``,
    ``GnuTLS 3.7.9``, ``JDK (SunJCE) 17.0.15``."""
    if not {"tool", "tool_version", "isa"} <= set(df.columns):
        return df.iloc[:0].assign(library=pd.Series(dtype="category"))
    d = df[df["tool"].astype("object").isin(LIBRARIES) & df["bytes_per_s"].notna()
           & df["flag"].isna() & df["operation"].astype("object").isin(["encrypt", "digest"])
           & df["isa"].notna()]
    if "jvm" in d.columns:  # the JDK as shipped, or under an ISA preset only
        jvm = d["jvm"].astype("object")
        d = d[jvm.isna() | jvm.eq(d["isa"].astype("object"))]
    if "host" in d.columns and d["host"].nunique() > 1:  # one machine: the one with most libraries
        counts = d.groupby("host", observed=True)["tool"].nunique()
        d = d[d["host"].astype("object").eq(counts.idxmax())]
    backend = (d["backend"] if "backend" in d.columns else pd.Series(pd.NA, index=d.index))
    backend = backend.astype("string").str.extract(r"(OpenSSL \S+)", expand=False).astype("object")
    # (as objects: a str column plus one of only NaN, a dump without a version, is a TypeError)
    name = (d["tool"].astype("object").map(_NAMES).astype("object") + " "
            + d["tool_version"].astype("object"))
    return d.assign(library=(name + (" (" + backend + ")").fillna("")).astype("category"))


def libraries(df: pd.DataFrame, w: Writer) -> Section:
    from cipherlab import plots, stats

    sec = Section("libraries", "One machine, four libraries: the same cipher, side by side")
    d = library_rows(df)
    tools = [t for t in LIBRARIES if t in set(d["tool"].astype("object"))]
    if len(tools) < 2 or "openssl" not in tools:
        sec.say("These data hold no capture of the openssl CLI beside another library on the "
                "same machine (<code>capture_python</code>, <code>capture_gnutls</code>, "
                "<code>capture_jca</code>).")
        return sec
    host = unique_values(d["host"])[0] if "host" in d.columns else "one machine"
    versions = ", ".join(esc(v) for v in unique_values(d["library"]))
    sec.say(
        f"The same algorithms measured on {esc(host)} through {versions}, each a separate process "
        "per repeat, under the same ISA presets (<code>isa</code>: <code>OPENSSL_ia32cap</code> "
        "for OpenSSL, <code>GNUTLS_CPUID_OVERRIDE</code> + <code>NETTLE_FAT_OVERRIDE</code> for "
        "GnuTLS, <code>-XX:-UseAES -XX:-UseCLMUL</code> for HotSpot). What each switched off, "
        "per library: " + "; ".join(
            f"<code>isa={esc(isa)}</code> {esc(_NAMES[tool])}: {esc(', '.join(unique_values(s)))}"
            for (isa, tool), s in isa_sides(d).groupby(
                [d["isa"].astype("object"), d["tool"].astype("object")], sort=False)
            if isa != "native") + ". Each ratio is a library's "
        "throughput over the openssl CLI's in the same cell (Welch on log rates over the repeats, "
        "Holm-adjusted): below 1 the library loses to the C loop of <code>openssl speed</code>, "
        "by the per-call cost of its API at small sizes and by its code at large ones.")
    # (`library` names the tool compared, for the text: no condition of its own)
    res = stats.speedup(d.drop(columns="library"), by="tool",
                        on=[t for t in tools if t != "openssl"], off="openssl",
                        groupby=["algorithm", "operation", "block_bytes", "isa"])
    if res.empty:
        sec.say("No cell was measured by the openssl CLI and another library alike.")
        return sec
    lines = []
    for (tool, isa), rows in res.groupby(["candidate", "isa"], observed=True, sort=False):
        big = rows[rows["block_bytes"] == rows["block_bytes"].max()]
        lines.append(f"<b>{esc(_NAMES[tool])}</b>, isa={esc(isa)}, at "
                     f"{int(big['block_bytes'].iloc[0])} bytes: " + "; ".join(
                         f"{esc(r['algorithm'])} {ratio_text(r)}" for _, r in big.iterrows()))
    sec.items(lines)
    top = res[res["block_bytes"] == res["block_bytes"].max()]
    worst = top.loc[top["ratio"].idxmin()]
    sec.findings.append(
        f"<b>Libraries</b>: at {int(worst['block_bytes'])} bytes the slowest against the openssl "
        f"CLI is {esc(_NAMES[worst['candidate']])} for {esc(worst['algorithm'])} under "
        f"isa={esc(worst['isa'])}, at {ratio_text(worst)} its rate.")
    size = int(d["block_bytes"].max())
    d = d.assign(**{"library · ISA": d["library"].astype("object") + " · isa="
                    + d["isa"].astype("object")})
    sec.blocks.append(w.figure(
        "libraries-heatmap",
        lambda ax: plots.heatmap(d, rows="library · ISA", columns="algorithm",
                                 block_bytes=size, ax=ax),
        f"Median throughput per library and ISA preset at {size}-byte messages (colour on a "
        f"log scale); blank: not measured by that library.",
        aspect=0.3 + 0.06 * d["library · ISA"].nunique()))
    sec.blocks.append(w.table(
        "libraries", res.rename(columns={"candidate": "library"}),
        "Each library's throughput over the openssl CLI's, per algorithm, message size and ISA "
        "preset.",
        ["algorithm", "operation", "block_bytes", "isa", "library", "baseline", "ratio",
         "ci_low", "ci_high", "p_adjusted", "n_candidate", "n_baseline"]))
    return sec
