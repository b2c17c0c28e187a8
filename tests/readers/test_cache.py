"""The content-hash cache of ``ingest``: a cached read is a fresh read, minus the parsing.

Real files on disk, a real cache folder, real processes; the parse is counted (and run), not
replaced.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import shutil
import sqlite3
import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

import cipherlab
from cipherlab.readers import _api, _cache

DATA = Path(__file__).resolve().parents[1] / "data"
PASTES = ["005_sslsplit144-aesni-ia32cap-5col.txt", "013_es-111f-ubuntu-aes-ecdh-des-rsa-dsa.txt",
          "014_ja-101f-rsa-progress-table.txt"]


@pytest.fixture
def folder(tmp_path):
    """Dumps of several shapes, a text that warns and one without measurements (skipped)."""
    out = tmp_path / "dumps"
    out.mkdir()
    for p in sorted((DATA / "samples").rglob("*.txt"))[:12]:
        shutil.copy(p, out / f"{p.parent.name}-{p.name}")
    for name in PASTES:
        shutil.copy(DATA / "pastes" / name, out / name)
    (out / "zz-prose.txt").write_text("nothing measured here\n")
    (out / "zz-stray.txt").write_text(
        "version: 3.0.2\ntype 16 bytes 64 bytes\nmd5 -1.00k 2.00k\nfoo 1.50 2.50 x 3.25\n")
    return out


@pytest.fixture
def parses(monkeypatch):
    """The texts ``ingest`` parses (in this process), by name: the real parse, counted."""
    seen: list[str] = []
    real = _api._parse

    def counted(data, name, strict, hints):
        seen.append(Path(name).name)
        return real(data, name, strict, hints)

    monkeypatch.setattr(_api, "_parse", counted)
    return seen


def _entries(store: Path) -> dict[str, bytes]:
    with sqlite3.connect(store / _cache.DATABASE) as db:
        return dict(db.execute("SELECT key, value FROM entries"))


def _read(source, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = cipherlab.ingest(source, n_jobs=1, **kwargs)
    return df, [(w.category, str(w.message)) for w in caught]


def test_a_cached_read_is_the_fresh_read(folder, tmp_path, parses):
    fresh, fresh_warned = _read(folder, cache=False)
    assert any("zz-prose.txt (no measurements found)" in m for _, m in fresh_warned)
    assert any("zz-stray.txt: 1 line(s) look like measurements" in m for _, m in fresh_warned)
    n_files = len(parses)
    store = tmp_path / "cache"
    first, first_warned = _read(folder, cache=store)
    assert len(parses) == 2 * n_files  # every text parsed (and stored)
    again, again_warned = _read(folder, cache=store)
    assert len(parses) == 2 * n_files  # none parsed: all from the cache, the skipped one too
    for df, warned in ((first, first_warned), (again, again_warned)):
        pd.testing.assert_frame_equal(df, fresh, check_exact=True)  # source, line, run: all
        assert warned == fresh_warned  # the same warnings, in the same order
    assert len(_entries(store)) == n_files


def test_a_changed_or_renamed_file_is_read_again(folder, tmp_path, parses):
    store = tmp_path / "cache"
    _read(folder, cache=store)
    target = folder / "zz-stray.txt"
    target.write_text(target.read_text().replace("md5 -1.00k 2.00k", "md5 3.00k 4.00k"))
    (folder / PASTES[0]).rename(folder / "renamed.txt")
    parses.clear()
    df, _ = _read(folder, cache=store)
    assert sorted(parses) == ["renamed.txt", "zz-stray.txt"]
    stray = df[df.source == str(target)]
    assert sorted(stray.bytes_per_s.dropna()) == [3000.0, 4000.0]  # the new text's cells
    assert (df.source == str(folder / "renamed.txt")).any()
    pd.testing.assert_frame_equal(df, _read(folder, cache=False)[0], check_exact=True)


def test_what_changes_the_result_changes_the_key(folder, tmp_path, parses):
    store = tmp_path / "cache"
    text = (folder / PASTES[1]).read_text()
    plain, _ = _read(text, cache=store)
    parses.clear()
    off, _ = _read(text, cache=store, aesni="off")  # conditions: applied after the cache
    assert parses == [] and set(off.aesni) == {"off"} and len(off) == len(plain)
    _read(text, cache=store, tool_version="1.1.1")  # a hint to the reader
    _read(text, cache=store, strict=False, label="x")  # a label: applied after the cache too
    assert parses == ["<text>"]
    with pytest.raises(cipherlab.IngestError) as fresh:
        _read(folder / "zz-stray.txt", cache=False, strict=True)
    for _ in range(2):  # the error, stored, is raised again as it was
        with pytest.raises(cipherlab.IngestError) as cached:
            _read(folder / "zz-stray.txt", cache=store, strict=True)
        assert (cached.value.msg, cached.value.lineno, cached.value.line, str(cached.value)) == (
            fresh.value.msg, fresh.value.lineno, fresh.value.line, str(fresh.value))


def test_a_corrupt_entry_is_ignored_with_a_warning_and_replaced(folder, tmp_path, parses):
    store = tmp_path / "cache"
    fresh, fresh_warned = _read(folder, cache=store)
    entries = sorted(_entries(store).items())
    with sqlite3.connect(store / _cache.DATABASE) as db:
        db.execute("UPDATE entries SET value = ? WHERE key = ?", (b"not a pickle", entries[0][0]))
        db.execute("UPDATE entries SET value = ? WHERE key = ?", (entries[1][1][:20], entries[1][0]))
    parses.clear()
    df, warned = _read(folder, cache=store)
    pd.testing.assert_frame_equal(df, fresh, check_exact=True)
    damaged = [m for c, m in warned if c is RuntimeWarning]
    assert len(damaged) == 2 and all("ignoring the unreadable entry" in m for m in damaged)
    assert [w for w in warned if w[0] is not RuntimeWarning] == fresh_warned
    assert len(parses) == 2
    parses.clear()
    assert _read(folder, cache=store)[1] == fresh_warned and parses == []  # replaced


def test_two_processes_share_one_cache(folder, tmp_path):
    """Two real processes read the folder into one cache at once (workers of their own too);
    both get the fresh table, and every entry left is whole."""
    store, outs = tmp_path / "cache", [tmp_path / "a.pickle", tmp_path / "b.pickle"]
    code = ("import sys, warnings, cipherlab; warnings.simplefilter('ignore'); "
            "cipherlab.ingest(sys.argv[1], cache=sys.argv[2], n_jobs=2).to_pickle(sys.argv[3])")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(folder), str(store), str(out)])
             for out in outs]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    fresh, _ = _read(folder, cache=False)
    for out in outs:
        pd.testing.assert_frame_equal(pd.read_pickle(out), fresh, check_exact=True)
    entries = _entries(store)
    assert len(entries) == len(list(folder.iterdir()))
    for value in entries.values():
        pickle.loads(value)  # (whole)


def _open_and_store(folder: str) -> bool:
    """One worker's first use of a cache: open (or create) it, store an entry; True if usable."""
    store = _cache.Cache(Path(folder))
    store.put(f"key-{os.getpid()}", "value")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        store.flush()
    return not store._broken


