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
#                     (tests/bench/bench_python.py: the Python binding)
#   make test-pip     offline pip install ./python into a venv, then the example
#   make test-browser the HTML reports in chromium headless (make screenshots: docs/img)
#   make soak         the large boundary sweeps (>= 200 random certificates per method)
#   make vectors      regenerate the committed reference vectors in vectors/
#   make install PREFIX=/usr/local [DESTDIR=/tmp/stage]
#                     bin/ulaudit, lib/libulaudit.so.0 (+ .a), include/ulaudit.h,
#                     lib/pkgconfig/ulaudit.pc (+ ulaudit-static.pc), the man
#                     pages, bash completion and the Python package (ulaudit,
#                     over the shared library)
#   make lib          build/libulaudit.so + build/libulaudit.a (the public API, include/ulaudit.h)
#   make clean
#
#   make deps         install the Debian packages it builds and tests with
#                     (tools/install-deps.sh: apt-get, root or sudo); the
#                     optional ones: make deps-fuzz (clang, libFuzzer: make
#                     fuzz, make test-clang-san), make deps-bench (Fashion-MNIST,
#                     python3-scipy and python3-attr for dp_accounting's PLD)
#
# No other target installs anything: when a library is missing, the build
# stops at once naming the missing packages and `make deps`.

CC      ?= cc
BUILD   ?= build
PREFIX  ?= /usr/local
SAN     ?=

OMP      = -fopenmp
WARN     = -std=c17 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
CPPFLAGS = -Isrc -Iinclude -D_POSIX_C_SOURCE=200809L -MMD -MP $(PKG_CFLAGS)
OPT      = -O2 -g
ifeq ($(SAN),1)
OPT     = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif
CFLAGS  ?=
# Every object is position-independent: the same objects make the shared
# library, the static one, the binary and the attack plugin.
ALL_CFLAGS = $(WARN) $(OPT) -fPIC $(OMP) $(CFLAGS)
ALL_LDFLAGS = $(if $(filter 1,$(SAN)),-fsanitize=address$(,)undefined) $(LDFLAGS)
, := ,

# Expanded when a recipe runs, i.e. after the dependency step has run.
PKG_CFLAGS = $(shell pkg-config --cflags cairo)
CORE_LIBS = -lmpfi $(shell pkg-config --libs mpfr gmp json-c nettle) -lm
ATTACK_LIBS = $(shell pkg-config --libs openblas cairo zlib)
LIBS      = $(CORE_LIBS) $(ATTACK_LIBS)
TEST_LIBS = $(shell pkg-config --libs criterion)

