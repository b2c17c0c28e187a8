"""TLS transfer throughput by cipher suite, measured the way the OpenJDK seed did, plus a prediction.

Why this module exists: ``openssl speed`` says what a primitive can do; users choosing a cipher
suite want to know what it means for a real transfer. The OpenJDK seed
(``data/seeds/openjdk-ml-aes-gcm-slow.txt``) sent 100 MiB over a TLS 1.2 socket and got 5.2 MiB/s
with AES-128-GCM but 100 MiB/s with AES-128-CBC-SHA256, because that JDK's GHASH did not use
PCLMULQDQ. :func:`capture_tls` repeats that experiment with Python's ``ssl`` (the system OpenSSL),
per suite and per ISA preset, and with ``backend="jsse"`` on the JDK itself (the seed's own
stack: ``runners/_jsse.py``, Java programs in ``runners/java/``, HotSpot's intrinsic switches as
JVM presets); :func:`cipherlab.stats.predict_tls` puts beside each measurement what the record
layer could reach according to a capture of the same primitives at the TLS record size (16 KiB):
``openssl speed`` for Python's ``ssl``, ``capture_jca`` for JSSE.

Both backends share everything below but the two programs: the Python worker
(``_tls_worker.py``) or ``TlsPeer.java`` speak the same JSON-lines protocol with the parent.

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
bundled seed table ``data/seeds/openjdk-tls-transfer.csv`` uses the same columns. JSSE rows have
``tool='jsse'``, ``tool_version`` = the JDK's ``java.version``, JSSE's suite names, and instead of
the mask the JVM condition: ``jvm``, ``jvm_flags``, ``intrinsics`` (in effect), ``provider``.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

from cipherlab.algorithms import TLS_RECORD_BYTES, suite_primitives
from cipherlab.errors import CaptureError, UnsupportedAlgorithmError
from cipherlab.runners._system import warn

__all__ = ["DEFAULT_SUITES", "RECORD_BYTES", "TLS13_DEFAULT", "capture_tls", "tls_suites"]

#: Asks for whatever TLS 1.3 suite the local OpenSSL negotiates by default.
TLS13_DEFAULT = "TLSv1.3"
#: The suites of the issue: the seed's two (as ECDHE-ECDSA), ChaCha20-Poly1305, and TLS 1.3.
DEFAULT_SUITES = ("ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES128-SHA256",
                  "ECDHE-ECDSA-CHACHA20-POLY1305", TLS13_DEFAULT)
#: Largest TLS plaintext record: the size the record layer seals (see cipherlab.algorithms).
RECORD_BYTES = TLS_RECORD_BYTES
#: The JSSE backend's default write: the seed's Client.java wrote 1 MiB buffers.
JSSE_WRITE_BYTES = 1 << 20

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


def suite_list(suites: Iterable[str] | str | None, default: Sequence[str]) -> list[str]:
    """``suites`` as a non-empty list: one name, names, or None for ``default``."""
    suites = list(default if suites is None else [suites] if isinstance(suites, str) else suites)
    if not suites:
        raise ValueError("suites must name at least one suite; got an empty list")
    return suites


def _resolve_suites(suites: Iterable[str] | str | None) -> list[TlsSuite]:
    suites = suite_list(suites, DEFAULT_SUITES)
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
    from cipherlab._scratch import remove_orphans

    return remove_orphans(Path(tmp or tempfile.gettempdir()), _KEY_PREFIX)


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


def _spawn(procs: list[subprocess.Popen], argv: list[str], env: dict[str, str]) -> subprocess.Popen:
    """Start a worker in its own session (a terminal's Ctrl-C does not reach it: the parent alone
    decides when it ends), dying with the parent, and append it to ``procs`` with interrupts held
    off (``runners._exec.spawn``), so the bookkeeping that guarantees it is reaped always happens."""
    from cipherlab.runners._exec import spawn
    return spawn(procs, argv, env=env, stdin=subprocess.DEVNULL,
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
    lines = stderr.strip().splitlines() or ["no output"]
    # A JVM that cannot start says why first ("Unrecognized VM option ...") and "Error: ..." last.
    return lines[0] if lines[-1].startswith("Error: ") else lines[-1]


def _transfer(prefix: list[str], suite: TlsSuite, *, server_opts: list[str], cert: Path,
              nbytes: int, write_size: int, env: dict[str, str], timeout_s: float) -> dict[str, Any]:
    """Run one server/client pair (``prefix`` + role + options: the Python worker or the Java
    ``TlsPeer``); return both sides' reports. Raises CaptureError on failure."""
    what = f"{suite.requested} ({nbytes} bytes, write size {write_size})"
    common = ["--cert", str(cert), "--tls", suite.tls, "--suite", suite.cipher_string,
              "--bytes", str(nbytes), "--timeout", f"{timeout_s:g}"]
    procs: list[subprocess.Popen] = []
    try:
        server = _spawn(procs, [*prefix, "server", *server_opts, *common], env)
        ready, _, _ = select.select([server.stdout], [], [], _STARTUP_S)
        if not ready:
            raise CaptureError(f"{what}: the TLS server did not start within {_STARTUP_S:g} s")
        first = server.stdout.readline()
        hello = (_messages(first) or [{}])[0]
        if hello.get("event") != "listening":
            out, err = server.communicate(timeout=_STARTUP_S)
            raise CaptureError(f"{what}: the TLS server failed to start "
                               f"({_detail(first + out, err)})")
        client = _spawn(procs, [*prefix, "client", "--port", str(hello["port"]),
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


def _run_key(suite: TlsSuite, cond: str, write_size: int, nbytes: int, repeat: int,
             backend: str = "python") -> str:
    from cipherlab.runners._plan import slug
    prefix = "tls" if backend == "python" else backend
    return slug(f"{prefix}_{suite.requested}_{cond}_w{write_size}_b{nbytes}_r{repeat}")


def _frame(report: dict[str, Any], *, suite: TlsSuite, source: str, line: int, write_size: int,
           tool: str, conditions: dict[str, Any], facts: dict[str, Any], label: str | None,
           run: int) -> pd.DataFrame:
    """The run's one cell; ``line``: where the server's report (which timed it) starts in the
    run's raw text."""
    from cipherlab.model import Run, to_frame

    srv = report["server"]
    seconds = float(srv["seconds"])
    count = int(srv["timed_bytes"])
    if tool == "jsse":  # the JDK's version and the JCA provider behind the record layer
        version = srv.get("java_version")
        conditions = {**conditions, "provider": srv.get("provider")}
    else:
        m = re.search(r"\d+\.\d+\.\d+\S*", srv.get("openssl") or "")
        version = m.group(0) if m else srv.get("openssl")
    try:
        cipher = suite_primitives(srv["cipher"])["cipher"]
    except UnsupportedAlgorithmError:
        cipher = None  # e.g. ARIA or Camellia suites: measured, but outside the prediction
    meta = {"tool": tool, "tool_version": version,
            "timing": "elapsed", "label": label or facts.get("host"),
            "protocol": srv["protocol"], "cipher": cipher, **conditions,
            "cpu": facts.get("cpu"), "clock_hz": facts.get("clock_hz")}
    cell = {"line": line, "algorithm": srv["cipher"], "name": suite.requested,
            "operation": "transfer",
            "block_bytes": write_size, "count": count, "seconds": seconds,
            "bytes_per_s": count / seconds if seconds > 0 else np.nan}
    return to_frame([Run(meta=meta, cells=[cell])], source=source, first_run=run)


def capture_tls(suites: Iterable[str] | str | None = None, *, megabytes: float = 100.0,
                repeats: int = 3, isa: Iterable[str] | str | None = None,
                write_size: int | None = None, out: str | os.PathLike | None = None,
                seed: int | None = 0, resume: bool = False, force: bool = False,
                timeout_s: float | None = None, label: str | None = None, progress: bool = True,
                backend: str = "python", jvm: Iterable[str] | str | None = None,
                java: str | None = None) -> pd.DataFrame:
    """Measure TLS transfer throughput per cipher suite and ISA (or JVM) preset over loopback.

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
    write_size : int, optional
        Bytes per application write on the sending side; default 16384 (Python) or 1 MiB
        (JSSE, as the seed's ``Client.java``). Records are at most 16 KiB whatever this is.
        Stored in ``block_bytes``.
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
    backend : {'python', 'jsse'}
        ``python``: Python's ``ssl`` on the system OpenSSL (rows ``tool='tls'``). ``jsse``: the
        JDK's own TLS stack, the seed's experiment (``runners/java/cipherlab/TlsPeer.java``, rows
        ``tool='jsse'``, ``tool_version`` = the JDK's version, conditions ``jvm``, ``jvm_flags``,
        ``intrinsics``, ``provider``); suites are then JSSE's names
        (``TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256``, see ``runners._jsse``), ``isa`` presets
        become HotSpot CPU-feature options and ``jvm`` adds the intrinsic switches.
    jvm : list of str, optional
        ``backend='jsse'`` only: :data:`~cipherlab.runners._jvm.JVM_PRESETS` names, e.g.
        ``["native", "seed-era"]`` (default ``native``); every (jvm, isa) pair is one condition.
    java : str, optional
        ``backend='jsse'`` only: the ``java`` to run (default ``$JAVA_HOME/bin/java`` or PATH).

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
    from cipherlab.runners._openssl import default_folder
    from cipherlab.runners._plan import interleave, results, session

    if os.name != "posix":
        raise CaptureError("capture_tls needs a POSIX system (it runs its two TLS processes in "
                           "their own process group and bounds them with SIGALRM)")
    if backend not in ("python", "jsse"):
        raise ValueError(f"backend must be 'python' or 'jsse'; not {backend!r}")
    if backend == "python" and (jvm is not None or java is not None):
        raise ValueError("jvm= and java= apply to backend='jsse' only")
    nbytes = int(round(_positive(megabytes, "megabytes", float) * 1e6))
    repeats = _positive(repeats, "repeats", int)
    if write_size is None:
        write_size = JSSE_WRITE_BYTES if backend == "jsse" else RECORD_BYTES
    write_size = _positive(write_size, "write_size", int)
    limit = _default_timeout(nbytes) if timeout_s is None else _positive(timeout_s, "timeout_s", float)
    side = _JsseSide(suites, jvm, isa, java) if backend == "jsse" else _PythonSide(suites, isa)

    with opened(default_folder("tls") if out is None else out, resume=resume,
                force=force) as folder:
        facts = host_info()
        check_host(facts)
        side.check(facts)
        plan = interleave(side.suites, side.conds, repeats, seed)
        keys = [_run_key(s, c.name, write_size, nbytes, r, backend) for s, c, r in plan]
        folder.check_plan(keys)
        folder.write_host(facts)
        done = folder.done_keys()
        todo = [(s, c, r, k) for (s, c, r), k in zip(plan, keys, strict=True) if k not in done]

        remove_stale_key_folders()
        # Every key, certificate and keystore lives here and goes with it, whatever ends the run.
        with tempfile.TemporaryDirectory(prefix=f"{_KEY_PREFIX}{os.getpid()}-") as tmp:
            cert, key = _make_certificate(Path(tmp))
            server_opts = side.credentials(Path(tmp), cert, key)
            # Counts bytes moved, so the rate tqdm shows is the running transfer rate and the ETA
            # is honest even when presets differ tenfold in speed.
            bar = tqdm(total=nbytes * len(todo), desc="capture_tls", unit="B", unit_scale=True,
                       disable=not progress)
            with session(folder, bar, "capture_tls"):
                for i, (suite, cond, rep, run_key) in enumerate(todo, 1):
                    bar.set_postfix_str(f"{suite.requested} {cond.name} (run {i}/{len(todo)})")
                    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
                    report = _transfer(side.prefix(cond), suite, server_opts=server_opts,
                                       cert=cert, nbytes=nbytes, write_size=write_size,
                                       env=side.env(cond, suite), timeout_s=limit)
                    _check_agreement(report, suite, what=run_key)
                    raw = json.dumps(report, indent=2, sort_keys=True) + "\n"
                    frame = _frame(report, suite=suite, source=folder.source_name(run_key),
                                   line=raw.splitlines().index('  "server": {') + 1,
                                   write_size=write_size, tool=side.tool,
                                   conditions={**side.values[cond], "host": facts["host"],
                                               "repeat": rep}, facts=facts,
                                   label=label, run=folder.next_run_number())
                    sides = {f"{role}_{k}": v for role, r in report.items() for k, v in r.items()
                             if k != "event"}
                    folder.add_run(run_key, raw, frame, {
                        "tool": side.tool, "suite": suite.requested, "tls": suite.tls,
                        **side.record(cond), "repeat": rep, "bytes": nbytes,
                        "write_size": write_size, "timeout_s": limit, "started": started, **sides})
                    bar.update(nbytes)

        # Resumed runs come back from the folder; rows of other captures sharing it do not.
        table = results(folder, keys, side.tool)
        if side.tool == "jsse":
            from cipherlab.runners._jvm import verify_jvm
            verify_jvm(table)
        return table


class _PythonSide:
    """Python's ``ssl`` on the system OpenSSL: ISA presets through ``OPENSSL_ia32cap``."""

    tool = "tls"

    def __init__(self, suites, isa):
        from cipherlab.runners._isa import IsaCondition, effective_mask, isa_env, labels, resolve_isa
        self.suites = _resolve_suites(suites)
        self.conds = resolve_isa(["native"] if isa is None else isa)
        if not self.conds:
            raise CaptureError(f"no ISA condition of isa={isa!r} can be measured on this machine "
                               f"(see the warnings above)")
        # The mask in effect, read once per preset by `openssl version -a` under the same
        # environment: the openssl binary and Python's ssl load the same system libcrypto.
        native = effective_mask(isa_env(IsaCondition("native", None)))
        self._envs = {c: isa_env(c) for c in self.conds}
        self.values = {c: labels(c, effective_mask(self._envs[c]), native) for c in self.conds}
        self._configs: dict[TlsSuite, Path] = {}

    def check(self, facts) -> None:
        if facts.get("openssl_library") and facts["openssl_library"] != ssl.OPENSSL_VERSION:
            warn(
                f"Python's ssl module uses {ssl.OPENSSL_VERSION}, but isa_mask is read from the "
                f"openssl binary ({facts.get('openssl')}: {facts['openssl_library']}); the mask "
                f"column may not be the one in effect in the TLS processes. Check that the rates "
                f"moved between presets.")

    def credentials(self, tmp: Path, cert: Path, key: Path) -> list[str]:
        self._configs = {s: _tls13_config(tmp, s.cipher_string) for s in self.suites
                         if s.tls == "1.3" and s.requested != TLS13_DEFAULT}
        return ["--key", str(key)]

    def prefix(self, cond) -> list[str]:
        return [sys.executable, str(_WORKER)]

    def env(self, cond, suite) -> dict[str, str]:
        env = self._envs[cond]
        return {**env, "OPENSSL_CONF": str(self._configs[suite])} if suite in self._configs else env

    def record(self, cond) -> dict[str, Any]:
        return {"isa": cond.name, "ia32cap": cond.value, "python": sys.executable,
                "worker": str(_WORKER)}


class _JsseSide:
    """The JDK's JSSE (``TlsPeer.java``): JVM presets and ISA presets as HotSpot options."""

    tool = "jsse"

    def __init__(self, suites, jvm, isa, java):
        from cipherlab.runners import _jsse
        from cipherlab.runners._jca import jvm_conditions
        from cipherlab.runners._jvm import class_path, find_jdk, resolve_jvm
        self.jdk = find_jdk(java)
        class_path(self.jdk)  # build before the first timed run, and fail early if javac cannot
        self.suites = _jsse.resolve_suites(suites, self.jdk)
        self.conds = resolve_jvm(jvm, isa, jdk=self.jdk)
        if not self.conds:
            raise CaptureError(f"no JVM condition of jvm={jvm!r}, isa={isa!r} can be measured "
                               f"with {self.jdk.java} (see the warnings above)")
        self.values = {c: jvm_conditions(c) for c in self.conds}
        self._env = {k: v for k, v in os.environ.items() if k != "OPENSSL_ia32cap"}

    def check(self, facts) -> None:
        """Nothing to check: the JVM reads no OpenSSL mask."""

    def credentials(self, tmp: Path, cert: Path, key: Path) -> list[str]:
        from cipherlab.runners._jsse import make_keystore
        store, password = make_keystore(tmp, cert, key)
        return ["--keystore", str(store), "--storepass", password]

    def prefix(self, cond) -> list[str]:
        from cipherlab.runners._jvm import java_command
        return java_command(self.jdk, cond, "TlsPeer", [])

    def env(self, cond, suite) -> dict[str, str]:
        return self._env

    def record(self, cond) -> dict[str, Any]:
        return {"jvm": cond.name, "isa": cond.isa, "jvm_flags": list(cond.flags),
                "java": self.jdk.java, "java_version": self.jdk.version}


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
