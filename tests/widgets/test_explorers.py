"""The explorers driven in-process on the bundled data: set a control, check what was redrawn.

No kernel and no browser here (tests/notebooks does those): the widgets are plain Python objects
whose controls are set as a click would set them. Every number behind a figure comes from
cipherlab.stats, so these tests check the wiring (the right rows, the right call, a redraw per
change, a clear message when a selection cannot be answered), not the statistics again.
"""

from __future__ import annotations

import base64
import re
import struct
import warnings
from pathlib import Path

import pandas as pd
import pytest

import cipherlab
from cipherlab import stats
from cipherlab.errors import AnalysisError

widgets = pytest.importorskip("cipherlab.widgets")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def bundled() -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.CipherlabWarning)
        return cipherlab.datasets.load()


@pytest.fixture(scope="module")
def aws() -> pd.DataFrame:
    return cipherlab.datasets.load("aws-wiki-aesni-on-off.txt")


def _count_redraws(w):
    calls = []
    original = w.redraw

    def counting():
        calls.append(1)
        original()

    w.redraw = counting
    return calls


# -- explorer ---------------------------------------------------------------------------------

def test_explorer_draws_the_bundled_data_and_redraws_once_per_change(bundled):
    w = widgets.explorer(bundled)
    assert w.png.startswith(PNG_MAGIC) and not w.message
    assert w.algorithm.value == "aes-128-gcm" and w.operation.value == "encrypt"
    gcm = bundled[bundled.algorithm.eq("aes-128-gcm") & bundled.block_bytes.notna()]
    assert set(w.runs.value) == set(gcm.host.dropna().astype(str))  # every machine with GCM
    before_png, before_table = w.png, w.table.copy()
    calls = _count_redraws(w)

    w.algorithm.value = "aes-128-cbc"  # a dropdown change, as a click makes it

    assert len(calls) == 1  # dependent controls (runs, operation, values) did not redraw again
    assert w.png != before_png and w.png.startswith(PNG_MAGIC)
    assert set(w.table["algorithm"]) == {"aes-128-cbc"} != set(before_table["algorithm"])
    # the runs offered follow the algorithm: the NetBSD thread measured CBC but not GCM
    assert "NetBSD (P3 750Mhz; 512MBram)" in w.runs.options
    assert "aes-128-cbc" in w.status.value


def _legend_texts(fig) -> list[str]:
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)
    return [t.get_text() for lg in legends for t in lg.get_texts()]


def test_explorer_lines_are_one_per_machine_and_condition_and_files_only_when_asked(bundled):
    w = widgets.explorer(bundled)
    w.algorithm.value = "aes-128-cbc"  # host-a's CBC rows come from four files
    texts = _legend_texts(w.figure)
    assert not any(t.endswith(".txt") for t in texts) and "source" not in w.table.columns
    assert {"AES-NI on", "AES-NI off", "nothing off"} <= set(texts)  # the condition chosen splits
    # one line (and one table row) per machine and condition: host-a's files are its runs
    host_a = w.table[w.table["host"] == "host-a"]
    assert len(host_a) == 1
    w.condition.value = "source"  # asked for: one line per file
    assert any(t.endswith(".txt") for t in _legend_texts(w.figure))
    assert len(w.table[w.table["host"] == "host-a"]) > 1


def test_explorer_table_holds_the_plotted_medians(aws):
    w = widgets.explorer(aws)
    sel = aws[(aws.algorithm == "aes-128-gcm") & (aws.aesni == "on")]
    row = w.table[w.table["aesni"] == "on"].iloc[0]
    for size, rate in zip(sel.block_bytes, sel.bytes_per_s, strict=True):
        assert row[f"{size} B"] == pytest.approx(rate)


def test_explorer_block_range_and_values_filter_the_rows(aws):
    w = widgets.explorer(aws)
    w.blocks.value = (64, 1024)
    assert list(w.table.columns[-3:]) == ["64 B", "256 B", "1024 B"]
    w.levels.value = ("off",)
    assert set(w.table["aesni"]) == {"off"}


