"""The main job: dumps and captures in, a finished analysis out (``cipherlab report``).

Why this module exists: every question people bring to cipher benchmarks ("is AES-NI really 2x?",
"why is GCM slow on small messages?", "which machine/build is fastest, and are the numbers even
plausible?") needs the same chain: read the dumps, run the right tests, draw the figures, and
explain the result in words a colleague can check. :func:`report` runs that chain on any set of
sources (by default the bundled real data) and leaves a folder with:

* ``report.html``: one self-contained page (figures embedded as data URIs, opens offline) that
  walks through the findings with the numbers, the tests and the warnings;
* ``figures/``: every figure as PDF, SVG and PNG (deterministic, TrueType fonts);
* ``tables/``: every result table as CSV, LaTeX (booktabs) and Markdown;
* ``data.csv``: the tidy table the analysis used.

It uses only the public API: :func:`cipherlab.ingest` / :func:`cipherlab.datasets.load` for data,
:mod:`cipherlab.stats` for every number that involves estimation or testing, and
:mod:`cipherlab.plots` for every figure. This module selects subsets, calls those functions and
writes what they return; it computes no statistics of its own.
"""

from __future__ import annotations

import base64
import html
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

import pandas as pd

from cipherlab.model import summary

__all__ = ["report"]

#: The claim the AES-NI section tests ("about twice as fast") and its equivalence margin.
CLAIMED_SPEEDUP = 2.0
EQUIVALENCE_MARGIN = 0.1
_AEAD = r"gcm|ccm|ocb|siv|poly1305"
_GCM_CBC_PAIRS = (("aes-128-gcm", "aes-128-cbc"), ("aes-256-gcm", "aes-256-cbc"))
_FIGURE_FORMATS = ("pdf", "svg", "png")
_PNG_DPI = 200
_OPEN_TABLE_ROWS = 12  # longer tables are folded (<details>) on the page


# ---------------------------------------------------------------------------------------------
# output records


@dataclass
class _Figure:
    name: str
    caption: str
    png: bytes
    files: list[Path]


@dataclass
class _Table:
    name: str
    caption: str
    markdown: str
    files: list[Path]


@dataclass
class _Section:
    key: str
    title: str
    blocks: list = field(default_factory=list)  # html strings, _Figure, _Table in reading order
    findings: list[str] = field(default_factory=list)  # one-line html summaries for the top
    warnings: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        self.blocks.append(f"<p>{text}</p>")

    def items(self, lines: Iterable[str]) -> None:
        lines = list(lines)
        if lines:
            self.blocks.append("<ul>" + "".join(f"<li>{x}</li>" for x in lines) + "</ul>")


class _Writer:
    """Writes figures and tables into the report folder and keeps what the page needs."""

    def __init__(self, out: Path, colours: dict[str, str]):
        self.out = out
        self.figures = out / "figures"
        self.tables = out / "tables"
        self.colours = colours
        self.files: list[Path] = []
        for folder in (self.figures, self.tables):
            folder.mkdir(parents=True, exist_ok=True)

    def figure(self, name: str, draw: Callable, caption: str, *, aspect: float = 0.5) -> _Figure:
        """Draw on a fresh full-width (7.2 in, two-column) figure and write PDF, SVG and PNG."""
        from matplotlib.figure import Figure

        from cipherlab import plots

        inches = plots.COLUMN_INCHES["double"]
        with plots.paper("double"):
            fig = Figure(figsize=(inches, inches * aspect), layout="constrained")
            draw(fig.add_subplot())
            # lay out once, then keep those positions for all three formats (constrained layout
            # would otherwise run again for every file: a third of the report's time)
            fig.draw_without_rendering()
            fig.set_layout_engine("none")
            paths = plots.save_figure(fig, self.figures / name, _FIGURE_FORMATS, width=inches,
                                      dpi=_PNG_DPI)
        self.files += paths
        return _Figure(name, caption, paths[_FIGURE_FORMATS.index("png")].read_bytes(), paths)

    def table(self, name: str, result: pd.DataFrame, caption: str,
              columns: Sequence[str] | None = None) -> _Table:
        from cipherlab import stats

        cols = [c for c in columns if c in result.columns] if columns else None
        csv = self.tables / f"{name}.csv"
        pd.DataFrame(result).to_csv(csv, index=False)
        tex = self.tables / f"{name}.tex"
        tex.write_text(stats.to_latex(result, cols, caption=caption, label=f"tab:{name}") + "\n",
                       encoding="utf-8")
        md_text = stats.to_markdown(result, cols)
        md = self.tables / f"{name}.md"
        md.write_text(f"{caption}\n\n{md_text}\n", encoding="utf-8")
        self.files += [csv, tex, md]
        return _Table(name, caption, md_text, [csv, tex, md])


# ---------------------------------------------------------------------------------------------
# wording helpers (formatting only)


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _ratio(row, digits: int = 3) -> str:
    from cipherlab.plots import format_ratio

    text = format_ratio(row["ratio"], digits)
    lo, hi = row.get("ci_low"), row.get("ci_high")
    if lo is not None and hi is not None and pd.notna(lo) and pd.notna(hi):
        text += f" [{float(lo):.{digits - 1}f}, {float(hi):.{digits - 1}f}]"
    return text


def _p(value) -> str:
    """An HTML-ready p-value: ``p &lt; 0.001`` or ``p = 0.013``."""
    if value is None or pd.isna(value):
        return "p not available"
    return "p &lt; 0.001" if value < 0.001 else f"p = {value:.3f}"


def _share(value: float) -> str:
    # 0.996 must not print as "100 %": keep a decimal where rounding would overstate
    return f"{value:.1%}" if 0.99 < value < 1 or 0 < value < 0.01 else f"{value:.0%}"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-") or "data"


def _source_slug(source: str) -> str:
    parts = Path(str(source)).parts
    stem = Path(str(source)).stem
    host = next((p for p in parts if p.startswith("host-")), None)
    if host:
        return _slug(f"{host.split('-openssl')[0]}-{stem}")
    return _slug(stem)


def _values(series: pd.Series) -> list[str]:
    return [str(v) for v in pd.unique(series.dropna().astype("object"))]


def _describe_source(df: pd.DataFrame, source: str) -> str:
    """``AWS r3.xlarge, openssl 1.0.1f (elapsed time)`` for the rows of one source."""
    rows = df[df["source"].astype("object") == source]
    where = _values(rows["host"]) if "host" in rows.columns else []
    where = where or _values(rows["label"])[:1]
    tools = [f"{t} {v}".strip() for t, v in
             rows[["tool", "tool_version"]].astype("object").fillna("").drop_duplicates()
             .itertuples(index=False)]
    timing = _values(rows["timing"])
    text = ", ".join(where[:2] + tools[:2])
    if timing:
        text += f" ({'/'.join(timing)} time)"
    return f"<b>{_esc(text)}</b> <span class='src'>[{_esc(source)}]</span>"


# ---------------------------------------------------------------------------------------------
# analyses


