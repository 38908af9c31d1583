#pragma once
// One simulation with the standard observers, and the fixed list of everything a simulation can
// report. A sweep lays out its result file from these lists before any point runs; a point whose
// report lacks a metric (a model that is off) stores NaN there.
#include <vector>

#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/core/report.hpp"
#include "dcsweep/sim/simulation.hpp"

namespace dcsweep {

/// Every metric, in result-file order.
std::vector<MetricSpec> simulation_metric_specs();
/// Every time series, in result-file order.
std::vector<SeriesSpec> simulation_series_specs();

/// Simulates the scenario with the observers its parameters ask for: the utilization series and,
/// when a node power model applies, the data-center physics (its D from `heat`, or built), which
/// is also the room view the policies read. `keep_nodes`: each job's nodes in the result.
/// With cooling thermostat and thermostat_setting = peak, the simulation runs twice: first with
/// the setting at [P4] Eq. 6 after every change, to find the run's lowest bound; then with the
/// setting fixed there (thermostat_high_c). `extra` observers see the run that is reported;
/// `limit` covers every run together.
SimulationResult run_simulation(const Scenario& scenario, const HeatProvider& heat = {}, bool keep_nodes = false,
                                std::span<SimObserver* const> extra = {}, const WallLimit& limit = {});

}  // namespace dcsweep