def test_explorer_ratio_to_baseline_is_stats_compare(aws):
    w = widgets.explorer(aws, metric="ratio to baseline")
    assert w.condition.value == "aesni" and w.baseline.value == "off"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.CipherlabWarning)
        expected = stats.compare(aws[aws.algorithm == "aes-128-gcm"], by="aesni", baseline="off")
    assert w.table["ratio"].tolist() == pytest.approx(expected["ratio"].tolist())
    assert w.notes  # the single-value warning of compare is shown under the plot, not lost


def test_explorer_per_ghz_and_cycles_per_byte_use_the_clock(bundled):
    w = widgets.explorer(bundled[bundled.clock_hz.isna() & bundled.cpu.isna()])
    w.metric.value = "per GHz"  # no machine names its clock here
    assert w.message.startswith("per GHz needs the clock") and w.png == b""
    w = widgets.explorer(bundled)
    w.algorithm.value = "aes-256-cbc"  # the tier seed names the VIA's 1.0 GHz
    w.condition.value = "tier"
    w.metric.value = "cycles/byte"
    assert not w.message and w.png.startswith(PNG_MAGIC)
    via = w.table[w.table["host"].astype(str).eq("VIA Luke")]
    assert len(via) and (via["8192 B"] > 0).all()


def test_explorer_says_why_instead_of_failing(aws):
    w = widgets.explorer(aws)
    w.metric.value = "ratio to baseline"
    w.condition.value = "(all)"
    assert "needs a condition" in w.message and "Condition" in w.status.value
    w.condition.value = "aesni"  # back to a valid choice: the figure returns
    assert not w.message and w.png.startswith(PNG_MAGIC)


def test_explorer_export_writes_paper_files(aws, tmp_path):
    w = widgets.explorer(aws)
    files = w.export(tmp_path / "gcm")
    assert sorted(p.name for p in files) == ["gcm.csv", "gcm.pdf", "gcm.png", "gcm.svg", "gcm.tex",
                                             "gcm.txt"]
    assert all(p.stat().st_size > 1000 for p in files if p.suffix in (".pdf", ".png", ".svg"))
    # the paste is one run: the caption says so, in every file that carries it
    caption = (tmp_path / "gcm.txt").read_text().strip()
    assert caption == w.caption() and "Unreplicated: one run behind each of the 10 points" in caption
    assert "interval" in caption and "band" not in caption
    assert _pdf_subject((tmp_path / "gcm.pdf").read_bytes()) == caption
    assert "\\caption{" in (tmp_path / "gcm.tex").read_text() and "Unreplicated" in (
        tmp_path / "gcm.tex").read_text()
    assert pd.read_csv(tmp_path / "gcm.csv").shape == w.table.shape  # the CSV in bytes/s
    tex = (tmp_path / "gcm.tex").read_text()
    assert "Rates in MB/s." in tex and "72.8" in tex  # 72,770,610 B/s at 16 B, AES-NI off
    w.export_path.value = str(tmp_path / "clicked")
    w.export_button.click()
    assert (tmp_path / "clicked.pdf").exists()
    # download links to the files written, carried in the page (data URIs: Lab, VS Code, Voila)
    links = re.findall(r"<a download='(clicked\.\w+)' href='data:([\w/+.-]+);base64,([^']+)'",
                       w.downloads.value)
    assert sorted(n for n, _, _ in links) == ["clicked.csv", "clicked.pdf", "clicked.png",
                                              "clicked.svg", "clicked.tex", "clicked.txt"]
    kinds = {n: k for n, k, _ in links}
    assert kinds["clicked.pdf"] == "application/pdf" and kinds["clicked.svg"] == "image/svg+xml"
    data = {n: base64.b64decode(d) for n, _, d in links}
    assert data["clicked.pdf"] == (tmp_path / "clicked.pdf").read_bytes()


@pytest.mark.parametrize("width", ["single", "double"])
@pytest.mark.parametrize("make", ["explorer", "overhead_explorer"])
def test_exported_figures_fit_a_paper_column_and_page(bundled, make, width):
    """What Export saves, at the column width it is saved at: no tick labels, titles or legend
    entries running into each other or off the page (the overhead panels stack when narrow)."""
    from cipherlab import plots

    w = getattr(widgets, make)(bundled)
    fig = w.paper_figure(width)
    with plots.paper(width):
        assert plots.layout_problems(fig) == []
    if make == "overhead_explorer":  # on paper one panel above the other; on screen beside
        top, bottom = fig.axes
        assert top.get_position().y0 > bottom.get_position().y1
        left, right = w.figure.axes
        assert left.get_position().x1 < right.get_position().x0


