"""Round trip: random records rendered as Markdown, HTML, MediaWiki and TAB tables parse back.

The renderer writes cells the way ``openssl speed`` prints them (``%.2fk`` above 10000 bytes/s,
plain ``%.2f`` below), optionally with thousands separators; the expected value is computed from
the rendered text with :mod:`decimal`, independently of the parser.

The grids in other orientations (``readers/_grids``: sizes, versions or operations as rows,
builds as columns, spanning headers, long format with grouped rows) are rendered with
``render.markdown_grid`` and read back through ``cipherlab.ingest``, by both engines.
"""

from __future__ import annotations

import sys
import warnings
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cipherlab
from cipherlab.readers._names import canonical
from cipherlab.readers._tables import find_tables

sys.path.insert(0, str(Path(__file__).resolve().parent))
import render as R  # noqa: E402

# (the grid tests below read through both engines; find_tables alone has no engine)
by_both_engines = pytest.mark.usefixtures("engine")

NAMES = ["aes-128-cbc", "AES-256-GCM", "aes-192 cbc", "sha256", "SHA-512", "md5",
         "chacha20-poly1305", "camellia-128-cbc", "des ede3", "hmac(md5)", "rc4", "ghash"]
SIZES = [2, 16, 31, 64, 136, 256, 1024, 8192, 16384, 1048576]


def expected_value(cell: str) -> float:
    k = cell.endswith("k")
    number = Decimal(cell.rstrip("k").replace(",", ""))
    return float(number * 1000 if k else number)


@st.composite
def tables(draw):
    sizes = sorted(draw(st.sets(st.sampled_from(SIZES), min_size=1, max_size=6)))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=6, unique=True))
    with_aesni = draw(st.booleans())
    thousands = draw(st.booleans())
    rows = []
    for name in names:
        for aesni in (["Yes", "no"] if with_aesni else [None]):
            values = draw(st.lists(st.floats(0, 5e10, allow_nan=False), min_size=len(sizes),
                                   max_size=len(sizes)))
            rows.append((name, aesni, [R.doc_value(v, thousands) for v in values]))
    return sizes, with_aesni, rows


def header_cells(sizes, with_aesni):
    return ["Cipher"] + (["AES-NI Enabled"] if with_aesni else []) + [f"{s} bytes" for s in sizes]


def row_cells(row):
    name, aesni, cells = row
    return [name] + ([aesni] if aesni is not None else []) + cells


def render_markdown(table, quote: bool, outer_pipes: bool):
    sizes, with_aesni, rows = table
    def line(cells):
        body = " | ".join(cells)
        return f"| {body} |" if outer_pipes else body
    out = [line(header_cells(sizes, with_aesni)),
           line(["---"] + [":---:" if with_aesni else "---"] * with_aesni + ["---:"] * len(sizes))]
    out += [line(row_cells(r)) for r in rows]
    prefix = "> " if quote else ""
    lines = ["Measured with OpenSSL 1.1.1w on a test box (bytes/s):", *[prefix + x for x in out], "The end."]
    return lines, 3


def render_html(table, close_cells: bool):
    sizes, with_aesni, rows = table
    end_th, end_td = ("</th>", "</td>") if close_cells else ("", "")
    out = ["<p>Measured with OpenSSL 1.1.1w on a test box (bytes/s):</p>", "<table>",
           "<tr>" + "".join(f"<th>{c}{end_th}" for c in header_cells(sizes, with_aesni)) + "</tr>"]
    out += ["<tr>" + "".join(f"<td>{c}{end_td}" for c in row_cells(r)) + "</tr>" for r in rows]
    out += ["</table>"]
    return out, 3


def render_tabs(table):
    sizes, with_aesni, rows = table
    out = ["Measured with OpenSSL 1.1.1w on a test box (bytes/s):",
           "\t".join(header_cells(sizes, with_aesni))]
    out += ["\t".join(row_cells(r)) for r in rows]
    return out, 2


def render_mediawiki(table, one_cell_per_line: bool):
    sizes, with_aesni, rows = table
    out = ["Measured with OpenSSL 1.1.1w on a test box (bytes/s):", '{| class="wikitable"', "|-",
           "! " + " !! ".join(header_cells(sizes, with_aesni))]
    starts = []
    for r in rows:
        out.append("|-")
        starts.append(len(out))
        if one_cell_per_line:
            out += [f"| {c}" for c in row_cells(r)]
        else:
            out.append("| " + " || ".join(row_cells(r)))
    out.append("|}")
    return out, starts


def expected_cells(table, first_line):
    sizes, _, rows = table
    out = []
    for i, (name, aesni, cells) in enumerate(rows):
        algorithm, operation = canonical(name)
        line = first_line[i] if isinstance(first_line, list) else first_line + i
        for size, cell in zip(sizes, cells):
            rec = {"line": line + 1, "algorithm": algorithm, "operation": operation,
                   "name": name, "block_bytes": size, "bytes_per_s": expected_value(cell)}
            if aesni is not None:
                rec["aesni"] = "on" if aesni == "Yes" else "off"
            out.append(rec)
    return out


