"""``cipherlab.capture_python``: what a Python program actually gets from ``cryptography``.

Why this module exists: ``openssl speed`` measures the C loop; a Python program pays the
interpreter, argument conversion and a fresh context per call on top (pyca/cryptography #12854:
AESGCM went from 2826 to 1633 ns per call after a fix), which caps small messages far below the
openssl figure. Capturing both in the same tidy table lets the analysis show that per-call cost.
Runs follow the same rules as :func:`cipherlab.capture`: one worker process per (algorithm,
operation, ISA condition, repeat), conditions interleaved in a seeded order, every finished run in
the capture folder at once.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Sequence

import pandas as pd

from cipherlab.errors import CaptureError, UnsupportedAlgorithmError
from cipherlab.model import Run, to_frame
from cipherlab.runners import _pyworker
from cipherlab.runners._exec import execute
from cipherlab.runners._folder import opened
from cipherlab.runners._host import check_host, host_info
from cipherlab.runners._isa import IsaCondition, _mask_for, find_openssl, isa_env, labels, resolve_isa
from cipherlab.runners._openssl import _as_list, default_folder
from cipherlab.runners._plan import (RunProgress, check_busy, finish, interleave, results,
                                     run_observed, session, slug, stop_before)
from cipherlab.runners._sequential import sequential
from cipherlab.runners._system import warn

__all__ = ["capture_python"]

DEFAULT_ALGORITHMS = ("aes-128-gcm", "aes-128-cbc")
DEFAULT_SIZES = (16, 64, 256, 1024, 8192, 16384)
WORKER = Path(_pyworker.__file__)


def _parse(raw: str, *, source: str) -> tuple[dict, list[dict]]:
    """The worker's start/end facts (merged) and its result cells."""
    start: dict = {}
    cells = []
    for lineno, line in enumerate(raw.splitlines(), 1):
        rec = json.loads(line)
        if rec.get("event") in ("start", "end"):
            start.update(rec)
        elif rec.get("event") == "result":
            n, secs, size = rec["count"], rec["seconds"], rec["block_bytes"]
            ops = n / secs if secs > 0 else float("nan")
            cells.append({"line": lineno, "algorithm": rec["algorithm"], "name": rec["algorithm"],
                          "operation": rec["operation"], "block_bytes": size,
                          "bytes_per_s": ops * size, "ops_per_s": ops, "count": n,
                          "seconds": secs})
    if not cells:
        raise CaptureError(f"the cryptography worker printed no results ({source}): {raw[-400:]!r}")
    return start, cells


