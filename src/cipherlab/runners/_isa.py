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

On ARM the switch is ``OPENSSL_armcap``, whose value *replaces* the capability word
(``docs/openssl-armcap.md``): :data:`ARM_PRESETS` name the features to clear and
:func:`resolve_isa` writes the value from the native word (``no-aesni`` is ARMv8 AES and PMULL
off there), chosen by the family the binary's ``CPUINFO:`` line shows.

Every condition is checked, not assumed: :func:`effective_mask` reads the ``CPUINFO:`` line of
``openssl version -a`` under the same environment, and :func:`resolve_isa` skips presets that
cannot mean anything on this machine (the other CPU family, a CPU without the feature) with a
:class:`~cipherlab.errors.CaptureWarning` that says why.

Conditions are named by what they switched off, not by what they were meant to: :func:`isa_off`
decodes both words of the mask in effect against native's into the documented features
(:data:`FEATURES`, bit positions from ``OPENSSL_ia32cap(3ssl)``, copied in
``docs/openssl-ia32cap.md``), e.g. ``aesni+pclmulqdq``; ``aesni`` is ``on``/``off`` only when
nothing but the AES instructions differ (:func:`aesni_state`). :func:`label_masks` does the same
for pasted dumps whose ``CPUINFO:`` line shows the mask.

