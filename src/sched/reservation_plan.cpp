#include "reservation_plan.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#ifdef __AVX2__
#include <immintrin.h>
#endif

namespace dcsweep::detail {

void Profile::reset(double now, std::int32_t free) {
  time_.assign(1, now);
  free_.assign(1, free);
}

void Profile::rebuild(double now, std::int32_t free, const SchedulingContext& ctx) {
  reset(now, free);
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

std::size_t Profile::earliest(std::int32_t nodes, double duration, std::size_t from, double before) const {
  const std::size_t at = first_start(nodes, duration, from, before);
  return at < size() && time_[at] < before ? at : size();
}

std::size_t Profile::first_start(std::int32_t nodes, double duration, std::size_t from, double before) const {
  // Only the first step of a run of steps with enough nodes can be the start: a later one has the
  // same step lacking nodes after it, and less time before that step.
  std::size_t start = size();  // first step of the current run; size(): not in a run
  for (std::size_t base = from, block = 8; base < size(); base += block, block = std::min(2 * block, kBlock)) {
    if (start == size() && time_[base] >= before) return size();
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

void Profile::falling_lows(std::vector<Low>& lows) const {
  lows.clear();
  std::int32_t least = std::numeric_limits<std::int32_t>::max();
  for (std::size_t i = 0; i < size() && least > 0; ++i) {
    if (free_[i] < least) {
      least = free_[i];
      lows.push_back({time_[i], least});
    }
  }
}

std::size_t Profile::first_fitting_now(const std::vector<Low>& lows, std::span<const Job> jobs,
                                       std::span<const JobIndex> queue, std::size_t from, double now) {
  const std::int32_t free_now = lows.front().free;
  for (std::size_t p = from; p < queue.size(); ++p) {
    const Job& job = jobs[static_cast<std::size_t>(queue[p])];
    if (job.nodes > free_now) continue;
    std::size_t k = 1;  // the first low lacking the job's nodes (few: a linear look)
    while (k < lows.size() && lows[k].free >= job.nodes) ++k;
    if (k == lows.size() || lows[k].time >= now + job.estimate_s) return p;
  }
  return queue.size();
}

std::size_t Profile::reserve(std::size_t i, std::int32_t nodes, double end) {
  std::size_t j = i;
  for (; j + 8 <= size() && time_[j + 7] < end; j += 8) {
    for (std::size_t u = 0; u < 8; ++u) free_[j + u] -= nodes;
  }
  for (; j < size() && time_[j] < end; ++j) free_[j] -= nodes;
  if (j == size() || time_[j] > end) {  // split the step that the reservation ends inside
    time_.insert(time_.begin() + static_cast<std::ptrdiff_t>(j), end);
    free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(j), free_[j - 1] + nodes);
  }
  return j;
}

bool Profile::short_within(std::size_t i, std::size_t j, std::int32_t nodes, double end) const {
  for (std::size_t base = i; base < j && time_[base] < end; base += kBlock) {
    const std::uint64_t shorts = short_bits(&free_[base], std::min(kBlock, j - base), nodes);
    if (shorts != 0) return time_[base + static_cast<std::size_t>(std::countr_zero(shorts))] < end;
  }
  return false;
}

bool Profile::advance(double now) {
  if (time_.size() > 1 && time_[1] <= now) return false;
  time_[0] = now;
  return true;
}

std::size_t Profile::split(double t) {
  const auto at = static_cast<std::size_t>(std::lower_bound(time_.begin(), time_.end(), t) - time_.begin());
  if (at < size() && time_[at] == t) return at;
  time_.insert(time_.begin() + static_cast<std::ptrdiff_t>(at), t);
  free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(at), free_[at - 1]);
  return at;
}

void Profile::drop_before(double now) {
  const auto passed = std::upper_bound(time_.begin() + 1, time_.end(), now) - time_.begin() - 1;
  time_.erase(time_.begin(), time_.begin() + passed);
  free_.erase(free_.begin(), free_.begin() + passed);
  time_[0] = now;
}

void Profile::add(double from, double to, std::int32_t delta) {
  const std::size_t i = split(from);
  const std::size_t j = std::isfinite(to) ? split(to) : size();
  for (std::size_t k = i; k < j; ++k) free_[k] += delta;
  // A job that ended early leaves its estimated end as a step like the one before: merge, or
  // such steps would pile up (every scan pays for them).
  const auto merge = [&](std::size_t k) {
    if (k == 0 || k >= size() || free_[k] != free_[k - 1]) return;
    time_.erase(time_.begin() + static_cast<std::ptrdiff_t>(k));
    free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(k));
  };
  merge(j);
  merge(i);
}

bool Profile::same_steps(const Profile& other) const {
  const auto changes = [](const Profile& p) {
    std::vector<std::pair<double, std::int32_t>> steps;
    for (std::size_t i = 0; i < p.size(); ++i) {
      if (i == 0 || p.free_[i] != p.free_[i - 1]) steps.emplace_back(p.time_[i], p.free_[i]);
    }
    return steps;
  };
  return changes(*this) == changes(other);
}

std::pair<std::int32_t, std::int32_t> Profile::least_and_most(double end) const {
  std::int32_t least = free_[0], most = free_[0];
  for (std::size_t i = 1; i < size() && time_[i] < end; ++i) {
    least = std::min(least, free_[i]);
    most = std::max(most, free_[i]);
  }
  return {least, most};
}

std::size_t Profile::next_change(std::size_t i) const {
  std::size_t j = i + 1;
  while (j < size() && free_[j] == free_[i]) ++j;
  return j;
}

bool Profile::overbooked() const {
  for (std::size_t base = 0; base < size(); base += kBlock) {
    if (short_bits(&free_[base], std::min(kBlock, size() - base), 0) != 0) return true;
  }
  return false;
}

std::int32_t Profile::least_short_by(std::int32_t nodes, std::size_t steps) const {
  std::int32_t most_free = -1;  // the most free nodes at a step that lacks `nodes`
  std::size_t i = 0;
#ifdef __AVX2__
  const __m256i limit = _mm256_set1_epi32(nodes);
  __m256i most = _mm256_set1_epi32(-1);
  for (; i + 8 <= steps; i += 8) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&free_[i]));
    most = _mm256_max_epi32(most, _mm256_blendv_epi8(_mm256_set1_epi32(-1), v, _mm256_cmpgt_epi32(limit, v)));
  }
  alignas(32) std::int32_t lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), most);
  most_free = *std::max_element(lanes, lanes + 8);
