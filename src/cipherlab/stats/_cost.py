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

from cipherlab.errors import AnalysisError, CipherlabWarning
from cipherlab.stats._clock import resolve_clock
from cipherlab.stats import _tests
from cipherlab.stats._common import (
    as_list, check_alpha, clean_metric, key_values, require_columns, split_keys, tidy_keys,
    unit_columns, unit_ids, unit_name)
from cipherlab.stats._common import warn as _warn

__all__ = ["cost_model", "crossover", "small_block_overhead"]

COST_COLUMNS = ("t0_ns", "t0_ci_low", "t0_ci_high", "c_ns_per_byte", "c_ci_low", "c_ci_high",
                "asymptotic_bytes_per_s", "clock_hz", "cycles_per_byte", "n_half_bytes",
                "r_squared", "lack_of_fit_p", "max_misfit", "residuals", "unit", "n_units",
                "n_sizes", "n_points", "note")
_BASE_KEYS = ("algorithm", "operation")
_NO_LENGTH = ("; a per-call cost line needs rates by message length (ciphers, digests), which "
              "public-key operations do not have")


def _cost_keys(df, groupby):
    if groupby is not None:
        keys = as_list(groupby)
        require_columns(df, keys, what="`groupby`")
        return keys
    return split_keys(df, None, _BASE_KEYS)[0]


def _points(df, keys, metric, clock_hz, unit, what):
    """One point per fit group, unit (run) and block size: the run's geometric-mean time."""
    require_columns(df, ["block_bytes", metric], what=what)
    rows = clean_metric(df[df["block_bytes"].notna().to_numpy()], metric, what=what)
    out = key_values(rows, keys)
    out["_unit"] = unit_ids(rows, unit_columns(rows, unit, what=what))
    out["_n"] = pd.to_numeric(rows["block_bytes"]).to_numpy(float)
    out["_logt"] = np.log(1e9 * out["_n"].to_numpy() / pd.to_numeric(rows[metric]).to_numpy(float))
    out["_clock"] = resolve_clock(rows, clock_hz).to_numpy()
    out = out[out["_n"] > 0]
    g = out.groupby([*keys, "_unit", "_n"], observed=True, dropna=False, sort=True)
    pts = g[["_logt", "_clock"]].mean().reset_index()
    pts["_t"] = np.exp(pts.pop("_logt"))
    return pts


