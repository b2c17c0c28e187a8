"""No input is worse than linear: time and memory grow in proportion to the text.

A property test draws a small piece of text from the characters and tokens that once made the
reader quadratic or exponential (runs of ``|``, ``>``, TABs, digits, ``<td>``, value tokens,
two-word names, ``Doing`` prompts) and grows it, as one long line and as many lines. Reading 4x
the text must take well under 16x the time (quadratic) and 4x the memory, compared as ratios
with generous factors (the machine is shared: each time is the best of three of this
process's CPU time), never as
absolute times. Named shapes from the issue (8,000 0.9.8-style ``Doing`` lines, a row of
thousands of values then a junk token, a 10 MB line of numbers scaled down) are checked the
same way.
"""

from __future__ import annotations

import time
import tracemalloc
import warnings

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cipherlab

_PIECES = ["|", "||", ">", "> ", "\t", "1", "12", ".", "k", "0.00", "1.00k", "<td>", "<tr>", " ",
           "a", "x", "aes-128 cbc ", "Doing ", "type ", "16 bytes ", "+F:", ":", "#", "*", "-",
           "(", ")", "=", "'s in 1.00s", "bits ", "rsa ", "sign ", "=3D", "=\n", "&amp;", "&#",
           "`", "``", "**", "%%", "//", ";", "12 | ", "2026-03-04T05:06:07.5Z ", "web-1 | ",
           "[pod/x] ", "\x1b_bk;t=1\x07"]
_TIME_FACTOR = 10.0  # 4x the input: linear is 4x, quadratic 16x
_MEMORY_FACTOR = 8.0


def _read(text: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            cipherlab.ingest(text, n_jobs=1)
        except cipherlab.errors.IngestError:
            pass  # (most grown pieces hold no measurement: reading them is what is timed)


def _best_time(text: str) -> float:
    """The best of three CPU times of this process (not wall time: other work on a shared
    machine takes wall time, not this process's CPU)."""
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        _read(text)
        best = min(best, time.process_time() - t)
    return best


def _peak(text: str) -> int:
    tracemalloc.start()
    try:
        _read(text)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _assert_linear(make, n: int, floor: float = 0.02) -> None:
    """``make(n)`` and ``make(4 n)`` read in proportional time and memory.

    Times below ``floor`` seconds are raised to it (noise, not growth, rules there).
    """
    _read(make(8))  # (imports and memos warmed)
    small, large = make(n), make(4 * n)
    ratio = max(_best_time(large), floor) / max(_best_time(small), floor)
    assert ratio < _TIME_FACTOR, f"4x the input took {ratio:.1f}x the time"
    base = _peak("x\n")
    mem = max(_peak(large) - base, 1 << 20) / max(_peak(small) - base, 1 << 20)
    assert mem < _MEMORY_FACTOR, f"4x the input took {mem:.1f}x the memory"


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(piece=st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map("".join),
       many_lines=st.booleans())
def test_grown_pieces_read_in_linear_time_and_memory(piece, many_lines):
    unit = piece + "\n" if many_lines else piece
    size = max(1, 60_000 // len(unit))  # about 60 KB, then 240 KB
    _assert_linear(lambda n: unit * (n * size // 8 or 1) + "\n", 8)


def _doing_two_words(n: int) -> str:
    return "".join(f"Doing aes-128 cbc for 3s on {16 << 2 * (i % 5)} size blocks: {1000 + i} "
                   f"aes-128 cbc's in 3.00s\n" for i in range(n))


def _table_then_doing(n: int) -> str:
    head = "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes\n"
    rows = "".join(f"aes-128 cbc     1{i % 10}.00k 2.00k 3.00k 4.00k 5.00k\n" for i in range(n // 5))
    return head + rows + _doing_two_words(n)


_GRID = "| Size | A | B |\n|---|---|---|\n"  # a grid in another orientation (readers/_grids)


@pytest.mark.parametrize("make, n", [
    (_doing_two_words, 2_000),                                   # 0.9.8-style Doing lines
    (_table_then_doing, 2_000),                                  # a table, then Doing lines
    (lambda n: "md5 " + "1.00k " * n + "junk\n", 4_000),         # a long row, then a word
    (lambda n: "|" * n + "a\n", 16_000),                         # pipes, then a letter
    (lambda n: " ".join(["1234.56"] * n) + "\n", 100_000),        # one long line of numbers
    (lambda n: ">" * n + " md5 1.00k\n", 16_000),                 # deep quoting
    (lambda n: ("md5 1.00k 2.00k " * 4 + "=\n") * n + "=3D\n", 4_000),  # QP soft breaks
    (lambda n: "`" * n + "md5 1.00k`\n", 16_000),                 # backticks
    (lambda n: "**1" * n + "\n", 16_000),                         # unclosed emphasis
    (lambda n: "&amp;&#" * n + "\n", 16_000),                     # entities
    (lambda n: "".join(f"{i}: md5 1.00k\n" for i in range(n)), 4_000),  # a gutter
    (lambda n: "%% md5 1.00k\n" * n, 4_000),                      # a shared prefix
    (lambda n: "".join(f"2026-03-04T05:{i // 60 % 60:02d}:{i % 60:02d}.{i:07d}Z md5 1.00k\n"
                       for i in range(n)), 4_000),                # a log's stamps, changing
    (lambda n: "".join(f"web-{i // 3 % 2}  | md5 1.00k\n" for i in range(n)), 4_000),  # tags
    (lambda n: "type" + " 16 bytes16B" * n + " x\n", 4_000),     # block sizes, then a word
    (lambda n: "type " + "1" * n + "x\n", 16_000),               # digits without a unit
    (lambda n: "type 16 bytes\n" + "md5 1.00k (node)\n" * n, 4_000),  # rows with words after
    (lambda n: "type 16 bytes\n" + "md5 1.00k 12\n" * n, 4_000),      # rows with page numbers
    (lambda n: "rsa 2048 bits sign/s: 1.0; verify/s: 2.0\n" * n, 4_000),  # labelled rates
    (lambda n: "".join(f"line {i} of prose\n" for i in range(n)), 5_000),  # prose lines
    (lambda n: "a" * n + " 1\n" + _GRID + "| 16 bytes | 1.00k | 2.00k |\n", 16_000),  # a long word
    (lambda n: "AES-128-CBC\n" + _GRID + "| 16 bytes | 1.00k | 2.00k |\n" * n, 2_000),  # grid rows
    (lambda n: _GRID.replace("A |", "a" + " " * n + "b) |") + "| 16 | 1 | 2 |\n", 16_000),  # cell
    (lambda n: "16 bytes 64 bytes 1.00k 2.00k\n\n" * n, 2_000),  # PDF rows without a name
    (lambda n: "```\n" + "  ".join(["md5"] * n) + "\n" + "  ".join(["1.5"] * (n - 1)) + "\n```\n",
     4_000),                                                      # a wide aligned table, short rows
    (lambda n: "```\nalgo  16 bytes\n" + "md5  1 013 842 \u00b1 3 (+2%)\n" * n + "```\n", 2_000),
    (lambda n: "```\nalgo  16 bytes  64 bytes\nmd5  1.0  2.0\nsha1  x " + "1" * n + "  3.0\n```\n",
     16_000),                                                     # a long number in a cell
])
def test_named_shapes_read_in_linear_time_and_memory(make, n):
    _assert_linear(make, n)
