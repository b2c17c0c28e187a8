"""Spot tests of the fixes the user pastes of openssl's own output found (``tests/data/user/
terminal``, read whole in ``test_user_pastes.py``): each fix on its paste's shape and on a second
variant in another shape, through both engines (issue 12).
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)


# --- spot tests: each fix on its paste's shape and on a second variant in another shape -------
TABLE = ("type             16 bytes     64 bytes\n"
         "aes-128-cbc     412873.11k   441206.30k\n")


def _read(text: str):
    import warnings

    import cipherlab

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cipherlab.ingest(text)


def _runs(df, column: str) -> list:
    if column not in df:
        return [None] * df.run.nunique()
    return [None if v != v else v for v in df.groupby("run", observed=True)[column].first()]


def test_a_parenthesis_after_without_says_how_it_was_done():
    """'Without (OPENSSL_ia32cap=...)' ran with that mask (not a negated one), in a caption
    (001) and in a mail sentence; 'run without OPENSSL_ia32cap=...' still sets none."""
    df = _read(f"With AES-NI:\n\n{TABLE}\nWithout (OPENSSL_ia32cap=\"~0x200000000000000\"):\n\n{TABLE}")
    assert _runs(df, "isa_mask") == [None, "~0x200000000000000"]
    df = _read("> and the same box without AES-NI (OPENSSL_ia32cap=~0x200000200000000) gives\n>\n"
               + "".join(f"> {line}\n" for line in TABLE.splitlines()))
    assert _runs(df, "isa_mask") == ["~0x200000200000000"]
    df = _read(f"First run without OPENSSL_ia32cap=~0x200000200000000 set:\n\n{TABLE}")
    assert _runs(df, "isa_mask") == [None]


def test_a_model_ending_the_sentence_above_names_the_run():
    """'... on a 2620 v2 (AES-NI on):' (002) and a forum variant name the run; a place that is
    no model ('on the left:', 'on 4 cores:') names none."""
    text = f"That matches what I see on a 2620 v2 (AES-NI on):\n\n{TABLE}"
    assert _runs(_read(text), "label") == ["2620 v2"]
    assert _runs(_read(f"and this is what I get on the Rock 5B:\n[code]\n{TABLE}[/code]\n"),
                 "label") == ["Rock 5B"]
    for prose in ("It was slow on the left:", "I see the same again on 4 cores:"):
        assert _runs(_read(f"{prose}\n\n{TABLE}"), "label") == [None]


def test_terminal_and_forum_furniture_names_no_run():
    """A BBCode tag (005) and macOS's 'Last login:' banner (011) are no labels, in either
    paste's shape and in a second variant (a [quote] block, a Terminal.app session, whose
    prompt's host names the machine)."""
    assert _runs(_read(f"[code]\n{TABLE}[/code]\n"), "label") == [None]
    assert _runs(_read(f"[quote]\n[pre]\n{TABLE}[/pre]\n[/quote]\n"), "label") == [None]
    text = f"Last login: Mon Mar  4 08:01:12 on console\nbob@mini ~ % openssl speed aes-128-cbc\n{TABLE}"
    assert _runs(_read(text), "label") == ["mini"]


def test_a_public_key_row_repeated_in_one_block_opens_a_run_in_both_engines():
    """Two identical rows in a row are two records (a pasted repeat): the block reader
    opens the next run at the repeat, as the line path does (found by test_engines on 008)."""
    row = " 253 bits ecdh (X25519)   0.0000s  36745.6\n"
    df = _read("                              op      op/s\n" + row + row)
    assert df.run.nunique() == 2


def test_a_version_the_prose_above_states_is_the_runs_unless_it_prints_its_own():
    """'with openssl 1.1.1k' above headerless rows (003), 'LibreSSL 3.8.2' above a fenced table;
    the run's own header wins, and prose naming two versions gives none (it cannot tell)."""
    df = _read(f"I ran the benchmark with openssl 1.1.1k on the DS920+:\n\n{TABLE}")
    assert (_runs(df, "tool"), _runs(df, "tool_version")) == (["openssl"], ["1.1.1k"])
    assert "tool_version: version in the prose above" in df.rule.iloc[0]
    df = _read(f"OpenBSD 7.4 ships LibreSSL 3.8.2, so:\n```\n{TABLE}```\n")
    assert (_runs(df, "tool"), _runs(df, "tool_version")) == (["libressl"], ["3.8.2"])
    df = _read(f"Same box, openssl 1.1.1k:\n\nOpenSSL 3.0.2 15 Mar 2022\n{TABLE}")
    assert _runs(df, "tool_version") == ["3.0.2"]
    for prose in ("After the upgrade from 1.0.2u to OpenSSL 1.1.1k:",
                  "Built OpenSSL 1.0.2u first.\nThen OpenSSL 1.1.1k:"):
        assert _runs(_read(f"{prose}\n\n{TABLE}"), "tool_version") == [None]


def test_a_mail_part_that_says_it_is_quoted_printable_is_decoded_under_its_mime_headers():
    """The '=' of MIME header lines (charset="utf-8", 015; format=flowed and a soft-broken
    progress line here) shows nothing; an '=' of the body that starts no QP sequence still
    says the text is not QP."""
    mail = ("Content-Type: text/plain; charset=UTF-8; format=flowed\n"
            "Content-Transfer-Encoding: quoted-printable\n\n"
            "Doing sha256 for 3s on 16 size blocks: 22181207 sha256's in 3.00=\ns\n"
            "Jos=C3=A9\n")
    df = _read(mail)
    assert (df.algorithm.tolist(), df["count"].tolist(), df.line.tolist()) == (["sha256"], [22181207], [4])
    from cipherlab.errors import IngestError

    with pytest.raises(IngestError, match="no measurements"):
        _read(mail.replace("Jos=C3=A9", "a = b"))


def test_a_chat_logs_time_stamps_and_nicks_are_a_shared_prefix():
    """'[14:02] <mk> ' before each line (006), whoever speaks, and another client's
    '14:02:11 <@mk> ' before progress lines: read as the lines behind them."""
    log = "".join(f"14:02:{10 + k} <@mk> {line}\n" for k, line in enumerate([
        "Doing md5 for 3s on 16 size blocks: 1247611 md5's in 3.00s",
        "Doing md5 for 3s on 64 size blocks: 905126 md5's in 3.00s",
        "Doing md5 for 3s on 256 size blocks: 452021 md5's in 2.99s"]))
    df = _read(log + "14:03:01 <jo> thanks\n")
    assert df["count"].tolist() == [1247611, 905126, 452021] and df.line.tolist() == [1, 2, 3]


def test_a_short_line_of_another_programs_code_block_is_no_caption():
    """sysbench's 'Latency (ms):' in a fenced block of its own above a fenced run (023), and
    fio's 'Run status group 0 (all jobs):' in a ~~~ block, are no labels; a caption outside
    the blocks still is (above both, it names the machine of both), and a comment in a
    command's block still names the run below."""
    sysbench = "```\n$ sysbench cpu run\nLatency (ms):\n         min:      0.33\n```\n"
    assert _runs(_read(f"{sysbench}\n```\n{TABLE}```\n"), "label") == [None]
    fio = "~~~\nRun status group 0 (all jobs):\n   READ: bw=112MiB/s\n~~~\n"
    assert _runs(_read(f"{fio}\n~~~\n{TABLE}~~~\n"), "label") == [None]
    assert _runs(_read(f"Pi 5 (NVMe hat):\n\n{fio}\n~~~\n{TABLE}~~~\n"), "label") == ["Pi 5 (NVMe hat)"]
    assert _runs(_read(f"{fio}\nPi 5 (NVMe hat):\n~~~\n{TABLE}~~~\n"), "label") == ["Pi 5 (NVMe hat)"]
    assert _runs(_read(f"```bash\n# Signature\n```\n\n```\n{TABLE}```\n"), "label") == ["Signature"]


