"""ISA presets against the real openssl: each one changes the mask that `openssl version -a`
reports, in exactly the bits it claims (facts checked by hand on OpenSSL 3.0.19, see _isa.py), and
the decoded features agree with OpenSSL's manual (docs/openssl-ia32cap.md) and this CPU's flags."""

from __future__ import annotations

import platform
import warnings

import pytest

from cipherlab.errors import CaptureWarning
from cipherlab.runners import ISA_PRESETS, IsaCondition, effective_mask, isa_env, resolve_isa
from cipherlab.runners._isa import (FEATURES, _words, aesni_state, features, isa_off,
                                    label_masks)

X86 = platform.machine().lower() in ("x86_64", "amd64")


@pytest.fixture(scope="module")
def native():
    mask = effective_mask({})
    if _words(mask) is None:
        pytest.skip(f"not an x86 openssl (CPUINFO {mask!r}); ia32cap presets do not apply")
    return mask


def _mask(name):
    return effective_mask(isa_env(IsaCondition(name, ISA_PRESETS[name])))


def test_isa_env_sets_and_removes_the_variable():
    base = {"PATH": "/usr/bin", "OPENSSL_ia32cap": "~0x0"}
    assert "OPENSSL_ia32cap" not in isa_env(IsaCondition("native", None), base)
    env = isa_env(IsaCondition("no-aesni", ISA_PRESETS["no-aesni"]), base)
    assert env["OPENSSL_ia32cap"] == "~0x200000200000000:~0x60000000000" and env["PATH"] == "/usr/bin"
    assert base["OPENSSL_ia32cap"] == "~0x0"  # the input is not mutated


@pytest.mark.openssl
@pytest.mark.parametrize("name", [n for n in ISA_PRESETS if n != "native"])
def test_every_preset_changes_the_reported_mask(native, name):
    need = {"no-vaes": "vaes"}.get(name, "aesni" if "aesni" in name else None)
    if need and need not in features(native):
        pytest.skip(f"this CPU lacks the feature {name} switches off")
    assert _mask(name) != native


@pytest.mark.openssl
def test_presets_change_the_bits_they_claim(native):
    n0, n1 = _words(native)[:2]
    aes_pclmul = (1 << 57) | (1 << 33)
    vaes_vpclmul = (1 << 41) | (1 << 42)
    if not n0 & (1 << 57):
        pytest.skip("no AES-NI on this CPU")
    w0, w1 = _words(_mask("no-aesni"))[:2]
    assert w0 == n0 & ~aes_pclmul and w1 == n1 & ~vaes_vpclmul  # every AES instruction
    w0, w1 = _words(_mask("no-aesni-classic"))[:2]
    assert w0 == n0 & ~aes_pclmul and w1 == 0  # no ':' zeroes the second word on 3.x
    w0, w1 = _words(_mask("no-simd"))[:2]
    assert not w0 & ((1 << 41) | aes_pclmul) and w1 == 0  # SSSE3, AES-NI, AVX2.. off
    if n1 & (1 << 41):
        w0, w1 = _words(_mask("no-vaes"))[:2]
        assert w0 == n0 and w1 == n1 & ~vaes_vpclmul


@pytest.mark.openssl
def test_resolve_accepts_raw_masks_and_drops_duplicates(native):
    conds = resolve_isa(["native", "~0x200000000:~0", "native"])
    assert [(c.name, c.value) for c in conds] == [("native", None),
                                                  ("~0x200000000:~0", "~0x200000000:~0")]


@pytest.mark.openssl
def test_resolve_warns_when_a_mask_changes_nothing(native):
    with pytest.warns(CaptureWarning, match="left the mask that openssl reports unchanged"):
        conds = resolve_isa(["native", "~0x0:~0x0"])
    assert len(conds) == 2  # kept, but the user was told


def test_resolve_rejects_unknown_names_listing_the_presets():
    with pytest.raises(ValueError, match=r"no-aesni.*not 'aes-off'"):
        resolve_isa("native,aes-off")


