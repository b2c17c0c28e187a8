"""The bundled data: the four seed documents and the real captures from two hosts.

The files live in the repository's ``data/`` folder (shipped inside the wheel as
``cipherlab/_bundled``), each folder with a README that says where its files came from.

>>> from cipherlab import datasets
>>> datasets.path("aws-wiki-aesni-on-off.txt").name
'aws-wiki-aesni-on-off.txt'
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["files", "path", "root"]

_HERE = Path(__file__).resolve().parent


def root() -> Path:
    """The folder holding the bundled data (installed wheel or source checkout)."""
    for candidate in (_HERE / "_bundled", _HERE.parents[1] / "data"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("cipherlab's bundled data folder is missing: reinstall cipherlab")


def files(pattern: str = "**/*") -> list[Path]:
    """Bundled data files matching a glob (README files excluded), sorted."""
    return sorted(p for p in root().glob(pattern)
                  if p.is_file() and not p.name.startswith(("README", ".")))


def path(name: str) -> Path:
    """The bundled file whose name (or path relative to the data folder) is ``name``."""
    direct = root() / name
    if direct.is_file():
        return direct
    hits = [p for p in files() if p.name == name]
    if len(hits) != 1:
        known = ", ".join(sorted({p.name for p in files()}))
        raise FileNotFoundError(f"no single bundled file named {name!r}; the bundled files are: {known}")
    return hits[0]
