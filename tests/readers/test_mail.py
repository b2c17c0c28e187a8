"""Raw mail (``readers/_mail.py``): a message as list archives and mail clients save it, read
through its MIME structure with the stdlib ``email`` package; each part a text of its own, each
cell's ``line`` the original file's.

Small inline mails here, in other variants of the shapes of ``tests/data/user/terminal/5xx``
(another charset, another client, another list), so each rule is seen to generalise.
"""

from __future__ import annotations

import base64
import gzip
import quopri
import warnings

import pandas as pd
import pytest

import cipherlab
from cipherlab.readers._context import subject_machine
from cipherlab.readers._mail import documents, is_mail

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

HEADER = "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes"
MD5 = "md5             208544.12k   485121.02k   861040.55k  1101247.49k  1201328.13k  1209810.94k"
SHA1 = "sha1            241007.63k   640528.75k  1330811.90k  1843614.38k  2107520.34k  2129936.21k"
OUTPUT = f"$ openssl speed md5 sha1\n{HEADER}\n{MD5}\n{SHA1}\n"


def head(subject="speed numbers", ctype="text/plain; charset=utf-8", cte="7bit", extra=""):
    return (f"From: Ann <ann@example.org>\nTo: list@example.org\nSubject: {subject}\n"
            f"Date: Mon, 1 Jul 2024 10:00:00 +0200\nMessage-ID: <1@example.org>\n{extra}"
            f"MIME-Version: 1.0\nContent-Type: {ctype}\nContent-Transfer-Encoding: {cte}\n\n")


def read(text, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (no unplaced line, nothing else to warn about)
        return cipherlab.ingest(text, **kw)


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if line.startswith(start))


def test_a_mail_is_known_by_its_headers_a_pasted_subject_line_is_not():
    assert is_mail(head().split("\n"))
    assert is_mail(["From alice@example.org Tue Mar  5 10:12:01 2024", *head().split("\n")])
    assert not is_mail(["Subject: Re: [openssl-users] AES-GCM slower?", "", MD5])
    assert not is_mail(["From: Ann", "To: Bob", "", MD5])  # (no MIME structure: read as it is)
    assert not is_mail(["Content-Type: text/plain", "", MD5])  # (a part alone: no message)


def test_multipart_alternative_reads_the_plain_part_not_the_html_copy_too():
    html = f"<html><body><p>Pi 5:</p><pre>{OUTPUT}</pre></body></html>\n"
    mail = (head(ctype='multipart/alternative; boundary="b1"') + "--b1\n"
            "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
            + quopri.encodestring(f"Pi 5:\n\n{OUTPUT}".encode()).decode() +
            "\n--b1\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
            + quopri.encodestring(html.encode()).decode() + "\n--b1--\n")
    df = read(mail, strict=True)
    assert df.run.nunique() == 1 and len(df) == 12 and set(df.label) == {"Pi 5"}
    assert sorted(set(df.line)) == [line_of(mail, "md5"), line_of(mail, "sha1")]  # (the QP row's first line)


def test_an_html_only_mail_is_read_through_its_html_lines_mapped_to_its_source():
    rows = "".join(f"<p class=MsoNormal><span>{line.replace('  ', '&nbsp; ')}</span></p>\n"
                   for line in OUTPUT.splitlines())
    mail = head(ctype='text/html; charset="us-ascii"') + (
        "<html><head><style><!-- p.MsoNormal {margin:0cm;} --></style></head><body>\n"
        "<p class=MsoNormal>NUC 13 (i5-1340P):</p>\n" + rows + "</body></html>\n")
    df = read(mail, strict=True)
    assert set(df.label) == {"NUC 13 (i5-1340P)"} and len(df) == 12
    assert sorted(set(df.line)) == [line_of(mail, "<p class=MsoNormal><span>md5"),
                                    line_of(mail, "<p class=MsoNormal><span>sha1")]


