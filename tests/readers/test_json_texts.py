"""Spot tests of benchmark text held in JSON (``readers/_json``, issue 12 layer 1): notebooks,
API replies and JSON logs read to the cells of the text they hold, each cell, warning and error
naming the JSON file's own line; one-line sources that are no file never reach an OSError.
The whole texts are in ``tests/data/user/notebooks`` (read in ``test_user_pastes.py``). Every
test runs through both engines.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import cipherlab
from cipherlab.errors import IngestError, IngestWarning
from cipherlab.readers._json import held_text, is_document

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "data" / "samples" / "openssl-3.0.22-host-b" / "evp.txt"
# A 1.1.1 table, other names and sizes than the notebooks of tests/data/user/notebooks.
TABLE = ("OpenSSL 1.1.1w  11 Sep 2023\n"
         "The 'numbers' are in 1000s of bytes per second processed.\n"
         "type             16 bytes     64 bytes    256 bytes\n"
         "sha512           61234.56k   245678.90k   498765.43k\n")


def _read(source, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cipherlab.ingest(source, **kw)


def _notebook(*cells, indent=1) -> str:
    return json.dumps({"cells": list(cells), "metadata": {}, "nbformat": 4, "nbformat_minor": 5},
                      indent=indent)


def _code(source, *outputs):
    return {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": list(outputs),
            "source": source}


def _stream(text, name="stdout"):
    return {"name": name, "output_type": "stream", "text": text}


def _json_line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_notebook_is_read_by_its_cells_labelled_by_its_markdown_and_prompts():
    """A heading in a markdown cell labels the run of the cell below; a ``!`` command (continued
    on the next line) is the run's prompt (its ``OPENSSL_ia32cap`` a condition); cells are runs
    of their own."""
    nb = _notebook(
        {"cell_type": "markdown", "metadata": {}, "source": "## Pi 5, Bookworm"},
        _code("!openssl speed -evp sha512", _stream(TABLE.splitlines(True))),
        {"cell_type": "markdown", "metadata": {}, "source": ["## Pi 5, ", "no NEON"]},
        _code(["!OPENSSL_ia32cap=0 \\\n", "  openssl speed -evp sha512"], _stream(TABLE)),
        indent=2)
    df = _read(nb)
    labels = df.groupby("run", observed=True).label.first().tolist()
    assert labels == ["Pi 5, Bookworm", "Pi 5, no NEON"]
    assert set(df[df.run == df.run.max()].isa_mask) == {"0"}  # (the continued command's)
    assert df.block_bytes.tolist() == [16, 64, 256] * 2
    assert df.bytes_per_s.tolist()[:3] == [61234560.0, 245678900.0, 498765430.0]
    # each cell names the JSON line its row came from: a list item's own line, or its string's
    assert df.line.tolist()[:3] == [_json_line(nb, '"sha512           61234.56k')] * 3
    assert df.line.tolist()[3:] == [_json_line(nb, '"text": "OpenSSL 1.1.1w')] * 3


def test_the_prompt_of_a_cell_binds_its_options_and_bash_magic_lines_are_commands():
    got = _read(_notebook(_code('!OPENSSL_ia32cap="~0x200000200000000" openssl speed -evp sha512',
                                _stream(TABLE))))
    assert set(got.isa_mask) == {"~0x200000200000000"}
    got = _read(_notebook(_code("%%bash\nopenssl speed -elapsed -evp sha512\n",
                                _stream("You have chosen to measure elapsed time instead of user "
                                        "CPU time.\n", "stderr"), _stream(TABLE))))
    assert set(got.timing) == {"elapsed"}
    got = _read(_notebook(_code("%sx OPENSSL_ia32cap=0 openssl speed -evp sha512", _stream(TABLE))))
    assert set(got.isa_mask) == {"0"}


def test_a_cell_running_several_commands_for_one_output_binds_none_and_says_so():
    nb = _notebook(_code("%%bash\nopenssl speed -evp sha512\nOPENSSL_ia32cap=0 openssl speed -evp sha512",
                         _stream(TABLE + TABLE)))
    with pytest.warns(IngestWarning, match=r"line \d+: a cell runs 2 openssl speed commands"):
        df = cipherlab.ingest(nb)
    assert df.run.nunique() == 2 and "isa_mask" not in df


def test_stream_chunks_join_into_lines_and_the_other_stream_ends_an_open_line():
    """nbclient saves each chunk of a stream as an output: a line (a value) may be cut across
    two; a chunk of the other stream ends the line (stderr's Doing lines beside stdout)."""
    row = "sha512           61234.56k   245678.90k   498765.43k\n"
    head = TABLE[:TABLE.index("sha512")]
    nb = _notebook(_code("!openssl speed sha512",
                         _stream("Doing sha512 for 3s on 16 size blocks: ", "stderr"),
                         _stream("11481480 sha512's in 3.00s\n", "stderr"),
                         _stream(head + row[:25]), _stream(row[25:])))
    lines, _ = held_text(nb)
    assert "Doing sha512 for 3s on 16 size blocks: 11481480 sha512's in 3.00s" in lines
    assert row.rstrip("\n") in lines
    assert _read(nb).bytes_per_s.tolist() == [61234560.0, 245678900.0, 498765430.0]


def test_errors_html_images_and_code_are_no_text_and_a_repr_is_its_string():
    nb = _notebook(
        _code("1/0", {"output_type": "error", "ename": "ZeroDivisionError", "evalue": "1.5k 2.5k",
                      "traceback": ["\x1b[0;31mZeroDivisionError\x1b[0m: 16 bytes 1.00k 2.00k"]}),
        _code("display(df)", {"output_type": "display_data", "metadata": {},
                              "data": {"text/html": "<table><tr><td>sha512</td><td>1.00k</td></tr></table>",
                                       "image/png": "iVBORw0KGgo="}}),
        _code("subprocess.check_output(cmd, text=True)",
              {"output_type": "execute_result", "execution_count": 3, "metadata": {},
               "data": {"text/plain": repr(TABLE)}}))
    lines, _ = held_text(nb)
    assert lines == TABLE.splitlines()  # (the repr's string; no error, HTML, image, code)
    assert len(_read(nb)) == 3


def test_an_nbformat_3_notebook_is_read_too():
    nb = json.dumps({"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [{"cells": [
        {"cell_type": "heading", "level": 2, "source": ["Laptop"]},
        {"cell_type": "code", "input": ["!openssl speed sha512"], "language": "python",
         "outputs": [{"output_type": "stream", "stream": "stdout", "text": TABLE.splitlines(True)}]},
    ]}]})
    df = _read(nb)
    assert len(df) == 3 and set(df.label) == {"Laptop"}


