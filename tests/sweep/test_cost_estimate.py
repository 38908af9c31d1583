"""The cost estimate holds where a policy's cost grows with the queue (issue 28, item 3): a reduced
PARM grid on a busy 128-node room (the shipped parm-busy128.toml's setting, fewer points), run on
2 ranks; `/points/cost_estimate_s` summed over the grid is within a wide margin of `/points/wall_s`
summed (a ratio, not a timed test: the estimate was calibrated on this kind of machine, and the
margin leaves room for a slower or busier one). Also: every PARM point reports its decisions, the
unproven ones among them, and a gap in [0, 1)."""
import os
import sys
import tempfile
import unittest

import h5py
import numpy as np

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_cost_estimate.py")

SPEC = """
[sweep]
name = "parm-cost"
seed = 28

[base]
platform = "room"
room_rows = 2
room_racks_per_row = 4
room_nodes_per_rack = 16
trace = "inputs/traces/KTH-SP2-1996-2.1-cln.swf"
jobs = 200
scale_to_platform = true
scheduler = "parm"
runtime_model = "pass"
node_power = "parm"
power_budget_w = 12544

[axes]
parm_scheme = ["wse", "nomm", "baseline"]
gamma = [0.8, 0.2]
first_job = [1000, 20000, 25000]
"""


class CostEstimate(unittest.TestCase):
    def test_parm_grid_estimate_within_a_wide_margin_of_its_time(self):
        with tempfile.TemporaryDirectory() as tmp:
            spec, out = os.path.join(tmp, "parm.toml"), os.path.join(tmp, "parm.h5")
            with open(spec, "w") as f:
                f.write(SPEC)
            sweeplib.run(BINARY, ["run", spec, "-o", out, "--quiet"], 2, cwd=ROOT, check_code=0)
            with h5py.File(out, "r") as f:
                estimate = f["points/cost_estimate_s"][:]
                wall = f["points/wall_s"][:]
                decisions = f["parm_decisions"][:].reshape(-1)
                unproven = f["parm_decisions_unproven"][:].reshape(-1)
                gap = f["parm_max_gap"][:].reshape(-1)
        ratio = estimate.sum() / wall.sum()
        self.assertTrue(1 / 5 < ratio < 5, f"estimate {estimate.sum():.2f} s against {wall.sum():.2f} s measured")
        ilp = ~np.isnan(decisions)  # baseline points run EASY: no decisions
        self.assertEqual(ilp.sum(), 12)
        self.assertTrue((decisions[ilp] >= 2 * 190).all())  # an arrival and an end per job at least
        self.assertTrue((unproven[ilp] <= decisions[ilp]).all())
        self.assertTrue(((gap[ilp] >= 0) & (gap[ilp] < 1)).all())
        self.assertTrue(np.isnan(decisions[~ilp]).all())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
