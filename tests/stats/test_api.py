"""Result columns (the contract with plots/report/widgets), display, export, bad input."""

import warnings

import numpy as np
import pandas as pd
import pytest

import cipherlab
import cipherlab.stats as st
from cipherlab.errors import AnalysisError, CipherlabWarning

COMPARE = ["candidate", "baseline", "ratio", "ci_low", "ci_high", "statistic", "p_value",
           "p_adjusted", "test", "unit", "n_candidate", "n_baseline", "significant", "min_p",
           "note", "gmean_candidate", "gmean_baseline", "median_candidate", "median_baseline",
           "spread_candidate", "spread_baseline", "hygiene"]
RATIO_TEST = ["ratio", "ci_low", "ci_high", "expected", "margin", "p_value", "p_equivalence",
              "equivalent", "differs", "n", "test"]
COST = ["t0_ns", "t0_ci_low", "t0_ci_high", "c_ns_per_byte", "c_ci_low", "c_ci_high",
        "asymptotic_bytes_per_s", "clock_hz", "cycles_per_byte", "n_half_bytes", "r_squared",
        "n_sizes"]


def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*a, **k)


def repeats(seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for algo, gain in (("aes-128-cbc", 2.0), ("aes-128-gcm", 8.0)):
        for n in (16, 1024):
            for side, f in (("on", gain), ("off", 1.0)):
                for r in range(4):
                    rows.append({"algorithm": algo, "operation": "encrypt", "block_bytes": n,
                                 "aesni": side, "repeat": r, "source": "cap", "run": r,
                                 "label": "host",
                                 "bytes_per_s": 1e8 * f * n / (n + 20) * rng.lognormal(0, .02)})
    return pd.DataFrame(rows)


def test_public_names():
    assert st.__all__ == sorted(st.__all__)
    for name in ("compare", "speedup", "ratio_test", "cost_model", "crossover",
                 "small_block_overhead", "comparable", "lint", "per_ghz", "cycles_per_byte",
                 "to_latex", "to_markdown"):
        assert callable(getattr(st, name)) and name in st.__all__
    assert cipherlab.stats is st


def test_contract_columns(aws):
    df = repeats()
    for test in ("welch", "mannwhitney", "permutation"):
        r = quiet(st.speedup, df, test=test, n_boot=200)
        assert list(r.columns) == ["algorithm", "operation", "block_bytes", *COMPARE]
        assert set(r["test"]) == {test} and (r["n_candidate"] == 4).all()
        if test == "mannwhitney":  # 4 vs 4, fully separated: exact p = 2 / C(8, 4) = 2/70
            assert r["p_value"].to_numpy() == pytest.approx(2 / 70)
        elif test == "welch":
            assert r["significant"].all()
        else:  # a permutation test is calibrated from 8 runs per side: blank, and says so
            assert r["significant"].isna().all() and r["note"].str.contains(">= 8").all()
    assert set(RATIO_TEST) <= set(st.ratio_test(df, by="aesni", baseline="off").columns)
    fit = st.cost_model(df)
    assert list(fit.columns[:3]) == ["algorithm", "operation", "aesni"]  # runs are the units
    assert set(COST) <= set(fit.columns)
    x = quiet(st.crossover, aws)
    assert {"a", "b", "crossover_bytes", "ci_low", "ci_high"} <= set(x.columns)
    o = quiet(st.small_block_overhead, aws)
    assert {"block_bytes", "ratio", "t0_a_ns", "t0_b_ns", "overhead_share_a",
            "overhead_share_b"} <= set(o.columns)
    assert {"check", "message"} <= set(quiet(st.lint, aws).columns)
    assert {"check", "message"} <= set(st.comparable(aws).columns)


def test_inputs_are_never_mutated(aws):
    df = repeats()
    before, aws_before = df.copy(), aws.copy()
    st.speedup(df)
    st.ratio_test(df, by="aesni", baseline="off")
    st.cost_model(df)
    st.per_ghz(df, clock_hz=3e9)
    st.cycles_per_byte(df, clock_hz=3e9)
    quiet(st.crossover, aws)
    quiet(st.lint, aws)
    pd.testing.assert_frame_equal(df, before)
    pd.testing.assert_frame_equal(aws, aws_before)


def test_groupby_keeps_hosts_apart_and_pooled_repeats():
    df = pd.concat([repeats(1).assign(host="a"), repeats(2).assign(host="b")])
    r = st.speedup(df, groupby=["host", "algorithm", "block_bytes"])
    assert len(r) == 8 and (r["n_candidate"] == 4).all()
    assert len(st.speedup(df)) == 8  # the default keeps the hosts apart
    with pytest.warns(CipherlabWarning, match="pools runs that differ in host"):
        pooled = st.speedup(df, groupby=["algorithm", "operation", "block_bytes"])
    assert len(pooled) == 4 and (pooled["n_candidate"] == 4).all()  # runs 0-3 of each host


def test_holm_is_applied_across_the_whole_grid():
    r = st.speedup(repeats())
    assert r["p_adjusted"].to_numpy() == pytest.approx(st.adjust_p(r["p_value"], "holm"))
    bh = st.speedup(repeats(), adjust="bh")
    assert bh["p_adjusted"].to_numpy() == pytest.approx(st.adjust_p(r["p_value"], "bh"))


def test_display_is_formatted_and_values_untouched():
    r = st.speedup(repeats())
    with pd.option_context("display.width", 400, "display.max_columns", 50):
        text = repr(r)
    assert "< 0.001" in text and "welch" in text and "e-" not in text
    assert "<table" in r._repr_html_()
    assert isinstance(r, pd.DataFrame) and r["p_value"].dtype == float
    assert r[r["significant"]].shape == r.shape  # slicing keeps working


def test_to_latex_and_markdown(aws):
    r = quiet(st.ratio_test, repeats().assign(block_bytes=16, run=lambda d: d.index),
              by="aesni", baseline="off")
    tex = st.to_latex(r, ["algorithm", "ratio", "p_adjusted", "equivalent"],
                      caption="AES-NI speed-up", label="tab:aesni")
    assert tex.startswith("\\begin{table}") and "\\toprule" in tex and "\\bottomrule" in tex
    assert "\\caption{AES-NI speed-up}" in tex and "\\label{tab:aesni}" in tex
    row = next(line for line in tex.splitlines() if line.startswith("aes-128-cbc"))
    lo, hi = r.loc[r["algorithm"] == "aes-128-cbc", ["ci_low", "ci_high"]].iloc[0]
    assert f"{r.loc[r['algorithm'] == 'aes-128-cbc', 'ratio'].iloc[0]:.2f} [{lo:.2f}, {hi:.2f}]" in row
    assert "Unit of replication: run" in tex and "Holm over" in tex
    md = r.to_markdown(["algorithm", "ratio", "differs"])
    assert md.splitlines()[0] == "| algorithm | ratio [CI] | differs |"
    assert len(md.splitlines()) == 2 + len(r) + 2  # a blank line and the footnote
    assert md.splitlines()[-1].startswith("Unit of replication: run.")
    fit = quiet(st.cost_model, aws)
    assert "t0_ns [CI]" in st.to_markdown(fit, ["algorithm", "aesni", "t0_ns", "c_ns_per_byte"])
    x = quiet(st.crossover, aws)
    assert "$\\infty$" in st.to_latex(x, ["aesni", "crossover_bytes"])


@pytest.mark.parametrize("call, match", [
    (lambda df: st.compare(df, by="aesni", baseline="of"), r"`baseline` must be a value of "
                                                           r"column 'aesni' \('off', 'on'\)"),
    (lambda df: st.compare(df, by="nope", baseline="off"), r"no column\(s\) \['nope'\]"),
    (lambda df: st.compare(df.assign(multi=pd.array([2, None] * 16, dtype="Int64")), by="multi",
                           baseline=None),  # (one process: no -multi, NA)
     r"not None\. Rows where 'multi' is blank \(NA: not stated, or not used\) are no level; "
     r"to compare them, give them one: df.assign\(multi=df\['multi'\].fillna"),
    (lambda df: st.compare(df, by="aesni", baseline="off", test="t-test"),
     r"`test` must be one of 'welch', 'permutation', 'mannwhitney', 'brunnermunzel', "
     r"'bootstrap'; not 't-test'"),
    (lambda df: st.compare(df, by="aesni", baseline="off", adjust="bonferroni"),
     r"`adjust` must be one of 'holm', 'bh'; not 'bonferroni'"),
    (lambda df: st.compare(df, by="aesni", baseline="off", alpha=5),
     r"`alpha` must be a number between 0 and 0.5"),
    (lambda df: st.ratio_test(df, by="aesni", baseline="off", margin=10),
     r"`margin` must be a relative margin between 0 and 1"),
    (lambda df: st.crossover(df, "aes-128-gcm", "chacha20"), r"`b` must be an algorithm"),
    (lambda df: st.per_ghz(df, clock_hz="3GHz"), r"`clock_hz` must be a positive number"),
    (lambda df: st.to_latex(df, ["nope"]), r"`columns` names \['nope'\]"),
])
def test_bad_input_messages(call, match):
    with pytest.raises(AnalysisError, match=match):
        call(repeats())


def test_flagged_cells_are_left_out_with_a_warning():
    df = repeats()
    df.loc[0, "bytes_per_s"] = -1.0
    with pytest.warns(CipherlabWarning, match="1 flagged, non-positive or infinite"):
        r = st.speedup(df)
    assert r["n_candidate"].iloc[0] == 3


def test_warnings_point_at_the_callers_line(aws):
    with pytest.warns(CipherlabWarning) as record:
        st.speedup(aws)  # speedup -> compare -> warning: still reported here
    assert {w.filename for w in record} == {__file__}
    # AES-NI on timed in CPU time, off on the wall clock: every compared cell mixes bases
    mixed = aws.assign(timing=pd.Categorical(np.where(aws["aesni"] == "on", "cpu", "elapsed")))
    with pytest.warns(CipherlabWarning) as record:
        st.speedup(mixed, paired=True)
    assert any("timed on different bases" in str(w.message) for w in record)
    assert {w.filename for w in record} == {__file__}


def test_paired_without_block_bytes_in_groupby():
    r = st.speedup(repeats(), groupby=["algorithm"], paired=True)
    assert len(r) == 2 and (r["n_candidate"] == 2).all() and "block_bytes" not in r.columns


def test_candidates_default_to_every_other_level_and_accept_lists(tiers):
    keys = ["label", "algorithm", "operation", "block_bytes"]
    everyone = quiet(st.compare, tiers, by="tier", baseline="asm", groupby=keys)
    levels = set(tiers["tier"].dropna().astype(str)) - {"asm"}
    assert set(everyone["candidate"]) == levels
    two = quiet(st.compare, tiers, by="tier", baseline="asm", candidate=["kernel", "padlock"],
                groupby=keys)
    assert list(dict.fromkeys(two["candidate"])) == ["kernel", "padlock"]  # in the order given
    df = repeats().assign(level=lambda d: np.where(d["aesni"] == "on", 2, 1))
    assert len(st.compare(df, by="level", baseline=1, candidate=np.int64(2))) == 4


def test_a_cell_column_can_be_the_compared_one():
    # "is GCM faster than CBC, with and without AES-NI?": `by` a column of the default cell
    # (algorithm, block_bytes) compares its levels within the cells of the others
    df = repeats()
    r = st.compare(df, by="algorithm", baseline="aes-128-cbc")
    assert "algorithm" not in r.columns and set(r["candidate"]) == {"aes-128-gcm"}
    assert sorted(zip(r["aesni"], r["block_bytes"], strict=True)) == [("off", 16), ("off", 1024),
                                                         ("on", 16), ("on", 1024)]
    on = r[r["aesni"] == "on"].set_index("block_bytes")["ratio"]
    assert on.round(1).to_dict() == {16: 4.0, 1024: 4.0}  # 8x over 2x, within the noise
    sizes = st.compare(df, by="block_bytes", baseline=16)
    assert set(sizes["candidate"]) == {1024} and len(sizes) == 4  # two algorithms x aesni
    with pytest.raises(AnalysisError, match="must not contain the compared column"):
        st.compare(df, by="algorithm", baseline="aes-128-cbc", groupby=["algorithm"])


def test_multi_children_are_left_out_silently():
    from cipherlab.model import FLAG_CHILD

    df = repeats()
    children = df.assign(flag=FLAG_CHILD, bytes_per_s=df["bytes_per_s"] / 4)
    both = pd.concat([df.assign(flag=None), children], ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "flagged cells left out" warning for children
        r = st.speedup(both)
    assert (r["n_candidate"] == 4).all()  # the totals only
    pd.testing.assert_series_equal(r["ratio"], st.speedup(df)["ratio"])


def test_runs_of_two_capture_folders_named_alike_are_two_units():
    # folders of one name from two machines read alike (cap/runs/<key>.txt, run 0 in each):
    # their capture ids keep the runs apart, so two processes are never pooled as one
    from cipherlab.stats._common import unit_columns, unit_ids

    df = pd.DataFrame({"source": ["cap/runs/k.txt"] * 2, "run": [0, 0],
                       "capture_id": ["31cded5a8a4247b8", "9f0e1d2c3b4a5968"]})
    assert len(set(unit_ids(df, unit_columns(df, "run", what="t")))) == 2
    assert len(set(unit_ids(df.drop(columns="capture_id"),
                            unit_columns(df.drop(columns="capture_id"), "run", what="t")))) == 1