def _overview(df: pd.DataFrame, w: _Writer) -> _Section:
    sec = _Section("data", "The data")
    rates = df[df["bytes_per_s"].notna()]
    table = summary(df).reset_index()
    sizes = sorted(int(s) for s in rates["block_bytes"].dropna().unique())
    sec.say(f"The analysis reads <b>{len(df):,}</b> measured cells from <b>{df['source'].nunique()}"
            f"</b> sources ({_esc(', '.join(_values(df['tool'])))}); "
            f"{len(rates):,} cells carry a throughput, at {len(sizes)} block sizes from "
            f"{sizes[0] if sizes else '–'} to {sizes[-1] if sizes else '–'} bytes. "
            "Every cell keeps its source file and line, so each number below can be traced back "
            "to the text it came from (<code>data.csv</code> in this folder).")
    sec.blocks.append(w.table("sources", table, "Sources analysed: runs, cells, algorithms, tools."))
    return sec


def _has_pair(sub: pd.DataFrame, by: str, levels: Sequence[str]) -> bool:
    if by not in sub.columns:
        return False
    both = sub[sub[by].isin(levels)].groupby("algorithm", observed=True)[by].nunique()
    return bool((both >= len(levels)).any())


def _aesni(df: pd.DataFrame, w: _Writer) -> _Section:
    from cipherlab import plots, stats

    sec = _Section("aesni", f"AES-NI on and off: how much faster, and is it {CLAIMED_SPEEDUP:g}×?")
    if "aesni" not in df.columns:
        sec.say("These data hold no AES-NI on/off pairs (no <code>aesni</code> condition).")
        return sec
    d = df[df["aesni"].isin(["on", "off"]) & df["bytes_per_s"].notna()]
    sources = [s for s in _values(d["source"]) if _has_pair(d[d["source"] == s], "aesni",
                                                             ("on", "off"))]
    if not sources:
        sec.say("No source measures the same algorithm with AES-NI both on and off.")
        return sec
    sec.say(
        "A common claim is that AES-NI makes AES \"about twice as fast\". Each source below "
        "measured the same algorithms with AES-NI on and with it masked off "
        "(<code>OPENSSL_ia32cap</code>), so the ratio on/off can be read per mode and block "
        "size. The ratio is that of the throughputs (geometric means when there are repeats); "
        f"its interval is a {100 - 5:g} % confidence interval. The claim is then tested two ways: "
        f"a t-test of <i>ratio = {CLAIMED_SPEEDUP:g}</i> (does it <i>differ</i>?) and an "
        f"equivalence test (TOST) of <i>ratio within {CLAIMED_SPEEDUP:g}× ± "
        f"{EQUIVALENCE_MARGIN:.0%}</i> (is it <i>equal</i> for practical purposes?). "
        "p-values are Holm-adjusted within each source. A pasted dump has one value per cell, "
        "so there the test pools the block sizes of an algorithm (each size one paired "
        "observation); captures with repeats are tested cell by cell.")
    speedups, tests = [], []
    for src in sources:
        sub = d[d["source"] == src]
        slug = _source_slug(src)
        sp = stats.speedup(sub, by="aesni", on="on", off="off")
        rt = stats.ratio_test(sub, by="aesni", baseline="off", candidate="on",
                              expected=CLAIMED_SPEEDUP, margin=EQUIVALENCE_MARGIN)
        speedups.append(pd.DataFrame(sp).assign(source=src))
        tests.append(pd.DataFrame(rt).assign(source=src))
        sec.blocks.append(f"<h3>{_describe_source(df, src)}</h3>")
        sec.say(_mask_text(sub))
        lines = []
        for alg, rows in sp.groupby("algorithm", observed=True, sort=False):
            rows = rows.sort_values("block_bytes")
            lo, hi = rows.loc[rows["ratio"].idxmin()], rows.loc[rows["ratio"].idxmax()]
            lines.append(
                f"<b>{_esc(alg)}</b>: {_ratio(lo)} at {int(lo['block_bytes'])} bytes to "
                f"{_ratio(hi)} at {int(hi['block_bytes'])} bytes")
        sec.say("Speed-up with AES-NI, smallest and largest over the block sizes:")
        sec.items(lines)
        verdicts = []
        for _, row in rt.iterrows():
            where = f" at {int(row['block_bytes'])} bytes" if "block_bytes" in rt.columns else ""
            if bool(row["equivalent"]):
                verdict = (f"<span class='ok'>equivalent to {CLAIMED_SPEEDUP:g}×</span> within "
                           f"±{EQUIVALENCE_MARGIN:.0%} (TOST {_p(row['p_equivalence'])})")
            elif bool(row["differs"]):
                verdict = (f"<span class='bad'>differs from {CLAIMED_SPEEDUP:g}×</span> "
                           f"(adjusted {_p(row['p_adjusted'])})")
            else:
                verdict = (f"<span class='meh'>inconclusive</span>: neither shown different from "
                           f"{CLAIMED_SPEEDUP:g}× ({_p(row['p_adjusted'])}) nor within "
                           f"±{EQUIVALENCE_MARGIN:.0%} of it (TOST {_p(row['p_equivalence'])})")
            verdicts.append(f"<b>{_esc(row['algorithm'])}</b>{where}: {_ratio(row)}, {verdict}; "
                            f"{_esc(row['test'])}, n = {int(row['n'])}")
        sec.say(f"Test of the {CLAIMED_SPEEDUP:g}× claim:")
        sec.items(verdicts[:12])
        if len(verdicts) > 12:
            sec.say(f"… and {len(verdicts) - 12} more cells in the table below.")
        sec.findings.append(
            f"<b>AES-NI, {_esc(_describe_short(df, src))}</b>: " + "; ".join(
                _claim_summary(alg, rows) for alg, rows in
                rt.groupby("algorithm", observed=True, sort=False)) + ".")
        sec.blocks.append(w.figure(
            f"aesni-throughput-{slug}", lambda ax, sub=sub: plots.throughput(
                sub, palette=w.colours, ax=ax),
            f"Throughput with AES-NI on (solid) and off (dashed), {_source_text(df, src)}. "
            "Log-log axes; with repeats the line is their median and the band their range."))
        sec.blocks.append(w.figure(
            f"aesni-speedup-{slug}", lambda ax, sp=sp: plots.speedup(
                sp, expected=CLAIMED_SPEEDUP, palette=w.colours, ax=ax),
            f"Speed-up on/off by block size with {100 - 5:g} % intervals, {_source_text(df, src)}; "
            f"dashed: the claimed {CLAIMED_SPEEDUP:g}×. Filled markers: significantly different "
            "from 1× after Holm adjustment; hollow: not, or untestable (one value per side)."))
        if "block_bytes" not in rt.columns:
            sec.blocks.append(w.figure(
                f"aesni-2x-test-{slug}", lambda ax, rt=rt: plots.speedup(
                    rt, expected=CLAIMED_SPEEDUP, palette=w.colours, ax=ax),
                f"The {CLAIMED_SPEEDUP:g}× claim per algorithm, block sizes pooled, "
                f"{_source_text(df, src)}: ratio with its interval, the claim (dashed) and the "
                f"±{EQUIVALENCE_MARGIN:.0%} equivalence region (grey). Filled: differs from "
                f"{CLAIMED_SPEEDUP:g}×."))
    sp_all = pd.concat(speedups, ignore_index=True)
    rt_all = pd.concat(tests, ignore_index=True)
    sec.blocks.append(w.table(
        "aesni-speedup", _first(sp_all, "source"),
        "AES-NI speed-up (on/off) per source, algorithm and block size, with intervals and "
        "Holm-adjusted p-values (test of ratio = 1).",
        ["source", "algorithm", "operation", "block_bytes", "ratio", "ci_low", "ci_high",
         "p_adjusted", "test", "n_candidate", "n_baseline", "significant"]))
    sec.blocks.append(w.table(
        "aesni-2x-test", _first(rt_all, "source"),
        f"Test of the {CLAIMED_SPEEDUP:g}× claim: ratio with interval, t-test of ratio = "
        f"{CLAIMED_SPEEDUP:g} (adjusted p, differs) and TOST within ±{EQUIVALENCE_MARGIN:.0%} "
        "(p_equivalence, equivalent).",
        ["source", "algorithm", "operation", "block_bytes", "ratio", "ci_low", "ci_high",
         "p_adjusted", "differs", "p_equivalence", "equivalent", "test", "n"]))
    return sec


