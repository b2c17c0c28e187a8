"""Context binds per block (issue 12, layer 4): each label rule of ``readers._context`` alone,
then on small texts written here, in other shapes than the pastes that asked for each rule
(other names, prefixes, headings and tables), through both engines."""

from __future__ import annotations

import pytest

import cipherlab
from cipherlab.readers import _context as C

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

TABLE = "type 16 bytes 64 bytes\nmd5 1.00k 2.00k\n"
PK = "                  sign    verify    sign/s verify/s\nrsa 2048 bits 0.001s 0.0001s 1000.0 10000.0\n"


def labels(text: str) -> list:
    df = cipherlab.ingest(text)
    return [None if x != x else x for x in df.groupby("run").label.first().tolist()]


# --- each rule alone: (rule, line, raw line, verdict) -----------------------------------------
RULES = [
    ("byline", "maria · comment · 2023-05-01", None, C.STOP),
    ("byline", "On Tue, 3 Mar 2020, Ann Smith wrote:", None, C.STOP),
    ("caption around a command", "After the fix: $ ./apps/openssl speed -evp sm4", None,
     C.Label("After the fix", "caption around a command")),
    ("caption around a command", "`openssl speed sha512` output on the old kernel:", None,
     C.Label("old kernel", "caption around a command")),
    ("caption around a command", "Numbers with `openssl speed -multi 8 rsa` on our build box:", None,
     C.Label("build box", "caption around a command")),
    ("caption around a command", "Results of `openssl speed -evp sm4-cbc` (Kunpeng 920):", None,
     C.Label("Kunpeng 920", "caption around a command")),
    ("heading", "## Orange Pi 5 Plus", None, C.Label("Orange Pi 5 Plus", "heading", 2)),
    ("heading", "__Desktop, turbo off__", None, C.Label("Desktop, turbo off", "heading", 7)),
    ("heading", "# $ openssl speed rsa", None, C.Label(None, "heading", 1)),
    ("machine phrase", "These were taken on our old Xeon workstation with turbo disabled.", None,
     C.Label("old Xeon workstation", "machine phrase")),
    ("subject of a sentence", "Below are the timings for the patched kernel on 4 cores:", None,
     C.Label("patched kernel on 4 cores", "subject of a sentence")),
    ("subject of a sentence", "The figures that follow are the performance of the vectorised path:",
     None, C.Label("vectorised path", "subject of a sentence")),
    ("tool banner", "LibreSSL version: 3.9.2", None, C.SKIP),
    ("tool banner", "Tongsuo : Tongsuo 8.4.0", None, C.SKIP),
    ("not a name", "numactl -N 0 openssl speed -multi 4 rsa", None, C.SKIP),
    ("not a name", "1200MB/300000.00k=4s", None, C.SKIP),
    ("not a name", "! /bin/sh", None, C.SKIP),
    ("status line", "Benchmarking the patched library...", None,
     C.Label("Benchmarking the patched library", "status line")),
    ("list item", "bump the version", "  * bump the version", C.STOP),
    ("sentence", "I ran it twice:", None, C.STOP),
    ("sentence", "and then with the governor set to performance:", None, C.STOP),
    ("sentence", "\u4e0b\u9762\u662f\u7ed3\u679c\u3002", None, C.STOP),
    ("not a name", "PS C:\\Users\\kim\\bench> $env:OPENSSL_armcap='0x1'", None, C.SKIP),
    ("not a name", "kim@WIN-DEV UCRT64 /c/src/openssl", None, C.SKIP),
    ("not a name", "PowerShell 7.4.6", None, C.SKIP),
    ("not a name", "Cc: openssl-users@openssl.org", None, C.SKIP),
    ("not a name", "[kim@fedora ~]$ tongsuo version", None, C.SKIP),
    ("not a name", "Tongsuo 8.3.2", None, C.SKIP),
    ("not a name", "2,118.47 msec task-clock   #  0.998 CPUs utilized", None, C.SKIP),  # perf stat
    ("not a name", "1,402,233,918      branches", None, C.SKIP),
    ("not a name", "12.004113 seconds time elapsed", None, C.SKIP),
    ("sentence", "Now the same box with turbo off:", None, C.STOP),
    ("bold lead-in", "Graviton 4 (r8g.large): eight vCPUs, one used", "__Graviton 4 (r8g.large)__: eight vCPUs, one used",
     C.Label("Graviton 4 (r8g.large)", "bold lead-in")),
    ("bold lead-in", "Edit: re-ran it with -elapsed.", "**Edit**: re-ran it with -elapsed.", C.STOP),
    ("caption", "Graviton 3 (c7g.large):", None, C.Label("Graviton 3 (c7g.large)", "caption")),
    ("caption", "Stock firmware.", None, C.Label("Stock firmware", "caption")),
    ("caption", "1.0.2u:", None, C.Label("1.0.2u", "caption")),
    ("caption", "3.3.2:", None, C.Label("3.3.2", "caption")),  # (a release without a letter)
    ("caption", "(2):", None, C.STOP),  # (introduces output, names none: the one above is not it)
    ("caption", "With AES-NI off, we got:", None, C.Label("With AES-NI off", "caption")),
    # (a clause makes a caption a sentence: it names the machine it holds, or no run)
    ("sentence", "The second box is older BIOS:", None, C.STOP),
    ("sentence", "Here is what I get on the old one:", None, C.STOP),
    ("sentence", "After the upgrade the numbers look like this:", None, C.STOP),
    ("machine phrase", "Ran it on the EPYC 7763 box:", None, C.Label("EPYC 7763 box", "machine phrase")),
    ("lead clause", "Here you go, Sheevaplug (Kirkwood 1.2GHz)", None,
     C.Label("Sheevaplug (Kirkwood 1.2GHz)", "caption")),
    ("caption", "On the Xeon E5-2620 v2 box I get:", None, C.Label("Xeon E5-2620 v2 box", "caption")),
    ("caption", "On my Ryzen 7 5800X:", None, C.Label("Ryzen 7 5800X", "caption")),
    ("caption", "On the left:", None, C.STOP),  # (a place, no machine)
    ("model ending a sentence", "Here is my Xeon D-1518 box:", None,
     C.Label("Xeon D-1518 box", "model ending a sentence")),
    ("sentence", "Same package on both (OpenSSL 1.1.1k FIPS, RHEL 8.9), same command:", None, C.STOP),
    ("heading", "### Fixed", None, C.Label(None, "heading", 3)),  # (a changelog's section)
    ("byline", "u/ferrous_wheel · 14h", None, C.STOP),
    ("caption", "2.1 GB/s", None, C.SKIP),  # (a value alone: a list row's, broken off)
    ("byline", "(In reply to Marta Kowalska from comment #7)", None, C.STOP),  # (a reply's attribution)
    ("byline", "Quoting lukas:", None, C.STOP),
    ("byline", "Marta Kowalska 2025-11-30 11:02:44 UTC", None, C.STOP),  # (a tracker's comment head)
    ("caption", "Welcome to Ubuntu 24.04 LTS", None, C.SKIP),  # (a greeting, a system's too)
    ("sentence", "Press F1 to see where to find the manual", None, C.STOP),  # (a question's infinitive)
]