def check(lines, first_data_index, table, dialect):
    runs, consumed = find_tables(lines, "<text>")
    assert len(runs) == 1
    run = runs[0]
    assert run.meta["dialect"] == dialect
    assert run.meta["tool_version"] == "1.1.1w"
    assert [dict(c) for c in run.cells] == expected_cells(table, first_data_index)
    if isinstance(first_data_index, list):
        assert set(first_data_index) <= consumed
    else:
        assert {first_data_index + i for i in range(len(table[2]))} <= consumed
    assert 0 not in consumed  # the prose line stays with the caller


# dialect -> renderer(table, flag_a, flag_b) -> (lines, first data line(s))
RENDERERS = {
    "markdown": lambda t, quote, outer_pipes: render_markdown(t, quote, outer_pipes),
    "html": lambda t, close_cells, _: render_html(t, close_cells),
    "mediawiki": lambda t, one_cell_per_line, _: render_mediawiki(t, one_cell_per_line),
    "tabs": lambda t, _a, _b: render_tabs(t),
}


@pytest.mark.parametrize("dialect", list(RENDERERS))
@settings(max_examples=50, deadline=None)
@given(table=tables(), flag_a=st.booleans(), flag_b=st.booleans())
def test_round_trip(dialect, table, flag_a, flag_b):
    lines, first = RENDERERS[dialect](table, flag_a, flag_b)
    check(lines, first, table, dialect)


# ------------------------------------------------------------------- grids in other orientations

CIPHERS = ["AES-128-CBC", "aes-256-gcm", "ChaCha20-Poly1305", "camellia-128-cbc", "AES-192-CTR"]
DIGESTS = ["SHA-256", "sha512", "md5", "SHA3-256"]
BUILDS = ["Baseline", "Optimized", "no-asm", "gcc 12", "clang 17", "Before patch", "After patch",
          "1.1.1w", "3.0.13", "Graviton3", "Ryzen 7 7700X"]
GRID_SIZES = [16, 64, 256, 1024, 8192, 16384]
rates = st.floats(1, 5e10)  # (0.00 is openssl's "not measured": flagged, not a rate)


def size_text(size: int, style: str) -> str:
    return {"bytes": f"{size} bytes", "B": f"{size} B", "K": f"{size // 1024}K" if size >= 1024
            else f"{size} bytes", "bare": str(size)}[style]


def value_of(cell: str, unit: int = 1) -> float:
    """A cell as printed -> bytes/s, computed with decimal from the text (``k`` x1000, else x unit)."""
    k = cell.endswith("k")
    number = Decimal(cell.rstrip("k").replace(",", ""))
    return float(number * 1000 if k else number * unit)


def assert_same(got: list[tuple], want: list[tuple]) -> None:
    """The same cells: equal keys, values within 1e-12 (the unit is applied in floating point)."""
    assert [g[:-1] for g in got] == [w[:-1] for w in sorted(want)]
    assert [g[-1] for g in got] == pytest.approx([w[-1] for w in sorted(want)], rel=1e-12)


def ingested(lines: list[str]) -> list[tuple]:
    with warnings.catch_warnings():
        warnings.simplefilter("error", cipherlab.errors.IngestWarning)  # nothing to warn about
        df = cipherlab.ingest("\n".join(lines) + "\n")
    value = df.bytes_per_s.fillna(df.ops_per_s)
    cols = df.assign(value=value)[["label", "algorithm", "operation", "block_bytes", "value"]]
    return sorted(tuple(None if pd.isna(v) else v for v in row)
                  for row in cols.astype(object).itertuples(index=False))


@by_both_engines
@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(CIPHERS + DIGESTS), builds=st.lists(st.sampled_from(BUILDS), min_size=1,
       max_size=3, unique=True), sizes=st.lists(st.sampled_from(GRID_SIZES), min_size=1,
       max_size=6, unique=True), style=st.sampled_from(["bytes", "B", "K", "bare"]),
       decrypt=st.booleans(), derived=st.booleans(), thousands=st.booleans(), data=st.data())
def test_sizes_as_rows_builds_as_columns(name, builds, sizes, style, decrypt, derived, thousands,
                                         data):
    algorithm, operation = canonical(name)
    decrypt = decrypt and operation == "encrypt" and style != "bare"
    corner = "Block size (bytes)" if style == "bare" else ("Decrypt test" if decrypt else "Size")
    header = [corner, *builds] + (["Improvement"] if derived else [])
    rows, want = [], []
    for size in sizes:
        cells = [R.doc_value(data.draw(rates), thousands) for _ in builds]
        rows.append([size_text(size, style), *cells] + (["+3.1%"] if derived else []))
        want += [(b, algorithm, "decrypt" if decrypt else operation, size, value_of(c))
                 for b, c in zip(builds, cells)]
    lines = [f"Results of {name} on the test board (bytes/s):", "", *R.markdown_grid(header, rows)]
    assert_same(ingested(lines), want)


