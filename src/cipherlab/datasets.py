"""The bundled data: the four seed documents, the OpenJDK figures and real captures from two hosts.

Why this module exists: examples, notebooks, tests and ``cipherlab report`` need real data that
works out of the box, wherever cipherlab is installed. The files live in the repository's
``data/`` folder (shipped inside the wheel as ``cipherlab/_bundled``), each folder with a README
that says where its files came from; :func:`load` reads them into one tidy table.

>>> from cipherlab import datasets
>>> datasets.path("aws-wiki-aesni-on-off.txt").name
'aws-wiki-aesni-on-off.txt'
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pandas as pd

__all__ = ["data_files", "files", "load", "path", "root"]

# Bundled files that are not read as measurements, and why.
_NOT_DATA = {
    "host.txt": "host facts (uname, lscpu, openssl version -a), no measurements",
    "openjdk-ml-aes-gcm-slow.txt": "prose; its two figures are seeds/openjdk-tls-transfer.csv",
}
# Bundled folders loaded only when named (``load("captures/host-c-libraries")``), and why: the
# default table is the one the notebooks, widgets and report tests are written against.
_ON_REQUEST = {"captures/host-c-libraries": "one machine through four libraries and JSSE"}


def _on_request(p: Path) -> bool:
    rel = p.resolve().relative_to(root().resolve()).as_posix()
    return any(rel.startswith(folder + "/") for folder in _ON_REQUEST)


# ``captures/host-a-openssl-3.0.19/...`` -> ``host-a``
_HOST_FOLDER = re.compile(r"^(host-[a-z0-9]+)(?:-|$)")

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
        raise FileNotFoundError(f"no single bundled file named {name!r}; the bundled files are: "
                                f"{known}")
    return hits[0]


def data_files() -> list[Path]:
    """Every bundled file that holds measurements (seeds, captures, tidy CSVs), sorted.

    Left out: ``host.txt`` (host facts) and the OpenJDK thread, whose two figures are in prose
    and bundled as ``seeds/openjdk-tls-transfer.csv``.

    >>> [p.name for p in data_files() if p.parent.name == "seeds"]  # doctest: +NORMALIZE_WHITESPACE
    ['aws-wiki-aesni-on-off.txt', 'implementation-tiers-wiki.txt',
     'netbsd-ml-three-os-openssl-speed.txt', 'openjdk-tls-transfer.csv']
    """
    return [p for p in files() if p.name not in _NOT_DATA]


def load(name: str | None = None) -> pd.DataFrame:
    """The tidy table of one bundled file, or of all bundled data.

    Parameters
    ----------
    name : str, optional
        A bundled file name (``"aws-wiki-aesni-on-off.txt"``) or path below the data folder
        (``"captures/host-b-openssl-3.0.22/evp.txt"``), as accepted by :func:`path`; or a
        folder below it (``"seeds"``, ``"captures/host-b-openssl-3.0.22"``) for the data files
        in it. ``None`` (the default) loads every file of :func:`data_files`: the seeds, both
        host captures and the OpenJDK TLS figures (``seeds/openjdk-tls-transfer.csv``), but not
        the folders loaded on request (``captures/host-c-libraries``: one machine through the
        openssl CLI, cryptography, GnuTLS, SunJCE and JSSE).

    Returns
    -------
    pandas.DataFrame
        The tidy table (:data:`cipherlab.model.COLUMNS` plus condition columns), with
        ``source`` = the file's path below the data folder (for the OpenJDK CSV: the thread its
        ``line`` numbers point into) and the condition ``host``: ``host-a`` / ``host-b`` for the
        captures; for the seeds, the machine the text names (the ``cpu`` when known, else the
        run's ``label``, e.g. ``AWS r3.xlarge`` or ``Linux (P3 750Mhz; 512MBram)``).
        Files are parsed once per session (re-parsed when they change); each call returns a
        new frame.

    Raises
    ------
    FileNotFoundError
        When ``name`` is neither a bundled folder nor a single bundled file; the message lists
        the bundled files.

    Examples
    --------
    >>> from cipherlab import datasets
    >>> aws = datasets.load("aws-wiki-aesni-on-off.txt")
    >>> cell = aws[(aws.algorithm == "aes-128-gcm") & (aws.aesni == "on") & (aws.block_bytes == 16)]
    >>> cell[["source", "host", "bytes_per_s"]].to_numpy().tolist()
    [['seeds/aws-wiki-aesni-on-off.txt', 'AWS r3.xlarge', 282247110.0]]
    >>> jdk = datasets.load("openjdk-tls-transfer.csv")
    >>> (jdk.bytes_per_s / 2**20).round(1).tolist()
    [5.2, 100.0]
    """
    if name is None:
        paths = [p for p in data_files() if not _on_request(p)]
    elif (root() / name).is_dir():
        folder = (root() / name).resolve()
        paths = [p for p in data_files() if folder in p.resolve().parents]
    else:
        paths = [path(name)]
    return _load_files(tuple((str(p), p.stat().st_mtime_ns) for p in paths)).copy()


@lru_cache(maxsize=8)
def _load_files(keys: tuple[tuple[str, int], ...]) -> pd.DataFrame:
    from cipherlab.model import concat

    frames = [_load_file(*key) for key in keys]
    return frames[0] if len(frames) == 1 else concat(frames)


@lru_cache(maxsize=None)
def _load_file(file: str, mtime_ns: int) -> pd.DataFrame:
    from cipherlab.readers import ingest

    p = Path(file)
    base = root().resolve()
    rel = p.resolve().relative_to(base).as_posix() if base in p.resolve().parents else p.name
    df = ingest(p)
    if p.suffix == ".csv":
        # A tidy CSV written by hand keeps the document its line numbers point into.
        folder = rel.rsplit("/", 1)[0] + "/" if "/" in rel else ""
        src = df["source"].astype("object")
        df["source"] = src.where(src.isna(), folder + src.astype(str)).fillna(rel)
    else:
        df["source"] = rel
    df["host"] = _hosts(df, rel)
    return df


def _hosts(df: pd.DataFrame, rel: str) -> pd.Series:
    parts = rel.split("/")
    folder = _HOST_FOLDER.match(parts[1]) if len(parts) > 2 and parts[0] == "captures" else None
    if folder:
        return pd.Series(folder[1], index=df.index, dtype="object")
    host = df["host"].astype("object") if "host" in df else pd.Series(None, index=df.index,
                                                                         dtype="object")
    for col in ("cpu", "label"):
        host = host.where(host.notna(), df[col].astype("object"))
    return host
