"""Sentences for conclusions computed from results: pick a row, say a ratio, a verdict, a crossover.

The notebooks end with a Markdown cell written by code from the numbers they just computed; the
phrases they share live here, so that a conclusion says the same thing the same way everywhere and
is tested once. Each function takes a row (or a table) of a :mod:`cipherlab.stats` result and
returns text; none of them computes a statistic.

>>> import pandas as pd
>>> t = pd.DataFrame({"host": ["a", "b"], "ratio": [1.5, 2.0], "ci_low": [1.4, float("nan")],
...                   "ci_high": [1.6, float("nan")]})
>>> interval(pick(t, host="a")), interval(pick(t, host="b"))
('1.50× [1.40, 1.60]', '2.00× (no interval)')
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from cipherlab.errors import AnalysisError

__all__ = ["crossover_sentence", "crossover_text", "faster_by_size", "interval", "pick",
           "provenance", "quotable", "verdict"]

#: What ties a lint finding to the row it flags.
_FINDING_KEYS = ("source", "line", "algorithm", "operation", "block_bytes")


def _missing(value: Any) -> bool:
    return value is None or (not isinstance(value, str) and bool(pd.isna(value)))


def pick(frame: pd.DataFrame, **where: Any) -> pd.Series:
    """The one row of ``frame`` whose columns equal ``where`` (text compared as text).

    Raises a clear :class:`~cipherlab.AnalysisError` when no row or several match, instead of
    quoting an arbitrary one.

    >>> import pandas as pd
    >>> t = pd.DataFrame({"host": ["a", "a", "b"], "aesni": ["on", "off", "on"], "t0_ns": [1, 2, 3]})
    >>> int(pick(t, host="a", aesni="off").t0_ns), pick(t, t0_ns=3).host
    (2, 'b')
    >>> pick(t, host="a")
    Traceback (most recent call last):
    ...
    cipherlab.errors.AnalysisError: 2 rows have host='a'; name more columns to pick one
    """
    missing = [k for k in where if k not in frame.columns]
    if missing:
        raise AnalysisError(f"pick: no column {missing} in {list(frame.columns)}")
    keep = pd.Series(True, index=frame.index)
    for column, value in where.items():
        column_values = frame[column].astype(str) if isinstance(value, str) else frame[column]
        keep &= column_values.eq(value).fillna(False).to_numpy()
    found = frame[keep.to_numpy()]
    said = ", ".join(f"{k}={v!r}" for k, v in where.items())
    if len(found) != 1:
        raise AnalysisError(f"{len(found)} rows have {said}"
                            + ("; name more columns to pick one" if len(found) else ""))
    return found.iloc[0]


def quotable(df: pd.DataFrame, findings: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rows of ``df`` fit to quote as one machine's result.

    Left out: ``openssl speed -multi`` rows (per-child figures and their sum, not one process's
    rate) and every row :func:`cipherlab.stats.lint` flagged in ``findings`` (beyond the physical
    limit, negative, overflowed: a number that cannot be right is not a result).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"source": "s", "line": [1, 2, 3], "algorithm": "aes-256-cbc",
    ...                    "operation": "encrypt", "block_bytes": 8192,
    ...                    "multi": pd.array([pd.NA, pd.NA, 16], dtype="Int64"),
    ...                    "bytes_per_s": [1e9, 4e10, 9e9]})
    >>> flagged = df.iloc[[1]].assign(check="physical-limit")
    >>> quotable(df, flagged).line.tolist()
    [1]
    """
    keep = pd.Series(True, index=df.index)
    if "multi" in df.columns:
        keep &= df["multi"].isna()
    if findings is not None and len(findings):
        keys = [k for k in _FINDING_KEYS if k in df.columns and k in findings.columns]
        flagged = pd.MultiIndex.from_frame(findings[keys].astype(str))
        keep &= ~pd.MultiIndex.from_frame(df[keys].astype(str)).isin(flagged)
    return df[keep.to_numpy()]


def interval(row: pd.Series, digits: int = 2) -> str:
    """``ratio× [ci_low, ci_high]``, or the ratio alone when it has no interval.

    >>> import pandas as pd
    >>> interval(pd.Series({"ratio": 0.0521, "ci_low": 0.05, "ci_high": 0.055}), 3)
    '0.052× [0.050, 0.055]'
    """
    text = f"{row['ratio']:.{digits}f}×"
    if _missing(row.get("ci_low")) or _missing(row.get("ci_high")):
        return f"{text} (no interval)"
    return f"{text} [{row['ci_low']:.{digits}f}, {row['ci_high']:.{digits}f}]"


