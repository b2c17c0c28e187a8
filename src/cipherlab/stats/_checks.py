"""Plausibility and comparability checks: ``lint`` and ``comparable``.

Why this module exists: the worst errors in cipher benchmarks are not statistical. A rate timed
in user CPU time while the kernel did the work, two openssl versions whose AEAD loop means
different things, a 1.1.1 legacy name that never used AES-NI, a ``-multi`` sum beside a single
process: each gives a clean-looking number that answers a different question. These checks find
them and say why (measurement-notes §1 and §3), so no such row silently enters a comparison.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from cipherlab.algorithms import aead_loop_changed, is_aes, is_public_key
from cipherlab.errors import ComparabilityWarning, PlausibilityWarning
from cipherlab.runners._isa import aes_name
from cipherlab.stats._clock import resolve_clock
from cipherlab.stats._common import (MACHINE_KEYS, RUN_KEYS, as_list, condition_keys, map_unique,
                                     require_columns)
from cipherlab.stats._common import warn as _warn

__all__ = ["aead_era", "comparable", "lint", "physical_floor", "speed_loop"]

# ---------------------------------------------------------------------------------------------
# The AEAD-loop boundary. Source: openssl PR #25823 (Nov 2024), backported to 3.0-3.3, as
# summarised in measurement-notes §1.3 (and user reports openssl #27513, #28063). From these
# releases on, `openssl speed` runs a full init/IV/AAD/update/final/tag per GCM/CCM/OCB/SIV
# message; before, one context streamed updates.
#   3.0.16+, 3.1.8+, 3.2.4+, 3.3.3+ and 3.4.0+ (and every later major/minor): "new"
#   3.0.0-3.0.15, 3.1.0-3.1.7, 3.2.0-3.2.3, 3.3.0-3.3.2, all 1.x and 0.x:       "old"
_AEAD_NEW_FROM_PATCH = {(3, 0): 16, (3, 1): 8, (3, 2): 4, (3, 3): 3}
_VERSION_RE = re.compile(r"(\d+)\.(\d+)\.(\d+)")
_NOT_OPENSSL = {"libressl", "boringssl", "cryptography", "tls", "ssleay",
                "jdk", "jsse", "gnutls"}  # the JDK and GnuTLS have their own versions


def _version(text) -> tuple[int, int, int] | None:
    m = _VERSION_RE.search(str(text)) if text is not None else None
    return tuple(int(g) for g in m.groups()) if m else None  # type: ignore[return-value]


def aead_era(tool_version) -> str | None:
    """Which side of openssl's AEAD-loop change (PR #25823) a version is on: old, new or None.

    Examples
    --------
    >>> [aead_era(v) for v in ["3.0.15", "3.0.16", "3.1.7", "3.1.8", "3.3.2", "3.3.3", "3.4.0",
    ...                        "1.1.1w", "0.9.8g", "garbage"]]
    ['old', 'new', 'old', 'new', 'old', 'new', 'new', 'old', 'old', None]
    """
    v = _version(tool_version)
    if v is None:
        return None
    major, minor, patch = v
    if major < 3:
        return "old"
    if (major, minor) in _AEAD_NEW_FROM_PATCH:
        return "new" if patch >= _AEAD_NEW_FROM_PATCH[(major, minor)] else "old"
    return "new"  # 3.4.0 and later


def _text_of(df: pd.DataFrame, cols, i: int) -> str:
    """The values of ``cols`` in row ``i`` joined by blanks (missing columns/values skipped)."""
    return " ".join(str(df[c].iloc[i]) for c in cols if c in df.columns and pd.notna(df[c].iloc[i]))


def _per_unique_rows(df: pd.DataFrame, cols, fn) -> np.ndarray:
    """``fn(text)`` once per distinct combination of ``cols`` (text as in :func:`_text_of`)."""
    present = [c for c in cols if c in df.columns]
    if not present or df.empty:
        return np.array([fn("")] * len(df), dtype=object)
    combined = np.zeros(len(df), dtype=np.int64)
    for c in present:
        s = df[c]
        codes = (s.cat.codes.to_numpy() if isinstance(s.dtype, pd.CategoricalDtype)
                 else pd.factorize(s.astype("object"))[0])
        combined = combined * (int(codes.max()) + 2) + codes + 1
    _, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
    mapped = np.empty(len(first), dtype=object)
    mapped[:] = [fn(_text_of(df, present, i)) for i in first]
    return mapped[inverse.ravel()]


def _is_openssl(df: pd.DataFrame) -> np.ndarray:
    if "tool" not in df.columns:
        return np.ones(len(df), dtype=bool)
    return map_unique(df["tool"], lambda t: t is None or str(t).lower() not in _NOT_OPENSSL
                       ).astype(bool)


# ---------------------------------------------------------------------------------------------
# comparable


_MESSAGES = {
    "timing": ("rows compared were timed on different bases ({values}): openssl speed divides by "
               "user CPU time by default, by wall-clock time with -elapsed and in -multi children "
               "(measurement-notes §1.2); a ratio across timing bases mixes two units of time."),
    "aead-loop": ("AEAD rows (GCM/CCM/OCB/SIV) come from openssl versions on both sides of the "
                  "AEAD-loop change ({values}): from 3.0.16, 3.1.8, 3.2.4, 3.3.3 and 3.4.0 on "
                  "(openssl PR #25823) every message runs a full init/IV/AAD/final/tag, before "
                  "one context streamed updates; small-block figures are not like for like "
                  "(measurement-notes §1.3, openssl #27513, #28063)."),
    "legacy-names": ("rows use 1.x legacy names such as 'aes-128 cbc' (openssl speed without "
                     "-evp), which call the low-level AES API and never use AES-NI (openssl "
                     "#17813, #20391), in an ISA comparison; compare `openssl speed -evp` rows "
                     "instead (measurement-notes §1.4)."),
    "speed-loop": ("rows of one cipher were timed by different loops of openssl speed ({values}): "
                   "a cipher named without -evp runs the low-level API (0.9.8-1.1.1, printed "
                   "'aes-128 cbc') or EVP_Cipher (3.x, printed in lowercase), with -evp it runs "
                   "EVP_EncryptUpdate (printed as the provider names it, 'AES-128-CBC'); their "
                   "per-call costs differ, so pooled they are not replicates of one cell. Compare "
                   "one loop (cipherlab.stats.speed_loop(df) tells them apart; measurement-notes "
                   "§1.4)."),
    "tool": ("rows measured by different tools ({values}) fall into the same cell and would be "
             "pooled (openssl speed, Python cryptography and TLS transfers time different "
             "things); add 'tool' to `groupby`, or compare by='tool'."),
    "version": ("rows compared come from different {tool} versions ({values}): code, defaults and "
                "benchmark loops change between releases, so a ratio also measures the version."),
    "build": ("rows compared come from different builds ({values}): build options, compiler and "
              "assembler flags (e.g. -DAES_ASM) decide which implementation runs."),
    "cpu": ("rows compared ran on different CPUs ({values}): the ratio also measures the CPU."),
    "clock": ("rows compared have different clocks ({values}); per-GHz figures assume throughput "
              "scales with the clock, and a nominal clock (from a label or CPU name) is not the "
              "clock the run had."),
    "wheel-openssl": ("Python cryptography rows use the OpenSSL bundled in its wheel, not the "
                      "system's that openssl speed rows measure ({values}): a Python/openssl ratio "
                      "also compares two OpenSSL versions."),
    "condition": ("rows compared also differ in the condition {column} ({values}), besides what "
                  "is compared: a ratio measures both; compare like with like, or make it the "
                  "comparison (by={column!r})."),
    "multi": ("rows mix -multi runs (the sum over child processes, timed on wall clock) with "
              "other process counts ({values}); compare like with like, or one process's rate "
              "with cipherlab.stats.per_process(df) and metric='bytes_per_s_per_process' "
              "(measurement-notes §1.7)."),
}
_ISA_COLUMNS = ("aesni", "isa", "isa_mask", "isa_off")
_ASM_RE = re.compile(r"-D(\w+_ASM)\b|-D(OPENSSL_IA32_SSE2)\b|\b(no-asm)\b|-D(OPENSSL_NO_ASM)\b")
_UNKNOWN_RE = re.compile(r"not available|^\s*$", re.IGNORECASE)
_BACKEND_RE = re.compile(r"OpenSSL\s+(\d+\.\d+\.\d+\w*)", re.IGNORECASE)


def _asm(compiler) -> str:
    """The assembler flags a compiler line states ("none" when it states flags but no asm)."""
    if compiler is None or _UNKNOWN_RE.search(str(compiler)):
        return "not stated"
    text = str(compiler)
    flags = sorted({g for m in _ASM_RE.finditer(text) for g in m.groups() if g})
    return " ".join(flags) if flags else ("none" if "-D" in text else "not stated")


def _builds(df: pd.DataFrame) -> pd.Series:
    """A build's identity per row: its options and the assembler flags of its compiler line."""
    none = np.full(len(df), None, dtype=object)
    opts = (map_unique(df["options"], lambda v: None if v is None or _UNKNOWN_RE.search(str(v))
                       else str(v)) if "options" in df.columns else none)
    asm = map_unique(df["compiler"], _asm) if "compiler" in df.columns else np.full(
        len(df), "not stated", dtype=object)
    text = [None if o is None and a == "not stated" else f"{o or 'options not stated'} (asm: {a})"
            for o, a in zip(opts, asm)]
    return pd.Series(text, index=df.index, dtype=object)