def _pair_keys(sub: pd.DataFrame) -> list[str]:
    """Fit keys that pair two algorithms of one source: conditions, not run numbers or labels.

    openssl prints one table per invocation, so ``-evp aes-128-gcm`` and ``-evp aes-128-cbc`` are
    separate runs (often with their own labels) of the same experiment; the source and its
    conditions (``aesni``, ``host``, ...) say which rows belong together.
    """
    from cipherlab.model import condition_columns

    conds = [c for c in condition_columns(sub) if c not in ("repeat", "note", "child")
             and sub[c].notna().any()]
    return ["algorithm", "operation", "source", *conds]


def _small_blocks(df: pd.DataFrame, w: _Writer) -> _Section:
    from cipherlab import plots, stats

    sec = _Section("small-blocks", "Small blocks: the per-call cost of GCM against CBC")
    rated = df[df["bytes_per_s"].notna() & df["block_bytes"].notna()]
    pairs = []
    for a, b in _GCM_CBC_PAIRS:
        both = [s for s in _values(rated["source"])
                if {a, b} <= set(_values(rated.loc[rated["source"] == s, "algorithm"]))]
        if both:
            pairs.append((a, b, both))
    if not pairs:
        sec.say("No source measures an AES-GCM and an AES-CBC variant side by side, so the "
                "per-call cost comparison is not possible on these data.")
        return sec
    sec.say(
        "GCM authenticates as well as encrypts, and each call pays a fixed price (context, IV, "
        "GHASH key powers, tag) before the first byte. The time per call is close to a straight "
        "line in the message length, <i>t(n) = t<sub>0</sub> + c·n</i>: <i>t<sub>0</sub></i> is "
        "the fixed cost per call, <i>c</i> the cost per byte. A weighted least-squares fit over "
        "the block sizes gives both with 95 % intervals; where the GCM and CBC lines cross, GCM "
        "becomes the faster choice. On small messages the fixed cost dominates, so a "
        "16-byte benchmark says little about bulk throughput and the other way round.")
    a, b, sources = pairs[0]
    sub = rated[rated["source"].isin(sources) & rated["algorithm"].isin([a, b])]
    keys = _pair_keys(sub)
    fit = stats.cost_model(sub, groupby=keys)
    cross = stats.crossover(sub, a, b, groupby=keys)
    over = stats.small_block_overhead(sub, a, b, groupby=keys)
    lines = []
    for _, row in cross.iterrows():
        where = _esc(_context(row, keys, df))
        fa = _fit_row(fit, row, keys, a)
        fb = _fit_row(fit, row, keys, b)
        costs = ""
        if fa is not None and fb is not None:
            costs = (f" Fixed cost per call {_t0(fa)} for {a} against {_t0(fb)} for {b}; "
                     f"per byte {fa['c_ns_per_byte']:.3g} against {fb['c_ns_per_byte']:.3g} ns.")
        lines.append(f"{where}: {_crossing(row)}.{costs}")
    eras = {}
    for src in sources:
        versions = _values(sub.loc[sub["source"] == src, "tool_version"])
        eras[src] = {stats.aead_era(v) for v in versions} - {None}
    if len(set().union(*eras.values())) > 1:
        new = [Path(str(x)).name for x, e in eras.items() if "new" in e]
        old = [Path(str(x)).name for x, e in eras.items() if "old" in e]
        sec.say(
            "<b>Not like for like across sources:</b> OpenSSL 3.0.16, 3.1.8, 3.2.4, 3.3.3 and 3.4 "
            "changed what <code>openssl speed</code> times for AEAD ciphers (PR #25823): each "
            "message now pays a full init, IV, AAD and tag, where older versions streamed one "
            f"context. The fixed cost of GCM from {_esc(', '.join(new))} (new loop) therefore "
            f"includes work that {_esc(', '.join(old))} (old loop) did not time; compare "
            "t<sub>0</sub> within a source, not across these.")
    sec.say(f"Where <b>{a}</b> overtakes <b>{b}</b>:")
    sec.items(lines)
    small = over[over["block_bytes"] == over["block_bytes"].min()]
    for _, row in small.iterrows():
        fa, fb = _fit_row(fit, row, keys, a), _fit_row(fit, row, keys, b)
        costs = (f" (fixed cost per call {_t0(fa, interval=False)} against "
                 f"{_t0(fb, interval=False)})" if fa is not None and fb is not None else "")
        sec.findings.append(
            f"<b>{_esc(a)} against {_esc(b)}, {_esc(_context(row, keys, df))}</b>: at "
            f"{int(row['block_bytes'])} bytes GCM runs at {row['ratio']:.2g}× CBC's speed"
            f"{costs}; {_crossing(cross_row(cross, row, keys))}.")
    for key, rows in fit.groupby([k for k in keys if k != "algorithm"], observed=True,
                                 dropna=False, sort=False):
        rows = pd.DataFrame(rows)
        mask = pd.Series(True, index=cross.index)
        for k, v in zip([k for k in keys if k != "algorithm"], key if isinstance(key, tuple)
                        else (key,)):
            mask &= cross[k].isna() if pd.isna(v) else (cross[k].astype("object") == v)
        values = dict(zip([k for k in keys if k != "algorithm"],
                          key if isinstance(key, tuple) else (key,)))
        name = "-".join([_source_slug(values.get("source", "data"))] + [
            f"{k}-{v}" for k, v in values.items()
            if k not in ("source", "operation", "host") and pd.notna(v)])
        sub_rows = sub
        for k, v in zip([k for k in keys if k != "algorithm"], key if isinstance(key, tuple)
                        else (key,)):
            sub_rows = sub_rows[sub_rows[k].isna() if pd.isna(v) else
                                (sub_rows[k].astype("object") == v)]
        sec.blocks.append(w.figure(
            f"cost-model-{_slug(name)}", lambda ax, rows=rows, sub_rows=sub_rows, c=cross[mask]:
            plots.cost_model(rows, sub_rows, crossover=c, palette=w.colours, ax=ax),
            f"Time per call against block size with the fitted t0 + c·n lines and their 95 % "
            f"bands, {_context(rows.iloc[0], keys, df)}; dashed vertical: where {a} overtakes "
            f"{b} (shaded: its interval)."))
    sec.blocks.append(w.figure(
        f"overhead-{_slug(a)}-vs-{_slug(b)}", lambda ax: plots.overhead(
            over, a=a, b=b, ax=ax),
        f"Throughput of {a} relative to {b} by block size (dashed: equal speed). Below the line, "
        f"{b} is faster: the fixed per-call cost of {a} dominates small messages.", aspect=0.4))
    sec.blocks.append(w.table(
        "cost-model", fit, f"Per-call cost fits t(n) = t0 + c·n of {a} and {b}: fixed cost t0 "
        "(ns), cost per byte c (ns), asymptotic throughput, half-performance length n½ = t0/c.",
        [*keys, "t0_ns", "t0_ci_low", "t0_ci_high", "c_ns_per_byte", "c_ci_low", "c_ci_high",
         "asymptotic_bytes_per_s", "n_half_bytes", "r_squared", "n_sizes"]))
    sec.blocks.append(w.table(
        "crossover", cross, f"Block size where {a} overtakes {b}, with its 95 % interval "
        "(delta method; inf when the slopes are not clearly different).",
        [k for k in keys if k != "algorithm"] + ["a", "b", "crossover_bytes", "ci_low",
                                                 "ci_high", "regime"]))
    sec.blocks.append(w.table(
        "small-block-overhead", over, f"Throughput ratio {a}/{b} by block size and the share of "
        "each call spent in fixed overhead (from the fits).",
        [k for k in keys if k != "algorithm"] + ["block_bytes", "ratio", "t0_a_ns", "t0_b_ns",
                                                 "overhead_share_a", "overhead_share_b"]))
    return sec


