"""Spot tests of the fixes the document tables written as users post them found (``tests/data/
user/documents``, read whole in ``test_user_pastes.py``): each fix on its text's shape and on a
second variant in another shape, through both engines (issue 12).
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)


def _ingest(tmp_path, name: str, text: str):
    import warnings

    import cipherlab
    from cipherlab.errors import IngestError

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return cipherlab.ingest(path)
        except IngestError:
            return None


@pytest.mark.parametrize("name, text", [
    ("mac.md", "#### 1024-byte blocks, KB/s (OpenSSL 1.1.1t)\n\n| Name | Result |\n|---|---|\n"
               "| hmac(sha512) | 690213.12 |\n| md4 | 811320.07 |\n"),
    ("mac.txt", "openssl speed, 8192-byte blocks, in 1000s of bytes per second\n\n"
                "algorithm\t1.1.1w\t3.0.13\nhmac(sha256)\t1290331.02\t1288004.50\n"
                "sha256\t1301992.11\t1299403.27\n"),
])
def test_a_mac_named_with_its_digest_in_parentheses_is_one_algorithm(tmp_path, name, text):
    """``hmac(sha512)`` in a grid is the MAC, not ``hmac`` tagged ``sha512`` (which made a run
    labelled 'sha512' of an 'hmac' cipher 'encrypt'), nor a dropped row."""
    df = _ingest(tmp_path, name, text)
    macs = df[df["algorithm"].str.startswith(("hmac", "cmac"))]
    assert set(macs["algorithm"]) <= {"hmac(sha512)", "cmac(aes-128-cbc)", "hmac(sha256)"}
    assert len(macs) >= 1 and set(macs["operation"]) == {"digest"}
    assert not (df["label"].astype(str).str.fullmatch(r"sha\d+")).any()


@pytest.mark.parametrize("name, text", [
    ("jira.txt", "Ran openssl speed -evp aes-128-gcm on both hosts.\n\n"
                 "||Host||16 bytes (MB/s)||1024 bytes (MB/s)||\n|edge-a (EPYC 7313P)|526.2|3971.2|\n"
                 "|edge-b|481.2|3377.5|\n"),
    ("hosts.md", "openssl speed -evp sha256, KB/s\n\n| Machine | 16 bytes | 8192 bytes |\n"
                 "|---|---|---|\n| db-01 (Xeon) | 154224.18 | 1256789.33 |\n"
                 "| web-2 | 140332.02 | 1201355.41 |\n"),
])
def test_rows_under_a_host_header_are_never_algorithms(tmp_path, name, text):
    """A Jira ``||Host||16 bytes||`` header (its cells were split on every '|', shifting the
    values one column) or a Markdown ``| Machine |`` corner: the rows name machines, so no
    'edge-a-(epyc-7313p)' cipher; read as runs of the prose's algorithm, or not at all."""
    df = _ingest(tmp_path, name, text)
    if df is not None:
        assert set(df["algorithm"]) <= {"aes-128-gcm", "sha256"}


def test_a_line_warning_survives_the_trip_back_from_a_worker_or_the_cache():
    """Folders are read by worker processes; a warning naming lines (a document table's
    'unit unknown') is pickled back, and rebuilding it from its message alone crashed the pool
    (``BrokenProcessPool``) and the cache's replay (``TypeError``)."""
    import pickle

    from cipherlab.readers._text import LineWarning

    w = pickle.loads(pickle.dumps(LineWarning("cells at line(s) {lines} have no unit", [2, 0])))
    assert (str(w), w.numbers) == ("cells at line(s) 1, 3 have no unit", [1, 3])
    # (the ingest cache replays a warning from its category and message alone)
    assert str(LineWarning(str(w))) == str(w)


@pytest.mark.parametrize("name, text, algorithm", [
    ("title.md", "**hmac(sha512)** (KB/s)\n\n| 16 bytes | 64 bytes | 1024 bytes |\n"
                 "|---:|---:|---:|\n| 210334.5 | 401229.8 | 1561002.3 |\n", "hmac(sha512)"),
    ("prose.txt", "openssl speed whirlpool, OpenSSL 1.1.1w, KB/s\n\n"
                  "16 bytes\t64 bytes\t1024 bytes\n31234.55\t88123.40\t190332.11\n", "whirlpool"),
])
def test_a_grid_of_numbers_only_under_a_title_naming_the_algorithm(tmp_path, name, text, algorithm):
    """A grid without a name column (``| 16 bytes | 64 bytes |`` under a title): its first
    number was taken as the row's name, so the 16-byte cell became the run's label and
    tool_version ('210334.5') and the algorithm came from the 'sha512' inside 'hmac(sha512)'
    (or from another name of the prose: 'whirlpool', without digit or dash, was not seen)."""
    df = _ingest(tmp_path, name, text)
    assert set(df["algorithm"]) == {algorithm}
    assert sorted(df["block_bytes"]) == [16, 64, 1024]
    assert df["tool_version"].isna().all() or set(df["tool_version"]) == {"1.1.1w"}


def test_a_grid_with_two_algorithms_in_its_prose_and_none_in_it_is_not_guessed(tmp_path):
    df = _ingest(tmp_path, "two.md", "openssl speed whirlpool md4, KB/s\n\n"
                 "| 16 bytes | 64 bytes |\n|---|---|\n| 31234.55 | 88123.40 |\n")
    assert df is None or (df["flag"].notna().all())


@pytest.mark.parametrize("name, text", [
    ("glued.md", "OpenSSL 3.0.13, values in KB/s\n\n| algorithm | 16 bytes | 1024 bytes |\n"
                 "|---|---|---|\n| chacha20 256 | 210334.5 | 1561002.3 |\n| md5 1024 | 100.5 | 200.5 |\n"
                 "| aes 128 | 100.5 | 200.5 |\n| sha256 | 300.5 | 400.5 |\n"),
    ("glued.txt", "OpenSSL 3.0.13, values in KB/s\n\nalgorithm\t16 bytes\t1024 bytes\n"
                  "chacha20 256\t210334.5\t1561002.3\nmd5 1024\t100.5\t200.5\naes 128\t100.5\t200.5\n"
                  "sha256\t300.5\t400.5\n"),
])
def test_a_number_glued_to_a_whole_name_is_no_algorithm(tmp_path, name, text):
    """'md5 1024' became a cipher 'md5-1024' (operation encrypt), 'chacha20 256' and 'aes 128'
    made-up names, unflagged: now flagged 'name unclear' (the name as printed is kept)."""
    from cipherlab.readers._names import FLAG_NAME_UNCLEAR

    df = _ingest(tmp_path, name, text)
    unclear = df[df["name"].isin(["chacha20 256", "md5 1024", "aes 128"])]
    assert len(unclear) == 6 and set(unclear["flag"]) == {FLAG_NAME_UNCLEAR}
    assert df[df["name"] == "sha256"]["flag"].isna().all()


@pytest.mark.parametrize("name, text", [
    ("pk.md", "OpenSSL 3.0.13, ops/s\n\n| algorithm | sign | verify |\n|---|---|---|\n"
              "| ecdsa 256 | 61204.4 | 20110.9 |\n| rsa 2048 | 1712.4 | 58804.1 |\n"),
    ("pk.txt", "OpenSSL 3.0.13, ops/s\n\nalgorithm\tsign\tverify\nrsa 2048\t1712.4\t58804.1\n"
               "ecdh 384\t1204.4\t2010.9\n"),
])
def test_a_curve_family_with_a_size_only_is_reported_not_invented(tmp_path, name, text):
    """'ecdsa 256' (P-256? brainpoolP256r1?) was read as an algorithm 'ecdsa-256'; now its row
    is reported as not placed, even above the first row that is placed."""
    import warnings

    import cipherlab

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest(path)
    assert set(df["algorithm"]) == {"rsa2048"}
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "ecd" in t)
    assert any(f"line(s) {line}" in str(w.message) for w in caught)


@pytest.mark.parametrize("name, text", [
    ("grid.rst", "OpenSSL 3.0.2, ops/s\n\n+---------------+---------+-----------+\n"
                 "| algorithm     | sign/s  | verify/s  |\n+===============+=========+===========+\n"
                 "| rsa 2048 bits | 1712.4  | 58804.1   |\n+---------------+---------+-----------+\n"
                 "| rsa 4096 bits | 221.7   | 14110.2   |\n+---------------+---------+-----------+\n"),
    ("org.txt", "> OpenSSL 3.0.2 on the NAS, ops/s:\n>\n> | algorithm     | sign/s | verify/s |\n"
                "> |---------------+--------+----------|\n> | rsa 2048 bits | 1712.4 | 58804.1  |\n"
                "> | rsa 4096 bits | 221.7  | 14110.2  |\n"),
])
def test_grid_and_org_table_rules_do_not_cut_the_table(tmp_path, name, text):
    """A reStructuredText grid table's '+----+' and '+====+' rules and an org-mode table's
    '|----+----|' rule split the table into one-line pieces, so no row had its header (the rows
    were reported, none read)."""
    df = _ingest(tmp_path, name, text)
    got = {(a, o): v for a, o, v in zip(df["algorithm"], df["operation"], df["ops_per_s"])}
    assert got == {("rsa2048", "sign"): 1712.4, ("rsa2048", "verify"): 58804.1,
                   ("rsa4096", "sign"): 221.7, ("rsa4096", "verify"): 14110.2}


@pytest.mark.parametrize("name, text, first", [
    ("tabs.txt", "AES-256-GCM at 16384 bytes, MB/s\n\nMachine\tCPU\tMB/s\nlaptop\ti7-1165G7\t4712.6\n"
                 "nas\tCeleron N5105\t1633.2\n", 4712.6e6),
    ("hosts.md", "aes-128-gcm, 1024-byte blocks\n\n| Host | Gbps |\n|---|---|\n| laptop | 37.7 |\n"
                 "| nas | 13.06 |\n", 37.7e9 / 8),
])
def test_a_column_titled_by_a_unit_alone_is_the_value_not_a_run(tmp_path, name, text, first):
    """'MB/s' over the values was a run name, so every label read 'laptop / MB/s' (and a bare
    'Gbps' column gave no unit); a unit alone titles the values, in that unit."""
    df = _ingest(tmp_path, name, text)
    assert list(df["label"]) == ["laptop", "nas"]
    assert df["bytes_per_s"].iloc[0] == pytest.approx(first)


@pytest.mark.parametrize("name, text", [
    ("table.md", "## Steps to reproduce\n\n| cipher | 16 bytes | 64 bytes |\n|---|---|---|\n"
                 "| md5 | 1.00k | 2.00k |\n"),
    ("terminal.md", "**Expected behavior**\n\n```\ntype 16 bytes 64 bytes\nmd5 1.00k 2.00k\n```\n"),
])
def test_an_issue_template_section_heading_names_no_run(tmp_path, name, text):
    df = _ingest(tmp_path, name, text)
    assert len(df) == 2 and df["label"].isna().all()
    # a heading that names something still labels the run under it
    named = _ingest(tmp_path, "named-" + name, text.replace("Steps to reproduce", "Graviton3")
                    .replace("Expected behavior", "Graviton3"))
    assert set(named["label"]) == {"Graviton3"}


@pytest.mark.parametrize("name, text, unit", [
    ("below.md", "OpenSSL 3.0.13 on the NAS\n\n| cipher | 16 bytes | 1024 bytes |\n|---|---|---|\n"
                 "| aes-128-cbc | 95535.38 | 108085.93 |\n\n(numbers in 1000s of bytes per second)\n", 1e3),
    ("figure.html", "<figure><table><tr><th>Digest</th><th>64 bytes</th><th>8192 bytes</th></tr>\n"
                    "<tr><td>sha256</td><td>312.4</td><td>1903.5</td></tr>\n</table>"
                    "<figcaption>Figures in MiB/s</figcaption></figure>\n", 2.0 ** 20),
    ("above.md", "Results in KB/s:\n\n| cipher | 16 bytes | 1024 bytes |\n|---|---|---|\n"
                 "| aes-128-cbc | 95535.38 | 108085.93 |\n\nI also tried MB/s for the others.\n", 1e3),
])
def test_a_unit_stated_right_below_a_table_is_its_unit_where_nothing_above_says(
        tmp_path, name, text, unit):
    """The unit in a ``<figcaption>`` after ``</table>`` or a sentence right below (issue text
    102): the cells were flagged 'unit unknown'. What the text above says comes first."""
    df = _ingest(tmp_path, name, text)
    assert df["flag"].isna().all()
    assert df["bytes_per_s"].iloc[0] == pytest.approx(float(text.split("<td>")[-2][:-5]
                                                             if "<td>" in text else 95535.38) * unit)


def test_a_sentence_below_that_introduces_what_follows_is_not_the_tables_unit(tmp_path):
    df = _ingest(tmp_path, "next.md", "| cipher | 16 bytes |\n|---|---|\n| md5 | 1532.1 |\n\n"
                 "And the same in MB/s:\n\n```\nsha1 12.5\n```\n")
    assert set(df["flag"]) == {"unit unknown"}


