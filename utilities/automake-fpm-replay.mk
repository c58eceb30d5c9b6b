# utilities/fpm-replay: FPM load generator, recorder and replayer.
bin_PROGRAMS += utilities/fpm-replay
utilities_fpm_replay_SOURCES = utilities/fpm-replay.c
utilities_fpm_replay_LDADD = lib/libfibsync.la $(OVS_LIBS) $(NL_LIBS) \
	$(JEMALLOC_LIBS)
