"""Ratios between conditions with an interval and a test: ``compare``, ``speedup``, ``ratio_test``.

Why this module exists: "AES-NI makes it about 2x faster" is a claim about a ratio of
throughputs. The honest answer gives the ratio, its confidence interval and a test together, in
every cell of the grid, with the p-values adjusted for the number of cells tested. Throughput is
analysed on the log scale, where a ratio is a difference of means and multiplicative noise is
additive; the ratio reported is ``exp(mean log candidate - mean log baseline)``, i.e. the ratio of
geometric means.

A pasted ``openssl speed`` dump has one value per cell: no per-cell test exists then, and the
functions say so (``test == "single value"``) instead of pretending. The paired analysis tests
the log ratios *across* cells (block sizes by default), treating each block size as one pair.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd
from scipy import stats as _st

from cipherlab.errors import AnalysisError, CipherlabWarning
from cipherlab.stats._adjust import adjust_p
from cipherlab.stats._common import (
    CELL_KEYS, as_list, check_alpha, check_one_of, clean_metric, key_values, require_columns,
    tidy_keys, warn)

__all__ = ["compare", "ratio_test", "speedup"]

_TESTS = ("welch", "mannwhitney", "bootstrap")
_PAIRED_NAMES = {"welch": "paired t", "mannwhitney": "wilcoxon", "bootstrap": "paired bootstrap"}
SINGLE = "single value"

COMPARE_COLUMNS = ("candidate", "baseline", "ratio", "ci_low", "ci_high", "statistic", "p_value",
                   "p_adjusted", "test", "n_candidate", "n_baseline", "significant")
RATIO_TEST_COLUMNS = ("candidate", "baseline", "ratio", "ci_low", "ci_high", "expected", "margin",
                      "statistic", "p_value", "p_adjusted", "p_equivalence", "equivalent",
                      "differs", "n", "n_candidate", "n_baseline", "test")


# ---------------------------------------------------------------------------------------------
# preparing the two sides


def _sides(df, by, baseline, candidate, metric, what):
    """Validated rows of the compared levels, with ``_y`` = log metric and ``_side`` = level."""
    require_columns(df, [by, metric], what=what)
    levels = df[by].astype("object")
    present = pd.unique(levels.dropna())
    if baseline not in set(present):
        raise AnalysisError(f"{what}: `baseline` must be a value of column {by!r} "
                            f"({', '.join(map(repr, sorted(present, key=str)))}); not {baseline!r}.")
    if candidate is None:
        candidates = [v for v in sorted(present, key=str) if v != baseline]
    else:
        candidates = (list(candidate) if isinstance(candidate, (list, tuple, set, np.ndarray,
                                                                 pd.Index, pd.Series))
                      else [candidate])
        unknown = [c for c in candidates if c not in set(present)]
        if unknown:
            raise AnalysisError(f"{what}: `candidate` must be value(s) of column {by!r} "
                                f"({', '.join(map(repr, sorted(present, key=str)))}); not {unknown}.")
        if baseline in candidates:
            raise AnalysisError(f"{what}: `candidate` and `baseline` must differ; both are "
                                f"{baseline!r}.")
    if not candidates:
        raise AnalysisError(f"{what}: column {by!r} has no value other than the baseline "
                            f"{baseline!r} to compare with.")
    rows = df.loc[levels.isin([baseline, *candidates]).to_numpy()]
    rows = clean_metric(rows, metric, what=what)
    return rows, candidates


def _keys(df, groupby, by):
    if groupby is None:
        keys = [k for k in CELL_KEYS if k in df.columns]
    else:
        keys = as_list(groupby)
        require_columns(df, keys, what="`groupby`")
    if by in keys:
        raise AnalysisError(f"`groupby` must not contain the compared column `by`={by!r}; "
                            f"it is {keys}.")
    return keys


def _frame(rows, keys, by):
    """Plain columns: decoded keys, ``_side`` (the level of ``by``) and ``_y`` (log metric)."""
    out = key_values(rows, keys)
    out["_side"] = rows[by].astype("object").to_numpy()
    return out


def _summaries(frame, keys, baseline, candidates):
    """Per cell and side: n, mean and variance of the log metric, baseline joined to candidates."""
    g = frame.groupby([*keys, "_side"], observed=True, dropna=False, sort=False)["_y"]
    s = g.agg(["count", "mean", "var"]).reset_index()
    base = s[s["_side"] == baseline].drop(columns="_side")
    base.columns = [*keys, "n_b", "m_b", "v_b"]
    cand = s[s["_side"].isin(candidates)].rename(
        columns={"_side": "candidate", "count": "n_c", "mean": "m_c", "var": "v_c"})
    merged = cand.merge(base, on=keys, how="inner") if keys else cand.merge(base, how="cross")
    merged["baseline"] = baseline
    order = {c: i for i, c in enumerate(candidates)}
    merged["_corder"] = merged["candidate"].map(order)
    return merged.sort_values(["_corder", *keys], kind="stable").drop(columns="_corder").reset_index(
        drop=True)


def _welch(m_c, v_c, n_c, m_b, v_b, n_b):
    """Welch's unequal-variance t on the difference of means: (diff, se, dof)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        a, b = v_c / n_c, v_b / n_b
        se = np.sqrt(a + b)
        dof = (a + b) ** 2 / (a ** 2 / (n_c - 1) + b ** 2 / (n_b - 1))
    return m_c - m_b, se, dof