def _fit(points, keys, alpha):
    """WLS of t on n per group (weights 1/t²: relative errors), closed form, with standard errors
    robust to clustering by unit (CR1 sandwich; Cameron & Miller 2015, *J. Human Resources*
    50:317-372), t quantiles on G - 1 degrees of freedom for G units. Returns the fit frame and
    each unit's influence on (t0, c), for the intervals of functions of the fit."""
    x, y = points["_n"].to_numpy(), points["_t"].to_numpy()
    w = 1.0 / y ** 2
    gid = points.groupby(keys, observed=True, dropna=False, sort=True).ngroup().to_numpy()
    m = int(gid.max()) + 1

    def total(v):
        return np.bincount(gid, weights=v, minlength=m)

    S0, Sx, Sxx, Sy, Sxy, Syy = (total(v) for v in (w, w * x, w * x * x, w * y, w * x * y,
                                                     w * y * y))
    k = np.bincount(gid, minlength=m).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        D = S0 * Sxx - Sx ** 2
        c = (S0 * Sxy - Sx * Sy) / D
        t0 = (Sxx * Sy - Sx * Sxy) / D
        rss = np.maximum(Syy - t0 * Sy - c * Sxy, 0.0)
        tss = Syy - Sy ** 2 / S0
        r2 = np.where(tss > 0, 1 - rss / tss, np.nan)
    u = y - t0[gid] - c[gid] * x
    cluster = pd.factorize(pd.MultiIndex.from_arrays([gid, points["_unit"].to_numpy()]))[0]
    n_cl = int(cluster.max()) + 1
    owner = np.zeros(n_cl, dtype=np.int64)
    owner[cluster] = gid
    s0 = np.bincount(cluster, weights=w * u, minlength=n_cl)
    s1 = np.bincount(cluster, weights=w * x * u, minlength=n_cl)
    with np.errstate(divide="ignore", invalid="ignore"):
        infl_t0 = (Sxx[owner] * s0 - Sx[owner] * s1) / D[owner]
        infl_c = (S0[owner] * s1 - Sx[owner] * s0) / D[owner]
    units = np.bincount(owner, minlength=m).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(units >= 2, units / (units - 1), np.nan)
        var_t0 = scale * np.bincount(owner, weights=infl_t0 ** 2, minlength=m)
        var_c = scale * np.bincount(owner, weights=infl_c ** 2, minlength=m)
        dof = units - 1
        q = _st.t.ppf(1 - alpha / 2, dof)
    out = points.groupby(keys, observed=True, dropna=False, sort=True).size().index.to_frame(
        index=False)
    n_sizes = points.groupby(keys, observed=True, dropna=False, sort=True)["_n"].nunique()
    fewer = n_sizes.to_numpy() < 2
    out["t0_ns"] = np.where(fewer, np.nan, t0)
    out["t0_ci_low"], out["t0_ci_high"] = out["t0_ns"] - q * np.sqrt(var_t0), out[
        "t0_ns"] + q * np.sqrt(var_t0)
    out["c_ns_per_byte"] = np.where(fewer, np.nan, c)
    out["c_ci_low"], out["c_ci_high"] = out["c_ns_per_byte"] - q * np.sqrt(var_c), out[
        "c_ns_per_byte"] + q * np.sqrt(var_c)
    clock = points.groupby(keys, observed=True, dropna=False, sort=True)["_clock"].mean()
    with np.errstate(divide="ignore", invalid="ignore"):
        out["asymptotic_bytes_per_s"] = np.where(c > 0, 1e9 / out["c_ns_per_byte"], np.nan)
        out["clock_hz"] = clock.to_numpy()
        out["cycles_per_byte"] = out["c_ns_per_byte"] * out["clock_hz"] / 1e9
        out["n_half_bytes"] = np.where(c > 0, out["t0_ns"] / out["c_ns_per_byte"], np.nan)
    # two sizes: the line passes through both (a run's r² is 1, its misfit 0 by construction)
    exact = n_sizes.to_numpy() == 2
    out["r_squared"] = np.where(fewer | (exact & (units < 2)), np.nan, r2)
    lof, misfit, text = _lack_of_fit(points, gid, m, np.log(y) - np.log(t0[gid] + c[gid] * x))
    out["lack_of_fit_p"] = np.where(exact, np.nan, lof)
    out["max_misfit"], out["residuals"] = np.where(exact, np.nan, misfit), text
    out["n_units"] = units.astype(int)
    out["n_sizes"] = n_sizes.to_numpy().astype(int)
    out["n_points"] = k.astype(int)
    notes = [np.where(units < 2, "one run: no replication, the fit is a description (no "
                                 "interval, no lack-of-fit test)", ""),
             np.where(exact, "two block sizes: the line passes through both, nothing tests "
                             "that t(n) is straight", "")]
    out["note"] = ["; ".join(t for t in pair if t) for pair in zip(*notes)]
    with np.errstate(divide="ignore", invalid="ignore"):
        infl_lr = infl_t0 / t0[owner] - infl_c / c[owner]  # on log t0 - log c
    influence = pd.DataFrame({"_g": owner, "_unit": points["_unit"].to_numpy()[
        np.unique(cluster, return_index=True)[1]], "_i_t0": infl_t0, "_i_c": infl_c,
        "_i_lr": infl_lr})
    out["_g"], out["_scale"], out["_dof"] = np.arange(m), scale, dof
    return out, influence


