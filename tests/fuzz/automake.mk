# tests/fuzz/: libFuzzer harnesses for every decoder of hostile input.
#
#   make fuzz                      builds tests/fuzz/fuzz-* with clang
#   make fuzz-run [FUZZ_SECONDS=N] runs each on a copy of its seed corpus
#                                  for N seconds (tests/fuzz/run-fuzzers)
#
# Neither is part of "make" or "make check".  The harnesses compile the
# fibsync sources they drive again, with clang and
# -fsanitize=fuzzer-no-link,address,undefined, into objects named *.fuzzo
# beside the normal build's, and link Open vSwitch's static library
# (FUZZ_OVS_LIBS, from configure) without jemalloc.

FUZZ_NAMES = fpm route-frame prefix nexthop-key fpmsyncd-load syncd-row \
	db-file db-split
FUZZ_BINS = \
	tests/fuzz/fuzz-fpm \
	tests/fuzz/fuzz-route-frame \
	tests/fuzz/fuzz-prefix \
	tests/fuzz/fuzz-nexthop-key \
	tests/fuzz/fuzz-fpmsyncd-load \
	tests/fuzz/fuzz-syncd-row \
	tests/fuzz/fuzz-db-file \
	tests/fuzz/fuzz-db-split

FUZZ_CC = $(CLANG)
FUZZ_SANITIZERS = address,undefined
FUZZ_COMPILE_FLAGS = $(WARNING_CFLAGS) -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer-no-link,$(FUZZ_SANITIZERS) \
	-fno-sanitize-recover=undefined
FUZZ_LINK_FLAGS = -fsanitize=fuzzer,$(FUZZ_SANITIZERS)
FUZZ_LIBS = $(FUZZ_OVS_LIBS) $(NL_LIBS) $(ZMQ_LIBS) -lpthread
FUZZ_LINK = $(FUZZ_CC) $(FUZZ_COMPILE_FLAGS) $(FUZZ_LINK_FLAGS) -o $@

SUFFIXES = .fuzzo
.c.fuzzo:
	$(AM_V_CC)$(MKDIR_P) `dirname $@` && \
	$(FUZZ_CC) $(DEFS) $(AM_CPPFLAGS) $(CPPFLAGS) $(FUZZ_COMPILE_FLAGS) \
	    -c -o $@ $<

# What each harness drives, besides its own source.
FUZZ_FPM_OBJS = lib/fpm-frame.fuzzo lib/fpm-route.fuzzo \
	lib/fpm-route-encode.fuzzo lib/fpm-route-format.fuzzo
FUZZ_ROUTE_FRAME_OBJS = lib/route-frame.fuzzo lib/fib-prefix.fuzzo
FUZZ_PREFIX_OBJS = lib/fib-prefix.fuzzo
FUZZ_DB_FILE_OBJS = lib/ovsdb-file-replay.fuzzo lib/ovsdb-file-text.fuzzo \
	lib/ovsdb-file-replay-value.fuzzo lib/block-arena.fuzzo
FUZZ_DB_SPLIT_OBJS = lib/ovsdb-file-split.fuzzo lib/ovsdb-file-text.fuzzo
FUZZ_NEXTHOP_KEY_OBJS = daemons/syncd/syncd-nexthop-key.fuzzo \
	asic-sim/sai-util.fuzzo lib/route-key.fuzzo lib/fib-prefix.fuzzo
FUZZ_SYNCD_ROW_OBJS = daemons/syncd/syncd-rows.fuzzo \
	$(FUZZ_NEXTHOP_KEY_OBJS)