def _t_test(diff, se, dof, null=0.0):
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (diff - null) / se
    p = 2 * _st.t.sf(np.abs(t), dof)
    return t, p


def _t_interval(diff, se, dof, alpha):
    q = _st.t.ppf(1 - alpha / 2, dof)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(diff - q * se), np.exp(diff + q * se)


def _values_matrix(cell_id, y, n_cells):
    """Put values in a (n_cells x max_n) matrix, rows padded with NaN; return it and the counts."""
    counts = np.bincount(cell_id, minlength=n_cells)
    width = int(counts.max()) if counts.size else 0
    order = np.argsort(cell_id, kind="stable")
    cid = cell_id[order]
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    pos = np.arange(cid.size) - starts[cid]
    mat = np.full((n_cells, max(width, 1)), np.nan)
    mat[cid, pos] = y[order]
    return mat, counts


def _raw_pairs(frame, keys, cells, candidates, baseline):
    """For each summary row: candidate values and baseline values as padded matrices."""
    cells = cells.reset_index(drop=True)
    cell_index = cells[[*keys, "candidate"]].copy()
    cell_index["_cell"] = np.arange(len(cells))
    cand = frame[frame["_side"].isin(candidates)].rename(columns={"_side": "candidate"})
    cand = cand.merge(cell_index, on=[*keys, "candidate"], how="inner")
    base = frame[frame["_side"] == baseline].drop(columns="_side")
    base = base.merge(cell_index, on=keys, how="inner") if keys else base.merge(cell_index,
                                                                                   how="cross")
    xc, nc = _values_matrix(cand["_cell"].to_numpy(), cand["_y"].to_numpy(float), len(cells))
    xb, nb = _values_matrix(base["_cell"].to_numpy(), base["_y"].to_numpy(float), len(cells))
    return xc, nc, xb, nb


def _by_shape(nc, nb):
    """Indices of cells grouped by their (n_candidate, n_baseline) shape, for vectorised scipy."""
    shapes = pd.DataFrame({"nc": nc, "nb": nb}).groupby(["nc", "nb"]).indices
    return [(int(a), int(b), idx) for (a, b), idx in shapes.items()]