@pytest.mark.parametrize("name, text, note", [
    ("mark.md", "OpenSSL 3.0.13, ops/s\n\n| algorithm | sign/s | verify/s |\n|---|---|---|\n"
                "| rsa 2048 bits | 1712.4 | 58804.1 |\n| rsa 4096 bits | 221.7\u2020 | 14110.2 |\n\n"
                "\u2020 turbo boost was off\n", "turbo boost was off"),
    ("mark.txt", "OpenSSL 1.1.1w\n\ncipher\t16 bytes\t64 bytes\naes-128-cbc\t95535.38k [1]\t104996.27k\n"
                 "md5\t1532.10k\t2100.50k\n", "[1]"),
    ("mark.html", "<p>OpenSSL 3.0.2, ops/s</p><table><tr><th>Key</th><th>sign/s</th><th>verify/s</th></tr>\n"
                  "<tr><td>rsa 2048 bits</td><td>1712.4<sup>1</sup></td><td>58804.1</td></tr>\n"
                  "<tr><td>rsa 4096 bits</td><td>221.7</td><td>14110.2</td></tr>\n</table>\n"
                  "<p><sup>1</sup> median of 3</p>\n", "median of 3"),
])
def test_a_footnote_mark_glued_to_a_value_is_the_rows_note_not_part_of_the_number(
        tmp_path, name, text, note):
    """'221.7<sup>*</sup>' (issue text 120) made the row unreadable (reported); a mark after a
    value is read off it and kept as the row's note: what the footnote below the table says,
    or the mark itself where no footnote says."""
    df = _ingest(tmp_path, name, text)
    marked = df[df["note"].notna()]
    assert len(df) == 4 and set(marked["note"]) == {note} and df["flag"].isna().all()
    assert set(marked["line"]) == {2 if name == "mark.html" else 6 if name == "mark.md" else 4}
    values = set(df["ops_per_s"].dropna()) | set(df["bytes_per_s"].dropna())
    assert {221.7, 1712.4} & values or 95535380.0 in values


@pytest.mark.parametrize("name, text, per_s", [
    ("cells.md", "Ran `openssl speed -evp -bytes 4096 sha1 md5` on the Pi 5:\n\n| digest | speed |\n"
                 "|---|---|\n| sha1 | 5.12 Gbps |\n| md5 | 4.90 Gbps |\n", 5.12e9 / 8),
    ("cells.txt", "openssl speed -bytes 4096 -evp aes-128-ctr aes-256-ctr (OpenSSL 3.0.2)\n\n"
                  "algorithm\tthroughput\naes-128-ctr\t1,812.5 MiB/s\naes-256-ctr\t1,402.0 MiB/s\n",
     1812.5 * 2 ** 20),
])
def test_cells_with_their_own_unit_at_the_size_the_command_gives(tmp_path, name, text, per_s):
    """'12.41 GB/s' cells under 'throughput', the size in the command's '-bytes 16384' (issue
    text 117): the rows were reported, their block size unknown."""
    df = _ingest(tmp_path, name, text)
    assert set(df["block_bytes"]) == {4096} and len(df) == 2 and df["flag"].isna().all()
    assert df["bytes_per_s"].iloc[0] == pytest.approx(per_s)


@pytest.mark.parametrize("name, text", [
    ("fence.md", "OpenSSL 3.0.13 on the Pi 5, in KB/s:\n\n```\ncipher         16 bytes     1024 bytes\n"
                 "aes-128-ctr    95535.38     108085.93\nchacha20       61204.40     210334.50\n```\n"),
    ("pre.html", "<p>OpenSSL 3.0.13 on the Pi 5</p>\n<pre>\nBlock (bytes)   aes-128-ctr   chacha20-poly1305\n"
                 "                (KB/s)        (KB/s)\n16              95535.38      61204.40\n"
                 "1024            108085.93     210334.50\n</pre>\n"),
])
def test_a_space_aligned_table_in_a_block_of_preformatted_text(tmp_path, name, text):
    """A table retyped with spaces in a ``[code]`` block, sizes as rows and the unit on a second
    header line under each name (issue text 105): nothing was read ('no measurements found')."""
    df = _ingest(tmp_path, name, text)
    got = {(a[:5], b): v for a, b, v in zip(df["algorithm"], df["block_bytes"], df["bytes_per_s"])}
    assert got == pytest.approx({("aes-1", 16): 95535380.0, ("aes-1", 1024): 108085930.0,
                                 ("chach", 16): 61204400.0, ("chach", 1024): 210334500.0})
    assert df["flag"].isna().all() and set(df["tool_version"]) == {"3.0.13"}


def test_a_number_grouped_by_single_spaces_in_an_aligned_table_is_not_split(tmp_path):
    """'1 013 842' stays one cell (never three numbers); unread, it is reported, not guessed."""
    df = _ingest(tmp_path, "groups.txt", "sha256 at 8192 bytes, KB/s:\n\n```\nhost   sha256\n"
                 "nas    1 013 842\npi     412 201\n```\n")
    assert df is None or not (df["bytes_per_s"] < 1e6).any()


@pytest.mark.parametrize("name, text, first", [
    ("comma.md", "OpenSSL 3.0.13, Werte in MB/s\n\n| Algorithmus | 16 Bytes | 8192 Bytes |\n|---|---|---|\n"
                 "| sha256 | 98,5 | 1.861,05 |\n| md5 | 120,75 | 790,1 |\n", 98.5e6),
    ("groups.html", "<p>OpenSSL 3.0.13, d\u00e9bit en KB/s</p>\n<table><tr><th>Algo</th><th>16 bytes</th>"
                    "<th>8192 bytes</th></tr>\n<tr><td>sha256</td><td>98\u202f412,5</td><td>1 861 050,0</td>"
                    "</tr>\n<tr><td>md5</td><td>120\u00a0750,25</td><td>790 100,5</td></tr></table>\n",
     98412.5e3),
    ("swiss.txt", "OpenSSL 3.0.13, KiB/s\n\nalgorithm\t16 bytes\t8192 bytes\nsha256\t98'412.5\t1'861'050.0\n"
                  "md5\t120\u2019750.25\t790'100.5\n", 98412.5 * 1024),
])
def test_a_locales_decimal_comma_and_digit_groups(tmp_path, name, text, first):
    """'1.402,17' and '1 912,40' (texts 121, 122) made their rows unreadable (reported), and
    '98'412.3' in a plain cell too (123): a table that shows decimal commas and never a decimal
    point is read so; blanks (U+202F, U+00A0, spaces) and apostrophes group thousands."""
    df = _ingest(tmp_path, name, text)
    assert len(df) == 4 and df["flag"].isna().all()
    assert df["bytes_per_s"].iloc[0] == pytest.approx(first)


def test_one_comma_table_beside_a_point_one_is_each_read_its_own_way(tmp_path):
    df = _ingest(tmp_path, "two.md", "OpenSSL 3.0.13, MB/s\n\n| algo | 16 bytes |\n|---|---|\n| md5 | 1,5 |\n"
                 "\nAnd again, MB/s:\n\n| algo | 16 bytes |\n|---|---|\n| md5 | 1,500.5 |\n| sha1 | 2.5 |\n")
    assert list(df["bytes_per_s"]) == pytest.approx([1.5e6, 1500.5e6, 2.5e6])


@pytest.mark.parametrize("name, text", [
    ("beside.md", "OpenSSL 3.1.4, 16384-byte blocks, MB/s\n\n| algorithm | asm | no-asm |\n|---|---|---|\n"
                  "| aes-128-ctr | ~ 1490.6 (8.3x) | 180.2 |\n"
                  "| sha1 | \u2248 2104.9 \u00b1 3.5 | 412.0 (-12 %) |\n"),
    ("beside.txt", "OpenSSL 3.1.4, MB/s\n\ncipher\t16384 bytes\t1024 bytes\n"
                   "aes-128-ctr\t1490.6 [8.3\u00d7]\t180.2 +/- 1\n"
                   "sha1\t2104.9 (+3%)\t412.0 \u00b1 2.5 %\n"),
])
def test_what_is_written_around_a_value_is_no_part_of_it(tmp_path, name, text):
    """'~', '\u2248' before a value; a speed-up, a percentage or an error after it (texts 123, 124,
    125, 128): the rows were reported; the value is the number itself."""
    df = _ingest(tmp_path, name, text)
    assert sorted(df["bytes_per_s"]) == pytest.approx([180.2e6, 412.0e6, 1490.6e6, 2104.9e6])
    assert df["flag"].isna().all()


def _ingest_warned(tmp_path, name: str, text: str):
    """``(frame or None, the messages of its warnings or error)`` of a text read from a file."""
    import warnings

    import cipherlab
    from cipherlab.errors import IngestError

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            return cipherlab.ingest(path), [str(w.message) for w in caught]
        except IngestError as err:
            return None, [str(err)]


def test_a_range_is_no_value_and_its_row_is_reported(tmp_path):
    df, said = _ingest_warned(tmp_path, "range.md", "OpenSSL 3.0.8, MB/s\n\n"
                              "| cipher | 16 bytes | 1024 bytes |\n|---|---|---|\n"
                              "| aes-128-gcm | 612.4 | 4201.3\u20134350.8 |\n"
                              "| sha256 | 120 - 130 | 402.5 |\n")
    assert sorted(df["bytes_per_s"]) == pytest.approx([402.5e6, 612.4e6])
    assert any("line(s) 5, 6" in m for m in said)


@pytest.mark.parametrize("name, text", [
    ("dots.md", "Werte in MB/s, OpenSSL 3.0.13:\n\n| Algorithmus | 16 Bytes | 1024 Bytes |\n|---|---|---|\n"
                "| aes-128-gcm | 1.402 | 1.689 |\n| sha256 | 312 | 1.170 |\n"),
    ("dots.txt", "GB/s, OpenSSL 3.0.13\n\nalgorithm\t16 bytes\t1024 bytes\naes-128-gcm\t2.381\t12.410\n"
                 "sha256\t1.602\t7.125\n"),
])
def test_a_number_that_may_be_decimals_or_a_thousands_group_is_not_guessed(tmp_path, name, text):
    """'1.402' in a table no cell of which shows how it writes decimals is 1.402 in English and
    1402 in German: it was read as 1.402 without a word (10^3 off for a German table). Now its
    row is reported; a cell that is plain ('312') is read."""
    df, said = _ingest_warned(tmp_path, name, text)
    assert df is None or not df["bytes_per_s"].between(1e5, 1e10).any() or \
        set(df["bytes_per_s"]) == {312e6}
    assert any("aes-128-gcm" in m for m in said)  # (its row, reported)


def test_three_decimals_beside_other_decimals_are_decimals(tmp_path):
    df = _ingest(tmp_path, "gbs.md", "GB/s, OpenSSL 3.3.1\n\n| algorithm | 16384 bytes |\n|---|---|\n"
                 "| aes-128-gcm | 12.41 |\n| sha256 | 2.381 |\n")
    assert sorted(df["bytes_per_s"]) == pytest.approx([2.381e9, 12.41e9])


def test_a_paragraph_right_above_the_next_table_is_that_ones_not_the_table_aboves(tmp_path):
    df = _ingest(tmp_path, "intro.md", "| cipher | 16 bytes |\n|---|---|\n| md5 | 95.5 |\n"
                 "Table 2: the laptop, in MB/s\n\n| cipher | 16 bytes |\n|---|---|\n| md5 | 195.5 |\n")
    assert list(df["flag"].astype(object).fillna("")) == ["unit unknown", ""]
    assert df["bytes_per_s"].iloc[1] == pytest.approx(195.5e6)


@pytest.mark.parametrize("name, text", [
    ("clash.md", "OpenSSL 3.0.13, all figures in MB/s:\n\n| cipher | 16 bytes | 16384 bytes |\n"
                 "|---|---|---|\n| aes-128-gcm | 950 | 1.5K |\n| sha256 | 412.3 | 2.1K |\n"),
    ("clash.txt", "OpenSSL 3.0.13\n\ncipher\t16 bytes (GB/s)\t16384 bytes (GB/s)\naes-128-gcm\t0.95\t1.52k\n"
                  "sha256\t0.41\t2.10k\n"),
])
def test_openssls_k_under_another_stated_unit_is_not_guessed(tmp_path, name, text):
    """'1.5K' in a table 'all figures in MB/s': openssl's k (1500 bytes/s) or 1.5 thousand MB/s?
    It was read as 1500 bytes/s and '950' as 950 bytes/s, 10^6 off, without a word."""
    df = _ingest(tmp_path, name, text)
    assert set(df["flag"]) == {"unit unknown"}


@pytest.mark.parametrize("name, text", [
    ("names.md", "OpenSSL 3.0.13, MB/s\n\n| cipher | 16 bytes | 1024 bytes |\n|---|---|---|\n"
                 "| aes-128-gcm\u00b9 | 612.4 | 4381.0 |\n| sha256 | 120.5 | 402.5 |\n\n"
                 "\u00b9 with AES-NI\n"),
    ("names.txt", "OpenSSL 3.0.13, MB/s\n\ncipher\t16 bytes\t1024 bytes\naes-128-gcm [1]\t612.4\t4381.0\n"
                  "sha256\t120.5\t402.5\n[1]: with AES-NI\n"),
])
def test_a_footnote_mark_glued_to_a_name_is_the_rows_note_not_part_of_the_name(tmp_path, name, text):
    """'aes-128-gcm\u00b9' came out as an algorithm 'aes-128-gcm\u00b9', unflagged; a mark glued
    to a name is the row's note, what the footnote says ('[1]'; a superscript on a name is
    dropped by _clean, note and all)."""
    df = _ingest(tmp_path, name, text)
    assert set(df["algorithm"]) == {"aes-128-gcm", "sha256"} and df["flag"].isna().all()
    notes = set(df[df["algorithm"] == "aes-128-gcm"]["note"]) if "note" in df else set()
    assert notes == {"with AES-NI"} or name == "names.md" and notes <= {"with AES-NI"}


