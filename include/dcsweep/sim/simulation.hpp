#pragma once
// One event-driven simulation: a platform runs a workload under a scheduler and an allocator,
// with optional observers (physics models) on the same clock.
//
// Event order at one simulated time t (deterministic, see INTERFACE.md):
//   1. observers advance to t;
//   2. every job end at t, in the order the jobs started (estimate kills included);
//   3. every arrival at t, in (submit time, job id) order;
//   4. observers whose own timer is due at t;
//   5. the scheduler runs once.
// The run ends with the last job event: observers' own times after it are not processed.
#include <span>
#include <vector>

#include "dcsweep/core/params.hpp"
#include "dcsweep/core/rng.hpp"
#include "dcsweep/platform/platform.hpp"
#include "dcsweep/sim/observer.hpp"
#include "dcsweep/sim/report.hpp"
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
};

struct SimulationResult {
  Report report;
  std::vector<JobOutcome> jobs;  ///< indexed like Scenario::workload.jobs
};

/// Runs the scenario to the end. SimulationError if an invariant breaks (a node given twice, or
/// jobs left that can never start).
SimulationResult simulate(const Scenario& scenario, std::span<SimObserver* const> observers = {});

}  // namespace dcsweep
