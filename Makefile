# Tessera: `make cellbench` runs the benchmark front door, `make test` the whole suite.
# Both install missing Debian packages first (scripts/bootstrap, silent when all is there).

SWIFT ?= swift
CELLBENCH_ARGS ?=

.PHONY: all bootstrap build cellbench test test-release consumer pango-check bench bench-check bench-thresholds bench-arc clean \
	c-lib c-header-check c-host c-threads tsan jni-host c-test c-bench fuzz-build fuzz fuzz-check

all: build

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build -c release --product cellbench

# `cellbench all` (the default): every suite, one summary table, each suite's JSON in
# .build/cellbench-results (CELLBENCH_ARGS="--quick", "--rows N", "--out DIR", or another
# subcommand such as "scroll --profile all").
cellbench: build
	.build/release/cellbench $(CELLBENCH_ARGS)

# An outside package builds against the public API and runs; the Pango peer builds and
# runs; then the suite, in a debug build where invariant checks (TESSERA_INVARIANTS) are
# compiled in and run after every mutation.
# The C ABI checks run against a debug libtessera.so (the build the Swift tests use).
test: bootstrap consumer pango-check
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory c-test C_CONFIG=debug
	$(SWIFT) test --skip-build

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

# Regression benchmarks: Benchmarks/, a nested package-benchmark package (slow to build,
# never built by `make test`). `make bench` runs every suite and prints wall clock,
# throughput and allocation counts (BENCH_ARGS="--target TextBenchmarks", "--filter ...",
# "--format markdown"...). `make bench-check` runs them again and compares the allocation
# counts (mallocCountTotal, mallocxCount) with Benchmarks/Thresholds: any change fails
# (exit 2: more allocations, 4: fewer) until `make bench-thresholds` records the new counts.
# `make bench-arc` prints retain, release and object counts, in a run of their own (README.md,
# "Regression benchmarks", says why).
BENCH = cd Benchmarks && $(SWIFT) package --scratch-path .build-pkgbench
BENCH_COUNTS = --metric mallocCountTotal --metric mallocxCount
BENCH_ARGS ?=

bench: bootstrap
	$(BENCH) benchmark --no-progress $(BENCH_ARGS)

bench-check: bootstrap
	SWIFT=$(SWIFT) scripts/bench-check $(BENCH_ARGS)

bench-thresholds: bootstrap
	rm -rf Benchmarks/Thresholds
	$(BENCH) --allow-writing-to-package-directory benchmark thresholds update $(BENCH_COUNTS) --no-progress

bench-arc: bootstrap
	$(BENCH) benchmark --no-progress --skip-target CellBenchmarks \
		--metric retainCount --metric releaseCount --metric objectAllocCount --metric mallocCountTotal $(BENCH_ARGS)

# --- The C ABI (Sources/CTessera/include/tessera.h, libtessera.so) ---------------------
# `make c-lib` builds libtessera.so and stages it with the header and tessera.pc in
# .build-c/stage (C_CONFIG=release; C_CONFIG=debug stages into .build-c/stage-debug). A
# host then builds with
#   PKG_CONFIG_PATH=$(CURDIR)/.build-c/stage/lib/pkgconfig cc host.c $$(pkg-config --cflags --libs tessera)
C_CONFIG ?= release
C_STAGE := .build-c/$(if $(filter debug,$(C_CONFIG)),stage-debug,stage)
C_PKG := PKG_CONFIG_PATH=$(CURDIR)/$(C_STAGE)/lib/pkgconfig
C_STRICT := -Wall -Wextra -Werror -pedantic
C_BENCH_ROWS ?= 1000000

c-lib: bootstrap
	$(SWIFT) build -c $(C_CONFIG) --product tessera
	scripts/stage-c $(C_STAGE) .build/$(C_CONFIG)

# The header compiles as C11 and C++17 (gcc, g++, clang, clang++), every pointer annotated;
# a C++ program links against the library and runs.
c-header-check: c-lib
	@mkdir -p .build-c/check
	gcc -std=c11 $(C_STRICT) -I$(C_STAGE)/include -c Tests/CHost/c11_header_check.c -o .build-c/check/c11-gcc.o
	clang -std=c11 $(C_STRICT) -Wnullability-completeness -I$(C_STAGE)/include -c Tests/CHost/c11_header_check.c -o .build-c/check/c11-clang.o
	$(C_PKG) sh -c 'g++ -std=c++17 $(C_STRICT) Tests/CHost/cxx_host.cpp -o .build-c/check/cxx-host-gcc $$(pkg-config --cflags --libs tessera)'
	$(C_PKG) sh -c 'clang++ -std=c++17 $(C_STRICT) -Wnullability-completeness Tests/CHost/cxx_host.cpp -o .build-c/check/cxx-host-clang $$(pkg-config --cflags --libs tessera)'
	.build-c/check/cxx-host-gcc
	.build-c/check/cxx-host-clang

# The C host: every function, known answers, every error path.
c-host: c-lib
	@mkdir -p .build-c
	$(C_PKG) sh -c 'cc -std=c11 -O1 -g $(C_STRICT) Tests/CHost/host.c -o .build-c/c-host-$(C_CONFIG) $$(pkg-config --cflags --libs tessera) -lm'
	.build-c/c-host-$(C_CONFIG) $(CURDIR)

