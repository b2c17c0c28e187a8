"""Analysis questions asked of the real pastes in tests/data/pastes (other versions, machines,
public-key tables), through the public API: what a researcher would type."""

import warnings
from pathlib import Path

import pandas as pd
import pytest

import cipherlab
import cipherlab.stats as st
from cipherlab.errors import AnalysisError

PASTES = Path(__file__).resolve().parents[1] / "data" / "pastes"


def paste(stem: str) -> pd.DataFrame:
    (path,) = PASTES.glob(f"{stem}_*.txt")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the readers' notes are not under test here
        return cipherlab.ingest(path)


def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*a, **k)


@pytest.fixture(scope="module")
def rsa_two_versions():
    """RSA sign/verify of OpenSSL 1.1.1f (Spanish blog) and 1.0.1f (Japanese blog)."""
    return pd.concat([paste("013"), paste("014")], ignore_index=True)


def test_public_key_rates_compare_in_ops_and_say_so(rsa_two_versions):
    # bytes_per_s (the default) is blank on sign/verify rows: loud, with the way forward
    with pytest.raises(AnalysisError, match=r"no cell has usable `bytes_per_s`.*"
                                            r"pass metric='ops_per_s'"):
        quiet(st.compare, rsa_two_versions, by="tool_version", baseline="1.0.1f")
    r = quiet(st.compare, rsa_two_versions, by="tool_version", baseline="1.0.1f",
              metric="ops_per_s")
    row = r[(r.algorithm == "rsa2048") & (r.operation == "sign")].iloc[0]
    # 1283.5 / 557.6 sign/s, as printed in the two pastes; one run per side: described
    assert row["ratio"] == pytest.approx(1283.5 / 557.6, rel=1e-3)
    assert row["test"] == "no replication" and pd.isna(row["p_value"])
    # the levels are in the metric's unit, not bytes/s
    md = st.to_markdown(r, ["algorithm", "operation", "ratio", "gmean_candidate"])
    assert "gmean_candidate: operations/s." in md and "bytes/s" not in md.split("\n")[-1]
    with pytest.raises(AnalysisError, match="pass metric='ops_per_s'"):
        quiet(st.ratio_test, rsa_two_versions, by="tool_version", baseline="1.0.1f")


def test_a_run_that_names_no_machine_is_not_pooled_with_one_that_does():
    # MSYS2 #983: one 1.0.2k MSYS2 build (version block, no label) and a mingw run ("while in
    # mingw", no version block). Pooled, one line was fitted through both builds (r² 0.26,
    # misfit 293 % at 1 KiB); blank is not "the same machine".
    df = paste("031")
    r = quiet(st.cost_model, df)
    assert len(r) == 2 and "label" in r.columns and "rule" not in r.columns
    assert (r["n_units"] == 1).all() and (r["max_misfit"] < 0.1).all()
    mingw = r[r["label"] == "in mingw"].iloc[0]
    msys = r[r["label"].isna()].iloc[0]
    assert mingw["asymptotic_bytes_per_s"] > 10 * msys["asymptotic_bytes_per_s"]
    # compare describes each build apart instead of pooling them into one side
    c = quiet(st.compare, df.assign(build=df["label"].isna().map({True: "msys2",
                                                                  False: "mingw"})),
              by="build", baseline="msys2")
    assert set(c["n_candidate"]) == {1} and set(c["n_baseline"]) == {1}
    assert c.loc[c.block_bytes == 16, "ratio"].iloc[0] == pytest.approx(518.51 / 190.59, rel=1e-3)


