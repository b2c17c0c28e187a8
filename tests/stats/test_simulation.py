"""Calibration with hierarchical benchmark noise: every default path keeps its error rates.

The noise is that of real benchmarks (measurement-notes §4a): each run (process) has its own
offset (run-to-run sd drawn from 0-5 % per cell), repeats inside a run add 1 % noise, the
candidate side is twice as noisy as the baseline (unequal variance), and 5 % of runs have a
warm-up first repeat 10 % slower. Every default path must keep its type I error within
[0.035, 0.065] at alpha = 0.05 over >= 2000 simulated cells and its 95 % intervals must cover
within [0.93, 0.97]. The simulations are vectorised (one call analyses every simulated cell), so
the whole file takes seconds. Measured figures are printed (``pytest -s``) and quoted in the
README.
"""

import warnings

import numpy as np
import pandas as pd
import pytest

import cipherlab.stats as st

SIMS = 2000
TYPE_ONE = (0.035, 0.065)
COVER = (0.93, 0.97)
SIZES = np.array([16, 64, 256, 1024, 8192], float)


def runs(rng, cells, n, ratio=1.0, repeats=3, run_sd=(0.0, 0.05), rep_sd=0.01, unequal=2.0,
         warmup=0.05, warm_drop=0.10):
    """`cells` independent cells, `n` runs per side, `repeats` repeats per run."""
    sd = rng.uniform(*run_sd, cells)
    frames = []
    for k, (side, scale, shift) in enumerate((("on", unequal, np.log(ratio)), ("off", 1.0, 0.0))):
        offset = rng.normal(0, 1, (cells, n)) * (sd * scale)[:, None]
        y = 20 + shift + offset[..., None] + rng.normal(0, rep_sd * scale, (cells, n, repeats))
        y[..., 0] -= warm_drop * (rng.random((cells, n)) < warmup)
        cell, run, rep = np.indices(y.shape).reshape(3, -1)
        frames.append(pd.DataFrame({
            "source": "sim", "run": (k * cells + cell) * n + run, "repeat": rep,
            "algorithm": "aes-128-gcm", "operation": "encrypt", "block_bytes": cell,
            "aesni": side, "bytes_per_s": np.exp(y.ravel())}))
    return pd.concat(frames, ignore_index=True)


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.mark.parametrize("n", [3, 5, 10])
def test_compare_default_welch_on_runs(n):
    r = quiet(st.speedup, runs(np.random.default_rng(n), SIMS, n))
    assert (r["unit"] == "run").all() and (r["n_candidate"] == n).all()
    rate = (r["p_value"] < 0.05).mean()
    r2 = quiet(st.speedup, runs(np.random.default_rng(100 + n), SIMS, n, ratio=2.0))
    cover = ((r2["ci_low"] <= 2) & (2 <= r2["ci_high"])).mean()
    print(f"compare welch, {n} runs/side: type I {rate:.4f}, coverage {cover:.4f}")
    assert TYPE_ONE[0] <= rate <= TYPE_ONE[1] and COVER[0] <= cover <= COVER[1]


def test_pooling_repeats_as_replicates_is_what_inflates_the_error():
    # the same data with every repeat taken as its own unit: the old behaviour, now opt-in
    df = runs(np.random.default_rng(3), SIMS, 5)
    pooled = quiet(st.speedup, df, unit="repeat")
    rate = (pooled["p_value"] < 0.05).mean()
    print(f"repeats as units: type I {rate:.4f}")
    assert rate > 0.1 and (pooled["unit"] == "repeat").all()


@pytest.mark.parametrize("test, n", [("permutation", 8), ("permutation", 10),
                                     ("mannwhitney", 5), ("mannwhitney", 10),
                                     ("brunnermunzel", 8), ("brunnermunzel", 10)])
def test_other_tests_keep_their_level(test, n):
    r = quiet(st.speedup, runs(np.random.default_rng(7 + n), SIMS, n), test=test, n_boot=999)
    rate = (r["p_value"] < 0.05).mean()
    print(f"compare {test}, {n} runs/side: type I {rate:.4f}")
    assert TYPE_ONE[0] <= rate <= TYPE_ONE[1]


@pytest.mark.parametrize("test", ["permutation", "mannwhitney"])
def test_too_few_runs_say_so_instead_of_testing(test):
    # 3 vs 3 runs: the smallest two-sided p of an exact rank/permutation test is 2/20 = 0.1
    r = quiet(st.speedup, runs(np.random.default_rng(1), 50, 3, ratio=3.0), test=test)
    assert r["significant"].isna().all()
    if test == "mannwhitney":
        assert r["min_p"].to_numpy() == pytest.approx(0.1)
        assert r["note"].str.contains("cannot detect a difference").all()
    else:  # exchangeability fails with unequal spread: uncalibrated below 8 runs per side
        assert r["p_value"].isna().all() and r["note"].str.contains("needs >= 8 runs").all()


