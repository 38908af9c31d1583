#include "dcsweep/sim/run.hpp"

#include <cmath>

#include "dcsweep/sched/parm.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/metrics.hpp"
#include "dcsweep/sim/utilization.hpp"

namespace dcsweep {
namespace {

const MetricSpec kThroughputPerEnergy{"throughput_per_energy", "1/(s J)",
                                      "[P4]: jobs completed per second of makespan per joule of total energy"};

SimulationResult run_once(const Scenario& scenario, const HeatProvider& heat, bool keep_nodes,
                          std::span<SimObserver* const> extra, const WallLimit& limit) {
  UtilizationSeries utilization(scenario.platform.node_count, scenario.params.real("series_interval_s"));
  std::vector<SimObserver*> observers{&utilization};
  observers.insert(observers.end(), extra.begin(), extra.end());
  const auto physics = make_datacenter_model(scenario, heat);
  if (physics) observers.push_back(physics.get());
  SimulationOptions options{observers, physics.get(), keep_nodes};
  options.wall_limit = limit;
  SimulationResult result = simulate(scenario, options);
  const Report& r = result.report;
  result.report.add(kThroughputPerEnergy,
                    r.value("jobs_completed") / r.value("makespan_s") / r.value("total_energy_j"));
  return result;
}

}  // namespace

std::vector<MetricSpec> simulation_metric_specs() {
  const auto scheduling = scheduling_metric_specs();  // their job metrics include the communication ones
  std::vector<MetricSpec> out(scheduling.begin(), scheduling.end());
  for (MetricSpec& m : datacenter_metric_specs()) out.push_back(std::move(m));
  out.push_back(kThroughputPerEnergy);
  for (MetricSpec& m : parm_metric_specs()) out.push_back(std::move(m));
  return out;
}

std::vector<SeriesSpec> simulation_series_specs() {
  std::vector<SeriesSpec> out{utilization_series_spec()};
  for (SeriesSpec& s : datacenter_series_specs()) out.push_back(std::move(s));
  return out;
}

SimulationResult run_simulation(const Scenario& scenario, const HeatProvider& heat, bool keep_nodes,
                                std::span<SimObserver* const> extra, const WallLimit& limit) {
  const ParamSet& p = scenario.params;
  if (p.text("cooling") != "thermostat" || p.text("thermostat_setting") != "peak") {
    return run_once(scenario, heat, keep_nodes, extra, limit);
  }
  // peak: a first pass with the setting at Eq. 6 after every change finds the run's lowest
  // bound, its most demanding moment; the run then holds that setting throughout.
  Scenario first = scenario;
  first.params.set("thermostat_setting", std::string("highest"));
  first.params.set("series_interval_s", 0.0);
  const double lowest = run_once(first, heat, false, {}, limit).report.value("min_thermostat_high_c");
  if (std::isnan(lowest)) return run_once(scenario, heat, keep_nodes, extra, limit);  // no thermal model: nothing to fix
  Scenario second = scenario;
  second.params.set("thermostat_high_c", lowest);
  return run_once(second, heat, keep_nodes, extra, limit);  // the same limit: it covers both runs
}

}  // namespace dcsweep
