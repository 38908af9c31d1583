"""model = ratebased sweeps (issue 12): the same spec on 1 process and on 2 MPI ranks gives files
identical dataset by dataset (solve_s, a wall time, aside), the GA's points included; the file
holds the epoch metrics and no series; infeasible points are results (feasible 0, status ok)."""
import os
import sys
import tempfile
import unittest

import h5py
import numpy as np

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_ratebased.py")
SPEC = os.path.join(ROOT, "tests/sweep/specs/ratebased.toml")


class RateBasedSweep(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.addClassCleanup(cls.tmp.cleanup)
        cls.files = sweeplib.run_on_ranks(BINARY, SPEC, cls.tmp.name, (None, 2), cwd=ROOT)

    def test_identical_on_one_and_two_ranks(self):
        ignore = sweeplib.RUN_DEPENDENT | {"solve_s"}
        self.assertEqual(sweeplib.differences(self.files[1], self.files[2], ignore=ignore), [])

    def test_metrics_and_feasibility(self):
        with h5py.File(self.files[2], "r") as f:
            self.assertTrue((f["points/status"][()] == 1).all())
            self.assertEqual(len(f["series"]) if "series" in f else 0, 0)
            self.assertNotIn("avg_wait_s", f)
            feasible = f["feasible"][()]  # technique x objective x containment x redline x replicate
            self.assertTrue((feasible[:, :, :, 0] == 0).all())  # 10 C
            self.assertTrue((feasible[:, :, :, 1] == 1).all())  # 25 C
            rr = f["reward_rate"][()]
            self.assertTrue(np.isnan(rr[:, :, :, 0]).all())
            self.assertTrue((rr[1, :, :, 1] >= rr[0, :, :, 1] * (1 - 1e-12)).all())  # GA from greedy's start
            self.assertTrue((f["reward_rate_bound"][()][:, :, :, 1] >= rr[:, :, :, 1]).all())
            units = f["reward_rate"].attrs["units"]
            self.assertEqual(units.decode() if isinstance(units, bytes) else units, "1/s")
            realized = f["realized_reward_rate"][()][:, :, :, 1]
            self.assertTrue(np.isfinite(realized).all())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
