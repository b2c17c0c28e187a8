"""Property test: render random measurements in each dialect, parse them back, get the same values.

Renderers (``render.py``) use the printf formats of ``apps/speed.c``; the expected value of a cell
is what its printed text says (``%11.2fk`` keeps two decimals of kB/s), so the comparison is exact
up to float parsing (rtol 1e-12).
"""

from __future__ import annotations

import pytest

import math
import sys
import warnings
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

import cipherlab
from cipherlab.readers._names import canonical

sys.path.insert(0, str(Path(__file__).resolve().parent))
import render as R  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

LEGACY = ["md5", "sha1", "sha256", "sha512", "rmd160", "rc4", "des cbc", "des ede3", "idea cbc",
          "seed cbc", "rc2 cbc", "rc5-32/12 cbc", "blowfish cbc", "cast cbc", "aes-128 cbc",
          "aes-192 cbc", "aes-256 cbc", "camellia-128 cbc", "camellia-256 cbc", "aes-128 ige",
          "hmac(md5)", "ghash", "rand", "whirlpool", "aes-128-gcm", "chacha20-poly1305"]
MODERN = ["md5", "sha1", "sha256", "sha512", "rmd160", "hmac(sha256)", "des-ede3", "idea-cbc",
          "rc5-cbc", "blowfish", "cast-cbc", "aes-128-cbc", "camellia-128-cbc", "ghash", "rand",
          "AES-128-GCM", "AES-256-CBC-HMAC-SHA256", "ChaCha20-Poly1305", "cmac(aes-128-cbc)",
          "kmac128"]
SIZE_SETS = [R.SIZES_5, R.SIZES_6, [2, 31, 136, 1024, 8192, 16384], [16], [1048576]]

# A rate as openssl can print it: zero (not measured), below 10000 (raw), or thousands (k).
rates = st.one_of(st.just(0.0), st.floats(0.01, 9999.99),
                  st.floats(10000.5, 5e11, allow_nan=False, allow_infinity=False))


def _close(a, b):
    if b is None or (isinstance(b, float) and math.isnan(b)):
        return a is None or (isinstance(a, float) and math.isnan(a))
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)


@st.composite
def tables(draw):
    modern = draw(st.booleans())
    pool = MODERN if modern else LEGACY
    names = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=6, unique=True))
    sizes = draw(st.sampled_from(SIZE_SETS if modern else SIZE_SETS[:2]))
    rows = [(n, draw(st.lists(rates, min_size=len(sizes), max_size=len(sizes)))) for n in names]
    rsa = draw(st.lists(st.tuples(st.sampled_from([512, 1024, 2048, 3072, 4096]),
                                  st.floats(1.0, 9e4), st.floats(1.0, 9e5)),
                        max_size=3, unique_by=lambda r: r[0]))
    header = R.header_3x("3.0.19") if modern else R.header_1x("1.1.1w")
    text = header + R.sym_table(rows, sizes) + (R.rsa_table(rsa) if rsa else "")
    return text, rows, sizes, rsa


def _expected_sym(rows, sizes):
    out = []
    for name, values in rows:
        for size, v in zip(sizes, values):
            back = R.parsed_cell(v)
            out.append((canonical(name)[0], size, back if back != 0 else float("nan")))
    return out


def _got_sym(df):
    sym = df[df.block_bytes.notna()]
    return list(zip(sym.algorithm.astype(str), sym.block_bytes.astype(int), sym.bytes_per_s))


def _check_table(df, rows, sizes, rsa):
    got, want = _got_sym(df), _expected_sym(rows, sizes)
    assert len(got) == len(want)
    for (ga, gs, gv), (wa, ws, wv) in zip(got, want):
        assert (ga, gs) == (wa, ws) and _close(gv, wv), ((ga, gs, gv), (wa, ws, wv))
    pk = df[df.block_bytes.isna()]
    want_pk = [v for _, s, ver in rsa for v in (float("%8.1f" % s), float("%8.1f" % ver))]
    assert [float(x) for x in pk.ops_per_s] == want_pk


@SETTINGS
@given(tables())
def test_terminal_table(case):
    text, rows, sizes, rsa = case
    df = cipherlab.ingest(text, strict=True)
    _check_table(df, rows, sizes, rsa)


@SETTINGS
@given(tables(), st.integers(60, 80), st.sampled_from(["", "> ", ">> ", "    "]),
       st.booleans())
def test_wrapped_mail_paste(case, width, quote, crlf):
    text, rows, sizes, rsa = case
    pasted = "Old laptop (i5-8250U):\n" + R.mail_wrap(text, width, quote=quote) + "\nCheers\n"
    if crlf:
        pasted = pasted.replace("\n", "\r\n")
    df = cipherlab.ingest(pasted, strict=True)
    _check_table(df, rows, sizes, rsa)
    assert set(df.label) == {"Old laptop (i5-8250U)"}  # (a sentence, "Here are my numbers:", names none)


