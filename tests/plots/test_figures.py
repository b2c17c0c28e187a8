"""The figure functions: they return the Axes with the expected artists, labels and units."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_hex

from cipherlab import plots
from cipherlab.errors import AnalysisError


def _tick_texts(axis):
    axis.figure.canvas.draw()
    return [t.get_text() for t in axis.get_ticklabels() if t.get_text()]


def test_throughput_log_log_with_units_and_one_line_per_condition(evp_frame, ax):
    out = plots.throughput(evp_frame, ax=ax)
    assert out is ax
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
    ys = _tick_texts(ax.yaxis)
    assert any(t.endswith("MB/s") for t in ys) and any(t.endswith("GB/s") for t in ys), ys
    assert _tick_texts(ax.xaxis) == ["16", "64", "256", "1K", "8K", "16K"]
    # 2 algorithms x aesni on/off, each with its 6 block sizes; style chose aesni, not label/run
    lines = [ln for ln in ax.get_lines() if len(ln.get_xdata()) == 6]
    assert len(lines) == 4
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert {"aes-128-gcm", "aes-256-gcm", "aesni", "AES-NI on", "AES-NI off"} <= set(legend)
    assert not any("run" in t for t in legend)


def test_throughput_colours_are_the_algorithm_palette(evp_frame, ax):
    plots.throughput(evp_frame, ax=ax)
    colours = {to_hex(ln.get_color()).upper() for ln in ax.get_lines() if len(ln.get_xdata()) == 6}
    assert colours == {plots.color_for("aes-128-gcm"), plots.color_for("aes-256-gcm")}


def test_throughput_draws_an_interval_band_for_repeats(repeats_frame, ax):
    plots.throughput(repeats_frame, ax=ax)
    bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(bands) == 2  # aesni on and off, each pooled over its 5 repeats
    # the line is the median of the repeats: 16-byte aesni=on median is 13425093 bytes/s
    on = [ln for ln in ax.get_lines() if len(ln.get_xdata()) == 3]
    ys = sorted(float(ln.get_ydata()[0]) for ln in on)
    assert 13425093.0 in ys
    # the band spans the full range of the repeats at 16 KiB (aesni=on: 8346204307..8595764722)
    verts = np.concatenate([p.vertices for c in bands for p in c.get_paths()])
    assert np.isclose(verts[:, 1].max(), 8595764722.0)


def test_throughput_rejects_missing_columns_by_name(evp_frame, ax):
    with pytest.raises(AnalysisError, match="lacks column.*'cpu_cycles'"):
        plots.throughput(evp_frame, y="cpu_cycles", ax=ax)


def test_each_plot_call_without_ax_draws_on_a_fresh_figure(evp_frame, speedup_result):
    before = set(plt.get_fignums())
    try:
        a = plots.throughput(evp_frame)
        b = plots.speedup(speedup_result)
        assert a.figure is not b.figure and len(a.figure.axes) == len(b.figure.axes) == 1
        assert set(plt.get_fignums()) - before == {a.figure.number, b.figure.number}
    finally:
        for n in set(plt.get_fignums()) - before:
            plt.close(n)


def test_size_labels_that_would_collide_are_left_out_at_single_width(evp_frame):
    from matplotlib.figure import Figure

    with plots.paper("single"):
        ax = Figure(figsize=(1.8, 1.5), layout="constrained").add_subplot()
        plots.throughput(evp_frame, ax=ax, legend=False)
        shown = _tick_texts(ax.xaxis)
    assert list(ax.xaxis.get_majorticklocs()) == [16, 64, 256, 1024, 8192, 16384]
    assert shown[-1] == "16K" and "8K" not in shown  # one doubling from 16K: no room at 1.8 in
    assert not plots.layout_problems(ax.figure)


def test_speedup_reference_line_intervals_and_significance(speedup_result, ax):
    plots.speedup(speedup_result, expected=2.0, ax=ax)
    assert any(np.allclose(ln.get_ydata(), 2.0) and ln.get_linestyle() == "--"
               for ln in ax.get_lines())
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "claimed 2×" in labels
    assert "filled: differs from 1×" in labels
    # error bars: one LineCollection per series with a segment per block size
    from matplotlib.collections import LineCollection
    bars = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert sum(len(c.get_segments()) for c in bars) == len(speedup_result)
    # the non-significant 16-byte points are hollow (white face)
    hollow = [ln for ln in ax.get_lines() if ln.get_linestyle() == "None"
              and ln.get_markerfacecolor() == "white"]
    assert sum(len(ln.get_xdata()) for ln in hollow) == int((~speedup_result.significant).sum())
    assert ax.get_yscale() == "log"  # ratios from 1.3x to 20x


def test_speedup_shades_the_equivalence_margin_of_a_ratio_test(ax):
    res = pd.DataFrame({"algorithm": ["aes-128-cbc"] * 3, "block_bytes": [16, 1024, 8192],
                        "ratio": [2.08, 1.94, 1.94], "ci_low": [2.0, 1.9, 1.9],
                        "ci_high": [2.1, 2.0, 1.99], "expected": 2.0, "margin": 0.1,
                        "differs": [False, True, True]})
    plots.speedup(res, ax=ax)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "2× ± 10% (equivalence)" in labels
    assert "filled: differs from 2×" in labels
    assert ax.get_yscale() == "linear"


def test_cost_model_draws_points_fit_band_and_crossover(evp_frame, ax):
    fit = pd.DataFrame({"algorithm": ["aes-128-gcm", "aes-256-gcm"], "aesni": ["on", "on"],
                        "t0_ns": [700.0, 450.0], "t0_ci_low": [650.0, 400.0],
                        "t0_ci_high": [750.0, 500.0], "c_ns_per_byte": [0.25, 0.29],
                        "c_ci_low": [0.24, 0.28], "c_ci_high": [0.26, 0.30]})
    cross = pd.DataFrame({"a": ["aes-128-gcm"], "b": ["aes-128-cbc"], "crossover_bytes": [1200.0],
                          "ci_low": [900.0], "ci_high": [1500.0]})
    plots.cost_model(fit, evp_frame, crossover=cross, ax=ax)
    points = [c for c in ax.collections if c.get_offsets().shape[0] == 6]
    assert len(points) == 2  # the aesni=on rows of each algorithm only
    # time per call = block bytes / rate: 16 B at 20304.67k -> 788 ns
    t16 = min(float(np.min(c.get_offsets()[:, 1])) for c in points)
    assert np.isclose(t16, 16 / 20304670.0) or np.isclose(t16, 16 / 31011150.0)
    assert len([c for c in ax.collections if isinstance(c, PolyCollection)]) >= 2  # fit bands
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "aes-128-gcm = aes-128-cbc at 1.17 KiB" in labels
    assert any(t.endswith(("µs", "ns")) for t in _tick_texts(ax.yaxis))


def test_overhead_plots_a_result_with_a_parity_line(ax):
    res = pd.DataFrame({"label": ["host-a", "host-a", "host-b", "host-b"],
                        "block_bytes": [16, 16384, 16, 16384], "ratio": [0.4, 2.1, 0.5, 2.2]})
    plots.overhead(res, ax=ax)
    assert " ".join(ax.get_ylabel().split()) == "aes-128-gcm / aes-128-cbc"  # wrapped to fit
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["host-a", "host-b", "aes-128-gcm = aes-128-cbc"]
    assert "1×" in _tick_texts(ax.yaxis)


def test_heatmap_annotates_every_cell_in_readable_units(machines_frame, ax):
    plots.heatmap(machines_frame, ax=ax)
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 9 and texts[0] == "31.7 MB/s"
    assert [t.get_text() for t in ax.get_yticklabels()][0].startswith("Linux")
    assert ax.get_title() == "Throughput at 8 KiB blocks"


def test_heatmap_gives_a_ciphers_decrypt_cells_a_column_of_their_own(ax):
    # (cryptsetup benchmark times each cipher both ways on one line: a median of the two is
    # no rate of either)
    df = pd.DataFrame({"label": "nas", "source": "c.txt", "line": [3, 3, 4],
                       "algorithm": ["aes-128-xts", "aes-128-xts", "aes-256-xts"],
                       "operation": ["encrypt", "decrypt", "encrypt"], "block_bytes": 65536,
                       "bytes_per_s": [1.0e9, 3.0e9, 0.8e9]})
    plots.heatmap(df, block_bytes=65536, ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "aes-128-xts", "aes-128-xts decrypt", "aes-256-xts"]
    assert [t.get_text() for t in ax.texts] == ["1 GB/s", "3 GB/s", "800 MB/s"]


def test_heatmap_names_the_available_sizes_when_asked_for_a_missing_one(machines_frame, ax):
    with pytest.raises(AnalysisError, match=r"\[8192\]; not 16"):
        plots.heatmap(machines_frame, block_bytes=16, ax=ax)


def test_speedup_without_block_sizes_is_a_forest_plot(ax):
    # e.g. stats.ratio_test(..., paired=True): one row per algorithm, tested across block sizes
    res = pd.DataFrame({"algorithm": ["aes-128-cbc", "aes-128-gcm"], "ratio": [1.98, 4.3],
                        "ci_low": [1.93, 3.5], "ci_high": [2.03, 5.2], "expected": 2.0,
                        "margin": 0.1, "differs": [False, True], "test": "paired t"})
    plots.speedup(res, ax=ax)
    assert _tick_texts(ax.xaxis) == ["aes-128-cbc", "aes-128-gcm"]
    assert ax.get_xlabel() == ""


def test_throughput_of_another_metric_is_labelled_by_its_column(evp_frame, ax):
    df = evp_frame.assign(ops_per_s=evp_frame.bytes_per_s / evp_frame.block_bytes.astype(float))
    plots.throughput(df, y="ops_per_s", ax=ax)
    assert ax.get_ylabel() == "ops per s" and ax.get_yscale() == "log"
    assert not any(t.endswith("B/s") for t in _tick_texts(ax.yaxis))


def test_throughput_never_pools_two_tools_of_the_real_host_b_capture(ax):
    # The bug: host-b's openssl rows (evp.txt, no repeat number) and its `cryptography` rows
    # (pyca.txt, repeats 0-4) of one algorithm, block size and aesni condition were drawn as ONE
    # line with a band, because the differing `repeat` kept `tool` from being seen to vary.
    import warnings

    import cipherlab

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.CipherlabWarning)
        df = cipherlab.datasets.load("captures/host-b-openssl-3.0.22")
    gcm = df[(df["algorithm"] == "aes-128-gcm") & (df["operation"] == "encrypt")
             & df["isa"].notna()]
    assert set(gcm["tool"]) == {"openssl", "cryptography"}
    plots.throughput(gcm, ax=ax)
    lines = [ln for ln in ax.get_lines() if len(ln.get_xdata()) == 6]
    assert len(lines) == 4  # {openssl, cryptography} x {native, AWS-wiki mask}
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    # each side named by what was switched off where the mask is known (openssl's CPUINFO),
    # by the preset where it is not (the harness), and by its tool
    assert {"openssl · nothing off", "cryptography · isa=native"} <= set(legend), legend
    assert any(t.startswith("openssl · off: aesni+pclmulqdq+vaes") for t in legend), legend
    # each line is its own tool's numbers, not a median of both: at 16 bytes natively,
    # openssl speed measured 20304.67k bytes/s, the Python loop a median of 13425093 over 5 repeats
    first = {float(ln.get_ydata()[0]) for ln in lines}
    on = gcm[(gcm["isa"] == "native") & (gcm["block_bytes"] == 16)]
    for tool in ("openssl", "cryptography"):
        assert float(on.loc[on["tool"] == tool, "bytes_per_s"].median()) in first
    assert {20304670.0, 13425093.0} <= first


def test_throughput_pools_a_run_per_repeat_into_one_line_with_a_band(repeats_frame, ax):
    # capture() measures each repeat in a run of its own (as repeats_frame does): run numbers
    # differ, one per repeat, and those rows are repeats of one measurement: one line, a band
    df = repeats_frame[repeats_frame["aesni"] == "on"]
    assert df["run"].nunique() == 5
    plots.throughput(df, ax=ax)
    assert len([ln for ln in ax.get_lines() if len(ln.get_xdata()) == 3]) == 1
    assert len([c for c in ax.collections if isinstance(c, PolyCollection)]) == 1
    # the same runs without repeat numbers are five measurements: five lines, never pooled
    ax.clear()
    plots.throughput(df.assign(repeat=pd.NA), ax=ax)
    assert len([ln for ln in ax.get_lines() if len(ln.get_xdata()) == 3]) == 5


def test_throughput_keeps_encrypt_and_decrypt_apart_and_pools_a_file_per_operation_and_repeat(
        repeats_frame, ax):
    # capture_python writes a file per algorithm, operation, ISA setting and repeat: the lines
    # are the operations (two), each with its band, never a line per file (twenty, whose legend
    # outgrew the report's figure)
    on = repeats_frame[repeats_frame["aesni"] == "on"]
    df = pd.concat([on.assign(operation=op, source=[f"pyca_{op}_r{r}" for r in on["repeat"]])
                    for op in ("encrypt", "decrypt")], ignore_index=True)
    plots.throughput(df, ax=ax)
    assert len([ln for ln in ax.get_lines() if len(ln.get_xdata()) == 3]) == 2
    assert len([c for c in ax.collections if isinstance(c, PolyCollection)]) == 2
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert not any("pyca_" in t for t in legend), legend


def test_a_table_writes_rates_in_the_unit_the_figures_name_them_in():
    from cipherlab.reporting._tables import presented

    # -multi 64 sums of 16 KiB AES-GCM pass 1 TB/s: the table's column is in TB/s, as the
    # figures' ticks are (not "1600 GB/s"); a column of 16-byte rates stays in MB/s
    sums = pd.DataFrame({"algorithm": ["aes-128-gcm", "aes-256-gcm", "chacha20-poly1305"],
                         "bytes_per_s": [1.6e12, 1.25e12, 9.0e11],
                         "limit_bytes_per_s": [3.1e8, 2.4e8, 2.0e8]})
    table = presented(sums, None)
    assert list(table.columns) == ["Algorithm", "Throughput (TB/s)", "limit (MB/s)"]
    assert table["Throughput (TB/s)"].tolist() == pytest.approx([1.6, 1.25, 0.9])
    assert plots.format_rate(1.6e12) == "1.6 TB/s"


def test_a_y_label_naming_a_long_baseline_wraps_to_three_lines_at_a_column(speedup_result):
    from cipherlab.reporting._blocks import render

    # an isa_off side of 16 features, named whole in a ratio's y label
    off = ("aesni+pclmulqdq+vaes+vpclmulqdq+shani+avx2+avx512f+avx512bw+avx512vl+avx512dq+"
           "avx512ifma+bmi1+bmi2+adx+rdseed+other")
    fig = render(lambda ax: plots.speedup(speedup_result, expected=None, ylabel=f"Ratio to {off}",
                                          ax=ax), "single", 0.75)
    label = fig.axes[0].get_ylabel()
    assert label.count("\n") == 2 and label.endswith("…") and label.startswith("Ratio to aesni")
    assert plots.layout_problems(fig) == []
    # a label that fits three lines is wrapped, not cut
    host = "AMD Ryzen 5 3600 / OpenSSL 3.0.2 with Debian Linux 11 for x86_64"
    fig = render(lambda ax: plots.speedup(speedup_result, expected=None,
                                          ylabel=f"Relative to {host}", ax=ax), "single", 0.75)
    assert " ".join(fig.axes[0].get_ylabel().split()) == f"Relative to {host}"
