"""The shipped alpha x beta x redline sweep (inputs/specs/meng-alpha-beta-redline.toml) on 2 ranks
shows [P0]'s trade-off in its result file: as beta's share of the weights rises, cooling power falls
and communication cost rises; only that share decides the placement; a warmer redline cools cheaper
without moving a job. Weights the allocator cannot use (negative, or alpha = beta = 0 at any point
of the grid) are bad input: one error line, exit 2, nothing written."""
import os
import re
import sys
import tempfile
import unittest

import numpy as np
import xarray as xr

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_alpha_beta_redline.py")
SPEC = os.path.join(ROOT, "inputs/specs/meng-alpha-beta-redline.toml")


def read(path):
    with open(path) as f:
        return f.read()


class AlphaBetaRedline(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        out = os.path.join(cls.tmp.name, "abr.h5")
        sweeplib.run(BINARY, ["run", SPEC, "-o", out, "-q"], 2, cwd=ROOT, check_code=0)
        cls.ds = xr.open_dataset(out, engine="netcdf4")

    @classmethod
    def tearDownClass(cls):
        cls.ds.close()
        cls.tmp.cleanup()

    def metric(self, name):
        """(alpha, beta, redline, replicate) values, every point finished."""
        values = self.ds[name].transpose("alpha", "beta", "redline_c", "replicate").values
        self.assertTrue(np.isfinite(values).all(), name)
        return values

    def shares(self):
        """beta / (alpha + beta) per (alpha, beta), and the distinct shares in rising order."""
        share = self.ds.beta.values[None, :] / (self.ds.alpha.values[:, None] + self.ds.beta.values[None, :])
        return share, sorted(set(np.round(share.ravel(), 12)))

    def test_layout(self):
        self.assertEqual(list(self.ds.avg_cooling_power_w.dims), ["alpha", "beta", "redline_c", "replicate"])
        self.assertEqual(self.ds.avg_cooling_power_w.attrs["units"], "W")
        self.assertTrue((self.ds.alpha.values > 0).all())
        self.assertIn(0.0, self.ds.beta.values)
        self.assertGreaterEqual(len(self.shares()[1]), 4)
        self.assertTrue((self.metric("jobs_completed") == 40).all())

    def test_only_the_share_of_beta_decides_the_placement(self):
        # Scaling alpha and beta by a power of two scales the objective exactly: same decisions, same
        # figures, bit for bit; e.g. (0.5, 0.5) = (1, 1) and every beta = 0 point alike.
        share, _ = self.shares()
        cooling, comm = self.metric("avg_cooling_power_w"), self.metric("avg_comm_cost")
        pairs = 0
        for i, j in np.ndindex(share.shape):
            for k, l in np.ndindex(share.shape):
                if (i, j) < (k, l) and abs(share[i, j] - share[k, l]) < 1e-12:
                    np.testing.assert_array_equal(cooling[i, j], cooling[k, l])
                    np.testing.assert_array_equal(comm[i, j], comm[k, l])
                    pairs += 1
        self.assertGreaterEqual(pairs, 4)

    def test_cooling_power_falls_and_communication_rises_with_the_share_of_beta(self):
        share, levels = self.shares()
        cooling, comm = self.metric("avg_cooling_power_w"), self.metric("avg_comm_cost")
        for r, redline in enumerate(self.ds.redline_c.values):
            # means over the replicates (the same queues at every point), one value per share
            mean_cooling = [cooling[np.isclose(share, s)][:, r].mean() for s in levels]
            mean_comm = [comm[np.isclose(share, s)][:, r].mean() for s in levels]
            self.assertTrue((np.diff(mean_cooling) < 0).all(), (redline, levels, mean_cooling))
            self.assertTrue((np.diff(mean_comm) > 0).all(), (redline, levels, mean_comm))
            # and queue by queue between the extremes: communication only vs the largest cooling share
            low, high = np.isclose(share, levels[0]), np.isclose(share, levels[-1])
            self.assertTrue((cooling[high][0, r] < cooling[low][0, r]).all(), redline)
            self.assertTrue((comm[high][0, r] > comm[low][0, r]).all(), redline)
        # the trade-off is large: [P0] finds 19% less cooling power for 10% more communication at 0.5
        low, high = np.isclose(share, levels[0]), np.isclose(share, levels[-1])
        self.assertLess(cooling[high].mean(), 0.95 * cooling[low].mean())
        self.assertGreater(comm[high].mean(), 1.1 * comm[low].mean())

    def test_a_warmer_redline_cools_cheaper_without_moving_a_job(self):
        cooling, comm = self.metric("avg_cooling_power_w"), self.metric("avg_comm_cost")
        self.assertTrue((np.diff(self.ds.redline_c.values) > 0).all())
        self.assertTrue((np.diff(cooling, axis=2) < 0).all())
        np.testing.assert_array_equal(comm, np.broadcast_to(comm[:, :, :1, :], comm.shape))
        np.testing.assert_allclose(self.metric("max_inlet_c"),
                                   np.broadcast_to(self.ds.redline_c.values[None, None, :, None], comm.shape))


class BadWeights(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def spec(self, old, new):
        text = read(SPEC)
        self.assertIn(old, text)
        path = os.path.join(self.tmp.name, "bad.toml")
        with open(path, "w") as f:
            f.write(text.replace(old, new))
        return path

    def expect_error(self, spec, message):
        out = os.path.join(self.tmp.name, "bad.h5")
        for args, ranks in ((["validate", spec], None), (["run", spec, "-o", out], 2)):
            proc = sweeplib.run(BINARY, args, ranks, cwd=ROOT)
            self.assertEqual(proc.returncode, 2, proc.stderr)
            lines = proc.stderr.splitlines()
            self.assertEqual(len(lines), 1, f"want one error line, got:\n{proc.stderr}")
            self.assertTrue(re.match(r"dcsweep: error: .*" + re.escape(message), lines[0]), lines[0])
            self.assertEqual(proc.stdout, "")
            self.assertEqual(os.listdir(self.tmp.name), ["bad.toml"])  # no result file, no journal

    def test_alpha_and_beta_both_zero_at_one_point(self):
        self.expect_error(self.spec("alpha = [0.25, 0.5, 1.0]", "alpha = [0.0, 0.5, 1.0]"),
                          "parameter 'alpha': alpha and beta are both 0")

    def test_negative_weights(self):
        self.expect_error(self.spec("alpha = [0.25, 0.5, 1.0]", "alpha = [-0.25, 0.5, 1.0]"),
                          "bad.toml:34: [axes] alpha: parameter 'alpha': -0.25 is out of range")
        self.expect_error(self.spec("beta = [0.0, 0.5, 1.0]", "beta = [0.0, -0.5, 1.0]"),
                          "bad.toml:35: [axes] beta: parameter 'beta': -0.5 is out of range")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
