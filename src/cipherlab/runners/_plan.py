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
import random
import statistics
from typing import Any, Hashable, Iterator, Mapping, Sequence, TypeVar

import numpy as np
import pandas as pd

from cipherlab.runners._system import warn

__all__ = ["RunProgress", "add_note", "check_busy", "finish", "interleave", "paired_ratios",
           "planned_rows", "results", "run_observed", "session", "sign_flip_p", "slug",
           "stop_before", "verify_presets"]

C = TypeVar("C")
K = TypeVar("K")  # a condition


def interleave(cells: Sequence[C], conds: Sequence[K], repeats: int,
               seed: int | None = 0) -> list[tuple[C, K, int]]:
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


def _library(rows: pd.DataFrame, tool: str) -> str:
    """The library that ran ``rows``, named so the user knows which OpenSSL honoured the mask."""
    version = _first(rows, "tool_version")
    backend = _first(rows, "backend")
    name = f"{tool} {version}" if version else tool
    if backend:  # cryptography's wheel: not the system OpenSSL the presets were checked with
        name += f" (it bundles its own {backend}, not the system openssl)"
    return name


def _first(rows: pd.DataFrame, column: str):
    if column not in rows.columns:
        return None
    values = rows[column].dropna().astype(str).unique()
    return values[0] if len(values) else None


def _should_change(algorithm: str, isa_off: str | None) -> bool:
    """Whether masking ``isa_off`` should move ``algorithm``: AES instructions move AES only;
    anything else (SSSE3, AVX, AVX-512, SHA-NI ...) may move every algorithm."""
    from cipherlab.runners._isa import _aes_only, uses_aes
    if not isa_off or isa_off == "none":
        return False
    return uses_aes(algorithm) or not _aes_only(set(isa_off.split("+")))


def paired_ratios(table: pd.DataFrame, condition: str, *, baseline: str = "native",
                  by: str = "isa", per_size: bool = False) -> pd.DataFrame:
    """One rate ratio ``condition / baseline`` of column ``by`` per interleaved pair of runs (same
    repeat, same cell, same other conditions: ``build`` or ``isa``): the geometric mean over the
    block sizes both runs measured. Columns ``tool``, the other condition, ``algorithm``,
    ``operation``, ``repeat``, ``log_ratio``.

    The unit is the pair of processes, never a block size: sizes of one run share its noise.
    ``per_size`` keeps one log ratio per block size instead (a ``block_bytes`` column).
    """
    t = table
    if "flag" in t.columns:  # -multi children, "not measured" cells: not the run's figure
        t = t[t["flag"].isna()]
    rate = t["bytes_per_s"].where(t["bytes_per_s"].notna(), t["ops_per_s"])
    t = t.assign(_rate=rate).dropna(subset=["_rate"])
    t = t[t["_rate"] > 0]
    keys = [k for k in ("tool", "build", "isa", "algorithm", "operation", "block_bytes", "repeat")
            if k in t.columns and k != by]
    t = t.astype({k: "object" for k in [*keys, by]})
    if "block_bytes" in keys:  # (a public-key row has none: NA, which a float cast refuses)
        t["block_bytes"] = pd.to_numeric(t["block_bytes"], errors="coerce").astype(float)
    wide = (t[t[by].isin([baseline, condition])].groupby([*keys, by], dropna=False)["_rate"]
            .median().unstack(by))
    if baseline not in wide.columns or condition not in wide.columns:
        return pd.DataFrame(columns=[*[k for k in keys if k != "block_bytes"], "log_ratio"])
    logs = np.log(wide[condition] / wide[baseline]).dropna().rename("log_ratio").reset_index()
    if per_size:
        return logs
    pair = [k for k in keys if k != "block_bytes"]
    return logs.groupby(pair, dropna=False)["log_ratio"].mean().reset_index()


def sign_flip_p(x: Sequence[float]) -> float:
    """Two-sided p of the exact sign-flip test that the mean of paired log ratios is 0.

    The smallest p it can give is 2 / 2**n: 0.03 with 6 pairs, 0.25 with 3.

    >>> round(sign_flip_p([0.5, 0.6, 0.4, 0.55, 0.52, 0.48]), 4)
    0.0312
    """
    from scipy import stats
    x = np.asarray(x, dtype=float)
    if len(x) < 2 or np.allclose(x, 0):
        return 1.0
    res = stats.permutation_test((x,), np.mean, permutation_type="samples",
                                 n_resamples=np.inf if len(x) <= 16 else 20000,
                                 alternative="two-sided", random_state=0)
    return float(res.pvalue)


