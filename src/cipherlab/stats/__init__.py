"""Honest statistics on the tidy table: effect, interval and test together, computed by scipy.

Each function takes a tidy table (``cipherlab.ingest``, ``cipherlab.capture``) plus column names
and returns a NEW DataFrame whose columns its docstring lists (names fixed whatever the
parameters). Results print formatted in a REPL or notebook and export with :func:`to_latex` and
:func:`to_markdown`.

- :func:`compare`, :func:`speedup`: ratio candidate/baseline per cell with interval, test and
  p-values adjusted across the grid (Holm or Benjamini-Hochberg); the paired analysis across
  block sizes when a dump has one value per cell.
- :func:`ratio_test`: "is it about 2x?": a test of ratio = expected and a TOST equivalence test.
- :func:`cost_model`, :func:`crossover`, :func:`small_block_overhead`: the per-call cost
  ``t(n) = t0 + c·n``, where GCM overtakes CBC, and the share of fixed overhead by size.
- :func:`runs_needed`: how many runs a comparison needs to find a difference, from the
  run-to-run spread of a pilot capture (and the smallest difference its runs can find).
- :func:`per_ghz`, :func:`cycles_per_byte`: clock normalisation; :func:`per_process`: the
  rate of one process of a ``-multi N`` run, :func:`scaling`: how ``-multi`` scales (efficiency per
  process against one process alone).
- :func:`comparable`, :func:`lint`: like-for-like and physical plausibility checks.
- :func:`record_layer_rates`, :func:`predict_tls`: what a TLS suite's record layer could reach
  from ``openssl speed`` rates, beside each measured transfer.

>>> import cipherlab.stats as st
>>> sorted(st.__all__)[:3]
['StatsResult', 'adjust_p', 'aead_era']
"""

from cipherlab.stats._adjust import adjust_p
from cipherlab.stats._checks import aead_era, comparable, lint, physical_floor, speed_loop
from cipherlab.stats._clock import (
    clock_from_text, clock_source, cycles_per_byte, per_ghz, per_process, resolve_clock, scaling)
from cipherlab.stats._compare import compare, ratio_test, speedup
from cipherlab.stats._cost import cost_model, crossover, small_block_overhead
from cipherlab.stats._export import StatsResult, to_latex, to_markdown
from cipherlab.stats._power import runs_needed
from cipherlab.stats._tls import predict_tls, record_layer_rates

__all__ = [
    "StatsResult",
    "adjust_p",
    "aead_era",
    "clock_from_text",
    "clock_source",
    "comparable",
    "compare",
    "cost_model",
    "crossover",
    "cycles_per_byte",
    "lint",
    "per_ghz",
    "per_process",
    "physical_floor",
    "predict_tls",
    "ratio_test",
    "record_layer_rates",
    "resolve_clock",
    "runs_needed",
    "scaling",
    "small_block_overhead",
    "speed_loop",
    "speedup",
    "to_latex",
    "to_markdown",
]