def test_a_crossing_the_other_way_round_says_where():
    # zh blog, 3.x AEAD sizes: ChaCha20-Poly1305 pays 17 ns per call and 0.21 ns/B, AES-128-GCM
    # 123 ns and 0.062 ns/B: GCM overtakes ChaCha20 where the lines cross, about 721 B. Asked
    # as "where does ChaCha20 overtake GCM", the answer was an infinite crossover.
    df = paste("034")
    fits = quiet(st.cost_model, df).set_index("algorithm")
    cha, gcm = fits.loc["chacha20-poly1305"], fits.loc["aes-128-gcm"]
    expected = (gcm["t0_ns"] - cha["t0_ns"]) / (cha["c_ns_per_byte"] - gcm["c_ns_per_byte"])
    r = quiet(st.crossover, df, "chacha20-poly1305", "aes-128-gcm").iloc[0]
    assert r["regime"] == "b overtakes a"
    assert r["crossover_bytes"] == pytest.approx(expected) and 600 < expected < 850
    flipped = quiet(st.crossover, df, "aes-128-gcm", "chacha20-poly1305").iloc[0]
    assert flipped["regime"] == "a overtakes b"
    assert flipped["crossover_bytes"] == pytest.approx(expected)
    assert pd.isna(r["ci_low"]) and r["note"].startswith("one run")  # a dump: no interval


def test_exports_say_what_each_column_of_a_fit_means():
    df = paste("034")
    md = st.to_markdown(quiet(st.small_block_overhead, df, "aes-128-gcm", "chacha20-poly1305"),
                        ["block_bytes", "ratio", "overhead_share_a"])
    note = md.split("\n")[-1]
    # the ratio of a small-block table is a over b: it has no candidate and no baseline
    assert "ratio: throughput a/b." in note and "candidate" not in note
    assert "overhead_share_a: fraction" in note
    fit = st.to_latex(quiet(st.cost_model, df), ["algorithm", "t0_ns", "max_misfit"])
    assert "max\\_misfit: largest misfit of the line at a size, a fraction" in fit


def test_runs_of_two_settings_that_pass_the_lack_of_fit_test_are_flagged():
    # afalg engine README: the engine with its software fallback and without it, same version
    # and label (only the prose tells them apart). As two runs of one fit they miss the line by
    # 311 % at 16 B, yet the lack-of-fit test, whose error term is their disagreement, passes.
    df = paste("021")
    with pytest.warns(Warning, match=r"although the lack of fit test does not reject the "
                                     r"line: their runs disagree"):
        fit = st.cost_model(df)
    afalg = fit[fit["engine"] == "afalg"].iloc[0]
    assert afalg["n_units"] == 2 and afalg["lack_of_fit_p"] > 0.05 and afalg["max_misfit"] > 3
    apart = quiet(st.cost_model, df, groupby=["algorithm", "operation", "engine", "run"])
    assert len(apart) == 3 and (apart["n_units"] == 1).all()
    assert apart["max_misfit"].max() < afalg["max_misfit"] / 5


SPEED = """$ openssl speed -evp aes-128-gcm
type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes
AES-128-GCM     566733.55k  1530433.33k  3215218.09k  4286318.46k  4839017.13k  4901044.22k
"""