def test_processes_that_create_one_cache_at_once_all_use_it(tmp_path):
    # (switching a new database to WAL skips SQLite's busy handler: about one in a hundred
    # such races once lost the cache to "database is locked")
    with multiprocessing.get_context("fork").Pool(4) as pool:
        for n in range(150):
            assert pool.map(_open_and_store, [str(tmp_path / str(n))] * 4) == [True] * 4, n


def test_workers_read_through_the_cache(folder, tmp_path):
    store = tmp_path / "cache"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fresh = cipherlab.ingest(folder, n_jobs=1)
        for _ in range(2):  # filled by the workers, then read by them
            pd.testing.assert_frame_equal(cipherlab.ingest(folder, n_jobs=3, cache=store), fresh,
                                          check_exact=True)
    messages = [str(w.message) for w in caught]
    assert messages[:len(messages) // 3] * 3 == messages


def test_the_environment_variable_and_the_bound(folder, tmp_path, monkeypatch, parses):
    store = tmp_path / "env-cache"
    monkeypatch.setenv("CIPHERLAB_CACHE", str(store))
    _read(folder)
    n = len(parses)
    assert len(_entries(store)) == n
    _read(folder)
    assert len(parses) == n  # from the cache
    _read(folder, cache=False)  # the argument wins over the variable
    assert len(parses) == 2 * n
    monkeypatch.setenv("CIPHERLAB_CACHE", "0")
    assert _cache.resolve(None) is None
    monkeypatch.setenv("CIPHERLAB_CACHE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _cache.resolve(None).folder == tmp_path / "xdg" / "cipherlab" / "ingest"
    sizes = [len(v) for v in _entries(store).values()]
    monkeypatch.setenv("CIPHERLAB_CACHE_MAX_MB", str(sum(sizes) / 2 / 1e6))
    small = tmp_path / "small"
    _read(folder, cache=small)  # trimmed to under the bound once written
    assert 0 < sum(len(v) for v in _entries(small).values()) <= sum(sizes) / 2
    with pytest.raises(TypeError, match="`cache` must be"):
        cipherlab.ingest(folder, cache=3)


def test_a_cache_that_cannot_be_written_costs_nothing_but_a_warning(folder, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    fresh, fresh_warned = _read(folder, cache=False)
    df, warned = _read(folder, cache=blocker / "cache")
    pd.testing.assert_frame_equal(df, fresh, check_exact=True)
    assert [w for w in warned if w[0] is not RuntimeWarning] == fresh_warned
    assert [m for c, m in warned if c is RuntimeWarning and "cannot use" in m]


def test_a_damaged_database_costs_one_warning(folder, tmp_path):
    store = tmp_path / "cache"
    store.mkdir()
    (store / _cache.DATABASE).write_bytes(b"no database, a file of garbage " * 100)
    fresh, fresh_warned = _read(folder, cache=False)
    df, warned = _read(folder, cache=store)
    pd.testing.assert_frame_equal(df, fresh, check_exact=True)
    assert [w for w in warned if w[0] is not RuntimeWarning] == fresh_warned
    damaged = [m for c, m in warned if c is RuntimeWarning]
    assert len(damaged) == 1 and "cannot use" in damaged[0] and "reading without it" in damaged[0]
