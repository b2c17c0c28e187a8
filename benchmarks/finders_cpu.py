"""CPU time of the whole-text finders (``readers._api.FINDERS``) on the real texts of ``tests/data``.

    python benchmarks/finders_cpu.py [--repeat 5] [--dump out.txt]

Runs the finders on every real dump and paste bundled under ``tests/data`` (the texts of the
benchmark's real corpus), as ``read_runs`` runs them: on the normalised lines, each finder
skipping the lines the ones before it took, with the cyclic collector paused (as ``ingest``
runs them). Prints the total CPU time (``time.process_time``,
the best of ``--repeat`` per text: CPU time, not wall, because the machine is shared), the
share of each finder, the slowest texts and the load average. ``--dump`` writes what the
finders returned (runs, lines taken, unplaced rows, warnings) for each text, to compare two
versions of the code line by line.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ingest_speed import DATA, real_paths  # noqa: E402

from cipherlab._gc import paused  # noqa: E402
from cipherlab.readers import _api  # noqa: E402
from cipherlab.readers._text import decode, normalise  # noqa: E402


def run_finders(lines: list[str], source: str, clock=None) -> tuple[list, set, list]:
    """What ``read_runs`` gets from the finders; ``clock`` adds each finder's CPU time."""
    bad_rows: list = []
    found: list = []
    taken: set[int] = set()
    for k, finder in enumerate(_api.FINDERS):
        t0 = time.process_time() if clock is not None else 0.0
        runs, used = finder(lines, source, taken, bad_rows)
        if clock is not None:
            clock[k] += time.process_time() - t0
        found += runs
        taken |= used
    return found, taken, bad_rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dump", type=Path)
    args = ap.parse_args()
    rows, dump = [], []
    shares = [0.0] * len(_api.FINDERS)
    for path in real_paths():
        data = path.read_bytes()
        lines, _ = normalise(decode(data, str(path)))
        best, best_clock = float("inf"), [float("inf")] * len(_api.FINDERS)
        for _ in range(args.repeat):
            with warnings.catch_warnings(record=True) as caught, paused():
                warnings.simplefilter("always")
                t0 = time.process_time()
                found, taken, bad = run_finders(lines, str(path))
                best = min(best, time.process_time() - t0)
                clock = [0.0] * len(_api.FINDERS)  # (timed apart: the clock costs time too)
                run_finders(lines, str(path), clock)
            best_clock = [min(b, c) for b, c in zip(best_clock, clock, strict=True)]
        shares = [s + c for s, c in zip(shares, best_clock, strict=True)]
        rows.append((best, len(data), path))
        if args.dump:
            dump.append(f"== {path.relative_to(DATA)}")
            dump += [f"run {r.meta!r} {r.cells!r} {r.rows!r}" for r in found]
            dump.append(f"taken {sorted(taken)}")
            dump.append(f"bad {bad!r}")
            dump += [f"warning {w.category.__name__} {w.message}" for w in caught]
    if args.dump:
        args.dump.write_text("\n".join(dump) + "\n")
    total, size = sum(r[0] for r in rows), sum(r[1] for r in rows)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"finders: {total * 1e3:.1f} ms CPU for {len(rows)} texts, {size / 1e3:.0f} KB "
          f"({size / total / 1e6:.1f} MB/s)  [load {load}]")
    for k, s in enumerate(shares):
        name = getattr(_api.FINDERS[k], "__name__", str(k))
        print(f"  finder {k} {name:20s} {s * 1e3:7.2f} ms")
    for t, n, p in sorted(rows, reverse=True)[:15]:
        print(f"  {t * 1e3:7.2f} ms {n:8d} B {p.relative_to(DATA)}")


if __name__ == "__main__":
    main()