@pytest.mark.parametrize("name, line, raw, verdict", RULES, ids=[f"{r[0]}-{i}" for i, r in enumerate(RULES)])
def test_each_label_rule_alone(name, line, raw, verdict):
    rule = dict(C.LABEL_RULES)[name]
    assert rule(line, raw or line) == verdict
    assert C.label_verdict(line, raw) == verdict  # no rule before it decides otherwise


def test_a_sentence_names_its_subject_only_when_it_has_one():
    subject = dict(C.LABEL_RULES)["subject of a sentence"]
    assert subject("Below are the numbers for comparison:", "") is None  # no subject
    assert subject("Here we timed the speed of the build that has the patch:", "") is None  # a clause
    assert subject("Results for the Pi 5:", "") is None  # a caption, named whole
    assert C.label_verdict("Here are the numbers on a Banana Pi M5:") == C.Label(
        "Banana Pi M5", "subject of a sentence")


def test_a_link_names_nothing_but_the_words_beside_it_may():
    assert C.label_verdict("  + [bench.log](https://paste.example/x1)") == C.SKIP
    assert C.label_verdict("Rock 5B numbers (see https://forum.example/t/42):") == C.Label(
        "Rock 5B numbers", "caption")


def test_the_rules_are_ordered_named_and_documented():
    names = [n for n, _ in C.LABEL_RULES]
    assert len(set(names)) == len(names) and names[0] == "byline" and names[-1] == "caption"
    assert all(f.__doc__ and "``" in f.__doc__ for _, f in C.LABEL_RULES)  # rule and example


