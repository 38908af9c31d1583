#pragma once
// One room model for the simulation and its tools: how a scenario's room is built (D of the
// recirculation model from files, the platform's own matrix or the generator; or the CRAC + node
// model's influence indices, imported or generated), its parameters, and its steady state for
// given zone powers. The data-center observer (sim/datacenter.hpp), `dcsweep thermal`,
// `dcsweep platform --matrices-out` and the sweep's room cache all build rooms here.
#include <memory>
#include <string>
#include <vector>

#include "dcsweep/core/params.hpp"
#include "dcsweep/platform/platform.hpp"
#include "dcsweep/thermal/crac_node.hpp"
#include "dcsweep/thermal/inlet_model.hpp"
#include "dcsweep/thermal/matrix_io.hpp"
#include "dcsweep/thermal/recirculation.hpp"

namespace dcsweep {

/// Largest thermal model built (zones); above, set thermal_zone_nodes (docs/models.md).
inline constexpr std::int32_t kMaxThermalZones = 8192;

/// The room's parameters: thermal model, zone size, matrix files, generator, air properties.
std::vector<ParamSpec> room_params();

/// The room's D at the scenario's zone level: from heat_distribution (D) or recirculation (A)
/// files, else the platform's own matrix, else the generator. InputError when a file is bad.
struct HeatDistributionBuild {
  std::shared_ptr<const HeatDistribution> d;
  std::shared_ptr<const CracNodeModel> crac_node;  ///< thermal_model = crac_node instead of d
  std::shared_ptr<const ThermalZones> zones;
  /// [P4]'s supply-air fraction F (supply_air_fraction file) as each inlet's share of CRAC supply
  /// air, s_i = sum_j f_ij (the one CRAC's supply is uniform: F T_sup = s T_sup); null: F = I.
  std::shared_ptr<const Eigen::VectorXd> supply_share;
  std::vector<std::string> warnings;  ///< e.g. negative entries kept
};
HeatDistributionBuild build_heat_distribution(const Platform& platform, const ParamSet& params,
                                              const MatrixReader& reader = read_matrix_file);
/// The cross-interference matrix A of the recirculation model: the `recirculation` file, else the
/// generator's (for `dcsweep platform --matrices-out`, and what build_heat_distribution uses).
Matrix recirculation_matrix(const Platform& platform, const ParamSet& params, const ThermalZones& zones,
                            const MatrixReader& reader = read_matrix_file);
/// What build_heat_distribution depends on: equal keys give equal matrices (a sweep's cache key).
std::string heat_distribution_key(const Platform& platform, const ParamSet& params);

/// The highest uniform supply keeping every inlet at or below the redline for these inlet rises:
/// min_i (T_red - rise_i) / s_i ([P4] Eq. 8; Eq. 6's min F^-1 (T_red - D P) for a diagonal F);
/// NaN when F = I (the controllers use T_red - max rise).
double supply_bound_c(const HeatDistributionBuild& heat, const Eigen::VectorXd& rise_k, double redline_c);
/// The same bound for any supply shares: min_i (T_red - rise_i) / s_i, s = 1 when `share` is null
/// (then T_red - max rise).
double highest_supply_c(const Eigen::VectorXd& rise_k, const Eigen::VectorXd* share, double redline_c);

/// Inlet rises over the supply (per zone), the largest, and the heat the CRACs remove, for zone
/// powers: D P, or the CRAC+node model's steady state.
struct ThermalState {
  Eigen::VectorXd rise_k;
  double removed_heat_w;
};
ThermalState thermal_state(const HeatDistributionBuild& heat, const Eigen::VectorXd& zone_power_w);

}  // namespace dcsweep