Examples
--------
>>> ISA_PRESETS["no-aesni"]
'~0x200000200000000:~0x60000000000'
>>> isa_env(IsaCondition("no-vaes", ":~0x60000000000"), {"PATH": "/usr/bin"})["OPENSSL_ia32cap"]
':~0x60000000000'
>>> "OPENSSL_ia32cap" in isa_env(IsaCondition("native", None), {"OPENSSL_ia32cap": "~0x0"})
False
>>> isa_off("0xfffa3203078bffff:0x405fc6f1bf07ab", "0xfdfa3201078bffff:0x405fc6f1bf07ab")
'aesni+pclmulqdq'
"""

from __future__ import annotations

import functools
import os
import re
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from cipherlab.errors import CaptureError
from cipherlab.runners._exec import execute
from cipherlab.runners._system import LOCAL, current, warn

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["AES_FEATURES", "AES_NAMES", "ALL_ON", "ARM_AES_FEATURES", "ARM_FEATURES",
           "ARM_PRESETS", "FEATURES", "ISA_COLUMNS", "ISA_PRESETS", "IsaCondition", "IsaContrast",
           "aesni_state", "all_on", "apply_value", "aes_name", "arm_value", "asked_masks",
           "cpu_families", "effect_label", "effective_mask", "features", "find_openssl",
           "isa_column", "isa_contrast", "isa_env", "isa_off", "isa_sides", "isa_variable",
           "label_asked", "label_masks", "labels", "resolve_isa", "run_env", "side_name",
           "switched_off", "uses_aes"]

ENV_VAR = "OPENSSL_ia32cap"
ARM_ENV_VAR = "OPENSSL_armcap"

#: Named ISA conditions -> ``OPENSSL_ia32cap`` value (``None``: the variable is unset).
ISA_PRESETS: dict[str, str | None] = {
    "native": None,
    # No hardware AES on any OpenSSL: AES-NI (bit 57) and PCLMULQDQ (33) of the first word, VAES
    # (64+41) and VPCLMULQDQ (64+42) of the second; OpenSSL 4.0 runs GCM with VAES whatever the
    # AES-NI bit says. The rest of the second word stays as the CPU reports it.
    "no-aesni": "~0x200000200000000:~0x60000000000",
    # The AWS-wiki value verbatim: on 3.x it also zeroes the second capability word.
    "no-aesni-classic": "~0x200000200000000",
    # AES-NI on, VAES (bit 41) and VPCLMULQDQ (bit 42) of the second word off.
    "no-vaes": ":~0x60000000000",
    # Plain integers: no SIMD at all (SSSE3, AVX, AES-NI, SHA-NI off): stands in for the asm tier.
    "no-simd": "0x0:0x0",
}

#: Named ISA conditions on ARM -> the :data:`ARM_FEATURES` each switches off (``None``: all of
#: them, NEON too). ``OPENSSL_armcap`` *replaces* the capability word, so :func:`resolve_isa`
#: writes the value from the native word: ``armcap=0x..`` (native's bits without these).
#: ``no-aesni`` is the AES instructions off on both families (ARMv8 AES and PMULL here).
ARM_PRESETS: dict[str, frozenset[str] | None] = {
    "no-aesni": frozenset({"aes", "pmull"}),
    "no-pmull": frozenset({"pmull"}),
    "no-sha": frozenset({"sha1", "sha256", "sha512"}),
    "no-simd": None,
}

# What each preset needs from the CPU to differ from native.
_NEEDS: dict[str, str | None] = {"no-aesni": "aesni", "no-aesni-classic": "aesni",
                                 "no-vaes": "vaes", "no-simd": None}

#: The bits of the capability mask OpenSSL documents (``OPENSSL_ia32cap(3ssl)``, copied in
#: ``docs/openssl-ia32cap.md``): ``name -> (word, bit)``, in the order names are joined in
#: ``isa_off`` (the AES instructions first). Bit ``#64+n`` of the page is ``(1, n)``.
FEATURES: dict[str, tuple[int, int]] = {
    "aesni": (0, 57), "pclmulqdq": (0, 33), "vaes": (1, 41), "vpclmulqdq": (1, 42),
    "shani": (1, 29), "ssse3": (0, 41), "avx": (0, 60), "avx2": (1, 5), "avx512f": (1, 16),
    "avx512bw": (1, 30), "avx512vl": (1, 31), "avx512dq": (1, 17), "avx512ifma": (1, 21),
    "bmi1": (1, 3), "bmi2": (1, 8), "adx": (1, 19), "rdseed": (1, 18), "rdrand": (0, 62),
    "xop": (0, 43), "movbe": (0, 54), "xsave": (0, 58), "osxsave": (0, 59), "sse": (0, 25),
    "sse2": (0, 26), "fxsr": (0, 24), "mmx": (0, 23), "ht": (0, 28), "intel": (0, 30),
    "rc4path": (0, 20), "clflush": (0, 19), "tsc": (0, 4),
}
_BIT_NAMES = {64 * w + b: name for name, (w, b) in FEATURES.items()}
#: The AES instructions: a condition whose ``isa_off`` holds only these (AES-NI among them) is
#: ``aesni='off'``; the carry-less multiplies count because GHASH pairs them with AES in GCM.
AES_FEATURES = frozenset({"aesni", "pclmulqdq", "vaes", "vpclmulqdq"})

#: The bits of ARM's capability word (``OPENSSL_armcap``; ``crypto/arm_arch.h`` of OpenSSL 3.0,
#: copied in ``docs/openssl-armcap.md``): ``name -> bit``, in the order names are joined (the AES
#: instructions first). A mask in effect is written ``armcap=0x..``, as :func:`effective_mask`
#: returns it; its value *replaces* the word (no ``~``), so ``0`` switches NEON off too.
ARM_FEATURES: dict[str, int] = {"aes": 2, "pmull": 5, "sha1": 3, "sha256": 4, "sha512": 6,
                                "neon": 0, "tick": 1, "cpuid": 7}
#: ARM's AES instructions: the ``aesni`` condition's ``off`` on ARM (AES and the polynomial
#: multiply GHASH pairs with it), as :data:`AES_FEATURES` on x86.
ARM_AES_FEATURES = ARM_PRESETS["no-aesni"]
ARM_PREFIX = "armcap="
_RAW_ARM = re.compile(r"^armcap=(?:0[xX][0-9a-fA-F]+|\d+)$")

_RAW_MASK = re.compile(r"^~?(?:0[xX][0-9a-fA-F]+|\d+)?(?::~?(?:0[xX][0-9a-fA-F]+|\d+)?)*$")
_CPUINFO = re.compile(r"^CPUINFO:\s*(?:N/A|OPENSSL_(?P<cap>\w+?)=(?P<value>\S*))(?:\s+env:.*)?\s*$",
                      re.M)

_INSTALL_HINT = ("install OpenSSL (Debian/Ubuntu: `apt install openssl`; Fedora: `dnf install "
                 "openssl`; macOS: `brew install openssl@3`; conda: `conda install -c conda-forge "
                 "openssl`) or pass openssl='/path/to/openssl' (CLI: --openssl PATH)")


@dataclass(frozen=True)
class IsaCondition:
    """One ISA condition of a capture: a name and the capability value it sets.

    ``name`` is a key of :data:`ISA_PRESETS` (:data:`ARM_PRESETS`) or, for a raw mask, the mask
    itself; ``value`` is an ``OPENSSL_ia32cap`` value, ``armcap=0x..`` for ``OPENSSL_armcap``
    (:func:`isa_variable`), or ``None`` for ``native`` (both variables are removed from the
    child's environment).
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
    system = current()
    where = "" if system is LOCAL else f" of host {system.name!r}"
    if openssl is None:
        found = system.which("openssl")
        if found is None:
            raise CaptureError(f"no `openssl` found on PATH{where}; {_INSTALL_HINT}")
        return found
    path = os.fspath(openssl)
    found = system.which(path)
    if found is None:
        raise CaptureError(f"openssl={path!r} is not an executable file{where}; {_INSTALL_HINT}")
    return found


def isa_variable(value: str) -> tuple[str, str]:
    """The environment variable a condition's ``value`` sets, and what it is set to.

    >>> isa_variable("~0x200000200000000:~0"), isa_variable("armcap=0x99")
    (('OPENSSL_ia32cap', '~0x200000200000000:~0'), ('OPENSSL_armcap', '0x99'))
    """
    if value.startswith(ARM_PREFIX):
        return ARM_ENV_VAR, value[len(ARM_PREFIX):]
    return ENV_VAR, value


def isa_env(cond: IsaCondition, base_env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a child process that runs under ``cond``.

    Starts from ``base_env`` (default: this process's environment), removes ``OPENSSL_ia32cap``
    and ``OPENSSL_armcap`` and sets the one ``cond`` names (:func:`isa_variable`); removing
    matters because an *empty* value zeroes every capability.

    >>> isa_env(IsaCondition("no-aesni", "armcap=0x99"), {"OPENSSL_ia32cap": "~0"})
    {'OPENSSL_armcap': '0x99'}
    """
    env = dict(os.environ if base_env is None else base_env)
    env.pop(ENV_VAR, None)
    env.pop(ARM_ENV_VAR, None)
    if cond.value is not None:
        name, value = isa_variable(cond.value)
        env[name] = value
    return env


def run_env(cond: IsaCondition, build_env: Mapping[str, str] = ()) -> dict[str, str | None]:
    """What a run record says its environment was: the capability variable ``cond`` sets (the
    x86 one, None, for ``native``) and the build's variables."""
    name, value = isa_variable(cond.value) if cond.value is not None else (ENV_VAR, None)
    return {name: value, **dict(build_env)}


def _mask_for(openssl: str, value: str | None, extra: tuple[tuple[str, str], ...] = ()) -> str:
    return _mask_on(current(), openssl, value, extra)


@functools.lru_cache(maxsize=64)
def _mask_on(system, openssl: str, value: str | None, extra: tuple[tuple[str, str], ...]) -> str:
    env = isa_env(IsaCondition("", value), {**os.environ, **dict(extra)})
    try:
        out = execute([openssl, "version", "-a"], env, timeout=30).stdout
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
    Results are cached per (binary, ``OPENSSL_ia32cap`` / ``OPENSSL_armcap`` value).

    >>> effective_mask({}).startswith("0x")   # this x86-64 machine
    True
    """
    env = env or {}
    value = (ARM_PREFIX + env[ARM_ENV_VAR]) if ARM_ENV_VAR in env else env.get(ENV_VAR)
    return _mask_for(find_openssl(openssl), value)


def _words(mask: str | None) -> list[int] | None:
    """The capability words of a mask in effect (``'0xW0:0xW1'``), or None for anything else."""
    if not isinstance(mask, str) or not mask.startswith("0x"):
        return None
    try:
        return [int(w, 16) for w in mask.split(":")]
    except ValueError:
        return None


def _bits(words: Sequence[int]) -> set[int]:
    return {64 * w + b for w, word in enumerate(words) for b in range(64) if word >> b & 1}


def _arch_bits(mask: object) -> tuple[str, set[int]] | None:
    """``('x86', bits)`` of an ``OPENSSL_ia32cap`` mask in effect, ``('arm', bits)`` of an
    ``armcap=0x..`` one; None for anything else."""
    if isinstance(mask, str) and mask.startswith(ARM_PREFIX + "0x"):
        try:
            return "arm", _bits([int(mask[len(ARM_PREFIX):], 16)])
        except ValueError:
            return None
    words = _words(mask)
    return None if words is None else ("x86", _bits(words))


def _names(bits: Iterable[int], arch: str = "x86") -> list[str]:
    """Documented feature names of ``bits`` in :data:`FEATURES` (:data:`ARM_FEATURES`) order;
    ``'other'`` last stands for the bits the manual (the source) does not list (OpenSSL ignores
    them; the raw mask keeps them)."""
    bits = set(bits)
    table = _BIT_NAMES if arch == "x86" else {b: n for n, b in ARM_FEATURES.items()}
    named = [n for n in (FEATURES if arch == "x86" else ARM_FEATURES) if _bit(n, arch) in bits]
    return named + (["other"] if bits - table.keys() else [])


def _bit(name: str, arch: str) -> int:
    if arch == "x86":
        w, b = FEATURES[name]
        return 64 * w + b
    return ARM_FEATURES[name]


def features(mask: str) -> list[str] | None:
    """The documented features a capability mask in effect has on, in :data:`FEATURES` order
    (:data:`ARM_FEATURES` for an ``armcap=`` mask).

    >>> features("0x200000200000000:0x20")
    ['aesni', 'pclmulqdq', 'avx2']
    >>> features("armcap=0xbd")
    ['aes', 'pmull', 'sha1', 'sha256', 'neon', 'cpuid']
    """
    found = _arch_bits(mask)
    return None if found is None else [n for n in _names(found[1], found[0]) if n != "other"]


def switched_off(native: str, mask: str) -> list[str] | None:
    """Features on in ``native`` and off in ``mask`` (both masks in effect, of one CPU
    architecture); None if either is no capability mask or they are of two architectures.

    >>> switched_off("0xfffa3203078bffff:0x405fc6f1bf07ab", "0xfdfa3201078bffff:0x405fc6f1bf07ab")
    ['aesni', 'pclmulqdq']
    >>> switched_off("armcap=0xbd", "armcap=0x1")
    ['aes', 'pmull', 'sha1', 'sha256', 'cpuid']
    """
    a, b = _arch_bits(native), _arch_bits(mask)
    if a is None or b is None or a[0] != b[0]:
        return None
    return _names(a[1] - b[1], a[0])


def isa_off(native: str, mask: str) -> str | None:
    """The ``isa_off`` condition: what ``mask`` switched off against ``native``, joined by ``+``.

    ``'none'`` when nothing is off; None when either mask is no capability mask of OpenSSL's
    (x86's ``0xW0:0xW1``, ARM's ``armcap=0x..``) or they are of two architectures.

    >>> isa_off("0xfffa3203078bffff:0x405fc6f1bf07ab", "0xfdfa3201078bffff:0x0")
    'aesni+pclmulqdq+vaes+vpclmulqdq+shani+avx2+avx512f+avx512bw+avx512vl+avx512dq+avx512ifma+bmi1+bmi2+adx+rdseed+other'
    >>> isa_off("0xfffa3203078bffff:0x405fc6f1bf07ab", "0xfffa3203078bffff:0x405fc6f1bf07ab")
    'none'
    """
    off = switched_off(native, mask)
    return None if off is None else ("+".join(off) or "none")


def aesni_state(native: str, mask: str) -> str | None:
    """``'on'``/``'off'`` when ``mask`` differs from ``native`` in nothing but the AES
    instructions (:data:`AES_FEATURES`, AES-NI among them); None for any other difference.

    >>> n = "0xfffa3203078bffff:0x405fc6f1bf07ab"
    >>> aesni_state(n, n), aesni_state(n, "0xfdfa3201078bffff:0x4059c6f1bf07ab")
    ('on', 'off')
    >>> aesni_state(n, "0xfdfa3201078bffff:0x0") is None   # AVX2, SHA-NI ... went too
    True

    On ARM the AES instructions are ARMv8's ``aes`` and ``pmull`` (:data:`ARM_AES_FEATURES`):

    >>> aesni_state("armcap=0xbd", "armcap=0x99"), aesni_state("armcap=0xbd", "armcap=0x1") is None
    ('off', True)
    """
    off = switched_off(native, mask)
    if off is None:
        return None
    if not off:
        return "on"
    return "off" if _aes_only(set(off)) else None


def _aes_only(off: set[str]) -> bool:
    """Whether features ``off`` are the AES instructions of x86 or of ARM, AES itself among them."""
    return ("aesni" in off and off <= AES_FEATURES) or ("aes" in off and off <= ARM_AES_FEATURES)


def labels(cond: IsaCondition, mask: str, native: str) -> dict[str, str | None]:
    """The ISA condition columns of a run: ``isa``, ``isa_mask``, ``isa_off``, ``aesni``.

    >>> labels(IsaCondition("x", "~0x2"), "0x1:0x0", "0x3:0x0")
    {'isa': 'x', 'isa_mask': '0x1:0x0', 'isa_off': 'other', 'aesni': None}
    """
    return {"isa": cond.name, "isa_mask": mask, "isa_off": isa_off(native, mask),
            "aesni": aesni_state(native, mask)}


def uses_aes(algorithm: object) -> bool:
    """True for AES in any mode, and for TLS suites whose record cipher is AES.

    >>> uses_aes("aes-128-gcm"), uses_aes("ECDHE-ECDSA-AES128-SHA256"), uses_aes("chacha20-poly1305")
    (True, True, False)
    """
    from cipherlab.algorithms import is_aes, suite_primitives
    if is_aes(algorithm):
        return True
    try:
        return is_aes(suite_primitives(str(algorithm))["cipher"])
    except Exception:  # noqa: BLE001 - not a suite either
        return False


#: What the AES instructions are called on each CPU family: effects, claims, captions.
AES_NAMES = {"x86": "AES-NI", "arm": "ARMv8 AES"}
_ARM_ONLY = frozenset(ARM_FEATURES) - frozenset(FEATURES)


def cpu_families(frame) -> list[str]:
    """The CPU families (``'x86'``, ``'arm'``) whose ISA conditions the rows of ``frame`` record:
    read from the mask in effect (``isa_mask``, ``cpuinfo``) or the features ``isa_off`` names,
    of the rows that have an ISA condition (a dump of an ARM CPU measured one way is none).

    >>> import pandas as pd
    >>> cpu_families(pd.DataFrame({"isa_mask": ["armcap=0xfd", None], "isa_off": ["none", "aesni"]}))
    ['arm', 'x86']
    """
    frame = frame[isa_column(frame).notna().to_numpy()]
    found = set()
    for column in ("isa_mask", "cpuinfo", "isa_off"):
        if column not in frame.columns:
            continue
        for value in frame[column].dropna().astype(str).unique().tolist():
            if column == "isa_off":
                names = set(value.split("+"))
                found |= {"arm"} if names & _ARM_ONLY else set()
                found |= {"x86"} if names & FEATURES.keys() else set()
            elif "armcap" in value:
                found.add("arm")
            elif "ia32cap" in value or (column == "isa_mask" and _RAW_MASK.match(value)):
                found.add("x86")
    return sorted(found)


def aes_name(frame) -> str:
    """What to call the AES instructions of ``frame``'s ISA conditions (:data:`AES_NAMES`, by
    :func:`cpu_families`): ``'AES-NI'`` on x86 and where nothing says (a document's AES-NI
    on/off column), ``'ARMv8 AES'`` on ARM, both when the frame holds both.

    >>> import pandas as pd
    >>> aes_name(pd.DataFrame({"isa_off": ["none", "aes+pmull"]})), aes_name(pd.DataFrame())
    ('ARMv8 AES', 'AES-NI')
    """
    found = cpu_families(frame)
    return " / ".join(AES_NAMES[f] for f in AES_NAMES if f in found) or AES_NAMES["x86"]


def effect_label(algorithm: object, isa_off: object) -> str:
    """What to call the effect of an ISA condition on ``algorithm`` in a table or figure.

    "AES-NI" only for an algorithm that uses AES and a condition that switched off nothing but
    the AES instructions; otherwise the features the mask switched off, so a ChaCha20 speed-up
    under the AWS-wiki mask is never presented as AES-NI's.

    >>> effect_label("aes-128-gcm", "aesni+pclmulqdq")
    'AES-NI'
    >>> effect_label("chacha20-poly1305", "aesni+pclmulqdq+vaes+vpclmulqdq+shani+avx2+other")
    'ISA off (aesni+pclmulqdq+vaes+vpclmulqdq+shani+avx2+other)'
    >>> effect_label("chacha20-poly1305", "aesni+pclmulqdq")
    'no AES-NI effect expected (chacha20-poly1305 does not use AES)'
    >>> effect_label("aes-128-gcm", "aes+pmull")
    'ARMv8 AES'
    """
    off = set(str(isa_off).split("+")) if isinstance(isa_off, str) and isa_off != "none" else set()
    if off and _aes_only(off):
        name = AES_NAMES["x86" if "aesni" in off else "arm"]
        return (name if uses_aes(algorithm)
                else f"no {name} effect expected ({algorithm} does not use AES)")
    return f"ISA off ({isa_off})" if off else "none"


#: The columns an ISA comparison can read, most precise first: ``isa_off`` (decoded from the mask
#: in effect), ``aesni`` (a document or a run that says exactly AES-NI on/off: the AWS-wiki seed's
#: column, GnuTLS and HotSpot runs whose switches touch only the AES instructions) and ``isa``
#: (the condition set, when the mask in effect was not recorded).
ISA_COLUMNS = ("isa_off", "aesni", "isa")
#: Each column's level with nothing switched off.
ALL_ON = {"isa_off": "none", "aesni": "on", "isa": "native"}


def isa_column(frame) -> pd.Series:
    """Per row, the column its ISA condition is read from (the first of :data:`ISA_COLUMNS`
    with a value), or None for a row without one.

    >>> import pandas as pd
    >>> t = pd.DataFrame({"isa_off": ["none", None, None], "aesni": ["on", "off", None]})
    >>> isa_column(t).tolist()
    ['isa_off', 'aesni', None]
    """
    import numpy as np
    import pandas as pd

    column = np.full(len(frame), None, dtype=object)
    for c in reversed(ISA_COLUMNS):
        if c in frame.columns:
            column = np.where(frame[c].notna().to_numpy(), c, column)
    return pd.Series(column, index=frame.index, dtype=object)


def side_name(column: str, level: object, width: int | None = None, aes: str = "AES-NI") -> str:
    """How one side of an ISA comparison is named in text, legends and tables.

    ``width`` (legends): a longer list of features is cut after whole names, with the count of
    the rest, so a legend still shows that more than the AES instructions went.

    >>> side_name("isa_off", "none"), side_name("isa_off", "aesni+pclmulqdq")
    ('nothing off', 'off: aesni+pclmulqdq')
    >>> side_name("aesni", "off"), side_name("isa", "no-aesni-classic")
    ('AES-NI off', 'isa=no-aesni-classic (mask not recorded)')
    >>> side_name("isa_off", "aesni+pclmulqdq+vaes+vpclmulqdq+shani+avx2+avx512f", width=36)
    'off: aesni+pclmulqdq+vaes +4 more'

    ``aes``: what the ``aesni`` column's instructions are called (:func:`aes_name` of the rows):

    >>> side_name("aesni", "off", aes="ARMv8 AES")
    'ARMv8 AES off'
    """
    if column == "isa_off":
        if level == ALL_ON[column]:
            return "nothing off"
        names, kept = str(level).split("+"), []
        for name in names:  # " +NN more" takes 8 characters
            if width is not None and kept and len("off: " + "+".join(kept + [name])) + 8 > width:
                break
            kept.append(name)
        rest = len(names) - len(kept)
        return "off: " + "+".join(kept) + (f" +{rest} more" if rest else "")
    if column == "aesni":
        return f"{aes} {level}"
    return f"isa={level}" if level == ALL_ON.get(column) else f"isa={level} (mask not recorded)"


@dataclass(frozen=True)
class IsaContrast:
    """The ISA comparison of a table: the ``column`` it reads, the level with nothing off
    (``on``) and the levels compared with it (``offs``); :func:`isa_contrast` decides.

    >>> c = IsaContrast("isa_off", "none", ("aesni+pclmulqdq+vaes+vpclmulqdq+shani+avx2",))
    >>> c.side("none"), c.effect("chacha20-poly1305", c.offs[0])
    ('nothing off', 'ISA off (aesni+pclmulqdq+vaes+vpclmulqdq+shani+avx2)')
    >>> c.claim_applies("aes-128-gcm"), c.claim_applies("chacha20-poly1305")
    (True, False)
    """

    column: str
    on: str
    offs: tuple[str, ...]
    aes: str = field(default=AES_NAMES["x86"], repr=False)  # (:func:`aes_name` of its rows)

    def side(self, level: object) -> str:
        return side_name(self.column, level, aes=self.aes)

    def effect(self, algorithm: object, level: object) -> str:
        """What the difference between ``on`` and ``level`` is called for ``algorithm``:
        :func:`effect_label` of the features off ("AES-NI" only for AES under an AES-only
        condition)."""
        if self.column == "isa_off":
            return effect_label(algorithm, level)
        if self.column == "aesni":
            return effect_label(algorithm, "aes" if self.aes == AES_NAMES["arm"] else "aesni")
        return f"isa={level} (what it switched off was not recorded)"

    def claim_applies(self, algorithm: object) -> bool:
        """Whether an "AES-NI makes it Nx faster" claim is about ``algorithm`` at all."""
        return uses_aes(algorithm)


def isa_contrast(frame) -> IsaContrast | None:
    """Which condition column the ISA comparison of ``frame`` uses, and its levels.

    The first of :data:`ISA_COLUMNS` that some rows read (:func:`isa_column`) with both the
    all-on level and another: ``isa_off`` for captures and pasted dumps with a mask, ``aesni``
    only where a document or a run says exactly AES-NI on/off, ``isa`` where only the preset is
    known. None when no column has a pair. Rows that read another column are not part of it:
    split a table by :func:`isa_column` first to compare each part.

    >>> import pandas as pd
    >>> t = pd.DataFrame({"isa_off": ["none", "aesni+pclmulqdq", None, None],
    ...                   "aesni": ["on", "off", "on", "off"]})
    >>> isa_contrast(t)
    IsaContrast(column='isa_off', on='none', offs=('aesni+pclmulqdq',))
    >>> isa_contrast(t[t.isa_off.isna()]).column
    'aesni'
    """
    reads = isa_column(frame)
    for column in ISA_COLUMNS:
        if column not in frame.columns:
            continue
        rows = frame.loc[reads.eq(column).to_numpy()]
        levels = [str(v) for v in rows[column].astype("object").unique()]
        on = ALL_ON[column]
        offs = tuple(v for v in levels if v != on)
        if on in levels and offs:
            return IsaContrast(column, on, offs, aes_name(rows))
    return None


def isa_sides(frame) -> pd.Series:
    """Per row, its ISA side as :func:`side_name` names it (None without an ISA condition):
    one column to group or colour by when a table mixes captures, dumps and documents.

    >>> import pandas as pd
    >>> isa_sides(pd.DataFrame({"isa_off": ["none", None], "aesni": ["on", "off"]})).tolist()
    ['nothing off', 'AES-NI off']
    """
    import pandas as pd

    reads = isa_column(frame)
    out = pd.Series(None, index=frame.index, dtype=object)
    for column in ISA_COLUMNS:
        here = reads.eq(column).to_numpy()
        if here.any():
            levels = frame.loc[here, column].astype("object")
            aes = aes_name(frame.loc[here])
            out[here] = levels.map({v: side_name(column, v, aes=aes)
                                    for v in levels.unique()}).to_numpy()
    return out


def all_on(frame) -> pd.Series:
    """Per row: True when nothing was switched off (or the row has no ISA condition).

    >>> import pandas as pd
    >>> all_on(pd.DataFrame({"isa_off": ["none", "aesni", None], "aesni": ["on", None, None]})).tolist()
    [True, False, True]
    """
    import pandas as pd

    reads = isa_column(frame)
    out = pd.Series(True, index=frame.index)
    for column in ISA_COLUMNS:
        here = reads.eq(column).to_numpy()
        if here.any():
            out[here] = frame.loc[here, column].astype("object").eq(ALL_ON[column]).to_numpy()
    return out


def apply_value(words: Sequence[int], value: str) -> list[int]:
    """The words OpenSSL 3.x makes of ``words`` under ``OPENSSL_ia32cap=value``.

    ``~X`` clears the bits of X, a plain number replaces the word, an empty part keeps it, and a
    value without ``:`` zeroes the second word (see ``docs/openssl-ia32cap.md``).

    >>> [hex(w) for w in apply_value([0xff, 0xff], "~0x1")]
    ['0xfe', '0x0']
    >>> [hex(w) for w in apply_value([0xff, 0xff], ":~0x10")]
    ['0xff', '0xef']
    """
    out = list(words) + [0] * max(0, 2 - len(words))
    parts = value.split(":")
    for i in range(len(out)):
        if i >= len(parts):
            out[i] = 0 if i == 1 else out[i]
            continue
        part = parts[i].strip()
        if part:
            number = int(part.lstrip("~"), 0)
            out[i] = out[i] & ~number if part.startswith("~") else number
    return out


_STRTOUL = re.compile(r"\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)?")


def arm_value(value: str) -> tuple[int, bool]:
    """The ARM capability word OpenSSL makes of ``OPENSSL_armcap=value``, and whether the value
    is a plain number: it is read as C's ``strtoul(value, NULL, 0)`` (a prefix of digits in base
    0; none gives 0) and *replaces* the word (``docs/openssl-armcap.md``).

    >>> arm_value("0x1"), arm_value("0"), arm_value("189")
    ((1, True), (0, True), (189, True))
    >>> arm_value("~0x4")   # no digits to strtoul: every feature off
    (0, False)
    """
    m = _STRTOUL.match(value)
    digits = m[2] or "0"
    number = int(digits, 16 if digits[1:2] in ("x", "X") else 8 if digits[0] == "0" else 10)
    return (-number if m[1] == "-" else number) % (1 << 32), m.end() == len(value) and m[2] is not None


def asked_masks(value: str) -> tuple[str, str]:
    """``(reference, mask)`` in effect for a stated value when the CPU's own mask is unknown:
    every documented bit on, and what ``value`` makes of it: ``OPENSSL_ia32cap`` syntax
    (:func:`apply_value`), or an ``armcap=`` value (:func:`arm_value`, which replaces the word).
    Raises ValueError for a value that is neither.

    >>> asked_masks("armcap=0x1")
    ('armcap=0xff', 'armcap=0x1')
    """
    if value.startswith(ARM_PREFIX):
        return _ARM_DOCUMENTED, f"{ARM_PREFIX}0x{arm_value(value[len(ARM_PREFIX):])[0]:x}"
    return _format(_DOCUMENTED), _format(apply_value(_DOCUMENTED, value))


def resolve_isa(spec: str | Iterable[str] | None = None, *, openssl: str | None = None,
                env: tuple[tuple[str, str], ...] = ()) -> list[IsaCondition]:
    """Turn preset names and raw masks into the ISA conditions that make sense on this machine.

    The CPU family is the one the binary reports (its ``CPUINFO:`` line): x86's presets set
    ``OPENSSL_ia32cap`` (:data:`ISA_PRESETS`), ARM's ``OPENSSL_armcap`` (:data:`ARM_PRESETS`,
    written from the native word, as the value replaces it). ``no-aesni``, the default, is the
    AES instructions off on both.

    Parameters
    ----------
    spec : str or list of str, optional
        Names of presets and/or raw masks: ``OPENSSL_ia32cap`` values (``"~0x200000000"``,
        ``"0x0:0x0"``) or ``armcap=`` values (``"armcap=0x99"``); a comma-separated string is
        split. Default ``["native", "no-aesni"]``.
    openssl : str, optional
        The binary whose ``CPUINFO:`` line decides (default: ``openssl`` on PATH).
    env : tuple of (name, value), optional
        Variables the binary runs with (a build's ``LD_LIBRARY_PATH``).

    Returns
    -------
    list of IsaCondition
        In the order given, duplicates dropped. Conditions that cannot change anything here (a
        CPU without capability word, the other family's preset or mask, a CPU without AES-NI
        for ``no-aesni``, without VAES for ``no-vaes``, without ARMv8 AES ...) are left out
        with a :class:`~cipherlab.errors.CaptureWarning` naming the reason; a condition whose
        mask equals native's is kept but warned about.

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
    conds = _parse_isa(spec)
    binary = find_openssl(openssl)
    native = _mask_for(binary, None, env)
    family = _arch_bits(native)
    kept = []
    for cond in conds:
        if cond.name != "native":
            cond = _on_family(cond, native, family, binary)
            if cond is None:
                continue
            mask = _mask_for(binary, cond.value, env)
            if mask == native:
                name, value = isa_variable(cond.value)
                warn(f"ISA condition {cond.name!r} ({name}={value}) left the mask that openssl "
                     f"reports unchanged ({mask}); its runs measure the same code as 'native'.")
        kept.append(cond)
    return kept


def _parse_isa(spec: str | Iterable[str] | None) -> list[IsaCondition]:
    """The conditions ``spec`` names, in order, without duplicates; a preset's value is x86's
    (:func:`_on_family` gives ARM's)."""
    if spec is None:
        spec = ["native", "no-aesni"]
    if isinstance(spec, str):
        spec = [s.strip() for s in spec.split(",") if s.strip()]
    conds: list[IsaCondition] = []
    for item in spec:
        item = str(item).strip()
        if item in ISA_PRESETS or item in ARM_PRESETS:
            cond = IsaCondition(item, ISA_PRESETS.get(item))
        elif item and (_RAW_MASK.match(item) or _RAW_ARM.match(item)):
            cond = IsaCondition(item, item)
        else:
            presets = ", ".join(dict.fromkeys([*ISA_PRESETS, *ARM_PRESETS]))
            raise ValueError(f"isa must name presets ({presets}) or raw masks such as "
                             f"'~0x200000200000000' (OPENSSL_ia32cap) or 'armcap=0x99' "
                             f"(OPENSSL_armcap); not {item!r}")
        if cond not in conds:
            conds.append(cond)
    if not conds:
        raise ValueError("isa must name at least one condition; got an empty list")
    return conds


def _on_family(cond: IsaCondition, native: str, family: tuple[str, set[int]] | None,
               binary: str) -> IsaCondition | None:
    """``cond`` as the CPU family of ``native`` runs it, or None (warned) where it cannot
    change anything there."""
    if family is None:
        warn(f"skipping ISA condition {cond.name!r}: OPENSSL_ia32cap and OPENSSL_armcap only "
             f"apply to x86 and ARM builds of OpenSSL >= 3.0 with CPU detection, and {binary} "
             f"reports CPUINFO {native!r} (another CPU, a no-asm build, LibreSSL or an older "
             f"OpenSSL); only 'native' can be measured here.")
        return None
    arch, bits = family
    own = ARM_PRESETS if arch == "arm" else ISA_PRESETS
    raw = cond.name not in ISA_PRESETS and cond.name not in ARM_PRESETS
    if not (cond.name in own or raw and cond.name.startswith(ARM_PREFIX) == (arch == "arm")):
        other, here = ("x86", "ARM") if arch == "arm" else ("ARM", "x86")
        warn(f"skipping ISA condition {cond.name!r}: it is {other}'s only, and {binary} runs on "
             f"{here} (CPUINFO {native}); {here} presets: "
             f"{', '.join(p for p in own if p != 'native')}.")
        return None
    if arch == "x86":
        need = _NEEDS.get(cond.name)
        if need is not None and need not in features(native):
            warn(f"skipping ISA preset {cond.name!r}: this CPU has no {need} (native "
                 f"mask {native}), so the preset would measure the same code as 'native'.")
            return None
        return cond
    if cond.name not in ARM_PRESETS:
        return cond  # (a raw armcap= value)
    off = ARM_PRESETS[cond.name]
    clear = set(range(64)) if off is None else {ARM_FEATURES[n] for n in off}
    if not clear & bits:
        warn(f"skipping ISA preset {cond.name!r}: this CPU has no {'/'.join(sorted(off or ()))} "
             f"(native mask {native}), so the preset would measure the same code as 'native'.")
        return None
    return IsaCondition(cond.name, f"{ARM_PREFIX}0x{sum(1 << b for b in bits - clear):x}")


# Both words with every documented bit set (and ARM's one word).
_DOCUMENTED = [sum(1 << b for w, b in FEATURES.values() if w == word) for word in (0, 1)]
_ARM_DOCUMENTED = f"{ARM_PREFIX}0x{sum(1 << b for b in ARM_FEATURES.values()):x}"


def _format(words: Sequence[int]) -> str:
    return ":".join(f"0x{w:x}" for w in words)


_CPUINFO_MASK = re.compile(r"OPENSSL_(?P<cap>ia32cap|armcap)=(?P<mask>0x[0-9a-fA-F]+(?::0x[0-9a-fA-F]+)*)"
                           r"(?:\s+env:(?P<env>\S*))?")


def _cpuinfo_mask(m: re.Match) -> tuple[str, str | None]:
    """A ``CPUINFO`` line's mask in effect as :func:`effective_mask` writes it (``armcap=`` before
    ARM's) and its ``env:`` value likewise, or None."""
    prefix = "" if m["cap"] == "ia32cap" else m["cap"] + "="
    return prefix + m["mask"].lower(), None if m["env"] is None else prefix + m["env"]


def _reproduces(native: str, env: str, mask: str) -> bool:
    """True when ``OPENSSL_ia32cap=env`` applied to the x86 mask ``native`` gives ``mask``: a
    run with the mask in effect ``mask`` ran on a CPU whose own mask is ``native`` (128 bits that
    match; an ARM value replaces the word, so it proves nothing)."""
    words, got = _words(native), _words(mask)
    if words is None or got is None:
        return False
    try:
        made = apply_value(words, env)
    except ValueError:
        return False
    return made + [0] * (len(got) - len(made)) == got + [0] * (len(made) - len(got))


def label_masks(frame, *, stacklevel: int = 3):
    """Add ``isa_off`` (and ``aesni`` where missing) to rows whose ``cpuinfo`` shows a mask,
    and ``isa``/``isa_off``/``aesni`` to rows that ran under an ``OPENSSL_ia32cap`` value the
    text states (``isa_mask``: a command line's ``OPENSSL_ia32cap=...`` prefix, a sentence above
    the output) but whose mask in effect it does not show: see :func:`label_asked`.

    The reference is the source's own run without ``env:`` (the CPU's native mask); a source with
    no such run is decoded against another source's run without ``env:`` whose mask the value
    turns into this run's (one file per condition: that run then gets ``isa_off`` ``none``), else
    from the ``env:`` value alone (what it asks to clear, whether or not the CPU had it), with an
    :class:`~cipherlab.errors.IngestWarning` saying so. An ``aesni`` label
    the text already carries (a marker line) is kept, and a warning names the features that went
    off beside AES-NI. Returns ``frame`` (a new frame when columns were added).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"source": "a.txt", "cpuinfo": [
    ...     "OPENSSL_ia32cap=0xfffa3203078bffff:0x405fc6f1bf07ab",
    ...     "OPENSSL_ia32cap=0xfdfa3201078bffff:0x405fc6f1bf07ab env:~0x200000200000000:~0"]})
    >>> label_masks(df)[["isa_off", "aesni"]].values.tolist()
    [['none', 'on'], ['aesni+pclmulqdq', 'off']]

    A source none of whose runs set a mask gets no label (a pasted dump shows its CPU, no choice):

    >>> label_masks(df.iloc[:1]).columns.tolist()
    ['source', 'cpuinfo']

    unless it is the run without a mask that another file's masked run was made from:

    >>> label_masks(df.assign(source=["native.txt", "no-aesni.txt"]))[["isa_off", "aesni"]].values.tolist()
    [['none', 'on'], ['aesni+pclmulqdq', 'off']]
    """
    return label_asked(_label_cpuinfo(frame), stacklevel=stacklevel)


def _label_cpuinfo(frame):
    import numpy as np
    import pandas as pd

    from cipherlab.errors import IngestWarning
    if "cpuinfo" not in frame.columns or frame.empty:
        return frame
    # Decided per distinct (source, cpuinfo) pair, found on the columns' codes where either
    # changes (rows come in runs): a folder's frame holds a few thousand pairs over a million
    # rows, and nothing is made per row but a few small arrays.
    source_codes, sources = _codes(frame["source"])
    cpu_codes, cpus = _codes(frame["cpuinfo"])  # -1: missing
    parsed = [_CPUINFO_MASK.search(c) if isinstance(c, str) else None for c in cpus.tolist()]
    if not any(parsed):
        return frame
    parsed.append(None)  # for code -1
    sources = [*sources.tolist(), None]  # (code -1 picks the None)
    starts = np.flatnonzero(np.concatenate([[True], (source_codes[1:] != source_codes[:-1])
                                            | (cpu_codes[1:] != cpu_codes[:-1])]))
    widths = np.diff(np.append(starts, len(frame)))
    width = len(cpus) + 1
    keys = (source_codes[starts].astype(np.int64) + 1) * width + cpu_codes[starts] + 1
    pair_of_segment, distinct = pd.factorize(keys)  # the pairs in the order they first appear
    groups: dict[int, list[tuple]] = {}  # source code -> its pairs' (index, cpuinfo's match)
    for p, key in enumerate(distinct.tolist()):
        s, c = divmod(key, width)
        if parsed[c - 1]:
            groups.setdefault(s - 1, []).append((p, parsed[c - 1]))
    labels: dict[int, tuple] = {}  # pair -> (isa_off, aesni)
    every_native = {_cpuinfo_mask(m)[0] for found in groups.values() for _, m in found
                    if m["env"] is None}
    referenced = set()  # native masks of other sources that decoded a source's masked runs
    for s, found in groups.items():
        source = sources[s]
        if all(m["env"] is None for _, m in found):
            continue  # no run of this source set a mask: nothing was switched off to name
        natives = {_cpuinfo_mask(m)[0] for _, m in found if m["env"] is None}
        native = natives.pop() if len(natives) == 1 else None
        for p, m in found:
            ref, (mask, env) = native, _cpuinfo_mask(m)
            if ref is None and env is not None:
                # another file's run without a mask, of this CPU: the one whose mask the value
                # turns into this run's (a folder of native.txt and no-aesni.txt)
                twins = [n for n in every_native if _reproduces(n, env, mask)]
                if len(twins) == 1:
                    ref = twins[0]
                    referenced.add(ref)
                else:
                    try:  # every documented bit on: what the value asks to clear
                        ref, mask = asked_masks(env)
                    except ValueError:
                        continue
                    warnings.warn(f"{source}: no run without OPENSSL_{m['cap']} to compare with, "
                                  f"so isa_off lists what OPENSSL_{m['cap']}={m['env']} asks to "
                                  f"switch off, whether or not this CPU had it", IngestWarning,
                                  stacklevel=2)
            if ref is not None:
                labels[p] = (isa_off(ref, mask), aesni_state(ref, mask))
    for found in groups.values():  # the other files' runs that served: nothing was off there
        for p, m in found:
            ref = _cpuinfo_mask(m)[0]
            if m["env"] is None and p not in labels and ref in referenced:
                labels[p] = (isa_off(ref, ref), aesni_state(ref, ref))
    if not labels:
        return frame

    def per_row(i: int) -> pd.Categorical:
        """Label ``i`` of each row's pair: a categorical built on the pairs, expanded by codes."""
        pairs = pd.Series([labels.get(p, (None, None))[i] for p in range(len(distinct))],
                          dtype="object").astype("category")
        codes = np.repeat(pairs.cat.codes.to_numpy()[pair_of_segment], widths)
        return pd.Categorical.from_codes(codes, dtype=pairs.dtype)

    decoded = per_row(0)
    if "isa_off" in frame.columns:  # a capture's own label (decoded against its native) stays
        decoded = _filled(frame["isa_off"], decoded)
    out = frame.assign(isa_off=decoded)
    derived = per_row(1)
    if "aesni" not in frame.columns:
        out["aesni"] = _filled(None, derived)
        return out
    given = pd.Categorical(frame["aesni"])
    clash = np.asarray(given == "off") & (decoded.codes != -1) & (derived.codes == -1)
    if clash.any():
        what = sorted(set(out.loc[clash, "isa_off"].astype(str)))
        warnings.warn(f"{', '.join(map(str, frame.loc[clash, 'source'].unique()))}: rows labelled "
                      f"aesni=off ran with a mask that switched off {' / '.join(what)} (the isa_off "
                      f"column): their speed-up is not AES-NI's alone", IngestWarning,
                      stacklevel=2)
    out["aesni"] = _filled(given, derived)
    return out


def label_asked(frame, *, stacklevel: int = 3):
    """``isa``, ``isa_off`` and ``aesni`` of rows whose ``isa_mask`` is an ``OPENSSL_ia32cap``
    value the text says they ran under, where no ``cpuinfo`` mask decoded them: what the value
    asks to clear, every documented bit taken as on (the CPU's own mask is not in the text), as
    :func:`label_masks` decodes a ``CPUINFO`` line's ``env:`` without a native run, and with the
    same :class:`~cipherlab.errors.IngestWarning`. ``isa`` is the preset the value is
    (:data:`ISA_PRESETS`), else the value itself, as a capture names its condition; ``aesni``
    only where nothing but the AES instructions would go (:func:`aesni_state`). Rows without a
    stated value get nothing: the text does not say they ran without one.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"source": "a.txt", "isa_mask": [None, "~0x200000200000000:~0x60000000000"]})
    >>> label_asked(df)[["isa", "isa_off", "aesni"]].astype(object).values.tolist()
    [[nan, nan, nan], ['no-aesni', 'aesni+pclmulqdq+vaes+vpclmulqdq', 'off']]
    """
    from cipherlab.errors import IngestWarning
    if "isa_mask" not in frame.columns or frame.empty:
        return frame
    todo = frame["isa_mask"].notna()
    if "isa_off" in frame.columns:
        todo &= frame["isa_off"].isna()
    if not todo.any():
        return frame
    decoded: dict[str, tuple] = {}
    pairs = frame.loc[todo, ["source", "isa_mask"]].astype(str).drop_duplicates()  # (a few)
    for source, value in pairs.itertuples(index=False):
        arm = value.startswith(ARM_PREFIX)
        if value not in decoded:
            try:
                everything, mask = asked_masks(value)
            except ValueError:
                continue  # (not a mask: kept as written, nothing decoded)
            name = next((n for n, v in ISA_PRESETS.items() if v == value), value)
            decoded[value] = (name, isa_off(everything, mask), aesni_state(everything, mask))
        variable = f"OPENSSL_armcap={value[len(ARM_PREFIX):]}" if arm else f"OPENSSL_ia32cap={value}"
        warnings.warn(f"{source}: the mask in effect is not in the text (no CPUINFO line), so "
                      f"isa_off lists what {variable} asks to switch off, whether "
                      f"or not this CPU had it", IngestWarning, stacklevel=stacklevel)
        if arm and not arm_value(value[len(ARM_PREFIX):])[1]:
            warnings.warn(f"{source}: OPENSSL_armcap={value[len(ARM_PREFIX):]} is no number: "
                          f"OpenSSL reads it as {arm_value(value[len(ARM_PREFIX):])[0]:#x} (the "
                          f"value replaces the capability word; there is no '~'), so every "
                          f"feature not in that number was off", IngestWarning,
                          stacklevel=stacklevel)
    if not decoded:
        return frame
    asked = frame["isa_mask"].astype("category").where(todo)
    out = frame.copy(deep=False)  # (columns are set on it, not changed: no need to copy the data)
    for i, column in enumerate(("isa", "isa_off", "aesni")):
        fill = asked.map({value: got[i] for value, got in decoded.items()})
        if column not in frame.columns and fill.isna().all():
            continue  # (aesni: the value switches off more than the AES instructions)
        out[column] = _filled(frame[column] if column in frame.columns else None, fill)
    return out


def _codes(column):
    """A column's integer codes (-1 where missing) and the values they stand for: a
    categorical's own, without a pass over its rows."""
    import pandas as pd
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.codes.to_numpy(), column.cat.categories
    return pd.factorize(column)


def _filled(given, fill):
    """``given`` with its missing values taken from ``fill`` (two categorical columns of a frame;
    ``given`` None: the frame has no such column yet): joined on codes, no object per row (20 MB
    for 200,000 rows), with the used categories sorted, as ``str``, as ingest makes them."""
    import numpy as np
    import pandas as pd
    fill = pd.Categorical(fill)
    given = pd.Categorical(given) if given is not None else fill[:0]
    union = pd.Index(sorted({*given.categories, *fill.categories}), dtype="str")
    codes = fill.set_categories(union).codes
    if len(given):
        kept = given.set_categories(union).codes
        codes = np.where(kept == -1, codes, kept)
    return pd.Categorical.from_codes(codes, categories=union).remove_unused_categories()
