"""The public surface: __all__ is sorted, complete and resolvable, and `import cipherlab` stays light."""

import subprocess
import sys

import cipherlab


def test_all_is_sorted_and_unique():
    assert cipherlab.__all__ == sorted(set(cipherlab.__all__))


def test_every_public_name_resolves():
    for name in cipherlab.__all__:
        assert getattr(cipherlab, name) is not None, name


def test_import_is_light():
    code = ("import sys, cipherlab; heavy = [m for m in ('matplotlib', 'ipywidgets', 'seaborn') "
            "if m in sys.modules]; print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_functions_are_functions_not_modules():
    # the implementation packages are named so that these are always the callables
    for name in ("ingest", "capture", "capture_python", "capture_tls", "report", "host_info"):
        assert callable(getattr(cipherlab, name)), name
