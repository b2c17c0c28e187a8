"""Simulation: error rates and coverage hold at their nominal levels (seeded, a few seconds)."""

import numpy as np
import pandas as pd
import pytest

import cipherlab.stats as st

N_CELLS = 2500


def grid(rng, cells, n, ratio=1.0, sd=0.05, sd_base=None):
    """Log-normal throughput: `cells` independent cells, `n` repeats per side."""
    sd_base = sd if sd_base is None else sd_base
    base = np.log(1e9)
    cand = base + np.log(ratio) + rng.normal(0, sd, (cells, n))
    ref = base + rng.normal(0, sd_base, (cells, n))
    ids = np.repeat(np.arange(cells), n)
    return pd.DataFrame({
        "algorithm": "aes-128-gcm", "operation": "encrypt",
        "block_bytes": np.concatenate([ids, ids]),  # one "block size" per cell
        "aesni": ["on"] * (cells * n) + ["off"] * (cells * n),
        "bytes_per_s": np.exp(np.concatenate([cand.ravel(), ref.ravel()]))})


@pytest.mark.parametrize("test, n", [("welch", 5), ("welch", 10), ("mannwhitney", 10)])
def test_type_one_error_of_compare(test, n):
    rng = np.random.default_rng(1 + n)
    # unequal variances: Welch's reason to exist; equal ones for the rank test's null
    df = grid(rng, N_CELLS, n, sd=0.08, sd_base=0.03 if test == "welch" else 0.08)
    r = st.speedup(df, test=test)
    assert len(r) == N_CELLS and r["p_value"].notna().all()
    rate = (r["p_value"] < 0.05).mean()
    print(f"type I error, {test}, n={n}: {rate:.4f}")
    assert 0.035 <= rate <= 0.065


@pytest.mark.parametrize("test, n, low", [("welch", 5, 0.93), ("welch", 10, 0.93),
                                          ("mannwhitney", 10, 0.93)])
def test_ci_coverage_of_the_ratio(test, n, low):
    rng = np.random.default_rng(100 + n)
    df = grid(rng, N_CELLS, n, ratio=2.0, sd=0.06, sd_base=0.03 if test == "welch" else 0.06)
    r = st.speedup(df, test=test)
    covered = ((r["ci_low"] <= 2.0) & (2.0 <= r["ci_high"])).mean()
    print(f"95 % CI coverage, {test}, n={n}: {covered:.4f}")
    assert low <= covered <= 0.97


def test_bootstrap_coverage_is_close_to_nominal_with_enough_repeats():
    # the percentile bootstrap under-covers with few repeats; with 30 per side it is close
    rng = np.random.default_rng(7)
    df = grid(rng, 600, 30, ratio=2.0, sd=0.05)
    r = st.speedup(df, test="bootstrap", n_boot=400, seed=3)
    covered = ((r["ci_low"] <= 2.0) & (2.0 <= r["ci_high"])).mean()
    print(f"95 % CI coverage, bootstrap, n=30: {covered:.4f}")
    assert 0.91 <= covered <= 0.98


def test_paired_t_type_one_error_and_coverage():
    # one value per cell, 5 block sizes per algorithm: the paired t across sizes
    rng = np.random.default_rng(11)
    groups, sizes = 2500, 5
    d = rng.normal(np.log(1.5), 0.05, (groups, sizes))
    base = rng.normal(20, 1, (groups, sizes))
    algo = np.repeat(np.arange(groups), sizes).astype(str)
    size = np.tile(16 * 4 ** np.arange(sizes), groups)
    df = pd.DataFrame({"algorithm": np.concatenate([algo, algo]), "operation": "encrypt",
                       "block_bytes": np.concatenate([size, size]),
                       "aesni": ["on"] * d.size + ["off"] * d.size,
                       "bytes_per_s": np.exp(np.concatenate([(base + d).ravel(), base.ravel()]))})
    r = st.ratio_test(df, by="aesni", baseline="off", expected=1.5, margin=0.1)
    rate = (r["p_value"] < 0.05).mean()
    covered = ((r["ci_low"] <= 1.5) & (1.5 <= r["ci_high"])).mean()
    print(f"paired t: type I error {rate:.4f}, coverage {covered:.4f}")
    assert 0.035 <= rate <= 0.065 and 0.93 <= covered <= 0.97


