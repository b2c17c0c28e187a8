"""Bad input: clear errors naming file, line and what was expected; nothing dropped silently."""

from __future__ import annotations

import io
import warnings

import pytest

import cipherlab
from cipherlab.errors import IngestError, IngestWarning
from cipherlab.model import write_table

TABLE = ("version: 3.0.2\n"
         "The 'numbers' are in 1000s of bytes per second processed.\n"
         "type             16 bytes     64 bytes\n"
         "md5             105819.77k   271891.20k\n")


def test_binary_file(tmp_path):
    p = tmp_path / "plot.png"
    p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(IngestError, match="binary data") as info:
        cipherlab.ingest(p)
    assert info.value.source == str(p) and "plot.png" in str(info.value)


def test_undecodable_bytes(tmp_path):
    p = tmp_path / "speed.txt"
    p.write_bytes(b"md5 1.00k\n\x81\x8d\x8f\x90\x9d\n")  # neither UTF-8 nor Windows-1252
    with pytest.raises(IngestError, match="cannot decode") as info:
        cipherlab.ingest(p)
    assert "offset" in info.value.msg


def test_latin1_text_is_read(tmp_path):
    p = tmp_path / "speed.txt"
    p.write_bytes(("M\u00fcller's box\n" + TABLE).encode("cp1252"))
    df = cipherlab.ingest(p)
    assert set(df.label) == {"M\u00fcller's box"}


@pytest.mark.parametrize("text", ["", "\n", "just some prose\nwith two lines\n"])
def test_no_measurements(text):
    with pytest.raises(IngestError, match="no measurements found"):
        cipherlab.ingest(text)


def test_stray_data_line_is_warned_with_its_line_number():
    text = TABLE + "lorem ipsum dolor\nsit amet\nfoo  12.50k  13.75k  1.00  bar 99.99\nconsectetur\n"
    with pytest.warns(IngestWarning, match=r"<text>: 1 line\(s\) look like measurements but were "
                                           r"not placed \(line\(s\) 7; first: 'foo  12.50k"):
        df = cipherlab.ingest(text)
    assert len(df) == 2  # the table itself is read


def test_strict_mode_error_attributes():
    text = TABLE + "garbage 1.00 2.00 3.00\n"
    with pytest.raises(IngestError) as info:
        cipherlab.ingest(text, strict=True)
    err = info.value
    assert isinstance(err, ValueError)
    assert (err.source, err.lineno, err.line) == ("<text>", 5, "garbage 1.00 2.00 3.00")
    assert "line 5" in str(err)


def test_broken_records_are_not_dropped_silently():
    text = "+H:16:64\n+F:25:md5:1600.00:6400.00\n+F2:garbage\n+R:12:md5:1.00\n"
    with pytest.warns(IngestWarning, match=r"line\(s\) 3, 4"):
        df = cipherlab.ingest(text)
    assert df.bytes_per_s.tolist() == [1600.0, 6400.0]


def test_suspicious_values_are_kept_flagged_and_warned():
    text = ("type             16 bytes     64 bytes    256 bytes\n"
            "md5                 infk   -1234.00k  9999999999999.00k\n")
    with pytest.warns(IngestWarning, match="3 suspicious value"):
        df = cipherlab.ingest(text)
    assert df.flag.tolist() == ["inf", "negative", "absurd"]
    assert df.bytes_per_s.iloc[2] == 9999999999999.00e3


def test_suspicious_warning_points_at_the_caller():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cipherlab.ingest("type 16 bytes\nmd5 infk\n")
    assert caught and all(w.filename == __file__ for w in caught)


def test_missing_path_and_glob(tmp_path):
    with pytest.raises(FileNotFoundError, match="neither an existing file"):
        cipherlab.ingest(tmp_path / "nope.txt")
    with pytest.raises(FileNotFoundError, match="matches no file"):
        cipherlab.ingest(str(tmp_path / "*.txt"))


def test_bad_keywords():
    with pytest.raises(ValueError, match=r"`timing` must be one of 'cpu' or 'elapsed'; not 'wall'"):
        cipherlab.ingest(TABLE, timing="wall")
    with pytest.raises(TypeError, match="`source` must be"):
        cipherlab.ingest(3.5)


