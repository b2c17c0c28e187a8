"""The command line of a run (``readers._text.parse_prompt``): the options it binds to the run
below it, whatever the shell around the command (its prompt, pipes, redirections, lists), through
both engines (issue 12)."""

from __future__ import annotations

import warnings

import pytest

import cipherlab
from cipherlab.readers._text import parse_prompt

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

# (prompt line, the options it binds): each shell's prompt, each way of piping or redirecting
SHELLS = [
    ("$ openssl speed -evp aes-128-gcm 2>&1 | tail -20", {"evp": "aes-128-gcm"}),
    ("pi@raspberrypi:~ $ openssl speed -elapsed -seconds 1 md5 > out.txt",
     {"timing": "elapsed", "seconds": 1}),
    ("[root@nas ~]# openssl speed -multi 4 -evp aes-256-gcm 2>/dev/null",
     {"multi": 4, "evp": "aes-256-gcm"}),
    ("% time openssl speed -bytes 16384 sha256 |& tee log", {"bytes": 16384}),
    ("C:\\Users\\me> openssl speed -seconds 3 rsa2048 | findstr /v Doing", {"seconds": 3}),
    ("\u276f OPENSSL_ia32cap=~0x200000200000000 openssl speed -evp aes-128-cbc 2>err; cat err",
     {"isa_mask": "~0x200000200000000", "evp": "aes-128-cbc"}),
    ("$ openssl speed -elapsed sha1 &> log && echo done", {"timing": "elapsed"}),
    ("$ openssl speed -mr -seconds 1 sha1 >>log 2>&1", {"mr": True, "seconds": 1}),
    ("C:\\> openssl.exe speed -decrypt -evp aes-128-cbc<nul", {"decrypt": True, "evp": "aes-128-cbc"}),
]


@pytest.mark.parametrize("line, bound", SHELLS, ids=[s[0][:24] for s in SHELLS])
def test_the_command_ends_where_the_shell_pipes_or_redirects(line, bound):
    prompt = parse_prompt(line)
    assert prompt is not None
    assert {k: prompt[k] for k in bound} == bound
    # the shell's words are no arguments of openssl (`2>err`: no algorithm "2"), nor conditions
    assert not {"2", "|", "tail", "tee", "cat", "err", "log"} & set(prompt["args"])
    assert prompt["conditions"] == {}


def test_prose_with_a_semicolon_is_no_command():
    assert parse_prompt("I ran openssl speed; it was slow on the Pi") is None


def test_a_piped_prompts_options_reach_its_run():
    """``-elapsed``, ``-bytes``, ``-multi`` and the ISA mask of a command piped to ``tail`` are
    the run's (they were lost: the line was no command, the run's timing unknown)."""
    text = ("user@box:~$ OPENSSL_ia32cap=~0x200000200000000 openssl speed -elapsed -seconds 1 "
            "-bytes 16384 -evp aes-128-gcm 2>&1 | tail -3\n"
            "The 'numbers' are in 1000s of bytes per second processed.\n"
            "type          16384 bytes\nAES-128-GCM     912345.67k\n\n"
            "user@box:~$ openssl speed -multi 2 -evp chacha20-poly1305 2>/dev/null | grep -A2 type\n"
            "type             16 bytes     64 bytes\nchacha20-poly1305  412345.67k  823456.78k\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (no CPUINFO line: what the mask switched off is said)
        df = cipherlab.ingest(text)
    runs = df.groupby("run", observed=True)
    assert runs.timing.first().tolist() == ["elapsed", "elapsed"]
    assert runs.isa_mask.first().tolist()[0] == "~0x200000200000000"
    assert runs.multi.first().tolist()[1] == 2
    assert df.block_bytes.tolist() == [16384, 16, 64]
