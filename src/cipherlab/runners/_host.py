"""Host facts recorded once per capture session.

Why this module exists: a throughput figure means little without the machine behind it (users
of hyperfine asked for CPU info in exports, hyperfine #711), and cycles per byte need a clock.
Everything here is read from what the OS and the tools report, never guessed; where a fact is
unavailable it is ``None`` rather than a plausible default.

The clock is the one the machine *reports*, and ``clock_source`` says which: the mean of the
``cpu MHz`` lines of ``/proc/cpuinfo`` (the current clock, which on a VM may be the host's nominal
clock), else ``lscpu``'s ``CPU max MHz``, else ``sysctl hw.cpufrequency`` (macOS on Intel).

Examples
--------
>>> facts = host_info()
>>> {"cpu", "cores", "flags", "clock_hz", "clock_source", "openssl_version"} <= set(facts)
True
>>> host_frame().shape[0]
1
"""

from __future__ import annotations

import datetime as _dt
import functools
import os
import platform
import re
import socket
import subprocess
import sys
from typing import Any

import pandas as pd

__all__ = ["FLAGS", "host_frame", "host_info", "load_1m", "openssl_versions"]

#: CPU flags worth recording for cipher benchmarks (x86 names; ARM names follow).
FLAGS = ("aes", "pclmulqdq", "vaes", "vpclmulqdq", "avx", "avx2", "avx512f", "sha_ni", "ssse3",
         "pmull", "sha2")


def _run(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def _cpuinfo() -> dict[str, Any]:
    facts: dict[str, Any] = {"cpu": None, "vendor": None, "flags_raw": set(), "clock_hz": None,
                             "clock_source": None}
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        text = ""
    mhz = []
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip().lower(), value.strip()
        if key in ("model name", "hardware", "cpu model") and not facts["cpu"]:
            facts["cpu"] = value
        elif key == "vendor_id" and not facts["vendor"]:
            facts["vendor"] = value
        elif key in ("flags", "features"):
            facts["flags_raw"] |= set(value.split())
        elif key == "cpu mhz":
            try:
                mhz.append(float(value))
            except ValueError:
                pass
    if mhz:
        facts["clock_hz"] = sum(mhz) / len(mhz) * 1e6
        facts["clock_source"] = "/proc/cpuinfo cpu MHz (mean over cores, current clock)"
    if facts["clock_hz"] is None:
        m = re.search(r"^CPU max MHz:\s*([\d.]+)", _run(["lscpu"]), re.M)
        if m:
            facts["clock_hz"] = float(m[1]) * 1e6
            facts["clock_source"] = "lscpu CPU max MHz"
    if sys.platform == "darwin":
        facts["cpu"] = facts["cpu"] or _run(["sysctl", "-n", "machdep.cpu.brand_string"]).strip()
        feats = _run(["sysctl", "-n", "machdep.cpu.features", "machdep.cpu.leaf7_features"])
        facts["flags_raw"] |= {f.lower().replace(".", "_") for f in feats.split()}
        hz = _run(["sysctl", "-n", "hw.cpufrequency"]).strip()
        if facts["clock_hz"] is None and hz.isdigit():
            facts["clock_hz"], facts["clock_source"] = float(hz), "sysctl hw.cpufrequency"
    # Linux spells it "aes" everywhere; ARM "sha2", x86 "sha_ni"; macOS "aes", "sha".
    return facts


@functools.lru_cache(maxsize=8)
def openssl_versions(openssl: str | None = None) -> dict[str, str | None]:
    """The app version, library version text and full ``openssl version -a`` of a binary.

    >>> v = openssl_versions()
    >>> v["openssl_version"].count(".") >= 2
    True
    """
    import shutil
    binary = openssl or shutil.which("openssl")
    text = _run([binary, "version", "-a"]) if binary else ""
    first = text.splitlines()[0] if text else ""
    m = re.match(r"^(?P<lib>OpenSSL|LibreSSL)\s+(?P<ver>\S+)", first)
    lib = re.search(r"\(Library:\s*(?P<libtext>[^)]*)\)", first)
    return {
        "openssl": binary,
        "openssl_version": m["ver"] if m else None,
        "openssl_library": lib["libtext"].strip() if lib else (first.strip() or None),
        "openssl_version_a": text.strip() or None,
    }


def _cryptography() -> dict[str, str | None]:
    try:
        import cryptography
        from cryptography.hazmat.backends.openssl import backend
    except ImportError:
        return {"cryptography": None, "cryptography_openssl": None}
    return {"cryptography": cryptography.__version__,
            "cryptography_openssl": backend.openssl_version_text()}


def load_1m() -> float | None:
    """The 1-minute load average (None where the OS has none): how busy the host was."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def host_info(openssl: str | None = None) -> dict[str, Any]:
    """This machine's facts as a JSON-able dict, as every capture stores them in ``host.json``.

    Keys: ``date`` (UTC, ISO 8601), ``host``, ``os``, ``kernel``, ``machine``, ``cpu``,
    ``vendor``, ``cores``, ``flags`` (``{name: bool}`` over :data:`FLAGS`; absent names were
    not reported), ``clock_hz`` and ``clock_source``, ``load_1m`` (the 1-minute load average
    when the facts were taken), ``python``, ``openssl``,
    ``openssl_version`` (the app's), ``openssl_library``, ``openssl_version_a`` (full text),
    ``cryptography`` and ``cryptography_openssl`` (the OpenSSL its wheel bundles).
    """
    cpu = _cpuinfo()
    raw = cpu.pop("flags_raw")
    flags = {f: f in raw for f in FLAGS} if raw else {}
    if raw and platform.machine().lower() in ("x86_64", "amd64", "i386", "i686"):
        flags = {f: v for f, v in flags.items() if f not in ("pmull", "sha2")}
    return {
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "host": socket.gethostname(),
        "os": platform.platform(),
        "kernel": platform.release(),
        "machine": platform.machine(),
        "cpu": cpu["cpu"] or platform.processor() or None,
        "vendor": cpu["vendor"],
        "cores": os.cpu_count(),
        "flags": flags,
        "clock_hz": cpu["clock_hz"],
        "clock_source": cpu["clock_source"],
        "load_1m": load_1m(),
        "python": platform.python_version(),
        **openssl_versions(openssl),
        **_cryptography(),
    }


def host_frame(facts: dict[str, Any] | None = None) -> pd.DataFrame:
    """The host facts as a one-row DataFrame (flags become ``flag_<name>`` columns)."""
    facts = dict(host_info() if facts is None else facts)
    flags = facts.pop("flags", {}) or {}
    row = {**facts, **{f"flag_{k}": v for k, v in flags.items()}}
    return pd.DataFrame([row])
