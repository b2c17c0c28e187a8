"""What every runner shares: the run order, the progress bar, the "did the preset do anything" check.

Why this module exists: honest repeats are the point of capturing rather than pasting one
``openssl speed`` output (Kalibera & Jones, "Rigorous benchmarking in reasonable time", 2013:
repeats inside one process understate variance; conditions measured back to back let drift and
heat pass for a speedup). So every runner orders its runs the same way, in blocks:

* block ``r`` holds repeat ``r`` of every cell (algorithm x size set x ...);
* inside a block the cells come in a seeded random order, and each cell runs all its ISA
  conditions next to each other, also in a seeded random order: ``A B | B A | A B ...``.

Each pair of conditions is thus measured minutes apart at most, in alternating order, and the
same seed gives the same plan (which is what lets ``resume=True`` find the runs still missing).

Examples
--------
>>> plan = interleave(["gcm", "cbc"], ["native", "no-aesni"], repeats=2, seed=0)
>>> len(plan), sorted({(c, i) for c, i, r in plan}) == sorted(
...     {(c, i) for c in ["gcm", "cbc"] for i in ["native", "no-aesni"]})
(8, True)
>>> [r for c, i, r in plan]
[1, 1, 1, 1, 2, 2, 2, 2]
"""

from __future__ import annotations

import contextlib
import math
import random
import statistics
import warnings
from typing import Any, Hashable, Iterator, Mapping, Sequence, TypeVar

import pandas as pd

from cipherlab.errors import CaptureWarning

__all__ = ["RunProgress", "add_note", "check_busy", "interleave", "rate_warnings", "results",
           "run_observed", "session", "slug"]

C = TypeVar("C")
I = TypeVar("I")


def interleave(cells: Sequence[C], conds: Sequence[I], repeats: int,
               seed: int | None = 0) -> list[tuple[C, I, int]]:
    """The run order: ``(cell, condition, repeat)`` in seeded random blocks (see module docstring).

    Repeats are numbered from 1.
    """
    rng = random.Random(seed)
    plan = []
    for r in range(1, repeats + 1):
        order = list(cells)
        rng.shuffle(order)
        for cell in order:
            cs = list(conds)
            rng.shuffle(cs)
            plan.extend((cell, c, r) for c in cs)
    return plan


def slug(text: str) -> str:
    """A file-name-safe spelling of ``text`` (raw masks contain ``~`` and ``:``).

    >>> slug("~0x200000200000000:~0x0")
    'not0x200000200000000-not0x0'
    """
    out = text.replace("~", "not").replace(":", "-")
    return "".join(ch if ch.isalnum() or ch in "-._" else "_" for ch in out)


class RunProgress:
    """A tqdm.auto bar over a list of runs whose ETA learns how long each kind of run takes.

    Runs differ in length (one block size vs six, one public-key op vs two, an RSA row that
    3.2+ also times as KEM and signature), so neither "runs done" nor nominal seconds give an
    honest ETA. The bar counts estimated wall seconds: a run of a kind already seen is expected to
    take what that kind took (mean wall / nominal), an unseen kind its nominal duration times the
    median of the factors seen so far. After each run the total is re-estimated, so the ETA shown
    is "remaining runs x what such runs really took here". The description counts runs done.

    Parameters
    ----------
    runs : list of (kind, nominal_seconds)
        The runs still to do, in order; ``kind`` is any hashable naming what a run measures.
    """

    def __init__(self, runs: Sequence[tuple[Hashable, float]], *, desc: str, enabled: bool = True):
        from tqdm.auto import tqdm
        self._todo = list(runs)
        self._factors: dict[Hashable, list[float]] = {}
        self._done = 0
        self._desc = desc
        self.bar = tqdm(total=sum(n for _, n in self._todo), unit="s",
                        desc=f"{desc} 0/{len(self._todo)} runs", disable=not enabled,
                        bar_format="{l_bar}{bar}| [{elapsed}<{remaining}]")

    def estimate(self) -> float:
        """Estimated wall seconds of the runs not done yet."""
        seen = [f for fs in self._factors.values() for f in fs]
        default = statistics.median(seen) if seen else 1.0
        return sum(n * (statistics.fmean(self._factors[k]) if k in self._factors else default)
                   for k, n in self._todo[self._done:])

    def done(self, wall_s: float) -> None:
        """Record that the next run finished after ``wall_s`` seconds."""
        kind, nominal = self._todo[self._done]
        self._factors.setdefault(kind, []).append(wall_s / nominal if nominal > 0 else 1.0)
        self._done += 1
        self.bar.total = self.bar.n + wall_s + self.estimate()
        self.bar.set_description_str(f"{self._desc} {self._done}/{len(self._todo)} runs",
                                     refresh=False)
        self.bar.update(wall_s)

    def close(self) -> None:
        self.bar.close()


