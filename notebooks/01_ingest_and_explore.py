# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     notebook_metadata_filter: -jupytext.text_representation.jupytext_version
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 01 · Ingest and explore the bundled benchmarks
#
# **Question: what do the bundled benchmarks measure, and what do they look like as one table?**
#
# cipherlab ships the real data its analyses start from: four documents found on the web (an AWS
# wiki page with AES-NI on and off, a wiki table of implementation tiers, a 2007 mailing-list
# thread comparing three operating systems, an OpenJDK thread about slow AES-GCM) and `openssl
# speed` captures of two hosts. `cipherlab.ingest` reads each of them, whatever the OpenSSL
# version or the shape of the paste, into the same *tidy table*: one row per measured cell (one
# algorithm, one operation, one block size, in one run), with where it came from on every row.
#
# Run all cells (*Run ▸ Run All Cells*); the explorer at the end redraws on every change.

# %% tags=["parameters"]
QUICK = True  # True: the bundled data only. False: also your own captures in ./captures (notebook 04)

# %%
from pathlib import Path

import warnings

import pandas as pd
from IPython.display import Markdown, display

import cipherlab
from cipherlab import narrative, plots, stats, widgets

pd.set_option("display.max_columns", 30)
pd.set_option("display.width", 200)
# figures inline as PNG with twice the pixels (sharp on HiDPI screens), pyplot or not
# %matplotlib inline
# %config InlineBackend.figure_formats = ["retina"]

# %% [markdown]
# ## The four seeds
#
# Each seed is read as found. The OpenJDK thread is prose: `ingest` says so instead of guessing,
# and its two figures are bundled as a tidy CSV next to it (`openjdk-tls-transfer.csv`).

# %%
seeds = {}
for path in cipherlab.datasets.files("seeds/*"):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cipherlab.IngestWarning)  # lint below lists them
            seeds[path.name] = cipherlab.ingest(path)
    except cipherlab.IngestError as err:
        print(f"{path.name}: {err}")

pd.DataFrame({
    name: {
        "rows": len(t),
        "runs": len(t[["source", "run"]].drop_duplicates()),
        "machines / runs": "; ".join(t.label.dropna().astype(str).unique()[:3]),
        "tool versions": ", ".join(t.tool_version.dropna().astype(str).unique()),
        "algorithms": t.algorithm.nunique(),
        "conditions": ", ".join(cipherlab.model.condition_columns(t)),
    }
    for name, t in seeds.items()
}).T

# %% [markdown]
# ## Everything as one tidy table
#
# `cipherlab.datasets.load()` reads every bundled file (seeds and both hosts' capture folders) and
# adds a `host` condition, so machines can be told apart in any analysis.

# %%
df = cipherlab.datasets.load()
if not QUICK:
    mine = [p for p in sorted(Path("captures").glob("*")) if (p / "results.csv").exists()]
    df = cipherlab.concat([df, *(cipherlab.ingest(p) for p in mine)])
print(f"{len(df):,} rows from {df.source.nunique()} files, {df.host.nunique()} machines")

# %%
df[["source", "host", "tool", "tool_version", "timing", "algorithm", "operation", "block_bytes",
    "bytes_per_s", "ops_per_s", "line"]].sample(8, random_state=1).sort_values("source")

# %%
per_host = (df.assign(host=df.host.astype(str))
              .groupby("host")
              .agg(rows=("algorithm", "size"), files=("source", "nunique"),
                   algorithms=("algorithm", "nunique"),
                   versions=("tool_version", lambda s: ", ".join(sorted(s.dropna().astype(str).unique())))))
per_host

# %% [markdown]
# ## What the checks say
#
# `stats.lint` flags cells that cannot be right (beyond the physical limit of the hardware,
# negative, overflowed) and runs whose numbers drop suspiciously. Nothing is dropped silently.

# %%
with warnings.catch_warnings():
    warnings.simplefilter("ignore", cipherlab.CipherlabWarning)
    findings = stats.lint(df)
findings.groupby("check").size().rename("findings").to_frame() if len(findings) else findings

# %% [markdown]
# ## Explore
#
# Pick an algorithm, the machines, a condition (AES-NI on/off, implementation tier, ...), a block
# range and a metric. *per GHz* and *cycles/byte* need the machine's clock (the tier seed and the
# NetBSD thread name theirs); *ratio to baseline* divides by the chosen value of the condition.
# *Export figure* saves the current view as PDF, SVG and PNG in the paper style, with its caption
# (what was measured, n runs per point, the interval) and the tables as CSV and LaTeX.

# %%
explorer = widgets.explorer(df)
explorer

# %% [markdown]
# ## Conclusions

# %%
# quoted: single-process rows that stats.lint did not flag as impossible (see the checks above)
cbc = df[df.block_bytes.eq(8192) & df.algorithm.eq("aes-128-cbc") & df.bytes_per_s.notna()]
rates = narrative.quotable(cbc, findings)
fastest = rates.loc[rates.bytes_per_s.idxmax()]
slowest = rates.loc[rates.bytes_per_s.idxmin()]
versions = sorted(df.tool_version.dropna().astype(str).unique())
hosts = df.host.astype(str)
captured = sorted(hosts[df.source.astype(str).str.startswith("captures/")].unique())
tools = ", ".join(sorted(df.tool.dropna().astype(str).unique()))
per_check = ", ".join(f"{k}: {v}" for k, v in findings.groupby("check").size().items()) or "none"
display(Markdown(f"""
- The bundled data are **{len(df):,} measured cells** from {df.source.nunique()} files: the tables of
  {len(seeds)} seed files and the capture folders of {len(captured)} hosts ({", ".join(captured)});
  {df.host.nunique()} machines in all, measured with {tools}.
- They span **{len(versions)} tool versions** ({", ".join(versions)}), {df.algorithm.nunique()}
  algorithms and {df.operation.nunique()} operations, in one table whatever the dialect.
- AES-128-CBC at 8 KiB, one process, ranges from **{plots.format_rate(slowest.bytes_per_s)}**
  ({narrative.provenance(slowest)}) to **{plots.format_rate(fastest.bytes_per_s)}**
  ({narrative.provenance(fastest)}): a factor of {fastest.bytes_per_s / slowest.bytes_per_s:,.0f}
  ({len(cbc) - len(rates)} `-multi` or implausible row(s) left out).
- `stats.lint` raised **{len(findings)} finding(s)**
  ({per_check}):
  read them before averaging anything.
"""))
