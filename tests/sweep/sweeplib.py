"""Helpers of the sweep tests: run dcsweep under mpirun (or alone), compare result files.

Run with Debian's /usr/bin/python3 (python3-h5py, python3-xarray, python3-netcdf4, numpy).
"""
import os
import signal
import subprocess
import sys
import time

import h5py
import numpy as np

# Open MPI as root, and more ranks than cores (../shared/spec/NOTES.md).
MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_mpi_yield_when_idle="1", OMPI_MCA_rmaps_base_oversubscribe="1")

# Datasets that legitimately differ between runs, and attributes that describe the run itself.
RUN_DEPENDENT = {"points/wall_s", "points/rank"}
RUN_ATTRIBUTES = {"created", "ranks"}


def command(binary, args, ranks=None):
    """The command line: plain (a single process, no mpirun) when ranks is None."""
    if ranks is None:
        return [binary] + list(args)
    return ["mpirun", "-q", "--oversubscribe", "-np", str(ranks), binary] + list(args)


def run(binary, args, ranks=None, cwd=None, check_code=None, timeout=600):
    proc = subprocess.run(command(binary, args, ranks), cwd=cwd, env=MPI_ENV, capture_output=True, text=True,
                          timeout=timeout)
    if check_code is not None and proc.returncode != check_code:
        raise AssertionError(f"{' '.join(command(binary, args, ranks))}: exit {proc.returncode}, want {check_code}\n"
                             f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    return proc


def start(binary, args, ranks, cwd=None):
    """A run in the background, in a session of its own."""
    return subprocess.Popen(command(binary, args, ranks), cwd=cwd, env=MPI_ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _descendants(pid):
    out, todo = [], [pid]
    while todo:
        parent = todo.pop()
        children = subprocess.run(["pgrep", "-P", str(parent)], capture_output=True, text=True).stdout.split()
        out += [int(c) for c in children]
        todo += [int(c) for c in children]
    return out


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def kill_job(proc):
    """SIGKILL to mpirun and every rank, as a node failure would, and wait until all are gone.
    Open MPI puts each rank in a process group of its own, so killing mpirun's group alone leaves
    the ranks running until they notice (about a second): a second run would find them still
    holding the output."""
    pids = _descendants(proc.pid)
    os.killpg(proc.pid, signal.SIGKILL)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    out, err = proc.communicate()
    deadline = time.time() + 30
    while any(_alive(pid) for pid in pids):
        assert time.time() < deadline, f"processes {pids} survived SIGKILL"
        time.sleep(0.01)
    return out, err


def kill_after(proc, seconds):
    """Kills the whole job (kill_job) after `seconds`, unless it ended. (code or None, out, err)."""
    try:
        out, err = proc.communicate(timeout=seconds)
        return proc.returncode, out, err
    except subprocess.TimeoutExpired:
        out, err = kill_job(proc)
        return None, out, err


def _items(f):
    out = {}
    f.visititems(lambda name, obj: out.__setitem__(name, obj))
    return out


def _attrs_equal(a, b):
    if set(a.keys()) != set(b.keys()):
        return False
    for k in a.keys():
        x, y = a[k], b[k]
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if np.asarray(x).tobytes() != np.asarray(y).tobytes():
                return False
        elif isinstance(x, float) and np.isnan(x):
            if not (isinstance(y, float) and np.isnan(y)):
                return False
        elif x != y:
            return False
    return True


def run_on_ranks(binary, spec, folder, rank_counts, cwd=None, check_code=0):
    """Runs SPEC once per rank count (None: one process, no mpirun) into FOLDER/ranks-N.h5;
    returns {N: path}."""
    files = {}
    for ranks in rank_counts:
        path = os.path.join(folder, f"ranks-{ranks or 1}.h5")
        run(binary, ["run", spec, "-o", path, "--quiet"], ranks, cwd=cwd, check_code=check_code)
        files[ranks or 1] = path
    return files


def differences(path_a, path_b, ignore=RUN_DEPENDENT):
    """Dataset-by-dataset comparison, bit for bit (NaN included). Returns a list of texts."""
    out = []
    with h5py.File(path_a, "r") as fa, h5py.File(path_b, "r") as fb:
        ia, ib = _items(fa), _items(fb)
        if set(ia) != set(ib):
            out.append(f"objects differ: only in A {sorted(set(ia) - set(ib))}, only in B {sorted(set(ib) - set(ia))}")
        for name in sorted(set(ia) & set(ib)):
            a, b = ia[name], ib[name]
            if isinstance(a, h5py.Dataset):
                if a.shape != b.shape or a.dtype != b.dtype:
                    out.append(f"{name}: shape/type {a.shape} {a.dtype} vs {b.shape} {b.dtype}")
                elif name not in ignore:
                    va, vb = a[()], b[()]
                    if va.dtype.kind == "O":
                        same = list(va) == list(vb)
                    else:
                        same = np.asarray(va).tobytes() == np.asarray(vb).tobytes()
                    if not same:
                        out.append(f"{name}: values differ")
            keys_a = {k for k in a.attrs.keys() if k not in ("DIMENSION_LIST", "REFERENCE_LIST")}
            keys_b = {k for k in b.attrs.keys() if k not in ("DIMENSION_LIST", "REFERENCE_LIST")}
            if keys_a != keys_b:
                out.append(f"{name}: attributes {sorted(keys_a)} vs {sorted(keys_b)}")
            for k in keys_a & keys_b:
                if not _attrs_equal({k: a.attrs[k]}, {k: b.attrs[k]}):
                    out.append(f"{name}: attribute {k} differs")
        ra = {k: v for k, v in fa.attrs.items() if k not in RUN_ATTRIBUTES}
        rb = {k: v for k, v in fb.attrs.items() if k not in RUN_ATTRIBUTES}
        if not _attrs_equal(ra, rb):
            out.append("root attributes differ")
    return out


def main_args(usage):
    if len(sys.argv) != 3:
        sys.exit(f"usage: {usage} DCSWEEP_BINARY PROJECT_DIR")
    return os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])


def check_failures_recorded(test, f, metric, message):
    """Every failed point of an open result file has an error containing `message` and NaN for
    `metric`; every other point no error and a value. Returns the status array."""
    status = f["points/status"][()]
    errors = [row.tobytes().rstrip(b"\0").decode() for row in f["points/error"][()]]
    values = f[metric][()].reshape(-1)
    for i, s in enumerate(status):
        test.assertIn(message, errors[i]) if s == 2 else test.assertEqual(errors[i], "")
        test.assertEqual(bool(np.isnan(values[i])), s == 2, f"point {i}: status {s}, {metric} {values[i]}")
    return status
