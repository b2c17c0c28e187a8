"""Every test and interval agrees with a direct scipy computation and with worked examples."""

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats

import cipherlab.stats as st

RNG = np.random.default_rng(20240601)


def two_sided(x_cand, x_base, cell="c"):
    """A tidy-ish frame whose log throughput is exactly the given samples."""
    return pd.DataFrame({
        "algorithm": cell, "operation": "encrypt", "block_bytes": 16,
        "side": ["new"] * len(x_cand) + ["old"] * len(x_base),
        "bytes_per_s": np.exp(np.concatenate([x_cand, x_base]))})


# --- worked examples with their source ---------------------------------------------------------


def test_welch_textbook_example():
    # Wikipedia, "Welch's t-test", Examples, example 1 (two samples of 15):
    # t = -2.46, nu = 24.99, p = 0.021 (values printed there to 2-4 significant digits).
    a1 = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4]
    a2 = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4]
    r = st.compare(two_sided(np.array(a1), np.array(a2)), by="side", baseline="old")
    assert r["statistic"].iloc[0] == pytest.approx(-2.46, abs=0.005)
    assert r["p_value"].iloc[0] == pytest.approx(0.021, abs=0.0005)
    diff, se, dof = st._compare._welch(np.mean(a1), np.var(a1, ddof=1), 15,
                                       np.mean(a2), np.var(a2, ddof=1), 15)
    assert dof == pytest.approx(24.99, abs=0.005)


def test_holm_textbook_example():
    # Wikipedia, "Holm-Bonferroni method", Example: p = 0.01, 0.04, 0.03, 0.005 at alpha 0.05;
    # Holm rejects H1 and H4 only (0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06 > 0.05).
    adj = st.adjust_p([0.01, 0.04, 0.03, 0.005], "holm")
    assert adj == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert (adj < 0.05).tolist() == [True, False, False, True]


def test_bh_textbook_example():
    # Benjamini & Hochberg (1995), JRSS B 57:289-300, the paper's worked example of 15 ordered
    # p-values: at q = 0.05 the procedure rejects the four smallest (Bonferroni only three).
    p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240,
         0.4262, 0.5719, 0.6528, 0.7590, 1.0000]
    adj = st.adjust_p(p, "bh")
    assert int((adj <= 0.05).sum()) == 4
    # hand: 4th smallest 0.0095 * 15 / 4 = 0.035625; min over later ranks of p*15/rank
    assert adj[3] == pytest.approx(0.0095 * 15 / 4)
    assert adj[0] == pytest.approx(min(pi * 15 / (i + 1) for i, pi in enumerate(p)))


def test_holm_and_bh_hand_values_and_nan():
    p = [0.01, 0.02, 0.03, 0.04, 0.05]
    # Holm: sorted x (5, 4, 3, 2, 1) = .05 .08 .09 .08 .05, running max -> .05 .08 .09 .09 .09
    assert st.adjust_p(p, "holm") == pytest.approx([0.05, 0.08, 0.09, 0.09, 0.09])
    # BH: p * 5 / rank = .05 .05 .05 .05 .05
    assert st.adjust_p(p, "bh") == pytest.approx([0.05] * 5)
    out = st.adjust_p([0.5, np.nan, 0.01], "holm")
    assert np.isnan(out[1]) and out[[0, 2]] == pytest.approx([0.5, 0.02])
    assert st.adjust_p([0.9, 0.8], "holm") == pytest.approx([1.0, 1.0])


# --- agreement with direct scipy computations --------------------------------------------------


def test_welch_matches_scipy_ttest_ind():
    x, y = RNG.normal(1.0, 0.3, 7), RNG.normal(0.7, 0.1, 5)
    r = st.compare(two_sided(x, y), by="side", baseline="old", alpha=0.1)
    ref = stats.ttest_ind(x, y, equal_var=False)
    ci = ref.confidence_interval(0.9)
    assert r["statistic"].iloc[0] == pytest.approx(ref.statistic)
    assert r["p_value"].iloc[0] == pytest.approx(ref.pvalue)
    assert r["ratio"].iloc[0] == pytest.approx(np.exp(x.mean() - y.mean()))
    assert r["ci_low"].iloc[0] == pytest.approx(np.exp(ci.low))
    assert r["ci_high"].iloc[0] == pytest.approx(np.exp(ci.high))
    assert r["test"].iloc[0] == "welch" and r["n_candidate"].iloc[0] == 7


