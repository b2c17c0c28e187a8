"""Tables a paper accepts: human headers with units, rates in MB/s or GB/s, a two-column fit.

The CSV beside each table keeps every column and the raw numbers; the LaTeX and Markdown show
the columns a reader needs, headed in words with their units, through
:func:`cipherlab.stats.to_latex` / :func:`~cipherlab.stats.to_markdown` (which merge each estimate
with its interval). The LaTeX goes in a one-column ``table`` float when it fits a column of a
two-column paper and in a page-wide ``table*`` otherwise; columns at the end of the list are
left out, with a note, until it fits the page.
"""

from __future__ import annotations

import re
from typing import Sequence

import pandas as pd

from cipherlab.runners._isa import aes_name

#: Printed widths of a two-column article (10 pt), in points: one column, the whole text.
COLUMN_PT, TEXT_PT = 241.0, 505.0
_CHAR_PT = 4.6  # a \footnotesize character, on average, with room to spare
_GAP_PT = 6.0  # 2 \tabcolsep of 3 pt

# Rates are shown in one unit per column, chosen by the column's median (plots' rate_scale).
_RATE_COLUMNS = ("bytes_per_s", "asymptotic_bytes_per_s", "limit_bytes_per_s",
                 "predicted_bytes_per_s", "bytes_per_s_per_ghz")

#: Human headers of result columns (estimates merged with their interval end in " [CI]").
HEADERS = {
    "machine": "Machine", "comparison": "Compared", "candidate": "Machine", "baseline": "Against",
    "algorithm": "Algorithm", "operation": "Op.", "block_bytes": "Block (B)",
    "ratio [CI]": "Ratio [95% CI]", "ratio": "Ratio", "t0_ns": "t0 (ns)",
    "c_ns_per_byte": "c (ns/B)", "crossover_bytes": "Crossover (B)", "ratio_min": "Min", "ratio_max": "Max",
    "p_adjusted": "p (Holm)", "p_equivalence": "p (TOST)", "significant": "Signif.",
    "differs": "≠ claim", "equivalent": "≈ claim", "test": "Test", "n": "n",
    "n_candidate": "n", "n_baseline": "n base", "tool": "Tool", "tool_version": "Version",
    "timing": "Timing", "aesni": "AES-NI", "isa": "ISA", "isa_off": "ISA off", "effect": "Effect",
    "tier": "Tier", "cipher": "Cipher", "build": "Build",
    "protocol": "Protocol", "t0_ns [CI]": "t0 (ns) [95% CI]", "c_ns_per_byte [CI]":
    "c (ns/B) [95% CI]", "crossover_bytes [CI]": "Crossover (B) [95% CI]", "a": "A", "b": "B",
    "regime": "Regime", "n_half_bytes": "n½ (B)", "r_squared": "R²", "n_sizes": "Sizes",
    "t0_a_ns": "t0 A (ns)", "t0_b_ns": "t0 B (ns)", "overhead_share_a": "Fixed share A",
    "overhead_share_b": "Fixed share B", "per_ghz_ratio": "Ratio per GHz",
    "per_ghz_min": "Min per GHz", "per_ghz_max": "Max per GHz",
    "cycles_per_byte": "Cycles/B", "clock_hz": "Clock (GHz)", "check": "Check",
    "source": "File", "line": "Line", "message": "Why", "runs": "Runs", "cells": "Cells",
    "algorithms": "Algorithms", "tools": "Tools", "fact": "", "capture_id": "Capture",
    "library": "Library",
}


def _header(name: str) -> str:
    return HEADERS.get(name, name.replace("_", " "))


def presented(result: pd.DataFrame, columns: Sequence[str] | None) -> pd.DataFrame:
    """The columns to show, rates in one unit per column and the clock in GHz, named in words
    (estimates keep their stats names so that the export merges their intervals)."""
    from cipherlab.plots._axes import rate_scale  # (lazily: it imports matplotlib)

    frame = pd.DataFrame(result)
    cols = [c for c in columns if c in frame.columns] if columns else list(frame.columns)
    out = {}
    for c in cols:
        s = frame[c]
        if c in _RATE_COLUMNS or c.endswith("_bytes_per_s"):
            rates = pd.to_numeric(s, errors="coerce")
            scale, unit = rate_scale(rates)
            name = "Throughput" if c == "bytes_per_s" else _header(c).replace(" bytes per s", "")
            out[f"{name} ({unit})"] = rates / scale
        elif c == "clock_hz":
            out[_header(c)] = pd.to_numeric(s, errors="coerce") / 1e9
        elif c in ("ratio", "ci_low", "ci_high", "t0_ns", "t0_ci_low", "t0_ci_high",
                   "c_ns_per_byte", "c_ci_low", "c_ci_high", "crossover_bytes", "p_adjusted",
                   "p_equivalence"):
            out[c] = s  # formatted and merged by stats' export
        elif c == "aesni":  # (the AES instructions' on/off, named by the CPU family: ARMv8 AES)
            out[aes_name(frame)] = s.astype("object").map(_short_text)
        elif _is_text(s):
            out[_header(c)] = s.astype("object").map(_short_text)
        else:
            out[_header(c)] = s
    return pd.DataFrame(out, index=frame.index)


