#include "dcsweep/sim/run.hpp"

#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/metrics.hpp"
#include "dcsweep/sim/utilization.hpp"

namespace dcsweep {

std::vector<MetricSpec> simulation_metric_specs() {
  const auto scheduling = scheduling_metric_specs();  // their job metrics include the communication ones
  std::vector<MetricSpec> out(scheduling.begin(), scheduling.end());
  for (MetricSpec& m : datacenter_metric_specs()) out.push_back(std::move(m));
  return out;
}

std::vector<SeriesSpec> simulation_series_specs() {
  std::vector<SeriesSpec> out{utilization_series_spec()};
  for (SeriesSpec& s : datacenter_series_specs()) out.push_back(std::move(s));
  return out;
}

SimulationResult run_simulation(const Scenario& scenario, const HeatProvider& heat, bool keep_nodes) {
  UtilizationSeries utilization(scenario.platform.node_count, scenario.params.real("series_interval_s"));
  std::vector<SimObserver*> observers{&utilization};
  const auto physics = make_datacenter_model(scenario, heat);
  if (physics) observers.push_back(physics.get());
  return simulate(scenario, SimulationOptions{observers, physics.get(), keep_nodes});
}

}  // namespace dcsweep
