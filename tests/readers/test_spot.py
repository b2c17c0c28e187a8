"""Hand-checked cells: each expected number is copied from the line of the dump named beside it.

These pin the expected tables of ``test_corpus.py`` to the source text: if a regenerated
expected table drifted, these fail.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

import cipherlab

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

DATA = Path(__file__).resolve().parents[1] / "data"
HOST_A = DATA / "samples" / "openssl-3.0.19-host-a"
HOST_B = DATA / "samples" / "openssl-3.0.22-host-b"
SYN = DATA / "synthetic"
SEEDS = Path(cipherlab.datasets.root()) / "seeds"


def one(df, **where):
    sel = df
    for key, value in where.items():
        sel = sel[sel[key] == value]
    assert len(sel) == 1, f"{len(sel)} rows match {where}"
    return sel.iloc[0]


@pytest.fixture(scope="module")
def read():
    cache = {}

    def _read(path, **kw):
        key = (path, tuple(sorted(kw.items())))
        if key not in cache:
            cache[key] = cipherlab.ingest(path, **kw)
        return cache[key]
    return _read


def test_evp_aes_16_byte_cell(read):
    # evp-aes.txt:15 "AES-128-CBC    1354589.59k ..." and :2 "83815231 AES-128-CBC's in 0.99s"
    c = one(read(HOST_A / "evp-aes.txt"), algorithm="aes-128-cbc", block_bytes=16)
    assert c.bytes_per_s == 1354589.59e3
    assert (c["count"], c.seconds, c.line, c["name"]) == (83815231, 0.99, 15, "AES-128-CBC")
    assert (c.tool, c.tool_version, c.timing, c.operation) == ("openssl", "3.0.19", "cpu", "encrypt")
    assert c.cpuinfo == "OPENSSL_ia32cap=0xfffa32034f8bffff:0x1a415f46f1bf2ffb"


def test_pkey_tables(read):
    df = read(HOST_A / "pkey-all-kinds.txt")
    # "rsa 2048 bits 0.000303s 0.000017s   3302.0  59975.5"; "56377 2048 bits public RSA's in 0.94s"
    assert one(df, algorithm="rsa2048", operation="sign").ops_per_s == 3302.0
    v = one(df, algorithm="rsa2048", operation="verify")
    assert (v.ops_per_s, v["count"], v.seconds) == (59975.5, 56377, 0.94)
    # two 256-bit ECDSA curves: the second progress pair belongs to brainpool
    b = one(df, algorithm="ecdsa-brainpoolp256r1", operation="verify")
    assert (b.ops_per_s, b["count"], b.seconds) == (3678.6, 3605, 0.98)
    assert one(df, algorithm="x25519").ops_per_s == 33536.0
    assert one(df, algorithm="ed448", operation="sign").ops_per_s == 6766.7
    assert one(df, algorithm="sm2", operation="verify").ops_per_s == 3947.5
    f = one(df, algorithm="ffdh2048")
    assert (f.operation, f.ops_per_s, f["count"], f.seconds) == ("derive", 3973.9, 2742, 0.69)
    assert df.block_bytes.isna().all() and df.bytes_per_s.isna().all()


def test_mr_records(read):
    df = read(HOST_A / "evp-aes-mr.txt")
    # "+F:25:AES-128-CBC:1394193892.68:..." and "+R:71452437:AES-128-CBC:0.820000"
    c = one(df, block_bytes=16)
    assert (c.bytes_per_s, c["count"], c.seconds) == (1394193892.68, 71452437, 0.82)
    assert c.dialect == "mr" and pd_isna(c.tool_version)
    pk = read(HOST_A / "pkey-mr.txt")
    assert one(pk, algorithm="rsa2048", operation="sign").ops_per_s == 3465.656566  # +F2
    assert one(pk, algorithm="ecdsa-p256", operation="verify").ops_per_s == 15198.979592  # +F4
    e = one(pk, algorithm="ecdh-p256")  # "+F5:3:256:19652.577320:0.000051" (ops/s first in 3.x)
    assert (e.ops_per_s, e["count"], e.seconds) == (19652.577320, 19063, 0.97)
    assert one(pk, algorithm="ed25519", operation="sign").ops_per_s == 26529.896907  # +F6
    assert one(pk, algorithm="sm2", operation="sign").ops_per_s == 3593.939394  # +F7
    assert one(pk, algorithm="ffdh2048").ops_per_s == 3572.0  # +F8


def pd_isna(v):
    return v is None or (isinstance(v, float) and math.isnan(v))


def test_multi_children_and_totals(read):
    df = read(HOST_A / "multi.txt")
    total = df[(df.block_bytes == 16) & df.flag.isna()].iloc[0]
    assert total.bytes_per_s == 217350.81e3 and total.multi == 2 and total.timing == "elapsed"
    # "Got: +F:25:sha256:108867888.00:... from 0"
    child = one(df, block_bytes=16, child=0)
    assert child.bytes_per_s == 108867888.00 and child.flag == "child process"
    assert df[df.flag.isna()].shape[0] == 6
    mr = read(HOST_A / "multi-mr.txt")
    assert mr[mr.flag.isna() & (mr.algorithm == "md5")].bytes_per_s.tolist() == [1347268608.00]
    pk = read(HOST_A / "multi-pkey.txt")
    assert pk[pk.flag.isna() & (pk.operation == "sign")].ops_per_s.tolist() == [6485.0]


def test_mb_aead_bytes_elapsed(read):
    mb = one(read(HOST_A / "mb.txt"), block_bytes=8192)  # "1159391.42k", "93408 evp's in 0.66s"
    assert (mb.algorithm, mb.bytes_per_s, mb["count"], mb.seconds) == (
        "aes-128-cbc-hmac-sha1", 1159391.42e3, 93408, 0.66)
    aead = read(HOST_A / "aead.txt")
    assert sorted(aead.block_bytes) == [2, 31, 136, 1024, 8192, 16384]
    assert one(read(HOST_A / "bytes.txt"), algorithm="sha256").block_bytes == 1048576
    assert set(read(HOST_A / "elapsed.txt").timing) == {"elapsed"}


def test_legacy_unavailable_rows_are_not_measured(read):
    df = read(HOST_A / "legacy-unavailable.txt")
    md4 = df[df.algorithm == "md4"]
    assert len(md4) == 6 and md4.bytes_per_s.isna().all() and set(md4.flag) == {"not measured"}
    assert one(df, algorithm="des-ede3-cbc", block_bytes=16).bytes_per_s == 32947.70e3


def test_row_names(read):
    df = read(HOST_A / "sym-names-bytes16.txt")
    assert one(df, algorithm="camellia-128-cbc").bytes_per_s == 148333.25e3  # overflows %-13s
    assert one(df, name="blowfish").algorithm == "bf-cbc"
    assert one(df, name="rmd160").algorithm == "ripemd160"
    assert one(df, algorithm="rand").operation == "generate"
    hm = read(HOST_A / "hmac-cmac.txt")
    assert set(hm.algorithm) == {"hmac(sha256)", "cmac(aes-128-cbc)"}


def test_netbsd_three_runs(read):
    df = read(SEEDS / "netbsd-ml-three-os-openssl-speed.txt")
    runs = df.groupby("run").agg(label=("label", "first"), version=("tool_version", "first"))
    assert runs.label.tolist() == ["Linux (P3 750Mhz; 512MBram)", "OpenBSD (P3 500Mhz; 192MBram)",
                                   "NetBSD (P3 750Mhz; 512MBram)"]
    assert runs.version.tolist() == ["0.9.8g", "0.9.7j", "0.9.8e"]
    linux = df[df.run == 0]
    # "aes-128 cbc 21271.44k ... 31692.12k": the "Most interesting: L : aes-128 cbc" quotation
    # at the end of the post is not read as a second row
    aes = linux[linux.algorithm == "aes-128-cbc"]
    assert aes.bytes_per_s.tolist() == [21271.44e3, 28059.45e3, 30584.18e3, 31360.94e3, 31692.12e3]
    # "camellia-128 cbc 0.00 0.00 0.00 0.00" + "0.00" wrapped by the mail client
    cam = linux[linux.algorithm == "camellia-128-cbc"]
    assert len(cam) == 5 and set(cam.flag) == {"not measured"}
    assert one(df[df.run == 1], algorithm="rsa4096", operation="verify").ops_per_s == 104.2
    assert linux.options.iloc[0].endswith("aes(partial) blowfish(idx)")  # wrapped options:
    assert linux.compiler.iloc[0].endswith("-DAES_ASM")  # wrapped compiler:


def test_synthetic_old_releases(read):
    old = read(SYN / "openssl-0.9.7h-elapsed.txt")
    rc5 = one(old, algorithm="rc5-cbc", block_bytes=16)  # "rc5-32/12 cbc     9876.54 " (no k)
    assert (rc5.bytes_per_s, rc5["count"]) == (9876.54, 1852)
    assert set(old.timing) == {"elapsed"}
    assert one(old, algorithm="rsa512", operation="sign").ops_per_s == 437.1
    only = read(SYN / "openssl-0.9.8-doing-only.txt")  # "9969396 aes-128 cbc's in 2.99s"
    assert one(only, block_bytes=16).bytes_per_s == pytest.approx(9969396 * 16 / 2.99, rel=1e-12)
    assert one(only, algorithm="ecdh-p256").ops_per_s == pytest.approx(38561 / 9.99, rel=1e-12)
    five = read(SYN / "openssl-1.0.2u-five-sizes-mb.txt")
    assert sorted(five[five.run == 0].block_bytes.dropna().unique()) == [16, 64, 256, 1024, 8192]
    assert one(five, algorithm="aes-128-cbc-hmac-sha1", block_bytes=131072).bytes_per_s == 1697513.47e3


def test_mr_seconds_per_op_before_111(read):
    # 1.1.0 "+F2:2:2048:0.000606:0.000017" are seconds per op
    for kw in ({}, {"tool_version": "1.1.0"}):
        df = read(SYN / "openssl-1.1.0-mr-seconds-per-op.txt", **kw)
        assert one(df, algorithm="rsa2048", operation="sign").ops_per_s == pytest.approx(1 / 0.000606, rel=1e-12)
        assert one(df, algorithm="ecdh-p256").ops_per_s == pytest.approx(15023.2, rel=1e-12)
    assert set(read(SYN / "openssl-1.1.0-mr-seconds-per-op.txt", tool_version="1.1.0").tool_version) == {"1.1.0"}
    new = read(SYN / "openssl-1.1.1-mr-ops-per-second.txt")
    assert one(new, algorithm="rsa2048", operation="verify").ops_per_s == 60294.394394  # "+F2:2:2048:1750.300000:60294.394394"
    assert one(new, algorithm="ed25519", operation="verify").ops_per_s == 11000.2


def test_mr_version_hint_decides_ambiguous_records():
    # 1.1.1+: ops/s. A very slow 15360-bit key gives < 1 op/s for both: only the hint can tell.
    text = "+F2:6:15360:0.250000:0.800000\n"
    new = cipherlab.ingest(text, tool_version="1.1.1w")
    assert new.ops_per_s.tolist() == [0.25, 0.8]
    guessed = cipherlab.ingest(text)  # without a version: read as seconds per op
    assert guessed.ops_per_s.tolist() == [4.0, 1.25]


def test_rsa4_kem_sig(read):
    df = read(SYN / "openssl-3.5-rsa4-kem-sig.txt")
    assert one(df, algorithm="rsa2048", operation="encrypt").ops_per_s == 95105.5
    d = one(df, algorithm="rsa2048", operation="decrypt")
    assert (d.ops_per_s, d["count"], d.seconds) == (3050.0, 6100, 2.0)
    k = one(df, algorithm="ml-kem-768", operation="decaps")
    assert (k.ops_per_s, k["count"]) == (65228.0, 130456)
    s = one(df, algorithm="ml-dsa-65", operation="keygen")
    assert (s.ops_per_s, s["count"]) == (30061.5, 60123)
    assert one(df, algorithm="sha256", block_bytes=16)["count"] == 9400000  # "... ops in 2.00s"


def test_libressl_and_paste_damage(read):
    lib = read(SYN / "libressl-2.8.3.txt")
    assert set(lib.tool) == {"libressl"} and set(lib.label) == {"MacBook Air (M1), stock LibreSSL"}
    assert one(lib, algorithm="ecdsa-p256", operation="sign").ops_per_s == 30123.4
    mail = read(SYN / "mail-wrapped-quoted-1.1.1k.txt")
    assert one(mail, algorithm="md5", block_bytes=16384).bytes_per_s == 940889.43e3
    assert len(mail[mail.algorithm == "camellia-128-cbc"]) == 6
    assert set(mail.label) == {"My desktop (Ryzen 5 3600)"}
    crlf = read(SYN / "crlf-mojibake-3.0.13.txt")
    assert one(crlf, block_bytes=16).bytes_per_s == 901234.56e3
    assert set(crlf.label) == {"Results from the build box"} and set(crlf.tool_version) == {"3.0.13"}


def test_runs_and_conditions_from_markers(read):
    term = read(SYN / "multi-runs-terminal-3.0.2.txt")
    assert term.label.tolist() == ["laptop, on battery", "laptop, on mains"]
    assert term["count"].tolist() == [143169, 278802]  # each Doing line stays with its run
    evp = read(HOST_B / "evp.txt")
    assert evp.groupby("run").aesni.first().tolist() == ["on", "off"] * 4
    # "##### evp aes-128-gcm aesni=off" then "AES-128-GCM      15162.42k"
    assert one(evp, run=1, block_bytes=16).bytes_per_s == 15162.42e3
    py = read(HOST_B / "pyca.txt")  # "aes-128-gcm 16 13425093 14047713 ..."
    first = py[(py.run == 0) & (py.algorithm == "aes-128-gcm") & (py.block_bytes == 16)]
    assert first.bytes_per_s.tolist() == [13425093, 14047713, 12792165, 13998745, 13107365]
    assert first.repeat.tolist() == [0, 1, 2, 3, 4] and set(py.tool) == {"cryptography"}


def test_progress_without_prompt_or_prose_splits_runs():
    text = ("Doing md5 for 1s on 16 size blocks: 100 md5's in 1.00s\n"
            "version: 3.0.2\n"
            "type 16 bytes\nmd5 1.60k\n"
            "Doing md5 for 1s on 16 size blocks: 200 md5's in 1.00s\n"
            "version: 3.0.2\n"
            "type 16 bytes\nmd5 3.20k\n")
    df = cipherlab.ingest(text)
    assert df.run.tolist() == [0, 1] and df["count"].tolist() == [100, 200]


def test_runs_of_other_machines_keep_their_own_counts():
    # Three dumps pasted one after the other, nothing between them: a 0.9.8 table (no progress
    # lines), a 3.x capture whose prompt names hmac(md5), and -mr records. Each is its own run,
    # and no count of one fills a cell of another (it once did, wherever the cells' keys met).
    legacy = ("OpenSSL 0.9.8g 19 Oct 2007\n"
              "type             16 bytes     64 bytes\n"
              "md5              1000.00k     2000.00k\n")
    capture = ("$ openssl speed -seconds 1 -elapsed md5 hmac(md5)\n"
               "Doing md5 for 1s on 16 size blocks: 300 md5's in 1.00s\n"
               "Doing md5 for 1s on 64 size blocks: 400 md5's in 1.00s\n"
               "version: 3.0.19\n"
               "type             16 bytes     64 bytes\n"
               "md5                 4.80k       25.60k\n")
    mr = "+DT:md5:1:16\n+R:500:md5:1.000000\n+DT:md5:1:64\n+R:600:md5:1.000000\n"
    df = cipherlab.ingest(legacy + capture + legacy + mr)
    runs = df.groupby("run")
    assert runs.tool_version.first().astype(object).fillna("?").tolist() == [
        "0.9.8g", "3.0.19", "0.9.8g", "?"]
    assert runs["count"].apply(lambda c: c.fillna(0).tolist()).tolist() == [
        [0, 0], [300, 400], [0, 0], [500, 600]]
    assert runs.timing.first().tolist()[1] == "elapsed"  # the prompt was read
    assert df.label.isna().all()
    # a capture without its command line after a table without progress lines: its Doing lines
    # come before its header, and their rates are not the earlier table's
    df = cipherlab.ingest(legacy + capture.split("\n", 1)[1])
    assert df.groupby("run")["count"].apply(lambda c: c.fillna(0).tolist()).tolist() == [
        [0, 0], [300, 400]]
    # stderr pasted below stdout: the Doing lines after a table give its rates, so they are its
    split = ("version: 3.0.19\ntype 16 bytes 64 bytes\nmd5 4.80k 25.60k\n"
             + capture.split("\n", 1)[1].split("version")[0])
    df = cipherlab.ingest(split + legacy)
    assert df.groupby("run")["count"].apply(lambda c: c.fillna(0).tolist()).tolist() == [
        [300, 400], [0, 0]]
    # a -mr table without its records (as -multi -mr parents print it) after a printed table
    df = cipherlab.ingest(legacy + "+H:16:64\n+F:25:md5:3000.00:4000.00\n")
    assert df.run.tolist() == [0, 0, 1, 1] and df.bytes_per_s.tolist() == [1e6, 2e6, 3e3, 4e3]


def test_dumps_pasted_back_to_back_read_as_they_read_alone():
    # Any two bundled dumps of different runs, one after the other, give the runs and cells
    # that each gives alone (here: the pairs that once crashed, merged or swapped counts).
    pairs = [("samples/openssl-3.0.19-host-a/ecdh.txt", "synthetic/openssl-3.5-mr-kem-sig.txt"),
             ("samples/openssl-3.0.19-host-a/ecdh.txt", "samples/openssl-3.0.22-host-b/plain.txt"),
             ("samples/openssl-3.0.19-host-a/aead.txt", "synthetic/openssl-0.9.8-doing-only.txt"),
             ("samples/openssl-3.0.19-host-a/rsa.txt", "synthetic/openssl-0.9.8-doing-only.txt"),
             ("samples/openssl-3.0.19-host-a/multi.txt", "synthetic/openssl-1.1.1-mr-ops-per-second.txt"),
             ("samples/openssl-3.0.22-host-b/multi-mr.txt", "synthetic/openssl-1.1.0-mr-seconds-per-op.txt"),
             ("samples/openssl-3.0.19-host-a/multi-pkey.txt", "synthetic/openssl-3.5-mr-kem-sig.txt"),
             ("samples/openssl-3.0.19-host-a/pkey-mr.txt", "samples/openssl-3.0.19-host-a/mb-mr.txt"),
             ("samples/openssl-3.0.22-host-b/pyca.txt", "seeds/netbsd-ml-three-os-openssl-speed.txt"),
             ("samples/openssl-3.0.22-host-b/pyca.txt", "synthetic/openssl-3.5-mr-kem-sig.txt")]
    cols = ["algorithm", "operation", "block_bytes", "bytes_per_s", "count", "seconds"]
    for a, b in pairs:
        ta, tb = (DATA / a).read_text(), (DATA / b).read_text()
        alone = [cipherlab.ingest(t) for t in (ta, tb)]
        both = cipherlab.ingest(ta.rstrip("\n") + "\n" + tb)
        assert both.run.nunique() == sum(df.run.nunique() for df in alone), (a, b)
        cells = sorted(map(repr, both[cols].astype(object).itertuples(index=False)))
        assert cells == sorted(map(repr, pd.concat(alone)[cols].astype(object).itertuples(
            index=False))), (a, b)


def test_progress_lines_split_or_with_terminal_junk():
    # real pastes (openssl-speed-formats.md §6): prompt and result on two lines, and "^[[A" junk
    text = ("Doing 2048 bits private rsa's for 10s:\n"
            "10364 2048 bits private RSA's in 9.97s\n"
            "Doing rsa2048 verify ops for 10s: ^[[A^[[A3486014 rsa2048 signature verify ops in 10.00s\n"
            "Doing md5 for 3s on 16 size blocks: \x1b[0m9969396 md5's in 2.99s\n")
    df = cipherlab.ingest(text, strict=True)
    rsa = one(df, algorithm="rsa2048", operation="sign")
    assert (rsa["count"], rsa.seconds) == (10364, 9.97)
    assert rsa.ops_per_s == pytest.approx(10364 / 9.97, rel=1e-12)
    sig = one(df, algorithm="rsa2048", operation="verify")
    assert (sig["count"], sig.seconds) == (3486014, 10.0)
    assert one(df, algorithm="md5")["count"] == 9969396


def test_non_sigalrm_and_engine_lines():
    text = ('engine "qatengine" set.\n'
            "Doing md5 2000000 times on 16 size blocks: 2000000 md5's in 1.25s\n"
            "+DN:sha1:1000:64\n+R:1000:sha1:0.500000\n")
    df = cipherlab.ingest(text, strict=True)
    assert df["count"].tolist() == [2000000, 1000]
    assert df.bytes_per_s.tolist() == [2000000 * 16 / 1.25, 1000 * 64 / 0.5]
    assert set(df.engine) == {"qatengine"}


def test_openssl_40_ec_table_and_kem_rows_from_oqs():
    text = ("version: 4.0.0-dev\n"
            "                              sign    verify    sign/s verify/s\n"
            " 256 bits EC (prime256v1)   0.0000s   0.0001s  47766.0  16098.0\n"
            " 253 bits EC (Ed25519)   0.0000s   0.0001s  29301.0  11179.8\n"
            "                               keygen    encaps    decaps keygens/s  encaps/s  decaps/s\n"
            "rsa15360 19.170000s 0.001486s 0.345556s       0.1     673.1       2.9\n")
    df = cipherlab.ingest(text, strict=True)
    assert one(df, algorithm="ecdsa-p256", operation="verify").ops_per_s == 16098.0
    assert one(df, algorithm="ed25519", operation="sign").ops_per_s == 29301.0
    assert one(df, algorithm="rsa15360", operation="encaps").ops_per_s == 673.1


def test_mr_32_numbering_kem_and_sig(read):
    # "+F2:2:2048:3117.100000:100517.000000:95105.500000:3050.000000", "+R4:30500:2048:10.00"
    df = read(SYN / "openssl-3.5-mr-kem-sig.txt")
    d = one(df, algorithm="rsa2048", operation="decrypt")
    assert (d.ops_per_s, d["count"]) == (3050.0, 30500)
    assert one(df, algorithm="ecdsa-p256", operation="verify")["count"] == 160980  # +R8 in 3.2+
    # +F9 is the KEM record, +F10 the SIG one; names come from the +DTP prompts
    assert one(df, algorithm="ml-kem-768", operation="keygen").ops_per_s == 60172.5
    assert one(df, algorithm="ml-dsa-65", operation="sign")["count"] == 20456
