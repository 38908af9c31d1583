"""No deadlock for any grid size, point cost, chunk size or rank count (issue: sweeps of a few
thousand cheap points hung forever on 2 ranks: rank 0 and a worker each blocked in MPI_Send of a
message above the eager limit, waiting for the other to receive).

Grids of 10^2 to 10^5 points, cheap (~50 us each: chunks of thousands of points, messages of
tens of kilobytes) and of mixed cost (1 to 1,000 Poisson jobs a point; at 10^5 points, one
costly point in eight among cheap ones), on 1 (no mpirun), 2, 3 and 4 ranks (oversubscribed; the
10^5-point grids on 2 and 4 only, to keep the suite short): every run must finish within its time
limit, and its file must be bit-identical to the 1-process file (except wall_s and rank). Also: the stall warning names the
ranks when no point finishes for --stall-warning-s."""
import os
import sys
import tempfile
import unittest

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_stress.py")

CHEAP = """[sweep]
name = "stress-cheap"
seed = 5
[base]
platform = "meng40"
workload = "poisson"
poisson_jobs = 20
cooling = "redline"
[axes]
redline_c = {{ start = 20, stop = 30, num = {n} }}
supply_temp_c = {{ start = 10, stop = 20, num = {n} }}
gamma = [0.5, 1.0]
"""

MIXED = """[sweep]
name = "stress-mixed"
seed = 6
[base]
platform = "meng40"
workload = "poisson"
cooling = "redline"
[axes]
poisson_jobs = [2, 1000, 20, 200]
redline_c = {{ start = 20, stop = 30, num = {n} }}
gamma = [0.5, 1.0]
"""

# Mostly cheap with one costly point in eight (1-7 or 300 Poisson jobs): 16 n points, 10^5 here.
MIXED_LARGE = """[sweep]
name = "stress-mixed-large"
seed = 7
[base]
platform = "meng40"
workload = "poisson"
cooling = "redline"
[axes]
poisson_jobs = [1, 2, 3, 4, 5, 6, 7, 300]
redline_c = {{ start = 20, stop = 30, num = {n} }}
gamma = [0.5, 1.0]
"""

# (kind, n, points): CHEAP has 2 n^2 points, MIXED 8 n points, MIXED_LARGE 16 n.
CASES = [("cheap", 7, 98), ("cheap", 23, 1058), ("cheap", 71, 10082), ("cheap", 224, 100352),
         ("mixed", 125, 1000), ("mixed", 1250, 10000), ("mixed_large", 6250, 100000)]


def spec_text(kind, n):
    return {"cheap": CHEAP, "mixed": MIXED, "mixed_large": MIXED_LARGE}[kind].format(n=n)


class Stress(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_case(self, kind, n, points):
        spec = os.path.join(self.tmp.name, f"{kind}-{n}.toml")
        with open(spec, "w") as f:
            f.write(spec_text(kind, n))
        files = {}
        rank_counts = (2, 4) if points >= 100000 else (2, 3, 4)
        for ranks in (None,) + rank_counts:
            out = os.path.join(self.tmp.name, f"{kind}-{n}-{ranks or 1}.h5")
            # A hang shows as a timeout, far above the few seconds each run takes.
            proc = sweeplib.run(BINARY, ["run", spec, "-o", out, "--quiet"], ranks, check_code=0, timeout=180)
            self.assertIn(f"{points} points: {points} ok", proc.stdout)
            files[ranks or 1] = out
        for ranks in rank_counts:
            with self.subTest(kind=kind, points=points, ranks=ranks):
                self.assertEqual(sweeplib.differences(files[1], files[ranks]), [])
        for path in files.values():
            os.remove(path)

    def test_grids_finish_and_agree(self):
        for kind, n, points in CASES:
            with self.subTest(kind=kind, points=points):
                self.run_case(kind, n, points)

    def test_stall_warning_names_the_ranks(self):
        # Points of ~0.5-1 s and a 0.2 s threshold: the run is slow, not stuck, and says who holds what.
        spec = os.path.join(self.tmp.name, "slow.toml")
        with open(spec, "w") as f:
            f.write('[sweep]\nname = "slow"\nseed = 1\n[base]\n'
                    f'trace = "{ROOT}/inputs/traces/CEA-Curie-2011-2.1-cln.swf.gz"\n'
                    '[axes]\nscheduler = ["easy", "fcfs"]\n')
        out = os.path.join(self.tmp.name, "slow.h5")
        proc = sweeplib.run(BINARY, ["run", spec, "-o", out, "--quiet", "--stall-warning-s", "0.2"], 2,
                            check_code=0)
        self.assertIn("dcsweep: warning: no point finished for", proc.stderr)
        self.assertIn("rank 0: serving, its worker on point", proc.stderr)
        self.assertIn("rank 1: computing a chunk of 1 points (first", proc.stderr)

    def test_bad_stall_option(self):
        proc = sweeplib.run(BINARY, ["run", "x.toml", "-o", "x.h5", "--stall-warning-s", "-1"], None, check_code=2)
        self.assertEqual(proc.stderr.strip().count("\n"), 0)
        self.assertIn("--stall-warning-s must be >= 0", proc.stderr)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=2)