def _lack_of_fit(points, gid, m, r):
    """Lack of fit of the straight line from the log residuals ``r`` of every (unit, size).

    Two-way layout units x sizes (balanced: every unit measured every size): the size effect of
    the residuals, beyond the 2 parameters of the line, against the unit x size interaction,
    F(S - 2, (G - 1)(S - 1)). A run offset moves every size of that run together and is not
    misfit. When every unit holds one size (``unit="repeat"``), the classic test against the
    pure error within sizes, F(S - 2, N - S). NaN with one unit, fewer than 3 sizes or another
    design. Also the misfit of
    the line at each size (geometric mean over units): the largest, and all as text.
    """
    f = pd.DataFrame({"g": gid, "u": points["_unit"].to_numpy(), "n": points["_n"].to_numpy(),
                      "r": r})
    rs = f.groupby(["g", "n"])["r"].transform("mean")
    ru = f.groupby(["g", "u"])["r"].transform("mean")
    rg = f.groupby("g")["r"].transform("mean")
    size_means = f.groupby(["g", "n"])["r"].mean()
    sizes = np.bincount(size_means.index.get_level_values(0), minlength=m).astype(float)
    units = f.groupby("g")["u"].nunique().reindex(range(m)).to_numpy(float)
    ss_size = np.bincount(gid, weights=(rs - rg) ** 2, minlength=m)
    ss_err = np.bincount(gid, weights=(f["r"] - ru - rs + rg) ** 2, minlength=m)
    points_per_group = np.bincount(gid, minlength=m)
    balanced = points_per_group == sizes * units
    df1, df2 = sizes - 2, (units - 1) * (sizes - 1)
    # every unit at one size (unit="repeat"): the classic test against pure error within sizes
    nested = (points_per_group == units) & (units > sizes)
    ss_lof = np.bincount(gid, weights=rs ** 2, minlength=m)
    ss_pe = np.bincount(gid, weights=(f["r"] - rs) ** 2, minlength=m)
    with np.errstate(divide="ignore", invalid="ignore"):
        F = np.where(nested, (ss_lof / df1) / (ss_pe / (units - sizes)),
                     (ss_size / df1) / (ss_err / df2))
        df2 = np.where(nested, units - sizes, df2)
        p = np.where((balanced | nested) & (df1 > 0) & (units >= 2) & (df2 > 0),
                     _st.f.sf(F, df1, df2), np.nan)
    rel = np.expm1(size_means)
    misfit = np.abs(rel).groupby(level=0).max().reindex(range(m)).to_numpy(float)
    text = [", ".join(f"{int(n)}: {v * 100:+.1f} %" for (_, n), v in grp.items())
            for _, grp in rel.groupby(level=0)]
    return p, misfit, text


def _warn_misfit(fit, alpha, what):
    # a rejection by less than 2 % at every size is not worth a warning (exact data rejects)
    rejected = (fit["lack_of_fit_p"] < alpha) & (fit["max_misfit"] > 0.02)
    if rejected.any():
        _warn(f"{what}: the straight line t(n) = t0 + c·n is rejected for {int(rejected.sum())} "
              f"of {len(fit)} fit(s) (lack of fit p < {alpha:g}; misfit up to "
              f"{fit.loc[rejected, 'max_misfit'].max():.0%} at some size, see `residuals`): "
              f"t0 and c summarise a curve, not a line (caches, per-call AEAD setup).",
              CipherlabWarning)
    loose = fit["lack_of_fit_p"].isna() & (fit["max_misfit"] > 0.1)
    if loose.any():
        _warn(f"{what}: {int(loose.sum())} fit(s) miss a block size by more than 10 % "
              f"(see `residuals`); the lack of fit cannot be tested there (one run, or runs that "
              f"measured different block sizes).",
              CipherlabWarning)
    # runs far off the line that the test does not reject: the test's error term is the runs'
    # disagreement in shape (run x size), so runs of two settings pass it (afalg with and
    # without its software fallback: 25x apart at 16 B, misfit 311 %, p 0.37)
    unlike = (fit["lack_of_fit_p"] >= alpha) & (fit["max_misfit"] > 0.1)
    if unlike.any():
        _warn(f"{what}: {int(unlike.sum())} fit(s) miss a block size by up to "
              f"{fit.loc[unlike, 'max_misfit'].max():.0%} (see `residuals`) although the lack "
              f"of fit test does not reject the line: their runs disagree in shape with each "
              f"other, so they may not be replicates of one setting (an engine, a fallback or "
              f"a build the table does not record). Check the runs, and fit them apart "
              f"(groupby=[..., 'run']) if they differ.", CipherlabWarning)


