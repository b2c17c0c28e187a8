"""openssl output copied out of logs reads as without the log's prefixes (issue 12, layer 1).

Each log form puts a prefix before every line: a time stamp whose digits change from line to
line, a tag the same on every line, or both (``readers/_text.py``, ``strip_shared_prefix``). A
text behind such a prefix must give the very table the bare text gives (cells, runs, labels,
line numbers); openssl's own lines that look like a prefix (``Got:``, ``+DT:``, ``version:``,
rows of one algorithm family) are never cut; two sources whose lines interleave are read apart,
each named by its tag, never mixed. The texts here are small variants written for these tests; the whole log
texts are ``tests/data/user/logs``.
"""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import cipherlab
from cipherlab.errors import IngestError
from cipherlab.readers._text import sources, strip_shared_prefix

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

# A 1.1.1 run with progress lines, its header lines and both tables (values made up).
BARE = """\
Doing sha1 for 3s on 16 size blocks: 14017000 sha1's in 2.99s
Doing sha1 for 3s on 64 size blocks: 9940123 sha1's in 3.00s
Doing 2048 bits private rsa's for 10s: 12480 2048 bits private RSA's in 9.98s
Doing 2048 bits public rsa's for 10s: 411021 2048 bits public RSA's in 9.99s
OpenSSL 1.1.1w  11 Sep 2023
built on: Mon Sep 11 14:08:11 2023 UTC
options:bn(64,64) rc4(16x,int) des(int) aes(partial) idea(int) blowfish(ptr)
compiler: gcc -fPIC -pthread -m64 -Wa,--noexecstack -Wall -O3 -DL_ENDIAN
The 'numbers' are in 1000s of bytes per second processed.
type             16 bytes     64 bytes
sha1             75007.36k   212056.00k
                  sign    verify    sign/s verify/s
rsa 2048 bits 0.000800s 0.000024s   1250.5  41143.3
""".splitlines()


def _stamps(fmt):
    """A prefix maker: the prefix of line ``i`` from a clock that moves on."""
    return lambda i: fmt(7 + i * 1.37)


def _hms(t: float) -> str:
    return f"11:{int(t // 60) % 60:02d}:{t % 60:09.6f}"


PREFIXES = {  # other names, hosts and clocks than the texts of tests/data/user/logs
    "github actions": _stamps(lambda t: f"2025-11-30T{_hms(t)[:-3]}0000Z "),
    "docker logs -t": _stamps(lambda t: f"2025-11-30T{_hms(t)}123Z ".replace("000123Z", "000123Z")),
    "rfc 3339 offset": _stamps(lambda t: f"2025-11-30T{_hms(t)}+01:00 "),
    "cri": _stamps(lambda t: f"2025-11-30T{_hms(t)[:-3]}456789Z stderr F "),
    "gitlab": _stamps(lambda t: f"2025-11-30T{_hms(t)}Z 01E+ "),
    "buildkit": _stamps(lambda t: f"#23 {t - 7:.3f} "),
    "buildkite": _stamps(lambda t: f"\x1b_bk;t={1764500000000 + int(t * 1000)}\x07"),
    "compose": lambda i: "\x1b[33mcrypto-bench-2  | \x1b[0m",
    "journal": _stamps(lambda t: f"Nov 30 {_hms(t)[:8]} rpi5 speed.sh[981]: "),
    "journal precise": _stamps(lambda t: f"Nov 30 {_hms(t)} rpi5 speed.sh[981]: "),
    "syslog priority": _stamps(lambda t: f"<14>Nov 30 {_hms(t)[:8]} rpi5 speed: "),
    "ts": _stamps(lambda t: f"Nov 30 {_hms(t)[:8]} "),
    "ts -s": _stamps(lambda t: f"00:{int(t // 60):02d}:{int(t % 60):02d} "),
    "kubectl prefix": lambda i: "[pod/speed-5c8d9/bench] ",
    "kubectl both": _stamps(lambda t: f"[pod/speed-5c8d9/bench] 2025-11-30T{_hms(t)}Z "),
    "dmesg": _stamps(lambda t: f"[{t:12.6f}] "),
    "dmesg -T": _stamps(lambda t: f"[Sun Nov 30 {_hms(t)[:8]} 2025] "),
    "jenkins": _stamps(lambda t: f"[{_hms(t)[:12]}] "),
    "windows": _stamps(lambda t: f"11/30/2025 11:{int(t // 60):02d}:{int(t % 60):02d} AM "),
    "python logging": _stamps(lambda t: f"2025-11-30 {_hms(t)[:8]},{int(t * 1000) % 1000:03d} INFO "),
    "make": lambda i: "make[2]: ",
    "pdsh": lambda i: "node07: ",
    "parallel --tag": lambda i: "sha1\t",  # (a job per algorithm: its name is the tag)
    "parallel --tag, options": lambda i: "-evp aes-128-gcm\t",
    "srun --label": lambda i: "0: ",
    "srun --label, padded": lambda i: " 7: ",
    "mpirun --tag-output": lambda i: "[1,0]<stdout>:",  # (no blank after the stream)
    "heroku": _stamps(lambda t: f"2025-11-30T{_hms(t)}+00:00 app[worker.1]: "),
}


