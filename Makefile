# Two commands on a fresh machine: `make run` and `make test`. Both create .venv when missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Pinned with hashes for every platform (make lock): the image installs LOCK (what production
# runs), the development venv DEV_LOCK (plus the embedded mode and the test tools).
LOCK := requirements.lock
DEV_LOCK := requirements-dev.lock
UV_COMPILE := $(VENV)/bin/uv pip compile -q pyproject.toml --universal --python-version 3.11 --generate-hashes --upgrade
# Test processes (pytest-xdist): one per core and one more, since the suite waits on servers,
# browsers and failovers about a sixth of its time (docs CONTRIBUTING.md "Running the tests"); JOBS=0
# runs in this process (pdb, prints).
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE): else
# each test process rewrites and compiles every test module again (6 s of CPU each).
JOBS ?= $(shell echo $$(( $$(nproc) + 1 )))
PYTEST := PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -n $(JOBS) --dist worksteal

.PHONY: run test check lint lock lowest system-deps image-test bench simulate docs clean

# uv installs the lock (every hash checked) in a third of pip's time; pip only fetches uv, at
# the lock's version.
$(STAMP): pyproject.toml $(DEV_LOCK)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q "$$(grep -m1 '^uv==' $(DEV_LOCK) | cut -d' ' -f1)"
	$(VENV)/bin/uv pip install -q --python $(PY) --compile-bytecode --require-hashes -r $(DEV_LOCK)
	$(VENV)/bin/uv pip install -q --python $(PY) --no-deps -e .
	touch $(STAMP)

# After a change to the dependencies in pyproject.toml: the newest versions its bounds allow.
lock:
	test -x $(VENV)/bin/uv || { test -x $(PY) || $(PYTHON) -m venv $(VENV); $(PY) -m pip install -q uv; }
	$(UV_COMPILE) -o $(LOCK)
	$(UV_COMPILE) --extra embedded --extra test -o $(DEV_LOCK)

# The lower bounds in pyproject.toml, for real: the lowest version of every direct dependency
# (uv's lowest-direct resolution) in a venv of its own under a temp dir, then the tests of the
# store, the API, the money and the sockets on it (real Postgres and Redis, as `make test`).
# CI runs it after `make test` (.ci/run); it needs PyPI. About 3.5 minutes on 2 cores.
LOWEST_TESTS := tests/store tests/api tests/money tests/ws tests/ops/test_logs_and_settings.py
lowest: $(STAMP)
	@dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; set -e; \
	$(VENV)/bin/uv venv -q --python $(PYTHON) "$$dir/venv"; \
	$(VENV)/bin/uv pip compile -q pyproject.toml --python "$$dir/venv/bin/python" \
	  --resolution lowest-direct --extra embedded --extra test -o "$$dir/requirements.txt"; \
	grep -E '^(redis|limits|pydantic-settings|fastapi|uvicorn|sqlalchemy)==' "$$dir/requirements.txt"; \
	$(VENV)/bin/uv pip sync -q --compile-bytecode --python "$$dir/venv/bin/python" "$$dir/requirements.txt"; \
	$(VENV)/bin/uv pip install -q --python "$$dir/venv/bin/python" --no-deps -e .; \
	PYTHONDONTWRITEBYTECODE= "$$dir/venv/bin/python" -m pytest -q -n $(JOBS) --dist worksteal -p no:cacheprovider \
	  -W ignore::DeprecationWarning \
	  $(LOWEST_TESTS)

run: $(STAMP)
	$(PY) -m app serve

# Debian's Chromium (browser tests; never a downloaded browser), docker-compose (validates the
# compose file, no engine needed), nginx (deploy/nginx.conf in front of two servers,
# tests/ops/test_proxy.py), PgBouncer (the database path through it in transaction mode,
# tests/ops/test_pgbouncer.py) and Node.js (the client's pure functions, tests/js), installed
# with apt when missing (root, as on our machines).
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium chromium-driver"; \
	PATH="$$PATH:/usr/sbin" command -v nginx >/dev/null 2>&1 || missing="$$missing nginx-light"; \
	PATH="$$PATH:/usr/sbin" command -v pgbouncer >/dev/null 2>&1 || missing="$$missing pgbouncer"; \
	command -v docker-compose >/dev/null 2>&1 || missing="$$missing docker-compose"; \
	command -v node >/dev/null 2>&1 || missing="$$missing nodejs"; \
	if [ -n "$$missing" ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# The image, built from the Dockerfile unchanged and run with podman: no Docker daemon or
# registry needed (deploy/image-test.sh, docs/operations/deploy.md "How the image is tested"). CI
# runs it after `make lowest`; about 2.5 minutes once its base is cached, 3.5 on a machine's first
# run. Its tools from Debian when missing: mmdebstrap, buildah, podman with runc and catatonit (for
# --init), nginx (compose's proxy).
image-test: $(STAMP)
	@missing=""; \
	for tool in mmdebstrap buildah podman runc; do \
	  PATH="$$PATH:/usr/sbin" command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; \
	done; \
	test -x /usr/libexec/podman/catatonit || missing="$$missing catatonit"; \
	PATH="$$PATH:/usr/sbin" command -v nginx >/dev/null 2>&1 || missing="$$missing nginx-light"; \
	if [ -n "$$missing" ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	bash deploy/image-test.sh

# Lint, format, the layers (import-linter), types (mypy), the client's syntax (every module, as
# node parses it) and its pure functions.
lint: $(STAMP) system-deps
	$(PY) -m ruff check app tests bench tools
	$(PY) -m ruff format --check app tests bench tools
	$(VENV)/bin/lint-imports
	$(PY) -m mypy
	for f in $$(find static/js -name '*.js'); do node --check "$$f" || exit 1; done
	node --test tests/js/

# Everything CI runs (.ci/run): the checks above and the whole suite, browsers included.
test: lint
	$(PYTEST)

# The inner loop, a couple of minutes: the checks and the tests that start no server (the
# rules, the table document, the store and the database); `make test` before a merge.
check: lint
	$(PYTEST) -m "not e2e and not slow" tests/games tests/test_architecture.py \
	  tests/services/test_table_doc.py tests/store tests/db

# The docs site (mkdocs.yml, the Material theme) into site/, strictly: a broken link or anchor,
# a page missing from the nav or a settings reference that differs from app/config.py fails.
docs: $(STAMP)
	$(PY) -m mkdocs build --strict --quiet

simulate: $(STAMP)
	$(PY) -m app simulate --game gaple --players 4 --rounds 1000

# A short run of every benchmark in one table (engine, load, idle connections); the full-size
# commands are in bench/README.md. Gaple against the dominoes package: bench/engine.py --vs-dominoes
bench: $(STAMP)
	$(PY) bench/suite.py

clean:
	rm -rf $(VENV) var site .pytest_cache
