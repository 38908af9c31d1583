#include <cmath>
#include <ostream>

#include "commands.hpp"
#include "dcsweep/cli/cli.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sweep/inputs.hpp"

namespace dcsweep::cli {
namespace {

std::string json(double value) { return std::isfinite(value) ? format_number(value) : "null"; }

/// Node powers: from --power-w FILE (one per node), --uniform-power-w, or each node's idle power.
std::vector<double> node_powers(const po::variables_map& vm, const ParamSet& params, const Platform& platform) {
  if (vm.count("power-w") && vm.count("uniform-power-w")) throw InputError("thermal: give --power-w or --uniform-power-w, not both");
  std::vector<double> power(std::size_t(platform.node_count));
  if (vm.count("power-w")) {
    const std::string path = vm["power-w"].as<std::string>();
    power = read_vector_file(path);
    if (power.size() != std::size_t(platform.node_count)) {
      throw InputError(path + ": " + std::to_string(power.size()) + " values; platform " + platform.name + " has " +
                       std::to_string(platform.node_count) + " nodes (one value per node, one per line)");
    }
    for (std::size_t i = 0; i < power.size(); ++i) {
      if (power[i] < 0) throw InputError(path + ": node " + std::to_string(i + 1) + " has negative power " + format_number(power[i]));
    }
    return power;
  }
  if (vm.count("uniform-power-w")) {
    const double w = vm["uniform-power-w"].as<double>();
    if (!(w >= 0)) throw InputError("thermal: --uniform-power-w must be a power >= 0");
    power.assign(power.size(), w);
    return power;
  }
  const auto table = make_node_power(params, platform, {});
  if (!table) throw InputError("thermal: no node power model for platform " + platform.name + "; give --power-w FILE");
  for (std::int32_t n = 0; n < platform.node_count; ++n) {
    power[std::size_t(n)] = (*table)[platform.node_type.empty() ? 0 : platform.node_type[std::size_t(n)]].idle_w;
  }
  return power;
}

}  // namespace

int thermal_command(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  const ParamCatalog& catalog = simulation_catalog();
  po::options_description options("Power state");
  options.add_options()("power-w", po::value<std::string>()->value_name("P.csv"), "node powers in W, one per line")(
      "uniform-power-w", po::value<double>()->value_name("W"), "every node at W (default: each node's idle power)")(
      "help,h", "this help");
  options.add(param_options(catalog));
  const po::variables_map vm = parse_options(args, options, "thermal");
  if (vm.count("help")) {
    out << "usage: dcsweep thermal --platform NAME [--power-w P.csv | --uniform-power-w W] [--heat-distribution D.csv |\n"
           "       --recirculation A.csv] [--supply-temp-c C] [--redline-c C] [--cooling static|redline|thermostat]\n"
           "Evaluates the thermal and cooling model for one power state; prints JSON.\n\n"
        << options;
    return kExitOk;
  }
  ParamSet params(catalog);
  apply_params(vm, params);
  const Platform platform = *platform_registry().at(params.text("platform")).make({params, {}}, TraceHint{});
  if (!platform.has_room()) throw InputError("thermal: platform '" + platform.name + "' has no room; choose a room platform");
  const HeatDistributionBuild heat = build_heat_distribution(platform, params, read_matrix_any);
  for (const std::string& warning : heat.warnings) err << "dcsweep: warning: " << warning << "\n";
  const std::vector<double> power = node_powers(vm, params, platform);
  Eigen::VectorXd zone_power = Eigen::VectorXd::Zero(Eigen::Index(heat.zones->size()));
  double compute = 0;
  for (std::size_t n = 0; n < power.size(); ++n) {
    zone_power(Eigen::Index(n) / heat.zones->zone_nodes) += power[n];
    compute += power[n];
  }
  const ThermalState state = thermal_state(heat, zone_power);
  const Eigen::VectorXd& rise = state.rise_k;
  const double supply = params.real("supply_temp_c");
  const auto power_model = make_node_power(params, platform, {});
  const CoolingRoom room = cooling_room(platform, params, power_model.get());
  auto cooling = cooling_registry().at(params.text("cooling")).make({params, {}}, room);
  cooling->update(0, {compute, rise.maxCoeff(), state.removed_heat_w, supply_bound_c(heat, rise, room.redline_c)});
  const double cooling_w = cooling->power_w();
  // Inlets at supply_temp_c: F T_sup + D P ([P4] Eq. 1; F's row sums, or 1 without F).
  const Eigen::VectorXd t_in =
      (heat.supply_share ? Eigen::VectorXd(supply * heat.supply_share->array())
                         : Eigen::VectorXd::Constant(rise.size(), supply)) + rise;
  out << "{\"platform\": \"" << platform.name << "\", \"zones\": " << rise.size() << ", \"t_in_c\": [";
  for (Eigen::Index i = 0; i < rise.size(); ++i) out << (i ? ", " : "") << json(t_in(i));
  out << "], \"t_in_max_c\": " << json(t_in.maxCoeff()) << ", \"t_sup_eff_c\": " << json(cooling->supply_c())
      << ", \"cop\": " << json(cooling_w > 0 ? compute / cooling_w : NAN) << ", \"compute_power_w\": " << json(compute)
      << ", \"removed_heat_w\": " << json(state.removed_heat_w) << ", \"cooling_power_w\": " << json(cooling_w) << "}\n";
  return kExitOk;
}

}  // namespace dcsweep::cli