@pytest.mark.parametrize("name, text, unit", [
    ("paper.tex", "\\begin{table}\n\\caption{Hashes, OpenSSL 1.1.1w, in MiB/s}\n"
                  "\\begin{tabular}{lSS}\n\\toprule\n"
                  "Digest & \\multicolumn{2}{c}{Block size (bytes)} \\\\\n\\cmidrule{2-3}\n"
                  " & {64} & {8192} \\\\\n\\midrule\n"
                  "sha256 & 412.3 & \\textbf{1\\,902.4} \\\\\n"
                  "sha512 & 301.0 & 1\\,210.7 \\\\ % 3.0: 1\\,290\n"
                  "\\bottomrule\n\\end{tabular}\n\\end{table}\n", 2 ** 20),
    ("paper.txt", "> \\begin{tabular}{|l|r|r|}\\hline\n"
                  "> Digest & 64 bytes & 8192 bytes \\\\ \\hline\n"
                  "> \\multirow{1}{*}{sha256} & \\SI{412.3}{\\mebi\\byte\\per\\second} & "
                  "\\SI{1902.4}{\\mebi\\byte\\per\\second} \\\\\n"
                  "> sha512 & \\SI{301.0}{MiB/s} & \\SI{1210.7}{MiB/s} \\\\ \\hline\n> \\end{tabular}\n",
     2 ** 20),
])
def test_a_latex_tabular_is_a_table_its_unit_in_the_caption_or_its_cells(tmp_path, name, text, unit):
    """LaTeX tables were no table at all: every row was reported as unplaced data. A tabular's
    rows split at \\\\ and & (rules, \\multicolumn, \\multirow, siunitx \\SI, emphasis and
    thin-space digit groups read as they print), its unit in its float's caption or cells."""
    df = _ingest(tmp_path, name, text)
    got = {(r.algorithm, r.block_bytes): round(r.bytes_per_s / unit, 6) for r in df.itertuples()}
    assert got == {("sha256", 64): 412.3, ("sha256", 8192): 1902.4, ("sha512", 64): 301.0,
                   ("sha512", 8192): 1210.7}
    assert set(df["dialect"]) == {"latex"} and ("flag" not in df or df["flag"].isna().all())


@pytest.mark.parametrize("name, text", [
    ("ratios.md", "Speed-up of AES-NI per cell.\n\n| Machine | Algorithm | Block (B) | Ratio [95% CI] | "
                  "p (Holm) | n | n base |\n|:--|:--|--:|--:|--:|--:|--:|\n"
                  "| box-a | aes-128-gcm | 16 | 2.10 [1.9, 2.3] | 0.004 | 5 | 5 |\n"
                  "| box-a | aes-128-gcm | 8192 | 6.20 [5.8, 6.6] | 0.001 | 5 | 5 |\n"),
    ("fits.txt", "Cost model (fitted, openssl speed at block sizes 16 to 16384)\n\n"
                 "Algorithm\tHost\tt0 (ns)\tc (ns/B)\tasymptotic (GB/s)\tlimit (GB/s)\tR²\tRuns\n"
                 "aes-256-gcm\tepyc\t20.1\t0.106\t9.43\t12.0\t0.999\t6\n"
                 "sha512\tepyc\t186\t0.624\t1.60\t2.1\t0.998\t6\n"),
])
def test_a_results_tables_counts_tests_and_model_figures_are_no_measurements(tmp_path, name, text):
    """cipherlab's own report tables came back as data: 'n' (runs) read as 1.0-5.0 bytes/s
    under a 'unit unknown' flag, a fit's 'asymptotic (MB/s)' and 'R²' as ops/s without one.
    Counts, positions and test statistics (n, p, Line, File, R², Runs) and fitted or assumed
    rates (asymptotic, limit, predicted, a share, an overhead, times in ns) are no measurement."""
    df = _ingest(tmp_path, name, text)
    assert df is None or df.empty


@pytest.mark.parametrize("name, text", [
    ("tidy.md", "| algorithm | block_bytes | bytes_per_s |\n|:--|--:|--:|\n"
                "| aes-128-gcm | 16 | 710,000,000 |\n| aes-128-gcm | 8192 | 9,940,000,000 |\n"
                "| sha256 | 16 | 120,500,000 |\n"),
    ("report.md", "Throughput by block size (runs' geometric means).\n\n"
                  "| Machine | Algorithm | Block (B) | Throughput (GB/s) |\n|:--|:--|--:|--:|\n"
                  "| box-a | aes-128-gcm | 16 | 0.710 |\n| box-a | aes-128-gcm | 8192 | 9.94 |\n"
                  "| box-a | sha256 | 16 | 0.1205 |\n"),
])
def test_cipherlabs_own_tables_read_back_with_their_unit(tmp_path, name, text):
    """stats.to_markdown of the tidy frame ('bytes_per_s') came back flagged 'unit unknown' and
    labelled 'bytes_per_s'; a row of data ('| box-a | aes-128-gcm | 16 | 710,000,000 |' under
    prose saying 'block size') was taken for a header of bare sizes, its cells misplaced."""
    df = _ingest(tmp_path, name, text)
    got = {(r.algorithm, r.block_bytes): r.bytes_per_s for r in df.itertuples()}
    assert got == pytest.approx({("aes-128-gcm", 16): 0.71e9, ("aes-128-gcm", 8192): 9.94e9,
                                 ("sha256", 16): 0.1205e9})
    assert "flag" not in df or df["flag"].isna().all()


@pytest.mark.parametrize("name, text", [
    ("sections.html", "<p>Throughput at 8192-byte blocks:</p>\n<table><tr><th>cipher</th><th>MB/s</th></tr>"
                      "<tr><td>aes-128-gcm</td><td>4800</td></tr></table>\n<h2>Over TLS</h2>\n"
                      "<table><tr><th>Cipher</th><th>Throughput (MB/s)</th></tr>"
                      "<tr><td>aes-128-gcm</td><td>5.45</td></tr></table>\n"),
    ("sections.md", "Throughput at 16 KiB blocks:\n\n| cipher | MB/s |\n|---|---|\n| sha256 | 2100 |\n\n"
                    "## Over TLS\n\n| Cipher | Throughput (MB/s) |\n|---|---|\n| sha256 | 5.45 |\n"),
])
def test_a_block_size_the_prose_states_stays_in_its_section(tmp_path, name, text):
    """A TLS table under its own heading was read at the block size a figure's caption stated
    two sections above (cipherlab's report.html: 5.45 MB/s 'at 8192 bytes', unflagged): a
    block size stated above a heading (Markdown or HTML <h2>) is that section's."""
    df, messages = _ingest_warned(tmp_path, name, text)
    assert len(df) == 1 and df["bytes_per_s"].iloc[0] > 1e9  # (the first table's; not 5.45 MB/s)
    assert any("not placed" in m for m in messages)  # (the TLS row: loud)


@pytest.mark.parametrize("name, text", [
    ("units.tsv", "OpenSSL 3.0.13\n\nCipher\t16 bytes\t1024 bytes\n\tMiB/s\tMiB/s\n"
                  "aes-128-gcm\t712.4\t5120.8\nsha256\t120.5\t1204.3\n"),
    ("units.md", "OpenSSL 3.0.13\n\n| Cipher | 16 bytes | 1024 bytes |\n|---|---|---|\n"
                 "| | (MiB/s) | (MiB/s) |\n| aes-128-gcm | 712.4 | 5120.8 |\n| sha256 | 120.5 | 1204.3 |\n"),
])
def test_a_row_of_units_under_the_size_titles_is_their_unit(tmp_path, name, text):
    """A spreadsheet's unit row under the sizes ('\\tMB/s\\tMB/s') crashed the reader with an
    AttributeError deep in _read_units (the caption passed where the table was)."""
    df = _ingest(tmp_path, name, text)
    got = {(r.algorithm, r.block_bytes): round(r.bytes_per_s / 2 ** 20, 6) for r in df.itertuples()}
    assert got == {("aes-128-gcm", 16): 712.4, ("aes-128-gcm", 1024): 5120.8,
                   ("sha256", 16): 120.5, ("sha256", 1024): 1204.3}


@pytest.mark.parametrize("name, text", [
    ("links.md", "OpenSSL 3.0.13, MB/s\n\n| Cipher | 16 bytes |\n|---|--:|\n"
                 "| **[aes-128-gcm](https://example.org/a)** | 712.4 |\n"
                 "| __[sha256](https://x.y/)__ | 120.5 |\n"),
    ("links.txt", "OpenSSL 3.0.13, MB/s\n\nCipher\t16 bytes\n*[aes-128-gcm](https://example.org/a)*\t712.4\n"
                  "`sha256`\t120.5\n"),
])
def test_a_link_inside_emphasis_is_its_text(tmp_path, name, text):
    """'**[aes-128-gcm](https://...)**' came out as an algorithm '[aes-128-gcm](https://...',
    unflagged: a link inside emphasis is its text, as a bare link is."""
    df = _ingest(tmp_path, name, text)
    assert set(df["algorithm"]) == {"aes-128-gcm", "sha256"}


@pytest.mark.parametrize("name, text", [
    ("cells.adoc", ".Hashes, OpenSSL 1.1.1w, MB/s\n|===\n|Digest |64 bytes |8192 bytes\n\n|sha256\n|412.3\n"
                   "|1,902.4\n\n|sha512\n|301.0\n|1,210.7\n|===\n"),
    ("rows.txt", "Hashes, OpenSSL 1.1.1w, MB/s\n\n[options=\"header\",cols=\"1,1,1\"]\n|===\n"
                 "| Digest | 64 bytes | 8192 bytes\n| sha256 | 412.3 | 1902.4\n"
                 "| sha512 | 301.0 | 1210.7\n|===\n"),
])
def test_an_asciidoc_table_is_read_a_cell_or_a_row_a_line(tmp_path, name, text):
    """AsciiDoc tables written a cell a line were no table ('no measurements found'); written a
    row a line they were labelled by their attribute line ('[options="header"]')."""
    df = _ingest(tmp_path, name, text)
    got = {(r.algorithm, r.block_bytes): round(r.bytes_per_s / 1e6, 6) for r in df.itertuples()}
    assert got == {("sha256", 64): 412.3, ("sha256", 8192): 1902.4, ("sha512", 64): 301.0,
                   ("sha512", 8192): 1210.7}
    assert not df["label"].fillna("").str.contains("options").any()


@pytest.mark.parametrize("name, text", [
    ("wrapped.txt", "> On node3 (OpenSSL 3.0.13), in 1000s of\n> bytes per second:\n>\n"
                    "> | algorithm | 16 bytes | 64 bytes | 256 bytes | 1024 bytes |\n> 8192 bytes |\n"
                    "> |---|---|---|---|---|---|\n"
                    "> | sha256 | 112034.21 | 340221.87 | 812003.44 | 1204332.80 |\n> 1521003.44 |\n"
                    "> | sha512 | 81022.10 | 320114.20 | 601223.75 | 1002334.12 |\n> 1301223.50 |\n"),
    ("wrapped.md", "Numbers in 1000s of bytes per second.\n\n"
                   "| algorithm | 16 bytes | 64 bytes | 256 bytes | 1024 bytes | 8192 bytes |"
                   "\n|--|--|--|--|--|--|\n"
                   "| sha256 | 112034.21 | 340221.87 | 812003.44 |\n1204332.80 | 1521003.44 |\n"
                   "| sha512 | 81022.10 | 320114.20 | 601223.75 | 1002334.12 |\n1301223.50 |\n"),
])
def test_a_markdown_row_a_mail_client_wrapped_is_joined_where_its_pieces_fit(tmp_path, name, text):
    """Rows a mail client broke at 72 columns (the rest on the next line without a leading
    pipe) were no rows: the table was reported unplaced. The pieces of a row are joined where
    together they are as wide as the separator row; a sentence stating the unit wrapped the same
    way ('in 1000s of' / 'bytes per second') states it (it was read as bytes/s)."""
    df = _ingest(tmp_path, name, text)
    got = {(r.algorithm, r.block_bytes): r.bytes_per_s for r in df.itertuples()}
    assert got[("sha256", 16)] == 112034210.0 and got[("sha512", 8192)] == 1301223500.0
    assert len(got) == 10 and df["line"].min() in (7, 5)


def test_a_wrapped_row_whose_pieces_do_not_fit_is_reported_not_guessed(tmp_path):
    """Pieces that make no row of the table's width are not joined: the rest is reported."""
    text = ("OpenSSL 3.0.13, MB/s\n\n| algorithm | 16 bytes | 64 bytes |\n|--|--|--|\n"
            "| sha256 | 112.0 |\n64.5 | 99.1 |\n| sha512 | 81.0 | 320.1 |\n")
    df, messages = _ingest_warned(tmp_path, "bad.md", text)
    # (sha256's 112.0 at 16 bytes is what the text shows; the rest of its row is no guess)
    assert not set(df["bytes_per_s"]) & {64.5e6, 99.1e6}
    assert any("not placed" in m for m in messages)


@pytest.mark.parametrize("name, text", [
    ("grid.rst", "OpenSSL 3.0.2, MB/s\n\n+-------------+--------+\n| Digest      | 64 B   |\n"
                 "+=============+========+\n| sha256      | 412.3  |\n| (SHA-NI)    |        |\n"
                 "+-------------+--------+\n| sha512      | 301.0  |\n+-------------+--------+\n"),
    ("tags.md", "OpenSSL 3.0.2, MB/s\n\n| Digest | 64 B |\n|---|---|\n| sha256 (SHA-NI) | 412.3 |\n"
                "| sha512 | 301.0 |\n"),
])
def test_a_tag_after_a_row_name_is_a_note_and_a_grid_row_spans_its_lines(tmp_path, name, text):
    """'| (SHA-NI) |' on the second line of a reST grid row was a section row: the rows below it
    a run labelled '(SHA-NI)'; 'sha256 (SHA-NI)' was an algorithm 'sha256-(sha-ni)', unflagged."""
    df = _ingest(tmp_path, name, text)
    assert set(df["algorithm"]) == {"sha256", "sha512"} and df["run"].nunique() == 1
    assert set(df[df["algorithm"] == "sha256"]["note"]) == {"SHA-NI"}


def test_a_block_size_stated_for_every_table_below_holds_for_each(tmp_path):
    """A block size the prose states holds for the next table only, unless it says all of
    them ('All results below are for 8,192-byte blocks'), as a unit does."""
    text = ("All results below are for 8,192-byte blocks, in MB/s.\n\n| cipher | OpenSSL 1.1.1 | "
            "OpenSSL 3.0 |\n|---|---|---|\n| aes-128-gcm | 4800 | 4900 |\n\nAnd the hashes:\n\n"
            "| digest | OpenSSL 1.1.1 | OpenSSL 3.0 |\n|---|---|---|\n| sha256 | 1500 | 1510 |\n")
    df = _ingest(tmp_path, "all.md", text)
    assert len(df) == 4 and set(df["block_bytes"]) == {8192}


