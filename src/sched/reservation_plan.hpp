#pragma once
// Conservative backfilling's plan (internal to the sched library), shared by `conservative`
// (waiting jobs in arrival order) and `edf` (in deadline order): at each pass every waiting job,
// in the queue's order, gets the earliest start at which its nodes are free for its whole
// estimate, in the profile of the running jobs (until their estimated ends) and the jobs placed
// before it; a job whose start is now starts now. The plan is made again from scratch at every
// pass, by definition; the planner computes the same starts with less work (see PlanningScheduler).
#include <cmath>
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
  /// `free` nodes from now on.
  void reset(double now, std::int32_t free);

  /// The earliest step start at which `nodes` are free for `duration`, and that step's index;
  /// size() when never (more nodes than the machine will have on: some are off) or not before
  /// `before`.
  std::size_t earliest(std::int32_t nodes, double duration, std::size_t from = 0, double before = INFINITY) const;
  /// Whether `nodes` are free from now until `end` (earliest() would give step 0).
  bool fits_now(std::int32_t nodes, double end) const;
  /// The least free nodes from now on, where it falls: {t, m} = fewer than the previous entry's
  /// m from t on, m until the next entry; up to the first 0 (nothing fits from there).
  struct Low {
    double time;
    std::int32_t free;
  };
  void falling_lows(std::vector<Low>& lows) const;
  /// The first queue position from `from` on whose job fits now (fits_now() from the profile's
  /// falling_lows(), a look-up); queue.size() if none.
  static std::size_t first_fitting_now(const std::vector<Low>& lows, std::span<const Job> jobs,
                                       std::span<const JobIndex> queue, std::size_t from, double now);
  /// Takes `nodes` from step i's start until `end`; returns j: steps [i, j) are the ones that lost them.
  std::size_t reserve(std::size_t i, std::int32_t nodes, double end);
  /// Whether a step in [i, j) that begins before `end` has fewer than `nodes` free.
  bool short_within(std::size_t i, std::size_t j, std::int32_t nodes, double end) const;
  /// Moves now (step 0's start) to `now` if no other step begins by then; false otherwise.
  bool advance(double now);
  /// The index of the step that begins at `t` (no earlier than now), splitting a step if needed.
  std::size_t split(double t);
  /// Moves now to `now` (no earlier than step 0's start), dropping the steps that end by then.
  void drop_before(double now);
  /// Adds `delta` free nodes from `from` (no earlier than now) until `to` (after `from`), merging
  /// a step with the one before when they end up equal.
  void add(double from, double to, std::int32_t delta);
  /// A change of free nodes over time: `delta` from `from` until `to`.
  struct Stretch {
    double from, to;
    std::int32_t delta;
  };
  /// The fewest nodes short of `nodes` at any of the first `steps` steps that lacks them; nodes
  /// if none does.
  std::int32_t least_short_by(std::int32_t nodes, std::size_t steps) const;
  /// The fewest and the most free nodes from now until `end`.
  std::pair<std::int32_t, std::int32_t> least_and_most(double end) const;
  /// The first step after step i with another free count (size(): none): where the profile
  /// changes, whatever steps that change nothing it holds.
  std::size_t next_change(std::size_t i) const;
  /// Whether some step has fewer than 0 free nodes (more reserved than there are).
  bool overbooked() const;
  /// Where the last stretch of time before `until` over which fewer than `nodes` are free ends
  /// (no later than `until`); now if nodes are free all along.
  double last_short_end(std::int32_t nodes, double until) const;

  /// Whether both give the same free nodes at every time from the same now on (steps that
  /// change nothing aside).
  bool same_steps(const Profile& other) const;

  std::size_t size() const { return time_.size(); }
  double time(std::size_t i) const { return time_[i]; }
  std::int32_t free_now() const { return free_[0]; }

 private:
  /// Whether a step from `from` on that begins before `end` has fewer than `nodes` free.
  bool short_before(std::size_t from, std::int32_t nodes, double end) const;
  std::size_t first_start(std::int32_t nodes, double duration, std::size_t from, double before) const;

  std::vector<double> time_;
  std::vector<std::int32_t> free_;
};

