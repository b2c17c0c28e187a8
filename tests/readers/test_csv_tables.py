"""Tables written as comma-separated values: a spreadsheet's export of a retyped ``openssl
speed`` table, in a text or in a ``.csv`` file of its own (issue 12: document tables).

Read in openssl's orientation (algorithms as rows, sizes as columns) and as grids whose columns
are all titled as measurements (sizes, units, statistics); a CSV whose columns are fields of
their own (a data file) is not read as builds or machines, and prose with commas is no table.
"""

from __future__ import annotations

import warnings

import pytest

import cipherlab

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

GRID = ("cipher,16 bytes,64 bytes,256 bytes\n"
        "aes-128-cbc,412873.11k,441206.30k,450000.00k\n"
        "aes-256-cbc,\"312,873.11k\",341206.30k,350000.00k\n")


def _read(source):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest(source)
    return df, [str(w.message) for w in caught]


def test_a_csv_grid_in_a_text_is_read_with_its_quoted_thousands():
    df, said = _read(f"Exported from the team's sheet:\n\n{GRID}\nThat is all.\n")
    got = sorted(zip(df.algorithm, df.block_bytes, df.bytes_per_s))
    assert got[:3] == [("aes-128-cbc", 16, 412873110.0), ("aes-128-cbc", 64, 441206300.0),
                       ("aes-128-cbc", 256, 450000000.0)]
    assert ("aes-256-cbc", 16, 312873110.0) in got and len(got) == 6
    assert set(df.dialect) == {"csv"} and not [s for s in said if "not placed" in s]


def test_a_csv_file_that_is_no_tidy_table_is_read_as_a_document_table(tmp_path):
    (tmp_path / "sheet.csv").write_text(GRID.replace("k", ""))
    (tmp_path / "tidy.csv").write_text("algorithm,block_bytes,bytes_per_s\nmd5,16,1.5e8\n")
    df, said = _read(tmp_path / "sheet.csv")
    # (no k and no unit stated: kept as printed and flagged, never guessed)
    assert len(df) == 6 and set(df.flag) == {"unit unknown"}
    assert any("have no unit" in s for s in said)
    df, _ = _read(tmp_path)  # a folder: the tidy table and the sheet, each as what it is
    assert len(df) == 7 and sorted(df.algorithm.value_counts()) == [1, 3, 3]


def test_a_long_format_csv_gives_statistics_flagged_as_no_runs_cells():
    text = ("Throughput in MB/s over 5 runs:\n\n"
            "algorithm,block,min,max,avg\n"
            "aes-128-gcm,1024,2301.5,2388.0,2350.1\n"
            "sha256,16384,701.4,719.9,712.6\n")
    df, _ = _read(text)
    assert sorted(zip(df.algorithm, df.block_bytes, df.stat, df.bytes_per_s))[:3] == [
        ("aes-128-gcm", 1024, "max", 2388.0e6), ("aes-128-gcm", 1024, "mean", 2350.1e6),
        ("aes-128-gcm", 1024, "min", 2301.5e6)]
    assert set(df.flag) == {"summary of runs"}  # (the runs themselves are not in the text)


def test_a_data_file_and_prose_with_commas_give_no_rows():
    data = ("algorithm,operation,source,t0_ns,c_ns_per_byte,r_squared\n"
            "aes-128-cbc,encrypt,a.txt,9.13,3.41,0.99998\n"
            "aes-128-gcm,encrypt,a.txt,2.53,1.75,0.99999\n")
    with pytest.raises(cipherlab.errors.IngestError):
        cipherlab.ingest(data)  # (loud: its lines name ciphers beside numbers)
    prose = ("We ran it on a Xeon, a Graviton3, and a Pi 5, twice each,\n"
             "with OpenSSL 3.0.13, 3.2.1, and 3.3.0, as before, on idle boxes:\n\n"
             "type 16 bytes 64 bytes\nmd5 1.00k 2.00k\n")
    df, said = _read(prose)
    assert len(df) == 2 and set(df.dialect) != {"csv"} and not [s for s in said if "not placed" in s]
