# The C IDL generated from schema/fibsync.ovsschema by Open vSwitch's
# ovsdb-idlc, plus fibsync's IDL extensions.

OVSDB_IDLC = PYTHONPATH=$(OVS_SRCDIR)/python:$(OVS_BUILDDIR)/python \
	$(PYTHON3) $(OVS_SRCDIR)/ovsdb/ovsdb-idlc.in

EXTRA_DIST += idl/fibsync-idl.ann

idl/fibsync-idl.ovsidl: schema/fibsync.ovsschema idl/fibsync-idl.ann
	$(AM_V_GEN)$(MKDIR_P) idl && \
	$(OVSDB_IDLC) annotate $(srcdir)/schema/fibsync.ovsschema \
	    $(srcdir)/idl/fibsync-idl.ann > $@.tmp && mv $@.tmp $@

idl/fibsync-idl.h: idl/fibsync-idl.ovsidl
	$(AM_V_GEN)$(OVSDB_IDLC) c-idl-header $< > $@.tmp && mv $@.tmp $@

idl/fibsync-idl.c: idl/fibsync-idl.ovsidl
	$(AM_V_GEN)$(OVSDB_IDLC) c-idl-source $< > $@.tmp && mv $@.tmp $@

BUILT_SOURCES += idl/fibsync-idl.h idl/fibsync-idl.c
CLEANFILES += idl/fibsync-idl.h idl/fibsync-idl.c idl/fibsync-idl.ovsidl

noinst_LTLIBRARIES += idl/libfibsync-idl.la
nodist_idl_libfibsync_idl_la_SOURCES = idl/fibsync-idl.c idl/fibsync-idl.h
idl_libfibsync_idl_la_SOURCES =
idl_libfibsync_idl_la_LIBADD = $(OVS_LIBS)

# The generated header must exist before anything that includes it is
# compiled, even when a single target is built ("make tests/check-fibsync").
$(idl_libfibsync_idl_la_OBJECTS): idl/fibsync-idl.h
