"""`dcsweep plot` (issue 13) renders each kind of picture (heatmap, lines, faceted lines, series,
index bars, scatter) from real result files, in PNG, SVG and PDF; each picture is read back: its
size in pixels, and its axis labels and tick labels (SVG keeps text as text). A bad metric, axis,
value or file name is one error line and exit code 2, and writes nothing."""
import os
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

from PIL import Image

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_plot.py")
SOBOL_SPEC = os.path.join(ROOT, "tests/sweep/specs/sobol.toml")
GRID_SPEC = """
[sweep]
name = "plot-grid"
seed = 5
replicates = {replicates}
[base]
platform = "meng40"
trace = "inputs/traces/KTH-SP2-1996-2.1-cln.swf"
jobs = 400
scale_to_platform = true
series_interval_s = 86400
[axes]
gamma = [0.5, 0.75, 1.0]
allocator = ["first_fit", "random"]
redline_c = [24, 28]
"""


def svg_texts(path):
    return {"".join(e.itertext()).strip() for e in ET.parse(path).iter() if e.tag.endswith("text")}


class Plot(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        for name, replicates in (("grid", 2), ("single", 1)):
            spec = os.path.join(cls.tmp.name, f"{name}.toml")
            with open(spec, "w") as f:
                f.write(GRID_SPEC.format(replicates=replicates))
            setattr(cls, name, os.path.join(cls.tmp.name, f"{name}.h5"))
            sweeplib.run(BINARY, ["run", spec, "-o", getattr(cls, name), "--quiet"], None, cwd=ROOT, check_code=0)
        cls.sobol = os.path.join(cls.tmp.name, "sobol.h5")
        sweeplib.run(BINARY, ["run", SOBOL_SPEC, "-o", cls.sobol, "--quiet"], None, cwd=ROOT, check_code=1)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def plot(self, file, metric, *args, name, code=0):
        out = os.path.join(self.tmp.name, name)
        proc = subprocess.run([BINARY, "plot", file, metric, *args, "-o", out], cwd=ROOT, capture_output=True,
                              text=True)
        self.assertEqual(proc.returncode, code, proc.stdout + proc.stderr)
        return out, proc

    def render(self, file, metric, *args, size, labels):
        """Renders as PNG (checks the size) and SVG (checks the labels)."""
        stem = "-".join([metric] + [a.strip("-").replace("=", "_") for a in args])
        png, proc = self.plot(file, metric, *args, name=stem + ".png")
        self.assertIn(f"dcsweep: wrote {png}", proc.stdout)
        with Image.open(png) as image:
            self.assertEqual(image.size, size)
            self.assertEqual(image.text.get("Software"), "dcsweep")
        svg, _ = self.plot(file, metric, *args, name=stem + ".svg")
        texts = svg_texts(svg)
        for text in labels:
            self.assertIn(text, texts)
        return texts

    def test_heatmap(self):
        self.render(self.grid, "avg_wait_s", "--x", "gamma", "--y", "allocator", "--select", "redline_c=24",
                    size=(800, 500), labels=["gamma", "allocator", "avg_wait_s [s]", "first_fit", "random", "0.75"])

    def test_lines_one_per_value_of_the_free_axis_in_facets(self):
        texts = self.render(self.grid, "cooling_energy_j", "--x", "redline_c", "--facet", "allocator",
                            size=(1000, 400), labels=["redline_c [C]", "cooling_energy_j [J]", "allocator=first_fit",
                                                      "allocator=random", "gamma=0.5", "gamma=1"])
        self.assertIn("cooling_energy_j: plot-grid (mean of 2 replicates, range shaded)", texts)

    def test_series_over_simulated_time(self):
        self.render(self.grid, "utilization", "--x", "time", "--select", "allocator=random", "--select",
                    "redline_c=28", "--select", "replicate=1", size=(800, 500),
                    labels=["simulated time [h]", "utilization", "gamma=0.5", "gamma=0.75", "gamma=1"])
        # one replicate: its dimension stays, of size 1, beside the free one
        self.render(self.single, "cooling_power_w", "--x", "time", "--select", "allocator=first_fit", "--select",
                    "gamma=1", size=(800, 500), labels=["cooling_power_w [W]", "redline_c=24", "redline_c=28"])

    def test_index_bars_of_sobol_indices_and_of_grid_main_effects(self):
        self.render(self.sobol, "avg_wait_s", "--x", "factor", size=(800, 500),
                    labels=["factor", "Sobol index", "S1 (first order)", "ST (total)", "gamma", "redline_c",
                            "allocator"])
        self.render(self.grid, "avg_wait_s", "--x", "factor", size=(800, 500),
                    labels=["share of the variance", "main effect (share of the variance)", "gamma", "allocator"])

    def test_scatter_of_a_sampled_design(self):
        self.render(self.sobol, "avg_wait_s", "--x", "gamma", size=(800, 500), labels=["gamma", "avg_wait_s [s]"])
        self.render(self.sobol, "avg_wait_s", "--x", "gamma", "--y", "redline_c", size=(800, 500),
                    labels=["gamma", "redline_c [C]", "avg_wait_s [s]"])

    def test_pdf(self):
        pdf, _ = self.plot(self.grid, "avg_wait_s", "--x", "gamma", "--select", "redline_c=24", name="lines.pdf")
        with open(pdf, "rb") as f:
            head = f.read()
        self.assertTrue(head.startswith(b"%PDF"))
        self.assertIn(b"dcsweep", head)

    def test_bad_input_is_one_line_exit_2_and_no_file(self):
        cases = [
            (["avg_wiat_s", "--x", "gamma"], "has no metric 'avg_wiat_s' (did you mean 'avg_wait_s'?)"),
            (["avg_wait_s", "--x", "gama"], "--x gama: no axis 'gama' (did you mean 'gamma'?)"),
            (["avg_wait_s", "--x", "gamma", "--y", "allocatr"], "--y allocatr: no axis 'allocatr'"),
            (["avg_wait_s", "--x", "gamma", "--y", "allocator"],
             "a heatmap has no room for axis 'redline_c' (1 axes left free: redline_c): fix it with --select "
             "redline_c=VALUE or show it with --facet redline_c"),
            (["avg_wait_s", "--x", "gamma", "--select", "redline_c=25"], "--select redline_c=25: no such value"),
            (["utilisation", "--x", "time"], "has no series 'utilisation' (did you mean 'utilization'?)"),
            (["total_power_w", "--x", "gamma"], "(a series needs --x time)"),
            (["avg_wait_s"], "the following arguments are required: --x"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                out, proc = self.plot(self.grid, *args, name="bad.png", code=2)
                self.assertEqual(proc.stderr.count("\n"), 1, proc.stderr)
                self.assertTrue(proc.stderr.startswith("dcsweep: error: "), proc.stderr)
                self.assertIn(message, proc.stderr)
                self.assertFalse(os.path.exists(out))
        _, proc = self.plot(self.grid, "avg_wait_s", "--x", "gamma", name="bad.gif", code=2)
        self.assertIn("must end in .png, .svg or .pdf", proc.stderr)
        _, proc = self.plot(os.path.join(self.tmp.name, "none.h5"), "avg_wait_s", "--x", "gamma", name="x.png", code=2)
        self.assertIn("none.h5: no such file", proc.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
