"""Two-sample tests and intervals on padded matrices of unit values, vectorised over cells.

Why this module exists: a grid has thousands of cells but only a few shapes (n per side), so
every test runs once per shape on a (cells x n) matrix. All of them work on the log throughput
of the units (runs), so a difference of means is the log of the ratio of geometric means; the
``ratio`` a result reports is that estimand whatever the test (the tests differ only in p-value
and interval).

- Welch's t (Welch 1947) and the one-sample t for paired differences;
- the exact permutation test of the difference of means (all C(n1+n2, n1) splits up to
  ``EXACT_LIMIT``, else ``n_perm`` random ones; Good 2005, *Permutation, Parametric and
  Bootstrap Tests of Hypotheses*, ch. 3) and the sign-flip test for paired differences;
- Mann-Whitney U (scipy) with the Hodges-Lehmann order-statistic interval;
- Brunner-Munzel (scipy; Brunner & Munzel 2000, *Biom. J.* 42:17-25) for unequal spread;
- BCa bootstrap intervals (scipy.stats.bootstrap; Efron 1987, *JASA* 82:171-185).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
from scipy import stats as _st

#: Below this many splits the permutation test enumerates every one (exact p).
EXACT_LIMIT = 20_000


def values_matrix(group_id: np.ndarray, y: np.ndarray, n_groups: int):
    """Put values in a (n_groups x max_n) matrix, rows padded with NaN; return it and the counts."""
    counts = np.bincount(group_id, minlength=n_groups)
    width = int(counts.max()) if counts.size else 0
    order = np.argsort(group_id, kind="stable")
    gid = group_id[order]
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    pos = np.arange(gid.size) - starts[gid]
    mat = np.full((n_groups, max(width, 1)), np.nan)
    mat[gid, pos] = y[order]
    return mat, counts


def by_shape(nc, nb):
    """Indices of cells grouped by their (n_candidate, n_baseline) shape."""
    shapes = pd.DataFrame({"nc": nc, "nb": nb}).groupby(["nc", "nb"]).indices
    return [(int(a), int(b), idx) for (a, b), idx in shapes.items()]


def welch(m_c, v_c, n_c, m_b, v_b, n_b):
    """Welch's unequal-variance t on the difference of means: (diff, se, dof)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        a, b = v_c / n_c, v_b / n_b
        se = np.sqrt(a + b)
        dof = (a + b) ** 2 / (a ** 2 / (n_c - 1) + b ** 2 / (n_b - 1))
    return m_c - m_b, se, dof


def t_test(diff, se, dof, null=0.0):
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (diff - null) / se
    return t, 2 * _st.t.sf(np.abs(t), dof)


def t_interval(diff, se, dof, alpha):
    q = _st.t.ppf(1 - alpha / 2, dof)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(diff - q * se), np.exp(diff + q * se)


def _splits(n: int, a: int, n_perm: int, rng) -> tuple[np.ndarray, bool]:
    """0/1 matrix (splits x n) of the units given to the first group; True when exhaustive."""
    total = math.comb(n, a)
    if total <= EXACT_LIMIT:
        idx = np.array(list(itertools.combinations(range(n), a)))
        exact = True
    else:
        idx = np.argsort(rng.random((n_perm, n)), axis=1)[:, :a]
        exact = False
    m = np.zeros((len(idx), n))
    np.put_along_axis(m, idx, 1.0, axis=1)
    return m, exact


