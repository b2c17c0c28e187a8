"""Ratios between conditions with an interval and a test: ``compare``, ``speedup``, ``ratio_test``.

Why this module exists: "AES-NI makes it about 2x faster" is a claim about a ratio of
throughputs. The honest answer gives the ratio, its confidence interval and a test together, in
every cell of the grid, with the p-values adjusted for the number of tests, and it counts the
right things as replicates (measurement-notes §4a):

- the unit of replication is the **run** (one process, ``unit="run"``): the repeats of one run
  share its clock, cache and noise of the moment, so they are first aggregated to the run (mean
  of the log values, i.e. the run's geometric mean), and the test compares runs;
- cells are split by every column that tells machines, builds, tools or conditions apart
  (``host``, ``label``, ``tool_version``, ``tier``, ``aesni``, ...), so nothing is pooled across
  machines or versions unless the caller's ``groupby`` asks for it (and then with a warning);
- with one run per side (every pasted dump) there is nothing to test: the result describes the
  ratio per cell, labelled ``"no replication"``, with no p-value, no interval and no verdict.
  Block sizes are never replicates: pairing across them exists only on explicit request
  (``paired=``), with a warning saying what it assumes.

Throughput is analysed on the log scale, where a ratio is a difference of means and
multiplicative noise is additive; ``ratio`` is always ``exp(mean log candidate - mean log
baseline)`` over the runs (the ratio of geometric means), whatever the test.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd
from scipy import stats as _st

from cipherlab.errors import AnalysisError, CipherlabWarning
from cipherlab.stats import _tests
from cipherlab.stats._adjust import adjust_p
from cipherlab.stats._common import (
    CELL_KEYS, MACHINE_KEYS, as_list, check_alpha, check_one_of, clean_metric, key_values,
    require_columns, split_keys, tidy_keys, unit_columns, unit_ids, unit_name, warn)
from cipherlab.stats._hygiene import hygiene

__all__ = ["compare", "ratio_test", "speedup"]

_TESTS = ("welch", "permutation", "mannwhitney", "brunnermunzel", "bootstrap")
_PAIRED_NAMES = {"welch": "paired t", "permutation": "sign-flip", "mannwhitney": "wilcoxon",
                 "brunnermunzel": "paired t", "bootstrap": "sign-flip"}
#: The ``test`` of a cell with one run on a side: described, not tested.
UNREPLICATED = "no replication"
#: Smallest number of runs per side at which each test's calibration was checked
#: (tests/stats/test_simulation.py); below it the result says so and gives no verdict.
MIN_UNITS = {"welch": 2, "permutation": 8, "mannwhitney": 3, "brunnermunzel": 8, "bootstrap": 8}
#: BCa intervals under-cover below this many runs per side (simulated coverage < 0.93).
BCA_MIN_UNITS = 10

_HYGIENE = ("gmean_candidate", "gmean_baseline", "median_candidate", "median_baseline",
            "spread_candidate", "spread_baseline", "hygiene")
COMPARE_COLUMNS = ("candidate", "baseline", "ratio", "ci_low", "ci_high", "statistic", "p_value",
                   "p_adjusted", "test", "unit", "n_candidate", "n_baseline", "significant",
                   "min_p", "note", *_HYGIENE)
RATIO_TEST_COLUMNS = ("candidate", "baseline", "ratio", "ci_low", "ci_high", "expected", "margin",
                      "statistic", "p_value", "p_adjusted", "p_equivalence",
                      "p_equivalence_adjusted", "tost_low", "tost_high", "equivalent", "differs",
                      "n", "n_candidate", "n_baseline", "test", "unit", "note", *_HYGIENE)
_PAIRED_WARNING = (
    "{what}: paired={pair} treats the {pair} values of one run as independent replicates. It "
    "assumes the ratio is the same at every {pair} and that they share no run-to-run noise; "
    "both fail for benchmarks (the ratio changes with block size, and a 1-5 % run offset "
    "moves every size together: simulated type I error 0.3-0.9 at a nominal 0.05, "
    "measurement-notes §4a). Its p-value and interval answer that assumption only.")


# ---------------------------------------------------------------------------------------------
# preparing the two sides


def _sides(df, by, baseline, candidate, metric, what):
    """Validated rows of the compared levels (clean metric), and the candidate levels."""
    require_columns(df, [by, metric], what=what)
    _refuse_namesakes(df, by, what)
    levels = df[by].astype("object")
    present = pd.unique(levels.dropna())
    if baseline not in set(present):
        blank = ("" if not levels.isna().any() else
                 f" Rows where {by!r} is blank (NA: not stated, or not used) are no level; to "
                 f"compare them, give them one: df.assign({by}=df[{by!r}].fillna(...)).")
        raise AnalysisError(f"{what}: `baseline` must be a value of column {by!r} "
                            f"({', '.join(map(repr, sorted(present, key=str)))}); not "
                            f"{baseline!r}.{blank}")
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
    return clean_metric(rows, metric, what=what), candidates


def _refuse_namesakes(df, by, what):
    """Refuse ``by="host"`` where one host name holds several machines (``host_id``: every
    cloud VM is ``ubuntu``): its level would be two machines, its runs no one machine's.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"host": ["ubuntu", "ubuntu", "pi"], "host_id": ["a1", "b2", "c3"]})
    >>> _refuse_namesakes(df, "host", "compare")
    Traceback (most recent call last):
    ...
    cipherlab.errors.AnalysisError: compare: host 'ubuntu' names 2 machines (host_id a1, b2: two
    machines with one host name); compare by='host_id', or name them apart first, e.g.
    df['host'] = df['host'].astype(str) + ' ' + df['host_id'].astype(str).str[:8]
    """
    if by != "host" or "host_id" not in df.columns:
        return
    ids = df.groupby(df[by].astype("object"), sort=False)["host_id"].unique()
    ids = ids.map(lambda v: [x for x in v if pd.notna(x)])
    for host, found in ids.items():
        if len(found) > 1:
            raise AnalysisError(
                f"{what}: host {host!r} names {len(found)} machines (host_id "
                f"{', '.join(map(str, found))}: two machines with one host name); compare "
                f"by='host_id', or name them apart first, e.g. df['host'] = "
                f"df['host'].astype(str) + ' ' + df['host_id'].astype(str).str[:8]")


def _keys(rows, groupby, by, what):
    """Cell keys: the caller's, or the cell columns plus every varying run/machine column."""
    if groupby is None:
        keys, _ = split_keys(rows, by, CELL_KEYS)
    else:
        keys = as_list(groupby)
        require_columns(rows, keys, what="`groupby`")
        _warn_pooled(rows, keys, by, what)
    if by in keys:
        raise AnalysisError(f"`groupby` must not contain the compared column `by`={by!r}; "
                            f"it is {keys}.")
    return keys


