"""A time limit per point (issue 28): `[sweep] point_time_limit_s`. On 2 ranks, a grid of PARM
points on a busy 128-node room where one point (wse at gamma 0.2) takes seconds and the others a
fraction of one: with a 1 s limit that point stops, is recorded as failed with "time limit of 1 s
reached at simulated time T", and the others are saved as a run without the limit saves them.
`--resume` keeps the failed point failed; `--resume --retry-failed` with the limit lifted computes
it (and nothing else) again, from a finished file or from the journal of a retry killed midway;
`analyze` counts failed points."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

import h5py
import numpy as np

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_time_limit.py")

SPEC = """
[sweep]
name = "time-limit"
seed = 28
point_time_limit_s = {limit}

[base]
platform = "room"
room_rows = 2
room_racks_per_row = 4
room_nodes_per_rack = 16
trace = "{root}/inputs/traces/KTH-SP2-1996-2.1-cln.swf"
jobs = 200
first_job = 5000
scale_to_platform = true
scheduler = "parm"
runtime_model = "pass"
node_power = "parm"
power_budget_w = 12544
series_interval_s = 3600

[axes]
parm_scheme = ["nomm", "wse"]
gamma = [0.8, 0.2]
"""
SLOW = 3  # wse, gamma 0.2: several seconds alone


def write(path, limit):
    with open(path, "w") as f:
        f.write(SPEC.format(limit=limit, root=ROOT))


def points(path):
    with h5py.File(path, "r") as f:
        status = f["points/status"][:]
        errors = [e.tobytes().split(b"\0")[0].decode() if hasattr(e, "tobytes") else e for e in f["points/error"][:]]
        metrics = {k: f[k][:].reshape(-1) for k in ("avg_wait_s", "makespan_s", "parm_decisions", "utilization")}
    return status, errors, metrics


class PointTimeLimit(unittest.TestCase):
    def test_a_slow_point_fails_alone_and_is_retried_on_request(self):
        with tempfile.TemporaryDirectory() as tmp:
            spec, out, ref = os.path.join(tmp, "s.toml"), os.path.join(tmp, "out.h5"), os.path.join(tmp, "ref.h5")
            write(spec, 0)
            sweeplib.run(BINARY, ["run", spec, "-o", ref, "--quiet"], 2, check_code=0)
            write(spec, 1)
            proc = sweeplib.run(BINARY, ["run", spec, "-o", out, "--quiet"], 2, check_code=1)
            self.assertIn("1 of 4 points failed", proc.stderr)
            status, errors, metrics = points(out)
            self.assertEqual(list(status), [1, 1, 1, 2])
            self.assertRegex(errors[SLOW], r"^time limit of 1 s reached at simulated time \d+(\.\d+)?$")
            _, _, reference = points(ref)
            for name, values in metrics.items():
                np.testing.assert_array_equal(values[:SLOW], reference[name][:SLOW], err_msg=name)
                self.assertTrue(np.isnan(values[SLOW]), name)
            text = subprocess.run([BINARY, "analyze", out, "--json", "--metric", "avg_wait_s"], capture_output=True,
                                  text=True, check=True).stdout
            self.assertEqual(json.loads(text)["design"]["failed"], 1)

            # --resume keeps it failed: nothing runs, the file is as it was
            proc = sweeplib.run(BINARY, ["run", spec, "-o", out, "--resume"], 2, check_code=1)
            self.assertIn("is complete (4 points, 1 failed): nothing to resume", proc.stdout)
            self.assertEqual(list(points(out)[0]), [1, 1, 1, 2])

            # --retry-failed computes it again, with the limit lifted; the others stay as they were
            write(spec, 0)
            sweeplib.run(BINARY, ["run", spec, "-o", out, "--resume", "--retry-failed", "--quiet"], 2, check_code=0)
            status, errors, metrics = points(out)
            self.assertEqual(list(status), [1, 1, 1, 1])
            self.assertEqual(errors[SLOW], "")
            for name, values in metrics.items():
                np.testing.assert_array_equal(values, reference[name], err_msg=name)
            self.assertFalse(os.path.exists(out + ".journal"))

    def test_a_retry_killed_midway_resumes_from_its_journal(self):
        with tempfile.TemporaryDirectory() as tmp:
            spec, out = os.path.join(tmp, "s.toml"), os.path.join(tmp, "out.h5")
            write(spec, 1)
            sweeplib.run(BINARY, ["run", spec, "-o", out, "--quiet"], 2, check_code=1)
            write(spec, 0)
            self.start_retry_and_kill_it(spec, out)
            # from the journal, a plain resume keeps the failed point failed...
            sweeplib.run(BINARY, ["run", spec, "-o", out, "--resume", "--quiet"], 2, check_code=1)
            status, errors, _ = points(out)
            self.assertEqual(list(status), [1, 1, 1, 2])
            self.assertRegex(errors[SLOW], r"^time limit of 1 s reached")
            # ...and --retry-failed computes it
            self.start_retry_and_kill_it(spec, out)
            sweeplib.run(BINARY, ["run", spec, "-o", out, "--resume", "--retry-failed", "--quiet"], 2, check_code=0)
            self.assertEqual(list(points(out)[0]), [1, 1, 1, 1])

    def start_retry_and_kill_it(self, spec, out):
        """A --retry-failed run of a finished file, killed while it computes the slow point."""
        proc = sweeplib.start(BINARY, ["run", spec, "-o", out, "--resume", "--retry-failed", "--quiet"], 2)
        deadline = time.time() + 60
        while not os.path.exists(out + ".journal"):  # the finished points, journaled first
            self.assertLess(time.time(), deadline, "no journal")
            time.sleep(0.02)
        time.sleep(0.3)  # the slow point takes seconds without its limit
        sweeplib.kill_job(proc)
        self.assertTrue(os.path.exists(out + ".journal"))

    def test_bad_settings_are_one_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            spec = os.path.join(tmp, "s.toml")
            write(spec, -1)
            proc = subprocess.run([BINARY, "validate", spec], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 2)
            self.assertRegex(proc.stderr, r"^dcsweep: error: .*s\.toml:5: \[sweep\] point_time_limit_s: expected a number "
                                          r"of seconds >= 0 \(0: no limit\)\n$")
            write(spec, 1)
            proc = subprocess.run([BINARY, "run", spec, "-o", os.path.join(tmp, "o.h5"), "--retry-failed"],
                                  capture_output=True, text=True)
            self.assertEqual(proc.returncode, 2)
            self.assertEqual(proc.stderr.count("\n"), 1, proc.stderr)
            self.assertIn("--retry-failed goes with --resume", proc.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
