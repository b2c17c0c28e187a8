"""``k`` cells -> bytes/s: one exact conversion for openssl text rows and document tables."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cipherlab.readers._tables import parse_value
from cipherlab.readers._terminal import bytes_per_s, row_bytes_per_s, times_1000

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)


@settings(max_examples=400, deadline=None)
@given(st.integers(-10**15, 10**15), st.integers(0, 6), st.booleans())
def test_times_1000_is_the_float_nearest_the_exact_product(units, places, exponent):
    text = str(Decimal(units).scaleb(-places))
    if exponent:
        text = f"{units}e-{places}"
    assert times_1000(text) == float(Decimal(text) * 1000)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**13), st.booleans())
def test_terminal_rows_and_tables_agree_on_k_cells(hundredths, thousands):
    value = Decimal(hundredths).scaleb(-2)
    cell = f"{value:,.2f}k" if thousands else f"{value:.2f}k"
    expected = float(value * 1000)
    assert bytes_per_s(cell) == parse_value(cell) == expected


def test_times_1000_special_values_and_bad_text():
    assert times_1000("inf") == float("inf") and times_1000("-inf") == float("-inf")
    assert times_1000("nan") != times_1000("nan")
    for bad in ("", "k", "1.2.3", "+-1"):
        with pytest.raises(ValueError, match="not a decimal number"):
            times_1000(bad)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(-10**13, 10**13), st.sampled_from(["k", "", "k,", "0"])),
                min_size=1, max_size=7))
def test_a_row_converts_like_its_cells(cells):
    """The whole-row shortcut for "%.2fk" rows (with "0.00" cells among them) gives what
    bytes_per_s gives cell by cell."""
    tokens = []
    for hundredths, kind in cells:
        value = Decimal(hundredths).scaleb(-2)
        tokens.append(f"{value:,.2f}k" if kind == "k," else "0.00" if kind == "0" else
                      f"{value:.2f}{kind}")
    assert row_bytes_per_s(tokens) == [bytes_per_s(t) for t in tokens]
    plain_k = [f"{Decimal(h).scaleb(-2):.2f}k" for h, _ in cells]  # the shortcut's own rows
    assert row_bytes_per_s(plain_k) == [times_1000(t[:-1]) for t in plain_k]
