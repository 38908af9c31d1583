#!/usr/bin/python3
"""The Sobol table of the meng40 study (docs/user-guide.md) from `dcsweep analyze --json`.

usage: sobol_table.py DCSWEEP RESULT.h5   (prints a Markdown table, factors by cooling energy's ST)
"""
import json
import subprocess
import sys

binary, result = sys.argv[1], sys.argv[2]
metrics = ["cooling_energy_j", "avg_cooling_power_w", "makespan_s"]
out = subprocess.run([binary, "analyze", result, "--json", "--metric"] + metrics, check=True, capture_output=True,
                     text=True).stdout
m = json.loads(out)["metrics"]
energy = m["cooling_energy_j"]
factors = sorted(energy["total"], key=lambda f: -energy["total"][f]["value"])


def cell(e, interval, best):
    text = f"{e['value']:.3f}"
    if best:
        text = f"**{text}**"
    return f"{text} [{e['low']:.3f}, {e['high']:.3f}]" if interval else text


def largest(metric, key):
    return max(factors, key=lambda f: m[metric][key][f]["value"])


print("| factor | cooling energy S1 [95%] | ST [95%] | average cooling power ST | makespan ST |")
print("|---|---|---|---|---|")
for f in factors:
    print(f"| `{f}` | {cell(energy['first_order'][f], True, f == largest('cooling_energy_j', 'first_order'))} "
          f"| {cell(energy['total'][f], True, f == largest('cooling_energy_j', 'total'))} "
          f"| {cell(m['avg_cooling_power_w']['total'][f], False, f == largest('avg_cooling_power_w', 'total'))} "
          f"| {cell(m['makespan_s']['total'][f], False, f == largest('makespan_s', 'total'))} |")