def test_a_change_that_alters_nothing_redraws_nothing(bundled):
    w = widgets.explorer(bundled)
    calls = _count_redraws(w)
    measured = sorted(set(w.selection().block_bytes))
    offered = [v for _, v in w.blocks.options]
    assert offered[-1] > measured[-1]  # the table has sizes GCM was not measured at (TLS)
    w.blocks.value = (offered[0], measured[-1])  # the same rows: the same picture stays
    assert calls == []
    w.blocks.value = (offered[0], measured[-2])  # one size fewer: redrawn
    assert len(calls) == 1


def test_the_screen_png_is_hidpi_and_shown_at_css_size(aws):
    w = widgets.explorer(aws)
    out = w.plot.outputs[0]
    pixels = struct.unpack(">I", w.png[16:20])[0]
    shown = out["metadata"]["image/png"]["width"]
    assert pixels >= 1.5 * shown - 1 and 400 < shown < 1000  # fits a 1280-px screen, text ~13 px


def test_screen_text_drawn_from_kept_bitmaps_looks_as_matplotlib_draws_it():
    """The screen renderer pastes each text's bitmap kept from an earlier draw: the picture is
    the one matplotlib's own Agg draws (glyphs placed to the whole pixel, not to 1/64 of one)."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from cipherlab.widgets._base import _DPI, _ScreenCanvas

    def pixels(canvas_class):
        fig = Figure(figsize=(3, 2), dpi=_DPI)
        ax = fig.add_subplot()
        ax.plot([1, 2, 3], label="aes-128-gcm · host-b · openssl 3.0.22")
        ax.set_ylabel("Speed-up")  # rotated: drawn by matplotlib itself
        fig.subplots_adjust(left=0.25)
        ax.set_title("aesni=on / aesni=off, per cell", fontsize="medium")
        ax.legend(loc="lower right", fontsize="small")
        canvas = canvas_class(fig)
        canvas.draw()
        return np.asarray(canvas.buffer_rgba())[..., :3].astype(int)

    def ink(a):  # dark pixels (text, lines, frame), and those within one pixel of them
        dark = np.pad(a.min(axis=2) < 128, 1)
        near = np.zeros_like(dark)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                near |= np.roll(np.roll(dark, dy, axis=0), dx, axis=1)
        return dark[1:-1, 1:-1], near[1:-1, 1:-1]

    stock = pixels(FigureCanvasAgg)
    first, again = pixels(_ScreenCanvas), pixels(_ScreenCanvas)  # bitmaps made, then reused
    assert (first == again).all()
    (dark, near), (dark_kept, near_kept) = ink(stock), ink(first)
    assert abs(int(dark.sum()) - int(dark_kept.sum())) < 0.05 * dark.sum()  # as much ink
    assert (dark_kept & ~near).sum() < 0.01 * dark.sum()  # each dark pixel where matplotlib's
    assert (dark & ~near_kept).sum() < 0.01 * dark.sum()  # is, to within a pixel


def test_explorer_rejects_what_is_not_a_tidy_table(aws):
    with pytest.raises(AnalysisError, match="tidy table"):
        widgets.explorer(aws.to_dict())
    with pytest.raises(AnalysisError, match=r"column\(s\) \['bytes_per_s'\]"):
        widgets.explorer(aws.drop(columns="bytes_per_s"))
    with pytest.raises(AnalysisError, match="`metric` must be one of .*; not 'MB/s'"):
        widgets.explorer(aws, metric="MB/s")
    pkey = aws.assign(block_bytes=pd.NA)
    with pytest.raises(AnalysisError, match="block size"):
        widgets.explorer(pkey)


def test_explorers_never_modify_their_table(bundled):
    copy = bundled.copy()
    for make in (widgets.explorer, widgets.speedup_explorer, widgets.overhead_explorer):
        w = make(bundled)
        w.redraw()
    pd.testing.assert_frame_equal(bundled, copy)


# -- speedup_explorer -------------------------------------------------------------------------

def test_speedup_slider_retests_the_claim(aws):
    w = widgets.speedup_explorer(aws)
    assert (w.by.value, w.candidate.value, w.baseline.value) == ("aesni", "on", "off")
    assert w.expected.value == 2.0
    expected = stats.ratio_test(aws, by="aesni", baseline="off", candidate="on", expected=2.0)
    assert w.table["ratio"].tolist() == pytest.approx(expected["ratio"].tolist())
    # one run per side: every cell described, none tested (blank verdicts)
    assert w.table["equivalent"].isna().all() and expected["equivalent"].isna().all()
    cbc = w.table["algorithm"].astype(str).str.endswith("cbc")
    assert w.table.loc[cbc, "ratio"].between(1.8, 2.2).all()  # the AWS CBC rows: about 2x
    assert "described, not tested" in w.status.value
    # the Test and Adjust p dropdowns would change nothing: disabled, and the status says why
    assert w.test.disabled and w.adjust.disabled
    assert "the unit of replication is the run" in w.status.value and "Adjust p" in w.test.tooltip
    before, left = w.png, w.comparison_png
    assert left.startswith(PNG_MAGIC) and w.side_plot.outputs

    w.expected.value = 5.0  # the slider

    assert w.png != before
    assert w.comparison_png is left  # the per-cell comparison beside it is not redrawn
    assert (w.table["expected"] == 5.0).all()
    assert w.table["differs"].isna().all()
    assert "claimed 5× ± 10%" in w.status.value
    assert "Tests per cell (compare)" in w.tables and "p_adjusted" in w.comparison.columns
    comparison = w.comparison
    w.adjust.value = "bh"  # a change of the tests recomputes the comparison ...
    assert w.comparison is not comparison
    with pytest.warns(cipherlab.CipherlabWarning, match="no replication"):  # the same note the widget shows
        direct = stats.compare(aws, by="aesni", baseline="off", candidate="on",
                               groupby=["algorithm", "operation", "block_bytes"], adjust="bh")
    pd.testing.assert_frame_equal(w.comparison, direct)
    # ... whose picture is the same (no repeats: no cell is tested, none marked): not redrawn
    assert w.comparison_png is left
    w.algorithms.value = w.algorithms.value[:2]  # other cells: a new picture
    assert w.comparison_png != left and w.comparison_png.startswith(PNG_MAGIC)
    assert set(w.comparison["algorithm"].astype(str)) == set(w.algorithms.value)
    w.algorithms.value = tuple(w.algorithms.options)  # back: the first picture, kept
    assert w.comparison_png is left


def test_speedup_explorer_sides_follow_the_column(bundled):
    tiers = bundled[bundled.source.astype(str).str.contains("tiers")]
    w = widgets.speedup_explorer(tiers)
    assert w.by.value == "tier" and w.baseline.value == "asm"
    w.candidate.value = "kernel"
    # the two machines and two versions are kept apart: each label holds both tiers
    assert "label" in w.table.columns and w.table["label"].nunique() == 4
    w.candidate.value = "asm"
    assert "both" in w.message
    # the comparison of the sides before is not kept as if it were this selection's
    assert w.comparison is None and w.comparison_png is None and not w.side_plot.outputs
    w.candidate.value = "kernel"
    assert w.comparison is not None and w.side_plot.outputs


def test_speedup_explorer_machines_are_kept_apart(bundled):
    w = widgets.speedup_explorer(bundled[bundled.aesni.notna()])
    sel, keys = w.selection()
    assert "host" in keys  # AWS and host-b each hold both sides: never pooled
    both = bundled[bundled.aesni.notna()].groupby("host", observed=True).aesni.nunique()
    assert set(w.comparison["host"].astype(str)) == set(both[both == 2].index.astype(str))


def test_speedup_explorer_needs_two_sides(aws):
    one_side = aws[aws.aesni == "on"].drop(columns="aesni")
    with pytest.raises(AnalysisError, match="two sides"):
        widgets.speedup_explorer(one_side)
    with pytest.raises(AnalysisError, match=r"`by` must be one of \['aesni'"):
        widgets.speedup_explorer(aws, by="tier")


# -- overhead_explorer ------------------------------------------------------------------------

def test_overhead_explorer_fits_and_crosses(aws):
    w = widgets.overhead_explorer(aws)
    assert (w.a.value, w.b.value) == ("aes-128-gcm", "aes-128-cbc")
    expected = stats.crossover(aws[aws.algorithm.isin(["aes-128-gcm", "aes-128-cbc"])])
    got = w.crossover.set_index("aesni")["crossover_bytes"]
    want = expected.set_index("aesni")["crossover_bytes"]
    assert got["on"] == pytest.approx(want["on"]) and got["off"] == want["off"]
    assert "t0_ns" in w.tables["Per-call cost t(n) = t0 + c·n"].columns
    assert "aesni=on: at 45.4 B" in w.status.value
    before = w.png

    w.b.value = "aes-256-cbc"

    assert w.png != before and set(w.fit["algorithm"].astype(str)) == {"aes-128-gcm", "aes-256-cbc"}


def test_overhead_explorer_same_algorithm_twice_is_a_message(aws):
    w = widgets.overhead_explorer(aws)
    w.b.value = "aes-128-gcm"
    assert "pick two algorithms" in w.message


def test_overhead_explorer_needs_two_sized_algorithms(bundled):
    tiers = bundled[bundled.source.astype(str).str.contains("tiers")]  # 8 KiB only
    with pytest.raises(AnalysisError, match="two block sizes"):
        widgets.overhead_explorer(tiers)


# -- on a fresh capture -----------------------------------------------------------------------

@pytest.mark.openssl
def test_explorers_work_on_a_real_capture(tmp_path):
    df = cipherlab.capture(["aes-128-gcm", "aes-128-cbc"], sizes=[16, 1024], seconds=1,
                           repeats=1, isa=["native"], out=tmp_path / "cap", progress=False)
    w = widgets.explorer(df)
    assert w.runs.options == (str(df["host"].iloc[0]),) and w.png.startswith(PNG_MAGIC)
    o = widgets.overhead_explorer(df)
    assert not o.message and len(o.crossover) == 1


def _pdf_subject(pdf: bytes) -> str:
    """The PDF's /Subject as a reader shows it (a literal string, or UTF-16 hex for non-ASCII)."""
    hexa = re.search(rb"/Subject <FEFF([0-9A-Fa-f]*)>", pdf)
    if hexa:
        return bytes.fromhex(hexa.group(1).decode()).decode("utf-16-be")
    text = re.search(rb"/Subject \((.*?)(?<!\\)\)", pdf, re.S).group(1)
    text = re.sub(rb"\\(.)", rb"\1", text, flags=re.S)
    return text[2:].decode("utf-16-be") if text.startswith(b"\xfe\xff") else text.decode("latin-1")


