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