# The products, each derived from directories (ARCHITECTURE.md §1, "Build products"):
#   the core library (libulaudit.a, libulaudit.so) = every .c of CORE_DIRS;
#   the attack plugin (ulaudit-attack.so) = src/emp + src/cli/attack*.c: the
#     binary loads it with dlopen for `ulaudit attack` only, so the other
#     commands start without OpenBLAS, cairo, zlib or OpenMP;
#   the binary = the rest of src/cli + the core;
#   the -all archive = every object but the binary's main (src/cli/main.c):
#     the tests, fuzz harnesses and benchmarks link what they call of it,
#     the CLI's functions included.
# A new file joins its directory's product; a new core directory is named
# here, once.
CORE_DIRS  = num bounds io cert audit vectors stats calc report lib
CORE_SRC   = $(wildcard $(CORE_DIRS:%=src/%/*.c))
ATTACK_SRC = $(wildcard src/emp/*.c src/cli/attack*.c)
CLI_SRC    = $(filter-out $(CORE_SRC) $(ATTACK_SRC),$(wildcard src/cli/*.c))
LIB_SRC    = $(filter-out src/cli/main.c src/cli/mpi_main.c,$(CORE_SRC) $(ATTACK_SRC) $(CLI_SRC))
TEST_SRC   = $(wildcard tests/*.c)
BENCH_SRC  = $(wildcard tests/bench/*.c)

obj = $(1:%.c=$(BUILD)/obj/%.o)
LIB_OBJ    = $(call obj,$(LIB_SRC))
CORE_OBJ   = $(call obj,$(CORE_SRC))
ATTACK_OBJ = $(call obj,$(ATTACK_SRC))
CLI_OBJ    = $(call obj,$(CLI_SRC))
TEST_OBJ   = $(call obj,$(TEST_SRC))
BENCH_BIN  = $(BENCH_SRC:tests/bench/%.c=$(BUILD)/bench/%)

VERSION    = $(shell sed -n 's/^\#define ULAUDIT_VERSION_STRING "\(.*\)"/\1/p' include/ulaudit.h)
SOVERSION  = $(firstword $(subst ., ,$(VERSION)))

BIN       = $(BUILD)/ulaudit
# LIB: every object (tests, fuzz harnesses, benchmarks link it statically).
LIB       = $(BUILD)/libulaudit-all.a
SO_REAL   = $(BUILD)/libulaudit.so.$(VERSION)
SO_NAME   = libulaudit.so.$(SOVERSION)
PUB_A     = $(BUILD)/libulaudit.a
PLUGIN    = $(BUILD)/ulaudit-attack.so
TEST_BIN  = $(BUILD)/ulaudit-tests
DEPS_OK   = $(BUILD)/.deps-ok

.PHONY: all demo test test-asan valgrind bench soak install clean deps format vectors
.PHONY: test-clang-san fuzz fuzz-build fuzz-bins lib test-lib test-install test-python
.PHONY: check-symbols check-layers deps-fuzz deps-bench test-pip test-example
.PHONY: test-browser screenshots test-readme
all: $(BIN) $(PLUGIN) lib
lib: $(BUILD)/libulaudit.so $(PUB_A)

# The only target that installs: the Debian packages (Open MPI included)
# when tools/check-deps.sh finds one missing.  .ci/run calls it.
deps:
	@tools/check-deps.sh --all --quiet || tools/install-deps.sh
	@mkdir -p $(BUILD) && tools/check-deps.sh && touch $(DEPS_OK)
deps-fuzz:
	@tools/fuzz-deps.sh
deps-bench:
	@tools/bench-deps.sh
# Every compilation waits for this check, which stops the build with one line
# naming what is missing (tools/check-deps.sh) rather than at a compiler error.
$(DEPS_OK):
	@mkdir -p $(BUILD)
	@tools/check-deps.sh
	@touch $@

# Objects are rebuilt when the compiler flags change (e.g. -fPIC, added for
# the shared library, or SAN=1 in the same directory).
FLAGS_STAMP = $(BUILD)/.cflags
.PHONY: FORCE
$(FLAGS_STAMP): FORCE
	@mkdir -p $(BUILD)
	@echo '$(CC) $(ALL_CFLAGS)' | cmp -s - $@ || echo '$(CC) $(ALL_CFLAGS)' > $@

$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP) | $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

# The CLI tests run the binary of the same build flavour.
$(BUILD)/obj/tests/%.o: CPPFLAGS += -DULAUDIT_BIN='"$(abspath $(BIN))"'

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(PUB_A): $(CORE_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The shared library exports the ulaudit_* API only (src/lib/ulaudit.map).
$(SO_REAL): $(CORE_OBJ) src/lib/ulaudit.map
	$(CC) -shared $(ALL_LDFLAGS) -Wl,-soname,$(SO_NAME) -Wl,--version-script=src/lib/ulaudit.map \
	    -Wl,--as-needed $(CORE_OBJ) $(CORE_LIBS) -o $@
$(BUILD)/libulaudit.so: $(SO_REAL)
	ln -sf $(notdir $(SO_REAL)) $(BUILD)/$(SO_NAME)
	ln -sf $(SO_NAME) $@

# The binary holds the core objects (all of them, exported with -rdynamic
# for the plugin) and no OpenBLAS/cairo/zlib/OpenMP: --as-needed drops them.
# MPFI, MPFR and GMP are linked in whole from their static archives when
# Debian's -dev packages ship them (they do): fewer libraries to load, and
# MPFR's thread-local state is reached without __tls_get_addr (about 20% of
# an audit's time through the shared library).  Whole, because the attack
# plugin resolves its MPFR calls against the binary: one copy, one exponent
# range.  Measured in README (start-up).
NUM_STATIC := $(shell for l in mpfi mpfr gmp; do f=$$($(CC) -print-file-name=lib$$l.a); \
                  [ -f "$$f" ] || exit 0; done; echo yes)
BIN_LIBS  = $(if $(NUM_STATIC),-Wl$(,)-Bstatic -Wl$(,)--whole-archive -lmpfi -lmpfr -lgmp \
                -Wl$(,)--no-whole-archive -Wl$(,)-Bdynamic,-lmpfi -lmpfr -lgmp) \
            $(shell pkg-config --libs json-c nettle) -lm
$(BIN): $(CLI_OBJ) $(CORE_OBJ)
	$(CC) $(WARN) $(OPT) $(CFLAGS) $(ALL_LDFLAGS) -rdynamic -Wl,--as-needed $(CLI_OBJ) $(CORE_OBJ) \
	    $(BIN_LIBS) -ldl -o $@

$(PLUGIN): $(ATTACK_OBJ)
	$(CC) -shared $(ALL_CFLAGS) $(ALL_LDFLAGS) $(ATTACK_OBJ) $(ATTACK_LIBS) -lm -o $@

# `ulaudit attack` loads the plugin beside the binary, and the CLI tests run
# the binary (ULAUDIT_BIN): whoever builds one gets the other, up to date.
# Order-only: a new plugin does not relink the binary or the tests.
$(BIN): | $(PLUGIN)
$(TEST_BIN): | $(BIN) $(PLUGIN)

$(TEST_BIN): $(TEST_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(TEST_OBJ) $(LIB) $(TEST_LIBS) $(LIBS) -o $@

# bench_batch runs the binary it is built beside.
$(BUILD)/bench/bench_batch: CPPFLAGS += -DULAUDIT_BIN='"$(abspath $(BIN))"'
$(BUILD)/bench/bench_batch: | $(BIN)
# bench_binding calls the public API through the shared library, as Python's
# ctypes does (bench_python.py compares the two).
$(BUILD)/bench/bench_binding: tests/bench/bench_binding.c $(BUILD)/libulaudit.so | $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $< -L$(BUILD) -lulaudit -Wl,-rpath,$(abspath $(BUILD)) -o $@
$(BUILD)/bench/%: tests/bench/%.c $(LIB) | $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $< $(LIB) $(LIBS) -o $@

demo: $(BIN) $(PLUGIN)
	@tools/demo.sh $(BIN)

test: $(BIN) $(PLUGIN) $(TEST_BIN) test-lib check-symbols check-layers $(if $(filter 1,$(SAN)),,test-browser test-readme)
	$(TEST_BIN) --jobs 2

# The core library exports ul_/ulaudit_ names only: the offenders are listed.
check-symbols: $(PUB_A) $(BUILD)/libulaudit.so
	tools/check-symbols.sh $(PUB_A) $(SO_REAL)

# No core object references a symbol of src/cli, and no src/lib or src/calc
# file includes a cli/ header (ARCHITECTURE.md, the layers).
check-layers: $(CORE_OBJ) $(CLI_OBJ)
	tools/check-layers.sh $(BUILD)

# The installed tree: `make install` into a temporary DESTDIR, then a C
# program built with pkg-config against it, and the Python package's tests
# against the build's shared library (Debian's python3-pytest), its offline
# pip install into a venv, and the notebook example.  Skipped under the
# sanitizers (the library would need their runtime preloaded).
test-lib: $(if $(filter 1,$(SAN)),,test-install test-python test-pip test-example)

# Debian's python3 (where make install's package must be found), else the first on PATH
PYTHON      ?= $(firstword $(wildcard /usr/bin/python3) python3)
TEST_PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
TEST_ROOT = $(abspath $(BUILD))/install-test
# hello.c twice: with ulaudit.pc (needs libulaudit.so.0, found through
# LD_LIBRARY_PATH) and with ulaudit-static.pc (libulaudit.a linked in: readelf
# shows no libulaudit among the NEEDED libraries, and it runs without the path).
test-install: all
	rm -rf $(TEST_ROOT)
	$(MAKE) --no-print-directory install DESTDIR=$(TEST_ROOT) PREFIX=/usr/local \
	    PYTHON_SITEDIR=/usr/local/lib/python3/dist-packages >/dev/null
	export PKG_CONFIG_SYSROOT_DIR=$(TEST_ROOT) PKG_CONFIG_PATH=$(TEST_ROOT)/usr/local/lib/pkgconfig; \
	for pc in ulaudit ulaudit-static; do \
	    $(CC) -std=c17 -Wall -Wextra -Werror src/lib/examples/hello.c \
	        $$(pkg-config --cflags --libs $$pc) -o $(TEST_ROOT)/hello-$$pc || exit 1; done
	LD_LIBRARY_PATH=$(TEST_ROOT)/usr/local/lib $(TEST_ROOT)/hello-ulaudit
	readelf -d $(TEST_ROOT)/hello-ulaudit | grep -q 'NEEDED.*\[libulaudit\.so\.0\]'
	! readelf -d $(TEST_ROOT)/hello-ulaudit-static | grep 'NEEDED.*libulaudit'
	$(TEST_ROOT)/hello-ulaudit-static
	$(TEST_ROOT)/usr/local/bin/ulaudit --version
	$(TEST_ROOT)/usr/local/bin/ulaudit help calc >/dev/null
	ULAUDIT_LIBRARY= PYTHONPATH=$(TEST_ROOT)/usr/local/lib/python3/dist-packages \
	    $(TEST_PYTHON) -c "import ulaudit; print(ulaudit.theta('1', '0.5'))"

# The CLI (ULAUDIT_BIN) is the tests' second entry point into the library.
test-python: lib $(BIN)
	ULAUDIT_LIBRARY=$(abspath $(BUILD)/$(SO_NAME)) PYTHONPATH=$(abspath python) \
	    ULAUDIT_BIN=$(abspath $(BIN)) PYTHONDONTWRITEBYTECODE=1 \
	    $(TEST_PYTHON) -m pytest -q -p no:cacheprovider python/tests

# README's shell examples run as written and print what README shows
# (tools/readme-check.py: its header gives the conventions).
test-readme: $(BIN) $(PLUGIN) lib
	/usr/bin/python3 tools/readme-check.py --build $(BUILD)

# The HTML reports in Debian's chromium headless (tools/test-browser.sh; fails
# naming `make deps` without chromium); screenshots: also docs/img/report-*.png.
test-browser: $(BIN) $(PLUGIN)
	tools/test-browser.sh $(BIN) $(BUILD)/browser
screenshots: $(BIN) $(PLUGIN)
	tools/test-browser.sh $(BIN) $(BUILD)/browser --update-screenshots

# `pip install ./python` in a fresh venv, offline with build isolation (the
# in-tree backend, python/_build/), then the example run from the venv with no
# ULAUDIT_LIBRARY: the wheel bundles build/libulaudit.so.0.  SKIPPED with a
# message when $(TEST_PYTHON) -m venv is unusable (Debian: python3-venv).
test-pip: lib
	tools/test-pip.sh $(TEST_PYTHON) .

# The notebook-style example against build/ (numpy, matplotlib: Debian's).
test-example: lib
	ULAUDIT_LIBRARY=$(abspath $(BUILD)/$(SO_NAME)) PYTHONPATH=$(abspath python) \
	    PYTHONDONTWRITEBYTECODE=1 $(TEST_PYTHON) examples/notebook.py $(BUILD)/notebook-eps-delta.png

test-asan:
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    LSAN_OPTIONS=suppressions=$(abspath tools/lsan.supp):print_suppressions=0 \
	    $(MAKE) BUILD=build-asan SAN=1 test

# clang's UBSan checks what gcc's does not (pointer arithmetic on NULL, issue
# 12).  Criterion's assertion messages are printf-like but some tests pass
# MPFR's %R conversions to them, which clang's -Wformat flags: warnings here.
CLANG_SAN_CFLAGS = -Wno-error=format -Wno-error=format-invalid-specifier -Wno-error=format-extra-args
test-clang-san:
	@tools/fuzz-deps.sh --check
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    LSAN_OPTIONS=suppressions=$(abspath tools/lsan.supp):print_suppressions=0 \
	    $(MAKE) CC=clang BUILD=build-clang SAN=1 CFLAGS="$(CLANG_SAN_CFLAGS)" test

# libFuzzer harnesses (fuzz/fuzz_*.c, described in fuzz/common.h): the
# library built with clang -fsanitize=fuzzer-no-link,address,undefined in
# build-fuzz/, seed corpora from audits/, examples/ and tests/data/
# (tools/fuzz-seeds.sh), each harness run FUZZ_SECONDS (tools/fuzz-run.sh).
# FUZZ=cert (or a list) runs only those harnesses.  Clang and libFuzzer are
# installed by make deps-fuzz (tools/fuzz-deps.sh: Debian packages, apt-get).
FUZZ_SECONDS ?= 60
FUZZ_BUILD   = build-fuzz
FUZZ_NAMES   = $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ        ?= $(FUZZ_NAMES)
fuzz: fuzz-build
	@tools/fuzz-seeds.sh $(FUZZ_BUILD)
	@tools/fuzz-run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ)

fuzz-build:
	@tools/fuzz-deps.sh --check
	$(MAKE) CC=clang BUILD=$(FUZZ_BUILD) SAN=1 CFLAGS=-fsanitize=fuzzer-no-link fuzz-bins

fuzz-bins: $(FUZZ_NAMES:%=$(BUILD)/fuzz_%)

$(BUILD)/fuzz_%: fuzz/fuzz_%.c fuzz/common.c $(wildcard fuzz/*.h) $(LIB)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fsanitize=fuzzer fuzz/common.c $< $(LIB) $(LIBS) \
	    $(ALL_LDFLAGS) -o $@

# The boundary sweeps of tests/test_sweep_*.c run a few cases per method in
# `make test`; ULAUDIT_SOAK=1 makes them draw hundreds (a few minutes).
soak: $(BIN) $(PLUGIN) $(TEST_BIN)
	ULAUDIT_SOAK=1 $(TEST_BIN) --jobs 2 --timeout 3600 --filter 'sweep_*/*'

valgrind: $(BIN) $(PLUGIN)
	@tools/valgrind-cli.sh $(BIN)

# bench_learner needs Debian's dataset-fashion-mnist (make deps-bench
# installs it; without it that benchmark prints SKIPPED).  bench_python.py:
# the Python binding against the C call and dp_accounting's PLD accountant
# (its sources: see its header; SKIPPED without them).
bench: $(BENCH_BIN) $(BIN) $(PLUGIN) lib
	@tools/bench-deps.sh --check || \
	    echo "make bench: the benchmarks needing what is missing (bench_learner, bench_python's dp_accounting part) will say SKIPPED"
	@for b in $(BENCH_BIN); do $$b || exit 1; done
	ULAUDIT_LIBRARY=$(abspath $(BUILD)/$(SO_NAME)) PYTHONPATH=$(abspath python) BUILD=$(abspath $(BUILD)) \
	    PYTHONDONTWRITEBYTECODE=1 $(TEST_PYTHON) tests/bench/bench_python.py
	PYTHONDONTWRITEBYTECODE=1 $(TEST_PYTHON) tools/bench-pld-peers.py $(BUILD)/bench/bench_pld_targets.jsonl --bin $(BIN)
	ULAUDIT_LIBRARY=$(abspath $(BUILD)/$(SO_NAME)) PYTHONPATH=$(abspath python) PYTHONDONTWRITEBYTECODE=1 $(TEST_PYTHON) tools/vectors-check-peers.py

# `make vectors` regenerates the committed reference vectors in vectors/.
vectors: $(BIN)
	$(BIN) vectors --out vectors

# Where the Python package goes: PREFIX's dist-packages for a Debian python3
# (on its sys.path for PREFIX=/usr/local), else that Python's own site
# directory (pyenv, venv); override with PYTHON_SITEDIR=...
PYTHON_SITEDIR ?= $(shell $(PYTHON) -c 'import sys, sysconfig; p = sysconfig.get_path("purelib"); \
    print(p if not p.startswith("/usr/") else \
          "$(PREFIX)/lib/python%d.%d/dist-packages" % sys.version_info[:2])' 2>/dev/null)
LIBDIR    = $(PREFIX)/lib
MAN_PAGES = $(wildcard man/*.1 man/*.5)
install: all
	install -D -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/ulaudit
	install -D -m 755 $(PLUGIN) $(DESTDIR)$(LIBDIR)/ulaudit/ulaudit-attack.so
	install -D -m 755 $(SO_REAL) $(DESTDIR)$(LIBDIR)/$(notdir $(SO_REAL))
	ln -sf $(notdir $(SO_REAL)) $(DESTDIR)$(LIBDIR)/$(SO_NAME)
	ln -sf $(SO_NAME) $(DESTDIR)$(LIBDIR)/libulaudit.so
	install -D -m 644 $(PUB_A) $(DESTDIR)$(LIBDIR)/libulaudit.a
	install -D -m 644 include/ulaudit.h $(DESTDIR)$(PREFIX)/include/ulaudit.h
	@mkdir -p $(DESTDIR)$(LIBDIR)/pkgconfig
	for pc in ulaudit ulaudit-static; do \
	    sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	        src/lib/$$pc.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/$$pc.pc || exit 1; done
	for m in $(MAN_PAGES); do \
	    install -D -m 644 $$m $(DESTDIR)$(PREFIX)/share/man/man$${m##*.}/$${m#man/} || exit 1; done
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then ldconfig 2>/dev/null || true; fi
	for c in $(wildcard tools/completion/ulaudit.bash); do \
	    install -D -m 644 $$c $(DESTDIR)$(PREFIX)/share/bash-completion/completions/ulaudit; done
	@test -n "$(wildcard python/ulaudit/*.py)" || exit 0; \
	test -n "$(PYTHON_SITEDIR)" || { echo "make install: no python3: the Python package is skipped"; exit 0; }; \
	    mkdir -p $(DESTDIR)$(PYTHON_SITEDIR)/ulaudit && \
	    install -m 644 python/ulaudit/*.py python/ulaudit/py.typed $(DESTDIR)$(PYTHON_SITEDIR)/ulaudit/ && \
	    echo 'LIBRARY = "$(LIBDIR)/$(SO_NAME)"' > $(DESTDIR)$(PYTHON_SITEDIR)/ulaudit/_installed.py

format:
	clang-format -i $(wildcard src/*/*.[ch] tests/*.[ch] tests/bench/*.c)

clean:
	rm -rf build build-asan build-fuzz build-clang

# Fragments for optional builds (mk/*.mk: e.g. the MPI attack build), one per concern.
-include $(wildcard mk/*.mk)

-include $(patsubst %.o,%.d,$(LIB_OBJ) $(CLI_OBJ) $(TEST_OBJ))
