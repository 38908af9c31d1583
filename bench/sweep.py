"""Benchmarks of the sweep engine on 2 ranks (issue 3, figures in docs/performance.md):
  (a) engine overhead: 2,000 points of about 1 ms; time from spec to file / (sum of point times / 2)
  (b) parallel efficiency of a 64-point grid of real-trace simulations of mixed cost:
      sum of point times / (2 x time from spec to file)
  (c) `dcsweep plan` on the result files: predicted makespan for 64, 1024, 4096 ranks vs the bound
  (d) the final write of 100,000 points x 20 metrics (bench_writer)
  (e) 100,352 points of ~50 us: time from spec to file and the engine's overhead per point,
      (2 x time from spec to file - sum of point times) / points, in core-microseconds
Each figure is the median of RUNS runs. "Time from spec to file" is what dcsweep reports (after
MPI_Init, until the file is closed); the mpirun wall time, launch included, is shown beside it.
usage: /usr/bin/python3 bench/sweep.py [RUNS]   (after .ci/build, from anywhere)
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import h5py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "build/dcsweep")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5


def sweep(spec, out):
    start = time.perf_counter()
    proc = subprocess.run(["mpirun", "-q", "-np", "2", BIN, "run", spec, "-o", out, "-q"], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, check=True)
    launched = time.perf_counter() - start
    engine = float(re.search(r"ranks, ([\d.]+) s from spec to file", proc.stdout).group(1))
    with h5py.File(out, "r") as f:
        points = float(f["points/wall_s"][()].sum())
    return engine, points, launched


def measure(name, spec, tmp):
    rows = []
    for run in range(RUNS):
        out = os.path.join(tmp, f"{name}-{run}.h5")
        rows.append(sweep(os.path.join(ROOT, spec), out))
    ratios = [engine / (points / 2) for engine, points, _ in rows]
    i = ratios.index(statistics.median_low(ratios))
    engine, points, launched = rows[i]
    return engine, points, launched, ratios[i], os.path.join(tmp, f"{name}-{i}.h5")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        print(f"== sweep engine on 2 ranks, median of {RUNS} ==")
        e, p, l, r, file_a = measure("overhead", "bench/specs/overhead.toml", tmp)
        print(f"(a) 2000 x ~1 ms points: {e:.3f} s from spec to file, sum of point times {p:.3f} s: "
              f"{r:.3f} x (sum / 2)   [limit 1.10; mpirun wall {l:.2f} s]")
        e, p, l, r, file_b = measure("mixed64", "bench/specs/mixed64.toml", tmp)
        print(f"(b) 64 mixed real-trace points: {e:.3f} s from spec to file, sum of point times {p:.3f} s: "
              f"efficiency {1 / r:.3f}   [limit >= 0.90; mpirun wall {l:.2f} s]")
        for label, path in (("(b) mixed64", file_b), ("(a) overhead", file_a)):
            print(f"(c) dcsweep plan on the {label} result file:")
            proc = subprocess.run([BIN, "plan", path, "--ranks", "2", "64", "1024", "4096"], capture_output=True,
                                  text=True, check=True)
            print("    " + proc.stdout.rstrip().replace("\n", "\n    "))
        writer = subprocess.run(["mpirun", "-q", "-np", "2", os.path.join(ROOT, "build/bench/bench_writer"),
                                 os.path.join(tmp, "writer.h5"), "--runs", str(RUNS)], env=ENV,
                                capture_output=True, text=True, check=True)
        print(f"(d) {writer.stdout.strip()}   [limit 2 s]")
        e, p, l, r, file_e = measure("cheap100k", "bench/specs/cheap100k.toml", tmp)
        with h5py.File(file_e, "r") as f:
            n = f["points/status"].shape[0]
        print(f"(e) {n} x ~{1e6 * p / n:.0f} us points: {e:.3f} s from spec to file, sum of point times {p:.3f} s: "
              f"{r:.3f} x (sum / 2), overhead {1e6 * (2 * e - p) / n:.1f} core-us per point   [mpirun wall {l:.2f} s]")


if __name__ == "__main__":
    main()