FUZZ_FPMSYNCD_LOAD_OBJS = \
	daemons/fpmsyncd/fpmsyncd-rib.fuzzo daemons/fpmsyncd/fpmsyncd-rib-load.fuzzo \
	daemons/fpmsyncd/fpmsyncd-rib-rows.fuzzo \
	daemons/fpmsyncd/fpmsyncd-nexthop.fuzzo \
	daemons/fpmsyncd/fpmsyncd-offload.fuzzo daemons/fpmsyncd/fpmsyncd-status.fuzzo \
	daemons/fpmsyncd/fpmsyncd-vrf.fuzzo daemons/fpmsyncd/fpmsyncd-zmq.fuzzo \
	lib/ovsdb-select-scanner.fuzzo lib/ovsdb-wire.fuzzo \
	lib/route-key.fuzzo lib/route-status.fuzzo lib/route-batch.fuzzo \
	lib/ptr-fifo.fuzzo lib/row-queue.fuzzo \
	lib/route-frame.fuzzo lib/zmq-channel.fuzzo lib/fib-prefix.fuzzo \
	$(FUZZ_FPM_OBJS)

tests/fuzz/fuzz-fpm: tests/fuzz/fuzz-fpm.fuzzo $(FUZZ_FPM_OBJS)
	$(AM_V_CCLD)$(FUZZ_LINK) tests/fuzz/fuzz-fpm.fuzzo $(FUZZ_FPM_OBJS) \
	    $(FUZZ_LIBS)
tests/fuzz/fuzz-route-frame: tests/fuzz/fuzz-route-frame.fuzzo \
		$(FUZZ_ROUTE_FRAME_OBJS)
	$(AM_V_CCLD)$(FUZZ_LINK) tests/fuzz/fuzz-route-frame.fuzzo \
	    $(FUZZ_ROUTE_FRAME_OBJS) $(FUZZ_LIBS)
tests/fuzz/fuzz-prefix: tests/fuzz/fuzz-prefix.fuzzo $(FUZZ_PREFIX_OBJS)
	$(AM_V_CCLD)$(FUZZ_LINK) tests/fuzz/fuzz-prefix.fuzzo \
	    $(FUZZ_PREFIX_OBJS) $(FUZZ_LIBS)
tests/fuzz/fuzz-nexthop-key: tests/fuzz/fuzz-nexthop-key.fuzzo \
		$(FUZZ_NEXTHOP_KEY_OBJS)
	$(AM_V_CCLD)$(FUZZ_LINK) tests/fuzz/fuzz-nexthop-key.fuzzo \
	    $(FUZZ_NEXTHOP_KEY_OBJS) $(FUZZ_LIBS)
tests/fuzz/fuzz-syncd-row: tests/fuzz/fuzz-syncd-row.fuzzo \
		$(FUZZ_SYNCD_ROW_OBJS)
	$(AM_V_CCLD)$(FUZZ_LINK) tests/fuzz/fuzz-syncd-row.fuzzo \
	    $(FUZZ_SYNCD_ROW_OBJS) $(FUZZ_LIBS)
tests/fuzz/fuzz-db-file: tests/fuzz/fuzz-db-file.fuzzo $(FUZZ_DB_FILE_OBJS)
	$(AM_V_CCLD)$(FUZZ_LINK) tests/fuzz/fuzz-db-file.fuzzo \
	    $(FUZZ_DB_FILE_OBJS) $(FUZZ_LIBS)
tests/fuzz/fuzz-db-split: tests/fuzz/fuzz-db-split.fuzzo $(FUZZ_DB_SPLIT_OBJS)
	$(AM_V_CCLD)$(FUZZ_LINK) tests/fuzz/fuzz-db-split.fuzzo \
	    $(FUZZ_DB_SPLIT_OBJS) $(FUZZ_LIBS)
tests/fuzz/fuzz-fpmsyncd-load: tests/fuzz/fuzz-fpmsyncd-load.fuzzo \
		$(FUZZ_FPMSYNCD_LOAD_OBJS)
	$(AM_V_CCLD)$(FUZZ_LINK) tests/fuzz/fuzz-fpmsyncd-load.fuzzo \
	    $(FUZZ_FPMSYNCD_LOAD_OBJS) $(FUZZ_LIBS)

