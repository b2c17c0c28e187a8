"""TLS transfer throughput by cipher suite, measured the way the OpenJDK seed did, plus a prediction.

Why this module exists: ``openssl speed`` says what a primitive can do; users choosing a cipher
suite want to know what it means for a real transfer. The OpenJDK seed
(``data/seeds/openjdk-ml-aes-gcm-slow.txt``) sent 100 MiB over a TLS 1.2 socket and got 5.2 MiB/s
with AES-128-GCM but 100 MiB/s with AES-128-CBC-SHA256, because that JDK's GHASH did not use
PCLMULQDQ. :func:`capture_tls` repeats that experiment with Python's ``ssl`` (the system OpenSSL),
per suite and per ISA preset; :func:`cipherlab.stats.predict_tls` puts beside each measurement
what the record layer could reach according to an ``openssl speed`` capture of the same
primitives at the TLS record size (16 KiB).

How a run works (see ``_tls_worker.py`` for the children):

* a throw-away self-signed ECDSA P-256 certificate is made with ``cryptography`` in a temporary
  directory, once per call, and deleted afterwards;
* the server child binds 127.0.0.1 port 0 (the OS picks a free port) and reports the port on
  stdout; the client child connects, both with the ISA preset's ``OPENSSL_ia32cap`` in their
  environment (libcrypto reads it once, at start-up, so it must be set before the process starts);
  a TLS 1.3 suite asked for by name reaches both through a throw-away ``OPENSSL_CONF``;
* the client sends exactly ``megabytes`` MB in writes of ``write_size`` bytes; the server
  receives them and measures, as the seed's ``Server.java`` did, on the receiving side:
  bytes received / time from the first byte to the last (the handshake is not timed; the bytes
  of the first read, which arrived before the clock started, are not counted);
* every run is bounded in bytes and time (socket timeouts, a deadline in each child, a
  ``SIGALRM`` backstop, and the parent's own timeout); both children run in their own process
  group and are always killed and reaped, on success, on errors and on Ctrl-C (so this module
  needs a POSIX system: process groups, ``SIGALRM``).

Rows of the tidy table: ``tool='tls'``, ``algorithm`` = the negotiated suite (OpenSSL's name, e.g.
``ECDHE-ECDSA-AES128-GCM-SHA256`` or ``TLS_AES_256_GCM_SHA384``), ``name`` = the suite as asked for
(``TLSv1.3`` for "the TLS 1.3 default"), ``operation='transfer'``, ``block_bytes`` = the
application's write size, ``bytes_per_s``, ``count`` = bytes timed, ``seconds``, ``timing='elapsed'``,
and the conditions ``protocol`` (negotiated), ``cipher`` (the record cipher: ``aes-128-gcm``,
``aes-128-cbc``, ``chacha20-poly1305``, ...), ``isa``, ``isa_mask``, ``aesni``, ``repeat``; the
bundled seed table ``data/seeds/openjdk-tls-transfer.csv`` uses the same columns.

``block_bytes`` holds the write size (not NA) on purpose: it is the one size the experiment
varies, the analyses group by ``(algorithm, operation, block_bytes)`` and pandas drops rows whose
group key is NA, so NA would make TLS rows vanish from ``stats.compare``/``speedup``. It is *not*
the record size: records are at most 16 KiB whatever the write size.
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import json
import os
import re
import select
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

from cipherlab.algorithms import TLS_RECORD_BYTES, suite_primitives
from cipherlab.errors import CaptureError, CaptureWarning, UnsupportedAlgorithmError

__all__ = ["DEFAULT_SUITES", "RECORD_BYTES", "TLS13_DEFAULT", "capture_tls", "tls_suites"]

#: Asks for whatever TLS 1.3 suite the local OpenSSL negotiates by default.
TLS13_DEFAULT = "TLSv1.3"
#: The suites of the issue: the seed's two (as ECDHE-ECDSA), ChaCha20-Poly1305, and TLS 1.3.
DEFAULT_SUITES = ("ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES128-SHA256",
                  "ECDHE-ECDSA-CHACHA20-POLY1305", TLS13_DEFAULT)
#: Largest TLS plaintext record: the size the record layer seals (see cipherlab.algorithms).
RECORD_BYTES = TLS_RECORD_BYTES

_WORKER = Path(__file__).with_name("_tls_worker.py")
_STARTUP_S = 20.0  # a child must report "listening" within this (2 busy cores, cold caches)
# The children enforce timeout_s themselves and say how far they got; the parent's own limit
# comes this much later and only fires when a child cannot even do that.
_GRACE_S = 5.0


# --------------------------------------------------------------------------------------------
# suites


@dataclass(frozen=True)
class TlsSuite:
    """A suite as asked for: ``requested`` (OpenSSL's spelling), ``tls`` (``"1.2"``/``"1.3"``)
    and ``cipher_string`` (TLS 1.2: what the children pass to ``SSLContext.set_ciphers``; TLS 1.3:
    the ``Ciphersuites`` entry of their ``OPENSSL_CONF``, or ``DEFAULT``)."""

    requested: str
    tls: str
    cipher_string: str

    def __repr__(self) -> str:
        return f"TlsSuite({self.requested!r}, TLS {self.tls})"


def _tls13_suites() -> list[str]:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    return sorted(c["name"] for c in ctx.get_ciphers() if c["protocol"] == "TLSv1.3")


def tls_suites() -> list[str]:
    """Every suite :func:`capture_tls` can run here with its ECDSA certificate: the TLS 1.2
    ECDHE-ECDSA suites the local OpenSSL offers, its TLS 1.3 suites, and :data:`TLS13_DEFAULT`.

    Examples
    --------
    >>> suites = tls_suites()
    >>> "ECDHE-ECDSA-AES128-GCM-SHA256" in suites and "TLS_AES_128_GCM_SHA256" in suites
    True
    >>> suites[-1]
    'TLSv1.3'
    """
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.set_ciphers("ALL:@SECLEVEL=0")
    names = [c["name"] for c in ctx.get_ciphers()
             if c["protocol"] == "TLSv1.2" and c.get("auth") in ("auth-ecdsa", "auth-any")
             and c.get("kea") in ("kx-ecdhe", "kx-any")]
    return sorted(set(names)) + _tls13_suites() + [TLS13_DEFAULT]


def _resolve_suites(suites: Iterable[str] | str | None) -> list[TlsSuite]:
    if suites is None:
        suites = DEFAULT_SUITES
    if isinstance(suites, str):
        suites = [suites]
    suites = list(suites)
    if not suites:
        raise ValueError("suites must name at least one suite; got an empty list")
    offered = tls_suites()
    tls13 = {n.upper(): n for n in _tls13_suites()}
    by_upper = {n.upper(): n for n in offered if n.upper() not in tls13}
    out = []
    for s in suites:
        if not isinstance(s, str) or not s.strip():
            raise ValueError(f"suites must be strings such as {DEFAULT_SUITES[0]!r}; not {s!r}")
        key = s.strip().upper()
        if key in ("TLSV1.3", "TLS1.3", "1.3"):
            out.append(TlsSuite(TLS13_DEFAULT, "1.3", "DEFAULT"))
        elif key in tls13:
            out.append(TlsSuite(tls13[key], "1.3", tls13[key]))
        elif key in by_upper:
            out.append(TlsSuite(by_upper[key], "1.2", by_upper[key]))
        else:
            if _openssl_knows(s):
                why = (f"{ssl.OPENSSL_VERSION} knows TLS suite {s!r}, but capture_tls cannot run it: "
                       f"its throw-away certificate is ECDSA P-256 and the key exchange is ECDHE, "
                       f"so only ECDHE-ECDSA suites and TLS 1.3 suites can be negotiated")
            else:
                why = f"the local {ssl.OPENSSL_VERSION} does not offer TLS suite {s!r}"
            raise UnsupportedAlgorithmError(f"{why}. Suites that can run here: {', '.join(offered)}")
    return out


def _tls13_config(folder: Path, suite: str) -> Path:
    """An OpenSSL config that restricts TLS 1.3 to ``suite``.

    Python's ``ssl`` has no call for TLS 1.3 suites (``set_ciphers`` only governs TLS 1.2), but
    libssl applies the ``system_default`` section of the config named by ``OPENSSL_CONF`` to
    every new context; the children get this file in their environment. It replaces the system
    config for those two processes only; the other settings it would carry (cipher string,
    minimum protocol) are set by the children explicitly anyway.
    """
    path = folder / f"tls13-{suite}.cnf"
    path.write_text("openssl_conf = openssl_init\n[openssl_init]\nssl_conf = ssl_sect\n"
                    "[ssl_sect]\nsystem_default = system_default_sect\n"
                    f"[system_default_sect]\nCiphersuites = {suite}\n", encoding="utf-8")
    return path


def _openssl_knows(cipher_string: str) -> bool:
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).set_ciphers(f"{cipher_string}:@SECLEVEL=0")
    except ssl.SSLError:
        return False
    return True


# --------------------------------------------------------------------------------------------
# the throw-away certificate and one transfer


_KEY_PREFIX = "cipherlab-tls-"


def remove_stale_key_folders(tmp: str | os.PathLike | None = None) -> list[Path]:
    """Delete the throw-away key folders of captures whose process is gone; return them.

    Each :func:`capture_tls` keeps its private key in ``<tmp>/cipherlab-tls-<pid>-*`` and removes
    it on every way out Python sees; a ``kill -9`` leaves it, so every capture first removes the
    folders whose ``<pid>`` no longer runs (those of running captures stay).
    """
    import shutil
    gone = []
    for path in Path(tmp or tempfile.gettempdir()).glob(f"{_KEY_PREFIX}*-*"):
        pid = path.name[len(_KEY_PREFIX):].split("-")[0]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        shutil.rmtree(path, ignore_errors=True)
        gone.append(path)
    return gone


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def _make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed ECDSA P-256 certificate for localhost/127.0.0.1, valid for one day."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "cipherlab throw-away")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([
                x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.touch(mode=0o600)
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def _spawn(procs: list[subprocess.Popen], args: list[str], env: dict[str, str]) -> subprocess.Popen:
    """Start a worker in its own session (a terminal's Ctrl-C does not reach it: the parent alone
    decides when it ends), dying with the parent, and append it to ``procs`` with interrupts held
    off (``runners._exec.spawn``), so the bookkeeping that guarantees it is reaped always happens."""
    from cipherlab.runners._exec import spawn
    return spawn(procs, [sys.executable, str(_WORKER), *args], env=env, stdin=subprocess.DEVNULL,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _reap(procs: Sequence[subprocess.Popen]) -> None:
    """Kill what still runs (whole process groups) and wait for every child: no orphans, no
    zombies, even if another Ctrl-C arrives meanwhile (it is re-raised once all are reaped)."""
    for p in procs:
        if p.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(p.pid, signal.SIGKILL)  # our own group: nothing in it needs a grace period
    interrupted = None
    for p in procs:
        while True:
            try:
                p.wait()  # SIGKILL cannot be ignored: this returns promptly
                break
            except KeyboardInterrupt as err:
                interrupted = err
        for stream in (p.stdout, p.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
    if interrupted is not None:
        raise interrupted


def _messages(text: str) -> list[dict]:
    out = []
    for line in text.splitlines():
        with contextlib.suppress(ValueError):
            obj = json.loads(line)
            if isinstance(obj, dict):
                out.append(obj)
    return out


def _detail(stdout: str, stderr: str) -> str:
    errors = [m for m in _messages(stdout) if m.get("event") == "error"]
    if errors:
        return f"{errors[0].get('type')}: {errors[0].get('message')}"
    return (stderr.strip().splitlines() or ["no output"])[-1]


def _transfer(suite: TlsSuite, *, nbytes: int, write_size: int, env: dict[str, str],
              cert: Path, key: Path, timeout_s: float) -> dict[str, Any]:
    """Run one server/client pair; return both sides' reports. Raises CaptureError on failure."""
    what = f"{suite.requested} ({nbytes} bytes, write size {write_size})"
    common = ["--cert", str(cert), "--tls", suite.tls, "--suite", suite.cipher_string,
              "--bytes", str(nbytes), "--timeout", f"{timeout_s:g}"]
    procs: list[subprocess.Popen] = []
    try:
        server = _spawn(procs, ["server", "--key", str(key), *common], env)
        ready, _, _ = select.select([server.stdout], [], [], _STARTUP_S)
        if not ready:
            raise CaptureError(f"{what}: the TLS server did not start within {_STARTUP_S:g} s")
        first = server.stdout.readline()
        hello = (_messages(first) or [{}])[0]
        if hello.get("event") != "listening":
            out, err = server.communicate(timeout=_STARTUP_S)
            raise CaptureError(f"{what}: the TLS server failed to start "
                               f"({_detail(first + out, err)})")
        client = _spawn(procs, ["client", "--port", str(hello["port"]),
                                "--write-size", str(write_size), *common], env)
        deadline = time.monotonic() + timeout_s + _GRACE_S
        outputs = {}
        for role, p in (("client", client), ("server", server)):
            try:
                outputs[role] = p.communicate(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise CaptureError(f"{what}: the transfer did not finish within the {timeout_s:g} s "
                                   f"limit (timeout_s); both processes were stopped") from None
        # Both sides' words: when one side fails the other usually sees only a reset connection.
        failed = [f"the TLS {role} failed ({_detail(*outputs[role])})"
                  for role, p in (("server", server), ("client", client)) if p.returncode != 0]
        if failed:
            raise CaptureError(f"{what}: " + "; ".join(failed))
        reports = {}
        for role, (out, err) in outputs.items():
            results = [m for m in _messages(out) if m.get("event") == "result"]
            if not results:
                raise CaptureError(f"{what}: the TLS {role} reported no result ({err.strip()!r})")
            reports[role] = results[0]
        return reports
    finally:
        _reap(procs)


# --------------------------------------------------------------------------------------------
# the capture


def _default_timeout(nbytes: int) -> float:
    # 30 s for set-up plus 1 s per 5 MB: generous for the slowest masked path seen (~50 MB/s).
    return 30.0 + nbytes / 5e6


def _run_key(suite: TlsSuite, isa_name: str, write_size: int, nbytes: int, repeat: int) -> str:
    from cipherlab.runners._plan import slug
    return slug(f"tls_{suite.requested}_{isa_name}_w{write_size}_b{nbytes}_r{repeat}")


def _frame(report: dict[str, Any], *, suite: TlsSuite, source: str, write_size: int,
           conditions: dict[str, Any], facts: dict[str, Any], label: str | None,
           run: int) -> pd.DataFrame:
    from cipherlab.model import Run, to_frame

    srv = report["server"]
    seconds = float(srv["seconds"])
    count = int(srv["timed_bytes"])
    version = re.search(r"\d+\.\d+\.\d+\S*", srv.get("openssl") or "")
    try:
        cipher = suite_primitives(srv["cipher"])["cipher"]
    except UnsupportedAlgorithmError:
        cipher = None  # e.g. ARIA or Camellia suites: measured, but outside the prediction
    meta = {"tool": "tls", "tool_version": version.group(0) if version else srv.get("openssl"),
            "timing": "elapsed", "label": label or facts.get("host"),
            "protocol": srv["protocol"], "cipher": cipher, **conditions,
            "cpu": facts.get("cpu"), "clock_hz": facts.get("clock_hz")}
    cell = {"algorithm": srv["cipher"], "name": suite.requested, "operation": "transfer",
            "block_bytes": write_size, "count": count, "seconds": seconds,
            "bytes_per_s": count / seconds if seconds > 0 else np.nan}
    return to_frame([Run(meta=meta, cells=[cell])], source=source, first_run=run)


def capture_tls(suites: Iterable[str] | str | None = None, *, megabytes: float = 100.0,
                repeats: int = 3, isa: Iterable[str] | str | None = None,
                write_size: int = RECORD_BYTES, out: str | os.PathLike | None = None,
                seed: int | None = 0, resume: bool = False, force: bool = False,
                timeout_s: float | None = None,
                label: str | None = None, progress: bool = True) -> pd.DataFrame:
    """Measure TLS transfer throughput per cipher suite and ISA preset over loopback.

    For every suite, ISA preset and repeat, a server and a client process transfer ``megabytes``
    MB over 127.0.0.1; the server measures bytes received / time from first to last byte, as
    the OpenJDK seed's ``Server.java`` did. The order of the (suite, preset) cells is shuffled
    afresh in every repeat (``seed``), so slow drifts of the host spread over all cells.

    Parameters
    ----------
    suites : list of str, optional
        OpenSSL names of TLS 1.2 ECDHE-ECDSA suites (``ECDHE-ECDSA-AES128-GCM-SHA256``), TLS 1.3
        suites (``TLS_AES_128_GCM_SHA256``; chosen through a throw-away ``OPENSSL_CONF``, as
        Python's ``ssl`` has no call for them), and/or ``"TLSv1.3"`` for whatever TLS 1.3 suite
        the local OpenSSL negotiates by default. Default :data:`DEFAULT_SUITES`.
        :func:`tls_suites` lists what can run here.
    megabytes : float
        Bytes per run, in MB (10**6 bytes). The seed sent 100 MB (100 MiB, strictly).
    repeats : int
        Runs per (suite, preset) cell, each with fresh processes and a fresh handshake.
    isa : list of str, optional
        ISA presets or raw ``OPENSSL_ia32cap`` masks, as in :func:`cipherlab.capture`
        (``["native", "no-aesni"]``); applied to the environment of both processes.
        Default: ``native`` only.
    write_size : int
        Bytes per application write on the sending side (the seed used 1 MiB writes). Records
        are at most 16 KiB whatever this is. Stored in ``block_bytes``.
    out : path, optional
        The capture folder (default ``captures/tls-<host>-<UTC time>``): both sides' raw JSON
        reports under ``runs/``, ``results.csv`` (+ ``.parquet``), ``runs.jsonl`` and
        ``host.json``, written as each run finishes (see ``runners._folder``).
    seed : int or None
        Seed of the interleaving order (shared with ``capture``: repeats in blocks, the ISA
        conditions of a suite next to each other in alternating order).
    resume : bool
        Skip runs already recorded in ``out`` (after a Ctrl-C, say) and return all rows.
    force : bool
        Resume a folder captured on another machine (refused otherwise: it would mix machines).
    timeout_s : float, optional
        Limit per run in seconds; default 30 s + 1 s per 5 MB.
    label : str, optional
        The ``label`` of every row (default: the host name, as ``capture`` does).
    progress : bool
        Show a tqdm progress bar (bytes moved, so its rate is the running transfer rate).

    Returns
    -------
    DataFrame
        The tidy table, one row per run of this plan, including runs found finished on resume
        (see the module docstring for the columns). Repeats are numbered from 1.

    Raises
    ------
    UnsupportedAlgorithmError
        A suite the local OpenSSL does not offer (or that cannot run with an ECDSA certificate).
    CaptureError
        A transfer failed or exceeded ``timeout_s`` (both processes are stopped and reaped),
        an unwritable ``out``, or planned runs already in ``out`` without ``resume=True``.

    Warns
    -----
    CaptureWarning
        A preset that was skipped, left the mask unchanged, or did not change the rate of a
        suite its mask should move (``_plan.verify_presets``).

    Examples
    --------
    >>> import tempfile
    >>> df = capture_tls(["ECDHE-ECDSA-AES128-GCM-SHA256"], megabytes=2, repeats=1,
    ...                  out=tempfile.mkdtemp(), progress=False)
    >>> row = df.iloc[0]
    >>> row["algorithm"], row["operation"], int(row["block_bytes"]), row["protocol"], row["isa"]
    ('ECDHE-ECDSA-AES128-GCM-SHA256', 'transfer', 16384, 'TLSv1.2', 'native')
    >>> bool(df["bytes_per_s"].iloc[0] > 0)
    True
    """
    from tqdm.auto import tqdm

    from cipherlab.runners._folder import opened
    from cipherlab.runners._host import check_host, host_info
    from cipherlab.runners._isa import IsaCondition, effective_mask, isa_env, labels, resolve_isa
    from cipherlab.runners._openssl import default_folder
    from cipherlab.runners._plan import interleave, results, session

    if os.name != "posix":
        raise CaptureError("capture_tls needs a POSIX system (it runs its two TLS processes in "
                           "their own process group and bounds them with SIGALRM)")
    resolved = _resolve_suites(suites)
    nbytes = int(round(_positive(megabytes, "megabytes", float) * 1e6))
    repeats = _positive(repeats, "repeats", int)
    write_size = _positive(write_size, "write_size", int)
    limit = _default_timeout(nbytes) if timeout_s is None else _positive(timeout_s, "timeout_s", float)
    conds = resolve_isa(["native"] if isa is None else isa, stacklevel=3)
    if not conds:
        raise CaptureError(f"no ISA condition of isa={isa!r} can be measured on this machine "
                           f"(see the warnings above)")

    with opened(default_folder("tls") if out is None else out, resume=resume,
                force=force) as folder:
        facts = host_info()
        check_host(facts, stacklevel=4)
        if facts.get("openssl_library") and facts["openssl_library"] != ssl.OPENSSL_VERSION:
            warnings.warn(
                f"Python's ssl module uses {ssl.OPENSSL_VERSION}, but isa_mask is read from the "
                f"openssl binary ({facts.get('openssl')}: {facts['openssl_library']}); the mask "
                f"column may not be the one in effect in the TLS processes. Check that the rates "
                f"moved between presets.", CaptureWarning, stacklevel=2)
        # The mask in effect, read once per preset by `openssl version -a` under the same
        # environment: the openssl binary and Python's ssl load the same system libcrypto.
        envs = {}
        native = effective_mask(isa_env(IsaCondition("native", None)))
        for cond in conds:
            env = isa_env(cond)
            envs[cond] = (env, {**labels(cond, effective_mask(env), native), "host": facts["host"]})

        plan = interleave(resolved, conds, repeats, seed)
        keys = [_run_key(s, c.name, write_size, nbytes, r) for s, c, r in plan]
        folder.check_plan(keys)
        folder.write_host(facts)
        done = folder.done_keys()
        todo = [(s, c, r, k) for (s, c, r), k in zip(plan, keys) if k not in done]

        remove_stale_key_folders()
        with tempfile.TemporaryDirectory(prefix=f"{_KEY_PREFIX}{os.getpid()}-") as tmp:
            cert, key = _make_certificate(Path(tmp))
            configs = {s: _tls13_config(Path(tmp), s.cipher_string) for s in resolved
                       if s.tls == "1.3" and s.requested != TLS13_DEFAULT}
            # Counts bytes moved, so the rate tqdm shows is the running transfer rate and the ETA
            # is honest even when presets differ tenfold in speed.
            bar = tqdm(total=nbytes * len(todo), desc="capture_tls", unit="B", unit_scale=True,
                       disable=not progress)
            with session(folder, bar, "capture_tls"):
                for i, (suite, cond, rep, run_key) in enumerate(todo, 1):
                    bar.set_postfix_str(f"{suite.requested} {cond.name} (run {i}/{len(todo)})")
                    env, values = envs[cond]
                    if suite in configs:
                        env = {**env, "OPENSSL_CONF": str(configs[suite])}
                    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
                    report = _transfer(suite, nbytes=nbytes, write_size=write_size, env=env,
                                       cert=cert, key=key, timeout_s=limit)
                    _check_agreement(report, suite, what=run_key)
                    frame = _frame(report, suite=suite, source=folder.source_name(run_key), write_size=write_size,
                                   conditions={**values, "repeat": rep}, facts=facts,
                                   label=label, run=folder.next_run_number())
                    folder.add_run(run_key, json.dumps(report, indent=2, sort_keys=True) + "\n", frame,
                                   _run_record(report, suite, cond, rep, nbytes, write_size, limit,
                                               started))
                    bar.update(nbytes)

        # Resumed runs come back from the folder; rows of other captures sharing it do not.
        return results(folder, keys, "tls")


def _run_record(report, suite, cond, repeat, nbytes, write_size, limit, started) -> dict[str, Any]:
    sides = {f"{role}_{k}": v for role, rep in report.items() for k, v in rep.items()
             if k != "event"}
    return {"tool": "tls", "suite": suite.requested, "tls": suite.tls, "isa": cond.name,
            "ia32cap": cond.value, "repeat": repeat, "bytes": nbytes, "write_size": write_size,
            "timeout_s": limit, "started": started, "python": sys.executable,
            "worker": str(_WORKER), **sides}


def _positive(value, name: str, kind):
    """``value`` as a positive ``kind`` (int: a whole number, not a bool), else a ValueError."""
    ok = not isinstance(value, bool)
    try:
        number = kind(value) if ok else None
        ok = ok and number > 0 and (kind is not int or number == float(value))
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        what = "a whole number >= 1" if kind is int else "a positive number"
        raise ValueError(f"{name} must be {what}; not {value!r}")
    return number


def _check_agreement(report: dict[str, Any], suite: TlsSuite, *, what: str) -> None:
    srv, cli = report["server"], report["client"]
    if suite.requested != TLS13_DEFAULT and srv["cipher"] != suite.cipher_string:
        raise CaptureError(f"{what}: asked for {suite.requested} but the processes negotiated "
                           f"{srv['protocol']} {srv['cipher']}"
                           + (" (this Python's ssl may not load OPENSSL_CONF, through which "
                              "TLS 1.3 suites are chosen)" if suite.tls == "1.3" else ""))
    if (srv["protocol"], srv["cipher"]) != (cli["protocol"], cli["cipher"]):
        raise CaptureError(f"{what}: server and client disagree on the session: server "
                           f"{srv['protocol']} {srv['cipher']}, client {cli['protocol']} {cli['cipher']}")
    if srv["bytes"] != cli["bytes"]:
        raise CaptureError(f"{what}: the client sent {cli['bytes']} bytes but the server "
                           f"received {srv['bytes']}")
