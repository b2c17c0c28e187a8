"""``cipherlab.capture_jca``: what a Java program gets from its JCA provider, per message size.

Why this module exists: the OpenJDK seed's slow GCM was SunJCE's, not OpenSSL's, and the question
"is it the cipher?" needs SunJCE's own per-size rates beside ``openssl speed`` and ``cryptography``
in one tidy table, under the same ISA conditions and under the HotSpot intrinsic switches of
:data:`~cipherlab.runners._jvm.JVM_PRESETS`. The Java side is ``runners/java/cipherlab/JcaBench.java``
(one ``Cipher.init`` with a fresh IV + one ``doFinal`` per message, a JIT warm-up per size, user
CPU or wall time); runs follow the rules of every cipherlab capture: one JVM per (algorithm,
operation, condition, repeat), conditions interleaved in a seeded order, every finished run in the
capture folder at once, ``resume=True`` after an interruption.
"""

from __future__ import annotations

import json
import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable

import pandas as pd

from cipherlab.errors import CaptureError
from cipherlab.model import Run, to_frame
from cipherlab.runners._folder import opened
from cipherlab.runners._host import check_host, host_info, load_1m
from cipherlab.runners._jvm import find_jdk, intrinsics, java_command, resolve_jvm, verify_jvm
from cipherlab.runners._openssl import default_folder
from cipherlab.runners._plan import RunProgress, check_busy, interleave, results, session, slug
from cipherlab.runners._python import _parse, checked_args, message_cells

__all__ = ["JCA_ALGORITHMS", "capture_jca"]

#: What ``JcaBench`` times: the JCA transformations AES/GCM, AES/CBC, AES/CTR (NoPadding),
#: ChaCha20-Poly1305, and the HMACs of TLS's CBC suites (operation ``digest``).
JCA_ALGORITHMS = ("aes-128-gcm", "aes-256-gcm", "aes-128-cbc", "aes-256-cbc", "aes-128-ctr",
                  "aes-256-ctr", "chacha20-poly1305", "hmac(sha1)", "hmac(sha256)", "hmac(sha384)")
DEFAULT_ALGORITHMS = ("aes-128-gcm", "aes-128-cbc", "chacha20-poly1305")
DEFAULT_SIZES = (16, 64, 256, 1024, 8192, 16384)


def jvm_conditions(cond, facts: dict | None = None) -> dict:
    """The tidy-table conditions of a run under the JVM condition ``cond``."""
    final = dict(cond.final)
    return {"jvm": cond.name, "isa": cond.isa, "jvm_flags": " ".join(cond.flags) or "(none)",
            "intrinsics": intrinsics(final), "aesni": cond.aesni,
            **({"host": facts["host"]} if facts else {})}