def cross_row(cross: pd.DataFrame, row: pd.Series, keys: Sequence[str]):
    mask = pd.Series(True, index=cross.index)
    for k in keys:
        if k == "algorithm" or k not in cross.columns:
            continue
        v = row[k]
        mask &= cross[k].isna() if pd.isna(v) else (cross[k].astype("object") == v)
    return cross[mask].iloc[0] if mask.any() else None


def _fit_row(fit: pd.DataFrame, row: pd.Series, keys: Sequence[str], algorithm: str):
    mask = fit["algorithm"].astype("object") == algorithm
    for k in keys:
        if k == "algorithm":
            continue
        v = row[k]
        mask &= fit[k].isna() if pd.isna(v) else (fit[k].astype("object") == v)
    return fit[mask].iloc[0] if mask.any() else None


def _t0(row, interval: bool = True) -> str:
    from cipherlab.plots import format_seconds

    text = format_seconds(row["t0_ns"] * 1e-9)
    if interval and pd.notna(row.get("t0_ci_low")) and pd.notna(row.get("t0_ci_high")):
        text += (f" [{format_seconds(row['t0_ci_low'] * 1e-9)}, "
                 f"{format_seconds(row['t0_ci_high'] * 1e-9)}]")
    return text


def _crossing(row) -> str:
    from cipherlab.plots import format_bytes

    if row is None:
        return "no crossover estimate"
    regime = str(row["regime"])
    a, b = row["a"], row["b"]
    if regime == "a overtakes b":
        hi = row["ci_high"]
        ci = (f" (95 % interval {format_bytes(row['ci_low'])} to "
              f"{'unbounded' if not pd.notna(hi) or hi == float('inf') else format_bytes(hi)})")
        return f"{_esc(a)} overtakes {_esc(b)} above {format_bytes(row['crossover_bytes'])}{ci}"
    if regime == "a always faster":
        return f"{_esc(a)} is faster at every size"
    if regime == "never":
        return f"{_esc(a)} is never faster than {_esc(b)}"
    if regime == "b overtakes a":
        return f"{_esc(a)} is faster only for small messages; {_esc(b)} overtakes it"
    return "the lines could not be fitted"


def _context(row, keys: Sequence[str], df: pd.DataFrame) -> str:
    """``AWS r3.xlarge (aws-wiki-aesni-on-off.txt), aesni=on`` for a result row."""
    parts = []
    if "source" in keys and "source" in row.index:
        parts.append(_describe_short(df, row["source"]))
    for k in keys:
        if k in ("algorithm", "operation", "source", "host") or k not in row.index:
            continue
        if pd.notna(row[k]):
            parts.append(f"{k}={row[k]}")
    return ", ".join(parts)


def _common_size(sub: pd.DataFrame, preferred: int = 8192):
    sizes = sorted(int(x) for x in sub["block_bytes"].dropna().unique())
    if not sizes:
        return None
    return preferred if preferred in sizes else sizes[-1]


def _complete(sub: pd.DataFrame, rows: str, size) -> list[str]:
    """Algorithms measured (with a rate) for every level of ``rows`` at ``size``."""
    at = sub[sub["block_bytes"] == size]
    per = at.groupby("algorithm", observed=True)[rows].nunique()
    n = at[rows].nunique()
    return [a for a in _values(at["algorithm"]) if per.get(a, 0) == n]


