"""How many runs a comparison needs: ``runs_needed``, from the run-to-run spread of a capture.

Why this module exists: "how many runs do I need to see a 5 % difference?" is answered before
the next capture, from the spread of the runs already taken (a pilot). The unit is the run: its
repeats are averaged first (on the log scale), and the spread is the standard deviation of the
runs' log rates, cell by cell (a block size, an algorithm, an ISA condition, a machine). With
one run in a cell the spread is unknown and nothing is computed: repeats inside one process
share its state and would understate it (measurement-notes §4a).

The power is that of the two-sided Welch test :func:`cipherlab.stats.compare` runs, with ``n``
runs per side and the pilot's spread on both sides: with equal ``n`` its statistic is Student's
noncentral t with ``2n - 2`` degrees of freedom (:func:`scipy.stats.nct`), and its critical value
is taken at Welch's own degrees of freedom, which the two sides' sample variances make random
(fewer than ``2n - 2``: at 2 runs per side, between 1 and 2); the power is averaged over them.
A spread estimated from a few runs is itself uncertain: ``runs_needed_upper`` plans with its
one-sided 80 % upper confidence limit, which reaches the power asked for with about 80 %
probability (Browne 1995, *Statistics in Medicine* 14:1933-1940).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
from scipy import optimize as _opt
from scipy import stats as _st

from cipherlab.errors import AnalysisError
from cipherlab.stats._common import (
    CELL_KEYS, as_list, check_alpha, clean_metric, key_values, require_columns, split_keys,
    tidy_keys, unit_columns, unit_ids, unit_name)

__all__ = ["runs_needed"]

POWER_COLUMNS = ("n_runs", "spread", "spread_upper", "difference", "power", "runs_needed",
                 "runs_needed_upper", "detectable", "note")
#: Confidence of the spread's upper limit that ``runs_needed_upper`` plans with (Browne 1995).
_UPPER = 0.8
#: No plan beyond this many runs per side (a difference far below the noise): reported as such.
MAX_RUNS = 10_000


# Welch's degrees of freedom hang on the two sides' sample variances: with n runs per side and
# one true spread, nu = (n - 1) / (B^2 + (1 - B)^2), B = s1^2 / (s1^2 + s2^2) ~ Beta((n-1)/2,
# (n-1)/2), independent of the sum that, with equal n, makes the statistic Student's noncentral
# t with 2n - 2 degrees of freedom. The power is the mean over B of that t beyond Welch's
# critical value: here over the midpoints of _B_LEVELS equal-probability slices of B.
_B_LEVELS = (np.arange(64) + 0.5) / 64


def _welch_power(n, ncp, alpha):
    """Power of the two-sided Welch test, ``n`` runs per side (arrays broadcast), noncentrality
    ``ncp`` (the difference over its standard error). Student's t with ``2n - 2`` degrees of
    freedom overstates it for few runs: at 2 runs per side Welch's are between 1 and 2."""
    n, ncp = np.broadcast_arrays(np.asarray(n, dtype=float), np.asarray(ncp, dtype=float))
    half = (n[..., None] - 1) / 2
    b = _st.beta.ppf(_B_LEVELS, half, half)
    nu = (n[..., None] - 1) / (b ** 2 + (1 - b) ** 2)
    crit = _st.t.ppf(1 - alpha / 2, nu)
    dof, m = 2 * n[..., None] - 2, ncp[..., None]
    # (scipy's nct gives NaN far out in a tail: there the far tail holds nothing)
    upper = _st.nct.sf(crit, dof, m)
    upper = np.where(np.isnan(upper), 1 - _st.nct.cdf(crit, dof, m), upper)
    lower = np.nan_to_num(_st.nct.cdf(-crit, dof, m), nan=0.0)
    return (upper + lower).mean(axis=-1)


def _power(n, delta, sd, alpha):
    """Power of compare()'s two-sided Welch test, ``n`` runs per side, spread ``sd`` on both."""
    return _welch_power(n, delta / (sd * np.sqrt(2.0 / n)), alpha)


