#include "dcsweep/sim/catalog.hpp"

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/comm/comm.hpp"
#include "dcsweep/sched/scheduler.hpp"
#include "dcsweep/power/node_power.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/ratebased.hpp"
#include "dcsweep/sim/runtime_model.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "dcsweep/thermal/cooling.hpp"
#include "dcsweep/sim/utilization.hpp"

namespace dcsweep {
namespace {

template <class RegistryT>
void add_plugin_params(ParamCatalog& catalog, const RegistryT& registry) {
  for (const auto& entry : registry.entries()) {
    for (const auto& spec : entry.params) catalog.add(spec);
  }
}

ParamCatalog build_catalog() {
  ParamCatalog catalog;
  for (auto& spec : scenario_params()) catalog.add(std::move(spec));
  for (auto& spec : comm::comm_params()) catalog.add(std::move(spec));
  catalog.add(series_interval_param());
  for (auto& spec : datacenter_params()) catalog.add(std::move(spec));
  for (auto& spec : ratebased_params()) catalog.add(std::move(spec));
  add_plugin_params(catalog, node_power_registry());
  add_plugin_params(catalog, cooling_registry());
  add_plugin_params(catalog, platform_registry());
  add_plugin_params(catalog, scheduler_registry());
  add_plugin_params(catalog, allocator_registry());
  add_plugin_params(catalog, runtime_model_registry());
  return catalog;
}

}  // namespace

const ParamCatalog& simulation_catalog() {
  static const ParamCatalog catalog = build_catalog();
  return catalog;
}

}  // namespace dcsweep