# --- the search, on texts -----------------------------------------------------------------------
def test_a_heading_names_every_run_under_it_until_the_next():
    text = (f"### Jetson Orin\nFirst pass, fans at full speed and nothing else running.\n{TABLE}\n"
            f"Then again after a reboot, which changed nothing at all.\n{TABLE}\n"
            f"### Jetson Nano\n{TABLE}")
    assert labels(text) == ["Jetson Orin", "Jetson Orin", "Jetson Nano"]


def test_a_heading_that_is_a_command_names_nothing_but_ends_the_scope():
    text = f"## Board A\n{TABLE}\n## `openssl speed md5`\nIt took long to finish on the board.\n{TABLE}"
    assert labels(text) == ["Board A", None]


def test_a_setext_heading_and_a_paragraph_title_are_headings():
    text = (f"Results on the NAS\n==================\n\nWe ran this with the disks spun down, twice.\n"
            f"{TABLE}")
    assert labels(text) == ["Results on the NAS"]
    text = f"Symmetric ciphers\nThe box was idle while we ran the test below, twice.\n{TABLE}"
    assert labels(text) == ["Symmetric ciphers"]


def test_a_caption_beyond_a_sentence_names_nothing():
    # the short line above the story is that story's, not the table's
    text = f"release notes\n\nWe upgraded the kernel and rebuilt everything last week. Then:\n{TABLE}"
    assert labels(text) == [None]
    # a thread's title names none of its posts
    text = f"# Slow sha1 on ARM\n\nkim · comment · 2022-01-02\nI see this on mine:\n{TABLE}"
    assert labels(text) == [None]


def test_bullets_of_a_list_are_not_labels():
    text = f"Changes:\n  - bump the version\n  - fix the armv7 build\n{TABLE}"
    assert labels(text) == [None]
    # a bullet that introduces what follows is a caption
    assert labels(f"  - Rock 5B:\n{TABLE}") == ["Rock 5B"]


def test_the_tail_of_a_wrapped_sentence_is_no_label():
    text = f"Here we measured the cipher speed of the build that has the\npatch applied:\n{TABLE}"
    assert labels(text) == [None]


def test_a_caption_tail_joined_to_program_output_keeps_its_own_verdict():
    # (found by Hypothesis: the line above the tail is output, so the joined line is no label)
    text = "5 md5's in 1.00s\ninf0.00\ntype 16 bytes 64 bytes\n"
    try:
        df = cipherlab.ingest(text)
    except cipherlab.IngestError:
        return
    assert df["label"].isna().all()


def test_runs_back_to_back_share_the_label_above_them():
    runs = "".join(f"version: 3.2.{n}\n{TABLE}" for n in range(3))
    assert labels(f"Batch B\n{runs}Batch C\n{runs}") == ["Batch B"] * 3 + ["Batch C"] * 3


def test_a_caption_that_names_nothing_does_not_pass_the_one_above_it_on():
    """"Take 1:" then "2:": the second run is not "Take 1"'s; "1.0.2u:" then "3.3.2:" name two
    releases, though the second holds no letter."""
    assert labels(f"Take 1:\n{TABLE}\n2:\n{TABLE}") == ["Take 1", None]
    assert labels(f"> 1.0.2u:\n> {TABLE}>\n> 3.3.2:\n> {TABLE}") == ["1.0.2u", "3.3.2"]


def test_a_status_line_names_the_run_below_it():
    text = "".join(f"Testing {lib} build...\n{PK}" for lib in ("the static", "the shared"))
    assert labels(text) == ["Testing the static build", "Testing the shared build"]


def test_a_public_key_header_under_a_caption_starts_the_next_run():
    df = cipherlab.ingest(f"before:\n{PK}after:\n{PK}")
    assert df.groupby("run").label.first().tolist() == ["before", "after"]
    assert df.ops_per_s.tolist() == [1000.0, 10000.0] * 2


