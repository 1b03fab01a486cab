# Formulary — the two commands a newcomer needs are `make demo` and `make test`.
SWIFT        ?= swift
BIN          := .build/release/formulary
# Build: SQLite, libcrypto, libmicrohttpd (formulary serve) and libpq (the PostgreSQL client
# library). Tests and benchmarks only: PCRE2 (the pattern engine's oracle and speed reference;
# no product links it), the PostgreSQL server, for the throw-away cluster of scripts/pg-cluster.sh,
# and Node and TypeScript's compiler, for formulary.js (runtime/js) and its declarations.
DEBIAN_PKGS  := libpcre2-dev libsqlite3-dev libssl-dev libmicrohttpd-dev libpq-dev pkg-config sqlite3 postgresql \
                nodejs node-typescript
CONTRACT     := ../shared/tools/contract-check
# Where `make conformance` writes the vectors formulary.js is tested against.
CONFORMANCE  := .build/conformance
# Release binaries on Linux link the Swift runtime and Foundation statically: the dynamic
# loader then maps 8 libraries instead of 22 and binds the runtime's symbols at link time,
# which takes a one-value `formulary check` from about 18 to 12 ms of CPU (docs/performance.md,
# "Start-up"); the binary grows from 22 to 92 MB, mapped on demand.
STATIC_STDLIB := $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib,)

.PHONY: deps build release test demo bench embed man contract release-check clean browser-deps unicode-tables \
        conformance js-test bench-js

# Installs the Debian packages the build needs, only those that are missing.
deps:
	@missing=""; for p in $(DEBIAN_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# Debian's headless Chromium, for the HTML report's layout test (ReportLayoutTests); only when missing.
browser-deps:
	scripts/browser-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product formulary $(STATIC_STDLIB)

# Regenerates the embedded copies of plugins/ and migrations/ (tests fail when they are stale).
embed:
	scripts/embed.sh

# Regenerates the pattern engine's Unicode tables (Sources/FormularyRules/Pattern/UnicodeTables+*.swift)
# from Debian's unicode-data (/usr/share/unicode) and the toolchain's standard library; needed
# only when either moves to a newer Unicode (a test fails when the general categories differ).
unicode-tables:
	@test -f /usr/share/unicode/Scripts.txt || apt-get install -y unicode-data
	scripts/generate-unicode-tables.py

# Regenerates docs/formulary.1 from the command specs (a test fails when it is stale).
man: deps
	$(SWIFT) build --product formulary
	"$$($(SWIFT) build --show-bin-path)/formulary" man-page > docs/formulary.1

# The whole suite: unit and golden tests, then the release binary's checks: no test hook in
# it, and the CLI contract check.
# The tests that need PostgreSQL run against a throw-away cluster (scripts/pg-cluster.sh),
# started here and stopped when the suite ends, pass or fail.
test: deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory js-test
	FORMULARY_CONFORMANCE=$(abspath $(CONFORMANCE)) scripts/with-pg-cluster.sh $(SWIFT) test --skip-build
	$(MAKE) --no-print-directory release-check
	$(MAKE) --no-print-directory contract

# The conformance vectors of formulary.js (runtime/conformance/README.md): written by the Swift
# engine, seeded, into $(CONFORMANCE); the generator is built for release (`make release` reuses
# the modules). The browser tests (RuntimeBrowserTests) run them in Chromium too.
conformance: deps
	$(SWIFT) build -c release --product FormularyConformance
	.build/release/FormularyConformance --out $(CONFORMANCE)

# formulary.js: its declarations type-checked, its unit tests, and every conformance vector in Node.
js-test: conformance
	tsc -p runtime/js/tsconfig.json
	FORMULARY_CONFORMANCE=$(abspath $(CONFORMANCE)) node --test runtime/js/test/

# formulary.js in Node: printed figures (docs/performance.md), on the conformance export.
bench-js: conformance
	node bench/runtime.mjs $(CONFORMANCE)/export.json

# The test hooks (FORMULARY_TEST_*) exist in debug builds only: the release binary must carry none.
release-check: release
	scripts/check-release-binary.sh $(BIN)

# The contract check runs twice: on SQLite files, then on PostgreSQL (a throw-away cluster;
# scripts/formulary-on-postgres turns the checker's database file into a server database).
contract: release
	@if [ -x $(CONTRACT) ]; then \
	  echo "contract on SQLite:" && $(CONTRACT) $(BIN) && \
	  echo "contract on PostgreSQL:" && \
	  FORMULARY_ON_POSTGRES_BIN=$(abspath $(BIN)) scripts/with-pg-cluster.sh $(CONTRACT) scripts/formulary-on-postgres; \
	else echo "contract-check not found at $(CONTRACT); skipped"; fi

demo: release
	$(BIN) demo

# Release-build benchmarks with printed figures; `make bench SUITES="engine command"` picks some.
# The PostgreSQL suite runs against a throw-away cluster started for the run.
bench: deps
	$(SWIFT) build -c release $(STATIC_STDLIB)
	scripts/with-pg-cluster.sh .build/release/FormularyBench $(SUITES)

clean:
	rm -rf .build

# Crash safety, a longer run (minutes; not part of `make test`): SIGKILLs `import` and
# `validate` at 200 points over their work and checks the database after each kill.
.PHONY: crash
crash: release
	python3 scripts/crash-harness.py --binary $(BIN) $(CRASH_ARGS)

# libFuzzer targets (rule-language parser/engine, CSV and JSON Lines readers), FUZZ_SECONDS each (default 300);
# `make fuzz FUZZ_TARGETS=csv` picks one. See docs/reliability.md.
.PHONY: fuzz
fuzz: deps
	scripts/fuzz.sh run $(FUZZ_TARGETS)
