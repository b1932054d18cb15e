# Tessera: `make cellbench` runs the benchmark front door, `make test` the whole suite.
# Both install missing Debian packages first (scripts/bootstrap, silent when all is there).

SWIFT ?= swift
CELLBENCH_ARGS ?=

.PHONY: all bootstrap build cellbench test test-release consumer bench clean

all: build

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build -c release --product cellbench

cellbench: build
	.build/release/cellbench $(CELLBENCH_ARGS)

# Debug build: invariant checks (TESSERA_INVARIANTS) are compiled in and run after every
# mutation. Then an outside package builds against the public API and runs.
test: bootstrap
	$(SWIFT) test
	$(MAKE) consumer

consumer: bootstrap
	cd Tests/Consumer && $(SWIFT) run consumer

# The same suite optimised, invariants still checked.
test-release: bootstrap
	$(SWIFT) test -c release --scratch-path .build-release -Xswiftc -DTESSERA_INVARIANTS

# Regression benchmarks (package-benchmark, slow to build; not part of `make test`).
bench: bootstrap
	cd Benchmarks && $(SWIFT) package benchmark

clean:
	rm -rf .build .build-* Tests/Consumer/.build Benchmarks/.build
