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
        "source": f"sim-{cell}", "run": np.arange(len(x_cand) + len(x_base)),
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
    diff, se, dof = st._tests.welch(np.mean(a1), np.var(a1, ddof=1), 15,
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
    # the estimand is fixed whatever the test: the ratio of geometric means
    assert r["ratio"].iloc[0] == pytest.approx(np.exp(x.mean() - y.mean()))
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


def test_permutation_and_bca_match_scipy():
    x, y = RNG.normal(1.0, 0.3, 22), RNG.normal(0.8, 0.3, 20)
    r = st.compare(two_sided(x, y), by="side", baseline="old", test="permutation", n_boot=999,
                   seed=7)
    ref = stats.bootstrap((x, y), lambda a, b, axis=-1: a.mean(axis=axis) - b.mean(axis=axis),
                          n_resamples=999, method="BCa", rng=np.random.default_rng(7))
    assert r["ci_low"].iloc[0] == pytest.approx(np.exp(ref.confidence_interval.low), rel=0.02)
    assert r["ci_high"].iloc[0] == pytest.approx(np.exp(ref.confidence_interval.high), rel=0.02)
    # two-sided as |difference| >= |observed|
    perm = stats.permutation_test((x, y), lambda a, b: abs(a.mean() - b.mean()), n_resamples=999,
                                  alternative="greater", rng=np.random.default_rng(1))
    assert r["p_value"].iloc[0] == pytest.approx(perm.pvalue, abs=0.06)  # both Monte Carlo


def test_exact_permutation_p_by_enumeration():
    x, y = np.array([1.0, 1.2, 1.1, 1.5, 1.3, 1.25, 1.4, 1.35]), np.array(
        [0.9, 1.0, 1.05, 0.95, 1.1, 0.8, 1.02, 0.99])
    r = st.compare(two_sided(x, y), by="side", baseline="old", test="permutation")
    ref = stats.permutation_test((x, y), lambda a, b: abs(a.mean() - b.mean()),
                                 alternative="greater", n_resamples=np.inf)
    assert r["p_value"].iloc[0] == pytest.approx(ref.pvalue)
    assert r["min_p"].iloc[0] == pytest.approx(2 / 12870)


def test_brunnermunzel_matches_scipy():
    x, y = RNG.normal(1.0, 0.4, 9), RNG.normal(0.7, 0.1, 8)
    r = st.compare(two_sided(x, y), by="side", baseline="old", test="brunnermunzel")
    ref = stats.brunnermunzel(x, y)
    assert r["p_value"].iloc[0] == pytest.approx(ref.pvalue)
    assert r["statistic"].iloc[0] == pytest.approx(ref.statistic)


def paired_frame(d, base=None):
    base = RNG.normal(20, 1, len(d)) if base is None else base
    sizes = 16 * 4 ** np.arange(len(d))
    return pd.DataFrame({"source": "dump", "run": 0, "algorithm": "x", "operation": "encrypt",
                         "block_bytes": np.tile(sizes, 2),
                         "side": ["new"] * len(d) + ["old"] * len(d),
                         "bytes_per_s": np.exp(np.concatenate([base + d, base]))})


def test_paired_t_matches_scipy_ttest_1samp():
    d = RNG.normal(0.2, 0.1, 6)
    with pytest.warns(Warning, match="independent replicates"):
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
    assert r["ratio"].iloc[0] == pytest.approx(np.exp(d.mean()))
    assert r["paired_over"].iloc[0] == "block_bytes"


def test_ratio_test_matches_scipy_and_tost_by_hand():
    d = RNG.normal(np.log(2.05), 0.03, 5)
    with pytest.warns(Warning, match="independent replicates"):
        r = st.ratio_test(paired_frame(d), by="side", baseline="old", expected=2.0, margin=0.1,
                          paired=True)
    ref = stats.ttest_1samp(d, np.log(2.0))
    assert r["statistic"].iloc[0] == pytest.approx(ref.statistic)
    assert r["p_value"].iloc[0] == pytest.approx(ref.pvalue)
    lo = stats.ttest_1samp(d, np.log(1.8), alternative="greater").pvalue
    hi = stats.ttest_1samp(d, np.log(2.2), alternative="less").pvalue
    assert r["p_equivalence"].iloc[0] == pytest.approx(max(lo, hi))
    # one family of two tests (difference, equivalence): Holm by hand
    assert r["p_equivalence_adjusted"].iloc[0] == pytest.approx(
        st.adjust_p([ref.pvalue, max(lo, hi)])[1])
    assert bool(r["equivalent"].iloc[0]) == (r["p_equivalence_adjusted"].iloc[0] < 0.05)
    q = stats.t.ppf(0.95, 4)
    assert r["tost_low"].iloc[0] == pytest.approx(np.exp(d.mean() - q * stats.sem(d)))


def test_ratio_test_per_cell_with_repeats_uses_welch():
    x, y = RNG.normal(np.log(4), 0.05, 6), RNG.normal(0, 0.05, 6)
    r = st.ratio_test(two_sided(x, y), by="side", baseline="old", expected=2.0)
    ref = stats.ttest_ind(x - np.log(2.0), y, equal_var=False)
    assert r["test"].iloc[0] == "welch" and r["n"].iloc[0] == 12
    assert r["p_value"].iloc[0] == pytest.approx(ref.pvalue)
    assert bool(r["differs"].iloc[0]) and not bool(r["equivalent"].iloc[0])


def test_cost_model_matches_scipy_curve_fit_and_a_hand_sandwich():
    n = np.array([16, 64, 256, 1024, 8192, 16384], dtype=float)
    runs = 4
    offset = RNG.normal(0, 0.03, runs)
    t = (30 + 0.9 * n)[None, :] * np.exp(offset[:, None] + RNG.normal(0, 0.01, (runs, n.size)))
    df = pd.DataFrame({"source": "cap", "run": np.repeat(np.arange(runs), n.size),
                       "algorithm": "aes-128-gcm", "operation": "encrypt",
                       "block_bytes": np.tile(n, runs).astype(int),
                       "bytes_per_s": 1e9 * np.tile(n, runs) / t.ravel()})
    fit = st.cost_model(df, alpha=0.1)
    x, y = np.tile(n, runs), t.ravel()
    # weighted least squares with sigma proportional to t (relative errors)
    popt, _ = optimize.curve_fit(lambda v, t0, c: t0 + c * v, x, y, sigma=y, absolute_sigma=False)
    row = fit.iloc[0]
    assert row["t0_ns"] == pytest.approx(popt[0], rel=1e-6)
    assert row["c_ns_per_byte"] == pytest.approx(popt[1], rel=1e-6)
    # CR1 sandwich by hand (Cameron & Miller 2015, eq. 11): clusters are the runs
    X, w = np.column_stack([np.ones_like(x), x]), 1 / y ** 2
    bread = np.linalg.inv(X.T @ (w[:, None] * X))
    u = y - X @ popt
    scores = [(w * u)[r * n.size:(r + 1) * n.size] @ X[r * n.size:(r + 1) * n.size]
              for r in range(runs)]
    cov = runs / (runs - 1) * bread @ sum(np.outer(g, g) for g in scores) @ bread
    q = stats.t.ppf(0.95, runs - 1)
    assert row["t0_ci_high"] - row["t0_ns"] == pytest.approx(q * np.sqrt(cov[0, 0]), rel=1e-5)
    assert row["c_ci_high"] - row["c_ns_per_byte"] == pytest.approx(q * np.sqrt(cov[1, 1]),
                                                                    rel=1e-5)
    assert row["n_half_bytes"] == pytest.approx(popt[0] / popt[1], rel=1e-6)
    assert row["n_units"] == runs and row["unit"] == "run"
    assert np.isnan(row["cycles_per_byte"])  # no clock known
    assert st.cost_model(df, clock_hz=2e9)["cycles_per_byte"].iloc[0] == pytest.approx(
        2 * popt[1], rel=1e-6)
    # the lack-of-fit F by hand: size effect of the log residuals against the interaction
    r = np.log(y / (X @ popt)).reshape(runs, n.size)
    inter = r - r.mean(1, keepdims=True) - r.mean(0, keepdims=True) + r.mean()
    F = (runs * ((r.mean(0) - r.mean()) ** 2).sum() / (n.size - 2)) / (
        (inter ** 2).sum() / ((runs - 1) * (n.size - 1)))
    assert row["lack_of_fit_p"] == pytest.approx(stats.f.sf(F, n.size - 2, (runs - 1) * (n.size - 1)))


def test_fieller_matches_the_quadratic_by_hand():
    lo, hi = st._cost.fieller(np.array([36.0]), np.array([0.8]), np.array([4.0]),
                              np.array([0.0004]), np.array([0.001]), 2.0)
    for root in (lo[0], hi[0]):  # on the boundary: (num - θ den)² = q² (v_num - 2θ cov + θ² v_den)
        assert (36 - root * 0.8) ** 2 == pytest.approx(4 * (4 - 2 * root * 0.001 + root ** 2 * 0.0004))
    assert lo[0] < 36 / 0.8 < hi[0]
