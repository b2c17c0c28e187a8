"""Answers at a requested precision: keep adding interleaved repeat pairs until each ratio is known.

Why this module exists: a fixed number of repeats is too many on a quiet machine and too few on
a shared VM (run-to-run offsets of 1-5 % are normal there, measurement-notes §4a). ``precision``
turns the repeats into a sequential design: after each complete block of interleaved runs
(every cell under every condition once), the interval on every requested ratio is computed from
the pairs so far, and the capture stops as soon as each one is narrower than asked, or when
``max_time`` is spent, or at ``max_repeats``; the rule and why it stopped are recorded.

The unit is the interleaved pair of processes: each pair gives one log ratio per cell (block
size); its interval is Student's t over the pairs (never over block sizes or repeats inside one
process). Stopping when an interval is narrow enough, rather than when it excludes 1, keeps the
error rate of the final intervals near nominal: checked by simulation with run effects, repeat
noise and warm-up outliers (``tests/runners/test_sequential.py``); ``min_pairs``
(default 6, as many as the sign-flip check of the presets needs) keeps an early lucky-quiet
stretch from stopping it with a too-short interval.

Examples
--------
>>> rule = StoppingRule(precision=0.02)
>>> iv = interval([0.10, 0.11, 0.09, 0.10, 0.105, 0.095])
>>> round(iv["ratio"], 3), rule.narrow(iv)
(1.105, True)
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd

__all__ = ["StoppingRule", "interval", "parse_precision", "ratio_intervals"]


def parse_precision(value: Any) -> float:
    """``'2%'``, ``'0.02'`` or ``0.02`` -> 0.02; a ValueError naming what is allowed otherwise.

    >>> parse_precision("2%"), parse_precision(0.005)
    (0.02, 0.005)
    """
    text = str(value).strip()
    try:
        p = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        p = math.nan
    if not 0 < p < 1:
        raise ValueError(f"precision must be a relative half-width such as '2%' or 0.02 (between "
                         f"0 and 100 %); not {value!r}")
    return p


def sequential(precision: Any, max_time: Any, repeats: Any,
               default_repeats: int) -> tuple["StoppingRule | None", Any]:
    """A capture's ``precision``/``max_time``/``repeats`` arguments as (stopping rule or None,
    repeats to plan): with ``precision``, ``repeats`` is the most to run (default 50).

    >>> rule, repeats = sequential("2%", None, None, 6)
    >>> rule.precision, repeats
    (0.02, 50)
    >>> sequential(None, None, None, 6)
    (None, 6)
    """
    if precision is None:
        if max_time is not None:
            raise ValueError("max_time bounds a sequential design: give precision too (e.g. '2%')")
        return None, default_repeats if repeats is None else repeats
    if max_time is not None and not (isinstance(max_time, (int, float)) and max_time > 0):
        raise ValueError(f"max_time must be a positive number of seconds; not {max_time!r}")
    rule = StoppingRule(parse_precision(precision), max_time,
                        max_repeats=50 if repeats is None else repeats)
    return rule, rule.max_repeats


def interval(log_ratios: Sequence[float], level: float = 0.95) -> dict[str, float]:
    """Student's t interval of the mean of paired log ratios, as a ratio and relative half-width.

    Returns ``n``, ``ratio`` (geometric mean), ``low``, ``high`` and ``half_width``
    (``exp(t * s / sqrt(n)) - 1``; infinite below two pairs).
    """
    x = np.asarray(log_ratios, dtype=float)
    x = x[np.isfinite(x)]
    n = len(x)
    if n == 0:
        return {"n": 0, "ratio": math.nan, "low": math.nan, "high": math.nan,
                "half_width": math.inf}
    mean = float(x.mean())
    if n < 2:
        return {"n": 1, "ratio": math.exp(mean), "low": 0.0, "high": math.inf,
                "half_width": math.inf}
    h = float(_t(level, n - 1) * x.std(ddof=1) / math.sqrt(n))
    return {"n": n, "ratio": math.exp(mean), "low": math.exp(mean - h),
            "high": math.exp(mean + h), "half_width": math.expm1(h)}


@functools.lru_cache(maxsize=256)
def _t(level: float, df: int) -> float:
    from scipy import stats
    return float(stats.t.ppf(0.5 + level / 2, df))


@dataclass
class StoppingRule:
    """When a sequential capture stops (see the module docstring); ``record()`` is what the
    capture folder keeps in ``stopping.json``."""

    precision: float
    max_time_s: float | None = None
    level: float = 0.95
    min_pairs: int = 6
    max_repeats: int = 50
    started: float = field(default_factory=time.monotonic, repr=False)
    stopped: str | None = None
    pairs: int = 0
    widest: dict[str, Any] | None = None

    def narrow(self, iv: dict[str, float]) -> bool:
        """Whether one interval is as narrow as asked."""
        return iv["n"] >= self.min_pairs and iv["half_width"] <= self.precision

    def done(self, intervals: pd.DataFrame | list[dict], repeats_done: int) -> bool:
        """After a complete block: stop now? Sets ``stopped`` to the reason when it does.

        ``intervals``: one :func:`interval` (with what it is of) per requested ratio and cell.
        """
        self.pairs = repeats_done
        ivs = intervals.to_dict("records") if isinstance(intervals, pd.DataFrame) else intervals
        if ivs:
            w = max(ivs, key=lambda iv: iv["half_width"])
            self.widest = {k: (v.item() if hasattr(v, "item") else v) for k, v in w.items()}
        if ivs and all(self.narrow(iv) for iv in ivs):
            self.stopped = "precision"
        elif self.max_time_s is not None and time.monotonic() - self.started >= self.max_time_s:
            self.stopped = "max_time"
        elif repeats_done >= self.max_repeats:
            self.stopped = "max_repeats"
        return self.stopped is not None

    def record(self) -> dict[str, Any]:
        out = {k: v for k, v in asdict(self).items() if k != "started"}
        out["elapsed_s"] = round(time.monotonic() - self.started, 1)
        out["rule"] = (f"after each complete block of interleaved runs, stop when every requested "
                       f"ratio's {self.level:.0%} t-interval over >= {self.min_pairs} pairs is "
                       f"within +-{self.precision:.1%}, or after {self.max_time_s} s, or at "
                       f"{self.max_repeats} repeats; one warm-up run discarded first")
        return out


def ratio_intervals(table: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """The interval of every requested ratio in a capture's rows: each ISA condition against
    ``native`` (per build) and each build against the first (per ISA condition), per cell
    (tool, algorithm, operation, block size). One row per ratio and cell."""
    from cipherlab.runners._plan import paired_ratios
    out = []
    comparisons = []
    if "isa" in table.columns:
        comparisons += [("isa", c, "native") for c in table["isa"].astype("object").dropna().unique()
                        if c != "native"]
    if "build" in table.columns:
        builds = list(table["build"].astype("object").dropna().unique())
        comparisons += [("build", b, builds[0]) for b in builds[1:]]
    for by, cond, base in comparisons:
        pairs = paired_ratios(table, cond, baseline=base, by=by, per_size=True)
        keys = [k for k in pairs.columns if k not in ("repeat", "log_ratio")]
        for values, g in pairs.groupby(keys, dropna=False):
            out.append({"by": by, "condition": cond, "baseline": base,
                        **dict(zip(keys, values if isinstance(values, tuple) else (values,))),
                        **interval(g["log_ratio"], level)})
    return pd.DataFrame(out)
