import xarray as xr

ds = xr.open_dataset("results/demo.h5", engine="netcdf4").isel(replicate=0)
print(ds.cooling_energy_j.dims, ds.cooling_energy_j.attrs["units"])
print((ds.cooling_energy_j / 1e9).round(1).to_pandas())  # GJ, allocator x redline_c
cols = ["avg_comm_cost", "avg_runtime_stretch", "avg_wait_s"]
print(ds.sel(redline_c=27)[cols].to_dataframe()[cols].round(2))
