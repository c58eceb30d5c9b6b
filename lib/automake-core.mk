# lib/: core shared modules (binary prefixes and their sort, SPSC task
# ring, perf timer).
lib_libfibsync_la_SOURCES += \
	lib/fib-prefix.c lib/fib-prefix.h \
	lib/fib-prefix-sort.c lib/fib-prefix-sort.h \
	lib/spsc-ring.c lib/spsc-ring.h \
	lib/perf-timer.c lib/perf-timer.h