#endif
  for (; i < steps; ++i) {
    if (free_[i] < nodes) most_free = std::max(most_free, free_[i]);
  }
  return most_free < 0 ? nodes : nodes - most_free;
}

double Profile::last_short_end(std::int32_t nodes, double until) const {
  // Blocks of 8, 16, 32, then 64 steps backwards from `until`: the stretch is often near it.
  auto end = static_cast<std::size_t>(std::lower_bound(time_.begin(), time_.end(), until) - time_.begin());
  for (std::size_t block = 8; end > 0; end -= std::min(block, end), block = std::min(2 * block, kBlock)) {
    const std::size_t base = end - std::min(block, end);
    const std::uint64_t shorts = short_bits(&free_[base], end - base, nodes);
    if (shorts != 0) {
      const std::size_t k = base + 63 - static_cast<std::size_t>(std::countl_zero(shorts));
      return k + 1 < size() ? std::min(time_[k + 1], until) : until;
    }
  }
  return time_[0];
}

void PlanningScheduler::inserted(std::size_t position, JobIndex index) {
  if (position < kept_.size()) {  // it goes before kept jobs: they must be planned again
    dropped_.insert(dropped_.end(), kept_.begin() + static_cast<std::ptrdiff_t>(position), kept_.end());
    kept_.resize(position);
    resumable_ = false;
  }
  if (resumable_) new_jobs_.push_back(index);
}

