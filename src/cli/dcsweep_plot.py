"""`dcsweep plot`: pictures of a dcsweep result file (issue 13). Run by the dcsweep binary with
Debian's Python 3 (python3-matplotlib, python3-xarray, python3-h5py, python3-netcdf4), so users
type one program's name:

    dcsweep plot OUT.h5 METRIC --x AXIS [--y AXIS] [--facet AXIS] [--select AXIS=VALUE ...] -o FILE

What it draws follows from the axes asked for:
    --x A --y B     heatmap of METRIC over two axes (mean over replicates)
    --x A           lines of METRIC over one axis, one per value of at most one other free axis
                    (mean over replicates, their range shaded); on a sampled design, METRIC
                    against factor A, one dot per sample (--y B: dots over two factors, coloured)
    --x time        a series (/series/METRIC) over simulated time, one line per point left free
    --x factor      a bar chart of the sensitivity indices `dcsweep analyze` gives for METRIC
On an adaptive design (issue 32) --x A draws METRIC against A, one line per combination of the
other coordinates left free, each point coloured by the round that added it; --x A --y B a
heatmap over the refined points (cells between neighbouring values), the points marked by round.
Every other axis must be fixed with --select AXIS=VALUE, shown with --facet AXIS (one panel per
value), or have one value. FILE's extension (.png, .svg, .pdf) chooses the format. Errors are one
line on stderr, exit code 2.
"""
import argparse
import difflib
import json
import math
import os
import subprocess
import sys

EXIT_BAD_INPUT = 2
PANEL_IN = (8.0, 5.0)      # a single picture, inches
FACET_IN = (5.0, 4.0)      # one panel of a faceted picture
FACET_COLUMNS = 3
DPI = 100


class BadInput(Exception):
    """Bad usage or input: reported as one line, exit code 2."""


def fail(message):
    raise BadInput(message)


def closest(name, names):
    hint = difflib.get_close_matches(name, names, n=1)
    return f" (did you mean '{hint[0]}'?)" if hint else ""


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, as every dcsweep command
        fail(message)


def parse_args(argv):
    p = Parser(prog="dcsweep plot",
               usage="dcsweep plot OUT.h5 METRIC --x AXIS [--y AXIS] [--facet AXIS] [--select AXIS=VALUE ...] "
                     "-o FILE.png|.svg|.pdf", formatter_class=argparse.RawDescriptionHelpFormatter,
               epilog=__doc__[__doc__.index("What it draws"):] +
               "\nGuide: docs/user-guide.md#analysis-and-plots-dcsweep-analyze-dcsweep-plot\n")
    p.add_argument("file", metavar="OUT.h5")
    p.add_argument("metric", metavar="METRIC")
    p.add_argument("--x", required=True, metavar="AXIS", help="the horizontal axis ('time': a series; 'factor': indices)")
    p.add_argument("--y", metavar="AXIS", help="the vertical axis of a heatmap")
    p.add_argument("--facet", metavar="AXIS", help="one panel per value of AXIS")
    p.add_argument("--select", action="append", default=[], metavar="AXIS=VALUE", help="fix an axis at a value")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the picture: .png, .svg or .pdf")
    p.add_argument("--dcsweep", default="dcsweep", help=argparse.SUPPRESS)  # the binary, for `analyze`
    return p.parse_args(argv)


# ---- the result file ----

def import_libraries():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import numpy  # noqa: F401
        import xarray  # noqa: F401
        import h5py  # noqa: F401
    except ImportError as e:
        fail(f"plot needs Debian's python3-matplotlib, python3-xarray, python3-h5py and python3-netcdf4 "
             f"({e}); `bash .ci/setup` installs them")


def open_file(path):
    import xarray as xr
    if not os.path.exists(path):
        fail(f"{path}: no such file")
    try:
        ds = xr.open_dataset(path, engine="netcdf4")
    except Exception as e:  # noqa: BLE001 (any reader failure is the file's fault here)
        fail(f"{path}: cannot read it as a dcsweep result file ({e})")
    if "spec" not in ds.attrs:
        ds.close()
        fail(f"{path}: not a dcsweep result file (no 'spec' attribute)")
    return ds


