# ulaudit — build, test, demo, bench, install.
#
#   make              build/ulaudit
#   make demo         a guided tour of what ulaudit computes
#   make test         the Criterion suites (unit, property, CLI end-to-end)
#   make test-asan    the same suites under AddressSanitizer + UBSan (in build-asan/)
#   make test-clang-san  the same suites built with clang, ASan + clang's UBSan (build-clang/)
#   make fuzz         every libFuzzer harness of fuzz/ for FUZZ_SECONDS each (build-fuzz/)
#   make valgrind     the CLI smoke commands under valgrind, leak-checked
#   make bench        benchmarks with ratios against baselines run alongside
#   make soak         the large boundary sweeps (>= 200 random certificates per method)
#   make vectors      regenerate the committed reference vectors in vectors/
#   make install PREFIX=/usr/local
#   make clean
#
# Missing libraries are installed on first use by tools/install-deps.sh
# (Debian packages through apt-get), so `make demo` and `make test` work as
# the first two commands on a fresh machine.

CC      ?= cc
BUILD   ?= build
PREFIX  ?= /usr/local
SAN     ?=

OMP      = -fopenmp
WARN     = -std=c17 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
CPPFLAGS = -Isrc -D_POSIX_C_SOURCE=200809L -MMD -MP $(PKG_CFLAGS)
OPT      = -O2 -g
ifeq ($(SAN),1)
OPT     = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif
CFLAGS  ?=
ALL_CFLAGS = $(WARN) $(OPT) $(OMP) $(CFLAGS)
ALL_LDFLAGS = $(if $(filter 1,$(SAN)),-fsanitize=address$(,)undefined) $(LDFLAGS)
, := ,

# Expanded when a recipe runs, i.e. after the dependency step has run.
PKG_CFLAGS = $(shell pkg-config --cflags cairo)
LIBS      = -lmpfi $(shell pkg-config --libs mpfr gmp json-c nettle) $(shell pkg-config --libs openblas cairo zlib) -lm
TEST_LIBS = $(shell pkg-config --libs criterion)