def test_any_json_gives_its_strings_that_hold_lines_in_document_order():
    """API replies (a body with CRLF), logs in pieces (each string ending in a line break is
    continued by the next), JSON Lines; the same string twice is given once."""
    text = SAMPLE.read_text()
    reply = json.dumps({"id": 7, "title": "slow GCM", "body": text.replace("\n", "\r\n"),
                        "body_copy": text.replace("\n", "\r\n")})
    got, want = _read(reply), _read(text)
    assert set(got.line) == {1}
    assert got.drop(columns=["line", "source"]).equals(want.drop(columns=["line", "source"]))
    log = "".join(json.dumps({"log": line, "stream": "stdout"}) + "\n" for line in TABLE.splitlines(True))
    df = _read(log)
    assert df.line.tolist() == [4, 4, 4] and df.bytes_per_s.tolist()[0] == 61234560.0


def test_json_without_lines_in_its_strings_is_read_as_it_is():
    """``bssl speed -json`` holds its records as JSON values, not text: read by its own reader."""
    records = ('[{"description":"AES-128-GCM (16 bytes)","numCalls":2000000,"microseconds":1000000,'
               '"bytesPerCall":16}]')
    assert held_text(records) is None
    df = _read(records)
    assert df.algorithm.tolist() == ["aes-128-gcm"] and df.tool.tolist() == ["bssl"]


def test_a_text_that_is_not_json_costs_one_match_and_reads_as_before():
    prompt = "[root@box ~]# openssl speed sha512\n" + TABLE
    assert held_text(prompt) is None and not is_document(prompt)
    assert held_text("{ not json\n" + TABLE) is None
    assert len(_read(prompt)) == 3


def test_warnings_and_errors_name_the_json_line():
    nb = _notebook(_code("!openssl speed sha512",
                         _stream(TABLE.splitlines(True) + ["sha512  1.00k  oops  3.00k\n"])))
    with pytest.raises(IngestError) as err:
        cipherlab.ingest(nb, strict=True)
    assert err.value.lineno == _json_line(nb, "oops") and "oops" in err.value.line


def test_a_long_one_line_source_is_text_or_a_clear_error_never_an_oserror():
    text = SAMPLE.read_text()
    df = _read(json.dumps({"body": text}))  # (one line of 10 KB: no file name can be so long)
    assert len(df) == 48
    escaped = TABLE.replace("\n", "\\n")  # a JSON string's body pasted alone
    assert _read(escaped).bytes_per_s.tolist()[0] == 61234560.0
    for name in ("x" * 5000, "results/" + "y" * 300 + ".txt"):
        with pytest.raises(FileNotFoundError) as err:
            cipherlab.ingest(name)
        assert "..." in str(err.value) and len(str(err.value)) < 200