def test_base64_lines_map_to_the_encoded_line_holding_their_first_byte():
    body = "Hi,\n\nXeon box:\n\n" + OUTPUT + "\nBest, Ann\n"
    encoded = base64.encodebytes(body.encode()).decode()  # (76 characters a line: 57 bytes)
    mail = head(cte="base64") + encoded
    df = read(mail, strict=True)
    first = line_of(mail, encoded[:20])
    want = sorted(first + body.encode().index(row.encode()) // 57 for row in (MD5, SHA1))
    assert sorted(set(df.line)) == want and set(df.label) == {"Xeon box"}


def test_base64_of_odd_line_lengths_maps_each_line_to_the_parts_first_line():
    b = base64.b64encode(OUTPUT.encode()).decode()
    mail = head(cte="base64") + "\n".join([b[:30], b[30:]]) + "\n"  # (30: no multiple of 4)
    df = read(mail, strict=True)
    assert set(df.line) == {line_of(mail, b[:30])}


def test_a_charset_is_honoured_8bit_windows_1252_with_a_micro_sign_and_a_no_break_space():
    text = head(ctype='text/plain; charset="windows-1252"', cte="8bit") + (
        "On the Xeon\u00a0E-2388G box (OpenSSL 3.0.9), one signature is ~455 \u00b5s:\n\n" + OUTPUT)
    df = cipherlab.ingest(text.encode("cp1252"), strict=True)
    assert df.tool_version.iloc[0] == "3.0.9" and len(df) == 12


def test_a_utf8_8bit_part_in_a_file_read_as_windows_1252_is_repaired():
    latin = (head(ctype='multipart/mixed; boundary="b"') +
             "--b\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: 8bit\n\n"
             "Gr\u00fc\u00dfe\n--b\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
             "J\u00f6rg\u2019s laptop:\n\n")
    data = latin.split("J\u00f6rg")[0].encode("latin-1") + ("J\u00f6rg\u2019s laptop:\n\n" + OUTPUT + "--b--\n").encode()
    parts = documents(cipherlab.readers._text.decode(data, "x.eml").split("\n"))
    assert parts[1].lines[0] == "J\u00f6rg\u2019s laptop:"


def test_a_text_attachment_is_its_own_text_named_by_its_file_and_binary_ones_are_skipped():
    png = base64.encodebytes(b"\x89PNG\r\n\x1a\n" + bytes(300)).decode()
    mail = (head(ctype='multipart/mixed; boundary="m"') +
            "--m\nContent-Type: text/plain; charset=utf-8\n\nOutput of the CI runner attached.\n"
            '--m\nContent-Type: text/plain; name="ci-arm64.log"\nContent-Disposition: attachment; filename="ci-arm64.log"\n'
            "Content-Transfer-Encoding: base64\n\n" + base64.encodebytes(OUTPUT.encode()).decode() +
            '--m\nContent-Type: image/png\nContent-Disposition: attachment; filename="top.png"\n'
            "Content-Transfer-Encoding: base64\n\n" + png + "--m--\n")
    df = read(mail, strict=True)
    assert set(df.label) == {"ci-arm64.log"} and "file name of the mail's attachment" in df["rule"].iloc[0]


def test_an_attachments_own_caption_names_its_run_before_its_file_name():
    body = "Ryzen 9 7950X:\n\n" + OUTPUT
    mail = (head(ctype='multipart/mixed; boundary="m"') +
            '--m\nContent-Type: text/plain\nContent-Disposition: attachment; filename="speed.txt"\n\n'
            + body + "--m--\n")
    assert set(read(mail).label) == {"Ryzen 9 7950X"}


def mbox_message(n, subject, body):
    return (f"From user{n}@example.org Mon Jul  1 1{n}:00:00 2024\n"
            + head(subject).replace("<1@", f"<{n}@") + body + "\n")


def test_an_mbox_thread_reads_each_message_and_a_quote_of_an_earlier_one_is_no_new_run():
    first = mbox_message(1, "[arm] speed on two boards", "Orange Pi 5:\n\n" + OUTPUT)
    quoted = "".join(f"> {line}\n" for line in ("Orange Pi 5:", "", *OUTPUT.splitlines()))
    second = mbox_message(2, "Re: [arm] speed on two boards",
                          "On Mon, Ann wrote:\n" + quoted + "\nLooks throttled to me.\n")
    df = read(first + second, strict=True)
    assert df.run.nunique() == 1 and set(df.line) <= set(range(1, first.count("\n") + 1))


def test_a_quote_of_numbers_the_file_does_not_hold_is_read_as_any_quote():
    quoted = "".join(f"> {line}\n" for line in ("Orange Pi 5:", "", *OUTPUT.splitlines()))
    mail = mbox_message(1, "intro", "Hello list\n") + mbox_message(2, "Re: x", "You wrote:\n" + quoted)
    df = read(mail, strict=True)
    assert df.run.nunique() == 1 and set(df.label) == {"Orange Pi 5"}


def test_a_gzipped_mbox_is_read_and_its_lines_are_the_unpacked_files():
    mail = mbox_message(1, "numbers", "RK3588:\n\n" + OUTPUT)
    df = read(gzip.compress(mail.encode()))
    assert sorted(set(df.line)) == [line_of(mail, "md5"), line_of(mail, "sha1")]


def test_a_digests_messages_are_read_apart_the_subject_names_a_machine_only_if_it_names_one():
    def msg(subject, body):
        return (f"Content-Type: message/rfc822\n\nFrom: x@example.org\nSubject: {subject}\n"
                f"Content-Type: text/plain\n\n{body}\n")
    mail = head("list Digest, Vol 3, Issue 1", 'multipart/mixed; boundary="o"') + (
        "--o\nContent-Type: text/plain\n\nToday's Topics:\n\n   1. speed on the Pi 4\n"
        "--o\nContent-Type: multipart/digest; boundary=\"d\"\n\n--d\n"
        + msg("Re: speed numbers on my Odroid N2+ board", OUTPUT) + "--d\n"
        + msg("Re: [openssl-users] AES-NI slow?", OUTPUT.replace("208544.12k", "208544.13k")) + "--d--\n\n--o--\n")
    df = read(mail)
    labels = df.groupby("run").label.first().tolist()
    assert df.run.nunique() == 2 and labels[0] == "Odroid N2+ board" and pd.isna(labels[1])


@pytest.mark.parametrize("subject, want", [
    ("Re: [openssl-users] numbers on the Ampere Altra server", "Ampere Altra server"),
    ("Fwd: AES-GCM results on Graviton3 (c7g.xlarge)", "Graviton3 (c7g.xlarge)"),
    ("Re: [openssl-users] AES-NI slow?", None),
    ("Re: [openssl-dev] speed regression on 3.0 vs 1.1.1", None),
    ("Why is ChaCha20 faster on ARM than on x86?", None),
])
def test_subject_machine(subject, want):
    assert subject_machine(subject) == want


def test_a_folder_reads_eml_and_mbox_files_by_content(tmp_path):
    (tmp_path / "a.eml").write_text(head() + "Pi 5:\n\n" + OUTPUT)
    (tmp_path / "b.mbox.gz").write_bytes(gzip.compress(mbox_message(1, "x", "Pi 4:\n\n" + OUTPUT).encode()))
    df = cipherlab.ingest(tmp_path)
    assert sorted(set(df.label)) == ["Pi 4", "Pi 5"]


def test_an_html_mails_table_is_read_as_a_table_its_rows_lines_the_sources():
    mail = head(ctype="text/html; charset=utf-8") + (
        "<div dir=\"ltr\"><div>openssl speed -evp aes-128-gcm, in MB/s:</div><div><br></div>\n"
        "<table><tr><th>Machine</th><th>16 bytes</th><th>16384 bytes</th></tr>\n"
        "<tr><td>Pi 5</td><td>612.4</td><td>2650.1</td></tr>\n"
        "<tr><td>NUC 13</td><td>1480.2</td><td>8012.3</td></tr></table></div>\n")
    df = read(mail, strict=True)
    assert df.groupby("label").bytes_per_s.max().to_dict() == {"NUC 13": 8012.3e6, "Pi 5": 2650.1e6}
    assert sorted(set(df.line)) == [line_of(mail, "<tr><td>Pi 5"), line_of(mail, "<tr><td>NUC")]


def test_a_mail_forwarded_as_an_attachment_is_a_message_of_its_own_named_by_its_subject():
    inner = ("From: raj@example.io\nSubject: speed numbers on the Ampere Altra server\n"
             "MIME-Version: 1.0\nContent-Type: text/plain\n\n" + OUTPUT)
    mail = (head("Fwd: numbers", 'multipart/mixed; boundary="f"') +
            "--f\nContent-Type: text/plain\n\nFYI, below.\n--f\nContent-Type: message/rfc822\n"
            'Content-Disposition: attachment; filename="numbers.eml"\n\n' + inner + "--f--\n")
    df = read(mail, strict=True)
    assert set(df.label) == {"Ampere Altra server"} and line_of(mail, "md5") in set(df.line)


def flowed(body: str, params: str = "") -> str:
    return head(ctype=f"text/plain; charset=utf-8; format=flowed{params}") + body


def test_format_flowed_soft_breaks_are_joined_at_one_quote_depth_a_row_whole_again():
    cut = MD5.rindex("  ") + 2  # (the row soft-broken before its last value, as a client wraps)
    mail = flowed(f"Pi 5:\n\n> {HEADER}\n> {MD5[:cut]}\n> {MD5[cut:]}\n>> {SHA1[:cut]}\n> {SHA1[cut:]}\n")
    df = cipherlab.ingest(mail)
    md5 = df[df.algorithm == "md5"]
    assert len(md5) == 6 and md5.bytes_per_s.iloc[-1] == pytest.approx(1209810.94e3)
    assert set(md5.line) == {line_of(mail, "> md5")}  # (the line the row began on)
    # (the sha1 row's tail stands one quote level up: no soft break there, the lines stay two)
    lines = documents(mail.split("\n"))[0].lines
    assert f">> {SHA1[:cut]}" in lines and f"> {SHA1[cut:]}" in lines


def test_format_flowed_delsp_deletes_the_blank_of_each_soft_break_and_keeps_the_signature():
    from cipherlab.readers._mail import unflowed
    lines, at = unflowed(["Doing md5 for 3s on 16 size blocks: 1 md5's in  ", "2.99s", "-- ", "Ann"],
                         [0, 7, 8, 9, 10], True)
    assert lines == ["Doing md5 for 3s on 16 size blocks: 1 md5's in 2.99s", "-- ", "Ann"]
    assert at == [0, 7, 9, 10]


def test_a_continuation_of_a_flowed_line_opens_no_run_of_its_own():
    mail = flowed("Celeron box:\n\nargon2id      4 iterations, 719853 memory, 4 parallel threads (CPUs) \n"
                  "for 256-bit key (requested 2000 ms time)\n"
                  "#     Algorithm |       Key |      Encryption |      Decryption\n"
                  "        aes-xts        512b      1327.7 MiB/s      1330.5 MiB/s\n", "; delsp=no")
    df = read(mail)
    assert df.run.nunique() == 1 and set(df.label) == {"Celeron box"}
    assert sorted(df.bytes_per_s / 2**20) == pytest.approx([1327.7, 1330.5])


def test_trailing_blanks_of_a_mail_that_is_not_flowed_join_nothing():
    mail = head() + f"{HEADER}\n{MD5[:40]} \n{MD5[40:].lstrip()}\n"
    text = documents(mail.split("\n"))[0].lines
    assert f"{MD5[:40]} " in text  # (no format=flowed: the lines stay as they are)
