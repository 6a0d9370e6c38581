# Two commands on a fresh machine: `make run` and `make test`. Both create .venv when missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test system-deps bench simulate clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m app serve

# Debian's Chromium (browser tests; never a downloaded browser), docker-compose (validates the
# compose file, no engine needed) and Node.js (the client's pure functions, tests/js), installed
# with apt when missing (root, as on our machines).
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium chromium-driver"; \
	command -v docker-compose >/dev/null 2>&1 || missing="$$missing docker-compose"; \
	command -v node >/dev/null 2>&1 || missing="$$missing nodejs"; \
	if [ -n "$$missing" ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

test: $(STAMP) system-deps
	$(PY) -m ruff check app tests bench
	$(VENV)/bin/lint-imports
	$(PY) -m mypy
	node --test tests/js/
	$(PY) -m pytest -q

simulate: $(STAMP)
	$(PY) -m app simulate --game gaple --players 4 --rounds 1000

# A short run of every benchmark in one table (engine, load, idle connections); the full-size
# commands are in bench/README.md. Gaple against the dominoes package: bench/engine.py --vs-dominoes
bench: $(STAMP)
	$(PY) bench/suite.py

clean:
	rm -rf $(VENV) var .pytest_cache
