#pragma once
// Input readers that need more than the simulation knows: matrices in HDF5 files (the simulation
// reads CSV and MatrixMarket itself) and a per-rank cache of rooms' D matrices, which can take
// seconds to build for a large room and are shared by every point on the same room.
#include <string>

#include "dcsweep/sim/datacenter.hpp"

namespace dcsweep {

/// .h5/.hdf5: the 2-D dataset "D" or "A" (or the only 2-D dataset) of the file, or
/// "FILE.h5:/path/to/dataset"; anything else: read_matrix_file (CSV, .mtx, builtin).
Matrix read_matrix_any(const std::string& path);

/// Builds each distinct room's D once (keyed by heat_distribution_key), with read_matrix_any.
HeatProvider caching_heat_provider();

}  // namespace dcsweep
