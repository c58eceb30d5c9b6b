#! /usr/bin/env python3
"""lpm-check: checks syncd's asic/lookup against the routes in OVSDB.

usage: lpm-check.py DB SYNCD-CTL [SAMPLES [SEED]]

For SAMPLES routes (default: all) picks a random address inside the
prefix, works out the longest matching route among every Route row of the
same VRF, and asks syncd (asic/lookup ADDRESS vrf VRF) which route and next
hops it forwards to.  Prints each disagreement; exits 1 if there is one.
"""

import ipaddress
import json
import random
import subprocess
import sys


def ovsdb_map(v):
    return {k: w for k, w in v[1]} if isinstance(v, list) and v[0] == "map" \
        else {}


def ovsdb_opt(v):
    if isinstance(v, list) and v and v[0] == "set":
        return v[1][0] if v[1] else None
    return v


def main():
    db, ctl = sys.argv[1], sys.argv[2]
    samples = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    random.seed(int(sys.argv[4]) if len(sys.argv) > 4 else 1)

    ops = ["Fibsync",
           {"op": "select", "table": "Route", "where": []},
           {"op": "select", "table": "Nexthop_Group", "where": []}]
    out = subprocess.run(["ovsdb-client", "transact", db, json.dumps(ops)],
                         check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    routes, groups = [r["rows"] for r in json.loads(out)]
    members = {g["id"]: ovsdb_map(g["members"]) for g in groups}

    def resolve(r):
        if r["blackhole"]:
            return "drop", {}
        nhg = ovsdb_opt(r["nexthop_group"])
        if nhg is not None:
            nhs = members.get(nhg, {})
        else:
            nhs = ovsdb_map(r["nexthops"])
        if len(nhs) == 1:
            nhs = {k: 1 for k in nhs}     # A lone next hop has no weight.
        return ("forward", nhs) if nhs else ("trap", {})

    by_vrf = {}
    for r in routes:
        net = ipaddress.ip_network(r["prefix"])
        by_vrf.setdefault(r["vrf"], {})[net] = resolve(r)

    chosen = routes if not samples else random.sample(
        routes, min(samples, len(routes)))
    bad = 0
    for r in chosen:
        net = ipaddress.ip_network(r["prefix"])
        addr = net.network_address + random.randrange(net.num_addresses)
        table = by_vrf[r["vrf"]]
        want = max((n for n in table if n.version == addr.version
                    and addr in n), key=lambda n: n.prefixlen)
        p = subprocess.run(["ovs-appctl", "-t", ctl, "asic/lookup",
                            str(addr), "vrf", r["vrf"]],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        if p.returncode:
            print("%s vrf %s: lookup failed: %s"
                  % (addr, r["vrf"], p.stderr.strip()))
            bad += 1
            continue
        lines = p.stdout.splitlines()
        got_prefix, got_action = lines[0].split()[0], lines[0].split()[4]
        got_nh = {}
        for line in lines[1:]:
            f = line.split()
            if f and f[0] == "nexthop":
                got_nh[f[1]] = int(f[3])
        action, nhs = table[want]
        if got_prefix != str(want) or got_action != action or \
                (action == "forward" and got_nh != nhs):
            print("%s vrf %s: syncd says %s %s %s, routes say %s %s %s"
                  % (addr, r["vrf"], got_prefix, got_action,
                     sorted(got_nh.items()), want, action,
                     sorted(nhs.items())))
            bad += 1
    print("lpm-check: %d lookups, %d wrong" % (len(chosen), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