def _read(lines: list[str]) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cipherlab.ingest("\n".join(lines) + "\n", n_jobs=1)


def _table(df: pd.DataFrame) -> pd.DataFrame:
    return df.drop(columns=["source"]).reset_index(drop=True)


@pytest.mark.parametrize("form", PREFIXES)
def test_openssl_behind_a_log_prefix_reads_as_without_it(form):
    prefix = PREFIXES[form]
    bare = _read(BARE)
    logged = _read([prefix(i) + line for i, line in enumerate(BARE)])
    assert len(bare) == 4  # (sha1 at two sizes, rsa2048 sign and verify)
    pd.testing.assert_frame_equal(_table(logged), _table(bare))


@pytest.mark.parametrize("lines", [
    ["Got: +F:1:md5:100.00:200.00 from 0", "Got: +F:1:md5:110.00:210.00 from 1",
     "Got: +F:1:md5:120.00:220.00 from 2"],
    ["+DT:md5:3:16", "+R:1000:md5:3.00", "+DT:md5:3:64", "+R:900:md5:3.00"],
    ["aes-128-cbc: 16 bytes 1.00k", "aes-128-cbc: 64 bytes 2.00k", "aes-128-cbc: 256 bytes 3.00k"],
    ["aes-128 cbc: 16 bytes 1.00k", "aes-128 cbc: 64 bytes 2.00k", "aes-128 cbc: 256 bytes 3.00k"],
    ["version: 3.0.13", "built on: Sat Feb 17 00:00:00 2024 UTC", "options: bn(64,64)"],
    ["rsa 2048 bits 0.000800s 0.000024s 1250.5 41143.3", "rsa 4096 bits 0.005s 0.0001s 200.0 10000.0",
     "rsa 8192 bits 0.05s 0.0003s 20.0 3000.0"],
    ["type\t16 bytes 64 bytes", "md5\t 1.00k 2.00k", "sha1\t 3.00k 4.00k"],  # (TABs for spaces)
    ["md5\t16\t1.00k", "md5\t64\t2.00k", "md5\t256\t3.00k"],  # (a TSV table, long format)
    ["host | cipher | 16 bytes", "host-a | aes-128-cbc | 1.00", "host-a | aes-256-cbc | 2.00",
     "host-a | chacha20 | 3.00"],
    ["16:42:07 is when I ran it", "type 16 bytes", "md5 1.00k"],
])
def test_openssl_own_lines_are_no_log_prefix(lines):
    assert strip_shared_prefix(lines)[0] == lines


def test_a_multi_parents_got_lines_keep_their_records():
    text = ["Got: +H:16:64 from 0", "Got: +F:1:md5:1000.00:2000.00 from 0",
            "Got: +H:16:64 from 1", "Got: +F:1:md5:1100.00:2100.00 from 1"]
    assert strip_shared_prefix(text)[0] == text