def test_mannwhitney_matches_scipy_and_hodges_lehmann():
    x, y = RNG.normal(1.0, 0.2, 9), RNG.normal(0.8, 0.2, 8)
    r = st.compare(two_sided(x, y), by="side", baseline="old", test="mannwhitney")
    ref = stats.mannwhitneyu(x, y, alternative="two-sided")
    assert r["statistic"].iloc[0] == ref.statistic
    assert r["p_value"].iloc[0] == pytest.approx(ref.pvalue)
    diffs = np.sort((x[:, None] - y[None, :]).ravel())
    assert r["ratio"].iloc[0] == pytest.approx(np.exp(np.median(diffs)))
    # Hollander, Wolfe & Chicken (2014) §4.3, large-sample C_alpha
    c = int(np.floor(72 / 2 - stats.norm.ppf(0.975) * np.sqrt(72 * 18 / 12)))
    assert r["ci_low"].iloc[0] == pytest.approx(np.exp(diffs[c - 1]))
    assert r["ci_high"].iloc[0] == pytest.approx(np.exp(diffs[72 - c]))


def test_mannwhitney_vectorised_over_many_cells_matches_one_by_one():
    frames, refs = [], []
    for i, (n1, n2) in enumerate([(5, 5), (5, 5), (6, 4), (3, 8)]):
        x, y = RNG.normal(0, 1, n1), RNG.normal(0.5, 1, n2)
        frames.append(two_sided(x, y, cell=f"c{i}"))
        refs.append(stats.mannwhitneyu(x, y, alternative="two-sided").pvalue)
    r = st.compare(pd.concat(frames), by="side", baseline="old", test="mannwhitney")
    assert r["p_value"].tolist() == pytest.approx(refs)


def test_bootstrap_matches_scipy_bootstrap():
    x, y = RNG.normal(1.0, 0.3, 12), RNG.normal(0.5, 0.3, 10)
    r = st.compare(two_sided(x, y), by="side", baseline="old", test="bootstrap", n_boot=999,
                   seed=7)
    ref = stats.bootstrap((x[None, :], y[None, :]),
                          lambda a, b, axis=-1: a.mean(axis=axis) - b.mean(axis=axis),
                          n_resamples=999, method="percentile", axis=-1, vectorized=True,
                          rng=np.random.default_rng(7))
    assert r["ci_low"].iloc[0] == pytest.approx(np.exp(ref.confidence_interval.low[0]))
    assert r["ci_high"].iloc[0] == pytest.approx(np.exp(ref.confidence_interval.high[0]))
    assert r["p_value"].iloc[0] == pytest.approx(2 / 1000)  # no replicate crosses 0
    again = st.compare(two_sided(x, y), by="side", baseline="old", test="bootstrap",
                       n_boot=999, seed=7)
    assert again["ci_low"].iloc[0] == r["ci_low"].iloc[0]  # seeded


def paired_frame(d, base=None):
    base = RNG.normal(20, 1, len(d)) if base is None else base
    sizes = 16 * 4 ** np.arange(len(d))
    return pd.DataFrame({"algorithm": "x", "operation": "encrypt",
                         "block_bytes": np.tile(sizes, 2),
                         "side": ["new"] * len(d) + ["old"] * len(d),
                         "bytes_per_s": np.exp(np.concatenate([base + d, base]))})


def test_paired_t_matches_scipy_ttest_1samp():
    d = RNG.normal(0.2, 0.1, 6)
    r = st.compare(paired_frame(d), by="side", baseline="old", paired=True)
    ref = stats.ttest_1samp(d, 0.0)
    ci = ref.confidence_interval(0.95)
    assert r["statistic"].iloc[0] == pytest.approx(ref.statistic)
    assert r["p_value"].iloc[0] == pytest.approx(ref.pvalue)
    assert r["ci_low"].iloc[0] == pytest.approx(np.exp(ci.low))
    assert r["ci_high"].iloc[0] == pytest.approx(np.exp(ci.high))
    assert r["test"].iloc[0] == "paired t" and r["paired_over"].iloc[0] == "block_bytes"


def test_wilcoxon_matches_scipy_and_walsh_averages():
    d = RNG.normal(0.1, 0.2, 9)
    r = st.compare(paired_frame(d), by="side", baseline="old", paired=True, test="mannwhitney")
    ref = stats.wilcoxon(d)
    assert r["statistic"].iloc[0] == ref.statistic
    assert r["p_value"].iloc[0] == pytest.approx(ref.pvalue)
    i, j = np.triu_indices(9)
    assert r["ratio"].iloc[0] == pytest.approx(np.exp(np.median((d[i] + d[j]) / 2)))


