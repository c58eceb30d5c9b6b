#! /bin/sh
# Regenerates configure and the Makefile.in files from configure.ac and
# Makefile.am.  Run it once after a fresh clone.
set -e
autoreconf --install --force
