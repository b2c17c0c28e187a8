"""The JDK as an instrument: finding ``java``/``javac``, building cipherlab's Java programs, and the
JVM conditions (HotSpot intrinsic switches and CPU-feature options) that JDK captures run under.

Why this module exists: the OpenJDK seed (``data/seeds/openjdk-ml-aes-gcm-slow.txt``) measured
AES-GCM at 5.2 MiB/s against AES-CBC at 100 MiB/s over JSSE, and the thread blamed SunJCE's
pure-Java GHASH. HotSpot has since grown intrinsics for it, and it keeps switches for each, so the
seed's era can be re-created on today's JDK: ``-XX:-UseGHASHIntrinsics`` makes GHASH pure Java
again. :data:`JVM_PRESETS` names those switches the way :data:`~cipherlab.ISA_PRESETS` names
``OPENSSL_ia32cap`` masks, and :data:`ISA_JVM_FLAGS` says what an ISA preset means for HotSpot
(which never reads ``OPENSSL_ia32cap``): its own CPU-feature options ``-XX:-UseAES``,
``-XX:-UseCLMUL``, ``-XX:UseAVX=N``. A capture's JVM conditions are every (JVM preset, ISA preset)
pair, their flags joined.

Checked on OpenJDK 17.0.15 (Debian) and Temurin 25.0.3 on an AMD EPYC with AES-NI, PCLMULQDQ,
VAES, AVX-512:

* ``UseAESIntrinsics``, ``UseAESCTRIntrinsics``, ``UseGHASHIntrinsics`` are *diagnostic* flags:
  they need ``-XX:+UnlockDiagnosticVMOptions`` first (added to every non-native condition).
* On 17, GCM runs as the AES-CTR intrinsic (``CounterMode.implCrypt``) plus the GHASH intrinsic
  (``GHASH.processBlocks``), as ``-XX:+PrintIntrinsics`` shows. JDK 18+ adds a fused AVX-512
  AES-GCM stub (intrinsic ``_galoisCounterMode_AESCrypt``) which has no ``Use...`` flag:
  ``-XX:DisableIntrinsic=_galoisCounterMode_AESCrypt`` switches it off, and a JDK without it
  refuses to start with that option. No JDK seen has a ``UseAESGCMIntrinsics`` flag.
* A flag a JDK does not know stops the JVM ("Unrecognized VM option"); a flag HotSpot overrides
  (``-XX:UseAVX=3`` on a CPU without AVX-512, the GHASH intrinsic without CLMUL) starts it with
  another value in effect.

So every condition is checked, not assumed (:func:`resolve_jvm`): the JVM is started with the
condition's flags and ``-XX:+PrintFlagsFinal``; a condition it refuses is skipped with a
:class:`~cipherlab.errors.CaptureWarning` quoting the JVM, a flag whose value in effect differs
from the one asked is warned about, and a condition whose values in effect equal native's is
skipped. Flags written with a leading ``?`` are optional: kept where this JDK accepts them,
dropped where it does not (the fused GCM stub of 18+ in ``seed-era``). After a capture,
:func:`verify_jvm` checks by behaviour that each condition moved the rates of the algorithms its
lost intrinsics serve (the exact sign-flip test over interleaved pairs of runs that
``runners._plan.verify_presets`` uses for ISA presets).

Examples
--------
>>> JVM_PRESETS["no-ghash-intrinsics"][0]
'-XX:-UseGHASHIntrinsics'
>>> ISA_JVM_FLAGS["no-aesni"]
('-XX:-UseAES', '-XX:-UseCLMUL')
>>> parse_flags_final("     bool UseAES      = true      {product} {default}")
{'UseAES': 'true'}
>>> intrinsics({"UseAES": "true", "UseAESIntrinsics": "true", "UseAESCTRIntrinsics": "false",
...             "UseGHASHIntrinsics": "true", "DisableIntrinsic": ""})
'aes,ghash'
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from cipherlab.errors import CaptureError
from cipherlab.runners._system import warn

__all__ = ["ISA_JVM_FLAGS", "JVM_PRESETS", "Jdk", "JvmCondition", "class_path", "find_jdk",
           "intrinsics", "java_command", "parse_flags_final", "resolve_jvm", "verify_jvm"]

_UNLOCK = "-XX:+UnlockDiagnosticVMOptions"
_FUSED_GCM = "?-XX:DisableIntrinsic=_galoisCounterMode_AESCrypt"

#: Named HotSpot conditions -> JVM options (a leading ``?``: only where this JDK has the option).
JVM_PRESETS: dict[str, tuple[str, ...]] = {
    "native": (),
    # AES block, CBC and CTR stubs off: SunJCE's Java AES (the GHASH intrinsic stays).
    "no-aes-intrinsics": ("-XX:-UseAESIntrinsics", "-XX:-UseAESCTRIntrinsics", _FUSED_GCM),
    "no-aesctr-intrinsics": ("-XX:-UseAESCTRIntrinsics", _FUSED_GCM),
    # The seed's suspect: GHASH in pure Java (GF(2^128) multiplies without CLMUL).
    "no-ghash-intrinsics": ("-XX:-UseGHASHIntrinsics", _FUSED_GCM),
    "no-aesgcm-intrinsics": (_FUSED_GCM[1:],),
    # OpenJDK 8 b124, the seed's JDK: AES block/CBC intrinsics (JDK 7u/8) but neither the GHASH
    # nor the AES-CTR intrinsic (both JDK 9), nor the fused GCM stub (JDK 18).
    "seed-era": ("-XX:-UseGHASHIntrinsics", "-XX:-UseAESCTRIntrinsics", _FUSED_GCM),
    "no-crypto-intrinsics": ("-XX:-UseAESIntrinsics", "-XX:-UseAESCTRIntrinsics",
                             "-XX:-UseGHASHIntrinsics", _FUSED_GCM,
                             "?-XX:-UseChaCha20Intrinsics", "?-XX:-UsePoly1305Intrinsics"),
    "avx2": ("-XX:UseAVX=2",),  # no AVX-512 (and so no VAES/VPCLMULQDQ stubs)
    "no-avx": ("-XX:UseAVX=0",),
}

#: What each ISA preset means for HotSpot, through its CPU-feature options.
ISA_JVM_FLAGS: dict[str, tuple[str, ...]] = {
    "native": (),
    "no-aesni": ("-XX:-UseAES", "-XX:-UseCLMUL"),  # AES-NI, PCLMULQDQ (and so VAES stubs) unused
    "no-aesni-classic": ("-XX:-UseAES", "-XX:-UseCLMUL", "-XX:UseAVX=0"),  # + the 2nd word: AVX
    "no-vaes": ("-XX:UseAVX=2",),                          # VAES/VPCLMULQDQ stubs need AVX-512
    "no-simd": ("-XX:-UseAES", "-XX:-UseCLMUL", "-XX:UseAVX=0", "-XX:-UseSHA"),
}

_INSTALL_HINT = ("install a JDK (Debian/Ubuntu: `apt install default-jdk-headless`; Fedora: "
                 "`dnf install java-latest-openjdk-devel`; macOS: `brew install openjdk`) or pass "
                 "java='/path/to/bin/java'")
_SOURCES = Path(__file__).with_name("java")
_FLAG = re.compile(r"^\s*\S+\s+(?P<name>\w+)\s+:?=\s+(?P<value>\S*?)\s*\{", re.M)
_SETTING = re.compile(r"^-XX:(?:(?P<sign>[+-])(?P<bool>\w+)|(?P<name>\w+)=(?P<value>.*))$")
_STARTUP_S = 60.0


@dataclass(frozen=True)
class Jdk:
    """A JDK found on this machine: its ``java`` and ``javac`` and the version ``java`` reports."""

    java: str
    javac: str | None
    version: str

    def __repr__(self) -> str:
        return f"Jdk({self.version!r}, java={self.java!r})"


@dataclass(frozen=True)
class JvmCondition:
    """One JVM condition of a capture: the JVM and ISA presets it joins, the options it passes,
    and the values of the crypto flags in effect (read from ``-XX:+PrintFlagsFinal``)."""

    name: str
    jvm: str
    isa: str
    flags: tuple[str, ...]
    final: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        return self.name

    @property
    def aesni(self) -> str:
        """``'on'`` when HotSpot runs AES with AES-NI here, else ``'off'``."""
        f = dict(self.final)
        return "on" if f.get("UseAES") == "true" and f.get("UseAESIntrinsics") == "true" else "off"


def find_jdk(java: str | os.PathLike | None = None, *, need_javac: bool = True) -> Jdk:
    """The JDK to run: ``java`` as given, else ``$JAVA_HOME/bin/java``, else ``java`` on PATH;
    ``javac`` from the same directory (or PATH). Raises a CaptureError saying what to install.

    >>> find_jdk().version.split(".")[0].isdigit()
    True
    """
    if java is not None:
        found = shutil.which(os.fspath(java))
        if found is None:
            raise CaptureError(f"java={os.fspath(java)!r} is not an executable file; {_INSTALL_HINT}")
    else:
        home = os.environ.get("JAVA_HOME")
        found = shutil.which(str(Path(home) / "bin" / "java")) if home else None
        found = found or shutil.which("java")
        if found is None:
            raise CaptureError(f"no `java` found on PATH; {_INSTALL_HINT}")
    javac = shutil.which(str(Path(found).resolve().with_name("javac"))) or shutil.which("javac")
    if need_javac and javac is None:
        raise CaptureError(f"{found} has no `javac` beside it or on PATH (a JRE, not a JDK); "
                           f"{_INSTALL_HINT}")
    return Jdk(found, javac, _version(found))


@functools.lru_cache(maxsize=8)
def _version(java: str) -> str:
    try:
        proc = subprocess.run([java, "-XshowSettings:properties", "-version"], capture_output=True,
                              text=True, timeout=_STARTUP_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise CaptureError(f"cannot start {java} -version: {err}") from err
    m = re.search(r"^\s*java\.version = (\S+)", proc.stderr, re.M)
    if proc.returncode != 0 or m is None:
        raise CaptureError(f"{java} -version failed (exit {proc.returncode}): "
                           f"{_first_line(proc.stderr + proc.stdout)}")
    return m.group(1)


def _first_line(text: str) -> str:
    return next((ln.strip() for ln in text.splitlines() if ln.strip()), "no output")


def _cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "cipherlab" / "java"


def class_path(jdk: Jdk) -> Path:
    """The compiled classes of ``runners/java/`` for this ``javac``, built on first use.

    Cached under ``$XDG_CACHE_HOME/cipherlab/java/<hash>`` (hash of the sources and the javac
    path and version), built in a temporary directory and renamed into place, so concurrent
    captures never see half a build.
    """
    if jdk.javac is None:
        raise CaptureError(f"compiling cipherlab's Java programs needs javac; {_INSTALL_HINT}")
    sources = sorted(_SOURCES.rglob("*.java"))
    digest = hashlib.sha256(f"{jdk.javac} {jdk.version}".encode())
    for src in sources:
        digest.update(src.name.encode() + src.read_bytes())
    target = _cache_root() / digest.hexdigest()[:16]
    if (target / "cipherlab" / "TlsPeer.class").is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    build = Path(tempfile.mkdtemp(prefix="build-", dir=target.parent))
    try:
        proc = subprocess.run([jdk.javac, "-encoding", "UTF-8", "-d", str(build),
                               *map(str, sources)], capture_output=True, text=True,
                              timeout=300, check=False)
        if proc.returncode != 0:
            raise CaptureError(f"javac could not build cipherlab's Java programs: "
                               f"{_first_line(proc.stderr + proc.stdout)}")
        try:
            build.rename(target)
        except OSError:  # another process finished first: its build is the same
            if not (target / "cipherlab" / "TlsPeer.class").is_file():
                raise
    finally:
        shutil.rmtree(build, ignore_errors=True)
    return target


def java_command(jdk: Jdk, cond: JvmCondition | None, main: str, args: Iterable[str]) -> list[str]:
    """The argument list that runs ``cipherlab.<main>`` under ``cond``."""
    flags = list(cond.flags) if cond is not None else []
    return [jdk.java, *flags, "-cp", str(class_path(jdk)), f"cipherlab.{main}", *args]


def parse_flags_final(text: str) -> dict[str, str]:
    """``{flag: value}`` from ``-XX:+PrintFlagsFinal`` output."""
    return {m["name"]: m["value"] for m in _FLAG.finditer(text)}


#: The flags whose values in effect decide which crypto code HotSpot runs.
CRYPTO_FLAGS = ("UseAES", "UseAESIntrinsics", "UseAESCTRIntrinsics", "UseGHASHIntrinsics",
                "UseCLMUL", "UseAVX", "UseSHA", "UseChaCha20Intrinsics",
                "UsePoly1305Intrinsics", "DisableIntrinsic")


def intrinsics(final: dict[str, str]) -> str:
    """The crypto intrinsics in effect, comma-separated (``aes,aesctr,ghash,...``), ``none`` if
    none; ``-fused-gcm`` marks the fused AES-GCM stub of JDK 18+ switched off."""
    on = [name for name, flag in (("aes", "UseAESIntrinsics"), ("aesctr", "UseAESCTRIntrinsics"),
                                  ("ghash", "UseGHASHIntrinsics"),
                                  ("chacha20", "UseChaCha20Intrinsics"),
                                  ("poly1305", "UsePoly1305Intrinsics"))
          if final.get(flag) == "true"]
    if "_galoisCounterMode_AESCrypt" in final.get("DisableIntrinsic", ""):
        on.append("-fused-gcm")
    return ",".join(on) or "none"


@functools.lru_cache(maxsize=128)
def _flags_final(java: str, flags: tuple[str, ...]) -> tuple[int, str]:
    try:
        proc = subprocess.run([java, *flags, _UNLOCK, "-XX:+PrintFlagsFinal", "-version"],
                              capture_output=True, text=True, timeout=_STARTUP_S, check=False)
    except subprocess.TimeoutExpired as err:
        raise CaptureError(f"{java} did not start within {_STARTUP_S:g} s") from err
    return proc.returncode, proc.stdout + proc.stderr


def _names(spec, table: dict, what: str, default: list[str]) -> list[str]:
    if spec is None:
        spec = default
    if isinstance(spec, str):
        spec = [s.strip() for s in spec.split(",") if s.strip()]
    names = list(dict.fromkeys(str(s).strip() for s in spec))
    bad = [n for n in names if n not in table]
    if bad or not names:
        raise ValueError(f"{what} must name presets among {', '.join(table)}; not "
                         f"{(bad or names)!r}")
    return names


def resolve_jvm(jvm: str | Iterable[str] | None = None, isa: str | Iterable[str] | None = None,
                *, jdk: Jdk | None = None) -> list[JvmCondition]:
    """Every (JVM preset, ISA preset) pair that means something on this JDK and CPU.

    Parameters
    ----------
    jvm : str or list of str, optional
        Names of :data:`JVM_PRESETS` (default ``native``).
    isa : str or list of str, optional
        Names of :data:`ISA_JVM_FLAGS` (default ``native``); raw ``OPENSSL_ia32cap`` masks have
        no HotSpot meaning and are refused.
    jdk : Jdk, optional
        The JDK (default :func:`find_jdk`).

    Returns
    -------
    list of JvmCondition
        Named ``jvm`` (ISA native), ``isa`` (JVM native), ``jvm+isa`` otherwise, or ``native``.

    Examples
    --------
    >>> [c.name for c in resolve_jvm("native,no-ghash-intrinsics")]
    ['native', 'no-ghash-intrinsics']
    >>> resolve_jvm("seed-era")[0].flags[:3]
    ('-XX:+UnlockDiagnosticVMOptions', '-XX:-UseGHASHIntrinsics', '-XX:-UseAESCTRIntrinsics')
    """
    jdk = jdk or find_jdk(need_javac=False)
    jvms = _names(jvm, JVM_PRESETS, "jvm", ["native"])
    isas = _names(isa, ISA_JVM_FLAGS, "isa (for a JDK capture)", ["native"])
    rc, text = _flags_final(jdk.java, ())
    if rc != 0:
        raise CaptureError(f"{jdk.java} failed to start (exit {rc}): {_first_line(text)}")
    native = parse_flags_final(text)
    out = []
    for j in jvms:
        for i in isas:
            name = "native" if j == i == "native" else j if i == "native" else (
                i if j == "native" else f"{j}+{i}")
            flags = _accepted(jdk, (*JVM_PRESETS[j], *ISA_JVM_FLAGS[i]))
            cond = _verify(jdk, name, j, i, flags, native)
            if cond is not None:
                out.append(cond)
    return out


def _accepted(jdk: Jdk, flags: tuple[str, ...]) -> tuple[str, ...]:
    """The flags with their optional (``?``) ones kept only where this JDK starts with them."""
    kept = []
    for flag in flags:
        if flag.startswith("?"):
            if _flags_final(jdk.java, (_UNLOCK, flag[1:]))[0] != 0:
                continue
            flag = flag[1:]
        kept.append(flag)
    return (_UNLOCK, *kept) if kept else ()


def _verify(jdk: Jdk, name: str, j: str, i: str, flags: tuple[str, ...],
            native: dict[str, str]) -> JvmCondition | None:
    rc, text = _flags_final(jdk.java, flags)
    if rc != 0:
        warn(f"skipping JVM condition {name!r}: {jdk.java} ({jdk.version}) refuses "
             f"{' '.join(flags)}: {_first_line(text)}")
        return None
    final = parse_flags_final(text)
    asked = {}  # the last setting of a flag wins, as in HotSpot
    for m in filter(None, map(_SETTING.match, flags[1:])):
        asked[m["bool"] or m["name"]] = {"+": "true", "-": "false"}.get(m["sign"] or "", m["value"])
    for key, value in asked.items():
        if key != "DisableIntrinsic" and final.get(key) != value:
            warn(f"JVM condition {name!r}: HotSpot set {key}={final.get(key)} although "
                 f"the options asked for {value} (this CPU or JDK overrides it).")
    state = tuple((k, final[k]) for k in CRYPTO_FLAGS if k in final)
    if flags and state == tuple((k, native[k]) for k in CRYPTO_FLAGS if k in native):
        warn(f"skipping JVM condition {name!r}: {' '.join(flags)} leaves every crypto "
             f"flag as in native on {jdk.version}, so it would measure the same code.")
        return None
    return JvmCondition(name, j, i, flags, state)


# intrinsic -> what it serves (a prefix or suffix of the canonical cipher name)
_SERVES = {"aes": ("aes-",), "aesctr": ("-gcm", "-ctr"), "ghash": ("-gcm",),
           "chacha20": ("chacha20",), "poly1305": ("chacha20",)}


def _moves(cipher: str, lost: set[str], cpu_flags: bool) -> bool:
    """Whether losing the intrinsics ``lost`` (or CPU-feature options) should move ``cipher``."""
    if cpu_flags:  # -XX:UseAVX=, -XX:-UseAES, -XX:-UseCLMUL, -XX:-UseSHA: may move anything
        return True
    return any(cipher.startswith(a) or cipher.endswith(a) for i in lost for a in _SERVES.get(i, ()))


def verify_jvm(table, *, baseline: str = "native", alpha: float = 0.05) -> list[str]:
    """Warn for every JVM condition that did not move, detectably, the rate of an algorithm its
    switched-off intrinsics serve (``seed-era`` and GCM), or has too few interleaved pairs of runs
    to tell (fewer than 6). Algorithms it should not move (``seed-era`` and CBC) are not tested.
    JSSE rows are judged by their record ``cipher``. Returns the messages."""
    from cipherlab.runners._plan import paired_ratios, sign_flip_p
    if table.empty or "jvm" not in table.columns or "intrinsics" not in table.columns:
        return []
    t = table.astype({c: "object" for c in ("jvm", "intrinsics", "algorithm", "tool")})
    if "cipher" in t.columns and t["cipher"].notna().any():  # JSSE: the suite's record cipher
        t = t.assign(algorithm=t["cipher"].astype("object"))
    native = set(str(t.loc[t["jvm"] == baseline, "intrinsics"].iloc[0]).split(",")) \
        if (t["jvm"] == baseline).any() else None
    messages = []
    for cond in t["jvm"].dropna().unique():
        rows = t[t["jvm"] == cond]
        if cond == baseline or native is None:
            continue
        lost = native - set(str(rows["intrinsics"].iloc[0]).split(","))
        cpu_flags = any(f"-XX:{x}" in str(rows["jvm_flags"].iloc[0])
                        for x in ("UseAVX=", "-UseAES ", "-UseCLMUL", "-UseSHA"))
        pairs = paired_ratios(t, cond, baseline=baseline, by="jvm")
        for alg, g in pairs.groupby("algorithm"):
            if not _moves(str(alg), lost, cpu_flags):
                continue
            ratio = float(np.exp(g["log_ratio"].mean()))
            what = f"JVM condition {cond!r} (intrinsics lost: {','.join(sorted(lost)) or 'none'})"
            if len(g) < 6:
                msg = (f"{what}: only {len(g)} interleaved pair(s) of runs for {alg}, too few to "
                       f"check that it changed the rate (ratio {ratio:.2f}x); use repeats >= 6")
            elif (p := sign_flip_p(g["log_ratio"])) >= alpha:
                msg = (f"{what} did not change the rate of {alg} detectably (ratio {ratio:.2f}x, "
                       f"sign-flip p = {p:.2f} over {len(g)} pairs): this JDK does not run it "
                       f"through those intrinsics, so those runs measure the {baseline} code")
            else:
                continue
            warn(msg)
            messages.append(msg)
    return messages
