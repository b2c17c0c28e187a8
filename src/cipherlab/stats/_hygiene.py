"""Measurement hygiene of the values behind a result: median, spread, warm-up, outliers, bimodal.

Why this module exists: a geometric mean hides how its values behave. A first repeat that is
slower than the rest (caches, frequency ramp-up: a warm-up), a value far from the others (an
outlier) and two clusters of values (a bimodal cell: another core, another frequency, a noisy
neighbour) each say the cell needs a look before its ratio is believed. The rules, on log
throughput (so deviations are relative), with the robust scale ``1.4826 x MAD``:

- warm-up: in a run of >= 3 repeats, the first repeat is more than ``max(5 x scale, 3 %)`` away
  from the median of the later ones;
- outlier: a value with modified z-score (Iglewicz & Hoaglin 1993) above 3.5 and more than 2 %
  from the median, in a side of >= 5 values;
- bimodal: >= 6 values whose largest gap exceeds both 3 % and 4 x the pooled standard deviation
  of the two parts it separates (each holding >= 2 values).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.stats._tests import values_matrix

_MAD = 1.4826


def _median(mat, counts):
    """Row medians of a NaN-padded matrix whose rows hold ``counts`` values (sort-based: fast)."""
    s = np.sort(mat, axis=1)  # NaN last
    rows = np.arange(len(s))
    lo, hi = np.maximum(counts - 1, 0) // 2, np.maximum(counts, 1) // 2
    with np.errstate(invalid="ignore"):
        return np.where(counts > 0, (s[rows, lo] + s[rows, np.minimum(hi, s.shape[1] - 1)]) / 2,
                        np.nan)


def _robust(mat, counts):
    """Row median and robust scale (1.4826 x MAD)."""
    med = _median(mat, counts)
    return med, _MAD * _median(np.abs(mat - med[:, None]), counts)


def _warmups(frame, gid, n_groups):
    """Per group: the number of runs whose first repeat is a warm-up outlier."""
    if "_rep" not in frame.columns or frame["_rep"].isna().all():
        return np.zeros(n_groups, dtype=int)
    unit = frame["_unit"].to_numpy().astype(np.int64)
    pair = gid.astype(np.int64) * (int(unit.max()) + 1) + unit
    _, inverse, size = np.unique(pair, return_inverse=True, return_counts=True)
    keep = size[inverse] >= 3  # runs of >= 3 repeats only
    if not keep.any():
        return np.zeros(n_groups, dtype=int)
    order = np.lexsort((frame["_rep"].to_numpy(float)[keep], pair[keep]))
    pid = np.unique(pair[keep][order], return_inverse=True)[1]
    mat, counts = values_matrix(pid, frame["_y"].to_numpy(float)[keep][order], int(pid.max()) + 1)
    med, mad = _robust(mat[:, 1:], counts - 1)
    with np.errstate(invalid="ignore"):
        bad = np.abs(mat[:, 0] - med) > np.maximum(5 * mad, np.log(1.03))
    owner = np.empty(len(counts), dtype=np.int64)
    owner[pid] = gid[keep][order]
    return np.bincount(owner, weights=bad.astype(float), minlength=n_groups).astype(int)


def _bimodal(mat, counts):
    s = np.sort(mat, axis=1)  # NaN last
    n = s.shape[1]
    gaps = np.diff(s, axis=1) if n > 1 else np.zeros((len(s), 0))
    out = np.zeros(len(s), dtype=bool)
    if gaps.shape[1] == 0:
        return out
    pos = np.arange(gaps.shape[1])[None, :]
    valid = (pos >= 1) & (pos <= counts[:, None] - 3)  # both parts hold >= 2 values
    g = np.where(valid & ~np.isnan(gaps), gaps, -np.inf)
    at = np.argmax(g, axis=1)
    gap = g[np.arange(len(s)), at]
    col = np.arange(n)[None, :]
    left = col <= at[:, None]
    right = (col > at[:, None]) & (col < counts[:, None])
    with np.errstate(all="ignore"):
        def part(mask):
            k = mask.sum(axis=1)
            m = np.where(mask, s, 0).sum(axis=1) / k
            ss = np.where(mask, (s - m[:, None]) ** 2, 0).sum(axis=1)
            return ss, k
        ssl, kl = part(left)
        ssr, kr = part(right)
        sd = np.sqrt((ssl + ssr) / np.maximum(kl + kr - 2, 1))
        out = (counts >= 6) & np.isfinite(gap) & (gap > np.log(1.03)) & (gap > 4 * sd)
    return out


def hygiene(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per ``keys`` group of ``frame`` (columns ``_y`` log values, ``_unit``, optional ``_rep``):
    ``median`` (of the values), ``spread`` (robust CV in %, NaN below 3 values) and ``flags``.
    """
    grouped = frame.groupby(keys, observed=True, dropna=False, sort=False)
    gid = grouped.ngroup().to_numpy()
    n_groups = int(gid.max()) + 1 if gid.size else 0
    mat, counts = values_matrix(gid, frame["_y"].to_numpy(float), n_groups)
    med, mad = _robust(mat, counts)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.abs(mat - med[:, None]) / mad[:, None]
        far = (z > 3.5) & (np.abs(mat - med[:, None]) > np.log(1.02))
    outliers = np.where(counts >= 5, np.nansum(far, axis=1), 0).astype(int)
    warm = _warmups(frame, gid, n_groups)
    bimodal = _bimodal(mat, counts)
    flags = []
    for w, o, b in zip(warm.tolist(), outliers.tolist(), bimodal.tolist()):
        parts = ([f"warm-up ({w} run{'s' * (w > 1)})"] if w else []) + (
            [f"{o} outlier{'s' * (o > 1)}"] if o else []) + (["bimodal"] if b else [])
        flags.append("; ".join(parts))
    out = grouped.size().reset_index()[keys] if keys else pd.DataFrame(index=[0])
    out["median"] = np.exp(med)
    out["spread"] = np.where(counts >= 3, 100 * np.expm1(mad), np.nan)
    out["flags"] = flags
    return out