def same_in_every_row(result: pd.DataFrame, columns: Sequence[str] | None
                      ) -> tuple[list[str], str]:
    """The columns worth a column of their own, and a caption note naming the text columns
    that hold one value in every row (a machine, a tool, a timing base shared by the whole
    table says nothing row by row, and pushes the measured numbers off a page's right edge).

    Only text columns fold (names, conditions, ids), never numbers or yes/no results; a table of
    one row keeps them all, as there is nothing to compare.

    >>> import pandas as pd
    >>> t = pd.DataFrame({"machine": ["vm", "vm"], "algorithm": ["aes-128-gcm", "aes-128-cbc"],
    ...                   "tool": ["openssl", "openssl"], "n": [3, 3]})
    >>> same_in_every_row(t, None)
    (['algorithm', 'n'], ' Same in every row: Machine vm, Tool openssl.')
    """
    frame = pd.DataFrame(result)
    cols = [c for c in columns if c in frame.columns] if columns else list(frame.columns)
    folded = [c for c in cols if _is_text(frame[c]) and frame[c].nunique(dropna=False) == 1]
    if len(frame) < 2 or not folded or len(folded) == len(cols):
        return cols, ""
    shown = [c for c in cols if c not in folded]
    values = presented(frame.iloc[:1], folded).iloc[0]
    named = ", ".join(f"{name} {'–' if pd.isna(v) else v}" for name, v in values.items())
    return shown, f" Same in every row: {named}."


def _is_text(s: pd.Series) -> bool:
    return s.dtype == object or isinstance(s.dtype, (pd.CategoricalDtype, pd.StringDtype))


_LONGEST = 40  # characters of a text cell in the printed table (the CSV keeps it whole)


def _short_text(value):
    text = value if isinstance(value, str) else value
    if isinstance(text, str) and len(text) > _LONGEST:
        return text[:_LONGEST - 1].rstrip() + "…"
    return value


# Header characters pdflatex cannot take as they are.
_TEX = {"%": r"\%", "½": r"$_{1/2}$", "≠": r"$\neq$", "≈": r"$\approx$", "²": r"$^2$",
        "&": r"\&", "_": r"\_", "#": r"\#", "$": r"\$"}
_UNICODE = "½≠≈²"
# Characters of captions and cells that pdflatex's utf8 input does not define.
_TEX_TEXT = {"≈": r"$\approx$", "≠": r"$\neq$", "½": r"$_{1/2}$", "²": r"$^2$",
             "×": r"$\times$", "·": r"$\cdot$", "µ": r"$\mu$", "…": r"\ldots{}", "±": r"$\pm$",
             "≥": r"$\geq$", "≤": r"$\leq$", "→": r"$\to$"}


def _human_header_line(line: str, sep: str, tex: bool = False) -> str:
    """The header row of an exported table with the stats names replaced by :data:`HEADERS`."""
    end = " \\\\" if tex else ""
    body = line[:-len(end)] if end and line.endswith(end) else line
    body = body.strip()
    if not tex:  # the outer pipes only: an empty first header (the facts' column) is a cell
        body = body.removeprefix("|").removesuffix("|")
    names = [c.strip() for c in body.split(sep.strip())]
    human = []
    for name in names:
        raw = name.replace("\\_", "_")
        if not tex:
            human.append(_header(raw) if raw in HEADERS else raw)
        elif raw in HEADERS:  # a stats name: its words, escaped for LaTeX
            human.append("".join(_TEX.get(ch, ch) for ch in _header(raw)))
        else:  # already escaped by the export; only the characters pdflatex lacks
            human.append("".join(_TEX.get(ch, ch) if ch in _UNICODE else ch for ch in name))
    joined = (" & " if tex else " | ").join(human)
    return joined + end if tex else f"| {joined} |"


def _widths_pt(tabular: str) -> list[float]:
    """The printed width of each column of a booktabs tabular, from its widest cell."""
    rows = [r for r in tabular.splitlines() if r.rstrip().endswith("\\\\")]
    cells = [[re.sub(r"\\[a-z]+\{\}|\\|\$", "", c).strip() for c in r.rstrip("\\ ").split(" & ")]
             for r in rows]
    if not cells:
        return [0.0]
    n = max(map(len, cells))
    widths = [max(len(r[k]) if k < len(r) else 0 for r in cells) for k in range(n)]
    return [w * _CHAR_PT + _GAP_PT for w in widths]


