#include "dcsweep/thermal/room.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/rng.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {
namespace {

/// The zone size of a scenario: thermal_zone_nodes, or the platform's own.
std::int32_t zone_nodes_of(const Platform& platform, const ParamSet& params) {
  const auto asked = static_cast<std::int32_t>(params.integer("thermal_zone_nodes"));
  return asked > 0 ? asked : platform.zone_nodes;
}

RecirculationGenerator generator_of(const Platform& platform, const ParamSet& p) {
  const double fraction =
      p.was_set("recirculation_fraction") ? p.real("recirculation_fraction") : platform.recirculation_fraction;
  return {fraction, p.real("recirculation_rack_decay"), p.real("recirculation_height_gain"),
          p.real("recirculation_end_gain"),  p.real("recirculation_cross_row"), p.real("recirculation_far_row"),
          p.real("recirculation_noise"),     p.real("aisle_containment")};
}

/// A room whose D would not fit a node's memory or build in reasonable time is refused with what
/// it would cost and the parameter that fixes it (the model is dense: zones^2 doubles, zones^3
/// work). 8,192 zones: 537 MB and about 30 s; oxley4320 at node level (4,320) passes.
void check_room_size(const Platform& platform, std::int32_t zone_nodes) {
  const double zones = std::ceil(double(platform.node_count) / double(zone_nodes));
  if (zones <= kMaxThermalZones) return;
  char text[160];
  std::snprintf(text, sizeof text, "a D of %.0f x %.0f zones needs %.1f GB and about %.0f min to build", zones, zones,
                zones * zones * 8 / 1e9, 5.2e-11 * zones * zones * zones / 60);
  const auto suggested = std::int32_t(std::ceil(double(platform.node_count) / kMaxThermalZones));
  throw InputError("platform " + platform.name + " (" + std::to_string(platform.node_count) + " nodes): " + text +
                   "; the limit is " + std::to_string(kMaxThermalZones) + " zones: set thermal_zone_nodes (at least " +
                   std::to_string(suggested) + ", dividing the rack height)");
}

/// Measured indices rarely balance to rounding: off by at most kInfluenceWarn they are used with a
/// warning (the heat balance is off by about as much); off by more than 1% they are refused.
constexpr double kInfluenceWarn = 1e-6, kInfluenceRefuse = 1e-2;

std::vector<std::string> check_imported_influence(const InfluenceIndices& a, const std::vector<double>& zone_airflow,
                                                  const std::vector<double>& crac_airflow, const std::string& name) {
  const AirBalance b = air_balance(a, zone_airflow, crac_airflow, name);
  const auto zones = Eigen::Index(zone_airflow.size());
  const double worst = std::max(b.share_error, std::abs(b.outlet_imbalance));
  if (!(worst <= kInfluenceRefuse)) {
    throw InputError(describe_air_balance(b, zones, name, kInfluenceRefuse) + " (more than 1% off: refused)");
  }
  if (worst <= kInfluenceWarn) return {};
  return {describe_air_balance(b, zones, name, kInfluenceWarn) +
          " (within 1%: used as given; the CRACs' heat balance is off by about as much)"};
}

AirProperties air_of(const ParamSet& p) { return {p.real("air_density_kg_m3"), p.real("air_heat_capacity_j_kgk")}; }

}  // namespace