def test_captions_around_commands_and_machine_phrases():
    text = f"Old build: $ ./openssl-1.1.1 speed md5\n{TABLE}New build: $ ./openssl-3.3 speed md5\n{TABLE}"
    assert labels(text) == ["Old build", "New build"]
    text = f"Numbers from a run on my trusty ThinkPad laptop, plugged in.\n{TABLE}"
    assert labels(text) == ["trusty ThinkPad laptop"]


@pytest.mark.parametrize("line, version", [
    ("Version: LibreSSL 3.8.2", ("libressl", "3.8.2")),
    ("OpenSSL 3.5.0, built on 8 Apr 2025 (Library: OpenSSL 3.5.0 8 Apr 2025)", ("openssl", "3.5.0")),
])
def test_version_lines_people_paste(line, version):
    df = cipherlab.ingest(f"{line}\n{TABLE}")
    assert (df.tool.iloc[0], df.tool_version.iloc[0]) == version


# --- notices and timing bind to the output that follows them ------------------------------------
def test_notices_bind_to_the_output_that_follows_them():
    # engine and elapsed notices printed between two runs are the second run's, not the first's
    text = (f"{TABLE}engine \"devcrypto\" set.\nYou have chosen to measure elapsed time instead of "
            f"user CPU time.\nDoing md5 for 3s on 16 size blocks: 500 md5's in 3.00s\n{TABLE}")
    df = cipherlab.ingest(text)
    runs = df.groupby("run")[["engine", "timing"]].first()  # (agg(engine=...) is pandas' own)
    assert runs.engine.isna().tolist() == [True, False] and runs.engine.iloc[1] == "devcrypto"
    assert runs.timing.tolist()[1] == "elapsed" and runs.timing.isna().tolist()[0]
    # above the first output, they are the first run's
    df = cipherlab.ingest(f"Engine \"qat\" set.\n{TABLE}")
    assert set(df.engine) == {"qat"}


@pytest.mark.parametrize("functions, timing", [("getrusage", "cpu"), ("times", "cpu"),
                                                ("ftime", "elapsed"), ("gettimeofday", "elapsed")])
def test_timing_comes_from_the_timing_function_line(functions, timing):
    head = ("OpenSSL 0.9.8zh 3 Dec 2015\nbuilt on: Thu Jan 14 2016\n"
            f"available timing options: TIMES TIMEB HZ=100 [sysconf value]\ntiming function used: {functions}\n")
    assert set(cipherlab.ingest(head + TABLE).timing) == {timing}


def test_the_098_idle_notice_does_not_mean_elapsed():
    notice = "To get the most accurate results, try to run this\nprogram when this computer is idle.\n"
    df = cipherlab.ingest(notice + "OpenSSL 0.9.8k 25 Mar 2009\n" + TABLE)
    assert df.timing.isna().all()  # (user time not measured: -elapsed, or no times(): unknown)
    df = cipherlab.ingest(notice + "OpenSSL 0.9.8k 25 Mar 2009\ntiming function used: getrusage\n" + TABLE)
    assert set(df.timing) == {"cpu"}


def test_cpu_and_clock_come_from_the_prose_that_names_the_run():
    df = cipherlab.ingest(f"Dell R720, Intel Xeon E5-2680 @ 2.70GHz:\n{TABLE}")
    assert (df.cpu.iloc[0], df.clock_hz.iloc[0]) == ("Intel Xeon E5-2680", 2.7e9)
    df = cipherlab.ingest(f"#### AMD EPYC 7R13\n{TABLE}")
    assert df.cpu.iloc[0] == "AMD EPYC 7R13" and df.clock_hz.isna().all()
    assert cipherlab.ingest(f"Old NAS:\n{TABLE}").cpu.isna().all()  # (names none)


