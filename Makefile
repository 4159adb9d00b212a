# The two commands of the README: `make test` and `make run` (the web app); `make check` is
# the fast loop while working.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Only the folders that exist: git keeps no empty folder, and ruff fails on a missing path.
LINT_PATHS := $(wildcard parlor tests bench examples) build_compiled.py

.PHONY: test check lint typecheck pytest bench bench-web clean tmux chromium postgresql nginx redis run worker compiled pure

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# `make run` needs the game and what compiles it (the `compiled` extra: mypy's mypyc and
# setuptools); `make test` adds the test, research, cluster and train extras.
RUN_STAMP := $(VENV)/.installed-run

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[compiled]'
	touch $(RUN_STAMP)

# torch (which sb3-contrib, in the research extra, needs) first and pinned: pip takes 2.13.0's
# CPU wheel from this image's /opt/wheels; a torch left to the resolver is PyPI's CUDA build,
# about 3 GB of downloads for tests that run on the CPU.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet 'torch==2.13.0'
	$(BIN)/python -m pip install --quiet -e '.[test,research,cluster,train]'
	touch $(STAMP) $(RUN_STAMP)

test: lint typecheck pytest

# The fast loop (README): ruff, mypy --strict and the tests not marked `slow` (random
# playouts, browsers, servers, PostgreSQL, builds: pyproject.toml's marker), in two
# processes, in under a minute (2026-12-06, interpreted build, two cores at load 3 from other
# work: 53 s of wall time, 48 CPU-s; at load 8-15, 3 minutes for the same CPU time). It runs
# the build that is there and builds none: a compiled build older than its source fails
# tests/test_build.py, which says to run `make compiled` or `make pure`. `make test` runs
# every test, the slow ones included.
check: lint typecheck
	$(BIN)/pytest -n 2 -m "not slow" --durations=10 parlor tests

# The compiled build (build_compiled.py), which `make test`, `make run` and `make bench` use:
# parlor/rules and parlor/ai through mypyc, extension modules beside the sources, rebuilt
# when one of them changes (about two CPU-minutes). On a machine without a C compiler the
# same sources run interpreted, and every make says so (no stamp is written, so the note
# comes back until a compiler is there). `parlor --version` names the build that runs and
# reports a stale one; tests/test_build.py fails on a stale build and compares the two.
NATIVE := $(VENV)/.compiled
NATIVE_SOURCES := $(wildcard parlor/rules/*.py parlor/ai/*.py) parlor/build.py build_compiled.py

compiled: $(NATIVE)

$(NATIVE): $(RUN_STAMP) $(NATIVE_SOURCES)
	@if command -v cc >/dev/null 2>&1; then \
		echo "compiling parlor/rules and parlor/ai with mypyc, about two CPU-minutes" \
			"(log: build/mypyc.log; \`make pure\` for the interpreted build)"; \
		mkdir -p build; \
		$(BIN)/python build_compiled.py > build/mypyc.log 2>&1 || { tail -30 build/mypyc.log; exit 1; }; \
		$(BIN)/parlor --version; \
		touch $(NATIVE); \
	else \
		echo "no C compiler (cc): parlor/rules and parlor/ai run interpreted (pure Python)"; \
		$(BIN)/python build_compiled.py --clean; \
		$(BIN)/parlor --version; \
	fi

pure:
	$(BIN)/python build_compiled.py --clean
	rm -f $(NATIVE)
	@$(BIN)/parlor --version

lint: $(STAMP)
	$(BIN)/ruff check $(LINT_PATHS)

typecheck: $(STAMP)
	$(BIN)/mypy --strict parlor

# Two processes (pytest-xdist), each taking whole test files (--dist loadfile), so that a
# module's browser, servers or Ray instance start once and its tests keep their order: most of
# the suite's time is waiting (pages, servers, the computer's pace), not computing. Each
# process starts its own PostgreSQL and servers on free ports in its own temporary folders.
# A plain `.venv/bin/pytest` runs the same tests in one process.
PYTEST_WORKERS ?= 2  # 0: in one process, as a plain `.venv/bin/pytest`

# Bounded twice: each test by pytest-timeout (pyproject.toml), the whole run by `timeout`, which
# interrupts pytest as Ctrl-C would (it reports what ran and where it stood) well inside CI's
# limit. The slowest tests are listed at the end of every run.
PYTEST_LIMIT ?= 2400

pytest: $(STAMP) $(NATIVE) tmux chromium postgresql nginx redis
	timeout --signal=INT --kill-after=60 $(PYTEST_LIMIT) \
		$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile --durations=15 parlor tests

# tests/terminal/test_play.py drives `parlor play` in a real terminal: tmux, a Debian package.
tmux:
	@command -v tmux >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux; }

# tests/web/test_e2e.py drives the web app in Debian's chromium (never `playwright install`).
chromium:
	@test -x /usr/bin/chromium || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# tests/conftest.py starts a real PostgreSQL (as the unprivileged user `postgres`) from
# Debian's server binaries.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=900 postgresql; }

# tests/web/test_nginx.py plays through a real nginx (deploy/parlor.nginx), which the test
# starts itself on a free port with its own files; installing the package starts no service
# where none runs (a container), and the test never uses the system's one.
nginx:
	@test -x /usr/sbin/nginx || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=900 nginx-light; }

# tests/web/test_redis_wakeups.py runs wake-ups through a real Redis (tests/redisserver.py
# starts redis-server itself on a free port with its own folder; the package's service, where
# systemd runs it, is not used)
redis:
	@test -x /usr/bin/redis-server || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=900 redis-server; }

# The web app on http://127.0.0.1:8000, games in ./parlor.db (or PARLOR_DATABASE_URL).
run: $(RUN_STAMP) $(NATIVE)
	$(BIN)/parlor serve --host 127.0.0.1 --port 8000

# A worker of a PostgreSQL deployment (docs/deploy.md): the computer's moves and hints.
worker: $(STAMP)
	$(BIN)/parlor worker

bench-web: $(STAMP)
	$(BIN)/python bench/web.py

# bench/engine.py's peers (rlcard, OpenSpiel, PokerKit: the `bench` extra); a missing peer
# would only be reported and skipped, so `make bench` installs them.
BENCH_STAMP := $(VENV)/.installed-bench

$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,research,cluster,train,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP) $(NATIVE)
	$(BIN)/python bench/engine.py

clean:
	$(PYTHON) build_compiled.py --clean
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
