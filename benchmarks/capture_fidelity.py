"""Fidelity of cipherlab.capture: same numbers as a plain `openssl speed`, almost no added time.

Prints two figures (README, "Capture"):

1. For aes-128-gcm and aes-128-cbc at 16 and 16384 bytes: the median of cipherlab's repeats vs
   the number a plain ``openssl speed -evp ALG`` run prints in its table (target: within 3 %).
   The plain run is parsed here with a regex of its own, not with cipherlab.
   The plain run is one sample: on a busy machine its own noise is a few per cent, which the
   min-max of cipherlab's repeats (also printed) shows.
2. Wall time of the capture vs the sum of the wall times of the ``openssl`` processes it ran
   (target: within 10 %): what cipherlab adds (probes, ``openssl version -a`` per condition,
   parsing, writing the folder after each run).

Usage: python benchmarks/capture_fidelity.py [--seconds 3] [--repeats 3]
The machine is shared: the load average is printed with the figures; run it twice if noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

import cipherlab

ALGS = ("aes-128-gcm", "aes-128-cbc")
SIZES = (16, 16384)


def plain_run(alg: str, seconds: int) -> dict[int, float]:
    """bytes/s per block size from a plain `openssl speed -evp ALG` table (k = 1000 bytes/s)."""
    out = subprocess.run(["openssl", "speed", "-seconds", str(seconds), "-evp", alg],
                         capture_output=True, text=True, check=True).stdout
    header = re.search(r"^type((?:\s+\d+ bytes)+)", out, re.M)
    sizes = [int(s) for s in re.findall(r"(\d+) bytes", header[1])]
    row = re.search(rf"^{re.escape(alg)}\s+(.*)$", out, re.M | re.I)
    values = [float(v[:-1]) * 1e3 if v.endswith("k") else float(v) for v in row[1].split()]
    return dict(zip(sizes, values))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    load0 = os.getloadavg()

    plain = {alg: plain_run(alg, args.seconds) for alg in ALGS}

    out = Path(tempfile.mkdtemp(prefix="fidelity-"))
    t0 = time.perf_counter()
    df = cipherlab.capture(list(ALGS), sizes=list(SIZES), seconds=args.seconds,
                           repeats=args.repeats, isa="native", out=out, progress=False)
    wall = time.perf_counter() - t0
    runs = [json.loads(line) for line in (out / "runs.jsonl").read_text().splitlines()]
    openssl_s = sum(r["wall_s"] for r in runs)

    print(f"openssl {cipherlab.host_info()['openssl_version']}, -seconds {args.seconds}, "
          f"{args.repeats} repeats per cell; load average before {load0[0]:.2f}, "
          f"after {os.getloadavg()[0]:.2f} (2 cores, shared)")
    print()
    print("| algorithm | bytes | plain `openssl speed -evp` (MB/s) | cipherlab median (MB/s) "
          "| difference | cipherlab repeats min-max |")
    print("|---|---:|---:|---:|---:|---:|")
    worst = 0.0
    for alg in ALGS:
        for size in SIZES:
            cell = df[(df["algorithm"] == alg) & (df["block_bytes"] == size)]["bytes_per_s"]
            med, ref = cell.median(), plain[alg][size]
            diff = med / ref - 1
            worst = max(worst, abs(diff))
            print(f"| {alg} | {size} | {ref / 1e6:,.1f} | {med / 1e6:,.1f} | {diff:+.1%} | "
                  f"{cell.min() / 1e6:,.1f}-{cell.max() / 1e6:,.1f} |")
    print()
    print(f"worst difference: {worst:.1%} (target 3 %)")
    print(f"capture wall time {wall:.1f} s for {len(runs)} openssl runs taking {openssl_s:.1f} s: "
          f"cipherlab adds {wall - openssl_s:.2f} s = {wall / openssl_s - 1:+.1%} (target 10 %)")


if __name__ == "__main__":
    main()
