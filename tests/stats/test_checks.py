"""comparable() and lint(): each check fires on what it is for, and only then."""

import warnings

import numpy as np
import pandas as pd
import pytest

import cipherlab.stats as st
from cipherlab.errors import ComparabilityWarning, PlausibilityWarning
from cipherlab.model import Run, to_frame


def table(runs, source="t.txt"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return to_frame([Run(meta=m, cells=c) for m, c in runs], source=source)


def cells(algorithm, name, values, sizes=(16, 64, 256, 1024, 8192), operation="encrypt"):
    return [{"line": 1, "algorithm": algorithm, "name": name, "operation": operation,
             "block_bytes": n, "bytes_per_s": v} for n, v in zip(sizes, values)]


GCM = [8.6e8, 2.0e9, 3.5e9, 4.2e9, 4.5e9]


@pytest.mark.parametrize("version, era", [
    ("3.0.0", "old"), ("3.0.15", "old"), ("3.0.16", "new"), ("3.0.19", "new"),
    ("3.1.7", "old"), ("3.1.8", "new"), ("3.2.3", "old"), ("3.2.4", "new"),
    ("3.3.2", "old"), ("3.3.3", "new"), ("3.4.0", "new"), ("3.5.1", "new"), ("4.0.0", "new"),
    ("1.1.1w", "old"), ("1.0.1f", "old"), ("0.9.8g", "old"), (None, None)])
def test_aead_era_boundary_table(version, era):
    # measurement-notes §1.3 / openssl PR #25823
    assert st.aead_era(version) == era


def test_aead_loop_change_is_flagged_only_for_aead_rows():
    df = table([({"label": "3.3.1", "tool": "openssl", "tool_version": "3.3.1", "timing": "cpu"},
                 cells("aes-128-gcm", "AES-128-GCM", GCM) + cells("aes-128-cbc", "AES-128-CBC", GCM)),
                ({"label": "3.4.1", "tool": "openssl", "tool_version": "3.4.1", "timing": "cpu"},
                 cells("aes-128-gcm", "AES-128-GCM", GCM) + cells("aes-128-cbc", "AES-128-CBC", GCM))])
    with pytest.warns(ComparabilityWarning, match="PR #25823"):
        found = st.comparable(df)
    assert found["check"].tolist() == ["aead-loop", "aead-loop", "version", "version"]
    cbc = df[df["algorithm"] == "aes-128-cbc"]
    assert set(st.comparable(cbc, warn=False)["check"]) == {"version"}  # no AEAD-loop finding
    # and compare() runs the check on the rows it compares
    with pytest.warns(ComparabilityWarning, match="AEAD"):
        st.compare(df, by="label", baseline="3.3.1", paired=True)


def test_timing_bases_and_multi_are_flagged():
    df = table([({"label": "a", "tool_version": "3.0.2", "timing": "cpu"},
                 cells("aes-128-cbc", "AES-128-CBC", GCM)),
                ({"label": "b", "tool_version": "3.0.2", "timing": "elapsed", "multi": 4},
                 cells("aes-128-cbc", "AES-128-CBC", GCM))])
    with pytest.warns(ComparabilityWarning) as record:
        found = st.comparable(df)
    assert set(found["check"]) == {"timing", "multi"}
    assert {w.category for w in record} == {ComparabilityWarning}
    assert any("elapsed" in str(w.message) for w in record)
    # unknown timing beside a known one is not a conflict
    same = df.assign(timing=pd.Categorical(["cpu"] * 5 + [None] * 5), multi=pd.NA)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert st.comparable(same).empty


def test_legacy_names_in_1x_are_flagged_in_isa_comparisons():
    df = table([({"label": "x", "tool_version": "1.1.1w", "timing": "cpu", "aesni": "on"},
                 cells("aes-128-cbc", "aes-128 cbc", GCM)),
                ({"label": "x", "tool_version": "1.1.1w", "timing": "cpu", "aesni": "off"},
                 cells("aes-128-cbc", "aes-128 cbc", GCM))])
    with pytest.warns(ComparabilityWarning, match="never use AES-NI"):
        found = st.comparable(df, by="aesni")
    assert set(found["check"]) == {"legacy-names"}
    # 0.9.8 had no AES-NI at all, and wiki spellings ('AES-128 CBC') say nothing: no warning
    old = df.assign(tool_version=pd.Categorical(["0.9.8g"] * 10))
    wiki = df.assign(name=pd.Categorical(["AES-128 CBC"] * 10))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert st.comparable(old, by="aesni").empty
        assert st.comparable(wiki, by="aesni").empty


def test_lint_negative_inf_and_drops():
    vals = [1e8, -5e7, 3e8, np.inf, 3.1e8]
    df = table([({"label": "x", "tool_version": "3.0.2"},
                 cells("aes-128-cbc", "AES-128-CBC", vals)),
                ({"label": "y", "tool_version": "3.0.2"},
                 cells("aes-128-gcm", "AES-128-GCM", [1e8, 4e8, 9e8, 1e8, 9.5e8]))])
    with pytest.warns(PlausibilityWarning):
        found = st.lint(df)
    by_check = found.groupby("check")["block_bytes"].apply(list).to_dict()
    assert by_check == {"negative": [64], "inf": [1024], "drops-with-size": [1024]}
    assert "unit error" in found.loc[found["check"] == "drops-with-size", "message"].iloc[0]


def test_lint_uses_the_clock_and_the_cpu_class():
    df = pd.DataFrame({"label": ["box"] * 3, "algorithm": ["aes-128-gcm", "aes-128-cbc", "md5"],
                       "operation": ["encrypt", "encrypt", "digest"], "block_bytes": 8192,
                       "bytes_per_s": [1.5e10, 2.5e9, 5e8]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert st.lint(df).empty  # unknown clock: generous 6.5 GHz
        slow = st.lint(df, clock_hz=1e9)  # 1 GHz: GCM at 0.067 cpb, CBC-enc 0.4, MD5 2.0
    assert slow["algorithm"].tolist() == ["aes-128-gcm", "aes-128-cbc", "md5"]
    assert (slow["limit_bytes_per_s"] < slow["bytes_per_s"]).all()
    # aesni=off: the no-AES-NI floor (4 cpb) applies
    off = df.assign(aesni="off", bytes_per_s=[1.0e9, 1.0e9, 1e8])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = st.lint(off, clock_hz=3e9)
    assert found["algorithm"].tolist() == ["aes-128-gcm", "aes-128-cbc"]
    assert "without AES-NI" in found["message"].iloc[0]


@pytest.mark.parametrize("cpu, old", [
    ("Intel(R) Celeron(R) CPU J4125 @ 2.00GHz", False), ("Pentium Silver N5000", False),
    ("Intel(R) Pentium(R) CPU G4560 @ 3.50GHz", False), ("Intel(R) Atom(TM) CPU C3758", False),
    ("AMD Athlon 200GE", False), ("AMD Opteron(tm) Processor 6272", False),
    ("Intel(R) Celeron(R) CPU J1900 @ 1.99GHz", True), ("Intel(R) Pentium(R) CPU G3258", True),
    ("Intel(R) Atom(TM) CPU N270 @ 1.60GHz", True), ("Core 2 Duo E8400", True),
    ("AMD Opteron 2435", True)])
def test_a_brand_of_old_cpus_gets_the_no_aes_floor_only_for_its_models_without_aes(cpu, old):
    # AES-128-CBC decrypt at 2 GB/s: 1.3 cycles/byte at 2.6 GHz, beyond the 4 of a CPU without
    # AES instructions, well within one that has them (a Celeron J4125 has AES-NI)
    df = pd.DataFrame({"label": ["box"], "cpu": [cpu], "algorithm": ["aes-128-cbc"],
                       "operation": ["decrypt"], "block_bytes": [65536], "bytes_per_s": [2.0e9]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = st.lint(df, clock_hz=2.6e9)
    assert len(found) == old


def test_lint_clean_table_is_silent(aws):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert st.lint(aws).empty
        assert st.comparable(aws, groupby=["algorithm"]).empty


def test_rows_of_different_tools_in_one_cell_are_flagged():
    df = table([({"label": "o", "tool": "openssl", "tool_version": "3.0.2", "timing": "cpu"},
                 cells("aes-128-gcm", "AES-128-GCM", GCM)),
                ({"label": "p", "tool": "cryptography", "timing": "cpu"},
                 cells("aes-128-gcm", "AESGCM", GCM))])
    with pytest.warns(ComparabilityWarning, match="different tools"):
        assert set(st.comparable(df, groupby=["algorithm"])["check"]) == {"tool"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert st.comparable(df, by="tool").empty
        assert st.comparable(df, groupby=["tool", "algorithm"]).empty


def test_an_arm_mask_without_armv8_aes_gets_the_no_aes_floor_and_its_name():
    """A real forum paste of a Raspberry Pi 5 (Cortex-A76, 2.4 GHz) with OPENSSL_armcap=0x1:
    AES-256-CBC at 97.6 MB/s without ARMv8 AES is 24.6 cycles/byte, inside the limit. Said to
    run at 300 MHz (a clock typed wrong), the same rows are 3.1 cycles/byte: impossible without
    the AES instructions (the floor of 4 × 14/10 rounds), which the ARM mask's isa_off
    (aes+pmull+...) now says, as x86's aesni did; before, they got any CPU's floor (1.4) and
    passed."""
    from pathlib import Path

    import cipherlab

    paste = (Path(__file__).parents[1] / "data" / "user" / "terminal"
             / "026_forum-pi5-armcap-prose-no-cpuinfo.txt")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.ingest(paste)
        assert st.lint(df).empty
        found = st.lint(df, clock_hz=0.3e9)
    masked = df[df["isa_off"].astype(str) == "aes+pmull+sha1+sha256+sha512+tick+cpuid"]
    aes = found[found["algorithm"].astype(str) == "aes-256-cbc"]
    off = aes[aes["line"].isin(masked["line"])]
    assert len(off) == 6 and all("on any CPU" in m for m in aes.loc[~aes.index.isin(off.index),
                                                                     "message"])
    assert all("limit of 5.6 cycles/byte for aes-256-cbc on a CPU without ARMv8 AES" in m
               for m in off["message"]) and not any("AES-NI" in m for m in off["message"])


def test_a_condition_that_differs_between_the_sides_is_named():
    masked = {"isa": "no-aesni", "isa_off": "aesni+pclmulqdq"}
    df = table([({"label": "a", "tool_version": "3.0.2", "timing": "cpu"},
                 cells("aes-128-gcm", "AES-128-GCM", GCM)),
                ({"label": "b", "tool_version": "3.0.2", "timing": "cpu", **masked},
                 cells("aes-128-gcm", "AES-128-GCM", [v / 8 for v in GCM]))])
    with pytest.warns(ComparabilityWarning, match=r"condition isa \(no-aesni, not stated\)"):
        found = st.comparable(df, by="label", groupby=["algorithm"])
    assert set(found["check"]) == {"condition"}
    assert set(found["value"]) == {"no-aesni", "not stated", "aesni+pclmulqdq"}
    # compared by the switch itself, or within a preset every row names, its columns are the
    # comparison; without `by` nothing says what is compared
    presets = table([({"label": lib, "tool_version": "3.0.2", "timing": "cpu", "isa": "no-aesni",
                       "isa_off": off}, cells("aes-128-gcm", "AES-128-GCM", GCM))
                     for lib, off in (("a", "aesni+pclmulqdq"), ("b", "aesni"))])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert st.comparable(df, by="isa", groupby=["algorithm"]).empty
        assert st.comparable(presets, by="label", groupby=["algorithm", "isa"]).empty
        assert st.comparable(df, groupby=["algorithm"]).empty
    with pytest.warns(ComparabilityWarning, match="condition isa_off"):  # no preset named
        st.comparable(presets, by="label", groupby=["algorithm"])