def metric_names(ds):
    return [v for v in ds.data_vars if "replicate" in ds[v].dims]


def series_names(path):
    import h5py
    with h5py.File(path, "r") as f:
        return sorted(f["series"].keys()) if "series" in f else []


def axis_names(ds):
    """Dimensions (but the design's factor list) and the coordinates along one dimension."""
    dims = [d for d in ds.dims if d != "factor"]
    aux = [c for c in ds.coords if c not in ds.dims and len(ds[c].dims) == 1 and ds[c].dims[0] in dims]
    return dims + aux


def label(ds, name):
    units = ds[name].attrs.get("units", "") if name in ds.variables else ""
    return f"{name} [{units}]" if units and units != "1" else name


def parse_selects(ds, selects):
    out = {}
    axes = axis_names(ds)
    for item in selects:
        if "=" not in item:
            fail(f"plot: --select {item}: expected AXIS=VALUE")
        name, value = item.split("=", 1)
        if name not in axes:
            fail(f"plot: --select {item}: no axis '{name}'{closest(name, axes)}; axes: {', '.join(axes)}")
        out[name] = value
    return out


def matching(ds, name, text):
    """Indices along `name`'s dimension where its coordinate equals `text`."""
    import numpy as np
    values = ds[name].values
    if values.dtype.kind in "fiu":
        try:
            want = float(text)
        except ValueError:
            fail(f"plot: --select {name}={text}: {name} is numeric")
        hits = np.flatnonzero(np.isclose(values.astype(float), want, rtol=1e-9, atol=0))
    else:
        hits = np.flatnonzero(values.astype(str) == text)
    if len(hits) == 0:
        shown = ", ".join(str(v) for v in values[:8]) + (", ..." if len(values) > 8 else "")
        fail(f"plot: --select {name}={text}: no such value; {name}'s values: {shown}")
    return ds[name].dims[0], hits


def apply_selects(ds, data, selects):
    for name, text in selects.items():
        dim, hits = matching(ds, name, text)
        data = data.isel({dim: hits})
        if data.sizes[dim] == 1 and name == dim:
            data = data.squeeze(dim, drop=False)
    return data


def check_axis(ds, name, flag):
    axes = axis_names(ds)
    if name not in axes:
        fail(f"plot: {flag} {name}: no axis '{name}'{closest(name, axes)}; axes: {', '.join(axes)}")
    return name


def free_dims(data, used):
    """Dimensions left with more than one value once the picture's own are taken."""
    return [d for d in data.dims if d not in used and data.sizes[d] > 1]


def refuse_free(free, allowed, kind):
    if len(free) > allowed:
        d = free[allowed]
        fail(f"plot: a {kind} has no room for axis '{d}' ({len(free)} axes left free: {', '.join(free)}): fix it "
             f"with --select {d}=VALUE or show it with --facet {d}")


# ---- pictures ----

def new_figure(facets):
    import matplotlib.pyplot as plt
    if facets is None:
        fig, ax = plt.subplots(figsize=PANEL_IN, dpi=DPI, layout="constrained")
        return fig, [ax]
    n = len(facets)
    cols = min(n, FACET_COLUMNS)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(FACET_IN[0] * cols, FACET_IN[1] * rows), dpi=DPI,
                             layout="constrained", squeeze=False)
    flat = list(axes.flat)
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def facet_values(ds, data, facet):
    if facet is None:
        return None
    dim = ds[facet].dims[0]
    if dim not in data.dims:
        fail(f"plot: --facet {facet}: it is fixed by --select")
    return [(f"{facet}={fmt(data[facet].values[i])}", {dim: i}) for i in range(data.sizes[dim])]


def panels(ds, data, facet):
    """(title, data of the panel) for each panel."""
    values = facet_values(ds, data, facet)
    if values is None:
        return [("", data)]
    return [(title, data.isel(index)) for title, index in values]


