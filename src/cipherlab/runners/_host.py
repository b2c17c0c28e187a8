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
from typing import Any

import pandas as pd

from cipherlab.runners._system import LOCAL, changes, current, warn

__all__ = ["FLAGS", "ClockSampler", "check_host", "cpu_times", "host_frame", "host_id",
           "foreign_binary", "host_info", "load_1m", "noise_facts", "openssl_versions", "steal_share"]

#: CPU flags worth recording for cipher benchmarks (x86 names; ARM names follow). A machine
#: records its own family's (``aes`` is both's).
FLAGS = ("aes", "pclmulqdq", "vaes", "vpclmulqdq", "avx", "avx2", "avx512f", "sha_ni", "ssse3",
         "pmull", "sha1", "sha2", "sha512", "asimd")
_ARM_FLAGS = frozenset({"aes", "pmull", "sha1", "sha2", "sha512", "asimd"})


def _family(machine: str) -> str | None:
    """``'x86'`` or ``'arm'`` for ``uname -m``'s machine (``aarch64``, ``armv7l``, ``x86_64``)."""
    machine = machine.lower()
    if machine in ("x86_64", "amd64", "i386", "i686"):
        return "x86"
    return "arm" if machine.startswith(("arm", "aarch64")) else None


def _run(cmd: list[str], env: dict[str, str] | None = None) -> str:
    return current().output(cmd, changes(env))


def _cpuinfo() -> dict[str, Any]:
    facts: dict[str, Any] = {"cpu": None, "vendor": None, "flags_raw": set(), "clock_hz": None,
                             "clock_source": None}
    text = current().read("/proc/cpuinfo") or ""
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
    if facts["clock_hz"] is None or not facts["cpu"]:  # (ARM's /proc/cpuinfo names no model)
        lscpu = _run(["lscpu"])
        m = re.search(r"^CPU max MHz:\s*([\d.]+)", lscpu, re.M)
        if m and facts["clock_hz"] is None:
            facts["clock_hz"] = float(m[1]) * 1e6
            facts["clock_source"] = "lscpu CPU max MHz"
        for key, name in (("cpu", "Model name"), ("vendor", "Vendor ID")):
            m = re.search(rf"^{name}:\s*(.+?)\s*$", lscpu, re.M)
            if m and not facts[key] and m[1] != "-":
                facts[key] = m[1]
    if current().uname()[0] == "Darwin":
        facts["cpu"] = facts["cpu"] or _run(["sysctl", "-n", "machdep.cpu.brand_string"]).strip()
        feats = _run(["sysctl", "-n", "machdep.cpu.features", "machdep.cpu.leaf7_features"])
        facts["flags_raw"] |= {f.lower().replace(".", "_") for f in feats.split()}
        hz = _run(["sysctl", "-n", "hw.cpufrequency"]).strip()
        if facts["clock_hz"] is None and hz.isdigit():
            facts["clock_hz"], facts["clock_source"] = float(hz), "sysctl hw.cpufrequency"
    # Linux spells it "aes" everywhere; ARM "sha2", x86 "sha_ni"; macOS "aes", "sha".
    return facts


def openssl_versions(openssl: str | None = None,
                     env: tuple[tuple[str, str], ...] = ()) -> dict[str, str | None]:
    """The app version, library version text and full ``openssl version -a`` of a binary
    (run with ``env`` added to this process's environment, e.g. an ``LD_LIBRARY_PATH``).

    >>> v = openssl_versions()
    >>> v["openssl_version"].count(".") >= 2
    True
    """
    return _openssl_versions(current(), openssl, env)


@functools.lru_cache(maxsize=64)
def _openssl_versions(system, openssl: str | None,
                      env: tuple[tuple[str, str], ...]) -> dict[str, str | None]:
    binary = openssl or system.which("openssl")
    text = _run([binary, "version", "-a"], {**os.environ, **dict(env)} if env else None) \
        if binary else ""
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
    load = current().loadavg()
    return round(load[0], 2) if load else None


def _read(path: str) -> str | None:
    text = current().read(path)
    return None if text is None else text.strip()


