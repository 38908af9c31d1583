#include "dcsweep/sim/run.hpp"

#include "dcsweep/sim/metrics.hpp"
#include "dcsweep/sim/utilization.hpp"

namespace dcsweep {

std::vector<MetricSpec> simulation_metric_specs() {
  const auto scheduling = scheduling_metric_specs();
  return {scheduling.begin(), scheduling.end()};
}

std::vector<SeriesSpec> simulation_series_specs() { return {utilization_series_spec()}; }

SimulationResult run_simulation(const Scenario& scenario) {
  UtilizationSeries utilization(scenario.platform.node_count, scenario.params.real("series_interval_s"));
  SimObserver* const observers[] = {&utilization};
  return simulate(scenario, observers);
}

}  // namespace dcsweep
