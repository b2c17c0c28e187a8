"""Validate, then assemble (issue 12, layer 5): records that contradict what they are tied to
are flagged or reported, never attached silently; tables that cannot be told apart get a column.
Texts written here, through both engines."""

from __future__ import annotations

import warnings

import pytest

import cipherlab
from cipherlab.errors import IngestError

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

DISAGREES = "disagrees with its table"
HEADER = "type             16 bytes     64 bytes\n"


def _doing(name: str, block: int, count: int, secs: str = "3.00") -> str:
    return f"Doing {name} for 3s on {block} size blocks: {count} {name}'s in {secs}s\n"


def test_a_doing_count_that_does_not_give_the_printed_rate_is_flagged():
    # 3000 x 16 B in 3 s is 16.00k; the table prints 32.00k for sha256 at 16 bytes
    text = (_doing("sha256", 16, 3000) + _doing("sha256", 64, 1500) + HEADER +
            "sha256              32.00k       32.00k\n")
    df = cipherlab.ingest(text)
    table = df[df.line == 4].set_index("block_bytes")
    assert table.bytes_per_s.tolist() == [32000.0, 32000.0] and table.flag.isna().all()
    assert table["count"].isna().tolist() == [True, False] and table.loc[64, "count"] == 1500
    odd = df[df.flag == DISAGREES]
    assert odd[["line", "block_bytes", "count"]].values.tolist() == [[1, 16, 3000]]
    assert odd.bytes_per_s.tolist() == [16000.0]


def test_counts_that_give_the_rate_are_attached_within_rounding():
    # 0.02 s printed for 0.0249 s, a count of 7: the rate still agrees within their rounding
    text = (_doing("md4", 16, 7, "0.02") + _doing("md4", 64, 100000) + HEADER +
            "md4                  4.50k     2133.33k\n")
    df = cipherlab.ingest(text)
    assert df.flag.isna().all() and df["count"].tolist() == [7, 100000]


def test_a_record_whose_index_contradicts_its_prompt_is_not_placed():
    # +R2 is RSA verify in every release; the prompt announced a private-key (sign) run
    text = "+DTP:3072:private:rsa:10\n+R2:5000:3072:10.00\n+DTP:3072:public:rsa:10\n+R2:90000:3072:10.00\n"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest(text)
    assert df[["operation", "ops_per_s"]].values.tolist() == [["verify", 9000.0]]
    assert any("line(s) 2" in str(w.message) for w in caught)


def test_an_unreadable_type_header_never_falls_back_to_default_sizes():
    text = "type 16 bytes 64 bytse 256 bytes 1024 bytes 8192 bytes\nwhirlpool 1.00k 2.00k 3.00k 4.00k 5.00k\n"
    with pytest.raises(IngestError) as err:
        cipherlab.ingest(text)
    assert [n for n, _ in err.value.unplaced] == [1, 2]
    # a header cut short and never completed: its rows are reported too
    text = "type 16 bytes 64 bytes 256\n\nwhirlpool 1.00k 2.00k 3.00k 4.00k 5.00k\n"
    with pytest.raises(IngestError) as err:
        cipherlab.ingest(text)
    assert [n for n, _ in err.value.unplaced] == [3]


KEM_SIG = """\
                               keygen    encaps    decaps keygens/s  encaps/s  decaps/s
                 ML-KEM-512 0.000020s 0.000015s 0.000020s   50000.0   66666.7   50000.0
                    rsa2048 0.050000s 0.000020s 0.000500s      20.0   50000.0    2000.0
                               keygen     signs    verify keygens/s    sign/s  verify/s
                    rsa2048 0.060000s 0.000600s 0.000030s      16.7    1666.7   33333.3
                  ML-DSA-44 0.000050s 0.000120s 0.000045s   20000.0    8333.3   22222.2
"""
CLASSIC = """\
                  sign    verify    encrypt   decrypt   sign/s verify/s  encr./s  decr./s
rsa 2048 bits 0.000600s 0.000030s 0.000031s 0.000610s   1666.0  33000.0  32000.0   1640.0
"""


def test_kem_and_signature_keygen_and_the_classic_rsa_table_are_told_apart():
    df = cipherlab.ingest("version: 3.5.0\n" + CLASSIC + KEM_SIG)
    assert df.run.nunique() == 1  # (rsa2048 in three tables of one run)
    rsa = df[df.algorithm == "rsa2048"]
    keygen = rsa[rsa.operation == "keygen"].set_index("table").ops_per_s
    assert keygen.to_dict() == {"kem": 20.0, "sig": 16.7}
    sign = rsa[rsa.operation == "sign"]
    assert sorted(sign.table.astype(object).where(sign.table.notna(), None).tolist(),
                  key=str) == [None, "sig"]
    assert sign.ops_per_s.tolist() == [1666.0, 1666.7]
    assert "table" in cipherlab.model.condition_columns(df)  # (statistics keep them apart)


def test_rows_without_a_type_header_say_their_sizes_were_inferred():
    # openssl's rows without their header: 6 values are 16 .. 16384, 5 are 16 .. 8192 (up to
    # 1.0.2), whatever the algorithm; the sizes are right, and the `rule` says they were inferred
    six = cipherlab.ingest("My laptop:\n\naes-128-gcm  489402.11k 1306741.99k 2753817.60k "
                           "3845329.92k 4321001.47k 4362567.68k\n")
    assert list(six["block_bytes"]) == [16, 64, 256, 1024, 8192, 16384]
    assert set(six["rule"]) == {"label: caption; sizes: openssl's default sizes (no type header)"}
    five = cipherlab.ingest("sha1  21113.64k 63874.82k 149380.27k 224932.18k 260579.33k\n")
    assert list(five["block_bytes"]) == [16, 64, 256, 1024, 8192]
    assert set(five["rule"]) == {"sizes: openssl's default sizes (no type header)"}
    # under a header they are read, not inferred
    headed = cipherlab.ingest("type 16 bytes 64 bytes\nmd5 1.00k 2.00k\n")
    assert "rule" not in headed or headed["rule"].isna().all()
    # seven values fit no openssl table: not placed, and said so
    with pytest.raises(IngestError, match="look like measurements"):
        cipherlab.ingest("md5 1.00k 2.00k 3.00k 4.00k 5.00k 6.00k 7.00k\n")
