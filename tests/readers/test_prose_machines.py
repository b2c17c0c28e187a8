"""The CPU and clock the prose of a post names, bound to the runs it names them for.

A CPU stated once above several tables or code blocks is theirs while nothing names another
machine: "On my Ryzen 7 5800X:" over one and "And on the Pi 4:" over the next name two
machines, and the Pi is given no CPU (the text does not say which it has) rather than the
Ryzen's. Under a heading, a CPU is its section's; stated "for every run below", every run's.
Runs of program output get them as document tables do, and say so in their ``rule``.
"""

from __future__ import annotations

import textwrap

import pytest

import cipherlab

pytestmark = pytest.mark.usefixtures("engine")

_OUTPUT = """\
{fence}
$ openssl speed -evp {algo}
version: 3.0.13
built on: Mon Feb  5 12:13:21 2024 UTC
options: bn(64,64)
The 'numbers' are in 1000s of bytes per second processed.
type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes
{name}     {v}.00k  2000000.00k  3000000.00k  4000000.00k  5000000.00k  5100000.00k
{fence}
"""


def _output(algo="aes-128-gcm", name="AES-128-GCM", v=700000, fence="```"):
    return _OUTPUT.format(algo=algo, name=name, v=v, fence=fence)


def _machines(tmp_path, text, suffix=".md"):
    path = tmp_path / f"post{suffix}"
    path.write_text(textwrap.dedent(text))
    df = cipherlab.ingest(path)
    runs = df.groupby("run", observed=True)
    rule = df["rule"] if "rule" in df else df["label"].map(lambda _: None)
    return [(g["label"].iloc[0], g["cpu"].iloc[0], g["clock_hz"].iloc[0], rule[g.index[0]])
            for _, g in runs]


def _cpus(rows):
    return [None if cpu is None or cpu != cpu else cpu for _, cpu, _, _ in rows]


def test_a_cpu_named_above_two_machines_is_the_first_ones_only(tmp_path):
    rows = _machines(tmp_path, f"""\
        On my Threadripper 3970X workstation:

        {_output(v=700000)}
        And on the Raspberry Pi 4:

        {_output(v=50000)}
        """)
    assert [label for label, *_ in rows] == ["Threadripper 3970X workstation", "Raspberry Pi 4"]  # (the machine)
    assert _cpus(rows) == ["Threadripper 3970X", None]


def test_document_tables_keep_a_cpu_to_the_machine_it_was_named_for(tmp_path):
    table = ("| type | 16 bytes | 64 bytes |\n|---|---|---|\n"
             "| aes-128-cbc | {v}.00k | 2000000.00k |\n")
    rows = _machines(tmp_path, "On my Ryzen 9 7950X desktop:\n\n" + table.format(v=1000000) +
                     "\nAnd on the old laptop:\n\n" + table.format(v=30000) +
                     "\nAnd on the Pi 4:\n\n" + table.format(v=9000))
    assert _cpus(rows) == ["Ryzen 9 7950X", None, None]


def test_under_a_heading_the_cpu_is_its_sections(tmp_path):
    rows = _machines(tmp_path, f"""\
        ## Desktop (Core i7-8700K @ 3.70GHz)

        **Before the patch:**

        {_output(v=700000)}
        **After the patch:**

        {_output(v=710000)}
        ## Pi 4

        {_output(v=50000)}
        """)
    assert _cpus(rows) == ["Core i7-8700K", "Core i7-8700K", None]
    assert [clock for _, _, clock, _ in rows[:2]] == [3.7e9, 3.7e9]
    assert all("cpu: prose" in rule for _, _, _, rule in rows[:2])


@pytest.mark.filterwarnings("ignore:.*the mask in effect is not in the text")
def test_a_cpu_stated_for_every_run_below_is_every_runs(tmp_path):
    rows = _machines(tmp_path, f"""\
        All runs below on a Xeon E5-2680 v2 @ 2.80GHz, OpenSSL 3.0.13.

        AES-NI on:

        {_output(v=700000)}
        AES-NI off (OPENSSL_ia32cap=~0x200000200000000):

        {_output(v=90000)}
        """)
    assert _cpus(rows) == ["Xeon E5-2680 v2", "Xeon E5-2680 v2"]


def test_the_cpuinfo_a_session_printed_above_its_run_is_its_cpu(tmp_path):
    rows = _machines(tmp_path, """\
        $ grep -m1 'model name' /proc/cpuinfo
        model name	: Intel(R) Xeon(R) CPU E5-2680 v2 @ 2.80GHz
        """ + _output(fence=""), suffix=".txt")
    assert _cpus(rows) == ["Intel Xeon CPU E5-2680 v2"]
    assert rows[0][2] == 2.8e9


def test_output_that_names_no_cpu_gets_none(tmp_path):
    rows = _machines(tmp_path, "Results on my laptop:\n\n" + _output())
    assert _cpus(rows) == [None]


def test_rows_that_name_their_machines_each_give_their_own_cpu(tmp_path):
    # (each run's CPU was the row above's: the label found above the row named it)
    rows = _machines(tmp_path, """\
        Per-core results, big and little cores:
          * `sha256     65957.21k  308442.84k  430646.19k  451713.54k  457979.39k  458416.30k (Cortex-A78)`
          * `sha256     21534.68k   44544.45k   63446.53k   66069.67k   70238.42k   70989.35k (Cortex-A55)`
          * `sha256     66195.43k  307482.97k  429519.45k  450163.24k  456710.25k  457114.39k (Cortex-A78)`
        """, suffix=".txt")
    assert [label for label, *_ in rows] == ["Cortex-A78", "Cortex-A55", "Cortex-A78"]
    assert _cpus(rows) == ["Cortex-A78", "Cortex-A55", "Cortex-A78"]


@pytest.mark.parametrize("text, cpu, clock", [
    ("Intel Xeon Platinum 8480+ 2.0 GHz", "Intel Xeon Platinum 8480+", 2.0e9),
    # a base-to-turbo range names no one clock: the CPU's name ends before it, no clock
    ("Core i5-8250U 1.60GHz-3.40GHz", "Core i5-8250U", None),
    ("Core i7-9750H 2.6 GHz \u2013 4.5 GHz", "Core i7-9750H", None),
])
def test_a_clock_after_a_cpus_name_is_its_clock_and_a_range_is_none(text, cpu, clock):
    from cipherlab.readers._tables._facts import prose_cpu
    assert prose_cpu(text) == {"cpu": cpu, **({"clock_hz": clock} if clock else {})}