@by_both_engines
@settings(max_examples=40, deadline=None)
@given(names=st.lists(st.sampled_from(CIPHERS + DIGESTS), min_size=1, max_size=3, unique=True),
       versions=st.lists(st.sampled_from(["1.1.1w", "3.0.15", "3.2.3", "3.5.3"]), min_size=1,
       max_size=4, unique=True), size=st.sampled_from([1024, 8192, 16384]),
       unit=st.sampled_from([("KB/s", 1000), ("MB/s", 10 ** 6), ("bytes/s", 1)]), data=st.data())
def test_versions_as_rows_algorithms_with_their_size_as_columns(names, versions, size, unit, data):
    header = ["Version", *[f"{n} ({size // 1024}K)" for n in names]]
    rows, want = [], []
    for version in versions:
        cells = [f"{data.draw(st.integers(1, 10 ** 11 // unit[1])):,}" for _ in names]
        rows.append([f"**{version}**", *cells])
        want += [(version, *canonical(n), size, value_of(c, unit[1])) for n, c in zip(names, cells)]
    lines = [f"## Algorithm throughput ({unit[0]})", "", *R.markdown_grid(header, rows)]
    assert_same(ingested(lines), want)


@by_both_engines
@settings(max_examples=40, deadline=None)
@given(key=st.sampled_from([("rsa2048", "rsa2048"), ("rsa4096", "rsa4096"),
                            ("ecdsap256", "ecdsa-p256"), ("ed25519", "ed25519")]),
       builds=st.lists(st.sampled_from(BUILDS), min_size=1, max_size=3, unique=True),
       derived=st.booleans(), data=st.data())
def test_operations_as_rows_builds_as_columns_algorithm_from_the_command(key, builds, derived, data):
    command, algorithm = key
    ops = [("sign/s", "sign"), ("verify/s", "verify")] + (
        [("encr./s", "encrypt"), ("decr./s", "decrypt")] if algorithm.startswith("rsa") else [])
    header = ["Test Item", *builds] + (["Speed-up"] if derived else [])
    rows, want = [], []
    for word, op in ops:
        cells = [f"{data.draw(st.floats(0.1, 1e6)):.1f}" for _ in builds]
        rows.append([word, *cells] + (["1.02x"] if derived else []))
        want += [(b, algorithm, op, None, float(c)) for b, c in zip(builds, cells)]
    lines = ["```", f"$ openssl speed -seconds 1 {command}", "```", *R.markdown_grid(header, rows)]
    assert_same(ingested(lines), want)


@by_both_engines
@settings(max_examples=40, deadline=None)
@given(names=st.lists(st.sampled_from(CIPHERS + DIGESTS), min_size=1, max_size=3, unique=True),
       sizes=st.lists(st.sampled_from(GRID_SIZES), min_size=1, max_size=3, unique=True),
       grouped=st.booleans(), data=st.data())
def test_long_format_with_statistic_columns_and_grouped_rows(names, sizes, grouped, data):
    stats = [("min", "min"), ("max", "max"), ("avg", "mean")]
    header = ["Cipher", "Block (bytes)", *[s for s, _ in stats]]
    rows, want = [], []
    for name in names:
        for i, size in enumerate(sizes):
            cells = [R.doc_value(data.draw(st.floats(2e4, 5e10)), False) for _ in stats]
            rows.append(["" if grouped and i else name, str(size), *cells])
            want += [(None, *canonical(name), size, value_of(c), stat)
                     for (_, stat), c in zip(stats, cells)]
    df = cipherlab.ingest("\n".join(R.markdown_grid(header, rows)) + "\n")
    got = sorted(zip(df.algorithm, df.operation, df.block_bytes, df.stat, df.bytes_per_s))
    assert_same(got, [(*w[1:4], w[5], w[4]) for w in want])
    assert df.run.nunique() == 1


@by_both_engines
@settings(max_examples=40, deadline=None)
@given(names=st.lists(st.sampled_from(CIPHERS + DIGESTS), min_size=1, max_size=3, unique=True),
       builds=st.lists(st.sampled_from(["OpenSSL 1.1.1w", "OpenSSL 3.0.13", "no-asm", "asm",
                                        "Graviton3"]), min_size=2, max_size=3, unique=True),
       sizes=st.lists(st.sampled_from(GRID_SIZES), min_size=1, max_size=3, unique=True),
       thousands=st.booleans(), data=st.data())
def test_spanning_header_over_sizes(names, builds, sizes, thousands, data):
    spanning = [""] + [b if i == 0 else "" for b in builds for i in range(len(sizes))]
    header = ["Cipher"] + [f"{s} bytes" for _ in builds for s in sizes]
    rows, want = [], []
    for name in names:
        cells = [R.doc_value(data.draw(rates), thousands) for _ in builds for _ in sizes]
        rows.append([name, *cells])
        want += [(b, *canonical(name), s, value_of(cells[i * len(sizes) + k]))
                 for i, b in enumerate(builds) for k, s in enumerate(sizes)]
    lines = ["Measured in bytes/s:", *R.markdown_grid(header, rows, spanning=spanning)]
    assert_same(ingested(lines), want)