def _warn_pooled(rows, keys, by, what):
    """Warn when a caller's grouping puts runs of different machines/versions in one cell."""
    cols = [c for c in MACHINE_KEYS if c in rows.columns and c not in keys and c != by]
    if not cols or rows.empty:
        return
    g = rows.groupby([*keys, by] if keys else [by], observed=True, dropna=False)
    pooled = [c for c in cols if (g[c].nunique() > 1).any()]
    if pooled:
        warn(f"{what}: the grouping {keys} pools runs that differ in {', '.join(pooled)} into one "
             f"cell; add them to `groupby` (the default does) unless pooling is the question.",
             CipherlabWarning)


def _frame(rows, keys, by, metric, unit_cols):
    """Plain columns: decoded keys, ``_side``, ``_y`` (log metric), ``_unit``, ``_rep``."""
    out = key_values(rows, keys)
    out["_side"] = rows[by].astype("object").to_numpy()
    out["_y"] = np.log(pd.to_numeric(rows[metric]).to_numpy(float))
    out["_unit"] = unit_ids(rows, unit_cols)
    out["_rep"] = (pd.to_numeric(rows["repeat"], errors="coerce").to_numpy(float)
                   if "repeat" in rows.columns else np.nan)
    return out


def _units(frame, keys):
    """One row per cell, side and unit: the unit's mean log value (its geometric mean)."""
    return frame.groupby([*keys, "_side", "_unit"], observed=True, dropna=False,
                         sort=False)["_y"].mean().reset_index()


def _join_sides(s, keys, baseline, candidates, suffix=("_c", "_b")):
    """Per-side rows of ``s`` (keyed by ``_side``) joined: candidates beside the baseline."""
    value_cols = [c for c in s.columns if c not in (*keys, "_side")]
    base = s[s["_side"] == baseline].drop(columns="_side")
    base = base.rename(columns={c: c + suffix[1] for c in value_cols})
    cand = s[s["_side"].isin(candidates)].rename(
        columns={"_side": "candidate", **{c: c + suffix[0] for c in value_cols}})
    merged = cand.merge(base, on=keys, how="inner") if keys else cand.merge(base, how="cross")
    merged["baseline"] = baseline
    order = {c: i for i, c in enumerate(candidates)}
    merged["_corder"] = merged["candidate"].map(order)
    return merged.sort_values(["_corder", *keys], kind="stable").drop(columns="_corder").reset_index(
        drop=True)


def _summaries(units, keys, baseline, candidates):
    """Per cell and side: number of units, mean and variance of their log values."""
    s = units.groupby([*keys, "_side"], observed=True, dropna=False, sort=False)["_y"].agg(
        ["count", "mean", "var"]).reset_index()
    s = s.rename(columns={"count": "n", "mean": "m", "var": "v"})
    return _join_sides(s, keys, baseline, candidates)


def _unit_matrices(units, keys, cells, candidates, baseline):
    """For each cell row: candidate and baseline unit values as padded matrices."""
    index = cells[[*keys, "candidate"]].copy()
    index["_cell"] = np.arange(len(cells))
    cand = units[units["_side"].isin(candidates)].rename(columns={"_side": "candidate"})
    cand = cand.merge(index, on=[*keys, "candidate"], how="inner")
    base = units[units["_side"] == baseline].drop(columns="_side")
    base = base.merge(index, on=keys, how="inner") if keys else base.merge(index, how="cross")
    xc, nc = _tests.values_matrix(cand["_cell"].to_numpy(), cand["_y"].to_numpy(float), len(cells))
    xb, nb = _tests.values_matrix(base["_cell"].to_numpy(), base["_y"].to_numpy(float), len(cells))
    return xc, nc, xb, nb