@pytest.mark.parametrize("name, text", [
    ("machines.md", "Throughput at 16 KiB blocks, GB/s:\n\n| | Graviton3 | EPYC 9R14 |\n|---|---|---|\n"
                    "| AES-128-GCM | 6.91 | 11.02 |\n| SHA-256 | 1.98 | 1.71 |\n"),
    ("machines.tex", "\\begin{table}\n\\caption{16 KiB blocks, GB/s}\n\\begin{tabular}{lrr}\n"
                     " & Ampere Altra & Xeon 8375C \\\\\nAES-128-GCM & 6.91 & 11.02 \\\\\n"
                     "SHA-256 & 1.98 & 1.71 \\\\\n\\end{tabular}\\end{table}\n"),
])
def test_machines_as_columns_under_a_blank_corner_are_runs_not_algorithms(tmp_path, name, text):
    """A blank corner over machine columns, the block size in the prose, was read as openssl's
    transposed tier table: 'graviton3' and 'epyc-9r14' as algorithms, the ciphers as tiers,
    unflagged. A transposed header's columns must name algorithms."""
    df = _ingest(tmp_path, name, text)
    assert set(df["algorithm"]) == {"aes-128-gcm", "sha256"} and df["label"].nunique() == 2
    assert set(df["block_bytes"]) == {16384}


@pytest.mark.parametrize("name, text", [
    ("cmd.md", "## `openssl speed -evp aes-128-gcm` on the Graviton3 box, OpenSSL 3.2.1\n\n"
               "Values in MB/s.\n\n| cipher | 16 bytes | 8192 bytes |\n|---|---|---|\n"
               "| aes-128-gcm | 801.2 | 6212.9 |\n"),
    ("cmd.html", "<h2>Results of openssl speed sha256</h2>\n<p>Values in MB/s.</p>\n<table>\n"
                 "<tr><th>digest</th><th>64 bytes</th><th>8192 bytes</th></tr>\n"
                 "<tr><td>sha256</td><td>412.3</td><td>1601.0</td></tr>\n</table>\n"),
])
def test_a_heading_holding_the_command_names_no_run(tmp_path, name, text):
    """A heading that holds the command ('openssl speed on the RK3588 ..., OpenSSL 3.0.11',
    text 110) was the run's label whole: the label rules of prose headings say it names none."""
    df = _ingest(tmp_path, name, text)
    assert len(df) == 2 and not df["label"].astype(str).str.contains("speed").any()


@pytest.mark.parametrize("name, text, label", [
    ("hash.txt", "The hashes were measured on our build server (OpenSSL 3.3.1, Ryzen 9 7950X) in MB/s:\n\n"
                 "digest\t64 bytes\t8192 bytes\nsha256\t1412.3\t2601.0\n", "build server (Ryzen 9 7950X)"),
    ("sign.md", "I ran RSA on the old file server (EPYC 7302P, OpenSSL 3.0.2), figures in ops/s:\n\n| op | rsa2048 |\n|---|---|\n"
                "| sign/s | 1612.3 |\n| verify/s | 54101.0 |\n", "file server (EPYC 7302P)"),
])
def test_a_machine_phrase_keeps_the_cpu_its_sentence_names(tmp_path, name, text, label):
    """'on the signer box (OpenSSL 3.0.9, Xeon E-2388G)' labelled the run 'signer box' and lost
    the CPU the same sentence names (text 144): the label holds both."""
    df = _ingest(tmp_path, name, text)
    assert len(df) == 2 and df["label"].nunique() == 1
    assert all(part in df["label"].iloc[0] for part in label.split(" ("))


@pytest.mark.parametrize("name, text", [
    ("ratio.md", "OpenSSL 3.0.13, MB/s at 8192-byte blocks:\n\n| cipher | AES-NI on | AES-NI off |\n"
                 "|---|---|---|\n| aes-128-gcm | 4912.3 | 601.2 |\n| aes-256-cbc | 1290.4 | 310.7 |\n\n"
                 "Speed-ups:\n\n| cipher | block | speed-up [95% CI] | p-value | n |\n|---|---|---|---|---|\n"
                 "| aes-128-gcm | 8192 | 8.17 [7.9, 8.4] | 0.001 | 5 |\n"
                 "| aes-256-cbc | 8192 | 4.15 [4.0, 4.3] | 0.002 | 5 |\n"),
    ("fit.txt", "OpenSSL 3.0.13, MB/s at 8192-byte blocks:\n\ncipher\tEPYC 7763\naes-128-gcm\t4912.3\n"
                "aes-256-cbc\t1290.4\n\nPer-call cost:\n\ncipher\tt0 (ns)\tc (ns/B)\tR^2\n"
                "aes-128-gcm\t20.1\t0.106\t0.999\naes-256-cbc\t31.0\t0.61\t0.998\n"),
])
def test_a_table_of_derived_figures_is_recognised_not_reported(tmp_path, name, text):
    """A ratio table under a throughput table (cipherlab's own report, texts 151, 152): its
    rows, no measurement, were reported as unplaced data by the line pass. A grid whose rows
    name algorithms and whose columns are all derived figures is recognised: no cells, no
    warning."""
    df, messages = _ingest_warned(tmp_path, name, text)
    assert len(df) == text.count("\t4912.3") * 2 + text.count("| 4912.3") * 4
    assert not [m for m in messages if "not placed" in m]


@pytest.mark.parametrize("name, text", [
    ("clock.txt", "OpenSSL 3.0.13 on a Xeon E5-2680 v2 @ 2.80GHz, MB/s:\n\n"
                  "cipher\t16 bytes\t8192 bytes\naes-128-cbc\t601.2\t1290.4\n"),
    ("clock.tex", "OpenSSL 3.0.13 on a Xeon E5-2680 v2 @ 2.80GHz, MB/s:\n\n\\begin{tabular}{lrr}\n"
                  "cipher & 16 bytes & 8192 bytes \\\\\naes-128-cbc & 601.2 & 1290.4 \\\\\n\\end{tabular}\n"),
])
def test_a_clock_a_document_table_names_is_nominal_whatever_its_markup(tmp_path, name, text):
    """stats kept its own list of table dialects, without tabs, csv, aligned, latex or
    asciidoc: a TAB table's clock, copied from the CPU's name, was called 'reported'."""
    from cipherlab.readers._tables import DIALECTS
    from cipherlab.stats import clock_source

    df = _ingest(tmp_path, name, text)
    assert set(df["dialect"].astype(str)) <= DIALECTS and set(df["clock_hz"]) == {2.8e9}
    assert set(clock_source(df)) == {"nominal"}


@pytest.mark.parametrize("name, text, bad", [
    ("quote.csv", 'OpenSSL 3.0.13, in 1000s of bytes per second\n\ntype,16 bytes,64 bytes\n'
                  'aes-128-cbc,"601234.12k,701234.55k\nsha256,"201234.12k","401234.55k"\n'
                  'md5,"101234.12k","301234.55k"\n', [4]),
    ("short.csv", "OpenSSL 3.0.13, in 1000s of bytes per second\n\ntype,16 bytes,64 bytes,256 bytes\n"
                  "aes-128-cbc,601234.12k,701234.55k,801234.12k\nsha256,201234.12k,401234.55k\n"
                  "md5,101234.12k,301234.55k,401234.12k\nsha1,101234.12k,301234.55k,401234.12k\n"
                  "sha512,101234.12k,301234.55k,401234.12k,501234.12k\n", [5, 8]),
])
def test_a_csv_row_cut_short_or_run_long_is_reported_and_the_rows_keep_their_lines(
        tmp_path, name, text, bad):
    """A quote a CSV line left open joined the next line to it: that row was lost unreported
    and every row below it was given the line above its own. A row of another width split the
    table (the rows below it had no header): read a line at a time, the table goes on across
    such a row, which is reported."""
    df, messages = _ingest_warned(tmp_path, name, text)
    lines = text.splitlines()
    assert all(lines[n - 1].startswith(a) for n, a in zip(df["line"], df["algorithm"].astype(str)))
    assert len(df) == sum(len(l.split(",")) - 1 for n, l in enumerate(lines, 1)
                          if n > 3 and n not in bad and l.count('"') % 2 == 0)
    assert any(f"line(s) {', '.join(map(str, bad))}" in m for m in messages)


@pytest.mark.parametrize("name, text, versions", [
    ("once.html", "<h2>Build box (EPYC 7302P)</h2>\n<p>Debian's OpenSSL 3.0.11, figures in MB/s:</p>\n"
                  "<table><tr><th>cipher</th><th>16 bytes</th></tr>\n<tr><td>aes-128-cbc</td><td>601.2"
                  "</td></tr></table>\n<h2>Laptop</h2>\n<p>Figures in MB/s:</p>\n<table><tr><th>cipher"
                  "</th><th>16 bytes</th></tr>\n<tr><td>aes-128-cbc</td><td>701.2</td></tr></table>\n",
     ["3.0.11", None]),
    ("every.md", "# Two boxes\n\nEvery table below: LibreSSL 3.8.2 from ports (no assembly),\nall in MB/s.\n\n"
                 "## Build box (EPYC 7302P)\n\n| cipher | 16 bytes |\n|---|---|\n| aes-128-cbc | 601.2 |\n\n"
                 "## Laptop\n\n| cipher | 16 bytes |\n|---|---|\n| aes-128-cbc | 701.2 |\n",
     ["3.8.2", "3.8.2"]),
])
def test_facts_stated_in_a_section_hold_in_it_and_for_every_table_where_said(
        tmp_path, name, text, versions):
    """A version or CPU stated under one heading held for every table below it: the laptop's
    section got the build box's version and CPU (texts 159, 160). Facts stated under a heading
    hold until the next heading of its level; stated before any heading, or for every table
    below (a sentence wrapped over lines), they hold for all."""
    df = _ingest(tmp_path, name, text)
    got = df.drop_duplicates("run")
    assert [v if isinstance(v, str) else None for v in got["tool_version"]] == versions
    assert [c if isinstance(c, str) else None for c in got["cpu"]] == ["EPYC 7302P", None]
    assert set(df["bytes_per_s"]) == {601.2e6, 701.2e6}


@pytest.mark.parametrize("name, text", [
    ("status.md", "OpenSSL 3.3.1, 8 KiB blocks, MB/s\n\n| cipher | EPYC 7763 | Graviton3 |\n|---|---|---|\n"
                  "| aes-128-gcm | :white_check_mark: 6,842 | :warning: 4,108 |\n"
                  "| sha256 | :white_check_mark: 2,011 | :white_check_mark: 1,980 |\n"),
    ("status.txt", "OpenSSL 3.3.1, 8 KiB blocks, MB/s\n\ncipher\tEPYC 7763\tGraviton3\n"
                   "aes-128-gcm\t\U0001f7e2 6842\t\U0001f534 4108\nsha256\t\u2714 2011\t\u2714\ufe0f 1980\n"),
])
def test_a_status_mark_before_a_value_is_its_note_not_part_of_it(tmp_path, name, text):
    """'\u2705 6,842 MB/s' in a GitHub comment's table was no number: the table gave nothing (text
    161). A check mark, an emoji or a shortcode before a value is that cell's note."""
    df = _ingest(tmp_path, name, text)
    assert sorted(df["bytes_per_s"]) == [1980e6, 2011e6, 4108e6, 6842e6]
    notes = dict(zip(df["bytes_per_s"], df["note"]))
    assert notes[4108e6] != notes[6842e6] and all(isinstance(n, str) and n for n in notes.values())


@pytest.mark.parametrize("name, text", [
    ("marks.txt", "OpenSSL 3.0.13, 16 KiB blocks, MB/s\n\ncipher\tbefore\tafter\naes-256-cbc\t1078\u2021\t567\n"
                  "sha256\t1234\t1229\n\n\u2021 one run only\n"),
    ("marks.html", "<p>OpenSSL 3.0.13, 16 KiB blocks, MB/s</p>\n<table><tr><th>cipher</th><th>before</th>"
                   "<th>after</th></tr>\n<tr><td>aes-256-cbc</td><td>1078</td><td>567<sup>1</sup></td>"
                   "</tr>\n<tr><td>sha256</td><td>1234</td><td>1229</td></tr></table>\n"
                   "<p><sup>1</sup> one run only</p>\n"),
])
def test_a_footnote_mark_on_a_value_notes_that_cell_only(tmp_path, name, text):
    """'567\u2020' gave its footnote to every cell of its row: the other build's 1,078 too (text
    162). A mark glued to a value is that cell's; one glued to a name is the row's."""
    df = _ingest(tmp_path, name, text)
    noted = df[df["note"].notna()]
    assert len(df) == 4 and len(noted) == 1 and noted["note"].iloc[0] == "one run only"
    assert noted["bytes_per_s"].iloc[0] in (1078e6, 567e6)


@pytest.mark.parametrize("name, text", [
    ("sheet.md", "OpenSSL 3.0.11, MB/s at 16 KB blocks:\n\n```\nCipher               node-a     node-b      Total\n"
                 "aes-128-gcm         5,102.3    5,087.9   10,190.2\nsha256              2,220.1    2,219.8"
                 "    4,439.9\nTotal               7,322.4    7,307.7   14,630.1\n```\n"),
    ("sheet.txt", "OpenSSL 3.0.11, MB/s at 16 KB blocks:\n\n[code]\nCipher         box 1      box 2\n"
                  "aes-128-gcm    5,102.3    5,087.9\nsha256         2,220.1    2,219.8\n[/code]\n"),
])
def test_thousands_separators_in_space_aligned_cells_make_no_csv(tmp_path, name, text):
    """A spreadsheet pasted as aligned text ('aes-128-gcm    5,102.3    4,998.1') was taken for
    CSV rows (its commas) and read as nothing: lines with cells aligned by spaces are no CSV.
    Its Total row and column are sums, no measurement."""
    df = _ingest(tmp_path, name, text)
    assert sorted(df["bytes_per_s"]) == [2219.8e6, 2220.1e6, 5087.9e6, 5102.3e6]
    assert df["label"].nunique() == 2 and set(df["block_bytes"]) == {16384}