def host_id() -> str:
    """A stable id of this machine: 16 hex digits of SHA-256 over the OS's machine id and the
    host name (containers made from one image share the machine id but not the name).

    Where no machine id exists (macOS, Windows, minimal containers) the network card's address
    (``uuid.getnode``) stands in. The same machine gives the same id across reboots. A fleet
    host (``_system.current()`` remote) adds its inventory name: two names are two hosts, even
    when they reach one machine (the fleet capture warns about that).

    >>> len(host_id()) == 16 and host_id() == host_id()
    True
    """
    return _host_id(current())


@functools.lru_cache(maxsize=64)
def _host_id(system) -> str:
    import hashlib
    import uuid
    machine = (_read("/etc/machine-id") or _read("/var/lib/dbus/machine-id")
               or (f"node-{uuid.getnode():012x}" if system is LOCAL else ""))
    parts = [machine, system.hostname(), *([system.name] if system is not LOCAL else [])]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def cpu_times() -> dict[str, int] | None:
    """The kernel's cumulative CPU time counters (``/proc/stat``, in clock ticks), or None."""
    line = (_read("/proc/stat") or "").partition("\n")[0].split()
    if not line or line[0] != "cpu" or len(line) < 9:
        return None
    names = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
    return dict(zip(names, map(int, line[1:9])))


def steal_share(before: dict | None, after: dict | None) -> float | None:
    """The share of CPU time the hypervisor took away between two :func:`cpu_times` samples.

    >>> steal_share({"user": 0, "steal": 0}, {"user": 90, "steal": 10})
    0.1
    """
    if not before or not after:
        return None
    total = sum(after.values()) - sum(before.values())
    return round((after["steal"] - before["steal"]) / total, 4) if total > 0 else None


def _cur_freqs() -> list[float]:
    out = []
    for path in current().glob("/sys/devices/system/cpu/cpufreq/policy*/scaling_cur_freq"):
        text = _read(path)
        if text and text.isdigit():
            out.append(int(text) * 1e3)
    return out


class ClockSampler:
    """The clock the kernel measures while a run goes on (``scaling_cur_freq``, Hz): the median
    over samples of the fastest core (the one running the benchmark). ``hz`` is None where the
    kernel exposes no such counter (most VMs); the nominal clock of ``host.json`` is not it.

    >>> with ClockSampler(interval=0.01) as clock:
    ...     pass
    >>> clock.hz is None or clock.hz > 1e8
    True
    """

    def __init__(self, interval: float = 0.25):
        self.interval = interval
        self.hz: float | None = None
        self._stop = None

    def __enter__(self) -> "ClockSampler":
        import threading
        self._samples: list[float] = []
        self._stop = threading.Event()
        if current() is LOCAL and _cur_freqs():  # over SSH, sampling would load the remote
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        else:
            self._thread = None
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            freqs = _cur_freqs()
            if freqs:
                self._samples.append(max(freqs))

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._samples:
            import statistics
            self.hz = statistics.median(self._samples)


def _detect_virt(kind: str) -> str | None:
    found = _run(["systemd-detect-virt", kind]).strip()
    return found if found and found != "none" else None


def _hypervisor(flags: set[str]) -> str | None:
    virt = _detect_virt("--vm")
    if virt:
        return virt
    kind = _read("/sys/hypervisor/type")
    if kind:
        return kind
    m = re.search(r"^Hypervisor vendor:\s*(.+)$", _run(["lscpu"]), re.M)
    if m:
        return m[1].strip()
    return "unknown (cpu flag 'hypervisor')" if "hypervisor" in flags else None


