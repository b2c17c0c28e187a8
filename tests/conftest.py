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


def build_report(sources, out, **kwargs):
    """The report of ``sources`` (None: the bundled data) in ``out``: (page, html, writer).

    The writer keeps how each figure was drawn, so layout tests can draw it again at both widths.
    """
    import warnings

    from cipherlab.reporting._report import _build

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the page lists them; tested there
        page, writer = _build(sources, out=out, label=kwargs.get("label"),
                              baseline=kwargs.get("baseline"), progress=False)
    return page, page.read_text(encoding="utf-8"), writer


@pytest.fixture(scope="session")
def bundled_report(tmp_path_factory):
    """The report of the bundled data, built once per test session (it is the slow part)."""
    return build_report(None, tmp_path_factory.mktemp("bundled-report"))


@pytest.fixture(scope="session")
def captured(tmp_path_factory):
    """A small real capture of this machine: the README's grid, short (1 s, 2 repeats)."""
    import cipherlab

    out = tmp_path_factory.mktemp("capture") / "mybox"
    cipherlab.capture(["aes-128-gcm", "aes-128-cbc"], sizes=[16, 1024, 16384], seconds=1,
                      repeats=2, isa="native,no-aesni", out=out, progress=False)
    return out


@pytest.fixture(scope="session")
def captured_report(captured, tmp_path_factory):
    return build_report(captured, tmp_path_factory.mktemp("captured-report"))


@pytest.fixture(scope="session")
def two_machines(tmp_path_factory):
    """Two dumps of two machines as a user has them: alice.txt and bob.txt, nothing else."""
    import shutil

    import cipherlab

    folder = tmp_path_factory.mktemp("two-machines")
    shutil.copy(cipherlab.datasets.path("captures/host-a-openssl-3.0.19/evp-aes.txt"),
                folder / "alice.txt")
    shutil.copy(cipherlab.datasets.path("captures/host-b-openssl-3.0.22/evp.txt"),
                folder / "bob.txt")
    return folder / "alice.txt", folder / "bob.txt"


@pytest.fixture(scope="session")
def two_machines_report(two_machines, tmp_path_factory):
    return build_report(list(two_machines), tmp_path_factory.mktemp("two-machines-report"))


def pytest_collection_modifyitems(items):
    """`make test-fast` (-m "not slow") skips what runs real captures, notebooks or browsers."""
    for item in items:
        if any(item.get_closest_marker(m) for m in ("openssl", "notebook", "browser")):
            item.add_marker(pytest.mark.slow)


_CACHE = os.path.join(os.path.dirname(__file__), "..", ".cache")
ARM_ROOT = os.environ.get("CIPHERLAB_ARM_ROOT", os.path.join(_CACHE, "arm64-openssl"))
I386_ROOT = os.environ.get("CIPHERLAB_I386_ROOT", os.path.join(_CACHE, "i386-openssl"))


def _unpacked_openssl(tmp_path_factory, root: str, run: str, name: str) -> str:
    """An executable ``openssl`` that runs the Debian openssl unpacked in ``root`` (``make
    system-deps`` puts it there) through ``run``, a shell prefix with ``{root}`` in it."""
    import shlex

    root = os.path.abspath(root)
    binary = os.path.join(root, "usr", "bin", "openssl")
    if not os.access(binary, os.X_OK):
        pytest.skip(f"no {name} openssl in {root} (`make system-deps` unpacks Debian's)")
    wrapper = tmp_path_factory.mktemp(name) / "openssl"
    wrapper.write_text(f"#!/bin/sh\nexec {run.format(root=shlex.quote(root))} "
                       f"{shlex.quote(binary)} \"$@\"\n")
    wrapper.chmod(0o755)
    return str(wrapper)


@pytest.fixture(scope="session")
def arm_openssl(tmp_path_factory):
    """An ARM machine's ``openssl``: Debian's arm64 build (``make system-deps`` unpacks it in
    ``.cache/arm64-openssl``, or ``CIPHERLAB_ARM_ROOT``) run by ``qemu-aarch64`` user-mode
    emulation, presented as an executable named ``openssl``. Its ``CPUINFO:`` line reads
    ``OPENSSL_armcap=...`` and ``OPENSSL_armcap`` switches its ARMv8 code paths."""
    import shlex
    import shutil

    qemu = shutil.which("qemu-aarch64")
    if qemu is None:
        pytest.skip("no qemu-aarch64 to run an arm64 openssl (Debian: apt install qemu-user; "
                    "`make system-deps` installs it)")
    return _unpacked_openssl(tmp_path_factory, ARM_ROOT, f"{shlex.quote(qemu)} -L {{root}}",
                             "arm64")


