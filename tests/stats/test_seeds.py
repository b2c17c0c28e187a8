"""The seeds' questions, answered with the numbers they print (data/seeds/*)."""

import warnings

import numpy as np
import pytest

import cipherlab.stats as st
from cipherlab.errors import CipherlabWarning, PlausibilityWarning

SIZES = [16, 64, 256, 1024, 8192]


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CipherlabWarning)
        return fn(*args, **kwargs)


# --- AWS wiki: "consistently twice as fast" --------------------------------------------------


def test_aws_cbc_ratio_is_about_2_at_every_size_and_key_length(aws):
    with pytest.warns(CipherlabWarning, match="single value"):
        r = st.speedup(aws)  # aesni on / off
    cbc = r[r["algorithm"].astype(str).str.endswith("cbc")]
    assert len(cbc) == 15  # 3 key lengths x 5 sizes
    assert set(cbc["block_bytes"]) == set(SIZES)
    # seed line 24/25: 522138.77k / 251155.07k = 2.0790 at 16 bytes
    first = cbc[(cbc["algorithm"] == "aes-128-cbc") & (cbc["block_bytes"] == 16)]
    assert first["ratio"].iloc[0] == pytest.approx(522138.77 / 251155.07, rel=1e-9)
    assert cbc["ratio"].between(1.9, 2.1).all(), cbc[["algorithm", "block_bytes", "ratio"]]
    # no repeats: no per-cell test, and the result says so
    assert (r["test"] == "single value").all() and r["p_value"].isna().all()


def test_aws_gcm_ratio_is_not_2(aws):
    r = quiet(st.speedup, aws)
    gcm = r[r["algorithm"].astype(str).str.endswith("gcm")]
    assert len(gcm) == 15
    assert gcm["ratio"].between(3.7, 9.5).all(), gcm[["algorithm", "block_bytes", "ratio"]]
    # seed: 687515.58k / 83879.10k = 8.197 at 64 bytes
    g64 = gcm[(gcm["algorithm"] == "aes-128-gcm") & (gcm["block_bytes"] == 64)]
    assert g64["ratio"].iloc[0] == pytest.approx(687515.58 / 83879.10, rel=1e-9)


def test_aws_ratio_test_says_cbc_is_2_and_gcm_is_not(aws):
    r = quiet(st.ratio_test, aws, by="aesni", baseline="off", candidate="on",
              expected=2.0, margin=0.1)
    assert set(r["test"]) == {"paired t"} and (r["n"] == 5).all()
    cbc = r[r["algorithm"].astype(str).str.endswith("cbc")]
    gcm = r[r["algorithm"].astype(str).str.endswith("gcm")]
    assert cbc["equivalent"].all() and not cbc["differs"].any()
    assert (cbc["ci_low"] > 1.8).all() and (cbc["ci_high"] < 2.2).all()
    assert gcm["differs"].all() and not gcm["equivalent"].any()
    assert (gcm["ci_low"] > 2.2).all()
    # printed for the README
    print(st.to_markdown(r, ["algorithm", "ratio", "p_value", "p_equivalence", "equivalent",
                             "differs"]))


def test_aws_crossover_with_and_without_aesni(aws):
    x = quiet(st.crossover, aws, "aes-128-gcm", "aes-128-cbc")
    on = x[x["aesni"] == "on"].iloc[0]
    off = x[x["aesni"] == "off"].iloc[0]
    assert 16 < on["crossover_bytes"] < 64 and on["regime"] == "a overtakes b"
    assert on["ci_low"] < on["crossover_bytes"] < on["ci_high"]
    assert np.isinf(off["crossover_bytes"]) and off["regime"] == "never"
    for a, b in (("aes-192-gcm", "aes-192-cbc"), ("aes-256-gcm", "aes-256-cbc")):
        y = quiet(st.crossover, aws, a, b)
        assert 16 < y.loc[y["aesni"] == "on", "crossover_bytes"].iloc[0] < 64
        assert np.isinf(y.loc[y["aesni"] == "off", "crossover_bytes"].iloc[0])


