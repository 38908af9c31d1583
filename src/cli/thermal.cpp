#include <cmath>
#include <ostream>

#include "commands.hpp"
#include "dcsweep/cli/cli.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sweep/inputs.hpp"
#include "dcsweep/thermal/sp_eir_bound.hpp"

namespace dcsweep::cli {
namespace {

std::string json(double value) { return std::isfinite(value) ? format_number(value) : "null"; }

/// Every node's power from its type's entry (`field`: idle_w or busy_w).
std::vector<double> every_node(const NodePowerTable& table, const Platform& platform, double TypePower::*field) {
  std::vector<double> power(std::size_t(platform.node_count));
  for (std::size_t n = 0; n < power.size(); ++n) {
    power[n] = table[platform.node_type.empty() ? 0 : platform.node_type[n]].*field;
  }
  return power;
}

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
  return every_node(*table, platform, &TypePower::idle_w);
}

/// What the cooling sees for these node powers, and the inlet rises behind it.
struct RoomState {
  ThermalState thermal;
  CoolingInput cooling;
};
RoomState room_state(const HeatDistributionBuild& heat, const std::vector<double>& power, double redline_c) {
  Eigen::VectorXd zone_power = Eigen::VectorXd::Zero(Eigen::Index(heat.zones->size()));
  double compute = 0;
  for (std::size_t n = 0; n < power.size(); ++n) {
    zone_power(Eigen::Index(n) / heat.zones->zone_nodes) += power[n];
    compute += power[n];
  }
  ThermalState state = thermal_state(heat, zone_power);
  const CoolingInput input{compute, state.rise_k.maxCoeff(), state.removed_heat_w,
                           supply_bound_c(heat, state.rise_k, redline_c)};
  return {std::move(state), input};
}

/// [P4] Eq. 7 for the room (--sp-eir-bound): the thermostat CRAC whatever `cooling` says, since
/// the bound is a property of [P4]'s two-mode CRAC; its setting is Eq. 6's for each state, so
/// thermostat_high_c and thermostat_setting are not read.
void print_sp_eir_bound(const Platform& platform, const ParamSet& params, const HeatDistributionBuild& heat,
                        std::ostream& out) {
  const auto table = make_node_power(params, platform, {});
  if (!table) {
    throw InputError("thermal: --sp-eir-bound needs a node power model (every node's idle and busy power); platform " +
                     platform.name + " has none with node_power = " + params.text("node_power"));
  }
  const CoolingRoom room = cooling_room(platform, params, table.get());
  const ThermostatSettings settings = thermostat_settings(params, room);
  const CoolingInput full = room_state(heat, every_node(*table, platform, &TypePower::busy_w), room.redline_c).cooling;
  const CoolingInput idle = room_state(heat, every_node(*table, platform, &TypePower::idle_w), room.redline_c).cooling;
  const SpEirUpperBound bound = sp_eir_upper_bound(settings, full, idle);
  auto side = [&out](const char* name, const ThermostatSteadyState& s) {
    out << "\"" << name << "\": {\"compute_power_w\": " << json(s.compute_w)
        << ", \"thermostat_high_c\": " << json(s.setting_c) << ", \"cooling_power_w\": " << json(s.cooling_w)
        << ", \"cooling_share\": " << json(s.cooling_w / s.compute_w) << ", \"total_power_w\": " << json(s.total_w())
        << "}";
  };
  // [P4] reports 1.69 for the ASU room. Say what that figure would need of this room's CRAC: the
  // full-load cooling power that makes the ratio 1.69 with Opt's side as computed here, beside the
  // most the CRAC draws at full load (high mode at its coldest supply).
  const double paper = 1.69;
  const double needed_w = paper * bound.opt_idle.total_w() - bound.alg_full.compute_w;
  const bool reachable = needed_w <= bound.alg_full.peak_cooling_w;
  out << "{\"platform\": \"" << platform.name << "\", \"sp_eir_bound\": " << json(bound.ratio())
      << ", \"compute_ratio\": " << json(bound.alg_full.compute_w / bound.opt_idle.compute_w) << ", ";
  side("alg_full_load", bound.alg_full);
  out << ", ";
  side("opt_idle", bound.opt_idle);
  out << ", \"crac_low_extract_w\": " << json(settings.extract_low_w)
      << ", \"crac_high_extract_w\": " << json(settings.extract_high_w) << ", \"paper_bound_asu\": " << json(paper)
      << ", \"full_load_cooling_for_paper_bound_w\": " << json(needed_w)
      << ", \"full_load_peak_cooling_w\": " << json(bound.alg_full.peak_cooling_w)
      << ", \"vs_paper\": \"[P4] Eq. 7 gives 1.69 for the ASU room. Here P_AC = P_ex^2 / (r_ac T_sup) with T_sup in "
         "kelvin (a CoP of r_ac T_sup / P_ex) is cooling_share of the compute power, so the bound stays near "
         "compute_ratio; 1.69 would need full_load_cooling_for_paper_bound_w of CRAC power at full load, "
      << (reachable ? "which this CRAC can draw at its peak" : "more than this CRAC draws even at its peak")
      << " (full_load_peak_cooling_w)\"}\n";
}

}  // namespace