void PlanningScheduler::ended(JobIndex, double estimated_end_s, std::int32_t nodes) {
  ended_.push_back({estimated_end_s, nodes});
}

void PlanningScheduler::schedule(SchedulingContext& ctx) {
  if (!resume_kept_plan(ctx)) {
    resumable_ = false;
    new_jobs_.clear();
    queue_.start_heads(ctx, [&](JobIndex index, double end) {
      heads_.push_back({end, ctx.job(index).nodes});
      if (kept_.empty()) return;
      if (std::isfinite(kept_.front().start)) vacated_.push_back(kept_.front());
      kept_.erase(kept_.begin());
    });
    track_running(ctx);
    if (!queue_.empty() && ctx.free_nodes() > 0) {
      const std::size_t from = keep_plan(ctx);
      vacated_.clear();
      dropped_.clear();
      changes_.clear();
      plan(ctx, from);
    }
  }
  ended_.clear();
  running_ = ctx.running().size();
  free_ = ctx.free_nodes();
}

void PlanningScheduler::change_running(double from, double to, std::int32_t delta) {
  if (!(to > from) || delta == 0) return;
  running_now_.add(from, to, delta);
  if (!kept_.empty()) changes_.push_back({from, to, delta});  // without a kept plan, nothing needs them
}

void PlanningScheduler::track_running(const SchedulingContext& ctx) {
  const double now = ctx.now();
  std::int32_t free = free_;  // what the engine's free count would be without power changes
  for (const Leaving& job : ended_) free += job.nodes;
  for (const Leaving& job : heads_) free -= job.nodes;
  const bool rebuilt =
      !running_known_ || !keeps_running() || ctx.running().size() + ended_.size() != running_ + heads_.size();
  if (rebuilt) {
    running_now_.rebuild(now, ctx.free_nodes(), ctx);
    running_known_ = true;
    kept_.clear();  // what changed since it was made is not known
    changes_.clear();
  } else {
    // A running job's nodes come back at its estimated end, or now once that has passed: a job
    // that ended early gives them from now on, a head started takes them until its end, and
    // nodes switched off or booted change the free count from now on.
    running_now_.drop_before(now);
    for (const Leaving& job : ended_) change_running(now, job.end, job.nodes);
    for (const Leaving& job : heads_) change_running(now, job.end, -job.nodes);
    change_running(now, INFINITY, ctx.free_nodes() - free);
  }
  heads_.clear();
  running_tracked(running_now_, ctx, rebuilt);
}