# Two handles from two threads at once give the answers they give one after the other
# (Tests/CHost/threads.c): against the staged library, and against a ThreadSanitizer build
# of it (any report fails the run).
c-threads: c-lib
	$(C_PKG) sh -c 'cc -std=c11 -O1 -g $(C_STRICT) -pthread Tests/CHost/threads.c -o .build-c/threads-$(C_CONFIG) $$(pkg-config --cflags --libs tessera)'
	.build-c/threads-$(C_CONFIG) $(CURDIR)

SWIFT_LIB_DIR = $(shell dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/../lib/swift/linux
tsan: bootstrap
	$(SWIFT) build --product tessera --scratch-path .build-tsan -Xswiftc -sanitize=thread
	STAGE_C_SANITIZED=1 scripts/stage-c .build-c/stage-tsan .build-tsan/debug
	PKG_CONFIG_PATH=$(CURDIR)/.build-c/stage-tsan/lib/pkgconfig sh -c '$(FUZZ_CC) -std=c11 -O1 -g -fsanitize=thread -fuse-ld=lld \
		$(C_STRICT) -pthread Tests/CHost/threads.c -o .build-c/threads-tsan $$(pkg-config --cflags --libs tessera) \
		-L$(SWIFT_LIB_DIR) -ldispatch -lBlocksRuntime -Wl,-rpath,$(SWIFT_LIB_DIR)'
	SWIFT_BACKTRACE=enable=no TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/Tests/CHost/tsan.supp" \
		.build-c/threads-tsan $(CURDIR)

# The JNI host: a Java program over a C JNI shim over tessera.h; a profile, 1,000,000 rows
# in one call, windows, a swipe-to-delete and a diff applied, all checked (-Xcheck:jni).
JAVAC ?= javac
JAVA ?= java
JDK_HOME = $(shell dirname "$$(dirname "$$(readlink -f "$$(command -v $(JAVAC))")")")
C_JNI := .build-c/jni-$(C_CONFIG)
JNI_CHECK ?= -Xcheck:jni
jni-host: c-lib
	@mkdir -p $(C_JNI)
	$(JAVAC) -Xlint:all -Werror -d $(C_JNI) Tests/JNIHost/TesseraHost.java
	$(C_PKG) sh -c 'cc -std=c11 -O2 $(C_STRICT) -shared -fPIC -I$(JDK_HOME)/include -I$(JDK_HOME)/include/linux \
		Tests/JNIHost/tessera_jni.c -o $(C_JNI)/libtessera_jni.so $$(pkg-config --cflags --libs tessera)'
	$(JAVA) $(JNI_CHECK) -Djava.library.path=$(C_JNI) -cp $(C_JNI) TesseraHost $(CURDIR) $(JNI_ARGS)

# Fuzzing (libFuzzer through Swift's clang): Tests/Fuzz/fuzz_abi.c drives random call
# sequences with mostly invalid arguments against a libtessera.so built with ASan (and
# LSan) and libFuzzer's coverage (-sanitize=fuzzer,address). Any crash, sanitizer report,
# leak or broken invariant fails the run; the input is written to Tests/Fuzz/regressions/,
# where every later run replays it first. `make fuzz` runs FUZZ_SECONDS, `make test` 60 s.
FUZZ_SECONDS ?= 300
FUZZ_CC ?= /opt/swift/usr/bin/clang
FUZZ_RUN = SWIFT_BACKTRACE=enable=no TESS_FUZZ_REPO=$(CURDIR) .build-c/fuzz_abi
fuzz-build: bootstrap
	$(SWIFT) build --product tessera --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address
	STAGE_C_SANITIZED=1 scripts/stage-c .build-c/stage-fuzz .build-fuzz/debug
	PKG_CONFIG_PATH=$(CURDIR)/.build-c/stage-fuzz/lib/pkgconfig sh -c '$(FUZZ_CC) -std=c11 -g -O1 -fuse-ld=lld \
		-fsanitize=fuzzer,address $(C_STRICT) Tests/Fuzz/fuzz_abi.c -o .build-c/fuzz_abi $$(pkg-config --cflags --libs tessera) -lm'

fuzz: fuzz-build
	@mkdir -p .build-c/fuzz-corpus Tests/Fuzz/regressions
	$(FUZZ_RUN) Tests/Fuzz/regressions/*
	@$(FUZZ_RUN) -max_total_time=$(FUZZ_SECONDS) -timeout=20 -print_final_stats=1 \
		-artifact_prefix=Tests/Fuzz/regressions/ .build-c/fuzz-corpus > .build-c/fuzz.log 2>&1; \
		status=$$?; grep -v '^#[0-9]\|^"' .build-c/fuzz.log | tail -30; \
		echo "fuzz: $$(grep -c . .build-c/fuzz.log) log lines in .build-c/fuzz.log, exit $$status"; exit $$status

fuzz-check:
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=60

c-test: c-header-check c-host c-threads jni-host tsan fuzz-check

# Speed through the C ABI (release): the C host's 1M-row append and window queries, the
# same through the Swift API in the same run (cellbench cabi), and the JNI host's windows.
# Printed, never asserted.
c-bench: C_CONFIG = release
c-bench: c-host
	$(SWIFT) build -c release --product cabi-bench
	.build/release/cabi-bench $(C_BENCH_ROWS)
	.build-c/c-host-release $(CURDIR) --bench $(C_BENCH_ROWS)
	$(MAKE) --no-print-directory jni-host C_CONFIG=release JNI_CHECK= JNI_ARGS="$(C_BENCH_ROWS) --bench"

clean:
	rm -rf .build .build-* Tests/Consumer/.build Benchmarks/.build Benchmarks/.build-*
