"""Fixtures that run cipherlab's notebooks for real: headless with nbclient, and in JupyterLab.

* ``executed`` runs a notebook (from its ``.py`` source) top to bottom with nbclient in a copy of
  ``notebooks/``, once per session, and keeps the executed copy under ``test-results/executed/``
  as ``.ipynb`` and ``.html`` with the widget state (a CI artifact).
* ``lab_server`` starts JupyterLab on a free loopback port with a random token, on a temp copy of
  ``notebooks/`` (Lab autosaves), with its config, runtime, settings and workspace folders isolated,
  and stops it with ``POST /api/shutdown`` (kernels included).
* ``lab`` wraps a Playwright page with the steps that proved reliable in
  ``docs/browser-test-recipe.md``: wait for a *real* idle kernel, Run All from the menu,
  wait until every code cell has run.

Chromium itself is configured in ``tests/conftest.py`` (Debian's ``/usr/bin/chromium``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import warnings
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
NOTEBOOKS = HERE.parents[1] / "notebooks"
SLOW_MS = 90_000  # kernel start + imports + first widget render on a loaded 2-core CI box
# The code cells' prompts ("[ ]:", "[*]:", "[3]:") as a JS array, for the page scripts below
# (which read their textContent, not innerText: Lab skips rendering off-screen cells, whose
# innerText is then empty).
_PROMPTS = "[...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputArea-prompt')]"


def _load_zmq_fix():
    # pytest runs with --import-mode=importlib, so this folder is not on sys.path: load by path.
    spec = importlib.util.spec_from_file_location("cipherlab_tests_zmq_wakeup_fix",
                                                  HERE / "zmq_wakeup_fix.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# nbclient runs in this process: avoid its lost-wake-up hang (jupyter/nbclient#312) for every
# notebook execution of the session, see zmq_wakeup_fix.py.
_load_zmq_fix().apply()


def copy_notebooks(dest: Path, src: Path = NOTEBOOKS) -> Path:
    """Copy the notebooks folder without outputs the notebooks may have written there."""
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns(
        ".ipynb_checkpoints", "captures", "figures", "paper", "__pycache__"))
    return dest


def _results_dir(config) -> Path:
    out = Path(config.getoption("--output", default="test-results") or "test-results")
    return out if out.is_absolute() else config.rootpath / out


def read_notebook(path: Path):
    """The notebook whose source is ``path`` (``NN_name.py``, py:percent) as an nbformat node."""
    import jupytext

    return jupytext.read(path)


def _export_html(nb, path: Path) -> None:
    """Write ``nb`` as a standalone HTML page; widget views render from the saved widget state."""
    from nbconvert import HTMLExporter

    body, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)
    path.write_text(body, encoding="utf-8")


def pytest_collection_modifyitems(config, items):
    """The notebooks run in JupyterLab before the other notebook tests, which then read the runs
    Lab saved (see ``executed``): each notebook executes once per test session."""
    ours = [i for i, item in enumerate(items) if HERE in Path(str(item.fspath)).parents]
    in_lab = [items[i] for i in ours if "lab" in getattr(items[i], "fixturenames", ())]
    rest = [items[i] for i in ours if "lab" not in getattr(items[i], "fixturenames", ())]
    for i, item in zip(ours, in_lab + rest, strict=True):
        items[i] = item


@pytest.fixture(scope="session")
def lab_runs() -> dict[str, Path]:
    """Notebooks run top to bottom in JupyterLab this session: stem -> the notebook Lab saved
    (outputs and widget state), filled by the browser tests."""
    return {}


@pytest.fixture(scope="session")
def executed(tmp_path_factory, request, lab_runs):
    """``executed("01_ingest_and_explore")``: the notebook run top to bottom, once per session.

    A notebook the browser tests already ran in JupyterLab is read back as Lab saved it (outputs
    and widget state, see ``lab_runs``). Any other runs with nbclient from its
    ``notebooks/<stem>.py`` source in a temp copy of ``notebooks/`` (so nothing it writes lands in
    the repository). Each notebook executes once per test session however many tests read its
    outputs; the executed copy is kept under ``test-results/executed/`` as ``.ipynb`` and as
    ``.html`` with the widget state saved (the CI artifact a reader without a kernel opens). A
    cell that raises fails every test that asked for the notebook (nbclient's
    ``CellExecutionError`` names the cell).
    """
    import nbformat

    done: dict[str, object] = {}
    folder = _results_dir(request.config) / "executed"

    def run(stem: str, *, timeout: int = 300):
        if stem not in done:
            if stem in lab_runs:
                nb = done[stem] = nbformat.read(lab_runs[stem], as_version=4)
            else:
                nb, done[stem] = _run_nbclient(stem, tmp_path_factory, timeout)
            folder.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, folder / f"{stem}.ipynb")
            _export_html(nb, folder / f"{stem}.html")
        result = done[stem]
        if isinstance(result, Exception):
            raise result
        return result

    run.folder = folder  # where the copies are kept
    return run


def _run_nbclient(stem: str, tmp_path_factory, timeout: int):
    """(the notebook as far as it ran, the notebook or the error that stopped it)."""
    from nbclient import NotebookClient

    root = copy_notebooks(tmp_path_factory.mktemp(stem) / "root")
    nb = read_notebook(root / f"{stem}.py")
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(root)}}, store_widget_state=True)
    try:
        client.execute()
    except Exception as err:  # noqa: BLE001 - kept, re-raised by every later asker
        return nb, err
    return nb, nb


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LabServer:
    """JupyterLab in a subprocess on ``127.0.0.1:<port>``, serving ``workdir/root``."""

    ready_path = "api/status"

    def __init__(self, workdir: Path):
        self.workdir, self.root = workdir, workdir / "root"
        self.port, self.token = _free_port(), secrets.token_hex(16)
        self.base = f"http://127.0.0.1:{self.port}/"
        cmd = self._command()
        env = {
            **os.environ,
            # keep ~/.jupyter config and runtime files out of the test
            "JUPYTER_CONFIG_DIR": str(workdir / "config"),
            "JUPYTER_RUNTIME_DIR": str(workdir / "runtime"),
            "JUPYTER_PLATFORM_DIRS": "1",
        }
        self.log_path = workdir / "server.log"
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(cmd, cwd=self.root, env=env, stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self._wait_ready()

    def _command(self) -> list[str]:
        settings = self.workdir / "settings"
        # no "get notified about Jupyter news?" toast over the page, no update checks
        notif = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
        notif.parent.mkdir(parents=True)
        notif.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
        # every cell stays in the page (Lab 4 otherwise drops off-screen cells from the DOM), so a
        # test can check every figure; widget state saved with the notebook, as `make lab` does
        tracker = settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
        tracker.parent.mkdir(parents=True)
        tracker.write_text(json.dumps({"windowingMode": "none"}))
        manager = settings / "@jupyter-widgets" / "jupyterlab-manager" / "plugin.jupyterlab-settings"
        manager.parent.mkdir(parents=True)
        manager.write_text(json.dumps({"saveState": True}))
        return [
            sys.executable, "-m", "jupyterlab", "--no-browser",
            f"--port={self.port}", "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1",
            f"--IdentityProvider.token={self.token}",
            "--ServerApp.allow_root=True",  # CI runs as root; without it the server exits
            f"--ServerApp.root_dir={self.root}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            f"--LabApp.user_settings_dir={settings}",
            f"--LabApp.workspaces_dir={self.workdir / 'workspaces'}",
        ]

    def url(self, path: str = "") -> str:
        sep = "&" if "?" in path else "?"
        return f"{self.base}{path}{sep}token={self.token}"

    def api(self, method: str, path: str):
        """A call of the server's REST API: the decoded JSON reply (None when it has none)."""
        req = urllib.request.Request(self.base + path, method=method,
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=60) as reply:
            body = reply.read()
        return json.loads(body) if body else None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def _wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.ready_path} server exited with "
                                   f"{self.proc.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url(self.ready_path), timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"{type(self).__name__} not ready after {timeout}s:\n{self.log()}")

    def stop(self) -> int:
        """Shut down through the API (kernels included); return the exit code."""
        if self.proc.poll() is None:
            req = urllib.request.Request(self.base + "api/shutdown", method="POST",
                                         headers={"Authorization": f"token {self.token}"})
            try:
                urllib.request.urlopen(req, timeout=5).close()
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                # last resort: our own child's process group (server + its kernels)
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self._log.close()
        return self.proc.returncode