def test_bca_intervals_only_where_they_cover():
    r = quiet(st.speedup, runs(np.random.default_rng(5), 1000, 20, ratio=2.0),
              test="permutation", n_boot=999)
    cover = ((r["ci_low"] <= 2) & (2 <= r["ci_high"])).mean()
    print(f"BCa, 20 runs/side: coverage {cover:.4f}")
    assert COVER[0] <= cover <= COVER[1]
    small = quiet(st.speedup, runs(np.random.default_rng(5), 20, 8), test="permutation")
    assert small["ci_low"].isna().all() and small["note"].str.contains("BCa").all()


@pytest.mark.parametrize("n", [3, 5, 10])
def test_ratio_test_differs_and_equivalent_keep_their_level(n):
    # true ratio 2: "differs" errs at alpha; true ratio on the margin (2.2): "equivalent" errs
    r = quiet(st.ratio_test, runs(np.random.default_rng(20 + n), SIMS, n, ratio=2.0),
              by="aesni", baseline="off", expected=2.0, margin=0.1)
    differ = (r["p_value"] < 0.05).mean()
    edge = quiet(st.ratio_test, runs(np.random.default_rng(40 + n), SIMS, n, ratio=2.2),
                 by="aesni", baseline="off", expected=2.0, margin=0.1)
    false_eq = (edge["p_equivalence"] < 0.05).mean()
    inside = ((edge["tost_low"] >= 1.8) & (edge["tost_high"] <= 2.2)).mean()
    print(f"ratio_test, {n} runs/side: differs {differ:.4f}, false equivalent {false_eq:.4f}")
    assert TYPE_ONE[0] <= differ <= TYPE_ONE[1]
    assert false_eq <= TYPE_ONE[1] and inside == pytest.approx(false_eq, abs=1e-9)


def test_equivalence_is_adjusted_with_the_differences():
    # 15-cell grids whose ratio sits on the margin: unadjusted, a grid claims some false
    # "equivalent" about 1 - 0.95**15 of the time; adjusted in one family, at most alpha
    grids, cells = 300, 15
    df = runs(np.random.default_rng(9), grids * cells, 10, ratio=2.2, run_sd=(0.0, 0.01))
    r = quiet(st.ratio_test, df, by="aesni", baseline="off", expected=2.0, margin=0.1)
    raw = (r["p_equivalence"].to_numpy() < 0.05).reshape(grids, cells).any(axis=1).mean()
    fam = []
    for g in range(grids):
        part = r.iloc[g * cells:(g + 1) * cells]
        both = st.adjust_p(np.concatenate([part["p_value"], part["p_equivalence"]]))
        fam.append((both[cells:] < 0.05).any())
    print(f"false 'equivalent' per 15-cell grid: raw {raw:.3f}, adjusted {np.mean(fam):.3f}")
    assert raw > 0.3 and np.mean(fam) <= 0.05 + 0.03


def test_holm_controls_the_family_wise_error_on_a_grid():
    families, per_family = 1000, 15
    df = runs(np.random.default_rng(5), families * per_family, 5)
    r = quiet(st.speedup, df)
    p = r["p_value"].to_numpy().reshape(families, per_family)
    fwer_holm = (np.vstack([st.adjust_p(row, "holm") for row in p]) < 0.05).any(axis=1).mean()
    fwer_raw = (p < 0.05).any(axis=1).mean()
    print(f"FWER over {families} grids of {per_family}: raw {fwer_raw:.3f}, Holm {fwer_holm:.3f}")
    assert fwer_holm <= 0.05 + 0.02 and fwer_raw > 0.35


def test_bh_controls_the_false_discovery_rate():
    rng = np.random.default_rng(9)
    nulls, alts = 12, 8
    p = np.concatenate([rng.uniform(size=(400, nulls)), rng.beta(0.1, 5, size=(400, alts))], 1)
    fdp = []
    for row in p:
        rejected = st.adjust_p(row, "bh") < 0.05
        fdp.append(rejected[:nulls].sum() / max(rejected.sum(), 1))
    assert np.mean(fdp) <= 0.05 * nulls / (nulls + alts) + 0.02


