"""The ``engine`` fixture: reader tests run through both ways the pass reads lines.

The block readers (runs of the commonest lines read at once) and the per-line dispatch must
give the same tables on every input; like pandas' ``all_parsers``, the corpus, spot, round-trip
and property tests use this fixture (``pytestmark``), so the two engines cannot drift apart.
"""

from __future__ import annotations

import pytest

from cipherlab.readers import _openssl


@pytest.fixture(scope="module", params=_openssl.ENGINES)
def engine(request):
    before = _openssl.ENGINE
    _openssl.ENGINE = request.param
    yield request.param
    _openssl.ENGINE = before