std::size_t PlanningScheduler::keep_plan(const SchedulingContext& ctx) {
  const double now = ctx.now();
  if (kept_.empty()) {
    profile_ = running_now_;
    return 0;
  }
  // Where nodes were gained since the plan was made: until when, and at most how many at a time.
  // Each change runs from a pass no later than now, so from now on the change at t is the sum of
  // those that end after t: a sum that steps at their ends.
  for (Profile::Stretch& change : changes_) change.from = std::max(change.from, now);
  std::erase_if(changes_, [](const Profile::Stretch& change) { return !(change.to > change.from); });
  std::sort(changes_.begin(), changes_.end(),
            [](const Profile::Stretch& a, const Profile::Stretch& b) { return a.to < b.to; });
  double gained_until = now;
  std::int32_t gained_most = 0;
  std::int32_t change_at = 0;  // the change from the previous end on
  for (const Profile::Stretch& change : changes_) change_at += change.delta;
  for (std::size_t k = 0; k < changes_.size();) {
    const double to = changes_[k].to;  // change_at holds until `to`
    if (change_at > 0) {
      gained_until = std::max(gained_until, to);
      gained_most = std::max(gained_most, change_at);
    }
    for (; k < changes_.size() && changes_[k].to == to; ++k) change_at -= changes_[k].delta;
  }
  for (const Kept& head : vacated_) {
    gained_until = std::max(gained_until, head.end);
    gained_most += head.nodes;
  }
  const auto stays = [&](const Kept& kept) {
    return kept.start > now && std::isfinite(kept.start) && (kept.beta > gained_until || kept.short_by > gained_most);
  };
  std::size_t q = 0;
  while (q < kept_.size() && stays(kept_[q])) kept_[q++].short_by -= gained_most;
  if (2 * q >= kept_.size()) {
    patch_plan(now, q, changes_);
  } else {
    profile_ = running_now_;
    for (std::size_t r = 0; r < q; ++r) profile_.reserve(profile_.split(kept_[r].start), kept_[r].nodes, kept_[r].end);
  }
  // The others, in order, until one moves: those the bounds cannot vouch for are looked at.
  for (; q < kept_.size(); ++q) {
    Kept& kept = kept_[q];
    if (!(kept.start > now) || !std::isfinite(kept.start)) break;
    const double estimate = kept.end - kept.start;
    const bool vouched = stays(kept);
    if (!vouched && profile_.earliest(kept.nodes, estimate, 0, kept.start) < profile_.size()) break;
    const std::size_t at = profile_.split(kept.start);
    if (vouched) {
      kept.short_by -= gained_most;
    } else {
      kept = kept_at(at, kept.nodes, estimate, now);
    }
    profile_.reserve(at, kept.nodes, kept.end);
  }
  kept_.resize(q);
  if (q > 0 && profile_.overbooked()) {  // a kept job no longer fits where it was: plan afresh
    profile_ = running_now_;
    kept_.clear();
    return 0;
  }
  return q;
}

void PlanningScheduler::patch_plan(double now, std::size_t q, const std::vector<Profile::Stretch>& changes) {
  profile_.drop_before(now);
  for (const Profile::Stretch& change : changes) profile_.add(change.from, change.to, change.delta);
  const auto take_out = [&](const Kept& kept) {
    if (std::isfinite(kept.start) && kept.end > now) profile_.add(std::max(kept.start, now), kept.end, kept.nodes);
  };
  std::for_each(vacated_.begin(), vacated_.end(), take_out);
  std::for_each(dropped_.begin(), dropped_.end(), take_out);
  std::for_each(kept_.begin() + static_cast<std::ptrdiff_t>(q), kept_.end(), take_out);
}

bool PlanningScheduler::resume_kept_plan(SchedulingContext& ctx) {
  if (!resumable_ || !ended_.empty() || ctx.running().size() != running_ || ctx.free_nodes() != free_ ||
      !profile_.advance(ctx.now()) || !running_now_.advance(ctx.now())) {
    return false;
  }
  const auto fits_now = [&](JobIndex index) {
    const Job& job = ctx.job(index);
    return profile_.fits_now(job.nodes, ctx.now() + job.estimate_s);
  };
  const bool any = std::any_of(new_jobs_.begin(), new_jobs_.end(), fits_now);
  new_jobs_.clear();
  if (any) plan(ctx, kept_.size());
  return true;
}

