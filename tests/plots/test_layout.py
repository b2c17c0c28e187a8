"""Every figure fits a journal column: no overlapping text, nothing off the page, a small legend.

Each figure of the reports (the bundled data, a real capture of this machine, two dumps of two
machines) is drawn again, the way the report draws it, at single (3.5 in) and double (7.2 in)
column width, and measured with matplotlib's own bounding boxes (plots.layout_problems).
"""

from __future__ import annotations

import pytest

from cipherlab import plots
from cipherlab.reporting._blocks import render

WIDTHS = ("single", "double")


def _problems(writer) -> dict:
    out = {}
    for name, (draw, aspect) in writer.drawings.items():
        for width in WIDTHS:
            found = plots.layout_problems(render(draw, width, aspect))
            if found:
                out[f"{name} at {width} width"] = found
    return out


def test_every_figure_of_the_bundled_report_fits_both_widths(bundled_report):
    _, _, writer = bundled_report
    assert len(writer.drawings) >= 15
    assert _problems(writer) == {}


@pytest.mark.openssl
def test_every_figure_of_a_capture_report_fits_both_widths(captured_report):
    _, _, writer = captured_report
    assert len(writer.drawings) >= 4
    assert _problems(writer) == {}


def test_every_figure_of_a_two_machine_report_fits_both_widths(two_machines_report):
    _, _, writer = two_machines_report
    assert any(n.startswith("machines-") for n in writer.drawings)
    assert _problems(writer) == {}


def test_the_checker_finds_collisions_and_big_legends():
    from matplotlib.figure import Figure

    fig = Figure(figsize=(2, 1.5), layout="constrained")
    ax = fig.add_subplot()
    ax.set_xticks(range(4), ["sixteen", "sixty-four", "two-five-six", "one-K"])
    assert "'sixteen' overlaps 'sixty-four'" in plots.layout_problems(fig)
    lines = [ax.plot([0, 1], label=f"a rather long legend label {i}")[0] for i in range(6)]
    fig.legend(handles=lines, loc="outside lower center")
    assert any(p.startswith("legend takes") for p in plots.layout_problems(fig))


def test_implausible_heatmap_cells_are_marked_and_out_of_the_colour_scale():
    import cipherlab

    tiers = cipherlab.ingest(cipherlab.datasets.path("implementation-tiers-wiki.txt"))
    with plots.paper("double"):
        ax = plots.heatmap(tiers, rows=["cpu", "tool_version", "tier"], columns="algorithm",
                           block_bytes=8192)
    try:
        marked = [t.get_text() for t in ax.texts if t.get_text().endswith("!")]
        # the kernel (AF_ALG) row's 37.1 GB/s AES-256-CBC on a Ryzen 5 cannot be right
        assert "37.1 GB/s!" in marked
        norm = ax.collections[0].norm
        assert norm.vmax < 37.1e9  # the colour scale ends below it
        assert "hatched: implausible" in ax.get_title()
    finally:
        import matplotlib.pyplot as plt
        plt.close(ax.figure)


def test_the_tls_figure_puts_each_cipher_beside_its_own_rate():
    import cipherlab

    tls = cipherlab.datasets.load("openjdk-tls-transfer.csv")
    with plots.paper("single"):
        ax = plots.transfers(tls, reference={"aes-128-gcm": 4e9, "aes-128-cbc": 1.2e9})
    try:
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert labels == ["aes-128-gcm", "aes-128-cbc"]
        widths = sorted(round(b.get_width() / 2**20, 1) for b in ax.patches)
        assert widths[0] < 10 < 90 < widths[1]  # the seed's 5.2 and 100 MiB/s
        assert plots.layout_problems(ax.figure) == []
    finally:
        import matplotlib.pyplot as plt
        plt.close(ax.figure)


@pytest.mark.openssl
def test_every_figure_of_a_two_build_report_fits_both_widths(builds_report):
    """The 32-bit and the 64-bit openssl of this machine (the builds section's figures too)."""
    _, _, writer = builds_report
    assert any(n.startswith("builds-") for n in writer.drawings)
    assert _problems(writer) == {}