def capture_jca(algorithms: str | Iterable[str] | None = None, *,
                sizes: Iterable[int] | None = None, seconds: float = 1, repeats: int = 3,
                jvm: str | Iterable[str] | None = None, isa: str | Iterable[str] | None = None,
                operations: str | Iterable[str] = ("encrypt",), out: str | Path | None = None,
                timing: str = "cpu", warmup_s: float = 0.5, seed: int | None = 0,
                resume: bool = False, force: bool = False, java: str | None = None,
                label: str | None = None,
                progress: bool = True) -> pd.DataFrame:
    """Time the JDK's JCA provider per message, JVM and ISA conditions interleaved, every run kept.

    Parameters
    ----------
    algorithms : list of str or comma-separated str, optional
        Any of :data:`JCA_ALGORITHMS`; default aes-128-gcm, aes-128-cbc, chacha20-poly1305.
    sizes : list of int, optional
        Message sizes in bytes (default openssl's six). CBC needs multiples of 16.
    seconds : float
        Wall-clock seconds per measurement, after ``warmup_s`` of warm-up on the same size (the
        JIT needs it: the first calls run interpreted).
    repeats : int
        Separate JVMs per (algorithm, operation, condition).
    jvm : list of str or comma-separated str, optional
        :data:`~cipherlab.runners._jvm.JVM_PRESETS` names (default ``native``), e.g.
        ``"native,seed-era"``.
    isa : list of str or comma-separated str, optional
        ISA presets, which HotSpot honours through its CPU-feature options
        (:data:`~cipherlab.runners._jvm.ISA_JVM_FLAGS`); default ``native``. Every (jvm, isa)
        pair is one condition.
    operations : list of {'encrypt', 'decrypt'}
        Default encrypt (HMACs are always timed as ``digest``).
    out, seed, resume, force, label, progress, timing
        As for :func:`cipherlab.capture_python`.
    java : str, optional
        The ``java`` to run (default ``$JAVA_HOME/bin/java`` or ``java`` on PATH); ``javac``
        beside it builds the harness once into ``~/.cache/cipherlab/java``.

    Returns
    -------
    DataFrame
        The tidy table with ``tool='jdk'``, ``tool_version`` = the JDK's ``java.version``, and the
        conditions ``provider`` (``SunJCE 17``), ``jvm`` (the condition's name), ``isa``,
        ``jvm_flags``, ``intrinsics`` (those in effect, from ``-XX:+PrintFlagsFinal``), ``aesni``,
        ``repeat``, ``host``.

    Examples
    --------
    >>> import tempfile
    >>> df = capture_jca("aes-128-gcm", sizes=[1024], seconds=0.2, repeats=1, warmup_s=0.2,
    ...                  out=tempfile.mkdtemp(), progress=False)
    >>> row = df.iloc[0]
    >>> row.tool, row.algorithm, row.operation, int(row.block_bytes), row.jvm, row.provider
    ('jdk', 'aes-128-gcm', 'encrypt', 1024, 'native', 'SunJCE 17')
    """
    algs, ops, size_list = checked_args(
        DEFAULT_ALGORITHMS if algorithms is None else algorithms, JCA_ALGORITHMS, operations,
        DEFAULT_SIZES if sizes is None else sizes, timing, repeats, seconds)
    if isinstance(warmup_s, bool) or not isinstance(warmup_s, (int, float)) or warmup_s < 0:
        raise ValueError(f"warmup_s must be a number >= 0; not {warmup_s!r}")

    jdk = find_jdk(java)
    conds = resolve_jvm(jvm, isa, jdk=jdk)
    if not conds:
        raise CaptureError(f"no JVM condition of jvm={jvm!r}, isa={isa!r} can be measured with "
                           f"{jdk.java} (see the warnings above)")
    with opened(default_folder("jca") if out is None else out, resume=resume,
                force=force) as folder:
        facts = host_info()
        check_host(facts)
        folder.write_host(facts)

        cells = message_cells(algs, lambda alg: ["digest"] if alg.startswith("hmac(") else ops,
                              size_list)
        plan = interleave(cells, conds, repeats, seed)
        keys = [slug(f"jdk_{a}_{op}_{cond.name}_{timing}_r{rep}") for (a, op, _), cond, rep in plan]
        folder.check_plan(keys)
        done = folder.done_keys()
        todo = [(cell, cond, rep, k) for (cell, cond, rep), k in zip(plan, keys, strict=True)
                if k not in done]
        per_run = lambda cell: 0.5 + len(cell[2]) * (seconds + warmup_s)  # noqa: E731 (JVM start)
        limit = lambda cell: 120 + 3 * per_run(cell)  # noqa: E731 (a hung JVM ends the capture)

        shares: list[float] = []
        bar = RunProgress([(c[0], per_run(c)) for c, *_ in todo], desc="jdk", enabled=progress)
        with session(folder, bar, "capture_jca"):
            for (alg, op, sz), cond, rep, k in todo:
                cmd = java_command(jdk, cond, "JcaBench", [
                    "--algorithm", alg, "--operation", op, "--sizes", ",".join(map(str, sz)),
                    "--seconds", f"{seconds:g}", "--warmup", f"{warmup_s:g}", "--timing", timing])
                started = datetime.now(timezone.utc).isoformat(timespec="seconds")
                t0 = time.perf_counter()
                try:
                    proc = subprocess.run(cmd, capture_output=True, text=True, check=False,
                                          stdin=subprocess.DEVNULL, timeout=limit((alg, op, sz)))
                except subprocess.TimeoutExpired:
                    raise CaptureError(f"the JCA harness ({alg} {op}, {cond.name}) did not finish "
                                       f"within {limit((alg, op, sz)):g} s; it was stopped") from None
                wall = time.perf_counter() - t0
                if proc.returncode != 0:
                    raise CaptureError(f"the JCA harness exited with status {proc.returncode} "
                                       f"({alg} {op}, {cond.name}): {_jvm_error(proc)}")
                source = folder.source_name(k)
                start, rows = _parse(proc.stdout, source=source)
                meta = {"label": label or facts["host"], "tool": "jdk",
                        "tool_version": start.get("java_version"), "timing": timing,
                        "cpu": facts["cpu"], "clock_hz": facts["clock_hz"]}
                conditions = {**jvm_conditions(cond, facts), "repeat": rep,
                              "provider": f"{start.get('provider')} {start.get('provider_version')}"}
                frame = to_frame([Run(meta, rows)], source=source, conditions=conditions,
                                 first_run=folder.next_run_number())
                folder.add_run(k, proc.stdout, frame, {
                    "tool": "jdk", "command": cmd, "jvm": cond.name, "jvm_flags": list(cond.flags),
                    "flags_in_effect": start.get("flags"), "java_vendor": start.get("java_vendor"),
                    "vm": start.get("vm"), "repeat": rep, "started": started, "load_1m": load_1m(),
                    "wall_s": round(wall, 4), "nominal_s": per_run((alg, op, sz)),
                    "returncode": proc.returncode})
                bar.done(wall)
                if timing == "cpu":
                    shares.extend(c["seconds"] / seconds for c in rows)
        check_busy(shares, tool="jdk")
        table = results(folder, keys, "jdk")
        verify_jvm(table)
        return table


def _jvm_error(proc: subprocess.CompletedProcess) -> str:
    """The harness's own error line, else the JVM's last words (e.g. a refused option)."""
    for line in proc.stdout.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and rec.get("event") == "error":
            return f"{rec.get('type')}: {rec.get('message')}"
    text = (proc.stderr or proc.stdout).strip().splitlines()
    return text[-1] if text else "no output"