def mean_over_replicates(data):
    return data.mean("replicate", skipna=True) if "replicate" in data.dims else data


def heatmap(ds, data, args, fig, axes):
    x, y = args.x, args.y
    for ax, (title, panel) in zip(axes, panels(ds, data, args.facet)):
        grid = mean_over_replicates(panel).transpose(ds[y].dims[0], ds[x].dims[0])
        mesh = ax.pcolormesh(range(grid.shape[1] + 1), range(grid.shape[0] + 1), grid.values, shading="flat")
        ax.set_xticks([i + 0.5 for i in range(grid.shape[1])], [fmt(v) for v in grid[x].values])
        ax.set_yticks([i + 0.5 for i in range(grid.shape[0])], [fmt(v) for v in grid[y].values])
        if grid.size <= 60:  # few cells: their values written in them
            annotate(ax, grid.values, mesh)
        ax.set_xlabel(label(ds, x))
        ax.set_ylabel(label(ds, y))
        ax.set_title(title)
        fig.colorbar(mesh, ax=ax, label=label(ds, args.metric))


def annotate(ax, values, mesh):
    import numpy as np
    middle = np.nanmean([np.nanmin(values), np.nanmax(values)]) if np.isfinite(values).any() else 0
    for (row, col), v in np.ndenumerate(values):
        ax.text(col + 0.5, row + 0.5, f"{v:.3g}", ha="center", va="center",
                color="white" if v < middle else "black")


def fmt(v):
    import numpy as np
    return f"{v:.4g}" if isinstance(v, (float, np.floating)) else str(v)


def lines(ds, data, args, fig, axes):
    x = args.x
    xdim = ds[x].dims[0]
    for ax, (title, panel) in zip(axes, panels(ds, data, args.facet)):
        free = free_dims(panel, {xdim, "replicate"})
        hue = free[0] if free else None
        for label_text, one in ([(None, panel)] if hue is None else
                                [(f"{hue}={fmt(panel[hue].values[i])}", panel.isel({hue: i}))
                                 for i in range(panel.sizes[hue])]):
            xs = one[x].values
            numeric = xs.dtype.kind in "fiu"
            pos = xs if numeric else range(len(xs))
            mean = mean_over_replicates(one).values
            ax.plot(pos, mean, marker="o", label=label_text)
            if "replicate" in one.dims and one.sizes["replicate"] > 1:
                ax.fill_between(pos, one.min("replicate").values, one.max("replicate").values, alpha=0.2)
            if not numeric:
                ax.set_xticks(list(pos), [str(v) for v in xs])
        ax.set_xlabel(label(ds, x))
        ax.set_ylabel(label(ds, args.metric))
        ax.set_title(title)
        if hue is not None:
            ax.legend()


def scatter(ds, data, args, fig, axes):
    """A sampled design: METRIC against a factor (or over two factors, coloured)."""
    mean = mean_over_replicates(data)
    ax = axes[0]
    xs = mean[args.x].values
    if args.y is None:
        ax.scatter(xs, mean.values, s=8, alpha=0.6)
        ax.set_ylabel(label(ds, args.metric))
    else:
        dots = ax.scatter(xs, mean[args.y].values, c=mean.values, s=10)
        ax.set_ylabel(label(ds, args.y))
        fig.colorbar(dots, ax=ax, label=label(ds, args.metric))
    ax.set_xlabel(label(ds, args.x))


def sample_coordinates(ds):
    """An adaptive design's coordinates along `sample` (its axes' parameters), without `round`."""
    return [c for c in ds.coords if ds[c].dims == ("sample",) and c not in ("sample", "round")]


def coordinate_values(data, name):
    """A coordinate's values; text ones as str (after a selection xarray may hold 0-d arrays)."""
    import numpy as np
    values = data[name].values
    return np.array([str(v) for v in values]) if values.dtype.kind == "O" else values


