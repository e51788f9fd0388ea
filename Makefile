# funcgrad: `make demo`, `make test`. Everything runs in a local virtualenv, .venv/.
#
# Each install step leaves a stamp file in .venv/ and is redone only when the packaging files
# change (or after `make clean`). The install is editable, so edits to funcgrad/ and kernels/
# are picked up without reinstalling.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
# Anything that changes what `pip install` does.
PKG_FILES := pyproject.toml setup.cfg setup.py
PYTEST_ARGS ?=
TEST_WORKERS ?= 2

.PHONY: .venv demo test docs notebooks soak bench bench-quick bench-chain bench-compare clean

.venv: $(VENV)/.stamp-install

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip

$(VENV)/.stamp-install: $(PKG_FILES) | $(PY)
	$(PIP) install -e .
	touch $@

$(VENV)/.stamp-test: $(PKG_FILES) | $(PY)
	$(PIP) install -e '.[test]'
	touch $@ $(VENV)/.stamp-install

# Editable too (not a plain `pip install .[bench]`): a regular install would replace the
# editable one, and tests run from the work tree would then miss funcgrad.kernels.
$(VENV)/.stamp-bench: $(PKG_FILES) | $(PY)
	$(PIP) install -e '.[bench]'
	touch $@ $(VENV)/.stamp-install

$(VENV)/.stamp-docs: $(PKG_FILES) | $(PY)
	$(PIP) install -e '.[docs]'
	touch $@ $(VENV)/.stamp-install

# The warmup compiles every CPU kernel into the disk cache (minutes the first time, with a
# progress bar), so that later processes load kernels instead of compiling them.
demo: $(VENV)/.stamp-install
	$(PY) -m funcgrad.warmup
	$(PY) -m funcgrad.demo

# Two pytest workers (pytest-xdist), one per core of the CI machine, each taking whole test
# files (--dist loadfile: a file's kernels compile in one process). TEST_WORKERS=0 runs the
# suite in this process alone. Tests marked soak (exhaustive fg.jit grids) are deselected
# here (tests/conftest.py) and run by `make soak`.
test: $(VENV)/.stamp-test
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# The documentation site (docs/): Sphinx, warnings as errors, into docs/_build/html.
# The API pages are generated from the modules' __all__; notebooks show their stored outputs.
docs: $(VENV)/.stamp-docs
	$(PY) -m sphinx -b html -W --keep-going -q docs docs/_build/html
	@echo "open docs/_build/html/index.html"

# Re-execute every notebook in place (a fresh kernel each, top to bottom), so the outputs
# stored with them come from the current code; tests/test_notebooks.py checks that they do.
# A few minutes. `$(PY) notebooks/execute.py 02 04` runs only the notebooks named so.
notebooks: $(VENV)/.stamp-test
	$(PY) notebooks/execute.py

# The long reliability runs (threads, memory, fuzzing, 1e8-element arrays, kernel safety,
# every generated kernel in both forms): the tests/test_reliability_*, test_fuzz,
# test_odd_inputs, test_kernel_safety and test_kernels files with FUNCGRAD_LONG=1, then the
# tests marked soak (the exhaustive fg.jit grids, which `make test` deselects: see
# tests/conftest.py). An hour or more; figures go to benchmarks/results/soak.json.
soak: $(VENV)/.stamp-test
	$(PY) benchmarks/soak.py

# The suite (benchmarks/suite.py): W1-W8 against JAX, PyTorch and autograd. `bench` (about 15
# minutes for W1-W7 on an idle machine, W8 about 5 more) also rewrites README.md's Benchmarks section; `bench-quick` (about 5 minutes)
# only writes benchmarks/results/suite-quick.*.
bench: $(VENV)/.stamp-bench
	$(PY) benchmarks/suite.py --command "make bench" --update-readme

bench-quick: $(VENV)/.stamp-bench
	$(PY) benchmarks/suite.py --quick --command "make bench-quick"

bench-chain: $(VENV)/.stamp-bench
	$(PY) benchmarks/chain.py

# Two versions of funcgrad side by side on the suite's funcgrad rows (benchmarks/compare.py):
#   make bench-compare BASE=<commit> [HEAD=<commit or folder>] [COMPARE_ARGS="--quick"]
# The head defaults to this work tree. Needs no peer libraries, only funcgrad's install.
bench-compare: $(VENV)/.stamp-install
	@test -n "$(BASE)" || { echo "usage: make bench-compare BASE=<commit> [HEAD=<commit or folder>] [COMPARE_ARGS=...]"; exit 2; }
	$(PY) benchmarks/compare.py --base $(BASE) $(if $(HEAD),--head $(HEAD)) $(COMPARE_ARGS) \
		--command "make bench-compare BASE=$(BASE)$(if $(HEAD), HEAD=$(HEAD))$(if $(COMPARE_ARGS), COMPARE_ARGS=\"$(COMPARE_ARGS)\")"

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis docs/_build \
		docs/api/generated docs/tutorials/notebooks
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
