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
# it cannot download its own browser here) and OpenSSH (the fleet tests start their own sshd on
# 127.0.0.1). Installed only when missing; an openssh-server installed just for the tests gets
# Debian's sshd_not_to_be_run flag, so no system sshd starts listening on port 22.
system-deps:
	@command -v openssl >/dev/null && test -x /usr/bin/chromium && command -v ssh >/dev/null \
	  && test -x /usr/sbin/sshd || { \
	  test -x /usr/sbin/sshd || { mkdir -p /etc/ssh && touch /etc/ssh/sshd_not_to_be_run; }; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl chromium \
	    openssh-client openssh-server >/dev/null; }

benchmarks: $(STAMP)
	for f in benchmarks/*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache test-results
