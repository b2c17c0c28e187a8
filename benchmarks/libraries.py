"""Print the cross-library and OpenJDK-seed figures of the README from a capture (default: the
bundled host-c captures, data/captures/host-c-libraries).

    python benchmarks/libraries.py [CAPTURE_FOLDER_OR_FILES...]

The figures are ratios with 95 % Welch intervals over separate-process repeats (stats.compare);
the load average of each capture is in its runs.jsonl (for the bundled ones: data README).
"""

from __future__ import annotations

import sys
import warnings

import pandas as pd

import cipherlab
from cipherlab import stats
from cipherlab.reporting._libraries import library_rows


def _ratio(r) -> str:
    return f"{r['ratio']:.3g} [{r['ci_low']:.3g}, {r['ci_high']:.3g}]"


def main(argv: list[str]) -> int:
    warnings.simplefilter("ignore")
    df = (cipherlab.concat([cipherlab.ingest(a) for a in argv]) if argv
          else cipherlab.datasets.load("captures/host-c-libraries"))
    d = library_rows(df)
    med = (d.astype({"library": str, "aesni": str, "algorithm": str})
           .groupby(["algorithm", "block_bytes", "library", "aesni"])["bytes_per_s"].median()
           .unstack(["aesni"]) / 1e6)
    pd.set_option("display.width", 160)
    print("median MB/s per library (AES-NI on / off)")
    print(med.round(1).to_string())
    others = [t for t in ("cryptography", "gnutls", "jdk") if t in set(d["tool"])]
    res = stats.speedup(d, by="tool", on=others, off="openssl",
                        groupby=["algorithm", "operation", "block_bytes", "aesni"])
    print("\nlibrary / openssl CLI at 16384 bytes [95% CI]")
    for _, r in res[res["block_bytes"] == 16384].iterrows():
        print(f"  {r['candidate']:>12} {r['algorithm']:<18} AES-NI {r['aesni']:<3} {_ratio(r)}")
    jsse = df[df["tool"].astype("object").eq("jsse")]
    jca = df[df["tool"].astype("object").eq("jdk") & df["block_bytes"].eq(16384)]
    if len(jsse):
        keys = ["jvm", "operation", "block_bytes"]
        print("\nOpenJDK seed: GCM / CBC [95% CI] (the seed: 0.052)")
        for what, frame, by in (("JSSE transfer", jsse, "cipher"), ("SunJCE 16 KiB", jca, "algorithm")):
            if frame.empty:
                continue
            for _, r in stats.compare(frame, by=by, baseline="aes-128-cbc",
                                      candidate="aes-128-gcm", groupby=keys).iterrows():
                print(f"  {what:<14} {r['jvm']:<20} {_ratio(r)}  n={int(r['n_candidate'])}+"
                      f"{int(r['n_baseline'])}")
        med = (jsse.astype({"cipher": str, "jvm": str}).groupby(["cipher", "jvm"])["bytes_per_s"]
               .agg(["median", "min", "max"]) / 1e6)
        print("\nJSSE MB/s (median, min, max)")
        print(med.round(1).to_string())
        if len(jca):
            pred = stats.predict_tls(jsse, jca, on="jvm")
            print("\nJSSE measured / predicted from SunJCE (median)")
            print(pred.astype({"cipher": str, "jvm": str}).groupby(["cipher", "jvm"])[
                "measured_over_predicted"].median().round(3).to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