@pytest.fixture(scope="session")
def i386_openssl(tmp_path_factory):
    """A 32-bit x86 build on this machine: Debian's i386 ``openssl`` (``make system-deps``
    unpacks it in ``.cache/i386-openssl``, or ``CIPHERLAB_I386_ROOT``) run natively by its own
    ``ld-linux.so.2`` and libraries, as an executable named ``openssl``. It reads the same CPU
    as the 64-bit one but takes its 32-bit code paths."""
    import platform

    if platform.machine().lower() not in ("x86_64", "amd64"):
        pytest.skip(f"a 32-bit x86 openssl runs natively only on x86-64 (this is "
                    f"{platform.machine()})")
    return _unpacked_openssl(
        tmp_path_factory, I386_ROOT, "{root}/lib/ld-linux.so.2 --library-path "
        "{root}/lib/i386-linux-gnu:{root}/usr/lib/i386-linux-gnu", "i386")


@pytest.fixture(scope="session")
def arm_captured(arm_openssl, tmp_path_factory):
    """A small real capture with the ARM openssl: AES-GCM, AES-CBC and ChaCha20 under native and
    no-aesni (2 sizes, 1 s, 2 repeats: 24 runs, ~30 s under qemu)."""
    import warnings

    import cipherlab

    out = tmp_path_factory.mktemp("arm-capture") / "armbox"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (emulated, busy: tested in tests/runners)
        cipherlab.capture(["aes-128-gcm", "aes-128-cbc", "chacha20-poly1305"], sizes=[16, 16384],
                          seconds=1, repeats=2, isa="native,no-aesni", out=out, openssl=arm_openssl,
                          progress=False)
    return out


@pytest.fixture(scope="session")
def arm_captured_report(arm_captured, tmp_path_factory):
    return build_report(arm_captured, tmp_path_factory.mktemp("arm-captured-report"))


@pytest.fixture(scope="session")
def i386_captured(i386_openssl, tmp_path_factory):
    """The ``captured`` grid with the 32-bit openssl: AES-GCM and AES-CBC at 16, 1024 and 16384
    bytes, native and no-aesni, 1 s, 2 repeats (24 runs, ~30 s)."""
    import warnings

    import cipherlab

    out = tmp_path_factory.mktemp("i386-capture") / "mybox-32"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (a 32-bit build, busy: tested in tests/runners)
        cipherlab.capture(["aes-128-gcm", "aes-128-cbc"], sizes=[16, 1024, 16384], seconds=1,
                          repeats=2, isa="native,no-aesni", out=out, openssl=i386_openssl,
                          progress=False)
    return out


@pytest.fixture(scope="session")
def builds_report(i386_captured, captured, tmp_path_factory):
    """The report of the 32-bit capture beside this machine's own (64-bit) capture."""
    return build_report([i386_captured, captured], tmp_path_factory.mktemp("builds-report"))


def _capture_as(host: str, machine_id: str | None, out, openssl: str | None, tmp) -> None:
    """A real ``cipherlab capture`` run on this machine as another machine would see itself:
    in a UTS namespace whose host name is ``host`` and, with ``machine_id``, a mount namespace
    whose ``/etc/machine-id`` says that id (``unshare``, as root): the host facts and the
    ``host_id`` are the ones such a machine records. AES-128-GCM at 16 and 16384 bytes, native,
    1 s, 2 repeats."""
    import shlex
    import subprocess
    import sys

    mount = ""
    if machine_id is not None:
        (tmp / "machine-id").write_text(machine_id + "\n")
        mount = f"mount --bind {shlex.quote(str(tmp / 'machine-id'))} /etc/machine-id && "
    command = [sys.executable, "-m", "cipherlab", "capture", "-q", "--algorithms", "aes-128-gcm",
               "--sizes", "16,16384", "--seconds", "1", "--repeats", "2", "--isa", "native",
               *(["--openssl", openssl] if openssl else []), "-o", str(out)]
    script = f"hostname {shlex.quote(host)} && {mount}exec {shlex.join(command)}"
    done = subprocess.run(["unshare", "--uts", "--mount", "sh", "-c", script],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0 and not out.exists():
        pytest.skip(f"cannot capture as another host here (unshare needs root): {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="session")
def namesakes(arm_openssl, tmp_path_factory):
    """Three real captures of machines that all call themselves ``ubuntu`` (every cloud VM
    does): ``x86/ubuntu`` (this machine, its own machine id), ``clone/ubuntu`` (this machine's
    openssl under another machine id: another VM of the same image), ``arm/ubuntu`` (Debian's
    arm64 openssl under qemu, a third id)."""
    root = tmp_path_factory.mktemp("namesakes")
    ids = {"x86": None, "clone": "0123456789abcdef0123456789abcdef",
           "arm": "fedcba9876543210fedcba9876543210"}
    for name, machine_id in ids.items():
        (root / name).mkdir()
        _capture_as("ubuntu", machine_id, root / name / "ubuntu",
                    arm_openssl if name == "arm" else None, root / name)
    return {name: root / name / "ubuntu" for name in ids}