@pytest.mark.parametrize("name, text", [
    ("mail.txt", "Hi,\n\nnumbers from the sheet (OpenSSL 3.0.11, MB/s, 16 KB blocks):\n\n"
                 "Cipher            host-1      host-2\naes-256-gcm      4,310.6     4,295.2\n"
                 "sha512             901.3       899.7\n\nCheers\n"),
    ("quoted.txt", "> OpenSSL 3.0.11, MB/s, 16 KB blocks:\n>\n> Cipher            host-1      host-2\n"
                   "> aes-256-gcm      4,310.6     4,295.2\n> sha512             901.3       899.7\n"),
])
def test_a_table_aligned_by_spaces_outside_a_code_block_is_read(tmp_path, name, text):
    """A spreadsheet pasted into a mail as aligned text (text 167), no fence around it: its
    rows were reported as unplaced. A paragraph of cells aligned by spaces is a table when it
    names what it measures (an algorithm or a block size)."""
    df = _ingest(tmp_path, name, text)
    assert sorted(df["bytes_per_s"]) == [899.7e6, 901.3e6, 4295.2e6, 4310.6e6]
    assert set(df["label"].astype(str)) == {"host-1", "host-2"}


def test_another_programs_aligned_output_outside_a_code_block_stays_unread(tmp_path):
    """iostat's table under its command, outside a code block, names no algorithm nor block
    size: no table, nothing reported (beside openssl's output, which is read)."""
    text = ("$ iostat -m sda\nDevice             tps    MB_read/s    MB_wrtn/s\n"
            "sda              12.40         0.81         4.07\n\n$ openssl speed -evp aes-128-gcm\n"
            "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes\n"
            "aes-128-gcm     512000.00k  1400000.00k  3000000.00k  4800000.00k  5300000.00k\n")
    df, messages = _ingest_warned(tmp_path, "mixed.txt", text)
    assert len(df) == 5 and set(df["algorithm"].astype(str)) == {"aes-128-gcm"}
    assert not [m for m in messages if "not placed" in m]


@pytest.mark.parametrize("name, text", [
    ("fenced.md", "Results in GiB/s (OpenSSL 3.2.1, 16384-byte blocks):\n\n```\n"
                  "Algorithm         m7i.large    c7g.large    c7a.large\n"
                  "chacha20-poly1305   2.41         1.98         2.66\n"
                  "aes-256-gcm         6.90 4.12    7.35\n"
                  "sha384              0.91         1.07         0.95\n```\n"),
    ("mail.txt", "Sheet pasted below, MB/s, OpenSSL 3.0.13, 64-byte blocks.\n\n"
                 "Cipher       Xeon      Xeon      Altra     Altra\n"
                 "             1 core    8 cores   1 core    8 cores\n"
                 "aes-256-gcm  815.20    6410.11 731.40    5710.3\n"
                 "sha512       402.75    3190.40   388.12    3011.09\n"),
])
def test_a_row_with_numbers_one_blank_apart_is_reported_not_read_into_other_columns(
        tmp_path, name, text):
    """A TAB paste mail-wrapped (its TABs expanded to the next stop) leaves two cells one blank
    apart (text 148 wrapped: ``6801.20 590.12  5540.87``); the row's cells, placed by the columns
    they overlap, put 5540.87 under the column before its own. Such a row is reported whole;
    the others are read."""
    df, messages = _ingest_warned(tmp_path, name, text)
    assert "aes-256-gcm" not in set(df["algorithm"].astype(str))
    row = 6 if name == "fenced.md" else 5
    assert len(df) == (6 if name == "fenced.md" else 4)
    assert any("not placed" in m and f"line(s) {row};" in m for m in messages)


@pytest.mark.parametrize("name, text", [
    ("left.md", "Same box (Xeon E-2388G), figures in KiB/s:\n\n```\n"
                "               OpenSSL 1.1.1w            OpenSSL 3.0.13\n"
                "cipher         16 bytes   16384 bytes    16 bytes   16384 bytes\n"
                "aes-256-cbc    880912.3   1402113.8      871204.9   1398870.2\n"
                "sha256         312004.1   2110453.6      298765.0   2101377.4\n```\n"),
    ("right.txt", "> Figures in KiB/s, Xeon E-2388G.\n>\n"
                  ">                        OpenSSL 1.1.1w               OpenSSL 3.0.13\n"
                  "> cipher        16 bytes   16384 bytes     16 bytes   16384 bytes\n"
                  "> aes-256-cbc   880912.3   1402113.8       871204.9   1398870.2\n"
                  "> sha256        312004.1   2110453.6       298765.0   2101377.4\n"),
])
def test_titles_spanning_columns_of_an_aligned_table_are_over_their_columns(tmp_path, name, text):
    """``pdftotext -layout`` of a paper (text 168): a CPU over its two size columns, the row
    above the titles holding fewer cells than the rows below, was no table (its rows reported).
    A first row of fewer titles, no number, spans the columns under it, each title over those
    whose middles lie in its reach (left-aligned, centred or right-aligned titles alike)."""
    df = _ingest(tmp_path, name, text)
    got = {(str(r.tool_version), r.algorithm, r.block_bytes): r.bytes_per_s for r in df.itertuples()}
    assert got == pytest.approx({("1.1.1w", "aes-256-cbc", 16): 880912.3 * 1024,
                                 ("1.1.1w", "aes-256-cbc", 16384): 1402113.8 * 1024,
                                 ("1.1.1w", "sha256", 16): 312004.1 * 1024,
                                 ("1.1.1w", "sha256", 16384): 2110453.6 * 1024,
                                 ("3.0.13", "aes-256-cbc", 16): 871204.9 * 1024,
                                 ("3.0.13", "aes-256-cbc", 16384): 1398870.2 * 1024,
                                 ("3.0.13", "sha256", 16): 298765.0 * 1024,
                                 ("3.0.13", "sha256", 16384): 2101377.4 * 1024})


@pytest.mark.parametrize("name, text", [
    ("README.rst", "Results (OpenSSL 3.0.11, MiB/s, on the build host):\n\n"
                   "============  =========  =========\nDigest        64 bytes   16 KiB\n"
                   "============  =========  =========\nsha256        310.5      1650.2\n"
                   "sha3-256      190.1      405.7\n============  =========  =========\n"),
    ("spans.rst", "Both hosts run OpenSSL 3.0.11; MiB/s.\n\n"
                  "==========  =========  =========\n\\           host-a     host-b\n"
                  "----------  ---------  ---------\nDigest      64 bytes   64 bytes\n"
                  "==========  =========  =========\nsha256      310.5      1650.2\n"
                  "sha3-256    190.1      405.7\n==========  =========  =========\n"),
])
def test_a_rest_simple_table_s_borders_are_markup_not_cells(tmp_path, name, text):
    """A reST simple table (text 170): its ``=====  =====`` borders and ``---`` span lines were
    read as header cells, the runs labelled '========== / Raspberry Pi 5 / ----- / ====='.
    Rules drawn across an aligned table are markup (the first gives the columns); a lone
    ``\\`` (reST's empty cell) is blank."""
    df = _ingest(tmp_path, name, text)
    assert sorted(df["bytes_per_s"] / 2**20) == pytest.approx([190.1, 310.5, 405.7, 1650.2])
    labels = set(df["label"].dropna().astype(str))
    assert not any("=" in x or "--" in x or "\\" in x for x in labels)
    if name == "spans.rst":
        assert labels == {"host-a", "host-b"} and set(df["block_bytes"]) == {64}


def test_rest_directive_lines_give_no_label(tmp_path):
    """A Sphinx page (text 169): the ``:widths: auto`` option of the ``.. table::`` directive
    above a grid table was the run's label. Directive lines and their options are markup,
    the label comes from the prose (or there is none)."""
    text = ("Graviton3 (c7g.large), OpenSSL 3.0.8, MB/s:\n\n.. table:: Digests\n   :align: center\n"
            "   :widths: 20 10\n\n   +---------+----------+\n   | Digest  | 16 bytes |\n"
            "   +=========+==========+\n   | sha256  | 190.2    |\n   +---------+----------+\n")
    df = _ingest(tmp_path, "perf.rst", text)
    assert list(df["bytes_per_s"]) == [190.2e6]
    assert str(df["label"].iloc[0]).startswith(("nan", "<NA>", "Graviton3"))


@pytest.mark.parametrize("name, text, version", [
    ("fig.html", "<h3>Rock 5B</h3>\n<figure><table><tr><th>cipher</th><th>16 B</th></tr>\n"
                 "<tr><td>sha256</td><td>401.7</td></tr></table>\n"
                 "<figcaption>Values in MiB/s with OpenSSL 3.0.11</figcaption></figure>\n", "3.0.11"),
    ("below.md", "## Pi 4\n\n| cipher | 16 B |\n|---|---|\n| sha256 | 401.7 |\n\n"
                 "*Table 1: LibreSSL 3.8.2, MiB/s.*\n", "3.8.2"),
    ("later.md", "## Pi 4, figures in MiB/s\n\n| cipher | 16 B |\n|---|---|\n| sha256 | 401.7 |\n\n"
                 "OpenSSL 3.2 should do better here.\n", None),
])
def test_a_caption_below_a_table_states_its_version(tmp_path, name, text, version):
    """A blog's ``<figcaption>`` under each board's table (text 176) states its unit and its
    version: the unit was read, the version was not. A caption below that states the unit
    states the table's other facts too; a sentence below that states no unit is prose about
    something else (no version from it)."""
    df = _ingest(tmp_path, name, text)
    assert list(df["bytes_per_s"]) == [pytest.approx(401.7 * 2**20)]
    got = df["tool_version"].iloc[0] if "tool_version" in df else None
    assert (None if got is None or str(got) in ("nan", "<NA>") else str(got)) == version


@pytest.mark.parametrize("name, text", [
    ("releases.md", "| Release | sha256 | sha512 |\n|---|---|---|\n| 1.1.1w | 1,990.2 | 801.7 |\n"
                    "| 3.0.13 | 1,985.0 | 799.9 |\n\n*Table 4: 16 KiB blocks, MB/s.*\n"),
    ("releases.txt", "OpenSSL\tsha256\tsha512\n1.1.1w\t1990.2\t801.7\n3.0.13\t1985.0\t799.9\n\n"
                     "Figures at 16384-byte blocks, in MB/s.\n"),
])
def test_a_block_size_stated_in_the_caption_below_a_grid_places_its_cells(tmp_path, name, text):
    """Versions as rows, algorithms as columns (text 178), the one block size only in the
    caption below the table: every row was reported. A caption below (it states the unit)
    gives the grid its block size where the prose above states none."""
    df = _ingest(tmp_path, name, text)
    assert set(df["block_bytes"]) == {16384} and len(df) == 4
    assert set(df["tool_version"].astype(str)) == {"1.1.1w", "3.0.13"}
    assert sorted(df["bytes_per_s"]) == pytest.approx([799.9e6, 801.7e6, 1985.0e6, 1990.2e6])


def test_a_caption_below_one_grid_gives_no_block_size_to_the_next(tmp_path):
    """The caption's block size is its table's: a grid after it, with none stated, is
    reported, not read at that size."""
    text = ("| Release | sha256 |\n|---|---|\n| 1.1.1w | 1,990.2 |\n\n*16 KiB blocks, MB/s.*\n\n"
            "## Other box\n\n| Release | sha256 |\n|---|---|\n| 3.0.13 | 1,012.4 |\n")
    df, messages = _ingest_warned(tmp_path, "two.md", text)
    assert list(df["bytes_per_s"]) == [1990.2e6]
    assert any("not placed" in m for m in messages)


@pytest.mark.parametrize("name, text", [
    ("mixed.md", "Both on OpenSSL 3.0.2, 16 KiB blocks:\n\n    Cipher\t  box-1 (Xeon)    box-2 (EPYC)\n"
                 "    aes-256-gcm\t1,402.7 MB/s\t5,921.3 MB/s\n"
                 "    sha512  880.4 MB/s\t1,021.5 MB/s\n"),
    ("mixed.txt", "OpenSSL 3.0.2, 16 KiB blocks, MB/s.\n\nCipher\t  box-1 (Xeon)    box-2 (EPYC)\n"
                  "aes-256-gcm\t1402.7\t5921.3\nsha512  880.4\t1021.5\n"),
])
def test_cells_aligned_by_tabs_and_spaces_mixed_are_split_at_both(tmp_path, name, text):
    """An editor's TABs for eight spaces in a table aligned by spaces (text 175 damaged): read
    as a TAB table, 'box-1 (Xeon)    box-2 (EPYC)' was one machine and 'sha512  880.4 MB/s'
    an algorithm named 'sha512-880.4-mb/s'. A TAB table with two blanks inside a cell is left
    to the aligned reader (two blanks or a TAB between cells); a name holding a decimal
    number names no algorithm."""
    df = _ingest(tmp_path, name, text)
    got = {(str(r.label), r.algorithm): r.bytes_per_s for r in df.itertuples()}
    assert got == pytest.approx({("box-1 (Xeon)", "aes-256-gcm"): 1402.7e6,
                                 ("box-2 (EPYC)", "aes-256-gcm"): 5921.3e6,
                                 ("box-1 (Xeon)", "sha512"): 880.4e6,
                                 ("box-2 (EPYC)", "sha512"): 1021.5e6})