def noise_facts(flags: set[str] | None = None) -> dict[str, Any]:
    """What makes this machine's timings noisy, as the kernel reports it (None where it does not).

    Keys: ``hypervisor`` (``kvm``, ``xen``, ... or None on bare metal), ``container``
    (``docker``, ``lxc``, ... as ``systemd-detect-virt`` tells), ``steal_share`` (share of
    CPU time taken by the hypervisor since boot), ``governor`` (cpufreq governors in use),
    ``boost`` (turbo/boost on: True/False), ``smt`` (simultaneous multithreading active),
    ``isolated_cpus`` (``isolcpus=``), ``boot_time`` (UTC), ``load`` (1, 5, 15 minutes),
    ``online_cpus``.
    """
    times = cpu_times()
    btime = re.search(r"^btime (\d+)", _read("/proc/stat") or "", re.M)
    governors = sorted({g for p in current().glob("/sys/devices/system/cpu/cpufreq/policy*/"
                                                  "scaling_governor") if (g := _read(p))})
    boost = _read("/sys/devices/system/cpu/cpufreq/boost")
    no_turbo = _read("/sys/devices/system/cpu/intel_pstate/no_turbo")
    smt = _read("/sys/devices/system/cpu/smt/active")
    load = current().loadavg()
    load = [round(x, 2) for x in load] if load else None
    return {
        "hypervisor": _hypervisor(flags or set()),
        "container": _detect_virt("--container"),
        "steal_share": steal_share({k: 0 for k in times}, times) if times else None,
        "governor": ",".join(governors) or None,
        "boost": (boost == "1") if boost in ("0", "1") else
                 ((no_turbo == "0") if no_turbo in ("0", "1") else None),
        "smt": (smt == "1") if smt in ("0", "1") else None,
        "isolated_cpus": _read("/sys/devices/system/cpu/isolated"),
        "boot_time": (_dt.datetime.fromtimestamp(int(btime[1]), _dt.timezone.utc)
                      .isoformat(timespec="seconds") if btime else None),
        "load": load,
        "online_cpus": _read("/sys/devices/system/cpu/online"),
    }


_WORDS = re.compile(r"^options:.*\bbn\(\d+,(\d+)\)", re.M)  # bn(64,32): BN_ULONG is 32 bits
_64_BIT = ("x86_64", "amd64", "aarch64", "arm64")


def foreign_binary(facts: dict[str, Any]) -> tuple[str, str] | None:
    """What says the ``openssl`` of ``facts`` is not this machine's own kind of binary, as
    ``(fact, text)``: another CPU family (an ARM build under ``qemu-aarch64`` on x86: its
    ``CPUINFO:`` line against ``machine``), or a 32-bit build on a 64-bit machine of its family
    (``options: bn(64,32)`` of ``openssl version -a``: Debian's i386 openssl on x86_64, an armhf
    one on aarch64), which runs natively but takes its 32-bit code paths. None when they agree
    or either is unknown.

    >>> foreign_binary({"machine": "x86_64", "openssl_version_a": "CPUINFO: OPENSSL_armcap=0xfd"})
    ('emulated', 'ARM openssl on x86_64')
    >>> foreign_binary({"machine": "x86_64", "openssl_version_a":
    ...     "platform: debian-i386\\noptions:  bn(64,32)\\nCPUINFO: OPENSSL_ia32cap=0xff:0x0"})
    ('32-bit build', '32-bit x86 on x86_64')
    >>> foreign_binary({"machine": "aarch64", "openssl_version_a": "CPUINFO: OPENSSL_armcap=0xfd"})
    """
    text = facts.get("openssl_version_a") or ""
    m = re.search(r"^CPUINFO:\s*OPENSSL_(ia32cap|armcap)=", text, re.M)
    machine = facts.get("machine") or ""
    family = _family(machine)
    if m is None or family is None:
        return None
    name = "ARM" if m[1] == "armcap" else "x86"
    if {"ia32cap": "x86", "armcap": "arm"}[m[1]] != family:
        return "emulated", f"{name} openssl on {machine}"
    words = _WORDS.search(text)
    if words and words[1] == "32" and machine.lower() in _64_BIT:
        return "32-bit build", f"32-bit {name} on {machine}"
    return None