int thermal_command(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  const ParamCatalog& catalog = simulation_catalog();
  po::options_description options("Power state");
  options.add_options()("power-w", po::value<std::string>()->value_name("P.csv"), "node powers in W, one per line")(
      "uniform-power-w", po::value<double>()->value_name("W"), "every node at W (default: each node's idle power)")(
      "sp-eir-bound",
      "print [P4] Eq. 7's upper bound on SP-EIR for the room instead: (P_full + CRAC power, every node busy) / "
      "(P_idle + CRAC power, every node idle), the thermostat CRAC (whatever --cooling says) at Eq. 6's setting "
      "for each state")("help,h", "this help");
  options.add(param_options(catalog));
  const po::variables_map vm = parse_options(args, options, "thermal");
  if (vm.count("help")) {
    out << "usage: dcsweep thermal --platform NAME [--power-w P.csv | --uniform-power-w W] [--heat-distribution D.csv |\n"
           "       --recirculation A.csv] [--supply-temp-c C] [--redline-c C] [--cooling static|redline|thermostat]\n"
           "       dcsweep thermal --platform NAME --sp-eir-bound [thermostat parameters]\n"
           "Evaluates the thermal and cooling model for one power state; prints JSON. With --sp-eir-bound: [P4]\n"
           "Eq. 7's bound on SP-EIR (every node busy over every node idle, thermostat CRAC at Eq. 6).\n"
           "Guide: docs/models.md#data-center-physics (equations, defaults and their sources)\n\n"
        << options;
    return kExitOk;
  }
  ParamSet params(catalog);
  apply_params(vm, params);
  const Platform platform = *platform_registry().at(params.text("platform")).make({params, {}}, TraceHint{});
  if (!platform.has_room()) throw InputError("thermal: platform '" + platform.name + "' has no room; choose a room platform");
  const HeatDistributionBuild heat = build_heat_distribution(platform, params, read_matrix_any);
  for (const std::string& warning : heat.warnings) err << "dcsweep: warning: " << warning << "\n";
  if (vm.count("sp-eir-bound")) {
    if (vm.count("power-w") || vm.count("uniform-power-w")) {
      throw InputError("thermal: --sp-eir-bound evaluates every node busy and every node idle; drop --power-w and "
                       "--uniform-power-w");
    }
    print_sp_eir_bound(platform, params, heat, out);
    return kExitOk;
  }
  const std::vector<double> power = node_powers(vm, params, platform);
  const double supply = params.real("supply_temp_c");
  const auto power_model = make_node_power(params, platform, {});
  const CoolingRoom room = cooling_room(platform, params, power_model.get());
  const RoomState now = room_state(heat, power, room.redline_c);
  const ThermalState& state = now.thermal;
  const Eigen::VectorXd& rise = state.rise_k;
  const double compute = now.cooling.compute_power_w;
  auto cooling = cooling_registry().at(params.text("cooling")).make({params, {}}, room);
  cooling->update(0, now.cooling);
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
