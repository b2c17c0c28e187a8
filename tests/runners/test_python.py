"""capture_python: real cryptography calls in real worker processes (about 3 s in total)."""

from __future__ import annotations

import json
import warnings

import pytest

import cipherlab
from cipherlab.errors import CaptureWarning, UnsupportedAlgorithmError
from cipherlab.runners import capture_python
from cipherlab.runners._isa import effective_mask, features


@pytest.fixture(scope="module")
def captured(tmp_path_factory):
    out = tmp_path_factory.mktemp("py")
    with warnings.catch_warnings():
        # cryptography's bundled OpenSSL may ignore the mask for GCM (4.0's VAES path): that
        # warning is about the build, not about this test
        warnings.simplefilter("ignore", CaptureWarning)
        df = capture_python(["aes-128-gcm", "aes-128-cbc"], sizes=[16, 4096], seconds=0.2,
                            warmup_s=0.05, repeats=1, isa="native,no-aesni",
                            operations="encrypt", out=out, progress=False)
    return out, df


def test_tidy_rows_with_versions_and_conditions(captured):
    _, df = captured
    from cryptography import __version__
    from cryptography.hazmat.backends.openssl import backend
    assert len(df) == 2 * 2 * 2  # algorithms x sizes x conditions
    assert set(df["tool"]) == {"cryptography"} and set(df["tool_version"]) == {__version__}
    assert set(df["backend"]) == {backend.openssl_version_text()}
    assert set(df["operation"]) == {"encrypt"} and set(df["block_bytes"]) == {16, 4096}
    assert (df["bytes_per_s"] == df["ops_per_s"] * df["block_bytes"]).all()
    assert (df["ops_per_s"] == df["count"] / df["seconds"]).all() and (df["count"] > 0).all()
    assert df["run"].nunique() == 4  # one worker process per (algorithm, condition)


def test_isa_reaches_the_workers(captured):
    out, df = captured
    if "aesni" not in features(effective_mask({})):
        pytest.skip("no AES-NI here")
    starts = {}
    for rec in map(json.loads, (out / "runs.jsonl").read_text().splitlines()):
        first = json.loads((out / rec["source"]).read_text().splitlines()[0])
        starts[rec["isa"]] = first["ia32cap"]
    assert starts == {"native": None, "no-aesni": cipherlab.ISA_PRESETS["no-aesni"]}
    # the mask read inside cryptography's own OpenSSL (or the system one's reading of the value)
    assert dict(zip(df["isa"].astype(str), df["aesni"].astype(str))) == {"native": "on",
                                                                         "no-aesni": "off"}
    off = df.loc[df["isa"] == "no-aesni", "isa_off"].astype(str).unique().tolist()
    assert len(off) == 1 and off[0].startswith("aesni+pclmulqdq")  # named by what went off
    cbc = df[(df["algorithm"] == "aes-128-cbc") & (df["block_bytes"] == 4096)]
    rate = dict(zip(cbc["isa"].astype(str), cbc["bytes_per_s"]))
    # CBC has no VAES path: the mask bites (about 2x on the CPUs seen here, 1.98x on one)
    assert rate["native"] > 1.5 * rate["no-aesni"]


def test_the_folder_reads_back(captured):
    out, df = captured
    back = cipherlab.ingest(out)
    assert len(back) == len(df) and set(back["tool"]) == {"cryptography"}


def test_unknown_cipher_lists_the_supported_ones(tmp_path):
    with pytest.raises(UnsupportedAlgorithmError, match=r"among aes-128-gcm.*not \['des-cbc'\]"):
        capture_python("des-cbc", out=tmp_path, progress=False)


def test_a_mask_the_bundled_openssl_may_ignore_is_checked_by_behaviour(tmp_path):
    # the old 'no-aesni' value (AES-NI and PCLMULQDQ off, VAES kept): OpenSSL 4.0 runs GCM with
    # VAES whatever bit 57 says. Whether it did here is for the check to say, from the runs.
    from cipherlab.runners._plan import paired_ratios, sign_flip_p
    if "aesni" not in features(effective_mask({})):
        pytest.skip("no AES-NI here")
    mask = "~0x200000200000000:~0x0"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = capture_python(["aes-128-gcm", "aes-128-cbc"], sizes=[4096], seconds=0.2,
                            warmup_s=0.05, repeats=6, isa=f"native,{mask}", operations="encrypt",
                            out=tmp_path, progress=False)
    from cryptography.hazmat.backends.openssl import backend
    for alg, g in paired_ratios(df, mask).groupby("algorithm"):
        warned = [str(w.message) for w in caught if f"rate of {alg}" in str(w.message)]
        assert bool(warned) == (sign_flip_p(g["log_ratio"]) >= 0.05), (alg, warned)
        for msg in warned:  # the library is named: the bundled OpenSSL, not the system one
            assert f"it bundles its own {backend.openssl_version_text()}" in msg