def _runs_for(delta, sd, alpha, power):
    """The smallest ``n`` per side whose power reaches ``power`` (NaN where sd is unknown)."""
    sd = np.asarray(sd, dtype=float)
    out = np.full(sd.shape, np.nan)
    known = np.isfinite(sd) & (sd > 0)
    z = _st.norm.ppf(1 - alpha / 2) + _st.norm.ppf(power)
    # start just below the normal approximation, then step up to the exact t answer
    n = np.maximum(2, np.floor(2 * (z * sd[known] / delta) ** 2) - 1)
    todo = np.ones(n.shape, dtype=bool)
    while todo.any():
        todo &= (n <= MAX_RUNS) & (_power(n, delta, sd[known], alpha) < power)
        n = n + todo
    out[known] = np.where(n > MAX_RUNS, np.inf, n)  # (beyond any plan)
    out[np.isfinite(sd) & (sd == 0)] = 2  # (no spread at all: the smallest design)
    return out


def _detectable(n, sd, alpha, power):
    """The smallest relative difference (a fraction) found with ``power`` at ``n`` runs per side."""
    out = np.full(len(n), np.nan)
    for k in np.unique(n[n >= 2]):
        # the noncentrality at which the two-sided test has the power asked for (the
        # bracket grows from below: scipy's nct gives NaN far out in the tail)
        gap = lambda m, k=k: float(_welch_power(k, m, alpha)) - power  # noqa: E731
        high = 2.0
        while gap(high) < 0:
            high *= 2
        ncp = _opt.brentq(gap, 0.0, high)
        idx = n == k
        out[idx] = np.expm1(ncp * sd[idx] * np.sqrt(2.0 / k))
    return out