def cost_model(df: pd.DataFrame, *, groupby: str | Sequence[str] | None = None,
               metric: str = "bytes_per_s", clock_hz=None, alpha: float = 0.05,
               unit: str | Sequence[str] = "run") -> pd.DataFrame:
    """Fit the per-call cost ``t(n) = t0 + c·n`` over the block sizes of each algorithm and machine.

    The time per call is ``t(n) = n / bytes_per_s(n)``. Repeats are first reduced to their run
    (geometric mean per run and size: the run is the unit, ``unit="run"``); the fit is weighted
    least squares over the runs' points with weights ``1/t²`` (constant *relative* error, so a
    16-byte cell counts as much as an 8 KiB one), in closed form per group. Intervals are
    ``1 - alpha`` t intervals with standard errors robust to clustering by run (CR1 sandwich,
    G - 1 degrees of freedom for G runs): the sizes of one run share its offset, so they are not
    independent points. With one run there is no interval (``note`` says so). The lack-of-fit
    test (``lack_of_fit_p``) and the misfit at each size (``residuals``, ``max_misfit``) say
    whether a straight line describes the data at all; a warning names rejected fits. The model
    and ``n½`` follow Hockney (1991, *Parallel Computing* 17:1111-1130); measurement-notes §2.

    Parameters
    ----------
    df : DataFrame
        Tidy table with ``block_bytes`` and the metric.
    groupby : str or list of str, optional
        One fit per group; default ``algorithm``, ``operation`` and every run/machine/condition
        column that varies (``host``, ``label``, ``tool_version``, ``aesni``, ...; not
        ``source``/``run``, which are the units, nor ``repeat``).
    metric : str
        Throughput column in bytes per second.
    clock_hz : float or {label: Hz}, optional
        Clock for ``cycles_per_byte`` when the table does not carry one (see
        :func:`resolve_clock`).
    alpha : float
        ``1 - alpha`` intervals, and the level of the lack-of-fit warning.
    unit : "run", "repeat" or column name(s)
        The unit of replication (the clusters of the standard errors), as in :func:`compare`.

    Returns
    -------
    DataFrame
        Group keys + ``t0_ns``, ``t0_ci_low``, ``t0_ci_high`` (ns per call), ``c_ns_per_byte``,
        ``c_ci_low``, ``c_ci_high``, ``asymptotic_bytes_per_s`` (= 1e9 / c), ``clock_hz``,
        ``cycles_per_byte`` (= c × clock), ``n_half_bytes`` (= t0 / c), ``r_squared``
        (weighted), ``lack_of_fit_p``, ``max_misfit`` (largest relative misfit at a size),
        ``residuals`` (misfit per size, as text), ``unit``, ``n_units``, ``n_sizes``,
        ``n_points``, ``note``.

    Examples
    --------
    Three runs of exact lines t = 40 + 1.0·n (GCM-like), one 2 % slower, give t0 = 40.3 ns and
    c = 1.006 ns/byte back, with intervals from the three runs:

    >>> import pandas as pd
    >>> n = pd.Series([16, 64, 256, 1024, 8192] * 3)
    >>> slow = pd.Series([1.0] * 10 + [1.02] * 5)
    >>> df = pd.DataFrame({"source": "cap", "run": [0] * 5 + [1] * 5 + [2] * 5,
    ...                    "algorithm": "aes-128-gcm", "operation": "encrypt", "block_bytes": n,
    ...                    "bytes_per_s": 1e9 * n / (40 + 1.0 * n) / slow})
    >>> fit = cost_model(df, clock_hz=3e9)
    >>> fit[["t0_ns", "c_ns_per_byte", "c_ci_low", "c_ci_high", "n_units"]]
       t0_ns c_ns_per_byte c_ci_low c_ci_high n_units
    0  40.26         1.006   0.9782     1.035       3
    """
    alpha = check_alpha(alpha)
    keys = _cost_keys(df, groupby)
    points = _points(df, keys, metric, clock_hz, unit, "cost_model")
    if points.empty:
        raise AnalysisError(f"cost_model: no rows with a block size and a positive "
                            f"`{metric}`{_NO_LENGTH}.")
    fit, _ = _fit(points, keys, alpha)
    fit["unit"] = unit_name(unit)
    _warn_misfit(fit, alpha, "cost_model")
    fit = tidy_keys(fit, keys, df)
    from cipherlab.stats._export import StatsResult

    out = StatsResult(fit[[*keys, *COST_COLUMNS]])
    out.attrs.update({"unit": unit_name(unit)})
    return out


