"""A power budget checked from outside (issue 28): `simulate --job-events-out` writes one row per
job start, resize (node count or CPU cap) and end with the job's node power from that instant.
From that file alone (and the idle power of a node, from `dcsweep list`'s defaults of node_power
parm) the nodes' total power is recomputed at every instant of `parm` runs of every scheme on a
busy 128-node room: it never exceeds power_budget_w, and its peak is the run's max_compute_power_w.
Also: one start and one end per job, node lists as ranges, no node in two running jobs at once.
And the sweep option `[sweep] job_events_dir` keeps the same file per point."""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

import h5py

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_job_events.py")
NODES, BUDGET_W = 128, 12544.0
RUN = ["--platform", "room", "--room-rows", "2", "--room-racks-per-row", "4", "--room-nodes-per-rack", "16",
       "--trace", "inputs/traces/KTH-SP2-1996-2.1-cln.swf", "--jobs", "100", "--first-job", "20000",
       "--scale-to-platform", "--scheduler", "parm", "--runtime-model", "pass", "--node-power", "parm",
       "--power-budget-w", str(BUDGET_W), "--gamma", "0.5"]


def idle_node_w():
    """cpu_idle_power_w + node_memory_power_w + node_base_power_w, as `dcsweep list` declares them."""
    text = subprocess.run([BINARY, "list"], capture_output=True, text=True, check=True).stdout
    total = 0.0
    for name in ("cpu_idle_power_w", "node_memory_power_w", "node_base_power_w"):
        total += float(re.search(rf"^\s+{name}\s+real\s+unit=W default=(\S+)", text, re.M).group(1))
    return total


def node_list(text):
    """A node_ids field: space-separated ids and a-b runs."""
    out = []
    for item in text.split():
        first, _, last = item.partition("-")
        out += list(range(int(first), int(last or first) + 1))
    return out


def replay(rows, idle_w):
    """The nodes' total power over each stretch between event times, and the checks of the file."""
    running, starts, ends, powers = {}, {}, {}, []
    by_time = {}
    for r in rows:
        by_time.setdefault(float(r["time_s"]), []).append(r)
    for t in sorted(by_time):
        for r in by_time[t]:
            job, nodes = r["id"], node_list(r["node_ids"])
            assert len(nodes) == int(r["nodes"]), r
            if r["event"] == "end":
                assert job in running, r
                del running[job]
                ends[job] = ends.get(job, 0) + 1
                assert float(r["power_w"]) == 0, r
                continue
            if r["event"] == "start":
                starts[job] = starts.get(job, 0) + 1
                assert job not in running, r
            else:
                assert r["event"] == "resize" and job in running, r
            running[job] = (float(r["power_w"]), nodes)
        used = [n for _, nodes in running.values() for n in nodes]
        assert len(used) == len(set(used)), f"a node in two running jobs at {t}"
        powers.append(sum(p for p, _ in running.values()) + (NODES - len(used)) * idle_w)
    assert starts == ends and set(starts.values()) == {1}, "one start and one end per job"
    return powers[:-1]  # the state after the last end lasts no time


class JobEvents(unittest.TestCase):
    def test_every_scheme_holds_the_budget_recomputed_from_the_file(self):
        idle_w = idle_node_w()
        self.assertEqual(idle_w, 86.0)
        with tempfile.TemporaryDirectory() as tmp:
            for scheme in ("nomm", "nose", "wse", "baseline", "naive"):
                with self.subTest(scheme=scheme):
                    events = os.path.join(tmp, scheme + ".csv")
                    proc = subprocess.run([BINARY, "simulate"] + RUN + ["--parm-scheme", scheme, "--json",
                                                                        "--job-events-out", events],
                                          cwd=ROOT, capture_output=True, text=True, check=True)
                    metrics = json.loads(proc.stdout)
                    with open(events) as f:
                        self.assertEqual(f.readline(), "time_s,event,id,nodes,node_ids,cpu_cap_w,power_w\n")
                        f.seek(0)
                        rows = list(csv.DictReader(f))
                    powers = replay(rows, idle_w)
                    self.assertLessEqual(max(powers), BUDGET_W * (1 + 1e-9))
                    self.assertAlmostEqual(max(powers), metrics["max_compute_power_w"], delta=1e-9 * BUDGET_W)
                    self.assertTrue(all(r["cpu_cap_w"] for r in rows))  # node_power parm has caps
                    if scheme == "wse":
                        self.assertTrue(any(r["event"] == "resize" for r in rows))

    def test_the_sweep_keeps_each_points_events_when_asked(self):
        spec = """
[sweep]
name = "events"
seed = 1
job_events_dir = "{dir}"
[base]
platform = "meng40"
workload = "poisson"
poisson_jobs = 30
[axes]
allocator = ["first_fit", "mc1x1"]
"""
        with tempfile.TemporaryDirectory() as tmp:
            path, out, events = os.path.join(tmp, "s.toml"), os.path.join(tmp, "s.h5"), os.path.join(tmp, "ev")
            with open(path, "w") as f:
                f.write(spec.format(dir=events))
            sweeplib.run(BINARY, ["run", path, "-o", out, "--quiet"], 2, cwd=ROOT, check_code=0)
            self.assertEqual(sorted(os.listdir(events)), ["point-000000.csv", "point-000001.csv"])
            for flat, allocator in enumerate(("first_fit", "mc1x1")):
                alone = os.path.join(tmp, f"alone-{flat}.csv")
                subprocess.run([BINARY, "simulate", "--platform", "meng40", "--workload", "poisson", "--poisson-jobs",
                                "30", "--allocator", allocator, "--seed", "1", "--job-events-out", alone],
                               cwd=ROOT, capture_output=True, check=True)
                with open(alone) as a, open(os.path.join(events, f"point-{flat:06d}.csv")) as b:
                    self.assertEqual(a.read(), b.read())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
