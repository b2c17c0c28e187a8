"""Benchmark posts written in other languages: the words for bytes in a table's header, and a
post's test-environment section, whose facts hold for every table below it."""

from __future__ import annotations

import pytest

import cipherlab

pytestmark = pytest.mark.usefixtures("engine")


@pytest.mark.parametrize("size, env", [
    ("{n}バイト", "検証環境"), ("{n} octets", "Environnement de test"), ("{n} байт", "Test setup"),
    ("{n}字节", "测试环境"), ("{n} Bytes", "Testumgebung")])
def test_a_post_in_another_language(tmp_path, size, env):
    head = " | ".join(size.format(n=n) for n in (16, 1024, 16384))
    path = tmp_path / "post.md"
    path.write_text(f"""## {env}

- CPU: AMD EPYC 7543
- OpenSSL 3.0.13

## MB/s

| algo | {head} |
|---|---:|---:|---:|
| aes-128-gcm | 812.3 | 6,543.2 | 8,765.4 |
""")
    df = cipherlab.ingest(path)
    assert df.set_index("block_bytes").bytes_per_s.to_dict() == {16: 812.3e6, 1024: 6543.2e6,
                                                                 16384: 8765.4e6}
    assert (df.cpu == "AMD EPYC 7543").all() and (df.tool_version == "3.0.13").all()


def test_a_section_of_results_is_no_environment(tmp_path):
    # (facts stated under "## Laptop" are the laptop's: the desktop's section is another)
    path = tmp_path / "post.md"
    table = "| type | 16 bytes | 64 bytes |\n|---|---|---|\n| md5 | {v}.00k | 2000.00k |\n"
    path.write_text("## Laptop\n\nCPU: Intel Core i7-1165G7\n\n" + table.format(v=1000) +
                    "\n## Desktop\n\n" + table.format(v=3000))
    df = cipherlab.ingest(path)
    cpus = df.groupby("run", observed=True).cpu.first()
    assert cpus.iloc[0] == "Intel Core i7-1165G7" and cpus.isna().iloc[1]


def test_full_width_punctuation_is_asciis():
    """CJK posts write ASCII's full-width forms: ``（…）`` around a row's tag, ``：`` after a
    caption. The tag is a tag (the algorithm is ``aes-128-gcm``, never a name with the tag in
    it): here it switches AES-NI (开启 on, 关闭 off), the row's condition. Full-width digits
    are numbers, and a heading that only states the unit ("结果（单位：MB/s）") names no run."""
    text = ("## 结果（单位：MB/s）\n\n| 算法 | 16字节 | 8192字节 |\n|---|---|---|\n"
            "| aes-128-gcm（开启AES-NI） | 702.31 | ５０１２.８８ |\n"
            "| aes-128-gcm（关闭AES-NI） | 180.12 | 240.03 |\n")
    df = cipherlab.ingest(text)
    assert set(df.algorithm) == {"aes-128-gcm"} and df.flag.isna().all()
    assert (df.bytes_per_s / 1e6).tolist() == pytest.approx([702.31, 5012.88, 180.12, 240.03])
    assert df.aesni.tolist() == ["on", "on", "off", "off"] and df.label.isna().all()