def test_a_figcaption_wrapped_under_its_table_still_gives_the_unit(tmp_path):
    """A blog's <figcaption> broken by a mail client (text 176 wrapped at 72): the text below
    the table ran on past the next <h3> into the next <figure>, was taken as introducing that
    table, and the unit was lost (cells flagged). An HTML heading ends the text below."""
    text = ("<h3>Pi 4</h3>\n<figure><table><tr><th>cipher</th><th>16 B</th></tr>\n"
            "<tr><td>sha256</td><td>42.1</td></tr>\n</table><figcaption>Figures in\n"
            "MiB/s</figcaption></figure>\n<h3>Pi 5</h3>\n<figure\nclass=\"t\"><table><tr><th>cipher</th>"
            "<th>16 B</th></tr>\n<tr><td>sha256</td><td>401.7</td></tr>\n</table><figcaption>Figures in "
            "MiB/s</figcaption></figure>\n")
    df = _ingest(tmp_path, "blog.html", text)
    assert sorted(df["bytes_per_s"] / 2**20) == pytest.approx([42.1, 401.7])
    assert "flag" not in df or df["flag"].isna().all()


def test_a_rest_grid_table_s_spanning_title_is_over_its_columns(tmp_path):
    """A reST grid table whose title spans columns (text 179: "Buffer size" over the sizes,
    a rule under it only, the corner spanning two header rows): the line holding that rule
    ended the table, and it became the label of the rest ('| Algorithm +-----+-----+').
    Each line is cut at the borders the table's rules draw; a rule under some cells ends
    that row of the header."""
    text = ("OpenSSL 3.2.1, 16 KiB blocks, MiB/s.\n\n"
            "+----------+---------------------+\n|          | Host                |\n"
            "| Digest   +----------+----------+\n|          | ci-x86   | ci-arm   |\n"
            "+==========+==========+==========+\n| sha256   | 1650.2   | 2011.8   |\n"
            "+----------+----------+----------+\n| sha512   | 1110.2   | 702.5    |\n"
            "+----------+----------+----------+\n")
    df = _ingest(tmp_path, "hosts.rst", text)
    got = {(str(r.label), r.algorithm): r.bytes_per_s / 2**20 for r in df.itertuples()}
    assert got == pytest.approx({("ci-x86", "sha256"): 1650.2, ("ci-arm", "sha256"): 2011.8,
                                 ("ci-x86", "sha512"): 1110.2, ("ci-arm", "sha512"): 702.5})
    assert set(df["block_bytes"]) == {16384}


@pytest.mark.parametrize("name, text, multi", [
    ("threads.md", "Thread scaling, AES-256-GCM, 16384-byte blocks, MB/s:\n\n| threads | aes-256-gcm |\n"
                   "|---|---|\n| 1 | 812.3 |\n| 2 | 1620.1 |\n| 4 | 3231.7 |\n", [1, 2, 4]),
    ("jobs.txt", "sha256, 8192-byte blocks, in MB/s\n\nhost\tjobs\tsha256\nbox\t1\t1980.4\n"
                 "box\t8\t14022.5\n", [1, 8]),
    ("columns.md", "## Scaling\n\nsha256 at 8192-byte blocks, in MB/s:\n\n| digest | -multi 1 | -multi 4 |\n"
                   "|---|---|---|\n| sha256 | 1980.4 | 7801.9 |\n", [1, 4]),
])
def test_a_count_of_processes_is_each_runs_multi_not_its_label(tmp_path, name, text, multi):
    """Rows or columns counting processes (``threads``, ``jobs``, ``-multi 4``) give each cell
    the ``multi`` of its count, a run per count; before, each count was a run labelled "1"."""
    df = _ingest(tmp_path, name, text)
    assert sorted(df["multi"].tolist()) == multi and df["run"].nunique() == len(multi)
    assert not df["label"].isin([str(n) for n in multi]).any()


def test_a_machines_cores_that_vary_by_machine_only_stay_its_fact(tmp_path):
    """``Cores`` beside each machine describes the machine: a condition, no ``multi``."""
    text = ("Machines (sha256, 16384-byte blocks, MB/s):\n\nHost\tCores\tsha256\nbuild-01\t16\t2021.5\n"
            "build-02\t32\t2019.8\n")
    df = _ingest(tmp_path, "cores.txt", text)
    assert df["multi"].isna().all() and df["cores"].tolist() == ["16", "32"]


def test_per_core_columns_are_derived_and_a_total_over_process_counts_is_measured(tmp_path):
    text = ("`openssl speed -multi N -evp aes-128-cbc`, 8192-byte blocks:\n\n"
            "| processes | Total (MB/s) | per-process (MB/s) |\n|---|---|---|\n"
            "| 1 | 612.4 | 612.4 |\n| 4 | 2402.8 | 600.7 |\n")
    df = _ingest(tmp_path, "total.md", text)
    assert df["bytes_per_s"].tolist() == [612.4e6, 2402.8e6] and df["multi"].tolist() == [1, 4]


@pytest.mark.parametrize("prose, cpu", [
    ("Tested on my MacBook Air M1 (2020)", "M1"),
    ("on an M2 Pro Mac mini", "M2 Pro"),
    ("Apple M3 Max, 16 cores", "Apple M3 Max"),
    ("Graviton3 vs Sapphire Rapids", None),      # two CPUs, one by its code name: neither
    ("AES-NI came with Westmere", None),         # a code name alone names no run's CPU
    ("Xeon Platinum 8480+ (Sapphire Rapids)", "Xeon Platinum 8480+"),
    ("Zen 4 EPYC 9654", "EPYC 9654"),
    ("a c7g.large instance", None),              # an instance type: no CPU guessed
    ("Snapdragon 8 Gen 2 phone", "Snapdragon 8 Gen 2"),
    ("Raspberry Pi 5 (Cortex-A76)", "Cortex-A76"),
    ("Core Ultra 7 155H laptop", "Core Ultra 7 155H"),
    ("Dell XPS 13 9310", None),                  # a laptop's model number: no CPU, no clock
    ("the M1 was fine", None),
])
def test_cpus_named_in_prose(prose, cpu):
    from cipherlab.readers._tables._facts import prose_cpu

    got = prose_cpu(prose)
    assert got.get("cpu") == cpu and "clock_hz" not in got


def test_a_code_name_beside_another_cpu_keeps_both_machines_cpu_missing(tmp_path):
    """"Graviton3 vs Sapphire Rapids" above two hosts gave the Intel host the Graviton3."""
    text = ("### Graviton3 vs Sapphire Rapids\n\naes-256-gcm, 16384-byte blocks, MB/s:\n\n"
            "| host | aes-256-gcm |\n|---|---|\n| c7g | 3105.2 |\n| c7i | 6210.9 |\n")
    df = _ingest(tmp_path, "vs.md", text)
    assert len(df) == 2 and df["cpu"].isna().all()


@pytest.mark.parametrize("name, text", [
    ("slack.txt", "Priya Raman  10:42 AM\nran it on the m7g box\n```$ openssl speed -evp md5\n"
                  "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes\n"
                  "md5              51234.11k   150321.42k   340112.73k   512009.01k   601234.55k```\n"),
    ("glued.md", "```type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes\n"
                 "md5              51234.11k   150321.42k   340112.73k   512009.01k   601234.55k```\n"),
])
def test_a_code_fence_glued_to_the_output_is_no_part_of_it(tmp_path, name, text):
    """Slack's fences stand on the lines of the text they hold: the row ending in ``` lost
    its rates (reported) before."""
    df = _ingest(tmp_path, name, text)
    assert df is not None and df["bytes_per_s"].tolist()[-1] == 601234550.0 and len(df) == 5
    assert not df["label"].eq("Priya Raman 10:42 AM").any()


@pytest.mark.parametrize("text, values", [
    ("Werte in MB/s:\n\nAlgorithmus;16 Bytes;1024 Bytes\nsha256;210,44;1802,17\nmd5;501,20;790,05\n",
     [210.44e6, 1802.17e6, 501.2e6, 790.05e6]),
    ("Valeurs en Mo/s, MB/s:\n\nalgorithme;16 octets;1024 octets\n\"aes-128-gcm\";712,31;6012,88\n"
     "\"sha256\";210,44;1802,17\n", [712.31e6, 6012.88e6, 210.44e6, 1802.17e6]),
])
def test_a_csv_of_semicolons_with_decimal_commas_is_read(tmp_path, text, values):
    """A spreadsheet of a comma-decimal locale exports ``;`` between its fields: no table was
    found in it before ("no measurements found")."""
    df = _ingest(tmp_path, "export.csv.txt", text)
    assert df["bytes_per_s"].tolist() == pytest.approx(values, rel=1e-12) and df["flag"].isna().all()


@pytest.mark.parametrize("fence", ["```\n", ""])
def test_pandas_to_string_index_column_has_no_title(tmp_path, fence):
    """``df.to_string()`` puts no title over its index (0, 1, ...): its rows were reported."""
    text = (f"MB/s:\n\n{fence}      algorithm  16 bytes  1024 bytes\n0  aes-128-gcm    712.31     6012.88\n"
            f"1       sha256    210.44     1802.17\n{fence}")
    df = _ingest(tmp_path, "df.md", text)
    assert df["algorithm"].tolist() == ["aes-128-gcm"] * 2 + ["sha256"] * 2
    assert df["bytes_per_s"].tolist() == [712.31e6, 6012.88e6, 210.44e6, 1802.17e6]


@pytest.mark.parametrize("command", ["`openssl speed -evp aes-128-gcm`", None])
def test_rows_of_machines_under_a_blank_corner_are_no_algorithms(tmp_path, command):
    """``| laptop | 712.3 |`` under a blank corner and sizes: the rows were read as algorithms
    "laptop" and "pi5" (silently wrong); now machines of the command's algorithm, or reported
    where no algorithm is named."""
    text = (f"Figures in MB/s from {command or 'my two boxes'}:\n\n| | 16 bytes | 1024 bytes |\n"
            "|---|---|---|\n| laptop | 712.3 | 6012.9 |\n| pi5 | 412.5 | 1802.3 |\n")
    df = _ingest(tmp_path, "boxes.md", text)
    if command is None:
        assert df is None
    else:
        assert set(df["algorithm"]) == {"aes-128-gcm"} and df["label"].tolist() == ["laptop"] * 2 + ["pi5"] * 2


def test_a_multi_command_above_a_table_is_its_multi_only(tmp_path):
    text = ("`openssl speed -multi 8 -evp md5`, MB/s:\n\n| algorithm | 16 bytes |\n|---|---|\n"
            "| md5 | 5698.5 |\n\nAnd then, one process, MB/s.\n\n| algorithm | 16 bytes |\n|---|---|\n"
            "| md5 | 712.3 |\n")
    df = _ingest(tmp_path, "multi.md", text)
    assert df["multi"].tolist()[0] == 8 and df["multi"].isna().tolist() == [False, True]


def test_a_multi_column_of_words_stays_a_condition(tmp_path):
    """``-multi | yes`` counts nothing: kept as a condition (it was lost before), no ``multi``."""
    text = "MB/s:\n\n| type | -multi | 16 bytes |\n|---|---|---|\n| md5 | yes | 712.3 |\n| md5 | no | 70.3 |\n"
    df = _ingest(tmp_path, "words.md", text)
    assert df["multi"].isna().all() and df["multi_setting"].tolist() == ["yes", "no"]


@pytest.mark.parametrize("prose, cpu, clock", [
    ("Intel Xeon Platinum 8480+ 2.0 GHz", "Intel Xeon Platinum 8480+", 2.0e9),
    ("Ryzen 5 3600 3.6 GHz box", "Ryzen 5 3600", 3.6e9),
])
def test_a_clock_written_apart_after_a_cpu_is_its_clock_not_its_name(prose, cpu, clock):
    """``8480+ 2.0 GHz``: the cpu was 'Intel Xeon Platinum 8480+ 2.0 GHz', no clock."""
    from cipherlab.readers._tables._facts import prose_cpu

    assert prose_cpu(prose) == {"cpu": cpu, "clock_hz": clock}


def test_a_column_of_n_cores_is_a_machines_size_not_a_count_of_processes(tmp_path):
    """``4 cores`` over a column may be a VM's size (one process on each): a run, no multi."""
    text = ("sha256, 8192-byte blocks, MB/s:\n\n| digest | 4 cores | 16 cores |\n|---|---|---|\n"
            "| sha256 | 1980.4 | 2011.7 |\n")
    df = _ingest(tmp_path, "vms.md", text)
    assert df["multi"].isna().all() and df["label"].tolist() == ["4 cores", "16 cores"]


@pytest.mark.parametrize("name, text", [
    ("fleet.md", "Figures are from the 16384-byte column of `openssl speed -evp`, in MB/s.\n\n"
                 "| Instance | aes-128-gcm | chacha20-poly1305 |\n|---|---:|---:|\n"
                 "| c7i.large | 6312.4 | 2210.3 |\n| c7g.large | 4107.2 | 1840.6 |\n"),
    ("fleet.txt", "MB/s, from the 16 KiB column of openssl speed\n\n"
                  "Instance\taes-128-gcm\tchacha20-poly1305\nc7i.large\t6312.4\t2210.3\n"
                  "c7g.large\t4107.2\t1840.6\n"),
])
def test_a_size_that_names_a_column_of_openssls_table_is_the_block_size(tmp_path, name, text):
    """187: "the 16384-byte column" (or "the 16 KiB column") of openssl speed is where the
    figures of a machines-by-algorithms table come from, its block size (the table was not
    read at all: no size)."""
    df = _ingest(tmp_path, name, text)
    assert set(df["block_bytes"]) == {16384} and len(df) == 4
    assert sorted(set(df["label"])) == ["c7g.large", "c7i.large"]
    assert df.loc[df["algorithm"].eq("aes-128-gcm"), "bytes_per_s"].tolist() == [6312.4e6, 4107.2e6]


