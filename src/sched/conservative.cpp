#include <algorithm>
#include <vector>

#include "arrival_queue.hpp"

namespace dcsweep {
namespace {

/// Free nodes over future time as a step function: free_[i] nodes from time_[i] until time_[i+1]
/// (the last step lasts forever). Reservations subtract nodes over an interval.
class Profile {
 public:
  /// Now: `free` nodes; each running job returns its nodes at its estimated end (no earlier than now).
  Profile(double now, std::int32_t free, const SchedulingContext& ctx) : time_{now}, free_{free} {
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

  /// The earliest step start at which `nodes` are free for `duration`, and that step's index;
  /// size() when never (more nodes than the machine will have on: some are off).
  std::size_t earliest(std::int32_t nodes, double duration, std::size_t from = 0) const {
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

  std::size_t size() const { return time_.size(); }

  double time(std::size_t i) const { return time_[i]; }

  /// Takes `nodes` from step i's start for `duration`.
  void reserve(std::size_t i, std::int32_t nodes, double duration) {
    const double end = time_[i] + duration;
    std::size_t j = i;
    for (; j < time_.size() && time_[j] < end; ++j) free_[j] -= nodes;
    if (j == time_.size() || time_[j] > end) {  // split the step that the reservation ends inside
      time_.insert(time_.begin() + static_cast<std::ptrdiff_t>(j), end);
      free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(j), free_[j - 1] + nodes);
    }
  }

 private:
  std::vector<double> time_;
  std::vector<std::int32_t> free_;
};

/// Conservative backfilling (Mu'alem & Feitelson), as INTERFACE.md specifies: at each pass the
/// waiting jobs, in queue order, each get the earliest start at which their nodes are free for
/// their whole estimate, in the profile of the running jobs (until their estimated ends) and the
/// jobs placed before them; every job whose start is now starts now. Reservations are re-planned
/// from scratch at every pass, so a job never starts later than the start it was promised.
class ConservativeScheduler final : public Scheduler {
 public:
  void submit(JobIndex index, const SchedulingContext&) override { queue_.push(index); }
  std::size_t queued() const override { return queue_.size(); }

  void schedule(SchedulingContext& ctx) override {
    queue_.start_heads(ctx);
    if (queue_.empty() || ctx.free_nodes() == 0) return;
    const double now = ctx.now();
    Profile profile(now, ctx.free_nodes(), ctx);
    started_.clear();
    for (std::size_t q = 0; q < queue_.size(); ++q) {
      const Job& job = ctx.job(queue_[q]);
      const std::size_t step = profile.earliest(job.nodes, job.estimate_s);
      if (step == profile.size()) continue;  // cannot be planned while nodes are off
      // Started now only if the allocator places it and its estimate, as the runtime model makes
      // it for that placement, still fits; otherwise it keeps a place in the plan.
      double duration = job.estimate_s;
      const auto fits = [&](double end) {
        duration = end - now;
        return profile.earliest(job.nodes, duration) == step;
      };
      if (profile.time(step) == now && ctx.start_if(queue_[q], {}, fits)) {
        started_.push_back(q);
        profile.reserve(step, job.nodes, duration);
        continue;
      }
      duration = job.estimate_s;
      const std::size_t later = profile.time(step) == now ? profile.earliest(job.nodes, duration, step + 1) : step;
      if (later < profile.size()) profile.reserve(later, job.nodes, duration);
    }
    queue_.erase_positions(started_);
  }

 private:
  detail::ArrivalQueue queue_;
  std::vector<std::size_t> started_;
};

}  // namespace

SchedulerRegistry::Entry conservative_scheduler_entry() {
  return {"conservative",
          "conservative backfilling: every waiting job holds a reservation (re-planned at each pass); a job "
          "starts now when its earliest slot is now",
          {},
          [](const BuildContext&) { return std::make_unique<ConservativeScheduler>(); }};
}

}  // namespace dcsweep
