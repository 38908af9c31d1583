#pragma once
// One event-driven simulation: a platform runs a workload under a scheduler and an allocator,
// with optional observers (physics models) on the same clock.
//
// Event order at one simulated time t (deterministic, see INTERFACE.md):
//   1. observers advance to t;
//   2. every job end at t, in the order the ends were scheduled (estimate kills included);
//   3. every boot completing at t, in the order the boots began;
//   4. every arrival at t, in (submit time, job id) order;
//   5. observers whose own timer is due at t;
//   6. the scheduler runs once (it may start, resize, switch nodes off or boot them);
//   7. the allocator's manage_power runs once; then, with idle_nodes_off, consolidation
//      (alloc/allocator.hpp) boots nodes for the waiting jobs or switches free nodes off.
// The run ends with the last job event: observers' own times after it are not processed.
//
// A running job's progress is kept in trace seconds of work: it runs at 1 / scale of them per
// second (scale from the runtime model, sim/runtime_model.hpp), so a resize rescales only what is
// left. Node power states (on, off, booting) are the Machine's; a boot takes node_boot_s.
#include <chrono>
#include <cmath>
#include <span>
#include <vector>

#include "dcsweep/core/params.hpp"
#include "dcsweep/core/rng.hpp"
#include "dcsweep/platform/platform.hpp"
#include "dcsweep/sim/observer.hpp"
#include "dcsweep/core/report.hpp"
#include "dcsweep/workload/workload.hpp"

namespace dcsweep {

/// Immutable input of one simulation.
struct Scenario {
  ParamSet params;   ///< every parameter value, for the plug-ins
  StreamKey key;     ///< (seed, point, replicate)
  Platform platform;
  Workload workload;
};

/// What happened to one job. A job whose runtime exceeds its estimate is killed at the estimate.
struct JobOutcome {
  double start_s;
  double end_s;
  bool killed;
  double node_seconds = NAN;  ///< nodes x time held, over every configuration it ran in
  double comm_cost = NAN;     ///< CC_job where it started (NaN: one node, or no network)
  double stretch = 1.0;       ///< (end - start) / the trace's time for the same work
};

struct SimulationResult {
  Report report;
  std::vector<JobOutcome> jobs;  ///< indexed like Scenario::workload.jobs
  /// Each job's nodes at its end, in task order (only when SimulationOptions::keep_nodes).
  std::vector<std::vector<NodeId>> nodes;
};

class RoomView;
class Scheduler;
class Allocator;

/// A wall-clock limit on a simulation (a sweep's point_time_limit_s): the engine checks it after
/// every event, so a run stops at most one event (one scheduler pass: parm's decisions are bounded
/// by their work limits) after the limit, with SimulationError "time limit of N s reached at
/// simulated time T".
struct WallLimit {
  double limit_s = 0;  ///< 0: none
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

  bool reached() const {
    return limit_s > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > limit_s;
  }
};

struct SimulationOptions {
  std::span<SimObserver* const> observers;
  const RoomView* room = nullptr;  ///< what policies see of the room (nullptr: no room)
  bool keep_nodes = false;         ///< fill SimulationResult::nodes (--jobs-out)
  /// Policies given by the caller instead of the ones the parameters name (tests, embedding).
  Scheduler* scheduler = nullptr;
  Allocator* allocator = nullptr;
  WallLimit wall_limit;
};

/// Runs the scenario to the end. SimulationError if an invariant breaks (a node given twice, or
/// jobs left that can never start).
SimulationResult simulate(const Scenario& scenario, const SimulationOptions& options);
inline SimulationResult simulate(const Scenario& scenario, std::span<SimObserver* const> observers = {}) {
  return simulate(scenario, SimulationOptions{observers});
}

}  // namespace dcsweep
