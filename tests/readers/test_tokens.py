"""Layer 2, typing tokens: values, units, sizes, times and names as people write them.

Shown on texts written here, in other variants than the real pastes (other algorithms, units,
separators); every test runs through both engines (conftest).
"""

from __future__ import annotations

import pytest

import cipherlab

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)


def pk(df):
    return list(zip(df.algorithm.astype(str), df.operation.astype(str), df.ops_per_s))


def test_public_key_rates_typed_after_their_labels():
    text = ("## DSA and ECDH on the router\n\n"
            "dsa 1024 bits sign/s=1,234.5, verify/s=2,345.6\n"
            "dsa 2048 bits sign/s: 456.7 | verify/s: 789.0\n"
            "256 bits ecdh (nistp256) op/s: 12345.6\n")
    df = cipherlab.ingest(text, strict=True)
    assert pk(df) == [("dsa1024", "sign", 1234.5), ("dsa1024", "verify", 2345.6),
                      ("dsa2048", "sign", 456.7), ("dsa2048", "verify", 789.0),
                      ("ecdh-p256", "derive", 12345.6)]
    assert df.label.unique().tolist() == ["DSA and ECDH on the router"]
    assert df.line.tolist() == [3, 3, 4, 4, 5]


def test_labelled_rates_of_the_same_row_again_open_the_next_run():
    text = ("before:\nrsa 3072 bits sign/s: 100.0; verify/s: 5000.0\n"
            "after:\nrsa 3072 bits sign/s: 120.0; verify/s: 5100.0\n")
    df = cipherlab.ingest(text, strict=True)
    assert df.groupby("run").label.first().tolist() == ["before", "after"]


@pytest.mark.parametrize("line", [
    "rsa 2048 bits sign/s: 1533.00; verify/s 51018.50 on a good day",  # words after the rates
    "we got sign/s: 1533.00 on rsa 2048 bits",                          # a sentence
])
def test_labelled_rates_inside_prose_are_not_rows(line):
    from cipherlab.readers._units import labelled_rates
    assert labelled_rates(line) is None


def test_a_link_line_does_not_label_the_run_below_it():
    text = ("### Board B\n(see https://example.org/board-b/results.html)\n"
            "type 16 bytes 64 bytes\nsha224 1.50k 2.50k\n")
    assert cipherlab.ingest(text, strict=True).label.unique().tolist() == ["Board B"]


def test_a_zero_rate_beside_a_measured_time_is_a_measurement():
    text = ("version: 3.0.13\n"
            "                   sign    verify    sign/s verify/s\n"
            "rsa 4096 bits 0.004000s 0.000100s    250.0  10000.0\n"
            "rsa 15360 bits 12.500000s 0.002000s      0.0    500.0\n"
            "dsa 2048 bits 0.000000s 0.000000s      0.0      0.0\n")
    df = cipherlab.ingest(text, strict=True)
    got = dict(zip(zip(df.algorithm.astype(str), df.operation.astype(str)), df.ops_per_s))
    assert got[("rsa15360", "sign")] == 1 / 12.5 and got[("rsa15360", "verify")] == 500.0
    assert df[df.algorithm == "dsa2048"].flag.eq("not measured").all()  # no time: not measured
