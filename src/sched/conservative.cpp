#include "reservation_plan.hpp"

namespace dcsweep {
namespace {

/// Conservative backfilling (Mu'alem & Feitelson), as INTERFACE.md specifies: at each pass the
/// waiting jobs, in queue order, each get the earliest start at which their nodes are free for
/// their whole estimate, in the profile of the running jobs (until their estimated ends) and the
/// jobs placed before them; every job whose start is now starts now. Reservations are re-planned
/// from scratch at every pass (reservation_plan.hpp).
class ConservativeScheduler final : public detail::PlanningScheduler {
 public:
  void submit(JobIndex index, const SchedulingContext&) override {
    queue_.push(index);
    inserted(queue_.size() - 1, index);
  }
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
