#pragma once
// The flat point index of a sweep: row-major over the axes in spec order, replicate last
// (INTERFACE.md). Maps a flat index to its coordinates and to the parameter set it simulates.
#include <cstdint>
#include <vector>

#include "dcsweep/sweep/spec.hpp"

namespace dcsweep {

class Grid {
 public:
  Grid(const SweepSpec& spec, const ParamCatalog& catalog);

  std::uint64_t size() const { return size_; }
  const SweepSpec& spec() const { return *spec_; }
  /// Extent of each dimension: the axes, then the replicates.
  const std::vector<std::uint64_t>& shape() const { return shape_; }
  /// Position along each dimension of `flat` (the last is the replicate).
  std::vector<std::uint64_t> coordinates(std::uint64_t flat) const;
  std::uint64_t replicate(std::uint64_t flat) const { return flat % shape_.back(); }
  /// The point number its random streams are keyed by under random_streams = "per_point": the
  /// flat index, or for an adaptive design a hash of the sample's coordinates and the replicate,
  /// so that a point's draws do not depend on the round that added it.
  std::uint64_t stream_point(std::uint64_t flat) const;
  /// Base values overlaid with the point's axis values; `seed` is the spec's.
  ParamSet params(std::uint64_t flat) const;

 private:
  const SweepSpec* spec_;
  ParamSet base_;
  std::vector<std::uint64_t> shape_;
  std::uint64_t size_ = 1;
};

}  // namespace dcsweep
