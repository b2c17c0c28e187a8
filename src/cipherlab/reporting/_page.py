"""The page builder: sections, figures and tables into one self-contained HTML page."""

from __future__ import annotations

import base64
import re
from pathlib import Path

from cipherlab.reporting._blocks import Figure, Section, Table
from cipherlab.reporting._words import CLAIMED_SPEEDUP, EQUIVALENCE_MARGIN, esc

_OPEN_TABLE_ROWS = 12  # longer tables are folded (<details>) on the page
_CSS = """
body{font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
  color:#1d1d1f;max-width:1000px;margin:2em auto;padding:0 1.2em;background:#fff}
p,li,h3{overflow-wrap:anywhere} /* a long feature list (aesni+pclmulqdq+...) wraps, not spills */
h1{font-size:1.8em;margin-bottom:.1em} h2{margin-top:2.2em;border-bottom:1px solid #ddd;
  padding-bottom:.2em} h3{font-size:1.05em;margin-top:1.6em}
.sub{color:#555;margin-top:0} .src{color:#777;font-weight:normal;font-size:.85em}
figure{margin:1.2em 0;overflow-x:auto} figure img{height:auto;border:1px solid #eee}
figure img{width:100%;min-width:640px} /* on a phone a figure scrolls, its text stays legible */
figcaption{font-size:.88em;color:#444;margin-top:.3em} figcaption a,.files a{color:#0072B2}
.table{margin:.6em 0} .scroll{overflow-x:auto} table{border-collapse:collapse;font-size:.8em}
th,td{padding:.25em .6em;border-bottom:1px solid #e5e5e5;white-space:nowrap;text-align:left}
th{background:#f6f6f6} td.num{text-align:right;font-variant-numeric:tabular-nums}
.caption{font-size:.76em;color:#444;margin:.3em 0}
.findings{background:#f4f8fb;border-left:4px solid #0072B2;padding:.6em 1.2em;margin:1.2em 0}
.warn{background:#fff8ef;border-left:4px solid #D55E00;padding:.6em 1.2em}
.ok{color:#007a56;font-weight:600} .bad{color:#b34700;font-weight:600}
.meh{color:#555;font-weight:600} code{font-size:.9em;background:#f3f3f3;padding:0 .2em}
details{margin:.6em 0} summary{cursor:pointer;font-size:.88em;color:#444}
nav ol{columns:2} footer{margin-top:3em;color:#777;font-size:.85em}
"""


def _md_table_html(table: Table, out: Path) -> str:
    """Render the Markdown table written by :func:`cipherlab.stats.to_markdown` as HTML."""
    lines = [ln for ln in table.markdown.splitlines() if ln.strip()]

    def cells(line: str) -> list[str]:
        parts = re.split(r"(?<!\\)\|", line.strip())[1:-1]
        return [p.strip().replace("\\|", "|") for p in parts]

    header, align, rows = cells(lines[0]), cells(lines[1]), [cells(x) for x in lines[2:]]
    right = [a.endswith(":") and not a.startswith(":") for a in align]
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td class='num'>{esc(c)}</td>" if r else f"<td>{esc(c)}</td>"
                         for c, r in zip(row, right)) + "</tr>" for row in rows)
    links = " · ".join(f"<a href='{esc(p.relative_to(out).as_posix())}'>{p.suffix[1:].upper()}"
                       f"</a>" for p in table.files)
    # the caption sits above the scrolling box, not in it: a table wider than the page scrolls
    # sideways while its caption wraps at the page's width and stays whole
    html_table = (f"<div class='table'><p class='caption'>{esc(table.caption)} <span "
                  f"class='files'>({links})</span></p><div class='scroll'><table><thead><tr>"
                  f"{head}</tr></thead><tbody>{body}</tbody></table></div></div>")
    if len(rows) <= _OPEN_TABLE_ROWS:
        return html_table
    # long tables fold away so the text stays readable; the files hold them in full anyway
    return (f"<details><summary>{esc(table.caption)} <span class='files'>({len(rows)} rows; "
            f"{links})</span></summary>{html_table}</details>")


def _figure_html(fig: Figure, out: Path) -> str:
    data = base64.b64encode(fig.png).decode("ascii")
    links = " · ".join(f"<a href='{esc(p.relative_to(out).as_posix())}'>{p.suffix[1:].upper()}"
                       f"</a>" for p in fig.files)
    return (f"<figure id='fig-{esc(fig.name)}'>"
            f"<img alt='{esc(fig.caption)}' src='data:image/png;base64,{data}'>"
            f"<figcaption><b>{esc(fig.name)}.</b> {esc(fig.caption)} ({links})</figcaption>"
            "</figure>")


def build_page(sections: list[Section], notes: list[str], out: Path, sources_text: str) -> str:
    import cipherlab

    findings = [f for s in sections for f in s.findings]
    toc = "".join(f"<li><a href='#{s.key}'>{esc(s.title)}</a></li>" for s in sections)
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        "<title>cipherlab report</title>", f"<style>{_CSS}</style></head><body>",
        "<h1>Cipher benchmark report</h1>",
        f"<p class='sub'>cipherlab {esc(cipherlab.__version__)} · {sources_text}</p>",
    ]
    if findings:
        parts.append("<div class='findings'><b>Key findings</b><ul>" +
                     "".join(f"<li>{f}</li>" for f in findings) + "</ul>"
                     f"<p class='sub'>≈ {CLAIMED_SPEEDUP:g}×: equivalent to the claim within "
                     f"±{EQUIVALENCE_MARGIN:.0%} (TOST); ≠ {CLAIMED_SPEEDUP:g}×: significantly "
                     "different from it (t-test, Holm-adjusted); intervals are 95 % confidence "
                     "intervals. Both need repeated runs: with one run per side a ratio is "
                     "described, not tested. Every number is explained in its section "
                     "below.</p></div>")
    parts.append(f"<nav><b>Contents</b><ol>{toc}</ol></nav>")
    for s in sections:
        parts.append(f"<section id='{s.key}'><h2>{esc(s.title)}</h2>")
        for block in s.blocks:
            if isinstance(block, Figure):
                parts.append(_figure_html(block, out))
            elif isinstance(block, Table):
                parts.append(_md_table_html(block, out))
            else:
                parts.append(block)
        if s.warnings:
            parts.append("<div class='warn'><b>Warnings raised by this analysis</b><ul>" +
                         "".join(f"<li>{esc(x)}</li>" for x in s.warnings) + "</ul></div>")
        parts.append("</section>")
    parts.append("<footer>" + "".join(f"<p>{n}</p>" for n in notes) + "</footer></body></html>")
    return "\n".join(parts)
