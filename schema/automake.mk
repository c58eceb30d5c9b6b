# The Fibsync OVSDB schema and its documentation.

dist_pkgdata_DATA += schema/fibsync.ovsschema
EXTRA_DIST += schema/fibsync.xml

# Like OVS: refuse to build when the schema's "cksum" is stale, so a schema
# change always comes with a new checksum (and, by policy, a new version).
ALL_LOCAL += schema/fibsync.ovsschema.stamp
schema/fibsync.ovsschema.stamp: schema/fibsync.ovsschema
	$(AM_V_GEN)$(MKDIR_P) schema && \
	$(OVS_SRCDIR)/build-aux/cksum-schema-check \
	    $(srcdir)/schema/fibsync.ovsschema $@
CLEANFILES += schema/fibsync.ovsschema.stamp