def _clock_text(df: pd.DataFrame) -> pd.Series:
    """Each row's clock and its kind as text (``750 MHz nominal``), None without a clock."""
    from cipherlab.stats._clock import _resolve

    hz, kind = _resolve(df)
    hc = pd.factorize(hz)[0].astype(np.int64)
    kc = pd.factorize(pd.Series(kind, dtype=object))[0].astype(np.int64)
    _, first, inverse = np.unique((hc + 1) * (int(kc.max()) + 2) + kc + 1, return_index=True,
                                  return_inverse=True)  # format once per distinct clock
    text = np.array([None if np.isnan(hz[i]) else f"{hz[i] / 1e6:,.0f} MHz {kind[i]}"
                     for i in first], dtype=object)
    return pd.Series(text[inverse.ravel()], index=df.index, dtype=object)


def _openssl_of(df: pd.DataFrame) -> pd.Series:
    """The OpenSSL version each row ran on: the app's, or the one in a cryptography wheel."""
    version = (df["tool_version"].astype("object") if "tool_version" in df.columns
               else pd.Series(None, index=df.index, dtype=object))
    out = version.where(pd.Series(_is_openssl(df), index=df.index), None)
    if "backend" in df.columns:
        wheel = pd.Series(map_unique(df["backend"], lambda b: (
            f"{_BACKEND_RE.search(str(b))[1]} (cryptography wheel)"
            if b is not None and _BACKEND_RE.search(str(b)) else None)), index=df.index)
        out = out.where(wheel.isna(), wheel)
    return out
