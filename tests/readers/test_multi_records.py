"""``-multi`` and ``-mr`` records whose meaning the run around them decides (``_mr``,
``_assembly``): shown on texts written here, in other variants than the real pastes 035 and
055 (other algorithms, sizes, record kinds); every test runs through both engines."""

from __future__ import annotations

import warnings

import pytest

import cipherlab
from cipherlab.errors import IngestWarning

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

HEADER = "version: 3.3.1\nbuilt on: Tue Jun  4 12:00:00 2024 UTC\noptions: bn(64,64)\n"


def _child_records(processes: int) -> str:
    return (f"$ openssl speed -seconds 2 -multi {processes} sha384\n"
            + "".join(f"Forked child {k}\n" for k in range(processes))
            + "+DT:sha384:2:16\n+R:2000000:sha384:2.000000\n"
            "+DT:sha384:2:64\n+R:1500000:sha384:2.000000\n")


def test_the_one_child_of_multi_1_measured_the_whole_run():
    df = cipherlab.ingest(_child_records(1), strict=True)
    assert df.block_bytes.tolist() == [16, 64]
    assert df.bytes_per_s.tolist() == [2000000 * 16 / 2.0, 1500000 * 64 / 2.0]
    assert df.flag.isna().all() and df["multi"].tolist() == [1, 1]


def test_one_child_of_several_is_a_share_not_the_measurement():
    df = cipherlab.ingest(_child_records(3), strict=True)
    assert (df.flag == "child process").all()


def test_got_records_of_multi_1_without_a_summary_are_the_cells():
    text = ("$ openssl speed -multi 1 -evp chacha20-poly1305\nForked child 0\n"
            "Got: +H:16:64:256 from 0\n"
            "Got: +F:0:ChaCha20-Poly1305:250000000.00:600000000.00:1200000000.00 from 0\n")
    df = cipherlab.ingest(text, strict=True)
    assert df.bytes_per_s.tolist() == [2.5e8, 6e8, 1.2e9]
    assert df.flag.isna().all() and "child" not in df.columns


def test_multi_mb_summary_drops_the_never_measured_value_past_its_lengths():
    text = ("$ openssl speed -multi 1 -mb -evp aes-256-cbc-hmac-sha1\nForked child 0\n"
            + HEADER
            + "AES-256-CBC-HMAC-SHA1   500000.25k   600000.50k   700000.75k   800000.00k"
              "   900000.25k        0.00\n")
    df = cipherlab.ingest(text, strict=True)
    assert df.block_bytes.tolist() == [8192, 16384, 32768, 65536, 131072]
    assert df.bytes_per_s.tolist() == [500000250.0, 600000500.0, 700000750.0, 8e8, 900000250.0]


def test_a_kem_record_without_a_named_prompt_is_reported_not_named_by_its_index():
    text = ("$ openssl speed -multi 2 -kem-algorithms\nForked child 0\nForked child 1\n"
            "+DT:sha1:1:16\n+R:1000:sha1:1.000000\n"
            "Got: +F9:7:1200.000000:3400.000000:5600.000000 from 0\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest(text)
    assert df.algorithm.astype(str).unique().tolist() == ["sha1"]  # no "kem #7" cells
    warned = [str(w.message) for w in caught if issubclass(w.category, IngestWarning)]
    assert any("line(s) 6" in m for m in warned), warned
