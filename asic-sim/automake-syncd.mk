# asic-sim/syncd: the daemon that programs the simulator from OVSDB
# Asic_Route rows (syncd.c), its OVSDB path (syncd-db.[ch]), its apply
# step (syncd-apply.[ch]) and its hit-counter writer (syncd-counters.[ch]),
# plus syncd-bench, its load generator and benchmark.

sbin_PROGRAMS += asic-sim/syncd
asic_sim_syncd_SOURCES = \
	asic-sim/syncd.c \
	asic-sim/syncd-apply.c asic-sim/syncd-apply.h \
	asic-sim/syncd-db.c asic-sim/syncd-db.h \
	asic-sim/syncd-counters.c asic-sim/syncd-counters.h
asic_sim_syncd_LDADD = asic-sim/libasicsim.la lib/libfibsync.la \
	idl/libfibsync-idl.la $(OVSDB_LIBS) $(OVS_LIBS) $(JEMALLOC_LIBS)

noinst_PROGRAMS += asic-sim/syncd-bench
asic_sim_syncd_bench_SOURCES = asic-sim/syncd-bench.c \
	asic-sim/syncd-apply.c asic-sim/syncd-apply.h
asic_sim_syncd_bench_LDADD = asic-sim/libasicsim.la lib/libfibsync.la \
	$(OVS_LIBS) $(JEMALLOC_LIBS)
