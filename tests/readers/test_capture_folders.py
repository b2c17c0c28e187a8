"""A folder of capture folders reads as the captures' tables, once each, not their raw runs again."""

import pandas as pd

import cipherlab
from cipherlab.model import Run, to_frame
from cipherlab.runners._folder import CaptureFolder


def _capture(folder, host, rate):
    cap = CaptureFolder(folder)
    frame = to_frame([Run({"tool": "openssl"}, [{"algorithm": "sha256", "block_bytes": 16,
                                                 "bytes_per_s": rate}])], source="runs/a.txt")
    cap.add_run("a", f"+F:6:sha256:{rate:.2f}\n", frame.assign(host=host), {"wall_s": 1.0})
    cap.close()


def test_a_folder_of_captures_reads_each_table_once(tmp_path):
    _capture(tmp_path / "alice", "alice", 1e9)
    _capture(tmp_path / "bob", "bob", 2e9)
    (tmp_path / "notes.txt").write_text("type 16 bytes\nsha256 1000.00k\n")
    df = cipherlab.ingest(tmp_path)
    rates = df.groupby(df["host"].astype("object").fillna("-"))["bytes_per_s"].apply(list)
    # one row per capture (its table; the raw runs/a.txt beside it is not read a second time)
    # and the loose dump beside them
    assert rates.to_dict() == {"alice": [1e9], "bob": [2e9], "-": [1e6]}
    assert len(df) == 3 and not pd.isna(df["bytes_per_s"]).any()
