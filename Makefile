# Two commands do everything on a fresh machine (see README):
#   make report   set up, then run the main job on the bundled data
#   make test     set up (incl. Chromium for the browser tests), then run the whole test suite
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.cipherlab-installed
OUT    ?= report

.PHONY: report test lab setup system-deps benchmarks clean

report: $(STAMP)
	$(VENV)/bin/cipherlab report -o $(OUT)

test: $(STAMP) system-deps
	$(PY) -m pytest $(PYTEST_ARGS)

# Jupyter refuses to run as root unless told; CI machines and containers run as root.
lab: $(STAMP)
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=notebooks $(if $(filter 0,$(shell id -u)),--allow-root,)

setup: $(STAMP) system-deps

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[test]"
	touch $@

# System packages the tests need: the real openssl binary, Debian's Chromium (Playwright drives it;
# it cannot download its own browser here), a JDK (java + javac: the JSSE and JCA captures) and
# gnutls-cli (the GnuTLS capture). Installed only when missing.
system-deps:
	@command -v openssl >/dev/null && test -x /usr/bin/chromium && command -v javac >/dev/null \
	  && command -v gnutls-cli >/dev/null || { \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl chromium \
	    default-jdk-headless gnutls-bin >/dev/null; }

benchmarks: $(STAMP)
	for f in benchmarks/*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache test-results
