#pragma once
// Conservative backfilling's plan (internal to the sched library), shared by `conservative`
// (waiting jobs in arrival order) and `edf` (in deadline order): at each pass every waiting job,
// in the queue's order, gets the earliest start at which its nodes are free for its whole
// estimate, in the profile of the running jobs (until their estimated ends) and the jobs placed
// before it; a job whose start is now starts now. The plan is made again from scratch at every pass.
#include <cstdint>
#include <span>
#include <vector>

#include "dcsweep/sched/scheduler.hpp"
#include "waiting_queue.hpp"

namespace dcsweep::detail {

/// Free nodes over future time as a step function: free_[i] nodes from time_[i] until time_[i+1]
/// (the last step lasts forever). Reservations subtract nodes over an interval.
class Profile {
 public:
  /// Now: `free` nodes; each running job returns its nodes at its estimated end (no earlier than now).
  Profile(double now, std::int32_t free, const SchedulingContext& ctx);

  /// The earliest step start at which `nodes` are free for `duration`, and that step's index;
  /// size() when never (more nodes than the machine will have on: some are off).
  std::size_t earliest(std::int32_t nodes, double duration, std::size_t from = 0) const;
  /// Takes `nodes` from step i's start for `duration`.
  void reserve(std::size_t i, std::int32_t nodes, double duration);

  std::size_t size() const { return time_.size(); }
  double time(std::size_t i) const { return time_[i]; }

 private:
  std::vector<double> time_;
  std::vector<std::int32_t> free_;
};

/// One pass over `queue` (the waiting jobs in the policy's order): plans every job as above and
/// starts those whose start is now. `started` receives their positions in `queue`, ascending.
void plan_and_start(SchedulingContext& ctx, std::span<const JobIndex> queue, std::vector<std::size_t>& started);

/// A scheduler that plans its waiting queue as above at every pass; the subclass orders the
/// queue as jobs arrive (submit).
class PlanningScheduler : public Scheduler {
 public:
  std::size_t queued() const override { return queue_.size(); }
  void schedule(SchedulingContext& ctx) override;

 protected:
  WaitingQueue queue_;

 private:
  std::vector<std::size_t> started_;
};

}  // namespace dcsweep::detail
