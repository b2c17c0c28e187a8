"""The normalise layer (``readers/_text.py``): markup, prefixes and transfer encodings undone
before any dialect reads a line, line numbers kept.

Each rule is shown on small texts written here, in other variants of the shapes found in the
real pastes (another bullet, other names, another unit, another language's string literal), so
the rule is seen to generalise; every test runs through both engines (conftest).
"""

from __future__ import annotations

import pytest

import cipherlab
from cipherlab.readers._text import clean

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)


def cells(df):
    return list(zip(df.algorithm.astype(str), df.block_bytes.astype("Int64"), df.bytes_per_s))


# --- inline code and emphasis ---------------------------------------------------------------
@pytest.mark.parametrize("line, want", [
    ("- `sha512  1000.00k  2000.00k`", "sha512  1000.00k  2000.00k"),
    ("``md5 1.00k``", "md5 1.00k"),
    ("> * `rsa 2048 bits 0.000289s`", "rsa 2048 bits 0.000289s"),
    ("Doing sha1 for **3s** on 64 size blocks: **100** sha1's in **2.50s**",
     "Doing sha1 for 3s on 64 size blocks: 100 sha1's in 2.50s"),
    ("**Work laptop**", "**Work laptop**"),  # a bold heading stays one: it may label a run
    ("```text", "```text"),  # a fence is not inline code
    ("const out = `+H:16:64", "+H:16:64"),  # a JS template literal opens
    ("+F:2:md5:1.50:2.50`;", "+F:2:md5:1.50:2.50"),  # ... and closes
    ("print(`md5 1.00k`)", "print(md5 1.00k)"),
])
def test_clean_drops_inline_markup(line, want):
    assert clean(line) == want


def test_headerless_rows_in_inline_code_bullets_with_a_machine_note():
    # five values: openssl 1.x's five block sizes
    text = ("Per cluster:\n\n"
            "- `sha256   1000.50k   2000.25k   3000.75k   4000.00k   5000.00k (Neoverse-N1)`\n"
            "- `sha256    500.50k    600.25k    700.75k    800.00k    900.00k (Neoverse-E1)`\n")
    df = cipherlab.ingest(text, strict=True)
    assert df.block_bytes.tolist() == [16, 64, 256, 1024, 8192] * 2
    assert df.bytes_per_s.tolist() == [1000500.0, 2000250.0, 3000750.0, 4e6, 5e6,
                                       500500.0, 600250.0, 700750.0, 8e5, 9e5]
    assert df.groupby("run").label.first().tolist() == ["Neoverse-N1", "Neoverse-E1"]
    assert df.line.tolist() == [3] * 5 + [4] * 5


def test_progress_line_with_bold_numbers():
    text = ("Doing sha512 for 3s on 16 size blocks: **4000** sha512's in **2.00s**\n"
            "Doing sha512 for 3s on 64 size blocks: 3000 sha512's in 2.00s\n")
    df = cipherlab.ingest(text, strict=True)
    assert df["count"].tolist() == [4000, 3000]
    assert df.bytes_per_s.tolist() == [4000 * 16 / 2.0, 3000 * 64 / 2.0]


def test_bold_heading_still_labels_the_run():
    text = "**Work laptop**\n\ntype 16 bytes 64 bytes\nmd5 1.00k 2.00k\n"
    assert cipherlab.ingest(text, strict=True).label.unique().tolist() == ["Work laptop"]


def test_mr_records_in_a_javascript_template_literal():
    text = ("test('best rate', () => {\n"
            "  const out = `+H:16:64:256\n"
            "+F:2:sha1:1500.50:2500.25:3500.75`;\n"
            "  expect(best(out)).toBe(3500.75);\n"
            "});\n")
    df = cipherlab.ingest(text, strict=True)
    assert cells(df) == [("sha1", 16, 1500.5), ("sha1", 64, 2500.25), ("sha1", 256, 3500.75)]
    assert df.line.tolist() == [3, 3, 3]


# --- the prefix a block of lines shares -----------------------------------------------------
TABLE = ["type             16 bytes     64 bytes    256 bytes",
         "sha384           1000.00k     2000.00k     3000.00k",
         "aes-192-cbc      4000.00k     5000.00k     6000.00k"]
SHA384_AES192 = [("sha384", 16, 1e6), ("sha384", 64, 2e6), ("sha384", 256, 3e6),
                 ("aes-192-cbc", 16, 4e6), ("aes-192-cbc", 64, 5e6), ("aes-192-cbc", 256, 6e6)]


