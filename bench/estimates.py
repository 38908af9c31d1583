"""Does `dcsweep validate`'s cost estimate hold? (issue 29, point 4: within 3 x of the measured time.)

Runs each spec on 2 MPI ranks into a temporary file and compares, point by point, what the sweep
recorded as its estimate (/points/cost_estimate_s) with what the point took (/points/wall_s). For
trace-model points both leave out what a rank's points share (the trace's read, the room's heat
distribution build), which `validate` prices apart. A rate-based point that is the first to need
its room or its bound pays for them inside its time, on each rank that needs them, while the
estimate charges them once per grid: on 2 ranks such a spec can measure up to 2 x its estimate.
Per spec it prints the sums and their ratio (measured / estimated), and the spread of per-point
ratios over the points that take or were estimated to take at least --floor seconds (below that,
a point is timer noise and the sweep's own overhead). A spec whose measured sum is 0.5 s or more
and off by more than 3 x either way is flagged; failed points are counted and left out.
--max-core-s reads validate's total, which for an adaptive design is its first round's only.

usage: /usr/bin/python3 bench/estimates.py [--max-core-s S] [--floor S] [--worst N] [SPEC...]
  default specs: inputs/specs/*.toml and bench/specs/alloc-scale.toml; specs that validate
  estimates above --max-core-s (default 1200) are skipped and named.
(after .ci/build, from anywhere; the points run two at a time, one per rank, so each may run beside
the other rank's and rank 0's serving thread.)
"""
import argparse
import glob
import os
import re
import statistics
import subprocess
import sys
import tempfile

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "build/dcsweep")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def estimate_of(spec):
    out = subprocess.run([BIN, "validate", spec], capture_output=True, text=True, cwd=ROOT, env=ENV)
    if out.returncode != 0:
        sys.exit(f"{spec}: validate failed: {out.stderr.strip()}")
    m = re.search(r"estimated cost: ([0-9.e+-]+) core-seconds", out.stdout)
    adaptive = "design: adaptive" in out.stdout
    return float(m.group(1)), adaptive


def measure(spec):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "out.h5")
        run = subprocess.run(["mpirun", "-q", "-n", "2", "--oversubscribe", BIN, "run", spec, "-o", path, "--quiet"],
                             capture_output=True, text=True, cwd=ROOT, env=ENV)
        if not os.path.exists(path):
            sys.exit(f"{spec}: run failed: {run.stderr.strip()}")
        if run.returncode != 0:
            print(f"{spec}: run exited {run.returncode} (failed points are left out): {run.stderr.strip()[-300:]}")
        with h5py.File(path, "r") as f:
            status = f["points/status"][...]
            ok = status == 1
            labels = point_labels(f, len(status))
            return (f["points/cost_estimate_s"][...][ok], f["points/wall_s"][...][ok], int((status == 2).sum()),
                    [label for label, good in zip(labels, ok) if good])


def point_labels(f, count):
    """Each flat point's coordinates ("name=value ..."), from a metric's dimension scales and the
    coordinates it names (a zip's parameters, a design's sample values)."""
    for name, item in f.items():
        if not isinstance(item, h5py.Dataset) or item.ndim == 0 or item.size != count or "CLASS" in item.attrs:
            continue  # a coordinate (a dimension scale) or no metric
        try:
            axes = [d[0].name.lstrip("/") for d in item.dims]
        except (IndexError, ValueError, RuntimeError):
            continue
        if not axes or axes[-1] != "replicate":
            continue  # not a metric over (axes..., replicate)
        # per axis: the coordinates along it (its own scale, or those a metric names over it)
        named = item.attrs.get("coordinates", b"")
        named = (named.decode() if isinstance(named, bytes) else str(named)).split()
        along = {axis: [] for axis in axes}
        for coord in named:
            if coord in f and isinstance(f[coord], h5py.Dataset) and f[coord].ndim == 1:
                try:
                    dim = f[coord].dims[0][0].name.lstrip("/")
                except (IndexError, ValueError, RuntimeError):
                    continue
                if dim in along and coord != dim:
                    along[dim].append((coord, f[coord][...]))
        for axis in axes:
            if not along[axis]:
                along[axis].append((axis, f[axis][...]))
        out = []
        for flat in range(count):
            index = np.unravel_index(flat, item.shape)
            words = []
            for axis, i in zip(axes, index):
                for coord, values in along[axis]:
                    if axis == "replicate" or len(values) < 2:
                        continue
                    v = values[i]
                    words.append(f"{coord}={v.decode() if isinstance(v, bytes) else v}")
            out.append(" ".join(words))
        return out
    return [str(i) for i in range(count)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*")
    parser.add_argument("--max-core-s", type=float, default=1200)
    parser.add_argument("--floor", type=float, default=0.05)
    parser.add_argument("--worst", type=int, default=0, help="also list the N points whose ratio is furthest from 1")
    args = parser.parse_args()
    specs = args.specs or sorted(glob.glob(os.path.join(ROOT, "inputs/specs/*.toml"))) + [
        os.path.join(ROOT, "bench/specs/alloc-scale.toml")]
    print(f"{'spec':34} {'points':>7} {'est_s':>9} {'meas_s':>9} {'ratio':>6}   per-point ratio over {args.floor} s:"
          " points, min / median / max")
    flagged = []
    for spec in specs:
        name = os.path.relpath(spec, ROOT)
        estimated, adaptive = estimate_of(spec)
        if estimated > args.max_core_s:
            print(f"{name:34} skipped: estimated {estimated:.0f} core-seconds > --max-core-s {args.max_core_s:.0f}")
            continue
        est, wall, failed, labels = measure(spec)
        total_est, total_wall = float(est.sum()), float(wall.sum())
        ratio = total_wall / total_est if total_est > 0 else float("inf")
        big = np.maximum(est, wall) >= args.floor
        per = wall[big] / np.maximum(est[big], 1e-9)
        spread = (f"{int(big.sum())}, {per.min():.2f} / {statistics.median(per):.2f} / {per.max():.2f}"
                  if big.any() else "none")
        note = " (adaptive: every round)" if adaptive else ""
        note += f" ({failed} failed)" if failed else ""
        off = total_wall >= 0.5 and (ratio > 3 or ratio < 1 / 3)
        if off:
            flagged.append(name)
        print(f"{name:34} {len(est):7d} {total_est:9.2f} {total_wall:9.2f} {ratio:6.2f}{' !' if off else '  '} {spread}{note}",
              flush=True)
        if args.worst and big.any():
            order = np.argsort(-np.abs(np.log(per)))[:args.worst]
            for i in order:
                k = np.flatnonzero(big)[i]
                print(f"    {wall[k]:9.3f} s measured, {est[k]:9.3f} s estimated ({per[i]:.2f} x): {labels[k]}")
    if flagged:
        print("off by more than 3 x (specs measured at 0.5 s or more): " + ", ".join(flagged))
        sys.exit(1)


if __name__ == "__main__":
    main()