@pytest.mark.parametrize("name, sentence, factor", [
    ("ruled.txt", "Numbers in Gbit/s rather than GB/s (divide by 8 to get GB/s).", 1e9 / 8),
    ("ruled.md", "All in MB/s, not Mbit/s.", 1e6),
    ("either.md", "Values are MB/s or Mbit/s, I don't remember which.", None),
])
def test_a_unit_a_sentence_rules_out_or_converts_to_is_not_the_tables(tmp_path, name, sentence,
                                                                      factor):
    """188: "Gb/s, not GB/s: multiply by 125 for MB/s" above a table states Gb/s (the last unit
    named, MB/s, was read: 125 times too low, silently); a sentence that still names two units
    leaves the unit unknown (flagged), never the last one guessed."""
    sep = "\t" if name.endswith(".txt") else " | "
    rows = ["cipher", "1024 bytes", "8192 bytes"], ["aes-256-gcm", "31.42", "38.07"]
    table = "".join((sep.join(r) if sep == "\t" else f"| {sep.join(r)} |") + "\n" for r in rows)
    if sep != "\t":
        table = table.replace("\n", "\n|---|---|---|\n", 1)
    df = _ingest(tmp_path, name, f"openssl speed -evp aes-256-gcm, OpenSSL 3.0.11\n\n{sentence}\n\n{table}")
    if factor is None:
        assert df["flag"].eq("unit unknown").all()
    else:
        assert df["flag"].isna().all()
        assert df["bytes_per_s"].tolist() == pytest.approx([31.42 * factor, 38.07 * factor])


def test_a_column_titled_by_an_algorithm_then_a_derived_quantity_gives_no_cell(tmp_path):
    """191-192: "sha256 relative to baseline" beside "sha256" is derived (its bare ratios were
    read as MB/s of an algorithm 'sha256-relative-to-baseline', silently); the rows named by
    a CPU switch stay conditions of the cells."""
    text = ("OpenSSL 3.0.13 on an i7-1265U, MB/s at 8192-byte blocks\n\n"
            "Build\tsha256\tsha256 relative to baseline\n"
            "without SHA-NI\t702.5\t1.00\nwith SHA-NI\t2011.3\t2.86\n")
    df = _ingest(tmp_path, "builds.txt", text)
    assert set(df["algorithm"]) == {"sha256"}
    assert df["bytes_per_s"].tolist() == [702.5e6, 2011.3e6]
    assert df["shani"].tolist() == ["off", "on"]


def test_a_block_size_whose_words_a_line_break_parts_is_the_block_size(tmp_path):
    """192: "... (OpenSSL 3.0.13, 8192-byte" / "blocks). Absolute numbers ..." states the block
    size over the break (the table was not read at all: no size)."""
    text = ("Numbers are MB/s, from openssl speed -evp on the fleet, all at 16384-byte\n"
            "blocks as usual.\n\nHost\taes-128-gcm\tsha256\nweb-1\t6120.3\t1702.4\n")
    df = _ingest(tmp_path, "wrapped.txt", text)
    assert set(df["block_bytes"]) == {16384}
    assert df["bytes_per_s"].tolist() == [6120.3e6, 1702.4e6]


def test_a_mask_in_the_caption_above_a_table_is_that_tables_not_the_one_before(tmp_path):
    """194: "Without AES-NI (OPENSSL_ia32cap=~0x200000200000000):" above the second of two
    tables gives its runs that ``isa_mask`` (it was lost: the two tables read alike), and not
    the first table's, above it; a version a line break parts from "OpenSSL" is stated."""
    row = "<tr><td>aes-128-gcm</td><td>{}</td><td>{}</td></tr>"
    table = "<table><tr><th>type</th><th>1024 bytes</th><th>8192 bytes</th></tr>{}</table>"
    text = ("<p>Both on the Pentium Silver N6000 with OpenSSL\n3.0.2, all figures in MB/s.</p>\n"
            "<p>With AES-NI:</p>\n" + table.format(row.format("2210.4", "2501.9")) + "\n"
            "<p>With OPENSSL_ia32cap=~0x200000200000000:</p>\n"
            + table.format(row.format("401.2", "430.7")) + "\n")
    df = _ingest(tmp_path, "masked.html", text)
    assert df["bytes_per_s"].tolist() == [2210.4e6, 2501.9e6, 401.2e6, 430.7e6]
    assert df["isa_mask"].isna().tolist() == [True, True, False, False]
    assert set(df["isa_mask"].dropna()) == {"~0x200000200000000"}
    assert set(df["tool_version"]) == {"3.0.2"}


def test_a_column_of_one_sizes_rate_over_anothers_is_derived_not_a_condition(tmp_path):
    """195: "16K / 1K" beside the size columns is a ratio: no condition of the cells (they
    carried ``16k_1k = 1.32``, each row a condition of its own)."""
    text = ("OpenSSL 3.0.13, MB/s\n\n| cipher | 64 bytes | 8192 bytes | 8192 B \u00f7 64 B |\n"
            "|---|---|---|---|\n| aes-128-ctr | 1201.5 | 6210.7 | 5.17 |\n| sha256 | 402.3 | 1688.0 | 4.20 |\n")
    df = _ingest(tmp_path, "ratio.md", text)
    assert len(df) == 4 and df["flag"].isna().all()
    assert not [c for c in df.columns if "8192" in c or "64" in c]
    assert df["bytes_per_s"].tolist() == [1201.5e6, 6210.7e6, 402.3e6, 1688.0e6]


@pytest.mark.parametrize("keyword", ["#+NAME: tab:cbc", "#+ATTR_HTML: :border 1", "#+PLOT: title:\"cbc\""])
def test_an_org_keyword_line_is_no_label(keyword):
    """195: ``#+NAME: tab:soft-crypto`` above an org table named its run ('+NAME: ...'); an
    org keyword is markup, and a ``#+CAPTION:`` is judged by its text."""
    from cipherlab.readers._context import SKIP, Label, label_verdict

    assert label_verdict(keyword) == SKIP
    assert label_verdict("#+CAPTION: Raspberry Pi 4") == Label("Raspberry Pi 4", "caption", 0)


def test_a_column_titled_in_cycles_per_byte_is_never_read_in_the_prose_unit(tmp_path):
    """193 (quoted twice in a mail): "In MB/s that is roughly 3000 / cpb." right below a table
    whose columns say "(cpb)" made its cycles per byte MB/s; a column titled in cycles per byte
    is a cost whatever unit the text around it names: flagged."""
    text = ("OpenSSL 3.0.13 on a 3.0 GHz Xeon:\n\ncipher\t1024 B (cpb)\t8192 B (cycles/byte)\n"
            "aes-128-gcm\t0.71\t0.64\nIn MB/s that is roughly 3000 / cpb.\n")
    df = _ingest(tmp_path, "cpb.txt", text)
    assert df is None or df["flag"].eq("unit unknown").all()


def test_a_table_of_one_size_in_cycles_per_byte_is_reported_not_dropped(tmp_path):
    """193's second table ("| Cipher | cycles/byte @ 16 KiB |") took its lines and read
    nothing, without a word: a cost is no derived figure of the rows, so its rows are reported."""
    text = ("<table><tr><th>Hash</th><th>cycles per byte @ 8 KiB</th></tr>\n"
            "<tr><td>sha256</td><td>1.98</td></tr>\n<tr><td>sha512</td><td>3.07</td></tr></table>\n")
    df, messages = _ingest_warned(tmp_path, "cpb.html", text)
    assert df is None or df["flag"].eq("unit unknown").all()
    assert any("line(s) 2, 3" in m for m in messages)


@pytest.mark.parametrize("name, text", [
    ("bare.md", "Throughput in MB/s:\n\n| cipher | 16 | 64 | 256 | 1024 |\n|---|---|---|---|---|\n"
                "| sm4-cbc | 101.2 | 118.7 | 121.9 | 122.8 |\n| aes-128-cbc | 1012.3 | 1203.5 | 1251.1 | 1263.0 |\n"),
    ("bare.txt", "Results (MiB/s), OpenSSL 3.2.1\n\n```\nalgorithm        16      64     256    1024\n"
                 "sm4-cbc       101.2   118.7   121.9   122.8\naes-128-cbc  1012.3  1203.5  1251.1  1263.0\n```\n"),
])
def test_column_titles_that_are_bare_block_sizes_are_read_in_the_prose_unit(tmp_path, name, text):
    """196 as a pipe table and an aligned block: a header row of bare integers, rising, each a
    size openssl measures, is a row of block sizes; the unit is the prose's."""
    df = _ingest(tmp_path, name, text)
    assert df is not None and not df["flag"].notna().any()
    assert df.block_bytes.tolist()[:4] == [16, 64, 256, 1024]
    scale = 1e6 if name.endswith(".md") else 2.0 ** 20
    assert df.bytes_per_s.iloc[0] == pytest.approx(101.2 * scale)


def test_bare_size_titles_without_a_unit_stay_loud_and_counts_of_threads_are_no_sizes(tmp_path):
    """No unit stated: each cell flagged (never read as bytes/s); `1 2 4 8` are counts, not
    block sizes (the columns of a thread sweep)."""
    rows = "aes-128-gcm\t812.3\t2301.7\t4688.2\t6512.9\n"
    df = _ingest(tmp_path, "nounit.txt", "Results:\ncipher\t16\t64\t256\t1024\n" + rows)
    assert df is None or df["flag"].eq("unit unknown").all()
    df = _ingest(tmp_path, "threads.txt", "Throughput in MB/s:\ncipher\t1\t2\t4\t8\n" + rows)
    assert df is None or "block_bytes" not in df or not df.block_bytes.isin([1, 2, 4, 8]).any()


def test_headerless_rows_of_bare_numbers_are_reported_never_read_as_bytes_per_second(tmp_path):
    """197 without its header row: six bare numbers after a cipher's name were read as openssl's
    header-less row, in bytes/s (the prose said MB/s); openssl prints its rates with a `k`, so
    such a row is another table's, whose sizes are not stated: reported."""
    text = ("Throughput in MB/s:\naes-128-gcm\t1712.42\t4371.90\t6802.13\t7930.44\t8301.76\t8327.15\n"
            "aes-256-gcm  1398.01  3520.66  5311.57  6040.32  6288.99  6305.02\n")
    df, messages = _ingest_warned(tmp_path, "bare.txt", text)
    assert df is None or df["flag"].notna().all()
    assert any("line(s) 2, 3" in m for m in messages)


def test_a_lower_case_mbps_is_read_only_where_the_text_spells_it_out(tmp_path):
    """`mbps` alone may be megabits or megabytes: flagged; where the text defines it ("mbps =
    megabits per second") the cells are read in that unit."""
    table = "| cipher | 16 bytes | 8192 bytes |\n|---|---|---|\n| aes-128-gcm | 6498.4 | 57611.2 |\n"
    df = _ingest(tmp_path, "def.md", "Results (mbps = megabits per second):\n\n" + table)
    assert df is not None and df["flag"].isna().all()
    assert df.bytes_per_s.tolist() == pytest.approx([6498.4e6 / 8, 57611.2e6 / 8])
    df = _ingest(tmp_path, "undef.md", "Results in mbps:\n\n" + table)
    assert df is None or df["flag"].eq("unit unknown").all()


@pytest.mark.parametrize("name, text", [
    ("tags.md", "## Laptop\n\n| cipher | 16 bytes | 8192 bytes |\n|---|---|---|\n"
                "| aes-128-gcm (without AVX2) | 412.5 | 2901.3 |\n| aes-128-gcm (AVX2 on) | 498.1 | 3807.2 |\n"
                "| sha256 | 301.2 | 1720.9 |\n\nAll numbers in MB/s.\n"),
    ("tags.txt", "Laptop (MB/s):\ncipher\t16 bytes\t8192 bytes\n"
                 "aes-128-gcm（无AVX2）\t412.5\t2901.3\naes-128-gcm（AVX2 开启）\t498.1\t3807.2\n"
                 "sha256\t301.2\t1720.9\n"),
    ("tags_transposed.md", "## Laptop\n\nAll numbers in MB/s.\n\n"
                           "| size | aes-128-gcm (without AVX2) | aes-128-gcm (AVX2 on) | sha256 |\n"
                           "|---|---|---|---|\n| 16 bytes | 412.5 | 498.1 | 301.2 |\n"
                           "| 8192 bytes | 2901.3 | 3807.2 | 1720.9 |\n"),
    ("tags_ja.md", "## Laptop\n\n単位: MB/s\n\n| 暗号 | 16バイト | 8192バイト |\n|---|---|---|\n"
                   "| aes-128-gcm（AVX2無効） | 412.5 | 2901.3 |\n| aes-128-gcm（AVX2有効） | 498.1 | 3807.2 |\n"
                   "| sha256 | 301.2 | 1720.9 |\n"),
])
def test_a_tag_switching_a_cpu_feature_is_the_rows_condition(tmp_path, name, text):
    """301: "AES-128-GCM (AES-NI off)" was a note, and in 302 (an openssl table) part of the
    algorithm's name; a tag that switches a feature, in English or Chinese, is the row's
    condition, and a row without one has none. A caption's unit is no part of its label."""
    df = _ingest(tmp_path, name, text)
    assert df is not None and df["flag"].isna().all()
    gcm = df[df.algorithm == "aes-128-gcm"]
    assert gcm.algorithm.nunique() == 1 and sorted(gcm["avx2"].unique()) == ["off", "on"]
    assert df[df.algorithm == "sha256"]["avx2"].isna().all()
    assert set(df.label) == {"Laptop"} and "note" not in df


@pytest.mark.parametrize("caption", ["Throughput in MB/s:", "Numbers in MB/s", "Results (MB/s):",
                                     "测试结果如下（单位：MB/s）：", "结果（单位 MB/s）："])