class VoilaServer(LabServer):
    """Voila serving ``dashboard/explorers.ipynb`` of a copy of ``notebooks/``.

    Launched through ``zmq_wakeup_fix.py`` (Voila executes with nbclient: recipe pitfall 5); its
    readiness probe is a static file, since ``GET /`` would already execute the notebook.
    """

    NOTEBOOK = "dashboard/explorers.ipynb"
    ready_path = "voila/static/favicon.ico"

    def _command(self) -> list[str]:
        return [sys.executable, str(HERE / "zmq_wakeup_fix.py"), "voila", self.NOTEBOOK,
                "--no-browser", f"--port={self.port}", "--Voila.port_retries=0",
                "--Voila.ip=127.0.0.1", f"--token={self.token}"]

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # Voila shuts its kernels down on SIGTERM
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self._log.close()
        return 0


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("voila")
    copy_notebooks(workdir / "root")
    server = VoilaServer(workdir)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("lab")
    copy_notebooks(workdir / "root")
    server = LabServer(workdir)
    yield server
    code = server.stop()
    assert code == 0, f"jupyter lab did not shut down cleanly (exit {code}):\n{server.log()}"


class Lab:
    """The JupyterLab steps of a browser test, on one Playwright page."""

    def __init__(self, server: LabServer, page, shots: Path):
        self.server, self.page, self.shots = server, page, shots

    def open(self, notebook: str) -> None:
        # A fresh workspace per test: the default one would restore notebooks opened by earlier
        # tests as extra tabs, and their widgets would match the same selectors.
        workspace = f"t{secrets.token_hex(4)}"
        self.page.goto(self.server.url(f"lab/workspaces/{workspace}/tree/{notebook}"))
        self.wait_kernel_idle()

    def wait_kernel_idle(self) -> None:
        # The toolbar indicator says 'idle' for a moment *before* the kernel exists
        # ("No Kernel | Initializing"); Run All clicked then is silently lost. So also require
        # the status bar's "| Idle" without "No Kernel" (recipe pitfall 2).
        self.page.wait_for_function(
            """() => {
                const ind = document.querySelector('.jp-Notebook-ExecutionIndicator');
                const bar = document.querySelector('#jp-main-statusbar');
                const text = bar ? bar.innerText : '';
                return ind && ind.dataset.status === 'idle' &&
                       text.includes('| Idle') && !text.includes('No Kernel');
            }""",
            timeout=SLOW_MS,
        )

    def _state(self) -> str:
        """The prompts and the status bar, for a failure message."""
        return self.page.evaluate("""() => {
            const prompts = PROMPTS.map(p => p.textContent.trim());
            const bar = document.querySelector('#jp-main-statusbar');
            return 'prompts ' + prompts.join(' ') + ' | status bar: ' + (bar ? bar.innerText : '?');
        }""".replace("PROMPTS", _PROMPTS)).replace("\n", " ")

    def _fail(self, what: str, err: Exception | None) -> None:
        shot = self.screenshot(f"FAILED-{self.page_name()}.png")
        raise AssertionError(f"{what}: {self._state()} (screenshot {shot})") from err

    def page_name(self) -> str:
        return self.page.url.split("/tree/")[-1].split("?")[0].replace("/", "_") or "page"

    def run_all(self) -> None:
        """Run > Run All Cells (no default shortcut), then wait until every code cell ran."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        for attempt in (1, 2):
            self.page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
            self.page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
            try:  # started: a prompt shows [*] or a number, or the kernel is busy
                self.page.wait_for_function(
                    """() => {
                        const ind = document.querySelector('.jp-Notebook-ExecutionIndicator');
                        return (ind && ind.dataset.status === 'busy') ||
                            PROMPTS.some(p => /\\[(\\*|\\d+)\\]/.test(p.textContent));
                    }""".replace("PROMPTS", _PROMPTS),
                    timeout=20_000,
                )
                break
            except PlaywrightTimeout as err:
                # Nothing queued after 20 s: the click was lost (recipe pitfall 2); once more,
                # and say so in the warnings summary (a lost click should stay rare).
                if attempt == 2:
                    self._fail("Run All Cells started nothing, twice", err)
                warnings.warn(f"Run All Cells started nothing after 20 s in {self.page_name()}: "
                              f"clicked again ({self._state()})", stacklevel=2)
        # Run All is over when no cell is queued or running ("[*]") and the kernel is idle. A
        # cell that raises stops it, and Lab resets the queued prompts to "[ ]": so "every prompt
        # has a number" then means the whole notebook ran without an error.
        try:
            self.page.wait_for_function(
                """() => {
                    const ind = document.querySelector('.jp-Notebook-ExecutionIndicator');
                    const prompts = PROMPTS.map(p => p.textContent);
                    return prompts.length > 0 && ind && ind.dataset.status === 'idle' &&
                           !prompts.some(p => p.includes('[*]'));
                }""".replace("PROMPTS", _PROMPTS),
                timeout=SLOW_MS * 2,
            )
        except PlaywrightTimeout as err:
            self._fail("Run All did not finish", err)
        self.wait_kernel_idle()
        unnumbered = self.page.evaluate(
            """() => PROMPTS.filter(p => !/\\[\\d+\\]/.test(p.textContent)).length""".replace(
                "PROMPTS", _PROMPTS))
        if unnumbered:
            errors = self.page.evaluate("""() => [...document.querySelectorAll(
                '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
                .map(o => o.textContent).join('\\n').slice(-3000)""")
            self._fail(f"{unnumbered} cell(s) did not run; the error output:\n{errors}\n", None)

    def save_and_shut_down(self, notebook: str) -> Path:
        """File > Save Notebook, then shut its kernel down (as a user ending a session does: the
        kernel exits normally, so its QUICK scratch folder goes). Returns the saved file."""
        path = self.server.root / notebook
        before = path.stat().st_mtime_ns
        self.page.locator(".lm-MenuBar-itemLabel", has_text="File").first.click()
        self.page.locator(".lm-Menu-itemLabel", has_text="Save Notebook").first.click()

        def saved() -> bool:  # written anew, every code cell with its run number
            if path.stat().st_mtime_ns == before:
                return False
            try:
                cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            except ValueError:  # being written
                return False
            return all(c.get("execution_count") for c in cells if c["cell_type"] == "code")

        deadline = time.monotonic() + 60
        while not saved():
            if time.monotonic() > deadline:
                self._fail(f"{notebook} was not saved with its outputs", None)
            time.sleep(0.2)
        self.page.wait_for_function(  # the save is complete: the tab is no longer dirty
            "() => !document.querySelector('.jp-mod-current.jp-mod-dirty')", timeout=SLOW_MS)
        for session in self.server.api("GET", "api/sessions"):
            if session["path"] == notebook:
                self.server.api("DELETE", f"api/kernels/{session['kernel']['id']}")
        return path

    def screenshot(self, name: str) -> Path:
        self.shots.mkdir(parents=True, exist_ok=True)
        path = self.shots / name
        self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture
def lab(lab_server, page, request):
    """A :class:`Lab` on a fresh page; fails the test on any uncaught page error."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield Lab(lab_server, page, _results_dir(request.config) / "screenshots")
    assert not errors, errors