def _mannwhitney(xc, nc, xb, nb, alpha):
    """Mann-Whitney U per cell, with the Hodges-Lehmann shift of the logs and its interval."""
    k = len(nc)
    stat, p, est, lo, hi = (np.full(k, np.nan) for _ in range(5))
    z = _st.norm.ppf(1 - alpha / 2)
    for a, b, idx in _by_shape(nc, nb):
        if a < 1 or b < 1:
            continue
        x, y = xc[idx, :a], xb[idx, :b]
        res = _st.mannwhitneyu(x, y, alternative="two-sided", axis=1)
        stat[idx], p[idx] = res.statistic, res.pvalue
        diffs = np.sort((x[:, :, None] - y[:, None, :]).reshape(len(idx), a * b), axis=1)
        est[idx] = np.median(diffs, axis=1)
        # Order-statistic interval for the shift (Hollander, Wolfe & Chicken 2014, §4.3, normal
        # approximation to the null distribution of U): the C-th smallest and largest differences.
        c = int(np.floor(a * b / 2 - z * np.sqrt(a * b * (a + b + 1) / 12)))
        if c >= 1:
            lo[idx], hi[idx] = diffs[:, c - 1], diffs[:, a * b - c]
    return stat, p, np.exp(est), np.exp(lo), np.exp(hi)


