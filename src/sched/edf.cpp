#include <algorithm>

#include "reservation_plan.hpp"

namespace dcsweep {
namespace {

/// Earliest deadline first, [P4] Algorithm 1: at every arrival, start and end, the waiting jobs,
/// ordered by deadline (submit + deadline_factor x requested time; ties by submit time, then job
/// id), are each inserted "in an opening having enough free servers for enough time": the earliest
/// start at which their nodes are free for their whole estimate, in the profile of the running jobs
/// (until their estimated ends) and the jobs placed before them. A job whose start is now starts
/// now; the plan is made again from scratch at every pass. That is conservative backfilling in
/// deadline order (reservation_plan.hpp). [P4]'s "push-fit" of a late job before others (step 2)
/// and its node groups (step 3) are not modelled: the jobs' order alone decides, as in step 1.
class EdfScheduler final : public detail::PlanningScheduler {
 public:
  void submit(JobIndex index, const SchedulingContext& ctx) override {
    // Jobs arrive in (submit, id) order, so placing a job after every queued job with the same
    // deadline breaks deadline ties by submit time, then job id.
    const double deadline = ctx.attributes(index).deadline_s;
    const std::span<const JobIndex> waiting = queue_.view();
    const auto later = std::upper_bound(waiting.begin(), waiting.end(), deadline,
                                        [&](double d, JobIndex j) { return d < ctx.attributes(j).deadline_s; });
    const auto position = static_cast<std::size_t>(later - waiting.begin());
    queue_.insert(position, index);
    inserted(position, index);
  }
};

}  // namespace

SchedulerRegistry::Entry edf_scheduler_entry() {
  return {"edf",
          "earliest deadline first ([P4] Algorithm 1): conservative backfilling with the waiting jobs in deadline "
          "order (deadline = submit + deadline_factor x requested time; ties by submit, then job id), re-planned "
          "at each pass; needs requested times (a trace without them is an input error; Poisson jobs request "
          "their runtime)",
          {},
          [](const BuildContext&) { return std::make_unique<EdfScheduler>(); }};
}

}  // namespace dcsweep
