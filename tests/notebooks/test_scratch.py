"""QUICK runs' scratch folders (cipherlab.scratch) in a real kernel: removed when it shuts down,
and, when it is killed (no exit handler runs), by the next cipherlab.scratch of any process."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from jupyter_client.manager import start_new_kernel

import cipherlab

pytestmark = [pytest.mark.notebook, pytest.mark.slow]


def _scratch_in_a_kernel():
    """A real ipykernel that made a scratch folder: (manager, client, folder, kernel pid)."""
    km, kc = start_new_kernel(kernel_name="python3")
    out: list[str] = []
    code = "import os, cipherlab; p = cipherlab.scratch('test-kernel'); print(p, os.getpid())"
    reply = kc.execute_interactive(code, timeout=60, output_hook=lambda msg: out.append(
        msg["content"].get("text", "")) if msg["msg_type"] == "stream" else None)
    assert reply["content"]["status"] == "ok", reply["content"]
    folder, pid = "".join(out).split()
    return km, kc, Path(folder), int(pid)


def _gone(pid: int, timeout: float = 20) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_a_kernel_that_shuts_down_removes_its_scratch_folder():
    km, kc, folder, pid = _scratch_in_a_kernel()
    assert folder.is_dir() and folder.parent.name == "cipherlab-scratch"
    kc.stop_channels()
    km.shutdown_kernel(now=False)  # what Lab's "Shut Down Kernel" and nbclient's end do
    assert _gone(pid)
    assert not folder.exists()


def test_a_killed_kernels_scratch_folder_goes_with_the_next_scratch():
    km, kc, folder, pid = _scratch_in_a_kernel()
    kc.stop_channels()
    os.kill(pid, signal.SIGKILL)  # no atexit, no finaliser
    km.shutdown_kernel(now=True)  # reaps it, as Lab's server does (a zombie still has its pid)
    assert _gone(pid)
    assert folder.is_dir()  # left behind, as TemporaryDirectory would leave it for good
    mine = cipherlab.scratch("test-next")  # the next QUICK run, here this test process
    assert not folder.exists() and mine.is_dir()
