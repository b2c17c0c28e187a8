"""Print how long ``cipherlab.report()`` takes on the bundled data (target: < 60 s on 2 cores).

    python benchmarks/report_time.py [OUT]

Prints wall and CPU time of the whole run and of its parts (loading the bundled data, the
analyses with their figures and tables), the number of files written and the load average, so
a figure quoted in the README says under what load it was measured.
"""

import os
import sys
import tempfile
import time
import warnings
from pathlib import Path


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp()) / "report"
    load_before = os.getloadavg()
    t0, c0 = time.perf_counter(), time.process_time()
    import cipherlab  # noqa: F401  (import time is part of what a user waits for)
    from cipherlab import datasets
    t_import = time.perf_counter() - t0
    t1 = time.perf_counter()
    datasets.load()  # parsed once per process: report() below reuses the parsed files
    t_load = time.perf_counter() - t1
    t2 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = cipherlab.report(out=out)
    t_report = time.perf_counter() - t2
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    figures = len(list((page.parent / "figures").iterdir()))
    tables = len(list((page.parent / "tables").iterdir()))
    size = page.stat().st_size / 1e6
    print(f"report: {page}")
    print(f"cipherlab.report() on the bundled data: {wall:.1f} s wall, {cpu:.1f} s CPU "
          f"(import {t_import:.1f} s, load + parse {t_load:.1f} s, analyses + files "
          f"{t_report:.1f} s)")
    print(f"files: {figures} figure files, {tables} table files, report.html {size:.1f} MB")
    print(f"load average before/after: {load_before[0]:.2f} / {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} CPUs")
    print("target: < 60 s ->", "OK" if wall < 60 else "TOO SLOW")


if __name__ == "__main__":
    main()