@st.composite
def progress_records(draw):
    name = draw(st.sampled_from(MODERN + LEGACY))
    sizes = draw(st.sampled_from(SIZE_SETS))
    counts = draw(st.lists(st.integers(0, 2**31 - 1), min_size=len(sizes), max_size=len(sizes)))
    secs = draw(st.lists(st.integers(1, 1000), min_size=len(sizes), max_size=len(sizes)))
    secs = [s / 100 for s in secs]
    # keep rates below the 1 TB/s plausibility limit (beyond it cells are flagged and warned)
    counts = [min(c, int(5e11 * t / s)) for c, s, t in zip(counts, sizes, secs)]
    return name, sizes, counts, secs


@SETTINGS
@given(progress_records(), st.booleans())
def test_doing_lines_alone(rec, ops):
    name, sizes, counts, secs = rec
    text = "".join(R.doing_sym(name, 3, s, c, t, ops=ops) for s, c, t in zip(sizes, counts, secs))
    df = cipherlab.ingest(text, strict=True)
    assert df["count"].tolist() == counts and df.seconds.tolist() == secs
    for (_, row), s, c, t in zip(df.iterrows(), sizes, counts, secs):
        want = c * s / float("%.2f" % t)
        assert _close(row.bytes_per_s, want if want else float("nan"))
        assert row.algorithm == canonical(name)[0] and row.block_bytes == s


@SETTINGS
@given(progress_records(), st.integers(30, 75), st.sampled_from(["", "> ", ">> "]))
def test_doing_lines_wrapped_by_mail(rec, width, quote):
    name, sizes, counts, secs = rec
    text = "".join(R.doing_sym(name, 3, s, c, t) for s, c, t in zip(sizes, counts, secs))
    df = cipherlab.ingest(R.mail_wrap(text, width, quote=quote), strict=True)
    assert df["count"].tolist() == counts and df.seconds.tolist() == secs
    assert df.algorithm.unique().tolist() == [canonical(name)[0]]


@SETTINGS
@given(progress_records())
def test_mr_records(rec):
    name, sizes, counts, secs = rec
    name = name.replace(" ", "-")
    if name in ("rand",):
        name = "sha256"
    text = R.mr_sym(name, 25, sizes, counts, secs)
    df = cipherlab.ingest(text, strict=True)
    assert df["count"].tolist() == counts
    assert df.seconds.tolist() == [float("%f" % t) for t in secs]
    for v, s, c, t in zip(df.bytes_per_s, sizes, counts, secs):
        want = float("%.2f" % (c * s / t))
        assert _close(v, want if want else float("nan"))


@SETTINGS
@given(tables())
def test_markdown_table(case):
    _, rows, sizes, _ = case
    head = "| type | " + " | ".join(f"{s} bytes" for s in sizes) + " |\n"
    rule = "|---" * (len(sizes) + 1) + "|\n"
    body = "".join("| " + n + " | " + " | ".join(R.cell(v).strip() for v in values) + " |\n"
                   for n, values in rows)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = cipherlab.ingest("Results on my box, in bytes/s:\n\n" + head + rule + body)
    got, want = _got_sym(df), _expected_sym(rows, sizes)
    assert [(a, s) for a, s, _ in got] == [(a, s) for a, s, _ in want]
    assert all(_close(g, w) for (_, _, g), (_, _, w) in zip(got, want))


_PIECES = st.sampled_from([
    "type 16 bytes 64 bytes\n", "md5 1.00k 2.00k\n", "0.00\n", "+H:16:64\n", "+F:1:md5:1.00:2.00\n",
    "+DT:md5:1:16\n", "+R:5:md5:1.00\n", "+F2:0:512:1.0:2.0\n", "+R1:5:512:1.00\n",
    "+DTP:2048:private:rsa:1\n", "Got: +F:1:x:1.00 from 0\n", "Forked child 1\n",
    "Doing md5 for 1s on 16 size blocks: ", "5 md5's in 1.00s\n", "version: 3.0.2\n",
    "OpenSSL 1.0.2u  20 Dec 2019\n", "options:bn(64,64)\n", "compiler: gcc\n", "-O3\n",
    "                  sign    verify    sign/s verify/s\n", "rsa 2048 bits 0.1s 0.2s 10.0 5.0\n",
    " 256 bits ecdh (nistp256)   0.0000s  20600.0\n", "$ openssl speed -multi 2 -mb\n",
    "| a | 16 bytes |\n", "|---|---|\n", "| md5 | 1.00k |\n", "<table><tr><td>1.00k</td></tr>\n",
    "python 3.12 backend x\n", "aes 16 100 200\n", "> ", "\t", "\r\n", "\x1b[0m", "\u00c2\u00a0",
    "inf", "-nan", ":", "1234.56k ", "\n"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_PIECES, st.text(max_size=20)), max_size=30))
def test_any_text_gives_a_table_or_a_clear_error(pieces):
    # Never a traceback from deep inside: a frame, or an IngestError that says why.
    from cipherlab.errors import IngestError
    text = "".join(pieces) + "\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            df = cipherlab.ingest(text)
        except IngestError as err:
            assert err.source == "<text>"
            return
    assert list(df.columns[:16]) == list(cipherlab.model.COLUMNS)[:16]


