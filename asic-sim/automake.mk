# asic-sim/: the SAI-style switch ASIC simulator library.  syncd, the
# daemon that hosts it, is in daemons/.

noinst_LTLIBRARIES += asic-sim/libasicsim.la
asic_sim_libasicsim_la_SOURCES = \
	asic-sim/sai.h \
	asic-sim/asic-sim.c asic-sim/asic-sim.h \
	asic-sim/asic-sim-private.h \
	asic-sim/asic-sim-objtab.c \
	asic-sim/asic-sim-switch.c \
	asic-sim/asic-sim-route.c \
	asic-sim/asic-sim-router.c \
	asic-sim/asic-sim-nexthop.c \
	asic-sim/asic-sim-lookup.c \
	asic-sim/asic-sim-fault.c \
	asic-sim/sai-util.c asic-sim/sai-util.h \
	asic-sim/lpm4.c asic-sim/lpm4.h \
	asic-sim/lpm6.c asic-sim/lpm6.h
asic_sim_libasicsim_la_LIBADD = $(OVS_LIBS) $(JEMALLOC_LIBS)