def test_captions_inside_a_comment_block_label_the_runs_of_that_comment():
    # (026's shape: a script's comment holding the runs, each introduced by a sentence, one
    # wrapped; the sentences are no labels, what they introduce is)
    text = ("#!/usr/bin/env python3\n# Benchmark notes\n#\n#   Measured on the lab's Ryzen box.\n#\n"
            "#   Below are the measurement results for the stock gcc 12 build:\n#\n"
            f"#   {TABLE.replace(chr(10), chr(10) + '#   ')}\n"
            "#   Here are performance numbers with clang 17 and LTO:\n#\n"
            "#   type 16 bytes 64 bytes\n#   md5 1.50k 2.50k\n#\n"
            "#   The figures that follow are the performance of the\n#   vectorised code path:\n#\n"
            "#   type 16 bytes 64 bytes\n#   md5 1.70k 2.70k\nimport os\n")
    df = cipherlab.ingest(text)
    assert labels(text) == ["stock gcc 12 build", "clang 17 and LTO", "vectorised code path"]
    assert set(df.rule.astype(str)) == {"label: subject of a sentence"}


@pytest.mark.parametrize("table", [
    TABLE,
    "| Cipher | 16 bytes | 64 bytes |\n|---|---|---|\n| chacha20-poly1305 | 100.00k | 200.00k |\n",
])
def test_a_tool_banner_is_no_label_the_caption_above_it_is(table):
    # (053's shape: the library's version as a fact between the caption and the table)
    assert labels(f"Results on the NAS:\nLibreSSL : LibreSSL 3.8.2\n\n{table}") == ["Results on the NAS"]


def test_a_document_table_takes_no_label_from_above_a_sentence():
    text = ("Rock 5B\nThe tests ran for three seconds per size, on the ciphers we were interested in.\n"
            "| Cipher | 16 bytes | 64 bytes |\n|---|---|---|\n| sm4-cbc | 100.00k | 200.00k |\n")
    assert labels(text) == [None]
    assert labels(text.replace("The tests", "### Rock 5B\nThe tests")) == ["Rock 5B"]


# --- an OPENSSL_ia32cap value the prose states binds to the output below it -------------------
def _isa(text):
    import warnings

    from cipherlab.errors import IngestWarning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest(text)
    said = [str(w.message) for w in caught if issubclass(w.category, IngestWarning)]
    cols = [c for c in ("isa_mask", "isa", "isa_off", "aesni") if c in df.columns]
    runs = df.groupby("run", observed=True)
    got = [{c: v for c in cols if (v := runs[c].first().iloc[r]) == v and v is not None}
           for r in range(runs.ngroups)]
    return got, runs["rule"].first().astype(str).tolist() if "rule" in df else [], said


def test_a_mask_in_the_prose_above_a_run_gives_it_the_isa_a_capture_would():
    text = ("On the Xeon, stock:\n\ntype 16 bytes 64 bytes\naes-256-ctr 1000.00k 2000.00k\n\n"
            "and with OPENSSL_ia32cap=~0x200000200000000:~0x60000000000:\n\n"
            "type 16 bytes 64 bytes\naes-256-ctr 400.00k 500.00k\n")
    got, rules, said = _isa(text)
    assert got == [{}, {"isa_mask": "~0x200000200000000:~0x60000000000", "isa": "no-aesni",
                        "isa_off": "aesni+pclmulqdq+vaes+vpclmulqdq", "aesni": "off"}]
    assert "isa_mask: OPENSSL_*cap in the prose above" in rules[1]
    assert any("asks to switch off" in m for m in said)  # decoded from the value: said so
    # the same run under a prompt's mask gets the same condition (no prose rule)
    prompt = text.replace("and with OPENSSL_ia32cap=~0x200000200000000:~0x60000000000:\n\n",
                          "$ OPENSSL_ia32cap=~0x200000200000000:~0x60000000000 openssl speed aes-256-ctr\n")
    got_prompt, rules_prompt, _ = _isa(prompt)
    assert got_prompt[1] == got[1] and "isa_mask" not in rules_prompt[1]