def verify_presets(table: pd.DataFrame, *, baseline: str = "native", alpha: float = 0.05) -> list[str]:
    """Check by behaviour that every ISA condition moved what its mask should move.

    Per library (``tool``, and for ``cryptography`` the OpenSSL its wheel bundles) and per
    algorithm the masked features should affect (:func:`_should_change`: AES instructions move
    AES algorithms; any other feature every algorithm), the interleaved pairs of runs give one
    log ratio each (:func:`paired_ratios`); an exact sign-flip test (:func:`sign_flip_p`) asks
    whether the condition changed the rate. Not a fixed threshold: run-to-run noise of -2 % to
    +56 % (seen with `cryptography` on a shared VM) makes any threshold wrong one way or the other.

    Warns (:class:`~cipherlab.errors.CaptureWarning`, naming the library) when a condition did
    not change an algorithm detectably (p >= ``alpha``), and when there are too few pairs to
    tell (fewer than 6: the smallest p of n pairs is 2/2**n). Returns the messages.
    """
    if table.empty or "isa" not in table.columns or "isa_off" not in table.columns:
        return []
    messages = []
    t = table.astype({c: "object" for c in ("tool", "build", "algorithm", "isa")
                      if c in table.columns})
    for cond in t["isa"].dropna().unique():
        if cond == baseline:
            continue
        pairs = paired_ratios(t, cond, baseline=baseline)
        keys = [k for k in ("tool", "build", "algorithm") if k in pairs.columns]
        for values, g in pairs.groupby(keys, dropna=False):
            sel = dict(zip(keys, values))
            rows = t[np.logical_and.reduce([t[k] == v for k, v in sel.items()])]
            isa_off = _first(rows[rows["isa"] == cond], "isa_off")
            alg = sel["algorithm"]
            if not _should_change(str(alg), isa_off):
                continue
            lib, n = _library(rows, str(sel["tool"])), len(g)
            if "build" in sel:
                lib += f", build {sel['build']}"
            ratio = float(np.exp(g["log_ratio"].mean()))
            what = f"{lib}: ISA condition {cond!r} (switched off {isa_off})"
            if n < 6:
                msg = (f"{what}: only {n} interleaved pair(s) of runs for {alg}, too few to check "
                       f"that the mask changed its rate (ratio {ratio:.2f}x; 6 pairs are needed "
                       f"for p < 0.05): use repeats >= 6")
            else:
                p = sign_flip_p(g["log_ratio"])
                if p < alpha:
                    continue
                msg = (f"{what} did not change the rate of {alg} detectably (ratio {ratio:.2f}x "
                       f"against {baseline!r}, sign-flip p = {p:.2f} over {n} interleaved pairs): "
                       f"this library does not use the masked features for {alg} (or ignores the "
                       f"mask), so those runs measure the {baseline} code")
            warn(msg)
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


def planned_rows(folder, keys: Sequence[str], tool: str) -> pd.DataFrame:
    """The rows of the planned runs of ``tool`` finished in ``folder`` (resumed ones included)."""
    sources = {folder.source_name(k) for k in keys}
    table = folder.table()
    if table.empty:
        return table
    table = table[table["source"].astype(str).isin(sources) & (table["tool"] == tool)]
    return table.reset_index(drop=True)


def results(folder, keys: Sequence[str], tool: str, *, rule=None) -> pd.DataFrame:
    """The rows of the planned runs, checked with :func:`verify_presets`; sources named as
    ``cipherlab.ingest`` names them (``<folder name>/runs/<key>.txt``); a sequential design's
    stopping record in ``attrs["stopping"]``."""
    from cipherlab.runners._folder import qualified
    table = qualified(planned_rows(folder, keys, tool), folder.path)
    verify_presets(table)
    if rule is not None:
        table.attrs["stopping"] = rule.record()
    return table


def stop_before(rule, folder, keys: Sequence[str], plan: Sequence[tuple], rep: int,
                tool: str) -> bool:
    """Whether a sequential design stops before repeat block ``rep``: judged on the finished
    blocks ``1 .. rep-1`` (resumed runs included), once per block."""
    if rep - 1 < rule.min_pairs or rep - 1 <= rule.pairs:  # too few, or judged "go on" already
        return False
    from cipherlab.runners._sequential import ratio_intervals
    done = [k for k, (_, _, r) in zip(keys, plan) if r < rep]
    return rule.done(ratio_intervals(planned_rows(folder, done, tool)), rep - 1)


def finish(rule, folder, keys: Sequence[str], plan: Sequence[tuple], tool: str) -> None:
    """Record why a sequential design stopped (``stopping.json``) and warn when it was not
    because every ratio reached the precision asked."""
    from cipherlab.runners._sequential import ratio_intervals
    if rule.stopped is None:  # the last block ran: judge it
        last = max(r for _, _, r in plan)
        rule.done(ratio_intervals(planned_rows(folder, keys, tool)), last)
    folder.write_json("stopping.json", rule.record())
    if rule.stopped != "precision":
        w = rule.widest or {}
        warn(f"{tool}: stopped by {rule.stopped} after {rule.pairs} repeat blocks before "
             f"every ratio reached +-{rule.precision:.1%}: the widest is "
             f"{w.get('condition')} vs {w.get('baseline')} for {w.get('algorithm')} at "
             f"{w.get('block_bytes')} bytes, +-{w.get('half_width', float('nan')):.1%}")


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


def check_busy(shares: Sequence[float], *, tool: str, limit: float = 0.8) -> None:
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
        warn(f"the machine was busy: {tool} got a median {share:.0%} of a core during its "
             f"timed loops (user CPU seconds / wall seconds). The rates divide by CPU time "
             f"and stay usable, but expect more spread; for figures, capture on an idle "
             f"machine.")


def add_note(err: BaseException, note: str) -> None:
    """Attach ``note`` to an exception (Python 3.11+), so tracebacks say where the runs are."""
    if hasattr(err, "add_note"):
        err.add_note(note)