def _machines(df: pd.DataFrame, w: _Writer) -> _Section:
    from cipherlab import plots, stats

    sec = _Section("machines", "Machines: the same benchmark on different systems")
    # the bundled data name machines in `host`; other dumps name each run in `label`
    machine = "host" if "host" in df.columns and df["host"].notna().any() else "label"
    rated = df[df["bytes_per_s"].notna() & df["block_bytes"].notna()]
    if "multi" in rated.columns:  # -multi rows are sums over processes: not one machine's speed
        rated = rated[rated["multi"].isna() | (rated["multi"] <= 1)]
    if "aesni" in rated.columns:  # ISA ablations are the AES-NI section's business
        rated = rated[rated["aesni"].isna() | (rated["aesni"] == "on")]
    if "tier" in rated.columns:  # implementation tiers get their own section
        rated = rated[rated["tier"].isna()]
    groups = []
    for src in _values(rated["source"]):
        sub = rated[rated["source"] == src]
        if sub[machine].nunique() >= 2:
            groups.append((f"{Path(src).name}", _source_slug(src), sub))
    captures = rated[rated["source"].astype("object").str.startswith("captures/")
                     & rated["tool"].astype("object").eq("openssl")
                     & rated["timing"].astype("object").eq("cpu")
                     & ~rated["algorithm"].astype("object").str.contains(_AEAD, regex=True)]
    if captures[machine].nunique() >= 2:
        groups.append(("the captures of " + " and ".join(_values(captures[machine])), "captures",
                       captures))
    if not groups:
        sec.say("No source compares two or more machines on the same algorithms.")
        return sec
    sec.say(
        "Each comparison below puts one machine's throughput over another's for the same "
        "algorithm. With one value per cell (a pasted dump) the ratios of all block sizes of an "
        "algorithm are tested together (paired t-test on the log ratios, one pair per block "
        "size); with repeated measurements each cell is tested on its own (Welch's t-test on log "
        "throughput). p-values are Holm-adjusted across each table. Where the clock is known, "
        "the same comparison per GHz tells whether a machine is faster per cycle or only "
        "clocked higher. Captures are compared on single-process runs timed in user CPU time "
        "(openssl's default) and without AEAD ciphers, whose benchmark loop differs between "
        "openssl versions and modes (<code>-aead</code>) in ways a dump does not always show.")
    results = []
    for title, slug, sub in groups:
        hosts = _values(sub[machine])
        size = _common_size(sub)
        algos = _complete(sub, machine, size)
        if not algos:
            continue
        sub = sub[sub["algorithm"].isin(algos)]
        baseline = hosts[0]
        single = not _has_repeats(sub, machine)
        paired = True if single else False
        res = stats.compare(sub, by=machine, baseline=baseline, paired=paired)
        results.append(pd.DataFrame(res).assign(comparison=title))
        sec.blocks.append(f"<h3>{_esc(title)}: {len(hosts)} machines, {len(algos)} algorithms"
                          "</h3>")
        lines = []
        for cand, rows in res.groupby("candidate", observed=True, sort=False):
            slow = rows.loc[rows["ratio"].idxmin()]
            fast = rows.loc[rows["ratio"].idxmax()]
            n_sig = int(rows["significant"].sum())
            lines.append(
                f"<b>{_esc(cand)}</b> against <b>{_esc(baseline)}</b>: from {_ratio(slow)} "
                f"({_esc(slow['algorithm'])}{_at(slow)}) to {_ratio(fast)} "
                f"({_esc(fast['algorithm'])}{_at(fast)}); {n_sig} of {len(rows)} ratios "
                "significantly different from 1×")
        sec.items(lines)
        per = stats.per_ghz(sub)
        if per["bytes_per_s_per_ghz"].notna().all():
            res_ghz = stats.compare(per, by=machine, baseline=baseline, paired=paired,
                                    metric="bytes_per_s_per_ghz")
            results.append(pd.DataFrame(res_ghz).assign(comparison=title + " (per GHz)"))
            clocks = per.groupby(machine, observed=True, sort=False)["clock_hz"].first()
            lines = [f"{_esc(h)}: {c / 1e6:.0f} MHz" for h, c in clocks.items()]
            sec.say("Clocks as the sources give them: " + "; ".join(lines) +
                    ". Per GHz of clock:")
            sec.items(
                f"<b>{_esc(cand)}</b> against <b>{_esc(baseline)}</b> per cycle: "
                f"{_esc(_span(rows))} across algorithms"
                for cand, rows in res_ghz.groupby("candidate", observed=True, sort=False))
        focus = "aes-128-cbc" if "aes-128-cbc" in algos else algos[0]
        sec.findings.append(
            f"<b>Machines, {_esc(title)}</b>: {_esc(focus)} runs at {_esc(_focus_text(res, focus))}"
            f" of {_esc(baseline)}'s throughput.")
        sec.blocks.append(w.figure(
            f"machines-heatmap-{slug}", lambda ax, sub=sub, size=size: plots.heatmap(
                sub, rows=machine, columns="algorithm", block_bytes=size, ax=ax),
            f"Throughput by machine and algorithm at {size}-byte blocks ({title}); colour on a "
            "log scale.", aspect=0.22 + 0.07 * len(hosts)))
        sec.blocks.append(w.figure(
            f"machines-throughput-{_slug(focus)}-{slug}",
            lambda ax, sub=sub, focus=focus: plots.throughput(
                sub[sub["algorithm"] == focus], hue=machine, ax=ax),
            f"{focus} throughput by block size on each machine ({title})."))
        sec.blocks.append(w.figure(
            f"machines-ratio-{slug}", lambda ax, res=res: plots.speedup(
                res, expected=None, hue="algorithm", palette=w.colours, ax=ax,
                ylabel=f"Throughput relative to {baseline}" if len(baseline) < 30 else
                "Throughput relative to the baseline"),
            f"Throughput of each machine relative to {baseline} ({title}), with 95 % intervals; "
            "dotted: equal speed. Filled: significantly different from 1×."))
    if results:
        table = pd.concat(results, ignore_index=True)
        sec.blocks.append(w.table(
            "machines", _first(table, "comparison"),
            "Machine against machine: throughput ratio candidate/baseline with 95 % interval, "
            "Holm-adjusted p-value and test.",
            ["comparison", "candidate", "baseline", "algorithm", "operation", "block_bytes",
             "ratio", "ci_low", "ci_high", "p_adjusted", "significant", "test", "n_candidate",
             "n_baseline"]))
    return sec


def _has_repeats(sub: pd.DataFrame, by: str) -> bool:
    keys = ["algorithm", "operation", "block_bytes", by]
    counts = sub.groupby([sub[k].astype("object") for k in keys], dropna=False).size()
    return bool(len(counts)) and int(counts.min()) >= 2


def _at(row) -> str:
    return f" at {int(row['block_bytes'])} bytes" if "block_bytes" in row.index and pd.notna(
        row["block_bytes"]) else ""


def _focus_text(res: pd.DataFrame, algorithm: str) -> str:
    rows = res[res["algorithm"].astype("object") == algorithm]
    if "block_bytes" in rows.columns:
        rows = rows[rows["block_bytes"] == rows["block_bytes"].max()]
    return ", ".join(f"{_ratio(r)} for {r['candidate']}" for _, r in rows.iterrows())


def _tiers(df: pd.DataFrame, w: _Writer) -> _Section:
    from cipherlab import plots, stats

    sec = _Section("tiers", "Implementation tiers: portable C, assembler, hardware")
    if "tier" not in df.columns or df["tier"].isna().all():
        sec.say("These data hold no implementation tiers (no <code>tier</code> condition).")
        return sec
    d = df[df["tier"].notna() & df["bytes_per_s"].notna()].copy()
    sec.say(
        "OpenSSL can run a cipher as portable C (<code>no-asm</code>), as hand-written assembler "
        "(<code>asm</code>, which on recent CPUs already uses AES-NI and SHA extensions), or "
        "through hardware and kernel engines (VIA PadLock, the Linux kernel's AF_ALG). The "
        "ratios below are each tier's throughput over <code>no-asm</code> on the same machine and "
        "build. These tables hold one value per cell at one block size, so the ratios are "
        "descriptive: there is nothing to test them against (the table says "
        "<code>single value</code>).")
    # cells that fail the plausibility checks are shown but not quoted as a tier's gain
    found = stats.lint(d, warn=False)
    flagged = set(zip(found["label"].astype("object"), found["tier"].astype("object"),
                      found["algorithm"].astype("object"))) if len(found) else set()
    results, gains = [], []
    for label, sub in d.groupby("label", observed=True, sort=False):
        if "no-asm" not in set(_values(sub["tier"])):
            continue
        res = stats.compare(sub, by="tier", baseline="no-asm")
        results.append(pd.DataFrame(res).assign(label=label))
        ok = res[[(label, c, a) not in flagged
                  for c, a in zip(res["candidate"].astype("object"),
                                  res["algorithm"].astype("object"))]]
        bad = sorted({f"{c} {a}" for c, a in zip(res["candidate"].astype("object"),
                                                  res["algorithm"].astype("object"))
                      if (label, c, a) in flagged})
        if len(ok):
            best = ok.loc[ok["ratio"].idxmax()]
            text = (f"{_esc(_short_label(label))}: {_esc(best['candidate'])} "
                    f"{_ratio(best, 3)} for {_esc(best['algorithm'])}")
            if bad:
                text += f" ({_esc(', '.join(bad))}: implausible, see Plausibility)"
            gains.append(text)
    if gains:
        sec.findings.append("<b>Largest plausible gain over portable C</b>: " + "; ".join(gains)
                            + ".")
    if results:
        table = pd.concat(results, ignore_index=True)
        lines = []
        for label, rows in table.groupby("label", observed=True, sort=False):
            aes = rows[rows["algorithm"].astype("object").str.startswith("aes")]
            if len(aes):
                lines.append(f"<b>{_esc(label)}</b>: " + "; ".join(
                    f"{_esc(r['candidate'])} {_ratio(r, 3)}" + (
                        " (<span class='bad'>implausible</span>)"
                        if (label, r["candidate"], r["algorithm"]) in flagged else "")
                    for _, r in aes.iterrows()) +
                    f" ({_esc(aes['algorithm'].iloc[0])} against no-asm)")
        sec.items(lines)
        sec.blocks.append(w.table(
            "tiers", _first(table, "label"),
            "Each tier's throughput over no-asm on the same machine and build (one value per "
            "cell: descriptive ratios).",
            ["label", "candidate", "baseline", "algorithm", "block_bytes", "ratio", "test"]))
    d["machine · tier"] = (d["label"].astype("object").map(_short_label) + " · "
                           + d["tier"].astype("object"))
    size = _common_size(d)
    sec.blocks.append(w.figure(
        "tiers-heatmap", lambda ax: plots.heatmap(d, rows="machine · tier", columns="algorithm",
                                                  block_bytes=size, ax=ax),
        f"Throughput by machine, OpenSSL build and implementation tier at {size}-byte blocks; "
        "colour on a log scale. Blank: not measured.", aspect=0.12 + 0.035 * d["machine · tier"].nunique()))
    return sec


