#include "waiting_queue.hpp"

namespace dcsweep {
namespace {

/// First come, first served in strict arrival order: only the queue head may start.
class FcfsScheduler final : public Scheduler {
 public:
  void submit(JobIndex index, const SchedulingContext&) override { queue_.push(index); }
  void schedule(SchedulingContext& ctx) override { queue_.start_heads(ctx); }
  std::size_t queued() const override { return queue_.size(); }

 private:
  detail::WaitingQueue queue_;
};

}  // namespace

SchedulerRegistry::Entry fcfs_scheduler_entry() {
  return {"fcfs", "first come, first served: queue heads start in order while they fit", {}, [](const BuildContext&) {
            return std::make_unique<FcfsScheduler>();
          }};
}

}  // namespace dcsweep