def _hygiene_columns(frame, units, keys, cells, baseline, candidates):
    """Geometric mean (over units), median and spread (over every value) and flags per side."""
    h = hygiene(frame, [*keys, "_side"])
    gm = units.groupby([*keys, "_side"], observed=True, dropna=False, sort=False)["_y"].mean()
    h = h.merge(np.exp(gm).rename("gmean").reset_index(), on=[*keys, "_side"], how="left")
    h = _join_sides(h, keys, baseline, candidates, suffix=("_candidate", "_baseline"))
    h = cells[[*keys, "candidate"]].merge(h, on=[*keys, "candidate"], how="left")
    out = {c: h[c].to_numpy() for c in _HYGIENE[:-1]}
    flags = []
    for fc, fb in zip(h["flags_candidate"].fillna(""), h["flags_baseline"].fillna("")):
        flags.append("; ".join([f"candidate: {fc}"] * bool(fc) + [f"baseline: {fb}"] * bool(fb)))
    out["hygiene"] = np.array(flags, dtype=object)
    return out


# ---------------------------------------------------------------------------------------------
# the per-cell and the paired analyses


def _per_cell(frame, keys, baseline, candidates, test, alpha, n_boot, seed):
    units = _units(frame, keys)
    cells = _summaries(units, keys, baseline, candidates)
    n_c, n_b = cells["n_c"].to_numpy(float), cells["n_b"].to_numpy(float)
    diff, se, dof = _tests.welch(cells["m_c"].to_numpy(float), cells["v_c"].to_numpy(float), n_c,
                                 cells["m_b"].to_numpy(float), cells["v_b"].to_numpy(float), n_b)
    k = len(cells)
    min_p = np.full(k, np.nan)
    if test == "welch":
        stat, p = _tests.t_test(diff, se, dof)
        lo, hi = _tests.t_interval(diff, se, dof, alpha)
    else:
        xc, nc, xb, nb = _unit_matrices(units, keys, cells, candidates, baseline)
        if test == "mannwhitney":
            stat, p, min_p, lo, hi = _tests.mannwhitney(xc, nc, xb, nb, alpha)
        elif test == "brunnermunzel":
            stat, p = _tests.brunnermunzel(xc, nc, xb, nb)
            lo, hi = _tests.t_interval(diff, se, dof, alpha)
        else:  # permutation (and its alias bootstrap): exact p, BCa interval
            stat, p, min_p = _tests.permutation(xc, nc, xb, nb, n_boot, seed)
            lo, hi = _tests.bca(xc, nc, xb, nb, alpha, n_boot, seed)
            short = np.minimum(n_c, n_b) < BCA_MIN_UNITS
            lo, hi = np.where(short, np.nan, lo), np.where(short, np.nan, hi)
    out = cells[[*keys, "candidate", "baseline"]].copy()
    out["ratio"] = np.exp(diff)
    replicated = (n_c >= 2) & (n_b >= 2)
    enough = np.minimum(n_c, n_b) >= MIN_UNITS[test]
    for name, values in (("ci_low", lo), ("ci_high", hi), ("statistic", stat), ("p_value", p)):
        out[name] = np.where(replicated & enough, values, np.nan)
    out["test"] = np.where(replicated, test, UNREPLICATED)
    out["n_candidate"], out["n_baseline"] = n_c.astype(int), n_b.astype(int)
    out["min_p"] = min_p
    out["_testable"] = replicated & enough & ~((min_p > alpha) & np.isfinite(min_p))
    out["note"] = _notes(n_c, n_b, test, min_p, alpha)
    out["_diff"], out["_se"], out["_dof"] = diff, se, dof
    for name, values in _hygiene_columns(frame, units, keys, cells, baseline, candidates).items():
        out[name] = values
    return out


def _notes(n_c, n_b, test, min_p, alpha):
    """Why a cell has no verdict, in words (empty when it has one)."""
    n = np.minimum(n_c, n_b)
    notes = np.full(len(n), "", dtype=object)
    for i in np.flatnonzero(n < 2):
        notes[i] = (f"{UNREPLICATED}: {int(n_c[i])} vs {int(n_b[i])} run(s); the ratio is a "
                    f"description, not a test")
    for i in np.flatnonzero((n >= 2) & (n < MIN_UNITS[test])):
        notes[i] = (f"{test} needs >= {MIN_UNITS[test]} runs per side to be calibrated; "
                    f"has {int(n[i])}")
    for i in np.flatnonzero((n >= MIN_UNITS[test]) & (min_p > alpha)):
        notes[i] = (f"cannot detect a difference: with {int(n_c[i])} vs {int(n_b[i])} runs the "
                    f"smallest p {test} can give is {min_p[i]:.3g} > alpha")
    if test in ("permutation", "bootstrap"):
        for i in np.flatnonzero((n >= 2) & (n < BCA_MIN_UNITS) & (notes == "")):
            notes[i] = f"no BCa interval below {BCA_MIN_UNITS} runs per side (it under-covers)"
    return notes