def _chunks(rows: int, width: int, budget: int = 4_000_000):
    step = max(1, budget // max(width, 1))
    return range(0, rows, step), step


def permutation(xc, nc, xb, nb, n_perm, seed):
    """Two-sided permutation test of the difference of means per cell: (statistic, p, min_p)."""
    k = len(nc)
    stat, p, min_p = np.full(k, np.nan), np.full(k, np.nan), np.full(k, np.nan)
    rng = np.random.default_rng(seed)
    for a, b, idx in by_shape(nc, nb):
        if a < 1 or b < 1 or a + b < 3:
            continue
        z = np.concatenate([xc[idx, :a], xb[idx, :b]], axis=1)
        m, exact = _splits(a + b, a, n_perm, rng)
        total = z.sum(axis=1, keepdims=True)
        obs = z[:, :a].mean(axis=1) - z[:, a:].mean(axis=1)
        starts, step = _chunks(len(idx), len(m))
        count = np.empty(len(idx))
        for lo in starts:
            s = z[lo:lo + step] @ m.T
            diff = s / a - (total[lo:lo + step] - s) / b
            tol = 1e-9 * (np.abs(obs[lo:lo + step]) + 1e-12)
            count[lo:lo + step] = (np.abs(diff) >= np.abs(obs[lo:lo + step, None]) - tol[:, None]
                                   ).sum(axis=1)
        stat[idx] = obs
        p[idx] = count / len(m) if exact else (count + 1) / (len(m) + 1)
        min_p[idx] = (2.0 if a == b else 1.0) / math.comb(a + b, a) if exact else 1 / (n_perm + 1)
    return stat, p, min_p


def sign_flip(d, n, n_perm, seed):
    """Two-sided sign-flip test of mean paired difference = 0: (statistic, p, min_p)."""
    k = len(n)
    stat, p, min_p = np.full(k, np.nan), np.full(k, np.nan), np.full(k, np.nan)
    rng = np.random.default_rng(seed)
    for a, _, idx in by_shape(n, n):
        if a < 2:
            continue
        x = d[idx, :a]
        exact = 2 ** a <= EXACT_LIMIT
        signs = (np.array(list(itertools.product((1.0, -1.0), repeat=a))) if exact
                 else rng.choice((1.0, -1.0), size=(n_perm, a)))
        obs = x.mean(axis=1)
        flipped = np.abs(x @ signs.T / a)
        tol = 1e-9 * (np.abs(obs) + 1e-12)
        count = (flipped >= np.abs(obs)[:, None] - tol[:, None]).sum(axis=1)
        stat[idx], min_p[idx] = obs, 2 / len(signs) if exact else 1 / (n_perm + 1)
        p[idx] = count / len(signs) if exact else (count + 1) / (len(signs) + 1)
    return stat, p, min_p


def mannwhitney(xc, nc, xb, nb, alpha):
    """Mann-Whitney U per cell, the Hodges-Lehmann interval of the shift: (U, p, min_p, lo, hi)."""
    k = len(nc)
    stat, p, min_p, lo, hi = (np.full(k, np.nan) for _ in range(5))
    z = _st.norm.ppf(1 - alpha / 2)
    for a, b, idx in by_shape(nc, nb):
        if a < 1 or b < 1:
            continue
        x, y = xc[idx, :a], xb[idx, :b]
        res = _st.mannwhitneyu(x, y, alternative="two-sided", axis=1)
        stat[idx], p[idx] = res.statistic, res.pvalue
        min_p[idx] = min(1.0, 2 / math.comb(a + b, a))
        diffs = np.sort((x[:, :, None] - y[:, None, :]).reshape(len(idx), a * b), axis=1)
        # Order-statistic interval (Hollander, Wolfe & Chicken 2014, §4.3, normal approximation
        # to the null distribution of U): the C-th smallest and largest pairwise differences.
        c = int(np.floor(a * b / 2 - z * np.sqrt(a * b * (a + b + 1) / 12)))
        if c >= 1:
            lo[idx], hi[idx] = diffs[:, c - 1], diffs[:, a * b - c]
    return stat, p, min_p, np.exp(lo), np.exp(hi)


def wilcoxon(d, n, alpha):
    """Wilcoxon signed-rank per group of paired log ratios, Tukey's Walsh-average interval."""
    k = len(n)
    stat, p, min_p, lo, hi = (np.full(k, np.nan) for _ in range(5))
    z = _st.norm.ppf(1 - alpha / 2)
    for a, _, idx in by_shape(n, n):
        if a < 2:
            continue
        x = d[idx, :a]
        res = _st.wilcoxon(x, axis=1, alternative="two-sided")
        stat[idx], p[idx], min_p[idx] = res.statistic, res.pvalue, 2 / 2 ** a
        i, j = np.triu_indices(a)
        walsh = np.sort((x[:, i] + x[:, j]) / 2, axis=1)
        m = walsh.shape[1]
        c = int(np.floor(a * (a + 1) / 4 - z * np.sqrt(a * (a + 1) * (2 * a + 1) / 24)))
        if c >= 1:
            lo[idx], hi[idx] = walsh[:, c - 1], walsh[:, m - c]
    return stat, p, min_p, np.exp(lo), np.exp(hi)


def brunnermunzel(xc, nc, xb, nb):
    """Brunner-Munzel test per cell (t approximation): (statistic, p)."""
    k = len(nc)
    stat, p = np.full(k, np.nan), np.full(k, np.nan)
    for a, b, idx in by_shape(nc, nb):
        if a < 2 or b < 2:
            continue
        with np.errstate(divide="ignore", invalid="ignore"):
            res = _st.brunnermunzel(xc[idx, :a], xb[idx, :b], axis=1)
        stat[idx], p[idx] = res.statistic, res.pvalue
    return stat, p


def bca(xc, nc, xb, nb, alpha, n_boot, seed, paired=False):
    """BCa bootstrap interval of the difference of means (or mean of paired differences)."""
    k = len(nc)
    lo, hi = np.full(k, np.nan), np.full(k, np.nan)
    rng = np.random.default_rng(seed)
    for a, b, idx in by_shape(nc, nb):
        if a < 2 or (not paired and b < 2):
            continue
        if paired:
            data = (xc[idx, :a],)

            def statistic(x, axis=-1):
                return np.mean(x, axis=axis)
        else:
            data = (xc[idx, :a], xb[idx, :b])

            def statistic(x, y, axis=-1):
                return np.mean(x, axis=axis) - np.mean(y, axis=axis)
        with np.errstate(all="ignore"):
            res = _st.bootstrap(data, statistic, n_resamples=n_boot, confidence_level=1 - alpha,
                                method="BCa", axis=-1, vectorized=True, rng=rng)
        lo[idx], hi[idx] = res.confidence_interval.low, res.confidence_interval.high
    return np.exp(lo), np.exp(hi)
