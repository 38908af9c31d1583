"""Results do not depend on the number of ranks: the same spec on 1 (no mpirun), 2, 3 and 7 ranks
gives files that are identical dataset by dataset (bit for bit), except /points/wall_s and
/points/rank. The spec has random allocation, Poisson arrivals, replicates and failing points."""
import os
import sys
import tempfile
import unittest

import h5py
import numpy as np

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_determinism.py")
SPEC = os.path.join(ROOT, "tests/sweep/specs/determinism.toml")


class Determinism(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.files = {}
        cls.procs = {}
        for ranks in (None, 2, 3, 7):
            path = os.path.join(cls.tmp.name, f"ranks-{ranks or 1}.h5")
            # exit 1: the spec has points that fail on purpose
            cls.procs[ranks or 1] = sweeplib.run(BINARY, ["run", SPEC, "-o", path, "--quiet"], ranks, cwd=ROOT,
                                                 check_code=1)
            cls.files[ranks or 1] = path

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_identical_for_any_rank_count(self):
        for ranks in (2, 3, 7):
            with self.subTest(ranks=ranks):
                self.assertEqual(sweeplib.differences(self.files[1], self.files[ranks]), [])

    def test_ranks_really_shared_the_work(self):
        with h5py.File(self.files[7], "r") as f:
            self.assertGreater(len(set(f["points/rank"][()])), 2)
            self.assertEqual(f.attrs["ranks"], 7)

    def test_randomness_is_present(self):
        # Poisson replicates differ; a trace under first fit does not.
        with h5py.File(self.files[1], "r") as f:
            wait = f["avg_wait_s"][()]  # allocator x gamma x max_queue x workload x replicate
            self.assertTrue(np.isfinite(wait[0, 1, 0, 0, :]).all())
            self.assertEqual(wait[0, 1, 0, 0, 0], wait[0, 1, 0, 0, 1])  # first_fit, trace: deterministic
            self.assertNotEqual(wait[0, 1, 0, 1, 0], wait[0, 1, 0, 1, 1])  # Poisson replicates differ
            # Which nodes the random allocator picks changes the inlet temperatures on meng40.
            cooling = f["cooling_energy_j"][()]
            self.assertEqual(cooling[0, 1, 0, 0, 0], cooling[0, 1, 0, 0, 1])  # first fit: same nodes
            self.assertNotEqual(cooling[1, 1, 0, 0, 0], cooling[1, 1, 0, 0, 1])  # random: other nodes

    def test_failed_points_recorded(self):
        proc = self.procs[2]
        self.assertIn("points failed (see /points/error", proc.stderr)
        with h5py.File(self.files[2], "r") as f:
            status = f["points/status"][()]
            errors = [row.tobytes().rstrip(b"\0").decode() for row in f["points/error"][()]]
            wait = f["avg_wait_s"][()].reshape(-1)
            self.assertTrue(set(status) == {1, 2})
            for i, s in enumerate(status):
                if s == 2:
                    self.assertIn("max_queue_jobs = 200", errors[i])
                    self.assertTrue(np.isnan(wait[i]))
                else:
                    self.assertEqual(errors[i], "")
                    self.assertTrue(np.isfinite(wait[i]))
            # exactly the overloaded ones: gamma 0.3 with the queue limit on
            failed = status.reshape(2, 2, 2, 2, 2) == 2
            self.assertFalse(failed[:, :, 0].any())   # no limit: nothing fails
            self.assertTrue(failed[:, 0, 1, 0].all())  # gamma 0.3, limit 200, trace: all fail
            self.assertFalse(failed[:, 1, 1, 0].any())  # gamma 1.0, trace: fine


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
