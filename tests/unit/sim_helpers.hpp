#pragma once
// Running a scenario with its data-center physics in the loop (the room's state visible to the
// policies, power and cooling metrics in the report), optionally with a test's own allocator.
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "dcsweep/sim/simulation.hpp"

namespace dcsweep::test {

inline SimulationResult simulate_with_physics(const Scenario& s, Allocator* allocator = nullptr,
                                              bool keep_nodes = false) {
  auto physics = make_datacenter_model(s);
  SimObserver* observers[] = {physics.get()};
  SimulationOptions options{observers, physics.get()};
  options.allocator = allocator;
  options.keep_nodes = keep_nodes;
  return simulate(s, options);
}

}  // namespace dcsweep::test
