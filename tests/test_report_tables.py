"""Every table of the reports compiles with pdflatex in a two-column article without an
overfull box, and its headers are words with units, not column names."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

pytestmark = pytest.mark.skipif(shutil.which("pdflatex") is None,
                                reason="pdflatex missing: `make system-deps` installs it")

ARTICLE = r"""\documentclass[twocolumn]{article}
\usepackage[utf8]{inputenc}
\usepackage[T1]{fontenc}
\usepackage{booktabs}
\begin{document}
Text before the table.
\input{table}
\end{document}
"""


def _compile(tex, tmp_path) -> str:
    folder = tmp_path / tex.stem
    folder.mkdir()
    shutil.copy(tex, folder / "table.tex")
    (folder / "paper.tex").write_text(ARTICLE)
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
                          cwd=folder, capture_output=True, text=True, timeout=120)
    log = (folder / "paper.log").read_text(errors="replace")
    assert done.returncode == 0, f"{tex.name}: " + "\n".join(
        ln for ln in log.splitlines() if ln.startswith("!"))[:2000]
    return log


def _check_all(page, tmp_path):
    tables = sorted((page.parent / "tables").glob("*.tex"))
    assert tables
    overfull = {}
    for tex in tables:
        log = _compile(tex, tmp_path)
        found = re.findall(r"Overfull \\hbox \((\d+\.\d+)pt too wide\)", log)
        if found:
            overfull[tex.name] = found
        header = next(ln for ln in tex.read_text().splitlines()
                      if ln.endswith(r"\\") and "&" in ln)
        assert "\\_" not in header, (tex.name, header)  # no snake_case column names
    assert overfull == {}


def test_every_bundled_table_fits_a_two_column_paper(bundled_report, tmp_path):
    page, _, _ = bundled_report
    _check_all(page, tmp_path)
    tex = (page.parent / "tables" / "aesni-speedup.tex").read_text()
    assert "Ratio [95\\% CI]" in tex and "Block (B)" in tex and "1394193892" not in tex


@pytest.mark.openssl
def test_every_capture_table_fits_a_two_column_paper(captured_report, tmp_path):
    page, _, _ = captured_report
    _check_all(page, tmp_path)


def test_every_two_machine_table_fits_a_two_column_paper(two_machines_report, tmp_path):
    page, _, _ = two_machines_report
    _check_all(page, tmp_path)
