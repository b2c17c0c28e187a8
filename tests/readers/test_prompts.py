"""The command line of a run (``readers._text.parse_prompt``): the options it binds to the run
below it, whatever the shell around the command (its prompt, pipes, redirections, lists), through
both engines (issue 12)."""

from __future__ import annotations

import warnings

import pandas as pd
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


# (prompt line, the options it binds): Windows shells, forks' binaries, wrappers of other systems
OTHER_SYSTEMS = [
    ("PS C:\\Users\\kim> openssl speed -elapsed -evp aes-128-ctr", {"timing": "elapsed", "evp": "aes-128-ctr"}),
    ("PS D:\\tools> & \"D:\\tools\\OpenSSL 3\\bin\\openssl.exe\" speed -seconds 2 md5", {"seconds": 2}),
    ("PS C:\\> .\\openssl.exe speed -bytes 8192 -evp sm4-ctr", {"bytes": 8192, "evp": "sm4-ctr"}),
    ("C:\\Program Files\\OpenSSL\\bin>openssl speed -multi 8 rsa4096", {"multi": 8}),
    ("$ ./bin/tongsuo speed -evp sm4-gcm", {"evp": "sm4-gcm"}),
    ("obsd# doas -u _bench openssl speed -elapsed sha512", {"timing": "elapsed"}),
    ("m1 % arch -x86_64 openssl speed -seconds 1 -evp aes-256-gcm", {"seconds": 1, "evp": "aes-256-gcm"}),
    ("$ ninja -C build && OPENSSL_armcap=0x3d build/apps/openssl speed -elapsed -evp aes-256-gcm",
     {"isa_mask": "armcap=0x3d", "timing": "elapsed"}),
    ("cd ~/src/openssl || exit 1; LD_LIBRARY_PATH=. ./apps/openssl speed -seconds 1 sha3-256",
     {"seconds": 1}),
    ("\u279c  openssl git:(master) \u2717 ./apps/openssl speed -elapsed rsa2048", {"timing": "elapsed"}),
    ("(base) jo@mbp ~ % openssl speed -seconds 2 sha256", {"seconds": 2}),
    ("\u03bb openssl speed -multi 2 md5", {"multi": 2}),
    ("power9$ OPENSSL_ppccap=0 openssl speed -evp aes-128-gcm", {"isa_mask": "ppccap=0"}),
    ("[14:02:11] kim@nas:~$ openssl speed -seconds 2 -evp chacha20", {"seconds": 2, "evp": "chacha20"}),
    ("$ docker run --rm -it debian:trixie openssl speed -elapsed -evp aes-128-gcm",
     {"timing": "elapsed", "evp": "aes-128-gcm"}),
    ("$ kubectl exec -it bench-0 -c main -- openssl speed -multi 4 rsa2048", {"multi": 4}),
    ("$ ssh -p 2222 root@10.0.0.5 /usr/bin/openssl speed -seconds 2 md5", {"seconds": 2}),
    ("me@T14 MINGW64 ~\n$ winpty openssl speed -bytes 1024 sha1".split("\n")[1], {"bytes": 1024}),
    ("dev@box:~/openssl (3.4-branch)$ ./apps/openssl speed -bytes 64 md5", {"bytes": 64}),
]


@pytest.mark.parametrize("line, bound", OTHER_SYSTEMS, ids=[s[0][:24] for s in OTHER_SYSTEMS])
def test_other_systems_prompts_and_lists_bind_their_speed_commands_options(line, bound):
    prompt = parse_prompt(line)
    assert prompt is not None and "unbound" not in prompt
    assert {k: prompt[k] for k in bound} == bound
    assert prompt["conditions"] == {}  # (`-u _bench` is doas's; `-x86_64` arch's)


@pytest.mark.parametrize("line", [
    "$ while read c; do openssl speed -elapsed -evp \"$c\"; done < ciphers.txt",
    "PS C:\\> foreach ($c in 'aes-128-gcm','sm4-cbc') { openssl speed -elapsed -evp $c }",
    "$ openssl speed -elapsed rsa2048; openssl speed ecdsap256",
    "C:\\bench>for %%c in (aes-128-gcm sm4-cbc) do openssl speed -elapsed -evp %%c",
])
def test_a_loop_or_a_list_of_several_speed_commands_binds_none(line):
    """The line binds no run (a loop's command is given to the runs it prints: see below)."""
    prompt = parse_prompt(line)
    assert prompt is not None and prompt["unbound"] and "timing" not in prompt


