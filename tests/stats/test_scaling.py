"""How ``openssl speed -multi N`` scales on this machine (``stats.scaling``), from real runs:
three one-process ``-elapsed`` runs, three of ``-multi 2`` and one with more processes than the
machine has CPUs, each a dump of its own as a user saves them."""

from __future__ import annotations

import os
import shutil
import subprocess
import warnings

import numpy as np
import pytest

import cipherlab
import cipherlab.stats as st
from cipherlab.errors import CipherlabWarning, ComparabilityWarning

pytestmark = pytest.mark.openssl
_CELL = ["-seconds", "1", "-bytes", "16384", "-evp", "aes-128-gcm"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    if shutil.which("openssl") is None:
        pytest.skip("no openssl on PATH")
    folder = tmp_path_factory.mktemp("multi")
    over = (os.cpu_count() or 1) + 1
    plan = [("one", ["-elapsed"])] * 3 + [("multi2", ["-multi", "2"])] * 3 + [
        (f"multi{over}", ["-multi", str(over)])]
    for i, (name, extra) in enumerate(plan):
        done = subprocess.run(["openssl", "speed", *extra, *_CELL], capture_output=True,
                              text=True, check=True)
        (folder / f"{name}-{i}.txt").write_text(done.stderr + done.stdout)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cipherlab.ingest(folder), over


def test_efficiency_is_one_process_of_n_over_one_alone_tested_on_the_runs(runs):
    df, over = runs
    cores = os.cpu_count()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = st.scaling(df, cores=cores)
    said = [str(w.message) for w in seen]
    # the per-process metric puts the process counts on one scale: no "rows mix -multi" alarm
    assert not any(issubclass(w.category, ComparabilityWarning) and "-multi" in str(w.message)
                   for w in seen)
    two = out.set_index("processes").loc[2]
    total = df[(df["multi"] == 2) & df["flag"].isna()]["bytes_per_s"]
    one = df[df["multi"].isna()]["bytes_per_s"]
    expected = np.exp(np.log(total / 2).mean()) / np.exp(np.log(one).mean())
    assert two["efficiency"] == pytest.approx(expected, rel=1e-9)
    assert two["speedup"] == pytest.approx(2 * expected, rel=1e-9)
    assert two["test"] == "welch" and two["n_candidate"] == 3 and two["n_baseline"] == 3
    assert two["ci_low"] < two["efficiency"] < two["ci_high"]
    assert not two["oversubscribed"]
    # more processes than CPUs, one run: flagged, described and said twice
    many = out.set_index("processes").loc[over]
    assert bool(many["oversubscribed"]) and many["test"] == "no replication"
    assert np.isnan(float(many["ci_low"]))
    assert any(f"-multi {over} runs more processes than the {cores} cores" in m for m in said)
    assert any("1 of 2 cell(s) have one run per side" in m for m in said)


def test_unknown_cores_make_it_per_process_and_say_so(runs):
    df, _ = runs
    with pytest.warns(CipherlabWarning, match="the machine's cores are not known"):
        out = st.scaling(df)
    assert out["cores"].isna().all() and out["oversubscribed"].isna().all()
