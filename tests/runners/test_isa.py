"""ISA presets against the real openssl: each one changes the mask that `openssl version -a`
reports, in exactly the bits it claims (facts checked by hand on OpenSSL 3.0.19, see _isa.py)."""

from __future__ import annotations

import platform
import warnings

import pytest

from cipherlab.errors import CaptureWarning
from cipherlab.runners import ISA_PRESETS, IsaCondition, effective_mask, isa_env, resolve_isa
from cipherlab.runners._isa import _has, _words

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
    assert env["OPENSSL_ia32cap"] == "~0x200000200000000:~0x0" and env["PATH"] == "/usr/bin"
    assert base["OPENSSL_ia32cap"] == "~0x0"  # the input is not mutated


@pytest.mark.openssl
@pytest.mark.parametrize("name", [n for n in ISA_PRESETS if n != "native"])
def test_every_preset_changes_the_reported_mask(native, name):
    need = {"no-vaes": (1, 41)}.get(name, (0, 57) if "aesni" in name else None)
    if need and not _has(native, *need):
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
    assert w0 == n0 & ~aes_pclmul and w1 == n1  # only AES-NI and PCLMULQDQ
    w0, w1 = _words(_mask("no-aesni-classic"))[:2]
    assert w0 == n0 & ~aes_pclmul and w1 == 0  # no ':' zeroes the second word on 3.x
    w0, w1 = _words(_mask("no-aesni-no-vaes"))[:2]
    assert w0 == n0 & ~aes_pclmul and w1 == n1 & ~vaes_vpclmul
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
    ("no-vaes", ":~0x60000000000", "no VAES"),
    ("no-aesni", "~0x200000200000000:~0x0", "no AES-NI"),
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
