"""ISA conditions: which CPU features OpenSSL may use, set through ``OPENSSL_ia32cap``.

Why this module exists: "AES-NI on vs off" is the question most cipher benchmarks ask, and the
only switch a stock OpenSSL offers is the ``OPENSSL_ia32cap`` environment variable, whose syntax
has traps that silently give the wrong experiment. Checked on OpenSSL 3.0.19 (x86-64, AMD EPYC
with AES-NI, VAES, AVX-512, SHA-NI) with ``openssl version -a``:

* ``~X`` clears the bits of ``X`` in the first capability word (CPUID.1 EDX:ECX); bit 57 is
  AES-NI, bit 33 PCLMULQDQ, bit 41 SSSE3 (the vpaes/bsaes fallbacks need it).
* The second word (CPUID.7 EBX:ECX) holds AVX2, AVX-512, SHA-NI, VAES (bit 41), VPCLMULQDQ (42).
  **A value without ``:`` zeroes the whole second word**: the classic AWS-wiki mask
  ``~0x200000200000000`` therefore also switches off AVX2, AVX-512, SHA-NI and VAES on 3.x, and
  an *empty* variable zeroes everything. ``~X:~0`` keeps the second word as the CPU reports it.
* A plain integer (no ``~``) replaces the word outright; ``0x0:0x0`` leaves only the integer
  x86-64 assembler (no SIMD, no AES-NI): the closest an environment variable gets to the
  ``asm`` tier of the implementation-tier seed (the ``no-asm`` tier needs a rebuild).

Every condition is checked, not assumed: :func:`effective_mask` reads the ``CPUINFO:`` line of
``openssl version -a`` under the same environment, and :func:`resolve_isa` skips presets that
cannot mean anything on this machine (non-x86, a CPU without the feature) with a
:class:`~cipherlab.errors.CaptureWarning` that says why.

Examples
--------
>>> ISA_PRESETS["no-aesni"]
'~0x200000200000000:~0x0'
>>> isa_env(IsaCondition("no-vaes", ":~0x60000000000"), {"PATH": "/usr/bin"})["OPENSSL_ia32cap"]
':~0x60000000000'
>>> "OPENSSL_ia32cap" in isa_env(IsaCondition("native", None), {"OPENSSL_ia32cap": "~0x0"})
False
>>> aesni_state("0xfffa3203078bffff:0x405fc6f1bf07ab"), aesni_state("0xfdfa3201078bffff:0x0")
('on', 'off')
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import warnings
from dataclasses import dataclass
from typing import Iterable, Mapping

from cipherlab.errors import CaptureError, CaptureWarning

__all__ = ["ISA_PRESETS", "IsaCondition", "aesni_state", "effective_mask", "find_openssl",
           "isa_env", "resolve_isa"]

ENV_VAR = "OPENSSL_ia32cap"

#: Named ISA conditions -> ``OPENSSL_ia32cap`` value (``None``: the variable is unset).
ISA_PRESETS: dict[str, str | None] = {
    "native": None,
    # AES-NI (bit 57) and PCLMULQDQ (bit 33) off; ":~0x0" keeps AVX2/AVX-512/SHA-NI/VAES bits as
    # reported, so only the AES instructions change (VAES code paths also require AES-NI).
    "no-aesni": "~0x200000200000000:~0x0",
    # The AWS-wiki value verbatim: on 3.x it also zeroes the second capability word.
    "no-aesni-classic": "~0x200000200000000",
    # AES-NI on, VAES (bit 41) and VPCLMULQDQ (bit 42) of the second word off.
    "no-vaes": ":~0x60000000000",
    "no-aesni-no-vaes": "~0x200000200000000:~0x60000000000",
    # Plain integers: no SIMD at all (SSSE3, AVX, AES-NI, SHA-NI off): stands in for the asm tier.
    "no-simd": "0x0:0x0",
}

# What each preset needs from the CPU to differ from native: (word, bit, feature name).
_NEEDS: dict[str, tuple[int, int, str] | None] = {
    "no-aesni": (0, 57, "AES-NI"),
    "no-aesni-classic": (0, 57, "AES-NI"),
    "no-vaes": (1, 41, "VAES"),
    "no-aesni-no-vaes": (0, 57, "AES-NI"),
    "no-simd": None,
}

_RAW_MASK = re.compile(r"^~?(?:0[xX][0-9a-fA-F]+|\d+)?(?::~?(?:0[xX][0-9a-fA-F]+|\d+)?)*$")
_CPUINFO = re.compile(r"^CPUINFO:\s*(?:N/A|OPENSSL_(?P<cap>\w+?)=(?P<value>\S*))(?:\s+env:.*)?\s*$",
                      re.M)

_INSTALL_HINT = ("install OpenSSL (Debian/Ubuntu: `apt install openssl`; Fedora: `dnf install "
                 "openssl`; macOS: `brew install openssl@3`; conda: `conda install -c conda-forge "
                 "openssl`) or pass openssl='/path/to/openssl'")


@dataclass(frozen=True)
class IsaCondition:
    """One ISA condition of a capture: a name and the ``OPENSSL_ia32cap`` value it sets.

    ``name`` is a key of :data:`ISA_PRESETS` or, for a raw mask, the mask itself; ``value`` is
    ``None`` for ``native`` (the variable is removed from the child's environment).
    """

    name: str
    value: str | None

    def __str__(self) -> str:
        return self.name


def find_openssl(openssl: str | os.PathLike | None = None) -> str:
    """Return the path of the ``openssl`` binary to run, or raise a CaptureError saying what to install.

    >>> find_openssl().endswith("openssl")
    True
    """
    import shutil
    if openssl is None:
        found = shutil.which("openssl")
        if found is None:
            raise CaptureError(f"no `openssl` found on PATH; {_INSTALL_HINT}")
        return found
    path = os.fspath(openssl)
    found = shutil.which(path)
    if found is None:
        raise CaptureError(f"openssl={path!r} is not an executable file; {_INSTALL_HINT}")
    return found


def isa_env(cond: IsaCondition, base_env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a child process that runs under ``cond``.

    Starts from ``base_env`` (default: this process's environment) and sets or removes
    ``OPENSSL_ia32cap``; removing matters because an *empty* value zeroes every capability.
    """
    env = dict(os.environ if base_env is None else base_env)
    env.pop(ENV_VAR, None)
    if cond.value is not None:
        env[ENV_VAR] = cond.value
    return env


@functools.lru_cache(maxsize=64)
def _mask_for(openssl: str, value: str | None) -> str:
    env = isa_env(IsaCondition("", value))
    try:
        out = subprocess.run([openssl, "version", "-a"], env=env, capture_output=True, text=True,
                             timeout=30, check=False).stdout
    except OSError as err:
        raise CaptureError(f"cannot run {openssl!r} version -a: {err}") from err
    m = _CPUINFO.search(out)
    if m is None:
        return "N/A"
    return m["value"] if m["cap"] == "ia32cap" else f"{m['cap']}={m['value']}"


def effective_mask(env: Mapping[str, str] | None = None, openssl: str | None = None) -> str:
    """The capability mask OpenSSL reports as in effect under ``env``.

    Runs ``openssl version -a`` with ``env`` and returns the value of its ``CPUINFO:`` line:
    ``'0xfffa3203078bffff:0x405fc6f1bf07ab'`` on x86 (``OPENSSL_ia32cap``), ``'armcap=0x..'``
    etc. on other CPUs, ``'N/A'`` for builds without CPU detection (``no-asm``, OpenSSL < 3.0).
    Results are cached per (binary, ``OPENSSL_ia32cap`` value).

    >>> effective_mask({}).startswith("0x")   # this x86-64 machine
    True
    """
    value = (env or {}).get(ENV_VAR)
    return _mask_for(find_openssl(openssl), value)


def _words(mask: str) -> list[int] | None:
    if not mask.startswith("0x"):
        return None
    try:
        return [int(w, 16) for w in mask.split(":")]
    except ValueError:
        return None


def _has(mask: str, word: int, bit: int) -> bool | None:
    words = _words(mask)
    if words is None or len(words) <= word:
        return None
    return bool(words[word] >> bit & 1)


def aesni_state(mask: str) -> str | None:
    """``'on'``/``'off'`` from an x86 capability mask (bit 57 of the first word); None elsewhere."""
    has = _has(mask, 0, 57)
    return None if has is None else ("on" if has else "off")


def resolve_isa(spec: str | Iterable[str] | None = None, *, openssl: str | None = None,
                stacklevel: int = 2) -> list[IsaCondition]:
    """Turn preset names and raw masks into the ISA conditions that make sense on this machine.

    Parameters
    ----------
    spec : str or list of str, optional
        Names of :data:`ISA_PRESETS` and/or raw ``OPENSSL_ia32cap`` values (``"~0x200000000"``,
        ``"0x0:0x0"``); a comma-separated string is split. Default ``["native", "no-aesni"]``.
    openssl : str, optional
        The binary whose ``CPUINFO:`` line decides (default: ``openssl`` on PATH).

    Returns
    -------
    list of IsaCondition
        In the order given, duplicates dropped. Presets that cannot change anything here (a
        non-x86 CPU; a CPU without AES-NI for ``no-aesni``, without VAES for ``no-vaes``) are
        left out with a :class:`~cipherlab.errors.CaptureWarning` naming the reason; a condition
        whose mask equals native's is kept but warned about.

    Raises
    ------
    ValueError
        For a name that is neither a preset nor a mask (the message lists the presets).

    Examples
    --------
    >>> [c.name for c in resolve_isa("native,no-aesni")]
    ['native', 'no-aesni']
    >>> resolve_isa(["~0x200000200000000"])[0].value
    '~0x200000200000000'
    """
    if spec is None:
        spec = ["native", "no-aesni"]
    if isinstance(spec, str):
        spec = [s.strip() for s in spec.split(",") if s.strip()]
    conds: list[IsaCondition] = []
    for item in spec:
        item = str(item).strip()
        if item in ISA_PRESETS:
            cond = IsaCondition(item, ISA_PRESETS[item])
        elif item and _RAW_MASK.match(item):
            cond = IsaCondition(item, item)
        else:
            raise ValueError(f"isa must name presets ({', '.join(ISA_PRESETS)}) or raw "
                             f"OPENSSL_ia32cap masks such as '~0x200000200000000'; not {item!r}")
        if cond not in conds:
            conds.append(cond)
    if not conds:
        raise ValueError("isa must name at least one condition; got an empty list")

    binary = find_openssl(openssl)
    native = _mask_for(binary, None)
    kept = []
    for cond in conds:
        if cond.value is None:
            kept.append(cond)
            continue
        if _words(native) is None:
            warnings.warn(f"skipping ISA condition {cond.name!r}: OPENSSL_ia32cap only applies to "
                          f"x86 builds of OpenSSL >= 3.0 with CPU detection, and {binary} reports "
                          f"CPUINFO {native!r} (another CPU, a no-asm build, LibreSSL or an older "
                          f"OpenSSL); only 'native' can be measured here.", CaptureWarning,
                          stacklevel=stacklevel)
            continue
        need = _NEEDS.get(cond.name)
        if need is not None and not _has(native, need[0], need[1]):
            warnings.warn(f"skipping ISA preset {cond.name!r}: this CPU has no {need[2]} (native "
                          f"mask {native}), so the preset would measure the same code as "
                          f"'native'.", CaptureWarning, stacklevel=stacklevel)
            continue
        mask = _mask_for(binary, cond.value)
        if mask == native:
            warnings.warn(f"ISA condition {cond.name!r} ({ENV_VAR}={cond.value}) left the mask "
                          f"that openssl reports unchanged ({mask}); its runs measure the same "
                          f"code as 'native'.", CaptureWarning, stacklevel=stacklevel)
        kept.append(cond)
    return kept
