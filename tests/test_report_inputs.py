"""The report on a user's own data: a real capture of this machine, and two dumps of two machines.

The capture is real (openssl speed on this machine, short: 1 s per cell, 2 repeats) and shared by
the tests through a session fixture (tests/conftest.py). Expected numbers are recomputed here
through the public API on the same data; nothing in the report may depend on file names or on a
bundled path.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pandas as pd
import pytest

import cipherlab
from cipherlab import stats

PASTES = Path(__file__).parent / "data" / "pastes"


def _text(html: str) -> str:
    import html as h
    return re.sub(r"\s+", " ", h.unescape(re.sub(r"<[^>]+>", " ", html)))


def _section(html: str, key: str) -> str:
    m = re.search(rf"<section id='{key}'>(.*?)</section>", html, re.S)
    assert m, key
    return m.group(1)


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.mark.openssl
def test_a_capture_folder_gets_aesni_and_small_block_figures_and_true_statements(
        captured, captured_report):
    page, html, _ = captured_report
    df = cipherlab.ingest(captured)
    aesni, small = _section(html, "aesni"), _section(html, "small-blocks")
    for part in (aesni, small):
        assert "<figure" in part
    text = _text(aesni)
    assert "No machine was measured with an ISA feature both on and off" not in text
    # the no-aesni preset switches off the AES instructions only: compared on isa_off, "AES-NI"
    off = set(df["isa_off"].dropna()) - {"none"}
    assert len(off) == 1 and set(off.pop().split("+")) <= {"aesni", "pclmulqdq", "vaes", "vpclmulqdq"}
    assert (f"Compared: nothing off against off: {df.isa_off[df.isa == 'no-aesni'].iloc[0]} for 2 "
            "algorithm(s) (aes-128-cbc, aes-128-gcm) at 3 block size(s), 2 runs per cell") in text
    assert "Speed-up, effect: AES-NI" in text and "Not AES-NI alone" not in text
    sp = _quiet(stats.speedup, df)  # the table's ISA contrast: isa_off none over the mask's
    assert set(sp["candidate"]) == {"none"}
    row = sp[(sp.algorithm == "aes-128-gcm") & (sp.block_bytes == 16384)].iloc[0]
    assert f"{row.ratio:.3g}× [{row.ci_low:.2f}, {row.ci_high:.2f}] at 16384 bytes" in text
    host = df["host"].iloc[0]
    text = _text(small)
    assert "No machine measured an AES-GCM" not in text
    cross = _quiet(stats.crossover, df[df.isa_off == "none"], "aes-128-gcm", "aes-128-cbc",
                   groupby=["algorithm", "operation", "isa_off"])
    assert f"Compared: aes-128-gcm against aes-128-cbc on {host}, openssl" in text
    if cross["regime"].iloc[0] == "a overtakes b":
        assert "aes-128-gcm overtakes aes-128-cbc above" in text
    # one machine: the machines section says why it cannot compare, naming the machine
    assert f"no machine to compare with another: openssl, CPU time: {host}" in _text(
        _section(html, "machines"))
    # the facts table shows the capture's host facts side by side
    facts = pd.read_csv(page.parent / "tables" / "machines-facts.csv")
    assert list(facts.columns) == ["fact", host]
    got = dict(zip(facts["fact"], facts[host]))
    assert got["cores"] == str(cipherlab.host_info()["cores"])
    assert re.match(r"0x[0-9a-f]+", got["mask in effect"])


@pytest.mark.openssl
def test_an_effect_is_aes_ni_only_for_aes_under_an_aes_only_mask_on_this_machine(tmp_path):
    from cipherlab.errors import AnalysisError
    from cipherlab.runners import effect_label, isa_contrast
    from cipherlab.runners._isa import features

    native = cipherlab.runners.effective_mask({})
    if not {"aesni", "avx2"} <= set(features(native) or []):
        pytest.skip(f"this CPU's mask {native} lacks AES-NI or AVX2: the masks would not differ")
    out = tmp_path / "box"
    df = _quiet(cipherlab.capture, ["aes-128-gcm", "chacha20-poly1305"], sizes=[16384],
                seconds=1, repeats=2, isa="native,no-aesni,no-aesni-classic", out=out,
                progress=False)
    c = isa_contrast(df)
    aes_only = df.loc[df.isa == "no-aesni", "isa_off"].iloc[0]
    classic = df.loc[df.isa == "no-aesni-classic", "isa_off"].iloc[0]
    assert c.column == "isa_off" and set(c.offs) == {aes_only, classic}
    assert "avx2" in classic.split("+") and "avx2" not in aes_only.split("+")
    with pytest.raises(AnalysisError, match="several levels"):
        stats.speedup(df)  # two masks: the caller says which
    html = _quiet(cipherlab.report, out, out=tmp_path / "report").read_text(encoding="utf-8")
    text = _text(_section(html, "aesni"))
    # AES under the AES-only preset: "AES-NI"; ChaCha20 under it: no AES-NI effect expected
    assert f"nothing off against off: {aes_only}" in text
    assert "Speed-up, effect: AES-NI" in text
    assert "Speed-up, effect: no AES-NI effect expected (chacha20-poly1305 does not use AES)" in text
    # under the AWS-wiki value: what it switched off, for AES and ChaCha20 alike, never "AES-NI"
    assert f"Speed-up, effect: ISA off ({classic})" in text
    assert re.search(rf"Not AES-NI alone ?: the effect measured is ISA off \({re.escape(classic)}\)",
                     text)
    table = pd.read_csv(tmp_path / "report" / "tables" / "aesni-speedup.csv")
    want = {(a, off): effect_label(a, off) for a in ("aes-128-gcm", "chacha20-poly1305")
            for off in (aes_only, classic)}
    got = {(a, b): e for a, b, e in zip(table.algorithm, table.baseline, table.effect)}
    assert got == want and got[("chacha20-poly1305", classic)].startswith("ISA off (")
    claim = pd.read_csv(tmp_path / "report" / "tables" / "aesni-2x-test.csv")
    assert set(claim.algorithm) == {"aes-128-gcm"}  # the 2x claim: AES only
    assert set(claim.effect) == {"AES-NI", f"ISA off ({classic})"}


def test_two_dumps_of_two_machines_are_compared_by_machine_not_by_file(two_machines,
                                                                         two_machines_report):
    page, html, _ = two_machines_report
    machines = _section(html, "machines")
    assert "<figure" in machines and "No two machines" not in machines
    text = _text(machines)
    alice = cipherlab.ingest(two_machines[0]).assign(machine="alice")
    bob = cipherlab.ingest(two_machines[1]).assign(machine="bob")
    both = cipherlab.concat([alice, bob[bob.aesni == "on"]])
    res = _quiet(stats.compare, both, by="machine", baseline="bob")
    slow = res.loc[res.ratio.idxmin()]
    # one run per machine: each block size's ratio is described, not tested
    assert f"alice against bob : from {slow.ratio:.3g}× (aes-128-cbc at " \
           f"{int(slow.block_bytes)} bytes)" in text
    assert "one run on a side: described, not tested" in text
    assert f"alice against bob (encrypt): {res.ratio.min():.3g}× to {res.ratio.max():.3g}× " \
           f"over {len(res)} cells" in text  # the pairwise view
    big = res[(res.algorithm == "aes-128-cbc") & (res.block_bytes == res.block_bytes.max())]
    assert (f"aes-128-cbc at {int(big.block_bytes.iloc[0])} bytes: {big.ratio.iloc[0]:.3g}× on "
            f"alice, relative to bob.") in _text(html)  # the key finding
    # bob.txt names each run ("evp aes-128-gcm aesni=on"): those are runs, not machines
    assert "2 machine(s) (alice, bob)" in _text(_section(html, "data"))
    aesni = _text(_section(html, "aesni"))
    assert "bob, openssl 3.0.22, CPU time" in aesni and "alice: only" not in aesni
    assert "<figure" in _section(html, "small-blocks")


def test_the_machine_ratio_figure_draws_what_its_caption_counts(tmp_path):
    """Two capture folders whose machines share only some algorithms: the ratio figure draws
    the compared ones (the heatmap's most measured, aes-128-gcm among them, were timed under
    other conditions and compared nowhere), as many as its caption says."""
    folders = [cipherlab.datasets.root() / "captures" / h for h in
               ("host-a-openssl-3.0.19", "host-b-openssl-3.0.22")]
    page = _quiet(cipherlab.report, [str(f) for f in folders], out=tmp_path, progress=False)
    html = page.read_text(encoding="utf-8")
    svg = next((page.parent / "figures").glob("machines-ratio-*.svg")).read_text()
    legend = set(re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    compared = set(pd.read_csv(page.parent / "tables" / "machines.csv")["algorithm"])
    caption = re.search(r"machines-ratio-[^<]*</b>(.*?)</figcaption>", html).group(1)
    drawn = compared & legend
    said = re.search(r"The (\d+) algorithms compared at the most block sizes, of (\d+)", caption)
    assert said and (int(said[1]), int(said[2])) == (len(drawn), len(compared)), caption
    assert len(drawn) == 4 and "aes-128-cbc" in drawn


def test_labels_baseline_dataframes_and_tidy_tables_give_the_same_comparison(
        two_machines, tmp_path):
    alice, bob = two_machines
    pages = {}
    for name, sources, kw in [
        ("files", [alice, bob], dict(label=["A", "B"], baseline="A")),
        ("frames", [cipherlab.ingest(alice), cipherlab.ingest(bob)],
         dict(label=["A", "B"], baseline="A")),
    ]:
        pages[name] = _quiet(cipherlab.report, sources, out=tmp_path / name, **kw)
    cipherlab.write_table(cipherlab.ingest(bob), tmp_path / "bob.parquet")
    pages["tidy"] = _quiet(cipherlab.report, [alice, tmp_path / "bob.parquet"],
                           out=tmp_path / "tidy", label=["A", "B"], baseline="A")
    machines = {k: _text(_section(p.read_text(), "machines")) for k, p in pages.items()}
    for text in machines.values():
        assert "Compared: B against A (chosen with --baseline)" in text
    assert len(set(machines.values())) == 1, machines  # the same whatever form the data had


def test_label_count_must_match_the_sources(two_machines, tmp_path):
    with pytest.raises(ValueError, match="one name per source: 2 source"):
        cipherlab.report(list(two_machines), out=tmp_path, label=["only-one"])


@pytest.mark.browser
@pytest.mark.openssl
def test_the_capture_report_in_chromium(captured_report, page):
    path, _, _ = captured_report
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    for key in ("aesni", "small-blocks"):
        section = page.locator(f"section#{key}")
        assert section.locator("img").count() >= 2, key
        sizes = section.locator("img").evaluate_all(
            "els => els.map(i => [i.complete, i.naturalWidth])")
        assert all(done and w > 0 for done, w in sizes), (key, sizes)
    body = page.locator("section#aesni").inner_text()  # (a verdict: which one, the noise decides)
    assert any(v in body for v in ("differs from 2×", "equivalent to 2×", "inconclusive"))
    assert "overtakes" in page.locator("section#small-blocks").inner_text()


@pytest.mark.browser
def test_the_two_machine_report_in_chromium(two_machines_report, page):
    path, _, _ = two_machines_report
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    for key in ("aesni", "small-blocks", "machines"):
        section = page.locator(f"section#{key}")
        assert section.locator("img").count() >= 1, key
        assert all(w > 0 for w in section.locator("img").evaluate_all(
            "els => els.map(i => i.naturalWidth)")), key
    text = page.locator("section#machines").inner_text()
    assert "alice against bob" in text and "Pairwise" in text
    facts = page.locator("section#data table").nth(1).inner_text()
    assert "alice" in facts and "bob" in facts and "mask in effect" in facts


def _bundled_folder(name: str):
    return cipherlab.datasets.path(f"captures/{name}/README.md").parent


def _copy_folder(name: str, dest):
    import shutil
    return shutil.copytree(_bundled_folder(name), dest)


def test_folders_and_files_named_alike_stay_apart_as_machines(tmp_path):
    from cipherlab.reporting._inputs import load

    # a folder's dots are part of its name (Path.stem took "openssl-3.0" for both)
    a = _copy_folder("host-a-openssl-3.0.19", tmp_path / "openssl-3.0.19-host-a")
    b = _copy_folder("host-b-openssl-3.0.22", tmp_path / "openssl-3.0.22-host-b")
    got = _quiet(load, [a, b])
    assert set(got.df["machine"].astype(str)) == {"openssl-3.0.19-host-a", "openssl-3.0.22-host-b"}
    # two speed.txt of two folders: told apart by their folders, never one machine
    for host, source in (("alpha", a / "evp-aes.txt"), ("beta", b / "evp.txt")):
        (tmp_path / host).mkdir()
        (tmp_path / host / "speed.txt").write_bytes(source.read_bytes())
    got = _quiet(load, [tmp_path / "alpha" / "speed.txt", tmp_path / "beta" / "speed.txt"])
    assert set(got.df["machine"].astype(str)) == {"alpha/speed", "beta/speed"}
    assert got.names == ["alpha/speed", "beta/speed"]


def test_a_folder_of_two_cpus_dumps_is_two_machines_and_one_cpus_is_pooled_loudly(tmp_path):
    from cipherlab.errors import ComparabilityWarning
    from cipherlab.reporting._inputs import load

    a, b = _bundled_folder("host-a-openssl-3.0.19"), _bundled_folder("host-b-openssl-3.0.22")
    mixed = tmp_path / "dumps"
    mixed.mkdir()
    (mixed / "alice.txt").write_bytes((a / "evp-aes.txt").read_bytes())
    (mixed / "bob.txt").write_bytes((b / "evp.txt").read_bytes())
    with pytest.warns(ComparabilityWarning, match=r"dumps: its files come from 2 machines"):
        got = load(mixed)
    assert set(got.df["machine"].astype(str)) == {"dumps/alice", "dumps/bob"}
    # one CPU (the same capability words) measuring the same cells in two files: one machine,
    # its files pooled as runs, and said
    one = tmp_path / "mine"
    one.mkdir()
    (one / "gcm.txt").write_bytes((a / "evp-aes.txt").read_bytes())
    (one / "legacy.txt").write_bytes((a / "legacy-unavailable.txt").read_bytes())
    with pytest.warns(ComparabilityWarning, match=r"mine: 2 of its 2 files measure the same "
                                                  r"cells and name no host"):
        got = load(one)
    assert set(got.df["machine"].astype(str)) == {"mine"}
    with warnings.catch_warnings():
        warnings.simplefilter("error", ComparabilityWarning)  # a label names the machine: quiet
        assert set(load(one, label="laptop").df["machine"].astype(str)) == {"laptop"}


@pytest.mark.openssl
def test_a_capture_beside_a_dump_keeps_its_isa_pairs(captured):
    from cipherlab.reporting._aesni import _comparisons
    from cipherlab.reporting._inputs import load

    # the dump's rows have no `isa` preset: they must not split the capture's native/no-aesni
    dump = cipherlab.datasets.path("captures/host-b-openssl-3.0.22/evp.txt")
    df = _quiet(load, [captured, dump]).df
    paired, unpaired = _comparisons(df[df["bytes_per_s"].notna()])
    host = str(cipherlab.ingest(captured)["host"].iloc[0])
    assert {str(key["machine"]) for key, *_ in paired} == {host, "evp"}
    assert not unpaired


def test_the_machines_heatmap_shows_a_size_every_machine_measured(two_machines, tmp_path):
    # alice measured only 64 and 16384 bytes: the one-size heatmap must not be at 8 KiB, where
    # she would vanish from it
    alice, bob = (_quiet(cipherlab.ingest, p) for p in two_machines)
    alice = alice[alice.block_bytes.isin([64, 16384])]
    page = cipherlab.report([alice, bob], label=["alice", "bob"], out=tmp_path / "r")
    html = page.read_text()
    assert "Throughput by machine and algorithm at 16384-byte blocks" in html
    from cipherlab.reporting._select import common_size
    both = cipherlab.concat([alice.assign(m="alice"), bob.assign(m="bob")])
    assert common_size(both) == 8192 and common_size(both, by="m") == 16384


@pytest.mark.openssl
def test_an_arm_capture_names_armv8_aes_and_armcaps_bits_never_aes_ni(arm_captured,
                                                                       arm_captured_report):
    """Debian's arm64 openssl under qemu (tests/conftest.py): the default isa's condition is ARMv8
    AES + PMULL off, and every sentence, caption and header of the ISA section says so."""
    page, html, _ = arm_captured_report
    text = _text(_section(html, "aesni"))
    assert "how much faster, and is ARMv8 AES 2×?" in text
    assert "Compared: nothing off against off: aes+pmull for 3 algorithm(s)" in text
    assert "Speed-up, effect: ARMv8 AES" in text and "Not ARMv8 AES alone" not in text
    assert "no ARMv8 AES effect expected (chacha20-poly1305 does not use AES)" in text
    assert "Test of the 2× ARMv8 AES claim on the AES algorithms:" in text
    assert "the claimed 2× of ARMv8 AES" in text
    assert "bit 2 is ARMv8 AES, bit 5 PMULL" in text and "Bit 57" not in text
    # AES-NI only where the section's introduction names both families' switches
    assert "AES-NI claim" not in text and "AES-NI effect" not in text
    folder = page.parent / "tables"
    claim = pd.read_csv(folder / "aesni-2x-test.csv")
    assert set(claim.algorithm) == {"aes-128-gcm", "aes-128-cbc"} and set(claim.effect) == {"ARMv8 AES"}
    header = next(line for line in (folder / "cost-model.md").read_text().splitlines()
                  if line.startswith("|"))  # (the aesni column: the AES instructions on/off)
    assert "ARMv8 AES" in header and "AES-NI" not in header
    facts = _text(_section(html, "data"))
    if "x86_64" in cipherlab.host_info()["machine"]:  # (qemu on x86: the facts say whose CPU)
        assert "emulated ARM openssl on x86_64" in facts and "OPENSSL_armcap=0x" in facts


@pytest.mark.openssl
def test_an_arm_dump_with_cpuinfo_env_lines_is_decoded_and_named_armv8_aes(arm_openssl, tmp_path):
    """A user's paste of two real runs of the ARM openssl, native and OPENSSL_armcap=0xd9-style
    (native's word without AES and PMULL): labelled by the CPUINFO lines openssl printed."""
    import os
    import subprocess

    from cipherlab.runners import resolve_isa
    value = _quiet(resolve_isa, "no-aesni", openssl=arm_openssl)[0].value.removeprefix("armcap=")
    runs = [subprocess.run([arm_openssl, "speed", "-seconds", "1", "-bytes", "16384", "-evp",
                            "aes-128-gcm"], capture_output=True, text=True, check=True,
                           env={**os.environ, **extra})
            for extra in ({}, {"OPENSSL_armcap": value})]
    dump = tmp_path / "pi.txt"
    dump.write_text("".join(r.stderr + r.stdout for r in runs))
    df = _quiet(cipherlab.ingest, dump)
    assert df[["isa_off", "aesni"]].astype(str).values.tolist() == [["none", "on"],
                                                                    ["aes+pmull", "off"]]
    html = _quiet(cipherlab.report, dump, out=tmp_path / "report").read_text(encoding="utf-8")
    text = _text(_section(html, "aesni"))
    assert "is ARMv8 AES 2×?" in text and "Speed-up, effect: ARMv8 AES" in text
    assert "as openssl printed it" in text and "bit 2 is ARMv8 AES" in text
    assert "AES-NI claim" not in text


@pytest.mark.openssl
def test_a_32_bit_and_a_64_bit_capture_of_one_host_are_two_builds_never_two_machines(
        i386_captured, captured, builds_report):
    """Debian's i386 openssl and this machine's own, captured on one host with the same grid:
    the report compares two builds on one CPU (no machine comparison, no per-GHz), keeps each
    build's ISA pairs and facts apart, and names the builds by their platform, not by capture id."""
    import numpy as np

    page, html, _ = builds_report
    own = re.search(r"^platform:\s*(\S+)", cipherlab.host_info()["openssl_version_a"], re.M)[1]
    assert own != "debian-i386"
    data = _text(_section(html, "data"))
    assert "build debian-i386" in data and f"build {own}" in data
    assert "platform debian-i386" in data and "32-bit build 32-bit x86 on x86_64" in data
    assert "bn(64,32)" in data and "capture_id=" not in html  # (no heading names it)
    machines = _text(_section(html, "machines"))
    assert "No two machines were measured" in machines
    builds = _text(_section(html, "builds"))
    assert "2 builds" in builds and "never the hardware" in builds and "per GHz" not in builds
    isa = _text(_section(html, "aesni"))
    assert "build debian-i386, CPU time: nothing off against off: aesni+pclmulqdq " in isa
    assert f"build {own}, CPU time: nothing off against off: aesni+pclmulqdq" in isa
    table = pd.read_csv(page.parent / "tables" / "builds.csv")
    assert set(table["build"]) | set(table["baseline"]) == {"debian-i386", own}
    row = table[(table.algorithm == "aes-128-gcm") & (table.block_bytes == 16384)].iloc[0]

    def gmean(folder):
        df = _quiet(cipherlab.ingest, folder)
        cell = df[(df.algorithm == "aes-128-gcm") & (df.block_bytes == 16384) & (df.isa == "native")]
        return float(np.exp(np.log(cell["bytes_per_s"]).mean()))
    side = {"debian-i386": gmean(i386_captured), own: gmean(captured)}
    assert row["ratio"] == pytest.approx(side[row["build"]] / side[row["baseline"]], rel=1e-9)


def test_a_folder_of_two_real_pastes_of_two_machines_is_two_machines_described_never_tested(
        tmp_path):
    """Two users' pastes saved in one folder (1.1.0e and 1.1.1m, no host named): never pooled as
    runs of one machine; compared as two machines, one run each: described, not tested."""
    import shutil

    from cipherlab.errors import ComparabilityWarning
    folder = tmp_path / "dumps"
    folder.mkdir()
    for name in ("008_botan968-110e-progress-aes-space-names.txt",
                 "059_issue17844-windows7-cmd-prompt-111m-progress.txt"):
        shutil.copy(PASTES / name, folder / name)
    with pytest.warns(ComparabilityWarning, match=r"dumps: its files were made by different "
                                                  r"builds \(tool version: 1\.1\.0e, 1\.1\.1m\)"):
        page = cipherlab.report(folder, out=tmp_path / "r")
    html = page.read_text(encoding="utf-8")
    machines = _text(_section(html, "machines"))
    assert "2 machines" in machines and "one run on a side: described, not tested" in machines
    table = pd.read_csv(page.parent / "tables" / "machines.csv")
    assert set(table["test"]) == {"no replication"} and table["p_adjusted"].isna().all()
    assert {"dumps/008_botan968-110e-progress-aes-space-names",
            "dumps/059_issue17844-windows7-cmd-prompt-111m-progress"} == \
        set(table["candidate"]) | set(table["baseline"])


@pytest.mark.openssl
def test_dumps_of_one_folder_whose_rates_are_far_apart_are_never_runs_of_one_machine(
        i386_openssl, tmp_path):
    """Two real -mr dumps that print no version (the 32-bit and the 64-bit openssl, ChaCha20 at
    16 KiB: ~5x apart with AVX2): not replicates, whatever the folder says."""
    import subprocess

    from cipherlab.errors import ComparabilityWarning
    from cipherlab.reporting._inputs import load
    if not cipherlab.host_info()["flags"].get("avx2"):
        pytest.skip("without AVX2 both builds run ChaCha20 with SSSE3, at like rates")
    folder = tmp_path / "box"
    folder.mkdir()
    for name, binary in (("a", "openssl"), ("b", i386_openssl)):
        out = subprocess.run([binary, "speed", "-mr", "-seconds", "1", "-bytes", "16384", "-evp",
                              "chacha20-poly1305"], capture_output=True, text=True, check=True)
        (folder / f"{name}.txt").write_text(out.stdout)
    with pytest.warns(ComparabilityWarning, match=r"box: its files measure the same cells at "
                                                  r"rates [\d.]+× apart .*its own machine"):
        df = load([folder]).df
    assert set(df["machine"]) == {"box/a", "box/b"}


@pytest.mark.openssl
def test_a_capture_of_two_builds_gets_each_builds_facts_and_the_builds_section(i386_openssl,
                                                                                tmp_path):
    """capture(openssl='i386=...,amd64=openssl'): one folder, the `build` condition; the facts
    table takes each build's `openssl version -a` from builds.json, not host.json's first."""
    import shutil

    out = tmp_path / "two-builds"
    _quiet(cipherlab.capture, "chacha20-poly1305", sizes=[16384], seconds=1, repeats=2,
           isa="native", out=out, openssl=f"i386={i386_openssl},amd64={shutil.which('openssl')}",
           progress=False)
    html = _quiet(cipherlab.report, out, out=tmp_path / "r").read_text(encoding="utf-8")
    data = _text(_section(html, "data"))
    assert "build i386" in data and "build amd64" in data
    assert "bn(64,32) bn(64,64)" in data  # (the options row: each build's own)
    builds = _text(_section(html, "builds"))
    assert "2 builds" in builds and re.search(r"amd64 against i386 ?: [\d.]+×", builds)


def test_a_post_of_three_systems_each_with_its_own_openssl_is_three_machines(tmp_path):
    """The NetBSD mailing-list seed, reported alone: Linux, OpenBSD and NetBSD (each its own
    openssl, 0.9.8g, 0.9.7j, 0.9.8e) are three machines compared, as the post compares them, not
    one machine with nothing to compare; the figures show its AES rows, not md2 first."""
    from cipherlab.reporting._inputs import load
    from cipherlab.reporting._machines import _heatmap_algorithms

    seed = cipherlab.datasets.path("netbsd-ml-three-os-openssl-speed.txt")
    df = _quiet(load, [seed]).df
    linux, openbsd, netbsd = ("Linux (P3 750Mhz; 512MBram)", "OpenBSD (P3 500Mhz; 192MBram)",
                              "NetBSD (P3 750Mhz; 512MBram)")
    assert set(df["machine"]) == {linux, openbsd, netbsd}
    assert _heatmap_algorithms(df, 8192, "machine")[:3] == ["aes-128-cbc", "aes-256-cbc",
                                                             "aes-192-cbc"]
    page = _quiet(cipherlab.report, seed, out=tmp_path / "r")
    assert "3 machines" in _text(_section(page.read_text(encoding="utf-8"), "machines"))
    table = pd.read_csv(page.parent / "tables" / "machines.csv")
    row = table[(table["comparison"] == "openssl, CPU time") & (table["candidate"] == netbsd)
                & (table["baseline"] == linux)
                & (table["algorithm"] == "aes-128-cbc") & (table["block_bytes"] == 1024)]
    # the post's own "Most interesting" lines: N 14096.25k against L 31360.94k at 1024 bytes
    assert row["ratio"].item() == pytest.approx(14096.25 / 31360.94, rel=1e-6)
    assert row["test"].item() == "no replication"


@pytest.mark.openssl
def test_machines_that_share_a_host_name_are_machines_never_replicates_or_builds(namesakes,
                                                                                 tmp_path):
    """Three real captures of machines that all call themselves ``ubuntu`` (tests/conftest.py):
    this machine, a clone of it under another machine id (the same build: its runs were taken
    for this machine's replicates) and Debian's arm64 openssl under a third id (another build:
    it was taken for a build of this machine, "the same CPU"). Each is a machine of its own,
    named by its folder, and the machines section compares them."""
    import shutil

    from cipherlab.errors import ComparabilityWarning
    from cipherlab.reporting._inputs import load

    x86, clone, arm = namesakes["x86"], namesakes["clone"], namesakes["arm"]
    for pair, names in (((x86, clone), {"x86/ubuntu", "clone/ubuntu"}),
                        ((x86, arm), {"x86/ubuntu", "arm/ubuntu"})):
        with pytest.warns(ComparabilityWarning, match=r"2 machines are named 'ubuntu' \(host_id "):
            got = load(list(pair))
        assert set(got.df["machine"].astype(str)) == names
        assert "build" not in got.df.columns or got.df["build"].isna().all()
        # each machine's facts are its own host.json's (matched by host id, not by name)
        assert {m: f["host_id"] for m, f in got.facts.items()} == {
            m: got.df.loc[got.df["machine"] == m, "host_id"].iloc[0] for m in names}
    # one folder of the three (a fleet's): told apart by host id
    fleet = tmp_path / "fleet"
    fleet.mkdir()
    for name, folder in namesakes.items():
        shutil.copytree(folder, fleet / name)
    with pytest.warns(ComparabilityWarning, match=r"3 machines are named 'ubuntu'"):
        got = load(fleet)
    assert got.df["machine"].nunique() == 3
    assert all(re.fullmatch(r"ubuntu \(host [0-9a-f]{8}\)", m) for m in got.df["machine"].unique())
    # a label is the caller's word that the sources are one machine: kept, and said
    with pytest.warns(ComparabilityWarning, match=r"the label 'vm' names machines whose host_id"):
        got = load([x86, clone], label="vm")
    assert set(got.df["machine"].astype(str)) == {"vm"}

    page = _quiet(cipherlab.report, [x86, arm], out=tmp_path / "report")
    html = page.read_text(encoding="utf-8")
    machines = _text(_section(html, "machines"))
    assert "arm/ubuntu" in machines and "x86/ubuntu" in machines
    table = pd.read_csv(page.parent / "tables" / "machines.csv")
    assert set(table["candidate"]) | set(table["baseline"]) == {"x86/ubuntu", "arm/ubuntu"}
    assert not (page.parent / "tables" / "builds.csv").exists()
    assert "ARM openssl on x86_64" in _text(_section(html, "data")) or (
        "x86_64" not in cipherlab.host_info()["machine"])


def test_two_arm_pastes_keep_the_isa_section(tmp_path):
    """Two real pastes of two ARM machines (a Graviton2 issue with CPUINFO lines, a Pi 5 forum
    post whose prose names the version once, above its four runs of one shell session): the
    version holds for all four runs, so the Pi's AES-256-CBC and SHA-256 pairs are one
    experiment. (When only its first run had the version, its AES-256-CBC with ARMv8 AES on and
    its runs with the mask off fell in two experiments, the one with a pair holding SHA-256
    alone.) The ISA section used to fail whole ("could not run: ratio_test: `candidate` must be
    ...")."""
    terminal = Path(__file__).parent / "data" / "user" / "terminal"
    sources = [terminal / "025_gh-issue-graviton2-armcap-cpuinfo.md",
               terminal / "026_forum-pi5-armcap-prose-no-cpuinfo.txt"]
    html = _quiet(cipherlab.report, sources, out=tmp_path / "report").read_text(encoding="utf-8")
    text = _text(_section(html, "aesni"))
    assert "could not run" not in text
    assert "Test of the 2× ARMv8 AES claim on the AES algorithms" in text  # (the Graviton2's)
    assert "openssl 3.0.15, wall-clock time: nothing off against off: aes+pmull" in text
    assert "for 2 algorithm(s) (aes-256-cbc, sha256)" in text and "AES-NI claim" not in text


@pytest.mark.openssl
def test_a_folder_of_one_dump_per_isa_condition_pairs_them(tmp_path):
    """Three real dumps as a user keeps them, one file per command: SHA-256 without a mask and
    with the AWS-wiki mask, AES-128-CBC with the mask only. The masked files hold no run
    without a mask of their own: their mask in effect is decoded against the other file's
    (the CPU's own mask), which then ran with nothing off. The report pairs SHA-256 and says
    that no AES algorithm was measured both ways (the claim needs one)."""
    import os
    import subprocess
    if "x86_64" not in cipherlab.host_info()["machine"]:
        pytest.skip("OPENSSL_ia32cap is x86's")
    mask = "~0x200000200000000"
    folder = tmp_path / "dumps"
    folder.mkdir()
    for name, env, cipher in (("native", None, "sha256"), ("masked-sha", mask, "sha256"),
                              ("masked-aes", mask, "aes-128-cbc")):
        args = ["openssl", "speed", "-seconds", "1", "-bytes", "1024", "-evp", cipher]
        done = subprocess.run(args, capture_output=True, text=True, check=True,
                              env={**os.environ, **({"OPENSSL_ia32cap": env} if env else {})})
        prompt = f"$ {'OPENSSL_ia32cap=' + env + ' ' if env else ''}{' '.join(args)}\n"
        (folder / f"{name}.txt").write_text(prompt + done.stderr + done.stdout)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        df = cipherlab.ingest(folder)
    assert not any("no run without OPENSSL_ia32cap" in str(w.message) for w in record)
    off = df.groupby(df["source"].astype(str).str.extract(r"(\w[\w-]*)\.txt")[0])["isa_off"].first()
    assert off["native"] == "none" and off["masked-sha"] == off["masked-aes"]
    assert off["masked-sha"].startswith("aesni+pclmulqdq")
    page = _quiet(cipherlab.report, folder, out=tmp_path / "r")
    text = _text(_section(page.read_text(encoding="utf-8"), "aesni"))
    assert re.search(r"for 2 algorithm\(s\) \((sha256, aes-128-cbc|aes-128-cbc, sha256)\)", text)
    assert re.search(r"sha256 : [\d.]+× at 1024 bytes", text)  # the pair, described
    assert "No AES algorithm was measured both ways here (aes-128-cbc: only isa_off=aesni" in text
