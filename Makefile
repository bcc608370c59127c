# Quick start: `make demo` and `make test` (each creates .venv on first use).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast lint check bench golden mutate docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test,fast,precision,plots,notebook,sweep]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/posproof check
	$(BIN)/posproof derive sinusoidal-dot-product --format latex

# The whole test suite (under 7 minutes on two idle cores): lint and format check (ruff), types (mypy), every test
# and doctest on two processes (pytest-xdist; a file's tests, or a named xdist_group such as the exports, run on one
# process, which builds what they share once: tests/conftest.py), then the golden and determinism tests again with
# NumPy's SIMD paths switched off (outputs compared byte for byte must not depend on the CPU).
test: lint
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup
	$(BIN)/python -m tests.simd_rerun

# The inner loop (under 2 minutes on two cores): every test not marked slow (whole exports, pdflatex, KaTeX and
# Chromium, fresh venvs, the notebook: the `slow` marker, tests/conftest.py), on two processes, without lint and
# without the SIMD rerun. Run `make test` before a commit.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m tests.typecheck

check: $(STAMP)
	$(BIN)/posproof check

bench: $(STAMP)
	$(BIN)/python bench/bench_check.py

# Mutation testing: every mutant of tests/mutation/catalogue.py must be killed by the suite (goal >= 95 %).
mutate: $(STAMP)
	$(BIN)/python -m tests.mutation.run --jobs 2

# Rewrite the golden LaTeX files after an intended change of a derivation (review the diff!).
golden: $(STAMP)
	$(BIN)/python -m pytest -q tests/printing/test_golden.py --update-golden

# Redraw the README's pictures: a derivation set by KaTeX and photographed by headless Chromium, a figure by matplotlib.
docs: $(STAMP)
	$(BIN)/python -c "from posproof.derivations.picture import claim_png; claim_png('rope-block-relative', 'docs/images/rope-block-relative.png', 900, 760)"
	$(BIN)/posproof plot sinusoidal-proximity --out docs/images/sinusoidal-proximity.svg

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis .ruff_cache .mypy_cache mutants