def verdict(row: pd.Series) -> str:
    """What a :func:`cipherlab.stats.ratio_test` row says about its claim, in words.

    Equivalence (within the margin) first, then a difference with its adjusted p-value; a row
    that was not tested (one value per side: no replicates) is described, not judged.

    >>> import pandas as pd
    >>> verdict(pd.Series({"expected": 2.0, "margin": 0.1, "equivalent": True, "differs": False}))
    '**equivalent to 2×** (within ±10%)'
    >>> verdict(pd.Series({"expected": 2.0, "margin": 0.1, "equivalent": False, "differs": True,
    ...                    "p_adjusted": 0.0012}))
    '**not 2×** (differs, adjusted p = 0.0012)'
    >>> verdict(pd.Series({"expected": 2.0, "margin": 0.1, "equivalent": None, "differs": None}))
    'not tested (no replicates on both sides): described only'
    """
    claim = f"{row['expected']:g}×"
    equivalent, differs = row.get("equivalent"), row.get("differs")
    if _missing(equivalent) and _missing(differs):
        return "not tested (no replicates on both sides): described only"
    if not _missing(equivalent) and bool(equivalent):
        return f"**equivalent to {claim}** (within ±{row['margin']:.0%})"
    if not _missing(differs) and bool(differs):
        p = row.get("p_adjusted")
        return f"**not {claim}** (differs" + ("" if _missing(p) else f", adjusted p = {p:.2g}") + ")"
    return "undecided (the interval is too wide for either answer)"


def _bytes_interval(row: pd.Series, style: str) -> str:
    """A crossing's interval: ``[30 B, 64 B]`` (``"short"``) or ``95 % interval 30 B to 64 B``;
    an open end is ``unbounded``; no interval (one run per side) is ``""``."""
    from cipherlab.plots import format_bytes

    low, high = row.get("ci_low"), row.get("ci_high")
    if _missing(low):
        return ""
    high = "unbounded" if _missing(high) or high == float("inf") else format_bytes(high)
    return (f"[{format_bytes(low)}, {high}]" if style == "short"
            else f"95 % interval {format_bytes(low)} to {high}")


def crossover_text(row: pd.Series) -> str:
    """Where :func:`cipherlab.stats.crossover` says ``a`` overtakes ``b``, in words that follow
    "a overtakes b:" (Markdown; :func:`crossover_sentence` says it naming both).

    >>> import pandas as pd
    >>> crossover_text(pd.Series({"regime": "a overtakes b", "crossover_bytes": 45.4,
    ...                           "ci_low": 30.0, "ci_high": 64.0}))
    'at **45.4 B** [30 B, 64 B]'
    >>> crossover_text(pd.Series({"regime": "never", "crossover_bytes": float("inf")}))
    'never (a stays slower at every size)'
    >>> crossover_text(pd.Series({"regime": "b overtakes a", "crossover_bytes": 721.0}))
    'never (a is faster only below **721 B**; b above)'
    """
    from cipherlab.plots import format_bytes

    regime = row["regime"]
    if regime in ("a overtakes b", "b overtakes a"):
        ci = _bytes_interval(row, "short")
        at = f"**{format_bytes(row['crossover_bytes'])}**" + (f" {ci}" if ci else "")
        return f"at {at}" if regime == "a overtakes b" else f"never (a is faster only below {at}; b above)"
    return {"never": "never (a stays slower at every size)",
            "a always faster": "at every size (a is always faster)"}.get(regime, str(regime))


def crossover_sentence(row: pd.Series) -> str:
    """A :func:`cipherlab.stats.crossover` row as a sentence naming both algorithms (the
    report's), with the size where the lines cross whichever way they cross.

    >>> import pandas as pd
    >>> row = {"a": "gcm", "b": "cbc", "crossover_bytes": 1843.0, "ci_low": 1650.0,
    ...        "ci_high": 2080.0}
    >>> crossover_sentence(pd.Series({**row, "regime": "a overtakes b"}))
    'gcm overtakes cbc above 1.8 KiB (95 % interval 1.61 KiB to 2.03 KiB)'
    >>> crossover_sentence(pd.Series({**row, "regime": "b overtakes a"}))
    'cbc overtakes gcm above 1.8 KiB (95 % interval 1.61 KiB to 2.03 KiB): gcm is faster only below it'
    >>> crossover_sentence(pd.Series({**row, "regime": "never"}))
    'gcm is never faster than cbc'
    """
    from cipherlab.plots import format_bytes

    regime, a, b = str(row["regime"]), row["a"], row["b"]
    if regime in ("a overtakes b", "b overtakes a"):
        ci = _bytes_interval(row, "long")
        fast, slow = (a, b) if regime == "a overtakes b" else (b, a)
        text = (f"{fast} overtakes {slow} above {format_bytes(row['crossover_bytes'])}"
                + (f" ({ci})" if ci else ""))
        return text if regime == "a overtakes b" else f"{text}: {a} is faster only below it"
    return {"a always faster": f"{a} is faster at every size",
            "never": f"{a} is never faster than {b}"}.get(regime, "the lines could not be fitted")