def check_host(facts: dict[str, Any]) -> str | None:
    """Warn (CaptureWarning) when the host is virtualised, steals time or is busy, and when its
    ``openssl`` is another CPU family's or a 32-bit build (:func:`foreign_binary`); return the
    noise text.

    >>> check_host({"hypervisor": None, "load": [0.1, 0.1, 0.1], "cores": 8}) is None
    True
    """
    other = foreign_binary(facts)
    if other:
        cpuinfo = re.search(r"^CPUINFO:.*$", facts["openssl_version_a"], re.M)[0]
        warn(f"{facts.get('openssl')} is built for another CPU family than this machine's "
             f"({other[1]}; {cpuinfo}): it runs under emulation (qemu user mode?), so its rates "
             f"are the emulator's, and host.json's cpu, flags and clock describe this machine, not "
             f"the CPU openssl reports." if other[0] == "emulated" else
             f"{facts.get('openssl')} is a 32-bit build on a 64-bit machine ({other[1]}; "
             f"{cpuinfo}): it runs on this CPU, but takes its 32-bit code paths (fewer "
             f"registers, no AVX2/AVX-512 code for some ciphers, ISA bits it never reads), so its "
             f"rates are that build's, not what a 64-bit openssl gets here.")

    why = []
    if facts.get("hypervisor"):
        why.append(f"it runs under a hypervisor ({facts['hypervisor']}): other guests share the "
                   f"cores, and the clock it reports may be nominal")
    steal = facts.get("steal_share")
    if steal is not None and steal >= 0.01:
        why.append(f"the hypervisor took {steal:.1%} of CPU time since boot (steal)")
    load, cores = facts.get("load"), facts.get("cores") or 1
    if load and load[0] > 0.5 * cores:
        why.append(f"it is busy (load {load[0]:g} on {cores} cores)")
    if not why:
        return None
    text = ("timings on this machine will be noisy: " + "; ".join(why) + ". Runs are interleaved "
            "and repeated so comparisons stay fair; per-run steal and load are in runs.jsonl.")
    warn(text)
    return text


def host_info(openssl: str | None = None) -> dict[str, Any]:
    """This machine's facts as a JSON-able dict, as every capture stores them in ``host.json``.

    Keys: ``date`` (UTC, ISO 8601), ``host``, ``os``, ``kernel``, ``machine``, ``cpu``,
    ``vendor``, ``cores``, ``flags`` (``{name: bool}`` over :data:`FLAGS`; absent names were
    not reported), ``clock_hz`` and ``clock_source``, ``load_1m`` (the 1-minute load average
    when the facts were taken), ``python``, ``openssl``,
    ``openssl_version`` (the app's), ``openssl_library``, ``openssl_version_a`` (full text),
    ``cryptography`` and ``cryptography_openssl`` (the OpenSSL its wheel bundles), ``host_id``
    (:func:`host_id`), ``flags_all`` (every CPU flag the OS reports, sorted) and the noise facts
    of :func:`noise_facts`.

    In a fleet capture's host thread (``_system.current()`` remote) the facts are that host's,
    read over SSH by the same code; ``python`` and ``cryptography`` are None there (nothing is
    installed remotely), and the host's inventory identity (``host`` = its name, ``hostname``,
    ``ssh``, ``labels``) is added.
    """
    system = current()
    local = system is LOCAL
    cpu = _cpuinfo()
    raw = cpu.pop("flags_raw")
    kernel_name, release, machine = system.uname()
    family = _family(machine)
    own = {"x86": set(FLAGS) - _ARM_FLAGS | {"aes"}, "arm": _ARM_FLAGS}.get(family, FLAGS)
    flags = {f: f in raw for f in FLAGS if f in own} if raw else {}
    return {
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "host": system.hostname(),
        "host_id": host_id(),
        "os": platform.platform() if local else f"{kernel_name}-{release}-{machine}",
        "kernel": release,
        "machine": machine,
        "cpu": cpu["cpu"] or (platform.processor() if local else None) or None,
        "vendor": cpu["vendor"],
        "cores": system.cpu_count(),
        "flags": flags,
        "clock_hz": cpu["clock_hz"],
        "clock_source": cpu["clock_source"],
        "load_1m": load_1m(),
        "python": platform.python_version() if local else None,
        **openssl_versions(openssl),
        **(_cryptography() if local else {"cryptography": None, "cryptography_openssl": None}),
        "flags_all": sorted(raw),
        **noise_facts(raw),
        **system.identity(),
    }


def host_frame(facts: dict[str, Any] | None = None) -> pd.DataFrame:
    """The host facts as a one-row DataFrame (flags become ``flag_<name>`` columns)."""
    facts = dict(host_info() if facts is None else facts)
    flags = facts.pop("flags", {}) or {}
    row = {**facts, **{f"flag_{k}": v for k, v in flags.items()}}
    return pd.DataFrame([row])
