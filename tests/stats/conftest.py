"""Seed tables for the stats tests, read by the real readers (``cipherlab.ingest``).

Until ``ingest`` handles a seed, the table is built with ``cipherlab.model.to_frame`` from the
numbers copied from the seed text (each copied line is marked with the seed line it came from).
"""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import cipherlab
from cipherlab.model import Run, to_frame

SIZES = (16, 64, 256, 1024, 8192)

# data/seeds/netbsd-ml-three-os-openssl-speed.txt, the aes/des/md5/sha1 rows of each machine
_NETBSD = {
    ("Linux (P3 750Mhz; 512MBram)", "0.9.8g"): {
        "md5": (30, "4408.26k 15380.70k 44968.74k 86139.02k 117792.77k"),
        "sha1": (32, "4118.37k 13093.27k 32829.66k 52553.31k 63993.17k"),
        "des cbc": (35, "15648.94k 16048.27k 16279.30k 16394.92k 16351.34k"),
        "aes-128 cbc": (43, "21271.44k 28059.45k 30584.18k 31360.94k 31692.12k"),
        "aes-192 cbc": (44, "12041.74k 20540.96k 24835.32k 26303.53k 26766.88k"),
        "aes-256 cbc": (45, "11279.90k 18372.10k 21828.95k 22815.81k 23158.05k"),
    },
    ("OpenBSD (P3 500Mhz; 192MBram)", "0.9.7j"): {
        "md5": (84, "2353.01k 8506.64k 26275.60k 54396.58k 80879.24k"),
        "sha1": (86, "2418.04k 7663.42k 18308.12k 27930.90k 33145.90k"),
        "des cbc": (89, "8860.66k 9439.94k 9669.88k 9721.46k 9711.55k"),
        "aes-128 cbc": (95, "14453.82k 15232.75k 15760.38k 15924.40k 15926.95k"),
        "aes-192 cbc": (96, "12819.34k 13449.16k 13842.57k 13928.95k 13999.17k"),
        "aes-256 cbc": (97, "11519.04k 12000.90k 12332.69k 12432.43k 12428.07k"),
    },
    ("NetBSD (P3 750Mhz; 512MBram)", "0.9.8e"): {
        "md5": (124, "2267.12k 8480.15k 28255.66k 67132.29k 112983.57k"),
        "sha1": (126, "2381.94k 7870.96k 21100.68k 36375.90k 46124.61k"),
        "des cbc": (129, "7849.09k 8244.36k 8350.75k 8377.68k 8383.01k"),
        "aes-128 cbc": (135, "13096.45k 13832.38k 14034.33k 14096.25k 14101.97k"),
        "aes-192 cbc": (136, "11280.65k 11840.68k 11980.98k 12026.15k 12023.77k"),
        "aes-256 cbc": (137, "10082.14k 10442.50k 10544.86k 10577.60k 10582.66k"),
    },
}
_CANONICAL = {"md5": ("md5", "digest"), "sha1": ("sha1", "digest"),
              "des cbc": ("des-cbc", "encrypt"), "aes-128 cbc": ("aes-128-cbc", "encrypt"),
              "aes-192 cbc": ("aes-192-cbc", "encrypt"), "aes-256 cbc": ("aes-256-cbc", "encrypt")}


def _copied_netbsd() -> pd.DataFrame:
    runs = []
    for (label, version), rows in _NETBSD.items():
        cells = []
        for name, (line, text) in rows.items():
            algorithm, operation = _CANONICAL[name]
            for size, value in zip(SIZES, text.split()):
                cells.append({"line": line, "algorithm": algorithm, "name": name,
                              "operation": operation, "block_bytes": size,
                              "bytes_per_s": float(value.rstrip("k")) * 1000})
        runs.append(Run(meta={"label": label, "tool": "openssl", "tool_version": version,
                              "timing": "cpu"}, cells=cells))
    return to_frame(runs, source="netbsd-ml-three-os-openssl-speed.txt")


def _ingest(name: str) -> pd.DataFrame | None:
    readers = __import__("cipherlab.readers", fromlist=["x"])
    if not hasattr(readers, "ingest"):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cipherlab.ingest(cipherlab.datasets.path(name))


def _tables(name: str) -> pd.DataFrame:
    df = _ingest(name)
    if df is not None:
        return df
    from cipherlab.readers._tables import find_tables  # the readers' own table parser

    text = cipherlab.datasets.path(name).read_text()
    runs, _ = find_tables(text.splitlines(), name)
    return to_frame(runs, source=name)


@pytest.fixture(scope="session")
def aws() -> pd.DataFrame:
    return _tables("aws-wiki-aesni-on-off.txt")


@pytest.fixture(scope="session")
def tiers() -> pd.DataFrame:
    return _tables("implementation-tiers-wiki.txt")


@pytest.fixture(scope="session")
def netbsd() -> pd.DataFrame:
    df = _ingest("netbsd-ml-three-os-openssl-speed.txt")
    return _copied_netbsd() if df is None else df
