"""The ``sshd`` fixture: a real sshd on 127.0.0.1 standing for a small fleet (sshd_server.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from sshd_server import SshdUnavailable, SshFleet  # noqa: E402


@pytest.fixture(scope="session")
def sshd(tmp_path_factory):
    """The running :class:`SshFleet` (skips the test, with the reason, when sshd cannot run)."""
    fleet = SshFleet(Path(str(tmp_path_factory.mktemp("sshd"))))
    try:
        try:
            fleet.start()
        except SshdUnavailable as why:
            pytest.skip(str(why))
        yield fleet
    finally:
        fleet.stop()
