"""``cipherlab.capture``: benchmark this machine with the real ``openssl speed``.

Why this module exists: a single ``openssl speed`` paste has no repeats, no record of the ISA
mask in effect and no host facts, so its numbers cannot carry a confidence interval or a claim
such as "AES-NI gives 16x". ``capture`` runs ``openssl speed -mr`` once per (algorithm, block
size or size set, ISA condition, repeat) as a separate process, through an argument list (never a
shell), interleaves the conditions (``_plan.interleave``), and parses each run's text with
``cipherlab.ingest`` itself, so capture and ingest can never disagree on a number. Each run's raw
text, rows and command line land in the capture folder as soon as it finishes.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Sequence

import pandas as pd

from cipherlab.errors import CaptureError, UnsupportedAlgorithmError
from cipherlab.runners._builds import Build, resolve_builds
from cipherlab.runners._exec import execute, kill_group, spawn
from cipherlab.runners._folder import opened
from cipherlab.runners._host import check_host, host_info
from cipherlab.runners._isa import IsaCondition, _mask_for, labels, resolve_isa, run_env
from cipherlab.runners._plan import (
    RunProgress,
    check_busy,
    finish,
    interleave,
    results,
    run_observed,
    session,
    slug,
    stop_before,
)
from cipherlab.runners._remote import EXIT_MARK
from cipherlab.runners._sequential import sequential
from cipherlab.runners._system import warn

__all__ = ["capture"]

DEFAULT_ALGORITHMS = ("aes-128-gcm", "aes-128-cbc")
DEFAULT_SIZES_COUNT = 6  # 16 64 256 1024 8192 16384 (1.1.0+); -aead: 2 31 136 1024 8192 16384

# Public-key names as ``openssl speed`` takes them positionally, with the number of timed
# operations each runs (sign+verify = 2, derive = 1); everything else goes through ``-evp``.
_PKEY = [(re.compile(r"^(rsa|dsa)\d+$"), 2), (re.compile(r"^ecdsa\w+$"), 2),
         (re.compile(r"^ecdh\w+$"), 1), (re.compile(r"^(ed25519|ed448|sm2)$"), 2),
         (re.compile(r"^ffdh\d+$"), 1)]


@dataclass(frozen=True)
class _Alg:
    name: str
    pkey_ops: int  # 0 for ciphers and digests (run with -evp)

    @property
    def args(self) -> list[str]:
        return [self.name] if self.pkey_ops else ["-evp", self.name]


def _classify(name: str) -> _Alg:
    for pattern, ops in _PKEY:
        if pattern.match(name.lower()):
            return _Alg(name.lower(), ops)
    return _Alg(name, 0)


def _probe(binary: str, alg: _Alg, extra: Sequence[str], env: dict[str, str]) -> str | None:
    """Start ``openssl speed`` on ``alg`` and stop it at its first progress record.

    Returns None when openssl accepted the algorithm, else its complaint. Costs milliseconds,
    and finds a typo before an hour of capture rather than in the middle of it.
    """
    cmd = [binary, "speed", "-mr", "-seconds", "1", *extra, *alg.args]
    procs: list[subprocess.Popen] = []
    lines = []
    try:
        proc = spawn(procs, cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                     env=env)
        for line in proc.stderr:
            if line.startswith("+DT"):
                return None
            if not line.startswith(EXIT_MARK):  # the exit status a remote run adds
                lines.append(line.strip())
        proc.wait(timeout=30)
    finally:
        for proc in procs:
            kill_group(proc)
            proc.stderr.close()
    return next((ln for ln in lines if ln and ":error:" not in ln), "") or " / ".join(lines)


def _available(binary: str) -> list[str]:
    names: set[str] = set()
    for kind in ("-cipher-algorithms", "-digest-algorithms"):
        out = execute([binary, "list", kind], os.environ, timeout=60).stdout
        # "  { 2.16.840.1.101.3.4.1.6, id-aes128-GCM, aes-128-gcm } @ default" (provided),
        # "  NULL @ default", "  AES-128-CBC" or "  AES128 => AES-128-CBC" (legacy names)
        for line in out.splitlines():
            line = line.split(" @ ")[0].split("=>")[-1].strip().strip("{}")
            for tok in line.split(","):
                tok = tok.strip()
                if tok and not tok.endswith(":") and not re.match(r"^[\d.]+$", tok):
                    names.add(tok.lower())
    return sorted(names)


def _check_algorithms(build: Build, algs: list[_Alg], extra: Sequence[str]) -> None:
    binary, env = build.binary, build.environ(IsaCondition("native", None))
    bad = {a.name: why for a in algs if (why := _probe(binary, a, extra, env)) is not None}
    if bad:
        listed = ", ".join(_available(binary))
        raise UnsupportedAlgorithmError(
            f"this openssl ({binary}) does not run {', '.join(map(repr, bad))} "
            f"({'; '.join(f'{k}: {v}' for k, v in bad.items())}). Ciphers and digests it has "
            f"(`openssl list -cipher-algorithms -digest-algorithms`): {listed}. Public-key names "
            f"are `openssl speed`'s own: rsa2048, dsa2048, ecdsap256, ecdhp256, ecdhx25519, "
            f"ed25519, ed448, sm2, ffdh2048 (see `man openssl-speed`).")


def _seconds_arg(binary: str, seconds: float) -> str:
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not seconds > 0 \
            or not math.isfinite(seconds):
        raise ValueError(f"seconds must be a positive number; not {seconds!r}")
    if float(seconds).is_integer():
        return str(int(seconds))
    help_text = execute([binary, "speed", "-help"], os.environ, timeout=60).stderr
    m = re.search(r"^\s*-seconds\s+(\S+)", help_text, re.M)
    if m is None or m[1] == "+int":
        raise CaptureError(
            f"seconds must be a whole number for this openssl ({binary}: `openssl speed "
            f"-seconds` takes {m[1] if m else 'an integer'}); not {seconds!r}. Use e.g. "
            f"seconds={max(1, round(seconds))}.")
    return repr(float(seconds))


def _as_list(value, what: str) -> list:
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    try:
        return list(value)
    except TypeError:
        raise TypeError(f"{what} must be a list or a comma-separated string; not {value!r}") from None


def default_folder(prefix: str) -> Path:
    """``captures/<prefix>-<host>-<UTC time>`` under the working directory."""
    import socket
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return Path("captures") / f"{prefix}-{slug(socket.gethostname())}-{stamp}"


def capture(algorithms: str | Iterable[str] | None = None, *, sizes: Iterable[int] | None = None,
            seconds: float = 3, repeats: int | None = None,
            isa: str | Iterable[str] | None = None, precision: str | float | None = None,
            max_time: float | None = None,
            out: str | Path | None = None, timing: str = "cpu", multi: int | None = None,
            decrypt: bool = False, aead: bool = False, seed: int | None = 0,
            resume: bool = False, force: bool = False, openssl: str | Path | None = None,
            label: str | None = None, progress: bool = True, hosts: str | Iterable | None = None,
            ssh_config: str | Path | None = None, accept_new: bool = False,
            parallel: str = "machine") -> pd.DataFrame:
    """Benchmark this machine (or a fleet over SSH: ``hosts``) with ``openssl speed``, ISA
    conditions interleaved, every run kept.

    Parameters
    ----------
    algorithms : list of str or comma-separated str, optional
        EVP cipher/digest names (``aes-128-gcm``, ``aes-256-cbc``, ``chacha20-poly1305``,
        ``sha256``; run as ``-evp NAME``) and public-key names as ``openssl speed`` spells them
        (``rsa2048``, ``ecdsap256``, ``ecdhx25519``, ``ed25519``). Default aes-128-gcm, aes-128-cbc.
    sizes : list of int, optional
        Block sizes in bytes, one ``-bytes N`` process per size. Default: openssl's own six
        sizes in one process (16 ... 16384; with ``aead`` 2 ... 16384). Ignored for public keys.
    seconds : int
        Seconds per measurement (``-seconds``; OpenSSL 1.1.1-3.x accept whole numbers only).
    repeats : int
        Separate ``openssl`` processes per (algorithm, size, condition). Default 6 (benchstat's
        minimum for its Mann-Whitney test); with ``precision``, the most to run (default 50).
    precision : str or float, optional
        ``'2%'``: a sequential design (``runners._sequential``). After each complete block of
        interleaved runs the capture stops once every requested ratio (each ISA condition
        against ``native``, each build against the first) has a 95 % interval within +-2 % per
        cell, or ``max_time`` is spent, or ``repeats`` is reached; one warm-up run is discarded
        first, and the rule with the reason it stopped goes to ``stopping.json`` (and
        ``df.attrs["stopping"]``).
    max_time : float, optional
        Seconds the sequential design may take (checked after each block).
    isa : list of str or comma-separated str, optional
        :data:`~cipherlab.runners.ISA_PRESETS` names or raw ``OPENSSL_ia32cap`` masks. Default
        ``native,no-aesni``. Presets that cannot apply here are skipped with a warning.
    out : str or Path, optional
        The capture folder (default ``captures/openssl-<host>-<UTC time>``).
    timing : {'cpu', 'elapsed'}
        openssl's divisor: user CPU time (its default) or wall clock (``-elapsed``).
    multi : int, optional
        ``-multi N`` processes; the children time with the wall clock, so ``timing`` becomes
        ``'elapsed'`` for those rows.
    decrypt, aead : bool
        ``-decrypt`` (EVP ciphers; rows get ``operation='decrypt'``) and ``-aead`` (the
        TLS-like AEAD loop; rows get the condition ``loop='aead'``).
    seed : int or None
        Seed of the interleaving order (``None``: a fresh random order each call). Runs are
        named by what they measure, not by their place in the order, so resume works either way.
    resume : bool
        Reopen ``out`` and run only the runs not finished there. A run is known by what it
        measures (algorithm, size, condition, mode, repeat), so raising ``repeats`` or adding an
        ISA condition on resume adds just the new runs; ``seconds`` is not part of that identity.
    force : bool
        Resume a folder captured on another machine (refused otherwise: it would mix machines).
    openssl : str, Path or list, optional
        The binary (default: ``openssl`` on PATH), or several builds to compare, each
        ``[NAME=]PATH[@LIBDIR]`` (``LIBDIR``: its ``LD_LIBRARY_PATH``), as a list or
        comma-separated: ``"old=/opt/ossl111/bin/openssl,/usr/bin/openssl"``. Builds are a
        condition like the ISA presets: interleaved, the column ``build`` (unnamed builds are
        named by their version), each build's ``openssl version -a`` in ``builds.json``, so
        ``stats.speedup(df, by="build", on=..., off=...)`` compares them.
    label : str, optional
        The ``label`` of every row (default: the host name).
    progress : bool
        Show a tqdm progress bar with runs done and an ETA.
    hosts : str or list, optional
        Benchmark these machines over SSH instead of this one, at the same time, each one run
        after another: host names or ``~/.ssh/config`` aliases (``[user@]host[:port]``), ``@FILE``
        Ansible inventories (INI or YAML) or ``SshHost`` objects, comma-separated or a list (see
        :func:`~cipherlab.runners._fleet.capture_fleet`). ``out`` then holds one capture folder
        per host; ``openssl`` names the remote binary (an inventory's ``openssl_path`` wins);
        each row's ``label`` and ``host`` are the host's name, and its inventory variables
        become columns.
    ssh_config : str or Path, optional
        An OpenSSH client config for the hosts (``ssh -F``).
    accept_new : bool
        Learn the host keys of hosts not yet in known_hosts (OpenSSH's ``accept-new``); without
        it an unknown host fails with a message saying so. A changed key always fails.
    parallel : {'machine', 'host'}
        With ``hosts``: one thread per machine (hosts that turn out to be one machine run one
        after another, with a warning), or one per host whatever they share.

    Returns
    -------
    DataFrame
        The tidy table (``cipherlab.model`` columns; ``tool='openssl'``) of every run of this
        plan, including runs found finished on resume, with the conditions ``isa``, ``isa_mask``
        (as ``openssl version -a`` reports it under the run's environment), ``isa_off`` (what that
        mask switched off against native's, e.g. ``aesni+pclmulqdq+vaes+vpclmulqdq``), ``aesni``
        (``on``/``off`` only when nothing but the AES instructions differ), ``repeat``
        and ``host``. ``source`` is the run's raw file in the folder (``runs/<key>.txt``).

    Raises
    ------
    CaptureError
        No ``openssl`` (the message says what to install), a non-integer ``seconds`` on a version
        that needs one, an unwritable ``out``, a run that failed.
    UnsupportedAlgorithmError
        An algorithm this openssl does not run (the message lists those it has).

    Warns
    -----
    CaptureWarning
        A preset that was skipped or left the mask unchanged; a condition that did not change
        the rate of an algorithm its mask should move (an interleaved A/B sign-flip test per
        library and algorithm, ``_plan.verify_presets``); a virtualised or busy host.

    Examples
    --------
    >>> import tempfile
    >>> df = capture("aes-128-gcm", sizes=[16384], seconds=1, repeats=1, isa="native",
    ...              out=tempfile.mkdtemp(), progress=False)
    >>> row = df.iloc[0]
    >>> row["algorithm"], int(row["block_bytes"]), row["isa"], row["aesni"], int(row["repeat"])
    ('aes-128-gcm', 16384, 'native', 'on', 1)
    """
    algs = [_classify(a) for a in _as_list(DEFAULT_ALGORITHMS if algorithms is None else algorithms,
                                           "algorithms")]
    if not algs:
        raise ValueError("algorithms must name at least one algorithm; got none")
    if timing not in ("cpu", "elapsed"):
        raise ValueError(f"timing must be one of 'cpu' or 'elapsed'; not {timing!r}")
    rule, repeats = sequential(precision, max_time, repeats, 6)
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise ValueError(f"repeats must be a whole number >= 1; not {repeats!r}")
    if multi is not None and (isinstance(multi, bool) or not isinstance(multi, int) or multi < 1):
        raise ValueError(f"multi must be a whole number >= 1 or None; not {multi!r}")
    size_list = None if sizes is None else _as_list(sizes, "sizes")
    if size_list is not None:
        if not size_list or any(isinstance(s, bool) or not isinstance(s, int) or s < 1
                                for s in size_list):
            raise ValueError(f"sizes must be a list of whole numbers of bytes >= 1; not {sizes!r}")
    if hosts is not None:  # the arguments are checked; each host thread runs this very capture
        from cipherlab.runners._fleet import capture_fleet
        return capture_fleet(capture, hosts, dict(
            algorithms=algorithms, sizes=sizes, seconds=seconds, repeats=repeats, isa=isa,
            precision=precision, max_time=max_time, timing=timing, multi=multi,
            decrypt=decrypt, aead=aead, seed=seed, force=force, openssl=openssl, label=label),
            out=out, resume=resume, progress=progress,
            ssh_config=ssh_config, accept_new=accept_new, parallel=parallel)
    builds = resolve_builds(openssl)
    compare = len(builds) > 1
    secs = max((_seconds_arg(b.binary, seconds) for b in builds), key=len)  # "1" vs "1.0"

    mode = (["-decrypt"] if decrypt else []) + (["-aead"] if aead else [])
    conds: list[tuple[Build, IsaCondition]] = []
    for build in builds:
        _check_algorithms(build, algs, mode)
        conds += [(build, c) for c in resolve_isa(isa, openssl=build.binary, env=build.env)]
    if not conds:
        raise CaptureError(f"no ISA condition of isa={isa!r} can be measured on this machine "
                           f"(see the warnings above)")
    if rule is not None and len(conds) < 2:
        raise ValueError(f"precision={precision!r} asks for the interval of a ratio, and a ratio "
                         f"needs two conditions: give isa='native,no-aesni' or two builds")

    with opened(default_folder("openssl") if out is None else out, resume=resume,
                force=force) as folder:
        facts = host_info(builds[0].binary)
        check_host(facts)
        folder.write_host(facts)
        build_facts = {b.name: b.facts() for b in builds}
        if compare:
            folder.write_builds(build_facts)
        eff_timing = "elapsed" if multi else timing

        # A cell is one openssl process's worth of measurements under one condition.
        cells: list[tuple[_Alg, int | None]] = []
        for alg in algs:
            if alg.pkey_ops or size_list is None:
                cells.append((alg, None))
            else:
                cells.extend((alg, s) for s in size_list)
        plan = interleave(cells, conds, repeats, seed)

        def key(alg: _Alg, size: int | None, bc: tuple[Build, IsaCondition], rep: int) -> str:
            build, cond = bc
            parts = ["openssl", alg.name, "all" if size is None else str(size), cond.name,
                     *([build.name] if compare else []),
                     *(["dec"] if decrypt else []), *(["aead"] if aead else []),
                     *([f"multi{multi}"] if multi else []), *(["elapsed"] if timing == "elapsed" else []),
                     f"r{rep}"]
            return slug("_".join(parts))

        keys = [key(*cell, bc, rep) for cell, bc, rep in plan]
        folder.check_plan(keys)
        done = folder.done_keys()
        todo = [(cell, bc, rep, k) for (cell, bc, rep), k in zip(plan, keys) if k not in done]
        masks = {(b, c): _mask_for(b.binary, c.value, b.env) for b, c in conds}
        natives = {b: _mask_for(b.binary, None, b.env) for b in builds}

        def nominal(alg: _Alg, size: int | None) -> float:
            n = alg.pkey_ops or (1 if size is not None else DEFAULT_SIZES_COUNT)
            return float(secs) * n

        import cipherlab  # the public ingest, whatever module readers put it in

        shares: list[float] = []  # user CPU seconds / -seconds of each timed loop
        bar = RunProgress([((c[0].name, c[1] is None), nominal(*c)) for c, *_ in todo],
                          desc=f"{facts['host']}: openssl speed" if "ssh" in facts
                          else "openssl speed", enabled=progress)

        def command(alg: _Alg, size: int | None, build: Build) -> list[str]:
            return [build.binary, "speed", "-mr", "-seconds", secs,
                    *(["-elapsed"] if timing == "elapsed" else []),
                    *(["-multi", str(multi)] if multi else []), *mode,
                    *(["-bytes", str(size)] if size is not None and not alg.pkey_ops else []),
                    *alg.args]

        with session(folder, bar, "capture"):
            if rule is not None and todo:  # caches, clock, page cache: not part of any pair
                (alg, size), (build, cond), *_ = todo[0]
                run_observed(command(alg, size, build), build.environ(cond))
            for (alg, size), (build, cond), rep, k in todo:
                if rule is not None and stop_before(rule, folder, keys, plan, rep, "openssl"):
                    break
                cmd = command(alg, size, build)
                started = datetime.now(timezone.utc).isoformat(timespec="seconds")
                proc, observed = run_observed(cmd, build.environ(cond))
                wall = proc.wall_s
                raw = proc.stderr + proc.stdout  # the order of `2>&1` into a pipe
                if proc.returncode != 0:
                    raise CaptureError(f"openssl speed exited with status {proc.returncode} "
                                       f"(command: {' '.join(cmd)}); its output ends: "
                                       f"{raw.strip()[-400:]!r}")
                mask = masks[(build, cond)]
                conditions = {**labels(cond, mask, natives[build]), "repeat": rep,
                              "host": facts["host"], **({"build": build.name} if compare else {}),
                              **facts.get("labels", {})}  # a fleet host's inventory variables
                if aead:
                    conditions["loop"] = "aead"
                frame = cipherlab.ingest(raw, label=label or facts["host"], tool="openssl",
                                         tool_version=build_facts[build.name]["openssl_version"],
                                         timing=eff_timing, cpu=facts["cpu"],
                                         clock_hz=facts["clock_hz"], multi=multi, **conditions)
                if frame.empty:
                    raise CaptureError(f"openssl speed printed no result records (command: "
                                       f"{' '.join(cmd)}); its output: {raw.strip()[-400:]!r}")
                if frame["flag"].notna().all():
                    warn(f"openssl speed measured nothing for {alg.name} (every cell is "
                         f"flagged {sorted(map(str, frame['flag'].unique()))}; command: "
                         f"{' '.join(cmd)}); the run is kept in the folder as printed.")
                frame = frame.assign(source=folder.source_name(k), run=folder.next_run_number())
                if decrypt:
                    op = frame["operation"].astype("object")
                    frame["operation"] = op.where(op != "encrypt", "decrypt").astype("category")
                folder.add_run(k, raw, frame, {
                    "tool": "openssl", "command": cmd,
                    "env": run_env(cond, build.env),
                    "isa": cond.name, "isa_mask": mask, "repeat": rep, "started": started,
                    **({"build": build.name} if compare else {}), **observed,
                    "wall_s": round(wall, 4), "nominal_s": nominal(alg, size),
                    "returncode": proc.returncode})
                bar.done(wall)
                if eff_timing == "cpu":
                    shares.extend((frame["seconds"] / float(secs)).dropna().tolist())
        check_busy(shares, tool="openssl")
        if rule is not None:
            finish(rule, folder, keys, plan, "openssl")
        return results(folder, keys, "openssl", rule=rule)

