# Two commands do everything on a fresh machine (see README):
#   make report   set up, then run the main job on the bundled data
#   make test     set up (incl. Chromium for the browser tests), then run the whole test suite
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.cipherlab-installed
OUT    ?= report
# Debian's arm64 openssl, unpacked, that the tests run under qemu-aarch64 (an ARM machine's binary),
# and its i386 openssl, that they run natively with its own loader (a 32-bit build on this CPU)
ARM_ROOT ?= .cache/arm64-openssl
I386_ROOT ?= .cache/i386-openssl

.PHONY: report test test-fast lab dashboard setup git-filters system-deps benchmarks clean

report: $(STAMP)
	$(VENV)/bin/cipherlab report -o $(OUT)

test: $(STAMP) system-deps git-filters
	$(PY) -m pytest $(PYTEST_ARGS)

# The quick loop while editing: everything but notebook runs, browsers and captures (~1 min).
test-fast: $(STAMP) git-filters
	$(PY) -m pytest -m "not slow" $(PYTEST_ARGS)

# Jupyter refuses to run as root unless told; CI machines and containers run as root.
ROOT_OK := $(if $(filter 0,$(shell id -u)),--allow-root,)

# Lab saves the widgets' state into the notebook (the file then shows the last view without a
# kernel); a venv-wide default, so the user's own settings are left alone.
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json
$(LAB_OVERRIDES): $(STAMP)
	mkdir -p $(dir $@)
	echo '{"@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": true}}' > $@

# JupyterLab on notebooks/: jupytext keeps each NN_name.py (the source) paired with its .ipynb,
# and the git filter strips what Lab saves, so a saved run changes nothing git tracks.
lab: $(STAMP) git-filters $(LAB_OVERRIDES)
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=notebooks $(ROOT_OK)

# The explorers as a Voila dashboard: outputs and widgets, no code cells (http://localhost:8866).
dashboard: $(STAMP)
	$(VENV)/bin/voila notebooks/dashboard/explorers.ipynb --no-browser

setup: $(STAMP) system-deps git-filters

# The nbstripout clean filter that .gitattributes names, set in .git/config (where there is one).
git-filters: $(STAMP)
	@if git rev-parse --git-dir >/dev/null 2>&1; then \
	  git config filter.nbstripout.clean '"$(abspath $(PY))" -m nbstripout'; \
	  git config filter.nbstripout.smudge cat; \
	  git config diff.ipynb.textconv '"$(abspath $(PY))" -m nbstripout -t'; fi

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[test]"
	touch $@

# System packages the tests need: the real openssl binary, Debian's Chromium (Playwright drives it;
# it cannot download its own browser here), a JDK (java + javac: the JSSE and JCA captures),
# gnutls-cli (the GnuTLS capture), cryptsetup (the tests read its benchmark's lines), pdflatex
# with booktabs (the report's tables are compiled in a two-column article), OpenSSH (the fleet
# tests start their own sshd on 127.0.0.1) and qemu-user with Debian's arm64 openssl unpacked in
# $(ARM_ROOT) (the ARM capture tests run it emulated), and its i386 openssl in $(I386_ROOT) (the
# 32-bit capture tests run it with its own ld-linux.so.2).
# Installed only when missing; an openssh-server installed just for the tests gets Debian's
# sshd_not_to_be_run flag, so no system sshd starts listening on port 22.
# Debian's openssl of architecture $(1), unpacked (not installed) into $(2) with its libc: the
# architecture is added to dpkg only to download it, and removed again; a failed download warns
# (the tests named $(3) skip) instead of failing the set-up.
define foreign-openssl
@test -x $(2)/usr/bin/openssl || { added=; dpkg --print-foreign-architectures | \
  grep -qx $(1) || { dpkg --add-architecture $(1) && added=1; }; \
  { apt-get update -qq && mkdir -p $(2)/debs && cd $(2)/debs && apt-get download \
    -qq openssl:$(1) libssl3:$(1) libc6:$(1) libgcc-s1:$(1) 2>/dev/null && \
    for f in *.deb; do dpkg -x $$f ..; done; } || echo "system-deps: Debian's $(1) openssl" \
    "could not be fetched: the $(3) tests will be skipped." >&2; \
  test -z "$$added" || { dpkg --remove-architecture $(1) && apt-get update -qq; }; }
endef

system-deps:
	@command -v openssl >/dev/null && test -x /usr/bin/chromium && command -v javac >/dev/null \
	  && command -v gnutls-cli >/dev/null || { \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl chromium \
	    default-jdk-headless gnutls-bin >/dev/null; }
	@command -v pdflatex >/dev/null && kpsewhich booktabs.sty >/dev/null || { \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends texlive-latex-base texlive-latex-recommended >/dev/null; }
	@command -v qemu-aarch64 >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user >/dev/null; }
	@test -x /usr/sbin/cryptsetup || command -v cryptsetup >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cryptsetup-bin >/dev/null; }
	$(call foreign-openssl,arm64,$(ARM_ROOT),ARM capture)
	$(call foreign-openssl,i386,$(I386_ROOT),32-bit capture)
	@command -v ssh >/dev/null && test -x /usr/sbin/sshd || { \
	  test -x /usr/sbin/sshd || { mkdir -p /etc/ssh && touch /etc/ssh/sshd_not_to_be_run; }; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    openssh-client openssh-server >/dev/null; }

benchmarks: $(STAMP)
	for f in benchmarks/*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache test-results
