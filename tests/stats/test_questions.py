"""Questions a paper asks of a real capture (host-c's openssl, three runs per ISA condition):
"is the new build no slower than 5 %?" (non-inferiority), and what the intervals beside an
adjusted p-value are."""

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

import cipherlab
import cipherlab.stats as st
from cipherlab.errors import AnalysisError


@pytest.fixture(scope="module")
def chacha():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.datasets.load("captures/host-c-libraries/openssl.csv")
    return df[df["algorithm"] == "chacha20-poly1305"]  # AES-NI masked: ChaCha20 should not care


def _runs(df, isa, size):
    rows = df[(df["isa"] == isa) & (df["block_bytes"] == size)]
    return np.log(rows["bytes_per_s"]).groupby(rows["run"]).mean().to_numpy()


def test_no_slower_than_is_a_one_sided_test_at_the_lower_margin(chacha):
    # ratio_test held the ratio to both margins only (TOST): "no slower than 5 %" read
    # 'equivalent: no' wherever the upper bound passed 1.05, however clear the lower one
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        low = st.ratio_test(chacha, by="isa", baseline="native", expected=1, margin=0.05,
                            bound="lower")
        both = st.ratio_test(chacha, by="isa", baseline="native", expected=1, margin=0.05)
    for _, row in low.iterrows():
        x, y = _runs(chacha, "no-aesni", row["block_bytes"]), _runs(chacha, "native", row["block_bytes"])
        # one one-sided Welch test of log ratio > log 0.95, as scipy computes it
        ref = sps.ttest_ind(x - np.log(0.95), y, equal_var=False, alternative="greater")
        assert row["p_equivalence"] == pytest.approx(ref.pvalue, rel=1e-9)
        assert row["tost_high"] == np.inf and row["tost_low"] > 0
    # the one-sided p is never larger than TOST's (which takes the larger of two)
    assert (low["p_equivalence"] <= both["p_equivalence"] + 1e-12).all()
    assert (low["tost_low"] == both["tost_low"]).all()
    md = st.to_markdown(low)
    assert "equivalent: the ratio is above 0.95 (one-sided non-inferiority test" in md
    assert "within [0.95, 1.05] (TOST" in st.to_markdown(both)
    with pytest.raises(AnalysisError, match="`bound` must be one of 'both', 'lower', 'upper'"):
        st.ratio_test(chacha, by="isa", baseline="native", bound="below")


def test_intervals_beside_adjusted_p_values_say_they_are_per_cell(chacha):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = st.compare(chacha, by="isa", baseline="native")
    assert (r["significant"] == False).all()  # noqa: E712  (masking AES-NI: no evidence)
    md = st.to_markdown(r)
    assert "CI: 95% interval of each cell, not adjusted." in md
    assert "candidate: isa = no-aesni. baseline: isa = native." in md  # the column compared
    assert "Holm over 4 test(s)" in md


def _host_b(*names):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pd.concat([cipherlab.datasets.load(f"captures/host-b-openssl-3.0.22/{n}")
                          for n in names], ignore_index=True)


def test_per_process_rate_of_a_multi_run_against_one_process():
    # host-b: `openssl speed -mr -multi 16 -evp aes-128-gcm` beside single-process -evp runs.
    # comparable said "divide by the process count" and nothing did; per_process divides the
    # sum by 16 and keeps each child's own line (already one process) as it is
    df = st.per_process(_host_b("multi-mr.txt", "evp.txt"))
    total = df[(df["multi"] == 16) & df["flag"].isna()]
    assert (total["bytes_per_s_per_process"] == total["bytes_per_s"] / 16).all()
    child = df[df["flag"] == "child process"]
    assert len(child) and (child["bytes_per_s_per_process"] == child["bytes_per_s"]).all()
    one = df[df["multi"].isna()]
    assert (one["bytes_per_s_per_process"] == one["bytes_per_s"]).all()
    native = df[df["isa"].isna() | (df["isa"] == "native")].assign(multi=lambda d: d["multi"].fillna(1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = st.compare(native, by="multi", baseline=1, metric="bytes_per_s_per_process")
    at = r.set_index("block_bytes")["ratio"]
    sum16 = total.set_index("block_bytes")["bytes_per_s"]
    single = native[(native["multi"] == 1) & (native["algorithm"] == "aes-128-gcm")].set_index(
        "block_bytes")["bytes_per_s"]
    assert at[16384] == pytest.approx(sum16[16384] / 16 / single[16384])
    assert "operations/s per process" in st._export.METRIC_UNITS.values()


def test_sides_that_share_no_cell_are_named_not_sent_to_another_metric():
    # -multi 16 of aes-128-gcm beside a plain run without it: the error said "pass
    # metric='ops_per_s'" because the plain run also has RSA rows, which was no help
    df = _host_b("multi-mr.txt", "plain.txt").assign(multi=lambda d: d["multi"].fillna(1))
    with pytest.raises(AnalysisError, match=r"The baseline has algorithm aes-128-cbc, .*; "
                                            r"the candidates aes-128-gcm\.$"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            st.compare(df, by="multi", baseline=1)



def test_a_key_blank_on_one_side_is_named_as_not_stated():
    # host-b's dumps state what the mask switched off, a capture of another machine states the
    # mask: the hint named the first key with nothing on one side ("the candidates .")
    # (as `cipherlab capture` states them: the preset, AES-NI on/off and the mask in effect)
    masked = _host_b("evp.txt")["isa"].astype("object").ne("native")
    capture = _host_b("evp.txt").assign(
        label="this machine", isa=masked.map({False: "native", True: "no-aesni"}), isa_off=None,
        aesni=masked.map({False: "on", True: "off"}),
        isa_mask=masked.map({False: "0xfff8320307:0x4000", True: "0xfdf8320107:0x0"}))
    df = pd.concat([_host_b("evp.txt").assign(label="host-b"), capture], ignore_index=True)
    df["label"] = df["label"].astype("category")
    with pytest.raises(AnalysisError, match=r"The baseline has isa_off aesni\+pclmulqdq\+.*, none; "
                                            r"the candidates not stated\.$"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            st.compare(df, by="label", baseline="host-b")

def test_a_paste_beside_a_capture_is_named_by_its_version():
    # 1.0.2h's GCM paste (002, no isa, no host) fitted beside host-c's capture (3.0.22, native
    # and masked): the table keyed the lines by isa alone (the version, which isa determined,
    # was left out) and the paste's line read "isa –", naming nothing
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        capture = cipherlab.datasets.load("captures/host-c-libraries/openssl.csv")
        (path,) = (Path(__file__).resolve().parents[1] / "data" / "pastes").glob("002_*.txt")
        df = pd.concat([capture, cipherlab.ingest(path)], ignore_index=True)
        fit = st.cost_model(df[df["algorithm"] == "aes-128-gcm"])
    assert list(fit.columns[:4]) == ["algorithm", "operation", "tool_version", "isa"]
    assert fit["tool_version"].tolist() == ["1.0.2h", "3.0.22", "3.0.22"]
    paste = fit[fit["tool_version"] == "1.0.2h"].iloc[0]
    assert pd.isna(paste["isa"]) and paste["n_units"] == 1
    assert "| 1.0.2h | – |" in st.to_markdown(fit)
