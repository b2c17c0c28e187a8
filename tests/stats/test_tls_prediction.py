"""The TLS record-layer prediction: numbers worked by hand from the model in record_layer_rates."""

import pandas as pd
import pytest

from cipherlab.algorithms import suite_primitives
from cipherlab.errors import AnalysisError
from cipherlab.stats import predict_tls, record_layer_rates

GCM = "ECDHE-ECDSA-AES128-GCM-SHA256"
CBC = "ECDHE-ECDSA-AES128-SHA256"


@pytest.mark.parametrize("suite, expected", [
    ("ECDHE-ECDSA-AES128-GCM-SHA256", {"kind": "aead", "cipher": "aes-128-gcm", "mac": None}),
    ("ECDHE-ECDSA-AES256-SHA384", {"kind": "cbc-hmac", "cipher": "aes-256-cbc",
                                   "mac": "hmac(sha384)"}),
    ("ECDHE-ECDSA-AES128-CCM", {"kind": "aead", "cipher": "aes-128-ccm", "mac": None}),
    ("TLS_CHACHA20_POLY1305_SHA256", {"kind": "aead", "cipher": "chacha20-poly1305", "mac": None}),
])
def test_suite_primitives(suite, expected):
    assert suite_primitives(suite) == expected


def _speed(rows):
    return pd.DataFrame(rows, columns=["isa", "algorithm", "operation", "block_bytes",
                                       "bytes_per_s"])


def test_cbc_hmac_rates_combine_harmonically_and_the_slower_side_bounds():
    speed = _speed([
        ("native", "aes-128-cbc", "encrypt", 16384, 1.0e9),
        ("native", "aes-128-cbc", "decrypt", 16384, 4.0e9),
        ("native", "hmac(sha256)", "digest", 16384, 1.0e9),
        ("native", "aes-128-cbc", "encrypt", 1024, 9.9e9),  # other sizes are ignored
    ])
    r = record_layer_rates(speed, [CBC]).iloc[0]
    assert r["predicted_send_bytes_per_s"] == pytest.approx(0.5e9)     # 1/(1/1 + 1/1) GB/s
    assert r["predicted_receive_bytes_per_s"] == pytest.approx(0.8e9)  # 1/(1/4 + 1/1) GB/s
    assert r["predicted_bytes_per_s"] == pytest.approx(0.5e9) and r["bound"] == "send"
    assert r["primitives"] == "aes-128-cbc + hmac(sha256)"


def test_prediction_uses_the_median_over_repeats_and_stand_ins_are_named():
    speed = _speed([
        ("off", "aes-128-gcm", "encrypt", 16384, 1e8),
        ("off", "aes-128-gcm", "encrypt", 16384, 2e8),
        ("off", "aes-128-gcm", "encrypt", 16384, 9e9),  # an outlier run
        ("off", "aes-128-cbc", "encrypt", 16384, 1e8),
        ("off", "sha256", "digest", 16384, 1e8),
    ])
    r = record_layer_rates(speed, [GCM, CBC]).set_index("algorithm")
    assert r.loc[GCM, "predicted_bytes_per_s"] == pytest.approx(2e8)
    assert "encrypt stands in for decrypt" in r.loc[GCM, "basis"]
    assert r.loc[CBC, "predicted_bytes_per_s"] == pytest.approx(0.5e8)
    assert "sha256 digest stands in for hmac(sha256)" in r.loc[CBC, "basis"]


def test_predict_tls_matches_on_the_isa_preset_and_does_not_mutate():
    speed = _speed([("native", "aes-128-gcm", "encrypt", 16384, 4e9),
                    ("no-aesni", "aes-128-gcm", "encrypt", 16384, 2e8)])
    tls = pd.DataFrame({"tool": "tls", "algorithm": GCM, "isa": ["native", "no-aesni"],
                        "bytes_per_s": [1e9, 1e8]})
    before = tls.copy()
    out = predict_tls(tls, speed)
    pd.testing.assert_frame_equal(tls, before)
    assert out["measured_over_predicted"].tolist() == pytest.approx([0.25, 0.5])


def test_predict_tls_errors_say_what_is_missing():
    tls = pd.DataFrame({"tool": "tls", "algorithm": [GCM], "isa": ["native"], "bytes_per_s": [1e9]})
    with pytest.raises(AnalysisError, match=r"lacks column\(s\) \['isa'\].*speed.assign"):
        predict_tls(tls, _speed([]).drop(columns="isa"))
    with pytest.raises(AnalysisError, match="block_bytes=16384"):
        predict_tls(tls, _speed([("native", "aes-128-gcm", "encrypt", 1024, 4e9)]))
    with pytest.raises(AnalysisError, match="no aes-128-gcm encrypt rate"):
        predict_tls(tls, _speed([("native", "sha256", "digest", 16384, 4e9)]))
