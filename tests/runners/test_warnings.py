"""Capture warnings point at the user's line (not ``sys:1`` or a line inside cipherlab) and, in a
fleet host's thread, name the host they are about."""

from __future__ import annotations

import threading
import warnings

import pytest

import cipherlab
from cipherlab.errors import CaptureWarning
from cipherlab.runners import _system


@pytest.mark.openssl
def test_a_capture_warning_points_at_the_callers_line(tmp_path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # a raw mask that leaves the mask in effect as native's: warned about before any run
        cipherlab.capture(["aes-128-cbc"], sizes=[16], seconds=1, repeats=1,
                          isa="native,~0x0:~0x0", out=tmp_path / "cap", progress=False)
    ours = [w for w in caught if issubclass(w.category, CaptureWarning)]
    assert any("left the mask" in str(w.message) for w in ours)
    assert ours and {w.filename for w in ours} == {__file__}, [(w.filename, w.lineno) for w in ours]


class _Host(_system.LocalSystem):
    name = "alpha"


def test_a_warning_in_a_fleet_hosts_thread_names_the_host():
    caught = []

    def work():
        with warnings.catch_warnings(record=True) as got, _system.using(_Host()):
            warnings.simplefilter("always")
            _system.warn("skipping ISA preset 'no-vaes': this CPU has no vaes")
            _system.warn("alpha: already named")
        caught.extend(got)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert [str(w.message) for w in caught] == [
        "alpha: skipping ISA preset 'no-vaes': this CPU has no vaes", "alpha: already named"]
    assert all(w.category is CaptureWarning for w in caught)
    with warnings.catch_warnings(record=True) as here:  # this machine: no prefix
        warnings.simplefilter("always")
        _system.warn("plain")
    assert str(here[0].message) == "plain"
