"""Forum posts in BBCode: ``[table]`` rows and ``[code]`` blocks read as the markup they stand
for (phpBB, vBulletin, XenForo, SMF: pfSense's, OPNsense's and homelab forums' benchmark threads)."""

from __future__ import annotations

import pytest

import cipherlab

pytestmark = pytest.mark.usefixtures("engine")


def _read(tmp_path, text):
    path = tmp_path / "post.txt"
    path.write_text(text)
    return cipherlab.ingest(path)


def test_a_bbcode_table_is_read_with_the_facts_above_it(tmp_path):
    df = _read(tmp_path, """\
[b]Results on my Pentium Silver J5005 (OPNsense 24.1, OpenSSL 3.0.13):[/b]

[table]
[tr][th]Cipher[/th][th]16 bytes[/th][th]1024 bytes[/th][th]16384 bytes[/th][/tr]
[tr][td][b]aes-256-gcm[/b][/td][td]121234.12k[/td][td][color=green]801234.12k[/color][/td][td]861234.56k[/td][/tr]
[tr][td]chacha20-poly1305[/td][td]91234.12k[/td][td]301234.12k[/td][td]331234.56k[/td][/tr]
[/table]

[quote="dave"]what about sha256?[/quote]
""")
    assert len(df) == 6 and df.run.nunique() == 1
    gcm = df[df.algorithm == "aes-256-gcm"].set_index("block_bytes").bytes_per_s
    assert gcm.to_dict() == {16: 121234120.0, 1024: 801234120.0, 16384: 861234560.0}
    assert set(df.algorithm) == {"aes-256-gcm", "chacha20-poly1305"}
    assert (df.tool_version == "3.0.13").all() and (df.cpu == "Pentium Silver J5005").all()
    assert sorted(df.line.unique()) == [5, 6]


def test_code_blocks_and_quotes_of_a_forum_thread(tmp_path):
    df = _read(tmp_path, """\
[quote="alice"]Here is my Xeon D-1518 box:
[code]
type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes
aes-128-cbc     211234.12k   451234.12k   601234.12k   651234.12k   671234.12k   672234.12k
[/code][/quote]

[b]Mine (Celeron N5105 @ 2.00GHz):[/b]
[code]
type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes
aes-128-cbc     311234.12k   651234.12k   801234.12k   851234.12k   871234.12k   872234.12k
[/code]
""")
    runs = df.groupby("run", observed=True).first()
    assert list(runs.label) == ["Xeon D-1518 box", "Mine (Celeron N5105 @ 2.00GHz)"]  # (the machine)
    assert list(runs.cpu) == ["Xeon D-1518", "Celeron N5105"]
    assert list(runs.line) == [4, 10] and len(df) == 12


def test_text_without_bbcode_is_left_as_it_is():
    from cipherlab.readers._bbcode import from_bbcode
    lines = ["[1] see https://example.org/x[/y]", "md5  1.00k"]
    assert from_bbcode(lines) is lines
