#pragma once
// Schedulers decide when queued jobs start, and how. The engine calls `schedule` once per
// simulated time at which anything happened, after processing every job end, boot completion and
// arrival. A scheduler may start a job as the trace gives it or in another configuration (node
// count, CPU power cap, P-state: moldable jobs), resize running jobs (malleable), switch nodes
// off and on, and read the machine, the jobs' attributes (deadlines, communication patterns)
// and the room's physical state. Runtimes under a configuration or an allocation come from the
// simulation's runtime model (sim/runtime_model.hpp); energy follows from the node power states.
#include <compare>
#include <functional>
#include <cstdint>
#include <memory>
#include <set>
#include <span>

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/core/registry.hpp"
#include "dcsweep/core/report.hpp"
#include "dcsweep/workload/workload.hpp"

namespace dcsweep {

/// A running job keyed by its estimated end, the only end a scheduler may know: start + estimate,
/// the estimate scaled like the runtime when the runtime model stretches a job (see
/// sim/runtime_model.hpp), and moved when the job is resized.
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
  /// Starts the job now in `config` (default: as the trace gives it) if its nodes are free and
  /// the allocator places it; returns whether it started.
  bool start(JobIndex index, const JobConfig& config = {}) { return start_job(index, config, {}); }
  /// The same, but only if `accept(estimated end)` agrees once the allocation (and so the runtime
  /// model's factor) is known: a backfilling scheduler checks the estimate the job will really
  /// have. A refused allocation is dropped (the nodes stay free).
  using StartCheck = std::function<bool(double estimated_end_s)>;
  bool start_if(JobIndex index, const JobConfig& config, const StartCheck& accept) {
    return start_job(index, config, accept);
  }
  /// Resizes a running job to `nodes` nodes: shrinking releases its last nodes, growing asks the
  /// allocator for more. Its remaining work is rescaled by the runtime model, and it holds its
  /// nodes without progress for `reconfiguration_s` first. False (nothing changes) if it cannot
  /// grow now or is not running.
  bool resize(JobIndex index, std::int32_t nodes, double reconfiguration_s) {
    if (nodes < 1) return false;
    JobConfig next = config(index);
    next.nodes = nodes;
    return reconfigure(index, next, reconfiguration_s);
  }
  /// The same for a whole configuration: node count (as resize) and CPU cap or P-state, which
  /// change at once ([P2] re-caps running jobs at every decision). Nothing changes on false.
  virtual bool reconfigure(JobIndex index, const JobConfig& config, double reconfiguration_s) = 0;
  /// The configuration a running job has now.
  virtual const JobConfig& config(JobIndex index) const = 0;
  virtual const JobAttributes& attributes(JobIndex index) const = 0;
  virtual const Machine& machine() const = 0;
  virtual const RoomView& room() const = 0;
  /// Switching nodes off and booting them (node_boot_s, node_boot_energy_j).
  virtual NodeControl& node_control() = 0;

 protected:
  virtual bool start_job(JobIndex index, const JobConfig& config, const StartCheck& accept) = 0;
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  /// A job arrives and joins the queue (arrivals come in submit order, ties by job id).
  virtual void submit(JobIndex index, const SchedulingContext& ctx) = 0;
  /// A running job ended now, before this time's pass: its `nodes` are free again and its entry
  /// {estimated_end_s, index} has left running(). For a scheduler that keeps its own picture of
  /// the running jobs between passes (conservative backfilling's plan); the default ignores it.
  virtual void ended(JobIndex /*index*/, double /*estimated_end_s*/, std::int32_t /*nodes*/) {}
  /// Starts whatever the policy starts now.
  virtual void schedule(SchedulingContext& ctx) = 0;
  /// Jobs waiting.
  virtual std::size_t queued() const = 0;
  /// Adds the policy's own metrics at the end of the run (declared in simulation_metric_specs).
  virtual void report(Report& /*report*/) const {}
};

using SchedulerRegistry = Registry<Scheduler>;
const SchedulerRegistry& scheduler_registry();

// Entries, each defined beside its implementation.
SchedulerRegistry::Entry fcfs_scheduler_entry();
SchedulerRegistry::Entry easy_scheduler_entry();
SchedulerRegistry::Entry conservative_scheduler_entry();
SchedulerRegistry::Entry edf_scheduler_entry();
SchedulerRegistry::Entry parm_scheduler_entry();  ///< [P2] PARM and its baselines (sched/parm.hpp)

}  // namespace dcsweep