@pytest.mark.openssl
@pytest.mark.slow
def test_exports_of_a_replicated_capture_say_n_and_the_interval(tmp_path):
    """A real capture with three runs per condition, exported from each explorer as a user does:
    the caption (file, PDF/SVG/PNG metadata, LaTeX) names n and the interval; fonts embed as
    TrueType; the PNG is 300 dpi at a column's 3.5 in; the CSV is the table shown."""
    from PIL import Image

    df = cipherlab.capture(["aes-128-gcm", "aes-128-cbc"], sizes=[16, 1024], seconds=1,
                           repeats=3, isa=["native", "no-aesni"], out=tmp_path / "cap",
                           progress=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.CipherlabWarning)
        made = {"explorer": widgets.explorer(df), "speedup": widgets.speedup_explorer(df),
                "overhead": widgets.overhead_explorer(df)}
        for name, w in made.items():
            assert not w.message, (name, w.message)
            caption = w.caption()
            assert "n = 3 independent runs" in caption and "Unreplicated" not in caption, caption
            files = {p.suffix: p for p in w.export(tmp_path / name, width="single")
                     if p.stem == name}  # (the first table; others are name-<title>.csv)
            assert {".pdf", ".svg", ".png", ".txt", ".csv", ".tex"} <= set(files)
            pdf = files[".pdf"].read_bytes()
            assert b"/Subtype /Type3" not in pdf and b"/FontFile2" in pdf
            assert _pdf_subject(pdf) == caption
            assert "n = 3 independent runs" in files[".svg"].read_text()
            png = Image.open(files[".png"])
            assert round(png.info["dpi"][0]) == 300 and abs(png.width - 3.5 * 300) <= 2
            assert "n = 3 independent runs" in png.info["Description"]
            assert "n = 3 independent runs" in files[".tex"].read_text()
            assert pd.read_csv(files[".csv"]).shape == w.table.shape
    assert "bands: their full range" in made["explorer"].caption()
    assert "confidence intervals" in made["speedup"].caption()
    speedup = made["speedup"]  # three runs a side: the tests are live
    assert not speedup.test.disabled and not speedup.adjust.disabled and not speedup.test.tooltip
    assert "unit of replication" not in speedup.status.value


