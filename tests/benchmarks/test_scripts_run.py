"""The speed scripts under benchmarks/ still run (their figures are read by people, not asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_ingest_speed_prints_its_figures(tmp_path):
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / "ingest_speed.py"), "--megabytes", "1", "--repeat", "1",
         "--files", "300", "--corpus", str(tmp_path / "corpus")],
        capture_output=True, text=True, timeout=300, check=True).stdout
    for figure in ("MB/s (target >= 20 MB/s)", "n_jobs=1), one process", "pandas.read_csv",
                   "wall-time ratio", "CPU by stage", "floor of a Python line pass",
                   "a folder of 300 real dumps", "from the content-hash cache", "archive peak memory: ",
                   "x the input", "(load "):
        assert figure in out, out
    assert len(list((tmp_path / "corpus").glob("dump-*.txt"))) >= 1


def test_libraries_prints_the_cross_library_and_seed_figures():
    out = subprocess.run([sys.executable, str(BENCHMARKS / "libraries.py")],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    for figure in ("median MB/s per library", "library / openssl CLI at 16384 bytes",
                   "OpenJDK seed: GCM / CBC", "JSSE transfer", "SunJCE 16 KiB",
                   "measured / predicted"):
        assert figure in out, out