def _cpu_without(tmp_path, mask: str) -> str:
    """The real openssl, started as if the CPU lacked the features ``mask`` clears.

    A CPU without VAES or AES-NI is not at hand, so a two-line wrapper gives the real binary a
    default ``OPENSSL_ia32cap`` whenever the caller sets none: 'native' then reports the reduced
    mask, exactly as on such a CPU, and presets still set their own value on top.
    """
    import shutil
    wrapper = tmp_path / "openssl"
    wrapper.write_text(f'#!/bin/sh\nexport OPENSSL_ia32cap="${{OPENSSL_ia32cap:-{mask}}}"\n'
                       f'exec {shutil.which("openssl")} "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper)


@pytest.mark.openssl
@pytest.mark.parametrize("name, mask, missing", [
    ("no-vaes", ":~0x60000000000", "no vaes"),
    ("no-aesni", "~0x200000200000000:~0x0", "no aesni"),
])
def test_presets_the_cpu_cannot_honour_are_skipped_with_a_message(native, tmp_path, name, mask,
                                                                  missing):
    openssl = _cpu_without(tmp_path, mask)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        conds = resolve_isa(f"native,{name}", openssl=openssl)
    assert [c.name for c in conds] == ["native"]
    assert any(f"skipping ISA preset {name!r}" in str(w.message) and missing in str(w.message)
               for w in caught), [str(w.message) for w in caught]


# --- decoding: named by what the mask switched off ---------------------------------------------

def _documented_bits() -> dict[str, int]:
    """``'bit #64+41 denoting availability of VAES extension'`` -> {'VAES extension': 105}, read
    from the manual page text copied into docs/."""
    import re
    from pathlib import Path
    text = " ".join((Path(__file__).parents[2] / "docs" / "openssl-ia32cap.md").read_text().split())
    out = {}
    for m in re.finditer(r"bit #(64\+)?(\d+),? ((?:denoting|reserved)[^;]*);", text):
        out[m[3].strip()] = (64 if m[1] else 0) + int(m[2])
    return out


def test_feature_bits_are_the_ones_the_openssl_manual_documents():
    doc = _documented_bits()
    by_words = {"aesni": "AES-NI", "pclmulqdq": "PCLMULQDQ", "vaes": "VAES",
                "vpclmulqdq": "VPCLMULQDQ", "shani": "SHA extension", "ssse3": "SSSE3",
                "avx": "AVX extension", "avx2": "AVX2", "avx512f": "AVX512F",
                "avx512bw": "AVX512BW", "avx512vl": "AVX512VL", "avx512dq": "AVX512DQ",
                "avx512ifma": "AVX512IFMA", "bmi1": "BMI1", "bmi2": "BMI2", "rdseed": "RDSEED",
                "adx": "ADCX", "movbe": "MOVBE", "xop": "XOP", "rdrand": "RDRAND"}
    for name, words in by_words.items():
        hits = [bit for text, bit in doc.items() if words in text]
        assert hits, f"{words} not found in the manual text"
        w, b = FEATURES[name]
        assert 64 * w + b in hits, (name, hits)


# cipherlab name -> /proc/cpuinfo flag (Linux spells a few differently)
_LINUX_FLAG = {"aesni": "aes", "shani": "sha_ni", "avx512f": "avx512f", "rdseed": "rdseed"}


@pytest.mark.openssl
def test_decoded_features_match_this_cpus_flags(native):
    flags = set(open("/proc/cpuinfo").read().split("flags")[1].split("\n")[0].split())
    have = set(features(native))
    checked = ["aesni", "pclmulqdq", "vaes", "vpclmulqdq", "shani", "ssse3", "avx", "avx2",
               "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512ifma", "bmi1", "bmi2",
               "adx", "movbe"]
    wrong = [n for n in checked if (n in have) != (_LINUX_FLAG.get(n, n) in flags)]
    assert not wrong, f"mask bits disagree with /proc/cpuinfo for {wrong}"


@pytest.mark.openssl
def test_each_preset_is_named_by_what_it_switched_off(native):
    if "aesni" not in features(native):
        pytest.skip("no AES-NI on this CPU")
    have = features(native)
    aes = [f for f in ("aesni", "pclmulqdq", "vaes", "vpclmulqdq") if f in have]
    assert isa_off(native, _mask("no-aesni")) == "+".join(aes)
    assert aesni_state(native, _mask("no-aesni")) == "off"
    classic = isa_off(native, _mask("no-aesni-classic")).split("+")
    assert classic[:len(aes)] == aes and "avx2" in classic  # the whole second word went too
    assert aesni_state(native, _mask("no-aesni-classic")) is None  # not AES-NI alone
    assert isa_off(native, native) == "none" and aesni_state(native, native) == "on"
    if "vaes" in have:
        assert isa_off(native, _mask("no-vaes")) == "vaes+vpclmulqdq"
        assert aesni_state(native, _mask("no-vaes")) is None


def test_pasted_dumps_are_labelled_by_their_cpuinfo_mask():
    import cipherlab
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.ingest(cipherlab.datasets.path("captures/host-b-openssl-3.0.22/evp.txt"))
    masked = df["cpuinfo"].astype(str).str.contains("env:~0x200000200000000")
    assert masked.any() and (~masked).any()
    assert set(df.loc[~masked, "isa_off"]) == {"none"}
    labels = set(df.loc[masked, "isa_off"].astype(str))
    # the AWS-wiki value switched off the whole second word, not AES-NI alone
    assert len(labels) == 1 and labels.pop().startswith("aesni+pclmulqdq+vaes+vpclmulqdq+shani+avx2")


def test_a_paste_without_a_native_run_is_decoded_from_its_env_value_and_says_so():
    import pandas as pd

    from cipherlab.errors import IngestWarning
    df = pd.DataFrame({"source": "x.txt", "cpuinfo": [
        "OPENSSL_ia32cap=0xfdfa3201078bffff:0x405fc6f1bf07ab env:~0x200000200000000:~0x0"]})
    with pytest.warns(IngestWarning, match="no run without OPENSSL_ia32cap"):
        out = label_masks(df)
    assert out["isa_off"].tolist() == ["aesni+pclmulqdq"] and out["aesni"].tolist() == ["off"]


def test_a_marker_label_that_hides_more_than_aesni_is_warned_about():
    import pandas as pd

    from cipherlab.errors import IngestWarning
    df = pd.DataFrame({"source": "x.txt", "aesni": ["on", "off"], "cpuinfo": [
        "OPENSSL_ia32cap=0xfffa3203078bffff:0x405fc6f1bf07ab",
        "OPENSSL_ia32cap=0xfdfa3201078bffff:0x0 env:~0x200000200000000"]})
    with pytest.warns(IngestWarning, match="aesni=off ran with a mask that switched off aesni"):
        out = label_masks(df)
    assert out["aesni"].astype(str).tolist() == ["on", "off"]  # the text's label is kept
    assert out["isa_off"].astype(str).str.contains("avx2").tolist() == [False, True]


# --- ARM: OPENSSL_armcap (docs/openssl-armcap.md) ----------------------------------------------
def test_arm_feature_bits_are_the_ones_openssls_arm_arch_h_defines():
    import re
    from pathlib import Path

    from cipherlab.runners._isa import ARM_FEATURES
    doc = (Path(__file__).resolve().parents[2] / "docs" / "openssl-armcap.md").read_text()
    defined = {m[1].lower(): int(m[2]) for m in re.finditer(r"#define ARMV\d_(\w+) \(1 << (\d+)\)", doc)}
    assert defined == {"neon": 0, "tick": 1, "aes": 2, "sha1": 3, "sha256": 4, "pmull": 5,
                       "sha512": 6, "cpuid": 7}
    assert ARM_FEATURES == defined


def test_an_arm_value_replaces_the_word_as_strtoul_reads_it():
    from cipherlab.runners._isa import arm_value, asked_masks
    assert arm_value("0xbd") == (0xbd, True) and arm_value("010") == (8, True)  # (octal)
    assert arm_value("~0x24") == (0, False)  # no '~' in strtoul: every feature off
    ref, mask = asked_masks("armcap=0x1")
    assert isa_off(ref, mask) == "aes+pmull+sha1+sha256+sha512+tick+cpuid"


def test_arm_cpuinfo_masks_are_decoded_against_the_native_run():
    """A Graviton's native run (0xbd) and one under OPENSSL_armcap=0x99 (AES and PMULL cleared):
    ``isa_off`` names them and ``aesni`` is off, as on x86; 0x0 switches off NEON too."""
    import pandas as pd
    df = pd.DataFrame({"source": "g2.txt", "cpuinfo": [
        "OPENSSL_armcap=0xbd", "OPENSSL_armcap=0x99 env:0x99", "OPENSSL_armcap=0x0 env:0"]})
    out = label_masks(df)
    assert out["isa_off"].astype(str).tolist() == ["none", "aes+pmull", "aes+pmull+sha1+sha256+neon+cpuid"]
    assert out["aesni"].astype(object).where(out["aesni"].notna(), None).tolist() == ["on", "off", None]


def test_a_stated_armcap_without_cpuinfo_is_decoded_and_a_tilde_is_loud():
    import pandas as pd

    from cipherlab.errors import IngestWarning
    from cipherlab.runners._isa import label_asked
    df = pd.DataFrame({"source": "pi.txt", "isa_mask": [None, "armcap=0x1", "armcap=~0x4"]})
    with pytest.warns(IngestWarning) as caught:
        out = label_asked(df)
    assert out["isa"].astype(object).tolist()[1:] == ["armcap=0x1", "armcap=~0x4"]
    assert out["isa_off"].astype(str).tolist()[2] == "aes+pmull+sha1+sha256+sha512+neon+tick+cpuid"
    assert any("is no number: OpenSSL reads it as 0x0" in str(w.message) for w in caught)


# --- ARM: OPENSSL_armcap, on Debian's arm64 openssl under qemu-aarch64 (the arm_openssl fixture) --

@pytest.mark.openssl
def test_arm_presets_clear_exactly_their_bits_of_the_native_word(arm_openssl):
    """OPENSSL_armcap replaces the word, so each preset's value is native's without its bits, and
    the binary reports that word in effect; no-aesni is ARMv8 AES + PMULL off (aesni=off)."""
    from cipherlab.runners import ARM_PRESETS
    from cipherlab.runners._isa import ARM_FEATURES, labels
    native = effective_mask({}, openssl=arm_openssl)
    assert native.startswith("armcap=0x"), native
    with warnings.catch_warnings():
        warnings.simplefilter("error", CaptureWarning)  # every preset changes this CPU's word
        conds = resolve_isa(["native", *ARM_PRESETS], openssl=arm_openssl)
    assert [c.name for c in conds] == ["native", *ARM_PRESETS]
    on = set(features(native))
    for cond in conds[1:]:
        cleared = ARM_PRESETS[cond.name] or set(ARM_FEATURES)
        mask = effective_mask(isa_env(cond), openssl=arm_openssl)
        assert mask == cond.value, (cond, mask)  # (the value is the word in effect, verbatim)
        assert set(features(mask)) == on - cleared, cond
        assert set(isa_off(native, mask).split("+")) == on & cleared, cond
    got = labels(conds[1], conds[1].value, native)
    assert (got["isa_off"], got["aesni"]) == ("aes+pmull", "off")


@pytest.mark.openssl
def test_each_family_skips_the_others_conditions_with_a_message(arm_openssl, native):
    for openssl, spec, kept, foreign in [
            (arm_openssl, "native,no-aesni,no-vaes,~0x200000000:~0,armcap=0x1", 3,
             ("no-vaes", "~0x200000000:~0")),
            (None, "native,no-aesni,no-pmull,armcap=0x1", 2, ("no-pmull", "armcap=0x1"))]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            conds = resolve_isa(spec, openssl=openssl)
        assert len(conds) == kept, conds
        said = [str(w.message) for w in caught]
        for name in foreign:
            assert any(f"skipping ISA condition {name!r}" in m and "only" in m for m in said), said


@pytest.mark.openssl
def test_an_arm_cpu_without_the_aes_instructions_skips_no_aesni(arm_openssl, tmp_path):
    """A Cortex-A72 (Raspberry Pi 4) has NEON and no ARMv8 crypto: the wrapper starts the real
    binary with that word whenever the caller sets none, as 'native' reports it there."""
    wrapper = tmp_path / "openssl"
    wrapper.write_text(f'#!/bin/sh\nexport OPENSSL_armcap="${{OPENSSL_armcap:-0x1}}"\n'
                       f'exec {arm_openssl} "$@"\n')
    wrapper.chmod(0o755)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        conds = resolve_isa("native,no-aesni,no-simd", openssl=str(wrapper))
    assert [c.name for c in conds] == ["native", "no-simd"]
    assert any("skipping ISA preset 'no-aesni'" in str(w.message) and "no aes/pmull" in
               str(w.message) for w in caught), [str(w.message) for w in caught]


def test_an_aesni_column_of_an_arm_machine_is_named_armv8_aes():
    """A user's own on/off label (``ingest(..., aesni="off")``) beside a CPUINFO line without
    ``env:`` (nothing decodes it): the sides, the effect and legends name ARM's instructions."""
    import pandas as pd

    from cipherlab.plots._axes import label_from_keys
    from cipherlab.runners import isa_contrast, isa_sides
    arm = pd.DataFrame({"source": "pi.txt", "algorithm": "aes-128-gcm", "aesni": ["on", "off"],
                        "cpuinfo": "OPENSSL_armcap=0xbd"})
    c = isa_contrast(arm)
    assert (c.column, c.side("off"), c.effect("aes-128-gcm", "off")) == (
        "aesni", "ARMv8 AES off", "ARMv8 AES")
    assert isa_sides(arm).tolist() == ["ARMv8 AES on", "ARMv8 AES off"]
    assert label_from_keys(arm, ["algorithm", "aesni"]) == ["ARMv8 AES on", "ARMv8 AES off"]
    x86 = arm.assign(cpuinfo="OPENSSL_ia32cap=0xfffa3203078bffff:0x405fc6f1bf07ab")
    assert isa_contrast(x86).side("off") == "AES-NI off" == isa_sides(x86.drop(columns="cpuinfo"))[1]
