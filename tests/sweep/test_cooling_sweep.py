"""A sweep over redline temperature x supply temperature on meng40 with a shipped trace writes the
cooling metrics, and cooling energy falls monotonically as the redline rises (the redline
controller raises the supply by the slack; CoP grows with the supply temperature); where the
supply would fall below supply_temp_min_c, the redline is violated instead."""
import os
import sys
import tempfile
import unittest

import numpy as np
import xarray as xr

import sweeplib

BINARY, ROOT = sweeplib.main_args("test_cooling_sweep.py")
SPEC = os.path.join(ROOT, "tests/sweep/specs/cooling.toml")


class CoolingSweep(unittest.TestCase):
    def test_cooling_energy_falls_as_the_redline_rises(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "cooling.h5")
            sweeplib.run(BINARY, ["run", SPEC, "-o", out, "-q"], 2, cwd=ROOT, check_code=0)
            ds = xr.open_dataset(out, engine="netcdf4")
            energy = ds.cooling_energy_j.isel(replicate=0)
            self.assertEqual(list(energy.dims), ["redline_c", "supply_temp_c"])
            self.assertEqual(ds.cooling_energy_j.attrs["units"], "J")
            self.assertEqual(ds.max_inlet_c.attrs["units"], "C")
            values = energy.values
            self.assertTrue(np.isfinite(values).all())
            for s in range(values.shape[1]):
                self.assertTrue((np.diff(values[:, s]) < 0).all(), values[:, s])
            # The redline controller holds the hottest inlet at the redline exactly, unless the supply
            # would have to go below supply_temp_min_c (5.5 C by default): then the inlets go above
            # the redline, and only then. On meng40 the busiest moments need a supply below 5.5 C
            # for redlines up to about 30 C (rise up to 24.4 K), none at 32 C.
            inlet = ds.max_inlet_c.isel(replicate=0).values
            above = ds.time_above_redline_s.isel(replicate=0).values
            redline = np.broadcast_to(ds.redline_c.values[:, None], inlet.shape)
            self.assertTrue(np.allclose(inlet[above == 0], redline[above == 0]))
            self.assertTrue((inlet[above > 0] > redline[above > 0] + 1e-6).all())
            self.assertTrue((above[0, :] > 0).all(), above)   # 22 C: the floor binds
            self.assertTrue((above[-1, :] == 0).all(), above)  # 32 C: never
            self.assertTrue((ds.time_supply_below_floor_s.values == 0).all())
            # Compute energy does not depend on cooling; cooling power = energy / makespan-ish span
            compute = ds.compute_energy_j.values
            self.assertTrue(np.allclose(compute, compute.flat[0]))
            self.assertTrue((ds.avg_cooling_power_w.values > 0).all())
            series = xr.open_dataset(out, engine="netcdf4", group="series/cooling_power_w")
            self.assertGreater(series["values"].size, 0)
            self.assertTrue((series["values"].values > 0).all())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
