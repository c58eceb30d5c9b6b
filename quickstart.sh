#!/bin/sh
# quickstart.sh -- set up, build and run fibsync on a fresh Debian 12
# machine, as root.
#
# usage: ./quickstart.sh run     install, build, start the stack, load
#                                routes and show them
#        ./quickstart.sh test    install, build, and run every test
#        ./quickstart.sh build   install and build only
#        ./quickstart.sh deps    install the Debian packages only
#
# The build goes to ./_build (out of tree); Open vSwitch is built once into
# ./_ovs; the running stack lives in $FIBSYNC_RUNDIR (default ./_run).
# Set FIBSYNC_SKIP_DEPS=1 to skip the package step.  "test" also builds,
# once, a Debian chroot with FRR 10 in $FRR_CHROOT (default
# /var/cache/fibsync/frr-forky; see build-aux/frr-chroot).

set -e
cd "$(dirname "$0")"
TOP=$(pwd)

PACKAGES="build-essential autoconf automake libtool pkg-config python3
openvswitch-source libssl-dev libjemalloc-dev libzmq3-dev libnl-3-dev
libnl-route-3-dev check frr exabgp iproute2 procps clang libclang-rt-14-dev
gnuplot-nox"

say () { echo "quickstart: $*"; }

deps () {
    test "${FIBSYNC_SKIP_DEPS:-0}" = 1 && return 0
    missing=
    for p in $PACKAGES; do
        dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
    done
    if test -n "$missing"; then
        if test "$(id -u)" != 0; then
            echo "quickstart: need root to install:$missing" >&2
            exit 1
        fi
        say "installing Debian packages:$missing"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        # FRR's package would start its own daemons; fibsync's tests start
        # zebra by hand in network namespaces instead.
        apt-get install -y -qq --no-install-recommends $missing \
            > /tmp/fibsync-apt.log 2>&1 || {
            tail -20 /tmp/fibsync-apt.log >&2
            exit 1
        }
    fi
}

build () {
    if test ! -x configure || test configure.ac -nt configure ||
       test Makefile.am -nt Makefile.in; then
        say "generating configure (boot.sh)"
        ./boot.sh > /tmp/fibsync-boot.log 2>&1 || {
            cat /tmp/fibsync-boot.log >&2; exit 1; }
    fi
    mkdir -p _build
    if test ! -f _build/Makefile; then
        say "configuring (Open vSwitch is built into _ovs/ the first time)"
        (cd _build && ../configure) > /tmp/fibsync-configure.log 2>&1 || {
            tail -30 /tmp/fibsync-configure.log >&2; exit 1; }
    fi
    say "building"
    make -s -C _build -j"$(nproc)" V=0
}

# The FRR 10 chroot that tests/frr-offload.at runs zebra from (Debian 12's
# FRR cannot take offload notifications back over FPM): built once, in
# about a minute.  If it cannot be built, that one test skips.
frr_chroot () {
    dir=${FRR_CHROOT:-/var/cache/fibsync/frr-forky}
    build-aux/frr-chroot --check "$dir" && return 0
    if test "$(id -u)" != 0; then
        say "not root: no FRR 10 chroot, so its test will be skipped"
        return 0
    fi
    say "building an FRR 10 chroot for the offload test in $dir"
    build-aux/frr-chroot "$dir" > /tmp/fibsync-frr-chroot.log 2>&1 || {
        tail -5 /tmp/fibsync-frr-chroot.log >&2
        say "could not build the FRR 10 chroot: its test will be skipped"
    }
}

run () {
    B=$TOP/_build
    C=$TOP/_ovs/openvswitch/ovsdb/ovsdb-client
    export FIBSYNC_RUNDIR=${FIBSYNC_RUNDIR:-$TOP/_run}
    port=${FIBSYNC_FPM_PORT:-2620}
    DB=unix:$FIBSYNC_RUNDIR/db.sock
    "$B/utilities/fibsync-ctl" stop > /dev/null 2>&1 || true
    "$B/utilities/fibsync-ctl" --fpm-port="$port" start
    echo
    say "ovsdb-client list-tables $DB Fibsync"
    "$C" list-tables "$DB" Fibsync
    echo
    # fpmsyncd listens for zebra once it has read the database.
    i=0
    until "$TOP/_ovs/openvswitch/utilities/ovs-appctl" \
            -t "$FIBSYNC_RUNDIR/fpmsyncd.ctl" fpm/show 2>/dev/null |
            grep -q "^fpm: ptcp:$port:"; do
        i=$((i + 1))
        if test $i -gt 60; then
            say "fpmsyncd is not listening after 30 s"
            exit 1
        fi
        sleep 0.5
    done
    say "sending 10000 routes (20% IPv6, 2-way ECMP, next-hop groups) over"
    say "FPM to fpmsyncd, as zebra would"
    "$B/utilities/fpm-replay" --port "$port" -n 10000 --ipv6 20 --ecmp 2 \
        --nhg
    i=0
    until "$B/utilities/route-check" -q > /dev/null 2>&1; do
        i=$((i + 1))
        if test $i -gt 120; then
            say "routes not all programmed after 60 s:"
            "$B/utilities/route-check" | tail -5
            break
        fi
        sleep 0.5
    done
    echo
    say "ovsdb-client dump $DB Fibsync Route (first rows)"
    "$C" dump "$DB" Fibsync Route vrf prefix protocol nexthops 2>/dev/null |
        head -8
    echo
    say "fibctl show ip route summary"
    "$B/utilities/fibctl" show ip route summary | head -8
    echo
    say "fibctl show ip route 1.0.0.1   (longest match, from orchd's index)"
    "$B/utilities/fibctl" show ip route 1.0.0.1
    echo
    say "route-check   (Route, Asic_Route and the simulated FIB agree?)"
    "$B/utilities/route-check"
    echo
    say "the stack keeps running; stop it with:"
    say "  FIBSYNC_RUNDIR=$FIBSYNC_RUNDIR $B/utilities/fibsync-ctl stop"
}

case ${1:-} in
    deps) deps ;;
    build) deps; build ;;
    run) deps; build; run ;;
    test) deps; build; frr_chroot
          make -s -C _build check TESTSUITEFLAGS="${TESTSUITEFLAGS:--j2}" ;;
    *) sed -n '2,15p' "$0" >&2; exit 1 ;;
esac
