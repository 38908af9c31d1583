#include "dcsweep/platform/network.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace dcsweep {
namespace {

/// Torus of length L (count.size() == L): a pair whose circular offset from a to b is d in
/// [1, h], h = (L - 1) / 2, is d apart and counted from a only; with L even the pairs L / 2 apart
/// are counted once more, apart. One pass: W(a) = sum over d in [1, h] of d count[a + d] slides
/// to W(a + 1) = W(a) - S(a) + h count[a + h + 1], S(a) the counts in [a + 1, a + h] (a hot path
/// of mm and genalg).
std::int64_t torus_sum(const std::vector<std::int64_t>& count) {
  const auto L = static_cast<std::int32_t>(count.size());
  const std::int64_t* c = count.data();
  const std::int32_t h = (L - 1) / 2;
  std::int64_t w = 0, s = 0;
  for (std::int32_t d = 1; d <= h; ++d) w += d * c[d], s += c[d];
  std::int64_t total = 0;
  for (std::int32_t a = 0; a < L; ++a) {
    total += c[a] * w;
    const std::int32_t enter = a + h + 1 < L ? a + h + 1 : a + h + 1 - L, leave = a + 1 < L ? a + 1 : 0;
    w += h * c[enter] - s;
    s += c[enter] - c[leave];
  }
  if (L % 2 == 0) {
    std::int64_t opposite = 0;
    for (std::int32_t a = 0; a < L / 2; ++a) opposite += c[a] * c[a + L / 2];
    total += opposite * (L / 2);
  }
  return total;
}

}  // namespace

std::int64_t axis_pair_distance_sum(const AxisHistogram& axis) {
  if (axis.wrap > 0 && std::ssize(axis.count) != axis.wrap) {
    throw std::invalid_argument("a torus axis histogram needs one count per coordinate");
  }
  return axis.wrap > 0 ? torus_sum(axis.count) : line_pair_distance_sum(axis.count);
}

/// A pair a < b apart crosses each of the b - a gaps between neighbouring values between them:
/// the sum is, over the gaps, the nodes at or below the gap times those above it (one product
/// per value, independent of one another; a hot path of mm and genalg).
std::int64_t line_pair_distance_sum(std::span<const std::int64_t> count) {
  std::int64_t all = 0;
  for (const std::int64_t c : count) all += c;
  std::int64_t total = 0, below = 0;
  for (std::size_t v = 0; v + 1 < count.size(); ++v) {
    below += count[v];
    total += below * (all - below);
  }
  return total;
}

std::int64_t ring_window_pair_distance_sum(std::span<const std::int64_t> window, std::int32_t wrap) {
  const auto width = static_cast<std::int32_t>(window.size());
  if (width > wrap) throw std::invalid_argument("a ring window holds at most the ring's coordinates");
  std::int64_t total = line_pair_distance_sum(window);
  // A pair d > wrap / 2 apart along the window is wrap - d apart round the ring: 2 d - wrap less.
  // Per right end b, over the left ends a <= b - wrap / 2 - 1, that is c_b ((2 b - wrap) S0 - 2 S1)
  // with S0, S1 the running sums of c_a and a c_a: O(width) (exact integers, as the pairs summed).
  std::int64_t s0 = 0, s1 = 0;
  for (std::int32_t b = wrap / 2 + 1; b < width; ++b) {
    const std::int32_t a = b - wrap / 2 - 1;  // the left end that comes into reach
    s0 += window[std::size_t(a)], s1 += a * window[std::size_t(a)];
    total -= window[std::size_t(b)] * ((2 * std::int64_t{b} - wrap) * s0 - 2 * s1);
  }
  return total;
}

std::int64_t least_window_attach(std::span<const std::int64_t> window, std::int32_t lo, std::int32_t a,
                                 std::int32_t b, std::int32_t wrap) {
  const auto width = static_cast<std::int32_t>(window.size());
  const std::int32_t hi = lo + width - 1;
  const std::int32_t spread = std::max(b, hi) - std::min(a, lo);  // the farthest apart two of them can be
  if (a > b) throw std::invalid_argument("least_window_attach: an empty range of coordinates");
  if (wrap > 0 && spread >= wrap) {
    throw std::invalid_argument("least_window_attach: the window and the range span more than the ring");
  }
  if (wrap == 0 || spread <= wrap / 2) {
    // As on a line (no node and coordinate more than half the ring apart): the sum is convex in
    // v, least at a weighted median, so over [a, b] at the median brought into the range.
    std::int64_t total = 0;
    for (const std::int64_t c : window) total += c;
    std::int32_t i = 0;
    for (std::int64_t below = 0; i < width && 2 * (below + window[std::size_t(i)]) < total; ++i) below += window[std::size_t(i)];
    const std::int64_t v = std::clamp(lo + i, a, b);
    std::int64_t sum = 0;
    for (std::int32_t j = 0; j < width; ++j) sum += window[std::size_t(j)] * std::abs(lo + j - v);
    return sum;
  }
  // On the ring, v slid from a to b: a step to v + 1 brings the nodes 1 to ahead_n coordinates
  // ahead of v one nearer and takes every other one farther, but (wrap odd) the one (wrap + 1) / 2
  // ahead, as far either way. The nodes by coordinate ahead of a, (u - a) mod wrap, twice round
  // (no wrapping in the slide), on the stack for rings of up to 128.
  const std::int32_t ahead_n = wrap % 2 ? (wrap - 1) / 2 : wrap / 2;
  std::array<std::int64_t, 256> stack;  // NOLINT: the first 2 wrap entries are zeroed below
  std::vector<std::int64_t> heap;
  std::int64_t* ring = stack.data();
  if (wrap > 128) heap.resize(2 * std::size_t(wrap)), ring = heap.data();
  std::fill_n(ring, 2 * std::size_t(wrap), std::int64_t{0});
  std::int64_t total = 0;
  for (std::int32_t i = 0, d = std::int32_t(((std::int64_t{lo} - a) % wrap + wrap) % wrap); i < width; ++i) {
    ring[d] = ring[d + wrap] = window[std::size_t(i)], total += window[std::size_t(i)];
    d = d + 1 == wrap ? 0 : d + 1;
  }
  std::int64_t at = 0, ahead = 0;  // at: the distances from v = a summed
  for (std::int32_t d = 1; d < wrap; ++d) at += ring[d] * std::min(d, wrap - d);
  for (std::int32_t d = 1; d <= ahead_n; ++d) ahead += ring[d];
  std::int64_t best = at;
  for (std::int32_t t = 0; t < b - a; ++t) {  // v = a + t to v + 1
    at += total - 2 * ahead - (wrap % 2 ? ring[t + (wrap + 1) / 2] : 0);
    best = std::min(best, at);
    ahead += ring[t + 1 + ahead_n] - ring[t + 1];
  }
  return best;
}

}  // namespace dcsweep
