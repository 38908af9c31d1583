"""Sampled designs (issue 13) end to end: a small Saltelli design with continuous, log-uniform and
discrete factors, replicates and failing points runs to the same file on 1, 2 and 3 ranks; the
file lays the points along a `sample` dimension with each factor a coordinate over it, the
design's attributes and its unit-cube points, and opens with xarray; failures are recorded."""
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np
import xarray as xr

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_designs.py")
SPEC = os.path.join(ROOT, "tests/sweep/specs/sobol.toml")
N, K, REPLICATES = 8, 3, 2


class SampledDesign(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.files = {}
        for ranks in (None, 2, 3):
            path = os.path.join(cls.tmp.name, f"ranks-{ranks or 1}.h5")
            # exit 1: the spec has points that fail on purpose
            sweeplib.run(BINARY, ["run", SPEC, "-o", path, "--quiet"], ranks, cwd=ROOT, check_code=1)
            cls.files[ranks or 1] = path

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_identical_for_any_rank_count(self):
        for ranks in (2, 3):
            with self.subTest(ranks=ranks):
                self.assertEqual(sweeplib.differences(self.files[1], self.files[ranks]), [])

    def test_validate_prints_the_design(self):
        out = subprocess.run([BINARY, "validate", SPEC], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        self.assertIn("design: sobol, Saltelli's scheme for first-order and total indices, N = 8 base samples x "
                      "(3 factors + 2) = 40 samples, seed 3", out)
        self.assertIn("gamma                     log_uniform [0.05, 1]", out)
        self.assertIn("allocator                 2 levels [first_fit, random]", out)
        self.assertIn("points: 80", out)

    def test_points_lie_along_sample_with_factor_coordinates(self):
        with xr.open_dataset(self.files[2], engine="netcdf4") as ds:
            self.assertEqual(dict(ds.sizes), {"sample": N * (K + 2), "replicate": REPLICATES, "factor": K})
            self.assertEqual(ds.avg_wait_s.dims, ("sample", "replicate"))
            for name in ("gamma", "redline_c", "allocator"):
                self.assertEqual(ds[name].dims, ("sample",))
                self.assertIn(name, ds.avg_wait_s.coords)
            self.assertEqual(list(ds.factor.values), ["gamma", "redline_c", "allocator"])
            self.assertEqual(ds.attrs["design_kind"], "sobol")
            self.assertEqual(ds.attrs["design_base_samples"], N)
            self.assertEqual(ds.attrs["design_samples"], N * (K + 2))
            self.assertEqual(ds.attrs["design_seed"], 3)
            self.assertEqual(ds.redline_c.attrs["distribution"], "uniform [22, 30]")
            u = ds.unit_coordinates.values
            self.assertEqual(u.shape, (N * (K + 2), K))
            # Each factor is its distribution's quantile of the unit coordinate.
            np.testing.assert_allclose(ds.gamma.values, 0.05 * 20.0 ** u[:, 0], rtol=1e-12)
            np.testing.assert_allclose(ds.redline_c.values, 22 + 8 * u[:, 1], rtol=1e-12)
            self.assertEqual(list(ds.allocator.values), ["first_fit" if x < 0.5 else "random" for x in u[:, 2]])
            # Saltelli's layout: per base row A, AB_1..AB_k, B; AB_i is A with column i from B.
            blocks = u.reshape(N, K + 2, K)
            for i in range(K):
                expect = blocks[:, 0, :].copy()
                expect[:, i] = blocks[:, K + 1, i]
                np.testing.assert_array_equal(blocks[:, 1 + i, :], expect)
            # xarray selects along the factors like along any coordinate
            small = ds.avg_wait_s.where(ds.gamma < 0.2, drop=True)
            self.assertGreater(small.sizes["sample"], 0)

    def test_failed_points_recorded(self):
        with h5py.File(self.files[1], "r") as f:
            status = sweeplib.check_failures_recorded(self, f, "avg_wait_s", "max_queue_jobs = 250")
            gamma = np.repeat(f["gamma"][()], REPLICATES)
            self.assertEqual(set(status), {1, 2})
            # the failures are the overloaded points: small gamma (arrivals compressed)
            self.assertLess(gamma[status == 2].max(), gamma[status == 1].max())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
