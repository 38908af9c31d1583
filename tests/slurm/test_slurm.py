"""The sweep job scripts on a real Slurm cluster (one node, started here by local_cluster.sh):
jobs/sweep.sbatch on 2 tasks writes the same file as a direct mpirun; a running sweep job that is
requeued (`scontrol requeue`, released at once with StartTime=now) while another process still
holds the output's lock waits for it, then resumes from its journal and completes the file correctly. Every daemon and job this test starts is stopped by it."""
import fcntl
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sweep"))
import sweeplib  # noqa: E402

BINARY, ROOT = sweeplib.main_args("test_slurm.py")
CLUSTER = os.path.join(ROOT, "tests/slurm/local_cluster.sh")
SBATCH = os.path.join(ROOT, "jobs/sweep.sbatch")


class Slurm(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.state = os.path.join(cls.tmp.name, "cluster")
        cls.env = dict(sweeplib.MPI_ENV, DCSWEEP=BINARY)
        try:
            conf = subprocess.run(["bash", CLUSTER, "start", cls.state], check=True, capture_output=True,
                                  text=True, timeout=120).stdout.strip()
        except subprocess.CalledProcessError as e:
            subprocess.run(["bash", CLUSTER, "stop", cls.state])
            raise AssertionError(f"the local Slurm cluster did not start:\n{e.stdout}\n{e.stderr}")
        cls.env["SLURM_CONF"] = conf

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["scancel", "--user=root"], env=cls.env, capture_output=True)
        for _ in range(100):  # let the job steps end before the daemons go
            if not subprocess.run(["squeue", "-h"], env=cls.env, capture_output=True, text=True).stdout.strip():
                break
            time.sleep(0.2)
        subprocess.run(["bash", CLUSTER, "stop", cls.state])
        cls.tmp.cleanup()

    def slurm(self, *args):
        # From the repository root: the specs' trace paths are relative to it, as a user's are to
        # the folder they submit from.
        return subprocess.run(list(args), env=self.env, cwd=ROOT, capture_output=True, text=True, check=True,
                              timeout=60).stdout.strip()

    def state_of(self, job):
        info = self.slurm("scontrol", "show", "job", job)
        return re.search(r"JobState=(\w+)", info).group(1)

    def log_of(self, job):
        info = self.slurm("scontrol", "show", "job", job)
        path = re.search(r"StdOut=(\S+)", info).group(1)
        with open(path) as f:
            return f.read()

    def wait_for(self, job, states, timeout=180):
        deadline = time.time() + timeout
        while time.time() < deadline:
            state = self.state_of(job)
            if state in states:
                return state
            if state in ("FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL") and state not in states:
                self.fail(f"job {job} ended {state}:\n{self.log_of(job)}")
            time.sleep(0.2)
        self.fail(f"job {job} not in {states} after {timeout} s (now {self.state_of(job)})")

    def submit(self, spec, out, log):
        return self.slurm("sbatch", "--parsable", "--ntasks=2", f"--output={log}", SBATCH, spec, out)

    def reference(self, spec, name):
        path = os.path.join(self.tmp.name, name)
        sweeplib.run(BINARY, ["run", spec, "-o", path, "--quiet"], 2, cwd=ROOT, check_code=0)
        return path

    def test_sweep_job_on_two_tasks(self):
        spec = os.path.join(ROOT, "tests/sweep/specs/resume.toml")
        out, log = os.path.join(self.tmp.name, "job.h5"), os.path.join(self.tmp.name, "job.log")
        job = self.submit(spec, out, log)
        self.wait_for(job, ("COMPLETED",))
        with open(log) as f:
            text = f.read()
        self.assertIn(f"dcsweep: wrote {out}", text)
        self.assertIn("80 points: 80 ok, 0 failed; 2 ranks", text)
        self.assertEqual(sweeplib.differences(self.reference(spec, "reference.h5"), out), [])

    def test_requeued_job_resumes_and_completes_the_file(self):
        spec = os.path.join(ROOT, "tests/sweep/specs/long.toml")
        out, log = os.path.join(self.tmp.name, "requeue.h5"), os.path.join(self.tmp.name, "requeue.log")
        journal = out + ".journal"
        job = self.submit(spec, out, log)
        self.wait_for(job, ("RUNNING",))
        deadline = time.time() + 60
        while not (os.path.exists(journal) and os.path.getsize(journal) > 20000):  # some points journaled
            self.assertLess(time.time(), deadline, "no journal records")
            self.assertEqual(self.state_of(job), "RUNNING", self.log_of(job))
            time.sleep(0.1)
        self.slurm("scontrol", "requeue", job)
        self.wait_for(job, ("PENDING", "REQUEUED", "REQUEUE_HOLD"), timeout=60)
        # The first incarnation "still ending": a process of ours holds the output's lock (a POSIX
        # record lock conflicts with dcsweep's open-file-description lock), so the restarted job
        # must wait for it, then resume.
        with open(out + ".lock", "a+") as held:
            fcntl.lockf(held, fcntl.LOCK_EX)  # blocks until the killed first incarnation released it
            held.truncate(0)
            held.write(f"host {socket.gethostname()}, pid {os.getpid()}, since the test\n")
            held.flush()
            self.slurm("scontrol", "update", f"JobId={job}", "StartTime=now")
            self.wait_for(job, ("RUNNING",))
            deadline = time.time() + 60
            while "waiting for" not in self.log_of(job):
                self.assertLess(time.time(), deadline, self.log_of(job))
                self.assertEqual(self.state_of(job), "RUNNING", self.log_of(job))
                time.sleep(0.2)
            time.sleep(1)
            self.assertEqual(self.state_of(job), "RUNNING")  # still waiting, not failed
        self.wait_for(job, ("COMPLETED",))
        with open(log) as f:
            text = f.read()
        self.assertIn(f"dcsweep: waiting for {out}: another run holds it (host {socket.gethostname()}, "
                      f"pid {os.getpid()}", text)
        self.assertIn("(restart 1)", text)
        resumed = re.search(r"resuming .*: (\d+) of 320 points already done", text)
        self.assertIsNotNone(resumed, text)
        done = int(resumed.group(1))
        self.assertGreater(done, 0)
        self.assertIn(f"({done} recovered from the journal)", text)
        self.assertFalse(os.path.exists(journal))
        self.assertEqual(sweeplib.differences(self.reference(spec, "long-reference.h5"), out), [])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