def test_holm_controls_the_family_wise_error_on_a_grid():
    # 1000 grids of 3 algorithms x 5 sizes = 15 true-null cells each; a grid errs when any of
    # its cells is called significant. FWER must stay <= alpha (plus Monte-Carlo slack).
    rng = np.random.default_rng(5)
    families, per_family = 1000, 15
    df = grid(rng, families * per_family, 6, sd=0.05)
    r = st.speedup(df, adjust="holm")
    p = r["p_value"].to_numpy().reshape(families, per_family)
    holm = np.vstack([st.adjust_p(row, "holm") for row in p])
    fwer_holm = (holm < 0.05).any(axis=1).mean()
    fwer_raw = (p < 0.05).any(axis=1).mean()
    print(f"FWER over {families} grids of {per_family}: raw {fwer_raw:.3f}, Holm {fwer_holm:.3f}")
    assert fwer_holm <= 0.05 + 0.02  # 0.02 ~ 3 standard errors of a rate of 0.05 over 1000
    assert fwer_raw > 0.4  # unadjusted, a grid of 15 errs about 1 - 0.95**15 = 54 % of the time
    # compare's own adjustment is over its whole result (one family of 15000 here)
    assert r["significant"].sum() <= 1


def test_bh_controls_the_false_discovery_rate():
    rng = np.random.default_rng(9)
    families, nulls, alts = 400, 12, 8
    fdp = []
    for _ in range(families):
        p_null = rng.uniform(size=nulls)
        p_alt = rng.beta(0.1, 5, size=alts)
        adj = st.adjust_p(np.concatenate([p_null, p_alt]), "bh")
        rejected = adj < 0.05
        fdp.append(rejected[:nulls].sum() / max(rejected.sum(), 1))
    assert np.mean(fdp) <= 0.05 * nulls / (nulls + alts) + 0.02


def _lines_with_repeats(rng, sims, repeats, lines, sd=0.03):
    n = np.array([16, 64, 256, 1024, 8192], dtype=float)
    frames = []
    for algo, t0, c in lines:
        size = np.tile(np.repeat(n, repeats), sims)
        t = (t0 + c * size) * np.exp(rng.normal(0, sd, size.size))
        frames.append(pd.DataFrame({"algorithm": algo, "run": np.repeat(np.arange(sims),
                                                                        n.size * repeats),
                                    "block_bytes": size, "bytes_per_s": 1e9 * size / t}))
    return pd.concat(frames, ignore_index=True)


@pytest.mark.parametrize("ci, sims, repeats, low", [
    ("fit", 1000, 1, 0.93), ("fit", 1000, 4, 0.93),
    # resampling r repeats shrinks the variance by (r - 1) / r: the bootstrap needs ~10 repeats
    # per size (with 4 it covered only ~0.86 in this simulation; documented in cost_model)
    ("bootstrap", 400, 10, 0.90)])
def test_cost_model_intervals_cover_t0_and_c(ci, sims, repeats, low):
    rng = np.random.default_rng(21)
    df = _lines_with_repeats(rng, sims, repeats, [("aes-128-gcm", 40.0, 1.0)])
    fit = st.cost_model(df, ci=ci, n_boot=300, seed=1)
    t0_cov = ((fit["t0_ci_low"] <= 40) & (40 <= fit["t0_ci_high"])).mean()
    c_cov = ((fit["c_ci_low"] <= 1.0) & (1.0 <= fit["c_ci_high"])).mean()
    print(f"cost_model {ci}, {repeats} repeat(s): coverage t0 {t0_cov:.3f}, c {c_cov:.3f}")
    assert low <= t0_cov <= 0.975 and low <= c_cov <= 0.975


def test_crossover_bootstrap_interval_covers_the_true_crossing():
    rng = np.random.default_rng(22)
    df = _lines_with_repeats(rng, 200, 10, [("a", 40.0, 1.0), ("b", 4.0, 1.8)])
    x = st.crossover(df, "a", "b", ci="bootstrap", n_boot=300, seed=2)
    covered = ((x["ci_low"] <= 45) & (45 <= x["ci_high"])).mean()
    print(f"crossover bootstrap coverage: {covered:.3f}")
    assert 0.88 <= covered <= 0.99
    with pytest.warns(Warning, match="nothing to resample"):
        single = df.groupby(["algorithm", "run", "block_bytes"], as_index=False).first()
        assert st.crossover(single, "a", "b", ci="bootstrap", n_boot=50)["ci_low"].isna().all()
