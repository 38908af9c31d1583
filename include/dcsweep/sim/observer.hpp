#pragma once
// Hook points for models that run alongside the scheduler (thermal, cooling, power). They see
// every job start, resize and end with its node set and configuration, every node power state
// change, may ask to be woken at times of their own, and add their metrics and series to the
// report at the end. Contract for an observer:
//   1. advance_to(t) is called before anything changes at time t: integrate state up to t;
//   2. then the changes at t (job ends, node states, job starts and resizes), and on_timer(t) if
//      t is its own time;
//   3. next_event_s() is asked after each step (inf: nothing pending).
#include <limits>
#include <span>

#include "dcsweep/alloc/machine.hpp"
#include "dcsweep/core/report.hpp"
#include "dcsweep/workload/workload.hpp"

namespace dcsweep {

/// A job on its nodes: what it runs as, and where: its node ids, or (where the engine keeps node
/// sets as runs) runs of consecutive ids and their total. Built by one of the two constructors,
/// so that node_count always is what the nodes or runs count.
struct Placement {
  Placement(const Job& of, const JobConfig& as, std::span<const NodeId> ids, double stretch = 1.0)
      : job(of), config(as), nodes(ids), comm_stretch(stretch), node_count(std::int32_t(ids.size())) {}
  /// `count` is the runs' total (node_total(of_runs)), given because the engine knows it.
  Placement(const Job& of, const JobConfig& as, std::span<const NodeRun> of_runs, std::int32_t count, double stretch = 1.0)
      : job(of), config(as), comm_stretch(stretch), node_count(count), runs(of_runs) {}

  const Job& job;
  const JobConfig& config;
  std::span<const NodeId> nodes;  ///< in task order; empty when no observer of the run reads_node_ids()
  double comm_stretch = 1.0;      ///< the runtime model's factor on the communication part (power presets use it)
  std::int32_t node_count = 0;    ///< how many nodes
  /// Where `nodes` is empty: the same nodes as runs of consecutive ids, in task order, each run
  /// maximal (none continues the one before), so they are the runs of the id list.
  std::span<const NodeRun> runs;
};

class SimObserver {
 public:
  virtual ~SimObserver() = default;
  /// Whether it reads Placement::nodes. When no observer does (and neither the runtime model nor
  /// the task mapping needs them), the engine keeps node sets as runs of ids and gives node_count
  /// and runs instead: first fit on 40,960 nodes then never writes out a job's hundreds of ids.
  /// An observer that says false reads runs where nodes is empty.
  virtual bool reads_node_ids() const { return true; }
  virtual void advance_to(double /*time_s*/) {}
  /// May settle the changes of the current time first (so it is not const).
  virtual double next_event_s() { return std::numeric_limits<double>::infinity(); }
  virtual void on_timer(double /*time_s*/) {}
  virtual void on_job_start(double /*time_s*/, const Placement&) {}
  virtual void on_job_end(double /*time_s*/, const Placement&, bool /*killed*/) {}
  /// A running job changed nodes: `before` is what it ran as until now, `after` from now on.
  virtual void on_job_resize(double /*time_s*/, const Placement& /*before*/, const Placement& /*after*/) {}
  /// Nodes changed power state (`from` -> `to`): on (idle) <-> off, off -> booting -> on.
  virtual void on_node_state(double /*time_s*/, std::span<const NodeId> /*nodes*/, NodeState /*from*/,
                             NodeState /*to*/) {}
  /// Adds metrics and series; `end_s` is the time of the last event.
  virtual void report(double /*end_s*/, Report& /*report*/) {}
};

}  // namespace dcsweep