def test_sources_of_every_kind(tmp_path):
    (tmp_path / "a.txt").write_text(TABLE)
    (tmp_path / "b.txt").write_text(TABLE.replace("3.0.2", "3.0.3"))
    (tmp_path / "notes.txt").write_text("nothing measured here\n")
    (tmp_path / "README.md").write_text("# readme\n")
    by_glob = cipherlab.ingest(str(tmp_path / "[ab].txt"))
    assert sorted(by_glob.tool_version.unique()) == ["3.0.2", "3.0.3"]
    (tmp_path / "host1-openssl-3.0.19").write_text(TABLE)  # read by content, not by suffix
    (tmp_path / "plot.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        by_folder = cipherlab.ingest(tmp_path)
    assert len(by_folder) == 6
    # every file skipped, in one warning, with the reason
    assert [str(w.message) for w in caught] == [
        f"3 file(s) skipped, holding no benchmark: {tmp_path / 'README.md'} (documentation), "
        f"{tmp_path / 'notes.txt'} (no measurements found), "
        f"{tmp_path / 'plot.png'} (this is binary data, not benchmark text)."]
    by_list = cipherlab.ingest([tmp_path / "a.txt", TABLE], aesni="off", tool_version="3.0.9")
    assert set(by_list.aesni) == {"off"} and set(by_list.tool_version) == {"3.0.9"}
    assert set(by_list.source) == {str(tmp_path / "a.txt"), "<text>"}
    assert len(cipherlab.ingest(io.StringIO(TABLE))) == 2
    with open(tmp_path / "a.txt", "rb") as fh:
        assert set(cipherlab.ingest(fh).source) == {str(tmp_path / "a.txt")}
    assert set(cipherlab.ingest(TABLE, label="mine").label) == {"mine"}


def test_capture_folder_reads_its_table(tmp_path):
    df = cipherlab.ingest(TABLE, aesni="on")
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "0.txt").write_text(TABLE)
    write_table(df, tmp_path / "results.csv")
    back = cipherlab.ingest(tmp_path)
    assert back.bytes_per_s.tolist() == df.bytes_per_s.tolist() and set(back.aesni) == {"on"}


def test_runs_are_numbered_within_each_source(tmp_path):
    two_runs = TABLE + TABLE.replace("3.0.2", "3.0.3")
    (tmp_path / "a.txt").write_text(two_runs)
    (tmp_path / "b.txt").write_text(two_runs)
    df = cipherlab.ingest(tmp_path)
    assert df.groupby("source", observed=True).run.unique().map(list).tolist() == [[0, 1], [0, 1]]


def test_standard_input_is_a_file_object(tmp_path):
    import subprocess
    import sys

    (tmp_path / "speed.txt").write_text(TABLE)
    code = "import sys, cipherlab; df = cipherlab.ingest(sys.stdin); print(len(df), set(df.source))"
    with open(tmp_path / "speed.txt", "rb") as stdin:
        out = subprocess.run([sys.executable, "-c", code], stdin=stdin, capture_output=True,
                             text=True, check=True).stdout
    assert out.strip() == "2 {'<stdin>'}"
    with open(tmp_path / "speed.txt", "rb") as stdin:  # the binary stream too
        out = subprocess.run([sys.executable, "-c", code.replace("sys.stdin)", "sys.stdin.buffer)")],
                             stdin=stdin, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "2 {'<stdin>'}"


@pytest.mark.parametrize("row", ["run 2: sha256 @ 1024 B: 1345678.12k", "aes-128-gcm 16 1345678.12k"])
def test_a_retyped_row_of_one_value_is_reported_by_line(row):
    """One value in openssl's ``k`` after a cipher's name, retyped one cell a line with no table
    to place it in, that is no list row (a word beside the name, a size without its unit): the
    error names the lines, never just "no measurements". (``sha256  1024 bytes  1345678.12k``
    is a list row: read, see ``readers/_listed.py``.)"""
    text = f"CI runners, three runs each:\n\nx86_64:\n{row}\n{row.replace('1345', '1338')}\n"
    with pytest.raises(IngestError) as e:
        cipherlab.ingest(text)
    assert [n for n, _ in e.value.unplaced] == [4, 5] and "line 4" in str(e.value)


def test_a_sentence_quoting_a_value_is_no_row():
    text = ("type 16 bytes\nmd5 1.00k\n\nThat is, the first row means OpenSSL hashed 1.00k bytes "
            "with md5 in 3 seconds on this box.\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", IngestWarning)
        assert len(cipherlab.ingest(text)) == 1
