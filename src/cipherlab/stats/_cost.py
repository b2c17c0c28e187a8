"""The per-call cost model: ``cost_model``, ``crossover``, ``small_block_overhead``.

Why this module exists: "GCM is slower than CBC at 16 bytes yet twice as fast at 8 KiB" is not a
paradox but two straight lines. The time per call is close to affine in the message length,
``t(n) = t0 + c·n`` (measurement-notes §2): ``t0`` is the fixed cost per call (context init, IV,
GHASH key powers, tag), ``c`` the cost per byte. From a table, ``t(n) = n / bytes_per_s(n)``. The
fit gives the asymptotic rate ``1/c``, Hockney's half-performance length ``n½ = t0/c`` (the size
at which half the asymptotic rate is reached), and the size where one algorithm's line crosses
another's.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
from scipy import stats as _st
from tqdm.auto import tqdm

from cipherlab.errors import AnalysisError, CipherlabWarning
from cipherlab.stats._clock import resolve_clock
from cipherlab.stats._common import (
    as_list, check_alpha, clean_metric, condition_keys, key_values, require_columns, tidy_keys)
from cipherlab.stats._common import warn as _warn

__all__ = ["cost_model", "crossover", "small_block_overhead"]

COST_COLUMNS = ("t0_ns", "t0_ci_low", "t0_ci_high", "c_ns_per_byte", "c_ci_low", "c_ci_high",
                "asymptotic_bytes_per_s", "clock_hz", "cycles_per_byte", "n_half_bytes",
                "r_squared", "n_sizes", "n_points")
_RUN_KEYS = ("algorithm", "operation", "source", "run", "label")


def _cost_keys(df, groupby):
    if groupby is not None:
        keys = as_list(groupby)
        require_columns(df, keys, what="`groupby`")
        return keys
    return [k for k in _RUN_KEYS if k in df.columns] + condition_keys(df)


def _points(df, keys, metric, clock_hz, what):
    require_columns(df, ["block_bytes", metric], what=what)
    rows = clean_metric(df[df["block_bytes"].notna().to_numpy()], metric, what=what)
    out = key_values(rows, keys)
    out["_n"] = pd.to_numeric(rows["block_bytes"]).to_numpy(float)
    out["_t"] = 1e9 * out["_n"].to_numpy() / pd.to_numeric(rows[metric]).to_numpy(float)
    out["_clock"] = resolve_clock(rows, clock_hz).to_numpy()
    return out[out["_n"] > 0]


def _fit(points, keys, alpha):
    """Weighted least squares of t on n per group, weights 1/t² (relative errors), closed form."""
    x, y = points["_n"].to_numpy(), points["_t"].to_numpy()
    w = 1.0 / y ** 2
    sums = pd.DataFrame({"S0": w, "Sx": w * x, "Sxx": w * x * x, "Sy": w * y, "Sxy": w * x * y,
                         "Syy": w * y * y, "k": 1.0, "clock": points["_clock"].to_numpy()},
                        index=points.index)
    for k in keys:
        sums[k] = points[k]
    g = sums.groupby(keys, observed=True, dropna=False, sort=True)
    s = g[["S0", "Sx", "Sxx", "Sy", "Sxy", "Syy", "k"]].sum()
    s["clock"] = g["clock"].mean()
    s["n_sizes"] = points.groupby(keys, observed=True, dropna=False, sort=True)["_n"].nunique()
    S0, Sx, Sxx, Sy, Sxy, Syy, k = (s[c].to_numpy() for c in
                                    ("S0", "Sx", "Sxx", "Sy", "Sxy", "Syy", "k"))
    with np.errstate(divide="ignore", invalid="ignore"):
        D = S0 * Sxx - Sx ** 2
        c = (S0 * Sxy - Sx * Sy) / D
        t0 = (Sxx * Sy - Sx * Sxy) / D
        rss = np.maximum(Syy - t0 * Sy - c * Sxy, 0.0)
        tss = Syy - Sy ** 2 / S0
        dof = k - 2
        sigma2 = np.where(dof > 0, rss / dof, np.nan)
        var_t0, var_c, cov = sigma2 * Sxx / D, sigma2 * S0 / D, -sigma2 * Sx / D
        q = _st.t.ppf(1 - alpha / 2, dof)
        r2 = np.where(tss > 0, 1 - rss / tss, np.nan)
    fewer = s["n_sizes"].to_numpy() < 2
    out = s.index.to_frame(index=False)
    out["t0_ns"] = np.where(fewer, np.nan, t0)
    out["t0_ci_low"], out["t0_ci_high"] = out["t0_ns"] - q * np.sqrt(var_t0), out[
        "t0_ns"] + q * np.sqrt(var_t0)
    out["c_ns_per_byte"] = np.where(fewer, np.nan, c)
    out["c_ci_low"], out["c_ci_high"] = out["c_ns_per_byte"] - q * np.sqrt(var_c), out[
        "c_ns_per_byte"] + q * np.sqrt(var_c)
    with np.errstate(divide="ignore", invalid="ignore"):
        out["asymptotic_bytes_per_s"] = np.where(c > 0, 1e9 / out["c_ns_per_byte"], np.nan)
        out["clock_hz"] = s["clock"].to_numpy()
        out["cycles_per_byte"] = out["c_ns_per_byte"] * out["clock_hz"] / 1e9
        out["n_half_bytes"] = np.where(c > 0, out["t0_ns"] / out["c_ns_per_byte"], np.nan)
    out["r_squared"] = np.where(fewer, np.nan, r2)
    out["n_sizes"] = s["n_sizes"].to_numpy().astype(int)
    out["n_points"] = k.astype(int)
    out["_var_t0"], out["_var_c"], out["_cov"], out["_dof"] = var_t0, var_c, cov, dof
    return out


def _boot_fits(points, keys, n_boot, seed):
    """Stratified bootstrap of the WLS fit: resample repeats within each (group, block size).

    Keeps the design (every replicate has the same block sizes), so only the repeat-to-repeat
    noise enters the interval. Vectorised over all groups at once, in chunks of replicates.
    Returns t0 and c as (groups x n_boot) arrays, in the group order of :func:`_fit`, and a mask
    of the groups that have repeats at all (a bootstrap of single values has no spread).
    """
    rng = np.random.default_rng(seed)
    frame = points[keys].copy()
    frame["_n"] = points["_n"]
    gid = frame.groupby(keys, observed=True, dropna=False, sort=True).ngroup().to_numpy()
    stratum = frame.groupby([*keys, "_n"], observed=True, dropna=False, sort=True).ngroup()
    order = np.argsort(stratum.to_numpy(), kind="stable")
    st_sorted = stratum.to_numpy()[order]
    x = points["_n"].to_numpy(float)[order]
    y = points["_t"].to_numpy(float)[order]
    g = gid[order]
    sizes = np.bincount(st_sorted)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    first, length = starts[st_sorted], sizes[st_sorted]
    n_groups, n_points = int(g.max()) + 1, len(x)
    has_repeats = np.bincount(g, weights=(length > 1).astype(float), minlength=n_groups) > 0
    t0s = np.empty((n_groups, n_boot))
    cs = np.empty((n_groups, n_boot))
    chunk = max(1, 2_000_000 // max(n_points, 1))
    starts_b = range(0, n_boot, chunk)
    # a progress bar only when the work is long (a 100,000-row table takes seconds)
    for lo in tqdm(starts_b, desc="bootstrap", unit="chunk", leave=False,
                   disable=len(starts_b) < 20):
        b = min(chunk, n_boot - lo)
        pick = first + (rng.random((b, n_points)) * length).astype(np.int64)
        xb, yb = x[pick], y[pick]
        wb = 1.0 / yb ** 2
        slot = (np.arange(b)[:, None] * n_groups + g[None, :]).ravel()

        def total(v):
            return np.bincount(slot, weights=v.ravel(), minlength=b * n_groups).reshape(b, n_groups)

        S0, Sx, Sxx = total(wb), total(wb * xb), total(wb * xb * xb)
        Sy, Sxy = total(wb * yb), total(wb * xb * yb)
        with np.errstate(divide="ignore", invalid="ignore"):
            D = S0 * Sxx - Sx ** 2
            cs[:, lo:lo + b] = ((S0 * Sxy - Sx * Sy) / D).T
            t0s[:, lo:lo + b] = ((Sxx * Sy - Sx * Sxy) / D).T
    return t0s, cs, has_repeats


def _percentile_ci(samples, alpha):
    lo, hi = np.quantile(samples, [alpha / 2, 1 - alpha / 2], axis=-1, method="inverted_cdf")
    return lo, hi


def _check_ci(ci, allowed):
    from cipherlab.stats._common import check_one_of

    return check_one_of("ci", ci, allowed)


def cost_model(df: pd.DataFrame, *, groupby: str | Sequence[str] | None = None,
               metric: str = "bytes_per_s", clock_hz=None, alpha: float = 0.05,
               ci: str = "fit", n_boot: int = 999, seed: int = 0) -> pd.DataFrame:
    """Fit the per-call cost ``t(n) = t0 + c·n`` over the block sizes of each run and algorithm.

    The time per call is ``t(n) = n / bytes_per_s(n)``; the fit is weighted least squares with
    weights ``1/t²`` (constant *relative* error, so a 16-byte cell counts as much as an 8 KiB
    one), in closed form per group. Intervals are the ``1 - alpha`` t intervals of the WLS
    coefficients (residual variance from the fit, ``k - 2`` degrees of freedom for ``k`` points;
    NaN with only two sizes). Repeats are pooled into the same fit. The model and ``n½`` follow
    Hockney (1991, "Performance parameters and benchmarking of supercomputers", *Parallel
    Computing* 17:1111-1130); measurement-notes §2.

    Parameters
    ----------
    df : DataFrame
        Tidy table with ``block_bytes`` and the metric.
    groupby : str or list of str, optional
        One fit per group; default ``algorithm``, ``operation``, ``source``, ``run``, ``label``
        and the condition columns (``aesni``, ``tier``, ... but not ``repeat``).
    metric : str
        Throughput column in bytes per second.
    clock_hz : float or {label: Hz}, optional
        Clock for ``cycles_per_byte`` when the table does not carry one (see
        :func:`resolve_clock`).
    alpha : float
        ``1 - alpha`` intervals.
    ci : {"fit", "bootstrap"}
        ``"fit"``: t intervals of the WLS coefficients. ``"bootstrap"``: percentile intervals
        from ``n_boot`` stratified resamples (repeats resampled within each block size, seeded
        with ``seed``; Efron & Tibshirani 1993, ch. 9, bootstrapping pairs); needs repeats: NaN
        for groups with one value per size. Resampling ``r`` repeats shrinks the variance by
        ``(r - 1) / r``, so it needs about 10 repeats per size to reach its nominal coverage
        (tests/stats/test_simulation.py: ~0.86 with 4 repeats, ~0.91-0.93 with 10).

    Returns
    -------
    DataFrame
        Group keys + ``t0_ns``, ``t0_ci_low``, ``t0_ci_high`` (ns per call), ``c_ns_per_byte``,
        ``c_ci_low``, ``c_ci_high``, ``asymptotic_bytes_per_s`` (= 1e9 / c), ``clock_hz``,
        ``cycles_per_byte`` (= c × clock), ``n_half_bytes`` (= t0 / c), ``r_squared`` (weighted),
        ``n_sizes``, ``n_points``.

    Examples
    --------
    Exact lines t = 40 + 1.0·n (GCM-like) give t0 = 40 ns and c = 1 ns/byte back:

    >>> import pandas as pd
    >>> n = pd.Series([16, 64, 256, 1024, 8192])
    >>> df = pd.DataFrame({"algorithm": "aes-128-gcm", "operation": "encrypt", "block_bytes": n,
    ...                    "bytes_per_s": 1e9 * n / (40 + 1.0 * n), "label": "3 GHz box"})
    >>> fit = cost_model(df, clock_hz=3e9)
    >>> fit[["t0_ns", "c_ns_per_byte", "n_half_bytes", "cycles_per_byte"]].round(6)
      t0_ns c_ns_per_byte n_half_bytes cycles_per_byte
    0 40.00         1.000        40.00           3.000
    """
    alpha = check_alpha(alpha)
    keys = _cost_keys(df, groupby)
    points = _points(df, keys, metric, clock_hz, "cost_model")
    if points.empty:
        raise AnalysisError(f"cost_model: no rows with a block size and a positive `{metric}`.")
    fit = _fit(points, keys, alpha)
    if _check_ci(ci, ("fit", "bootstrap")) == "bootstrap":
        t0s, cs, has_repeats = _boot_fits(points, keys, n_boot, seed)
        for name, samples in (("t0", t0s), ("c", cs)):
            lo, hi = _percentile_ci(samples, alpha)
            fit[f"{name}_ci_low"] = np.where(has_repeats, lo, np.nan)
            fit[f"{name}_ci_high"] = np.where(has_repeats, hi, np.nan)
        if not has_repeats.all():
            _warn(f"cost_model: {int((~has_repeats).sum())} fit(s) have one value per block size, "
                  f"so a bootstrap over repeats has nothing to resample: their intervals are NaN; "
                  f"use ci='fit'.", CipherlabWarning)
    fit = tidy_keys(fit, keys, df)
    from cipherlab.stats._export import StatsResult

    return StatsResult(fit[[*keys, *COST_COLUMNS]])


def _pair_fits(df, a, b, groupby, metric, clock_hz, alpha, what):
    alpha = check_alpha(alpha)
    require_columns(df, ["algorithm"], what=what)
    keys = _cost_keys(df, groupby)
    if "algorithm" not in keys:
        raise AnalysisError(f"{what}: `groupby` must contain 'algorithm'; it is {keys}.")
    algos = set(df["algorithm"].astype("object").dropna())
    for name, value in (("a", a), ("b", b)):
        if value not in algos:
            raise AnalysisError(f"{what}: `{name}` must be an algorithm of the table "
                                f"({', '.join(sorted(map(str, algos)))}); not {value!r}.")
    sub = df[df["algorithm"].astype("object").isin([a, b]).to_numpy()]
    points = _points(sub, keys, metric, clock_hz, what)
    fit = _fit(points, keys, alpha)
    # The two algorithms pair up within the same run, operation and conditions.
    other = [k for k in keys if k != "algorithm"]
    fa = fit[fit["algorithm"] == a].drop(columns="algorithm")
    fb = fit[fit["algorithm"] == b].drop(columns="algorithm")
    both = fa.merge(fb, on=other, suffixes=("_a", "_b"), how="inner") if other else \
        fa.merge(fb, how="cross", suffixes=("_a", "_b"))
    if both.empty:
        raise AnalysisError(f"{what}: no run has both {a!r} and {b!r} (with the same "
                            f"{', '.join(other)}); when each algorithm was measured in its own "
                            f"run, pass groupby=['algorithm', 'operation', <conditions>] without "
                            f"run and label.")
    return both, other, points


def crossover(df: pd.DataFrame, a: str = "aes-128-gcm", b: str = "aes-128-cbc", *,
              groupby: str | Sequence[str] | None = None, metric: str = "bytes_per_s",
              alpha: float = 0.05, clock_hz=None, ci: str = "delta", n_boot: int = 999,
              seed: int = 0) -> pd.DataFrame:
    """Block size where algorithm ``a`` overtakes ``b``: where their cost lines cross.

    With fits ``t_a = t0_a + c_a·n`` and ``t_b = t0_b + c_b·n`` (see :func:`cost_model`), ``a``
    is faster for every ``n > (t0_a - t0_b) / (c_b - c_a)`` when ``c_a < c_b``. The interval is
    the delta method on that quotient (the two fits independent, each with its coefficient
    covariance), with a t quantile on the pooled residual degrees of freedom; its low end is
    clipped at 0 and a high end beyond the point where ``c_a = c_b`` becomes plausible is inf.

    Parameters
    ----------
    df : DataFrame
        Tidy table holding both algorithms.
    a, b : str
        Canonical algorithm names (``a`` overtakes ``b``).
    groupby, metric, alpha, clock_hz
        As in :func:`cost_model`; ``groupby`` must contain ``algorithm``.
    ci : {"delta", "bootstrap"}
        ``"delta"`` (above) or the percentile interval of the crossing over ``n_boot``
        stratified resamples of the repeats of both algorithms (see :func:`cost_model`); a
        replicate in which ``a`` never overtakes counts as inf. Needs repeats.

    Returns
    -------
    DataFrame
        Keys (those of :func:`cost_model` without ``algorithm``) + ``a``, ``b``,
        ``crossover_bytes``, ``ci_low``, ``ci_high`` and ``regime``:
        ``"a overtakes b"`` (finite crossover), ``"a always faster"`` (0),
        ``"never"`` (inf: ``a`` is never faster), ``"b overtakes a"`` (inf: ``a`` is faster only
        below the crossing) or ``"no fit"`` (NaN). Intervals are NaN unless the regime is
        ``"a overtakes b"``.

    Examples
    --------
    >>> import pandas as pd
    >>> n = pd.Series([16, 64, 256, 1024, 8192])
    >>> df = pd.concat([
    ...     pd.DataFrame({"algorithm": "aes-128-gcm", "block_bytes": n,
    ...                   "bytes_per_s": 1e9 * n / (40 + 1.0 * n)}),
    ...     pd.DataFrame({"algorithm": "aes-128-cbc", "block_bytes": n,
    ...                   "bytes_per_s": 1e9 * n / (4 + 1.8 * n)})])
    >>> crossover(df)[["a", "b", "crossover_bytes", "regime"]]
                 a            b crossover_bytes         regime
    0  aes-128-gcm  aes-128-cbc           45.00  a overtakes b
    """
    _check_ci(ci, ("delta", "bootstrap"))
    both, keys, points = _pair_fits(df, a, b, groupby, metric, clock_hz, alpha, "crossover")
    t0a, ca, t0b, cb = (both[c].to_numpy(float) for c in ("t0_ns_a", "c_ns_per_byte_a",
                                                          "t0_ns_b", "c_ns_per_byte_b"))
    dt0, dc = t0a - t0b, cb - ca  # dc > 0: a is cheaper per byte
    with np.errstate(divide="ignore", invalid="ignore"):
        n_star = dt0 / dc
        # gradient of n* = (t0a - t0b) / (cb - ca) w.r.t. (t0a, ca) and (t0b, cb)
        g_t0a, g_ca = 1 / dc, n_star / dc
        g_t0b, g_cb = -1 / dc, -n_star / dc
        var = (g_t0a ** 2 * both["_var_t0_a"] + g_ca ** 2 * both["_var_c_a"]
               + 2 * g_t0a * g_ca * both["_cov_a"]
               + g_t0b ** 2 * both["_var_t0_b"] + g_cb ** 2 * both["_var_c_b"]
               + 2 * g_t0b * g_cb * both["_cov_b"]).to_numpy(float)
        dof = (both["_dof_a"] + both["_dof_b"]).to_numpy(float)
        half = _st.t.ppf(1 - alpha / 2, dof) * np.sqrt(var)
    fitted = ~np.isnan(dt0) & ~np.isnan(dc)
    regime = np.select(
        [~fitted, (dc > 0) & (dt0 > 0), (dc > 0) & (dt0 <= 0), (dc <= 0) & (dt0 < 0)],
        ["no fit", "a overtakes b", "a always faster", "b overtakes a"], default="never")
    value = np.select([regime == "a overtakes b", regime == "a always faster", regime == "no fit"],
                      [n_star, 0.0, np.nan], default=np.inf)
    finite = regime == "a overtakes b"
    # The slope difference's own interval decides whether "never" is plausible at the high end.
    se_dc = np.sqrt((both["_var_c_a"] + both["_var_c_b"]).to_numpy(float))
    q = _st.t.ppf(1 - alpha / 2, dof)
    slope_uncertain = dc - q * se_dc <= 0
    lo = np.where(finite, np.maximum(n_star - half, 0.0), np.nan)
    hi = np.where(finite, np.where(slope_uncertain, np.inf, n_star + half), np.nan)
    if ci == "bootstrap":
        lo, hi = _boot_crossover(points, keys, both, a, b, alpha, n_boot, seed)
        lo, hi = np.where(finite, lo, np.nan), np.where(finite, hi, np.nan)
    out = both[keys].copy()
    out["a"], out["b"] = a, b
    out["crossover_bytes"], out["ci_low"], out["ci_high"] = value, lo, hi
    out["regime"] = regime
    out = tidy_keys(out, keys, df)
    from cipherlab.stats._export import StatsResult

    return StatsResult(out.reset_index(drop=True))


def _boot_crossover(points, keys, both, a, b, alpha, n_boot, seed):
    """Percentile interval of the crossing over stratified bootstrap replicates of both fits."""
    full = ["algorithm", *keys]
    t0s, cs, has_repeats = _boot_fits(points, full, n_boot, seed)
    groups = points.groupby(full, observed=True, dropna=False, sort=True).size().index.to_frame(
        index=False)
    groups["_row"] = np.arange(len(groups))
    ia = both[keys].merge(groups[groups["algorithm"] == a].drop(columns="algorithm"), on=keys,
                          how="left")["_row"].to_numpy() if keys else np.flatnonzero(
        groups["algorithm"] == a)
    ib = both[keys].merge(groups[groups["algorithm"] == b].drop(columns="algorithm"), on=keys,
                          how="left")["_row"].to_numpy() if keys else np.flatnonzero(
        groups["algorithm"] == b)
    dt0, dc = t0s[ia] - t0s[ib], cs[ib] - cs[ia]
    with np.errstate(divide="ignore", invalid="ignore"):
        n_star = np.where(dc > 0, np.maximum(dt0 / dc, 0.0), np.inf)
    lo, hi = _percentile_ci(n_star, alpha)
    ok = has_repeats[ia] & has_repeats[ib]
    if not ok.all():
        _warn(f"crossover: {int((~ok).sum())} pair(s) have one value per block size, so a "
              f"bootstrap over repeats has nothing to resample: their intervals are NaN; use "
              f"ci='delta'.", CipherlabWarning)
    return np.where(ok, lo, np.nan), np.where(ok, hi, np.nan)


def small_block_overhead(df: pd.DataFrame, a: str = "aes-128-gcm", b: str = "aes-128-cbc", *,
                         groupby: str | Sequence[str] | None = None, metric: str = "bytes_per_s",
                         alpha: float = 0.05) -> pd.DataFrame:
    """Throughput ratio a/b by block size, with each one's fixed per-call cost and its share.

    The share of a call spent in fixed overhead at size ``n`` is ``t0 / (t0 + c·n)`` from the
    fitted lines (:func:`cost_model`): near 1 where per-call setup dominates (GCM at 16 bytes),
    near 0 for long messages. The ratio is of geometric means over repeats.

    Parameters
    ----------
    df : DataFrame
        Tidy table holding both algorithms.
    a, b : str
        Canonical algorithm names; ``ratio`` is throughput of ``a`` over ``b``.
    groupby, metric, alpha
        As in :func:`cost_model`.

    Returns
    -------
    DataFrame
        Keys (those of :func:`cost_model` without ``algorithm``) + ``a``, ``b``, ``block_bytes``,
        ``ratio``, ``t0_a_ns``, ``t0_b_ns``, ``overhead_share_a``, ``overhead_share_b``.

    Examples
    --------
    >>> import pandas as pd
    >>> n = pd.Series([16, 8192])
    >>> df = pd.concat([
    ...     pd.DataFrame({"algorithm": "aes-128-gcm", "block_bytes": n,
    ...                   "bytes_per_s": 1e9 * n / (40 + 1.0 * n)}),
    ...     pd.DataFrame({"algorithm": "aes-128-cbc", "block_bytes": n,
    ...                   "bytes_per_s": 1e9 * n / (4 + 1.8 * n)})])
    >>> small_block_overhead(df)[["block_bytes", "ratio", "overhead_share_a", "overhead_share_b"]]
      block_bytes  ratio overhead_share_a overhead_share_b
    0          16  0.586            0.714            0.122
    1        8192  1.792            0.005            0.000
    """
    both, keys, points = _pair_fits(df, a, b, groupby, metric, None, alpha,
                                    "small_block_overhead")
    points = points.assign(_y=np.log(points["_n"] / points["_t"]))
    gm = points.groupby([*keys, "algorithm", "_n"], observed=True, dropna=False)["_y"].mean()
    gm = gm.reset_index()
    ga = gm[gm["algorithm"] == a].drop(columns="algorithm")
    gb = gm[gm["algorithm"] == b].drop(columns="algorithm")
    cells = ga.merge(gb, on=[*keys, "_n"], suffixes=("_a", "_b"))
    cells = cells.merge(both, on=keys, how="inner") if keys else cells.merge(both, how="cross")
    n = cells["_n"].to_numpy(float)
    out = cells[keys].copy()
    out["a"], out["b"] = a, b
    out["block_bytes"] = n.astype(np.int64)
    out["ratio"] = np.exp(cells["_y_a"] - cells["_y_b"]).to_numpy()
    out["t0_a_ns"], out["t0_b_ns"] = cells["t0_ns_a"].to_numpy(), cells["t0_ns_b"].to_numpy()
    for side in ("a", "b"):
        t0, c = cells[f"t0_ns_{side}"].to_numpy(), cells[f"c_ns_per_byte_{side}"].to_numpy()
        with np.errstate(divide="ignore", invalid="ignore"):
            out[f"overhead_share_{side}"] = np.clip(t0 / (t0 + c * n), 0.0, 1.0)
    out = tidy_keys(out, keys, df).sort_values([*keys, "block_bytes"], kind="stable")
    from cipherlab.stats._export import StatsResult

    return StatsResult(out.reset_index(drop=True))
