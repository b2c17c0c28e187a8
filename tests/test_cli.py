"""The cipherlab command follows shell conventions: run as users run it, in a real subprocess.

Standard input and output are real pipes here, and standard error is not a terminal, so these
runs see what a shell script or a CI log sees.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

import cipherlab
from cipherlab.cli import build_parser

SEED = cipherlab.datasets.path("aws-wiki-aesni-on-off.txt")


def run(*args, stdin: bytes | None = None, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cipherlab", *map(str, args)], input=stdin,
                          capture_output=True, cwd=cwd, timeout=300)


def _one_error_line(done: subprocess.CompletedProcess, command: str) -> str:
    err = done.stderr.decode()
    assert "Traceback" not in err, err
    lines = [ln for ln in err.splitlines() if ln.startswith(f"cipherlab {command}: error:")]
    assert len(lines) == 1, err
    return lines[0]


def test_version_and_help_are_plain_text_with_help_for_every_option():
    done = run("--version")
    assert done.returncode == 0 and done.stdout.decode().strip() == f"cipherlab {cipherlab.__version__}"
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # the subcommand parsers
    for name, sub in [("cipherlab", parser), *commands.items()]:
        for action in sub._actions:
            if action.dest in ("help", "command"):
                continue
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"
        text = sub.format_help()
        assert not re.search(r"``|:func:|:class:|:mod:", text), (name, text)
    assert "exit status is 2 for a usage error" in parser.format_help()


@pytest.mark.parametrize("args, status, needle", [
    (["report", "nothere.txt", "-o", "{tmp}/r"], 1, "nothere.txt"),
    (["ingest", SEED, "-o", "out.xlsx"], 2, "expected a .csv or .parquet path"),
    (["ingest", SEED, "-o", "/missing/dir/x.csv"], 2,
     "'/missing/dir' of '/missing/dir/x.csv' does not exist"),
    (["ingest", SEED, "-c", "timing=bogus"], 2, "`timing` must be one of 'cpu' or 'elapsed'; not 'bogus'"),
    (["ingest", "{tmp}/empty.txt"], 1, "no measurements"),
])
def test_errors_are_one_line_with_the_conventional_status(tmp_path, args, status, needle):
    (tmp_path / "empty.txt").write_text("nothing to see here\n")
    done = run(*[str(a).format(tmp=tmp_path) for a in args], cwd=tmp_path)
    assert done.returncode == status, done.stderr.decode()
    assert needle in _one_error_line(done, args[0])


def test_ingest_reads_stdin_and_writes_stdout():
    done = run("ingest", "-", "-o", "-", stdin=SEED.read_bytes())
    assert done.returncode == 0, done.stderr.decode()
    lines = done.stdout.decode().splitlines()
    assert lines[0].startswith("source,run,label") and len(lines) == 61  # header + 60 cells
    assert lines[1].startswith("<stdin>,")
    assert "<stdin>" in done.stderr.decode()  # the summary goes to stderr when stdout is data


def test_ingest_cache_flag_fills_a_cache_and_reads_from_it(tmp_path):
    cache, out1, out2 = tmp_path / "cache", tmp_path / "a.csv", tmp_path / "b.csv"
    first = run("ingest", str(SEED), "--cache", str(cache), "-o", str(out1))
    assert first.returncode == 0, first.stderr.decode()
    assert (cache / "cache.db").stat().st_size > 0
    again = run("ingest", str(SEED), "--cache", str(cache), "-o", str(out2))
    assert again.returncode == 0 and out1.read_bytes() == out2.read_bytes()


def test_report_reads_stdin_and_writes_the_page_to_stdout():
    done = run("report", "-", "--label", "aws", "-o", "-", stdin=SEED.read_bytes())
    assert done.returncode == 0, done.stderr.decode()
    page = done.stdout.decode()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "data:image/png;base64," in page and "ISA features on and off" in page
    assert "aws, openssl 1.0.1f" in page  # the label names the machine


def test_no_progress_bar_in_redirected_stderr_and_quiet_is_quiet(tmp_path):
    # 60 files: ingest shows a progress bar from 50 files on, but only on a terminal
    dumps = tmp_path / "dumps"
    dumps.mkdir()
    for i in range(60):
        shutil.copy(SEED, dumps / f"dump{i:02d}.txt")
    done = run("ingest", dumps, "-o", tmp_path / "all.csv")
    assert done.returncode == 0
    err, out = done.stderr.decode(), done.stdout.decode()
    assert "\r" not in err and "file/s" not in err and "%|" not in err, err
    # a concise summary: the totals and the first rows, not one line per file
    assert out.startswith("60 sources, 60 runs, 3,600 cells, 6 algorithms")
    assert "... and 50 more sources" in out and len(out.splitlines()) < 20
    quiet = run("-q", "ingest", dumps, "-o", tmp_path / "again.csv")
    assert quiet.returncode == 0 and quiet.stdout == b"" and quiet.stderr == b""
    assert (tmp_path / "again.csv").read_bytes() == (tmp_path / "all.csv").read_bytes()


@pytest.mark.openssl
def test_capture_python_times_the_ciphers_of_algorithms_it_can(tmp_path):
    """`--python` beside `--algorithms`: cryptography times the same ciphers as openssl (those
    it has), so the two libraries compare cell by cell; with none it has, its default, said."""
    out = tmp_path / "cap"
    common = ["--sizes", "1024", "--repeats", "1", "--seconds", "1", "--isa", "native",
              "--python"]
    done = run("capture", "--algorithms", "chacha20-poly1305,sha256", *common, "-o", out)
    assert done.returncode == 0, done.stderr.decode()
    df = cipherlab.ingest(out)
    by_tool = df.groupby(df["tool"].astype(str))["algorithm"].agg(lambda a: set(a.astype(str)))
    assert by_tool.to_dict() == {"openssl": {"chacha20-poly1305", "sha256"},
                                 "cryptography": {"chacha20-poly1305"}}
    none = run("capture", "--algorithms", "sha256", *common, "-o", tmp_path / "none")
    assert none.returncode == 0, none.stderr.decode()
    assert "cryptography times none of --algorithms (sha256)" in none.stderr.decode()
    assert set(cipherlab.ingest(tmp_path / "none").query("tool == 'cryptography'")[
        "algorithm"].astype(str)) == {"aes-128-gcm", "aes-128-cbc"}


@pytest.mark.parametrize("command, needs, args, by", [
    ("capture-gnutls", "gnutls-cli", ["--isa", "native"], "isa"),
    ("capture-jca", "java", ["--sizes", "16384", "--seconds", "0.3", "--warmup", "0.2",
                             "--isa", "native", "--jvm", "native"], "jvm"),
])
def test_capture_jca_and_gnutls_are_subcommands_like_capture(command, needs, args, by, tmp_path):
    if shutil.which(needs) is None:
        pytest.skip(f"{needs} missing: `make system-deps` installs it")
    out = tmp_path / "cap"
    done = run(command, "--algorithms", "aes-128-gcm", "--repeats", "1", *args, "-o", out)
    assert done.returncode == 0, done.stderr.decode()
    printed = done.stdout.decode()
    assert re.search(rf"^{by}\b", printed, re.M) and "aes-128-gcm" in printed
    assert f"capture folder: {out}" in printed
    df = cipherlab.ingest(out)  # the folder reads back as the capture function's table
    assert set(df["algorithm"].astype(str)) == {"aes-128-gcm"} and df["bytes_per_s"].gt(0).all()
    # a bad value is one line, status 2, no traceback
    bad = run(command, "--isa", "bogus", "-o", tmp_path / "bad")
    assert bad.returncode == 2 and "isa" in _one_error_line(bad, command)