# The loops of `openssl speed` that time a symmetric cipher, as speed.c names them
_EVP, _NAMED, _LOW_LEVEL = "-evp (EVP_EncryptUpdate)", "named (EVP_Cipher)", "named (low-level API)"
# openssl's own output, where the printed name is the one speed.c printed (a document table's
# 'AES-256 CBC' was typed by a person and says nothing about the loop)
_OWN_DIALECTS = frozenset({"text", "mr", "progress"})


def _loop_of(version, name) -> str | None:
    """The loop a cipher row printed as ``name`` by openssl ``version`` came from, or None."""
    v, name = _version(version), str(name).strip() if name is not None else ""
    if v is None or not name:
        return None
    if name == "evp":  # -multi's and -mb's parent rows up to 3.0.9/3.1.1
        return _EVP
    if v >= (3, 0, 0):  # -evp prints the provider's name, the named tests speed.c's lowercase one
        return _EVP if name != name.lower() else _NAMED
    if name != name.lower():
        return None
    # 0.9.8-1.1.1: the named tests print 'aes-128 cbc', 'des ede3'; -evp the object's long name
    # 'aes-128-cbc' ('rc4' is both)
    return _LOW_LEVEL if " " in name else _EVP if "-" in name else None


def speed_loop(df: pd.DataFrame) -> pd.Series:
    """Which loop of ``openssl speed`` timed each cipher row, from its version and printed name.

    ``openssl speed aes-128-cbc`` (a *named* test) and ``openssl speed -evp aes-128-cbc`` time
    different code: up to 1.1.1 the named test calls the low-level API (``AES_cbc_encrypt``,
    printed ``aes-128 cbc``, no AES-NI), from 3.0 ``EVP_Cipher`` (printed ``aes-128-cbc``);
    ``-evp`` calls ``EVP_EncryptUpdate`` and prints the cipher's EVP name (``aes-128-cbc`` up to
    1.1.1, the provider's ``AES-128-CBC`` from 3.0). Their per-call costs differ, so the same
    cipher and block size measured both ways are two cells, not replicates of one.

    Returns a Series of ``"-evp (EVP_EncryptUpdate)"``, ``"named (EVP_Cipher)"``, ``"named
    (low-level API)"`` or NA: NA for rows that are not ciphers or not openssl's, whose version
    is unknown, whose name both loops print (``rc4`` before 3.0), or that a person retyped (a
    document table's ``dialect``).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"tool": "openssl", "algorithm": "aes-128-cbc", "operation": "encrypt",
    ...                    "tool_version": ["3.0.19", "3.0.19", "1.1.1w", "1.1.1w"],
    ...                    "name": ["AES-128-CBC", "aes-128-cbc", "aes-128-cbc", "aes-128 cbc"]})
    >>> speed_loop(df).tolist()
    ['-evp (EVP_EncryptUpdate)', 'named (EVP_Cipher)', '-evp (EVP_EncryptUpdate)', 'named (low-level API)']
    """
    require_columns(df, ["tool_version", "name", "algorithm", "operation"], what="speed_loop")
    # a cipher's rows encrypt or decrypt (RSA's, from 3.2, are public-key rows)
    cipher = (df["operation"].astype("object").isin(["encrypt", "decrypt"]).to_numpy()
              & ~map_unique(df["algorithm"], is_public_key).astype(bool))
    own = (map_unique(df["dialect"], lambda d: d is None or d in _OWN_DIALECTS).astype(bool)
           if "dialect" in df.columns else np.ones(len(df), dtype=bool))
    pairs = pd.MultiIndex.from_arrays([df["tool_version"].astype("object"),
                                       df["name"].astype("object")])
    codes, uniques = pd.factorize(pairs)
    loops = np.array([_loop_of(v, n) for v, n in uniques] + [None], dtype=object)[codes]
    keep = cipher & own & _is_openssl(df)
    return pd.Series(np.where(keep, loops, None), index=df.index, dtype="object")