def free_coordinates(ds, mean, used):
    import numpy as np
    return [c for c in sample_coordinates(ds) if c not in used and len(np.unique(coordinate_values(mean, c))) > 1]


def round_colours(rounds, last, cmap="viridis"):
    """Scatter arguments colouring points by round, on one scale from 0 to the last round."""
    import matplotlib.colors
    return {"c": rounds, "cmap": cmap, "norm": matplotlib.colors.Normalize(0, max(int(last), 1)),
            "edgecolors": "black", "linewidths": 0.4, "zorder": 3}


def refined(ds, data, args, fig, axes):
    """An adaptive design: METRIC against a refined axis (lines), or over two (heatmap); each point
    coloured by its round."""
    mean = mean_over_replicates(data)
    if args.y is not None:
        return refined_heatmap(ds, mean, args, fig, axes[0])
    import numpy as np
    ax = axes[0]
    others = free_coordinates(ds, mean, {args.x})
    keys = list(zip(*[coordinate_values(mean, c) for c in others])) if others else [()] * mean.sizes["sample"]
    groups = sorted(set(keys), key=str)
    if len(groups) > 10:
        fail(f"plot: {len(groups)} lines (one per value of {', '.join(others)}): fix some with --select "
             f"{others[0]}=VALUE")
    x, y, rounds = mean[args.x].values, mean.values, mean["round"].values
    dots = None
    for group in groups:
        idx = np.array(sorted((i for i, k in enumerate(keys) if k == group), key=lambda i: x[i]))
        name = ", ".join(f"{c}={fmt(v)}" for c, v in zip(others, group)) or None
        ax.plot(x[idx], y[idx], "-", linewidth=1, label=name, zorder=2)
        dots = ax.scatter(x[idx], y[idx], s=28, **round_colours(rounds[idx], rounds.max()))
    fig.colorbar(dots, ax=ax, label="round")
    ax.set_xlabel(label(ds, args.x))
    ax.set_ylabel(label(ds, args.metric))
    if others:
        ax.legend()


def cell_edges(values):
    import numpy as np
    if len(values) == 1:
        return np.array([values[0] - 0.5, values[0] + 0.5])
    middle = (values[1:] + values[:-1]) / 2
    return np.concatenate([[2 * values[0] - middle[0]], middle, [2 * values[-1] - middle[-1]]])


def refined_heatmap(ds, mean, args, fig, ax):
    import numpy as np
    others = free_coordinates(ds, mean, {args.x, args.y})
    if others:
        fail(f"plot: a heatmap has no room for '{others[0]}' ({', '.join(others)} left free): fix it with --select "
             f"{others[0]}=VALUE")
    x, y = mean[args.x].values.astype(float), mean[args.y].values.astype(float)
    xs, ys = np.unique(x), np.unique(y)
    grid = np.full((len(ys), len(xs)), np.nan)
    grid[np.searchsorted(ys, y), np.searchsorted(xs, x)] = mean.values
    mesh = ax.pcolormesh(cell_edges(xs), cell_edges(ys), grid, shading="flat")
    fig.colorbar(mesh, ax=ax, label=label(ds, args.metric))
    # (the rounds in other colours than the metric's cells)
    dots = ax.scatter(x, y, s=14, **round_colours(mean["round"].values, mean["round"].values.max(), "autumn"))
    fig.colorbar(dots, ax=ax, label="round")
    ax.set_xlabel(label(ds, args.x))
    ax.set_ylabel(label(ds, args.y))


