#include "dcsweep/sweep/grid.hpp"

#include <bit>

namespace dcsweep {

Grid::Grid(const SweepSpec& spec, const ParamCatalog& catalog) : spec_(&spec), base_(catalog) {
  for (const auto& [name, value] : spec.base) base_.set(name, value);
  base_.set("seed", static_cast<std::int64_t>(spec.seed));
  for (const Axis& axis : spec.axes) shape_.push_back(axis.size());
  shape_.push_back(static_cast<std::uint64_t>(spec.replicates));
  for (const std::uint64_t extent : shape_) size_ *= extent;
}

std::vector<std::uint64_t> Grid::coordinates(std::uint64_t flat) const {
  std::vector<std::uint64_t> out(shape_.size());
  for (std::size_t d = shape_.size(); d-- > 0;) {
    out[d] = flat % shape_[d];
    flat /= shape_[d];
  }
  return out;
}

std::uint64_t Grid::stream_point(std::uint64_t flat) const {
  if (spec_->design.kind != DesignKind::adaptive) return flat;
  const analysis::AdaptivePoints& points = spec_->design.adaptive.points;
  const std::uint64_t sample = flat / shape_.back();
  std::uint64_t h = 14695981039346656037ULL;  // FNV-1a over the coordinates' bytes, then the replicate
  auto mix = [&h](std::uint64_t word) {
    for (int b = 0; b < 8; ++b) h = (h ^ ((word >> (8 * b)) & 0xff)) * 1099511628211ULL;
  };
  for (std::size_t a = 0; a < points.axes; ++a) mix(std::bit_cast<std::uint64_t>(points.at(sample, a)));
  mix(replicate(flat));
  return h;
}

ParamSet Grid::params(std::uint64_t flat) const {
  ParamSet p = base_;
  const std::vector<std::uint64_t> at = coordinates(flat);
  for (std::size_t d = 0; d < spec_->axes.size(); ++d) {
    const Axis& axis = spec_->axes[d];
    for (std::size_t k = 0; k < axis.params.size(); ++k) p.set(axis.params[k], axis.values[k][at[d]]);
  }
  return p;
}

}  // namespace dcsweep
