# lib/: core shared modules (binary prefixes, SPSC task ring, perf timer).
lib_libfibsync_la_SOURCES += \
	lib/fib-prefix.c lib/fib-prefix.h \
	lib/spsc-ring.c lib/spsc-ring.h \
	lib/perf-timer.c lib/perf-timer.h
