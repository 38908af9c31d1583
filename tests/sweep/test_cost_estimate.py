"""The cost estimate holds where a policy's cost grows with the queue (issue 28, item 3) and where
the allocator's does with the machine (issue 29, item 4). A reduced
PARM grid on a busy 128-node room (the shipped parm-busy128.toml's setting, fewer points), run on
2 ranks; `/points/cost_estimate_s` summed over the grid is within a wide margin of `/points/wall_s`
summed (a ratio, not a timed test: the estimate was calibrated on this kind of machine, and the
margin leaves room for a slower or busier one). Then every allocator with a cost of its own on
oxley1080 (CEA-Curie's jobs from 10,500 scaled, as in docs/performance.md's table): each point's estimate
within 5 x of its time where the estimate is over 0.04 s (five of seven), the grid's within 3 x. Then [P0]'s setting
(rcb task mapping, meng_relative, exact bqp on meng40), once estimated at nothing: within 3 x. And
[P3]'s rate-based points on oxley1080 at budgets from just over the idle room to ample: within 3 x.
And a thermostat CRAC's points with sp_eir on a 360-zone room, nodes kept on and switched off. Also:
every PARM point reports its decisions, the unproven ones among them, and a gap in [0, 1)."""
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


def run_on_two_ranks(spec_text, datasets):
    """Runs the spec on 2 ranks; the named datasets of its result file, flattened."""
    with tempfile.TemporaryDirectory() as tmp:
        spec, out = os.path.join(tmp, "spec.toml"), os.path.join(tmp, "out.h5")
        with open(spec, "w") as f:
            f.write(spec_text)
        sweeplib.run(BINARY, ["run", spec, "-o", out, "--quiet"], 2, cwd=ROOT, check_code=0)
        with h5py.File(out, "r") as f:
            return [f[name][:].reshape(-1) for name in datasets]


class CostEstimate(unittest.TestCase):
    def test_parm_grid_estimate_within_a_wide_margin_of_its_time(self):
        estimate, wall, decisions, unproven, gap = run_on_two_ranks(
            SPEC, ["points/cost_estimate_s", "points/wall_s", "parm_decisions", "parm_decisions_unproven", "parm_max_gap"])
        ratio = estimate.sum() / wall.sum()
        self.assertTrue(1 / 5 < ratio < 5, f"estimate {estimate.sum():.2f} s against {wall.sum():.2f} s measured")
        ilp = ~np.isnan(decisions)  # baseline points run EASY: no decisions
        self.assertEqual(ilp.sum(), 12)
        self.assertTrue((decisions[ilp] >= 2 * 190).all())  # an arrival and an end per job at least
        self.assertTrue((unproven[ilp] <= decisions[ilp]).all())
        self.assertTrue(((gap[ilp] >= 0) & (gap[ilp] < 1)).all())
        self.assertTrue(np.isnan(decisions[~ilp]).all())

    def test_allocator_grid_estimate_within_a_wide_margin_of_its_time(self):
        estimate, wall, status = run_on_two_ranks(
            ALLOCATOR_SPEC, ["points/cost_estimate_s", "points/wall_s", "points/status"])
        self.assertTrue((status == 1).all())  # ok
        ratio = estimate.sum() / wall.sum()
        self.assertTrue(1 / 3 < ratio < 3, f"estimate {estimate.sum():.2f} s against {wall.sum():.2f} s measured")
        # The points checked one by one are chosen by their estimate, which is the same on every
        # machine, not by their time: mm, genalg, bqp, mpit and joint (estimated 0.07-0.31 s, measured
        # 0.06-0.39 s here); mc1x1 and mtdp (~0.01-0.02 s) are left to the grid's sum, as timer and
        # process noise are of their size. Chosen by time, a faster machine once left 4 of 5.
        slow = estimate > 0.04  # mm, genalg, bqp, mpit, joint (genalg 0.045 s since December 2's kept scores)
        self.assertEqual(slow.sum(), 5, f"estimates {np.round(estimate, 3)}")
        for e, w in zip(estimate[slow], wall[slow]):
            self.assertTrue(1 / 5 < e / w < 5, f"a point estimated {e:.3f} s took {w:.3f} s")

    def test_mtdp_on_quiet_and_busy_stretches_estimate_within_a_wide_margin_of_its_time(self):
        # mtdp's greedy runs only where a job finds more idle nodes on than it takes, which a busy
        # stretch of the trace brings (records 150,000 on: offered load 0.69): priced by k x zones
        # alone, fitted on the quiet first records (load 0.045), such a point was estimated at a
        # tenth to a fiftieth of its time.
        estimate, wall, status = run_on_two_ranks(MTDP_SPEC, ["points/cost_estimate_s", "points/wall_s", "points/status"])
        self.assertTrue((status == 1).all())  # ok
        ratio = estimate.sum() / wall.sum()
        self.assertTrue(1 / 3 < ratio < 3, f"estimate {estimate.sum():.3f} s against {wall.sum():.3f} s measured")
        self.assertGreater(estimate[1], 0.1, f"estimates {np.round(estimate, 3)}")  # the busy stretch
        self.assertTrue(1 / 4 < estimate[1] / wall[1] < 4, f"estimated {estimate[1]:.3f} s, took {wall[1]:.3f} s")

    def test_task_mapping_and_exact_bqp_grid_estimate_within_a_wide_margin_of_its_time(self):
        # [P0]'s setting (meng-p0-dynamic.toml): rcb maps every job and meng_relative the best
        # allocation of each size and pattern; bqp's exact search costs most on hops alone (beta 0).
        # Both were once priced at nothing: this grid 0.001 s estimated for 5.3 s.
        estimate, wall, status = run_on_two_ranks(MAPPING_SPEC, ["points/cost_estimate_s", "points/wall_s", "points/status"])
        self.assertTrue((status == 1).all())  # ok
        ratio = estimate.sum() / wall.sum()
        self.assertTrue(1 / 3 < ratio < 3, f"estimate {estimate.sum():.3f} s against {wall.sum():.3f} s measured")

    def test_ratebased_grid_across_budgets_estimate_within_a_wide_margin_of_its_time(self):
        # [P3]'s rate-based points: the bound's LPs cost 0.3 s a point just over the idle room's
        # power (80 kW on oxley1080), 5-9 s at 90 kW and 0.4 s where the budget is ample (300 kW;
        # up to 90 s in between, not run here). Priced alike, this grid was estimated at 4.4 x its time.
        estimate, wall, status, feasible = run_on_two_ranks(
            RATEBASED_SPEC, ["points/cost_estimate_s", "points/wall_s", "points/status", "feasible"])
        self.assertTrue((status == 1).all())  # ok
        self.assertEqual(feasible[0], 0.0)  # 80 kW at a 24 C redline: the idle room already breaks it
        self.assertTrue((feasible[3:] == 1.0).all())
        ratio = estimate.sum() / wall.sum()
        self.assertTrue(1 / 3 < ratio < 3, f"estimate {estimate.sum():.2f} s against {wall.sum():.2f} s measured")

    def test_thermostat_grid_with_sp_eir_estimate_within_a_wide_margin_of_its_time(self):
        # A thermostat CRAC on a room with D reports sp_eir: with every node on, its LPs are solved
        # count after count, each warm from the last (a few ms each on 360 zones); with idle nodes
        # switched off, one per (busy, on) pair by row generation (under 1 ms each here; 15 ms from
        # scratch before). Before the chain, and with the LP's matrix built column by column,
        # oxley1080's points took hours.
        estimate, wall, status, sp_eir = run_on_two_ranks(
            THERMOSTAT_SPEC, ["points/cost_estimate_s", "points/wall_s", "points/status", "sp_eir"])
        self.assertTrue((status == 1).all())  # ok
        # (a fixed setting can let the room run hotter than any placement under the redline would:
        # below 1; Eq. 6's highest setting cannot)
        self.assertTrue(np.isfinite(sp_eir).all() and (sp_eir[1::2] >= 1).all() and (sp_eir < 1.5).all(), f"sp_eir {sp_eir}")
        ratio = estimate.sum() / wall.sum()
        self.assertTrue(1 / 3 < ratio < 3, f"estimate {estimate.sum():.2f} s against {wall.sum():.2f} s measured")
        slow = estimate > 0.05  # as in the allocator grid (all four here: 0.7-7 s)
        self.assertEqual(slow.sum(), 4, f"estimates {np.round(estimate, 3)}")
        for e, w in zip(estimate[slow], wall[slow]):
            self.assertTrue(1 / 5 < e / w < 5, f"a point estimated {e:.3f} s took {w:.3f} s")


