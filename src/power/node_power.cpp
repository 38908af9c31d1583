#include "dcsweep/power/node_power.hpp"

#include <algorithm>
#include <cmath>

#include "dcsweep/core/error.hpp"

namespace dcsweep {
namespace {

ParamSpec watts(std::string name, double fallback, std::string help, double max = 1.0e7) {
  return real_param(std::move(name), "W", fallback, 0, max, std::move(help));
}

ParamSpec with_reader(ParamSpec spec, ParamReader reader) {
  spec.read_by.push_back(std::move(reader));
  return spec;
}

ParamSpec comm_fraction_param() {
  return {.name = "comm_fraction", .type = ParamType::real, .default_value = 0.3, .min = 0, .max = 1,
          .help = "fraction of a running job's time spent communicating ([P0], [P1])",
          .read_by = {{"runtime_model", {"meng_tau", "meng_relative"}}}};
}

/// A value of the preset unless the user set the parameter.
double preset_or_set(const ParamSet& p, const char* name, double preset) {
  return p.was_set(name) ? p.real(name) : preset;
}

NodePowerRegistry::Entry meng(std::string name, std::string help, double idle, double comm, double compute) {
  auto make = [=](const BuildContext& ctx, const Platform& platform) {
    const ParamSet& p = ctx.params;
    const double cf = p.real("comm_fraction");
    const double busy = (1 - cf) * preset_or_set(p, "node_compute_power_w", compute) +
                        cf * preset_or_set(p, "node_comm_power_w", comm);
    TypePower t{preset_or_set(p, "node_idle_power_w", idle), busy};
    t.compute_w = preset_or_set(p, "node_compute_power_w", compute);
    t.comm_w = preset_or_set(p, "node_comm_power_w", comm);
    t.comm_fraction = cf;
    return std::make_unique<NodePowerTable>(platform.types.size(), t);
  };
  return {std::move(name),
          std::move(help),
          {comm_fraction_param(),
           watts("node_idle_power_w", 1000, "idle node power (meng presets; unset: the preset's, 1000 W)"),
           watts("node_comm_power_w", 2300,
                 "node power while communicating (meng presets; unset: the preset's, 2300 W p0 / 2000 W p1)"),
           watts("node_compute_power_w", 3000,
                 "node power while computing (meng presets; unset: the preset's, 3000 W p0 / 2500 W p1)")},
          make};
}

NodePowerRegistry::Entry chassis() {
  auto make = [](const BuildContext& ctx, const Platform& platform) {
    const double u = ctx.params.real("chassis_busy_utilization_pct") / 100.0;
    auto table = std::make_unique<NodePowerTable>();
    for (const NodeType& t : platform.types) {
      if (t.chassis_omega_w <= 0) throw InputError("node_power 'chassis': node type '" + t.name + "' has no omega/alpha");
      table->push_back({t.chassis_omega_w, t.chassis_omega_w + u * t.chassis_alpha_w});
    }
    return table;
  };
  return {"chassis",
          "[P4] chassis power omega + (u/100) alpha per node type (PE1955 2420/175 W, PE1855 1820/72 W)",
          {{.name = "chassis_busy_utilization_pct", .type = ParamType::real, .unit = "%", .default_value = 100.0,
            .min = 0, .max = 100, .help = "utilization u of a chassis running a job (idle: 0)"}},
          make};
}

NodePowerRegistry::Entry parm() {
  auto make = [](const BuildContext& ctx, const Platform& platform) {
    const ParamSet& p = ctx.params;
    const double rest = p.real("node_memory_power_w") + p.real("node_base_power_w");
    TypePower t{rest + p.real("cpu_idle_power_w"), rest + p.real("cpu_power_cap_w")};
    t.cap_offset_w = rest;
    return std::make_unique<NodePowerTable>(platform.types.size(), t);
  };
  return {"parm",
          "[P2] node = CPU (capped) + memory + base; Intrepid: CPU levels 30-60 W, memory 18 W, base 38 W",
          {with_reader(watts("cpu_power_cap_w", 60, "CPU power of a running node (a CPU cap level)"),
                       {"runtime_model", {"pass"}}),  // a job started without a cap runs at it
           watts("cpu_idle_power_w", 30, "CPU power of an idle node (the lowest level)"),
           watts("node_memory_power_w", 18, "memory power per node"),
           watts("node_base_power_w", 38, "base power per node (board, network, fans)")},
          make};
}

NodePowerRegistry::Entry oxley() {
  auto make = [](const BuildContext& ctx, const Platform& platform) {
    const auto pstate = static_cast<std::size_t>(ctx.params.integer("pstate"));
    auto table = std::make_unique<NodePowerTable>();
    for (const NodeType& t : platform.types) {
      if (t.pstates.empty()) throw InputError("node_power 'oxley': node type '" + t.name + "' has no P-states");
      const PState& s = t.pstates[std::min(pstate, t.pstates.size() - 1)];
      TypePower power{t.static_w, t.static_w + t.cores * s.core_power_w};
      for (const PState& k : t.pstates) power.pstate_busy_w.push_back(t.static_w + t.cores * k.core_power_w);
      table->push_back(std::move(power));
    }
    return table;
  };
  return {"oxley",
          "[P3] static power + cores x per-core power at P-state `pstate` (synthesized DVFS tables)",
          {{.name = "pstate", .type = ParamType::integer, .default_value = std::int64_t{0}, .min = 0, .max = 63,
            .help = "P-state of running cores (0: fastest; beyond a type's last, its last)"}},
          make};
}

}  // namespace

const NodePowerRegistry& node_power_registry() {
  static const NodePowerRegistry registry(
      "node_power",
      {meng("meng_p0", "[P0] idle 1000 W, communication 2300 W, computation 3000 W, mixed by comm_fraction", 1000,
            2300, 3000),
       meng("meng_p1", "[P1] idle 1000 W, communication 2000 W, computation 2500 W, mixed by comm_fraction", 1000,
            2000, 2500),
       chassis(), parm(), oxley()});
  return registry;
}

double busy_power_w(const TypePower& t, const JobConfig& config, double comm_stretch) {
  double busy = t.busy_w;
  if (!std::isnan(config.cpu_cap_w)) {
    if (std::isnan(t.cap_offset_w)) throw SimulationError("a job was started with a CPU power cap, which only node_power 'parm' models");
    busy = t.cap_offset_w + config.cpu_cap_w;
  }
  if (config.pstate >= 0) {
    if (t.pstate_busy_w.empty()) throw SimulationError("a job was started at a P-state, which only node_power 'oxley' models");
    busy = t.pstate_busy_w[std::min(static_cast<std::size_t>(config.pstate), t.pstate_busy_w.size() - 1)];
  }
  if (comm_stretch != 1.0 && !std::isnan(t.comm_fraction)) {
    const double c = t.comm_fraction;
    busy = ((1 - c) * t.compute_w + c * comm_stretch * t.comm_w) / ((1 - c) + c * comm_stretch);
  }
  return busy;
}

ParamSpec node_power_param() {
  std::vector<std::string> choices{"platform", "none"};
  for (const std::string& name : node_power_registry().names()) choices.push_back(name);
  return {.name = "node_power", .type = ParamType::choice, .default_value = std::string("platform"),
          .choices = choices,
          .help = "node power model: the platform's own preset, none, or a preset (dcsweep list)"};
}

std::unique_ptr<NodePowerTable> make_node_power(const ParamSet& params, const Platform& platform, StreamKey key) {
  std::string name = params.text("node_power");
  if (name == "platform") name = platform.power_preset;
  if (name.empty() || name == "none") return nullptr;
  return node_power_registry().at(name).make({params, key}, platform);
}

}  // namespace dcsweep
