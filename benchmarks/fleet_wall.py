"""Wall time of a fleet capture against the same captures one after another (README, "Fleet").

Starts the test sshd of ``tests/fleet/sshd_server.py`` on 127.0.0.1 (three "hosts" = three ports
of this machine) and captures the same small plan on the three hosts twice:

1. ``parallel="host"``: the three hosts at the same time (what a real fleet of distinct machines
   does);
2. the default, which finds the three hosts to be one machine and runs them one after another:
   the same captures in sequence, through the same code.

Also prints what one command costs over SSH with and without the shared connection
(``ControlMaster``), the reason cipherlab keeps one per host.

Usage: python benchmarks/fleet_wall.py [--repeats 3] [--seconds 1]
The three hosts share this machine's cores, so on a machine with fewer idle cores than hosts the
parallel figure is bounded by the cores, not by cipherlab; the load average is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

import cipherlab
from cipherlab.runners._remote import SshExecutor, SshHost

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "fleet"))
from sshd_server import SshFleet  # noqa: E402

HOSTS = "alpha,beta,gamma"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def per_command_ms(fleet: SshFleet, multiplex: bool, n: int = 10) -> float:
    ex = SshExecutor(SshHost("alpha"), ssh_config=fleet.config, multiplex=multiplex)
    try:
        ex.run(["true"])  # the connection itself is not what is measured
        t0 = time.perf_counter()
        for _ in range(n):
            ex.run(["true"])
        return (time.perf_counter() - t0) / n * 1e3
    finally:
        ex.close()


def fleet_capture(fleet: SshFleet, out: Path, parallel: str, args) -> tuple[float, float]:
    """Wall seconds of the capture, and the sum of its openssl runs' wall seconds."""
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cipherlab.capture("aes-128-cbc", sizes=[16384], seconds=args.seconds, repeats=args.repeats,
                          isa="native", hosts=HOSTS, ssh_config=fleet.config, out=out,
                          parallel=parallel, progress=False)
    wall = time.perf_counter() - t0
    runs = sum(json.loads(line)["wall_s"] for p in out.glob("*/runs.jsonl")
               for line in p.read_text().splitlines())
    return wall, runs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        fleet = SshFleet(Path(tmp) / "sshd")
        fleet.root.mkdir()
        fleet.start()
        try:
            print(f"cores {os.cpu_count()}, load average before: {load()}")
            for multiplex in (False, True):
                print(f"one command over ssh, {'shared connection' if multiplex else 'new connection'}"
                      f": {per_command_ms(fleet, multiplex):.0f} ms")
            n = 3 * args.repeats
            for parallel, what in (("host", "3 hosts at the same time"),
                                   ("machine", "3 hosts one after another")):
                wall, runs = fleet_capture(fleet, Path(tmp) / parallel, parallel, args)
                print(f"{what}: {wall:.1f} s wall for {n} runs of {args.seconds} s "
                      f"(openssl runs {runs:.1f} s in total); load average after: {load()}")
        finally:
            fleet.stop()


if __name__ == "__main__":
    main()