def _bundled_mask(python: str | None) -> str | None:
    """The mask in effect inside cryptography's OpenSSL with ``OPENSSL_ia32cap`` unset: the
    reference its runs' ``isa_off`` is decoded against (None where the worker cannot read it)."""
    spec = {"algorithm": "aes-128-gcm", "operation": "encrypt", "sizes": [], "seconds": 0,
            "warmup_s": 0, "timing": "cpu"}
    try:
        proc = execute([python or sys.executable, str(WORKER), json.dumps(spec)],
                       isa_env(IsaCondition("native", None)), timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None  # the runs then fall back to the system openssl's reading of the mask
    ends = [json.loads(line) for line in proc.stdout.splitlines() if '"end"' in line]
    return ends[-1].get("ia32cap_in_effect") if proc.returncode == 0 and ends else None


def checked_args(algorithms, known: Sequence[str], operations, sizes, timing: str, repeats,
                 seconds) -> tuple[list[str], list[str], list[int]]:
    """The per-message runners' arguments checked: (algorithms, operations, sizes), or a
    ValueError naming the argument (UnsupportedAlgorithmError for an algorithm not in ``known``)."""
    algs = _as_list(algorithms, "algorithms")
    bad = [a for a in algs if a not in known]
    if bad or not algs:
        raise UnsupportedAlgorithmError(
            f"algorithms must be among {', '.join(known)}; not {bad or algs!r}")
    ops = _as_list(operations, "operations")
    if not ops or any(o not in ("encrypt", "decrypt") for o in ops):
        raise ValueError(f"operations must be 'encrypt' and/or 'decrypt'; not {operations!r}")
    size_list = list(_as_list(sizes, "sizes"))
    if not size_list or any(isinstance(s, bool) or not isinstance(s, int) or s < 1
                            for s in size_list):
        raise ValueError(f"sizes must be a list of whole numbers of bytes >= 1; not {sizes!r}")
    if timing not in ("cpu", "elapsed"):
        raise ValueError(f"timing must be one of 'cpu' or 'elapsed'; not {timing!r}")
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise ValueError(f"repeats must be a whole number >= 1; not {repeats!r}")
    if isinstance(seconds, bool) or not (isinstance(seconds, (int, float)) and seconds > 0):
        raise ValueError(f"seconds must be a positive number; not {seconds!r}")
    return algs, ops, size_list


def message_cells(algs: Sequence[str], ops_for,
                  sizes: Sequence[int]) -> list[tuple[str, str, tuple[int, ...]]]:
    """``(algorithm, operation, sizes)`` cells; CBC keeps only whole 16-byte blocks (warned)."""
    cells = []
    for alg in algs:
        usable = tuple(s for s in sizes if not (alg.endswith("-cbc") and s % 16))
        if len(usable) < len(sizes):
            warn(f"{alg}: skipping sizes that are not whole 16-byte blocks "
                 f"({sorted(set(sizes) - set(usable))})")
        if usable:
            cells.extend((alg, op, usable) for op in ops_for(alg))
    return cells


def capture_python(algorithms: str | Iterable[str] | None = None, *,
                   sizes: Iterable[int] | None = None, seconds: float = 1,
                   repeats: int | None = None, isa: str | Iterable[str] | None = None,
                   precision: str | float | None = None, max_time: float | None = None,
                   operations: str | Iterable[str] = ("encrypt", "decrypt"),
                   out: str | Path | None = None, timing: str = "cpu", warmup_s: float = 0.2,
                   seed: int | None = 0, resume: bool = False, force: bool = False,
                   python: str | None = None,
                   openssl: str | Path | None = None, label: str | None = None,
                   progress: bool = True) -> pd.DataFrame:
    """Time the ``cryptography`` package per message, ISA conditions interleaved, every run kept.

    Parameters
    ----------
    algorithms : list of str or comma-separated str, optional
        Any of ``aes-128-gcm``, ``aes-256-gcm``, ``chacha20-poly1305`` (AEAD classes),
        ``aes-128-cbc``, ``aes-256-cbc``, ``aes-128-ctr``, ``aes-256-ctr`` (``Cipher``).
        Default aes-128-gcm, aes-128-cbc.
    sizes : list of int, optional
        Message sizes in bytes (default openssl's six: 16 ... 16384). CBC needs multiples of 16.
    seconds : float
        Wall-clock seconds per measurement (after ``warmup_s`` of warm-up on the same size).
        One call takes microseconds, so 1 s already averages 10^4-10^6 calls.
    repeats : int, optional
        Separate worker processes per (algorithm, operation, condition) (default 6); with
        ``precision``, the most to run (default 50).
    isa : list of str or comma-separated str, optional
        As for :func:`cipherlab.capture`; applied through the workers' environment.
    precision, max_time : optional
        The sequential design of :func:`cipherlab.capture` (``'2%'``): interleaved repeat
        blocks until every ISA condition's ratio to ``native`` is that narrow per cell, or
        ``max_time`` seconds are spent; one warm-up run discarded, the rule in
        ``stopping.json``. (No ``openssl=`` builds to compare: the OpenSSL that
        ``cryptography`` runs is the one in its wheel; compare two cryptography versions with
        ``python=`` interpreters of two environments, in two captures.)
    operations : list of {'encrypt', 'decrypt'}
        Default both.
    out, seed, resume, force, label, progress
        As for :func:`cipherlab.capture`.
    timing : {'cpu', 'elapsed'}
        Divide by user CPU time (as ``openssl speed`` does by default) or by wall time.
    python : str, optional
        The interpreter of the workers (default: this one).
    openssl : str or Path, optional
        The ``openssl`` binary that checks the ISA presets against this CPU (default: on PATH;
        needed because the OpenSSL inside cryptography cannot be asked before a worker runs).

    Returns
    -------
    DataFrame
        The tidy table with ``tool='cryptography'``, ``tool_version`` = cryptography's version and
        the condition ``backend`` = the OpenSSL its wheel bundles, plus ``isa``, ``isa_mask``,
        ``aesni``, ``repeat``, ``host``. ``isa_mask`` is the mask in effect inside the bundled
        OpenSSL, read by the worker from its own memory on Linux x86-64
        (``_pyworker.bundled_mask``); elsewhere, the mask the system ``openssl`` reports for the
        same ``OPENSSL_ia32cap`` value (both parse the first two words alike since 3.0).

    Examples
    --------
    >>> import tempfile
    >>> df = capture_python("aes-128-gcm", sizes=[1024], seconds=0.2, repeats=1, isa="native",
    ...                     operations="encrypt", warmup_s=0.05, out=tempfile.mkdtemp(),
    ...                     progress=False)
    >>> row = df.iloc[0]
    >>> row.tool, row.algorithm, row.operation, int(row.block_bytes), row.isa
    ('cryptography', 'aes-128-gcm', 'encrypt', 1024, 'native')
    """
    rule, repeats = sequential(precision, max_time, repeats, 6)
    algs, ops, size_list = checked_args(
        DEFAULT_ALGORITHMS if algorithms is None else algorithms, _pyworker.ALGORITHMS,
        operations, DEFAULT_SIZES if sizes is None else sizes, timing, repeats, seconds)

    binary = find_openssl(openssl)
    conds = resolve_isa(isa, openssl=binary)
    if not conds:
        raise CaptureError(f"no ISA condition of isa={isa!r} can be measured on this machine")
    if rule is not None and len(conds) < 2:
        raise ValueError(f"precision={precision!r} asks for the interval of a ratio, and a ratio "
                         f"needs two conditions: give isa='native,no-aesni'")
    with opened(default_folder("python") if out is None else out, resume=resume,
                force=force) as folder:
        facts = host_info(binary)
        check_host(facts)
        folder.write_host(facts)
        if facts.get("cryptography") is None:
            raise CaptureError("the `cryptography` package is not installed; `pip install cryptography`")

        plan = interleave(message_cells(algs, lambda alg: ops, size_list), conds, repeats, seed)
        keys = [slug(f"cryptography_{a}_{op}_{cond.name}_{timing}_r{rep}")
                for (a, op, _), cond, rep in plan]
        folder.check_plan(keys)
        done = folder.done_keys()
        todo = [(cell, cond, rep, k) for (cell, cond, rep), k in zip(plan, keys) if k not in done]
        native_cond = IsaCondition("native", None)
        masks = {cond: _mask_for(binary, cond.value) for cond in (*conds, native_cond)}
        bundled_native = _bundled_mask(python) if todo else None
        per_run = lambda cell: len(cell[2]) * (seconds + warmup_s)  # noqa: E731

        shares: list[float] = []  # user CPU seconds / wall seconds of each timed loop
        bar = RunProgress([(c[0], per_run(c)) for c, *_ in todo], desc="cryptography",
                          enabled=progress)
        def command(alg: str, op: str, sz: Sequence[int]) -> list[str]:
            spec = {"algorithm": alg, "operation": op, "sizes": list(sz), "seconds": seconds,
                    "warmup_s": warmup_s, "timing": timing}
            return [python or sys.executable, str(WORKER), json.dumps(spec)]

        with session(folder, bar, "capture_python"):
            if rule is not None and todo:  # caches, clock, imports: not part of any pair
                (alg, op, sz), cond, *_ = todo[0]
                run_observed(command(alg, op, sz), isa_env(cond))
            for (alg, op, sz), cond, rep, k in todo:
                if rule is not None and stop_before(rule, folder, keys, plan, rep, "cryptography"):
                    break
                cmd = command(alg, op, sz)
                started = datetime.now(timezone.utc).isoformat(timespec="seconds")
                proc, observed = run_observed(cmd, isa_env(cond))
                wall = proc.wall_s
                if proc.returncode != 0:
                    raise CaptureError(f"the cryptography worker exited with status "
                                       f"{proc.returncode} ({' '.join(cmd[1:])}): "
                                       f"{proc.stderr.strip()[-600:]}")
                source = folder.source_name(k)
                start, rows = _parse(proc.stdout, source=source)
                # The mask inside cryptography's own OpenSSL when the worker could read it (Linux
                # x86-64); else what the system openssl reports for the same OPENSSL_ia32cap value.
                mask = start.get("ia32cap_in_effect") or masks[cond]
                native = bundled_native if start.get("ia32cap_in_effect") else masks[native_cond]
                meta = {"label": label or facts["host"], "tool": "cryptography",
                        "tool_version": start.get("cryptography"), "timing": timing,
                        "cpu": facts["cpu"], "clock_hz": facts["clock_hz"]}
                conditions = {**labels(cond, mask, native), "repeat": rep, "host": facts["host"],
                              "backend": start.get("backend")}
                frame = to_frame([Run(meta, rows)], source=source, conditions=conditions,
                                 first_run=folder.next_run_number())
                folder.add_run(k, proc.stdout, frame, {
                    "tool": "cryptography", "command": cmd, "env": {"OPENSSL_ia32cap": cond.value},
                    "isa": cond.name, "isa_mask": mask, "repeat": rep, "started": started,
                    **observed,
                    "wall_s": round(wall, 4), "nominal_s": per_run((alg, op, sz)),
                    "returncode": proc.returncode})
                bar.done(wall)
                if timing == "cpu":
                    shares.extend(c["seconds"] / seconds for c in rows)
        check_busy(shares, tool="cryptography")
        if rule is not None:
            finish(rule, folder, keys, plan, "cryptography")
        return results(folder, keys, "cryptography", rule=rule)
