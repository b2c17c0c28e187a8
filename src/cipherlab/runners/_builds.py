"""Builds: which ``openssl`` a run uses, so two versions or builds can be compared like ISA presets.

Why this module exists: "3.0 is slower than 1.1.1 on aes-128-cbc" is the most common performance
question in OpenSSL's tracker, and answering it honestly needs both builds measured on the same
machine, interleaved (A B | B A ...), each with its version and build options on record. A
build is a binary, optionally with an ``LD_LIBRARY_PATH`` (the same ``openssl`` app against
another ``libcrypto``), spelled ``[NAME=]PATH[@LIBDIR]``:

* ``/usr/bin/openssl`` - named by the version it reports (``3.0.19``);
* ``old=/opt/ossl111/bin/openssl`` - named ``old``;
* ``3.3=/opt/ossl33/bin/openssl@/opt/ossl33/lib64`` - run with ``LD_LIBRARY_PATH=/opt/ossl33/lib64``.

Examples
--------
>>> [b.name for b in resolve_builds(None)] == [openssl_versions()["openssl_version"]]
True
>>> b = resolve_builds("a=openssl,b=openssl@/opt/lib")[1]
>>> b.name, dict(b.env)
('b', {'LD_LIBRARY_PATH': '/opt/lib'})
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable

from cipherlab.runners._host import openssl_versions
from cipherlab.runners._isa import IsaCondition, find_openssl, isa_env

__all__ = ["Build", "resolve_builds"]


@dataclass(frozen=True)
class Build:
    """One ``openssl`` to run: a name (the ``build`` condition), the binary, extra environment."""

    name: str
    binary: str
    env: tuple[tuple[str, str], ...] = ()

    def environ(self, cond: IsaCondition) -> dict[str, str]:
        """The child environment of a run of this build under ISA condition ``cond``."""
        return isa_env(cond, {**os.environ, **dict(self.env)})

    def facts(self) -> dict[str, str | None]:
        """Version, library and the full ``openssl version -a`` (build options, compiler)."""
        return {"binary": self.binary, "env": dict(self.env),
                **openssl_versions(self.binary, self.env)}

    def __str__(self) -> str:
        return self.name


def _parse(spec: str) -> tuple[str | None, str, tuple[tuple[str, str], ...]]:
    name, sep, rest = spec.partition("=")
    if not sep or os.sep in name:  # no NAME= (a path may hold '=' only after a separator)
        name, rest = None, spec
    path, at, libdir = rest.partition("@")
    if not path.strip() or (at and not libdir.strip()):
        raise ValueError(f"openssl must be [NAME=]PATH[@LIBDIR], e.g. 'old=/opt/ossl/bin/openssl'"
                         f"; not {spec!r}")
    return name, path.strip(), ((("LD_LIBRARY_PATH", libdir.strip()),) if at else ())


def resolve_builds(openssl: str | os.PathLike | Iterable | None) -> list[Build]:
    """The builds a capture compares: one per ``[NAME=]PATH[@LIBDIR]`` (comma-separated or a list).

    Unnamed builds are named by their version; two builds that would share a name are refused
    (name them). Raises CaptureError for a binary that is not there (the message says what to
    install) and ValueError for a malformed spec.
    """
    if openssl is None or isinstance(openssl, os.PathLike):
        specs = [openssl]
    elif isinstance(openssl, str):
        specs = [s.strip() for s in openssl.split(",") if s.strip()] or [openssl]
    else:
        specs = list(openssl)
    builds = []
    for spec in specs:
        if spec is None or isinstance(spec, os.PathLike):
            name, path, env = None, spec, ()
        else:
            name, path, env = _parse(str(spec))
        binary = find_openssl(path)
        name = name or openssl_versions(binary, env)["openssl_version"] or binary
        builds.append(Build(name, binary, env))
    names = [b.name for b in builds]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"openssl builds must have distinct names; {', '.join(twice)} would name "
                         f"two of them: write NAME=PATH, e.g. 'a=/usr/bin/openssl,b=/opt/x/openssl'")
    return builds
