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
# # 04 · Capture this machine and compare it with the seeds' machines
#
# **Question: how fast is this machine at the usual ciphers, and how does it compare with the
# machines in the seeds (a 2007 Pentium III, a 2014 AWS instance, a VIA and a Ryzen) and the two
# bundled hosts?**
#
# `cipherlab.capture` runs the real `openssl speed` once per algorithm, block size, ISA condition
# and repeat, in a shuffled order, and keeps everything it ran in a capture folder (raw text, tidy
# `results.csv`, host facts) as it goes: interrupt it and `resume=True` finishes the rest.

# %% tags=["parameters"]
QUICK = True  # CI: 3 algorithms x 2 sizes x 2 repeats of 1 s (~15 s). False: ~10 minutes, see below

# %%
from pathlib import Path

import warnings

import pandas as pd
from IPython.display import Markdown, display
from matplotlib.figure import Figure

import cipherlab
from cipherlab import plots, stats, widgets
from cipherlab.runners import all_on

pd.set_option("display.max_columns", 30)
pd.set_option("display.width", 200)
# figures inline as PNG with twice the pixels (sharp on HiDPI screens), pyplot or not
# %matplotlib inline
# %config InlineBackend.figure_formats = ["retina"]

if QUICK:
    ALGORITHMS = ["aes-128-gcm", "aes-128-cbc", "sha256"]
    SIZES, SECONDS, REPEATS, ISA = [16, 8192], 1, 2, ["native"]
    OUT = cipherlab.scratch("04-capture")  # removed when the kernel stops (or is killed)
else:  # thorough: six sizes, 3 s each, 6 repeats, AES-NI masked too; kept for notebooks 01/02/05
    ALGORITHMS = ["aes-128-gcm", "aes-128-cbc", "aes-256-gcm", "chacha20-poly1305", "sha256"]
    SIZES, SECONDS, REPEATS, ISA = None, 3, 6, ["native", "no-aesni"]
    OUT = Path("captures") / "this-machine"
print(f"captures go to {OUT}")

# %% [markdown]
# ## This machine

# %%
facts = cipherlab.host_info()
{k: facts[k] for k in ("host", "cpu", "clock_hz", "cores", "openssl") if k in facts}

# %% [markdown]
# ## The capture (progress bar: runs done and time left)

# %%
mine = cipherlab.capture(ALGORITHMS, sizes=SIZES, seconds=SECONDS, repeats=REPEATS, isa=ISA,
                         out=OUT, resume=True)
HOST = str(mine.host.iloc[0])
mine.groupby(["algorithm", "block_bytes"], observed=True)["bytes_per_s"].agg(["median", "min", "max", "size"])

# %%
with warnings.catch_warnings():
    warnings.simplefilter("ignore", cipherlab.CipherlabWarning)
    checks = stats.lint(mine)
checks if len(checks) else "stats.lint: no findings on this capture"

# %% [markdown]
# ## How many runs would a 5 % difference need?
#
# The runs' spread on this machine (each run's repeats averaged first: repeats inside one process
# are not runs) gives the runs per side with which `stats.compare` would find a 5 % difference
# with 80 % power, and the smallest difference the runs taken here would find. A spread from a
# few runs is itself uncertain: `runs_needed_upper` plans with its 80 % upper limit.

# %%
unmasked = mine[mine.isa.astype(str).eq("native")]  # as it runs by default, never pooled
plan = stats.runs_needed(unmasked, 0.05)
plan[["algorithm", "block_bytes", "n_runs", "spread", "runs_needed", "runs_needed_upper",
      "detectable"]]

# %% [markdown]
# ## Against the seeds' machines
#
# The bundled data hold other machines' figures for the same algorithms; at 8 KiB (where every
# source measured) they line up in one heatmap. `stats.compare` gives each machine's ratio to this
# one (one value per cell in the seeds: descriptive, not tested).

# %%
everything = cipherlab.concat([cipherlab.datasets.load(), mine])
native = everything[everything.algorithm.isin(ALGORITHMS) & everything.block_bytes.eq(8192)
                    & all_on(everything) & everything.tier.isna()  # nothing switched off
                    & everything.tool.eq("openssl") & everything.multi.isna()]  # -multi sums processes
fig = Figure(figsize=(7, 4), layout="constrained")
plots.heatmap(native, rows="host", columns="algorithm", block_bytes=8192, ax=fig.add_subplot())
fig

# %%
with warnings.catch_warnings():
    warnings.simplefilter("ignore", cipherlab.CipherlabWarning)
    versus = stats.compare(native, by="host", baseline=HOST,
                           groupby=["algorithm", "operation", "block_bytes"])
versus[["algorithm", "candidate", "ratio", "n_candidate", "n_baseline"]].sort_values(["algorithm", "ratio"])

# %% [markdown]
# ## Explore this machine with the others

# %%
widgets.explorer(everything[everything.algorithm.isin(ALGORITHMS)])

# %% [markdown]
# ## Conclusions

# %%
# the headline is this machine as it runs by default (`unmasked`, native ISA only)
gcm = unmasked[unmasked.algorithm.eq("aes-128-gcm") & unmasked.block_bytes.eq(8192)].bytes_per_s.median()
faster = versus[versus.ratio.lt(1)]
slower = versus[versus.ratio.ge(1)]
noisiest = plan.loc[plan.spread.idxmax()]
runs_text = lambda n: "more than 10,000" if pd.isna(n) else f"{int(n):,}"  # noqa: E731
worst = versus.loc[versus.ratio.idxmin()]
best = versus.loc[versus.ratio.idxmax()]
display(Markdown(f"""
- This machine (**{facts.get("cpu", HOST)}**, OpenSSL {mine.tool_version.iloc[0]}) encrypts
  AES-128-GCM at **{plots.format_rate(gcm)}** with 8 KiB blocks, with every ISA feature it has
  (`native`; median of {REPEATS} repeat(s), {SECONDS} s each).
- Of {len(versus)} machine × algorithm comparisons at 8 KiB, this machine is faster in
  **{len(faster)}** and slower in {len(slower)}.
- The slowest: {worst.candidate} reaches {worst.ratio:.3f}× this machine's {worst.algorithm}
  rate ({1 / worst.ratio:,.0f} times slower); the fastest: {best.candidate} at {best.ratio:.2f}×
  this machine's {best.algorithm} rate.
- Run to run, the noisiest cell ({noisiest.algorithm} at {noisiest.block_bytes} B) spreads by
  {noisiest.spread:.1f} %: a 5 % difference there needs {runs_text(noisiest.runs_needed)} runs
  per side ({runs_text(noisiest.runs_needed_upper)} if the spread is as large as its 80 % upper
  limit); the {REPEATS} run(s) taken find {noisiest.detectable:.0%} there.
- These figures come from {"a quick capture (QUICK = True)" if QUICK else "a thorough capture"};
  the seeds are single pasted values, so the ratios are descriptive: capture with repeats on
  both machines for intervals and tests (notebook 02).
"""))
