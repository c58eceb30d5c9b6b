# utilities/: fibsync-ctl, fibctl, fpm-replay, route-check, fibsync-bench.

bin_SCRIPTS += utilities/fibsync-ctl
EXTRA_DIST += utilities/fibsync-ctl.in
CLEANFILES += utilities/fibsync-ctl
utilities/fibsync-ctl: utilities/fibsync-ctl.in Makefile
	$(AM_V_GEN)$(MKDIR_P) utilities && \
	$(SUBST_SCRIPT) $(srcdir)/utilities/fibsync-ctl.in > $@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

bin_SCRIPTS += utilities/route-check
EXTRA_DIST += utilities/route-check.in
CLEANFILES += utilities/route-check
utilities/route-check: utilities/route-check.in Makefile
	$(AM_V_GEN)$(MKDIR_P) utilities && \
	$(SUBST_SCRIPT) -e 's,[@]PYTHON3[@],$(PYTHON3),g' \
	    $(srcdir)/utilities/route-check.in > $@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

bin_PROGRAMS += utilities/fibctl
utilities_fibctl_SOURCES = utilities/fibctl.c
utilities_fibctl_LDADD = lib/libfibsync.la $(OVS_LIBS) $(JEMALLOC_LIBS)

include utilities/automake-fpm-replay.mk
include utilities/automake-bench-index.mk
include utilities/automake-bench-dump.mk
include utilities/automake-bench-ovsdb.mk