def lines(rng, sims, n_runs, algos=(("a", 40.0, 1.0), ("b", 4.0, 1.8)), repeats=3,
          run_sd=(0.0, 0.05), rep_sd=0.01, warmup=0.05, warm_drop=0.10, shared=True):
    """`sims` machines (``host``), each with `n_runs` runs measuring every size of both lines."""
    sd = rng.uniform(*run_sd, sims)
    offset = rng.normal(0, 1, (sims, n_runs)) * sd[:, None]
    frames = []
    for k, (algo, t0, c) in enumerate(algos):
        if not shared:  # each algorithm in its own runs
            offset = rng.normal(0, 1, (sims, n_runs)) * sd[:, None]
        shape = (sims, n_runs, SIZES.size, repeats)
        logt = (np.log(t0 + c * SIZES)[None, None, :, None] + offset[:, :, None, None]
                + rng.normal(0, rep_sd, shape))
        logt[..., 0] += warm_drop * (rng.random(shape[:3]) < warmup)
        sim, run, size, rep = np.indices(shape).reshape(4, -1)
        frames.append(pd.DataFrame({
            "source": "sim", "run": sim * n_runs + run + (0 if shared else k * sims * n_runs),
            "host": sim, "repeat": rep, "algorithm": algo, "operation": "encrypt",
            "block_bytes": SIZES[size].astype(int),
            "bytes_per_s": 1e9 * SIZES[size] / np.exp(logt.ravel())}))
    return pd.concat(frames, ignore_index=True)


@pytest.mark.parametrize("n_runs, shared", [(3, True), (5, True), (10, True), (3, False),
                                            (10, False)])
def test_cost_model_crossover_and_overhead_intervals_cover(n_runs, shared):
    df = lines(np.random.default_rng(n_runs + 10 * shared), SIMS, n_runs, shared=shared)
    fit = quiet(st.cost_model, df)
    a = fit[fit["algorithm"] == "a"]
    cov_t0 = ((a["t0_ci_low"] <= 40) & (40 <= a["t0_ci_high"])).mean()
    cov_c = ((a["c_ci_low"] <= 1) & (1 <= a["c_ci_high"])).mean()
    lof = (fit["lack_of_fit_p"] < 0.05).mean()
    x = quiet(st.crossover, df, "a", "b")
    cov_x = ((x["ci_low"] <= 45) & (45 <= x["ci_high"])).mean()
    # asked the other way round, the same crossing and interval (b overtakes a there)
    y = quiet(st.crossover, df, "b", "a")
    crossing = x["regime"] == "a overtakes b"
    assert (y.loc[crossing, "regime"] == "b overtakes a").all()
    for col in ("crossover_bytes", "ci_low", "ci_high"):
        np.testing.assert_allclose(y.loc[crossing, col], x.loc[crossing, col], rtol=1e-9)
    o = quiet(st.small_block_overhead, df, "a", "b")
    n = o["block_bytes"].to_numpy(float)
    share = 40 / (40 + n)
    cov_s = ((o["share_a_low"] <= share) & (share <= o["share_a_high"])).mean()
    ratio = (4 + 1.8 * n) / (40 + n)
    cov_r = ((o["ci_low"] <= ratio) & (ratio <= o["ci_high"])).mean()
    print(f"cost model, {n_runs} runs ({'shared' if shared else 'separate'}): t0 {cov_t0:.3f}, "
          f"c {cov_c:.3f}, lack-of-fit type I {lof:.3f}, crossover {cov_x:.3f}, share "
          f"{cov_s:.3f}, ratio {cov_r:.3f}")
    for value in (cov_t0, cov_c, cov_x, cov_s, cov_r):
        assert COVER[0] <= value <= COVER[1]
    assert TYPE_ONE[0] <= lof <= TYPE_ONE[1]


def test_cost_model_rejects_a_curve_and_says_so():
    # a cache step: every size above 1 KiB 15 % slower per byte than the line below it
    df = lines(np.random.default_rng(3), 200, 5, algos=(("a", 40.0, 1.0),))
    big = df["block_bytes"] > 1024
    df.loc[big, "bytes_per_s"] /= 1.15
    with pytest.warns(Warning, match="straight line .* is rejected"):
        fit = st.cost_model(df)
    assert (fit["lack_of_fit_p"] < 0.05).mean() > 0.9 and (fit["max_misfit"] > 0.03).all()
    assert fit["residuals"].str.contains("8192:").all()


def test_one_run_gives_no_intervals():
    df = lines(np.random.default_rng(4), 5, 1)
    fit = quiet(st.cost_model, df)
    assert fit["t0_ci_low"].isna().all() and fit["lack_of_fit_p"].isna().all()
    assert fit["note"].str.startswith("one run").all()
    x = quiet(st.crossover, df, "a", "b")
    assert x["ci_low"].isna().all() and x["crossover_bytes"].notna().all()