def _pair_fits(df, a, b, groupby, metric, clock_hz, alpha, unit, what):
    alpha = check_alpha(alpha)
    require_columns(df, ["algorithm"], what=what)
    algos = set(df["algorithm"].astype("object").dropna())
    for name, value in (("a", a), ("b", b)):
        if value not in algos:
            raise AnalysisError(f"{what}: `{name}` must be an algorithm of the table "
                                f"({', '.join(sorted(map(str, algos)))}); not {value!r}.")
    sub = df[df["algorithm"].astype("object").isin([a, b]).to_numpy()]
    keys = _cost_keys(sub, groupby)
    if "algorithm" not in keys:
        raise AnalysisError(f"{what}: `groupby` must contain 'algorithm'; it is {keys}.")
    points = _points(sub, keys, metric, clock_hz, unit, what)
    sized = set(points["algorithm"].astype("object"))
    unsized = [v for v in dict.fromkeys((a, b)) if v not in sized]
    if unsized:
        has = "has" if len(unsized) == 1 else "have"
        raise AnalysisError(f"{what}: {', '.join(map(repr, unsized))} {has} no rows with a "
                            f"block size and a positive `{metric}`{_NO_LENGTH}.")
    fit, influence = _fit(points, keys, alpha)
    # The two algorithms pair up within the same machine, operation and conditions.
    other = [k for k in keys if k != "algorithm"]
    fa = fit[fit["algorithm"] == a].drop(columns="algorithm")
    fb = fit[fit["algorithm"] == b].drop(columns="algorithm")
    both = fa.merge(fb, on=other, suffixes=("_a", "_b"), how="inner") if other else \
        fa.merge(fb, how="cross", suffixes=("_a", "_b"))
    if both.empty:
        raise AnalysisError(f"{what}: no group has both {a!r} and {b!r} (with the same "
                            f"{', '.join(other)}); when the two were measured under different "
                            f"labels, pass groupby=['algorithm', 'operation', <conditions>].")
    return both, other, points, influence