def test_markdown_tables_and_mail_quotes_keep_their_marks():
    quoted = ["> type 16 bytes", "> md5 1.00k", "> sha1 2.00k"]
    assert strip_shared_prefix(quoted)[0] == ["type 16 bytes", "md5 1.00k", "sha1 2.00k"]
    table = ["| type | 16 bytes |", "| md5 | 1.00k |", "| sha1 | 2.00k |"]
    assert strip_shared_prefix(table)[0] == table


_A = ["You have chosen to measure elapsed time instead of user CPU time.",
      "Doing md5 for 3s on 16 size blocks: 3000 md5's in 3.00s"]
_B = ["Doing sha1 for 3s on 16 size blocks: 6000 sha1's in 3.00s",
      "Doing sha1 for 3s on 64 size blocks: 5000 sha1's in 3.00s"]
_TAIL = ["The 'numbers' are in 1000s of bytes per second processed.", "type 16 bytes 64 bytes"]


@pytest.mark.parametrize(("tag", "name"), [
    (lambda k: f"web-{k}    | ", "web-{}"),  # docker compose
    (lambda k: f"\x1b[3{k}mweb-{k}    | \x1b[0m", "web-{}"),  # coloured
    (lambda k: f"node0{k}: ", "node0{}"),  # pdsh, clush
    (lambda k: f"node0{k}\t", "node0{}"),  # GNU parallel --tag --line-buffer
    (lambda k: f"[pod/speed-4k2x{k}/bench] ", "pod/speed-4k2x{}/bench"),  # kubectl logs --prefix
    (lambda k: f"[pod/speed-4k2x{k}/bench] 2025-11-30T11:0{k}:07.{k}1Z ",  # and --timestamps
     "pod/speed-4k2x{}/bench"),
    (lambda k: f"{k}: ", "{}"),  # Slurm's srun --label: the task's number
    (lambda k: f"[1,{k}]<stdout>:", "1,{}"),  # Open MPI's --tag-output: job and rank
    (lambda k: f"2025-11-30T11:0{k}:07.{k}18204+00:00 app[worker.{k}]: ", "app[worker.{}]"),  # heroku
    (lambda k: f"\x1b[3{k}mspeed-4k2x{k}\x1b[0m \x1b[3{k}mbench\x1b[0m ", "speed-4k2x{} bench"),  # stern
])
def test_two_sources_interleaved_are_read_apart_and_named_by_their_tags(tag, name):
    lines = ["$ docker compose up"] + [tag(k) + x for pair in zip(_A, _B, strict=True)
                                      for k, x in enumerate(pair, 1)]
    lines += [tag(1) + x for x in [*_TAIL, "md5 1.00k 2.00k"]]
    lines += [tag(2) + x for x in [*_TAIL, "sha1 32.00k 106.67k"]]
    runs = _read(lines).groupby("run")
    assert runs.algorithm.first().tolist() == ["md5", "sha1"]
    assert runs.label.first().tolist() == [name.format(1), name.format(2)]
    assert runs.timing.first().tolist() == ["elapsed", "cpu"]
    assert _read(lines).set_index(["algorithm", "block_bytes"]).line.to_dict() == {
        ("md5", 16): 8, ("md5", 64): 8, ("sha1", 16): 11, ("sha1", 64): 11}  # (the text's lines)
    assert runs.rule.first().str.contains("label: tag of its source").all()


def test_a_ranks_two_streams_are_one_source():
    """Open MPI's ``--tag-output`` tags each line with its rank's stream: a rank's progress
    lines on stderr and its tables on stdout are one source, named by the rank alone."""
    a = [*_A, "Doing md5 for 3s on 64 size blocks: 2000 md5's in 3.00s"]
    b = [*_B, "Doing sha1 for 3s on 256 size blocks: 4000 sha1's in 3.00s"]
    lines = [f"[1,{k}]<stderr>:{x}" for pair in zip(a, b, strict=True) for k, x in enumerate(pair, 1)]
    lines += [f"[1,1]<stdout>:{x}" for x in [*_TAIL, "md5 1.00k 2.00k"]]
    lines += [f"[1,2]<stdout>:{x}" for x in [*_TAIL, "sha1 32.00k 106.67k"]]
    assert [name for _, _, name in sources(lines, None)] == ["1,1", "1,2"]
    runs = _read(lines).groupby("run")
    assert runs.label.first().tolist() == ["1,1", "1,2"]
    assert runs.timing.first().tolist() == ["elapsed", "cpu"]