LIB_SRC   = $(wildcard src/num/*.c src/bounds/*.c src/cert/*.c src/vectors/*.c src/emp/*.c)
CLI_SRC   = $(wildcard src/cli/*.c)
TEST_SRC  = $(wildcard tests/*.c)
BENCH_SRC = $(wildcard tests/bench/*.c)

LIB_OBJ   = $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ   = $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ  = $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_BIN = $(BENCH_SRC:tests/bench/%.c=$(BUILD)/bench/%)

BIN       = $(BUILD)/ulaudit
LIB       = $(BUILD)/libulaudit.a
TEST_BIN  = $(BUILD)/ulaudit-tests
DEPS_OK   = $(BUILD)/.deps-ok

.PHONY: all demo test test-asan valgrind bench soak install clean deps format vectors
.PHONY: test-clang-san fuzz fuzz-build fuzz-bins
all: $(BIN)

deps: $(DEPS_OK)
$(DEPS_OK):
	@mkdir -p $(BUILD)
	@tools/check-deps.sh || tools/install-deps.sh
	@tools/check-deps.sh || { echo "make: libraries still missing after install-deps" >&2; exit 1; }
	@touch $@

$(BUILD)/obj/%.o: %.c | $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

# The CLI tests run the binary of the same build flavour.
$(BUILD)/obj/tests/%.o: CPPFLAGS += -DULAUDIT_BIN='"$(abspath $(BIN))"'

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(CLI_OBJ) $(LIB) $(LIBS) -o $@

$(TEST_BIN): $(TEST_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(TEST_OBJ) $(LIB) $(TEST_LIBS) $(LIBS) -o $@

$(BUILD)/bench/%: tests/bench/%.c $(LIB) | $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $< $(LIB) $(LIBS) -o $@

demo: $(BIN)
	@tools/demo.sh $(BIN)

test: $(BIN) $(TEST_BIN)
	$(TEST_BIN) --jobs 2

test-asan:
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    LSAN_OPTIONS=suppressions=$(abspath tools/lsan.supp) \
	    $(MAKE) BUILD=build-asan SAN=1 test

# clang's UBSan checks what gcc's does not (pointer arithmetic on NULL, issue
# 12).  Criterion's assertion messages are printf-like but some tests pass
# MPFR's %R conversions to them, which clang's -Wformat flags: warnings here.
CLANG_SAN_CFLAGS = -Wno-error=format -Wno-error=format-invalid-specifier -Wno-error=format-extra-args
test-clang-san:
	@tools/fuzz-deps.sh
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    LSAN_OPTIONS=suppressions=$(abspath tools/lsan.supp) \
	    $(MAKE) CC=clang BUILD=build-clang SAN=1 CFLAGS="$(CLANG_SAN_CFLAGS)" test

# libFuzzer harnesses (fuzz/fuzz_*.c, described in fuzz/common.h): the
# library built with clang -fsanitize=fuzzer-no-link,address,undefined in
# build-fuzz/, seed corpora from audits/, examples/ and tests/data/
# (tools/fuzz-seeds.sh), each harness run FUZZ_SECONDS (tools/fuzz-run.sh).
# FUZZ=cert (or a list) runs only those harnesses.  Clang and libFuzzer are
# installed by tools/fuzz-deps.sh when missing (Debian packages, apt-get).
FUZZ_SECONDS ?= 60
FUZZ_BUILD   = build-fuzz
FUZZ_NAMES   = $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ        ?= $(FUZZ_NAMES)
fuzz: fuzz-build
	@tools/fuzz-seeds.sh $(FUZZ_BUILD)
	@tools/fuzz-run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ)

fuzz-build:
	@tools/fuzz-deps.sh
	$(MAKE) CC=clang BUILD=$(FUZZ_BUILD) SAN=1 CFLAGS=-fsanitize=fuzzer-no-link fuzz-bins

fuzz-bins: $(FUZZ_NAMES:%=$(BUILD)/fuzz_%)

$(BUILD)/fuzz_%: fuzz/fuzz_%.c fuzz/common.c $(wildcard fuzz/*.h) $(LIB)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fsanitize=fuzzer fuzz/common.c $< $(LIB) $(LIBS) \
	    $(ALL_LDFLAGS) -o $@

# The boundary sweeps of tests/test_sweep_*.c run a few cases per method in
# `make test`; ULAUDIT_SOAK=1 makes them draw hundreds (a few minutes).
soak: $(BIN) $(TEST_BIN)
	ULAUDIT_SOAK=1 $(TEST_BIN) --jobs 2 --timeout 3600 --filter 'sweep_*/*'

valgrind: $(BIN)
	@tools/valgrind-cli.sh $(BIN)

# bench_learner needs Debian's dataset-fashion-mnist (tools/bench-deps.sh
# installs it; without it that benchmark prints SKIPPED).
bench: $(BENCH_BIN)
	@tools/bench-deps.sh || echo "make bench: no Fashion-MNIST; bench_learner will say SKIPPED"
	@for b in $(BENCH_BIN); do $$b || exit 1; done

# `make vectors` regenerates the committed reference vectors in vectors/.
vectors: $(BIN)
	$(BIN) vectors --out vectors

install: $(BIN)
	install -D -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/ulaudit
	install -D -m 644 man/ulaudit.1 $(DESTDIR)$(PREFIX)/share/man/man1/ulaudit.1

format:
	clang-format -i $(LIB_SRC) $(CLI_SRC) $(TEST_SRC) $(BENCH_SRC) $(wildcard src/*/*.h tests/*.h)

clean:
	rm -rf build build-asan build-fuzz build-clang

# Fragments for optional builds (mk/*.mk: e.g. the MPI attack build), one per concern.
-include $(wildcard mk/*.mk)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
