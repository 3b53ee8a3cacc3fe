# Two commands for a fresh machine:
#   make run   - serve the API (embedded SQLite by default; PostgreSQL when CUCCU_DATABASE_URL is set)
#   make test  - lint, type-check and run the whole test suite
# and, for containers without an image registry (docs/DEPLOY.md):
#   make images - the local images cuccu/{debian,postgres,service,haproxy}, and for the HA stack
#                 cuccu/{debian-ha,patroni,haproxy-ha} (root, Docker engine)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMPS := .stamps

.PHONY: run test lint typecheck pytest venv venv-dev clean locales images

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMPS)/runtime: requirements.txt pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/pip install --quiet --no-deps -e .
	@mkdir -p $(STAMPS) && touch $@

$(STAMPS)/dev: requirements-dev.txt requirements.txt pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	$(BIN)/pip install --quiet --no-deps -e .
	@mkdir -p $(STAMPS) && touch $@ $(STAMPS)/runtime

venv: $(STAMPS)/runtime
venv-dev: $(STAMPS)/dev

run: $(STAMPS)/runtime
	$(BIN)/cuccu run

# type-check every first-party package that exists (domain, api, viewer)
PACKAGES = $(shell for p in domain api viewer; do [ -f $$p/__init__.py ] && echo $$p; done)

lint: $(STAMPS)/dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check --quiet $(PACKAGES) tests bench examples migrations
	$(BIN)/mypy $(PACKAGES)

typecheck: $(STAMPS)/dev
	$(BIN)/mypy $(PACKAGES)

# The suite in two phases: everything not marked serial in parallel (pytest-xdist, PYTEST_WORKERS
# processes, each test file on one of them, so a module's shared server or browser starts once;
# --dist loadgroup does not group under pytest 9.2 with xdist 3.8), then the tests marked serial, alone (the
# container stacks, the bursts and faults under load). Both phases run even if the first fails.
# The figures behind the default: README.md, "Testing".
PYTEST_WORKERS ?= 4
pytest: $(STAMPS)/dev
	status=0; \
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) --dist loadfile --durations=12 -m "not serial" || status=$$?; \
	$(BIN)/pytest -q -p no:xdist --durations=12 -m serial || status=$$?; \
	exit $$status

test: lint pytest

# the viewer's translations: compile each viewer/locales/*/LC_MESSAGES/viewer.po to its .mo
# (the .mo files are committed; tests/viewer/test_catalogs.py fails when one is stale)
locales: $(STAMPS)/runtime
	$(BIN)/pybabel compile --domain viewer --directory viewer/locales --use-fuzzy

# debootstrap + docker import, a wheelhouse from pip wheel, docker build; cached (a rerun: seconds)
images: $(STAMPS)/runtime
	PYTHON=$(BIN)/python bash docker/build-images.sh

clean:
	rm -rf $(VENV) $(STAMPS) .pytest_cache .mypy_cache .ruff_cache