def rate_warnings(table: pd.DataFrame, *, baseline: str = "native", threshold: float = 0.03,
                  keys: Sequence[Hashable] = ("algorithm", "operation", "block_bytes"),
                  tool: str = "openssl", stacklevel: int = 3) -> list[str]:
    """Warn for every ISA condition whose rates all stay within ``threshold`` of ``baseline``.

    A preset can change the mask and still change nothing measured (3.0 has no VAES code for
    GCM, so ``no-vaes`` measures the native code). Compares the median rate per cell; only cells
    measured under both conditions count. Returns the messages (also emitted as warnings).
    """
    if table.empty or "isa" not in table.columns:
        return []
    if "flag" in table.columns:  # -multi children, "not measured" cells: not the run's figure
        table = table[table["flag"].isna()]
    rate = table["bytes_per_s"].where(table["bytes_per_s"].notna(), table["ops_per_s"])
    df = table.assign(_rate=rate).dropna(subset=["_rate"])
    keys = [k for k in keys if k in df.columns]
    med = (df.astype({"isa": "object"}).groupby([*keys, "isa"], observed=True, dropna=False)["_rate"]
           .median().unstack("isa"))
    if baseline not in med.columns:
        return []
    messages = []
    for cond in med.columns:
        if cond == baseline:
            continue
        pair = med[[baseline, cond]].dropna()
        if pair.empty:
            continue
        change = (pair[cond] / pair[baseline]).map(lambda x: abs(math.log(x)) if x > 0 else math.inf)
        # Per algorithm: a preset can move CBC and leave GCM alone (OpenSSL 4.0's VAES GCM path
        # ignores the AES-NI bit), which an all-cells test would hide.
        still = change.groupby(level=0, observed=True).max() < math.log1p(threshold)
        algs = sorted(map(str, still[still].index))
        if algs:
            msg = (f"{tool}: ISA condition {cond!r} changed no median rate of {', '.join(algs)} "
                   f"by {threshold:.0%} or more against {baseline!r}; this build does not use the "
                   f"masked features there, so those runs measure the {baseline} code."
                   + (" Newer OpenSSL (seen with 4.0) runs AES-GCM with VAES whatever the AES-NI bit: "
                      "'no-aesni-no-vaes' switches both off."
                      if cond in ("no-aesni", "no-aesni-classic") else ""))
            warnings.warn(msg, CaptureWarning, stacklevel=stacklevel)
            messages.append(msg)
    return messages


@contextlib.contextmanager
def session(folder, bar, call: str) -> Iterator[None]:
    """Run a capture loop: SIGTERM and SIGHUP end it as Ctrl-C does, and then the note says
    where the finished runs are; the bar is always closed (the folder by its ``opened``)."""
    from cipherlab.runners._exec import terminating_signals
    try:
        with terminating_signals():
            yield
    except KeyboardInterrupt as err:
        add_note(err, f"cipherlab: {len(folder.done_keys())} finished runs are kept in "
                      f"'{folder.path}'; {call}(..., out='{folder.path}', resume=True) continues.")
        err.capture_folder = folder.path  # for the CLI's resume command
        raise
    finally:
        bar.close()


def results(folder, keys: Sequence[str], tool: str, *, stacklevel: int = 4) -> pd.DataFrame:
    """The rows of the planned runs of ``tool`` in ``folder`` (resumed ones included), checked
    with :func:`rate_warnings`."""
    sources = {folder.source_name(k) for k in keys}
    table = folder.table()
    if table.empty:
        return table
    table = table[table["source"].astype(str).isin(sources) & (table["tool"] == tool)]
    table = table.reset_index(drop=True)
    rate_warnings(table, tool=tool, stacklevel=stacklevel)
    return table


def run_observed(argv: Sequence[str], env: Mapping[str, str]) -> tuple[Any, dict[str, Any]]:
    """Run one benchmark child (``_exec.execute``) and say what the host did meanwhile:
    ``{"load_1m", "steal_share", "clock_hz_measured"}`` for its ``runs.jsonl`` line."""
    from cipherlab.runners._exec import execute
    from cipherlab.runners._host import ClockSampler, cpu_times, load_1m, steal_share
    before = cpu_times()
    with ClockSampler() as clock:
        proc = execute(argv, env)
    return proc, {"load_1m": load_1m(), "steal_share": steal_share(before, cpu_times()),
                  "clock_hz_measured": clock.hz}


def check_busy(shares: Sequence[float], *, tool: str, limit: float = 0.8,
               stacklevel: int = 3) -> None:
    """Warn when the timed loops got much less than a whole core.

    ``shares``: user CPU seconds / wall seconds of each timed loop. With ``timing='cpu'`` openssl
    (and the cryptography worker) run each loop for a fixed wall time and divide by the user CPU
    time it got, so a busy machine lowers the count and the divisor alike and the
    rate survives; but frequency, caches and the share itself then vary from run to run.
    """
    if not shares:
        return
    share = statistics.median(shares)
    if share < limit:
        warnings.warn(f"the machine was busy: {tool} got a median {share:.0%} of a core during its "
                      f"timed loops (user CPU seconds / wall seconds). The rates divide by CPU time "
                      f"and stay usable, but expect more spread; for figures, capture on an idle "
                      f"machine.", CaptureWarning, stacklevel=stacklevel)


def add_note(err: BaseException, note: str) -> None:
    """Attach ``note`` to an exception (Python 3.11+), so tracebacks say where the runs are."""
    if hasattr(err, "add_note"):
        err.add_note(note)