def test_aws_cost_model_explains_the_small_block_story(aws):
    fit = quiet(st.cost_model, aws)
    on = fit[fit["aesni"] == "on"].set_index("algorithm")
    # GCM pays a larger fixed cost per call, CBC a larger cost per byte
    assert on.loc["aes-128-gcm", "t0_ns"] > 5 * on.loc["aes-128-cbc", "t0_ns"]
    assert on.loc["aes-128-gcm", "c_ns_per_byte"] < on.loc["aes-128-cbc", "c_ns_per_byte"]
    # the asymptotic rate is close to the 8 KiB cell (seed: 569161.05k for CBC)
    assert on.loc["aes-128-cbc", "asymptotic_bytes_per_s"] == pytest.approx(569161050, rel=0.01)
    assert (fit["r_squared"] > 0.9).all() and (fit["n_sizes"] == 5).all()
    ov = quiet(st.small_block_overhead, aws)
    on16 = ov[(ov["aesni"] == "on") & (ov["block_bytes"] == 16)].iloc[0]
    assert on16["ratio"] < 1 and on16["overhead_share_a"] > 0.5 > on16["overhead_share_b"]


# --- implementation tiers: the "Kernel" rows --------------------------------------------------


def test_lint_flags_the_kernel_aes_rows_and_says_why(tiers):
    with pytest.warns(PlausibilityWarning, match="afalg"):
        found = st.lint(tiers)
    limit = found[found["check"] == "physical-limit"]
    assert sorted(limit["bytes_per_s"].round()) == [2_033_909_760.0, 37_086_822_400.0]
    assert set(limit["tier"].astype(str)) == {"kernel"}
    assert limit["label"].astype(str).str.contains("3.0.2").all()
    for message in limit["message"]:
        assert "user CPU time" in message and "kernel" in message and "afalg" in message
    # the PadLock rows (520 MB/s at 1 GHz) and AES-NI rows are fast but possible
    assert len(found) == 2


# --- NetBSD mailing list: three OSes -----------------------------------------------------------


def _label(df, word):
    labels = [str(v) for v in df["label"].unique() if word in str(v)]
    assert len(labels) == 1, labels
    return labels[0]


def test_netbsd_is_slowest_for_aes128_cbc_at_every_size_with_paired_test(netbsd):
    aes = netbsd[netbsd["algorithm"] == "aes-128-cbc"]
    base = _label(netbsd, "NetBSD")
    per_cell = quiet(st.compare, aes, by="label", baseline=base)
    assert len(per_cell) == 10 and (per_cell["ratio"] > 1).all()  # Linux and OpenBSD, 5 sizes
    paired = st.compare(aes, by="label", baseline=base, paired=True)
    assert set(paired["test"]) == {"paired t"} and (paired["n_candidate"] == 5).all()
    assert (paired["ratio_min"] > 1).all() and paired["significant"].all()
    assert (paired["p_adjusted"] < 0.01).all()
    obsd = paired[paired["candidate"].astype(str).str.startswith("OpenBSD")].iloc[0]
    # seed lines 95 and 135: OpenBSD / NetBSD aes-128 cbc at 16 ... 8192 bytes
    ratios = np.array([14453.82, 15232.75, 15760.38, 15924.40, 15926.95]) / np.array(
        [13096.45, 13832.38, 14034.33, 14096.25, 14101.97])
    assert obsd["ratio_min"] == pytest.approx(ratios.min(), rel=1e-9)  # 1.101 at 64 bytes
    assert obsd["ratio_max"] == pytest.approx(ratios.max(), rel=1e-9)  # 1.130 at 1024 bytes
    assert obsd["ratio"] == pytest.approx(np.exp(np.log(ratios).mean()), rel=1e-9)
    print(st.to_markdown(paired, ["candidate", "ratio", "p_value", "p_adjusted", "test"]))
    wil = st.compare(aes, by="label", baseline=base, paired=True, test="mannwhitney")
    assert set(wil["test"]) == {"wilcoxon"}
    # 5 pairs, all the same sign: the exact two-sided signed-rank p is 2/2**5 = 0.0625
    assert wil["p_value"].tolist() == pytest.approx([0.0625, 0.0625])


def test_netbsd_gap_to_openbsd_widens_per_mhz(netbsd):
    aes = netbsd[netbsd["algorithm"] == "aes-128-cbc"]
    base = _label(netbsd, "NetBSD")
    obsd = _label(netbsd, "OpenBSD")
    raw = st.compare(aes, by="label", baseline=base, candidate=obsd, paired=True)
    norm = st.per_ghz(aes)
    assert sorted(norm["clock_hz"].unique()) == [500e6, 750e6]  # from the three labels
    per_mhz = st.compare(norm, by="label", baseline=base, candidate=obsd, paired=True,
                         metric="bytes_per_s_per_ghz")
    assert per_mhz["ratio"].iloc[0] == pytest.approx(raw["ratio"].iloc[0] * 1.5, rel=1e-9)
    assert per_mhz["ratio"].iloc[0] > raw["ratio"].iloc[0] > 1
    assert per_mhz["ci_low"].iloc[0] > 1.6


