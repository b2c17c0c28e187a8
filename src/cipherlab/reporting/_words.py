"""Wording helpers of the report: numbers, p-values and sources as page text (formatting only)."""

from __future__ import annotations

import html
import re

import pandas as pd

#: The claim the AES-NI section tests ("about twice as fast") and its equivalence margin.
CLAIMED_SPEEDUP = 2.0
EQUIVALENCE_MARGIN = 0.1


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def ratio_text(row, digits: int = 3) -> str:
    from cipherlab.plots import format_ratio

    text = format_ratio(row["ratio"], digits)
    lo, hi = row.get("ci_low"), row.get("ci_high")
    if lo is not None and hi is not None and pd.notna(lo) and pd.notna(hi):
        text += f" [{float(lo):.{digits - 1}f}, {float(hi):.{digits - 1}f}]"
    return text


def p_text(value) -> str:
    """An HTML-ready p-value: ``p &lt; 0.001`` or ``p = 0.013``."""
    from cipherlab.stats._export import format_p

    if value is None or pd.isna(value):
        return "p not available"
    return "p &lt; 0.001" if value < 0.001 else f"p = {format_p([value])[0]}"


def share_text(value: float) -> str:
    # 0.996 must not print as "100 %": keep a decimal where rounding would overstate
    return f"{value:.1%}" if 0.99 < value < 1 or 0 < value < 0.01 else f"{value:.0%}"


def slugify(text: str, limit: int = 120) -> str:
    """A file-name-safe spelling of ``text``; past ``limit`` characters the tail becomes a hash
    (long condition values, such as a GnuTLS capability list, made names the OS refuses)."""
    slug = re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-") or "data"
    if len(slug) > limit:
        import hashlib
        slug = f"{slug[:limit - 11].rstrip('-')}-{hashlib.sha1(slug.encode()).hexdigest()[:10]}"
    return slug


def unique_values(series: pd.Series) -> list[str]:
    return [str(v) for v in pd.unique(series.dropna().astype("object"))]


def rate_text(v) -> str:
    from cipherlab.plots import format_rate

    return format_rate(v)


def first_column(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    return frame[[column] + [c for c in frame.columns if c != column]]


def span_text(result: pd.DataFrame) -> str:
    from cipherlab.plots import format_ratio

    r = result["ratio"].dropna()
    return f"{format_ratio(r.min())} to {format_ratio(r.max())}" if len(r) else "–"


def at_size(row) -> str:
    return f" at {int(row['block_bytes'])} bytes" if "block_bytes" in row.index and pd.notna(
        row["block_bytes"]) else ""