# Header dependencies are not tracked for *.fuzzo: every object depends
# on every header of the folders they come from (none is generated).
FUZZ_ALL_OBJS = $(FUZZ_BINS:=.fuzzo) $(FUZZ_FPMSYNCD_LOAD_OBJS) \
	$(FUZZ_SYNCD_ROW_OBJS) $(FUZZ_DB_FILE_OBJS) $(FUZZ_DB_SPLIT_OBJS)
$(FUZZ_ALL_OBJS): $(srcdir)/lib/*.h $(srcdir)/daemons/*/*.h \
	$(srcdir)/asic-sim/*.h

# "make fuzz" first checks that clang can link a libFuzzer program, so
# that a missing compiler or runtime says what to install.
FUZZ_PROBE_SRC = 'int LLVMFuzzerTestOneInput(const unsigned char *d, \
	unsigned long n); int LLVMFuzzerTestOneInput(const unsigned char *d, \
	unsigned long n) { return !d + !n - 2; }'
fuzz:
	@$(MKDIR_P) tests/fuzz
	@if test -z '$(FUZZ_CC)'; then \
	    echo 'make fuzz: no clang.  On Debian: apt-get install clang' \
	         'libclang-rt-14-dev, then run configure again (or give' \
	         'one: make fuzz CLANG=/path/to/clang).' >&2; \
	    exit 1; \
	fi
	@echo $(FUZZ_PROBE_SRC) > tests/fuzz/probe.c; \
	if ! $(FUZZ_CC) $(FUZZ_LINK_FLAGS) -o tests/fuzz/probe tests/fuzz/probe.c \
	        > tests/fuzz/probe.log 2>&1; then \
	    cat tests/fuzz/probe.log >&2; \
	    echo 'make fuzz: $(FUZZ_CC) cannot link a libFuzzer program' \
	         '(-fsanitize=fuzzer).  On Debian, its runtime is in' \
	         'libclang-rt-NN-dev (NN: clang'"'"'s major version, 14 on' \
	         'Debian 12).' >&2; \
	    exit 1; \
	fi; \
	rm -f tests/fuzz/probe tests/fuzz/probe.c tests/fuzz/probe.log
	@$(MAKE) $(AM_MAKEFLAGS) fuzz-build
fuzz-build: $(FUZZ_BINS)

# "make fuzz-run" runs every harness for FUZZ_SECONDS seconds on a copy of
# its corpus, in FUZZ_WORK_DIR, and fails on any crash, leak or hang
# (inputs that crash are saved in FUZZ_WORK_DIR/crashes/NAME/).
FUZZ_SECONDS = 20
FUZZ_WORK_DIR = tests/fuzz/run
fuzz-run: fuzz
	@$(SHELL) $(srcdir)/tests/fuzz/run-fuzzers -t '$(FUZZ_SECONDS)' \
	    -b tests/fuzz -s $(srcdir)/tests/fuzz -w '$(FUZZ_WORK_DIR)' \
	    $(FUZZ_NAMES)
.PHONY: fuzz fuzz-build fuzz-run

fuzz-clean:
	rm -f $(FUZZ_BINS) $(FUZZ_ALL_OBJS)
	rm -rf $(FUZZ_WORK_DIR)
.PHONY: fuzz-clean
clean-local: fuzz-clean

EXTRA_DIST += tests/fuzz/run-fuzzers \
	$(FUZZ_BINS:=.c) \
	tests/fuzz/fuzz-fpmsyncd-load.dict \
	tests/fuzz/fuzz-nexthop-key.dict \
	tests/fuzz/fuzz-prefix.dict \
	tests/fuzz/fuzz-route-frame.dict \
	tests/fuzz/fuzz-syncd-row.dict \
	tests/fuzz/fuzz-db-file.dict \
	tests/fuzz/corpus
