#pragma once
// How a design's unit coordinate u in [0, 1] becomes a factor's value: the inverse of the
// factor's cumulative distribution (so a stratified u gives a stratified value), or one of a
// list of levels, each with probability 1/L.
#include <cstddef>
#include <string>
#include <string_view>

namespace dcsweep::analysis {

struct Distribution {
  enum class Kind { uniform, log_uniform, normal };
  Kind kind = Kind::uniform;
  double min = 0, max = 1;  ///< bounds; for `normal` where it is truncated
  double mean = 0, sd = 1;  ///< `normal` only

  /// The value at cumulative probability u; min at 0, max at 1 (truncated normal included).
  double quantile(double u) const;
  /// "uniform [24, 32]", "log_uniform [0.01, 1]", "normal(27, 2) in [22, 32]".
  std::string text() const;
};

std::string_view kind_name(Distribution::Kind kind);

/// The level of u among `levels` equally likely ones: floor(u L), with u = 1 the last level (a
/// Morris grid's top) and u within 1e-9 of a boundary counted above it (l / L computed in
/// floating point lands on either side of it).
std::size_t level_of(double u, std::size_t levels);

}  // namespace dcsweep::analysis
