"""Print how long each cipherlab.stats function takes on a 100,000-row tidy table.

Target (issue 4): every function under 1 s. The table is synthetic but shaped like a capture:
20 hosts x AES-NI on/off x 25 algorithms x 5 block sizes x 20 repeats (each repeat its own run),
log-normal noise around affine per-call costs. Run:

    .venv/bin/python benchmarks/stats_speed.py [--rows 100000] [--best-of 3]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd

import cipherlab.stats as st
from cipherlab.model import coerce

SIZES = np.array([16, 64, 256, 1024, 8192])


def make_table(rows: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    algos = [f"aes-{k}-{m}" for k in (128, 192, 256) for m in ("cbc", "gcm", "ctr", "ocb", "xts",
                                                                 "ccm", "ofb", "cfb")] + ["chacha20"]
    hosts, repeats = 20, max(1, rows // (20 * 2 * len(algos) * len(SIZES)))
    grid = pd.MultiIndex.from_product(
        [[f"host-{i:02d}" for i in range(hosts)], ["on", "off"], algos, range(repeats), SIZES],
        names=["host", "aesni", "algorithm", "repeat", "block_bytes"]).to_frame(index=False)
    t0 = np.where(grid["algorithm"].str.contains("gcm|ocb|ccm"), 40.0, 5.0)
    c = np.where(grid["aesni"] == "on", 0.8, 3.5)
    n = grid["block_bytes"].to_numpy(float)
    t = (t0 + c * n) * rng.lognormal(0, 0.03, len(grid))
    df = grid.assign(source="bench.csv", run=grid.groupby(["host", "aesni", "repeat"]).ngroup(),
                     label=grid["host"] + " @ 3.0 GHz", operation="encrypt",
                     bytes_per_s=1e9 * n / t, tool="openssl", tool_version="3.0.19",
                     timing="cpu", name=grid["algorithm"].str.upper())
    return coerce(df)


def timed(fn, best_of):
    best = np.inf
    for _ in range(best_of):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--best-of", type=int, default=3)
    args = parser.parse_args()
    df = make_table(args.rows)
    one = df[df["repeat"] == 0]  # one value per cell, like a pasted dump
    cases = {
        "compare (welch, per cell)": lambda: st.compare(df, by="aesni", baseline="off",
                                                        groupby=["host", "algorithm",
                                                                 "operation", "block_bytes"]),
        "compare (mannwhitney)": lambda: st.compare(df, by="aesni", baseline="off",
                                                    groupby=["host", "algorithm", "operation",
                                                             "block_bytes"], test="mannwhitney"),
        "compare (permutation + BCa, 1000)": lambda: st.compare(
            df, by="aesni", baseline="off", groupby=["host", "algorithm", "operation",
                                                      "block_bytes"],
            test="permutation", n_boot=1000),
        "compare (brunnermunzel)": lambda: st.compare(df, by="aesni", baseline="off",
                                                      groupby=["host", "algorithm", "operation",
                                                               "block_bytes"],
                                                      test="brunnermunzel"),
        "compare (paired t over sizes)": lambda: st.compare(df, by="aesni", baseline="off",
                                                            groupby=["host", "algorithm",
                                                                     "operation", "block_bytes"],
                                                            paired=True),
        "compare (wilcoxon over sizes)": lambda: st.compare(one, by="aesni", baseline="off",
                                                            groupby=["host", "algorithm",
                                                                     "operation", "block_bytes"],
                                                            paired=True, test="mannwhitney"),
        "speedup": lambda: st.speedup(df),
        "ratio_test": lambda: st.ratio_test(df, by="aesni", baseline="off",
                                            groupby=["host", "algorithm", "operation",
                                                     "block_bytes"]),
        "cost_model": lambda: st.cost_model(df),
        "crossover": lambda: st.crossover(df, "aes-128-gcm", "aes-128-cbc"),
        "small_block_overhead": lambda: st.small_block_overhead(df),
        "per_ghz": lambda: st.per_ghz(df),
        "cycles_per_byte": lambda: st.cycles_per_byte(df),
        "comparable": lambda: st.comparable(df, by="aesni", groupby=["algorithm"]),
        "lint": lambda: st.lint(df),
    }
    print(f"cipherlab.stats on {len(df):,} rows ({df['run'].nunique():,} runs, "
          f"{df.groupby(['host', 'algorithm', 'block_bytes']).ngroups:,} cells); best of "
          f"{args.best_of}")
    print(f"{'function':36s} {'seconds':>8s}  result rows")
    results = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, fn in cases.items():
            seconds, out = timed(fn, args.best_of)
            results[name] = out
            print(f"{name:36s} {seconds:8.3f}  {len(out):,}")
        seconds, _ = timed(lambda: st.to_latex(results["speedup"]), args.best_of)
        print(f"{'to_latex (speedup result)':34s} {seconds:8.3f}")
        seconds, _ = timed(lambda: st.to_markdown(results["cost_model"]), args.best_of)
        print(f"{'to_markdown (cost_model result)':34s} {seconds:8.3f}")


if __name__ == "__main__":
    main()