def test_two_words_before_each_line_are_no_tag_without_their_colours():
    """stern without colour (``pod container message``) shows no tag a reader can tell from
    the first words of openssl's own lines (``Doing 2048 bits ...``): no sources, read loud."""
    lines = [f"speed-4k2x{k} bench {x}" for pair in zip(_A, _B, strict=True) for k, x in enumerate(pair, 1)]
    lines += ["Doing 2048 bits private rsa's for 10s: 12480 2048 bits private RSA's in 9.98s",
              "Doing 2048 bits public rsa's for 10s: 411021 2048 bits public RSA's in 9.99s"] * 2
    assert sources(lines, None) == [(lines, None, None)]
    assert strip_shared_prefix(lines)[0] == lines


def test_a_raw_ci_logs_lines_are_program_output_and_name_no_run():
    """Travis CI's raw log (logs 041): its markers show the text is the CI's log; the worker's
    facts (`Runtime kernel version: 6.8.0-1021-gcp`) and the folds' titles above the step's run
    are the CI's output, no caption; a framed line a step echoes still names its run."""
    def log(above):
        return ["travis_fold:start:system_info\r\x1b[0K\x1b[33;1mBuild system information\x1b[0m",
                "Build language: generic", "Build dist: jammy", "Runtime kernel version: 5.15.0-1049-gcp",
                "travis_fold:end:system_info\r\x1b[0K", *above,
                "travis_time:start:71c0e2aa\r\x1b[0K$ openssl speed -seconds 3 sha1", *BARE[:2], *BARE[4:11],
                "travis_time:end:71c0e2aa:start=1764500000123456789,finish=1764500009123456789,"
                "duration=9000000000,event=script\r\x1b[0K"]
    assert _read(log([])).label.isna().all()
    assert _read(log(["== rpi5 =="])).label.unique().tolist() == ["rpi5"]


def test_a_programs_log_between_a_service_managers_lines_is_one_source():
    """Behind a stamp, a tag is a program's (journald's ``host prog[pid]:``): systemd's lines
    before and after a script's are no second source of its output; nor are numbers before a
    colon that stand on two lines each."""
    stamp = _stamps(lambda t: f"Nov 30 {_hms(t)[:8]} rpi5 ")
    body = ["systemd[1]: Starting bench.service...", "systemd[1]: Started bench.service.",
            "systemd[1]: bench.service: Scheduled.", *(f"bench.sh[981]: {x}" for x in BARE),
            "systemd[1]: bench.service: Deactivated successfully."]
    lines = [stamp(i) + line for i, line in enumerate(body)]
    assert [name for _, _, name in sources(lines, None)] == [None]
    assert _read(lines).label.isna().all()
    numbered = ["1: md5 1.00k", "2: sha1 2.00k", "1: see above", "2: and below", "3: done"]
    assert sources(numbered, None) == [(numbered, None, None)]


def test_sources_keep_a_wrapped_lines_rest_and_leave_the_lines_outside_them():
    lines = ["Attaching to db-1, db-2", "db-1  | Doing md5 for 3s on 16 size blocks: 3000 md5's",
             "in 3.00s", "db-2  | x", "db-1  | y", "db-2  | z", "db-1  | w", "db-2  | v",
             "db-1 exited with code 0"]
    got = {name: (text, origin) for text, origin, name in sources(lines, None)}
    assert got[None] == (["Attaching to db-1, db-2", "db-1 exited with code 0"], [0, 1, 9])
    assert got["db-1"][1] == [0, 2, 3, 5, 7] and got["db-2"][1] == [0, 4, 6, 8]


