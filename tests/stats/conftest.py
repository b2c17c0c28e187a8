"""The seed tables for the stats tests, read from data/seeds/* by the real ``cipherlab.ingest``."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import cipherlab


def _ingest(name: str) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the readers' notes on prose lines are not under test
        return cipherlab.ingest(cipherlab.datasets.path(name))


@pytest.fixture(scope="session")
def aws() -> pd.DataFrame:
    return _ingest("aws-wiki-aesni-on-off.txt")


@pytest.fixture(scope="session")
def tiers() -> pd.DataFrame:
    return _ingest("implementation-tiers-wiki.txt")


@pytest.fixture(scope="session")
def netbsd() -> pd.DataFrame:
    return _ingest("netbsd-ml-three-os-openssl-speed.txt")
