#!/usr/bin/python3
"""What the cost model's allocator constants (CostModel, include/dcsweep/sweep/cost.hpp) are fitted to:
bench_decisions' --csv (platform,nodes,allocator,job_nodes,free_nodes,seconds; one row per decision).

  bench/fit_alloc_cost.py DECISIONS.csv [--zones PLATFORM=Z ...]

Per allocator and platform: the decisions' total, and their mean and mean per k, per k^2 by job
size k; then, for each term of the model, the constant that makes it the platform's total alone
(term = the sum over the decisions of its feature): a constant that holds across platforms is a
term that scales. Zones default to the shipped platforms' (node-level oxley rooms, intrepid's 80).
"""
import argparse
import collections
import csv

ZONES = {"meng40": 40, "asu50": 50, "oxley1080": 1080, "oxley4320": 4320, "intrepid": 80}

# feature of one decision: (k, N, Z) -> value; the model's per-decision terms
FEATURES = {
    "N": lambda k, n, z: n,
    "N k": lambda k, n, z: n * k,
    "N k^0.8": lambda k, n, z: n * k**0.8,
    "N k^0.4": lambda k, n, z: n * k**0.4,
    "k^0.7 N^-0.1": lambda k, n, z: k**0.7 * n**-0.1,
    "k^2": lambda k, n, z: k * k,
    "Z^2": lambda k, n, z: z * z,
    "k^0.8 Z^2.1": lambda k, n, z: k**0.8 * z**2.1,
    "k^2 Z": lambda k, n, z: k * k * z,
    "k Z^2": lambda k, n, z: k * z * z,
    "k Z^1.3": lambda k, n, z: k * z**1.3,
}
BINS = [(1, 1), (2, 16), (17, 128), (129, 512), (513, 2048), (2049, 10**9)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--zones", nargs="*", default=[], help="PLATFORM=Z for a platform not listed")
    args = parser.parse_args()
    zones = dict(ZONES)
    for item in args.zones:
        name, _, value = item.partition("=")
        zones[name] = int(value)
    groups = collections.defaultdict(list)  # (allocator, platform, N) -> [(k, seconds)]
    with open(args.csv) as f:
        for row in csv.reader(f):
            if row[0] == "platform":
                continue
            groups[(row[2], row[0], int(row[1]))].append((int(row[3]), float(row[5])))
    for (allocator, platform, n), decisions in sorted(groups.items()):
        z = zones.get(platform)
        if z is None:
            raise SystemExit(f"fit_alloc_cost.py: zones of platform '{platform}' unknown: pass --zones {platform}=Z")
        total = sum(t for _, t in decisions)
        print(f"{allocator} on {platform} (N {n}, zones {z}): {len(decisions)} decisions, {total:.3f} s")
        for lo, hi in BINS:
            part = [(k, t) for k, t in decisions if lo <= k <= hi]
            if part:
                mean = sum(t for _, t in part) / len(part)
                per_k = sum(t / k for k, t in part) / len(part)
                per_k2 = sum(t / (k * k) for k, t in part) / len(part)
                print(f"   k {lo}-{hi if hi < 10**9 else 'up'}: {len(part)} decisions, mean {1e3 * mean:.3g} ms,"
                      f" per k {1e6 * per_k:.3g} us, per k^2 {1e9 * per_k2:.3g} ns")
        constants = [f"{name} {total / sum(f(k, n, z) for k, _ in decisions):.3g}" for name, f in FEATURES.items()]
        print("   constant if one term made the total: " + ", ".join(constants))


if __name__ == "__main__":
    main()