def paper_latex(result: pd.DataFrame, columns: Sequence[str] | None, caption: str,
                label: str) -> str:
    """A result or table as a LaTeX float that fits a two-column article, as the report writes
    its tables: :func:`cipherlab.stats.to_latex` with headers in words and units, rates in one
    unit per column, in a one-column ``table`` when it fits a column and a page-wide ``table*``
    otherwise, the last columns left out (said in the caption) until it fits the page.

    >>> import pandas as pd
    >>> t = pd.DataFrame({"algorithm": ["aes-128-gcm"], "block_bytes": [16], "bytes_per_s": [7.3e8]})
    >>> tex = paper_latex(t, None, caption="AES-GCM.", label="tab:gcm")
    >>> print(tex.splitlines()[0]); print(next(ln for ln in tex.splitlines() if "Throughput" in ln))
    \\begin{table}[tbp]
    Algorithm & Block (B) & Throughput (MB/s) \\\\
    """
    from cipherlab import stats

    full = presented(result, columns)
    shown, dropped = list(full.columns), []
    order = _drop_order(shown)
    while True:
        note = f" Not shown: {', '.join(map(_header, dropped))} (in the CSV)." if dropped else ""
        lines = stats.to_latex(full[shown], shown, caption=caption + note,
                               label=label).splitlines()
        head = next(k for k, ln in enumerate(lines) if ln == r"\toprule") + 1
        lines[head] = _human_header_line(lines[head], " & ", tex=True)
        widths = _widths_pt("\n".join(lines[head:]))
        spec = next(k for k, ln in enumerate(lines) if ln.startswith(r"\begin{tabular}"))
        align = re.match(r"\\begin\{tabular\}\{(\w+)\}", lines[spec]).group(1)
        if sum(widths) > TEXT_PT:
            wrapped = _wrapped_spec(align, widths)
            if wrapped:  # text columns wrap in paragraph columns sharing the page width
                lines[spec] = rf"\begin{{tabular}}{{{wrapped}}}"
                # long names (TLS suites, file paths) may break after _ and /
                lines = [ln.replace(r"\_", r"\_\allowbreak{}").replace("/", r"/\allowbreak{}")
                         if k > spec else ln for k, ln in enumerate(lines)]
                widths = [TEXT_PT]
        if sum(widths) <= TEXT_PT or len(order) <= 2:
            break
        unit = order.pop(0)
        shown = [c for c in shown if c not in unit]
        dropped.append(unit[0])
    env = "table" if sum(widths) <= COLUMN_PT else "table*"
    # a float in print style: small type, tight columns, one column or the whole page wide
    lines[0] = rf"\begin{{{env}}}[tbp]"
    lines[-1] = rf"\end{{{env}}}"
    lines.insert(2, r"\footnotesize\setlength{\tabcolsep}{3pt}")
    return "".join(_TEX_TEXT.get(ch, ch) for ch in "\n".join(lines))


# Columns a reader misses least, left out first when a table is too wide for the page.
_DROP_FIRST = ("n_baseline", "n base", "Test", "n", "Op.", "Timing", "Tool", "Signif.",
               "p (TOST)", "Compared", "Sizes", "R²", "ISA off", "Version")
# Columns that identify a row: left out last.
_KEEP = ("Machine", "Build", "Algorithm", "Block (B)", "Against")
# An estimate and its interval columns are shown or left out together.
_PARTS = {"ratio": ("ci_low", "ci_high"), "t0_ns": ("t0_ci_low", "t0_ci_high"),
          "c_ns_per_byte": ("c_ci_low", "c_ci_high"), "crossover_bytes": ("ci_low", "ci_high")}


def _drop_order(columns: list[str]) -> list[tuple[str, ...]]:
    """The columns as units (an estimate with its interval), in the order they may be left out."""
    parts = {p for est, ps in _PARTS.items() if est in columns for p in ps}
    units = [(c, *[p for p in _PARTS.get(c, ()) if p in columns]) for c in columns
             if c not in parts]
    first = [u for name in _DROP_FIRST for u in units if u[0] == name]
    rest = [u for u in reversed(units) if u not in first and u[0] not in _PARTS
            and u[0] not in _KEEP]
    keep = [u for u in reversed(units) if u[0] in _KEEP and u not in first]
    return first + rest + keep + [u for u in units if u[0] in _PARTS]


_MIN_TEXT_PT = 70.0  # a wrapped text column narrower than this is unreadable


def _wrapped_spec(align: str, widths: list[float]) -> str | None:
    """A column spec with the text (``l``) columns as ``p{}`` columns that share what the
    numeric columns leave of the page, or None when they would be too narrow."""
    text = [k for k, a in enumerate(align) if a == "l"]
    if not text:
        return None
    # 10 % spare: the numeric widths are estimates, and an overfull page is the failure here
    room = 0.9 * TEXT_PT - sum(w for k, w in enumerate(widths) if k not in text) - \
        _GAP_PT * len(text)
    each = room / len(text)
    if each < _MIN_TEXT_PT:
        return None
    return "".join(f"p{{{each:.0f}pt}}" if a == "l" else a for a in align)


def markdown(result: pd.DataFrame, columns: Sequence[str] | None) -> str:
    from cipherlab import stats

    frame = presented(result, columns)
    text = stats.to_markdown(frame, list(frame.columns))
    lines = text.splitlines()
    lines[0] = _human_header_line(lines[0], " | ")
    return "\n".join(lines)
