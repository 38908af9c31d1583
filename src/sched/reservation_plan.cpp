#include "reservation_plan.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#ifdef __AVX2__
#include <immintrin.h>
#endif

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

// The scans below look at up to 64 steps at a time through a bit mask of the steps that lack
// nodes (AVX2 compares where the build has them): they are most of a congested pass's work.
namespace {

constexpr std::size_t kBlock = 64;

/// Bit u set when values[u] < nodes, for u < count <= 64.
std::uint64_t short_bits(const std::int32_t* values, std::size_t count, std::int32_t nodes) {
  std::uint64_t bits = 0;
  std::size_t u = 0;
#ifdef __AVX2__
  const __m256i limit = _mm256_set1_epi32(nodes);
  for (; u + 8 <= count; u += 8) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + u));
    const auto lanes = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(limit, v))));
    bits |= std::uint64_t{lanes} << u;
  }
#endif
  for (; u < count; ++u) bits |= std::uint64_t{values[u] < nodes} << u;
  return bits;
}

}  // namespace

bool Profile::short_before(std::size_t from, std::int32_t nodes, double end) const {
  // Blocks of 8, 16, 32, then 64 steps: most windows end within a few steps.
  for (std::size_t base = from, block = 8; base < size(); base += block, block = std::min(2 * block, kBlock)) {
    const std::size_t count = std::min(block, size() - base);
    const std::uint64_t shorts = short_bits(&free_[base], count, nodes);
    if (shorts != 0) return time_[base + static_cast<std::size_t>(std::countr_zero(shorts))] < end;
    if (time_[base + count - 1] >= end) return false;
  }
  return false;
}

std::size_t Profile::earliest(std::int32_t nodes, double duration, std::size_t from) const {
  // Only the first step of a run of steps with enough nodes can be the start: a later one has the
  // same step lacking nodes after it, and less time before that step.
  std::size_t start = size();  // first step of the current run; size(): not in a run
  for (std::size_t base = from, block = 8; base < size(); base += block, block = std::min(2 * block, kBlock)) {
    const std::size_t count = std::min(block, size() - base);
    const std::size_t last = base + count - 1;
    const std::uint64_t shorts = short_bits(&free_[base], count, nodes);
    std::size_t u = 0;
    if (start < size()) {  // the run goes on from an earlier block
      if (shorts == 0) {
        if (time_[last] >= time_[start] + duration) return start;
        continue;
      }
      u = static_cast<std::size_t>(std::countr_zero(shorts));
      if (time_[base + u] >= time_[start] + duration) return start;
      start = size();
      ++u;
    }
    if (u >= count) continue;
    // Runs that begin in this block, in order: the k-th run begins at the k-th bit of `begins`
    // and, unless it reaches the block's end, is stopped by the k-th bit of `stops`. All are
    // tested without a branch per run (runs are often a step or two long), the first that
    // passes wins.
    const std::uint64_t valid = (count == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1) << u;
    const std::uint64_t enough = ~shorts & valid;
    std::uint64_t begins = enough & ~(enough << 1);
    std::uint64_t stops = shorts & (enough << 1);
    std::uint64_t passed = 0;
    while (stops != 0) {
      const auto first = static_cast<std::size_t>(std::countr_zero(begins));
      const auto stop = static_cast<std::size_t>(std::countr_zero(stops));
      passed |= std::uint64_t{time_[base + stop] >= time_[base + first] + duration} << first;
      begins &= begins - 1;
      stops &= stops - 1;
    }
    if (passed != 0) return base + static_cast<std::size_t>(std::countr_zero(passed));
    if (begins != 0) {  // the last run reaches the block's end
      start = base + static_cast<std::size_t>(std::countr_zero(begins));
      if (time_[last] >= time_[start] + duration) return start;
    }
  }
  return start;  // a run that lasts to the last step, which lasts forever, or none
}

bool Profile::fits_now(std::int32_t nodes, double end) const {
  return free_[0] >= nodes && !short_before(1, nodes, end);
}

void Profile::reserve(std::size_t i, std::int32_t nodes, double end) {
  std::size_t j = i;
  for (; j + 8 <= size() && time_[j + 7] < end; j += 8) {
    for (std::size_t u = 0; u < 8; ++u) free_[j + u] -= nodes;
  }
  for (; j < size() && time_[j] < end; ++j) free_[j] -= nodes;
  if (j == size() || time_[j] > end) {  // split the step that the reservation ends inside
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
  const std::span<const Job> jobs = ctx.jobs();
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
      const Job& job = jobs[static_cast<std::size_t>(queue[next_fit])];
      horizon = now + job.estimate_s;
      known = profile_.fits_now(job.nodes, horizon);
      if (!known) ++next_fit;
    }
    if (!known) break;  // nothing left can start now
    if (place(ctx, q, jobs[static_cast<std::size_t>(queue[q])]) < horizon) known = false;
  }
  queue_.erase_positions(started_);
  planned_ = q - started_.size();
  // A refused job must be tried again at the next pass, which the kept plan would not do.
  kept_ = !refused_;
}

double PlanningScheduler::place(SchedulingContext& ctx, std::size_t q, const Job& job) {
  const double now = ctx.now();
  const JobIndex index = queue_[q];
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
