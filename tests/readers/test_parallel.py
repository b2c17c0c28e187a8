"""Reading files in worker processes gives what one process gives: table, warnings, errors."""

from __future__ import annotations

import re

import shutil
import threading
import warnings
from pathlib import Path

import pandas as pd
import pytest

import cipherlab
from cipherlab.errors import IngestError, IngestWarning
from cipherlab.readers import _api

DATA = Path(__file__).resolve().parents[1] / "data"


def _read(source, **kwargs):
    """The frame (or the error) and the warnings ``ingest`` gives."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = cipherlab.ingest(source, **kwargs)
        except IngestError as err:
            out = err
    return out, [(w.category, str(w.message)) for w in caught]


@pytest.fixture
def folder(tmp_path):
    """Every bundled dump (samples, seeds, synthetic) plus files that warn, in one folder."""
    for p in sorted(DATA.rglob("*")):
        if p.is_file() and p.suffix in (".txt", ".md", ".html") and p.name != "README.md" \
                and p.parent.name != "pastes":  # (real pastes: test_pastes.py)
            shutil.copy(p, tmp_path / f"{p.parent.name}-{p.name}")
    (tmp_path / "zz-prose.txt").write_text("nothing measured here\n")  # skipped, with a warning
    (tmp_path / "zz-stray.txt").write_text(  # an unplaced line and a suspicious value
        "version: 3.0.2\ntype 16 bytes 64 bytes\nmd5 -1.00k 2.00k\nfoo 1.50 2.50 x 3.25\n")
    return tmp_path


needs_fork = pytest.mark.skipif(not _api._can_fork(), reason="no fork here: ingest reads in one process")


@needs_fork
def test_workers_give_the_same_table_and_warnings(folder):
    one, one_warned = _read(folder, n_jobs=1)
    many, many_warned = _read(folder, n_jobs=3)
    pd.testing.assert_frame_equal(many, one, check_exact=True)
    assert many_warned == one_warned
    assert len(set(one.source)) > 30 and len(one) > 1000
    warned = "\n".join(message for _, message in one_warned)
    assert "zz-prose.txt (no measurements found)" in warned
    assert "zz-stray.txt: 1 line(s) look like measurements but were not placed (line(s) 4" in warned
    # (named alone, or as file:line among the other suspicious sources: the pastes hold some)
    assert re.search(r"zz-stray\.txt: 1 suspicious value\(s\)|suspicious value\(s\).*zz-stray\.txt:3",
                     warned)


@needs_fork
def test_workers_raise_the_first_error_in_file_order(folder):
    (folder / "m-binary.txt").write_bytes(b"\x00\x01binary")
    (folder / "n-binary.txt").write_bytes(b"\x00\x02binary")
    # binary files of a folder are skipped, named in the one warning the workers give too
    one, one_warned = _read(folder, n_jobs=1)
    many, many_warned = _read(folder, n_jobs=2)
    assert many_warned == one_warned
    assert "m-binary.txt (this is binary data" in "\n".join(m for _, m in one_warned)
    strict_one, _ = _read(folder, n_jobs=1, strict=True)
    strict_many, _ = _read(folder, n_jobs=2, strict=True)
    assert (strict_many.source, strict_many.lineno, strict_many.line) == (
        strict_one.source, strict_one.lineno, strict_one.line)


def test_how_many_processes():
    assert _api._jobs(3, 30_000, None) == 1  # a few KB: not worth a process
    assert _api._jobs(2, 6_000_000, 1) == 1 and _api._jobs(1, 3_000_000, 4) == 1
    assert _api._jobs(2, 6_000_000, None) == min(2, _api._cpus()) or not _api._can_fork()
    for bad in (0, -2, 1.5, True, "2"):
        with pytest.raises(ValueError, match=r"`n_jobs` must be .*; not"):
            cipherlab.ingest(DATA / "seeds" / "aws-wiki-aesni-on-off.txt", n_jobs=bad)


def test_chunks_are_contiguous_and_balanced():
    items = [("x" * n, str(i), False) for i, n in enumerate([5, 1, 1, 1, 1, 1, 5, 5])]
    chunks = _api._split(items, [len(it[0]) for it in items], 4)
    assert [it for c in chunks for it in c] == items  # file order kept
    assert [sum(len(it[0]) for it in c) for c in chunks] == [5, 5, 5, 5]


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_folder_reads_as_the_concat_of_its_files(folder, n_jobs, engine):
    """One frame per chunk of files (parsed, labelled and flagged once) is each file's own
    ingest joined: the same cells, sources, run numbers, labels and conditions."""
    whole = cipherlab.ingest(folder, n_jobs=n_jobs)
    alone = []
    for p in sorted(folder.iterdir()):
        try:
            alone.append(cipherlab.ingest(str(p)))
        except IngestError as err:  # the folder skips it, saying why
            assert err.msg.startswith("no measurements"), err
    joined = cipherlab.model.concat(alone)
    assert sorted(joined.columns) == sorted(whole.columns)
    pd.testing.assert_frame_equal(whole, joined[list(whole.columns)], check_exact=True)
    assert whole.groupby("source", observed=True)["run"].nunique().gt(1).any()  # runs numbered per file


def test_the_file_bar_stays_out_of_a_pipe(folder, capsys):
    """From 50 files on ingest shows a tqdm bar, but only where someone watches (tqdm's
    ``disable=None``): not into a log or a pipe, as captured stderr is."""
    assert len(list(folder.iterdir())) >= _api._PROGRESS_FILES
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cipherlab.ingest(folder, n_jobs=1)
    assert capsys.readouterr().err == ""


def test_columns_of_parts_join_into_the_frame_of_one_pass():
    """What workers send (each chunk's plain columns) joins into the frame ``to_frame`` makes of
    every run at once: categories unioned and sorted, a column some part lacks NA there, a
    condition of numbers in one part and text in another left to ``coerce`` as one column."""
    from cipherlab.model import Columns, Run, columns, to_frame

    def run(source, algorithms, **meta):
        return Run({"source": source, "label": source.upper(), **meta},
                   [[i, alg, alg, "hash", 16, 1e6 * (i + 1), 1e6 * (i + 1) / 16, i, 1.0, None]
                    for i, alg in enumerate(algorithms)])

    parts = [[run("a.txt", ["sha1", "md5"], isa="avx2"), run("a.txt", ["md5"], repeat=2)],
             [run("b.txt", ["sha256"], tool="bssl", repeat=3)],  # no isa; categories not a prefix
             [run("c.txt", ["md5", "zz"], isa=7, multi=2)]]  # isa a number: coerce makes it text
    mappings = [Run({"source": "d.txt"}, [{"algorithm": "md5", "block_bytes": 64,
                                           "bytes_per_s": 5.0, "tier": "gold"}])]
    parts.append(mappings)
    whole = to_frame([r for part in parts for r in part], source="x", flag=False)
    joined = Columns.join([columns(part, source="x") for part in parts]).frame()
    pd.testing.assert_frame_equal(joined, whole, check_exact=True)
    assert [None if pd.isna(v) else v for v in joined["isa"]] == ["avx2", "avx2", None, None,
                                                                   "7", "7", None]
    assert list(joined["algorithm"].cat.categories) == ["md5", "sha1", "sha256", "zz"]
    assert joined["repeat"].dtype.name == "Int64" and joined["multi"].dtype.name == "Int64"


def test_readers_in_threads_leave_the_callers_warnings_alone():
    # (a fleet capture reads each host's runs in a thread: two readers swapping the warnings
    # module's global state at once left a reader's recorder installed, and the caller's
    # warnings after that went into it, lost; see errors.caught_warnings)
    text = ("type 16 bytes 64 bytes\nmd5 1000.00k 2000.00k\n"
            "sha1 1000.00k 20x0.00k\n")  # (a damaged row: every read warns)

    def read():
        for _ in range(40):
            cipherlab.ingest(text)

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        threads = [threading.Thread(target=read) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        warnings.warn("after the threads", UserWarning)
    messages = [str(w.message) for w in seen]
    assert messages[-1] == "after the threads"
    assert sum(issubclass(w.category, IngestWarning) for w in seen) == 4 * 40  # (none lost)