def test_an_env_mask_in_a_sentence_and_one_that_clears_more_than_aes():
    text = ("Then I ran it as env OPENSSL_ia32cap=\u201d~0x200000000000000:~0\u2033 openssl speed sha1, "
            "which gave:\n\ntype 16 bytes 64 bytes\nsha1 300.00k 600.00k\n\n"
            "and with OPENSSL_ia32cap='~0x200000200000000' (the AWS value) once more:\n\n"
            "type 16 bytes 64 bytes\nsha1 100.00k 200.00k\n")
    got, _, _ = _isa(text)
    assert got[0] == {"isa_mask": "~0x200000000000000:~0", "isa": "~0x200000000000000:~0",
                      "isa_off": "aesni", "aesni": "off"}
    # a value without ':' zeroes the second word (SHA-NI, AVX2 ...): no 'aesni' label
    assert got[1]["isa"] == "no-aesni-classic" and "aesni" not in got[1]
    assert got[1]["isa_off"].startswith("aesni+pclmulqdq+vaes+vpclmulqdq+shani+avx2")


def test_a_mask_the_prose_says_was_not_set_or_only_shows_gives_nothing():
    text = ("Without OPENSSL_ia32cap=~0x200000200000000, the stock run:\n\n"
            "type 16 bytes 64 bytes\nghash 1000.00k 2000.00k\n\n"
            "The box (CPUINFO: OPENSSL_ia32cap=0xfffa3203078bffff:0x405fc6f1bf07ab) again:\n\n"
            "type 16 bytes 64 bytes\nghash 1100.00k 2100.00k\n")
    got, _, said = _isa(text)
    assert got == [{}, {}] and not any("asks to switch off" in m for m in said)


def test_an_armcap_in_the_prose_or_a_command_is_decoded_like_ia32cap():
    """An ``OPENSSL_armcap`` value stated above a run or on its command line is its ``isa_mask``
    as ``armcap=VALUE`` and decoded into ``isa``/``isa_off`` (ARM's bits: the value replaces the
    word, so ``0x3d`` keeps NEON, AES, SHA1, SHA256 and PMULL: SHA512, TICK and CPUID go)."""
    text = ("Ampere Altra, stock:\n\ntype 16 bytes 64 bytes\nsha512 300.00k 600.00k\n\n"
            "and with OPENSSL_armcap=0x3d:\n\ntype 16 bytes 64 bytes\nsha512 100.00k 200.00k\n\n"
            "$ OPENSSL_armcap=0x3d openssl speed sha512\ntype 16 bytes 64 bytes\nsha512 101.00k 201.00k\n")
    got, rules, said = _isa(text)
    decoded = {"isa_mask": "armcap=0x3d", "isa": "armcap=0x3d", "isa_off": "sha512+tick+cpuid"}
    assert got == [{}, decoded, decoded]
    assert any("OPENSSL_armcap=0x3d asks to switch off" in m for m in said)


def test_a_counter_report_after_a_run_names_nothing_below_it():
    # `perf stat -r 3` after the first run: its counters and times are program output
    report = ("\n Performance counter stats for 'openssl speed rsa2048' (3 runs):\n\n"
              "          2,118.47 msec task-clock   #  0.998 CPUs utilized  ( +-  0.21% )\n"
              "     8,402,233,918      cycles                              ( +-  0.05% )\n\n"
              "           2.12290 +- 0.00441 seconds time elapsed  ( +-  0.21% )\n\n")
    assert labels(f"$ perf stat -r 3 openssl speed rsa2048\n{PK}{report}$ openssl speed md5\n{TABLE}") == [None, None]


def test_a_heading_naming_a_cpus_clocks_labels_its_run():
    # two clocks are no "measurements typed into a line": each machine keeps its name
    # (the second heading, a blank line under the first table, is no row of that table either)
    text = ("### Laptop (Core i5-8250U, 1.60GHz-3.40GHz)\n\n" + TABLE
            + "\n### Desktop, Ryzen 7 5800X 3.80 GHz / 4.70 GHz boost\n\n" + TABLE)
    assert labels(text) == ["Laptop (Core i5-8250U, 1.60GHz-3.40GHz)",
                            "Desktop, Ryzen 7 5800X 3.80 GHz / 4.70 GHz boost"]
    assert labels("### sign/s: 1533.00; verify/s 51018.50\n\n" + TABLE) == [None]


def test_the_same_machine_names_no_machine():
    """"on the same box" points back at a machine named elsewhere (terminal/042's run got the
    label 'same box'); "on our old Xeon server" still names one."""
    table = "type             16 bytes\nmd5              {}k\n"
    text = ("Then the same command on the same laptop, plugged in:\n" + table.format("91287.11") +
            "\nAnd on our old Xeon server:\n" + table.format("81287.11"))
    df = cipherlab.ingest(text)
    assert [v if v == v else None for v in df.label] == [None, "old Xeon server"]
    assert C.label_verdict("and a normal run on the same box for comparison:") == C.STOP