@pytest.mark.parametrize("prefix", ["%% ", "%", "; ", "//  ", "! ", "> > ", ">>", "| ", "* ",
                                    "  - ", "#", "\t# "])
def test_any_shared_prefix_is_stripped(prefix):
    text = "Results:\n" + "".join(prefix + line + "\n" for line in TABLE) + "done\n"
    df = cipherlab.ingest(text, strict=True)
    assert cells(df) == SHA384_AES192
    assert df.line.tolist() == [3] * 3 + [4] * 3


@pytest.mark.parametrize("gutter", ["{:>6}\t", "{}: ", "{:>3} | ", "{}. ", "{} "])
def test_line_number_gutters_are_stripped(gutter):
    text = "".join(gutter.format(n) + line + "\n" for n, line in enumerate(TABLE, start=41))
    df = cipherlab.ingest(text, strict=True)
    assert cells(df) == SHA384_AES192
    assert df.line.tolist() == [2] * 3 + [3] * 3


def test_progress_lines_in_a_tex_comment_block():
    text = ("%% measured on the build box\n"
            "%% Doing sha1 for 3s on 16 size blocks: 3000 sha1's in 3.00s\n"
            "%% Doing sha1 for 3s on 64 size blocks: 2000 sha1's in 2.00s\n")
    df = cipherlab.ingest(text, strict=True)
    assert df.bytes_per_s.tolist() == [16000.0, 64000.0]


def test_numbers_that_do_not_count_up_are_no_gutter():
    # sizes as the first column, not line numbers: the lines are left as they are
    from cipherlab.readers._text import strip_shared_prefix
    lines = ["16 1.00 2.00", "64 3.00 4.00", "256 5.00 6.00"]
    assert strip_shared_prefix(lines)[0] == lines


# --- transfer encodings ---------------------------------------------------------------------
MAIL_BODY = ("Numbers from the new board:\n\n"
             "OpenSSL 3.1.4 24 Oct 2023\n"
             "CPUINFO: OPENSSL_armcap=0xbd\n"
             "The 'numbers' are in 1000s of bytes per second processed.\n"
             "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes\n"
             "sm4-cbc          1234.56k     2345.67k     3456.78k     4567.89k     5678.90k     6789.01k\n"
             "whirlpool         987.65k     1876.54k     2765.43k     3654.32k     4543.21k     5432.10k\n")


def test_quoted_printable_mail_is_decoded_and_keeps_its_line_numbers():
    import quopri
    encoded = quopri.encodestring(MAIL_BODY.encode()).decode()
    assert "=3D" in encoded and "=\n" in encoded  # the real encoder escaped and soft-broke
    df = cipherlab.ingest(encoded, strict=True)
    assert df.algorithm.astype(str).unique().tolist() == ["sm4-cbc", "whirlpool"]
    assert df.bytes_per_s.tolist()[:2] == [1234560.0, 2345670.0]
    assert df.cpuinfo.iloc[0] == "OPENSSL_armcap=0xbd"
    rows = [i + 1 for i, line in enumerate(encoded.split("\n")) if line.startswith(("sm4", "whirl"))]
    assert sorted(set(df.line)) == rows  # each row's line in the pasted (encoded) text


# A mail whose prose the encoder soft-broke above two tables: one of no stated unit, one whose
# plain cells beside 'k' ones are too large for openssl's bytes/s.
QP_TABLES = (
    "Subject: digest speeds measured on the file server in the basement, sent from webmail\n\n"
    "| Digest | 16 bytes | 64 bytes |\n|---|---|---|\n"
    "| sha3-256 | 15000.5 | 40000.25 |\n| blake2s256 | 30000.5 | 90000.75 |\n\n"
    "And the ciphers, with the numbers exactly as openssl printed them on that machine (most of them):\n\n"
    "| Cipher | 16 bytes | 64 bytes |\n|---|---|---|\n"
    "| sm4-cbc | 81234.56k | 91234.56 |\n")


def test_warnings_name_the_lines_of_the_pasted_text_not_of_the_decoded_one():
    import quopri
    import re
    import warnings

    encoded = quopri.encodestring(QP_TABLES.encode()).decode()
    assert encoded.count("=\n") >= 2  # the prose above each table was soft-broken
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest(encoded)
    pasted = encoded.split("\n")
    rows = {name: i + 1 for i, line in enumerate(pasted) for name in ("sha3", "blake2s", "sm4")
            if line.startswith(f"| {name}")}
    messages = [str(w.message) for w in caught]
    no_unit = next(m for m in messages if "have no unit" in m)
    assert re.search(r"line\(s\) ([\d, ]+) have", no_unit)[1] == f"{rows['sha3']}, {rows['blake2s']}"
    large = next(m for m in messages if "above 10000" in m)
    assert re.search(r"line\(s\) ([\d, ]+) were", large)[1] == str(rows["sm4"])
    assert set(df.line) == set(rows.values())  # the cells say the same lines


