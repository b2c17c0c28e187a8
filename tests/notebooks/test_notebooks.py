"""Notebooks 01-05 run top to bottom (nbclient, QUICK mode) and end with computed conclusions.

Notebook 06 has its own test (test_06_tls_transfer.py). The kernels are real: the capture cells of
03 and 04 run the real ``openssl speed`` for a few seconds.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
OURS = ["01_ingest_and_explore.ipynb", "02_aesni_ratio.ipynb", "03_gcm_small_blocks.ipynb",
        "04_capture_this_machine.ipynb", "05_paper_figures.ipynb"]
CAPTURES = {"03_gcm_small_blocks.ipynb", "04_capture_this_machine.ipynb"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _generator():
    spec = importlib.util.spec_from_file_location("make_notebooks", NOTEBOOKS / "make_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _outputs(cell) -> str:
    parts = []
    for o in cell.get("outputs", []):
        parts.append(o.get("text", ""))
        for mime in ("text/plain", "text/markdown"):
            parts.append(str(o.get("data", {}).get(mime, "")))
    return "\n".join(parts)


def test_every_notebook_is_tested():
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(OURS + ["06_tls_transfer.ipynb"])


@pytest.mark.parametrize("name", OURS)
def test_committed_without_outputs_and_generated(name, tmp_path):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(not c.outputs and c.execution_count is None for c in code), \
        f"{name} was committed with outputs: run `python notebooks/make_notebooks.py`"
    # the committed file is exactly what the generator writes (the code is reviewed there)
    gen = _generator()
    gen.HERE = tmp_path
    fresh = nbformat.read(gen.write(name), as_version=4)
    assert [(c.cell_type, c.source) for c in fresh.cells] == \
        [(c.cell_type, c.source) for c in nb.cells], f"regenerate {name} with make_notebooks.py"
    # opens with the question, then a parameters cell with QUICK = True
    assert "**Question" in nb.cells[0].source
    assert code[0].metadata.get("tags") == ["parameters"]
    assert re.search(r"^QUICK = True\b", code[0].source, re.M)


@pytest.mark.notebook
@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.openssl) if n in CAPTURES else n for n in OURS])
def test_notebook_runs_and_concludes_from_its_numbers(name, run_notebook):
    nb = run_notebook(name)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    text = "\n".join(_outputs(c) for c in code)
    assert "Traceback" not in text
    conclusions = _outputs(code[-1])
    # the conclusions are a Markdown display built from the results: numbers, no missing values
    assert nb.cells[-2].source.strip() == "## Conclusions"
    assert "text/markdown" in code[-1].outputs[-1].get("data", {})
    assert re.search(r"\d", conclusions)
    assert not re.search(r"\bnan\b|\{|\}", conclusions), conclusions
    # every explorer rendered: a widget view plus, in its saved state, a PNG of the figure
    if "widgets." in "".join(c.source for c in code):
        assert any(WIDGET_VIEW in o.get("data", {}) for c in code for o in c.outputs)
        state = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
        outputs = [o for m in state.values() if m["model_name"] == "OutputModel"
                   for o in m["state"].get("outputs", [])]
        assert any("image/png" in o.get("data", {}) for o in outputs)