# --- what a label's line glues to the name (label_text): issue 12's "often junk" labels ------
@pytest.mark.parametrize("line, label", [
    ("3. version: 1.1.1q", "1.1.1q"),  # (a numbered item's number; a version's key)
    ("2) Pi 4 at stock clocks:", "Pi 4 at stock clocks"),
    ("3.0.13:", "3.0.13"),  # (a release is no list number)
    ("while in mingw", "in mingw"),  # (a connective to the prose before)
    ("\u3010\u6d4b\u8bd5\u73af\u58832\u3011", "\u6d4b\u8bd5\u73af\u58832"),  # (CJK title brackets)
    ('Without (OPENSSL_ia32cap="~0x200000000000000"):', "Without"),  # (the mask: isa_mask)
    ("with OPENSSL_armcap=0x1 (NEON only):", "with (NEON only)"),
    ("Results (OpenSSL 3.0.13, Xeon E-2388G)", "Xeon E-2388G"),  # (the facts name it)
    ("#### 1024-byte blocks, KB/s (OpenSSL 1.1.1t, i5-4590)", "i5-4590"),
    ("## AES-NI on vs off (OpenSSL 3.0.13, Ryzen 7 5800X)", "Ryzen 7 5800X"),  # (a comparison)
    ("Hashing on the NAS (Atom C3758, OpenSSL 1.1.1n):", "NAS (Atom C3758)"),  # (the version: a fact)
    ("Graviton 3 (LibreSSL 3.8.2):", "Graviton 3"),
    ("Apple G5 1.8GHz (Note this is 32 bit code)", "Apple G5 1.8GHz"),  # (a note names nothing)
    ("Pi 4 (turbo off):", "Pi 4 (turbo off)"),  # (a condition stays: it tells two runs apart)
    ("For comparison, my numbers on the same Xeon E3-1230 v5:", "Xeon E3-1230 v5"),
    ("'apps/openssl speed rsa dsa' output with no-asm:", "with no-asm"),
    ("## Post-quantum speed on the Framework 13 (Ryzen 7 7840U)", "Framework 13 (Ryzen 7 7840U)"),
    ("## Benchmarking ChaCha20 vs AES on a Celeron J4125", "Celeron J4125"),
    ("## Notes on AES-NI", "Notes on AES-NI"),  # (no measurement: the title names it)
])
def test_a_label_loses_what_its_line_glues_to_the_name(line, label):
    assert C.prose_label(line) == label


def test_a_label_is_no_number_version_or_mask_in_a_text():
    text = ("1. version: 3.0.8\n" + TABLE + "\n2. version: 1.1.1q\n" + TABLE.replace("2.00k", "3.00k")
            + '\nWithout (OPENSSL_ia32cap="~0x200000000000000"):\n' + TABLE.replace("1.00k", "0.50k"))
    df = cipherlab.ingest(text)
    assert labels(text) == ["3.0.8", "1.1.1q", "Without"]
    assert df.groupby("run").isa_mask.first().tolist()[2] == "~0x200000000000000"


def test_a_board_named_in_lower_case_is_no_sentence_going_on():
    """``i.MX 8M Mini EVK`` starts in lower case as a board's name does (a capital or a digit in
    its first word: ``iPhone``, ``imx8``), not as the tail of a sentence."""
    assert C.label_verdict("i.MX 8M Mini EVK") == C.Label("i.MX 8M Mini EVK", "caption")
    assert C.prose_label("*i.MX 8M Mini EVK (Cortex-A53 @ 1.8 GHz)*") == "i.MX 8M Mini EVK (Cortex-A53 @ 1.8 GHz)"
    assert C.prose_label("iPhone 15 Pro, openssl 3.3 via a-Shell:") == "iPhone 15 Pro, openssl 3.3 via a-Shell"
    assert C.label_verdict("load the default config") == C.STOP  # (a sentence's words still are)
    assert C.label_verdict("h3. Crypto throughput after the OpenSSL 3.0.13 upgrade") == C.STOP
    assert not C.wrapped_tail("Pi 4 numbers:", "imx8 board")
    df = cipherlab.ingest(f"*i.MX 8M Mini EVK (Cortex-A53 @ 1.8 GHz)*\n\n{TABLE}")
    assert (df.label.iloc[0], df.cpu.iloc[0], df.clock_hz.iloc[0]) == (
        "i.MX 8M Mini EVK (Cortex-A53 @ 1.8 GHz)", "Cortex-A53", 1.8e9)