@pytest.mark.parametrize("heading, clock, source", [
    # a CPU's rated clock after '@', a turbo clock beside it: the rated one, copied from the text
    ("Xeon E5-2686 v4 @ 2.30GHz (turbo 3.0 GHz)", 2.3e9, "nominal"),
    ("Raspberry Pi 4 @ 1.5GHz", 1.5e9, "nominal"),
    # two clocks and no '@': which one the run had cannot be known, so none, loudly
    ("Core i5-8250U 1.60GHz-3.40GHz", None, None),
])
def test_a_clock_named_in_the_text_is_nominal_and_a_range_is_no_clock(heading, clock, source):
    df = quiet(cipherlab.ingest, f"## {heading}\n\n{SPEED}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        per = st.per_ghz(df)
    if clock is None:
        assert per["clock_hz"].isna().all() and per["clock_source"].isna().all()
        assert any("name(s) several, none after '@'" in str(w.message) for w in caught)
    else:
        assert (per["clock_hz"] == clock).all() and (per["clock_source"] == source).all()
        assert per["bytes_per_s_per_ghz"].notna().all()


def test_a_clock_with_a_thousands_comma_is_read_in_mhz_not_as_a_decimal():
    # A label writes the Raspberry Pi 4's clock as 1,500 MHz: stats read "1,500" as 1.5 (a
    # decimal comma) and gave 1.5 MHz, cycles per byte 1000x too small; the readers' clock
    # (now the one definition) groups thousands. A decimal comma ("1,5 GHz") is no clock, said.
    df = paste("043")
    cpb = quiet(st.cycles_per_byte, df.assign(label="Raspberry Pi 4 (Cortex-A72 @ 1,500 MHz)"))
    assert (cpb["clock_hz"] == 1.5e9).all() and (cpb["clock_source"] == "nominal").all()
    row = cpb[cpb.block_bytes == 16].iloc[0]
    assert row["cycles_per_byte"] == pytest.approx(1.5e9 / row["bytes_per_s"])
    assert 20 < row["cycles_per_byte"] < 40  # aes-256-cbc without ARMv8 AES, 16 B calls
    with pytest.warns(cipherlab.errors.CipherlabWarning, match="no known clock"):
        st.cycles_per_byte(df.assign(label="Raspberry Pi 4 @ 1,5 GHz"))


def test_paper_tables_default_to_a_columns_width():
    # to_markdown/to_latex printed every column of a result (32 for ratio_test: hygiene levels,
    # statistics, unadjusted p-values), too wide for a paper. By default they show the keys,
    # estimates with intervals, adjusted p-values and verdicts, drop columns blank in every
    # row (a paste's p-values), and state once what every row shares; columns="all" keeps all.
    df = paste("034")  # zh blog, 3.x AEAD: GCM and ChaCha20, one run
    fit = quiet(st.cost_model, df)
    md = st.to_markdown(fit)
    head = md.splitlines()[0]
    assert head.startswith("| algorithm | t0_ns [CI] | c_ns_per_byte [CI] |")
    for hidden in ("residuals", "r_squared", "lack_of_fit_p", "operation", "note"):
        assert hidden not in head
    assert "operation: encrypt." in md and "note: one run: no replication" in md
    assert head.count("|") - 1 <= 6
    everything = st.to_markdown(fit, "all").splitlines()[0]
    assert everything.count("|") - 1 == len(fit.columns) - 4  # t0 and c absorb their CIs
    tex = st.to_latex(quiet(st.small_block_overhead, df, "aes-128-gcm", "chacha20-poly1305"))
    assert r"block\_bytes & ratio [CI] & overhead\_share\_a [CI] & overhead\_share\_b [CI]" in tex
    assert "a: aes-128-gcm. b: chacha20-poly1305." in tex
    with pytest.raises(AnalysisError, match="`columns` must be a list of column names, None"):
        st.to_markdown(fit, "paper")
    # the REPL shows the result's columns, not one long note taking the whole width
    assert "one run: no replication, the fit is a description" not in repr(fit)


def test_a_crossover_of_public_key_operations_says_why_there_is_no_line():
    # RSA sign/verify (014, 1.0.1f): crossover(df, 'rsa2048', 'rsa1024') crashed inside numpy
    # ("zero-size array to reduction operation maximum"), as did small_block_overhead
    df = paste("014")
    for fn in (st.crossover, st.small_block_overhead):
        with pytest.raises(AnalysisError, match=r"'rsa2048', 'rsa1024' have no rows with a block "
                                                r"size .* public-key operations do not have"):
            quiet(fn, df, "rsa2048", "rsa1024")
    # one sized algorithm beside a public-key one: the message names the one without sizes
    both = pd.concat([paste("013"), df], ignore_index=True)
    with pytest.raises(AnalysisError, match=r"^crossover: 'rsa2048' has no rows with a block"):
        quiet(st.crossover, both, "aes-256-cbc", "rsa2048")
