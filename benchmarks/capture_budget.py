"""Time to an answer: seconds of capture until the AES-NI on/off ratio has a ±2 % interval.

The question: how much faster is aes-128-gcm at 16384 bytes with AES-NI than without? Two plain
``openssl speed -evp aes-128-gcm`` runs (one with ``OPENSSL_ia32cap`` set) take 2 x 6 sizes x 3 s
= 36 s and give one ratio with no interval at all. cipherlab captures only the cell asked about,
one ``-seconds 1`` process per condition and repeat, interleaved (native / no-aesni pairs), and
adds one repeat per side at a time (``resume=True`` into the same folder) until the 95 %
confidence interval of the ratio is narrower than ±2 % of it.

Interval: Welch's t on the log rates (ratio = exp(mean log on - mean log off); the interval is
exp of the Welch interval of that difference, Welch-Satterthwaite degrees of freedom), computed
here with scipy; ``cipherlab.stats.speedup(test="welch")`` is printed beside it when present.

Usage: python benchmarks/capture_budget.py [--target 0.02] [--min-repeats 3] [--max-repeats 12]
The machine is shared: the load average is printed with the figures; run it twice if noisy.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from scipy import stats

import cipherlab


def welch_log_ratio(on: np.ndarray, off: np.ndarray, alpha: float = 0.05):
    """(ratio, low, high) of mean(on)/mean(off) on the log scale, Welch interval."""
    a, b = np.log(on), np.log(off)
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1)) if se > 0 else math.inf
    t = stats.t.ppf(1 - alpha / 2, df)
    d = a.mean() - b.mean()
    return math.exp(d), math.exp(d - t * se), math.exp(d + t * se)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", type=float, default=0.02, help="half-width, as a share of the ratio")
    ap.add_argument("--min-repeats", type=int, default=3,
                    help="check the interval from this many repeats per side on (2 is valid but "
                         "its width is itself very uncertain)")
    ap.add_argument("--max-repeats", type=int, default=12)
    ap.add_argument("--seconds", type=int, default=1)
    args = ap.parse_args()
    load0 = os.getloadavg()
    out = Path(tempfile.mkdtemp(prefix="budget-"))
    t0 = time.perf_counter()
    rows = []
    for n in range(2, args.max_repeats + 1):  # the table shows every step from 2
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            df = cipherlab.capture("aes-128-gcm", sizes=[16384], seconds=args.seconds, repeats=n,
                                   isa="native,no-aesni", out=out, resume=True, progress=False)
        elapsed = time.perf_counter() - t0
        on = df.loc[df["aesni"] == "on", "bytes_per_s"].to_numpy(float)
        off = df.loc[df["aesni"] == "off", "bytes_per_s"].to_numpy(float)
        ratio, low, high = welch_log_ratio(on, off)
        half = max(ratio - low, high - ratio) / ratio
        rows.append((n, elapsed, ratio, low, high, half))
        if half < args.target and n >= args.min_repeats:
            break
    runs = [json.loads(line) for line in (out / "runs.jsonl").read_text().splitlines()]

    print(f"openssl {cipherlab.host_info()['openssl_version']}, aes-128-gcm, 16384 bytes, "
          f"-seconds {args.seconds} per run; load average before {load0[0]:.2f}, after "
          f"{os.getloadavg()[0]:.2f} (2 cores, shared)")
    print()
    print("| repeats per side | capture seconds | ratio on/off | 95 % CI | half-width |")
    print("|---:|---:|---:|---:|---:|")
    for n, elapsed, ratio, low, high, half in rows:
        print(f"| {n} | {elapsed:.1f} | {ratio:.2f} | [{low:.2f}, {high:.2f}] | ±{half:.1%} |")
    n, elapsed, ratio, low, high, half = rows[-1]
    print()
    verdict = "reached" if half < args.target else "NOT reached"
    print(f"target ±{args.target:.0%} {verdict} after {elapsed:.1f} s of capture ({len(runs)} "
          f"openssl runs, {sum(r['wall_s'] for r in runs):.1f} s inside openssl), vs 36 s for two "
          f"default `openssl speed -evp aes-128-gcm` runs that give one ratio and no interval.")
    try:
        sp = cipherlab.stats.speedup(df, by="aesni", on="on", off="off", test="welch")
        r = sp.iloc[0]
        print(f"cipherlab.stats.speedup(test='welch'): {r['ratio']:.2f} "
              f"[{r['ci_low']:.2f}, {r['ci_high']:.2f}]")
    except Exception as err:  # stats is another part: report, do not fail the figure
        print(f"(cipherlab.stats.speedup unavailable: {err})")


if __name__ == "__main__":
    main()
