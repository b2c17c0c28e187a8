"""Write the synthetic dumps of this folder: releases and paste damage we have no capture of.

    python tests/data/synthetic/make_synthetic.py

Each dump is rendered with the printf formats of its release (``tests/readers/render.py``, copied
from ``openssl-speed-formats.md``), from the numbers below; the expected tables beside them were
then written by ``tests/data/regenerate_expected.py`` and checked by hand (``tests/readers/
test_spot.py`` names the cells). The output is deterministic: rerunning rewrites identical files.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "readers"))

import render as R  # noqa: E402

LEGACY_097 = [("md5", [4408262.0, 15380700.0, 44968740.0, 86139020.0, 117792770.0]),
              ("sha1", [4118370.0, 13093270.0, 32829660.0, 52553310.0, 63993170.0]),
              ("rc4", [79280680.0, 89224580.0, 96647480.0, 98792790.0, 97242580.0]),
              ("des cbc", [15648940.0, 16048270.0, 16279300.0, 16394920.0, 16351340.0]),
              ("idea cbc", [0.0, 0.0, 0.0, 0.0, 0.0]),
              ("rc5-32/12 cbc", [9876.54, 9901.23, 9911.11, 9950.0, 9960.5]),
              ("aes-128 cbc", [21271440.0, 28059450.0, 30584180.0, 31360940.0, 31692120.0])]


def openssl_097_elapsed() -> str:
    """0.9.7h -elapsed: timing lines, the idle notice, 's in progress lines, %8.6fs RSA rows."""
    out = ["$ openssl speed -elapsed md5 sha1 rc4 des idea rc5 aes-128-cbc rsa512\n",
           "To get the most accurate results, try to run this\n",
           "program when this computer is idle.\n",
           "You have chosen to measure elapsed time instead of user CPU time.\n"]
    counts = {}
    for name, values in LEGACY_097:
        if name == "idea cbc":
            continue
        for size, v in zip(R.SIZES_5, values):
            count = round(v * 3.0 / size)
            counts[(name, size)] = count
            out.append(R.doing_sym(name, 3, size, count, 3.0))
    out.append(R.doing_rsa(512, "private", 4371, 10.0, bits_word="bit"))
    out.append(R.doing_rsa(512, "public", 55095, 10.0, bits_word="bit"))
    out.append(R.header_098("0.9.7h", "11 Oct 2005", "gettimeofday"))
    out.append(R.sym_table(LEGACY_097, R.SIZES_5))
    out.append(R.rsa_table([(512, 437.1, 5509.5)]))
    return "".join(out)


def openssl_098_doing_only() -> str:
    """0.9.8 stderr alone (stdout discarded): progress lines are the only measurements."""
    out = []
    for size, count, t in zip(R.SIZES_5, [9969396, 3260286, 903231, 231002, 29072],
                              [2.99, 3.00, 2.98, 3.00, 3.00]):
        out.append(R.doing_sym("aes-128 cbc", 3, size, count, t))
    out.append("Doing 256 bit sign ecdsa's for 10s: 98561 256 bit ECDSA signs in 10.00s \n")
    out.append("Doing 256 bit verify ecdsa's for 10s: 25244 256 bit ECDSA verify in 10.00s\n")
    out.append("Doing 256 bit  ecdh's for 10s: 38561 256-bit ECDH ops in 9.99s\n")
    return "".join(out)


def openssl_102_five_sizes() -> str:
    """1.0.2u terminal capture: 5 sizes, legacy names, an overflowing camellia name, mb table."""
    rows = [("md5", [65123450.0, 190234560.0, 421987650.0, 600123450.0, 680555550.0]),
            ("sha256", [55021230.0, 124563210.0, 213456780.0, 260987650.0, 280123450.0]),
            ("des ede3", [28012340.0, 28456780.0, 28567890.0, 28601230.0, 28612340.0]),
            ("aes-256 cbc", [460123450.0, 480234560.0, 485345670.0, 487456780.0, 488567890.0]),
            ("camellia-128 cbc", [101234560.0, 160345670.0, 180456780.0, 186567890.0, 188678900.0]),
            ("aes-128-gcm", [251155070.0, 681797400.0, 888457390.0, 993490010.0, 1003360980.0])]
    out = ["$ openssl speed md5 sha256 des-ede3 aes-256-cbc camellia-128-cbc -evp aes-128-gcm\n",
           R.header_1x("1.0.2u", "20 Dec 2019"), R.sym_table(rows, R.SIZES_5),
           R.rsa_table([(2048, 1650.3, 58234.1), (4096, 245.1, 16023.5)]),
           R.ec_sign_table("ecdsa", [(256, "nistp256", 21034.0, 9112.3)], bits_word="bit"),
           R.ecdh_table([(256, "nistp256", 15023.2)], bits_word="bit"),
           "\n$ openssl speed -mb -evp aes-128-cbc-hmac-sha1\n",
           R.sym_table([("aes-128-cbc-hmac-sha1", [1159391420.0, 1378412670.0, 1579417600.0,
                                                   1634402300.0, 1697513470.0])],
                       [8192, 16384, 32768, 65536, 131072], mb=True)]
    return "".join(out)