# -- hygiene: -multi apart, ratios within a machine, the table is the plot, y ticks ----------

def test_multi_runs_are_kept_apart_from_single_process_rows(bundled):
    for w in (widgets.explorer(bundled), widgets.speedup_explorer(bundled, by="aesni"),
              widgets.overhead_explorer(bundled)):
        labels = [label for label, _ in w.processes.options]
        assert labels[0] == "single process" and w.processes.value == (None, False)
        assert "-multi 16: sum of 16" in labels and "-multi 16: each process" in labels
    w = widgets.explorer(bundled)
    assert w.selection().multi.isna().all()  # host-b's -multi 16 GCM is not beside its 1-process GCM
    w.processes.value = (16, False)
    sel = w.selection()
    assert sel.multi.eq(16).all() and sel.child.isna().all() and not w.message


def test_ratio_to_baseline_is_taken_within_one_machine_unless_pooled(bundled):
    from cipherlab.runners import all_on, isa_column

    # ISA on (nothing switched off) / off, whichever column each source names it by
    isa = bundled[isa_column(bundled).notna()]
    isa = isa.assign(ISA=all_on(isa).map({True: "on", False: "off"})).drop(
        columns=["aesni", "isa", "isa_off"])
    w = widgets.explorer(isa, metric="ratio to baseline")
    w.condition.value = "ISA"
    assert not w.message
    # each machine and tool that measured GCM with ISA features on and off has its own ratios
    gcm = isa[isa.algorithm.eq("aes-128-gcm") & isa.operation.eq("encrypt") & isa.multi.isna()]
    sides = gcm.groupby([gcm.host.astype(str), gcm.tool.astype(str)]).ISA.nunique()
    cells = w.table.groupby(["host", "tool"], observed=True).size()
    assert set(cells.index) == set(sides[sides == 2].index) and len(cells) >= 3
    w.pool.value = True  # asked for: then the machines are pooled as repeats
    assert "host" not in w.table.columns


