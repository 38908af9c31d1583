#include "dcsweep/platform/network.hpp"

#include <algorithm>
#include <array>

namespace dcsweep {
namespace {

/// Mesh: sweeping values upwards, each new node at v is |v - u| from every node u below it, so
/// it adds cnt_below x v - sum_below.
std::int64_t mesh_sum(const std::vector<std::int64_t>& count) {
  std::int64_t total = 0, below = 0, below_sum = 0;
  for (std::size_t v = 0; v < count.size(); ++v) {
    const auto value = static_cast<std::int64_t>(v);
    total += count[v] * (below * value - below_sum);
    below += count[v];
    below_sum += count[v] * value;
  }
  return total;
}

/// Torus of length L: for a node at a and one at b > a, the distance is b - a while
/// 2 (b - a) <= L, else L - (b - a). Prefix sums over values give, for each a, the near part
/// (a, a + L/2] and the far part beyond it in O(1).
std::int64_t torus_sum(const std::vector<std::int64_t>& count, std::int32_t wrap) {
  const std::size_t size = count.size();
  // Prefix over values [0, v), on the stack for the usual lengths (a hot path of mm and genalg).
  constexpr std::size_t kOnStack = 256;
  std::array<std::int64_t, kOnStack + 1> cnt_stack, sum_stack;
  std::vector<std::int64_t> cnt_heap, sum_heap;
  std::int64_t* cnt = cnt_stack.data();
  std::int64_t* sum = sum_stack.data();
  if (size > kOnStack) {
    cnt_heap.resize(size + 1), sum_heap.resize(size + 1);
    cnt = cnt_heap.data(), sum = sum_heap.data();
  }
  cnt[0] = sum[0] = 0;
  for (std::size_t v = 0; v < size; ++v) {
    cnt[v + 1] = cnt[v] + count[v];
    sum[v + 1] = sum[v] + count[v] * static_cast<std::int64_t>(v);
  }
  std::int64_t total = 0;
  for (std::size_t a = 0; a < size; ++a) {
    if (count[a] == 0) continue;
    const auto va = static_cast<std::int64_t>(a);
    const std::size_t split = std::min(size, a + 1 + static_cast<std::size_t>(wrap / 2));  // near: (a, split)
    const std::int64_t near_n = cnt[split] - cnt[a + 1], near_s = sum[split] - sum[a + 1];
    const std::int64_t far_n = cnt[size] - cnt[split], far_s = sum[size] - sum[split];
    total += count[a] * ((near_s - near_n * va) + (far_n * (wrap + va) - far_s));
  }
  return total;
}

}  // namespace

std::int64_t axis_pair_distance_sum(const AxisHistogram& axis) {
  return axis.wrap > 0 ? torus_sum(axis.count, axis.wrap) : mesh_sum(axis.count);
}

}  // namespace dcsweep
