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
  /// Base values overlaid with the point's axis values; `seed` is the spec's.
  ParamSet params(std::uint64_t flat) const;

 private:
  const SweepSpec* spec_;
  ParamSet base_;
  std::vector<std::uint64_t> shape_;
  std::uint64_t size_ = 1;
};

}  // namespace dcsweep