def test_a_servers_generation_is_no_second_cpu():
    """``M2`` after a server's model number (``Primergy TX1320 M2``, ``UCS C220 M5``) is its
    generation, not Apple's M2: the Xeon beside it is the run's CPU."""
    df = cipherlab.ingest(f"Fujitsu Primergy TX1320 M2, Xeon E3-1230 v5, 32 GB RAM:\n{TABLE}")
    assert df.cpu.iloc[0] == "Xeon E3-1230 v5"
    df = cipherlab.ingest(f"### Cisco UCS C220 M5 (Xeon Silver 4110)\n\n{TABLE}")
    assert df.cpu.iloc[0] == "Xeon Silver 4110"
    assert cipherlab.ingest(f"### Mac mini M2\n\n{TABLE}").cpu.iloc[0] == "M2"


def test_a_list_of_names_is_no_sentence_for_its_length():
    """Ten words or more make a sentence where one is a lower-case word or no comma parts them:
    a machine's list of parts (a numbered item here) names the run below it."""
    assert C.prose_label("1. Fujitsu Primergy TX1320 M2, Xeon E3-1230 v5, 32 GB RAM:") == \
        "Fujitsu Primergy TX1320 M2, Xeon E3-1230 v5, 32 GB RAM"
    assert C.label_verdict("How To Benchmark OpenSSL Speed On Your Raspberry Pi 4 Model B") == C.STOP
    assert C.label_verdict("Ran it on the three boxes I have here, all of them on 1.1.1 builds:") == C.STOP


def test_a_reply_attribution_and_a_shells_greeting_name_no_run():
    """A reply's attribution above the run it quotes (terminal 633) names the quote's author,
    no run, nor the replier's runs below; a shell's greeting above its first prompt (terminal
    635) is program output; a comment's head (author and time) is a byline."""
    quoted = "".join(f"> {line}\n" for line in TABLE.splitlines())
    text = (f"Marta Kowalska 2025-11-30 11:02:44 UTC\n\n(In reply to Lukas Berger from comment #2)\n"
            f"> The old box is much slower:\n{quoted}\nHere is mine:\n\n{PK}")
    assert labels(text) == [None, None]
    greeting = "Welcome to fish, the friendly interactive shell\nType help for instructions on how to use fish\n"
    assert labels(f"{greeting}kim@x13s ~/bench> openssl speed md5\n{TABLE}") in ([None], ["x13s"])


def test_a_machine_and_its_cpu_at_the_start_of_a_sentence_name_the_run_below():
    assert C.label_verdict("On my ThinkPad X1 Carbon (i7-8650U) the numbers were:") == \
        C.Label("ThinkPad X1 Carbon (i7-8650U)", "machine phrase")
    text = f"Tried it twice.\n\nOn our Dell R640 (Xeon Silver 4114) it gives:\n\n{TABLE}"
    assert labels(text) == ["Dell R640 (Xeon Silver 4114)"]


def test_a_label_that_switches_a_feature_gives_its_runs_that_condition():
    assert C.label_conditions("Ohne AES-NI") == {"aesni": "off"}
    assert C.label_conditions("with AES-NI and without AES-NI") == {}  # (both: says neither)
    assert C.label_text("Mit (also ohne AES-NI)") == "ohne AES-NI"  # ("with", meaning without)
    text = f"### mit AES-NI\n\n{TABLE}\n### Ohne AES-NI\n\n{TABLE.replace('1.00k', '0.50k')}"
    df = cipherlab.ingest(text)
    assert df.groupby("run")[["label", "aesni"]].first().values.tolist() == [
        ["mit AES-NI", "on"], ["Ohne AES-NI", "off"]]
