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
# # cipherlab · explore the bundled benchmarks
#
# Four seed documents and two hosts' `openssl speed` and `cryptography` captures, as one tidy
# table. **Throughput**: any algorithm by block size, machine and condition. **AES-NI speed-up**:
# the ratio with AES-NI on and off, tested against a claimed ratio (move the slider).
# **GCM against CBC**: the per-call cost, where one overtakes the other. *Export figure* writes the
# current view as PDF, SVG and PNG with its caption (what was measured, how many runs per point,
# the interval) and the tables as CSV and LaTeX, and links them below the button.
#
# Served by Voila (`make dashboard`): the code of this notebook (`notebooks/dashboard/explorers.py`)
# is not shown.

# %%
import warnings

import ipywidgets

import cipherlab
from cipherlab import widgets

with warnings.catch_warnings():
    warnings.simplefilter("ignore", cipherlab.CipherlabWarning)  # each explorer lists its own
    df = cipherlab.datasets.load()
views = {
    "Throughput": widgets.explorer(df),
    "AES-NI speed-up": widgets.speedup_explorer(df[df.aesni.notna()], by="aesni"),
    "GCM against CBC": widgets.overhead_explorer(df[df.tool.eq("openssl")]),
}
ipywidgets.Tab(list(views.values()), titles=list(views))
