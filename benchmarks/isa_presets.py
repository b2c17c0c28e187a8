"""The README's ISA preset table: what each preset switches off and what it does to the rates.

For every preset of ``cipherlab.ISA_PRESETS``, ``openssl speed`` (``cipherlab.capture``) and the
``cryptography`` package (``cipherlab.capture_python``) time aes-128-gcm, aes-128-cbc and
chacha20-poly1305 at 16384 bytes, conditions interleaved, ``--repeats`` processes each. Prints the
median MB/s per preset, the ``isa_off`` each run recorded (what the mask switched off against
native), the verdicts of the behaviour check (``_plan.verify_presets``), and the load average.

Usage: python benchmarks/isa_presets.py [--repeats 3] [--seconds 1]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import warnings

import cipherlab

ALGS = ["aes-128-gcm", "aes-128-cbc", "chacha20-poly1305"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=1)
    args = ap.parse_args()
    presets = ",".join(cipherlab.ISA_PRESETS)
    print(f"load average before: {os.getloadavg()}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with tempfile.TemporaryDirectory() as tmp:
            ossl = cipherlab.capture(ALGS, sizes=[16384], seconds=args.seconds,
                                     repeats=args.repeats, isa=presets, out=f"{tmp}/o",
                                     progress=False)
            py = cipherlab.capture_python(ALGS, sizes=[16384], seconds=args.seconds / 2,
                                          repeats=args.repeats, isa=presets, out=f"{tmp}/p",
                                          operations="encrypt", progress=False)
    print(f"load average after: {os.getloadavg()}")
    df = cipherlab.concat([ossl, py])
    df = df[df["flag"].isna()]
    table = (df.assign(MB_s=df["bytes_per_s"] / 1e6)
             .astype({"tool": "object", "algorithm": "object", "isa": "object"})
             .pivot_table(index="isa", columns=["tool", "algorithm"], values="MB_s",
                          aggfunc="median").reindex(list(cipherlab.ISA_PRESETS)))
    print(table.round(0).to_string())
    off = df.astype({"tool": "object", "isa": "object", "isa_off": "object"}).groupby(
        ["tool", "isa"])["isa_off"].first()
    print(off.to_string())
    for w in caught:
        if "did not change" in str(w.message) or "too few" in str(w.message):
            print("check:", w.message)


if __name__ == "__main__":
    main()