def test_a_loops_options_that_it_does_not_fill_in_are_each_runs():
    """`-elapsed` in a loop's body holds for every run it prints; `-seconds $s` is no condition
    (no warning); each iteration's output is a run."""
    text = ("$ for s in 1 2; do openssl speed -elapsed -seconds $s -evp aes-128-gcm 2>/dev/null; done\n"
            "type             16 bytes     64 bytes\nAES-128-GCM     612873.11k  1641206.30k\n"
            "type             16 bytes     64 bytes\nAES-128-GCM     622873.11k  1651206.30k\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = cipherlab.ingest(text)
    assert df.run.nunique() == 2 and (df.timing == "elapsed").all()


def test_an_option_a_loop_fills_in_that_no_output_states_is_bound_to_none_loudly():
    text = ("$ for p in default legacy; do openssl speed -provider $p -bytes 16 md5; done\n"
            "type             16 bytes\nmd5     212873.11k\ntype             16 bytes\nmd5     202873.11k\n")
    with pytest.warns(UserWarning, match=r"line 1: a loop runs openssl speed: its -provider changes"):
        df = cipherlab.ingest(text)
    assert df.run.nunique() == 2 and "provider" not in df


def test_an_exported_mask_holds_for_every_command_until_it_is_cleared():
    """csh's ``setenv`` then two commands, ``unsetenv``, a third (the variable was only bound to
    the next run: the second ran masked without a word); cmd's ``set X=`` clears it too."""
    table = "type             16 bytes\nAES-128-CBC     312873.11k\n"
    for on, off in (("% setenv OPENSSL_ia32cap ~0x200000000000000", "% unsetenv OPENSSL_ia32cap"),
                    ("C:\\bench>set OPENSSL_ia32cap=~0x200000000000000", "C:\\bench>set OPENSSL_ia32cap=")):
        shell = on.split("OPENSSL")[0].rsplit(" ", 2)[0] if on[0] == "%" else "C:\\bench>"
        command = ("% " if on[0] == "%" else shell) + "openssl speed -bytes 16 -evp aes-128-cbc\n"
        text = f"{on}\n{command}{table}{command}{table}{off}\n{command}{table}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            df = cipherlab.ingest(text)
        masks = df.groupby("run", observed=True).isa_mask.first().tolist() if "isa_mask" in df else []
        assert [m if m == m else None for m in masks] == ["~0x200000000000000"] * 2 + [None], on


def test_a_mask_in_the_prose_is_not_a_runs_whose_cpuinfo_shows_none_set():
    """The prose above the native run names the mask of the run after it; the native run's own
    CPUINFO line has no ``env:``: it ran without the variable (it was given the mask)."""
    header = "version: 3.0.13\nCPUINFO: OPENSSL_ia32cap=0x7ffaf3ffffebffff:0x29c67af{}\n"
    table = "type             16 bytes\nAES-256-GCM     {}k\n"
    text = ("AES is 10x slower with OPENSSL_ia32cap=~0x200000000000000 here:\n\n"
            "$ openssl speed -bytes 16 -evp aes-256-gcm\n" + header.format("") + table.format("612873.11") +
            "$ OPENSSL_ia32cap=~0x200000000000000 openssl speed -bytes 16 -evp aes-256-gcm\n" +
            header.format(" env:~0x200000000000000").replace("0x7ff", "0x7df") + table.format("61287.11"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.ingest(text)
    masks = df.groupby("run", observed=True).isa_mask.first().tolist()
    assert masks[0] != masks[0] and masks[1] == "~0x200000000000000"
    assert df.groupby("run", observed=True).isa_off.first().tolist() == ["none", "aesni"]


def test_openssl_versions_line_and_the_speed_header_after_it_are_one_run():
    text = ("$ openssl version && openssl speed -elapsed -bytes 16 sha256 2>/dev/null\n"
            "OpenSSL 3.2.1 30 Jan 2024 (Library: OpenSSL 3.2.1 30 Jan 2024)\n"
            "version: 3.2.1\nbuilt on: Tue Jan 30 10:00:00 2024 UTC\n"
            "type             16 bytes\nsha256     212873.11k\n")
    df = cipherlab.ingest(text)
    assert df.run.nunique() == 1 and df.timing.tolist() == ["elapsed"]
    assert df.tool_version.tolist() == ["3.2.1"]


@pytest.mark.parametrize("prompt", ["builder ~ #", "alpine:~#", "web01 /srv/bench #"])
def test_a_root_prompt_without_a_user_is_a_prompt(prompt):
    """Gentoo's root prompt (``host dir #``) and Alpine's (``host:dir#``) show no ``user@``: the
    version their ``openssl version`` prints is still the run's, a mask one host exports is no
    other host's, and the host labels the run."""
    table = "type             16 bytes\nAES-128-GCM     {}k\n"
    text = (f"{prompt} openssl version\nOpenSSL 1.1.1w  11 Sep 2023\n"
            f"{prompt} export OPENSSL_ia32cap=~0x200000000000000\n"
            f"{prompt} openssl speed -bytes 16 -evp aes-128-gcm\n" + table.format("31287.11") +
            "\nother ~ # openssl speed -bytes 16 -evp aes-128-gcm\n" + table.format("612873.11"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.ingest(text)
    first = df.groupby("run", observed=True).first()
    assert first.tool_version.tolist()[0] == "1.1.1w"
    assert first.label.tolist() == [prompt.split(":")[0].split()[0], "other"]  # (their hosts)
    assert [m if m == m else None for m in first.isa_mask] == ["~0x200000000000000", None]


def test_an_exported_mask_is_no_other_shells():
    """``alice@a`` exports the mask; ``bob@b``'s prompt, and any prompt after another author's
    byline, ran in another shell: neither gets it."""
    table = "type             16 bytes\nAES-128-GCM     {}k\n"
    text = ("alice@a:~$ export OPENSSL_ia32cap=~0x200000000000000\n"
            "alice@a:~$ openssl speed -bytes 16 -evp aes-128-gcm\n" + table.format("31287.11") +
            "bob@b:~$ openssl speed -bytes 16 -evp aes-128-gcm\n" + table.format("612873.11") +
            "\n$ export OPENSSL_ia32cap=~0x200000000000000\n$ openssl speed -bytes 16 -evp aes-128-gcm\n" +
            table.format("32287.11") + "\ncarol commented:\n\n"
            "$ openssl speed -bytes 16 -evp aes-128-gcm\n" + table.format("622873.11"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.ingest(text)
    masks = [m if m == m else None for m in df.groupby("run", observed=True).isa_mask.first()]
    assert masks == ["~0x200000000000000", None, "~0x200000000000000", None]


def test_a_mask_exported_in_a_command_list_is_the_commands_and_the_shells():
    table = "type             16 bytes\nAES-128-GCM     {}k\n"
    text = ("$ export OPENSSL_ia32cap=~0x200000000000000 && openssl speed -bytes 16 -evp aes-128-gcm\n" +
            table.format("31287.11") + "$ openssl speed -bytes 16 -evp aes-128-gcm\n" + table.format("32287.11") +
            "$ unset OPENSSL_ia32cap; openssl speed -bytes 16 -evp aes-128-gcm\n" + table.format("612873.11"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.ingest(text)
    masks = [m if m == m else None for m in df.groupby("run", observed=True).isa_mask.first()]
    assert masks == ["~0x200000000000000", "~0x200000000000000", None]


RUNNERS = [  # (a command run elsewhere, what it binds): the runner's own words set the mask
    ("$ podman run --rm -e OPENSSL_armcap=0 fedora:40 bash -c \"dnf -y install openssl >/dev/null; "
     "openssl speed -elapsed -seconds 1 sha256\"", {"isa_mask": "armcap=0", "timing": "elapsed"}),
    ("$ kubectl exec -n bench pod/speed-0 -- env OPENSSL_ia32cap=~0x200000000 openssl speed -evp "
     "aes-128-ctr", {"isa_mask": "~0x200000000", "evp": "aes-128-ctr"}),
    ("$ ssh root@edge1 'cd /opt/ossl-3.4 && ./bin/openssl speed -multi 2 -evp sm4-cbc'",
     {"multi": 2, "evp": "sm4-cbc"}),
    ("$ docker exec -it bench sh -c 'OPENSSL_ia32cap=~0x200000200000000 openssl speed -bytes 16 "
     "-evp aes-128-gcm'", {"isa_mask": "~0x200000200000000", "bytes": 16}),
    ("$ docker run --rm --env=OPENSSL_ia32cap=~0x200000000 img openssl speed -evp aes-128-gcm",
     {"isa_mask": "~0x200000000"}),
    ('$ docker run --rm -e "OPENSSL_armcap=0x1" arm64v8/debian openssl speed -elapsed sha256',
     {"isa_mask": "armcap=0x1", "timing": "elapsed"}),
]


@pytest.mark.parametrize("line, bound", RUNNERS, ids=[s[0][2:20] for s in RUNNERS])
def test_a_command_run_elsewhere_binds_its_options_and_the_runners_mask(line, bound):
    """``docker run -e``, ``kubectl exec -- env`` and a shell's ``-c`` list, whose one
    ``openssl speed`` is the run's command (a masked run looked native: no isa_mask)."""
    prompt = parse_prompt(line)
    assert prompt is not None and {k: prompt.get(k) for k in bound} == bound


def test_each_run_a_loop_prints_is_named_by_the_line_the_loop_echoes_above_it():
    """A loop's command line opens no run: the first host's output, right below it, is named
    by its echo as the others are (it had no label); the loop's command is each run's."""
    table = "type             16 bytes\nsha256           {}k\n"
    text = ("$ for h in pi4 pi5; do echo \"$h:\"; ssh $h openssl speed -bytes 16 sha256; done\n"
            "pi4:\n" + table.format("21870.33") + "pi5:\n" + table.format("61604.29"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (what the loop fills in, the host, the echo names)
        df = cipherlab.ingest(text)
    assert df.groupby("run", observed=True).label.first().tolist() == ["pi4", "pi5"]
    assert set(df.block_bytes) == {16}  # (the loop's command's -bytes 16)


def test_a_command_without_the_mask_of_its_twin_ran_with_nothing_switched_off():
    """The same command with and without a capability variable (on the command line, or
    exported then unset): the run without it is the native side, ``isa_off`` ``none``, so the
    pair compares (the Pi's native runs had no ISA condition: ``speedup`` found no pair). A
    command with other arguments (the legacy name beside ``-evp``) is no twin."""
    table = "type             16 bytes\n{}     {}k\n"
    text = ("root@c7i:~# openssl speed -bytes 16 -evp aes-128-ctr\n" +
            table.format("AES-128-CTR", "712873.11") +
            "root@c7i:~# OPENSSL_ia32cap=~0x200000200000000 openssl speed -bytes 16 -evp aes-128-ctr\n" +
            table.format("AES-128-CTR", "151287.11") +
            "root@c7i:~# openssl speed -bytes 16 aes-128-cbc\n" + table.format("aes-128 cbc", "98287.11") +
            "root@c7i:~# export OPENSSL_ia32cap=~0x200000000000000\n"
            "root@c7i:~# openssl speed -bytes 16 aes-128-cbc\n" + table.format("aes-128 cbc", "91287.11") +
            "root@c7i:~# unset OPENSSL_ia32cap\nroot@c7i:~# openssl speed -bytes 16 aes-128-cbc\n" +
            table.format("aes-128 cbc", "98011.11"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.ingest(text)
    offs = [v if v == v else None for v in df.groupby("run", observed=True).isa_off.first()]
    assert offs[0::2] == ["none"] * 3 and all(o and o.startswith("aesni") for o in offs[1::2])
    assert "isa_off: no capability variable" in df.loc[df.run == 0, "rule"].iloc[0]
    lone = cipherlab.ingest(text.split("root@c7i:~# OPENSSL")[0])  # (no masked twin: no condition)
    assert "isa_off" not in lone.columns


def test_a_binary_under_a_homebrew_prefix_is_read():
    """Homebrew's keg paths hold '@' (``/opt/homebrew/opt/openssl@3/bin/openssl``,
    ``/usr/local/opt/openssl@1.1/bin/openssl``): such a command line was no prompt, so a
    ``-decrypt`` run read as encrypt (terminal/044)."""
    prompt = parse_prompt("me@mini ~ % /usr/local/opt/openssl@1.1/bin/openssl speed -decrypt "
                          "-evp aes-256-cbc")
    assert prompt["decrypt"] and prompt["evp"] == "aes-256-cbc"
    assert prompt["binary"] == "/usr/local/opt/openssl@1.1/bin/openssl"


def test_a_twin_runs_the_same_binary():
    """The system LibreSSL's command beside Homebrew's masked one is no twin of it, though the
    arguments are the same (terminal/027: it was 'isa_off none' for a moment in this branch)."""
    table = "type             16 bytes\naes-128-gcm     {}k\n"
    text = ("me@m2 ~ % /usr/bin/openssl speed -bytes 16 -evp aes-128-gcm\n" + table.format("372287.53") +
            "me@m2 ~ % OPENSSL_armcap=0x1 /opt/homebrew/opt/openssl@3/bin/openssl speed -bytes 16 "
            "-evp aes-128-gcm\n" +
            table.format("112980.27") +
            "me@m2 ~ % /opt/homebrew/opt/openssl@3/bin/openssl speed -bytes 16 -evp aes-128-gcm\n" +
            table.format("730733.74"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.ingest(text)
    offs = [v if v == v else None for v in df.groupby("run", observed=True).isa_off.first()]
    assert offs[0] is None and offs[1] != "none" and offs[2] == "none"


def test_a_long_command_a_mail_client_broke_before_an_option_is_joined():
    """A command line cut at 72 columns before its options (terminal/044 wrapped: the -decrypt
    run read as encrypt): its tail is the command's; a separator or a shell's error is not."""
    table = "type             16 bytes\naes-256-cbc     {}k\n"
    text = ("> root@build-host-7:/srv/bench# taskset -c 3 /usr/local/ssl/bin/openssl speed\n"
            "> -elapsed -decrypt -evp aes-256-cbc\n> " + table.format("612873.11").replace("\n", "\n> ") +
            "\n$ openssl speed -bytes 16 -evp aes-256-cbc   # the second try, encrypt this time\n"
            "-----\n" + table.format("512873.11"))
    df = cipherlab.ingest(text)
    assert df.operation.tolist() == ["decrypt", "encrypt"]
    assert df.timing.tolist() == ["elapsed", "cpu"]


def test_cmds_loop_with_an_ampersand_list_names_each_run_by_its_echo():
    """cmd.exe's ``for %h in (...) do @echo == %h & ssh %h openssl speed ...``: its `&` joins
    the commands of the loop's body (the line was no prompt: the first host had no label);
    bash's ``a & b &`` is a list that runs speed twice (loud, as ``a; b``)."""
    table = "type             16 bytes\naes-256-gcm     {}k\n"
    text = ("C:\\>for %h in (hv1 hv2) do @echo == %h & ssh %h openssl speed -bytes 16 -evp aes-256-gcm\n"
            "== hv1\n" + table.format("412873.11") + "== hv2\n" + table.format("392873.11"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = cipherlab.ingest(text)
    assert df.label.tolist() == ["hv1", "hv2"]
    assert parse_prompt("$ openssl speed md5 & openssl speed sha1 &")["unbound"] == \
        "one command line runs openssl speed 2 times"


def test_wrappers_that_place_the_process_are_the_runs_pinning_condition():
    # the same cipher on the near and the far NUMA node: two settings, not two replicates of one
    run = ("$ {pre}openssl speed -evp aes-128-gcm\n"
           "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes\n"
           "AES-128-GCM     {v}.08k  2007808.38k  3994474.37k  5342114.30k  5764116.48k  5786124.29k\n")
    text = "".join(run.format(pre=pre, v=v) for pre, v in [
        ("numactl --cpunodebind=0 --membind=0 ", 754546), ("numactl --cpunodebind=0 --membind=1 ", 731002),
        ("sudo /usr/bin/time -v ", 750001)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.ingest(text)
    pinning = df.drop_duplicates("run")["pinning"].astype(object).tolist()
    assert pinning[:2] == ["numactl --cpunodebind=0 --membind=0", "numactl --cpunodebind=0 --membind=1"]
    assert pd.isna(pinning[2])  # (sudo and time run it unchanged)
