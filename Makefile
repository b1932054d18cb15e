# Tessera: `make cellbench` runs the benchmark front door, `make test` the whole suite.
# Both install missing Debian packages first (scripts/bootstrap, silent when all is there).

SWIFT ?= swift
CELLBENCH_ARGS ?=

.PHONY: all bootstrap build cellbench test test-release consumer pango-check bench clean

all: build

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build -c release --product cellbench

cellbench: build
	.build/release/cellbench $(CELLBENCH_ARGS)

# An outside package builds against the public API and runs; the Pango peer builds and
# runs; then the suite, in a debug build where invariant checks (TESSERA_INVARIANTS) are
# compiled in and run after every mutation.
test: bootstrap consumer pango-check
	$(SWIFT) test

consumer: bootstrap
	cd Tests/Consumer && $(SWIFT) run consumer

# The Pango peer of the text benchmark builds and lays out three strings, one line count each.
PANGO_FONT = /usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf
PANGO_CJK = /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf
pango-check: bootstrap
	@printf 'CARD PAYMENT 12.03. BILLA DANKT 1230 WIEN\nΚαλημέρα κόσμε\n日本語のテキスト\n' > .build-pango-check.txt
	@test "$$($$(Benchmarks/pango/build.sh .build-pango) --font $(PANGO_FONT) --fallback $(PANGO_CJK) \
		--size 15 --width 100 --out - .build-pango-check.txt | head -3 | tr '\n' ' ')" = "5 2 2 " \
		&& echo "pango-check: ok" || { echo "pango-check: the harness did not lay out the check strings"; exit 1; }

# The same suite optimised, invariants still checked.
test-release: bootstrap
	$(SWIFT) test -c release --scratch-path .build-release -Xswiftc -DTESSERA_INVARIANTS

# Regression benchmarks (package-benchmark, slow to build; not part of `make test`).
bench: bootstrap
	cd Benchmarks && $(SWIFT) package benchmark

clean:
	rm -rf .build .build-* Tests/Consumer/.build Benchmarks/.build
