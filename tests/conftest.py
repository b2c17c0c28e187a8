"""Shared fixtures: Playwright drives Debian's Chromium (no browser download is possible here)."""

import os

import pytest

# System Chromium; set CHROMIUM_PATH="" to use a Playwright-downloaded browser instead.
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--disable-sync",
    "--no-first-run",
    "--disable-background-networking",  # the closed network refuses Chromium's background calls
    "--disable-component-update",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    args = {**browser_type_launch_args, "args": CHROMIUM_ARGS}
    if CHROMIUM:
        args["executable_path"] = CHROMIUM
    return args


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1280, "height": 1000}}


def pytest_collection_modifyitems(items):
    """`make test-fast` (-m "not slow") skips what runs real captures, notebooks or browsers."""
    for item in items:
        if any(item.get_closest_marker(m) for m in ("openssl", "notebook", "browser")):
            item.add_marker(pytest.mark.slow)