def openssl_110_mr() -> str:
    """1.1.0 -mr: +F2/+F3/+F4 carry seconds per operation, +F5 is s/op:ops/s."""
    sizes = R.SIZES_6
    out = [R.mr_sym("aes-128-cbc", 22, sizes, [61234567, 17456789, 4512345, 1134567, 142345, 71234],
                    [2.99, 3.00, 3.00, 2.98, 3.00, 3.00]),
           "+DTP:2048:private:rsa:10\n+R1:16503:2048:10.00\n",
           "+DTP:2048:public:rsa:10\n+R2:582341:2048:10.00\n",
           "+DTP:256:sign:ecdsa:10\n+R5:210340:256:10.00\n",
           "+DTP:256:verify:ecdsa:10\n+R6:91123:256:10.00\n",
           "+DTP:256::ecdh:10\n+R7:150232:256:10.00\n",
           "+F2:2:2048:%f:%f\n" % (10.0 / 16503, 10.0 / 582341),
           "+F4:3:256:%f:%f\n" % (10.0 / 210340, 10.0 / 91123),
           "+F5:3:256:%f:%f\n" % (10.0 / 150232, 150232 / 10.0)]
    return "".join(out)


def openssl_111_mr() -> str:
    """1.1.1 -mr: ops per second, +F5 is ops/s:s/op, EdDSA +R8/+R9/+F6."""
    sizes = R.SIZES_6
    out = [R.mr_sym("chacha20-poly1305", 22, sizes, [31234567, 27456789, 14512345, 4134567, 542345, 271234],
                    [3.00, 3.00, 3.00, 3.00, 2.99, 3.00]),
           "+DTP:2048:private:rsa:10\n+R1:17503:2048:10.00\n",
           "+DTP:2048:public:rsa:10\n+R2:602341:2048:9.99\n",
           "+DTP:256::ecdh:10\n+R7:200232:256:10.00\n",
           "+DTP:253:sign:Ed25519:10\n+R8:290001:253:Ed25519:10.00\n",
           "+DTP:253:verify:Ed25519:10\n+R9:110002:253:Ed25519:10.00\n",
           "+F2:2:2048:%f:%f\n" % (17503 / 10.0, 602341 / 9.99),
           "+F5:3:256:%f:%f\n" % (200232 / 10.0, 10.0 / 200232),
           "+F6:0:253:Ed25519:%f:%f\n" % (290001 / 10.0, 110002 / 10.0)]
    return "".join(out)


