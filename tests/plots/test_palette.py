"""One colour per algorithm, the same in every figure; colour-blind-safe set."""

from matplotlib.colors import to_rgb

from cipherlab import plots


def test_known_algorithms_keep_their_colour_whatever_else_is_plotted():
    alone = plots.palette(["aes-128-cbc"])
    crowded = plots.palette(["sha256", "aes-128-cbc", "chacha20-poly1305", "weird-cipher"])
    assert alone["aes-128-cbc"] == crowded["aes-128-cbc"] == plots.color_for("aes-128-cbc")


def test_palette_depends_on_the_set_not_the_order_and_stays_distinct():
    names = ["Linux (P3 750Mhz)", "OpenBSD (P3 500Mhz)", "NetBSD (P3 750Mhz)", "aes-128-gcm",
             "no-asm", "asm", "aes-ni", "kernel", "padlock"]
    a, b = plots.palette(names), plots.palette(list(reversed(names)))
    assert a == b
    assert len(set(a.values())) == len(names)


def test_unknown_names_are_hashed_stably_not_with_pythons_salted_hash():
    # crc32-based: the same value in every process (Python's str hash changes per process)
    assert plots.color_for("my-new-cipher") == plots.color_for("my-new-cipher")
    import subprocess
    import sys
    code = "from cipherlab.plots import color_for; print(color_for('my-new-cipher'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == plots.color_for("my-new-cipher")


def test_report_wide_base_palette_wins():
    base = plots.palette(["aes-128-gcm", "x-cipher", "y-cipher"])
    again = plots.palette(["y-cipher"], base=base)
    assert again["y-cipher"] == base["y-cipher"]


def test_colours_are_not_near_duplicates():
    rgb = [to_rgb(c) for c in plots.COLORS]
    for i, p in enumerate(rgb):
        for q in rgb[i + 1:]:
            assert sum((x - y) ** 2 for x, y in zip(p, q)) ** 0.5 > 0.1