def _paired(frame, keys, pair_keys, baseline, candidates, test, alpha, n_boot, seed):
    """Log ratios of the cells across ``pair_keys`` as the sample (explicit request only)."""
    out_keys = [k for k in keys if k not in pair_keys]
    cell_keys = [*keys, *[k for k in pair_keys if k not in keys]]
    units = _units(frame, cell_keys)
    pairs = _summaries(units, cell_keys, baseline, candidates)
    pairs["_d"] = pairs["m_c"] - pairs["m_b"]
    gcols = [*out_keys, "candidate", "baseline"]
    g = pairs.groupby(gcols, observed=True, dropna=False, sort=False)
    s = g["_d"].agg(["count", "mean", "var", "min", "max"]).reset_index()
    n = s["count"].to_numpy(float)
    mean, var = s["mean"].to_numpy(float), s["var"].to_numpy(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.sqrt(var / n)
    dof = n - 1
    min_p = np.full(len(s), np.nan)
    if test in ("welch", "brunnermunzel"):
        stat, p = _tests.t_test(mean, se, dof)
        lo, hi = _tests.t_interval(mean, se, dof, alpha)
    else:
        gid = g.ngroup().to_numpy()
        d, counts = _tests.values_matrix(gid, pairs["_d"].to_numpy(float), len(s))
        if test == "mannwhitney":
            stat, p, min_p, lo, hi = _tests.wilcoxon(d, counts, alpha)
        else:
            stat, p, min_p = _tests.sign_flip(d, counts, n_boot, seed)
            lo, hi = _tests.bca(d, counts, d, counts, alpha, n_boot, seed, paired=True)
    testable = n >= 2
    out = s[gcols].copy()
    out["ratio"] = np.exp(mean)
    for name, values in (("ci_low", lo), ("ci_high", hi), ("statistic", stat), ("p_value", p)):
        out[name] = np.where(testable, values, np.nan)
    out["test"] = np.where(testable, _PAIRED_NAMES[test], UNREPLICATED)
    out["n_candidate"] = out["n_baseline"] = n.astype(int)
    out["min_p"] = min_p
    out["_testable"] = testable & ~((min_p > alpha) & np.isfinite(min_p))
    out["note"] = np.where(testable, f"assumes the {', '.join(pair_keys)} values are "
                                     f"independent replicates of one ratio", "one pair")
    out["paired_over"] = ", ".join(pair_keys)
    out["ratio_min"], out["ratio_max"] = np.exp(s["min"].to_numpy(float)), np.exp(
        s["max"].to_numpy(float))
    out["_diff"], out["_se"], out["_dof"] = mean, se, dof
    for c in _HYGIENE:
        out[c] = np.nan if c != "hygiene" else ""
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


def _run(df, by, baseline, candidate, groupby, metric, test, alpha, paired, unit, what, check):
    """Validate the arguments; return the analysis frame, cell keys, candidates, pair keys."""
    check_alpha(alpha)
    test = {"t": "welch", "paired t": "welch", "wilcoxon": "mannwhitney",
            "sign-flip": "permutation"}.get(test, test)
    check_one_of("test", test, _TESTS)
    pair_keys = _pair_keys(paired, df)
    rows, candidates = _sides(df, by, baseline, candidate, metric, what)
    keys = _keys(rows, groupby, by, what)
    unit_cols = unit_columns(rows, unit, what=what)
    if check:
        from cipherlab.stats._checks import comparable, warn_implausible

        comparable(rows, by=by, groupby=[k for k in keys if k != "block_bytes"], metric=metric)
        if metric == "bytes_per_s":
            warn_implausible(rows, what)
        _warn_one_session_per_side(rows, by, unit_cols, what)
    if pair_keys:
        warn(_PAIRED_WARNING.format(what=what, pair=", ".join(pair_keys)), CipherlabWarning)
    frame = _frame(rows, [*keys, *[k for k in pair_keys if k not in keys]], by, metric, unit_cols)
    if frame.empty or not _shared_cells(frame, keys, baseline):
        # (when both sides have rows with the metric but share no cell, say what each side
        # has, not that another metric would help)
        is_base = (frame["_side"] == baseline).to_numpy()
        hint = (_sides_hint(frame, keys, is_base) if is_base.any() and (~is_base).any()
                else _other_metric(df, by, [baseline, *candidates], metric))
        raise AnalysisError(f"{what}: no cell has usable `{metric}` values on both sides of "
                            f"{by!r} ({[baseline, *candidates]}); cells are {keys}.{hint}")
    return frame, keys, candidates, test, pair_keys


def _warn_one_session_per_side(rows, by, unit_cols, what):
    """Warn when each side's runs all come from one capture session of its own on one machine:
    they share that session's machine state, so the runs' spread leaves the session out.
    (Machines compared are sessions apart anyway: that is said by what is compared.)"""
    machine = next((c for c in ("host_id", "host") if c in rows.columns), None)
    if "capture_id" not in rows.columns or rows["capture_id"].isna().any() or (
            unit_cols is not None and not {"source", "run"} & set(unit_cols)) or (
            machine is None or rows[machine].nunique(dropna=False) != 1):
        return  # (no sessions known, the caller's unit is coarser than a run, or two machines)
    sessions = rows.groupby(rows[by].astype("object"), observed=True)["capture_id"].unique()
    if len(sessions) > 1 and all(len(s) == 1 for s in sessions) and len(
            {s[0] for s in sessions}) == len(sessions):
        warn(f"{what}: each side of {by!r} is one capture session of its own: its runs share "
             f"that session's machine state (load, clock, neighbours on a shared host), so the "
             f"p-values and intervals leave the variation between sessions out (two captures "
             f"of one machine minutes apart differed by 17-23 % in RSA sign/verify on a busy "
             f"VM). Measure the sides in one capture, interleaved, or repeat the sessions and "
             f"compare them with unit='capture_id'.", CipherlabWarning)


def _shared_cells(frame, keys, baseline) -> bool:
    """Whether some cell has the baseline and at least one candidate."""
    is_base = (frame["_side"] == baseline).to_numpy()
    if not keys:
        return bool(is_base.any() and (~is_base).any())
    cells = frame[keys].assign(_base=is_base)
    g = cells.groupby(keys, observed=True, dropna=False)["_base"]
    return bool((g.any() & ~g.all()).any())


def _sides_hint(frame, keys, is_base) -> str:
    """What the baseline and the candidates measured, by the first key that tells them apart."""
    for k in keys:
        # (a blank is a value here: a key blank on one side and stated on some rows of the
        # other does not tell them apart)
        base, cand = (set(map(str, frame.loc[m, k].astype("object").fillna("not stated").unique()))
                      for m in (is_base, ~is_base))
        if base.isdisjoint(cand):
            show = lambda v: ", ".join(sorted(v)[:6]) + (", ..." if len(v) > 6 else "")  # noqa: E731
            return f" The baseline has {k} {show(base)}; the candidates {show(cand)}."
    return ""


def _other_metric(df, by, levels, metric) -> str:
    """A hint naming the rate column the compared rows do have (public-key rows: ops/s)."""
    rows = df.loc[df[by].astype("object").isin(levels).to_numpy()]
    has = lambda c: (pd.to_numeric(rows[c], errors="coerce") > 0).to_numpy()  # noqa: E731
    for other in ("ops_per_s", "bytes_per_s"):
        if other != metric and other in rows.columns:
            n = int((has(other) & ~has(metric)).sum())
            if n:
                return (f" {n} of their rows have `{other}` and no `{metric}` (public-key "
                        f"operations are counted per second, ciphers in bytes per second): "
                        f"pass metric={other!r}.")
    return ""


def _verdict(p_adjusted, testable, alpha):
    """``True``/``False`` where the cell was tested, NA (blank) where it was not."""
    values = pd.array(np.asarray(p_adjusted) < alpha, dtype="boolean")
    values[~np.asarray(testable, dtype=bool)] = pd.NA
    return values


def _attach(result, family: str, unit, metric: str, alpha: float, by: str):
    from cipherlab.stats._export import StatsResult

    out = StatsResult(result)
    out.attrs.update({"family": family, "unit": unit_name(unit), "metric": metric,
                      "alpha": alpha, "by": by})
    return out


def _family(adjust, m):
    return f"{'Holm' if adjust == 'holm' else 'Benjamini-Hochberg'} over {m} test(s)"


def compare(df: pd.DataFrame, by: str, baseline: Any, candidate: Any = None, *,
            groupby: str | Sequence[str] | None = None, metric: str = "bytes_per_s",
            test: str = "welch", adjust: str = "holm", alpha: float = 0.05,
            unit: str | Sequence[str] = "run", paired: bool | str | Sequence[str] = False,
            n_boot: int = 2000, seed: int = 0, check: bool = True) -> pd.DataFrame:
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
        The cell keys. Default: ``algorithm``, ``operation``, ``block_bytes`` and every run or
        machine column that varies (``host``, ``label``, ``cpu``, ``tool``, ``tool_version``,
        ``tier``, ``timing``, ``multi``, build options, conditions such as ``aesni``), except
        those nested in ``by`` (which :func:`comparable` names as differences besides ``by``).
        A coarser grouping that pools machines or versions gets a warning.
    metric : str
        The throughput column, default ``bytes_per_s`` (e.g. ``bytes_per_s_per_ghz`` after
        :func:`per_ghz`, or ``ops_per_s``). Flagged and non-positive cells are left out, with a
        warning.
    test : {"welch", "permutation", "mannwhitney", "brunnermunzel", "bootstrap"}
        On the runs' log values. ``"welch"`` (default): Welch's unequal-variance t-test (Welch
        1947, *Biometrika* 34:28-35), interval exp(diff ± t·se). ``"permutation"``: the exact
        two-sided permutation test of the difference of means (``n_boot`` random splits when
        there are more than 20,000) with a BCa bootstrap interval (:func:`scipy.stats.bootstrap`;
        none below 10 runs per side, where BCa under-covers); ``"bootstrap"`` is the same.
        ``"mannwhitney"``: Mann-Whitney U (:func:`scipy.stats.mannwhitneyu`) with the
        Hodges-Lehmann order-statistic interval (Hollander, Wolfe & Chicken 2014, §4.3).
        ``"brunnermunzel"``: Brunner-Munzel (:func:`scipy.stats.brunnermunzel`), for unequal
        spread, with Welch's interval. Each test has a minimum number of runs per side below
        which it is not calibrated (``MIN_UNITS``: 2, 8, 3, 8, 8; a permutation test assumes equal
        spread); there, and where the smallest
        p-value the test can reach (``min_p``) exceeds ``alpha``, the verdict is blank and
        ``note`` says why (benchstat's "need >= 4 samples").
    adjust : {"holm", "bh"}
        Adjustment of the p-values across every row of the result (see :func:`adjust_p`).
    alpha : float
        Level of the tests and ``1 - alpha`` confidence of the intervals.
    unit : "run", "repeat" or column name(s)
        The unit of replication. ``"run"`` (default): one process, the rows of one
        ``(source, run)``; its repeats are averaged on the log scale first. ``"repeat"``: every
        row is a unit (repeats of one process share its state, so this understates the
        variance; use it only when each repeat really is its own process).
    paired : bool, str or list of str
        ``False`` (default). ``True`` (= ``"block_bytes"``) or column name(s): take the log
        ratios of the cells across those columns as the sample (one row per remaining group;
        ``paired_over``, ``ratio_min``, ``ratio_max`` added): one-sample t (``"paired t"``),
        sign-flip (``"permutation"``) or Wilcoxon signed-rank (``"mannwhitney"``). It assumes
        the ratio is the same across those columns and that they are independent replicates,
        which block sizes of one run are not; a warning says so every time.
    n_boot, seed : int
        Resamples of the permutation/BCa computations and their seed.
    check : bool
        Run :func:`comparable` on the compared rows (versions, builds, CPU, clock, timing base,
        AEAD loop, -multi, legacy names) and warn about rates beyond the physical limit.

    Returns
    -------
    DataFrame
        One row per cell (per group when paired) and candidate: the cell keys, ``candidate``,
        ``baseline``, ``ratio``, ``ci_low``, ``ci_high``, ``statistic``, ``p_value``,
        ``p_adjusted``, ``test`` (``"no replication"`` with one run on a side), ``unit``,
        ``n_candidate``, ``n_baseline`` (units per side), ``significant`` (NA = blank where not
        tested), ``min_p``, ``note``, and per side ``gmean_*`` (geometric mean over the runs),
        ``median_*`` and ``spread_*`` (robust CV in %, over every value) and ``hygiene``
        (warm-up, outliers, bimodal; see ``cipherlab.stats._hygiene``). ``result.attrs`` holds
        the adjustment family and the unit (exports print them).

    Examples
    --------
    Three runs (processes) of each condition in two cells:

    >>> import pandas as pd
    >>> df = pd.DataFrame({
    ...     "source": "cap", "run": list(range(6)) * 2,
    ...     "algorithm": "aes-128-cbc", "operation": "encrypt",
    ...     "block_bytes": [16] * 6 + [1024] * 6,
    ...     "aesni": ["on", "on", "on", "off", "off", "off"] * 2,
    ...     "bytes_per_s": [2.0e8, 2.1e8, 1.9e8, 1.0e8, 1.05e8, 0.95e8,
    ...                     6.0e8, 6.2e8, 5.9e8, 3.0e8, 2.9e8, 3.1e8]})
    >>> r = compare(df, by="aesni", baseline="off")
    >>> r[["block_bytes", "ratio", "ci_low", "ci_high", "p_adjusted", "test", "n_candidate"]]
      block_bytes  ratio ci_low ci_high p_adjusted   test  n_candidate
    0          16  2.000  1.785   2.240    < 0.001  welch            3
    1        1024  2.011  1.877   2.155    < 0.001  welch            3

    A pasted dump (one run per side) is described per cell, not tested:

    >>> import warnings
    >>> one = df[df["run"].isin([0, 3])].assign(run=0)
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     r = compare(one, by="aesni", baseline="off")
    >>> r[["block_bytes", "ratio", "p_value", "significant", "test"]]
      block_bytes  ratio p_value significant            test
    0          16  2.000       –           –  no replication
    1        1024  2.000       –           –  no replication
    >>> "described, not tested" in str(w[-1].message)
    True
    """
    frame, keys, candidates, test, pair_keys = _run(df, by, baseline, candidate, groupby, metric,
                                                    test, alpha, paired, unit, "compare", check)
    if pair_keys:
        out, keys = _paired(frame, keys, pair_keys, baseline, candidates, test, alpha, n_boot,
                            seed)
    else:
        out = _per_cell(frame, keys, baseline, candidates, test, alpha, n_boot, seed)
        single = int((out["test"] == UNREPLICATED).sum())
        if single:
            warn(f"compare: {single} of {len(out)} cell(s) have a single run on a side (a pasted "
                 f"dump has no replication): they are described, not tested (`test` is "
                 f"{UNREPLICATED!r}, no p-value, interval or verdict). Block sizes are not "
                 f"replicates; capture repeated runs to test.", CipherlabWarning)
    out["unit"] = unit_name(unit)
    out["p_adjusted"] = adjust_p(out["p_value"].to_numpy(float), adjust)
    out["significant"] = _verdict(out["p_adjusted"], out.pop("_testable"), alpha)
    out = tidy_keys(out, keys, df)
    cols = [*keys, *COMPARE_COLUMNS] + [c for c in ("paired_over", "ratio_min", "ratio_max")
                                        if c in out.columns]
    m = int(out["p_value"].notna().sum())
    return _attach(out[cols].reset_index(drop=True), _family(adjust, m), unit, metric, alpha,
                   by)


def speedup(df: pd.DataFrame, by: str | None = None, on: Any = None, off: Any = None,
            **kwargs) -> pd.DataFrame:
    """Speed-up of ``on`` over ``off``: :func:`compare` with ``baseline=off``, ``candidate=on``.

    For ISA conditions (the default, ``by=None``: the column and levels
    :func:`cipherlab.runners.isa_contrast` finds, i.e. ``isa_off`` ``none`` over what a mask
    switched off, or a document's ``aesni`` ``on`` over ``off``), tier against tier
    (``by="tier"``), machine against machine (``by="label"`` or ``"host"``). ``by="aesni"``
    defaults to ``on="on", off="off"``. Keyword arguments go to :func:`compare`; the columns
    are those of :func:`compare`.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"source": "cap", "run": range(6), "algorithm": "aes-128-gcm",
    ...                    "operation": "encrypt", "block_bytes": 8192,
    ...                    "isa_off": ["none"] * 3 + ["aesni+pclmulqdq"] * 3,
    ...                    "bytes_per_s": [4.0e9, 4.1e9, 3.9e9, 2.0e8, 2.1e8, 1.9e8]})
    >>> r = speedup(df)
    >>> float(r["ratio"].round(1).iloc[0]), r["candidate"].iloc[0], r["baseline"].iloc[0]
    (20.0, 'none', 'aesni+pclmulqdq')
    """
    if by is None:
        by, on, off = _isa_sides(df, on, off)
    elif by == "aesni":
        on, off = ("on" if on is None else on), ("off" if off is None else off)
    if on is None or off is None:
        raise AnalysisError(f"speedup(by={by!r}) needs the levels to compare: on=... and off=...")
    return compare(df, by, off, on, **kwargs)


def _isa_sides(df: pd.DataFrame, on: Any, off: Any) -> tuple[str, Any, Any]:
    """``by``, ``on`` and ``off`` of the ISA comparison ``df`` holds."""
    from cipherlab.runners._isa import isa_contrast

    contrast = isa_contrast(df)
    if contrast is None:
        raise AnalysisError("speedup: `df` holds no ISA condition measured both with nothing "
                            "off and with something off (columns isa_off, aesni or isa); pass "
                            "by=, on= and off= to compare other columns.")
    if off is None and len(contrast.offs) > 1:
        raise AnalysisError(f"speedup: `df` compares {contrast.column} {contrast.on!r} with "
                            f"several levels {list(contrast.offs)}; pass off= (one of them).")
    return (contrast.column, contrast.on if on is None else on,
            contrast.offs[0] if off is None else off)


def ratio_test(df: pd.DataFrame, by: str, baseline: Any, candidate: Any = None, *,
               groupby: str | Sequence[str] | None = None, metric: str = "bytes_per_s",
               expected: float = 2.0, margin: float = 0.1, alpha: float = 0.05,
               adjust: str = "holm", unit: str | Sequence[str] = "run",
               paired: bool | str | Sequence[str] = False, check: bool = True,
               bound: str = "both") -> pd.DataFrame:
    """Is the ratio candidate / baseline equal to a claimed value ("about 2x")?

    Two answers per cell, from Welch's t on the runs' log values (:func:`compare`): a two-sided
    test of ratio = ``expected`` (``p_value``; ``differs``), and the two one-sided tests (TOST;
    Schuirmann 1987, *J. Pharmacokin. Biopharm.* 15:657-680) of "the ratio lies within
    ``expected`` × (1 ± ``margin``)" (``p_equivalence`` = the larger one-sided p;
    ``equivalent``). Both kinds of p-value are adjusted together, as one family (Holm or BH over
    every difference and every equivalence test of the result), so a grid of cells cannot make
    one "equivalent" by chance. ``tost_low``-``tost_high`` is the ``1 - 2·alpha`` interval TOST
    rests on: equivalent exactly when it lies inside the margins (before adjustment).

    With one run per side (a pasted dump) nothing is tested: each cell's ratio is described
    (``test == "no replication"``) and ``differs``/``equivalent`` are blank (NA), not "no".
    ``paired=`` (explicit only, with a warning) takes the log ratios across block sizes as the
    sample, as in :func:`compare`.

    Parameters
    ----------
    df, by, baseline, candidate, groupby, metric, alpha, adjust, unit, paired, check
        As in :func:`compare`.
    expected : float
        The claimed ratio (> 0).
    margin : float
        Relative equivalence margin, 0 < margin < 1: equivalent means within
        ``[expected*(1-margin), expected*(1+margin)]``.
    bound : {"both", "lower", "upper"}
        Which margins the equivalence test holds the ratio to. ``"both"`` (TOST, the default).
        ``"lower"``: non-inferiority, "the new build is no slower than 2 %" is
        ``ratio_test(df, by, old, expected=1, margin=0.02, bound="lower")``: one one-sided test
        of ratio > ``expected*(1-margin)``, ``tost_high`` is ∞ (a reviewer reads the
        one-sided ``1 - alpha`` bound ``tost_low``). ``"upper"``: "no more than" the upper
        margin, ``tost_low`` is 0.

    Returns
    -------
    DataFrame
        Cell keys + ``candidate``, ``baseline``, ``ratio``, ``ci_low``, ``ci_high``,
        ``expected``, ``margin``, ``statistic`` (t of ratio = expected), ``p_value``,
        ``p_adjusted``, ``p_equivalence``, ``p_equivalence_adjusted``, ``tost_low``,
        ``tost_high``, ``equivalent``, ``differs`` (NA where not tested), ``n`` (units on both
        sides, or pairs), ``n_candidate``, ``n_baseline``, ``test``, ``unit``, ``note`` and the
        hygiene columns of :func:`compare`.

    Examples
    --------
    Four runs per side:

    >>> import pandas as pd
    >>> df = pd.DataFrame({"source": "cap", "run": range(8), "algorithm": "aes-128-cbc",
    ...                    "operation": "encrypt", "block_bytes": 1024,
    ...                    "aesni": ["on"] * 4 + ["off"] * 4,
    ...                    "bytes_per_s": [5.70e8, 5.75e8, 5.65e8, 5.72e8,
    ...                                    2.85e8, 2.88e8, 2.86e8, 2.87e8]})
    >>> r = ratio_test(df, by="aesni", baseline="off", expected=2.0, margin=0.1)
    >>> r[["ratio", "tost_low", "tost_high", "equivalent", "differs", "test"]]
       ratio tost_low tost_high equivalent differs   test
    0  1.991    1.974     2.009        yes      no  welch

    The AWS seed's "consistently twice as fast" (one run per side): described per size.

    >>> import warnings, cipherlab
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     aws = cipherlab.ingest(cipherlab.datasets.path("aws-wiki-aesni-on-off.txt"))
    ...     r = ratio_test(aws, by="aesni", baseline="off")
    >>> r[r.block_bytes == 16][["algorithm", "ratio", "equivalent", "test"]].head(2)
         algorithm  ratio equivalent            test
    0  aes-128-cbc  2.079          –  no replication
    5  aes-128-gcm  3.879          –  no replication
    """
    if not (isinstance(expected, (int, float)) and expected > 0):
        raise AnalysisError(f"`expected` must be a positive ratio (e.g. 2.0); not {expected!r}.")
    if not (isinstance(margin, (int, float)) and 0 < margin < 1):
        raise AnalysisError(f"`margin` must be a relative margin between 0 and 1 (e.g. 0.1 for "
                            f"±10 %); not {margin!r}.")
    check_one_of("bound", bound, ("both", "lower", "upper"))
    frame, keys, candidates, _, pair_keys = _run(df, by, baseline, candidate, groupby, metric,
                                                 "welch", alpha, paired, unit, "ratio_test", check)
    if pair_keys:
        out, keys = _paired(frame, keys, pair_keys, baseline, candidates, "welch", alpha, 0, 0)
        n = out["n_candidate"].to_numpy()
    else:
        out = _per_cell(frame, keys, baseline, candidates, "welch", alpha, 0, 0)
        n = (out["n_candidate"] + out["n_baseline"]).to_numpy()
        single = int((out["test"] == UNREPLICATED).sum())
        if single:
            warn(f"ratio_test: {single} of {len(out)} cell(s) have a single run on a side: their "
                 f"ratio is described, not tested (no p-value; `differs` and `equivalent` "
                 f"blank).", CipherlabWarning)
    diff, se, dof = (out[c].to_numpy(float) for c in ("_diff", "_se", "_dof"))
    testable = out.pop("_testable").to_numpy(bool)
    stat, p = _tests.t_test(diff, se, dof, null=np.log(expected))
    with np.errstate(divide="ignore", invalid="ignore"):
        p_low = _st.t.sf((diff - np.log(expected * (1 - margin))) / se, dof)
        p_high = _st.t.cdf((diff - np.log(expected * (1 + margin))) / se, dof)
        q = _st.t.ppf(1 - alpha, dof)
        tost = np.exp(diff - q * se), np.exp(diff + q * se)
    ok = out["p_value"].notna().to_numpy()  # tested (enough runs)
    out["expected"], out["margin"] = float(expected), float(margin)
    out["statistic"] = np.where(ok, stat, np.nan)
    out["p_value"] = np.where(ok, p, np.nan)
    p_eq = {"both": np.maximum(p_low, p_high), "lower": p_low, "upper": p_high}[bound]
    tost = (tost[0] if bound != "upper" else np.zeros(len(out)),
            tost[1] if bound != "lower" else np.full(len(out), np.inf))
    out["p_equivalence"] = np.where(ok, p_eq, np.nan)
    out["tost_low"], out["tost_high"] = np.where(ok, tost[0], np.nan), np.where(ok, tost[1], np.nan)
    # one family: every difference test and every equivalence test of the result together
    both = adjust_p(np.concatenate([out["p_value"].to_numpy(float),
                                    out["p_equivalence"].to_numpy(float)]), adjust)
    out["p_adjusted"], out["p_equivalence_adjusted"] = both[:len(out)], both[len(out):]
    out["differs"] = _verdict(out["p_adjusted"], testable, alpha)
    out["equivalent"] = _verdict(out["p_equivalence_adjusted"], testable, alpha)
    out["n"] = n
    out["unit"] = unit_name(unit)
    out = tidy_keys(out, keys, df)
    m = int(np.isfinite(both).sum())
    extra = [c for c in ("paired_over", "ratio_min", "ratio_max") if c in out.columns]
    result = _attach(out[[*keys, *RATIO_TEST_COLUMNS, *extra]].reset_index(drop=True),
                     _family(adjust, m) + " (difference and equivalence tests together)", unit,
                     metric, alpha, by)
    low, high = expected * (1 - margin), expected * (1 + margin)
    result.attrs["claim"] = {
        "both": f"the ratio lies within [{low:.4g}, {high:.4g}] (TOST; tost_low-tost_high: "
                f"its {1 - 2 * alpha:.0%} interval)",
        "lower": f"the ratio is above {low:.4g} (one-sided non-inferiority test; tost_low: "
                 f"its {1 - alpha:.0%} lower bound)",
        "upper": f"the ratio is below {high:.4g} (one-sided test; tost_high: its "
                 f"{1 - alpha:.0%} upper bound)"}[bound]
    return result
