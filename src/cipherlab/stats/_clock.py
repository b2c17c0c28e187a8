"""Normalisation: cycles per byte and throughput per GHz; per process of ``-multi N``.

Why this module exists: machines with different clocks can only be compared per cycle, and the
physical limits of measurement-notes §3 are stated in cycles per byte. The clock of a row comes,
in order of preference, from the caller, from the ``clock_hz`` column (host facts of a capture),
or from a label or CPU string such as ``Linux (P3 750Mhz; 512MBram)`` or ``i7-4770 CPU @ 3.40GHz``.
"""

from __future__ import annotations

import re
from typing import Mapping

import numpy as np
import pandas as pd

from cipherlab.errors import AnalysisError
from cipherlab.readers._tables import DIALECTS as _TABLE_DIALECTS
from cipherlab.readers._tables._facts import CLOCK, hz
from cipherlab.stats._common import map_unique, require_columns

__all__ = ["clock_from_text", "clock_source", "cycles_per_byte", "per_ghz", "per_process",
           "resolve_clock", "scaling"]

_CLOCK_RE = re.compile(CLOCK + r"\b", re.IGNORECASE)  # (the readers' clock: one definition)
_TEXT_COLUMNS = ("label", "cpu")
# The columns only a capture's rows carry (the capture folder's ids).
_CAPTURE_COLUMNS = ("capture_id", "host_id")
# (a run of a document table, of one of _TABLE_DIALECTS, has a clock_hz copied from a CPU's name
# in its prose or cells: nominal, never a reported frequency)


def clock_from_text(text) -> float:
    """The clock in Hz named in a label or CPU string, or NaN when it names none.

    Examples
    --------
    >>> clock_from_text("Linux (P3 750Mhz; 512MBram)")
    750000000.0
    >>> clock_from_text("Intel(R) Core(TM) i7-4770 CPU @ 3.40GHz")
    3400000000.0
    >>> clock_from_text("VIA Luke @ 1.0 GHz")
    1000000000.0
    >>> clock_from_text("AMD Ryzen 5 3600")
    nan

    A comma groups thousands; a decimal comma is read as no clock rather than a guess:

    >>> clock_from_text("Cortex-A72 @ 1,800 MHz"), clock_from_text("Xeon 2,4 GHz")
    (1800000000.0, nan)

    A text naming several clocks gives the one after ``@`` (a CPU's rated clock, as its name
    writes it and as the readers take it), else none: which one the run had cannot be known.

    >>> clock_from_text("Xeon E5-2686 v4 @ 2.30GHz (turbo 3.0 GHz)")
    2300000000.0
    >>> clock_from_text("Core i5 1.60GHz-3.40GHz")
    nan
    """
    clocks = _clocks_named(text)
    return clocks[0] if len(clocks) == 1 else np.nan


def _clocks_named(text) -> list[float]:
    """The distinct clocks (Hz) a text names; only the one after ``@`` when there is one."""
    if text is None or (isinstance(text, float) and np.isnan(text)):
        return []
    text = str(text)
    hits = list(_CLOCK_RE.finditer(text))
    rated = [m for m in hits if text[:m.start()].rstrip().endswith("@")]
    return list(dict.fromkeys(hz(m[1], m[2]) for m in (rated[:1] or hits)))


def _parse_column(s: pd.Series) -> np.ndarray:
    return map_unique(s, clock_from_text).astype(float)


