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
    with pytest.warns(CipherlabWarning, match="no replication"):
        r = st.speedup(aws)  # aesni on / off: one run holds both sides
    cbc = r[r["algorithm"].astype(str).str.endswith("cbc")]
    assert len(cbc) == 15  # 3 key lengths x 5 sizes
    assert set(cbc["block_bytes"]) == set(SIZES)
    # seed line 24/25: 522138.77k / 251155.07k = 2.0790 at 16 bytes
    first = cbc[(cbc["algorithm"] == "aes-128-cbc") & (cbc["block_bytes"] == 16)]
    assert first["ratio"].iloc[0] == pytest.approx(522138.77 / 251155.07, rel=1e-9)
    assert cbc["ratio"].between(1.9, 2.1).all(), cbc[["algorithm", "block_bytes", "ratio"]]
    # one run per side: described, not tested; blank (NA) verdicts, not "no"
    assert (r["test"] == "no replication").all() and r["p_value"].isna().all()
    assert r["ci_low"].isna().all() and r["significant"].isna().all()
    assert (r["n_candidate"] == 1).all() and (r["unit"] == "run").all()
    # the README's description: within +-10 % of 2x at every size and key length
    assert cbc["ratio"].min() == pytest.approx(1.93, abs=0.005)
    assert cbc["ratio"].max() == pytest.approx(2.08, abs=0.005)


def test_aws_gcm_ratio_is_not_2(aws):
    r = quiet(st.speedup, aws)
    gcm = r[r["algorithm"].astype(str).str.endswith("gcm")]
    assert len(gcm) == 15
    assert gcm["ratio"].between(3.7, 9.5).all(), gcm[["algorithm", "block_bytes", "ratio"]]
    assert gcm["ratio"].min() == pytest.approx(3.8, abs=0.05)
    assert gcm["ratio"].max() == pytest.approx(9.4, abs=0.05)
    # seed: 687515.58k / 83879.10k = 8.197 at 64 bytes
    g64 = gcm[(gcm["algorithm"] == "aes-128-gcm") & (gcm["block_bytes"] == 64)]
    assert g64["ratio"].iloc[0] == pytest.approx(687515.58 / 83879.10, rel=1e-9)


def test_aws_ratio_test_describes_instead_of_testing(aws):
    with pytest.warns(CipherlabWarning, match="described, not tested"):
        r = st.ratio_test(aws, by="aesni", baseline="off", candidate="on", expected=2.0,
                          margin=0.1)
    assert len(r) == 30 and set(r["test"]) == {"no replication"}
    for col in ("p_value", "p_equivalence", "tost_low", "ci_low"):
        assert r[col].isna().all()
    assert r["equivalent"].isna().all() and r["differs"].isna().all()  # blank, not "no"
    cbc = r[r["algorithm"].astype(str).str.endswith("cbc")]
    gcm = r[r["algorithm"].astype(str).str.endswith("gcm")]
    assert cbc["ratio"].between(1.8, 2.2).all()  # inside 2x +-10 %, as a description
    assert (gcm["ratio"] > 2.2).all()


def test_aws_pairing_across_sizes_only_on_request_and_with_a_warning(aws):
    with pytest.warns(CipherlabWarning, match="independent replicates"):
        r = st.ratio_test(aws, by="aesni", baseline="off", paired=True)
    assert set(r["paired_over"]) == {"block_bytes"} and set(r["test"]) == {"paired t"}
    # no warning recommends pairing
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        st.speedup(aws)
    assert not any("paired" in str(w.message) for w in record)


def test_aws_crossover_with_and_without_aesni(aws):
    x = quiet(st.crossover, aws, "aes-128-gcm", "aes-128-cbc")
    on = x[x["aesni"] == "on"].iloc[0]
    off = x[x["aesni"] == "off"].iloc[0]
    assert 16 < on["crossover_bytes"] < 64 and on["regime"] == "a overtakes b"
    assert np.isnan(on["ci_low"]) and on["note"].startswith("one run")  # no replication
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
    assert fit["t0_ci_low"].isna().all() and (fit["n_units"] == 1).all()
    # one run: no lack-of-fit test, but the misfit per size is shown (GCM off: +58 % at 64 B)
    assert fit["lack_of_fit_p"].isna().all()
    gcm_off = fit[(fit["aesni"] == "off") & (fit["algorithm"] == "aes-128-gcm")].iloc[0]
    assert gcm_off["max_misfit"] > 0.5 and "64: +" in gcm_off["residuals"]
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


def test_netbsd_is_slowest_for_aes128_cbc_at_every_size_as_a_description(netbsd):
    aes = netbsd[netbsd["algorithm"] == "aes-128-cbc"]
    base = _label(netbsd, "NetBSD")
    with pytest.warns(CipherlabWarning) as record:
        per_size = st.compare(aes, by="label", baseline=base)
    assert len(per_size) == 10 and (per_size["ratio"] > 1).all()  # Linux and OpenBSD, 5 sizes
    assert set(per_size["test"]) == {"no replication"} and per_size["p_value"].isna().all()
    obsd = per_size[per_size["candidate"].astype(str).str.startswith("OpenBSD")]
    # seed lines 95 and 135: OpenBSD / NetBSD aes-128 cbc at 16 ... 8192 bytes
    ratios = np.array([14453.82, 15232.75, 15760.38, 15924.40, 15926.95]) / np.array(
        [13096.45, 13832.38, 14034.33, 14096.25, 14101.97])
    assert obsd["ratio"].to_numpy() == pytest.approx(ratios, rel=1e-9)  # 1.10 ... 1.13
    # what differs besides the OS, named by comparable (and warned by compare)
    messages = " ".join(str(w.message) for w in record)
    assert "0.9.7j, 0.9.8e, 0.9.8g" in messages and "AES_ASM" in messages
    assert "500 MHz nominal, 750 MHz nominal" in messages
    found = st.comparable(aes, by="label", warn=False)
    assert {"version", "build", "clock"} <= set(found["check"])
    print(st.to_markdown(per_size, ["candidate", "block_bytes", "ratio", "test"]))