def _mixed(gid, attr, valid):
    """Rows in groups (ids ``gid``) where ``attr`` takes more than one value among ``valid`` rows.

    Vectorised: count the distinct (group, value) pairs per group with numpy.
    """
    codes, uniques = pd.factorize(pd.Series(attr).astype("object"), use_na_sentinel=True)
    valid = valid & (codes >= 0)
    if not valid.any():
        return np.zeros(len(gid), dtype=bool), []
    g, a = gid[valid], codes[valid]
    width = int(a.max()) + 1
    pairs = np.unique(g.astype(np.int64) * width + a)
    distinct = np.bincount(pairs // width, minlength=int(gid.max()) + 1)
    bad = valid & (distinct[gid] > 1)
    values = sorted({str(uniques[c]) for c in np.unique(codes[bad])})
    return bad, values


def comparable(df: pd.DataFrame, *, by: str | None = None, groupby=None, warn: bool = True,
               metric: str | None = None) -> pd.DataFrame:
    """Check that rows about to be compared were measured like for like.

    Rows are compared within each group of ``groupby`` (default: the whole table is one
    comparison). Each check emits one :class:`~cipherlab.errors.ComparabilityWarning`:

    ``version``
        different versions of the tool (not when ``by`` is ``tool_version`` or ``tool``).
    ``build``
        different build options / compiler lines, each shown with the assembler flags it states
        (``-DAES_ASM``, ``-DOPENSSL_IA32_SSE2``, ``no-asm``).
    ``cpu``
        different CPUs (the ``cpu`` column).
    ``clock``
        different clocks, each shown with its kind: nominal (from a label or CPU name) or
        reported by the host (see :func:`clock_source`).
    ``wheel-openssl``
        Python ``cryptography`` rows (the OpenSSL bundled in the wheel, from ``backend``) beside
        ``openssl speed`` rows of another OpenSSL version.

    ``timing``
        different known timing bases (``cpu`` vs ``elapsed``), measurement-notes §1.2.
    ``aead-loop``
        AEAD rows from openssl versions on both sides of PR #25823 (boundary table in
        :func:`aead_era`), §1.3.
    ``legacy-names``
        1.x legacy AES names (no AES-NI) mixed with EVP rows, or used in an ISA comparison
        (``by`` in ``aesni``/``isa``/``isa_mask``), §1.4.
    ``tool``
        rows of different tools (openssl, cryptography, tls) in one group, unless the
        comparison is ``by="tool"``.
    ``multi``
        ``-multi`` runs beside other process counts, §1.7 (not for a ``metric`` of one process,
        ``bytes_per_s_per_process`` of :func:`per_process`: it puts the counts on one scale).

    Parameters
    ----------
    df : DataFrame
        Tidy table.
    by : str, optional
        The column the comparison is about (used by the legacy-names check).
    groupby : str or list of str, optional
        Compare only within these groups (e.g. ``["algorithm", "operation"]``).
    metric : str, optional
        The rate the comparison reads (``compare``'s ``metric``).
    warn : bool
        Emit the warnings (the returned frame is the same either way).

    Returns
    -------
    DataFrame
        One row per finding and run: ``check``, ``message``, ``source``, ``run``, ``label``,
        ``tool_version``, ``timing``, ``multi``, ``value`` (the attribute that differs).
        Empty when everything is comparable.

    Examples
    --------
    >>> import warnings, pandas as pd
    >>> df = pd.DataFrame({"source": ["a.txt", "b.txt"], "run": 0, "label": ["old", "new"],
    ...                    "tool": "openssl", "tool_version": ["3.0.15", "3.0.16"],
    ...                    "timing": "cpu", "algorithm": "aes-128-gcm",
    ...                    "name": "AES-128-GCM", "bytes_per_s": [8.6e8, 1.1e8]})
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     found = comparable(df)
    >>> found[["check", "label", "value"]]
           check label   value
    0  aead-loop   old     old
    1  aead-loop   new     new
    2    version   old  3.0.15
    3    version   new  3.0.16
    >>> w[0].category.__name__
    'ComparabilityWarning'
    """
    require_columns(df, [], what="comparable")
    keys = as_list(groupby)
    require_columns(df, keys, what="comparable `groupby`")
    findings = []
    n = len(df)
    everything = np.ones(n, dtype=bool)
    gid = (df.groupby(keys, observed=True, dropna=False, sort=False).ngroup().to_numpy()
           if keys and n else np.zeros(n, dtype=np.int64))
    if "timing" in df.columns:
        timing = df["timing"].astype("object")
        bad, values = _mixed(gid, timing, timing.notna().to_numpy())
        findings.append(("timing", bad, timing, values))
    if "tool_version" in df.columns and "algorithm" in df.columns:
        is_aead = map_unique(df["algorithm"], lambda a: bool(a) and aead_loop_changed(a))
        is_aead = is_aead.astype(bool) & _is_openssl(df)
        era = pd.Series(map_unique(df["tool_version"], aead_era), index=df.index)
        bad, values = _mixed(gid, era, is_aead & era.notna().to_numpy())
        findings.append(("aead-loop", bad, era, values))
    if {"tool_version", "name", "algorithm", "operation"} <= set(df.columns):
        loop = speed_loop(df)
        known = loop.notna().to_numpy()
        bad, values = _mixed(gid, loop, known)
        findings.append(("speed-loop", bad, loop, values))
        if by in _ISA_COLUMNS:
            # 1.0.1 brought AES-NI to EVP only: its low-level AES rows never use it
            legacy = (loop.eq(_LOW_LEVEL).to_numpy(dtype=bool)
                      & map_unique(df["algorithm"], is_aes).astype(bool)
                      & map_unique(df["tool_version"],
                                   lambda v: (1, 0, 1) <= (_version(v) or (0, 0, 0))).astype(bool))
            findings.append(("legacy-names", legacy, loop, ["low-level API"] if legacy.any() else []))
    if "tool" in df.columns and by != "tool" and "tool" not in keys:
        tool = df["tool"].astype("object")
        bad, values = _mixed(gid, tool, tool.notna().to_numpy())
        findings.append(("tool", bad, tool, values))
    skip = {by, *keys}
    if "tool_version" in df.columns and not skip & {"tool_version", "tool"}:
        version = df["tool_version"].astype("object")
        bad, values = _mixed(gid, version, version.notna().to_numpy() & _is_openssl(df))
        findings.append(("version", bad, version, values))
    if {"options", "compiler"} & set(df.columns) and not skip & {"options", "compiler"}:
        build = _builds(df)
        bad, values = _mixed(gid, build, build.notna().to_numpy())
        findings.append(("build", bad, build, values))
    if "cpu" in df.columns and not skip & {"cpu", "host"}:
        cpu = df["cpu"].astype("object")
        bad, values = _mixed(gid, cpu, cpu.notna().to_numpy())
        findings.append(("cpu", bad, cpu, values))
    if not skip & {"clock_hz"}:
        clock = _clock_text(df)
        bad, values = _mixed(gid, clock, clock.notna().to_numpy())
        findings.append(("clock", bad, clock, values))
    if "backend" in df.columns and "tool" in df.columns:
        ssl = _openssl_of(df)
        wheel = ssl.astype(str).str.endswith("wheel)").to_numpy()
        has_wheel = np.bincount(gid, weights=wheel, minlength=int(gid.max()) + 1 if n else 0) > 0
        bad, values = _mixed(gid, ssl, ssl.notna().to_numpy() & has_wheel[gid])
        findings.append(("wheel-openssl", bad, ssl, values))
    if "multi" in df.columns and not str(metric).endswith("_per_process"):
        procs = pd.to_numeric(df["multi"], errors="coerce").fillna(1)
        bad, values = _mixed(gid, procs, everything)
        findings.append(("multi", bad, procs, [f"{float(v):g} process(es)" for v in values]))
    # conditions a grouping leaves out that still differ (a masked run of one host beside an
    # unmasked paste of another): stated against not stated counts, as a side's blank is a level
    # (without `by`, what is compared is not known: a condition may be it). The ISA columns
    # describe one switch: compared by one, or within a preset named on every row (each
    # library's own switch under `isa=no-aesni`), the others say what it switched off.
    isa_by = by in _ISA_COLUMNS or any(k in _ISA_COLUMNS and df[k].notna().all() for k in keys)
    # (machines have the checks above; a float column is a measurement, e.g. a rate per GHz)
    for c in condition_keys(df, exclude={*skip, *MACHINE_KEYS}) if by is not None else ():
        if (isa_by and c in _ISA_COLUMNS) or pd.api.types.is_float_dtype(df[c].dtype):
            continue
        cond = df[c].astype("object").where(df[c].notna(), "not stated")
        bad, values = _mixed(gid, cond, everything)
        findings.append((("condition", c), bad, cond, values))
    frames = []
    for check, bad, attr, values in findings:
        if not bad.any():
            continue
        tool = ", ".join(sorted(map(str, df.loc[bad, "tool"].astype("object").dropna().unique()))
                         ) if "tool" in df.columns else "tool"
        check, column = check if isinstance(check, tuple) else (check, None)
        message = _MESSAGES[check].format(values=", ".join(map(str, values)), tool=tool or "tool",
                                          column=column)
        rows = df.loc[bad]
        cols = [c for c in (*RUN_KEYS, "tool_version", "timing", "multi") if c in rows.columns]
        found = rows[cols].astype("object").assign(value=attr[bad].astype(str).to_numpy())
        found = found.drop_duplicates().reset_index(drop=True)
        found.insert(0, "message", message)
        found.insert(0, "check", check)
        frames.append(found)
        if warn:
            runs = len(found)
            _warn(f"{message} ({runs} run(s); see cipherlab.stats.comparable(df))",
                 ComparabilityWarning)
    from cipherlab.stats._export import StatsResult

    if not frames:
        return StatsResult(pd.DataFrame(columns=["check", "message", *RUN_KEYS, "tool_version",
                                                 "timing", "multi", "value"]))
    return StatsResult(pd.concat(frames, ignore_index=True))


# ---------------------------------------------------------------------------------------------
# lint: the physical limit (measurement-notes §3)

# Floors in cycles per byte, chosen *below* the best published figure for each class so that a
# row under the floor is impossible, not merely fast. AES figures are for AES-128 (10 rounds);
# AES-192/256 scale by 12/10 and 14/10 rounds.
#   any CPU, parallel AES modes (ECB/CTR/GCM/OCB/XTS, CBC decrypt): 0.15 < 0.16 cpb, the
#       theoretical 512-bit VAES bound (Drucker, Gueron & Krasnov, "Making AES great again").
#   any CPU, serial AES modes (CBC/CFB/OFB encrypt, CCM): 1.0 < ~1.9-2.6 cpb, AES-NI latency-bound
#       CBC-encrypt on Ice Lake/Skylake (aesni-x86_64.pl; measurement-notes §3: Skylake 2.62).
#   no AES-NI (aesni=off or in isa_off, no-asm, CPUs before 2010): 4.0 < ~6-7 cpb bitsliced CTR (Käsper &
#       Schwabe 2009) and ~10 cpb vpaes (vpaes-x86_64.pl header).
#   VIA PadLock (C3/C7/Nano): 0.75 < ~1.9 cpb measured for AES-256-CBC on a C3 Nehemiah
#       (implementation-tiers seed: 520 MB/s at 1.0 GHz, i.e. 1.4 cpb scaled to AES-128).
# Other families, any CPU: SHA-1 0.7 (SHA-NI ~1.5-2), SHA-256 1.0 (SHA-NI ~1.8-2), SHA-512 1.5
# (AVX2 ~5), MD5 3.0 (serial, ~4.5), ChaCha20 0.25 (AVX-512 ~0.5), DES 5, 3DES 15, RC4 1.0,
# Blowfish 4 (openssl's perlasm headers for each).
_AES_FLOORS = {"parallel": 0.15, "serial": 1.0, "no-aesni": 4.0, "via": 0.75}
_OTHER_FLOORS = {"sha1": 0.7, "sha224": 1.0, "sha256": 1.0, "sha384": 1.5, "sha512": 1.5,
                 "md5": 3.0, "chacha20": 0.25, "chacha20-poly1305": 0.3, "des-cbc": 5.0,
                 "des-ede3-cbc": 15.0, "rc4": 1.0, "bf-cbc": 4.0}
_SERIAL_MODES = ("cbc", "cfb", "cfb1", "cfb8", "ofb", "ccm")
#: Clock assumed when none is known: above the fastest shipping boost clocks (~6.2 GHz).
MAX_CLOCK_HZ = 6.5e9
_VIA_RE = re.compile(r"\bVIA\b|Nehemiah|\bC3\b|\bC7\b|\bLuke\b|\bEden\b|\bEsther\b|\bNano\b",
                     re.IGNORECASE)
_OLD_CPU_RE = re.compile(r"\bP[234]\b|Pentium|Celeron|Athlon|Duron|Core ?2|Opteron|Sempron|"
                         r"\bAtom\b|PowerPC|UltraSPARC|\bG[345]\b", re.IGNORECASE)
# The models of those brands that have AES instructions (Intel ARK, AMD's specifications): the
# Celerons and Pentiums of Braswell, Apollo, Gemini and Jasper Lake (J/N3000-6999), Pentium
# Silver and Gold, Skylake's and later desktop G4000-G7999; Atoms since Silvermont (C2000,
# C3000, Z3000, E3900, x5/x7); Zen's Athlons (200GE, 3000G, Silver, Gold); Bulldozer's Opterons
# (3200/3300, 4200/4300, 6200/6300). "Celeron J4125" names a CPU with AES-NI.
_AES_MODEL_RE = re.compile(
    r"(?:Celeron|Pentium)(?:\(R\))?\s*(?:CPU\s*)?(?:(?:Silver|Gold)\b|[JN][3-6]\d{3}|G[4-7]\d{3})|"
    r"Atom(?:\(TM\))?\s*(?:CPU\s*)?(?:C[23]\d{3}|Z3\d{3}|E3\d{3}|x[57]-[ZE]\d{4}|P5\d{3})|"
    r"Athlon(?:\(tm\))?\s*(?:Silver|Gold|PRO\s+\d{3}|\d{3,4}G)|Opteron(?:\(tm\))?\s*"
    r"(?:Processor\s*)?[346][23]\d{2}\b", re.IGNORECASE)
_KERNEL_RE = re.compile(r"kernel|afalg|af_alg|devcrypto|cryptodev", re.IGNORECASE)
_AES_RE = re.compile(r"^aes-(128|192|256)-([a-z0-9]+)")
#: The AES instructions a mask's ``isa_off`` names: x86's AES-NI and ARMv8's.
_AES_INSTRUCTIONS = frozenset({"aesni", "aes"})


def physical_floor(algorithm: str, operation: str = "encrypt", cpu_class: str = "any") -> float:
    """The lowest cycles per byte any CPU of ``cpu_class`` can reach for ``algorithm``.

    ``cpu_class`` is ``"any"``, ``"no-aesni"`` or ``"via"``; NaN for algorithms with no floor.
    The table and its sources are in this module's source (measurement-notes §3).

    Examples
    --------
    >>> (physical_floor("aes-128-gcm"), physical_floor("aes-256-cbc"),
    ...  physical_floor("aes-256-cbc", cpu_class="via"))
    (0.15, 1.4, 1.05)
    >>> physical_floor("hmac(sha256)"), physical_floor("idea-cbc")
    (1.0, nan)
    """
    algorithm = str(algorithm).lower()
    m = _AES_RE.match(algorithm)
    if m:
        scale = {"128": 1.0, "192": 1.2, "256": 1.4}[m.group(1)]
        mode = m.group(2)
        if cpu_class in ("no-aesni", "via"):
            return round(_AES_FLOORS[cpu_class] * scale, 6)
        serial = mode in _SERIAL_MODES and not (mode == "cbc" and operation == "decrypt")
        return round(_AES_FLOORS["serial" if serial else "parallel"] * scale, 6)
    inner = re.fullmatch(r"hmac\((.+)\)", algorithm)
    return _OTHER_FLOORS.get(inner.group(1) if inner else algorithm, np.nan)


def _cpu_class(df: pd.DataFrame) -> np.ndarray:
    klass = _per_unique_rows(df, ("label", "cpu"), lambda t: "via" if _VIA_RE.search(t) else (
        "no-aesni" if _OLD_CPU_RE.search(t) and not _AES_MODEL_RE.search(t) else "any"))
    if "aesni" in df.columns:
        off = map_unique(df["aesni"], lambda v: str(v).lower() in ("off", "no", "false"))
        klass = np.where(off.astype(bool) & (klass == "any"), "no-aesni", klass)
    if "isa_off" in df.columns:  # a mask that switched the AES instructions off (x86's AES-NI,
        # ARMv8's aes), whatever else went with it
        off = map_unique(df["isa_off"], lambda v: not _AES_INSTRUCTIONS.isdisjoint(
            str(v).split("+")))
        klass = np.where(off.astype(bool) & (klass == "any"), "no-aesni", klass)
    if "tier" in df.columns:
        c_only = map_unique(df["tier"], lambda v: "no-asm" in str(v).lower())
        klass = np.where(c_only.astype(bool) & (klass == "any"), "no-aesni", klass)
    return klass


def _limit_findings(df: pd.DataFrame, clock_hz) -> tuple[np.ndarray, list[str], pd.DataFrame]:
    rate = pd.to_numeric(df["bytes_per_s"], errors="coerce").to_numpy(float, na_value=np.nan)
    algo = df["algorithm"].astype("object").fillna("").astype(str).to_numpy()
    op = (df["operation"].astype("object").fillna("encrypt").astype(str).to_numpy()
          if "operation" in df.columns else np.full(len(df), "encrypt"))
    klass = _cpu_class(df)
    # one floor per distinct (algorithm, operation, class): combine the codes of each column
    parts = [pd.factorize(col) for col in (algo, op, klass)]
    combined = np.zeros(len(df), dtype=np.int64)
    for codes, uniques in parts:
        combined = combined * (len(uniques) + 1) + codes
    uniq_codes, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
    floors = np.array([physical_floor(algo[i], op[i], klass[i]) for i in first])[inverse]
    clock = resolve_clock(df, clock_hz).to_numpy(float)
    known = ~np.isnan(clock)
    procs = (pd.to_numeric(df["multi"], errors="coerce").fillna(1).to_numpy(float)
             if "multi" in df.columns else np.ones(len(df)))
    used_clock = np.where(known, clock, MAX_CLOCK_HZ)
    with np.errstate(invalid="ignore", divide="ignore"):
        ceiling = used_clock * procs / floors
        bad = np.isfinite(rate) & (rate > ceiling)
    idx = np.flatnonzero(bad)
    timing = (df["timing"].astype("object").to_numpy() if "timing" in df.columns
              else np.full(len(df), None))
    messages = []
    for i in idx:  # only the offending rows: a handful
        cpb = used_clock[i] / rate[i]
        where = (f"{clock[i] / 1e9:.3g} GHz" if known[i]
                 else f"the fastest clock any CPU reaches ({MAX_CLOCK_HZ / 1e9:.1f} GHz; no clock known)")
        what = {"via": "a VIA PadLock CPU", "no-aesni": f"a CPU without {aes_name(df.iloc[[i]])}",
                "any": "any CPU"}[klass[i]]
        msg = (f"{rate[i] / 1e6:,.0f} MB/s is {cpb:.2g} cycles/byte at {where}: beyond the physical "
               f"limit of {floors[i]:g} cycles/byte for {algo[i]} on {what} (measurement-notes §3)")
        if _KERNEL_RE.search(_text_of(df, ("tier", "name", "label", "engine"), i)):
            msg += ("; the row ran in the kernel (afalg engine / AF_ALG): openssl speed divides by "
                    "the user CPU time of its own process, which does not include the kernel's "
                    "work, so the rate is inflated. Re-measure with -elapsed.")
        elif timing[i] in (None, "cpu") or pd.isna(timing[i]):
            msg += ("; if it was timed in user CPU time (openssl's default), work done outside the "
                    "process (kernel, engine, offload) was not counted. Re-measure with -elapsed.")
        else:
            msg += "; check the units (k = 1000 bytes/s) and the block size of the cell."
        messages.append(msg)
    extra = pd.DataFrame({"clock_hz": np.where(known, clock, np.nan),
                          "limit_bytes_per_s": ceiling}, index=df.index)
    return bad, messages, extra


def lint(df: pd.DataFrame, clock_hz=None, *, drop_ratio: float = 0.5, warn: bool = True
         ) -> pd.DataFrame:
    """Find cells that cannot be right: beyond the physical limit, falling with size, negative, inf.

    Checks, one row per offending cell:

    ``physical-limit``
        ``bytes_per_s`` above ``clock * processes / floor``, where the floor is the lowest
        cycles per byte the algorithm can take on that class of CPU (:func:`physical_floor`,
        measurement-notes §3). The clock is the caller's, the ``clock_hz`` column, or one named
        in the label/CPU string; with no clock known, a generous 6.5 GHz is assumed. The message
        says why such a rate appears (user-CPU timing of kernel work, e.g. the afalg engine).
    ``drops-with-size``
        throughput below ``drop_ratio`` times the best rate at a smaller block size in the same
        run, algorithm and operation (per-call overhead shrinks as blocks grow, so throughput
        rises or levels off).
    ``negative`` / ``inf``
        negative or infinite rates (also cells the readers flagged so).

    Parameters
    ----------
    df : DataFrame
        Tidy table.
    clock_hz : float or {label: Hz}, optional
        The clock, when the table does not carry one.
    drop_ratio : float
        Threshold of the size check.
    warn : bool
        Emit one :class:`~cipherlab.errors.PlausibilityWarning` per check that found something.

    Returns
    -------
    DataFrame
        ``check``, ``message`` and the provenance of each cell: ``source``, ``run``, ``label``,
        ``line``, ``algorithm``, ``name``, ``operation``, ``block_bytes``, ``bytes_per_s``,
        ``clock_hz``, ``limit_bytes_per_s``.

    Examples
    --------
    >>> import warnings, pandas as pd
    >>> df = pd.DataFrame({"source": "tiers", "run": 0, "label": "VIA Luke @ 1.0 GHz",
    ...                    "tier": ["padlock", "kernel"], "algorithm": "aes-256-cbc",
    ...                    "operation": "encrypt", "block_bytes": 8192,
    ...                    "bytes_per_s": [515_844_780.0, 2_033_909_760.0]})
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     found = lint(df)
    >>> found[["check", "tier", "bytes_per_s"]]
                check    tier    bytes_per_s
    0  physical-limit  kernel  2,033,909,760
    >>> "afalg" in found["message"].iloc[0]
    True
    """
    require_columns(df, ["bytes_per_s", "algorithm"], what="lint")
    rate = pd.to_numeric(df["bytes_per_s"], errors="coerce").to_numpy(float, na_value=np.nan)
    flag = (df["flag"].astype("object").astype(str).to_numpy() if "flag" in df.columns
            else np.full(len(df), ""))
    checks: list[tuple[str, np.ndarray, object]] = []
    with np.errstate(invalid="ignore"):
        checks.append(("negative", (rate < 0) | (flag == "negative"),
                       "negative throughput: an overflowed or mis-split cell "
                       "(measurement-notes §1.8); never average it"))
        checks.append(("inf", np.isinf(rate) | (flag == "inf"),
                       "infinite throughput ('infk'): the timer measured zero time "
                       "(measurement-notes §1.8); never average it"))
    bad, messages, extra = _limit_findings(df, clock_hz)
    checks.append(("physical-limit", bad, messages))
    if "block_bytes" in df.columns:
        checks.append(("drops-with-size", *_drops(df, rate, drop_ratio)))
    provenance = [c for c in (*RUN_KEYS, "line", "tier", "algorithm", "name", "operation",
                              "block_bytes", "bytes_per_s") if c in df.columns]
    frames = []
    for check, mask, message in checks:
        mask = np.asarray(mask, dtype=bool)
        if not mask.any():
            continue
        rows = df.loc[mask, provenance].copy()
        rows["clock_hz"] = extra["clock_hz"].to_numpy()[mask]
        rows["limit_bytes_per_s"] = (extra["limit_bytes_per_s"].to_numpy()[mask]
                                     if check == "physical-limit" else np.nan)
        rows.insert(0, "message", message)
        rows.insert(0, "check", check)
        frames.append(rows)
        if warn:
            shown = message if isinstance(message, str) else message[0]
            more = f" (and {int(mask.sum()) - 1} more)" if mask.sum() > 1 else ""
            _warn(f"lint: {check}: {shown}{more}; see cipherlab.stats.lint(df).",
                 PlausibilityWarning)
    from cipherlab.stats._export import StatsResult

    if not frames:
        return StatsResult(pd.DataFrame(columns=["check", "message", *provenance, "clock_hz",
                                                 "limit_bytes_per_s"]))
    out = pd.concat(frames, ignore_index=False)
    return StatsResult(out.reset_index(drop=True))


def warn_implausible(df: pd.DataFrame, what: str) -> None:
    """Warn (once) when rows about to be analysed lie beyond the physical limit (see lint)."""
    if "bytes_per_s" not in df.columns or "algorithm" not in df.columns or df.empty:
        return
    bad, messages, _ = _limit_findings(df, None)
    if bad.any():
        more = f" (and {int(bad.sum()) - 1} more)" if bad.sum() > 1 else ""
        _warn(f"{what}: a compared value is implausible: {messages[0]}{more}; see "
              f"cipherlab.stats.lint(df) and leave such rows out.", PlausibilityWarning)


def _drops(df, rate, drop_ratio):
    from cipherlab.model import COLUMNS

    keys = [c for c in (*RUN_KEYS, "algorithm", "operation", "name") if c in df.columns]
    keys += [c for c in df.columns if c not in COLUMNS]
    frame = pd.DataFrame({k: df[k].astype("object") for k in keys}, index=df.index)
    frame["_n"] = pd.to_numeric(df["block_bytes"], errors="coerce").to_numpy(float)
    frame["_r"] = np.where(np.isfinite(rate) & (rate > 0), rate, np.nan)
    frame = frame[frame["_n"].notna() & frame["_r"].notna()].sort_values("_n", kind="stable")
    if frame.empty:
        return np.zeros(len(df), dtype=bool), "throughput falls as block size grows"
    gid = frame.groupby(keys, dropna=False, observed=True, sort=False).ngroup()
    best_before = frame["_r"].groupby(gid).cummax().groupby(gid).shift()
    drop = frame["_r"] < drop_ratio * best_before
    bad = pd.Series(False, index=df.index)
    bad.loc[drop.index[drop.to_numpy()]] = True
    message = (f"throughput falls below {drop_ratio:g} x the rate at a smaller block size of the "
               f"same run: per-call overhead shrinks as blocks grow, so a sharp drop points to a "
               f"mis-split row, a throttled or disturbed run, or a unit error")
    return bad.to_numpy(), message