def _transfers(df: pd.DataFrame, w: _Writer) -> _Section:
    from cipherlab import stats

    sec = _Section("tls", "TLS transfers: whole-protocol throughput")
    d = df[df["operation"].astype("object").eq("transfer") & df["bytes_per_s"].notna()]
    if d.empty or "cipher" not in d.columns:
        sec.say("These data hold no TLS transfer measurements.")
        return sec
    sec.say(
        "A TLS transfer measures the whole record layer (cipher, MAC or tag, framing, copies) "
        "through one implementation. Cycles per byte (clock / throughput) make such figures "
        "comparable with the cipher benchmarks above: a TLS stack cannot move data faster than "
        "its cipher, so a gap of orders of magnitude points at the implementation, not the "
        "algorithm.")
    cpb = stats.cycles_per_byte(d)
    lines = []
    for _, r in cpb.iterrows():
        cycles = (f", {r['cycles_per_byte']:.3g} cycles per byte at "
                  f"{r['clock_hz'] / 1e9:.3g} GHz" if pd.notna(r["cycles_per_byte"]) else "")
        lines.append(f"<b>{_esc(r['algorithm'])}</b> ({_esc(r['tool'])} {_esc(r['tool_version'])}"
                     f", {_esc(r['host']) if 'host' in r.index else _esc(r['label'])}): "
                     f"{_esc(_rate(r['bytes_per_s']))}{cycles}")
    sec.items(lines)
    ciphers = _values(d["cipher"])
    for a, b in _GCM_CBC_PAIRS:
        if {a, b} <= set(ciphers):
            keys = [k for k in ("source", "tool", "protocol") if k in d.columns]
            res = stats.compare(d, by="cipher", baseline=b, candidate=a, groupby=keys)
            for _, r in res.iterrows():
                best = df[df["algorithm"].astype("object").eq(a) & df["bytes_per_s"].notna()
                          & ~df["operation"].astype("object").eq("transfer") & df["flag"].isna()]
                if "multi" in best.columns:  # one process, like a TLS connection
                    best = best[best["multi"].isna() | (best["multi"] <= 1)]
                ref = ""
                if len(best):
                    top = best.loc[best["bytes_per_s"].idxmax()]
                    ref = (f" For scale: the cipher benchmarks in these data reach "
                           f"{_esc(_rate(top['bytes_per_s']))} for {_esc(a)} on one core "
                           f"({_esc(_describe_short(df, top['source']))}).")
                sec.say(f"Over TLS ({_esc(r['source'])}), {_esc(a)} moves data at "
                        f"{_ratio(r)} the rate of {_esc(b)} (one value per side: a descriptive "
                        f"ratio, no test).{ref}")
                sec.findings.append(
                    f"<b>TLS, {_esc(Path(str(r['source'])).name)}</b>: {_esc(a)} at "
                    f"{_ratio(r)} the throughput of {_esc(b)}.")
    sec.blocks.append(w.table(
        "tls-transfers", cpb, "TLS transfer throughput with cycles per byte where the clock is "
        "known.", ["source", "line", "label", "tool", "tool_version", "algorithm", "cipher",
                   "protocol", "bytes_per_s", "clock_hz", "cycles_per_byte"]))
    return sec


def _plausibility(df: pd.DataFrame, w: _Writer) -> _Section:
    from cipherlab import stats

    sec = _Section("plausibility", "Plausibility: numbers that cannot be right")
    found = stats.lint(df, warn=False)
    sec.say(
        "Every cell is checked against what the hardware can physically do (the fewest cycles "
        "per byte any CPU of its class needs for the algorithm, at the clock the source gives "
        "or a generous 6.5 GHz), and against throughput that falls as blocks grow within a run, "
        "and for negative or infinite rates. Comparisons in the sections above were also checked "
        "for like-for-like measurement (timing base, the AEAD benchmark loop that changed in "
        "OpenSSL 3.0.16/3.4, legacy names without AES-NI, <code>-multi</code> runs); their "
        "warnings are listed with each section.")
    if found.empty:
        sec.say("<span class='ok'>No cell failed these checks.</span>")
        return sec
    counts = found.groupby("check", observed=True).size()
    sec.say("Cells that failed: " + ", ".join(f"<b>{_esc(k)}</b> {int(v)}"
                                             for k, v in counts.items()) + ".")
    lines = []
    for _, row in found.head(8).iterrows():
        from cipherlab.plots import format_rate

        where = f"{row['source']}" + (f", line {int(row['line'])}" if "line" in row.index and
                                      pd.notna(row["line"]) else "")
        tier = f" ({row['tier']})" if "tier" in row.index and pd.notna(row.get("tier")) else ""
        lines.append(f"<b>{_esc(row['algorithm'])}</b>{_esc(tier)} at "
                     f"{format_rate(row['bytes_per_s'])} [{_esc(where)}]: {_esc(row['message'])}")
    sec.items(lines)
    cells = [f"{_esc(r['algorithm'])} at {_esc(_rate(r['bytes_per_s']))} "
             f"({_esc(Path(str(r['source'])).name)}" + (f", line {int(r['line'])}" if "line" in
                                                      r.index and pd.notna(r["line"]) else "") + ")"
             for _, r in found.head(4).iterrows()]
    sec.findings.append(
        f"<b>Plausibility</b>: {len(found)} cell(s) cannot be right: " + "; ".join(cells)
        + ("; …" if len(found) > 4 else "") + ". Details and reasons in the Plausibility section.")
    sec.blocks.append(w.table(
        "plausibility", found, "Cells that fail a plausibility check, with their provenance.",
        ["check", "source", "line", "label", "tier", "algorithm", "block_bytes", "bytes_per_s",
         "limit_bytes_per_s", "message"]))
    return sec


def _rate(v) -> str:
    from cipherlab.plots import format_rate

    return format_rate(v)


