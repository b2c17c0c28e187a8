"""The report's first section: what data it reads."""

from __future__ import annotations

import pandas as pd

from cipherlab.model import summary
from cipherlab.reporting._blocks import Section, Writer
from cipherlab.reporting._words import esc, unique_values


def overview(df: pd.DataFrame, w: Writer) -> Section:
    sec = Section("data", "The data")
    rates = df[df["bytes_per_s"].notna()]
    table = summary(df).reset_index()
    sizes = sorted(int(s) for s in rates["block_bytes"].dropna().unique())
    sec.say(f"The analysis reads <b>{len(df):,}</b> measured cells from <b>{df['source'].nunique()}"
            f"</b> sources ({esc(', '.join(unique_values(df['tool'])))}); "
            f"{len(rates):,} cells carry a throughput, at {len(sizes)} block sizes from "
            f"{sizes[0] if sizes else '–'} to {sizes[-1] if sizes else '–'} bytes. "
            "Every cell keeps its source file and line, so each number below can be traced back "
            "to the text it came from (<code>data.csv</code> in this folder).")
    sec.blocks.append(w.table("sources", table, "Sources analysed: runs, cells, algorithms, tools."))
    return sec
