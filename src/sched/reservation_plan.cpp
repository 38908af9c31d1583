#include "reservation_plan.hpp"

#include <algorithm>
#include <cmath>

namespace dcsweep::detail {

void Profile::rebuild(double now, std::int32_t free, const SchedulingContext& ctx) {
  time_.assign(1, now);
  free_.assign(1, free);
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

bool Profile::fits_now(std::int32_t nodes, double end) const {
  if (free_[0] < nodes) return false;
  for (std::size_t i = 1; i < time_.size() && time_[i] < end; ++i) {
    if (free_[i] < nodes) return false;
  }
  return true;
}

void Profile::reserve(std::size_t i, std::int32_t nodes, double end) {
  std::size_t j = i;
  for (; j < time_.size() && time_[j] < end; ++j) free_[j] -= nodes;
  if (j == time_.size() || time_[j] > end) {  // split the step that the reservation ends inside
    time_.insert(time_.begin() + static_cast<std::ptrdiff_t>(j), end);
    free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(j), free_[j - 1] + nodes);
  }
}

bool Profile::advance(double now) {
  if (time_.size() > 1 && time_[1] <= now) return false;
  time_[0] = now;
  return true;
}

void PlanningScheduler::inserted(std::size_t position, JobIndex index) {
  if (!kept_) return;
  if (position < planned_) {
    kept_ = false;  // it goes before planned jobs: they must be planned again
  } else {
    new_jobs_.push_back(index);
  }
}

void PlanningScheduler::schedule(SchedulingContext& ctx) {
  if (!resume_kept_plan(ctx)) {
    kept_ = false;
    new_jobs_.clear();
    queue_.start_heads(ctx);
    if (!queue_.empty() && ctx.free_nodes() > 0) {
      profile_.rebuild(ctx.now(), ctx.free_nodes(), ctx);
      plan(ctx, 0);
    }
  }
  running_ = ctx.running().size();
  free_ = ctx.free_nodes();
}

bool PlanningScheduler::resume_kept_plan(SchedulingContext& ctx) {
  if (!kept_ || ctx.running().size() != running_ || ctx.free_nodes() != free_ || !profile_.advance(ctx.now())) {
    return false;
  }
  const auto fits_now = [&](JobIndex index) {
    const Job& job = ctx.job(index);
    return profile_.fits_now(job.nodes, ctx.now() + job.estimate_s);
  };
  const bool any = std::any_of(new_jobs_.begin(), new_jobs_.end(), fits_now);
  new_jobs_.clear();
  if (any) plan(ctx, planned_);
  return true;
}

void PlanningScheduler::plan(SchedulingContext& ctx, std::size_t from) {
  const double now = ctx.now();
  const std::span<const JobIndex> queue = queue_.view();
  started_.clear();
  refused_ = false;
  // next_fit: no job in [q, next_fit) fits now; when `known`, the one at next_fit does, and
  // keeps fitting until a reservation begins before now + its estimate (its horizon).
  std::size_t q = from, next_fit = from;
  bool known = false;
  double horizon = now;
  for (; q < queue.size(); ++q) {
    if (next_fit < q) {
      next_fit = q;
      known = false;
    }
    while (!known && next_fit < queue.size()) {
      const Job& job = ctx.job(queue[next_fit]);
      horizon = now + job.estimate_s;
      known = profile_.fits_now(job.nodes, horizon);
      if (!known) ++next_fit;
    }
    if (!known) break;  // nothing left can start now
    if (place(ctx, q) < horizon) known = false;
  }
  queue_.erase_positions(started_);
  planned_ = q - started_.size();
  // A refused job must be tried again at the next pass, which the kept plan would not do.
  kept_ = !refused_;
}

double PlanningScheduler::place(SchedulingContext& ctx, std::size_t q) {
  const double now = ctx.now();
  const JobIndex index = queue_[q];
  const Job& job = ctx.job(index);
  const std::size_t step = profile_.earliest(job.nodes, job.estimate_s);
  if (step == profile_.size()) return INFINITY;  // cannot be planned while nodes are off
  if (step == 0) {
    // Started now only if the allocator places it and its estimate, as the runtime model makes
    // it for that placement, still fits; its nodes are then reserved until that estimated end,
    // as the running job it becomes. Otherwise it keeps a place in the plan.
    double end = now + job.estimate_s;
    const auto fits = [&](double estimated_end) {
      end = estimated_end;
      return profile_.fits_now(job.nodes, end);
    };
    if (ctx.start_if(index, {}, fits)) {
      started_.push_back(q);
      profile_.reserve(0, job.nodes, end);
      return now;
    }
    refused_ = true;
  }
  const std::size_t at = step == 0 ? profile_.earliest(job.nodes, job.estimate_s, 1) : step;
  if (at == profile_.size()) return INFINITY;
  const double start = profile_.time(at);
  profile_.reserve(at, job.nodes, start + job.estimate_s);
  return start;
}

}  // namespace dcsweep::detail
