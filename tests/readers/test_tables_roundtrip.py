"""Round trip: random records rendered as Markdown, HTML, MediaWiki and TAB tables parse back.

The renderer writes cells the way ``openssl speed`` prints them (``%.2fk`` above 10000 bytes/s,
plain ``%.2f`` below), optionally with thousands separators; the expected value is computed from
the rendered text with :mod:`decimal`, independently of the parser.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cipherlab.readers._names import canonical
from cipherlab.readers._tables import find_tables

NAMES = ["aes-128-cbc", "AES-256-GCM", "aes-192 cbc", "sha256", "SHA-512", "md5",
         "chacha20-poly1305", "camellia-128-cbc", "des ede3", "hmac(md5)", "rc4", "ghash"]
SIZES = [2, 16, 31, 64, 136, 256, 1024, 8192, 16384, 1048576]


def render_value(value: float, thousands: bool) -> str:
    if value > 10000:
        return f"{value / 1000:,.2f}k" if thousands else f"{value / 1000:.2f}k"
    return f"{value:,.2f}" if thousands else f"{value:.2f}"


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
            rows.append((name, aesni, [render_value(v, thousands) for v in values]))
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