def series(ds, index, args, fig, axes):
    """`index`: the flat point numbers left by --select, over the file's dimensions."""
    import h5py
    import numpy as np
    with h5py.File(args.file, "r") as f:
        g = f["series"][args.metric]
        values, times, offsets = g["values"][()], g["time_s"][()], g["offsets"][()]
        units = g["values"].attrs.get("units", b"")
    units = units.decode() if isinstance(units, bytes) else str(units)
    scale, unit = (86400.0, "d") if times.size and np.nanmax(times) > 3 * 86400 else (3600.0, "h")
    for ax, (title, panel) in zip(axes, panels(ds, index, args.facet)):
        free = free_dims(panel, set())
        refuse_free(free, 1, "series picture")
        for point in panel.values.reshape(-1):
            lo, hi = offsets[point], offsets[point + 1]
            ax.step(times[lo:hi] / scale, values[lo:hi], where="post", label=point_label(panel, free, point))
        ax.set_xlabel(f"simulated time [{unit}]")
        ax.set_ylabel(f"{args.metric} [{units}]" if units and units != "1" else args.metric)
        ax.set_title(title)
        if free:
            ax.legend()


def point_label(panel, free, point):
    """The legend of a point's line: its value along the one free dimension."""
    import numpy as np
    if not free:
        return None
    dim = free[0]
    position = np.argwhere(panel.values == point)[0]
    return f"{dim}={fmt(panel[dim].values[position[panel.dims.index(dim)]])}"


