#include <cmath>
#include <iomanip>
#include <ostream>

#include "commands.hpp"
#include "dcsweep/cli/cli.hpp"
#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/comm/comm.hpp"
#include "dcsweep/sim/runtime_model.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sched/scheduler.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/metrics.hpp"
#include "dcsweep/sim/ratebased.hpp"
#include "dcsweep/sim/run.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "dcsweep/sim/utilization.hpp"

namespace dcsweep::cli {
namespace {

void print_param(std::ostream& out, const ParamSpec& spec, const char* indent) {
  out << indent << std::left << std::setw(24) << spec.name << ' ' << std::setw(8) << type_name(spec.type)
      << " unit=" << (spec.unit.empty() ? "-" : spec.unit) << " default=" << format_value(spec.default_value);
  const std::string range = spec.range_text();
  if (!range.empty()) out << " range=" << range;
  out << "\n" << indent << "    " << spec.help << "\n";
}

template <class RegistryT>
void print_family(std::ostream& out, const RegistryT& registry) {
  out << registry.family() << "s:\n";
  for (const auto& entry : registry.entries()) {
    out << "  " << entry.name << ": " << entry.help << "\n";
    if (entry.params.empty()) out << "      (no parameters of its own)\n";
    for (const auto& spec : entry.params) print_param(out, spec, "      ");
  }
  out << "\n";
}

}  // namespace

int list_command(std::span<const std::string> args, std::ostream& out) {
  if (!args.empty() && (args.front() == "--help" || args.front() == "-h")) {
    out << "usage: dcsweep list\nPrints every registered policy of every family, with its parameters.\n"
           "What each policy does: docs/policies.md; what the models compute: docs/models.md\n";
    return kExitOk;
  }
  out << "Every family and member explained, with its paper: docs/policies.md; the models: docs/models.md.\n\n";
  print_family(out, scheduler_registry());
  print_family(out, allocator_registry());
  print_family(out, platform_registry());
  print_family(out, node_power_registry());
  print_family(out, cooling_registry());
  print_family(out, runtime_model_registry());
  out << "communication patterns (comm_pattern; mixed: one of the last eight per job):\n";
  for (std::size_t i = 0; i < comm::pattern_names().size(); ++i) {
    out << "  " << std::left << std::setw(12) << comm::pattern_names()[i] << ' ' << comm::pattern_descriptions()[i]
        << "\n";
  }
  out << "\ncommunication parameters:\n";
  for (const ParamSpec& spec : comm::comm_params()) print_param(out, spec, "  ");
  out << "\ncommon simulation parameters:\n";
  for (const ParamSpec& spec : scenario_params()) print_param(out, spec, "  ");
  print_param(out, series_interval_param(), "  ");
  out << "\ndata-center physics parameters:\n";
  for (const ParamSpec& spec : datacenter_params()) print_param(out, spec, "  ");
  out << "\nrate-based epoch parameters (model = ratebased, [P3]):\n";
  for (const ParamSpec& spec : ratebased_params()) print_param(out, spec, "  ");
  out << "\nnode types (room_node_types):\n";
  for (const NodeType& t : node_type_catalog()) {
    out << "  " << std::left << std::setw(16) << t.name << " cores=" << t.cores << " airflow=" << t.airflow_m3s
        << " m3/s";
    if (t.chassis_omega_w > 0) out << " omega=" << t.chassis_omega_w << " W alpha=" << t.chassis_alpha_w << " W";
    if (!t.pstates.empty()) {
      out << " static=" << t.static_w << " W p-states=" << t.pstates.size() << " (" << t.pstates.front().frequency_ghz
          << "-" << t.pstates.back().frequency_ghz << " GHz, core " << format_number(std::round(t.pstates.front().core_power_w * 10) / 10)
          << " W at the top)";
    }
    out << "\n";
  }
  out << "\nmetrics:\n";
  auto print_metrics = [&](const std::vector<MetricSpec>& specs) {
    for (const MetricSpec& m : specs) {
      out << "  " << std::left << std::setw(28) << m.name << ' ' << std::setw(3) << (m.unit.empty() ? "-" : m.unit)
          << ' ' << m.help << "\n";
    }
  };
  print_metrics(simulation_metric_specs());
  out << "\nrate-based epoch metrics (model = ratebased):\n";
  print_metrics(ratebased_metric_specs());
  return kExitOk;
}

}  // namespace dcsweep::cli