def test_text_with_a_plain_equals_sign_is_not_taken_for_quoted_printable():
    from cipherlab.readers._text import normalise
    text = "CFLAGS=-O2 -march=native and a long line that ends with an equals sign =\nmd5 =3D\n"
    assert normalise(text) == (text.split("\n"), None)


def test_html_entities_are_decoded():
    text = ("&gt; Laptop &amp; dock:\n&gt;\n"
            "&gt; type&nbsp;&nbsp;16 bytes&nbsp;&nbsp;64 bytes\n"
            "&gt; blake2s256&nbsp;&nbsp;1500.25k&nbsp;&nbsp;2500.75k\n")
    df = cipherlab.ingest(text, strict=True)
    assert cells(df) == [("blake2s256", 16, 1500250.0), ("blake2s256", 64, 2500750.0)]
    assert df.label.unique().tolist() == ["Laptop & dock"]


# --- bytes to text: UTF-16 with a BOM, gzip (checked as files, as users hand them over) -----
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
@pytest.mark.parametrize("packed", [False, True])
def test_utf16_with_a_bom_and_gzip_files(tmp_path, encoding, packed):
    import gzip
    text = "\r\n".join(TABLE) + "\r\n"
    data = text.encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):  # (the codec writes no BOM: add the one it means)
        data = ("\ufeff" + text).encode(encoding)
    path = tmp_path / ("speed.txt.gz" if packed else "speed.txt")
    path.write_bytes(gzip.compress(data) if packed else data)
    df = cipherlab.ingest(path, strict=True)
    assert cells(df) == SHA384_AES192 and df.line.tolist() == [2] * 3 + [3] * 3


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_ascii_text_in_utf16_without_a_bom_is_read(tmp_path, encoding):
    path = tmp_path / "speed.txt"
    path.write_bytes(("\n".join(TABLE) + "\n").encode(encoding))
    assert cells(cipherlab.ingest(path, strict=True)) == SHA384_AES192


def test_nul_bytes_that_are_no_utf16_are_refused_with_a_clear_error(tmp_path):
    path = tmp_path / "speed.bin"
    path.write_bytes(b"type 16 bytes\x00\x00\x01md5 1.00k\n")
    with pytest.raises(cipherlab.errors.IngestError, match="binary data, not benchmark text"):
        cipherlab.ingest(path)


# --- a terminal's screen: typescripts and recordings ----------------------------------------
# (a 1.1.1 run, other names and values than tests/data/user/logs 027 and 028)
_SESSION = ["Doing sha1 for 3s on 16 size blocks: 14017000 sha1's in 2.99s",
            "Doing sha1 for 3s on 64 size blocks: 9940123 sha1's in 3.00s",
            "OpenSSL 1.1.1w  11 Sep 2023",
            "The 'numbers' are in 1000s of bytes per second processed.",
            "type             16 bytes     64 bytes",
            "sha1             75007.36k   212056.00k"]


def test_a_typescript_reads_as_its_screen_showed_it(tmp_path):
    typed = "\x1b[1;33mroot@rk3588\x1b[0m:~# openssl speed -elapsde\x08 \x08\x08 \x08ed sha1"
    redrawn = "".join(f"\r{i * 10:3d}% [{'=' * i}{' ' * (10 - i)}]" for i in range(11))
    lines = ["Script started on 2025-11-30 11:00:07+01:00", typed, redrawn + "\r\x1b[2K",
             *_SESSION, "\x1b[1;33mroot@rk3588\x1b[0m:~# exit"]
    path = tmp_path / "typescript"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode())  # (BS: no binary, a key)
    df = cipherlab.ingest(path, n_jobs=1)
    assert cells(df) == [("sha1", 16, 75007360.0), ("sha1", 64, 212056000.0)]
    assert df.timing.unique().tolist() == ["elapsed"]  # (the options typed, as shown)
    assert df.line.unique().tolist() == [9]


