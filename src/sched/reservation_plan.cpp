#include "reservation_plan.hpp"

#include <algorithm>

namespace dcsweep::detail {

Profile::Profile(double now, std::int32_t free, const SchedulingContext& ctx) : time_{now}, free_{free} {
  for (const EstimatedEnd& end : ctx.running()) {
    const std::int32_t nodes = ctx.config(end.job).nodes_of(ctx.job(end.job));
    const double t = std::max(end.time_s, now);
    if (t > time_.back()) {
      time_.push_back(t);
      free_.push_back(free_.back());
    }
    free_.back() += nodes;
  }
}

std::size_t Profile::earliest(std::int32_t nodes, double duration, std::size_t from) const {
  for (std::size_t i = from; i < time_.size(); ++i) {
    if (free_[i] < nodes) continue;
    const double end = time_[i] + duration;
    std::size_t j = i;
    while (j + 1 < time_.size() && time_[j + 1] < end && free_[j + 1] >= nodes) ++j;
    if (j + 1 == time_.size() || time_[j + 1] >= end) return i;
    i = j;  // step j + 1 lacks nodes: no start before it can work
  }
  return time_.size();
}

void Profile::reserve(std::size_t i, std::int32_t nodes, double duration) {
  const double end = time_[i] + duration;
  std::size_t j = i;
  for (; j < time_.size() && time_[j] < end; ++j) free_[j] -= nodes;
  if (j == time_.size() || time_[j] > end) {  // split the step that the reservation ends inside
    time_.insert(time_.begin() + static_cast<std::ptrdiff_t>(j), end);
    free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(j), free_[j - 1] + nodes);
  }
}

void plan_and_start(SchedulingContext& ctx, std::span<const JobIndex> queue, std::vector<std::size_t>& started) {
  started.clear();
  if (queue.empty() || ctx.free_nodes() == 0) return;
  const double now = ctx.now();
  Profile profile(now, ctx.free_nodes(), ctx);
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const Job& job = ctx.job(queue[q]);
    const std::size_t step = profile.earliest(job.nodes, job.estimate_s);
    if (step == profile.size()) continue;  // cannot be planned while nodes are off
    // Started now only if the allocator places it and its estimate, as the runtime model makes
    // it for that placement, still fits; otherwise it keeps a place in the plan.
    double duration = job.estimate_s;
    const auto fits = [&](double end) {
      duration = end - now;
      return profile.earliest(job.nodes, duration) == step;
    };
    if (profile.time(step) == now && ctx.start_if(queue[q], {}, fits)) {
      started.push_back(q);
      profile.reserve(step, job.nodes, duration);
      continue;
    }
    duration = job.estimate_s;
    const std::size_t later = profile.time(step) == now ? profile.earliest(job.nodes, duration, step + 1) : step;
    if (later < profile.size()) profile.reserve(later, job.nodes, duration);
  }
}

void PlanningScheduler::schedule(SchedulingContext& ctx) {
  queue_.start_heads(ctx);
  plan_and_start(ctx, queue_.view(), started_);
  queue_.erase_positions(started_);
}

}  // namespace dcsweep::detail
