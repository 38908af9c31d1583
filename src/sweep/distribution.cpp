#include "dcsweep/sweep/distribution.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>

namespace dcsweep {

ChunkPlanner::ChunkPlanner(std::vector<std::uint64_t> points, std::span<const double> costs, int ranks,
                           ChunkPolicy policy)
    : order_(std::move(points)) {
  // Most expensive first; ties by flat index so the order is the same on every run.
  std::sort(order_.begin(), order_.end(), [&](std::uint64_t a, std::uint64_t b) {
    return costs[a] != costs[b] ? costs[a] > costs[b] : a < b;
  });
  cost_.reserve(order_.size());
  for (const std::uint64_t p : order_) cost_.push_back(std::max(costs[p], 0.0));
  total_cost_ = remaining_cost_ = std::accumulate(cost_.begin(), cost_.end(), 0.0);
  const double share = total_cost_ / std::max(ranks, 1);
  floor_s_ = std::min(policy.min_chunk_s, policy.min_share * share);
  cap_s_ = std::max(policy.max_chunk_s, floor_s_);
  divisor_ = policy.split * std::max(ranks, 1);
}

std::vector<std::uint64_t> ChunkPlanner::next() {
  std::vector<std::uint64_t> chunk;
  const double target = std::clamp(remaining_cost_ / divisor_, floor_s_, cap_s_);
  double taken = 0;
  while (next_ < order_.size() && (chunk.empty() || taken + cost_[next_] <= target)) {
    taken += cost_[next_];
    chunk.push_back(order_[next_++]);
  }
  remaining_cost_ = next_ < order_.size() ? std::max(remaining_cost_ - taken, 0.0) : 0.0;
  return chunk;
}

MakespanPlan plan_makespan(std::span<const double> costs, std::span<const double> wall_s, int ranks,
                           ChunkPolicy policy) {
  MakespanPlan plan;
  plan.ranks = ranks;
  std::vector<std::uint64_t> points(costs.size());
  std::iota(points.begin(), points.end(), 0);
  for (const double w : wall_s) {
    plan.total_s += w;
    plan.longest_s = std::max(plan.longest_s, w);
  }
  plan.lower_bound_s = std::max(plan.total_s / ranks, plan.longest_s);
  ChunkPlanner planner(std::move(points), costs, ranks, policy);
  // Free times of the ranks; each takes the next chunk when it becomes free.
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (int r = 0; r < ranks; ++r) free_at.push(0.0);
  for (auto chunk = planner.next(); !chunk.empty(); chunk = planner.next()) {
    double t = free_at.top();
    free_at.pop();
    for (const std::uint64_t p : chunk) t += wall_s[p];
    plan.makespan_s = std::max(plan.makespan_s, t);
    free_at.push(t);
    ++plan.chunks;
  }
  return plan;
}

}  // namespace dcsweep