# The normalise layer (issue 12, layer 1): any shared prefix, gutters, inline code, transfer
# encodings; the values come back the same through both engines.
_PREFIXES = ["> ", "> > ", ">>", "%% ", "% ", "# ", "#", "// ", "; ", "! ", "* ", "- ", "| ",
             "\t", "  > "]


@SETTINGS
@given(tables(), st.sampled_from(_PREFIXES))
def test_table_behind_any_shared_prefix(case, prefix):
    text, rows, sizes, rsa = case
    df = cipherlab.ingest("Results:\n" + R.prefixed(text, prefix), strict=True)
    _check_table(df, rows, sizes, rsa)


# A log's prefix (readers/_text.py): a time stamp whose digits change, a tag the same on every line.
_LOG_PREFIXES = [lambda i: f"2025-11-30T11:{i // 60 % 60:02d}:{i % 60:02d}.{i * 7919 % 10**7:07d}Z ",
                 lambda i: f"[{12 + i * 0.0137:12.6f}] ", lambda i: "\x1b[35mbench-3  | \x1b[0m",
                 lambda i: f"Nov 30 11:{i // 60 % 60:02d}:{i % 60:02d} node1 speed[77]: ",
                 lambda i: f"#4 {0.2 + i * 0.5:.3f} ", lambda i: "[pod/speed-x/c] "]


@SETTINGS
@given(tables(), st.sampled_from(_LOG_PREFIXES))
def test_table_behind_a_log_prefix(case, prefix):
    text, rows, sizes, rsa = case
    lines = ["starting the benchmark", "", *text.splitlines()]
    logged = "".join(f"{prefix(i)}{line}\n" for i, line in enumerate(lines))
    _check_table(cipherlab.ingest(logged, strict=True), rows, sizes, rsa)


@SETTINGS
@given(tables(), st.sampled_from(["{:>6}\t", "{}: ", "{:>3} | ", "{}. "]), st.integers(1, 9999))
def test_table_with_a_line_number_gutter(case, fmt, first):
    text, rows, sizes, rsa = case
    _check_table(cipherlab.ingest(R.gutter(text, fmt, first), strict=True), rows, sizes, rsa)


@SETTINGS
@given(tables(), st.sampled_from(["* ", "- ", "  * ", ""]))
def test_table_as_inline_code_bullets(case, bullet):
    text, rows, sizes, rsa = case
    _check_table(cipherlab.ingest(R.inline_code(text, bullet), strict=True), rows, sizes, rsa)


@SETTINGS
@given(tables(), st.booleans())
def test_table_in_quoted_printable(case, crlf):
    import quopri
    text, rows, sizes, rsa = case
    encoded = quopri.encodestring(text.encode()).decode()
    if crlf:
        encoded = encoded.replace("\n", "\r\n")
    _check_table(cipherlab.ingest(encoded, strict=True), rows, sizes, rsa)


@SETTINGS
@given(tables())
def test_table_with_html_entities(case):
    text, rows, sizes, rsa = case
    _check_table(cipherlab.ingest(R.html_escaped(text), strict=True), rows, sizes, rsa)


@SETTINGS
@given(progress_records(), st.data())
def test_doing_lines_with_emphasised_numbers(rec, data):
    name, sizes, counts, secs = rec
    lines = []
    for s, c, t in zip(sizes, counts, secs):
        line = R.doing_sym(name, 3, s, c, t)
        if data.draw(st.booleans()):  # bold around the count and the time
            line = line.replace(f": {c} ", f": **{c}** ").replace(f"in {t:.2f}s", f"in **{t:.2f}s**")
        lines.append(line)
    df = cipherlab.ingest("".join(lines), strict=True)
    assert df["count"].tolist() == counts and df.seconds.tolist() == secs


@SETTINGS
@given(tables(), st.data(), st.sampled_from(["(default)", "(padlock engine)", "(Neoverse-V2)", "42"]))
def test_words_after_one_row_are_its_note(case, data, note):
    text, rows, sizes, rsa = case
    lines = text.split("\n")
    at = [i for i, line in enumerate(lines) if any(line.startswith(n + " ") for n, _ in rows)]
    k = data.draw(st.sampled_from(at))
    lines[k] += "  " + note  # (a number: a PDF's page number)
    df = cipherlab.ingest("\n".join(lines), strict=True)
    _check_table(df, rows, sizes, rsa)
    noted = df[df.note.notna()]
    assert set(noted.line) == {k + 1} and set(noted.note) == {note.strip("()")}
    assert df.run.nunique() == 1


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 1e12, allow_nan=False), st.sampled_from([",", "'", "\u2019"]),
       st.sampled_from(["MB/s", "KiB/s", "Gbps", "kB/s"]))
def test_thousands_marks_read_back(x, mark, unit):
    from cipherlab.readers._units import number, value_with_unit
    written = f"{x:,.2f}".replace(",", mark)
    assert number(written) == float(f"{x:.2f}")
    assert value_with_unit(f"{written} {unit}") == value_with_unit(f"{x:.2f} {unit}")
