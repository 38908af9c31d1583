#!/usr/bin/env python3
"""Writes pstate_tables.csv (ECS and APC per task, node type and P-state) from the DVFS model in
cpu_dvfs.csv and the task model in task_types.csv (README.md, "Synthesis model").

    python3 synthesize.py            # from this directory; rewrites pstate_tables.csv
"""
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
F_REF_GHZ = 3.2  # base_time_s is measured on the reference core: xeon_e3_1225v3 at its top P-state


def rows(name):
    with open(os.path.join(HERE, name), newline="") as f:
        return list(csv.DictReader(f))


def main():
    cpus, tasks = rows("cpu_dvfs.csv"), rows("task_types.csv")
    out = [("task", "node_type", "pstate", "frequency_ghz", "voltage_v", "ecs_per_s", "apc_w")]
    for t in tasks:
        base, stall, activity = float(t["base_time_s"]), float(t["memory_stall_share"]), float(t["core_activity"])
        for c in cpus:
            f_max, f_min, n = float(c["f_max_ghz"]), float(c["f_min_ghz"]), int(c["pstates"])
            v_max, v_min = float(c["v_max_v"]), float(c["v_min_v"])
            core_max, ipc = float(c["core_max_w"]), float(c["relative_ipc"])
            for p in range(n):
                f = f_max if n == 1 else f_max - (f_max - f_min) * p / (n - 1)  # as the platform's table
                v = v_min + (v_max - v_min) * (f - f_min) / (f_max - f_min)
                time_s = base * ((1 - stall) * (F_REF_GHZ / f) / ipc + stall)
                apc = activity * core_max * (v / v_max) ** 2 * (f / f_max)
                out.append((t["task"], c["node_type"], p, f"{f:.6g}", f"{v:.6g}", f"{1 / time_s:.8g}", f"{apc:.6g}"))
    with open(os.path.join(HERE, "pstate_tables.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(out)


if __name__ == "__main__":
    main()
