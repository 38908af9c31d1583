#pragma once
// Conservative backfilling's plan (internal to the sched library), shared by `conservative`
// (waiting jobs in arrival order) and `edf` (in deadline order): at each pass every waiting job,
// in the queue's order, gets the earliest start at which its nodes are free for its whole
// estimate, in the profile of the running jobs (until their estimated ends) and the jobs placed
// before it; a job whose start is now starts now. The plan is made again from scratch at every
// pass, by definition; the planner computes the same starts with less work (see PlanningScheduler).
#include <cstdint>
#include <vector>

#include "dcsweep/sched/scheduler.hpp"
#include "waiting_queue.hpp"

namespace dcsweep::detail {

/// Free nodes over future time as a step function: free_[i] nodes from time_[i] until time_[i+1]
/// (the last step lasts forever); step 0 starts now. Steps begin at now, at the running jobs'
/// estimated ends and at the ends of the reservations, which subtract nodes over an interval.
class Profile {
 public:
  /// Now: `free` nodes; each running job returns its nodes at its estimated end (no earlier than now).
  void rebuild(double now, std::int32_t free, const SchedulingContext& ctx);

  /// The earliest step start at which `nodes` are free for `duration`, and that step's index;
  /// size() when never (more nodes than the machine will have on: some are off).
  std::size_t earliest(std::int32_t nodes, double duration, std::size_t from = 0) const;
  /// Whether `nodes` are free from now until `end` (earliest() would give step 0).
  bool fits_now(std::int32_t nodes, double end) const;
  /// Takes `nodes` from step i's start until `end`.
  void reserve(std::size_t i, std::int32_t nodes, double end);
  /// Moves now (step 0's start) to `now` if no other step begins by then; false otherwise.
  bool advance(double now);

  std::size_t size() const { return time_.size(); }
  double time(std::size_t i) const { return time_[i]; }
  std::int32_t free_now() const { return free_[0]; }

 private:
  /// Whether a step from `from` on that begins before `end` has fewer than `nodes` free.
  bool short_before(std::size_t from, std::int32_t nodes, double end) const;

  std::vector<double> time_;
  std::vector<std::int32_t> free_;
};

/// A scheduler whose waiting queue is planned as above at every pass; the subclass orders the
/// queue as jobs arrive (submit), and tells the planner where each job went (inserted).
///
/// Two shortcuts give the same starts as planning every waiting job from scratch at every pass:
/// - A pass stops once no job left to plan fits now: the profile only loses nodes as the pass
///   goes on, so such a job cannot start now, and nothing of a pass's plan but what it starts
///   now outlives the pass. (A job seen not to fit now is not looked at again in that pass.)
/// - The plan (of the jobs up to where the pass stopped) is kept. When nothing but arrivals
///   happened since (the same running jobs and free nodes, no refused start), planning again
///   would place every one of those jobs where it was: no running job's estimated end falls in
///   between (a job ends by its estimated end, and every end is a pass), so the profile is the
///   kept one seen from a later now, the jobs started last time being running jobs with the same
///   ends; every start was later than the last pass's now, and a window that did not fit then
///   does not fit now either (the same free nodes, over a longer stretch of the same profile).
///   So only the new jobs need a look, and planning resumes where it stopped if one fits now.
class PlanningScheduler : public Scheduler {
 public:
  std::size_t queued() const override { return queue_.size(); }
  void schedule(SchedulingContext& ctx) override;

 protected:
  /// The subclass put `index` at `position` of queue_.
  void inserted(std::size_t position, JobIndex index);

  WaitingQueue queue_;

 private:
  bool resume_kept_plan(SchedulingContext& ctx);
  /// Plans queue positions from `from` on (profile_ holds the plan of those before) until no job
  /// left fits now, starting those whose start is now.
  void plan(SchedulingContext& ctx, std::size_t from);
  /// Plans `job`, at queue position q: reserves its earliest start, starting it if that is now.
  /// Returns the start reserved (INFINITY: none).
  double place(SchedulingContext& ctx, std::size_t q, const Job& job);

  Profile profile_;
  bool kept_ = false;               ///< profile_ holds the plan of queue positions [0, planned_)
  std::size_t planned_ = 0;         ///< positions from planned_ on did not fit at the last pass
  std::vector<JobIndex> new_jobs_;  ///< inserted at or after planned_ since the last pass
  std::size_t running_ = 0;         ///< running jobs after the last pass
  std::int32_t free_ = 0;           ///< free nodes after the last pass
  bool refused_ = false;            ///< in this pass, a start the plan wanted was refused
  std::vector<std::size_t> started_;
};

}  // namespace dcsweep::detail
