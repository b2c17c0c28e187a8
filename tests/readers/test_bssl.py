"""``bssl speed`` (BoringSSL, AWS-LC): text lines and ``-json`` records, read to tidy rows."""

from __future__ import annotations

import pytest

import cipherlab
from cipherlab.readers._bssl import describe

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

TEXT = """\
BoringSSL on my laptop:
$ ./bssl speed -filter AES-128-GCM
Did 4148000 AES-128-GCM (16 bytes) seal operations in 1000022us (4147908.7 ops/sec): 66.4 MB/s
Did 192000 AES-128-GCM (16384 bytes) open operations in 1004324us (191173.4 ops/sec): 3132.2 MB/s
Did 1428 RSA 2048 signing operations in 1015147us (1406.7 ops/sec)
Did 30000 RSA 2048 verify (fresh key) operations in 1015133us (29552.8 ops/sec)
"""

JSON = """\
[
{"description": "SHA-256 (8192 bytes)", "numCalls": 61000, "microseconds": 1004000, "bytesPerCall": 8192},
{"description": "ECDSA P-256 signing", "numCalls": 63000, "microseconds": 1009087}
]
"""


def test_bssl_text_lines_are_rows_with_exact_counts():
    df = cipherlab.ingest(TEXT)
    assert set(df.tool) == {"boringssl"} and set(df.label) == {"BoringSSL on my laptop"}
    gcm = df[df.algorithm == "aes-128-gcm"]
    assert gcm.operation.tolist() == ["encrypt", "decrypt"]
    assert gcm.block_bytes.tolist() == [16, 16384]
    assert gcm.bytes_per_s.iloc[0] == pytest.approx(4148000 * 16 / 1.000022)
    rsa = df[df.algorithm == "rsa2048"]
    assert rsa.operation.tolist() == ["sign", "verify"] and rsa.key.tolist()[1] == "fresh"
    assert int(rsa["count"].iloc[0]) == 1428 and rsa.ops_per_s.iloc[0] == pytest.approx(1428 / 1.015147)
    assert df.line.tolist() == [3, 4, 5, 6]


def test_bssl_json_records():
    df = cipherlab.ingest("AWS-LC 1.20, bssl speed -json:\n" + JSON)
    assert set(df.tool) == {"aws-lc"}
    assert df.algorithm.tolist() == ["sha256", "ecdsa-p256"]
    assert df.operation.tolist() == ["digest", "sign"] and df.line.tolist() == [3, 4]
    assert int(df.block_bytes.iloc[0]) == 8192 and df.block_bytes.isna().tolist() == [False, True]
    assert df.bytes_per_s.iloc[0] == pytest.approx(61000 * 8192 / 1.004)


@pytest.mark.parametrize("shape", ["jq", "wrapped"])
def test_bssl_json_records_spread_over_lines_are_read(shape):
    import json
    import textwrap

    records = [json.loads(line.rstrip(",")) for line in JSON.splitlines()[1:3]]
    if shape == "jq":  # `bssl speed -json | jq .`: a key a line, in a fence
        text = "AWS-LC 1.20, `bssl speed -json | jq .`:\n```json\n" + json.dumps(records, indent=2) + "\n```\n"
    else:  # a mail client's lines of 72 columns, broken at spaces
        text = "AWS-LC 1.20, bssl speed -json:\n" + "\n".join(textwrap.wrap(JSON, 72)) + "\n"
    df = cipherlab.ingest(text)
    assert df.algorithm.tolist() == ["sha256", "ecdsa-p256"] and set(df.tool) == {"aws-lc"}
    assert df.run.nunique() == 1 and df.bytes_per_s.iloc[0] == pytest.approx(61000 * 8192 / 1.004)
    assert df.line.tolist() == [text.splitlines().index(next(
        line for line in text.splitlines() if "SHA-256" in line)) + 1, df.line.iloc[1]]


def test_a_json_record_without_its_time_is_reported_and_other_json_is_no_record():
    text = ('{\n  "description": "AES-128-GCM (16 bytes) seal",\n  "numCalls": 4823000\n}\n'
            'Did 10 RSA 2048 signing operations in 1000000us (10.0 ops/sec)\n'
            '{"title": "slow GCM", "description": "see the numbers above", "number": 7}\n')
    with pytest.warns(cipherlab.IngestWarning, match=r"1 line\(s\) .*\(line\(s\) 3;"):
        df = cipherlab.ingest(text)
    assert df.algorithm.tolist() == ["rsa2048"]


def test_a_tool_the_text_does_not_name_is_the_binary():
    df = cipherlab.ingest("Did 10 RSA 2048 signing operations in 1000000us (10.0 ops/sec)\n")
    assert set(df.tool) == {"bssl"}


def test_descriptions():
    assert describe("ECDH X25519") == ("x25519", "derive", None, {})
    assert describe("ECDH P-384") == ("ecdh-p384", "derive", None, {})
    assert describe("ChaCha20-Poly1305 (1350 bytes) open")[:3] == ("chacha20-poly1305", "decrypt", 1350)
