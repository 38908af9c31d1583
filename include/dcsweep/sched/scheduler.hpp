#pragma once
// Schedulers decide when queued jobs start. The engine calls `schedule` once per simulated time
// at which anything happened, after processing every job end and then every arrival.
#include <compare>
#include <cstdint>
#include <memory>
#include <set>
#include <span>

#include "dcsweep/core/registry.hpp"
#include "dcsweep/workload/workload.hpp"

namespace dcsweep {

/// A running job keyed by its estimated end (start + estimate), the only end a scheduler may know.
struct EstimatedEnd {
  double time_s;
  JobIndex job;
  auto operator<=>(const EstimatedEnd&) const = default;
};
using RunningSet = std::set<EstimatedEnd>;

/// What a scheduler sees of the simulation, and its one action.
class SchedulingContext {
 public:
  virtual ~SchedulingContext() = default;
  virtual double now() const = 0;
  virtual std::int32_t free_nodes() const = 0;
  /// The workload, indexed by JobIndex.
  virtual std::span<const Job> jobs() const = 0;
  const Job& job(JobIndex index) const { return jobs()[static_cast<std::size_t>(index)]; }
  /// Running jobs, earliest estimated end first (ties by job index).
  virtual const RunningSet& running() const = 0;
  /// Starts the job now if it fits and the allocator places it; returns whether it started.
  virtual bool start(JobIndex index) = 0;
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  /// A job arrives and joins the queue (arrivals come in submit order, ties by job id).
  virtual void submit(JobIndex index, const SchedulingContext& ctx) = 0;
  /// Starts whatever the policy starts now.
  virtual void schedule(SchedulingContext& ctx) = 0;
  /// Jobs waiting.
  virtual std::size_t queued() const = 0;
};

using SchedulerRegistry = Registry<Scheduler>;
const SchedulerRegistry& scheduler_registry();

// Entries, each defined beside its implementation.
SchedulerRegistry::Entry fcfs_scheduler_entry();
SchedulerRegistry::Entry easy_scheduler_entry();

}  // namespace dcsweep