def openssl_35_rsa4_kem_sig() -> str:
    """3.5: 'ops in' progress lines, the RSA 4+4 table, FFDH, KEM and SIG tables."""
    out = ["$ openssl speed -seconds 2 sha256 rsa2048 ffdh2048 ML-KEM-768 ML-DSA-65\n"]
    for size, count in zip(R.SIZES_6, [9400000, 8200000, 5600000, 2300000, 340000, 171000]):
        out.append(R.doing_sym("sha256", 2, size, count, 2.00, ops=True))
    out += ["Doing 2048 bits private rsa sign ops for 2s: "
            "6203 2048 bits private RSA sign ops in 1.99s\n",
            "Doing 2048 bits public rsa verify ops for 2s: "
            "201034 2048 bits public RSA verify ops in 2.00s\n",
            "Doing 2048 bits public rsa encrypt ops for 2s: "
            "190211 2048 bits public RSA encrypt ops in 2.00s\n",
            "Doing 2048 bits private rsa decrypt ops for 2s: "
            "6100 2048 bits private RSA decrypt ops in 2.00s\n",
            "Doing 2048 bits  ffdh ops for 2s: 7801 2048-bits FFDH ops in 2.00s\n",
            "Doing ML-KEM-768 keygen ops for 2s: 120345 ML-KEM-768 KEM keygen ops in 2.00s\n",
            "Doing ML-KEM-768 encaps ops for 2s: 110234 ML-KEM-768 KEM encaps ops in 2.00s\n",
            "Doing ML-KEM-768 decaps ops for 2s: 130456 ML-KEM-768 KEM decaps ops in 2.00s\n",
            "Doing ML-DSA-65 keygen ops for 2s: 60123 ML-DSA-65 signature keygen ops in 2.00s\n",
            "Doing ML-DSA-65 signs ops for 2s: 20456 ML-DSA-65 signature sign ops in 2.00s\n",
            "Doing ML-DSA-65 verify ops for 2s: 58789 ML-DSA-65 signature verify ops in 2.00s\n",
            R.header_3x("3.5.6"),
            R.sym_table([("sha256", [75200000.0, 262400000.0, 716800000.0, 1177600000.0,
                                     1392640000.0, 1400832000.0])], R.SIZES_6),
            R.rsa4_table([(2048, 6203 / 1.99, 201034 / 2.0, 190211 / 2.0, 6100 / 2.0)]),
            R.ffdh_table([(2048, 7801 / 2.0)]),
            R.kem_sig_table("kem", [("ML-KEM-768", 120345 / 2, 110234 / 2, 130456 / 2)]),
            R.kem_sig_table("sig", [("ML-DSA-65", 60123 / 2, 20456 / 2, 58789 / 2)])]
    return "".join(out)


def openssl_35_mr() -> str:
    """3.2+ -mr: RSA 4-rate +F2, renumbered +R<n>, KEM/SIG +DTP prompts, +F9 (KEM) and +F10 (SIG)."""
    out = []
    for bits, what, n, count in ((2048, "private:rsa sign", 1, 31171),
                                 (2048, "public:rsa verify", 2, 1005170),
                                 (2048, "public:rsa encrypt", 3, 951055),
                                 (2048, "private:rsa decrypt", 4, 30500),
                                 (256, "sign:ecdsa", 7, 477660), (256, "verify:ecdsa", 8, 160980)):
        out.append("+DTP:%d:%s:%d\n+R%d:%ld:%d:%.2f\n" % (bits, what, 10, n, count, bits, 10.0))
    for name, ops, first in (("ML-KEM-768", ("keygen", "encaps", "decaps"), 15),
                             ("ML-DSA-65", ("keygen", "signs", "verify"), 18)):
        for k, (op, count) in enumerate(zip(ops, (120345, 110234, 130456) if first == 15
                                            else (60123, 20456, 58789))):
            out.append("+DTP:%s:%s:%d\n+R%d:%ld:%s:%.2f\n" % (name, op, 2, first + k, count, name, 2.0))
    out += ["+F2:2:2048:%f:%f:%f:%f\n" % (3117.1, 100517.0, 95105.5, 3050.0),
            "+F4:3:256:%f:%f\n" % (47766.0, 16098.0),
            "+F9:5:%f:%f:%f\n" % (60172.5, 55117.0, 65228.0),
            "+F10:3:%f:%f:%f\n" % (30061.5, 10228.0, 29394.5)]
    return "".join(out)


def libressl() -> str:
    """LibreSSL (macOS/OpenBSD): 1.0.1-era format, 5 sizes, 'bit' singular."""
    rows = [("md5", [52345670.0, 150123450.0, 330456780.0, 470123450.0, 530987650.0]),
            ("aes-128 cbc", [150234560.0, 160345670.0, 162456780.0, 163567890.0, 163678900.0])]
    return "".join([
        "MacBook Air (M1), stock LibreSSL\n",
        "LibreSSL 2.8.3\nbuilt on: date not available\n"
        "options:bn(64,64) rc4(16x,int) des(idx,cisc,16,int) aes(partial) blowfish(idx) \n"
        "compiler: information not available\n",
        R.sym_table(rows, R.SIZES_5),
        R.rsa_table([(2048, 1500.2, 52345.6)]),
        R.ec_sign_table("ecdsa", [(256, "nistp256", 30123.4, 11234.5)], bits_word="bit")])


