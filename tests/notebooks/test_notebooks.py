"""The six notebooks: paired sources, lint-clean, run top to bottom (nbclient, QUICK mode), every
figure shown, conclusions computed from the numbers.

Each notebook is executed once per session (the ``executed`` fixture) and every test here reads
that one run. The kernels are real: 03, 04 and 06 run the real ``openssl speed`` and TLS transfers
for a few seconds each.
"""

from __future__ import annotations

import base64
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

STEMS = ["01_ingest_and_explore", "02_aesni_ratio", "03_gcm_small_blocks",
         "04_capture_this_machine", "05_paper_figures", "06_tls_transfer"]
CAPTURES = {"03_gcm_small_blocks", "04_capture_this_machine", "06_tls_transfer"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
#: A cell makes a static figure when it builds one (the explorers draw inside their widget).
MAKES_FIGURE = re.compile(r"\bFigure\(|\bplt\.(subplots|figure)\(|\.figure\(|\bImage\(")
REPO = NOTEBOOKS.parent

executes = [pytest.param(s, marks=[pytest.mark.notebook, pytest.mark.slow]
                         + ([pytest.mark.openssl] if s in CAPTURES else [])) for s in STEMS]


def outputs_text(cell) -> str:
    parts = []
    for o in cell.get("outputs", []):
        parts.append(o.get("text", ""))
        for mime in ("text/plain", "text/markdown"):
            parts.append(str(o.get("data", {}).get(mime, "")))
    return "\n".join(parts)


def png_width(b64: str) -> int:
    """The pixel width of a base64 PNG (from its IHDR chunk)."""
    return struct.unpack(">I", base64.b64decode(b64[:64])[16:20])[0]


def code_cells(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code"]


DASHBOARD = "dashboard/explorers"


def test_every_notebook_is_tested():
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")) == STEMS
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.py")) == STEMS  # one source per notebook
    assert sorted(NOTEBOOKS.glob("*/*.ipynb")) == [NOTEBOOKS / f"{DASHBOARD}.ipynb"]


@pytest.mark.parametrize("stem", [*STEMS, DASHBOARD])
def test_the_py_source_and_the_ipynb_are_paired(stem):
    source = jupytext.read(NOTEBOOKS / f"{stem}.py")
    paired = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    assert [(c.cell_type, c.source) for c in paired.cells] == \
        [(c.cell_type, c.source) for c in source.cells], \
        f"{stem}.ipynb differs from {stem}.py: run `.venv/bin/jupytext --sync notebooks/{stem}.py`"
    assert paired.metadata["jupytext"]["formats"] == "ipynb,py:percent"
    if stem == DASHBOARD:
        return
    # opens with the question, then a parameters cell (papermill) with QUICK = True
    code = code_cells(source)
    assert "**Question" in source.cells[0].source
    assert code[0].metadata.get("tags") == ["parameters"]
    assert re.search(r"^QUICK = True\b", code[0].source, re.M)


@pytest.mark.parametrize("stem", [*STEMS, DASHBOARD])
def test_the_tracked_ipynb_holds_no_outputs(stem):
    """What git holds (the index) has no outputs, whatever Lab saved in the working copy."""
    name = f"notebooks/{stem}.ipynb"
    shown = subprocess.run(["git", "show", f":{name}"], cwd=REPO, capture_output=True, text=True)
    if shown.returncode:
        pytest.skip(f"not a git checkout: {shown.stderr.strip()}")
    nb = nbformat.reads(shown.stdout, as_version=4)
    assert all(not c.outputs and c.execution_count is None for c in code_cells(nb)), name
    assert "widgets" not in nb.metadata, name


def test_saving_in_lab_cannot_commit_outputs(tmp_path):
    """The git clean filter (nbstripout, set up by `make setup`) strips what a Lab save writes."""
    attr = subprocess.run(["git", "check-attr", "filter", "--", "notebooks/01_ingest_and_explore.ipynb"],
                          cwd=REPO, capture_output=True, text=True)
    if attr.returncode:
        pytest.skip("not a git checkout")
    assert attr.stdout.strip().endswith("filter: nbstripout"), attr.stdout
    clean = subprocess.run(["git", "config", "filter.nbstripout.clean"], cwd=REPO,
                           capture_output=True, text=True).stdout.strip()
    assert clean, "the nbstripout filter is not configured in .git/config: run `make setup`"
    nb = nbformat.read(NOTEBOOKS / "01_ingest_and_explore.ipynb", as_version=4)
    cell = code_cells(nb)[1]
    cell.execution_count = 3
    cell.outputs = [nbformat.v4.new_output("stream", text="saved by Lab\n")]
    nb.metadata["widgets"] = {WIDGET_STATE: {"state": {}}}
    stripped = subprocess.run(clean, shell=True, input=nbformat.writes(nb), cwd=REPO,
                              capture_output=True, text=True, check=True).stdout
    again = nbformat.reads(stripped, as_version=4)
    assert all(not c.outputs and c.execution_count is None for c in code_cells(again))
    assert "widgets" not in again.metadata
    assert [c.source for c in again.cells] == [c.source for c in nb.cells]


def test_the_sources_are_lint_clean():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed: `make setup` installs the test extras")
    done = subprocess.run([ruff, "check", "--output-format", "concise", "notebooks"],
                          cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("stem", executes)
def test_notebook_runs_and_concludes_from_its_numbers(stem, executed):
    nb = executed(stem)
    code = code_cells(nb)
    assert all(c.execution_count for c in code)
    text = "\n".join(outputs_text(c) for c in code)
    assert "Traceback" not in text
    # the conclusions are Markdown displays built from the results: numbers, no missing values
    cells = conclusion_cells(nb)
    assert cells and all("text/markdown" in c.outputs[-1].get("data", {}) for c in cells)
    text = conclusions(nb)
    assert re.search(r"\d", text)
    assert not re.search(r"\bnan\b|\{|\}|<NA>", text), text


@pytest.mark.parametrize("stem", executes)
def test_every_figure_is_shown_as_a_sharp_png(stem, executed):
    nb = executed(stem)
    figures = [c for c in code_cells(nb) if MAKES_FIGURE.search(c.source)]
    for cell in figures:
        pngs = [o for o in cell.outputs if "image/png" in o.get("data", {})]
        assert pngs, f"{stem} cell {cell.execution_count} makes a figure but shows no PNG: " \
                     f"{outputs_text(cell)[:200]!r}"
        for out in pngs:  # HiDPI: at least 1.5 image pixels per CSS pixel shown
            shown = out.get("metadata", {}).get("image/png", {}).get("width")
            assert shown and png_width(out["data"]["image/png"]) >= 1.5 * shown, \
                f"{stem} cell {cell.execution_count}: PNG not sharp on HiDPI ({out.get('metadata')})"
    # every explorer rendered: a widget view plus, in its saved state, a PNG of the figure
    if any("widgets." in c.source for c in code_cells(nb)):
        assert any(WIDGET_VIEW in o.get("data", {}) for c in code_cells(nb) for o in c.outputs)
        state = nb.metadata["widgets"][WIDGET_STATE]["state"]
        shown = [o for m in state.values() if m["model_name"] == "OutputModel"
                 for o in m["state"].get("outputs", [])]
        assert any("image/png" in o.get("data", {}) for o in shown)
        # and the HTML kept for readers without a kernel carries that state
        page = (executed.folder / f"{stem}.html").read_text(encoding="utf-8")
        assert WIDGET_STATE in page and "cipherlab-explorer" in page
    assert figures or "widgets." in "".join(c.source for c in code_cells(nb)), \
        f"{stem} shows no figure at all"


def conclusion_cells(nb) -> list:
    """The code cells after the notebook's last "## Conclusions" heading (its last section)."""
    heads = [i for i, c in enumerate(nb.cells)
             if c.cell_type == "markdown" and c.source.strip() == "## Conclusions"]
    assert heads, "the notebook has no '## Conclusions' section"
    return [c for c in nb.cells[heads[-1] + 1:] if c.cell_type == "code"]


def conclusions(nb) -> str:
    return "\n".join(c.outputs[-1]["data"]["text/markdown"] for c in conclusion_cells(nb))


@pytest.mark.notebook
@pytest.mark.slow
def test_02_quotes_plausible_tiers_and_says_which_mode_gains_more(executed):
    nb = executed("02_aesni_ratio")
    text = conclusions(nb)
    # the largest tier ratio quoted is the largest of the table shown, from which lint's
    # physically impossible rows (AF_ALG kernel rows of OpenSSL 3.0.2: 183x) were left out
    tier_table = next(outputs_text(c) for c in code_cells(nb) if "tier_ratio[[" in c.source)
    assert re.search(r"^[1-9]\d* row\(s\) left out as implausible", tier_table, re.M)
    ratios = [float(x) for x in re.findall(r"asm\s+([\d.]+)\s*$", tier_table, re.M)]
    quoted = float(re.search(r"the largest ratio is\s+([\d,.]+)×", text).group(1).replace(",", ""))
    assert quoted == pytest.approx(max(ratios), abs=0.05) and quoted < 100
    # each "X gains more" agrees with the two ratios quoted beside it
    pairs = re.findall(r"GCM ([\d.]+)×, CBC ([\d.]+)× \(\*\*(GCM|CBC) gains more\*\*\)", text)
    assert len(pairs) >= 2, text
    for gcm, cbc, winner in pairs:
        assert winner == ("GCM" if float(gcm) > float(cbc) else "CBC")


@pytest.mark.notebook
@pytest.mark.slow
@pytest.mark.openssl
def test_06_ends_with_a_verdict_that_says_whether_the_transfer_was_cipher_bound(executed):
    text = conclusions(executed("06_tls_transfer"))
    verdict = re.search(r"\*\*Verdict:\*\* (.*)", text, re.S).group(1)
    shares = re.search(r"measured / predicted ([\d.]+)-([\d.]+), below ([\d.]+)", verdict)
    if "not cipher-bound" in verdict:
        assert shares and float(shares.group(1)) < float(shares.group(3))
        assert "cannot settle the OpenJDK question" in verdict
    else:
        assert "were cipher-bound" in verdict and "answers the seed's question" in verdict


@pytest.mark.parametrize("stem", [s for s in executes if s.values[0] in CAPTURES])
def test_quick_runs_leave_no_scratch_folder_behind(stem, executed):
    nb = executed(stem)
    said = "\n".join(outputs_text(c) for c in code_cells(nb))
    scratch = re.search(r"(?:captures go to|->)\s*(\S*cipherlab-scratch/\S+)", said)
    assert scratch, "the notebook does not say where its QUICK captures go"
    assert not Path(scratch.group(1)).exists(), f"{scratch.group(1)} left behind"
