"""Nothing is lost: a sweep killed with SIGKILL at random moments (the whole job, as a node failure
or a Slurm preemption would) is finished by `dcsweep run --resume` with a different rank count, each
resume killed again, and the final file equals an uninterrupted run's dataset by dataset. Points
already in the journal are not recomputed. Kill times are random; the seed is printed."""
import os
import random
import re
import sys
import tempfile
import time
import unittest

import h5py

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_resume.py")
SPEC = os.path.join(ROOT, "tests/sweep/specs/resume.toml")
SEED = int(os.environ.get("DCSWEEP_TEST_SEED", time.time_ns() % 100000))
POINTS = 80


def start(args, ranks):
    return sweeplib.start(BINARY, args, ranks, cwd=ROOT)


kill_after = sweeplib.kill_after


class KillAndResume(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        print(f"kill times from seed {SEED} (DCSWEEP_TEST_SEED={SEED} repeats them)", flush=True)
        cls.rng = random.Random(SEED)
        cls.tmp = tempfile.TemporaryDirectory()
        cls.reference = os.path.join(cls.tmp.name, "reference.h5")
        sweeplib.run(BINARY, ["run", SPEC, "-o", cls.reference, "--quiet"], 2, cwd=ROOT, check_code=0)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def resume_until_done(self, out, plan):
        """plan: (ranks, kill time or None) for each resume. Returns the stderr of the last."""
        for ranks, kill_at in plan:
            journal = out + ".journal"
            proc = start(["run", SPEC, "-o", out, "--resume"], ranks)
            if kill_at is None:
                stdout, stderr = proc.communicate(timeout=600)
                code = proc.returncode
            else:
                code, stdout, stderr = kill_after(proc, kill_at)
            if code is not None:  # ran to its end (before any kill)
                self.assertEqual(code, 0, stderr)
                self.check_not_recomputed(stdout, stderr)
                return stdout
            print(f"  resume on {ranks} ranks killed after {kill_at:.2f} s "
                  f"({'journal' if os.path.exists(journal) else 'no journal'})", flush=True)
        self.fail("plan ended without an uninterrupted resume")

    def check_not_recomputed(self, stdout, stderr):
        """The resumed run computed only the points the journal did not hold."""
        recovered = re.search(r"resuming .*: (\d+) of (\d+) points already done", stderr)
        if recovered is None:  # killed before the journal existed, or after the file was complete
            self.assertTrue("nothing to resume" in stdout or "recovered" not in stdout, stdout + stderr)
            return
        done = int(recovered.group(1))
        self.assertEqual(int(recovered.group(2)), POINTS)
        if done < POINTS:
            computed = re.findall(r"(\d+)/(\d+) points", stderr)
            self.assertTrue(computed, stderr)
            self.assertEqual(computed[-1], (str(POINTS - done), str(POINTS - done)), stderr)
        if done > 0:
            self.assertIn(f"({done} recovered from the journal)", stdout)

    def test_kill_and_resume(self):
        for trial, (first_ranks, resumes) in enumerate([(2, [3, 1]), (3, [2, 2]), (1, [7, 2]), (2, [2, 3])]):
            with self.subTest(trial=trial):
                out = os.path.join(self.tmp.name, f"trial-{trial}.h5")
                first_kill = self.rng.uniform(0.3, 2.0)
                proc = start(["run", SPEC, "-o", out], first_ranks)
                code, _, stderr = kill_after(proc, first_kill)
                print(f"trial {trial}: run on {first_ranks} ranks killed after {first_kill:.2f} s"
                      + (" (it had finished)" if code is not None else ""), flush=True)
                plan = [(resumes[0], self.rng.uniform(0.3, 1.5)), (resumes[1], None)]
                self.resume_until_done(out, plan)
                self.assertFalse(os.path.exists(out + ".journal"), "the journal outlived the finished file")
                self.assertEqual(sweeplib.differences(self.reference, out), [])
                with h5py.File(out, "r") as f:
                    self.assertTrue((f["points/status"][()] == 1).all())

    def test_torn_journal_tail(self):
        """A record cut in the middle (kill during a write) is dropped and its point recomputed."""
        out = os.path.join(self.tmp.name, "torn.h5")
        proc = start(["run", SPEC, "-o", out, "--quiet"], 2)
        kill_after(proc, 1.5)
        journal = out + ".journal"
        if not os.path.exists(journal):
            self.skipTest("the run finished before the kill")
        size = os.path.getsize(journal)
        with open(journal, "r+b") as f:
            f.truncate(size - 7)
        self.resume_until_done(out, [(2, None)])
        self.assertEqual(sweeplib.differences(self.reference, out), [])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