def mail_wrapped_quoted() -> str:
    """A 1.1.1 run pasted into a reply: wrapped at 72 columns, then quoted with '> '."""
    rows = [("md5", [166551940.0, 392143590.0, 696030040.0, 863324840.0, 915111940.0, 940889430.0]),
            ("aes-128 cbc", [156092920.0, 169357290.0, 170210730.0, 173428390.0, 174148270.0, 174314840.0]),
            ("camellia-128 cbc", [0.0, 0.0, 0.0, 0.0, 0.0, 0.0])]
    body = ("My desktop (Ryzen 5 3600):\n" + R.header_1x("1.1.1k", "25 Mar 2021")
            + R.sym_table(rows, R.SIZES_6)
            + R.rsa_table([(2048, 1247.7, 41682.7)])
            + R.ec_sign_table("ecdsa", [(256, "nistp256", 38237.0, 12414.5)]))
    return "On Tue, Bob wrote:\n" + R.mail_wrap(body, 72, quote="> ") + "\n> \nThanks!\n"


def crlf_mojibake() -> str:
    """A Windows paste: CRLF ends, TABs, UTF-8 NBSPs read as Latin-1 ('\u00c2\u00a0'), ANSI junk."""
    text = ("Results\u00c2\u00a0from the build box:\n"
            + R.header_3x("3.0.13", "OPENSSL_ia32cap=0x7ffaf3bfffebffff:0x29c67af")
            + R.sym_table([("AES-256-GCM", [901234560.0, 2876543210.0, 5123456780.0,
                                            6234567890.0, 6543210980.0, 6587654320.0])], R.SIZES_6))
    text = text.replace("type        ", "type\t").replace("AES-256-GCM  ", "AES-256-GCM\u00c2\u00a0\t")
    text = text.replace("version:", "\x1b[1mversion:\x1b[0m")
    return text.replace("\n", "\r\n")


def multi_runs_terminal() -> str:
    """Two runs typed at one terminal: each run's progress lines precede its own header."""
    out = []
    for label, version, gcm in (("# laptop, on battery", "3.0.2", 2345678901.0),
                                ("# laptop, on mains", "3.0.2", 4567890123.0)):
        out.append(label + "\n$ openssl speed -seconds 1 -bytes 16384 -evp aes-128-gcm\n")
        count = round(gcm / 16384)
        out.append(R.doing_sym("AES-128-GCM", 1, 16384, count, 1.00))
        out.append(R.header_3x(version, "OPENSSL_ia32cap=0xfeda32235f8bffff:0x1c2fb9"))
        out.append(R.sym_table([("AES-128-GCM", [count * 16384 / 1.0])], [16384]))
    return "".join(out)


def multi_evp_bug() -> str:
    """3.0.9 -multi 2 -evp: the parent's row is named 'evp'; ANSI junk in a child's line."""
    sizes = R.SIZES_6
    child = [[100000000.0, 380000000.0, 900000000.0, 1300000000.0, 1500000000.0, 1550000000.0],
             [101000000.0, 381000000.0, 901000000.0, 1301000000.0, 1501000000.0, 1551000000.0]]
    out = ["$ openssl speed -seconds 1 -multi 2 -evp sha256\n", "Forked child 0\n", "Forked child 1\n"]
    for n, values in enumerate(child):
        out.append("Got: +H" + "".join(":%d" % s for s in sizes) + " from %d\n" % n)
        out.append("Got: +F:25:sha256" + "".join(":%.2f" % v for v in values) + " from %d\n" % n)
    out.append(R.header_3x("3.0.9", "OPENSSL_ia32cap=0xfeda32235f8bffff:0x1c2fb9"))
    out.append(R.sym_table([("evp", [a + b for a, b in zip(*child)])], sizes, header=False))
    return "".join(out)


DUMPS = {
    "openssl-0.9.7h-elapsed.txt": openssl_097_elapsed,
    "openssl-0.9.8-doing-only.txt": openssl_098_doing_only,
    "openssl-1.0.2u-five-sizes-mb.txt": openssl_102_five_sizes,
    "openssl-1.1.0-mr-seconds-per-op.txt": openssl_110_mr,
    "openssl-1.1.1-mr-ops-per-second.txt": openssl_111_mr,
    "openssl-3.5-rsa4-kem-sig.txt": openssl_35_rsa4_kem_sig,
    "openssl-3.5-mr-kem-sig.txt": openssl_35_mr,
    "libressl-2.8.3.txt": libressl,
    "mail-wrapped-quoted-1.1.1k.txt": mail_wrapped_quoted,
    "crlf-mojibake-3.0.13.txt": crlf_mojibake,
    "multi-runs-terminal-3.0.2.txt": multi_runs_terminal,
    "multi-evp-row-3.0.9.txt": multi_evp_bug,
}


def main() -> int:
    for name, make in DUMPS.items():
        (HERE / name).write_bytes(make().encode("utf-8"))
        print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