def _bootstrap(xc, nc, xb, nb, alpha, n_boot, seed, paired=False):
    """Percentile bootstrap (scipy.stats.bootstrap) of the difference of mean logs per cell."""
    k = len(nc)
    stat, p, lo, hi = (np.full(k, np.nan) for _ in range(4))
    rng = np.random.default_rng(seed)
    for a, b, idx in _by_shape(nc, nb):
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
        options = dict(n_resamples=n_boot, confidence_level=1 - alpha, method="percentile",
                       axis=-1, vectorized=True)
        try:
            res = _st.bootstrap(data, statistic, rng=rng, **options)
        except TypeError:  # scipy < 1.15 names the generator random_state
            res = _st.bootstrap(data, statistic, random_state=rng, **options)
        dist = np.asarray(res.bootstrap_distribution)  # cells x n_boot
        lo[idx], hi[idx] = res.confidence_interval.low, res.confidence_interval.high
        point = statistic(*data)
        sd = dist.std(axis=-1, ddof=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            stat[idx] = point / sd
        # Two-sided bootstrap p-value: twice the smaller tail of the replicates beyond 0,
        # with the (count + 1) / (B + 1) correction so it is never exactly 0 (Davison & Hinkley 1997).
        below = (dist <= 0).sum(axis=-1)
        above = (dist >= 0).sum(axis=-1)
        p[idx] = np.minimum(1.0, 2 * (np.minimum(below, above) + 1) / (n_boot + 1))
    return stat, p, np.exp(lo), np.exp(hi)


def _wilcoxon(d, n, alpha):
    """Wilcoxon signed-rank per group of log ratios, Hodges-Lehmann estimate and interval."""
    k = len(n)
    stat, p, est, lo, hi = (np.full(k, np.nan) for _ in range(5))
    z = _st.norm.ppf(1 - alpha / 2)
    for a, _, idx in _by_shape(n, n):
        if a < 2:
            continue  # one pair: nothing to test (reported as a single value)
        x = d[idx, :a]
        res = _st.wilcoxon(x, axis=1, alternative="two-sided")
        stat[idx], p[idx] = res.statistic, res.pvalue
        i, j = np.triu_indices(a)
        walsh = np.sort((x[:, i] + x[:, j]) / 2, axis=1)
        est[idx] = np.median(walsh, axis=1)
        m = walsh.shape[1]
        # Tukey's interval from the Walsh averages, normal approximation to the signed-rank
        # null distribution (Hollander, Wolfe & Chicken 2014, §3.2).
        c = int(np.floor(a * (a + 1) / 4 - z * np.sqrt(a * (a + 1) * (2 * a + 1) / 24)))
        if c >= 1:
            lo[idx], hi[idx] = walsh[:, c - 1], walsh[:, m - c]
    return stat, p, np.exp(est), np.exp(lo), np.exp(hi)


# ---------------------------------------------------------------------------------------------
# the per-cell and the paired analyses


def _per_cell(frame, keys, baseline, candidates, test, alpha, n_boot, seed):
    cells = _summaries(frame, keys, baseline, candidates)
    n_c, n_b = cells["n_c"].to_numpy(float), cells["n_b"].to_numpy(float)
    diff, se, dof = _welch(cells["m_c"].to_numpy(float), cells["v_c"].to_numpy(float), n_c,
                           cells["m_b"].to_numpy(float), cells["v_b"].to_numpy(float), n_b)
    testable = (n_c >= 2) & (n_b >= 2)
    ratio = np.exp(diff)
    if test == "welch":
        stat, p = _t_test(diff, se, dof)
        lo, hi = _t_interval(diff, se, dof, alpha)
    else:
        xc, nc, xb, nb = _raw_pairs(frame, keys, cells, candidates, baseline)
        if test == "mannwhitney":
            stat, p, ratio_hl, lo, hi = _mannwhitney(xc, nc, xb, nb, alpha)
            ratio = np.where(testable, ratio_hl, ratio)
        else:
            stat, p, lo, hi = _bootstrap(xc, nc, xb, nb, alpha, n_boot, seed)
    out = cells[[*keys, "candidate", "baseline"]].copy()
    out["ratio"] = ratio
    for name, values in (("ci_low", lo), ("ci_high", hi), ("statistic", stat), ("p_value", p)):
        out[name] = np.where(testable, values, np.nan)
    out["test"] = np.where(testable, test, SINGLE)
    out["n_candidate"], out["n_baseline"] = n_c.astype(int), n_b.astype(int)
    out["_diff"], out["_se"], out["_dof"] = diff, se, dof
    return out


def _pair_diffs(frame, keys, pair_keys, baseline, candidates):
    """Log ratio candidate/baseline per cell (geometric means over repeats), one row per pair."""
    cell_keys = [*keys, *[k for k in pair_keys if k not in keys]]
    cells = _summaries(frame, cell_keys, baseline, candidates)
    cells["_d"] = cells["m_c"] - cells["m_b"]
    return cells


def _paired(frame, keys, pair_keys, baseline, candidates, test, alpha, n_boot, seed):
    out_keys = [k for k in keys if k not in pair_keys]
    pairs = _pair_diffs(frame, keys, pair_keys, baseline, candidates)
    gcols = [*out_keys, "candidate", "baseline"]
    g = pairs.groupby(gcols, observed=True, dropna=False, sort=False)["_d"]
    s = g.agg(["count", "mean", "var", "min", "max"]).reset_index()
    n = s["count"].to_numpy(float)
    mean, var = s["mean"].to_numpy(float), s["var"].to_numpy(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.sqrt(var / n)
    dof = n - 1
    testable = n >= 2
    ratio = np.exp(mean)
    if test == "welch":
        stat, p = _t_test(mean, se, dof)
        lo, hi = _t_interval(mean, se, dof, alpha)
    else:
        gid = pairs.groupby(gcols, observed=True, dropna=False, sort=False).ngroup().to_numpy()
        d, counts = _values_matrix(gid, pairs["_d"].to_numpy(float), len(s))
        if test == "mannwhitney":
            stat, p, ratio_hl, lo, hi = _wilcoxon(d, counts, alpha)
            ratio = np.where(testable, ratio_hl, ratio)
        else:
            stat, p, lo, hi = _bootstrap(d, counts, d, counts, alpha, n_boot, seed, paired=True)
    out = s[gcols].copy()
    out["ratio"] = ratio
    for name, values in (("ci_low", lo), ("ci_high", hi), ("statistic", stat), ("p_value", p)):
        out[name] = np.where(testable, values, np.nan)
    out["test"] = np.where(testable, _PAIRED_NAMES[test], SINGLE)
    out["n_candidate"] = out["n_baseline"] = n.astype(int)
    out["paired_over"] = ", ".join(pair_keys)
    out["ratio_min"], out["ratio_max"] = np.exp(s["min"].to_numpy(float)), np.exp(
        s["max"].to_numpy(float))
    out["_diff"], out["_se"], out["_dof"] = mean, se, dof
    return out, out_keys


def _pair_keys(paired, df):
    """The columns to pair across: [] for an unpaired analysis, block_bytes for ``True``."""
    if paired is None or paired is False:
        return []
    if not isinstance(paired, (bool, str, list, tuple)):
        raise AnalysisError(f"`paired` must be False, True, a column name or a list of column "
                            f"names; not {paired!r}.")
    pk = ["block_bytes"] if paired is True else as_list(paired)
    require_columns(df, pk, what="`paired`")
    return pk


def _run(df, by, baseline, candidate, groupby, metric, test, alpha, paired, what, check):
    """Validate the arguments; return the analysis frame, cell keys, candidates, pair keys."""
    check_alpha(alpha)
    test = {"t": "welch", "paired t": "welch", "wilcoxon": "mannwhitney"}.get(test, test)
    check_one_of("test", test, _TESTS)
    pair_keys = _pair_keys(paired, df)
    rows, candidates = _sides(df, by, baseline, candidate, metric, what)
    keys = _keys(df, groupby, by)
    if check:
        from cipherlab.stats._checks import comparable, warn_implausible

        comparable(rows, by=by, groupby=[k for k in keys if k != "block_bytes"])
        if metric == "bytes_per_s":
            warn_implausible(rows, what)
    frame = _frame(rows, [*keys, *[k for k in pair_keys if k not in keys]], by)
    with np.errstate(divide="ignore"):
        frame["_y"] = np.log(pd.to_numeric(rows[metric]).to_numpy(float))
    if frame.empty:
        raise AnalysisError(f"{what}: no usable `{metric}` values for {by!r} in "
                            f"{[baseline, *candidates]}.")
    return frame, keys, candidates, test, pair_keys


def _finish(out, keys, df, adjust, alpha, what):
    out["p_adjusted"] = adjust_p(out["p_value"].to_numpy(float), adjust)
    out["significant"] = (out["p_adjusted"] < alpha).to_numpy(bool)
    return tidy_keys(out, keys, df)


def compare(df: pd.DataFrame, by: str, baseline: Any, candidate: Any = None, *,
            groupby: str | Sequence[str] | None = None, metric: str = "bytes_per_s",
            test: str = "welch", adjust: str = "holm", alpha: float = 0.05,
            paired: bool | str | Sequence[str] = False, n_boot: int = 2000, seed: int = 0,
            check: bool = True) -> pd.DataFrame:
    """Ratio candidate / baseline in every cell of the grid, with interval, test and adjusted p.

    Parameters
    ----------
    df : DataFrame
        Tidy table (``cipherlab.ingest``, ``cipherlab.capture``).
    by : str
        The column that tells the compared conditions apart (``aesni``, ``label``, ``tier``...).
    baseline : value of ``by``
        The reference level (the denominator of the ratio).
    candidate : value or list of values of ``by``, optional
        The level(s) compared with the baseline; default every other level.
    groupby : str or list of str, optional
        The cell keys; default ``["algorithm", "operation", "block_bytes"]``. Add ``host`` (or
        any condition) to keep machines apart.
    metric : str
        The throughput column, default ``bytes_per_s`` (e.g. ``bytes_per_s_per_ghz`` after
        :func:`per_ghz`, or ``ops_per_s``). Flagged and non-positive cells are left out, with a
        warning.
    test : {"welch", "mannwhitney", "bootstrap"}
        ``"welch"``: Welch's unequal-variance t-test on log throughput (Welch 1947,
        *Biometrika* 34:28-35); ratio = exp(difference of mean logs), interval exp(diff ± t·se)
        with Welch-Satterthwaite degrees of freedom. ``"mannwhitney"``: Mann-Whitney U
        (:func:`scipy.stats.mannwhitneyu`) with the Hodges-Lehmann ratio (median of pairwise log
        differences) and its order-statistic interval (Hollander, Wolfe & Chicken 2014, §4.3).
        ``"bootstrap"``: percentile bootstrap of the difference of mean logs
        (:func:`scipy.stats.bootstrap`, ``n_boot`` resamples, seeded with ``seed``).
    adjust : {"holm", "bh"}
        Adjustment of the p-values across every row of the result (see :func:`adjust_p`).
    alpha : float
        Level of the tests and ``1 - alpha`` confidence of the intervals.
    paired : bool, str or list of str
        ``False`` (default): one test per cell, from the repeats in the cell. A cell with one value
        on a side (a pasted dump) cannot be tested: its ``test`` is ``"single value"``, its p-value
        NaN, and a warning says so. ``True`` (= ``"block_bytes"``) or column name(s): pair cells
        across those columns and test the log ratios of the pairs (one row per remaining group):
        one-sample t on the log ratios (``test="welch"``, reported as ``"paired t"``), Wilcoxon
        signed-rank (``"mannwhitney"``, reported as ``"wilcoxon"``, with the Hodges-Lehmann
        estimate of the Walsh averages and Tukey's interval) or a bootstrap of the mean log ratio.
        The paired question is about the typical (geometric-mean) ratio over the block sizes in
        the table: its interval reflects how the ratio varies from size to size, not the noise
        within a cell, so read it with ``ratio_min``/``ratio_max``.
    n_boot, seed : int
        Bootstrap resamples and seed (``test="bootstrap"`` only).
    check : bool
        Run :func:`comparable` on the compared rows and warn about mixed timing bases, AEAD-loop
        versions, legacy 1.1.1 names and ``-multi`` runs, and warn about rates beyond the
        physical limit (the ``physical-limit`` check of :func:`lint`).

    Returns
    -------
    DataFrame
        One row per cell (per group when paired) and candidate: the group keys, ``candidate``,
        ``baseline``, ``ratio``, ``ci_low``, ``ci_high``, ``statistic``, ``p_value``,
        ``p_adjusted``, ``test``, ``n_candidate``, ``n_baseline``, ``significant``; paired
        results add ``paired_over``, ``ratio_min`` and ``ratio_max`` (range of the paired ratios).

    Examples
    --------
    Three repeats of two conditions in two cells:

    >>> import pandas as pd
    >>> df = pd.DataFrame({
    ...     "algorithm": "aes-128-cbc", "operation": "encrypt",
    ...     "block_bytes": [16] * 6 + [1024] * 6,
    ...     "aesni": ["on", "on", "on", "off", "off", "off"] * 2,
    ...     "bytes_per_s": [2.0e8, 2.1e8, 1.9e8, 1.0e8, 1.05e8, 0.95e8,
    ...                     6.0e8, 6.2e8, 5.9e8, 3.0e8, 2.9e8, 3.1e8]})
    >>> r = compare(df, by="aesni", baseline="off")
    >>> r[["block_bytes", "ratio", "ci_low", "ci_high", "p_adjusted", "test"]]
      block_bytes  ratio ci_low ci_high p_adjusted   test
    0          16  2.000  1.785   2.240    < 0.001  welch
    1        1024  2.011  1.877   2.155    < 0.001  welch

    A pasted dump (one value per cell) is tested across block sizes instead:

    >>> one = df.groupby(["aesni", "block_bytes"], as_index=False)["bytes_per_s"].first()
    >>> one["algorithm"], one["operation"] = "aes-128-cbc", "encrypt"
    >>> compare(one, by="aesni", baseline="off", paired=True)[["ratio", "test", "n_candidate"]]
       ratio      test  n_candidate
    0    2.0  paired t            2
    """
    frame, keys, candidates, test, pair_keys = _run(df, by, baseline, candidate, groupby, metric,
                                                    test, alpha, paired, "compare", check)
    if pair_keys:
        out, keys = _paired(frame, keys, pair_keys, baseline, candidates, test, alpha, n_boot,
                            seed)
    else:
        out = _per_cell(frame, keys, baseline, candidates, test, alpha, n_boot, seed)
        single = int((out["test"] == SINGLE).sum())
        if single:
            warn(
                f"compare: {single} of {len(out)} cell(s) have a single value on a side (a pasted "
                f"dump has no repeats), so no test is possible there: their `test` is "
                f"{SINGLE!r} and p_value is NaN. Use paired=True to test the ratios across block "
                f"sizes (or paired=[...] across other columns), or capture repeats.",
                CipherlabWarning)
    out = _finish(out, keys, df, adjust, alpha, "compare")
    cols = [*keys, *COMPARE_COLUMNS] + [c for c in ("paired_over", "ratio_min", "ratio_max")
                                        if c in out.columns]
    from cipherlab.stats._export import StatsResult

    return StatsResult(out[cols].reset_index(drop=True))


def speedup(df: pd.DataFrame, by: str = "aesni", on: Any = "on", off: Any = "off",
            **kwargs) -> pd.DataFrame:
    """Speed-up of ``on`` over ``off``: :func:`compare` with ``baseline=off``, ``candidate=on``.

    For ISA on/off (``by="aesni"``), tier against tier (``by="tier"``), machine against machine
    (``by="label"`` or ``"host"``). Keyword arguments go to :func:`compare`; the columns are
    those of :func:`compare`.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"algorithm": "aes-128-gcm", "operation": "encrypt",
    ...                    "block_bytes": 8192, "aesni": ["on"] * 3 + ["off"] * 3,
    ...                    "bytes_per_s": [4.0e9, 4.1e9, 3.9e9, 2.0e8, 2.1e8, 1.9e8]})
    >>> float(speedup(df)["ratio"].round(1).iloc[0])
    20.0
    """
    return compare(df, by, off, on, **kwargs)


def ratio_test(df: pd.DataFrame, by: str, baseline: Any, candidate: Any = None, *,
               groupby: str | Sequence[str] | None = None, metric: str = "bytes_per_s",
               expected: float = 2.0, margin: float = 0.1, alpha: float = 0.05,
               adjust: str = "holm", paired: bool | str | Sequence[str] | None = None,
               check: bool = True) -> pd.DataFrame:
    """Is the ratio candidate / baseline equal to a claimed value ("about 2x")?

    Two answers per row, on the log scale: a two-sided t-test of ratio = ``expected``
    (``p_value``; ``differs`` when its Holm/BH-adjusted value is below ``alpha``), and the two
    one-sided tests (TOST; Schuirmann 1987, *J. Pharmacokin. Biopharm.* 15:657-680) of "the ratio
    lies within ``expected`` × (1 ± ``margin``)" (``p_equivalence`` = the larger of the two
    one-sided p-values; ``equivalent`` when it is below ``alpha``). The interval is the
    ``1 - alpha`` t interval of the ratio.

    With repeats in every cell the test is Welch's t on the log values of the two sides, per cell
    (``test="welch"``). With one value per cell (a pasted dump) there is nothing to test per
    cell: the log ratios across block sizes (``paired=True``, the default then; or across the
    columns given) are the sample, and the test is a one-sample t on them (``"paired t"``).

    Parameters
    ----------
    df, by, baseline, candidate, groupby, metric, alpha, adjust, check
        As in :func:`compare`.
    expected : float
        The claimed ratio (> 0).
    margin : float
        Relative equivalence margin, 0 < margin < 1: equivalent means within
        ``[expected*(1-margin), expected*(1+margin)]``.
    paired : None, bool, str or list of str
        ``None``: per cell when every cell has >= 2 values per side, else across block sizes.

    Returns
    -------
    DataFrame
        Group keys + ``candidate``, ``baseline``, ``ratio``, ``ci_low``, ``ci_high``,
        ``expected``, ``margin``, ``statistic`` (t of ratio = expected), ``p_value``,
        ``p_adjusted``, ``p_equivalence``, ``equivalent``, ``differs``, ``n`` (values per cell on
        both sides together, or pairs), ``n_candidate``, ``n_baseline``, ``test``.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"algorithm": "aes-128-cbc", "operation": "encrypt",
    ...                    "block_bytes": [16, 64, 256, 1024, 8192] * 2,
    ...                    "aesni": ["on"] * 5 + ["off"] * 5,
    ...                    "bytes_per_s": [5.2e8, 5.6e8, 5.7e8, 5.7e8, 5.7e8,
    ...                                    2.5e8, 2.8e8, 2.9e8, 2.9e8, 2.9e8]})
    >>> r = ratio_test(df, by="aesni", baseline="off", expected=2.0, margin=0.1)
    >>> r[["ratio", "ci_low", "ci_high", "equivalent", "differs", "test"]]
       ratio ci_low ci_high equivalent differs      test
    0  1.995  1.935   2.057        yes      no  paired t

    The AWS seed's "consistently twice as fast": true for CBC, not for GCM.

    >>> import warnings, cipherlab
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     aws = cipherlab.ingest(cipherlab.datasets.path("aws-wiki-aesni-on-off.txt"))
    >>> ratio_test(aws, by="aesni", baseline="off")[["algorithm", "ratio", "equivalent",
    ...                                               "differs"]]
         algorithm  ratio equivalent differs
    0  aes-128-cbc  1.978        yes      no
    1  aes-128-gcm  5.197         no     yes
    2  aes-192-cbc  1.959        yes      no
    3  aes-192-gcm  5.208         no     yes
    4  aes-256-cbc  1.962        yes      no
    5  aes-256-gcm  5.282         no     yes
    """
    if not (isinstance(expected, (int, float)) and expected > 0):
        raise AnalysisError(f"`expected` must be a positive ratio (e.g. 2.0); not {expected!r}.")
    if not (isinstance(margin, (int, float)) and 0 < margin < 1):
        raise AnalysisError(f"`margin` must be a relative margin between 0 and 1 (e.g. 0.1 for "
                            f"±10 %); not {margin!r}.")
    if paired is None:
        # auto: per cell when every cell has repeats on both sides, else across block sizes
        frame, keys, candidates, _, _ = _run(df, by, baseline, candidate, groupby, metric,
                                             "welch", alpha, False, "ratio_test", check)
        per_cell = _per_cell(frame, keys, baseline, candidates, "welch", alpha, 0, 0)
        paired = bool((per_cell["test"] == SINGLE).any())
        if paired and "block_bytes" not in df.columns:
            raise AnalysisError("ratio_test: cells have one value per side and the table has no "
                                "block_bytes to pair across; pass paired=[column, ...].")
        check = False  # already checked
    frame, keys, candidates, _, pair_keys = _run(df, by, baseline, candidate, groupby, metric,
                                                 "welch", alpha, paired, "ratio_test", check)
    if pair_keys:
        out, keys = _paired(frame, keys, pair_keys, baseline, candidates, "welch", alpha, 0, 0)
        n = out["n_candidate"].to_numpy()
    else:
        out = _per_cell(frame, keys, baseline, candidates, "welch", alpha, 0, 0)
        n = (out["n_candidate"] + out["n_baseline"]).to_numpy()
    diff, se, dof = (out[c].to_numpy(float) for c in ("_diff", "_se", "_dof"))
    testable = out["test"].to_numpy() != SINGLE
    stat, p = _t_test(diff, se, dof, null=np.log(expected))
    with np.errstate(divide="ignore", invalid="ignore"):
        p_low = _st.t.sf((diff - np.log(expected * (1 - margin))) / se, dof)
        p_high = _st.t.cdf((diff - np.log(expected * (1 + margin))) / se, dof)
    out["expected"], out["margin"] = float(expected), float(margin)
    out["statistic"] = np.where(testable, stat, np.nan)
    out["p_value"] = np.where(testable, p, np.nan)
    out["p_equivalence"] = np.where(testable, np.maximum(p_low, p_high), np.nan)
    out["n"] = n
    out = _finish(out, keys, df, adjust, alpha, "ratio_test")
    out["differs"] = out.pop("significant")
    out["equivalent"] = (out["p_equivalence"] < alpha).to_numpy(bool)
    from cipherlab.stats._export import StatsResult

    return StatsResult(out[[*keys, *RATIO_TEST_COLUMNS]].reset_index(drop=True))
