"""Time to an answer: seconds of capture until the AES-NI on/off ratio has a ±2 % interval.

The question: how much faster is aes-128-gcm at 16384 bytes with AES-NI than without? Two plain
``openssl speed -evp aes-128-gcm`` runs (one with ``OPENSSL_ia32cap`` set) take 2 x 6 sizes x 3 s
= 36 s and give one ratio with no interval at all. ``cipherlab.capture(precision="2%")`` captures
only the cell asked about, one ``-seconds 1`` process per condition and repeat, interleaved
(native / no-aesni pairs), and stops once the 95 % interval of the ratio over the pairs is
within ±2 % (the sequential design of ``runners._sequential``: at least 6 pairs, one warm-up run
discarded). ``cipherlab.stats.speedup(test="welch")`` is printed beside it.

Usage: python benchmarks/capture_budget.py [--target 2%] [--max-time 300] [--seconds 1]
The machine is shared: the load average is printed with the figures; run it twice if noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
import warnings
from pathlib import Path

import cipherlab


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", default="2%", help="half-width, as a share of the ratio")
    ap.add_argument("--max-time", type=float, default=300)
    ap.add_argument("--seconds", type=int, default=1)
    args = ap.parse_args()
    load0 = os.getloadavg()
    out = Path(tempfile.mkdtemp(prefix="budget-"))
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.capture("aes-128-gcm", sizes=[16384], seconds=args.seconds,
                               isa="native,no-aesni", precision=args.target,
                               max_time=args.max_time, out=out, progress=False)
    elapsed = time.perf_counter() - t0
    st = df.attrs["stopping"]
    iv = st["widest"]
    runs = [json.loads(line) for line in (out / "runs.jsonl").read_text().splitlines()]
    print(f"openssl {cipherlab.host_info()['openssl_version']}, aes-128-gcm, 16384 bytes, "
          f"-seconds {args.seconds} per run; load average before {load0[0]:.2f}, after "
          f"{os.getloadavg()[0]:.2f} (2 cores, shared)")
    ratio = 1 / iv["ratio"]  # the interval is no-aesni / native: print native / no-aesni
    print("| pairs | capture seconds | ratio on/off | 95 % CI | stopped by |")
    print(f"| {st['pairs']} | {elapsed:.1f} | {ratio:.2f} | [{1 / iv['high']:.2f}, "
          f"{1 / iv['low']:.2f}] (±{iv['half_width']:.1%}) | {st['stopped']} |")
    print(f"{len(runs)} openssl runs ({sum(r['wall_s'] for r in runs):.1f} s inside openssl) + 1 "
          f"warm-up, vs 36 s for two default `openssl speed -evp aes-128-gcm` runs that give one "
          f"ratio and no interval.")
    try:
        sp = cipherlab.stats.speedup(df, by="aesni", on="on", off="off", test="welch")
        r = sp.iloc[0]
        print(f"cipherlab.stats.speedup(test='welch'): {r['ratio']:.2f} "
              f"[{r['ci_low']:.2f}, {r['ci_high']:.2f}]")
    except Exception as err:  # stats is another part: report, do not fail the figure
        print(f"(cipherlab.stats.speedup unavailable: {err})")


if __name__ == "__main__":
    main()
