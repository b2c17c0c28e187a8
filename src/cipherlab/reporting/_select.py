"""Subset selection shared by the sections: which rows can be paired and compared."""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from cipherlab.reporting._words import unique_values


def has_pair(sub: pd.DataFrame, by: str, levels: Sequence[str]) -> bool:
    if by not in sub.columns:
        return False
    both = sub[sub[by].isin(levels)].groupby("algorithm", observed=True)[by].nunique()
    return bool((both >= len(levels)).any())


def pair_keys(sub: pd.DataFrame) -> list[str]:
    """Fit keys that pair two algorithms of one source: conditions, not run numbers or labels.

    openssl prints one table per invocation, so ``-evp aes-128-gcm`` and ``-evp aes-128-cbc`` are
    separate runs (often with their own labels) of the same experiment; the source and its
    conditions (``aesni``, ``host``, ...) say which rows belong together.
    """
    from cipherlab.model import condition_columns

    conds = [c for c in condition_columns(sub) if c not in ("repeat", "note", "child")
             and sub[c].notna().any()]
    return ["algorithm", "operation", "source", *conds]


def common_size(sub: pd.DataFrame, preferred: int = 8192):
    sizes = sorted(int(x) for x in sub["block_bytes"].dropna().unique())
    if not sizes:
        return None
    return preferred if preferred in sizes else sizes[-1]


def complete_algorithms(sub: pd.DataFrame, rows: str, size) -> list[str]:
    """Algorithms measured (with a rate) for every level of ``rows`` at ``size``."""
    at = sub[sub["block_bytes"] == size]
    per = at.groupby("algorithm", observed=True)[rows].nunique()
    n = at[rows].nunique()
    return [a for a in unique_values(at["algorithm"]) if per.get(a, 0) == n]