def test_netbsd_gap_to_openbsd_widens_per_mhz(netbsd):
    aes = netbsd[netbsd["algorithm"] == "aes-128-cbc"]
    base = _label(netbsd, "NetBSD")
    obsd = _label(netbsd, "OpenBSD")
    raw = quiet(st.compare, aes, by="label", baseline=base, candidate=obsd)
    norm = st.per_ghz(aes)
    assert sorted(norm["clock_hz"].unique()) == [500e6, 750e6]  # from the three labels
    assert set(norm["clock_source"]) == {"nominal"}
    per_mhz = quiet(st.compare, norm, by="label", baseline=base, candidate=obsd,
                    metric="bytes_per_s_per_ghz")
    assert per_mhz["ratio"].to_numpy() == pytest.approx(raw["ratio"].to_numpy() * 1.5, rel=1e-9)
    assert per_mhz["ratio"].min() > 1.6 and per_mhz["p_value"].isna().all()


def test_netbsd_paired_across_algorithms_and_sizes_on_request(netbsd):
    base = _label(netbsd, "NetBSD")
    with pytest.warns(CipherlabWarning, match="independent replicates"):
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
    assert any("no replication" in str(w.message) for w in record)
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
    # relabelled: the preset its "aesni=off" marker meant (the mask in effect was not recorded)
    assert (df["repeat"].nunique() == 5) and set(df["isa"].astype(str)) == {"native",
                                                                             "no-aesni-classic"}
    return df


def test_repeats_inside_one_process_are_not_replicates(pyca):
    # pyca.txt: one timing loop per side (one process) printing five repeats each
    with pytest.warns(CipherlabWarning, match="no replication"):
        r = st.speedup(pyca)
    assert set(r["test"]) == {"no replication"} and (r["n_candidate"] == 1).all()
    gcm = r[r["algorithm"] == "aes-128-gcm"].set_index("block_bytes")
    # hardware AES (and what else the mask took) pays off only once the per-call overhead stops
    # dominating
    assert gcm.loc[16384, "ratio"] > 10 and gcm.loc[16, "ratio"] < 2
    # the spread of the repeats is shown beside the geometric mean
    assert (r["spread_candidate"] > 0).all() and r["median_candidate"].notna().all()
    # treating the repeats as units is possible, only on request
    rep = quiet(st.speedup, pyca, unit="repeat")
    assert set(rep["test"]) == {"welch"} and (rep["n_candidate"] == 5).all()
    assert (rep["unit"] == "repeat").all()


def test_python_per_call_overhead_is_about_a_microsecond(pyca):
    # measurement-notes §2: Python `cryptography` adds ~0.5-1.6 us per call
    fit = quiet(st.cost_model, pyca)
    on = fit[fit["isa"] == "native"].set_index("algorithm")
    assert 300 < on.loc["aes-128-gcm", "t0_ns"] < 3000
    assert on["t0_ci_low"].isna().all()  # one process per side: no interval
    # taken as units on request, the repeats reject the straight line (the r² = 0.72)
    with pytest.warns(CipherlabWarning, match="straight line .* is rejected"):
        rep = st.cost_model(pyca, unit="repeat").set_index(["algorithm", "isa"])
    gcm = rep.loc[("aes-128-gcm", "native")]
    assert gcm["lack_of_fit_p"] < 1e-5 and gcm["max_misfit"] > 0.3 and gcm["r_squared"] < 0.75


def test_the_aead_loop_change_shows_in_the_cost_model_and_is_flagged(aws):
    import cipherlab
    from cipherlab.errors import ComparabilityWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evp = cipherlab.ingest(cipherlab.datasets.path("captures/host-b-openssl-3.0.22/evp.txt"))
    keys = ["algorithm", "operation", "aesni"]  # each algorithm is its own run in evp.txt
    evp = evp[evp["isa_off"] == "none"]  # nothing off: AES-NI on, like the seed's "on" rows
    new = quiet(st.cost_model, evp, groupby=keys).set_index(keys)
    old = quiet(st.cost_model, aws).set_index(keys)
    gcm = ("aes-128-gcm", "encrypt", "on")
    # 3.0.22 runs a full init/IV/AAD/final/tag per message (PR #25823); 1.0.1f streamed
    assert new.loc[gcm, "t0_ns"] > 10 * old.loc[gcm, "t0_ns"]
    x = quiet(st.crossover, evp, groupby=keys)
    assert x.loc[x["aesni"] == "on", "crossover_bytes"].iloc[0] > 1000  # vs ~45 B on AWS
    both = cipherlab.concat([aws, evp])
    with pytest.warns(ComparabilityWarning) as record:
        r = st.compare(both[both["algorithm"] == "aes-128-gcm"], by="tool_version",
                       baseline="1.0.1f", groupby=["algorithm", "block_bytes", "aesni"],
                       paired=True)  # explicit pairing across sizes
    messages = " ".join(str(w.message) for w in record)
    assert "AEAD-loop change" in messages and "timed on different bases" in messages
    assert len(r) == 1  # AES-NI on: host-b's masked runs are not AES-NI off (isa_off)
