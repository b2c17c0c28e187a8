"""``cipherlab ingest``: the CLI over cipherlab.ingest, on the bundled data."""

from __future__ import annotations

import pytest

import cipherlab
from cipherlab.cli import main
from cipherlab.model import read_table


def test_ingest_bundled_data_to_csv(tmp_path, capsys):
    out = tmp_path / "all.csv"
    assert main(["ingest", str(cipherlab.datasets.root() / "seeds"), "-o", str(out)]) == 0
    shown = capsys.readouterr()
    assert "netbsd-ml-three-os-openssl-speed.txt" in shown.out and f"wrote {out}" in shown.out
    assert "openjdk-ml-aes-gcm-slow.txt (no measurements found)" in shown.err
    df = read_table(out)
    netbsd = df[df.source.str.endswith("netbsd-ml-three-os-openssl-speed.txt")]
    assert netbsd.run.nunique() == 3 and len(netbsd) == 382


def test_ingest_conditions_and_stdout(capsys):
    path = cipherlab.datasets.path("evp-aes-mr.txt")
    assert main(["ingest", str(path), "-c", "aesni=on", "--tool-version", "3.0.19", "-o", "-"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[0].split(",")
    row = dict(zip(header, lines[1].split(",")))
    assert (row["aesni"], row["tool_version"], row["bytes_per_s"]) == ("on", "3.0.19", "1394193892.68")


def test_ingest_errors_exit_1(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("type 16 bytes\nmd5 1.00k\n+F2:9:1:2\n")
    assert main(["ingest", str(bad), "--strict"]) == 1  # data that cannot be read: 1
    assert "line 3: '+F2:9:1:2'" in capsys.readouterr().err
    assert main(["ingest", str(tmp_path / "missing.txt")]) == 1
    assert "missing.txt" in capsys.readouterr().err


def test_warnings_give_the_commands_flags(tmp_path, capsys):
    text = tmp_path / "paste.txt"
    text.write_text("type 16 bytes\nmd5 1.00k\n+F2:9:1:2\n")
    assert main(["ingest", str(text), "-o", str(tmp_path / "t.csv")]) == 0
    err = capsys.readouterr().err
    assert "look like measurements but were not placed" in err and "pass --strict" in err
    assert "strict=True" not in err


def test_ingest_jobs(tmp_path, capsys):
    seeds = str(cipherlab.datasets.root() / "seeds")
    assert main(["ingest", seeds, "-j", "2", "-o", str(tmp_path / "two.csv")]) == 0
    assert main(["ingest", seeds, "-j", "1", "-o", str(tmp_path / "one.csv")]) == 0
    assert (tmp_path / "two.csv").read_text() == (tmp_path / "one.csv").read_text()
    with pytest.raises(SystemExit):
        main(["ingest", seeds, "-j", "0"])
    assert "expected a number of processes or -1; not '0'" in capsys.readouterr().err