def test_the_table_has_one_row_per_line_of_the_plot(bundled):
    w = widgets.explorer(bundled)
    ax = w.figure.axes[0]
    lines = [ln for ln in ax.get_lines() if len(ln.get_xdata()) and not ln.get_label().startswith("_")]
    plotted = {(round(float(x)), round(float(y), -3)) for ln in ax.get_lines() for x, y in ln.get_xydata()}
    assert lines or plotted
    table = w.table.set_index([c for c in w.table.columns if not c.endswith(" B")])
    shown = {(int(c[:-2]), round(float(v), -3)) for c in table.columns for v in table[c].dropna()}
    assert shown == {p for p in plotted if p[0] in {int(c[:-2]) for c in table.columns}}


@pytest.mark.parametrize("make", ["explorer", "speedup_explorer", "overhead_explorer"])
def test_every_panel_has_y_numbers_on_screen_and_in_the_export(make, aws, tmp_path):
    from cipherlab.widgets._base import y_tick_labels

    w = getattr(widgets, make)(aws)
    narrow = {"explorer": ("metric", "ratio to baseline"),
              "speedup_explorer": ("algorithms", ("aes-128-cbc",)),
              "overhead_explorer": ("b", "aes-192-cbc")}[make]
    for value in (None, narrow):
        if value:
            getattr(w, value[0]).value = value[1]
        assert not w.message
        for ax in w.figure.axes:
            assert len(y_tick_labels(ax)) >= 2, (make, value, ax.get_title(), ax.get_ylim())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.CipherlabWarning)  # single values: drawn hollow
        assert all(p.stat().st_size for p in w.export(tmp_path / "view", formats=("png",)))


