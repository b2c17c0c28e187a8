"""paper() and save_figure(): scoped settings, publisher-friendly fonts, byte-identical files."""

import matplotlib as mpl
import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.image import imread

from cipherlab import plots


def _figure(evp_frame, title="AES-NI on/off, host-b"):
    with plots.paper():
        fig = Figure(layout="constrained")
        ax = plots.throughput(evp_frame, ax=fig.add_subplot())
        ax.set_title(title + " — 2× claim, µs, ½")  # non-ASCII glyphs must embed as TrueType too
    return fig


def test_same_figure_saved_twice_gives_identical_bytes(evp_frame, tmp_path):
    first = plots.save_figure(_figure(evp_frame), tmp_path / "a" / "fig")
    second = plots.save_figure(_figure(evp_frame), tmp_path / "b" / "fig.pdf")
    assert [p.name for p in first] == ["fig.pdf", "fig.svg", "fig.png"]
    for p, q in zip(first, second):
        assert p.read_bytes() == q.read_bytes(), p.name


def test_pdf_embeds_truetype_and_has_no_type3_fonts(evp_frame, tmp_path):
    (pdf,) = plots.save_figure(_figure(evp_frame), tmp_path / "fig", formats=("pdf",))
    data = pdf.read_bytes()
    assert b"/Subtype /Type3" not in data
    assert b"/FontFile2" in data
    assert b"/CreationDate" not in data


def test_svg_keeps_text_as_text_without_dates(evp_frame, tmp_path):
    (svg,) = plots.save_figure(_figure(evp_frame), tmp_path / "fig", formats=["svg"])
    text = svg.read_text()
    assert "AES-NI on/off, host-b" in text  # svg.fonttype none: real <text>, not glyph paths
    assert "<dc:date>" not in text


def test_png_is_written_at_the_stated_dpi_and_has_content(evp_frame, tmp_path):
    fig = _figure(evp_frame)
    (png,) = plots.save_figure(fig, tmp_path / "fig", formats="png", width="single", dpi=200)
    pixels = imread(png)
    assert pixels.shape[1] == 700  # exactly 3.5 in at 200 dpi
    assert pixels[..., :3].std() > 0.05  # not a blank canvas


def test_width_is_applied_for_the_save_and_then_restored(evp_frame, tmp_path):
    fig = Figure(figsize=(5, 4))
    fig.add_subplot().plot([1, 2], [1, 2])
    (png,) = plots.save_figure(fig, tmp_path / "w", formats=("png",), width="double", dpi=50)
    assert imread(png).shape[:2] == (288, 360)  # exactly 7.2 in x 5.76 in at 50 dpi
    assert tuple(fig.get_size_inches()) == (5.0, 4.0)


def test_paper_is_scoped_and_never_leaks():
    before = dict(mpl.rcParams)
    with plots.paper("double", font_size=9) as rc:
        assert mpl.rcParams["font.size"] == 9
        assert mpl.rcParams["pdf.fonttype"] == 42
        assert rc["figure.figsize"][0] == 7.2
    assert dict(mpl.rcParams) == before



def test_save_figure_leaves_global_settings_alone(evp_frame, tmp_path):
    before = dict(mpl.rcParams)
    plots.save_figure(_figure(evp_frame), tmp_path / "fig")
    assert dict(mpl.rcParams) == before


@pytest.mark.parametrize("kwargs, match", [
    ({"formats": ("pdf", "jpeg")}, r"`formats` must be .*\['jpeg'\]"),
    ({"width": "triple"}, r"`width` must be one of \['double', 'single'\].*'triple'"),
    ({"width": -1}, "positive"),
    ({"dpi": 0}, "`dpi`"),
])
def test_bad_arguments_name_the_parameter_and_value(tmp_path, kwargs, match):
    fig = Figure()
    with pytest.raises(ValueError, match=match):
        plots.save_figure(fig, tmp_path / "x", **kwargs)


def test_axes_is_accepted_in_place_of_its_figure(tmp_path):
    ax = Figure().add_subplot()
    ax.plot(np.arange(3))
    assert plots.save_figure(ax, tmp_path / "ax", formats=("svg",))[0].is_file()


def test_a_seaborn_grid_or_subfigure_is_saved_through_its_figure(tmp_path):
    import seaborn as sns

    fig = Figure()
    sub = fig.subfigures(1, 2)[1]
    sub.add_subplot().plot([1, 2], [2, 1])
    assert plots.save_figure(sub, tmp_path / "sub", formats=("png",))[0].is_file()
    grid = sns.FacetGrid(__import__("pandas").DataFrame({"x": [1, 2], "c": ["a", "b"]}), col="c")
    assert plots.save_figure(grid, tmp_path / "grid", formats=("svg",))[0].is_file()
    with pytest.raises(TypeError, match="`fig` must be a matplotlib Figure"):
        plots.save_figure("figure.png", tmp_path / "x")
