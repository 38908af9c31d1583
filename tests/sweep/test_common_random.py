"""Common random numbers (issue 30): in a sweep, a point's random streams (Poisson arrivals,
sampled attributes, runtime terms, the random allocator) are keyed by (seed, replicate), not by the
point, so two points differ only by their parameters. A Saltelli design on meng40 with Poisson
jobs over redline_c, supply_temp_min_c and gamma: avg_wait_s cannot depend on the two cooling
factors (first fit, trace runtimes: nothing reads the temperature), so their indices are exactly 0,
while gamma's are not; cooling energy does depend on them. With random_streams = per_point each
point draws its own queue and the same factors get spurious indices. With replicates, analyze
reports the noise floor beside the indices."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_common_random.py")

SPEC = """
[sweep]
name = "crn"
seed = 30
replicates = 2

[design]
kind = "sobol"
base_samples = 16

[base]
platform = "meng40"
workload = "poisson"
poisson_jobs = 200
poisson_rate_per_h = 60
cooling = "redline"
series_interval_s = 0
{extra}

[axes]
redline_c = {{ min = 22, max = 30 }}
supply_temp_min_c = {{ min = 5, max = 18 }}
gamma = {{ min = 0.3, max = 1.0 }}
"""


def analyze(tmp, name, extra=""):
    spec, out = os.path.join(tmp, name + ".toml"), os.path.join(tmp, name + ".h5")
    with open(spec, "w") as f:
        f.write(SPEC.format(extra=extra))
    sweeplib.run(BINARY, ["run", spec, "-o", out, "--quiet"], 2, cwd=ROOT, check_code=0)
    text = subprocess.run([BINARY, "analyze", out, "--metric", "avg_wait_s", "cooling_energy_j", "--json"],
                          capture_output=True, text=True, check=True).stdout
    return json.loads(text)["metrics"]


class CommonRandomNumbers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.common = analyze(cls.tmp.name, "common")
        cls.per_point = analyze(cls.tmp.name, "per-point", 'random_streams = "per_point"')

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_a_factor_that_cannot_matter_gets_exactly_zero(self):
        wait = self.common["avg_wait_s"]
        for factor in ("redline_c", "supply_temp_min_c"):
            with self.subTest(factor=factor):
                self.assertEqual(wait["total"][factor]["value"], 0.0)
                self.assertEqual(wait["first_order"][factor]["value"], 0.0)
        self.assertGreater(wait["total"]["gamma"]["value"], 0.5)
        self.assertGreater(self.common["cooling_energy_j"]["total"]["supply_temp_min_c"]["value"], 0.01)

    def test_per_point_streams_put_the_draws_into_the_indices(self):
        wait = self.per_point["avg_wait_s"]
        self.assertGreater(wait["total"]["redline_c"]["value"] + wait["total"]["supply_temp_min_c"]["value"], 0.05)

    def test_the_noise_floor_is_reported_with_replicates(self):
        for metrics in (self.common, self.per_point):
            floor = metrics["avg_wait_s"]["noise_floor"]
            self.assertTrue(0 < floor < 1, floor)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