def test_github_markers_are_no_text_and_a_run_step_is_its_prompt():
    stamp = _stamps(lambda t: f"2025-11-30T{_hms(t)[:-3]}0000Z ")
    body = ["##[group]Run openssl speed -elapsed -seconds 3 sha1",
            "\x1b[36;1mopenssl speed -elapsed -seconds 3 sha1\x1b[0m",
            "shell: /usr/bin/bash -e {0}", "##[endgroup]", *BARE[:2], *BARE[4:11],
            "::group::Tidy up", "Cleaning up orphan processes", "::endgroup::"]
    lines = [stamp(i) + line for i, line in enumerate(body)]
    assert strip_shared_prefix(lines)[0][:4] == [
        "openssl speed -elapsed -seconds 3 sha1", "openssl speed -elapsed -seconds 3 sha1\x1b[0m",
        "shell: /usr/bin/bash -e {0}", ""]
    df = _read(lines)
    assert df.timing.unique().tolist() == ["elapsed"]
    assert df.label.isna().all()
    assert df.line.tolist() == [body.index(BARE[10]) + 1] * 2  # (the table row's own line)


def test_a_dockerfile_run_step_is_its_prompt():
    body = ["#9 [bench 2/2] RUN OPENSSL_ia32cap=~0x200000200000000 openssl speed -seconds 3 sha1",
            *[f"#9 {0.5 + i:.3f} {line}" for i, line in enumerate(BARE[:2] + BARE[4:11])],
            "#9 DONE 7.1s"]
    df = _read(body)
    assert df.isa_mask.unique().tolist() == ["~0x200000200000000"]


@pytest.mark.parametrize("above, label", [("Fetched 9196 kB in 1s", None), ("with:", None),
                                          ("=== rpi5 ===", "rpi5"), ("Results on rpi5:", "Results on rpi5")])
def test_a_log_line_is_no_caption_but_a_framed_one_names_the_run(above, label):
    stamp = _stamps(lambda t: f"Nov 30 {_hms(t)[:8]} ")
    lines = [stamp(i) + line for i, line in enumerate([above, *BARE[:2], *BARE[4:11]])]
    labels = _read(lines).label.tolist()
    assert labels == [label] * 2 if label else pd.isna(labels).all()


def test_gitlab_section_markers_end_in_a_cr_that_ends_no_line():
    stamp = _stamps(lambda t: f"2025-11-30T{_hms(t)}Z 00O ")
    body = ["section_start:1764500000:step_script\r\x1b[0K\x1b[36;1mExecuting step\x1b[0;m",
            "\x1b[32;1m$ openssl speed -seconds 3 sha1\x1b[0;m", *BARE[:2], *BARE[4:11],
            "section_end:1764500009:step_script\r\x1b[0K"]
    df = _read([stamp(i) + line for i, line in enumerate(body)])
    assert df.block_bytes.tolist() == [16, 64] and df.line.tolist() == [body.index(BARE[10]) + 1] * 2


def test_rows_that_name_their_machine_keep_it_as_a_tag_is_no_log():
    # three rows or more behind each machine's name: the rows' own rule reads them, two runs
    rows = [f"{host}: {name} {a}.00k {b}.00k" for host in ("Pi5", "X13s")
            for name, a, b in (("md5", 1, 2), ("sha1", 3, 4), ("sha256", 5, 6))]
    assert strip_shared_prefix(rows)[0] == rows
    df = _read(["type 16 bytes 64 bytes", *rows])
    runs = df.groupby("run").agg(label=("label", "first"), cells=("algorithm", "size"))
    assert runs.label.tolist() == ["Pi5", "X13s"] and runs.cells.tolist() == [6, 6]


def test_a_wrapped_log_line_keeps_its_block():
    # a mail client broke the long lines: their rests have no stamp, the block goes on
    stamp = _stamps(lambda t: f"2025-11-30T{_hms(t)}Z ")
    lines = []
    for i, line in enumerate([*BARE[:2], *BARE[4:11]]):
        head, _, rest = line.partition(" blocks: ") if line.startswith("Doing") else (line, "", "")
        lines += [stamp(i) + head + (" blocks:" if rest else "")] + ([rest] if rest else [])
    stripped, logs = strip_shared_prefix(lines)
    assert stripped[:3] == ["Doing sha1 for 3s on 16 size blocks:", "14017000 sha1's in 2.99s",
                            "Doing sha1 for 3s on 64 size blocks:"]
    assert all(logs) and len(set(logs)) == 1


