# tests/: one Check runner for the pure C modules, and a GNU Autotest
# suite, in the Open vSwitch style, for everything that runs processes.

# ---- Check unit tests ----------------------------------------------------

check_PROGRAMS += tests/check-fibsync
tests_check_fibsync_SOURCES = tests/check/main.c tests/check/suites.h \
	tests/check/test-paths.c \
	tests/check/test-setting.c tests/check/test-global-follower.c \
	tests/check/test-ovsdb-wire.c \
	tests/check/test-ovsdb-write-mark.c \
	tests/check/test-ovsdb-file-replay.c \
	tests/check/test-ovsdb-file-split.c \
	tests/check/test-ovsdb-select-reader.c \
	tests/check/test-ovsdb-slice-reader.c \
	tests/check/test-route-frame.c tests/check/test-zmq-channel.c
tests_check_fibsync_SOURCES += \
	tests/check/test-fib-prefix.c \
	tests/check/test-fib-prefix-sort.c \
	tests/check/test-spsc-ring.c \
	tests/check/test-perf-timer.c
tests_check_fibsync_SOURCES += \
	tests/check/test-lpm.c \
	tests/check/asic-sim-fixture.c tests/check/asic-sim-fixture.h \
	tests/check/test-asic-sim.c \
	tests/check/test-asic-sim-fault.c \
	tests/check/test-asic-sim-lookup.c
tests_check_fibsync_SOURCES += \
	tests/check/fpm-test-util.c tests/check/fpm-test-util.h \
	tests/check/test-fpm-frame.c \
	tests/check/test-fpm-route.c \
	tests/check/test-fpm-route-malformed.c
tests_check_fibsync_SOURCES += tests/check/test-route-key.c \
	tests/check/test-route-status.c tests/check/test-route-batch.c tests/check/test-fpmsyncd-rib.c
tests_check_fibsync_SOURCES += tests/check/test-ptr-fifo.c \
	tests/check/test-row-queue.c \
	tests/check/test-fpmsyncd-zmq.c
tests_check_fibsync_SOURCES += tests/check/test-syncd-apply.c \
	tests/check/test-syncd-marks.c
tests_check_fibsync_SOURCES += tests/check/test-route-index.c
tests_check_fibsync_SOURCES += tests/check/test-orchd-bulker.c \
	tests/check/orchd-test-util.c tests/check/orchd-test-util.h
tests_check_fibsync_SOURCES += tests/check/test-syncd-nexthop-key.c
tests_check_fibsync_SOURCES += tests/check/test-orchd-writebehind.c
tests_check_fibsync_SOURCES += tests/check/test-orchd-route-table.c
tests_check_fibsync_SOURCES += tests/check/test-southbound.c
tests_check_fibsync_SOURCES += tests/check/test-route-compare.c \
	tests/check/test-frr-route-json.c
EXTRA_DIST += tests/data/frr-ip-route-vrf-all.json \
	tests/data/frr-ipv6-route.json
EXTRA_DIST += tests/data/zebra-nhg.fpm tests/data/zebra-no-nhg.fpm \
	tests/data/zebra-nhg-replay.fpm
tests_check_fibsync_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_fibsync_LDADD = \
	daemons/fpmsyncd/libfpmsyncd.la daemons/orchd/liborchd.la \
	daemons/syncd/libsyncd.la asic-sim/libasicsim.la \
	lib/libfibsync.la idl/libfibsync-idl.la \
	$(OVSDB_LIBS) $(OVS_LIBS) $(CHECK_LIBS) $(NL_LIBS) $(ZMQ_LIBS) \
	$(JEMALLOC_LIBS)

# ---- Helper programs run by the autotest suite ---------------------------

check_PROGRAMS += tests/test-idl-route
tests_test_idl_route_SOURCES = tests/test-idl-route.c
tests_test_idl_route_LDADD = idl/libfibsync-idl.la lib/libfibsync.la \
	$(OVS_LIBS) $(JEMALLOC_LIBS)
check_PROGRAMS += tests/test-zmq-send
tests_test_zmq_send_SOURCES = tests/test-zmq-send.c
tests_test_zmq_send_LDADD = $(ZMQ_LIBS)
check_PROGRAMS += tests/test-idl-ondemand
tests_test_idl_ondemand_SOURCES = tests/test-idl-ondemand.c
tests_test_idl_ondemand_LDADD = idl/libfibsync-idl.la lib/libfibsync.la \
	$(OVSDB_LIBS) $(OVS_LIBS) $(JEMALLOC_LIBS)

# ---- Autotest suite -------------------------------------------------------