def index_bars(ds, data, args, fig, axes):
    proc = subprocess.run([args.dcsweep, "analyze", args.file, "--json", "--metric", args.metric], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        fail(proc.stderr.strip().splitlines()[-1].removeprefix("dcsweep: error: ") if proc.stderr.strip()
             else f"plot: dcsweep analyze failed with exit code {proc.returncode}")
    result = json.loads(proc.stdout)
    metric = result["metrics"][args.metric]
    factors = result["design"]["factors"]
    columns = {"sobol": [("first_order", "S1 (first order)"), ("total", "ST (total)")],
               "morris": [("mu_star", "mu* (mean |effect|)"), ("sigma", "sigma (interactions, nonlinearity)")],
               "lhs": [("rank_correlation", "Spearman rank correlation")],
               "grid": [("main_effect", "main effect (share of the variance)")]}[result["design"]["kind"]]
    ax = axes[0]
    width = 0.8 / len(columns)
    for c, (key, name) in enumerate(columns):
        cells = [metric[key][f] for f in factors]
        heights = [cell["value"] if isinstance(cell, dict) else cell for cell in cells]
        heights = [h if h is not None else math.nan for h in heights]
        errors = None
        if cells and isinstance(cells[0], dict):
            low = [h - (cell["low"] if cell["low"] is not None else h) for h, cell in zip(heights, cells)]
            high = [(cell["high"] if cell["high"] is not None else h) - h for h, cell in zip(heights, cells)]
            errors = [low, high]
        ax.bar([i + (c - (len(columns) - 1) / 2) * width for i in range(len(factors))], heights, width, yerr=errors,
               capsize=3, label=name)
    crowded = sum(len(f) for f in factors) > 60  # long names would overlap
    ax.set_xticks(range(len(factors)), factors, rotation=20 if crowded else 0, ha="right" if crowded else "center")
    ax.set_xlabel("factor")
    unit = f" [{metric['units']}]" if result["design"]["kind"] == "morris" and metric["units"] else ""
    ax.set_ylabel({"sobol": "Sobol index", "morris": f"elementary effect{unit}", "lhs": "rank correlation",
                   "grid": "share of the variance"}[result["design"]["kind"]])
    ax.axhline(0, color="black", linewidth=0.5)
    ax.legend()


# ---- main ----

def describe_kind(ds, args):
    sampled = "design_kind" in ds.attrs
    adaptive = ds.attrs.get("design_kind") == "adaptive"
    if args.x == "factor":
        if adaptive:
            fail("plot: an adaptive design has no sensitivity indices; `dcsweep analyze` gives where its metric "
                 "crosses or changes, --x AXIS shows its points")
        return "index"
    if args.x == "time":
        return "series"
    if adaptive:
        if args.facet is not None:
            fail("plot: --facet is not available on an adaptive design; fix the other axes with --select")
        return "refined"
    return ("scatter" if sampled else "heatmap" if args.y else "lines")


def check_request(ds, path, args, kind):
    metrics, series = metric_names(ds), series_names(path)
    if kind == "series":
        if args.metric not in series:
            fail(f"plot: {path} has no series '{args.metric}'{closest(args.metric, series)}; series: {', '.join(series)}")
    elif args.metric not in metrics:
        fail(f"plot: {path} has no metric '{args.metric}'{closest(args.metric, metrics + series)}; metrics: "
             f"{', '.join(metrics)}" + (" (a series needs --x time)" if args.metric in series else ""))
    if kind in ("heatmap", "lines", "scatter", "refined"):
        check_axis(ds, args.x, "--x")
    for flag, name in (("--y", args.y), ("--facet", args.facet)):
        if name is not None:
            check_axis(ds, name, flag)


DRAWERS = {"heatmap": heatmap, "lines": lines, "scatter": scatter, "series": series, "index": index_bars,
           "refined": refined}


def picture_data(ds, args, kind):
    """What the picture shows, --select applied: the metric, or for a series the flat point
    numbers (the same shape), whose samples are in /series."""
    import numpy as np
    if kind == "index":
        return None
    template = ds[args.metric] if kind != "series" else ds[metric_names(ds)[0]]
    if kind == "series":
        template = template.copy(data=np.arange(template.size).reshape(template.shape))
    data = apply_selects(ds, template, parse_selects(ds, args.select))
    if kind not in ("series", "refined"):
        used = {ds[n].dims[0] for n in (args.x, args.y, args.facet) if n is not None} | {"replicate"}
        refuse_free(free_dims(data, used), 1 if kind == "lines" else 0, "heatmap" if kind == "heatmap" else "picture")
    return data


def draw(ds, args, kind):
    data = picture_data(ds, args, kind)
    fig, axes = new_figure(facet_values(ds, data, args.facet) if data is not None else None)
    DRAWERS[kind](ds, data, args, fig, axes)
    fig.suptitle(headline(ds, args, kind))
    return fig


def headline(ds, args, kind):
    """The picture's title: the metric, what is fixed, how replicates are summarised."""
    parts = [s for s in args.select]
    replicates = ds.sizes.get("replicate", 1)
    if replicates > 1 and kind in ("heatmap", "lines", "scatter", "refined") and not any(s.startswith("replicate=") for s in parts):
        parts.append(f"mean of {replicates} replicates" + (", range shaded" if kind == "lines" else ""))
    text = f"{args.metric}: {ds.attrs.get('name', '')}" if kind != "index" else f"sensitivity of {args.metric}: {ds.attrs.get('name', '')}"
    return text + (f" ({', '.join(parts)})" if parts else "")


def save(fig, args, kind):
    import matplotlib
    extension = os.path.splitext(args.output)[1].lower()
    if extension not in (".png", ".svg", ".pdf"):
        fail(f"plot: -o {args.output}: the picture's name must end in .png, .svg or .pdf")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: searchable, and tests read it back
    title = f"dcsweep plot: {kind} of {args.metric}"
    metadata = {"png": {"Title": title, "Software": "dcsweep"}, "svg": {"Title": title},
                "pdf": {"Title": title, "Creator": "dcsweep"}}[extension[1:]]
    try:
        fig.savefig(args.output, metadata=metadata)
    except OSError as e:
        fail(f"plot: -o {args.output}: cannot write it ({e.strerror})")
    w, h = fig.get_size_inches() * fig.dpi
    print(f"dcsweep: wrote {args.output} ({kind} of {args.metric}, {round(w)} x {round(h)} px)")


def main(argv):
    args = parse_args(argv)
    if os.path.splitext(args.output)[1].lower() not in (".png", ".svg", ".pdf"):
        fail(f"plot: -o {args.output}: the picture's name must end in .png, .svg or .pdf")
    import_libraries()
    ds = open_file(args.file)
    with ds:
        kind = describe_kind(ds, args)
        check_request(ds, args.file, args, kind)
        fig = draw(ds, args, kind)
        save(fig, args, kind)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BadInput as e:
        print(f"dcsweep: error: {e}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