def _joint(both, influence):
    """Per pair: variances and covariance of (dt0, dc) = (t0_a - t0_b, c_b - c_a), robust to
    clustering by unit; a unit that measured both algorithms counts once (their covariance)."""
    pair = np.arange(len(both))
    frames = []
    for side, sign in (("a", 1.0), ("b", -1.0)):
        f = pd.DataFrame({"_g": both[f"_g_{side}"].to_numpy(), "_pair": pair})
        f = f.merge(influence, on="_g")
        frames.append(pd.DataFrame({"_pair": f["_pair"], "_unit": f["_unit"],
                                    "dt0": sign * f["_i_t0"], "dc": -sign * f["_i_c"]}))
    per_unit = pd.concat(frames).groupby(["_pair", "_unit"])[["dt0", "dc"]].sum().reset_index()
    p = per_unit["_pair"].to_numpy()
    G = np.bincount(p, minlength=len(both)).astype(float)
    shared = G < both["n_units_a"].to_numpy() + both["n_units_b"].to_numpy()
    dof = np.where(shared, G - 1, G - 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(dof >= 1, G / (G - 1), np.nan)
    d0, d1 = per_unit["dt0"].to_numpy(), per_unit["dc"].to_numpy()
    v11, v22, v12 = (scale * np.bincount(p, weights=v, minlength=len(both))
                     for v in (d0 * d0, d1 * d1, d0 * d1))
    return v11, v22, v12, dof


def fieller(num, den, v_num, v_den, cov, q):
    """Fieller's interval for ``num / den`` (Fieller 1954, *JRSS B* 16:175-185).

    The set of θ with ``(num - θ·den)² <= q²·(v_num - 2θ·cov + θ²·v_den)``: bounded when ``den``
    differs from 0 significantly, else unbounded (returned as ``-inf``/``inf``).

    >>> lo, hi = fieller(36.0, 0.8, 4.0, 0.0004, 0.0, 1.96)
    >>> round(float(lo), 1), round(float(hi), 1)
    (39.7, 50.5)
    """
    a = den ** 2 - q ** 2 * v_den
    b = num * den - q ** 2 * cov
    c = num ** 2 - q ** 2 * v_num
    with np.errstate(invalid="ignore", divide="ignore"):
        root = np.sqrt(b ** 2 - a * c)
        lo, hi = (b - root) / a, (b + root) / a
    bounded = a > 0
    return np.where(bounded, lo, -np.inf), np.where(bounded, hi, np.inf)


def crossover(df: pd.DataFrame, a: str = "aes-128-gcm", b: str = "aes-128-cbc", *,
              groupby: str | Sequence[str] | None = None, metric: str = "bytes_per_s",
              alpha: float = 0.05, clock_hz=None, unit: str | Sequence[str] = "run"
              ) -> pd.DataFrame:
    """Block size where algorithm ``a`` overtakes ``b``: where their cost lines cross.

    With fits ``t_a = t0_a + c_a·n`` and ``t_b = t0_b + c_b·n`` (see :func:`cost_model`), ``a``
    is faster for every ``n > (t0_a - t0_b) / (c_b - c_a)`` when ``c_a < c_b``. The interval is
    Fieller's for that quotient (:func:`fieller`), from the run-clustered covariance of both
    fits together (a run that measured both algorithms moves both: their covariance counts).
    It is unbounded above (inf) when the slopes do not differ significantly; its low end is
    clipped at 0. With one run there is no interval.

    Parameters
    ----------
    df : DataFrame
        Tidy table holding both algorithms.
    a, b : str
        Canonical algorithm names (``a`` overtakes ``b``).
    groupby, metric, alpha, clock_hz, unit
        As in :func:`cost_model`; ``groupby`` must contain ``algorithm``.

    Returns
    -------
    DataFrame
        Keys (those of :func:`cost_model` without ``algorithm``) + ``a``, ``b``,
        ``crossover_bytes``, ``ci_low``, ``ci_high``, ``regime``: ``"a overtakes b"`` (``a`` is
        faster above ``crossover_bytes``), ``"b overtakes a"`` (``a`` is faster only below it,
        ``b`` above), ``"a always faster"`` (0), ``"never"`` (inf: ``a`` is never faster) or
        ``"no fit"`` (NaN); ``n_units`` (runs of the pair) and ``note``. Intervals are given
        where the lines cross (the first two regimes) and there are runs to give one.

    Examples
    --------
    >>> import pandas as pd
    >>> n = pd.Series([16, 64, 256, 1024, 8192])
    >>> df = pd.concat([
    ...     pd.DataFrame({"source": "dump", "run": 0, "algorithm": "aes-128-gcm",
    ...                   "block_bytes": n, "bytes_per_s": 1e9 * n / (40 + 1.0 * n)}),
    ...     pd.DataFrame({"source": "dump", "run": 0, "algorithm": "aes-128-cbc",
    ...                   "block_bytes": n, "bytes_per_s": 1e9 * n / (4 + 1.8 * n)})])
    >>> crossover(df)[["a", "b", "crossover_bytes", "ci_low", "regime"]]
                 a            b crossover_bytes ci_low         regime
    0  aes-128-gcm  aes-128-cbc           45.00      –  a overtakes b
    """
    both, keys, points, influence = _pair_fits(df, a, b, groupby, metric, clock_hz, alpha, unit,
                                               "crossover")
    t0a, ca, t0b, cb = (both[c].to_numpy(float) for c in ("t0_ns_a", "c_ns_per_byte_a",
                                                          "t0_ns_b", "c_ns_per_byte_b"))
    dt0, dc = t0a - t0b, cb - ca  # dc > 0: a is cheaper per byte
    with np.errstate(divide="ignore", invalid="ignore"):
        n_star = dt0 / dc
    fitted = ~np.isnan(dt0) & ~np.isnan(dc)
    regime = np.select(
        [~fitted, (dc > 0) & (dt0 > 0), (dc > 0) & (dt0 <= 0), (dc <= 0) & (dt0 < 0)],
        ["no fit", "a overtakes b", "a always faster", "b overtakes a"], default="never")
    # the lines cross (either way round): the size where they do, with its interval
    crossing = np.isin(regime, ["a overtakes b", "b overtakes a"]) & (dc != 0)
    value = np.select([crossing, regime == "a always faster", regime == "no fit"],
                      [n_star, 0.0, np.nan], default=np.inf)
    v11, v22, v12, dof = _joint(both, influence)
    lo, hi = fieller(dt0, dc, v11, v22, v12, _st.t.ppf(1 - alpha / 2, dof))
    finite = crossing & (dof >= 1)
    out = both[keys].copy()
    out["a"], out["b"] = a, b
    out["crossover_bytes"] = value
    out["ci_low"] = np.where(finite, np.maximum(lo, 0.0), np.nan)
    out["ci_high"] = np.where(finite, hi, np.nan)
    out["regime"] = regime
    out["n_units"] = (dof + 1).astype(int)
    t_crit = _st.t.ppf(1 - alpha / 2, np.maximum(dof, 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        slopes_alike = (dof >= 1) & ~(np.abs(dc) / np.sqrt(v22) > t_crit)
    out["note"] = _crossover_notes(value, crossing, regime, dof, slopes_alike,
                                   _measured_sizes(both, points, keys))
    out = tidy_keys(out, keys, df)
    from cipherlab.stats._export import StatsResult

    return StatsResult(out.reset_index(drop=True))


def _measured_sizes(both, points, keys) -> np.ndarray:
    """Per pair of fits, the smallest and largest block size the runs measured (rows x 2)."""
    span = (points.groupby([points[k].astype("object") for k in keys], dropna=False)["_n"]
            .agg(["min", "max"]).reset_index() if keys else
            pd.DataFrame({"min": [points["_n"].min()], "max": [points["_n"].max()]}))
    if not keys:
        return np.repeat(span[["min", "max"]].to_numpy(float), len(both), axis=0)
    found = both[keys].astype("object").merge(span, on=keys, how="left")
    return found[["min", "max"]].to_numpy(float)


def _crossover_notes(value, crossing, regime, dof, slopes_alike, sizes) -> np.ndarray:
    """What a crossover row cannot say: one run (no interval), a crossing outside the sizes
    measured (an extrapolation of the lines), "always"/"never" where the per-byte costs do not
    differ significantly (which is faster for longer messages is not known)."""
    from cipherlab.plots import format_bytes

    notes = []
    for i in range(len(value)):
        said = ["one run: no replication, no interval"] if dof[i] < 1 else []
        low, high = sizes[i]
        measured = f"{format_bytes(low)}–{format_bytes(high)}"
        if crossing[i] and not low <= value[i] <= high:
            said.append(f"the lines cross outside the sizes measured ({measured}): an "
                        "extrapolation, not a measurement")
        if regime[i] in ("a always faster", "never") and slopes_alike[i]:
            said.append(f"the per-byte costs do not differ significantly: beyond the sizes "
                        f"measured ({measured}) which is faster is not known from these runs")
        notes.append("; ".join(said))
    return np.array(notes, dtype=object)


def small_block_overhead(df: pd.DataFrame, a: str = "aes-128-gcm", b: str = "aes-128-cbc", *,
                         groupby: str | Sequence[str] | None = None, metric: str = "bytes_per_s",
                         alpha: float = 0.05, unit: str | Sequence[str] = "run") -> pd.DataFrame:
    """Throughput ratio a/b by block size, with each one's fixed per-call cost and its share.

    The share of a call spent in fixed overhead at size ``n`` is ``t0 / (t0 + c·n)`` from the
    fitted lines (:func:`cost_model`): near 1 where per-call setup dominates (GCM at 16 bytes),
    near 0 for long messages. The ratio is of the runs' geometric means, its interval Welch's
    over the runs of each algorithm; the share's interval is a delta-method interval on the
    logit scale, ``logit(share) = log t0 - log(c·n)``, from the run-clustered influence of the
    fit (so it stays inside 0-1). With one run per algorithm there are no intervals.

    Parameters
    ----------
    df : DataFrame
        Tidy table holding both algorithms.
    a, b : str
        Canonical algorithm names; ``ratio`` is throughput of ``a`` over ``b``.
    groupby, metric, alpha, unit
        As in :func:`cost_model`.

    Returns
    -------
    DataFrame
        Keys (those of :func:`cost_model` without ``algorithm``) + ``a``, ``b``, ``block_bytes``,
        ``ratio``, ``ci_low``, ``ci_high``, ``t0_a_ns``, ``t0_b_ns``, ``overhead_share_a``,
        ``share_a_low``, ``share_a_high``, ``overhead_share_b``, ``share_b_low``,
        ``share_b_high``, ``n_units_a``, ``n_units_b``.

    Examples
    --------
    >>> import pandas as pd
    >>> n = pd.Series([16, 8192])
    >>> df = pd.concat([
    ...     pd.DataFrame({"source": "dump", "run": 0, "algorithm": "aes-128-gcm",
    ...                   "block_bytes": n, "bytes_per_s": 1e9 * n / (40 + 1.0 * n)}),
    ...     pd.DataFrame({"source": "dump", "run": 0, "algorithm": "aes-128-cbc",
    ...                   "block_bytes": n, "bytes_per_s": 1e9 * n / (4 + 1.8 * n)})])
    >>> small_block_overhead(df)[["block_bytes", "ratio", "overhead_share_a", "overhead_share_b"]]
      block_bytes  ratio overhead_share_a overhead_share_b
    0          16  0.586            0.714            0.122
    1        8192  1.792            0.005           0.0003
    """
    both, other, points, influence = _pair_fits(df, a, b, groupby, metric, None, alpha, unit,
                                                "small_block_overhead")
    cells = _ratio_cells(points, other, a, b)
    cells = cells.merge(both, on=other, how="inner") if other else cells.merge(both, how="cross")
    diff, se, dof = (cells[c].to_numpy(float) for c in ("_diff", "_se", "_dof"))
    lo, hi = _tests.t_interval(diff, se, dof, alpha)
    n = cells["_n"].to_numpy(float)
    out = cells[other].copy()
    out["a"], out["b"] = a, b
    out["block_bytes"] = n.astype(np.int64)
    out["ratio"], out["ci_low"], out["ci_high"] = np.exp(diff), lo, hi
    out["t0_a_ns"], out["t0_b_ns"] = cells["t0_ns_a"].to_numpy(), cells["t0_ns_b"].to_numpy()
    spread = _log_ratio_sd(influence)
    for side in ("a", "b"):
        t0, c = cells[f"t0_ns_{side}"].to_numpy(), cells[f"c_ns_per_byte_{side}"].to_numpy()
        g = cells[f"_g_{side}"].to_numpy()
        with np.errstate(divide="ignore", invalid="ignore"):
            share = t0 / (t0 + c * n)
            logit = np.log(t0) - np.log(c * n)
            half = _st.t.ppf(1 - alpha / 2, cells[f"_dof_{side}"].to_numpy(float)) * np.sqrt(
                cells[f"_scale_{side}"].to_numpy(float) * spread.reindex(g).to_numpy(float))
        out[f"overhead_share_{side}"] = np.clip(share, 0.0, 1.0)
        out[f"share_{side}_low"] = 1 / (1 + np.exp(-(logit - half)))
        out[f"share_{side}_high"] = 1 / (1 + np.exp(-(logit + half)))
    out["n_units_a"], out["n_units_b"] = cells["n_units_a"].to_numpy(), cells["n_units_b"].to_numpy()
    out = tidy_keys(out, other, df).sort_values([*other, "block_bytes"], kind="stable")
    from cipherlab.stats._export import StatsResult

    return StatsResult(out.reset_index(drop=True))


def _ratio_cells(points, other, a, b):
    """Per size: log throughput ratio a/b over the runs, with se and degrees of freedom.

    Runs that measured both algorithms give paired log ratios (one-sample t on G - 1 degrees of
    freedom: their common offset cancels); otherwise the runs of each are compared by Welch.
    """
    pts = points.assign(_y=np.log(points["_n"] / points["_t"]))
    cell = [*other, "_n"]
    s = pts.groupby([*cell, "algorithm"], observed=True, dropna=False)["_y"].agg(
        ["count", "mean", "var"]).reset_index()
    sa = s[s["algorithm"] == a].drop(columns="algorithm")
    sb = s[s["algorithm"] == b].drop(columns="algorithm")
    cells = sa.merge(sb, on=cell, suffixes=("_a", "_b"))
    diff, se, dof = _tests.welch(*(cells[c].to_numpy(float) for c in (
        "mean_a", "var_a", "count_a", "mean_b", "var_b", "count_b")))
    ya = pts[pts["algorithm"] == a].drop(columns="algorithm")
    yb = pts[pts["algorithm"] == b].drop(columns="algorithm")
    pairs = ya.merge(yb, on=[*cell, "_unit"], suffixes=("_a", "_b"))
    pairs["_d"] = pairs["_y_a"] - pairs["_y_b"]
    d = pairs.groupby(cell, observed=True, dropna=False)["_d"].agg(["count", "mean", "var"])
    d = cells[cell].merge(d.reset_index(), on=cell, how="left")
    paired = ((d["count"] == cells["count_a"]) & (d["count"] == cells["count_b"])).to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        cells["_diff"] = np.where(paired, d["mean"], diff)
        cells["_se"] = np.where(paired, np.sqrt(d["var"] / d["count"]), se)
        cells["_dof"] = np.where(paired, d["count"] - 1, dof)
    return cells


def _log_ratio_sd(influence):
    """Per fit: the sum over units of the squared influence on log t0 - log c (unscaled)."""
    return influence.assign(_v=lambda f: f["_i_lr"] ** 2).groupby("_g")["_v"].sum()