def _claim_summary(algorithm: str, rows: pd.DataFrame) -> str:
    """``aes-128-cbc 1.98× (≈ 2×)`` or, per block size, ``aes-128-gcm 0.857×–42.6× (≠ 2× in 5/6)``."""
    from cipherlab.plots import format_ratio

    def short(row) -> str:
        if bool(row["equivalent"]):
            return f"≈ {CLAIMED_SPEEDUP:g}×"
        if bool(row["differs"]):
            return f"≠ {CLAIMED_SPEEDUP:g}×"
        return "inconclusive"

    if len(rows) == 1:
        row = rows.iloc[0]
        return f"{_esc(algorithm)} {format_ratio(row['ratio'])} ({short(row)})"
    n_diff, n_eq = int(rows["differs"].sum()), int(rows["equivalent"].sum())
    verdict = ", ".join(x for x in (
        f"≠ {CLAIMED_SPEEDUP:g}× in {n_diff}/{len(rows)} sizes" if n_diff else "",
        f"≈ {CLAIMED_SPEEDUP:g}× in {n_eq}/{len(rows)}" if n_eq else "") if x) or "inconclusive"
    return (f"{_esc(algorithm)} {format_ratio(rows['ratio'].min())}–"
            f"{format_ratio(rows['ratio'].max())} ({verdict})")


def _short_label(label: object) -> str:
    """Drop the distribution blurb of a long run label: ``VIA Luke @ 1.0 GHz / OpenSSL 1.1.0l``."""
    return re.sub(r"\s+(on|with)\s+(Debian|Ubuntu|Fedora|Linux).*$", "", str(label))


def _mask_text(sub: pd.DataFrame) -> str:
    """What the source says about the capability mask in effect on each side (openssl's CPUINFO)."""
    if "cpuinfo" not in sub.columns or sub["cpuinfo"].isna().all():
        return ("The source does not record the capability mask in effect (openssl's "
                "<code>CPUINFO</code> line), so it cannot show that masking AES-NI took effect; "
                "the ratios below are the evidence.")
    parts = []
    for level in ("on", "off"):
        masks = _values(sub.loc[sub["aesni"] == level, "cpuinfo"])
        if masks:
            parts.append(f"AES-NI {level}: <code>{_esc('; '.join(masks[:2]))}</code>")
    return ("Capability mask in effect, as openssl printed it: " + ", ".join(parts) + ". "
            "Bit 57 of the first word is AES-NI, bit 33 PCLMULQDQ, bit 41 SSSE3 (which selects "
            "the vector-permute fallback when AES-NI is off).")


def _first(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    return frame[[column] + [c for c in frame.columns if c != column]]


def _span(result: pd.DataFrame) -> str:
    from cipherlab.plots import format_ratio

    r = result["ratio"].dropna()
    return f"{format_ratio(r.min())} to {format_ratio(r.max())}" if len(r) else "–"


def _describe_short(df: pd.DataFrame, source: str) -> str:
    rows = df[df["source"].astype("object") == source]
    where = (_values(rows["host"]) if "host" in rows.columns else []) or _values(rows["label"])[:1]
    tool = _values(rows["tool"])[:1] + _values(rows["tool_version"])[:1]
    return f"{', '.join(where[:1])} ({' '.join(tool)}, {Path(str(source)).name})"


def _source_text(df: pd.DataFrame, source: str) -> str:
    return _describe_short(df, source)


# ---------------------------------------------------------------------------------------------
# the page


_CSS = """
body{font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
  color:#1d1d1f;max-width:1000px;margin:2em auto;padding:0 1.2em;background:#fff}
h1{font-size:1.8em;margin-bottom:.1em} h2{margin-top:2.2em;border-bottom:1px solid #ddd;
  padding-bottom:.2em} h3{font-size:1.05em;margin-top:1.6em}
.sub{color:#555;margin-top:0} .src{color:#777;font-weight:normal;font-size:.85em}
figure{margin:1.2em 0} figure img{max-width:100%;height:auto;border:1px solid #eee}
figure img{width:100%}
figcaption{font-size:.88em;color:#444;margin-top:.3em} figcaption a,.files a{color:#0072B2}
table{border-collapse:collapse;font-size:.8em;margin:.6em 0;display:block;overflow-x:auto}
th,td{padding:.25em .6em;border-bottom:1px solid #e5e5e5;white-space:nowrap;text-align:left}
th{background:#f6f6f6} td.num{text-align:right;font-variant-numeric:tabular-nums}
caption{caption-side:top;text-align:left;font-size:.95em;color:#444;padding:.3em 0}
.findings{background:#f4f8fb;border-left:4px solid #0072B2;padding:.6em 1.2em;margin:1.2em 0}
.warn{background:#fff8ef;border-left:4px solid #D55E00;padding:.6em 1.2em}
.ok{color:#007a56;font-weight:600} .bad{color:#b34700;font-weight:600}
.meh{color:#555;font-weight:600} code{font-size:.9em;background:#f3f3f3;padding:0 .2em}
details{margin:.6em 0} summary{cursor:pointer;font-size:.88em;color:#444}
nav ol{columns:2} footer{margin-top:3em;color:#777;font-size:.85em}
"""


def _md_table_html(table: _Table, out: Path) -> str:
    """Render the Markdown table written by :func:`cipherlab.stats.to_markdown` as HTML."""
    lines = [ln for ln in table.markdown.splitlines() if ln.strip()]

    def cells(line: str) -> list[str]:
        parts = re.split(r"(?<!\\)\|", line.strip())[1:-1]
        return [p.strip().replace("\\|", "|") for p in parts]

    header, align, rows = cells(lines[0]), cells(lines[1]), [cells(x) for x in lines[2:]]
    right = [a.endswith(":") and not a.startswith(":") for a in align]
    head = "".join(f"<th>{_esc(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td class='num'>{_esc(c)}</td>" if r else f"<td>{_esc(c)}</td>"
                         for c, r in zip(row, right)) + "</tr>" for row in rows)
    links = " · ".join(f"<a href='{_esc(p.relative_to(out).as_posix())}'>{p.suffix[1:].upper()}"
                       f"</a>" for p in table.files)
    html_table = (f"<table><caption>{_esc(table.caption)} <span class='files'>({links})</span>"
                  f"</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    if len(rows) <= _OPEN_TABLE_ROWS:
        return html_table
    # long tables fold away so the text stays readable; the files hold them in full anyway
    return (f"<details><summary>{_esc(table.caption)} <span class='files'>({len(rows)} rows; "
            f"{links})</span></summary>{html_table}</details>")


def _figure_html(fig: _Figure, out: Path) -> str:
    data = base64.b64encode(fig.png).decode("ascii")
    links = " · ".join(f"<a href='{_esc(p.relative_to(out).as_posix())}'>{p.suffix[1:].upper()}"
                       f"</a>" for p in fig.files)
    return (f"<figure id='fig-{_esc(fig.name)}'>"
            f"<img alt='{_esc(fig.caption)}' src='data:image/png;base64,{data}'>"
            f"<figcaption><b>{_esc(fig.name)}.</b> {_esc(fig.caption)} ({links})</figcaption>"
            "</figure>")


def _page(sections: list[_Section], notes: list[str], out: Path, sources_text: str) -> str:
    import cipherlab

    findings = [f for s in sections for f in s.findings]
    toc = "".join(f"<li><a href='#{s.key}'>{_esc(s.title)}</a></li>" for s in sections)
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        "<title>cipherlab report</title>", f"<style>{_CSS}</style></head><body>",
        "<h1>Cipher benchmark report</h1>",
        f"<p class='sub'>cipherlab {_esc(cipherlab.__version__)} · {sources_text}</p>",
    ]
    if findings:
        parts.append("<div class='findings'><b>Key findings</b><ul>" +
                     "".join(f"<li>{f}</li>" for f in findings) + "</ul>"
                     f"<p class='sub'>≈ {CLAIMED_SPEEDUP:g}×: equivalent to the claim within "
                     f"±{EQUIVALENCE_MARGIN:.0%} (TOST); ≠ {CLAIMED_SPEEDUP:g}×: significantly "
                     "different from it (t-test, Holm-adjusted); intervals are 95 % confidence "
                     "intervals. Every number is explained in its section below.</p></div>")
    parts.append(f"<nav><b>Contents</b><ol>{toc}</ol></nav>")
    for s in sections:
        parts.append(f"<section id='{s.key}'><h2>{_esc(s.title)}</h2>")
        for block in s.blocks:
            if isinstance(block, _Figure):
                parts.append(_figure_html(block, out))
            elif isinstance(block, _Table):
                parts.append(_md_table_html(block, out))
            else:
                parts.append(block)
        if s.warnings:
            parts.append("<div class='warn'><b>Warnings raised by this analysis</b><ul>" +
                         "".join(f"<li>{_esc(x)}</li>" for x in s.warnings) + "</ul></div>")
        parts.append("</section>")
    parts.append("<footer>" + "".join(f"<p>{n}</p>" for n in notes) + "</footer></body></html>")
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------------
# entry point


