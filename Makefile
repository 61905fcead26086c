# mlc: `make demo` runs the bundled example, `make test` the whole suite.
# Both create .venv with the pinned packages of requirements.lock when needed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast lit pytest venv lock clean

venv: $(STAMP)

$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

demo: $(STAMP)
	$(BIN)/python examples/demo.py

test: lit pytest

lit: $(STAMP)
	$(BIN)/lit -sv test

pytest: $(STAMP)
	$(BIN)/pytest -q test/pytest

# Skips the end-to-end tests marked slow.
test-fast: lit $(STAMP)
	$(BIN)/pytest -q -m "not slow" test/pytest

lock: $(STAMP)
	(echo "# Every package mlc's .venv holds, pinned; regenerate with 'make lock'."; \
	 $(BIN)/pip freeze --exclude-editable | grep -v '^mlc' | sed 's/+cpu$$//') > requirements.lock

clean:
	rm -rf $(VENV) build
