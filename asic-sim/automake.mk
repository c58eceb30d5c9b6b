# asic-sim/: the SAI-style switch ASIC simulator library (and, later,
# syncd, the daemon that hosts it).

noinst_LTLIBRARIES += asic-sim/libasicsim.la
asic_sim_libasicsim_la_SOURCES = \
	asic-sim/sai.h \
	asic-sim/asic-sim.c asic-sim/asic-sim.h \
	asic-sim/sai-util.c asic-sim/sai-util.h \
	asic-sim/lpm4.c asic-sim/lpm4.h \
	asic-sim/lpm6.c asic-sim/lpm6.h
asic_sim_libasicsim_la_LIBADD = $(OVS_LIBS) $(JEMALLOC_LIBS)

# fibsync-bench, with its "asic" subcommand (utilities/bench-asic.c).
# utilities/fibsync-bench.c is a minimal dispatcher written with the
# simulator because none existed yet; other subcommands append their
# sources with "utilities_fibsync_bench_SOURCES +=" and their libraries
# with "utilities_fibsync_bench_LDADD +=".
bin_PROGRAMS += utilities/fibsync-bench
utilities_fibsync_bench_SOURCES = utilities/fibsync-bench.c
utilities_fibsync_bench_SOURCES += \
	utilities/bench-asic.c utilities/bench-asic.h \
	utilities/bench-util.c utilities/bench-util.h
utilities_fibsync_bench_LDADD = asic-sim/libasicsim.la \
	$(OVS_LIBS) $(JEMALLOC_LIBS)

include asic-sim/automake-syncd.mk
