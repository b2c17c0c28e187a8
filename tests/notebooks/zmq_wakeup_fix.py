"""Work around lost wake-ups when awaiting kernel replies (jupyter/nbclient#312).

Under CPU load (CI: browser + server + kernels on 2 cores) an asyncio
``await channel.get_msg(timeout=None)`` in jupyter_client can miss the wake-up for a
message that has already arrived (seen with pyzmq 25.1-27.3). nbclient then waits
forever for the execute_reply (Voila page stuck at "Executing 2 of 3") or until its
cell timeout (a 2 s notebook run taking 120 s). pyzmq re-checks the socket when a
poll times out, so polling in short slices bounds the delay to one slice.

    zmq_wakeup_fix.apply()   # before executing notebooks (tests/notebooks/conftest.py does it)

    python zmq_wakeup_fix.py voila ARGS...   # Voila (it executes with nbclient), patched

Copied from the tested browser recipe (docs/browser-test-recipe.md).
"""
import time
from queue import Empty

from jupyter_client.channels import AsyncZMQSocketChannel

SLICE_S = 0.5
# Kept on the class so that a second import of this file (pytest's --doctest-modules collects it
# under another module name) still wraps the original method, never the patched one.
_original_get_msg = AsyncZMQSocketChannel.__dict__.get(
    "_unpatched_get_msg", AsyncZMQSocketChannel.get_msg)


async def _sliced_get_msg(self, timeout=None):
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        step = SLICE_S if deadline is None else max(0.0, min(SLICE_S, deadline - time.monotonic()))
        try:
            return await _original_get_msg(self, timeout=step)
        except Empty:
            if deadline is not None and time.monotonic() >= deadline:
                raise


def apply() -> None:
    """Patch jupyter_client in this process (idempotent)."""
    AsyncZMQSocketChannel._unpatched_get_msg = _original_get_msg
    AsyncZMQSocketChannel.get_msg = _sliced_get_msg



if __name__ == "__main__":  # python zmq_wakeup_fix.py voila ARGS...: run Voila patched
    import sys

    apply()
    if sys.argv[1:2] == ["voila"]:
        from voila.app import main

        sys.argv = ["voila", *sys.argv[2:]]
        sys.exit(main())
    raise SystemExit("usage: python zmq_wakeup_fix.py voila [voila args]")
