""""Is ChaCha20 faster than AES-GCM here, and from what size?" on a real capture (the bundled
host-c openssl.csv: OpenSSL 3.0.22, 16 B-16 KiB, three runs per cell, native and no-aesni)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import cipherlab
import cipherlab.stats as st
from cipherlab import narrative
from cipherlab.errors import AnalysisError

A, B = "chacha20-poly1305", "aes-128-gcm"


@pytest.fixture(scope="module")
def capture():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cipherlab.datasets.load("openssl.csv")


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def test_the_answer_per_size_is_the_tested_ratio_in_words(capture):
    res = _quiet(st.compare, capture, by="algorithm", baseline=B, candidate=A)
    native = res[res["isa"] == "native"]
    text = narrative.faster_by_size(native)
    fast = native[native["significant"].astype(bool) & (native["ratio"] > 1)]
    assert list(fast["block_bytes"]) == [16, 256, 1024]  # (the 16 KiB cell: p 0.07 after Holm)
    lo, hi = fast["ratio"].min(), fast["ratio"].max()
    assert text.startswith(f"{A} is faster than {B} at 16 B–1 KiB ({lo:.2f}–{hi:.2f}×); "
                           "not significantly different at 16 KiB (0.94× [")
    with pytest.raises(AnalysisError, match="pick one machine and condition first"):
        narrative.faster_by_size(res)  # two ISA conditions: one row per size is not one answer
    # one run per side (the first repeat of each cell): described, never judged
    one = capture[capture["repeat"] == 1]
    assert one.groupby(["algorithm", "block_bytes", "isa"], observed=True).size().max() == 1
    said = narrative.faster_by_size(_quiet(st.compare, one, by="algorithm", baseline=B,
                                           candidate=A).query("isa == 'native'"))
    assert said.startswith(f"{A} against {B}, described (one run per side: not tested): ")
    assert "faster than" not in said


def test_from_what_size_says_when_it_extrapolates_or_cannot_know(capture):
    full = _quiet(st.crossover, capture, A, B).set_index("isa")
    # all four sizes: GCM overtakes ChaCha20 inside them (at ~13 KiB), the interval unbounded
    assert full.loc["native", "regime"] == "b overtakes a" and full.loc["native", "note"] == ""
    assert 1024 < full.loc["native", "crossover_bytes"] < 16384
    # the three small sizes only: the lines cross beyond 1 KiB: an extrapolation, said
    small = _quiet(st.crossover, capture[capture["block_bytes"] <= 1024], A, B).set_index("isa")
    assert small.loc["native", "crossover_bytes"] > 1024
    assert "cross outside the sizes measured (16 B–1 KiB): an extrapolation" in small.loc[
        "native", "note"]
    # from 256 B up: "ChaCha20 always faster" by the point estimates, though the full capture
    # shows GCM ahead at 16 KiB's end: the slopes do not differ, so it says it cannot know
    large = _quiet(st.crossover, capture[capture["block_bytes"] >= 256], A, B).set_index("isa")
    assert large.loc["native", "regime"] == "a always faster"
    assert ("per-byte costs do not differ significantly: beyond the sizes measured "
            "(256 B–16 KiB) which is faster is not known") in large.loc["native", "note"]
    # without AES-NI ChaCha20 wins everywhere, and the slopes say so: no caveat
    assert full.loc["no-aesni", "regime"] == "a always faster" and full.loc["no-aesni", "note"] == ""
    assert np.isfinite(full.loc["native", "ci_low"])