def runs_needed(df: pd.DataFrame, difference: float = 0.05, *, power: float = 0.8,
                alpha: float = 0.05, groupby: str | Sequence[str] | None = None,
                metric: str = "bytes_per_s", unit: str | Sequence[str] = "run") -> pd.DataFrame:
    """How many runs per side a comparison needs to find a ``difference``, from a pilot capture.

    Each cell's run-to-run spread (the standard deviation of its runs' log rates; repeats are
    averaged to their run first) gives the runs per side with which :func:`compare`'s Welch
    test at level ``alpha`` finds a ratio of ``1 + difference`` with probability ``power``,
    assuming the other side of the comparison is as noisy. ``detectable`` is the other way
    round: the smallest difference the runs already taken (as many on each side) would find.
    Plan with ``runs_needed_upper`` when the pilot has few runs: it uses the spread's 80 %
    upper confidence limit (Browne 1995), since a spread from 3 runs may be half the true one.
    A grid of ``m`` cells tested together (Holm) needs about ``alpha / m`` per cell: pass it.

    A cell with one run (every pasted dump) has no known spread: its figures are blank (NA)
    and ``note`` says why; the repeats inside one process do not stand in for runs.

    Parameters
    ----------
    df : DataFrame
        Tidy table of a capture (several runs per cell), e.g. ``cipherlab.capture(...,
        repeats=3)``.
    difference : float
        The relative difference to find, > 0 (0.05: a ratio of 1.05).
    power : float
        The probability of finding it, between 0.5 and 1 (0.8 or 0.9 are usual).
    alpha : float
        Level of the two-sided test.
    groupby : str or list of str, optional
        Cell columns; default the cell (algorithm, operation, block size) plus every run or
        machine column that varies, as :func:`cost_model` splits them.
    metric : str
        ``bytes_per_s`` (default) or ``ops_per_s`` (public-key rows).
    unit : "run", "repeat" or column name(s)
        The unit of replication (see :func:`compare`).

    Returns
    -------
    DataFrame
        Cell keys + ``n_runs`` (runs in the pilot), ``spread`` (% : the runs' log standard
        deviation × 100), ``spread_upper`` (its 80 % upper confidence limit, %),
        ``difference``, ``power``, ``runs_needed`` and ``runs_needed_upper`` (per side; blank
        beyond 10,000, said in ``note``), ``detectable`` (a fraction: 0.05 = 5 %), ``note``.

    Examples
    --------
    Four runs of one cell with a 2.2 % run-to-run spread: 5 runs per side find 5 % (80 %
    power); 11 if the spread may be larger than four runs showed; the four in hand find 5.7 %.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"source": "cap", "run": range(4), "algorithm": "aes-128-gcm",
    ...                    "operation": "encrypt", "block_bytes": 16,
    ...                    "bytes_per_s": [1.00e9, 1.02e9, 0.98e9, 1.03e9]})
    >>> r = runs_needed(df, 0.05)
    >>> r[["n_runs", "spread", "runs_needed", "runs_needed_upper", "detectable"]]
      n_runs spread runs_needed runs_needed_upper detectable
    0      4  2.207           5                11    0.05704
    """
    check_alpha(alpha)
    if not (isinstance(difference, (int, float)) and not isinstance(difference, bool)
            and difference > 0):
        raise AnalysisError(f"`difference` must be a relative difference > 0 (0.05 for 5 %); "
                            f"not {difference!r}.")
    if not (isinstance(power, (int, float)) and 0.5 <= power < 1):
        raise AnalysisError(f"`power` must be a probability between 0.5 and 1 (e.g. 0.8); "
                            f"not {power!r}.")
    rows = clean_metric(df, metric, what="runs_needed")
    if rows.empty:
        raise AnalysisError(f"runs_needed: no row has a usable `{metric}`"
                            + (" (public-key rows count operations: pass metric='ops_per_s')"
                               if metric == "bytes_per_s" and "ops_per_s" in df.columns else "")
                            + ".")
    if groupby is None:
        keys, _ = split_keys(rows, None, CELL_KEYS)
    else:
        keys = as_list(groupby)
        require_columns(rows, keys, what="runs_needed `groupby`")
    frame = key_values(rows, keys)
    frame["_y"] = np.log(pd.to_numeric(rows[metric]).to_numpy(float))
    frame["_unit"] = unit_ids(rows, unit_columns(rows, unit, what="runs_needed"))
    runs = frame.groupby([*keys, "_unit"], observed=True, dropna=False, sort=True)["_y"].mean()
    cells = (runs.groupby(level=list(range(len(keys))), observed=True, dropna=False)
             .agg(["count", "std"]) if keys else runs.agg(["count", "std"]).to_frame().T)
    out = cells.reset_index()[keys].copy() if keys else pd.DataFrame(index=[0])
    k = cells["count"].to_numpy(int)
    sd = np.where(k >= 2, cells["std"].to_numpy(float), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        upper = sd * np.sqrt((k - 1) / _st.chi2.ppf(1 - _UPPER, np.maximum(k - 1, 1)))
    delta = float(np.log1p(difference))
    out["n_runs"] = k
    out["spread"], out["spread_upper"] = 100 * sd, 100 * upper
    out["difference"], out["power"] = float(difference), float(power)
    need, need_upper = (_runs_for(delta, s, alpha, power) for s in (sd, upper))
    for name, n in (("runs_needed", need), ("runs_needed_upper", need_upper)):
        out[name] = pd.array(np.where(np.isfinite(n), n, np.nan), dtype="Int64")
    out["detectable"] = _detectable(k, sd, alpha, power)
    out["note"] = np.select(
        [k < 2, np.isinf(need_upper)],
        ["one run: its run-to-run spread is unknown (repeats inside one process do not stand "
         "in for runs)", f"more than {MAX_RUNS:,} runs per side (blank): the difference is far "
                         f"below the run-to-run spread"], "")
    out = tidy_keys(out, keys, df)
    from cipherlab.stats._export import StatsResult

    result = StatsResult(out[[*keys, *POWER_COLUMNS]].reset_index(drop=True))
    result.attrs.update({"unit": unit_name(unit), "metric": metric})
    return result