std::vector<ParamSpec> room_params() {
  return {
      {.name = "thermal_model", .type = ParamType::choice, .default_value = std::string("auto"),
       .choices = {"auto", "none", "recirculation", "crac_node"},
       .help = "auto: heat recirculation (D) when the platform has a room; crac_node: [P3]'s CRAC + node model; "
               "none: power only"},
      {.name = "thermal_zone_nodes", .type = ParamType::integer, .default_value = std::int64_t{0}, .min = 0,
       .max = 1e7, .help = "consecutive nodes per thermal zone (0: the platform's own, e.g. 512 on intrepid)"},
      {.name = "heat_distribution", .type = ParamType::text, .default_value = std::string(),
       .help = "D matrix file (K/W; CSV, .mtx or HDF5 dataset 'D'), zones x zones; replaces the platform's"},
      {.name = "recirculation", .type = ParamType::text, .default_value = std::string(),
       .help = "cross-interference matrix A file (CSV, .mtx or HDF5 dataset 'A'); D is computed from it"},
      {.name = "supply_air_fraction", .type = ParamType::text, .default_value = std::string(),
       .help = "[P4]'s supply-air fraction matrix F file (CSV, .mtx or FILE.h5:/dataset), zones x zones, rows "
               "summing to 1; used by thermostat_setting = highest (Eq. 6); empty: F = I"},
      {.name = "influence_indices", .type = ParamType::text, .default_value = std::string(),
       .help = "thermal_model crac_node: influence index file (CSV, .mtx or FILE.h5:/dataset), (zones + CRACs) "
               "squared, rows the outlets and columns the inlets (zones, then CRACs); empty: generated. Checked "
               "for conservation of air: off by more than 1% is an error, by more than 1e-6 a warning"},
      {.name = "room_seed", .type = ParamType::integer, .default_value = std::int64_t{1}, .min = 0, .max = 9.0e15,
       .help = "seed of the generated recirculation (the room, not the experiment: the sweep seed leaves it)"},
      real_param("recirculation_fraction", "", 0.44, 0, 0.99,
                 "generator: share of a zone's exhaust reaching inlets (unset: the platform's own; meng40-like 0.44)"),
      real_param("recirculation_rack_decay", "", 1.5, 1e-3, 1e6, "generator: decay length along a row, in racks"),
      real_param("recirculation_height_gain", "", 2.0, 0, 1e3, "generator: extra recirculation into the top slots"),
      real_param("recirculation_end_gain", "", 6.0, 0, 1e3, "generator: extra recirculation at the far row end"),
      real_param("recirculation_cross_row", "", 0.35, 0, 1, "generator: weight of the row across the hot aisle"),
      real_param("recirculation_far_row", "", 0.05, 0, 1, "generator: weight of rows of other aisles"),
      real_param("recirculation_noise", "", 0.1, 0, 0.99, "generator: relative random spread of each weight"),
      real_param("aisle_containment", "", 0.0, 0, 1, "0 open aisles, 1 isolated cold aisles (less recirculation)"),
      real_param("air_density_kg_m3", "kg/m3", 1.19, 0.01, 100, "air density rho"),
      real_param("air_heat_capacity_j_kgk", "J/(kg K)", 1005, 1, 1e5, "specific heat of air c_p"),
  };
}

std::string heat_distribution_key(const Platform& platform, const ParamSet& p) {
  std::string key = platform.name + '\x1f' + std::to_string(platform.node_count) + '\x1f' +
                    std::to_string(zone_nodes_of(platform, p)) + '\x1f' + p.text("thermal_model");
  for (const char* name : {"heat_distribution", "recirculation", "supply_air_fraction", "influence_indices", "room_seed", "recirculation_fraction",
                           "recirculation_rack_decay", "recirculation_height_gain", "recirculation_end_gain",
                           "recirculation_cross_row", "recirculation_far_row", "recirculation_noise",
                           "aisle_containment", "air_density_kg_m3", "air_heat_capacity_j_kgk", "room_rows",
                           "room_racks_per_row", "room_nodes_per_rack", "room_node_types"}) {
    key += '\x1f' + format_value(p.value(name));
  }
  return key;
}

Matrix recirculation_matrix(const Platform& platform, const ParamSet& p, const ThermalZones& zones,
                            const MatrixReader& reader) {
  const std::string& a_file = p.text("recirculation");
  if (!a_file.empty()) {
    Matrix a = reader(a_file);
    check_recirculation(a, zones.size(), a_file);
    return a;
  }
  RngStream rng(StreamKey{static_cast<std::uint64_t>(p.integer("room_seed")), 0, 0}, StreamPurpose::room);
  return generate_recirculation(zones, generator_of(platform, p), rng);
}