def test_what_time_prints_beside_a_run_is_no_measurement():
    """What ``time`` prints after a run is read as nothing and reported as nothing: bash's
    ``real\\t0m18.127s`` lines (012, TAB-separated), the one line of zsh (macOS's shell), BSD's
    and tcsh's. Durations are no throughputs."""
    import warnings

    import cipherlab

    for tail in ("real\t0m18.127s\nuser\t0m18.004s\nsys\t0m0.092s\n",
                 "real\t1m2.5s\nuser\t1m1.9s\nsys\t0m0.4s\n",
                 "openssl speed -evp aes-128-cbc  18.00s user 0.09s system 99% cpu 18.127 total\n",
                 "       18.12 real        18.00 user         0.09 sys\n",
                 "18.004u 0.092s 0:18.12 99.8%\t0+0k 0+0io 0pf+0w\n"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            df = cipherlab.ingest(f"$ time openssl speed -evp aes-128-cbc\n{TABLE}\n{tail}")
        assert len(df) == 2 and set(df.algorithm) == {"aes-128-cbc"}
        assert not [w for w in caught if "not placed" in str(w.message)], tail


def test_the_tags_after_a_heading_are_no_part_of_its_label():
    """An org-mode heading's tags (116: ``* Benchmark notes   :crypto:``) and GitHub's emoji
    codes after a Markdown heading leave the label; a colon inside a name stays."""
    assert _runs(_read(f"* Rock 5B   :arm:bench:\n\n{TABLE}"), "label") == ["Rock 5B"]
    assert _runs(_read(f"### Pi 5 results :rocket: :tada:\n\n{TABLE}"), "label") == ["Pi 5 results"]
    assert _runs(_read(f"### node:a1\n\n{TABLE}"), "label") == ["node:a1"]


def test_rows_whose_spaces_became_tabs_are_no_document_table():
    """Two rows of openssl's table whose runs of spaces an editor turned into TABs (the header
    kept its spaces) are openssl's rows, not a TAB table with a row of values for a header
    (which gave a 'ghash' cell with the label '1091439.55k')."""
    for rows in ("ghash\t  1091439.55k\nrand\t     29063.31k\n",
                 "md5\t\t104596.14k\t337042.66k\nsha1\t\t123784.94k\t381937.06k\n"):
        two = "md5" in rows
        head = "type             16 bytes" + ("     64 bytes" if two else "")
        df = _read(f"{head}\nmd4                  0.00 {'        0.00 ' if two else ''}\n{rows}")
        assert df.dialect.astype(str).unique().tolist() == ["text"]
        assert df.label.isna().all() and len(df) == (3 if "ghash" in rows else 6)


def test_a_column_whose_cells_ran_into_the_row_names_is_reported_not_named():
    """A TAB-separated copy of a table with an ``AES-NI Enabled`` column, its TABs turned into
    single spaces, gives rows ``aes-128-cbc Yes 522138.77k ...``: reported (no algorithm
    ``aes-128-cbc-yes`` is made up), with a ``type`` header above or none."""
    import cipherlab

    rows = ("aes-128-cbc Yes 522138.77k 556844.12k 565751.21k 568527.19k 569161.05k\n"
            "aes-128-cbc no 251155.07k 281797.40k 288457.39k 293490.01k 293360.98k\n")
    for head in ("Cipher AES-NI Enabled 16 bytes 64 bytes 256 bytes 1024 bytes 8192 bytes\n",
                 "type 16 bytes 64 bytes 256 bytes 1024 bytes 8192 bytes\n"):
        with pytest.raises(cipherlab.errors.IngestError, match="look like measurements"):
            cipherlab.ingest(f"OpenSSL 1.0.1f on an r3.xlarge:\n\n{head}{rows}")
    df = _read(f"type 16 bytes 64 bytes 256 bytes 1024 bytes 8192 bytes\n{rows}"
               "md5 1.00k 2.00k 3.00k 4.00k 5.00k\n")
    assert set(df.algorithm) == {"md5"}


def test_bssl_lines_a_mail_client_wrapped_are_rejoined_or_reported():
    """``bssl speed`` lines wrapped before ``ops/sec)`` (a mail client at 72 columns: 006's
    text re-wrapped) are rejoined into their records, in one run; a ``Did`` record cut short
    for good is reported, not dropped; a sentence starting with "Did" is neither."""
    import warnings

    import cipherlab

    text = ("```\nDid 1428 RSA 2048 signing operations in 1015147us (1406.7 ops/sec)\n"
            "Did 40000 RSA 2048 verify (same key) operations in 1006660us (39735.4\nops/sec)\n"
            "Did 6743 Ed25519 signing operations in 1051044us (6415.5 ops/sec)\n```\n")
    df = _read(text)
    assert sorted(zip(df.algorithm, df.operation, df.line)) == [
        ("ed25519", "sign", 5), ("rsa2048", "sign", 2), ("rsa2048", "verify", 3)]
    assert df.run.nunique() == 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest(text.replace("\nops/sec)\n", "\n\nops/sec)\n") +
                              "Did 3 runs of it on the Pi, same result.\n")
    assert len(df) == 2 and [str(w.message) for w in caught if "not placed" in str(w.message)]


def test_a_multi_childs_record_wrapped_by_a_mail_client_is_rejoined():
    """``Got: +F:...`` lines are long: a mail client breaks them after ``Got:``, before
    ``from N``, even inside the record (033's and 055's texts re-wrapped at 72 columns).
    Rejoined, each is its child's share, never a record of the parent's own."""
    rec = "+F:6:sha256:96420105.60:280084364.80:844757862.40:1438773452.80:1751180902.40:1798779699.20"
    cut = rec.replace("sha256:", "sha\n256:")  # (broken inside the record, as 055's text was)
    for got in (f"Got:\n{rec}\nfrom 11\n", f"Got: {rec}\nfrom 11\n", f"Got: {rec} from 11\n",
                f"Got: {cut}\nfrom 11\n"):
        df = _read(f"Forked child 11\nGot: +H:16:64:256:1024:8192:16384 from 11\n{got}")
        assert len(df) == 6 and set(df.flag) == {"child process"} and set(df.child) == {11}, got


def test_a_wrapped_35_rsa_table_is_read_whole():
    """openssl 3.5's eight-column RSA table wrapped by a mail client (011's fixture re-wrapped
    at 72 columns): the header's tail (``encr./s  decr./s``, whose dot had hidden the whole
    header) and each row's last rates are rejoined; values left over under a public-key row
    are reported, never dropped."""
    import warnings

    import cipherlab

    head = "                   sign    verify    encrypt   decrypt   sign/s verify/s"
    row = "rsa  4096 bits 0.000987s 0.000041s 0.000042s 0.000987s   1013.3  24544.8"
    want = [("decrypt", 1013.6), ("encrypt", 23868.2), ("sign", 1013.3), ("verify", 24544.8)]
    for text in (f"{head}\nencr./s  decr./s\n{row}\n23868.2   1013.6\n",
                 f"{head}  encr./s  decr./s\n{row}\n23868.2   1013.6\n",
                 f"{head}\nencr./s  decr./s\n{row}  23868.2   1013.6\n"):
        df = _read(text)
        assert sorted(zip(df.operation, df.ops_per_s)) == want, text
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest("                  sign    verify    sign/s verify/s\n"
                              "rsa 4096 bits 0.004185s 0.000065s    239.0  15384.6\n"
                              "23868.2   1013.6\n")
    assert len(df) == 2 and any("not placed" in str(w.message) for w in caught)


def test_the_pieces_of_lines_a_mail_client_wrapped_name_no_run():
    """The last piece of a wrapped sentence (``... significantly improve`` / ``performance.``),
    of a wrapped parenthesis (``(from``), of wrapped program output (``uname -a``'s ``unknown
    GNU/Linux``) and a unit alone (``MB/s:``) are no labels, above a text table and above a
    Markdown table (the real pastes 005, 006, 043 and 114 re-wrapped at 72 columns); a caption
    after a wrapped sentence still is."""
    md = "| cipher | 16 bytes | 64 bytes |\n|---|---|---|\n| aes-128-cbc | 1.00k | 2.00k |\n"
    for prose in ("I test sslsplit on the new platform. It should be significantly improve\n"
                  "performance.\nI don't know why. Please help check it.\n",
                  "### openssl\n(from\nhttps://openquantumsafe.org/benchmarking/openssl_speed.html)\n",
                  "Linux 5.15.72-v7l+ #1591 SMP Wed Oct 5 12:05:33 BST 2022 armv7l unknown\n"
                  "unknown GNU/Linux\n",
                  "Five runs each with a wrapper script, OpenSSL 3.3.0 on a Xeon E5-2680 v4.\nMB/s:\n"):
        want = ["openssl"] if prose.startswith("###") else [None]
        assert _runs(_read(f"{prose}\n{TABLE}"), "label") == want, prose
        assert _runs(_read(f"{prose}\n{md}"), "label") == want, prose
    text = ("We ran everything three times on each machine and kept the fastest run of\n"
            "each.\n\nRaspberry Pi 5:\n\n")
    assert _runs(_read(text + TABLE), "label") == ["Raspberry Pi 5"]


def test_openssl_tab_rows_behind_a_log_stamp_are_the_text_parsers():
    """openssl's table with TABs between its columns, behind ``ts``'s time stamp on every line
    (logs/006 with its spaces turned into TABs), is openssl's text, not a TAB document table
    whose row names hold the stamp (it gave the algorithm 'mar-04-05:06:16-sha256')."""
    text = ("$ openssl speed -seconds 1 -bytes 1048576 -evp sha256 2>&1 | ts\n"
            "Mar 04 05:06:15 version: 3.0.19\n"
            "Mar 04 05:06:16 The 'numbers' are in 1000s of bytes per second processed.\n"
            "Mar 04 05:06:16 type\t1048576 bytes\nMar 04 05:06:16 sha256\t 1867513.86k\n")
    df = _read(text)
    assert list(zip(df.algorithm, df.block_bytes, df.bytes_per_s)) == [("sha256", 1048576, 1867513860.0)]


def test_a_machine_a_sentence_names_with_its_cpu_names_the_run():
    """``... on the ThinkPad X13 (Ryzen 5 PRO 4650U), results in KiB/s.`` (116's document table,
    under an org heading that names no machine; here above openssl's table) and ``Tested on my Dell R640 (2x Xeon Gold 6130):`` name the
    run below them; a sentence naming two machines names neither."""
    for prose, want in (("Numbers of OpenSSL 3.4.0 on the ThinkPad X13 (Ryzen 5 PRO 4650U), in 1000s.",
                         "ThinkPad X13 (Ryzen 5 PRO 4650U)"),
                        ("Tested on my Dell R640 (2x Xeon Gold 6130):", "Dell R640 (2x Xeon Gold 6130)"),
                        ("I ran it on the Pi 4 (Cortex-A72) and on the Rock 5B (Cortex-A76).", None)):
        assert _runs(_read(f"* Benchmark notes   :crypto:\n{prose}\n\n{TABLE}"), "label") == \
            [want or "Benchmark notes"], prose


def test_a_bug_reports_section_heading_names_no_run():
    """An issue's section heading that says what the reporter sees (notebooks/206's ``### What
    I see``, ``## What we got``) names what the part of the report is, never a run."""
    for heading in ("### What I see", "## What we got", "### Actual behaviour"):
        assert _runs(_read(f"{heading}\n\n```\n{TABLE}```\n"), "label") == [None], heading
    assert _runs(_read(f"### Pi 5\n\n```\n{TABLE}```\n"), "label") == ["Pi 5"]


def test_a_grid_of_public_key_operations_whose_algorithm_is_unclear_is_reported():
    """Columns of sign/verify (or keygen/encaps/decaps) under a title naming a curve family by
    its size only ("ecdsa 384": P-384 or brainpoolP384r1?): no cell, and the row is reported
    (it was dropped without a word; documents/119's "ecdsa 256")."""
    import warnings

    import cipherlab
    from cipherlab.errors import IngestError
    text = ("Benchmarks on the Altra (OpenSSL 3.2.2).\n\n### ecdsa 384\n\n"
            "| sign/s | verify/s |\n|---|---|\n| 4512.3 | 1320.7 |\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(IngestError) as err:
            cipherlab.ingest(text)
    assert [n for n, _ in err.value.unplaced] == [7]


def test_an_elapsed_notice_above_the_records_of_the_table_before_it_is_that_runs():
    """stdout then stderr (``cmd >out 2>err; cat out err``, ansible): the notice comes after
    the table, the records of that table after it: the notice is that run's (logs/021's shape,
    here with a second run below that stays CPU-timed)."""
    text = ("out and err of the first run, cat one after the other:\n\n"
            "type             64 bytes\nsha1     256000.00k\n"
            "You have chosen to measure elapsed time instead of user CPU time.\n"
            "Doing sha1 for 1s on 64 size blocks: 4000000 sha1's in 1.00s\n\n"
            "and with CPU time:\n\ntype             64 bytes\nsha1     251000.00k\n")
    df = _read(text)
    assert df.run.nunique() == 2 and _runs(df, "timing") == ["elapsed", None]


def test_a_command_quoted_for_ssh_is_read():
    import cipherlab.readers._text as T
    got = T.parse_prompt('ops@jump:~$ ssh -J bastion pi@pi5.lan "openssl speed -elapsed -multi 4 rsa2048"')
    assert got["timing"] == "elapsed" and got["multi"] == 4 and got["args"][-1] == "rsa2048"


def test_an_elapsed_notice_before_records_of_a_table_above_is_that_tables_run():
    """``cat out1 out2 err1 err2``: both tables, then the first run's stderr (the notice and its
    records), then the second's records: the notice is the first run's, not the second's."""
    text = ("type             64 bytes\nsha1     256000.00k\n"
            "type             64 bytes\nmd5      512000.00k\n"
            "You have chosen to measure elapsed time instead of user CPU time.\n"
            "Doing sha1 for 1s on 64 size blocks: 4000000 sha1's in 1.00s\n"
            "Doing md5 for 1s on 64 size blocks: 8000000 md5's in 1.00s\n")
    df = _read(text)
    assert df.run.nunique() == 2 and _runs(df, "timing") == ["elapsed", "cpu"]


def test_hyperfines_summary_is_its_timing_no_data_and_each_shown_run_is_a_run():
    import warnings

    import cipherlab

    text = ("$ hyperfine -N --runs 2 --show-output 'openssl speed -seconds 1 -evp aes-128-cbc'\n"
            "Benchmark 1: openssl speed -seconds 1 -evp aes-128-cbc\n"
            f"version: 3.3.1\n{TABLE}version: 3.3.1\n{TABLE.replace('412873.11k', '409921.70k')}"
            "  Time (mean \u00b1 \u03c3):      2.004 s \u00b1  0.002 s    [User: 1.998 s, System: 0.003 s]\n"
            "  Range (min \u2026 max):    2.003 s \u2026  2.006 s    2 runs\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (hyperfine's lines are no unplaced data)
        df = cipherlab.ingest(text)
    assert df.groupby("run").bytes_per_s.first().tolist() == [412873110.0, 409921700.0]


def test_a_testmode_runs_figures_are_flagged_and_another_run_is_not():
    """terminal/042: ``openssl speed -testmode`` runs each test once to check that it works;
    its figures were read as measurements. Here a 3.4 RSA table and a -mr run's records."""
    import cipherlab
    text = ("root@ci:/# openssl speed -testmode rsa2048\n"
            "Doing 2048 bits private rsa sign ops for 10s: 1 2048 bits private RSA sign ops in 0.00s\n"
            "Doing 2048 bits public rsa verify ops for 10s: 1 2048 bits public RSA verify ops in 0.00s\n"
            "version: 3.4.1\n"
            "                   sign    verify    encrypt   decrypt   sign/s verify/s  encr./s  decr./s\n"
            "rsa 2048 bits 0.000812s 0.000031s 0.000030s 0.000801s   1231.5  32258.1  33333.3   1248.4\n"
            "root@ci:/# openssl speed -testmode -mr -seconds 1 md5\n+DT:md5:1:16\n+R:1:md5:0.00\n"
            "+H:16\n+F:0:md5:1600.00\n"
            "root@ci:/# openssl speed -mr -seconds 1 md5\n+DT:md5:1:16\n+R:9123456:md5:1.00\n"
            "+H:16\n+F:0:md5:145975296.00\n")
    with pytest.warns(UserWarning, match="line 1: openssl speed -testmode runs each test once"):
        df = cipherlab.ingest(text)
    flagged = df.groupby("run", observed=True).flag.agg(lambda f: f.notna().all()).tolist()
    assert flagged == [True, True, False] and len(df[df.run == 0]) == 4
    assert df.loc[df.run == 2, "bytes_per_s"].tolist() == [145975296.0]


def test_the_output_of_a_command_that_runs_no_speed_names_no_run():
    """terminal/043: Termux's ``pkg install`` output ('Setting up openssl-tool (3.3.2) ...')
    named the runs below it. Here BusyBox's ``/ #`` prompt and apk's last line; a caption
    after a blank line still names its run."""
    text = ("/ # apk add openssl\n(1/1) Installing openssl (3.3.2-r1)\nOK: 9 MiB in 16 packages\n"
            "/ # openssl speed -bytes 16 aes-128-cbc\n" + TABLE.replace("     64 bytes", "").replace(
                "   441206.30k", "") + "\nRouter B:\n\n/ # openssl speed -bytes 16 aes-128-cbc\n" +
            TABLE.replace("     64 bytes", "").replace("   441206.30k", ""))
    assert _runs(_read(text), "label") == [None, "Router B"]
    # (output that names a CPU is the machine's own words: lscpu's model line still names it)
    lscpu = ("$ lscpu | grep 'Model name'\nModel name:   AMD EPYC 7763 64-Core Processor\n" +
             text[text.index("/ # openssl"):])
    assert _runs(_read(lscpu), "cpu")[0] == "AMD EPYC 7763 64-Core Processor"
    brew = ("me@mbp ~ % brew install openssl@3\n==> Pouring openssl@3--3.4.0.arm64_sonoma.bottle.tar.gz\n"
            "\U0001f37a  /opt/homebrew/Cellar/openssl@3/3.4.0: 7,236 files, 33.4MB\n" +
            text[text.index("/ # openssl"):])  # (zsh's prompt: brew's last line named the run)
    assert _runs(_read(brew), "label")[0] is None


AES = ("The 'numbers' are in 1000s of bytes per second processed.\n"
       "type             16 bytes     64 bytes\n"
       "AES-128-GCM      {0}k   {1}k\n")


def test_what_changes_the_provider_is_a_condition_of_the_run():
    """`-provider` given twice loads both (046); OPENSSL_CONF/OPENSSL_FIPS/OPENSSL_MODULES before
    the command, exported for the shell's later commands (047) until unset, or in a runner's
    `-e` are conditions named by the variable, on its own runs only."""
    df = _read("$ openssl speed -provider default -provider legacy -evp aes-128-gcm\n"
               + AES.format("1.00", "2.00"))
    assert _runs(df, "provider") == ["default,legacy"]
    df = _read("$ OPENSSL_MODULES=/opt/o/lib64/ossl-modules openssl speed -provider fips -evp aes-128-gcm\n"
               + AES.format("1.00", "2.00"))
    assert _runs(df, "openssl_modules") == ["/opt/o/lib64/ossl-modules"]
    assert _runs(df, "provider") == ["fips"]
    prompt = "[me@el8 ~]$ openssl speed -evp aes-128-gcm\n"
    df = _read("[me@el8 ~]$ setenv OPENSSL_CONF /etc/ssl/fips.cnf\n" + prompt + AES.format("1.00", "2.00")
               + prompt + AES.format("1.10", "2.10") + "[me@el8 ~]$ unsetenv OPENSSL_CONF\n"
               + prompt + AES.format("1.20", "2.20"))
    assert _runs(df, "openssl_conf") == ["/etc/ssl/fips.cnf", "/etc/ssl/fips.cnf", None]
    df = _read("$ export OPENSSL_FIPS=1 && openssl speed -evp aes-128-gcm\n" + AES.format("1.00", "2.00")
               + "$ openssl speed -evp aes-128-gcm\n" + AES.format("1.10", "2.10"))
    assert _runs(df, "openssl_fips") == ["1", "1"]
    df = _read("$ podman run --rm --env=OPENSSL_CONF=/etc/ssl/fips.cnf img sh -c 'openssl speed "
               "-evp aes-128-gcm'\n" + AES.format("1.00", "2.00"))
    assert _runs(df, "openssl_conf") == ["/etc/ssl/fips.cnf"]
    # another user's shell did not export it
    df = _read("[a@el8 ~]$ export OPENSSL_FIPS=1\n[b@el9 ~]$ openssl speed -evp aes-128-gcm\n"
               + AES.format("1.00", "2.00"))
    assert _runs(df, "openssl_fips") == [None]


def test_a_stated_fips_mode_is_a_condition_and_a_mention_is_none():
    """A sentence stating the system's FIPS mode binds it to the run below (`fips`), RHEL's
    switches (`fips-mode-setup --enable`, `update-crypto-policies --set FIPS`) to the shell's
    later runs; a sentence that merely names FIPS sets nothing."""
    df = _read("With FIPS mode enabled (fips=1 on the kernel command line):\n\n" + AES.format("1.00", "2.00")
               + "\nand without FIPS:\n\n" + AES.format("1.10", "2.10"))
    assert _runs(df, "fips") == ["on", "off"]
    df = _read("# update-crypto-policies --set FIPS\nSetting system policy to FIPS\n"
               "# openssl speed -evp aes-128-gcm\n" + AES.format("1.00", "2.00")
               + "# openssl speed -evp aes-128-gcm\n" + AES.format("1.10", "2.10"))
    assert _runs(df, "crypto_policy") == ["FIPS", "FIPS"]
    for prose in ("The FIPS 140-3 validated module is slower, see below.",
                  "If FIPS mode is enabled, the numbers drop:"):
        assert "fips" not in _read(f"{prose}\n\n" + AES.format("1.00", "2.00"))


def test_fips_and_default_provider_runs_are_never_pooled():
    """Runs of one machine with and without `-provider fips` (and with AES-NI on and off) are
    two settings: speedup compares AES-NI within each, never pooling them as replicates."""
    import warnings

    from cipherlab import stats

    mask = "OPENSSL_ia32cap='~0x200000200000000' "
    text = "".join(f"[me@el9 ~]$ {m}openssl speed {p}-evp aes-128-gcm\n" + AES.format(a, b)
                   for m, p, a, b in [("", "", "400000.00", "900000.00"),
                                      (mask, "", "100000.00", "120000.00"),
                                      ("", "-provider fips ", "300000.00", "800000.00"),
                                      (mask, "-provider fips ", "90000.00", "100000.00")])
    df = _read(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = stats.speedup(df)
    assert "provider" in result
    assert sorted(result["provider"].astype("object").fillna("").unique()) == ["", "fips"]
    assert (result["n_candidate"] == 1).all() and (result["n_baseline"] == 1).all()
    fips = result[result["provider"].eq("fips") & result["block_bytes"].eq(16)]
    assert fips["ratio"].round(3).tolist() == [round(300000 / 90000, 3)]


def test_a_multi_childs_line_after_its_parents_table_is_the_next_runs():
    """The parent prints every child's `Got:` line before its header and table (033's second
    fixture, and two `-multi 2` dumps back to back, their `Forked child` lines not pasted): a
    child's line after a table opens the next run, which keeps its children, its table and
    their block sizes (before, the second table was lost)."""
    def dump(name, shares, total):
        got = "".join(f"Got: +H:64 from {c}\nGot: +F:3:{name}:{v} from {c}\n"
                      for c, v in enumerate(shares))
        return (f"{got}version: 3.0.22\n"
                f"CPUINFO: OPENSSL_ia32cap=0xfffa3203078bffff:0x405fc6f1bf07ab\n{name:<16}{total}k\n")
    df = _read(dump("md5", ["37497408.00", "39176384.00"], "76673.79")
               + dump("sha1", ["68291456.00", "69259712.00"], "137551.17"))
    child = df["flag"].eq("child process")
    assert df[child].groupby("run", observed=True)["algorithm"].agg(set).tolist() == [{"md5"}, {"sha1"}]
    assert df[~child].groupby("run", observed=True)["algorithm"].agg(list).tolist() == [["md5"], ["sha1"]]
    assert set(df["block_bytes"]) == {64} and _runs(df, "multi") == [2, 2]


def test_a_loop_inside_sh_c_binds_nothing_and_a_shown_files_captions_name_runs():
    """049: `nohup sh -c 'for ...; do ...; done'` is a loop (its `-provider fips` was given to
    the first run only), and the output of `cat nohup.out` is openssl's, its echoed captions
    naming the runs; `apk add`'s output still names none (test above), nor a filtered `cat`."""
    loop = ("$ nohup sh -c 'for p in fips default; do echo \"== $p\"; openssl speed -provider $p "
            "-evp aes-128-gcm; done' > nohup.out 2>&1 &\n")
    runs = "".join(f"== {p}\n" + AES.format(a, b) for p, a, b in
                   [("fips", "1.00", "2.00"), ("default", "1.10", "2.10")])
    df = _read(loop + "$ cat nohup.out\n" + runs)
    assert _runs(df, "label") == ["fips", "default"]
    assert _runs(df, "provider") == [None, None]
    df = _read("$ cat bench.log | grep -v '^+'\nsome header\n" + AES.format("1.00", "2.00"))
    assert _runs(df, "label") == [None]


def test_a_ci_steps_environment_listing_is_its_runs_condition():
    """logs/037: GitHub Actions lists a step's `env:` under its command; OPENSSL_CONF there is
    a condition and a capability variable the mask of that step's run only; a sentence that
    names the variable states nothing."""
    step = ("##[group]Run openssl speed -evp aes-128-gcm\nopenssl speed -evp aes-128-gcm\n"
            "shell: /usr/bin/bash -e {{0}}\n{0}##[endgroup]\n")
    text = "".join(step.format(env) + AES.format(a, b) for env, a, b in [
        ("env:\n  OPENSSL_CONF: /etc/ssl/fips.cnf\n", "1.00", "2.00"),
        ("env:\n  OPENSSL_ia32cap: '~0x200000200000000'\n", "1.10", "2.10"), ("", "1.20", "2.20")])
    df = _read(text)
    assert _runs(df, "openssl_conf") == ["/etc/ssl/fips.cnf", None, None]
    assert _runs(df, "isa_mask") == [None, "~0x200000200000000", None]
    df = _read("OPENSSL_CONF: names the config file to load.\n\n" + AES.format("1.00", "2.00"))
    assert "openssl_conf" not in df


def test_lines_a_terminals_width_cut_inside_a_word_are_rejoined_or_reported():
    """050: a terminal's width cuts a `type` header inside a size and a row inside a value or
    before its `k`; the pieces are rejoined. A row whose cut cannot be mended is reported,
    never read with a value lost (a cut number was taken for a page number)."""
    header = "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes"
    row = "AES-128-GCM      39704.74k   142841.27k   602285.29k  1569794.56k  2591570.71k  4057302.55k"
    whole = _read(f"{header}\n{row}\n")["bytes_per_s"].tolist()
    for width in (66, 70, 75, 80, 85, 90):
        text = "".join(f"{line[k:k + width].rstrip()}\n" for line in (header, row)
                       for k in range(0, len(line), width))
        try:
            got = _read(text)
        except ValueError:  # (IngestError: nothing placed, the lines reported)
            continue
        assert got["bytes_per_s"].tolist() == whole, width
    cut = f"{header[:79]}\n{header[79:]}\n{row[:90]}\n{row[90:]}\n"  # (before the last k)
    assert _read(cut)["bytes_per_s"].tolist() == whole
    with pytest.raises(ValueError, match="line 2"):  # (inside the last value: reported)
        _read(f"{header}\n{row[:86]}\n{row[86:]}\n")


def test_a_version_then_a_board_above_a_run_is_its_version_and_its_label():
    """051: ``OpenSSL 3.1.4 on the Pi 5:`` was read as openssl's own version line (no label;
    under a prompt, no version either). It is prose: the run ran 3.1.4 on the Pi 5, above a
    text table or a Markdown one. openssl's own lines (a date, a dev build's ``xx XXX xxxx``,
    ``FIPS``) are still its version lines, no label."""
    md = "| cipher | 16 bytes |\n|---|---|\n| aes-128-cbc | 412873.11k |\n"
    for below in (TABLE, f"```\n$ openssl speed -evp aes-128-cbc\n{TABLE}```\n", md):
        df = _read(f"OpenSSL 3.1.4 on the Pi 5:\n\n{below}")
        assert (_runs(df, "label"), _runs(df, "tool_version")) == (["Pi 5"], ["3.1.4"]), below
    for line, version in (("OpenSSL 1.1.1w  11 Sep 2023", "1.1.1w"),
                          ("OpenSSL 1.1.1-dev  xx XXX xxxx", "1.1.1-dev"),
                          ("OpenSSL 1.1.1k  FIPS 25 Mar 2021", "1.1.1k")):
        df = _read(f"{line}\n{TABLE}")
        assert (_runs(df, "label"), _runs(df, "tool_version")) == ([None], [version])


def test_a_version_the_prose_states_above_runs_is_each_ones_until_the_text_says_otherwise():
    """052: "Tested with OpenSSL 1.1.1w" above two prompted runs: both ran it (the second had
    none). A run's own version line wins for that run; a heading ends the scope of a version
    stated in its section (as the document tables read it), and so do a line naming versions it
    cannot tell apart and another post's byline."""
    run = f"$ openssl speed -evp aes-128-cbc\n{TABLE}"
    assert _runs(_read(f"Tested with OpenSSL 1.1.1w\n\n{run}{run}"), "tool_version") == ["1.1.1w"] * 2
    own = run.replace("\ntype", "\nversion: 3.0.13\ntype")  # (its header block's version line)
    df = _read(f"Tested with OpenSSL 1.1.1w\n\n{run}{own}{run}")
    assert _runs(df, "tool_version") == ["1.1.1w", "3.0.13", "1.1.1w"]
    df = _read(f"## Box A\n\nwith openssl 1.1.1k:\n\n{run}\n## Box B\n\n{run}")
    assert _runs(df, "tool_version") == ["1.1.1k", None]
    for between in ("After the upgrade from 1.1.1w to 3.0.13:", "Then with 3.0.13:",
                    "alice \u00b7 comment \u00b7 2024-01-02"):
        df = _read(f"Tested with OpenSSL 1.1.1w:\n\n{run}\n{between}\n\n{run}")
        assert _runs(df, "tool_version") == ["1.1.1w", None], between


def test_a_root_prompt_running_a_versioned_binary_is_a_prompt_never_a_label():
    """053: ``# openssl11 speed -elapsed ...`` (EPEL's binaries beside the system's openssl:
    ``openssl11``, ``openssl3``) was a caption naming the run, its options lost; it is a prompt
    like ``# openssl speed``, in a plain paste and in a code fence; a Markdown heading outside a
    fence still names the runs under it."""
    for binary in ("openssl11", "openssl3", "/usr/bin/openssl3"):
        for text in (f"# {binary} speed -multi 2 -evp aes-128-cbc\n{TABLE}",
                     f"```\n# OPENSSL_ia32cap=~0x200000200000000 {binary} speed -multi 2 -evp aes-128-cbc\n"
                     f"{TABLE}```\n"):
            df = _read(text)
            assert (_runs(df, "label"), _runs(df, "multi")) == ([None], [2]), text
    df = _read(f"# Results on my laptop\n\n```\n# openssl3 speed -evp aes-128-cbc\n{TABLE}```\n")
    assert _runs(df, "label") == ["laptop"]  # (the title's machine: "Results on my laptop")


def test_a_gutters_line_wrapped_onto_unnumbered_lines_is_still_a_gutter():
    """054: a code viewer's ` 1 | ` gutter, the text re-wrapped at 72 columns: each long line's
    tail is on lines of its own, without a number, and the gutter was not seen (the row read as
    `15-|-aes-128-ctr`, silently). Numbers that count up by one with such tails between them
    are a gutter; here `cat -n`'s (number, TAB) and a `12  ` gutter, with a `compiler:` line
    wrapped over several lines. A number before a name that the gutter pass cannot take (too
    few lines) makes the row no row, reported: never `9-aes-128-ctr`."""
    import warnings

    import cipherlab

    body = ["$ openssl speed -evp aes-128-cbc", "version: 3.0.13",
            "compiler: gcc -fPIC -pthread -m64 -Wa,--noexecstack\n-Wall -O3 -DOPENSSL_USE_NODELETE\n"
            "-DL_ENDIAN -DOPENSSL_PIC -DNDEBUG", "type             16 bytes     64 bytes\n256 bytes",
            "aes-128-cbc     412873.11k   441206.30k\n449013.20k"]
    for gutter in ("{:6d}\t", "{:<4d}", "{:3d} | "):
        text = "\n".join(gutter.format(n) + line for n, line in enumerate(body, 7)) + "\n"
        df = _read(text)
        assert sorted(df.block_bytes) == [16, 64, 256] and set(df.algorithm) == {"aes-128-cbc"}, text
        assert _runs(df, "tool_version") == ["3.0.13"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest(f"{TABLE}9  aes-128-cbc     412873.11k   441206.30k\n")
    assert list(df.algorithm) == ["aes-128-cbc"] * 2 and any("not placed" in str(w.message) for w in caught)


def test_where_a_paste_was_copied_from_names_no_run():
    """054: "Copied from the snippet viewer on our GitLab (...):" told where the paste came from
    (a caption, then the model 'GitLab'); a code host or a chat is no model either."""
    for caption in ("Copied from the snippet viewer on our GitLab (it adds the line numbers):",
                    "Pasted from my terminal:", "I get the same thing on our GitHub:"):
        assert _runs(_read(f"{caption}\n\n{TABLE}"), "label") == [None], caption
    assert _runs(_read(f"That matches what I see on a 2620 v2 (AES-NI on):\n\n{TABLE}"), "label") == ["2620 v2"]


def test_ipython_prompts_run_the_command_and_env_magic_sets_the_mask():
    """055: an IPython console's `In [2]: !openssl speed -elapsed ...` is a prompt (its options
    the run's), `In [3]: %env OPENSSL_ia32cap=...` sets the mask for the commands after it, and
    no `In [N]:` or `Out[N]:` line is a label; here a Jupyter console's `!!` and `%set_env`
    on 1.1.1 output (no CPUINFO line to show the mask). A 3.x CPUINFO line whose ` env:` part
    a mail client wrapped onto a line of its own still shows the mask."""
    text = (f"In [1]: !!openssl speed -elapsed -evp aes-128-cbc\n{TABLE}\n"
            "In [2]: %set_env OPENSSL_ia32cap ~0x200000200000000\n\n"
            f"In [3]: !openssl speed -evp aes-128-cbc\n{TABLE}\nIn [4]: 412873.11 / 441206.30\n"
            "Out[4]: 0.9357829\n\nIn [5]: exit\n")
    df = _read(text)
    assert _runs(df, "label") == [None, None]
    assert _runs(df, "timing") == ["elapsed", "cpu"] and _runs(df, "isa_mask") == [None, "~0x200000200000000"]
    cpuinfo = "CPUINFO: OPENSSL_ia32cap=0x7dfef3f5ffebffff:0x40069c219c97a9\nenv:~0x200000200000000\n"
    df = _read(f"Doing aes-128-cbc for 3s on 16 size blocks: 1000 aes-128-cbc's in 3.00s\n"
               f"version: 3.0.13\n{cpuinfo}{TABLE}")
    assert _runs(df, "cpuinfo") == [cpuinfo[9:].replace("\n", " ").strip()]


def test_a_two_line_prompts_command_line_runs_openssl_and_its_first_line_is_no_label():
    """056: oh-my-zsh's bira theme prints `╭─user@host dir ‹branch›`, then `╰─$ command`: the
    second line is the prompt (its OPENSSL_ia32cap= prefix the run's mask), the first no
    caption (its host names the machine). Here powerlevel10k's `╰─ command ─╯` (a right frame,
    no host) and Kali's `┌──(kali㉿kali)-[~]` / `└─$ `, over 1.1.1 output (no CPUINFO line:
    only the prompt tells the mask)."""
    for top, bottom, end, host in (("╭─ ~/bench  on  main ········· ✔  at 14:02:11 ─╮", "╰─ ", "   ─╯",
                                    None),
                                   ("┌──(kali㉿kali)-[~]", "└─$ ", "", "kali"),
                                   ("╭─alice@ws ~ ‹main●›", "╰─➤  ", "", "ws")):
        text = (f"{top}\n{bottom}openssl speed -elapsed -evp aes-128-cbc{end}\n{TABLE}\n{top}\n"
                f"{bottom}OPENSSL_ia32cap=~0x200000200000000 openssl speed -elapsed -evp aes-128-cbc{end}\n"
                f"{TABLE}")
        df = _read(text)
        assert _runs(df, "label") == [host, host], text
        assert _runs(df, "timing") == ["elapsed"] * 2 and _runs(df, "isa_mask") == [None, "~0x200000200000000"], text


def test_a_run_stopped_with_ctrl_c_keeps_its_records_and_the_next_run_is_its_own():
    """057, 058: a run stopped with ^C before its table, then openssl again (no prompt between,
    058): the stopped run's finished Doing lines were given the next run's table values, in
    one run. ^C ends a run; a record repeating one of a run without cells starts the next and
    leaves the stopped run its records. Here ^C on a line of its own before another digest,
    and a repeat with the ^C line trimmed away; `^C` is never a label."""
    doing = "Doing {a} for 3s on {n} size blocks: {c} {a}'s in 3.00s\n"
    first = doing.format(a="md5", n=16, c=30000000) + "Doing md5 for 3s on 64 size blocks: \n"
    second = (doing.format(a="sha1", n=16, c=3000000) + doing.format(a="sha1", n=64, c=1500000)
              + "type             16 bytes     64 bytes\nsha1             16000.00k    32000.00k\n")
    df = _read(f"{first}^C\n{second}")
    assert sorted(zip(df.run, df.algorithm, df.block_bytes)) == [(0, "md5", 16), (1, "sha1", 16), (1, "sha1", 64)]
    assert _runs(df, "label") == [None, None]
    again = doing.format(a="sha1", n=16, c=2400000) + doing.format(a="sha1", n=64, c=1200000)
    df = _read(f"{again}{second}")
    assert sorted(zip(df.run, df.block_bytes, df.bytes_per_s.round())) == [
        (0, 16, 12800000.0), (0, 64, 25600000.0), (1, 16, 16000000.0), (1, 64, 32000000.0)]


def test_wrappers_that_pin_openssl_are_read_through_and_a_command_broken_after_an_option_rejoined():
    """059: `nice -n -20 hwloc-bind core:2 -- openssl speed ... -primes 3 rsa2048` was no
    command line (its -primes 3 condition lost); re-wrapped at 72 columns, `... -seconds 2 -evp`
    / `aes-128-gcm` gave the run a condition evp=yes. Here `/usr/bin/time -v`, `cset shield
    --exec --` and `systemd-run --scope -p AllowedCPUs=2`, and a command broken after `-primes`
    and before a second algorithm name."""
    rsa = "                  sign    verify    sign/s verify/s\nrsa 2048 bits 0.000337s 0.000016s   2967.5  63211.0\n"
    for wrapper in ("/usr/bin/time -v", "cset shield --exec --", "systemd-run --scope -p AllowedCPUs=2",
                    "sudo /usr/bin/numactl -N 0 -m 0"):
        df = _read(f"$ {wrapper} openssl speed -elapsed -primes 3 rsa2048\n{rsa}")
        assert (_runs(df, "primes"), _runs(df, "timing")) == (["3"], ["elapsed"]), wrapper
    df = _read(f"root@epyc-01:~# taskset -c 2 openssl speed -elapsed -seconds 2 -primes\n3 rsa2048\n{rsa}")
    assert (_runs(df, "primes"), _runs(df, "timing")) == (["3"], ["elapsed"])
    df = _read(f"root@epyc-01:~# taskset -c 2 openssl speed -elapsed -seconds 2 -evp aes-128-cbc\n"
               f"sha256\n{TABLE}")
    assert _runs(df, "timing") == ["elapsed"] and "evp" not in df


def test_no_label_from_a_question_or_a_lone_connective_and_a_version_ending_a_sentence_is_stated():
    """060: a lone `and` between two fenced outputs labelled the second run; "All runs below on
    OpenSSL 3.0.13." (its full stop right after the version) stated no version. Here a mail's
    plain text: "vs." and "Compared to:" alone between runs, a question above one, and the
    version ending "All of these are with openssl 1.1.1w."."""
    run = f"$ openssl speed -evp aes-128-cbc\n{TABLE}"
    for between in ("and", "vs.", "Compared to:", "Any idea why the second one is faster?"):
        df = _read(f"All of these are with openssl 1.1.1w.\n\n{run}\n{between}\n\n{run}")
        assert _runs(df, "label") == [None, None], between
        assert _runs(df, "tool_version") == ["1.1.1w"] * 2, between
    assert _runs(_read(f"Pi 4:\n\n{run}\nPi 5:\n\n{run}"), "label") == ["Pi 4", "Pi 5"]


def test_bytes_sets_the_one_size_of_an_aead_run_and_openssl_version_above_is_that_binarys():
    """061: `openssl speed -seconds 1 -bytes 4096 -aead -evp aes-128-gcm | tail -1` prints the row
    alone; its size is 4096 (openssl measures the -bytes size, -aead or not), not -aead's six
    sizes (the row was reported unplaced); `$ openssl version` printed the version of the
    binary the later prompts run. Here 1.1.1w, another binary that the version is not carried
    to, and a command broken after `-evp` before its `| tail -1`."""
    row = "AES-128-GCM    7587065.86k\n"
    text = ("$ openssl version\nOpenSSL 1.1.1w  11 Sep 2023\n"
            f"$ openssl speed -bytes 4096 -aead -evp aes-128-gcm | tail -1\n{row}"
            f"$ ./apps/openssl speed -bytes 4096 -aead -evp aes-128-gcm | tail -1\n{row}"
            f"me@box:~$ openssl speed -seconds 1 -elapsed -bytes 4096 -aead -evp\naes-128-gcm 2>/dev/null | tail -1\n{row}")
    df = _read(text)
    assert list(df.block_bytes) == [4096] * 3 and "evp" not in df
    assert _runs(df, "tool_version") == ["1.1.1w", None, "1.1.1w"] and _runs(df, "timing") == ["cpu", "cpu", "elapsed"]


def test_a_fish_loops_command_binds_each_run_it_prints_and_each_iteration_is_a_run():
    """200/201 in fish (`for ...; ...; end`, no `do`): the body's `-elapsed` and `-bytes 64`
    hold for every run; `| tail -n 1` leaves one row an iteration, each its own run, the cipher
    the loop fills in named by the row."""
    text = ("> for c in aes-128-ctr sm4-ctr aes-128-ctr; openssl speed -elapsed -bytes 64 -evp $c "
            "2>/dev/null | tail -n 1; end\n"
            "AES-128-CTR    3012873.11k\nSM4-CTR     212873.11k\nAES-128-CTR    3022873.11k\n")
    df = _read(text)
    assert df.algorithm.tolist() == ["aes-128-ctr", "sm4-ctr", "aes-128-ctr"]
    assert df.run.nunique() == 3 and set(df.block_bytes) == {64} and (df.timing == "elapsed").all()


def test_a_while_read_loops_mask_and_multi_are_each_runs_but_not_a_provider_it_fills_in():
    """`while read c; do OPENSSL_ia32cap=... openssl speed -multi 2 ...; done < list`: the mask
    before the command and `-multi 2` hold for each run; `-provider $p` is filled in by the
    loop and no output states it: bound to none, and said so."""
    table = "type             16 bytes\n{}     {}k\n"
    text = ("$ while read c; do OPENSSL_ia32cap=~0x200000200000000 openssl speed -multi 2 -bytes 16 "
            "-evp $c; done < aeads.txt\n" + table.format("AES-128-GCM", "81287.11") +
            table.format("AES-256-GCM", "61287.11"))
    df = _read(text)
    assert _runs(df, "isa_mask") == ["~0x200000200000000"] * 2 and _runs(df, "multi") == [2, 2]
    import warnings

    import cipherlab
    with pytest.warns(UserWarning, match=r"its -provider changes from run to run"):
        df = cipherlab.ingest("PS> foreach ($p in 'default','fips') { openssl speed -provider $p "
                              "-bytes 16 -evp aes-128-gcm }\n" + table.format("AES-128-GCM", "81287.11")
                              + table.format("AES-128-GCM", "71287.11"))
    assert df.run.nunique() == 2 and "provider" not in df
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # (what the loop fills in, the rows state: no warning)
        cipherlab.ingest(text)
    assert not [w for w in caught if "loop" in str(w.message)]


def test_a_loops_bytes_are_taken_in_order_only_when_each_word_printed_one_run():
    """`for b in 16 64 256; do openssl speed -bytes $b ... | tail -1; done`: the k-th row
    measured the k-th size; when the loop printed another number of rows than it has words
    (an iteration failed), which size each row measured is unknown: reported, never guessed."""
    loop = "$ for b in 16 64 256; do openssl speed -bytes $b -evp sm4-cbc 2>/dev/null | tail -1; done\n"
    df = _read(loop + "SM4-CBC     112873.11k\nSM4-CBC     122873.11k\nSM4-CBC     125873.11k\n")
    assert df.block_bytes.tolist() == [16, 64, 256] and df.run.nunique() == 3
    import cipherlab
    with pytest.warns(UserWarning, match=r"printed 2 runs for its 3 sizes"):
        df = cipherlab.ingest(loop + "SM4-CBC     112873.11k\nSM4-CBC     125873.11k\n"
                              "$ openssl speed -bytes 16 md5\nmd5     212873.11k\n")
    assert df.algorithm.tolist() == ["md5"]


def test_a_loops_command_line_a_mail_client_broke_is_joined_up_to_its_done():
    """200 wrapped at 72: `$ for c in a b` / `c; do openssl speed ... -evp` / `$c | tail -1;
    done`: the pieces are one loop (its rows were lost without a word); a row of one `k` value
    after a cipher's name that no command explains is reported, not taken for a label."""
    text = ("admin@build-host:~/bench$ for c in aes-128-ctr aes-192-ctr\naes-256-ctr; do openssl "
            "speed -elapsed -bytes 1024 -evp\n$c 2>/dev/null | tail -1; done\n"
            "AES-128-CTR    9012873.11k\nAES-192-CTR    7722873.11k\nAES-256-CTR    6622873.11k\n")
    df = _read(text)
    assert df.algorithm.tolist() == ["aes-128-ctr", "aes-192-ctr", "aes-256-ctr"]
    assert set(df.block_bytes) == {1024} and (df.timing == "elapsed").all() and df.run.nunique() == 3
    import cipherlab
    with pytest.warns(UserWarning, match=r"line\(s\) 2, 3"):
        df = cipherlab.ingest("some words here\nAES-128-CTR    9012873.11k\nAES-192-CTR    7722873.11k\n"
                              "$ openssl speed -bytes 16 md5\nmd5    212873.11k\n")
    assert _runs(df, "label") != ["AES-192-CTR 7722873.11k"]


def test_a_loops_output_ends_at_the_next_command_and_a_header_after_headerless_rows_is_a_new_run():
    """The loop's `-elapsed` is no option of what `ssh other cat old.txt` shows after it; a
    `type` header after rows read without one (`| tail -1`'s) opens the next run."""
    text = ("$ for c in aes-128-gcm aes-256-gcm; do openssl speed -elapsed -bytes 16 -evp $c "
            "2>/dev/null | tail -1; done\nAES-128-GCM     612873.11k\nAES-256-GCM     512873.11k\n"
            "$ ssh other cat /tmp/old-run.txt\ntype             16 bytes\nAES-128-GCM     412873.11k\n")
    df = _read(text)
    assert df.run.nunique() == 3
    assert [t if t == t else None for t in df.timing] == ["elapsed", "elapsed", None]


def test_a_prompts_host_labels_a_run_nothing_nearer_names():
    """129/130/131/133: the host of a prompt (`[admin@gw-a ~]#`, not the user) labels a run no
    caption names, so two machines' runs are not one setting's replicates; a caption wins
    over it; ssh's target names the machine a command ran on (here `ssh -J bastion
    ops@gw-c`); a container's generated id names none (the run above's host stays); a loop
    on a prompt labels every run it prints; a zsh prompt's host too."""
    cmd = "openssl speed -seconds 1 -evp aes-128-cbc"
    text = (f"[admin@gw-a ~]# {cmd}\n{TABLE}[admin@gw-b ~]# {cmd}\n{TABLE}\n"
            f"The spare:\n\n[admin@gw-b ~]# {cmd}\n{TABLE}\n"
            f"me@laptop ~ % ssh -J bastion ops@gw-c {cmd}\n{TABLE}"
            f"root@0b7e4c21a9f3:/# {cmd}\n{TABLE}")
    assert _runs(_read(text), "label") == ["gw-a", "gw-b", "The spare", "gw-c", "gw-c"]
    loop = (f"bob@nuc7 ~ % for i in 1 2; do {cmd}; done\n"
            f"version: 3.0.13\n{TABLE}version: 3.0.13\n{TABLE}")
    assert _runs(_read(loop), "label") == ["nuc7", "nuc7"]
    # (a loop's ssh $h names no host: not the prompt's either)
    remote = f"me@laptop:~$ for h in a b; do ssh $h {cmd}; done\nversion: 3.0.13\n{TABLE}"
    assert _runs(_read(remote), "label") == [None]


def test_a_host_names_no_cpu_and_a_label_names_the_cpu_of_its_model():
    """132: a caption naming a CPU model without a clock fills cpu (`Xeon E-2388G server`: the
    model, not the server; `Rock 5B (RK3588)`: the SoC named); a board alone (`Rock 5B`) or
    a host (`i7-box`, as an admin named it) fills none; prose naming the first machine's
    CPU is not the other hosts'."""
    df = _read(f"Xeon E-2388G server:\n\n{TABLE}\nRock 5B (RK3588):\n\n{TABLE}\nRock 5B:\n\n{TABLE}\n"
               f"Mac mini:\n\nroot@bench-i7-8700K:~# openssl speed md5\n{TABLE}")
    assert _runs(df, "cpu") == ["Xeon E-2388G", "RK3588", None, None]
    df = _read("Ran it on my desktop (Ryzen 5 3600) first and then over ssh on the NAS:\n\n"
               f"me@desk:~$ openssl speed md5\n{TABLE}"
               f"me@desk:~$ ssh nas openssl speed md5\n{TABLE}")
    assert _runs(df, "label") == ["desktop", "nas"] and _runs(df, "cpu") == ["Ryzen 5 3600", None]


def test_a_command_run_on_an_unnamed_machine_takes_no_label_of_the_run_above():
    """041/130: a loop's `ssh $h` or `kubectl exec` ran on a machine the line does not name,
    so the run takes neither the prompt's host nor the label the run above took from its
    host; a container's id keeps it (the container runs on that machine)."""
    cmd = "openssl speed -seconds 1 -evp aes-128-cbc"
    for elsewhere in (f"for h in a b; do ssh $h {cmd}; done", f"kubectl exec -it bench-0 -- {cmd}"):
        text = f"me@laptop:~$ {cmd}\n{TABLE}me@laptop:~$ {elsewhere}\nversion: 3.0.13\n{TABLE}"
        assert _runs(_read(text), "label") == ["laptop", None], elsewhere
    text = f"me@laptop:~$ {cmd}\n{TABLE}root@5d1e0f3b9a2c:/# {cmd}\n{TABLE}"
    assert _runs(_read(text), "label") == ["laptop", "laptop"]


@pytest.mark.parametrize("rows", [
    # (the tag in the name, 302; after the values, as a machine's tag is)
    ["aes-128-cbc (AES-NI on)   883995.06k  1214270.46k", "aes-128-cbc (AES-NI off)  199005.46k   236993.60k",
     "sha256 (AES-NI on)        512345.67k   998765.43k", "sha256 (AES-NI off)       509876.54k   991234.56k"],
    ["aes-128-cbc   883995.06k  1214270.46k  (AES-NI on)", "aes-128-cbc   199005.46k   236993.60k  (AES-NI off)",
     "sha256        512345.67k   998765.43k  (AES-NI on)", "sha256        509876.54k   991234.56k  (AES-NI off)"],
])
def test_rows_tagged_with_a_switched_feature_make_a_run_per_state_without_the_prose_mask(rows):
    """302: rows of two runs merged into one table, each tagged "(AES-NI on)"/"(AES-NI off)":
    the rows of one state are one run with that aesni condition, the algorithm is the name
    without its tag, and the mask the prose names is no run's own (the off rows say which)."""
    text = ("Second run with OPENSSL_ia32cap=~0x200000200000000, rows merged:\n\n"
            "type             16 bytes     64 bytes\n" + "\n".join(rows) + "\n")
    df = _read(text)
    assert sorted(df.algorithm.unique()) == ["aes-128-cbc", "sha256"] and df["flag"].isna().all()
    assert df.groupby("run", observed=True)["aesni"].agg(lambda s: tuple(s.unique())).tolist() == \
        [("on",), ("off",)]
    assert "isa_mask" not in df or df["isa_mask"].isna().all()
    one = _read("type             16 bytes     64 bytes\n" + rows[0].replace("AES-NI on", "x") + "\n"
                + rows[1] + "\n")  # (the only tag that switches a feature: still the condition)
    assert _runs(one, "aesni")[-1] == "off" and set(one.algorithm) == {"aes-128-cbc"}
    plain = _read("type             16 bytes     64 bytes\n" + "\n".join(rows[:2]) + "\n"
                  "md5           312345.67k   598765.43k\n")  # (no tag: in neither state)
    assert plain.loc[plain.algorithm == "md5", "aesni"].isna().all()
    assert plain.loc[plain.algorithm == "aes-128-cbc", "aesni"].notna().all()


@pytest.mark.parametrize("between", ["", "```\n\n```\n", "\n"])
def test_runs_on_two_hosts_under_one_heading_are_labelled_by_their_hosts(between):
    """Two prompts on different hosts under one heading ("## Results"): the first run took
    the heading and the second its host (or both the heading: two machines looking like
    repeats of one setting); each is its host's."""
    run = ("root@{}:~# openssl speed -evp aes-128-cbc\n"
           "type             16 bytes     64 bytes\naes-128-cbc     {}k   441206.30k\n")
    text = ("## Results on the Xeon E5-2680 v4 boxes\n\n```\n" + run.format("web01", "412873.11")
            + between + run.format("web02", "402873.11") + "```\n")
    df = _read(text)
    assert _runs(df, "label") == ["web01", "web02"]
    assert _runs(df, "cpu") == ["Xeon E5-2680 v4"] * 2  # (the heading's, of both)
    one = _read("## Results\n\n```\n" + run.format("web01", "412873.11") + "```\n")
    assert _runs(one, "label") == ["Results"]  # (one host under it: the heading still names it)


def test_a_host_that_labels_one_run_labels_its_runs_under_a_heading_too():
    """web01's first run under the heading, web02's under a caption, web01's again after it
    (labelled by its host): both web01 runs are web01's, not a heading's and a host's."""
    run = ("root@{}:~# openssl speed -evp aes-128-cbc\n"
           "type             16 bytes     64 bytes\naes-128-cbc     {}k   441206.30k\n\n")
    text = ("## Xeon E5-2680 v4 boxes\n\n" + run.format("web01", "412873.11")
            + "The second box, older BIOS:\n\n" + run.format("web02", "402873.11")
            + run.format("web01", "413873.11"))
    df = _read(text)
    labels = _runs(df, "label")
    assert labels[0] == labels[2] == "web01" and labels[1] != "web01"
    assert _runs(df, "cpu") == ["Xeon E5-2680 v4"] * 3


def test_retyped_name_size_value_lines_are_cells_of_the_command_above_and_below_a_table():
    """``sha256   1024 bytes  1345678.12k`` (one cell a line, retyped after a prompt) is that
    cell of the prompt's run, ``-decrypt`` making it decryption; right under a printed table
    (whose rows it would otherwise be read as) it is a cell too, never reported as a short row;
    one with a second value on it is reported (terminal 400, in a mail's quoting here)."""
    df = _read("> % openssl speed -elapsed -evp aes-128-cbc -decrypt\n"
               "> aes-128-cbc  16 bytes   701234.50k\n> aes-128-cbc  8192 bytes 5012345.25k\n")
    assert set(df["operation"]) == {"decrypt"} and sorted(df["block_bytes"]) == [16, 8192]
    assert df.loc[df.block_bytes == 8192, "bytes_per_s"].item() == pytest.approx(5012345250.0)
    import warnings

    import cipherlab
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest(f"$ openssl speed -evp aes-128-cbc\n{TABLE}"
                              "md5  1024 bytes  612345.67k\nmd5  16 bytes  91234.56k  93120.11k\n")
    assert ("md5", 1024) in set(zip(df.algorithm, df.block_bytes)) and len(df) == 3
    assert any("line(s) 5" in str(w.message) for w in caught)


# --- wild (issue 12): knitr, org-babel, chat exports, side-by-side diffs -----------------------
ROW6 = ("type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes\n"
        "ChaCha20-Poly1305   261805.12k   519640.47k  1513294.85k  2707931.14k  2995372.03k  3013427.20k\n")


@pytest.mark.parametrize("block", [
    "".join(f"    ## {line}\n" for line in ROW6.splitlines()),  # (github_document: indented)
    "```\n" + "".join(f"## {line}\n" for line in ROW6.splitlines()) + "```\n",  # (a fence)
])
def test_a_code_block_whose_two_lines_share_a_mark_is_read_behind_it(block):
    """knitr puts ``## `` before each line of a chunk's output (terminal 600): a whole code block
    of two such lines (a table's header and row) is output, not two headings; R's ``## [1]``
    vector under it is no row of the table (no name openssl prints holds a bracket)."""
    df = _read(f"Some text.\n\n{block}\n``` r\nround(x, 2)\n```\n\n    ## [1] 1.99 2.86 2.03 1.54 1.54 1.54\n")
    assert set(df.algorithm) == {"chacha20-poly1305"} and len(df) == 6


def test_a_single_root_prompt_in_a_code_block_keeps_its_mark():
    from cipherlab.readers._text import strip_shared_prefix
    lines = ["", "    # openssl speed md5", ""]
    assert strip_shared_prefix(lines)[0] == lines


def test_an_org_babel_results_block_and_its_headings():
    """org-mode (terminal 601): a ``#+RESULTS:`` block's ``: `` lines are output, its keywords
    and block delimiters (``#+begin_src``, ``#+end_example``) label no run, and a line of stars
    at the margin is a heading naming the runs under it."""
    text = ("#+TITLE: notes\n\n* laptop (Ryzen 7 PRO 4750U)\n\n#+begin_src sh :results output\n"
            "openssl speed -evp chacha20-poly1305\n#+end_src\n\n#+RESULTS:\n"
            + "".join(f": {line}\n" for line in ROW6.splitlines())
            + "\n* server\n\n#+begin_example\n$ openssl speed -evp chacha20-poly1305\n"
            + ROW6.replace("261805.12", "161805.12") + "#+end_example\n")
    df = _read(text)
    assert _runs(df, "label") == ["laptop (Ryzen 7 PRO 4750U)", "server"]
    assert len(df) == 12


def test_a_chat_export_with_nick_and_colon_is_one_prefix():
    """``[12:03] kwame: `` before every line (terminal 602), whoever speaks: a paste cut after
    its header goes on under the next message's stamp."""
    text = "".join(f"[12:0{n}] kwame: {line}\n" for n, line in enumerate(
        ["$ openssl speed -evp chacha20-poly1305", ROW6.splitlines()[0], "rest is:", ROW6.splitlines()[1]]))
    text += "[12:07] marta: 2315758 vs 4684677, about half\n"
    df = _read(text)
    assert set(df.algorithm) == {"chacha20-poly1305"} and len(df) == 6


def test_two_files_side_by_side_in_sdiff_are_two_runs():
    """sdiff/diff -y (terminal 603): the left file's line, TABs to the gutter, ``|`` and a TAB,
    the right file's: two texts, never one row of twelve values."""
    from cipherlab.readers._text import sides
    a = "md5             106781.73k   276154.88k"
    b = "md5             116781.73k   286154.88k"
    head = "type             16 bytes     64 bytes"
    lines = [f"{head:<48} \t{head}", f"{a:<48}|\t{b}", f"{a:<48}|\t{b}", f"{a:<48}|\t{b}", "$"]
    got = sides(lines, None)
    assert [g[0][:3] for g in got] == [[head, a, a], [head, b, b]]
    df = _read("\n".join(lines) + "\n")
    assert df.run.nunique() == 2 and sorted(set(df.bytes_per_s)) == [106781730.0, 116781730.0,
                                                                      276154880.0, 286154880.0]


def test_line_ends_shown_as_caret_m_are_no_text():
    """`cat -v` of a file saved with CRLF ends (terminal 634) shows each CR as `^M` at the end
    of its line: the line without it, so a row's last value is read; `^M` inside a line stays."""
    from cipherlab.readers._text import split_lines
    assert split_lines("md5 1.00k^M\nsee ^M here^M\n") == ["md5 1.00k", "see ^M here", ""]
    df = _read("".join(f"{line}^M\n" for line in TABLE.splitlines()))
    assert df.bytes_per_s.tolist() == [412873110.0, 441206300.0]


def test_paste_of_two_speed_files_is_two_runs_and_a_two_column_tsv_is_no_paste():
    """``paste a b`` (610): one TAB between the files' lines, both sides openssl lines: two
    runs, the right side's values no columns of the left's; a variant where the left file
    ends first (its lines empty before the TAB). A TSV of a name and a value is left whole."""
    left = ["type             16 bytes     64 bytes", "md5              42413.95k   162547.78k",
            "sha1             73942.72k   248119.98k", "sha256           77937.70k   264955.46k"]
    right = ["version: 3.0.19", "type             16 bytes     64 bytes",
             "md5             106781.73k   276154.88k", "sha1            241007.63k   640528.75k",
             "sha256          217350.81k   780407.23k"]
    text = "$ paste b.txt a.txt\n" + "\n".join(
        f"{a}\t{b}" for a, b in zip(left + [""], right, strict=True)) + "\n"
    df = _read(text)
    assert df.run.nunique() == 2
    assert _runs(df, "tool_version") == [None, "3.0.19"]
    md5 = df[df.algorithm == "md5"].sort_values(["run", "block_bytes"])
    assert list(md5.bytes_per_s / 1e3) == pytest.approx([42413.95, 162547.78, 106781.73, 276154.88])
    tsv = "algorithm\tops\nrsa2048 sign\t2054.0\nrsa2048 verify\t38975.0\necdsa-p256 sign\t29380.8\n"
    from cipherlab.readers._text import pasted_sides
    lines = tsv.split("\n")
    assert pasted_sides(lines, None) == [(lines, None)]


def test_a_narrow_sdiff_cuts_values_and_no_cut_value_is_read_as_a_number():
    """``sdiff -w 80`` cuts each file's line at 37 columns (611, 612 at 110 and 100): the cut
    word (`162547.7` of `162547.78k`, `64 byte` of the header) is dropped with a warning naming
    its lines, the whole values before it are read (a wide sdiff's rows, 603, fit: read whole)."""
    import warnings

    import cipherlab
    rows = [("md5              42413.95k   162547.7", "md5             106781.73k   276154.8"),
            ("sha1             73942.72k   248119.9", "sha1            241007.63k   640528.7"),
            ("sha256           77937.70k   264955.4", "sha256          217350.81k   780407.2")]
    head = "type             16 bytes     64 byte\ttype             16 bytes     64 byte\n"
    text = "$ sdiff -w 80 b.txt a.txt\n" + head + "".join(f"{a} |\t{b}\n" for a, b in rows)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest(text)
    cut = [str(w.message) for w in caught if "cut at column 37" in str(w.message)]
    assert cut and all("line(s) 2, 3, 4, 5" in m for m in cut)
    assert df.run.nunique() == 2 and set(df.block_bytes) == {16}
    assert sorted(df.bytes_per_s / 1e3) == pytest.approx(
        sorted([42413.95, 73942.72, 77937.70, 106781.73, 241007.63, 217350.81]))


def test_a_pagers_status_line_quoted_in_a_reply_is_no_caption():
    """`more`'s `--More--(81%)` between two tables (037) behind a reply's `> `: a blank line,
    not a caption naming (and starting) a run of its own; a variant quoted twice, `less`'s."""
    rsa = (">                   sign    verify    sign/s verify/s\n"
           "> rsa 2048 bits 0.000248s 0.000015s   4030.0  65251.0\n")
    ecdsa = (">                               sign    verify    sign/s verify/s\n"
             ">  256 bits ecdsa (nistp256)   0.0000s   0.0001s  63565.3  19985.7\n")
    for status in ("> --More--(81%)", "> > speed.log lines 1-24/64 37%"):
        df = _read(f"On the Pi:\n>\n> $ more nohup.out\n{rsa}{status}\n{ecdsa}")
        assert df.run.nunique() == 1 and set(df.label) == {"Pi"}
        assert sorted(df.ops_per_s) == pytest.approx([4030.0, 19985.7, 63565.3, 65251.0])


def test_a_header_less_row_wrapped_by_a_mail_client_is_rejoined_never_a_run_of_its_own():
    """A row copied alone (613: no `type` header above it) that a client wrapped after its
    fourth value: the next line's two rates complete openssl's six sizes, one run, one row; a
    variant quoted and cut after two of a five-size (1.0.x) row; a tail of bare numbers (no
    `k`: another table's) completes nothing and stays loud, nor does one under a tag and a name
    (GNU parallel's `md5<TAB>md5 ...`, the TAB made blanks by a mail client)."""
    import warnings

    import cipherlab
    row = "aes-256-cbc     701344.20k  1070531.33k  1121088.17k  1137413.76k"
    df = _read(f"The new box:\n\n{row}\n1140120.38k  1141002.45k\n")
    assert df.run.nunique() == 1 and list(df.block_bytes) == [16, 64, 256, 1024, 8192, 16384]
    assert df.bytes_per_s.iloc[-1] == pytest.approx(1141002.45e3)
    df = _read("> md5              42413.95k   162547.78k\n> 346679.81k   467208.19k   517201.92k\n")
    assert list(df.block_bytes) == [16, 64, 256, 1024, 8192]
    tagged = ("md5     md5              66533.43k   216947.47k   445535.91k   633303.62k\n"
              "724718.93k   729799.41k\n")
    with pytest.raises(cipherlab.errors.IngestError):  # (a tag beside the name, TAB made blanks)
        cipherlab.ingest(tagged)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            df = cipherlab.ingest(f"{row}\n1140120.38  1141002.45\n")
        except cipherlab.errors.IngestError as err:
            assert "look like measurements" in str(err)
        else:
            assert df.empty or not set(df.block_bytes) & {8192, 16384}
            assert any("not placed" in str(w.message) for w in caught)


def test_a_wide_sdiff_whose_lines_fit_loses_no_word():
    """At ``sdiff -w 206`` each half is 101 columns (mark at 102, right file at 104): rows of
    90 columns fit, the longest line is no cut one, every value is read and none is warned
    about (the cut width is the one the gutter's column allows, not merely the longest line)."""
    import warnings

    import cipherlab
    head = "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes"
    left = [head,
            "md5              42413.95k   162547.78k   346679.81k   467208.19k   517201.92k   510066.69k",
            "sha1             73942.72k   248119.98k   653008.13k  1067820.03k  1286332.42k  1339506.69k",
            "sha256           77937.70k   264955.46k   644097.28k  1010601.98k  1190658.05k  1221017.60k"]
    right = [head,
             "md5             105819.77k   271891.20k   531052.90k   669282.83k   733991.33k   754808.91k",
             "sha1            241007.63k   640528.75k  1330811.90k  1843614.38k  2107520.34k  2129936.21k",
             "sha256          217350.81k   780407.23k  1850842.37k  2674297.86k  3082944.51k  3177988.10k"]
    text = "$ sdiff -w 206 b.txt a.txt\n" + "".join(
        f"{a:<102}{' ' if a == b else '|'}\t{b}\n" for a, b in zip(left, right, strict=True))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest(text)
    assert not [w for w in caught if "cut at column" in str(w.message)]
    assert df.run.nunique() == 2 and len(df) == 36


def test_a_unified_diff_of_two_saved_outputs_is_two_runs_named_by_its_files():
    """`diff -u old new` (terminal 632): the old file is the context and `-` lines, the new one
    the context and `+` lines, each a run named by its header's file (no time stamp), its cells
    on the diff's own lines; the headers and hunk lines are no data, the prose is its own text."""
    text = ("I diffed the two saved outputs:\n```diff\n"
            "--- speed-vm1.txt\t2026-03-04 10:12:01.000000000 +0000\n"
            "+++ speed-vm2.txt\t2026-03-04 10:14:40.000000000 +0000\n"
            "@@ -1,3 +1,3 @@\n"
            "-version: 3.0.19\n+version: 3.0.22\n"
            " type             16 bytes     64 bytes\n"
            "-md5             106781.73k   276154.88k\n"
            "+md5              42413.95k   162547.78k\n```\nIs this expected?\n")
    df = _read(text)
    assert _runs(df, "label") == ["speed-vm1.txt", "speed-vm2.txt"]
    assert _runs(df, "tool_version") == ["3.0.19", "3.0.22"]
    assert df.groupby("run", observed=True).line.first().tolist() == [9, 10]
    assert sorted(df.bytes_per_s) == [42413950.0, 106781730.0, 162547780.0, 276154880.0]


def test_a_git_diff_names_its_sides_by_its_paths_and_its_own_lines_are_no_text():
    """`git diff` of a tracked output: `diff --git` and `index` lines are the header's; `a/`
    and `b/` go where the paths differ without them, stay where they would not (one file, two
    commits); a line a paste stripped of its blank is a context line."""
    from cipherlab.readers._text import sides
    head = ["diff --git a/speed.txt b/speed.txt", "index 3f2a1c0..9b1d7e4 100644",
            "--- a/speed.txt", "+++ b/speed.txt", "@@ -4,3 +4,3 @@ options: bn(64,64)"]
    body = [" type             16 bytes     64 bytes", "", "-md5  1.00k  2.00k", "+md5  3.00k  4.00k"]
    got = sides(["see:", *head, *body], None)
    assert [name for _, _, name in got] == [None, "a/speed.txt", "b/speed.txt"]
    assert got[1][:2] == ([body[0][1:], "", "md5  1.00k  2.00k"], [0, 7, 8, 9])
    assert got[2][0][-1] == "md5  3.00k  4.00k" and got[0][0] == ["see:"]


def test_lines_that_only_look_like_a_diffs_are_left_alone():
    """A `---` rule and a `+++` line without a hunk after them, or a hunk header without the
    files' header above, are no unified diff: the text is read as it is."""
    from cipherlab.readers._text import sides
    lines = ["--- results ---", "+++ fast +++", "md5  1.00k  2.00k"]
    assert sides(lines, None) == [(lines, None, None)]
    hunk = ["@@ -1,2 +1,2 @@", "-md5  1.00k", "+md5  2.00k"]
    assert sides(hunk, None) == [(hunk, None, None)]


def test_a_unified_diff_wrapped_by_a_mail_client_or_quoted_still_shows_its_two_files():
    """A long line a mail client wrapped goes on, unmarked or behind a `-` of its own
    (`-fzero-call-used-regs`): the hunk no longer holds what its header counts, so it is read
    while its lines are marked, each rest with the line above; a diff quoted in a reply is
    read behind its quoting. Either way no row is named `-md5`."""
    flags = "gcc -fPIC -pthread -m64 -Wa,--noexecstack -Wall -fzero-call-used-regs=used-gpr -O2"
    diff = ["--- a/speed.txt", "+++ b/speed.txt", "@@ -1,4 +1,4 @@",
            f"-compiler: {flags[:44]}", f"-{flags[45:]}", f"+compiler: {flags[:44]}", f"-{flags[45:]}",
            " type             16 bytes     64 bytes",
            "-md5             106781.73k   276154.88k", "+md5              42413.95k   162547.78k"]
    for text in ("\n".join(diff), "\n".join(f"> {line}" for line in diff)):
        df = _read(text + "\n\nThanks\n")
        assert _runs(df, "label") == ["a/speed.txt", "b/speed.txt"]
        assert set(df.algorithm) == {"md5"} and sorted(df.bytes_per_s) == [
            42413950.0, 106781730.0, 162547780.0, 276154880.0]
