"""The notebooks in a real browser: JupyterLab + headless Debian Chromium, driven by Playwright.

For notebook 01 (the explorer's *Algorithm* dropdown) and notebook 02 (the speed-up explorer's
*Claimed ratio* slider): open the notebook, Run All Cells, wait for the widget, change the
control like a user does, and check that the plot (a PNG data URI in the widget's output) was
redrawn with different pixels. Screenshots go to test-results/screenshots/. The server runs on a
copy of notebooks/ and is shut down through its API at the end of the session.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.notebook]

PNG = re.compile(r"^data:image/png;base64,")
WAIT_MS = 90_000


def _run_and_find_explorer(lab, notebook: str):
    """Open ``notebook``, Run All, wait for the explorer's plot; return (box, img, src before)."""
    lab.open(notebook)
    lab.run_all()
    box = lab.page.locator(".cipherlab-explorer").first
    expect(box).to_be_visible(timeout=WAIT_MS)
    img = box.locator(".cipherlab-plot img")  # the main figure (02 also has one beside it)
    expect(img).to_have_attribute("src", PNG, timeout=WAIT_MS)
    return box, img, img.get_attribute("src")


def test_01_explorer_dropdown_redraws_the_plot(lab):
    box, img, before = _run_and_find_explorer(lab, "01_ingest_and_explore.ipynb")
    dropdown = box.locator(".widget-dropdown", has=lab.page.locator("label", has_text="Algorithm"))
    select = dropdown.locator("select")
    expect(select).to_have_value("aes-128-gcm")
    lab.screenshot("01_before.png")

    select.select_option("aes-128-cbc")

    expect(img).not_to_have_attribute("src", before, timeout=WAIT_MS)  # the plot was redrawn
    expect(img).to_have_attribute("src", PNG)
    expect(box).to_contain_text("aes-128-cbc (encrypt)")  # the caption under it follows
    lab.screenshot("01_after.png")


def test_02_claimed_ratio_slider_redraws_the_plot(lab):
    box, img, before = _run_and_find_explorer(lab, "02_aesni_ratio.ipynb")
    slider = box.locator(".widget-slider", has=lab.page.locator("label", has_text="Claimed ratio"))
    readout = slider.locator(".widget-readout")
    expect(readout).to_have_text("2.00")
    lab.screenshot("02_before.png")

    handle = slider.locator(".noUi-handle")
    handle.scroll_into_view_if_needed()
    box_ = handle.bounding_box()
    x, y = box_["x"] + box_["width"] / 2, box_["y"] + box_["height"] / 2
    page = lab.page
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 30, y, steps=5)  # drag the handle to the right, as a user does
    page.mouse.up()

    expect(readout).not_to_have_text("2.00")
    claimed = float(readout.inner_text())
    assert claimed > 2.0
    expect(img).not_to_have_attribute("src", before, timeout=WAIT_MS)
    # the ratio test was re-run against the new claim (the caption under the plot says so)
    expect(box).to_contain_text(f"claimed {claimed:.3g}×", timeout=WAIT_MS)
    lab.screenshot("02_after.png")