def test_a_caption_that_only_states_the_unit_names_no_run(tmp_path, caption):
    """A caption saying what the numbers are labels nothing: the heading above does, and
    without one the run has no label; the unit is read."""
    table = "| cipher | 16 bytes | 8192 bytes |\n|---|---|---|\n| aes-128-gcm | 649.4 | 5761.2 |\n"
    df = _ingest(tmp_path, "unit.md", f"## Pi 5\n\n{caption}\n\n{table}")
    assert df is not None and set(df.label) == {"Pi 5"}
    assert df.bytes_per_s.tolist() == pytest.approx([649.4e6, 5761.2e6])
    df = _ingest(tmp_path, "bare.md", f"{caption}\n\n{table}")
    assert df is not None and df.label.isna().all()


def _read_list(text: str):
    """The cells of a text (algorithm, operation, block, bytes/s, label), the warnings it
    gives, and the error it raises (None when it reads)."""
    import warnings

    import cipherlab
    from cipherlab.errors import IngestError

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            df = cipherlab.ingest(text)
        except IngestError as err:
            return [], [str(w.message) for w in caught], str(err)
    cells = list(df[["algorithm", "operation", "block_bytes", "bytes_per_s", "label"]]
                 .astype(object).itertuples(index=False, name=None))
    return cells, [str(w.message) for w in caught], None


@pytest.mark.parametrize("line, want", [
    ("1. sha512 at 16 KiB: 1.2 GiB/s", ("sha512", "digest", 16384, 1.2 * 2 ** 30)),
    ("+ sha1 (64B) -> 980 Mbps", ("sha1", "digest", 64, 980e6 / 8)),
    ("aes-128-cbc decrypt @ 8 KB: 5.1 GB/s", ("aes-128-cbc", "decrypt", 8192, 5.1e9)),
    ("\u2022 AES-128-CTR with 256-byte blocks = 2'950.5 MB/s", ("aes-128-ctr", "encrypt", 256, 2950.5e6)),
    ("md5    bytes16384   812345.67k", ("md5", "digest", 16384, 812345670.0)),
])
def test_a_list_row_holding_one_name_size_and_value_with_its_unit_is_a_cell(line, want):
    """A line of a list (bullet, number or none) with one known name, one block size and one
    value in a known unit is that cell; an operation word on it is its operation (_listed)."""
    text = f"Numbers from my box:\n\n{line}\n- md4, 16 bytes: 100.5 MB/s\n"
    cells, _, _ = _read_list(text)
    assert ("md4", "digest", 16, 100.5e6) in [c[:4] for c in cells]
    got = [c[:4] for c in cells if c[0] == want[0]]
    assert len(got) == 1 and got[0][:3] == want[:3] and got[0][3] == pytest.approx(want[3])


def test_list_rows_of_two_machines_are_two_runs_by_headings_or_a_repeated_cell():
    text = ("**NUC (i5-1135G7)**\n- sha256 @ 16 bytes: 512 MB/s\n- sha256 @ 8 KB: 2,010 MB/s\n\n"
            "**Pi 4**\n- sha256 @ 16 bytes: 41 MB/s\n- sha256 @ 8 KB: 98 MB/s\n\n"
            "- sha256 @ 16 bytes: 43 MB/s\n- sha256 @ 8 KB: 99 MB/s\n")
    import cipherlab
    df = cipherlab.ingest(text)
    assert df.groupby("run", sort=False).size().tolist() == [2, 2, 2]
    assert df.drop_duplicates("run")["label"].tolist()[:2] == ["NUC (i5-1135G7)", "Pi 4"]


@pytest.mark.parametrize("line", [
    "we got about 1.6 GB/s with aes-256-gcm at 8K on the laptop, which is odd",  # a sentence
    "- aes-128-gcm, 16-byte blocks: 712",  # a bare number: its unit is not known
    "- aes-128-gcm, 16-byte blocks: 712 MB/s (650 MB/s without AES-NI)",  # a remark's own value
    "* chacha20 @ 16 bytes / 64 bytes: 402.5 MB/s",  # two sizes
    "- aes-256-gcm, 16 bytes: 3,9 GB/s",  # a decimal comma: no value read
    "aes-256-gcm on the laptop: 1.6 GB/s at 8K",  # words beside the name: no longer name
    "sha256 (laptop) 16 bytes: 500 MB/s",
    "- AES-256-GCM: 3.6 GB/s (with AES-NI)",  # no block size in the row: its cell is untold
    "* chacha20-poly1305 = 2.1 GB/s",
])
def test_a_line_stating_a_cell_that_is_no_list_row_is_reported_never_read(line):
    text = f"Some results:\n\n{line}\n\n* sha1 @ 16 bytes: 612.5 MB/s\n"
    cells, said, _ = _read_list(text)
    assert [c[0] for c in cells] == ["sha1"]  # (the list row beside it is read)
    assert any("line(s) 3" in w for w in said), said


def test_list_rows_of_no_cipher_are_neither_read_nor_reported():
    """``memcpy`` or a disk in a list is no openssl data: no cell, no report; bare
    lines without a size are not list rows."""
    cells, said, error = _read_list("- memcpy, 16-byte blocks: 9.1 GB/s\n"
                                        "* nvme0n1 @ 128 KB: 3.2 GB/s\n"
                                        "we got about 1.6 GB/s at 8K on the laptop\n")
    assert cells == [] and said == [] and "no measurements found" in error


def test_list_rows_tagged_with_a_switched_feature_are_a_run_per_state(tmp_path):
    """A list of cells one a line, tagged "(AES-NI off)" / "(AES-NI on)": each state is a run
    with that condition; a cell without a tag is in neither state (never the last tag's)."""
    text = ("## Laptop\n\n- aes-128-gcm (AES-NI off), 16 bytes: 142 MB/s\n"
            "- aes-128-gcm (AES-NI on), 16 bytes: 742 MB/s\n"
            "- aes-256-gcm (AES-NI off), 16 bytes: 121 MB/s\n"
            "- aes-256-gcm (AES-NI on), 16 bytes: 650 MB/s\n- sha256, 16 bytes: 301 MB/s\n")
    df = _ingest(tmp_path, "list.md", text)
    assert df is not None and len(df) == 5 and set(df.label) == {"Laptop"}
    assert df.loc[df.algorithm == "sha256", "aesni"].isna().all()
    assert df.groupby("aesni", observed=True).run.nunique().tolist() == [1, 1]


@pytest.mark.parametrize("text, switched", [
    ("- aes-128-gcm w/o AES-NI, 16 bytes: 142 MB/s\n- aes-128-gcm w/o AES-NI, 8 KB: 402 MB/s\n",
     ("aesni", "off")),
    ("* AES-256-GCM with AES-NI: 4.1 GB/s at 16 KB\n* AES-256-GCM with AES-NI: 690 MB/s at 16 bytes\n",
     ("aesni", "on")),
    ("- sha256 without SHA-NI 1024 bytes 512 MB/s\n- sha256 without SHA-NI 16 bytes 98 MB/s\n",
     ("shani", "off")),
    ("- AES-128-GCM ohne AES-NI, 16 KB: 402 MB/s\n- AES-128-GCM ohne AES-NI, 1 KB: 377 MB/s\n",
     ("aesni", "off")),
    ("- aes-128-gcm AES-NI off, 16 bytes: 142 MB/s\n- aes-128-gcm AES-NI off, 8 KB: 402 MB/s\n",
     ("aesni", "off")),
])
def test_a_list_rows_switch_words_without_parentheses_are_its_condition(tmp_path, text, switched):
    """"w/o AES-NI", "with AES-NI", "without SHA-NI" in a list row say what "(AES-NI off)"
    says (one vocabulary, ``_names.switch``): the rows' condition, never a longer name."""
    df = _ingest(tmp_path, "list.md", f"## Laptop\n\n{text}")
    feature, state = switched
    assert df is not None and len(df) == 2 and df[feature].eq(state).all(), df
    assert df.name.str.fullmatch(r"(?i)aes-\d+-gcm|sha256").all()


def test_a_list_row_switching_two_features_is_reported(tmp_path):
    cells, said, _ = _read_list("Laptop:\n\n- aes-128-gcm with AES-NI, without AVX2, 16 bytes: 1.2 GB/s\n"
                                "- sha1 @ 16 bytes: 612.5 MB/s\n")
    assert [c[0] for c in cells] == ["sha1"] and any("line(s) 3" in w for w in said), said


@pytest.mark.parametrize("head, tail, want", [
    ("- aes-256-gcm, 16384 bytes:", "  3,912 MB/s", ("aes-256-gcm", 16384, 3.912e9)),
    ("* chacha20-poly1305 (16 KB blocks):", "2.1 GB/s", ("chacha20-poly1305", 16384, 2.1e9)),
    ("> - sha256 @ 1 KB:", ">   ~ 1,310 MB/s", ("sha256", 1024, 1.31e9)),
    ("- aes-128-gcm w/o AES-NI, 16 bytes:", "    142 MB/s", ("aes-128-gcm", 16, 1.42e8)),
])
def test_a_list_row_broken_before_its_value_is_one_row(head, tail, want):
    """A mail client (or the writer) put a list row's value on the next line: one cell, at
    the head's line, and the value alone is no label of the rows below."""
    cells, said, _ = _read_list(f"Laptop:\n\n{head}\n{tail}\n- sha1 @ 16 bytes: 612.5 MB/s\n")
    assert [c[0] for c in cells] == [want[0], "sha1"] and said == [], (cells, said)
    assert cells[0][2:4] == want[1:] or abs(cells[0][3] / want[2] - 1) < 1e-9
    assert {c[4] for c in cells} == {"Laptop"}


@pytest.mark.parametrize("head, tail", [
    ("- aes-256-gcm, 16384 bytes:", "  3912"),  # a bare number: its unit is not told
    ("- aes-256-gcm, 16384 bytes:", "\n  3,912 MB/s"),  # a blank between: its own value?
])
def test_a_broken_list_row_that_cannot_be_told_is_reported(head, tail):
    cells, said, _ = _read_list(f"Laptop:\n\n{head}\n{tail}\n- sha1 @ 16 bytes: 612.5 MB/s\n")
    assert [c[0] for c in cells] == ["sha1"] and {c[4] for c in cells} == {"Laptop"}
    assert any("2 line(s)" in w and "line(s) 3, " in w for w in said), said


def test_a_list_value_that_may_group_thousands_is_reported_never_read():
    """409: "5.412 MB/s" is 5412 MB/s in a German post, 5.412 MB/s in an English one: the line
    cannot tell (it was read as 5.412 MB/s, 1000x low); a plain value beside it is read."""
    cells, said, _ = _read_list("## Ergebnisse\n\n- AES-128-GCM mit AES-NI, 16 KB: 5.412 MB/s\n"
                                "- AES-128-GCM ohne AES-NI, 16 KB: 268 MB/s\n")
    assert [c[3] for c in cells] == [268e6] and any("line(s) 3" in w for w in said), said


def test_a_version_in_a_posts_environment_section_holds_for_each_switched_list_run(tmp_path):
    """A version stated under "## Testumgebung" is every run's below (as the document tables
    read it), the run of the list's second state too (it had none past the next heading)."""
    df = _ingest(tmp_path, "post.md", "## Testumgebung\n\n- Debian 12, OpenSSL 3.0.15\n\n## Ergebnisse\n\n"
                 "- AES-128-GCM mit AES-NI, 16 Byte: 684 MB/s\n- AES-128-GCM ohne AES-NI, 16 Byte: 97 MB/s\n")
    assert df is not None and df.run.nunique() == 2 and (df.tool_version == "3.0.15").all(), df


def test_a_remark_after_a_list_value_is_a_note_its_switch_the_cells_condition(tmp_path):
    """A remark in parentheses after a list row's value: the rate it compares with ("was 1.2
    GB/s before") is no value of the text's, its switch words ("with AES-NI") are the cell's
    condition, its other words a note; a remark stating a value of its own is reported."""
    text = ("## Xeon E-2288G\n\n- AES-128-GCM @ 16 KB: 4.1 GB/s (with AES-NI, was 1.2 GB/s before)\n"
            "- AES-256-GCM @ 16 KB: 3.6 GB/s (after the BIOS update)\n"
            "- ChaCha20-Poly1305 @ 16 KB: 1.9 GB/s (1.1 GB/s at 16 bytes)\n")
    cells, said, _ = _read_list(text)
    assert [c[:4] for c in cells] == [("aes-128-gcm", "encrypt", 16384, pytest.approx(4.1e9)),
                                      ("aes-256-gcm", "encrypt", 16384, pytest.approx(3.6e9))]
    assert any("1 line(s)" in w and "line(s) 5;" in w for w in said), said
    df = _ingest(tmp_path, "list.md", text).set_index("algorithm")
    assert df.loc["aes-128-gcm", "aesni"] == "on" and df.aesni.isna().tolist() == [False, True]


def test_a_sentence_restating_a_tables_cell_within_its_rounding_is_not_reported():
    """"about 3.9 GB/s" at 16 KB is the table's 3911.9 MB/s rounded: no new data, not reported;
    a rate no cell holds (5.1 GB/s) is, and so is one of another size than the cell's."""
    table = ("| cipher | 16 bytes | 16384 bytes |\n|---|---:|---:|\n"
             "| AES-256-GCM | 631.0 MB/s | 3911.9 MB/s |\n\n")
    for sentence, reported in [
            ("So AES-256-GCM reaches about 3.9 GB/s at 16 KB blocks.", False),
            ("AES-256-GCM does about 4 GB/s on big buffers, more than 6x its 631 MB/s.", False),
            ("A 7950X does aes-256-gcm at 16 KB with 5.1 GB/s, for comparison.", True),
            ("So AES-256-GCM reaches about 3.9 GB/s at 16 bytes.", True)]:
        cells, said, _ = _read_list(f"## Ryzen 7 5800X\n\n{table}{sentence}\n")
        assert len(cells) == 2 and any("line(s) 7" in w for w in said) == reported, (sentence, said)