def test_netbsd_paired_across_algorithms_and_sizes(netbsd):
    base = _label(netbsd, "NetBSD")
    both = st.compare(netbsd, by="label", baseline=base, paired=["algorithm", "block_bytes"],
                      groupby=["operation", "algorithm", "block_bytes"])
    # one row per operation (digest, encrypt) and candidate
    assert set(both["paired_over"]) == {"algorithm, block_bytes"}
    assert len(both) == 4


def test_comparing_tiers_warns_about_the_kernel_rows(tiers):
    with pytest.warns(CipherlabWarning) as record:
        r = st.compare(tiers, by="tier", baseline="asm", candidate="kernel",
                       groupby=["label", "algorithm", "operation", "block_bytes"])
    implausible = [w for w in record if w.category is PlausibilityWarning]
    assert len(implausible) == 1 and "afalg" in str(implausible[0].message)
    assert any("single value" in str(w.message) for w in record)
    via = r[r["label"].astype(str).str.startswith("VIA") & (r["algorithm"] == "aes-256-cbc")]
    # seed: Kernel 2,033,909.76k vs asm 11,127.47k under OpenSSL 3.0.2 on the VIA Luke
    assert via["ratio"].max() == pytest.approx(2_033_909.76 / 11_127.47, rel=1e-9)


# --- host-b capture: real repeats (data/captures/host-b-openssl-3.0.22/pyca.txt) --------------


@pytest.fixture(scope="module")
def pyca():
    import cipherlab

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.ingest(cipherlab.datasets.path("captures/host-b-openssl-3.0.22/pyca.txt"))
    assert (df["repeat"].nunique() == 5) and set(df["aesni"].astype(str)) == {"on", "off"}
    return df


def test_capture_with_repeats_gets_a_welch_test_per_cell(pyca):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # five repeats per side: no single-value warning
        r = st.speedup(pyca)
    assert set(r["test"]) == {"welch"} and (r["n_candidate"] == 5).all()
    gcm = r[r["algorithm"] == "aes-128-gcm"].set_index("block_bytes")
    # AES-NI + PCLMULQDQ pay off only once the per-call overhead stops dominating
    assert gcm.loc[16384, "ratio"] > 10 and gcm.loc[16384, "significant"]
    assert gcm.loc[16, "ratio"] < 2


def test_python_per_call_overhead_is_about_a_microsecond(pyca):
    # measurement-notes §2: Python `cryptography` adds ~0.5-1.6 us per call
    fit = st.cost_model(pyca)
    on = fit[fit["aesni"] == "on"].set_index("algorithm")
    assert 300 < on.loc["aes-128-gcm", "t0_ns"] < 3000
    assert (on["t0_ci_low"] > 0).all() and (on["t0_ci_low"] < on["t0_ns"]).all()


def test_the_aead_loop_change_shows_in_the_cost_model_and_is_flagged(aws):
    import cipherlab
    from cipherlab.errors import ComparabilityWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evp = cipherlab.ingest(cipherlab.datasets.path("captures/host-b-openssl-3.0.22/evp.txt"))
    keys = ["algorithm", "operation", "aesni"]  # each algorithm is its own run in evp.txt
    new = st.cost_model(evp, groupby=keys).set_index(keys)
    old = quiet(st.cost_model, aws).set_index(keys)
    gcm = ("aes-128-gcm", "encrypt", "on")
    # 3.0.22 runs a full init/IV/AAD/final/tag per message (PR #25823); 1.0.1f streamed
    assert new.loc[gcm, "t0_ns"] > 10 * old.loc[gcm, "t0_ns"]
    x = st.crossover(evp, groupby=keys)
    assert x.loc[x["aesni"] == "on", "crossover_bytes"].iloc[0] > 1000  # vs ~45 B on AWS
    both = cipherlab.concat([aws, evp])
    with pytest.warns(ComparabilityWarning) as record:
        r = st.compare(both[both["algorithm"] == "aes-128-gcm"], by="tool_version",
                       baseline="1.0.1f", groupby=["algorithm", "block_bytes", "aesni"],
                       paired=True)
    messages = " ".join(str(w.message) for w in record)
    assert "AEAD-loop change" in messages and "timed on different bases" in messages
    assert len(r) == 2  # aesni on and off
