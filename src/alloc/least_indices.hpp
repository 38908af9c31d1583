#pragma once
// A helper of the thermal allocators' bounds (mpit's hottest inlets, mtdp's tightest): private to
// alloc.
#include <Eigen/Core>
#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

namespace dcsweep {

/// Of the indices 0 .. n-1, the `count` first under `before` (all n when fewer), in that order.
template <class Before>
std::vector<Eigen::Index> least_indices(Eigen::Index n, std::size_t count, Before before) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  const std::size_t kept = std::min(count, order.size());
  std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(kept), order.end(), before);
  order.resize(kept);
  return order;
}

}  // namespace dcsweep