def test_a_tall_legend_is_shown_whole(bundled):
    """host-a measured AES-128-CBC in four files: a legend taller than the panel, not cut off."""
    from cipherlab.widgets._base import _DPI

    w = widgets.explorer(bundled)
    w.algorithm.value = "aes-128-cbc"
    legend = w.figure.axes[0].get_legend() or w.figure.legends[0]
    box = legend.get_window_extent(w.figure.canvas.get_renderer())
    assert box.y0 >= 0 and box.x1 <= w.figure.bbox.x1  # inside the canvas the PNG is cut from
    height_px = struct.unpack(">I", w.png[20:24])[0]
    assert height_px >= box.height and height_px > w.figsize[1] * _DPI * 0.9


def test_overhead_explorer_on_a_real_paste_says_which_way_the_lines_cross():
    # zh blog (3.x AEAD table): ChaCha20 is faster for small messages, GCM above ~721 B; the
    # caption read "chacha20-poly1305 overtakes aes-128-gcm: b overtakes a"
    path = next((Path(__file__).resolve().parents[1] / "data" / "pastes").glob("034_*.txt"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = cipherlab.ingest(path)
        w = widgets.overhead_explorer(df, a="chacha20-poly1305", b="aes-128-gcm")
    assert w.crossover["regime"].tolist() == ["b overtakes a"]
    assert "never (it is faster only below 721 B; aes-128-gcm above)" in w.status.value


def _paste(stem: str) -> pd.DataFrame:
    path = next((Path(__file__).resolve().parents[1] / "data" / "pastes").glob(f"{stem}_*.txt"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cipherlab.ingest(path)


def test_speedup_explorer_compares_versions_named_by_their_labels():
    # a Markdown table of versions as rows (1.1.1w ... 3.5.3): the explorer compared by label
    # and keyed the cells by tool_version too, which is one per label, so no cell held both
    # sides and it showed "compare: no cell has usable `bytes_per_s` values on both sides"
    df = _paste("016")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w = widgets.speedup_explorer(df)
    assert w.by.value == "label" and not w.comparison.empty
    row = w.comparison.iloc[0]
    pair = df[df["algorithm"] == row["algorithm"]].set_index("label")["bytes_per_s"]
    assert row["ratio"] == pytest.approx(pair[row["candidate"]] / pair[row["baseline"]])
    assert "1 ratio described" in w.status.value or "ratios described" in w.status.value


def test_overhead_explorer_pairs_algorithms_of_one_operation():
    # rust fixtures (3.6.3): aes-128-gcm (encrypt) and sha256 (digest) only. The explorer
    # offered the pair, kept 'encrypt', and showed stats' "`b` must be an algorithm of the
    # table (aes-128-gcm); not 'sha256'" although sha256 is in the table
    df = _paste("033")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w = widgets.overhead_explorer(df)
    assert w.operation.options == ()
    assert "aes-128-gcm (encrypt) and sha256 (digest) share no operation" in w.status.value
    # 034: both AEADs encrypt: the operation is offered and the lines cross
    w = widgets.overhead_explorer(_paste("034"))
    assert w.operation.options == ("encrypt",) and "721 B" in w.status.value


@pytest.mark.parametrize("make", ["explorer", "speedup_explorer", "overhead_explorer"])
def test_screen_figures_have_no_overlapping_or_clipped_text(bundled, make):
    """What the page shows, checked like the exports: the overhead explorer's two legends, each
    laid out for the whole figure's width, overlapped each other and ran off its left edge."""
    from cipherlab import plots

    data = bundled[bundled.tool.eq("openssl")] if make == "overhead_explorer" else bundled
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.CipherlabWarning)
        w = getattr(widgets, make)(data)
        for value in w.controls[0].options[:4]:  # a few selections, not just the first
            w.controls[0].value = value
            if w.figure is not None:  # (a tall legend is fine on screen: the page lengthens)
                problems = [p for p in plots.layout_problems(w.figure) if "legend takes" not in p]
                assert problems == [], (make, value)


def test_a_line_without_the_condition_says_it_was_not_recorded(bundled):
    """Runs that recorded no ISA condition, beside runs that did, are named for what they lack,
    not "(all)" (which read as a line pooling every condition)."""
    w = widgets.explorer(bundled)
    w.algorithm.value = "aes-128-gcm"
    texts = [t.get_text() for ax in w.figure.axes for t in ax.get_legend().texts]
    assert "(all)" not in texts
    assert "ISA not recorded" in texts and "ISA" in texts  # the section is named once, in words


def test_each_exported_table_is_named_by_its_title_and_labelled_for_latex(aws, tmp_path):
    w = widgets.speedup_explorer(aws)
    names = sorted(p.name for p in w.export(tmp_path / "aws-speedup", formats=("png",)))
    assert names == ["aws-speedup-tests-per-cell-compare.csv", "aws-speedup-tests-per-cell-compare.tex",
                     "aws-speedup.csv", "aws-speedup.png", "aws-speedup.tex", "aws-speedup.txt"]
    tex = (tmp_path / "aws-speedup-tests-per-cell-compare.tex").read_text()
    assert "\\label{tab:aws-speedup-tests-per-cell-compare}" in tex
    assert "Tests per cell (compare)." in tex and "Ratio [95\\% CI]" in tex  # the report's headers
    # names past 40 characters end in a hash of the whole: two figures' labels stay apart
    labels = set()
    for n in (1, 2):
        w.export(tmp_path / f"fig-aes-ni-on-against-off-all-ciphers-part-{n}", formats=("png",))
        tex = (tmp_path / f"fig-aes-ni-on-against-off-all-ciphers-part-{n}.tex").read_text()
        labels |= set(re.findall(r"\\label\{(tab:[^}]*)\}", tex))
    assert len(labels) == 2 and all(len(label) <= len("tab:") + 40 for label in labels)


def test_long_condition_values_are_cut_in_their_labels_and_whole_in_the_tooltip(bundled):
    """The bundled capture's isa_off side (a list of 16 features) overflowed its dropdown: its
    label is cut in the middle, the value and the tooltip stay the whole list."""
    w = widgets.explorer(bundled)
    assert w.condition.value == "isa_off"
    off = next(v for v in bundled["isa_off"].dropna().unique() if v != "none")
    assert len(off) > 60
    labels = dict((value, label) for label, value in w.baseline.options)
    assert labels["none"] == "none" and len(labels[off]) <= 30 and "…" in labels[off]
    assert labels[off].startswith("aesni+pclmulqdq") and labels[off].endswith("+other")
    assert w.baseline.value == off and w.baseline.tooltip == off
    assert set(w.levels.value) == {off, "none"} and off in w.levels.tooltip.split("\n")
    w.baseline.value = "none"  # a short value: no tooltip needed
    assert w.baseline.tooltip is None
    s = widgets.speedup_explorer(bundled)
    assert (s.baseline.value, s.baseline.tooltip, s.candidate.value) == (off, off, "none")
    assert dict((v, lbl) for lbl, v in s.candidate.options)[off] == labels[off]
    # the ratio drawn is of the whole value, as without the labels
    assert set(s.comparison["baseline"].astype(str)) == {off}


def test_a_ratio_to_a_long_isa_side_names_it_as_the_legends_do(bundled):
    from cipherlab import plots

    w = widgets.explorer(bundled)
    w.metric.value = "ratio to baseline"
    assert w.condition.value == "isa_off" and len(w.baseline.value) > 60 and not w.message
    # "off: aesni+pclmulqdq+vaes +13 more", as the legends name the side, wrapped to the axes
    assert " ".join(w.figure.axes[0].get_ylabel().split()).startswith("Ratio to off: aesni")
    assert "+13 more" in " ".join(w.figure.axes[0].get_ylabel().split())
    for width in ("single", "double"):
        fig = w.paper_figure(width)
        with plots.paper(width):
            assert plots.layout_problems(fig) == []