def test_a_document_table_in_a_log_is_read_behind_its_stamps():
    table = ["| cipher | 16 bytes | 64 bytes |", "|---|---|---|", "| md5 | 1000.00k | 2000.00k |",
             "| sha1 | 3000.00k | 4000.00k |"]
    stamp = _stamps(lambda t: f"2025-11-30T{_hms(t)}Z ")
    bare, logged = _read(table), _read([stamp(i) + line for i, line in enumerate(table)])
    assert len(bare) == 4
    pd.testing.assert_frame_equal(_table(logged), _table(bare))


@pytest.mark.parametrize("head", [
    lambda host, i: f"{host} | CHANGED | rc=0 >>",  # ansible ad-hoc, shell module
    lambda host, i: f"{host}.lab.example | SUCCESS | rc=0 >>",  # command module, older ansible
])
def test_the_head_line_of_each_hosts_block_names_its_runs(head):
    lines = ["$ fleet run 'openssl speed sha1'"]
    for i, (host, value) in enumerate((("edge-7", "75007.36k"), ("edge-8", "65007.36k")), 1):
        lines += [head(host, i), *BARE[4:10], f"sha1             {value}   212056.00k"]
    lines += [head("edge-9", 3).replace("CHANGED", "FAILED").replace("SUCCESS", "FAILED"),
              "bash: openssl: command not found"]
    runs = _read(lines).groupby("run")
    assert [label.split(".")[0] for label in runs.label.first()] == ["edge-7", "edge-8"]
    assert runs.bytes_per_s.first().tolist() == [75007360.0, 65007360.0]
    assert runs.line.first().tolist() == [9, 17]


@pytest.mark.parametrize("prefix", ["    qemu.bench-arm64: ", "    default: ",  # Packer, Vagrant
                                    "null_resource.speed (remote-exec): "])  # Terraform
def test_provisioners_prefixes_are_stripped(prefix):
    bare = _read(BARE)
    logged = _read(["==> qemu.bench-arm64: Provisioning with shell script: /tmp/p.sh",
                    *(prefix + line for line in BARE)])
    pd.testing.assert_frame_equal(_table(logged).drop(columns="line"), _table(bare).drop(columns="line"))


def test_a_powershell_transcript_names_its_runs_by_its_machine_and_is_no_text_itself():
    frame = "**********************"
    lines = [frame, "PowerShell transcript start", "Start time: 20251130110007", "Username: LAB\\ci",
             "Machine: WIN-BENCH07 (Microsoft Windows NT 10.0.26100.0)", "PSVersion: 7.4.6", frame,
             "Transcript started, output file is D:\\logs\\speed.txt", "PS D:\\> openssl speed sha1",
             *BARE[:2], *BARE[4:11], "PS D:\\> Stop-Transcript", frame, "PowerShell transcript end",
             "End time: 20251130110019", frame]
    df = _read(lines)
    assert df.label.unique().tolist() == ["WIN-BENCH07"]
    assert df.bytes_per_s.tolist() == [75007360.0, 212056000.0]


def test_a_reports_keys_among_its_values_are_no_sources_and_its_trials_are_reported():
    # a benchmark harness's report (the Phoronix Test Suite's shape, other names): each test's
    # trials under a heading that names the algorithm, then their average in an openssl rate;
    # its indented keys repeat like a tag, but among untagged lines: no log's sources
    lines = []
    for name, values, unit in (("AES-256-GCM", ("4412.5", "4409.9", "4415.0"), "bytes/s"),
                               ("ChaCha20-Poly1305", ("2210.4", "2208.7", "2209.1"), "bytes/s"),
                               ("Ed25519", ("51234.0", "51190.2", "51301.7"), "sign/s")):
        lines += ["", f"    Cipher: {name}:", *(f"        {v}" for v in values), "",
                  f"    Average: {float(values[0]):.1f} {unit}", f"    Deviation: 0.06%"]
    assert [name for *_, name in sources(lines, None)] == [None]
    with pytest.raises(IngestError) as raised:
        _read(lines)
    values = [k for k, line in enumerate(lines, 1) if line.strip()[:1].isdigit() or "Average" in line]
    assert [n for n, _ in raised.value.unplaced] == values