void PlanningScheduler::plan(SchedulingContext& ctx, std::size_t from) {
  const double now = ctx.now();
  const std::span<const JobIndex> queue = queue_.view();
  const std::span<const Job> jobs = ctx.jobs();
  const auto job_at = [&](std::size_t r) -> const Job& { return jobs[static_cast<std::size_t>(queue[r])]; };
  started_.clear();
  ahead_.clear();
  refused_ = false;
  lows_.clear();
  // Positions [0, q) are planned; ahead_ lists the jobs started ahead of q (the fourth shortcut).
  // next_fit: no job in [q, next_fit) fits now; when `known`, the one at next_fit does, and
  // keeps fitting until a reservation begins before now + its estimate (its horizon).
  std::size_t q = from, next_fit = from;
  bool known = false;
  // The earliest a job not started in [q, ...) can start: where the last stretch lacking its nodes
  // before now + its estimate ends (found once, in a profile with no job started ahead: no fewer
  // free nodes than its own; now when not found).
  tau_.clear();
  const auto earliest_start = [&](std::size_t r) {
    if (tau_.empty()) tau_.assign(queue.size() - from, NAN);
    double& t = tau_[r - from];
    if (std::isnan(t)) {
      if (!ahead_.empty()) return now;
      t = profile_.last_short_end(job_at(r).nodes, now + job_at(r).estimate_s);
    }
    return t;
  };
  // Whether the job at c fits now until `end` whatever the plan of the jobs in [q, c) not started.
  const auto vouched = [&](std::size_t c, double end) {
    const auto [least, most_now] = profile_.least_and_most(end);
    // A job before one started ahead plans without it: it may find that one's nodes free too.
    std::int64_t most = most_now;
    for (const Ahead& a : ahead_) most += a.nodes;
    const std::int64_t spare = std::int64_t{least} - job_at(c).nodes;
    if (spare < 0) return false;
    std::int64_t taken = 0;
    for (std::size_t r = q, k = 0; r < c; ++r) {
      if (k < ahead_.size() && ahead_[k].position == r) {
        ++k;
        continue;
      }
      const std::int32_t nodes = job_at(r).nodes;
      if (nodes > most) continue;
      // Its first step lacking its nodes is no later than earliest_start(r); with no job started
      // ahead, none lacks them before `end` when the fewest free over the window are enough.
      if (ahead_.empty() && nodes <= least) continue;
      if (earliest_start(r) >= end) continue;
      taken += nodes;
      if (taken > spare) return false;
    }
    return true;
  };
  std::size_t tried = queue.size();  // the last job vouched() was asked about
  // Plans [q, to) as a pass would, with the jobs started ahead put back in order among them.
  const auto catch_up = [&](std::size_t to) {
    for (const Ahead& a : ahead_) {
      if (a.end > now) profile_.add(now, a.end, a.nodes);
    }
    for (std::size_t k = 0; q < to; ++q) {
      if (k < ahead_.size() && ahead_[k].position == q) {
        profile_.reserve(0, ahead_[k].nodes, ahead_[k].end);
        ++k;
      } else {
        place(ctx, q, job_at(q));  // none of them fits now: none starts
      }
    }
    ahead_.clear();
    lows_.clear();
  };
  while (q < queue.size()) {
    if (next_fit < q) {
      next_fit = q;
      known = false;
    }
    // The first look after a placement scans the profile; more looks at the same profile use
    // its falling least free nodes (lows_).
    if (!known && next_fit < queue.size()) {
      known = profile_.fits_now(job_at(next_fit).nodes, now + job_at(next_fit).estimate_s);
      if (!known) {
        if (lows_.empty()) profile_.falling_lows(lows_);
        next_fit = Profile::first_fitting_now(lows_, jobs, queue, next_fit + 1, now);
        known = next_fit < queue.size();
      }
    }
    if (!known) break;  // nothing left can start now
    const Job& fit = job_at(next_fit);
    const double horizon = now + fit.estimate_s;
    const bool try_ahead = next_fit > q && next_fit != tried && starts_ahead();
    tried = next_fit;
    if (try_ahead && vouched(next_fit, horizon)) {
      // The fourth shortcut: it starts now without planning [q, next_fit), unless the estimate of
      // its allocation undoes the bound; then those are planned and it is looked at as a pass would.
      double end = horizon;
      bool caught_up = false;
      const auto fits = [&](double estimated_end) {
        end = estimated_end;
        if (end <= horizon || vouched(next_fit, end)) return true;  // a shorter window: the bound holds
        catch_up(next_fit);
        caught_up = true;
        return profile_.fits_now(fit.nodes, end);
      };
      if (ctx.start_if(queue[next_fit], {}, fits)) {
        record_start(next_fit, fit.nodes, end);
        lows_.clear();
        started_ahead(queue[next_fit], caught_up);
        if (caught_up) {
          q = next_fit + 1;
        } else {
          ahead_.push_back({next_fit, fit.nodes, end});
        }
        ++next_fit;
        known = false;
        continue;
      }
      if (!caught_up) catch_up(next_fit);
      refused_job_ = queue[next_fit];  // place() takes it as refused, without asking again
      known = false;
      continue;
    }
    if (!ahead_.empty()) {  // placing q needs the plan without the jobs started ahead of it
      catch_up(next_fit);
      known = false;
      continue;
    }
    // The job at next_fit still fits unless the steps this placement took now lack its nodes.
    const Placed placed = place(ctx, q, job_at(q));
    lows_.clear();
    if (placed.start < horizon && profile_.short_within(placed.first, placed.last, fit.nodes, horizon)) known = false;
    ++q;
  }
  refused_job_ = -1;
  queue_.erase_positions(started_);
  // kept_ has an entry for every position placed but those started: positions now match (the
  // jobs started ahead of the plan's end were after it).
  // A refused job must be tried again at the next pass, which the second shortcut would not do.
  resumable_ = !refused_;
}

