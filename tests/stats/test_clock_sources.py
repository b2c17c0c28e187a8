"""Cycles per byte where the clock is known, and loud where only a nominal one is: a real
forum paste of a Raspberry Pi 5 whose prose names "Cortex-A76 @ 2.4GHz", and a real capture
(bundled host-c openssl.csv) whose clock the capturing host reported."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import cipherlab
import cipherlab.stats as st
from cipherlab.errors import CipherlabWarning

PI5 = (Path(__file__).parents[1] / "data" / "user" / "terminal"
       / "026_forum-pi5-armcap-prose-no-cpuinfo.txt")


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def test_a_pastes_prose_clock_is_nominal_and_its_cycles_per_byte_say_so():
    df = _quiet(cipherlab.ingest, PI5)
    assert set(df["clock_hz"]) == {2.4e9}  # (from "Cortex-A76 @ 2.4GHz" in the prose)
    # (the runs are labelled by their prompts' host, `pi@pi5:~ $`: the warning names it too)
    # it was called "reported (by the capturing host)": no host reported anything here
    assert set(st.clock_source(df)) == {"nominal"}
    with pytest.warns(CipherlabWarning, match=r"24 of 24 row\(s\) have only a nominal clock "
                                              r"\(named in a label or CPU: 'Cortex-A76', 'pi5'\)"):
        out = st.cycles_per_byte(df)
    rate = df["bytes_per_s"].to_numpy(float)
    assert np.allclose(out["cycles_per_byte"], 2.4e9 / rate)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CipherlabWarning)  # the caller's measured clock: quiet
        given = st.cycles_per_byte(df, clock_hz=2.2e9)
    assert set(given["clock_source"]) == {"given"}


def test_a_captures_reported_clock_gives_cycles_per_byte_without_a_nominal_warning():
    df = _quiet(cipherlab.datasets.load, "openssl.csv")
    assert set(st.clock_source(df)) == {"reported"}
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = st.cycles_per_byte(df)
    assert not any("nominal" in str(w.message) for w in seen)
    rate = df["bytes_per_s"].to_numpy(float)
    ok = rate > 0
    assert np.allclose(out["cycles_per_byte"].to_numpy(float)[ok],
                       df["clock_hz"].to_numpy(float)[ok] / rate[ok])
