"""Hygiene flags, clock provenance, like-for-like findings and the display rules of results."""

import warnings

import numpy as np
import pandas as pd
import pytest

import cipherlab
import cipherlab.stats as st
from cipherlab.errors import CipherlabWarning


def runs_of(values_on, values_off):
    """One row per repeat; each inner list is one run (process)."""
    rows = []
    for side, runs in (("on", values_on), ("off", values_off)):
        for values in runs:
            run = len({r["run"] for r in rows})
            rows += [{"source": "cap", "run": run, "repeat": k, "algorithm": "aes-128-gcm",
                      "operation": "encrypt", "block_bytes": 1024, "aesni": side,
                      "bytes_per_s": v} for k, v in enumerate(values)]
    return pd.DataFrame(rows)


def test_warm_up_outliers_and_bimodal_cells_are_flagged():
    steady = [[1.00e9, 1.01e9, 0.99e9, 1.00e9]] * 3
    warm = [[0.80e9, 1.00e9, 1.01e9, 0.99e9]] + steady[:2]  # first repeat 20 % slow
    r = st.speedup(runs_of(warm, steady))
    assert r["hygiene"].iloc[0].startswith("candidate: warm-up (1 run)")
    odd = [[1.00e9, 1.01e9, 0.99e9, 1.00e9], [1.00e9, 1.005e9, 0.995e9, 1.3e9], steady[0]]
    assert "1 outlier" in st.speedup(runs_of(odd, steady))["hygiene"].iloc[0]
    two = [[1.00e9, 1.01e9, 0.99e9], [1.00e9, 1.005e9, 0.995e9],
           [1.20e9, 1.21e9, 1.19e9], [1.20e9, 1.205e9, 1.195e9]]
    r = st.speedup(runs_of(two, steady))
    assert "bimodal" in r["hygiene"].iloc[0] and not r["hygiene"].str.contains("baseline").any()
    # median and robust spread beside the geometric mean
    assert r["median_baseline"].iloc[0] == pytest.approx(1.0e9, rel=1e-6)
    assert r["spread_candidate"].iloc[0] > 5 > r["spread_baseline"].iloc[0]
    assert r["gmean_candidate"].iloc[0] == pytest.approx(np.exp(np.mean(np.log(
        [np.exp(np.mean(np.log(v))) for v in two]))))


def test_p_values_near_alpha_keep_their_digits_and_tiny_ratios_are_not_zero():
    from cipherlab.stats._export import format_p

    assert list(format_p([0.0496, 0.0504, 0.04999, 0.2, 0.0123, 0.0004])) == [
        "0.0496", "0.0504", "0.04999", "0.200", "0.012", "< 0.001"]
    r = st.StatsResult({"ratio": [0.00042, 0.052, 1.978]})
    assert "0.00042" in repr(r) and "0.052" in repr(r) and "0.000 " not in repr(r) + " "
    md = st.to_markdown(pd.DataFrame({"ratio": [0.0042], "ci_low": [0.004], "ci_high": [0.0044]}))
    assert "0.0042 [0.004, 0.0044]" in md


def test_exports_carry_the_unit_and_the_adjustment_family():
    df = runs_of([[2.0e9]] * 3, [[1.0e9 * (1 + 0.01 * k)] for k in range(3)])
    r = st.speedup(df)
    tex = st.to_latex(r, ["block_bytes", "ratio", "p_adjusted"])
    assert "Unit of replication: run" in tex and "Holm over 1 test(s)" in tex
    assert "ratio: throughput candidate/baseline" in tex
    assert "Unit of replication" not in st.to_latex(r, notes=False)


def test_per_ghz_says_which_clock_and_counts_rows_without_one():
    df = pd.DataFrame({"label": ["P3 750Mhz", "box"], "bytes_per_s": [15e6, 12e6]})
    with pytest.warns(CipherlabWarning, match="1 of 2 row"):
        out = st.per_ghz(df)
    assert out["clock_source"].tolist()[0] == "nominal" and pd.isna(out["clock_source"].iloc[1])
    given = st.cycles_per_byte(df, clock_hz=3e9)
    assert set(given["clock_source"]) == {"given"}


def test_comparable_names_the_cryptography_wheels_openssl():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        both = cipherlab.concat([
            cipherlab.ingest(cipherlab.datasets.path(f"captures/host-b-openssl-3.0.22/{name}"))
            for name in ("pyca.txt", "evp.txt")])
    found = st.comparable(both[both["algorithm"] == "aes-128-gcm"], by="tool", warn=False)
    wheel = found[found["check"] == "wheel-openssl"]
    assert set(wheel["value"]) == {"4.0.0 (cryptography wheel)", "3.0.22"}
    assert "bundled in its wheel" in wheel["message"].iloc[0]


def test_pairing_block_sizes_of_one_run_has_a_false_positive_rate_far_above_alpha():
    # why pairing across sizes is never a default: one run per side, a 3 % run offset moves
    # every size of the run together; the paired t sees five "replicates" of one offset
    rng = np.random.default_rng(4)
    sims, sizes = 2000, np.array([16, 64, 256, 1024, 8192])
    offset = rng.normal(0, 0.03, (sims, 2))
    y = 20 + offset[:, :, None] + rng.normal(0, 0.005, (sims, 2, sizes.size))
    sim, side, size = np.indices(y.shape).reshape(3, -1)
    df = pd.DataFrame({"source": "sim", "run": sim * 2 + side, "algorithm": sim,
                       "operation": "encrypt", "block_bytes": sizes[size],
                       "aesni": np.where(side == 0, "on", "off"), "bytes_per_s": np.exp(y.ravel())})
    with pytest.warns(CipherlabWarning, match="independent replicates"):
        r = st.ratio_test(df, by="aesni", baseline="off", expected=1.0, paired=True)
    rate = (r["p_value"] < 0.05).mean()
    print(f"paired over block sizes of one run: type I {rate:.3f}")
    assert rate > 0.3
