"""Golden results: `make BINARY OUT.json` records what BINARY gives for every case of cases.txt
(metrics, and a SHA-256 of the --jobs-out file's seven fixed columns); `check BINARY GOLDEN.json`
runs the cases again and reports every metric or schedule that is not bit-identical.

before_policy_interface.json was made by the binary of commit 9b92417, before the policy
interface (issue 8) changed the engine: with runtime_model = trace (the default) the results must
not change by a bit. Metrics added since are not in it and not compared.
usage: /usr/bin/python3 tests/golden/golden.py make|check BINARY JSON   (from the repository root)"""
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def cases():
    with open(os.path.join(HERE, "cases.txt")) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def run(binary, case):
    with tempfile.TemporaryDirectory() as tmp:
        jobs = os.path.join(tmp, "jobs.csv")
        proc = subprocess.run([binary, "simulate", "--json", "--jobs-out", jobs] + shlex.split(case), cwd=ROOT,
                              capture_output=True, text=True, check=True)
        metrics = json.loads(proc.stdout)
        digest = hashlib.sha256()
        with open(jobs) as f:
            for line in f:
                digest.update((",".join(line.rstrip("\n").split(",")[:7]) + "\n").encode())
    return {"metrics": metrics, "jobs_sha256": digest.hexdigest()}


def main():
    mode, binary, path = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    if mode == "make":
        with open(path, "w") as f:
            json.dump({case: run(binary, case) for case in cases()}, f, indent=1, sort_keys=True)
        return
    with open(path) as f:
        golden = json.load(f)
    problems = []
    for case in cases():
        now, then = run(binary, case), golden[case]
        if now["jobs_sha256"] != then["jobs_sha256"]:
            problems.append(f"{case}: schedule (start/end times) differs")
        for name, value in then["metrics"].items():
            if repr(now["metrics"].get(name)) != repr(value):
                problems.append(f"{case}: {name} = {now['metrics'].get(name)!r}, was {value!r}")
    print("\n".join(problems) if problems else f"{len(cases())} cases bit-identical")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