/// A scheduler whose waiting queue is planned as above at every pass; the subclass orders the
/// queue as jobs arrive (submit), and tells the planner where each job went (inserted).
///
/// Four shortcuts give the same starts as planning every waiting job from scratch at every pass:
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
/// - After other events (jobs ending early, queue heads starting), the kept plan's jobs keep
///   their starts up to the first that moves. Since the plan was made, the running jobs' profile
///   has gained nodes (a job ended before its estimate; a head that started left its kept
///   reservation; nodes booted, a gain that lasts: e is then infinite) only before some time e,
///   and at most g nodes at a time, and may have lost some elsewhere. While every job before q kept its start, q's profile differs from the one it was
///   planned in by fewer free nodes anywhere and at most g more, only before e. Every window
///   beginning before q's kept start s_q lacked q's nodes somewhere. Each kept job remembers two
///   bounds: beta_q, where the last stretch lacking them ends in the window beginning at the
///   plan's now (windows beginning later end their last such stretch no earlier), and short_q,
///   the fewest nodes any step lacking them lacked. If beta_q > e, part of that stretch lies
///   after e, where nothing was gained; if short_q > g, no gain fills any lack. Either way no
///   earlier window fits now (s_q later than now), and the bounds stay true (short_q less g).
///   Jobs the bounds cannot vouch for are looked at: kept if no window beginning before s_q
///   fits. All of them still fit at s_q when no step of the updated plan is overbooked (else
///   the pass plans afresh). Planning from scratch resumes at the first job that moves (or was
///   refused, or could not be planned). The kept prefix's profile is the kept plan patched by
///   the changes (or made again from its reservations when the prefix is the smaller part).
/// - A job c found to fit now beyond the next position q to plan starts without planning the
///   jobs between, when they cannot keep it from fitting. None of them fits now (each was passed
///   over in a profile with no fewer free nodes than its own), so each starts later, at a step
///   with its n_i nodes free, and no earlier than where the last stretch lacking them before
///   now + its estimate ends in a profile with no fewer free nodes than its own (every window
///   beginning earlier holds a step of that stretch), so no earlier than the first step lacking
///   them either; with no job started ahead, a job needing no more than the fewest free nodes
///   over c's window lacks them nowhere in it, so it starts after the window. Those that could
///   begin before c's window ends (a step there with n_i free, counting the nodes of the jobs
///   started ahead, which they plan without) take at most n_i nodes each from it: if the fewest free nodes over c's window, less those, leave c's nodes,
///   c fits now whatever their plan, and the pass may end before them. When a
///   look needs them planned (the bound fails while jobs were started ahead, or the estimate of
///   c's allocation undoes it), they are planned in order, the jobs started ahead put back among
///   them as the pass would have started them.
/// The running jobs' profile itself is kept between passes and brought up to date from what
/// happened since (jobs the engine reports ended, heads started, the free count's change when
/// nodes were switched off or booted), not made again from the engine's running set.
class PlanningScheduler : public Scheduler {
 public:
  std::size_t queued() const override { return queue_.size(); }
  void schedule(SchedulingContext& ctx) override;
  void ended(JobIndex index, double estimated_end_s, std::int32_t nodes) override;

 protected:
  /// The subclass put `index` at `position` of queue_.
  void inserted(std::size_t position, JobIndex index);

  WaitingQueue queue_;

  /// Hears the running jobs' profile each time it is brought up to date (before planning):
  /// tests compare it with one made from the engine's running set.
  /// `rebuilt`: made afresh from the engine's running set this time (first pass, or the count of
  /// running jobs disagreed), not brought up to date.
  virtual void running_tracked(const Profile& /*running*/, const SchedulingContext& /*ctx*/, bool /*rebuilt*/) {}
  /// Whether the running jobs' profile is kept between passes (tests make it afresh every pass
  /// to compare the starts).
  virtual bool keeps_running() const { return true; }
  /// Hears each job the fourth shortcut started, `planned_between` when the jobs before it had to
  /// be planned after all (the estimate of its allocation undid the bound); tests count them.
  virtual void started_ahead(JobIndex /*index*/, bool /*planned_between*/) {}
  /// Whether the fourth shortcut is taken (tests turn it off to compare the starts).
  virtual bool starts_ahead() const { return true; }

