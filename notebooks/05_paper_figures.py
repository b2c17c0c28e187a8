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
# # 05 · Every figure and table for the paper
#
# **Question: how do I get the report's figures and tables in a form a journal accepts, and
# reproducibly?**
#
# `cipherlab.report` runs every analysis of the report and writes each figure as PDF, SVG and PNG
# in the paper style (`plots.paper()`: column width, 8 pt DejaVu Sans, TrueType fonts embedded,
# no timestamps, so the same data give the same bytes) and each table as CSV, LaTeX (booktabs) and
# Markdown. The second half shows how to make one figure of your own in the same style.

# %% tags=["parameters"]
QUICK = True  # True: the bundled data only. False: also your own captures in ./captures (notebook 04)
OUT = "paper"  # the folder the figures and tables go to (relative to this notebook)

# %%
from pathlib import Path

import warnings

import pandas as pd
from IPython.display import Markdown, display
from matplotlib.figure import Figure

import cipherlab
from cipherlab import plots, stats

pd.set_option("display.max_columns", 30)
pd.set_option("display.width", 200)
# figures inline as PNG with twice the pixels (sharp on HiDPI screens), pyplot or not
# %matplotlib inline
# %config InlineBackend.figure_formats = ["retina"]

from IPython.display import Image

# %% [markdown]
# ## Regenerate everything

# %%
mine = [p for p in sorted(Path("captures").glob("*")) if (p / "results.csv").exists()]
sources = None if QUICK or not mine else [*cipherlab.datasets.data_files(), *mine]
with warnings.catch_warnings():
    warnings.simplefilter("ignore", cipherlab.CipherlabWarning)  # listed in report.html
    page = cipherlab.report(sources, out=OUT)
figures = sorted(Path(OUT, "figures").glob("*"))
tables = sorted(Path(OUT, "tables").glob("*"))
files = pd.DataFrame({"file": [p.name for p in figures + tables],
                      "kind": [p.parent.name for p in figures + tables],
                      "format": [p.suffix[1:] for p in figures + tables],
                      "kB": [round(p.stat().st_size / 1e3, 1) for p in figures + tables]})
files.pivot_table(index="kind", columns="format", values="file", aggfunc="count", fill_value=0)

# %%
pdfs = {p.name: p.read_bytes() for p in figures if p.suffix == ".pdf"}
pdf_fonts = {name: (b"/FontFile2" in pdf, b"/FontFile3" in pdf or b"/Type3" in pdf)
             for name, pdf in pdfs.items()}
files[files.kind.eq("figures") & files.format.eq("pdf")]

# %% [markdown]
# ### One of them

# %%
png = [p for p in figures if p.suffix == ".png"]
Image(filename=str(png[0]), width=520) if png else "no figure written"

# %% [markdown]
# ### A LaTeX table (booktabs; `\\usepackage{booktabs}` in the preamble)

# %%
tex = [p for p in tables if p.suffix == ".tex"]
print(tex[0].read_text() if tex else "no table written")

# %% [markdown]
# ## A figure of your own in the same style
#
# `plots.paper("single" | "double")` scopes the style to a `with` block; `cipherlab.save_figure`
# writes the formats. Saving twice gives the same bytes: a figure in a paper's repository changes
# only when its data do.

# %%
aws = cipherlab.datasets.load("aws-wiki-aesni-on-off.txt")
result = stats.ratio_test(aws, by="aesni", baseline="off", candidate="on", expected=2.0)

saved = []
for folder in ("custom", "custom-again"):  # the same data drawn twice from scratch
    with plots.paper("single"):
        fig = Figure(layout="constrained")
        plots.speedup(result, expected=2.0, ax=fig.add_subplot())
        saved.append(cipherlab.save_figure(fig, Path(OUT, folder, "aesni_ratio_test")))
first, again = saved
same = [a.read_bytes() == b.read_bytes() for a, b in zip(first, again)]
print(stats.to_latex(result, ["algorithm", "ratio", "p_equivalence", "equivalent"],
                     caption="AES-NI on/off, AWS r3.xlarge: ratio test against 2x",
                     label="tab:aesni-2x"))
fig

# %% [markdown]
# ## Conclusions

# %%
counts = files.groupby(["kind", "format"]).size()
n_fig = files[files.kind.eq("figures")].file.str.rsplit(".", n=1).str[0].nunique()
n_tab = files[files.kind.eq("tables")].file.str.rsplit(".", n=1).str[0].nunique()
embedded = sum(ok for ok, _ in pdf_fonts.values())
display(Markdown(f"""
- `cipherlab.report` regenerated **{n_fig} figures** ({counts.get(("figures", "pdf"), 0)} PDF,
  {counts.get(("figures", "svg"), 0)} SVG, {counts.get(("figures", "png"), 0)} PNG) and
  **{n_tab} tables** ({counts.get(("tables", "tex"), 0)} LaTeX) in `{OUT}/`, with the page
  `{page}`.
- {embedded} of {len(pdf_fonts)} PDFs embed TrueType fonts (`/FontFile2`);
  {sum(t3 for _, t3 in pdf_fonts.values())} use Type 3 or CFF fonts.
- The custom figure, drawn and saved twice from the same data, is byte-for-byte identical in
  **{sum(same)} of {len(same)}** formats
  ({", ".join(f"{p.suffix[1:]}: {'same' if ok else 'differs'}" for p, ok in zip(first, same))}).
"""))
