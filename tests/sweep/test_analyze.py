"""`dcsweep analyze` end to end (issue 13): on small sobol, morris, lhs and grid sweeps of the
simulator, its indices equal an independent NumPy computation from the result file (the
estimators' own accuracy is tested in C++ against analytic answers); failed points are reported
and excluded; bad input is one error line and exit code 2."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_analyze.py")
SOBOL_SPEC = os.path.join(ROOT, "tests/sweep/specs/sobol.toml")

BASE = """
[sweep]
name = "analyze"
seed = 5
replicates = {replicates}

[design]
{design}

[base]
platform = "meng40"
trace = "inputs/traces/KTH-SP2-1996-2.1-cln.swf"
jobs = 400
scale_to_platform = true
series_interval_s = 0

[axes]
{axes}
"""
FACTORS = 'gamma = { min = 0.5, max = 1.0 }\nredline_c = { min = 22, max = 30 }\nallocator = ["first_fit", "random"]'


def analyze(path, *extra, code=0):
    proc = subprocess.run([BINARY, "analyze", path] + list(extra), cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != code:
        raise AssertionError(f"analyze {path} {extra}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


def ranks(x):
    order = np.argsort(x, kind="stable")
    r = np.empty(len(x))
    r[order] = np.arange(1, len(x) + 1)
    for v in np.unique(x):  # ties share their mean rank
        r[x == v] = r[x == v].mean()
    return r


class Analyze(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.files = {}
        designs = {
            "morris": ('kind = "morris"\ntrajectories = 12\nlevels = 4', FACTORS, 1),
            "lhs": ('kind = "lhs"\nsamples = 30', FACTORS, 1),
            "grid": ('kind = "grid"', 'gamma = [0.5, 0.75, 1.0]\nallocator = ["first_fit", "random"]', 2),
        }
        for name, (design, axes, replicates) in designs.items():
            spec = os.path.join(cls.tmp.name, f"{name}.toml")
            with open(spec, "w") as f:
                f.write(BASE.format(design=design, axes=axes, replicates=replicates))
            cls.files[name] = os.path.join(cls.tmp.name, f"{name}.h5")
            sweeplib.run(BINARY, ["run", spec, "-o", cls.files[name], "--quiet"], 2, cwd=ROOT, check_code=0)
        cls.files["sobol"] = os.path.join(cls.tmp.name, "sobol.h5")  # with failing points: exit 1
        sweeplib.run(BINARY, ["run", SOBOL_SPEC, "-o", cls.files["sobol"], "--quiet"], 2, cwd=ROOT, check_code=1)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_sobol_matches_numpy_and_excludes_failed_rows(self):
        out = json.loads(analyze(self.files["sobol"], "--json", "--metric", "avg_wait_s").stdout)
        with h5py.File(self.files["sobol"], "r") as f:
            status = f["points/status"][()].reshape(-1, 2)
            values = np.where(status == 1, f["avg_wait_s"][()], np.nan)
        with np.errstate(invalid="ignore"):  # (a sample whose replicates all failed is NaN)
            y = np.nansum(values, axis=1) / np.isfinite(values).sum(axis=1)  # replicates averaged
        self.assertEqual(out["design"]["failed"], int((status == 2).sum()))
        n, k = 8, 3
        blocks = y.reshape(n, k + 2)
        present = y[np.isfinite(y)]
        z = (blocks - present.mean()) / present.std()
        a, b = z[:, 0], z[:, k + 1]
        m = out["metrics"]["avg_wait_s"]
        for i, name in enumerate(["gamma", "redline_c", "allocator"]):
            ab = z[:, 1 + i]
            ok = np.isfinite(a) & np.isfinite(b) & np.isfinite(ab)
            self.assertEqual(m["rows_used"][name], int(ok.sum()))
            both = np.concatenate([a[np.isfinite(a)], b[np.isfinite(b)]])
            v = both.var()
            first = np.mean(b[ok] * (ab[ok] - a[ok])) / v
            total = 0.5 * np.mean((a[ok] - ab[ok]) ** 2) / v
            self.assertAlmostEqual(m["first_order"][name]["value"], first, places=9)
            self.assertAlmostEqual(m["total"][name]["value"], total, places=9)
            self.assertLessEqual(m["total"][name]["low"], m["total"][name]["high"])
        self.assertLess(min(m["rows_used"].values()), n, "the spec's failures cost some base rows")
        table = analyze(self.files["sobol"], "--metric", "avg_wait_s").stdout
        self.assertIn(f"{out['design']['failed']} failed", table)
        self.assertIn("a base row counts for a factor only when its A, B and AB_i points have values", table)

    def test_morris_matches_numpy(self):
        out = json.loads(analyze(self.files["morris"], "--json").stdout)
        with h5py.File(self.files["morris"], "r") as f:
            u = f["unit_coordinates"][()]
            y = f["avg_wait_s"][()][:, 0]
        k = 3
        effects = {i: [] for i in range(k)}
        for t in range(12):
            for s in range(k):
                row = t * (k + 1) + s
                step = u[row + 1] - u[row]
                i = int(np.argmax(np.abs(step)))
                effects[i].append((y[row + 1] - y[row]) / step[i])
        m = out["metrics"]["avg_wait_s"]
        for i, name in enumerate(["gamma", "redline_c", "allocator"]):
            ee = np.array(effects[i])
            self.assertAlmostEqual(m["mu"][name], ee.mean(), delta=1e-9 * max(1, abs(ee.mean())))
            self.assertAlmostEqual(m["mu_star"][name]["value"], np.abs(ee).mean(), delta=1e-9 * max(1, np.abs(ee).mean()))
            self.assertAlmostEqual(m["sigma"][name], ee.std(ddof=1), delta=1e-9 * max(1, ee.std()))
            self.assertEqual(m["effects"][name], 12)
        self.assertEqual(m["mu_star"]["redline_c"]["value"], 0.0)  # the redline does not change waits
        self.assertGreater(m["mu_star"]["gamma"]["value"], 0.0)

    def test_lhs_rank_correlations_match_numpy(self):
        out = json.loads(analyze(self.files["lhs"], "--json", "--metric", "avg_wait_s").stdout)
        with h5py.File(self.files["lhs"], "r") as f:
            gamma = f["gamma"][()]
            y = f["avg_wait_s"][()][:, 0]
        rho = np.corrcoef(ranks(gamma), ranks(y))[0, 1]
        self.assertAlmostEqual(out["metrics"]["avg_wait_s"]["rank_correlation"]["gamma"], rho, places=9)
        self.assertLess(rho, -0.5)  # compressed arrivals (small gamma) wait longer

    def test_grid_main_effects_match_numpy(self):
        out = json.loads(analyze(self.files["grid"], "--json", "--metric", "cooling_energy_j").stdout)
        with h5py.File(self.files["grid"], "r") as f:
            y = f["cooling_energy_j"][()]  # gamma x allocator x replicate
        var = y.var()
        shares = {"gamma": y.mean(axis=(1, 2)).var() / var, "allocator": y.mean(axis=(0, 2)).var() / var}
        m = out["metrics"]["cooling_energy_j"]
        self.assertEqual(out["design"]["kind"], "grid")
        for name, share in shares.items():
            self.assertAlmostEqual(m["main_effect"][name], share, places=9)
        table = analyze(self.files["grid"]).stdout
        self.assertIn("share of the variance explained by each axis alone", table)

    def test_default_analyses_every_metric_and_says_which_have_no_indices(self):
        table = analyze(self.files["grid"]).stdout
        self.assertIn("cooling_energy_j [J]:", table)
        self.assertIn("the same at every point (no indices):", table)
        self.assertIn("jobs_rejected_no_size", table.split("the same at every point")[1])

    def test_reproducible_whatever_else_is_asked(self):
        for design in ("sobol", "morris"):
            with self.subTest(design=design):
                alone = json.loads(analyze(self.files[design], "--json", "--metric", "cooling_energy_j").stdout)
                again = json.loads(analyze(self.files[design], "--json", "--metric", "cooling_energy_j").stdout)
                every = json.loads(analyze(self.files[design], "--json").stdout)
                self.assertEqual(alone["metrics"]["cooling_energy_j"], again["metrics"]["cooling_energy_j"])
                one, all_ = alone["metrics"]["cooling_energy_j"], every["metrics"]["cooling_energy_j"]
                key = "total" if design == "sobol" else "mu_star"
                for factor, estimate in one[key].items():
                    for bound in ("value", "low", "high"):
                        self.assertAlmostEqual(estimate[bound], all_[key][factor][bound], places=9)

    def test_bad_input_is_one_line_and_exit_2(self):
        cases = [
            (["--metric", "cooling_energy"], "has no metric 'cooling_energy' (did you mean 'cooling_energy_j'?)"),
            (["--confidence", "1.5"], "--confidence must be in (0, 1)"),
        ]
        for extra, message in cases:
            with self.subTest(extra=extra):
                proc = analyze(self.files["sobol"], *extra, code=2)
                self.assertEqual(proc.stderr.count("\n"), 1, proc.stderr)
                self.assertIn(message, proc.stderr)
        missing = analyze(os.path.join(self.tmp.name, "nope.h5"), code=2)
        self.assertEqual(missing.stderr.count("\n"), 1, missing.stderr)
        self.assertTrue(missing.stderr.startswith("dcsweep: error: analyze: "), missing.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
