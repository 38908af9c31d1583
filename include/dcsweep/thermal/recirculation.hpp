#pragma once
// The abstract heat-flow model of [P0] Eq. 1-3 / [P1] Eq. 4-7 (MODELS.md section 2):
//   K = diag(rho c_p f_i),  D = (K - A^T K)^-1 - K^-1,  T_in = T_sup + D P,
// on thermal zones (a zone = consecutive nodes of one rack; node level = one node per zone):
// zone power is the sum of its nodes', zone air flow the sum of theirs. A or D come from a file
// (checked here) or from a seeded generator of plausible recirculation for the room's layout.
#include <string>
#include <vector>

#include "dcsweep/core/rng.hpp"
#include "dcsweep/platform/platform.hpp"
#include "dcsweep/thermal/matrix_io.hpp"

namespace dcsweep {

struct AirProperties {
  double density_kg_m3 = 1.19;
  double heat_capacity_j_kgk = 1005;
};

/// Where each zone is and how much air it moves.
struct ThermalZones {
  std::int32_t zone_nodes = 1;
  std::vector<std::int32_t> row, rack;
  std::vector<double> height;       ///< mean slot height in its rack, 0 (bottom) to 1 (top)
  std::vector<double> airflow_m3s;  ///< sum over the zone's nodes
  std::size_t size() const { return airflow_m3s.size(); }
};

/// Zones of `zone_nodes` consecutive nodes (it must divide the rack height). InputError otherwise.
ThermalZones thermal_zones(const Platform& platform, std::int32_t zone_nodes);

/// K_i = rho c_p f_i (W/K) per zone.
std::vector<double> heat_capacity_rates(const ThermalZones& zones, const AirProperties& air);

/// Checks a cross-interference matrix A: square, `size` x `size`, no negative entry, each row
/// sum below 1 (a node cannot recirculate more heat than it exhausts). InputError naming `name`.
void check_recirculation(const Matrix& a, std::size_t size, const std::string& name);
/// Checks [P4]'s supply-air fraction matrix F (Eq. 1, 6, 8): square, `size` x `size`, no negative
/// entry, each row i summing to s_i in (0, 1], the share of inlet i's air that is CRAC supply air
/// (diagonal in [P4]; F = I without recirculation).
void check_supply_fraction(const Matrix& f, std::size_t size, const std::string& name);
/// Checks a heat distribution matrix D: square, `size` x `size`, finite. Negative entries (a D
/// fitted from CFD can have small ones) are kept: the returned warnings say how many.
std::vector<std::string> check_heat_distribution(const Matrix& d, std::size_t size, const std::string& name);

/// From this many zones up, D is built by block inversion (products on the machine's cores, the
/// same bits on any number of them) when A's rows sum below 1; smaller rooms by LU.
inline constexpr Eigen::Index kBlockInverseZones = 1024;

/// D = (K - A^T K)^-1 - K^-1 = K^-1 ((I - A^T)^-1 - I). `threads` (0: the machine's cores) only
/// changes the speed of a block inversion, never its bits.
Matrix heat_distribution_from_recirculation(Matrix a, const std::vector<double>& k_w_per_k, unsigned threads = 0);

/// The recirculation generator. The fraction of a zone's exhaust that reaches inlets is
/// `fraction` x (1 - 0.9 containment); it is shared among the inlets with weights
///   exp(-|rack_i - rack_j| / rack_decay)            (with distance along the row)
///   x (1 + height_gain x height_j)                   (over the top of the racks)
///   x (1 + end_gain x (rack_j / (racks - 1))^3)      (around the far end of the row)
///   x {1 same row; cross_row the row across the hot aisle; far_row / row distance otherwise}
///   x (1 + noise x u), u uniform in [-1, 1) from the room's random stream.
/// Rows 2k and 2k+1 share a hot aisle. Defaults calibrated on meng40 (inputs/matrices/README.md).
struct RecirculationGenerator {
  double fraction = 0.44;
  double rack_decay = 1.5;
  double height_gain = 2.0;
  double end_gain = 6.0;
  double cross_row = 0.35;
  double far_row = 0.05;
  double noise = 0.1;
  double containment = 0.0;  ///< 0 open aisles, 1 fully isolated cold aisles
};

Matrix generate_recirculation(const ThermalZones& zones, const RecirculationGenerator& g, RngStream& rng);

/// The generator's per-inlet factor (1 + height_gain h) (1 + end_gain along^3); shared with the
/// CRAC + node generator, which draws on the same layout.
std::vector<double> inlet_factors(const ThermalZones& zones, const RecirculationGenerator& g);
/// The generator's weight between rows ri and rj: 1, cross_row or far_row / distance.
double row_coupling(const RecirculationGenerator& g, std::int32_t ri, std::int32_t rj);

}  // namespace dcsweep