def _load(sources) -> tuple[pd.DataFrame, str]:
    import cipherlab

    if sources is None:
        return cipherlab.datasets.load(), "the bundled data (four seed documents, two host captures)"
    if isinstance(sources, (str, Path)):
        sources = [sources]
    sources = list(sources)
    if not sources:
        raise ValueError("`sources` must name at least one dump or capture folder, or be None "
                         "for the bundled data; not an empty list")
    frames = [cipherlab.ingest(s) for s in sources]
    return cipherlab.concat(frames), ", ".join(_esc(s) for s in sources)


def _run(section: Callable, df: pd.DataFrame, w: _Writer) -> _Section:
    """Run one analysis; its cipherlab warnings go onto the page (other warnings pass through)."""
    from cipherlab.errors import AnalysisError, CipherlabWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CipherlabWarning)
        try:
            sec = section(df, w)
        except AnalysisError as err:  # a subset that cannot answer: say so on the page
            name = section.__name__.strip("_")
            sec = _Section(name, name.replace("_", " ").capitalize())
            sec.say(f"This analysis could not run on these data: {_esc(err)}")
    seen = dict.fromkeys(str(m.message) for m in caught if issubclass(m.category, CipherlabWarning))
    sec.warnings += list(seen)
    for m in caught:
        if not issubclass(m.category, CipherlabWarning):
            warnings.warn_explicit(m.message, m.category, m.filename, m.lineno)
    return sec


#: The analyses, in the order of the page.
_SECTIONS: list[Callable[[pd.DataFrame, _Writer], _Section]] = [
    _overview, _aesni, _small_blocks, _machines, _tiers, _transfers, _plausibility]


def report(sources=None, *, out: str | Path = "report") -> Path:
    """Analyse dumps and captures; write figures, tables and a self-contained ``report.html``.

    Parameters
    ----------
    sources
        What to analyse: a path, glob or capture folder, or a list of them (anything
        :func:`cipherlab.ingest` reads). ``None`` (the default) analyses the bundled data
        (:func:`cipherlab.datasets.load`): the AWS AES-NI on/off table, the three-OS mailing-list
        dumps, the implementation-tier table, the OpenJDK TLS figures and the captures of two
        hosts.
    out
        The report folder (created if needed; files of an earlier report are overwritten).

    Returns
    -------
    Path
        The path of ``report.html``. Beside it: ``figures/`` (PDF, SVG, PNG of every figure),
        ``tables/`` (CSV, LaTeX, Markdown of every table) and ``data.csv`` (the tidy table).

    Notes
    -----
    The analyses: AES-NI speed-ups per mode and block size and the test of the "2x" claim
    (:func:`cipherlab.stats.speedup`, :func:`~cipherlab.stats.ratio_test`); the per-call cost of
    small blocks, GCM against CBC (:func:`~cipherlab.stats.cost_model`,
    :func:`~cipherlab.stats.crossover`, :func:`~cipherlab.stats.small_block_overhead`);
    machines and implementation tiers (:func:`~cipherlab.stats.compare`); and plausibility
    (:func:`~cipherlab.stats.lint`, :func:`~cipherlab.stats.comparable`). The
    :class:`~cipherlab.errors.CipherlabWarning` s raised along the way are not printed: the page
    lists them next to the analysis that raised them. An analysis the data cannot answer (an
    :class:`~cipherlab.errors.AnalysisError`) is reported on the page with its message instead
    of stopping the report.

    Examples
    --------
    One seed document (the whole bundled data takes ~20 s: ``cipherlab.report()``):

    >>> import tempfile, warnings, cipherlab
    >>> seed = cipherlab.datasets.path("aws-wiki-aesni-on-off.txt")
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     page = cipherlab.report(seed, out=tempfile.mkdtemp())
    >>> page.name, sorted(p.suffix for p in page.parent.glob("figures/aesni-speedup-*"))
    ('report.html', ['.pdf', '.png', '.svg'])
    >>> "equivalent to 2×" in page.read_text(encoding="utf-8")
    True
    """
    import matplotlib

    from cipherlab import plots

    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency; keep report usable without
        def tqdm(it, **_kw):
            return it

    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"`out` must be a folder that can be created and written; not {str(out)!r}"
                         f" ({err.strerror})") from err
    df, sources_text = _load(sources)
    if df.empty:
        from cipherlab.errors import AnalysisError
        raise AnalysisError(f"the sources hold no measurements to report on: {sources_text}")
    colours = plots.palette(_values(df["algorithm"]))
    w = _Writer(out, colours)
    data_csv = out / "data.csv"
    df.to_csv(data_csv, index=False)
    # No pyplot: figures are created with matplotlib.figure.Figure, so no GUI backend is touched
    # and no figure lingers in pyplot's registry.
    del matplotlib
    sections = [_run(fn, df, w) for fn in tqdm(_SECTIONS, desc="report", unit="analysis",
                                                 leave=False)]
    notes = [
        "Made with cipherlab from the tidy table in <a href='data.csv'>data.csv</a>. Figures: "
        "<code>figures/</code> (PDF and SVG with embedded TrueType fonts, PNG at "
        f"{_PNG_DPI} dpi); tables: <code>tables/</code> (CSV, LaTeX/booktabs, Markdown).",
        "Statistics by <code>cipherlab.stats</code>: ratios on the log scale with t intervals; "
        "Holm adjustment for multiple comparisons; TOST for equivalence.",
    ]
    page = out / "report.html"
    page.write_text(_page(sections, notes, out, sources_text), encoding="utf-8")
    return page
