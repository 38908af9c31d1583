#pragma once
// Sums of hop distances by dimension: the L1 distance of a 3D mesh or torus is a sum over its
// axes, so the total over all pairs of a node set comes from one histogram per axis, in
// O(n + axis length) (the communication cost and the allocators' scores use it).
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "dcsweep/platform/platform.hpp"

namespace dcsweep {

struct AxisHistogram {
  std::vector<std::int64_t> count;  ///< count[v]: nodes with coordinate v
  std::int32_t wrap = 0;            ///< torus length of the dimension, 0 on a mesh
};

/// The distance along one axis between coordinates a and b: |a - b|, or min(|a - b|, wrap - |a - b|)
/// on a torus (wrap > 0).
inline std::int32_t axis_distance(std::int32_t a, std::int32_t b, std::int32_t wrap) {
  const std::int32_t h = a > b ? a - b : b - a;
  return wrap > 0 && wrap - h < h ? wrap - h : h;
}

/// Sum over unordered pairs of nodes of their distance along one axis: |a - b|, or
/// min(|a - b|, wrap - |a - b|) on a torus. O(count.size()).
std::int64_t axis_pair_distance_sum(const AxisHistogram& axis);

/// The same on a line: sum over unordered pairs of |a - b|, count[v] the nodes at v (also a
/// torus window whose ends are at most half the axis apart: there the distances agree).
std::int64_t line_pair_distance_sum(std::span<const std::int64_t> count);

/// The same on a ring of `wrap` coordinates for the nodes of a window of consecutive ones,
/// window[i] at the window's i-th coordinate (window.size() <= wrap): the line's sum less, for
/// pairs more than half the ring apart along the window, what going round the other way saves.
/// O(window + (window - wrap / 2)^2), less than a whole ring's pass when the window is narrow.
std::int64_t ring_window_pair_distance_sum(std::span<const std::int64_t> window, std::int32_t wrap);

/// The least, over coordinates v in [a, b], of the distance along the axis from v to the nodes
/// of a window (window[i]: the nodes at coordinate lo + i), on a line (wrap 0) or a ring of `wrap`
/// coordinates; coordinates as consecutive integers, the window's and [a, b] within `wrap` of
/// each other. O(window + b - a): the nearest allocators' bound on what a node placed in [a, b]
/// adds to a set's pairwise hops.
std::int64_t least_window_attach(std::span<const std::int64_t> window, std::int32_t lo, std::int32_t a,
                                 std::int32_t b, std::int32_t wrap);

}  // namespace dcsweep
