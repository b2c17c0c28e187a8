"""Tidy frames for the plot tests, built with ``model.to_frame`` from the bundled real numbers.

The figures come from ``data/captures/host-b-openssl-3.0.22/evp.txt`` and ``pyca.txt`` (five real
repeats per cell) and ``data/seeds/netbsd-ml-three-os-openssl-speed.txt``, copied by hand so these
tests do not depend on the readers.
"""

import matplotlib

matplotlib.use("Agg")  # noqa: E402  (before pyplot is imported anywhere in the tests)

import pandas as pd
import pytest
from matplotlib.figure import Figure

from cipherlab.model import Run, to_frame

SIZES = (16, 64, 256, 1024, 8192, 16384)
# host-b evp.txt, k = 1000 bytes/s
EVP = {
    ("aes-128-gcm", "on"): (20304.67, 74986.88, 277974.02, 839139.33, 2675892.22, 4007919.62),
    ("aes-128-gcm", "off"): (15162.42, 40920.58, 118860.80, 174626.82, 201072.64, 203702.27),
    ("aes-256-gcm", "on"): (31011.15, 114267.84, 402863.87, 1256436.74, 3223117.82, 3386327.04),
    ("aes-256-gcm", "off"): (14572.78, 37473.34, 107330.05, 151597.06, 173678.59, 172802.05),
}
# host-b pyca.txt, aes-128-gcm, bytes/s, five repeats
PYCA = {
    "on": {16: (13425093, 14047713, 12792165, 13998745, 13107365),
           1024: (1090097537, 1074561458, 1145186066, 1092373467, 1142912996),
           16384: (8471628208, 8366486682, 8595764722, 8366813015, 8346204307)},
    "off": {16: (15699637, 16026432, 15181809, 15618150, 16040884),
            1024: (174771479, 173392309, 173199475, 174408370, 168646038),
            16384: (199252707, 202236097, 199339740, 198112235, 190257507)},
}
# three-OS seed, 8192-byte column, k
THREE_OS = {
    "Linux (P3 750Mhz; 512MBram)": {"aes-128-cbc": 31692.12, "sha1": 63993.17, "md5": 117792.77},
    "OpenBSD (P3 500Mhz; 192MBram)": {"aes-128-cbc": 15926.95, "sha1": 33145.90, "md5": 80879.24},
    "NetBSD (P3 750Mhz; 512MBram)": {"aes-128-cbc": 14101.97, "sha1": 46124.61, "md5": 112983.57},
}


def make_evp_frame():
    runs = [Run({"label": f"evp {alg} aesni={mode}", "tool": "openssl", "tool_version": "3.0.22",
                 "aesni": mode},
                [{"algorithm": alg, "operation": "encrypt", "block_bytes": n, "bytes_per_s": k * 1000}
                 for n, k in zip(SIZES, values)])
            for (alg, mode), values in EVP.items()]
    return to_frame(runs, source="evp.txt")


def make_repeats_frame():
    runs = [Run({"label": f"pyca aesni={mode}", "tool": "cryptography", "aesni": mode, "repeat": r},
                [{"algorithm": "aes-128-gcm", "operation": "encrypt", "block_bytes": n,
                  "bytes_per_s": reps[r]} for n, reps in cells.items()])
            for mode, cells in PYCA.items() for r in range(5)]
    return to_frame(runs, source="pyca.txt")


def make_machines_frame():
    runs = [Run({"label": label, "tool": "openssl"},
                [{"algorithm": alg, "operation": "digest" if alg != "aes-128-cbc" else "encrypt",
                  "block_bytes": 8192, "bytes_per_s": k * 1000} for alg, k in cells.items()])
            for label, cells in THREE_OS.items()]
    return to_frame(runs, source="netbsd-ml-three-os-openssl-speed.txt")


@pytest.fixture
def ax():
    return Figure(figsize=(4, 3)).add_subplot()


def make_speedup_result():
    """A stats.speedup-shaped result (the columns its docstring names) from the evp numbers."""
    rows = []
    for alg in ("aes-128-gcm", "aes-256-gcm"):
        for n, on, off in zip(SIZES, EVP[(alg, "on")], EVP[(alg, "off")]):
            r = on / off
            rows.append({"algorithm": alg, "operation": "encrypt", "block_bytes": n,
                         "candidate": "on", "baseline": "off", "ratio": r, "ci_low": r * 0.95,
                         "ci_high": r * 1.05, "p_value": 0.01 if n > 16 else 0.2,
                         "p_adjusted": 0.03 if n > 16 else 0.4, "significant": n > 16})
    return pd.DataFrame(rows)


evp_frame = pytest.fixture(make_evp_frame, name="evp_frame")
repeats_frame = pytest.fixture(make_repeats_frame, name="repeats_frame")
machines_frame = pytest.fixture(make_machines_frame, name="machines_frame")
speedup_result = pytest.fixture(make_speedup_result, name="speedup_result")