THERMOSTAT_SPEC = """
[sweep]
name = "thermostat-cost"
seed = 29

[base]
platform = "room"
room_rows = 2
room_racks_per_row = 5
room_nodes_per_rack = 36
trace = "inputs/traces/CEA-Curie-2011-2.1-cln.swf.gz"
jobs = 600
scale_to_platform = true
allocator = "first_fit"
cooling = "thermostat"

[axes]
idle_nodes_off = [false, true]
thermostat_setting = ["fixed", "highest"]
"""

RATEBASED_SPEC = """
[sweep]
name = "ratebased-cost"
seed = 2017

[base]
model = "ratebased"
platform = "oxley1080"
ratebased_workload = "hybrid"
ratebased_technique = "greedy"

[axes]
facility_power_budget_w = [80000.0, 90000.0, 300000.0]
redline_c = [24.0, 27.0, 32.0]
"""


MAPPING_SPEC = """
[sweep]
name = "mapping-cost"
seed = 2016
replicates = 4

[base]
platform = "meng40"
workload = "poisson"
poisson_rate_per_h = 20
poisson_jobs = 40
poisson_min_nodes = 1
poisson_max_nodes = 16
node_power = "meng_p0"
comm_pattern = "mixed"
task_mapping = "rcb"
runtime_model = "meng_relative"
scheduler = "fcfs"
allocator = "bqp"
alpha = 1.0

[axes]
beta = [0.0, 0.5]
"""


ALLOCATOR_SPEC = """
[sweep]
name = "alloc-cost"
seed = 29

[base]
platform = "oxley1080"
trace = "inputs/traces/CEA-Curie-2011-2.1-cln.swf.gz"
jobs = 1000
scale_to_platform = true

[axes]
allocator = ["mc1x1", "mm", "genalg", "bqp", "mpit", "joint", "mtdp"]
"""

MTDP_SPEC = """
[sweep]
name = "mtdp-cost"
seed = 29

[base]
platform = "oxley1080"
trace = "inputs/traces/CEA-Curie-2011-2.1-cln.swf.gz"
jobs = 2000
scale_to_platform = true
allocator = "mtdp"

[axes]
first_job = [0, 610312]
"""


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