def _resolve(df: pd.DataFrame, clock_hz=None) -> tuple[np.ndarray, np.ndarray]:
    """The clock of every row in Hz and where it came from (see :func:`clock_source`)."""
    n = len(df)
    kind = np.full(n, None, dtype=object)
    if clock_hz is not None:
        if isinstance(clock_hz, Mapping):
            require_columns(df, ["label"], what="clock_hz given as {label: Hz}")
            out = df["label"].astype("object").map(dict(clock_hz)).astype(float).to_numpy()
        elif isinstance(clock_hz, (int, float)) and not isinstance(clock_hz, bool) and clock_hz > 0:
            out = np.full(n, float(clock_hz))
        else:
            raise AnalysisError("`clock_hz` must be a positive number of Hz, a {label: Hz} mapping "
                                f"or None; not {clock_hz!r}.")
        kind[~np.isnan(out)] = "given"
        return out, kind
    out = np.full(n, np.nan)
    if "clock_hz" in df.columns:
        out = pd.to_numeric(df["clock_hz"], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        table = (map_unique(df["dialect"], lambda d: str(d) in _TABLE_DIALECTS).astype(bool)
                 if "dialect" in df.columns else np.zeros(n, dtype=bool))
        named = np.full(n, np.nan)
        for col in _TEXT_COLUMNS:
            if col in df.columns:
                named = np.where(np.isnan(named), _parse_column(df[col]), named)
        # a clock is the host's report only in a capture's rows (its host facts); a text's
        # clock is named in its prose or tables (``Cortex-A76 @ 2.4GHz``): the rated one
        captured = np.zeros(n, dtype=bool)
        for col in _CAPTURE_COLUMNS:
            if col in df.columns:
                captured |= df[col].notna().to_numpy(bool)
        copied = table | np.isclose(out, named) | ~captured
        kind[~np.isnan(out)] = np.where(copied, "nominal", "reported")[~np.isnan(out)]
    for col in _TEXT_COLUMNS:
        if col in df.columns and np.isnan(out).any():
            missing = np.isnan(out)
            out = np.where(missing, _parse_column(df[col]), out)
            kind[missing & ~np.isnan(out)] = "nominal"
    return out, kind


def resolve_clock(df: pd.DataFrame, clock_hz=None) -> pd.Series:
    """The clock of every row in Hz (NaN where none is known), as a Series aligned on ``df``.

    ``clock_hz`` may be a number (every row), a mapping ``{label: Hz}``, or ``None``; without
    it the ``clock_hz`` column wins over a clock parsed from ``label`` and then ``cpu``.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"label": ["P3 750Mhz", "box"], "clock_hz": [float("nan"), 2e9]})
    >>> resolve_clock(df).tolist()
    [750000000.0, 2000000000.0]
    >>> resolve_clock(df, {"box": 3e9}).tolist()
    [nan, 3000000000.0]
    """
    return pd.Series(_resolve(df, clock_hz)[0], index=df.index, name="clock_hz")


def clock_source(df: pd.DataFrame, clock_hz=None) -> pd.Series:
    """Where each row's clock comes from: ``nominal``, ``reported``, ``given`` or None (no clock).

    ``nominal``: named in a label or CPU string (``P3 750Mhz``, ``@ 3.40GHz``), or copied from
    one by a retyped table or a paste's prose (any ``clock_hz`` of rows that are no capture's):
    the rated clock, not the one the run had (turbo, power saving).
    ``reported``: the ``clock_hz`` the host reported when it was captured (``/proc/cpuinfo``,
    see the capture's ``host.json``; rows with a ``capture_id``). ``given``: the caller's
    ``clock_hz``.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"label": ["P3 750Mhz", "box", "x"], "clock_hz": [None, 2.1e9, None],
    ...                    "capture_id": [None, "3a9f", None]})
    >>> clock_source(df).tolist()
    ['nominal', 'reported', nan]
    >>> clock_source(df.drop(columns="capture_id")).tolist()  # a paste's "@ 2.1GHz" in prose
    ['nominal', 'nominal', nan]
    """
    return pd.Series(_resolve(df, clock_hz)[1], index=df.index, name="clock_source")


def _with_clock(df: pd.DataFrame, clock_hz, what: str) -> tuple[pd.DataFrame, np.ndarray]:
    """A copy of ``df`` with ``clock_hz`` and ``clock_source``; warn about rows without a clock."""
    out = df.copy()
    clock, kind = _resolve(df, clock_hz)
    out["clock_hz"], out["clock_source"] = clock, kind
    lost = int(np.isnan(clock).sum())
    if lost:
        from cipherlab.errors import CipherlabWarning
        from cipherlab.stats._common import warn

        several = sorted({str(t) for col in _TEXT_COLUMNS if col in df.columns
                          for t in pd.unique(df.loc[np.isnan(clock), col].dropna())
                          if len(_clocks_named(t)) > 1})
        warn(f"{what}: {lost} of {len(df)} row(s) have no known clock (no clock_hz, none named "
             f"in label or cpu" + (f"; {', '.join(map(repr, several))} name(s) several, none "
                                   f"after '@'" if several else "")
             + "): their per-cycle values are NaN. Pass clock_hz=.", CipherlabWarning)
    return out, clock


def _warn_nominal(out: pd.DataFrame, what: str) -> None:
    """Warn about the rows of ``out`` whose clock is only nominal, naming their labels/CPUs."""
    nominal = out["clock_source"].astype("object").eq("nominal").to_numpy(bool)
    if not nominal.any():
        return
    from cipherlab.errors import CipherlabWarning
    from cipherlab.stats._common import warn

    named = sorted({str(t) for col in _TEXT_COLUMNS if col in out.columns
                    for t in pd.unique(out.loc[nominal, col].dropna())})
    shown = ", ".join(map(repr, named[:4])) + (", ..." if len(named) > 4 else "")
    warn(f"{what}: {int(nominal.sum())} of {len(out)} row(s) have only a nominal clock (named "
         f"in a label or CPU{': ' + shown if shown else ''}): the rated clock, not the one the "
         f"run had (turbo, power saving), so their cycles per byte are an estimate under that "
         f"assumption; pass clock_hz= with the measured clock.", CipherlabWarning)


def per_ghz(df: pd.DataFrame, clock_hz=None) -> pd.DataFrame:
    """Add throughput per GHz of clock: ``bytes_per_s_per_ghz`` and ``ops_per_s_per_ghz``.

    Dividing by the clock compares machines per cycle: a 500 MHz machine that reaches two thirds
    of a 750 MHz one is as fast per cycle; it assumes throughput scales with the clock. Also
    fills ``clock_hz`` with the clock used and ``clock_source`` with its kind (nominal, reported,
    given: :func:`clock_source`); rows without a clock are counted in a warning.

    Parameters
    ----------
    df : DataFrame
        Tidy table (``bytes_per_s`` and/or ``ops_per_s``).
    clock_hz : float, mapping or None
        The clock (see :func:`resolve_clock`); rows with no known clock get NaN.

    Returns
    -------
    DataFrame
        A copy of ``df`` with ``clock_hz``, ``bytes_per_s_per_ghz``, ``ops_per_s_per_ghz``.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"label": ["P3 750Mhz", "P3 500Mhz"], "bytes_per_s": [15e6, 12e6]})
    >>> per_ghz(df)["bytes_per_s_per_ghz"].tolist()
    [20000000.0, 24000000.0]
    """
    require_columns(df, [], what="per_ghz")
    out, clock = _with_clock(df, clock_hz, "per_ghz")
    ghz = clock / 1e9
    for col in ("bytes_per_s", "ops_per_s"):
        if col in out.columns:
            out[f"{col}_per_ghz"] = pd.to_numeric(out[col], errors="coerce").to_numpy(
                dtype=float, na_value=np.nan) / ghz
    return out


def cycles_per_byte(df: pd.DataFrame, clock_hz=None) -> pd.DataFrame:
    """Add ``cycles_per_byte`` = clock_hz / bytes_per_s (and fill ``clock_hz``).

    Cycles per byte is the unit of the published physical limits (measurement-notes §3: e.g.
    AES-128-GCM ~0.63 cpb on Skylake). ``clock_source`` says whether the clock was nominal or
    reported by the host; rows with no known clock get NaN and are counted in a warning, and
    rows whose clock is only nominal (a label's or CPU name's: the rated clock, not the one the
    run had under turbo or power saving) in another, naming them.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"bytes_per_s": [1e9, 2e9]})
    >>> cycles_per_byte(df, clock_hz=3e9)["cycles_per_byte"].tolist()
    [3.0, 1.5]
    """
    require_columns(df, ["bytes_per_s"], what="cycles_per_byte")
    out, clock = _with_clock(df, clock_hz, "cycles_per_byte")
    _warn_nominal(out, "cycles_per_byte")
    rate = pd.to_numeric(out["bytes_per_s"], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        out["cycles_per_byte"] = np.where(rate > 0, clock / rate, np.nan)
    return out


def per_process(df: pd.DataFrame) -> pd.DataFrame:
    """Add the rate of one process: ``bytes_per_s_per_process`` and ``ops_per_s_per_process``.

    An ``openssl speed -multi N`` row is the sum over its N processes (measurement-notes §1.7);
    divided by N it compares with a single process's rate: ``compare(per_process(df),
    by="multi", ..., metric="bytes_per_s_per_process")`` is the scaling efficiency (1 = N
    processes each as fast as one alone). A row without ``multi`` is one process, and a child's
    own line (flag ``child process``) is already one process's rate: both are kept as they
    are. It is per core only while N is at most the cores the machine has.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"multi": pd.array([None, 4, 4], dtype="Int64"),
    ...                    "flag": [None, None, "child process"], "bytes_per_s": [1e9, 3.6e9, 0.9e9]})
    >>> per_process(df)["bytes_per_s_per_process"].tolist()
    [1000000000.0, 900000000.0, 900000000.0]
    """
    from cipherlab.model import FLAG_CHILD

    out = df.copy()
    procs = (pd.to_numeric(df["multi"], errors="coerce").fillna(1).to_numpy(float)
             if "multi" in df.columns else np.ones(len(df)))
    if "flag" in df.columns:
        procs = np.where(df["flag"].astype("object").eq(FLAG_CHILD).to_numpy(bool), 1.0, procs)
    for col in ("bytes_per_s", "ops_per_s"):
        if col in out.columns:
            out[f"{col}_per_process"] = pd.to_numeric(out[col], errors="coerce").to_numpy(
                dtype=float, na_value=np.nan) / procs
    return out


def scaling(df: pd.DataFrame, *, cores: int | None = None, metric: str = "bytes_per_s",
            **compare_args) -> pd.DataFrame:
    """How ``openssl speed -multi N`` scales on a machine: per cell, the rate of one of N
    processes over one process alone (``efficiency``: 1 = N processes each as fast as one
    alone), with the interval and test of :func:`~cipherlab.stats.compare` on the runs.

    A row without ``multi`` is one process (``-multi 1``). The columns of ``compare``
    (``candidate`` = N, ``ratio`` = ``efficiency``) plus ``processes``, ``speedup`` (the N
    processes' total over one alone: N × efficiency), ``cores`` and ``oversubscribed`` (N > the
    cores: the processes take turns, so the efficiency is at most cores/N by construction).
    Loud where it cannot be right: one run per side is described, not tested (a warning says
    how many cells); ``cores`` unknown (not given, no ``cores`` column: a dump does not say)
    makes the efficiency per process, not per core, with a warning; N above the cores is
    warned about. The children of ``-multi`` time with the wall clock, so the one process to
    compare with is an ``openssl speed -elapsed`` run (``comparable`` warns otherwise).

    Examples
    --------
    >>> import pandas as pd, warnings
    >>> df = pd.DataFrame({"source": ["a", "b", "c", "d", "e", "f"], "run": 0,
    ...     "algorithm": "aes-128-gcm", "operation": "encrypt", "block_bytes": 16384,
    ...     "timing": "elapsed", "multi": pd.array([None, None, None, 2, 2, 2], dtype="Int64"),
    ...     "bytes_per_s": [1.00e9, 1.02e9, 0.98e9, 1.90e9, 1.94e9, 1.86e9]})
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     out = scaling(df, cores=2)
    >>> out[["processes", "efficiency", "speedup", "oversubscribed"]].round(2).to_dict("records")
    [{'processes': 2, 'efficiency': 0.95, 'speedup': 1.9, 'oversubscribed': False}]
    """
    from cipherlab.errors import CipherlabWarning
    from cipherlab.stats._common import warn
    from cipherlab.stats._compare import compare

    require_columns(df, ["multi", metric], what="scaling")
    rows = per_process(df)
    rows["multi"] = pd.to_numeric(rows["multi"], errors="coerce").fillna(1).astype("int64")
    if cores is None and "cores" in rows.columns and rows["cores"].nunique() == 1:
        cores = int(rows["cores"].dropna().iloc[0])
    out = compare(rows, by="multi", baseline=1, metric=f"{metric}_per_process", **compare_args)
    out.insert(out.columns.get_loc("ratio"), "processes", out["candidate"].astype("int64"))
    out["efficiency"] = out["ratio"]
    out["speedup"] = out["ratio"] * out["processes"]
    out["cores"] = pd.array([cores] * len(out), dtype="Int64")
    out["oversubscribed"] = pd.array(
        [None if cores is None else bool(n > cores) for n in out["processes"]], dtype="boolean")
    untested = int(out["test"].eq("no replication").sum())
    if untested:
        warn(f"scaling: {untested} of {len(out)} cell(s) have one run per side: their "
             f"efficiency is described, not tested (repeat each run, one process per run, to "
             f"get intervals).", CipherlabWarning)
    if cores is None:
        warn("scaling: the machine's cores are not known (pass cores=...; a dump does not say "
             "them): the efficiency is per process, and per core only while N is at most the "
             "cores.", CipherlabWarning)
    elif out["oversubscribed"].any():
        many = sorted(set(out.loc[out["oversubscribed"].fillna(False), "processes"]))
        warn(f"scaling: -multi {', '.join(map(str, many))} runs more processes than the "
             f"{cores} cores: they take turns, so the efficiency is at most {cores}/N by "
             f"construction, not a measure of how the cipher scales.", CipherlabWarning)
    return out