def test_ansible_yaml_results_are_read_each_named_by_its_host():
    """ansible-core's ``callback_result_format = yaml``: ``ok: [host] =>`` alone, the result's
    keys four blanks in, the output as a ``stdout_lines`` list of quoted strings and a ``stderr``
    block scalar. Each host's output is a text of its own, named by it (the YAML callback's
    results were one text: the second host's run was named 'stdout_lines: <omitted>')."""
    def result(host: str, value: str) -> str:
        return (f"ok: [{host}] =>\n    changed: false\n    cmd: openssl speed -elapsed -bytes 64 md5\n"
                f"    rc: 0\n    stderr: |-\n"
                f"        You have chosen to measure elapsed time instead of user CPU time.\n"
                f"    stdout_lines:\n    - 'type             64 bytes'\n    - md5              {value}k\n")
    text = ("TASK [speed] *****\n" + result("edge-a.lab", "412871.33") + result("edge-b.lab", "398201.41")
            + "\nPLAY RECAP *****\nedge-a.lab : ok=1\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.ingest(text)
    assert df[["label", "timing", "block_bytes"]].values.tolist() == [
        ["edge-a.lab", "elapsed", 64], ["edge-b.lab", "elapsed", 64]]
    assert df.bytes_per_s.tolist() == [412871330.0, 398201410.0]
    assert df.line.tolist() == [10, 19]  # (the lines of the log that hold them)


def test_travis_fold_and_time_markers_end_in_a_cr_that_ends_no_line():
    """Travis CI's raw log (logs 041): `travis_time:start:ID CR ESC[0K` before the script's
    `$ openssl speed ...` on the same line, `travis_time:end:...,event=script CR ESC[0K`
    before the step's result: no text, and the command stays the run's."""
    body = ["travis_fold:start:worker_info\r\x1b[0K\x1b[33;1mWorker information\x1b[0m",
            "travis_fold:end:worker_info\r\x1b[0K",
            "travis_time:start:5e0a17c2\r\x1b[0K$ openssl speed -seconds 3 -elapsed sha1", *BARE[:2],
            *BARE[4:11], "travis_time:end:5e0a17c2:start=1764500000123456789,finish=1764500009"
            "123456789,duration=9000000000,event=script\r\x1b[0K\x1b[32;1mThe command exited with 0.\x1b[0m"]
    df = _read(body)
    assert df.block_bytes.tolist() == [16, 64] and df.timing.tolist() == ["elapsed"] * 2
    assert df.line.tolist() == [body.index(BARE[10]) + 1] * 2


def test_valgrind_lines_are_another_programs_and_its_run_is_instrumented():
    """valgrind's `==PID==` lines before and after the run it wraps (terminal 630) are its own
    output: no caption of the next run; the wrapped run's cells carry the instrument, the
    plain rerun's do not."""
    vg = ["==4242== Memcheck, a memory error detector", "==4242== Command: openssl speed sha1",
          "==4242== "]
    tail = ["==4242== ", "==4242== HEAP SUMMARY:", "==4242==     in use at exit: 0 bytes in 0 blocks",
            "==4242== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)"]
    lines = ["$ valgrind --tool=memcheck openssl speed -seconds 3 sha1", *vg, *BARE[:2], *BARE[4:11],
             *tail, "$ openssl speed -seconds 3 sha1", *BARE[:2], *BARE[4:11]]
    df = _read(lines)
    assert [None if v != v else v for v in df.groupby("run").instrumentation.first()] == \
        ["valgrind --tool=memcheck", None]
    assert pd.isna(df.label).all() and df.run.nunique() == 2
