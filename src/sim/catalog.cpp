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

/// A plug-in's parameters are read when `selector` (the family's choice parameter) names it, and
/// by the other readers its declaration lists.
template <class RegistryT>
void add_plugin_params(ParamCatalog& catalog, const RegistryT& registry, const std::string& selector) {
  for (const auto& entry : registry.entries()) {
    for (ParamSpec spec : entry.params) {
      ParamReader own{selector, {entry.name}};
      // node_power = platform takes the platform's preset, whichever it is: it may read any.
      if (selector == "node_power") own.values.push_back("platform");
      spec.read_by.insert(spec.read_by.begin(), std::move(own));
      catalog.add(std::move(spec));
    }
  }
}

ParamCatalog build_catalog() {
  ParamCatalog catalog;
  for (auto& spec : scenario_params()) catalog.add(std::move(spec));
  for (auto& spec : comm::comm_params()) catalog.add(std::move(spec));
  catalog.add(series_interval_param());
  for (auto& spec : datacenter_params()) catalog.add(std::move(spec));
  for (auto& spec : ratebased_params()) catalog.add(std::move(spec));
  add_plugin_params(catalog, node_power_registry(), "node_power");
  add_plugin_params(catalog, cooling_registry(), "cooling");
  add_plugin_params(catalog, platform_registry(), "platform");
  add_plugin_params(catalog, scheduler_registry(), "scheduler");
  add_plugin_params(catalog, allocator_registry(), "allocator");
  add_plugin_params(catalog, runtime_model_registry(), "runtime_model");
  return catalog;
}

}  // namespace

const ParamCatalog& simulation_catalog() {
  static const ParamCatalog catalog = build_catalog();
  return catalog;
}

}  // namespace dcsweep
