# fibsync.m4 -- configure checks for fibsync.

dnl FIBSYNC_CHECK_PKG(VAR, PKG-CONFIG-MODULES, DEBIAN-PACKAGES)
dnl
dnl Finds PKG-CONFIG-MODULES with pkg-config, setting VAR_CFLAGS and
dnl VAR_LIBS, or stops with a message naming the Debian packages to install.
AC_DEFUN([FIBSYNC_CHECK_PKG],
  [PKG_CHECK_MODULES([$1], [$2], [],
     [AC_MSG_ERROR([$2 not found by pkg-config.
Install it with: apt-get install $3])])])

dnl FIBSYNC_WITH_OVS
dnl
dnl Locates an Open vSwitch 3.1 source and build tree, as OVN does, with
dnl --with-ovs-source and --with-ovs-build.  Without either, runs
dnl build-aux/ovs-bootstrap, which unpacks Debian's openvswitch-source
dnl tarball into $srcdir/_ovs and builds what fibsync needs (once; later
dnl runs find it up to date).  Sets OVS_SRCDIR, OVS_BUILDDIR.
AC_DEFUN([FIBSYNC_WITH_OVS],
  [AC_ARG_WITH([ovs-source],
     [AS_HELP_STRING([--with-ovs-source=DIR],
                     [Open vSwitch 3.1 source tree (default: build one from
                      /usr/src/openvswitch/openvswitch.tar.gz into _ovs/)])],
     [OVS_SRCDIR=$withval], [OVS_SRCDIR=])
   AC_ARG_WITH([ovs-build],
     [AS_HELP_STRING([--with-ovs-build=DIR],
                     [Open vSwitch build tree (default: the source tree)])],
     [OVS_BUILDDIR=$withval], [OVS_BUILDDIR=])

   if test -z "$OVS_SRCDIR" && test -z "$OVS_BUILDDIR"; then
       fibsync_abs_srcdir=`cd "$srcdir" && pwd`
       AC_MSG_NOTICE([building Open vSwitch into $fibsync_abs_srcdir/_ovs (once)])
       "$fibsync_abs_srcdir/build-aux/ovs-bootstrap" \
           "$fibsync_abs_srcdir/_ovs" || \
           AC_MSG_ERROR([could not build Open vSwitch; see above])
       OVS_SRCDIR=$fibsync_abs_srcdir/_ovs/openvswitch
       OVS_BUILDDIR=$OVS_SRCDIR
   elif test -z "$OVS_BUILDDIR"; then
       OVS_BUILDDIR=$OVS_SRCDIR
   elif test -z "$OVS_SRCDIR"; then
       OVS_SRCDIR=`sed -n 's/^abs_top_srcdir = //p' "$OVS_BUILDDIR/Makefile" 2>/dev/null`
       test -n "$OVS_SRCDIR" || OVS_SRCDIR=$OVS_BUILDDIR
   fi
   OVS_SRCDIR=`cd "$OVS_SRCDIR" 2>/dev/null && pwd` || \
       AC_MSG_ERROR([Open vSwitch source directory not found])
   OVS_BUILDDIR=`cd "$OVS_BUILDDIR" 2>/dev/null && pwd` || \
       AC_MSG_ERROR([Open vSwitch build directory not found])

   AC_MSG_CHECKING([for a built Open vSwitch in $OVS_BUILDDIR])
   for f in lib/libopenvswitch.la ovsdb/libovsdb.la ovsdb/ovsdb-server \
            ovsdb/ovsdb-client ovsdb/ovsdb-tool utilities/ovs-appctl \
            config.h; do
       if test ! -e "$OVS_BUILDDIR/$f"; then
           AC_MSG_RESULT([no])
           AC_MSG_ERROR([$OVS_BUILDDIR/$f is missing: build Open vSwitch
first, or drop --with-ovs-* to let build-aux/ovs-bootstrap do it])
       fi
   done
   if test ! -f "$OVS_SRCDIR/lib/ovsdb-idl.h" || \
      test ! -f "$OVS_SRCDIR/ovsdb/ovsdb-idlc.in"; then
       AC_MSG_RESULT([no])
       AC_MSG_ERROR([$OVS_SRCDIR is not an Open vSwitch source tree])
   fi
   OVS_VERSION=`sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' \
                "$OVS_BUILDDIR/config.h"`
   AC_MSG_RESULT([yes, $OVS_VERSION])
   case $OVS_VERSION in
       3.1.*) ;;
       *) AC_MSG_WARN([fibsync is built and tested with Open vSwitch 3.1, not $OVS_VERSION]) ;;
   esac
   AC_SUBST([OVS_SRCDIR])
   AC_SUBST([OVS_BUILDDIR])
   AC_SUBST([OVS_VERSION])])

dnl FIBSYNC_ENABLE_SANITIZERS
dnl
dnl --enable-sanitizers builds everything with AddressSanitizer and
dnl UndefinedBehaviorSanitizer.
AC_DEFUN([FIBSYNC_ENABLE_SANITIZERS],
  [AC_ARG_ENABLE([sanitizers],
     [AS_HELP_STRING([--enable-sanitizers],
                     [build with ASan and UBSan])],
     [], [enable_sanitizers=no])
   SANITIZER_FLAGS=
   if test "$enable_sanitizers" = yes; then
       SANITIZER_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
   fi
   AC_SUBST([SANITIZER_FLAGS])
   dnl For tests/atlocal: valgrind cannot run a sanitized program.
   AC_SUBST([enable_sanitizers])
   AM_CONDITIONAL([SANITIZERS], [test "$enable_sanitizers" = yes])])

dnl FIBSYNC_CHECK_FUZZ
dnl
dnl For "make fuzz" (tests/fuzz/automake.mk): finds clang, whose libFuzzer
dnl the harnesses need, in CLANG (override with CLANG=... at configure or
dnl make time); an empty CLANG makes "make fuzz" say what to install.
dnl Sets FUZZ_OVS_LIBS: Open vSwitch's static library and the libraries it
dnl needs, from its libtool file, without jemalloc (AddressSanitizer brings
dnl its own allocator).  Run after FIBSYNC_WITH_OVS.
AC_DEFUN([FIBSYNC_CHECK_FUZZ],
  [AC_ARG_VAR([CLANG], [clang with libFuzzer, for "make fuzz"])
   AC_PATH_PROGS([CLANG], [clang clang-19 clang-18 clang-17 clang-16 \
                           clang-15 clang-14], [])
   FUZZ_OVS_LIBS=$OVS_BUILDDIR/lib/.libs/libopenvswitch.a
   for fibsync_lib in `sed -n "s/^dependency_libs='\(.*\)'$/\1/p" \
                       "$OVS_BUILDDIR/lib/libopenvswitch.la"`; do
       case $fibsync_lib in
           *jemalloc*) ;;
           *.la) fibsync_dir=`dirname $fibsync_lib`
                 fibsync_base=`basename $fibsync_lib .la`
                 FUZZ_OVS_LIBS="$FUZZ_OVS_LIBS $fibsync_dir/.libs/$fibsync_base.a"
                 ;;
           *) FUZZ_OVS_LIBS="$FUZZ_OVS_LIBS $fibsync_lib" ;;
       esac
   done
   AC_SUBST([FUZZ_OVS_LIBS])])
