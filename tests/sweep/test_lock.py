"""One run at a time per output (issue: a `--resume` started while the run was still going took
over its journal; two writers, and the first run died or both wrote the file). Rank 0 holds an
open-file-description lock on OUT.h5.lock for the whole run:
- a second command on the same output, --resume or not, is refused at once (exit 2, one line
  naming the holder's host and pid) and the first run's file is exact;
- after SIGKILL of a run, a resume proceeds at once (the kernel released the lock);
- --lock-wait-s waits for the holder to end instead of refusing."""
import os
import re
import socket
import sys
import tempfile
import time
import unittest

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_lock.py")
SPEC = os.path.join(ROOT, "tests/sweep/specs/resume.toml")


def start(args, ranks=None):
    return sweeplib.start(BINARY, args, ranks, cwd=ROOT)


def wait_for_journal(out, proc, records_bytes=1):
    deadline = time.time() + 60
    while not (os.path.exists(out + ".journal") and os.path.getsize(out + ".journal") > records_bytes):
        assert proc.poll() is None, "the first run ended before its journal had records"
        assert time.time() < deadline, "no journal"
        time.sleep(0.05)


class OneRunAtATime(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.reference = os.path.join(cls.tmp.name, "reference.h5")
        sweeplib.run(BINARY, ["run", SPEC, "-o", cls.reference, "--quiet"], 2, cwd=ROOT, check_code=0)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_second_command_during_a_run_is_refused_and_the_first_file_is_exact(self):
        out = os.path.join(self.tmp.name, "two.h5")
        first = start(["run", SPEC, "-o", out, "--quiet"])  # one process, a few seconds
        try:
            wait_for_journal(out, first, 20000)
            for extra in (["--resume"], []):
                with self.subTest(extra=extra):
                    proc = sweeplib.run(BINARY, ["run", SPEC, "-o", out] + extra, 2, cwd=ROOT, check_code=2)
                    lines = proc.stderr.strip().splitlines()
                    self.assertEqual(len(lines), 1, proc.stderr)
                    self.assertRegex(lines[0], rf"^dcsweep: error: {re.escape(out)}: another dcsweep run is using it "
                                               rf"\(host {re.escape(socket.gethostname())}, pid {first.pid}, since ")
            stdout, stderr = first.communicate(timeout=120)
        finally:
            if first.poll() is None:
                sweeplib.kill_job(first)
        self.assertEqual(first.returncode, 0, stderr)
        self.assertNotIn("recovered from the journal", stdout)
        self.assertEqual(sweeplib.differences(self.reference, out), [])
        self.assertFalse(os.path.exists(out + ".lock"))
        self.assertFalse(os.path.exists(out + ".journal"))

    def test_no_stale_lock_after_sigkill(self):
        out = os.path.join(self.tmp.name, "killed.h5")
        first = start(["run", SPEC, "-o", out, "--quiet"], 2)
        wait_for_journal(out, first, 20000)
        sweeplib.kill_job(first)  # every rank gone: the kernel has dropped the lock
        self.assertTrue(os.path.exists(out + ".lock"))  # the file stays, the lock does not
        began = time.time()
        proc = sweeplib.run(BINARY, ["run", SPEC, "-o", out, "--resume", "--quiet"], 2, cwd=ROOT, check_code=0)
        self.assertIn("recovered from the journal", proc.stdout)
        self.assertNotIn("waiting for", proc.stderr)
        self.assertLess(time.time() - began, 60)
        self.assertEqual(sweeplib.differences(self.reference, out), [])

    def test_lock_wait_waits_for_the_holder_to_end(self):
        out = os.path.join(self.tmp.name, "wait.h5")
        first = start(["run", SPEC, "-o", out, "--quiet"])
        try:
            wait_for_journal(out, first)
            proc = sweeplib.run(BINARY, ["run", SPEC, "-o", out, "--resume", "--lock-wait-s", "120"], 2, cwd=ROOT,
                                check_code=0)
            first.communicate(timeout=120)
        finally:
            if first.poll() is None:
                sweeplib.kill_job(first)
        self.assertEqual(first.returncode, 0)
        self.assertIn(f"dcsweep: waiting for {out}: another run holds it (host {socket.gethostname()}, pid {first.pid}",
                      proc.stderr)
        self.assertIn("is complete (80 points, 0 failed): nothing to resume", proc.stdout)
        self.assertEqual(sweeplib.differences(self.reference, out), [])

    def test_bad_lock_wait(self):
        proc = sweeplib.run(BINARY, ["run", SPEC, "-o", "x.h5", "--lock-wait-s", "nan"], None, check_code=2)
        self.assertIn("--lock-wait-s must be >= 0", proc.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