PlanningScheduler::Placed PlanningScheduler::place(SchedulingContext& ctx, std::size_t q, const Job& job) {
  const double now = ctx.now();
  const JobIndex index = queue_[q];
  const std::size_t step = profile_.earliest(job.nodes, job.estimate_s);
  if (step == profile_.size()) {  // cannot be planned while nodes are off
    kept_.push_back({INFINITY, INFINITY, 0, -INFINITY, 0});
    return {};
  }
  if (step == 0 && index != refused_job_) {
    // Started now only if the allocator places it and its estimate, as the runtime model makes
    // it for that placement, still fits; its nodes are then reserved until that estimated end,
    // as the running job it becomes. Otherwise it keeps a place in the plan.
    double end = now + job.estimate_s;
    const auto fits = [&](double estimated_end) {
      end = estimated_end;
      return profile_.fits_now(job.nodes, end);
    };
    if (ctx.start_if(index, {}, fits)) return {now, 0, record_start(q, job.nodes, end)};
  }
  if (step == 0) refused_ = true;
  // Refused now: the earliest start after now, from where the profile first changes (a step
  // that changes nothing, which the profile may or may not hold, is no later start).
  const std::size_t at = step == 0 ? profile_.earliest(job.nodes, job.estimate_s, profile_.next_change(0)) : step;
  if (at == profile_.size()) {
    kept_.push_back({INFINITY, INFINITY, 0, -INFINITY, 0});
    return {};
  }
  const double start = profile_.time(at);
  // A refused job is looked at again at every pass.
  kept_.push_back(step == 0 ? Kept{start, start + job.estimate_s, job.nodes, -INFINITY, 0}
                            : kept_at(at, job.nodes, job.estimate_s, now));
  return {start, at, profile_.reserve(at, job.nodes, start + job.estimate_s)};
}

std::size_t PlanningScheduler::record_start(std::size_t q, std::int32_t nodes, double end) {
  started_.push_back(q);
  running_now_.reserve(0, nodes, end);
  return profile_.reserve(0, nodes, end);
}

PlanningScheduler::Kept PlanningScheduler::kept_at(std::size_t at, std::int32_t nodes, double estimate,
                                                   double now) const {
  const double start = profile_.time(at);
  // The step before `at` lacks the nodes (a start begins a run of steps that have them) and none
  // from `at` on until start + estimate does: when the window beginning now ends by then, its
  // last stretch lacking them ends at `start`.
  const double beta = start <= now + estimate ? start : profile_.last_short_end(nodes, now + estimate);
  return {start, start + estimate, nodes, beta, profile_.least_short_by(nodes, at)};
}

}  // namespace dcsweep::detail