def test_ratio_test_matches_scipy_and_tost_by_hand():
    d = RNG.normal(np.log(2.05), 0.03, 5)
    r = st.ratio_test(paired_frame(d), by="side", baseline="old", expected=2.0, margin=0.1)
    ref = stats.ttest_1samp(d, np.log(2.0))
    assert r["statistic"].iloc[0] == pytest.approx(ref.statistic)
    assert r["p_value"].iloc[0] == pytest.approx(ref.pvalue)
    lo = stats.ttest_1samp(d, np.log(1.8), alternative="greater").pvalue
    hi = stats.ttest_1samp(d, np.log(2.2), alternative="less").pvalue
    assert r["p_equivalence"].iloc[0] == pytest.approx(max(lo, hi))
    assert bool(r["equivalent"].iloc[0]) == (max(lo, hi) < 0.05)


def test_ratio_test_per_cell_with_repeats_uses_welch():
    x, y = RNG.normal(np.log(4), 0.05, 6), RNG.normal(0, 0.05, 6)
    r = st.ratio_test(two_sided(x, y), by="side", baseline="old", expected=2.0)
    ref = stats.ttest_ind(x - np.log(2.0), y, equal_var=False)
    assert r["test"].iloc[0] == "welch" and r["n"].iloc[0] == 12
    assert r["p_value"].iloc[0] == pytest.approx(ref.pvalue)
    assert bool(r["differs"].iloc[0]) and not bool(r["equivalent"].iloc[0])


def test_cost_model_matches_scipy_curve_fit():
    n = np.array([16, 64, 256, 1024, 8192, 16384], dtype=float)
    t = (30 + 0.9 * n) * np.exp(RNG.normal(0, 0.03, n.size))
    df = pd.DataFrame({"algorithm": "aes-128-gcm", "operation": "encrypt", "block_bytes": n,
                       "bytes_per_s": 1e9 * n / t})
    fit = st.cost_model(df, alpha=0.1)
    # weighted least squares with sigma proportional to t (relative errors)
    popt, pcov = optimize.curve_fit(lambda x, t0, c: t0 + c * x, n, t, sigma=t,
                                    absolute_sigma=False)
    q = stats.t.ppf(0.95, n.size - 2)
    row = fit.iloc[0]
    assert row["t0_ns"] == pytest.approx(popt[0], rel=1e-6)
    assert row["c_ns_per_byte"] == pytest.approx(popt[1], rel=1e-6)
    assert row["t0_ci_high"] - row["t0_ns"] == pytest.approx(q * np.sqrt(pcov[0, 0]), rel=1e-5)
    assert row["c_ci_high"] - row["c_ns_per_byte"] == pytest.approx(q * np.sqrt(pcov[1, 1]),
                                                                    rel=1e-5)
    assert row["n_half_bytes"] == pytest.approx(popt[0] / popt[1], rel=1e-6)
    assert row["asymptotic_bytes_per_s"] == pytest.approx(1e9 / popt[1], rel=1e-6)
    assert np.isnan(row["cycles_per_byte"])  # no clock known
    assert st.cost_model(df, clock_hz=2e9)["cycles_per_byte"].iloc[0] == pytest.approx(
        2 * popt[1], rel=1e-6)


def test_crossover_interval_covers_the_true_crossing():
    # simulation: lines t_a = 40 + 1.0 n, t_b = 4 + 1.8 n cross at 45 bytes
    n = np.array([16, 64, 256, 1024, 8192], dtype=float)
    sims = 300
    rows = []
    for algo, t0, c in (("a", 40, 1.0), ("b", 4, 1.8)):
        t = (t0 + c * n)[None, :] * np.exp(RNG.normal(0, 0.03, (sims, n.size)))
        rows.append(pd.DataFrame({"algorithm": algo, "run": np.repeat(np.arange(sims), n.size),
                                  "block_bytes": np.tile(n, sims),
                                  "bytes_per_s": 1e9 * np.tile(n, sims) / t.ravel()}))
    x = st.crossover(pd.concat(rows), "a", "b")
    covered = ((x["ci_low"] <= 45) & (45 <= x["ci_high"])).mean()
    assert len(x) == sims and 0.88 <= covered <= 0.995
    assert x["crossover_bytes"].median() == pytest.approx(45, rel=0.05)
