"""Machines that share a host name in :mod:`cipherlab.stats`: real captures of three machines
that all call themselves ``ubuntu`` (tests/conftest.py ``namesakes``: this machine, a clone of it
under another machine id, Debian's arm64 openssl under qemu under a third)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import cipherlab
from cipherlab import stats
from cipherlab.errors import AnalysisError


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.mark.openssl
def test_one_host_name_of_two_machines_is_refused_as_a_level_and_split_as_a_cell(namesakes):
    df = _quiet(cipherlab.ingest, [namesakes["x86"], namesakes["clone"], namesakes["arm"]])
    ids = {k: str(_quiet(cipherlab.ingest, v)["host_id"].iloc[0]) for k, v in namesakes.items()}
    assert set(df["host"].astype(str)) == {"ubuntu"} and df["host_id"].nunique() == 3
    with pytest.raises(AnalysisError, match=r"host 'ubuntu' names 3 machines \(host_id .*"
                                            r"compare by='host_id'"):
        stats.compare(df, by="host", baseline="ubuntu")
    # by the machine's id: each machine against the first, per cell
    first = ids["x86"]
    res = _quiet(stats.compare, df, by="host_id", baseline=first)
    assert set(res["candidate"]) == set(df["host_id"].astype(str)) - {first}
    # a fit without `by` keeps the three machines apart, each named by its id (not its session)
    fit = _quiet(stats.cost_model, df)
    assert "host_id" in fit.columns and "capture_id" not in fit.columns
    assert len(fit) == 3 and set(fit["host_id"]) == set(df["host_id"].astype(str))
    rows = df[(df["host_id"].astype(str) == ids["arm"]) & (df["block_bytes"] == 16384)]
    slope = 1e9 / np.exp(np.log(rows["bytes_per_s"]).mean())  # ns per byte at 16 KiB
    assert fit.set_index("host_id").loc[ids["arm"], "c_ns_per_byte"] == pytest.approx(slope,
                                                                                     rel=0.2)
