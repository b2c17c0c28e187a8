"""``cipherlab.capture_gnutls``: GnuTLS's own benchmark (``gnutls-cli --benchmark-ciphers``) under
the ISA presets, into the tidy table.

Why this module exists: the cross-library question ("is it the algorithm or the library?")
needs a third C library beside OpenSSL and the JDK, measured on the same machine under the same
conditions. GnuTLS ignores ``OPENSSL_ia32cap``; it has two switches of its own, both read once
at start-up:

* ``GNUTLS_CPUID_OVERRIDE``: the capabilities GnuTLS's accelerated code may use, as a bit set
  (``0x2`` AES-NI, ``0x4`` SSSE3, ``0x8`` PCLMUL, ``0x10`` AVX, ``0x20`` SHA; ``0x1``: none);
  a capability the CPU lacks is never enabled.
* ``NETTLE_FAT_OVERRIDE``: GnuTLS falls back to Nettle, whose "fat" build picks AES-NI, PCLMUL
  and SHA-NI code by itself: with only ``GNUTLS_CPUID_OVERRIDE=0x1``, AES-128-GCM still ran at
  2.5 GB/s here (GnuTLS 3.7.9, Nettle 3.8.1), against 0.3 GB/s with both switched off. This
  variable *replaces* the detected features, so it is built from the features Nettle reports
  (``NETTLE_FAT_VERBOSE``) minus the masked ones.

An ISA preset therefore sets both (:data:`ISA_GNUTLS_DROP`), and every run records what was in
effect, read from the run's own start-up messages (``GNUTLS_DEBUG_LEVEL=2``: "Intel AES
accelerator was detected"; ``NETTLE_FAT_VERBOSE=1``: "using aes instructions"), in ``isa_mask``
(``gnutls:aes,ssse3,...;nettle:aesni,...``) and ``aesni``. ``no-vaes`` has no meaning for these
releases (neither has VAES code) and is skipped with a warning.

``gnutls-cli`` always benchmarks its whole list, in a fixed order, for a fixed time each (about
100 s in all). ``algorithms`` says which rows are wanted: the run is stopped as soon as all of
them are printed (its output is line-buffered through ``stdbuf``), and only those rows are kept.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shutil
import signal
import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable

import pandas as pd

from cipherlab.errors import CaptureError
from cipherlab.runners._folder import opened
from cipherlab.runners._host import check_host, host_info, load_1m
from cipherlab.runners._openssl import _as_list, default_folder
from cipherlab.runners._plan import RunProgress, interleave, results, session, slug
from cipherlab.runners._system import warn

__all__ = ["ISA_GNUTLS_DROP", "capture_gnutls"]

#: ISA preset -> (GnuTLS capabilities, Nettle features) it switches off; None: no meaning here.
ISA_GNUTLS_DROP: dict[str, tuple[frozenset, frozenset] | None] = {
    "native": (frozenset(), frozenset()),
    "no-aesni": (frozenset({"aes", "pclmul"}), frozenset({"aesni", "pclmul"})),
    # The AWS-wiki mask also zeroes OpenSSL's second word, which holds SHA-NI.
    "no-aesni-classic": (frozenset({"aes", "pclmul", "sha"}),
                         frozenset({"aesni", "pclmul", "sha_ni"})),
    "no-vaes": None,
    "no-simd": (frozenset({"aes", "pclmul", "ssse3", "avx", "sha"}),
                frozenset({"aesni", "pclmul", "sha_ni"})),
}
_CAPS = {"aes": 0x2, "ssse3": 0x4, "pclmul": 0x8, "avx": 0x10, "sha": 0x20}
# GnuTLS's start-up messages -> what it uses (its GCM code needs PCLMUL, the AVX one AVX too).
_DETECTED = [("ssse3", "Intel SSSE3 was detected"), ("sha", "Intel SHA was detected"),
             ("aes", "Intel AES accelerator was detected"),
             ("gcm-avx", "GCM accelerator (AVX) was detected"),
             ("gcm", "GCM accelerator was detected"), ("padlock", "Padlock")]
_NETTLE = re.compile(r"^libnettle: cpu features: (?P<features>\S*)", re.M)
_INSTALL_HINT = ("install GnuTLS's tools (Debian/Ubuntu: `apt install gnutls-bin`; Fedora: "
                 "`dnf install gnutls-utils`; macOS: `brew install gnutls`) or pass "
                 "gnutls_cli='/path/to/gnutls-cli'")
_DEBUG_ENV = {"GNUTLS_DEBUG_LEVEL": "2", "NETTLE_FAT_VERBOSE": "1"}
_OVERRIDES = ("GNUTLS_CPUID_OVERRIDE", "NETTLE_FAT_OVERRIDE")


def _digest(names: list[str]) -> str:
    import hashlib
    return hashlib.sha1(",".join(names).encode()).hexdigest()[:6]


def find_gnutls_cli(gnutls_cli: str | os.PathLike | None = None) -> str:
    """The ``gnutls-cli`` to run, or a CaptureError saying what to install."""
    found = shutil.which(os.fspath(gnutls_cli) if gnutls_cli is not None else "gnutls-cli")
    if found is None:
        where = f"gnutls_cli={os.fspath(gnutls_cli)!r} is not an executable file" if gnutls_cli \
            else "no `gnutls-cli` found on PATH"
        raise CaptureError(f"{where}; {_INSTALL_HINT}")
    return found


def in_effect(stderr: str) -> tuple[list[str], list[str]]:
    """GnuTLS capabilities and Nettle features a run reported at start-up.

    >>> in_effect("gnutls[2]: Intel AES accelerator was detected\\n"
    ...           "libnettle: cpu features: vendor:amd,aesni,pclmul\\n")
    (['aes'], ['vendor:amd', 'aesni', 'pclmul'])
    """
    gnutls = [name for name, text in _DETECTED if text in stderr]
    m = _NETTLE.search(stderr)
    return gnutls, (m["features"].split(",") if m and m["features"] else [])


def _describe(gnutls: list[str], nettle: list[str]) -> str:
    return f"gnutls:{','.join(gnutls) or 'none'};nettle:{','.join(nettle) or 'none'}"


def _probe(binary: str, env: dict[str, str]) -> tuple[str, str]:
    """(version, start-up messages) of ``gnutls-cli --version`` under ``env``."""
    try:
        proc = subprocess.run([binary, "--version"], env={**env, **_DEBUG_ENV},
                              capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise CaptureError(f"cannot run {binary} --version: {err}") from err
    m = re.search(r"gnutls-cli (\d+\.\d+\.\d+\S*)", proc.stdout)
    if proc.returncode != 0 or m is None:
        raise CaptureError(f"{binary} --version failed (exit {proc.returncode}): "
                           f"{(proc.stderr.strip().splitlines() or ['no output'])[-1]}")
    return m.group(1), proc.stderr


def _conditions(binary: str, isa, base: dict[str, str]) -> dict[str, dict[str, str]]:
    """ISA preset -> the environment that applies it to GnuTLS and Nettle."""

    names = list(dict.fromkeys(_as_list(["native"] if isa is None else isa, "isa")))
    bad = [n for n in names if n not in ISA_GNUTLS_DROP]
    if bad or not names:
        raise ValueError(f"isa must name presets among {', '.join(ISA_GNUTLS_DROP)} for GnuTLS "
                         f"(raw OPENSSL_ia32cap masks mean nothing to it); not {bad or names!r}")
    _, native = _probe(binary, base)
    caps, features = in_effect(native)
    vendor = [f for f in features if f.startswith("vendor:")]
    out = {}
    for name in names:
        drop = ISA_GNUTLS_DROP[name]
        if drop is None:
            warn(f"skipping ISA preset {name!r} for GnuTLS: neither GnuTLS nor Nettle "
                 f"has VAES code, so it would measure the native code.")
            continue
        if name == "native":
            out[name] = {}
            continue
        used = set(caps) | ({"pclmul", "avx"} if "gcm-avx" in caps else
                            {"pclmul"} if "gcm" in caps else set())
        if not (drop[0] & used or drop[1] & set(features)):
            warn(f"skipping ISA preset {name!r} for GnuTLS: this CPU offers none of "
                 f"{sorted(drop[0] | drop[1])} to GnuTLS ({_describe(caps, features)})")
            continue
        bits = sum(v for k, v in _CAPS.items() if k not in drop[0])
        kept = vendor + [f for f in features if not f.startswith("vendor:") and f not in drop[1]]
        out[name] = {"GNUTLS_CPUID_OVERRIDE": hex(bits) if bits else "0x1",
                     "NETTLE_FAT_OVERRIDE": ",".join(kept) or "none"}
    return out


def _run(cmd: list[str], env: dict[str, str], wanted: set[str] | None, timeout_s: float
         ) -> tuple[str, str, bool]:
    """Run the benchmark until it ends or every wanted row is out; (stdout, stderr, stopped)."""
    from cipherlab.readers._gnutls import find_runs
    proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    lines: list[str] = []
    stopped = False
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CaptureError(f"gnutls-cli --benchmark-ciphers did not finish within "
                                   f"{timeout_s:g} s (timeout_s); it was stopped")
            ready, _, _ = select.select([proc.stdout], [], [], min(left, 1.0))
            if not ready:
                continue
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if wanted and line.strip() and wanted <= {c["algorithm"] for r in find_runs(
                    lines, "", set(), [])[0] for c in r.cells}:
                stopped = True
                break
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        err = proc.stderr.read() if proc.stderr else ""
        proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    if not stopped and proc.returncode != 0:
        raise CaptureError(f"gnutls-cli --benchmark-ciphers exited with status {proc.returncode}: "
                           f"{(err.strip().splitlines() or ['no output'])[-1]}")
    return "\n".join(lines) + "\n", err, stopped


def capture_gnutls(algorithms: str | Iterable[str] | None = None, *, repeats: int = 3,
                   isa: str | Iterable[str] | None = None, out: str | Path | None = None,
                   seed: int | None = 0, resume: bool = False, force: bool = False,
                   timeout_s: float = 600,
                   gnutls_cli: str | None = None, label: str | None = None,
                   progress: bool = True) -> pd.DataFrame:
    """Run ``gnutls-cli --benchmark-ciphers`` per ISA preset and repeat; keep every run.

    Parameters
    ----------
    algorithms : list of str or comma-separated str, optional
        Canonical names of the rows wanted (``aes-128-gcm``, ``chacha20-poly1305``,
        ``aes-128-cbc``, ``aes-128-cbc-hmac-sha256``, ``hmac(sha256)``, ...; see
        ``readers._gnutls``). A run stops once all of them are printed. Default: every row
        (about 100 s per run).
    repeats : int
        Separate ``gnutls-cli`` processes per ISA preset.
    isa : list of str or comma-separated str, optional
        ISA presets (default ``native``), applied through ``GNUTLS_CPUID_OVERRIDE`` and
        ``NETTLE_FAT_OVERRIDE`` (see the module docstring).
    out, seed, resume, force, label, progress
        As for :func:`cipherlab.capture`.
    timeout_s : float
        Limit per run; a run over it is stopped and the capture ends with a CaptureError.
    gnutls_cli : str, optional
        The binary (default ``gnutls-cli`` on PATH).

    Returns
    -------
    DataFrame
        The tidy table: ``tool='gnutls'``, ``tool_version``, ``timing='cpu'`` (GnuTLS divides
        by process CPU time), ``block_bytes=16384``, conditions ``isa``, ``isa_mask`` (what
        GnuTLS and Nettle reported in effect), ``aesni``, ``repeat``, ``host``.

    Examples
    --------
    >>> import tempfile
    >>> df = capture_gnutls("aes-128-gcm", repeats=1, out=tempfile.mkdtemp(), progress=False)
    >>> row = df.iloc[0]
    >>> row.tool, row.algorithm, int(row.block_bytes), row.isa, row.aesni
    ('gnutls', 'aes-128-gcm', 16384, 'native', 'on')
    """
    from cipherlab.model import to_frame
    from cipherlab.readers._api import read_runs

    binary = find_gnutls_cli(gnutls_cli)
    wanted = None if algorithms is None else set(_as_list(algorithms, "algorithms"))
    if wanted is not None and not wanted:
        raise ValueError("algorithms must name at least one row, or be None for all")
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise ValueError(f"repeats must be a whole number >= 1; not {repeats!r}")
    base = {k: v for k, v in os.environ.items() if k not in _OVERRIDES}
    conds = _conditions(binary, isa, base)
    if not conds:
        raise CaptureError(f"no ISA preset of isa={isa!r} can be measured with GnuTLS here")
    version, _ = _probe(binary, base)
    stdbuf = shutil.which("stdbuf")
    cmd = [*([stdbuf, "-oL"] if stdbuf else []), binary, "--benchmark-ciphers"]

    with opened(default_folder("gnutls") if out is None else out, resume=resume,
                force=force) as folder:
        facts = host_info()
        check_host(facts)
        folder.write_host(facts)
        # "all", or the first wanted row, how many more and a hash of the set: short, yet one
        # name per set of rows (resume must not take another set's runs for this one's)
        what = "all" if wanted is None else "+".join(
            [sorted(wanted)[0], *([f"{len(wanted) - 1}-{_digest(sorted(wanted))}"]
                                  if len(wanted) > 1 else [])])
        plan = interleave([what], list(conds), repeats, seed)
        keys = [slug(f"gnutls_{what}_{c}_r{r}") for _, c, r in plan]
        folder.check_plan(keys)
        done = folder.done_keys()
        todo = [(c, r, k) for (_, c, r), k in zip(plan, keys, strict=True) if k not in done]
        nominal = 110.0 if wanted is None else 6.0 * len(wanted)
        bar = RunProgress([("gnutls", nominal)] * len(todo), desc="gnutls", enabled=progress)
        with session(folder, bar, "capture_gnutls"):
            for cond, rep, key in todo:
                env = {**base, **conds[cond], **_DEBUG_ENV}
                started = datetime.now(timezone.utc).isoformat(timespec="seconds")
                t0 = time.perf_counter()
                stdout, stderr, stopped = _run(cmd, env, wanted if stdbuf else None, timeout_s)
                wall = time.perf_counter() - t0
                raw = f"gnutls-cli {version}\n{stdout}"
                source = folder.source_name(key)
                runs = read_runs(raw, source)
                for run in runs:
                    run.cells = [c for c in run.cells if wanted is None or c["algorithm"] in wanted]
                missing = sorted((wanted or set()) - {c["algorithm"] for r in runs for c in r.cells})
                if missing:
                    raise CaptureError(f"gnutls-cli {version} printed no row for {missing}; its rows "
                                       f"are named as in cipherlab.ingest of its output (e.g. "
                                       f"aes-128-gcm, aes-128-cbc-hmac-sha256, hmac(sha256))")
                caps, features = in_effect(stderr)
                mask = _describe(caps, features)
                conditions = {"isa": cond, "isa_mask": mask, "repeat": rep, "host": facts["host"],
                              "aesni": "on" if "aes" in caps or "aesni" in features else "off"}
                for run in runs:
                    run.meta.update(label=label or facts["host"], cpu=facts["cpu"],
                                    clock_hz=facts["clock_hz"])
                frame = to_frame(runs, source=source, conditions=conditions,
                                 first_run=folder.next_run_number())
                folder.add_run(key, raw, frame, {
                    "tool": "gnutls", "command": cmd, "env": conds[cond], "isa": cond,
                    "isa_mask": mask, "repeat": rep, "started": started, "load_1m": load_1m(),
                    "wall_s": round(wall, 4), "stopped_early": stopped})
                bar.done(wall)
        return results(folder, keys, "gnutls")
