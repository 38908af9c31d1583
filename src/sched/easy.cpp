#include "waiting_queue.hpp"

namespace dcsweep {
namespace {

/// Textbook EASY backfilling (Lifka; Mu'alem & Feitelson), as INTERFACE.md specifies:
/// FCFS first; then the queue head gets a reservation at the shadow time (the earliest estimated
/// end at which enough nodes are free); a later job starts now if it fits and either ends, by its
/// estimate, no later than the shadow time or uses no more than the extra nodes.
class EasyScheduler final : public Scheduler {
 public:
  void submit(JobIndex index, const SchedulingContext&) override { queue_.push(index); }
  std::size_t queued() const override { return queue_.size(); }

  void schedule(SchedulingContext& ctx) override {
    queue_.start_heads(ctx);
    if (queue_.size() < 2 || ctx.free_nodes() == 0) return;
    const Reservation reservation = reserve(ctx, ctx.job(queue_.front()).nodes);
    backfill(ctx, reservation);
  }

 private:
  struct Reservation {
    double shadow_s;
    std::int32_t extra_nodes;
  };

  /// Walks running jobs by estimated end until `need` nodes would be free; every job whose
  /// estimated end equals the shadow time also frees its nodes then.
  static Reservation reserve(const SchedulingContext& ctx, std::int32_t need) {
    std::int32_t available = ctx.free_nodes();
    double shadow = ctx.now();
    for (const EstimatedEnd& end : ctx.running()) {
      if (available >= need && end.time_s > shadow) break;
      available += ctx.config(end.job).nodes_of(ctx.job(end.job));  // a job may run on other than its trace count
      shadow = end.time_s;
    }
    return {shadow, available - need};
  }

  void backfill(SchedulingContext& ctx, Reservation reservation) {
    started_.clear();
    const double now = ctx.now();
    const std::span<const Job> jobs = ctx.jobs();
    std::int32_t free = ctx.free_nodes();
    for (std::size_t i = 1; i < queue_.size() && free > 0; ++i) {
      const JobIndex index = queue_[i];
      const Job& job = jobs[static_cast<std::size_t>(index)];
      if (job.nodes > free) continue;
      bool ends_in_time = now + job.estimate_s <= reservation.shadow_s;
      if (!ends_in_time && job.nodes > reservation.extra_nodes) continue;
      // The estimate the job really gets once placed (a runtime model may stretch it) must pass too.
      const std::int32_t extra = reservation.extra_nodes;
      const auto check = [&](double end) {
        ends_in_time = end <= reservation.shadow_s;
        return ends_in_time || job.nodes <= extra;
      };
      if (!ctx.start_if(index, {}, check)) continue;
      if (!ends_in_time) reservation.extra_nodes -= job.nodes;
      free = ctx.free_nodes();
      started_.push_back(i);
    }
    queue_.erase_positions(started_);
  }

  detail::WaitingQueue queue_;
  std::vector<std::size_t> started_;
};

}  // namespace

SchedulerRegistry::Entry easy_scheduler_entry() {
  return {"easy",
          "EASY backfilling: FCFS plus backfill that never delays the queue head's reservation "
          "(estimates = requested times)",
          {},
          [](const BuildContext&) { return std::make_unique<EasyScheduler>(); }};
}

}  // namespace dcsweep