def test_the_cli_gives_no_traceback_on_a_long_argument():
    long = "z" * 5000
    done = subprocess.run([sys.executable, "-m", "cipherlab", "ingest", long],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "neither an existing file" in done.stderr and len(done.stderr) < 300


def test_a_folder_reads_notebooks_by_content_and_names_those_without_output(tmp_path):
    (tmp_path / "bench.ipynb").write_text(_notebook(_code("!openssl speed sha512", _stream(TABLE))))
    (tmp_path / "empty.ipynb").write_text(_notebook(_code("import cipherlab")))
    with pytest.warns(IngestWarning, match=r"1 file\(s\) skipped.*empty\.ipynb \(no measurements found\)"):
        df = cipherlab.ingest(tmp_path)
    assert len(df) == 3 and set(df.source) == {str(tmp_path / "bench.ipynb")}


def test_the_shipped_notebooks_hold_no_benchmark_and_say_so():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(IngestError, match="no measurements found"):
            cipherlab.ingest(ROOT / "notebooks")
    skipped = " ".join(str(w.message) for w in caught)
    assert "01_ingest_and_explore.ipynb (no measurements found)" in skipped


def test_records_of_two_tables_printed_after_both_join_their_tables():
    """nbclient's coalesce_streams puts a cell's stderr after its stdout: the Doing records of
    both tables follow both, and join their tables' runs (never a third run)."""
    row2 = TABLE.replace("61234.56k", "30617.28k")
    doing = "".join(f"Doing sha512 for 3s on {n} size blocks: {c} sha512's in 3.00s\n"
                    for counts in ((11481480, 11516198, 5844907), (5740740, 11516198, 5844907))
                    for n, c in zip((16, 64, 256), counts, strict=True))
    nb = _notebook(_code("%%bash\necho on\nopenssl speed sha512\necho off\nopenssl speed sha512",
                         _stream("on\n" + TABLE + "off\n" + row2), _stream(doing, "stderr")))
    df = _read(nb)
    assert df.run.nunique() == 2
    assert df["count"].tolist() == [11481480, 11516198, 5844907, 5740740, 11516198, 5844907]


def _linear():
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_linear import _assert_linear
    return _assert_linear


@pytest.mark.parametrize("shape", ["json lines", "one line of numbers", "stream chunks", "nesting"])
def test_json_reads_in_linear_time_and_memory(shape):
    """JSON is walked once, each string scanned in C; containers that hold no text, or lie on
    one line, are read by the C scanner; nesting too deep for the stack is no JSON, at once."""
    make = {
        "json lines": lambda n: "".join(json.dumps({"log": f"aes-128-cbc  {i}.00k\n", "n": i}) + "\n"
                                        for i in range(n * 300)),
        "one line of numbers": lambda n: json.dumps({"text": "a\nb", "v": list(range(n * 3000))}),
        "stream chunks": lambda n: _notebook(_code("!x", *[_stream(f"{i}.00k ") for i in range(n * 300)])),
        "nesting": lambda n: '["a\\nb",\n' + "[" * (n * 3000) + "]" * (n * 3000) + "]\n",
    }[shape]
    _linear()(make, 8)


def test_the_posts_of_a_reply_are_read_apart_and_no_label_crosses_them():
    """Comments of an issue, steps of a CI job: separate texts, each run labelled by its own
    post or by nothing (read as one text, the second run would take the first one's label)."""
    second = TABLE.replace("61234.56k", "30617.28k")
    comments = json.dumps([{"id": 1, "body": "On the laptop:\r\n\r\n" + TABLE},
                           {"id": 2, "body": second}], indent=2)
    df = _read(comments)
    assert [None if v != v else v for v in df.groupby("run", observed=True).label.first()] == \
        ["laptop", None]  # (the machine the caption names)
    assert df.line.tolist() == [_json_line(comments, "On the laptop")] * 3 + \
        [_json_line(comments, "30617.28k")] * 3
    with pytest.raises(IngestError, match="no measurements"):  # (each post alone is no error)
        cipherlab.ingest(json.dumps([{"body": "thanks!\nno numbers here"}, {"body": "+1\n"}]))


# A 3.x run split as ansible keeps it: stderr (the Doing lines), stdout (the rest); made up.
_ERR = ["Doing sha1 for 3s on 16 size blocks: 14017000 sha1's in 2.99s",
        "Doing sha1 for 3s on 64 size blocks: 9940123 sha1's in 3.00s"]
_OUT = ["version: 3.0.13", "The 'numbers' are in 1000s of bytes per second processed.",
        "type             16 bytes     64 bytes", "sha1             75007.36k   212056.00k"]


def test_ansible_results_on_one_line_are_read_by_host_with_their_command():
    result = {"changed": True, "cmd": ["env", "OPENSSL_ia32cap=~0x200000200000000", "openssl",
                                       "speed", "-seconds", "3", "sha1"],
              "rc": 0, "stderr": "\n".join(_ERR), "stderr_lines": _ERR,
              "stdout": "\n".join(_OUT), "stdout_lines": _OUT}
    text = "\n".join(["TASK [bench] ***", f"changed: [db-3] => {json.dumps(result)}",
                      f"changed: [db-4] => (item=sha1) => {json.dumps({**result, 'cmd': 'openssl speed sha1'})}",
                      "", "PLAY RECAP ***", "db-3 : ok=1 changed=1 unreachable=0 failed=0"]) + "\n"
    df = _read(text, n_jobs=1)
    runs = df.groupby("run")
    assert runs.label.first().tolist() == ["db-3", "db-4"]
    assert runs.line.first().tolist() == [2, 3]  # (each cell names its JSON line)
    assert df.isa_mask.tolist()[:2] == ["~0x200000200000000"] * 2 and df.isa_mask.isna().tolist()[2:] == [True] * 2
    assert sorted(df.bytes_per_s) == [75007360.0] * 2 + [212056000.0] * 2  # (not twice: *_lines)


def test_ansible_debug_results_give_their_lists_of_lines():
    lines = ["ok: [edge-1] => {", '    "msg": [']
    lines += [f"        {json.dumps(x)}," for x in _OUT[:-1]] + [f"        {json.dumps(_OUT[-1])}", "    ]", "}"]
    lines += ["fatal: [edge-2]: FAILED! => {\"changed\": false, \"msg\": \"openssl: not found\"}"]
    df = _read("\n".join(lines) + "\n", n_jobs=1)
    assert df.label.unique().tolist() == ["edge-1"]
    assert df.line.unique().tolist() == [6]
    assert df.bytes_per_s.tolist() == [75007360.0, 212056000.0]


def test_a_notice_printed_after_its_table_with_the_doing_lines_is_that_runs():
    """A capture that prints stdout, then stderr (a cell printing ``r.stdout``, then
    ``r.stderr``): the elapsed notice and the Doing lines come after the table they made."""
    out = "".join(x + "\n" for x in _OUT)
    err = "You have chosen to measure elapsed time instead of user CPU time.\n" + \
        "".join(x + "\n" for x in _ERR)
    nb = _notebook(_code(["print(r.stdout)\n", "print(r.stderr)"], _stream(out), _stream(err)),
                   _code("!openssl speed -seconds 3 md5", _stream("".join(
                       x.replace("sha1", "md5") + "\n" for x in [*_ERR, *_OUT]))))
    df = _read(nb, n_jobs=1)
    assert df.groupby("run").timing.first().tolist() == ["elapsed", "cpu"]


@pytest.mark.parametrize("lead_in, label", [
    ("**Ryzen 7 7840U laptop**: on battery, fans quiet", "Ryzen 7 7840U laptop"),
    ("__c7g.large instance__: two Graviton3 cores", "c7g.large instance"),
    ("**Update**: the same numbers again below", None),  # (names no machine)
])
def test_a_bold_lead_in_that_names_a_machine_labels_the_cell_below(lead_in, label):
    nb = _notebook({"cell_type": "markdown", "metadata": {}, "source": [lead_in]},
                   _code("!openssl speed -seconds 3 sha512", _stream(TABLE)))
    got = _read(nb, n_jobs=1).label.unique().tolist()
    assert got == [label] if label else pd_isna(got)


def pd_isna(values) -> bool:
    return len(values) == 1 and values[0] != values[0]  # (NaN: no label)


def test_ansible_one_line_ad_hoc_results_are_read_by_host():
    out, err = "\\n".join(_OUT), "\\n".join(_ERR)
    module = json.dumps({"changed": True, "rc": 0, "stdout": "\n".join(_OUT)})
    text = "\n".join([f"gw-1.lab | CHANGED | rc=0 | (stdout) {out} (stderr) {err}",
                      f"gw-2.lab | CHANGED => {module}",
                      "gw-3.lab | UNREACHABLE! => {\"changed\": false, \"unreachable\": true}"]) + "\n"
    runs = _read(text, n_jobs=1).groupby("run")
    assert runs.label.first().tolist() == ["gw-1.lab", "gw-2.lab"]
    assert runs.line.first().tolist() == [1, 2]
    assert runs.bytes_per_s.first().tolist() == [75007360.0, 75007360.0]