def faster_by_size(result: pd.DataFrame) -> str:
    """Where a :func:`cipherlab.stats.compare` candidate is faster than its baseline, size by
    size, in one sentence: the sizes where it is significantly faster, slower, or not
    different (after the result's adjustment), each with its ratios; sizes with one run per
    side are described, not judged. ``result`` holds one candidate against one baseline, one
    row per block size (pick one machine and condition first: :func:`pick` per size would
    quote an arbitrary one).

    >>> import pandas as pd
    >>> t = pd.DataFrame({"candidate": "chacha20-poly1305", "baseline": "aes-128-gcm",
    ...                   "block_bytes": [16, 256, 1024, 16384], "ratio": [5.27, 2.19, 2.14, 0.938],
    ...                   "ci_low": [4.91, 2.14, 2.01, 0.869], "ci_high": [5.66, 2.25, 2.28, 1.013],
    ...                   "significant": [True, True, True, False]})
    >>> faster_by_size(t)
    'chacha20-poly1305 is faster than aes-128-gcm at 16 B–1 KiB (2.14–5.27×); not significantly
    different at 16 KiB (0.94× [0.87, 1.01])'
    >>> faster_by_size(t.assign(significant=None, ci_low=None, ci_high=None)[:2])
    'chacha20-poly1305 against aes-128-gcm, described (one run per side: not tested): 2.19–5.27×
    at 16 B–256 B'
    """
    for column in ("candidate", "baseline", "block_bytes", "ratio", "significant"):
        if column not in result.columns:
            raise AnalysisError(f"faster_by_size: no column {column!r}: pass a "
                                f"cipherlab.stats.compare result")
    pairs = result[["candidate", "baseline"]].astype(str).drop_duplicates()
    sizes = result["block_bytes"]
    if len(pairs) != 1 or sizes.duplicated().any() or sizes.isna().any():
        raise AnalysisError(f"faster_by_size: the result must hold one candidate against one "
                            f"baseline, one row per block size; it has {len(pairs)} pair(s) and "
                            f"{len(result)} row(s) for {sizes.nunique()} size(s): pick one "
                            f"machine and condition first (e.g. result[result.isa == 'native'])")
    a, b = pairs.iloc[0]
    rows = result.sort_values("block_bytes").assign(_pos=range(len(result)))

    judged = rows["significant"].map(lambda v: None if _missing(v) else bool(v))
    parts = []
    for verdict_, mask in ((f"faster than {b}", judged.eq(True) & (rows["ratio"] > 1)),
                           (f"slower than {b}", judged.eq(True) & (rows["ratio"] < 1)),
                           ("not significantly different", judged.eq(False))):
        if mask.any():
            where, ratios = _sizes_and_ratios(rows[mask.to_numpy()])
            parts.append(f"{verdict_} at {where} ({ratios})")
    text = f"{a} is " + "; ".join(parts) if parts else ""
    untested = rows[judged.isna().to_numpy()]
    if len(untested):
        where, ratios = _sizes_and_ratios(untested, interval_of_one=False)
        described = f"{a} against {b}, described (one run per side: not tested): {ratios} at {where}"
        text = f"{text}; {described}" if text else described
    return text


def _sizes_and_ratios(rows: pd.DataFrame, interval_of_one: bool = True) -> tuple[str, str]:
    """``('16 B–1 KiB', '2.14–5.27×')`` for rows sorted by block size (sizes listed where others
    lie between them: ``16 B, 16 KiB``); one row with its interval (``0.94× [0.87, 1.01]``)
    where ``interval_of_one``."""
    from cipherlab.plots import format_bytes

    named = [format_bytes(n) for n in rows["block_bytes"]]
    adjacent = rows["_pos"].iloc[-1] - rows["_pos"].iloc[0] == len(rows) - 1
    where = (named[0] if len(rows) == 1 else f"{named[0]}–{named[-1]}" if adjacent
             else ", ".join(named))
    if len(rows) == 1 and interval_of_one:
        return where, interval(rows.iloc[0])
    lo, hi = rows["ratio"].min(), rows["ratio"].max()
    return where, (f"{lo:.2f}–{hi:.2f}×" if lo != hi else f"{lo:.2f}×")


def provenance(row: pd.Series) -> str:
    """Which machine and tool a row was measured with: ``host, tool version``.

    >>> import pandas as pd
    >>> provenance(pd.Series({"host": "host-b", "tool": "openssl", "tool_version": "3.0.22"}))
    'host-b, openssl 3.0.22'
    >>> provenance(pd.Series({"host": "netbsd", "tool": "openssl", "tool_version": None}))
    'netbsd, openssl (version not in that dump)'
    """
    version = row.get("tool_version")
    version = "(version not in that dump)" if _missing(version) else version
    return f"{row.get('host')}, {row.get('tool')} {version}"