HeatDistributionBuild build_heat_distribution(const Platform& platform, const ParamSet& p,
                                              const MatrixReader& reader) {
  const std::int32_t zone_nodes = zone_nodes_of(platform, p);
  check_room_size(platform, zone_nodes);
  auto zones = std::make_shared<ThermalZones>(thermal_zones(platform, zone_nodes));
  HeatDistributionBuild out;
  out.zones = zones;
  const std::string& d_file = p.text("heat_distribution");
  const std::string& a_file = p.text("recirculation");
  if (!d_file.empty() && !a_file.empty()) {
    throw InputError("give either heat_distribution (D) or recirculation (A), not both");
  }
  const std::string& influence_file = p.text("influence_indices");
  if (p.text("thermal_model") == "crac_node") {
    if (!d_file.empty() || !a_file.empty() || !p.text("supply_air_fraction").empty()) {
      throw InputError("thermal_model crac_node uses influence indices (influence_indices, or generated); "
                       "heat_distribution, recirculation and supply_air_fraction files are for the recirculation model");
    }
    const std::vector<double> crac_airflow(std::size_t(platform.room.cracs), platform.room.crac_airflow_m3s);
    InfluenceIndices indices;
    if (influence_file.empty()) {
      RngStream rng(StreamKey{static_cast<std::uint64_t>(p.integer("room_seed")), 0, 0}, StreamPurpose::room);
      indices = generate_influence(*zones, crac_airflow, generator_of(platform, p), rng);  // checked
    } else {
      indices = influence_from_matrix(reader(influence_file), Eigen::Index(zones->size()), platform.room.cracs,
                                      influence_file);
      out.warnings = check_imported_influence(indices, zones->airflow_m3s, crac_airflow, influence_file);
    }
    out.crac_node = std::make_shared<const CracNodeModel>(std::move(indices), zones->airflow_m3s, crac_airflow, air_of(p));
    return out;
  }
  if (!influence_file.empty()) {
    throw InputError("influence_indices is for thermal_model crac_node (the recirculation model takes "
                     "heat_distribution or recirculation)");
  }
  Matrix d;
  if (!d_file.empty() || (a_file.empty() && !platform.heat_distribution.empty() && zone_nodes == platform.zone_nodes)) {
    const std::string& path = d_file.empty() ? platform.heat_distribution : d_file;
    d = reader(path);
    out.warnings = check_heat_distribution(d, zones->size(), path);
  } else {
    d = heat_distribution_from_recirculation(recirculation_matrix(platform, p, *zones, reader),
                                             heat_capacity_rates(*zones, air_of(p)));
  }
  out.d = std::make_shared<const HeatDistribution>(std::move(d));
  if (const std::string& f_file = p.text("supply_air_fraction"); !f_file.empty()) {
    const Matrix f = reader(f_file);
    check_supply_fraction(f, zones->size(), f_file);
    out.supply_share = std::make_shared<const Eigen::VectorXd>(f.rowwise().sum());
  }
  return out;
}

double supply_bound_c(const HeatDistributionBuild& heat, const Eigen::VectorXd& rise_k, double redline_c) {
  if (!heat.supply_share) return NAN;
  return highest_supply_c(rise_k, heat.supply_share.get(), redline_c);
}

double highest_supply_c(const Eigen::VectorXd& rise_k, const Eigen::VectorXd* share, double redline_c) {
  if (!share) return (redline_c - rise_k.array()).minCoeff();
  return ((redline_c - rise_k.array()) / share->array()).minCoeff();
}

ThermalState thermal_state(const HeatDistributionBuild& heat, const Eigen::VectorXd& zone_power_w) {
  if (heat.crac_node) {
    const auto solution = heat.crac_node->solve(zone_power_w, Eigen::VectorXd::Zero(heat.crac_node->cracs()));
    return {solution.node_in_c, solution.removed_heat_w};  // outlets at 0 C: the rises themselves
  }
  return {heat.d->matrix() * zone_power_w, NAN};
}

}  // namespace dcsweep