TESTSUITE_AT = \
	tests/testsuite.at \
	tests/ovs-macros.at \
	tests/schema.at \
	tests/idl.at \
	tests/idl-ondemand.at \
	tests/syncd.at \
	tests/fpmsyncd.at \
	tests/fibsync-ctl.at \
	tests/orchd.at \
	tests/zmq-northbound.at \
	tests/frr-offload.at \
	tests/frr-bench.at \
	tests/fibctl.at \
	tests/zmq-southbound.at \
	tests/bad-rows.at \
	tests/bench-run.at \
	tests/route-check.at \
	tests/instances.at \
	tests/chaos.at \
	tests/warm-restart.at \
	tests/cluster.at
EXTRA_DIST += $(TESTSUITE_AT) tests/atlocal.in package.m4 tests/lpm-check.py \
	tests/chaos
TESTSUITE = $(srcdir)/tests/testsuite
DISTCLEANFILES += tests/atconfig tests/atlocal

AUTOTEST_PATH = $(abs_top_builddir)/utilities:$(FIBSYNC_DAEMON_PATH):$(abs_top_builddir)/tests:$(OVS_BUILDDIR)/ovsdb:$(OVS_BUILDDIR)/utilities
FIBSYNC_DAEMON_PATH = $(abs_top_builddir)/daemons/fpmsyncd:$(abs_top_builddir)/daemons/orchd:$(abs_top_builddir)/daemons/syncd

AUTOM4TE = autom4te
AUTOTEST = $(AUTOM4TE) -l autotest
$(TESTSUITE): $(TESTSUITE_AT) $(srcdir)/package.m4
	$(AM_V_GEN)$(AUTOTEST) -I '$(srcdir)' -o $@.tmp $@.at && mv $@.tmp $@

$(srcdir)/package.m4: $(top_srcdir)/configure.ac
	$(AM_V_GEN):;{ \
	  echo '# Signature of the current package.' && \
	  echo 'm4_define([AT_PACKAGE_NAME],      [$(PACKAGE_NAME)])' && \
	  echo 'm4_define([AT_PACKAGE_TARNAME],   [$(PACKAGE_TARNAME)])' && \
	  echo 'm4_define([AT_PACKAGE_VERSION],   [$(PACKAGE_VERSION)])' && \
	  echo 'm4_define([AT_PACKAGE_STRING],    [$(PACKAGE_STRING)])' && \
	  echo 'm4_define([AT_PACKAGE_BUGREPORT], [$(PACKAGE_BUGREPORT)])'; \
	} >'$(srcdir)/package.m4'

# In a sanitizer build (configure --enable-sanitizers), any ASan or UBSan
# report fails the test it comes from.  UBSan is built not to recover
# (-fno-sanitize-recover=undefined) and ASan stops at its first error:
# either way the process exits non-zero after its report.  Leaks are
# checked (detect_leaks=1) in every process that exits normally: the
# Check runner's forked tests, fibctl, fpm-replay, the test helpers.  A
# daemon stopped by SIGTERM, as every test stops them, dies by the signal
# that Open vSwitch's fatal-signal handler raises again, so LeakSanitizer
# never runs in it and reports nothing: only memory errors count there.
# The autotest suite also sends every report to a file in the test's
# directory (log_path, in tests/atlocal) because a detached daemon's
# stderr is /dev/null; see FIBSYNC_SANITIZER_CHECK in tests/ovs-macros.at.
# Options already in the environment come last and win.
if SANITIZERS
FIBSYNC_SANITIZER_ENV = \
	ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:$${ASAN_OPTIONS}" \
	UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:$${UBSAN_OPTIONS}"
endif

# "make check" runs the Check runner, then the autotest suite, and fails
# if either failed.  TESTSUITEFLAGS passes options to the testsuite
# (-j2, -k KEYWORD, -v, -d), CK_RUN_SUITE runs one Check suite.
CHECK_LOCAL += fibsync-check
fibsync-check: $(check_PROGRAMS) $(TESTSUITE) tests/atconfig tests/atlocal \
		utilities/fibsync-ctl
	@rc=0; \
	echo "== Check unit tests (tests/check-fibsync)"; \
	$(FIBSYNC_SANITIZER_ENV) tests/check-fibsync || rc=1; \
	echo "== Autotest suite (tests/testsuite)"; \
	$(FIBSYNC_SANITIZER_ENV) $(SHELL) '$(TESTSUITE)' -C tests AUTOTEST_PATH='$(AUTOTEST_PATH)' \
	    $(TESTSUITEFLAGS) || rc=1; \
	exit $$rc
.PHONY: fibsync-check

clean-local: fibsync-clean-tests
fibsync-clean-tests:
	test ! -f '$(TESTSUITE)' || $(SHELL) '$(TESTSUITE)' -C tests --clean
	rm -rf tests/testsuite.dir tests/testsuite.log
.PHONY: fibsync-clean-tests
