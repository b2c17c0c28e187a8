"""Right or loud: other programs' output yields no rows and no unplaced openssl data; run
labels are never a fence, a command or program output; an empty read keeps its unplaced lines."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import cipherlab
from cipherlab.errors import IngestError

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

DISTRACTORS = sorted((Path(__file__).parent / "distractors").glob("*.txt"))


@pytest.mark.parametrize("path", DISTRACTORS, ids=lambda p: p.stem)
def test_other_tools_output_gives_no_rows_and_no_unplaced_lines(path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "look like measurements" warning either
        with pytest.raises(IngestError, match="no measurements found") as err:
            cipherlab.ingest(path)
    assert err.value.unplaced == []


def test_distractors_beside_a_table_stay_out_of_it():
    table = ("version: 3.0.2\n"
             "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes\n"
             "md5             1.00k 2.00k 3.00k 4.00k 5.00k 6.00k\n\n")
    text = "".join(p.read_text() + "\n" for p in DISTRACTORS) + table
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = cipherlab.ingest(text)
    assert set(df.algorithm) == {"md5"} and len(df) == 6


def test_empty_read_carries_its_unplaced_lines():
    with pytest.raises(IngestError) as err:
        cipherlab.ingest("notes\nmd5 1.00k 2.00k 3.00k\nsha1 1.00k 2.00k\n")
    assert [n for n, _ in err.value.unplaced] == [2, 3]
    assert "line(s) 2, 3" in str(err.value) and "md5 1.00k" in str(err.value)


@pytest.mark.parametrize("junk", [
    "```bash", "~~~", "```console", "$ openssl speed -evp aes-128-cbc",
    "pi@pi5:~ $ openssl speed -elapsed -evp aes-256-cbc", "C:\\Users\\LD>openssl speed md5",
    "root@wrt32x:/# time -v openssl speed -elapsed -evp AES-256-CBC",
    "util/shlib_wrap.sh apps/openssl speed ed25519", "OpenSSL 1.1.1k  25 Mar 2021",
    "version: 3.0.2", "KazKobara · description · 2026-06-29", "On Mon, 5 Jan 2015, Bob wrote:",
    "We are trying to evaluate the HCA with the OpenSSL utility, and see this.",
"1.1.1m", 'let out = "\\', "import CommonCrypto",
    "Linux 5.15.72-v7l+ #1591 SMP Wed Oct 5 12:05:33 BST 2022 armv7l unknown unknown GNU/Linux",
    "sign    verify    encrypt   decrypt   sign/s verify/s",
    "not show up without the `-elapsed` flag.  Here's an example run",
])
def test_a_label_is_never_a_fence_a_command_or_program_output(junk):
    text = f"{junk}\ntype 16 bytes 64 bytes\nmd5 1.00k 2.00k\n"
    df = cipherlab.ingest(text)
    # (a prompt's host names the machine the command ran on: that, never the command line)
    host = {"pi@pi5": "pi5", "root@wrt32x": "wrt32x"}.get(junk.split(":")[0])
    assert df.label.isna().all() if host is None else set(df.label) == {host}, df.label.tolist()


def test_a_prose_label_still_names_its_run():
    df = cipherlab.ingest("```\nMy desktop (Ryzen 5 3600):\n```\ntype 16 bytes 64 bytes\nmd5 1.00k 2.00k\n")
    assert set(df.label) == {"My desktop (Ryzen 5 3600)"}


_ECDH = "Doing 256 bits  ecdh's for 10s: {n} 256-bits ECDH ops in 10.00s\n"


def test_curves_named_by_size_only_follow_openssls_order_or_are_flagged():
    three = "".join(_ECDH.format(n=n) for n in (100, 200, 300))
    df = cipherlab.ingest("$ openssl speed ecdh\n" + three)
    assert df.algorithm.tolist() == ["ecdh-p256", "ecdh-brainpoolp256r1", "ecdh-brainpoolp256t1"]
    assert df.flag.isna().all()
    # the command line names the curve that ran
    df = cipherlab.ingest("$ openssl speed ecdhbrp256t1\n" + _ECDH.format(n=5))
    assert df.algorithm.tolist() == ["ecdh-brainpoolp256t1"] and df.flag.isna().all()
    # no command line, one of the three 256-bit curves: which one cannot be known
    df = cipherlab.ingest(_ECDH.format(n=5))
    assert df.flag.tolist() == ["curve unknown"]
    # "bit" (before 1.1.1, without brainpool): only P-256 has that size
    df = cipherlab.ingest("Doing 256 bit  ecdh's for 10s: 5 256-bit ECDH ops in 10.00s\n")
    assert df.algorithm.tolist() == ["ecdh-p256"] and df.flag.isna().all()


def test_rows_that_name_their_machine_are_runs_of_that_machine():
    head = "type 16 bytes 64 bytes\n"
    df = cipherlab.ingest(head + "FTC663: md5 1.00k 2.00k\nFTC663: sha1 3.00k 4.00k\n"
                          "A73:    md5 5.00k 6.00k\n")
    runs = df.groupby("run").agg(label=("label", "first"), algorithms=("algorithm", set))
    assert runs.label.tolist() == ["FTC663", "A73"]
    assert runs.algorithms.tolist() == [{"md5", "sha1"}, {"md5"}]
    # tags after the values; one name on interleaved machines: which rows ran together is
    # unknown, so each row is a run of its own
    df = cipherlab.ingest(head + "md5 1.00k 2.00k (Cortex-A720)\nmd5 3.00k 4.00k (Cortex-A520)\n"
                          "md5 5.00k 6.00k (Cortex-A720)\nsha1 7.00k 8.00k (Cortex-A720)\n")
    assert df.groupby("run").label.first().tolist() == ["Cortex-A720", "Cortex-A520",
                                                         "Cortex-A720", "Cortex-A720"]
    assert set(df.name) == {"md5", "sha1"}


_COLLAPSED = ("The results on a Xeon: type 16 bytes 64 bytes 256 bytes md5 12795.17k 41788.59k "
              "117776.81k aes-128 cbc 51152.56k 52996.52k 54039.55k des ede3 17932.17k 18639.27k "
              "18866.43k and that is all for the symmetric ciphers, which look fine to me.\n")


def test_a_table_collapsed_onto_one_line_is_read_row_by_row():
    df = cipherlab.ingest(_COLLAPSED)
    assert df.name.unique().tolist() == ["md5", "aes-128 cbc", "des ede3"]
    assert df.block_bytes.tolist() == [16, 64, 256] * 3 and set(df.line) == {1}
    assert df.bytes_per_s.iloc[3] == 51152560.0


def test_a_collapsed_line_with_a_name_no_cipher_has_is_not_guessed_at():
    with pytest.raises(IngestError):  # (not a table: its "rows" would be guesses)
        cipherlab.ingest(_COLLAPSED.replace("des ede3", "foo bar"))


@pytest.mark.parametrize("after", ["OpenSSL 3.0.2 on Ubuntu 22.04", "edit: LibreSSL 3.8.2, macOS 14.4",
                                   "built from 1.1.1w on Debian 12.5"])
def test_a_release_stated_under_a_table_is_no_row_cut_short(after):
    # ("OpenSSL 3.0.2 on Ubuntu" read as a row's name and "22.04" as its one value: reported)
    text = f"type 16 bytes 64 bytes\nmd5 1000.00k 2000.00k\n\n{after}\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = cipherlab.ingest(text)
    assert list(df.bytes_per_s) == [1e6, 2e6]


@pytest.mark.parametrize("sep", [",", " ", ";"])
def test_rows_of_a_long_table_whose_header_is_not_read_are_reported_never_dropped(sep):
    """A user's own long table under a header that names no rate (``t_ns``: a time per call, a
    script's own field): its rows name ciphers beside numbers, so the error lists them, as every
    line that looks like data and is not placed must be."""
    rows = [("aes-128-gcm", "16", "512.3"), ("aes-128-gcm", "1024", "3120.5"),
            ("chacha20-poly1305", "16", "300.1")]
    text = sep.join(("cipher", "bytes", "t_ns")) + "\n" + "".join(
        sep.join(r) + "\n" for r in rows)
    with pytest.raises(IngestError, match=r"3 line\(s\) \(line\(s\) 2, 3, 4\) look like "
                                          r"measurements") as err:
        cipherlab.ingest(text)
    assert [n for n, _ in err.value.unplaced] == [2, 3, 4]
    # prose naming a cipher beside a size and a word is no row
    assert cipherlab.readers._openssl.looks_like_data("aes-128-gcm 16 bytes at 512.3") is False


@pytest.mark.parametrize("title", ["throughput_MBps", "Throughput MB/s", "speed: MB/s",
                                   "throughput (MB/s)"])
@pytest.mark.parametrize("sep", [",", " | "])
def test_a_rate_column_titled_by_a_word_and_its_unit_is_the_rate_never_a_run(title, sep):
    """``cipher,bytes,throughput_MBps``, as a script or a spreadsheet titles its columns: the
    values in MB/s, one run with no label (the title named a run before, or the CSV was no
    table at all)."""
    text = sep.join(("cipher", "bytes", title)) + "\n" + (
        "|---|---|---|\n" if "|" in sep else "") + "".join(
        sep.join(r) + "\n" for r in [("aes-128-gcm", "16", "512.3"),
                                     ("aes-128-gcm", "1024", "3120.5")])
    df = cipherlab.ingest(text)
    assert df["bytes_per_s"].tolist() == pytest.approx([512.3e6, 3120.5e6])
    assert df["block_bytes"].tolist() == [16, 1024] and df["label"].isna().all()
