"""One openssl, one cipher, two code paths: the low-level API and EVP print the cipher under two
names and run at different speeds, so their runs are never replicates of one cell."""

import warnings
from pathlib import Path

import cipherlab
from cipherlab import stats

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"


def test_evp_and_low_level_runs_of_one_cipher_are_two_cells_never_pooled():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = cipherlab.ingest(SAMPLES / "openssl-3.0.19-host-a")
        b = cipherlab.ingest(SAMPLES / "openssl-3.0.22-host-b")
        df = cipherlab.concat([a.assign(host="host-a"), b.assign(host="host-b")])
        res = stats.compare(df[df["algorithm"] == "aes-128-cbc"], by="host", baseline="host-b")
    # host-a printed aes-128-cbc at 16 bytes four times: twice by EVP (AES-128-CBC, 1.35 and
    # 1.39 GB/s) and twice low-level (aes-128-cbc, 1.15 GB/s); host-b's 16-byte cell is
    # low-level, so only host-a's two low-level runs are its like
    at16 = res[res["block_bytes"] == 16]
    assert len(at16) == 1 and at16["name"].item() == "aes-128-cbc"
    assert at16["n_candidate"].item() == 2
    low_level = a[(a["name"] == "aes-128-cbc") & (a["block_bytes"] == 16)]["bytes_per_s"]
    assert set(low_level.round(-6)) == {1.155e9, 1.150e9}  # (1154753 and 1150159 k, the texts)