@pytest.mark.parametrize("version", [2, 3])
def test_an_asciinema_recording_reads_as_the_text_its_events_printed(version):
    import json
    head = {"version": version, "width": 100, "height": 30} if version == 2 else \
        {"version": 3, "term": {"cols": 100, "rows": 30}}
    events = [[0.1, "o", "$ "], *([0.05, "o", c] for c in "openssl speed -seconds 3 sha1"),
              [0.2, "o", "\r\n"], [0.3, "i", "ignored keys"]]
    for line in _SESSION:
        head_, sep, tail = line.partition(": ") if line.startswith("Doing") else (line, "", "")
        events += [[1.0, "o", head_ + sep], [2.0, "o", tail + "\r\n"]] if sep else [[0.1, "o", line + "\r\n"]]
    text = json.dumps(head) + "\n" + "".join(json.dumps(e) + "\n" for e in events)
    df = cipherlab.ingest(text, n_jobs=1)
    assert cells(df) == [("sha1", 16, 75007360.0), ("sha1", 64, 212056000.0)]
    assert df.line.unique().tolist() == [2 + 29 + 1 + 1 + 2 + 2 + 4]  # (the event's JSON line)


def test_a_whole_html_page_reads_without_its_style_sheets_scripts_and_pre_tags():
    page = ["<!DOCTYPE html>", "<html><head><style>", "/* Make the output area match the screen */",
            ".out { font: 12px monospace }", "</style>",
            "<script>window.note = 'Results on my laptop'; </script></head><body>",
            "<h1>sha1 on the router</h1>", "<pre><code>" + _SESSION[0], *_SESSION[1:-1],
            "<span class=\"n\">" + _SESSION[-1] + "</span></code></pre>", "</body></html>"]
    df = cipherlab.ingest("\n".join(page) + "\n", n_jobs=1)
    assert cells(df) == [("sha1", 16, 75007360.0), ("sha1", 64, 212056000.0)]
    assert df.tool_version.unique().tolist() == ["1.1.1w"]  # (its line behind <pre><code>)
    assert not df.label.astype(str).str.contains("laptop|screen").any()  # (no script or CSS)
    assert df.line.unique().tolist() == [13]


@pytest.mark.parametrize("status", ["--More--(47%)", "--More--", "speed.log lines 1-3/9 33%",
                                    "(END)", "bench.out (END)"])
def test_a_pagers_status_line_is_no_text(status):
    # a screen of `more speed.log` / `less -M speed.log` copied: the status line sits inside the
    # run, between its two tables; it names no run and ends none
    head = "version: 3.0.13\n                  sign    verify    sign/s verify/s\n"
    text = (f"{head}rsa 3072 bits 0.0031s 0.00006s 322.6 16666.7\n{status}\n"
            "                  sign    verify    sign/s verify/s\n"
            "rsa 4096 bits 0.0072s 0.0001s 138.9 10000.0\n")
    df = cipherlab.ingest(text)
    assert df.run.nunique() == 1 and df.label.isna().all()
    assert sorted(df.algorithm.unique()) == ["rsa3072", "rsa4096"]


def test_a_split_terminals_panes_are_read_apart():
    # screen's vertical split copied with the mouse: a run in each pane, side by side, the
    # border at one column; each pane is a text of its own, numbered as the copy
    left = ["$ openssl speed md5", "version: 3.1.4", "type 16 bytes 64 bytes", "md5 1.00k 2.00k", "$"]
    right = ["$ openssl speed sha1", "version: 3.1.4", "type 16 bytes 64 bytes", "sha1 3.00k 4.00k", ""]
    text = "".join(f"{a:<34}\u2502{b}\n" for a, b in zip(left, right)) + "\u2500" * 34 + "\u2534\n"
    df = cipherlab.ingest(text)
    assert df.groupby("run").algorithm.first().tolist() == ["md5", "sha1"]
    assert df.line.unique().tolist() == [4]
    assert df.bytes_per_s.tolist() == [1000.0, 2000.0, 3000.0, 4000.0]


@pytest.mark.parametrize("rows", [
    [" md5      \u2502 1.00k \u2502 2.00k", " sha1     \u2502 3.00k \u2502 4.00k", " sha256   \u2502 5.00k \u2502 6.00k"],
    [" md5      \u2502 1.00k 2.00k", " sha1     \u2502 3.00k 4.00k", " sha256   \u2502 5.00k 6.00k"],
])
def test_a_box_drawn_tables_rules_are_no_pane_border(rows):
    from cipherlab.readers._text import panes
    assert panes(rows, None) == [(rows, None)]