 private:
  bool resume_kept_plan(SchedulingContext& ctx);
  /// Brings running_now_ to the running jobs now: the last pass's, less the jobs that ended and
  /// with the heads started since (changes_ hears each change), or made again from the engine's
  /// running set when the count disagrees (the kept plan is then dropped).
  void track_running(const SchedulingContext& ctx);
  void change_running(double from, double to, std::int32_t delta);
  /// Plans queue positions from `from` on (profile_ holds the plan of those before) until no job
  /// left fits now, starting those whose start is now.
  void plan(SchedulingContext& ctx, std::size_t from);
  /// Where place() put a job: its start (INFINITY: nowhere) and the steps [first, last) it took.
  struct Placed {
    double start = INFINITY;
    std::size_t first = 0, last = 0;
  };
  /// Plans `job`, at queue position q: reserves its earliest start, starting it if that is now,
  /// and keeps it (kept_) unless started.
  Placed place(SchedulingContext& ctx, std::size_t q, const Job& job);
  /// The job at queue position q started now until `end`: a running job in running_now_ and in
  /// the plan; returns reserve()'s end of the steps it took in profile_.
  std::size_t record_start(std::size_t q, std::int32_t nodes, double end);

  /// A kept job's reservation (start INFINITY: none) and its bounds beta_q (-INFINITY: look
  /// again) and short_q (see the class comment).
  struct Kept {
    double start, end;
    std::int32_t nodes;
    double beta;
    std::int32_t short_by;
  };
  /// A job planned at step `at` of profile_ (its start), not yet reserved, with its bounds: the
  /// one earliest start, no earlier window fitting.
  Kept kept_at(std::size_t at, std::int32_t nodes, double estimate, double now) const;
  /// Puts profile_ = running_now_ and the kept jobs back where they were, up to the first that
  /// moves (see the class comment), and returns its position.
  std::size_t keep_plan(const SchedulingContext& ctx);
  /// Makes profile_ the running jobs' now with the kept jobs before position q, from the kept
  /// plan and what changed since (cheaper than placing those jobs again when q is most of it).
  void patch_plan(double now, std::size_t q, const std::vector<Profile::Stretch>& changes);

  /// profile_: the plan of queue positions [0, kept_.size()) (kept_ by position) as of the last
  /// planning pass; running_now_: the running jobs now (after a pass, with those it started);
  /// changes_: what running_now_ gained or lost since that planning pass (each from the pass
  /// that saw it); vacated_: the kept reservations of the heads started since; dropped_: those
  /// of jobs dropped from kept_ since (a job arrived before them), still in profile_.
  Profile profile_, running_now_;
  bool running_known_ = false;  ///< running_now_ has been made (it is then kept up to date)
  std::vector<Kept> kept_, vacated_, dropped_;
  std::vector<Profile::Stretch> changes_;
  /// Since the last pass: jobs that ended and heads started ({estimated end, nodes}).
  struct Leaving {
    double end;
    std::int32_t nodes;
  };
  std::vector<Leaving> ended_, heads_;
  bool resumable_ = false;  ///< only arrivals since the last pass (second shortcut)
  std::vector<JobIndex> new_jobs_;  ///< inserted after the kept plan since the last pass
  std::size_t running_ = 0;         ///< running jobs after the last pass
  std::int32_t free_ = 0;           ///< free nodes after the last pass
  bool refused_ = false;            ///< in this pass, a start the plan wanted was refused
  JobIndex refused_job_ = -1;       ///< a job whose start was refused before plan() reached it
  std::vector<std::size_t> started_;
  /// In plan(): jobs started ahead of the next position to plan (fourth shortcut), by position.
  struct Ahead {
    std::size_t position;
    std::int32_t nodes;
    double end;
  };
  std::vector<Ahead> ahead_;
  std::vector<double> tau_;  ///< in plan(): the earliest start of each position not planned (NaN: not known)
  std::vector<Profile::Low> lows_;  ///< profile_'s falling_lows() in plan(); empty: not made yet
};

}  // namespace dcsweep::detail
