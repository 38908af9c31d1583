#pragma once
// Oxley's CRAC + node thermal model ([P3] Eq. 3-5; MODELS.md section 2): thermal influence
// indices A_crac[i][y], A_node[j][y] give the share of inlet y's air (y a node or a CRAC) that
// comes from CRAC i's or node j's outlet; node outlets are inlet + P / (rho C AFN);
//   T_in(y) = sum_i A_crac[i][y] TC_out(i) + sum_j A_node[j][y] TN_out(j).
// T_in appears on both sides: the node inlets solve (I - A_nn^T) T = A_cn^T TC_out + A_nn^T q,
// q_j = P_j / (rho C AFN_j), with a sparse LU factorized once; the CRAC inlets follow. CRAC power
// is rho C AFC (TC_in - TC_out) / CoP(TC_out). Isolated and non-isolated cold aisles are two
// index sets of the same layout (generator parameter aisle_containment). The indices conserve
// air, so at steady state the CRACs remove exactly what the nodes dissipate.
#include <Eigen/Sparse>
#include <memory>
#include <string>
#include <vector>

#include "dcsweep/core/rng.hpp"
#include "dcsweep/thermal/recirculation.hpp"

namespace dcsweep {

/// y indexes the node zones 0..N-1, then the CRACs N..N+C-1; every column sums to 1.
struct InfluenceIndices {
  Eigen::SparseMatrix<double> node;  ///< N x (N + C): from node j
  Matrix crac;                       ///< C x (N + C): from CRAC i
};

/// How far an index set is from conserving air. Inlet y's shares should sum to 1; outlet x should
/// deliver what it moves, sum_y A[x][y] AF(y) = AF(x). Without that, heat appears or vanishes at
/// steady state (the CRACs would not remove what the nodes dissipate).
struct AirBalance {
  double share_error = 0;          ///< worst |sum_x A[x][y] - 1|
  Eigen::Index worst_inlet = 0;    ///< its y
  double share_sum = 1;            ///< its sum
  double outlet_imbalance = 0;     ///< worst (delivered - moved) / moved, signed
  Eigen::Index worst_outlet = 0;   ///< its x
  double delivered_m3s = 0, moved_m3s = 0;  ///< of that outlet
};
/// Checks shapes and signs (InputError naming `name`), then measures the balance.
AirBalance air_balance(const InfluenceIndices& a, const std::vector<double>& zone_airflow_m3s,
                       const std::vector<double>& crac_airflow_m3s, const std::string& name);
/// One line on the worst inlet of `b` if its shares are off by more than `tolerance`, else on the
/// worst outlet; for errors and warnings.
std::string describe_air_balance(const AirBalance& b, Eigen::Index zones, const std::string& name, double tolerance);
/// air_balance, and an InputError (describe_air_balance) when either error exceeds `tolerance`.
void check_influence(const InfluenceIndices& a, const std::vector<double>& zone_airflow_m3s,
                     const std::vector<double>& crac_airflow_m3s, const std::string& name, double tolerance = 1e-6);

/// Splits an (N + C) x (N + C) matrix of indices (rows: outlets, the N zones then the C CRACs;
/// columns: inlets in the same order) into the model's blocks. InputError on another shape.
InfluenceIndices influence_from_matrix(const Matrix& all, Eigen::Index zones, Eigen::Index cracs,
                                       const std::string& name);

/// Plausible indices for a layout that conserve air, as a transport problem on the flows
/// F[x][y] = A[x][y] AF(y) (row sums AF(x): each outlet fully delivered; column sums AF(y): each
/// inlet fully supplied):
///  - targets: node inlet y would draw rho_y = fraction x keep x (its height and row-end factor)
///    / mean (at most 0.9) of its air from node outlets, the rest from the CRACs; CRAC inlets draw
///    at least 0.1 keep of their air back from CRAC outlets (bypass); keep = 1 - 0.9 containment.
///  - air budget: the CRACs can give the nodes S = min(sum_y (1 - rho_y) AF_y, (1 - 0.1 keep) AFC)
///    where AFC is their total flow. When the inlets want more (node air well above CRAC air, as
///    on oxley1080: 49.3 m3/s against 26.1), every node inlet's CRAC share is scaled by the same
///    factor and the rest is recirculated node air: the cold aisle draws hot air through whatever
///    opening it has, whatever the containment. CRAC air the nodes do not take bypasses back to
///    the CRACs.
///  - node to node: each outlet sends the same share (N_air - S) / N_air of its air to node inlets,
///    spread by the layout weights of the recirculation generator (distance along the row, row
///    across the hot aisle, other aisles, noise; weights below 1e-4 of an inlet's largest dropped),
///    fitted to these row and column sums by iterative proportional fitting (Sinkhorn, with the
///    flows between cabinets balanced on the cabinet-level matrix at each cycle) to 1e-12; where
///    the weights vanish between parts of the room (a tiny rack decay, rows that do not couple)
///    and cannot carry the flows, every pair of zones also gets 1e-3 of an inlet's largest weight
///    (well mixed, a full pattern on which the fit always exists);
///  - the other blocks are well mixed: node exhaust reaches the CRACs, CRAC air the inlets and the
///    bypass the CRACs in proportion to the flows. Checked with check_influence at 1e-10.
InfluenceIndices generate_influence(const ThermalZones& zones, const std::vector<double>& crac_airflow_m3s,
                                    const RecirculationGenerator& g, RngStream& rng);

class CracNodeModel {
 public:
  CracNodeModel(InfluenceIndices a, std::vector<double> zone_airflow_m3s, std::vector<double> crac_airflow_m3s,
                const AirProperties& air);

  struct Solution {
    Eigen::VectorXd node_in_c;   ///< per zone
    Eigen::VectorXd crac_in_c;   ///< per CRAC
    double removed_heat_w = 0;   ///< sum of rho C AFC (TC_in - TC_out)
  };
  /// Steady state for zone powers and one CRAC outlet temperature per CRAC.
  Solution solve(const Eigen::VectorXd& zone_power_w, const Eigen::VectorXd& crac_out_c) const;

  /// The node inlets' rise per W of each zone with the CRACs blowing at 0 C, as a dense zones x
  /// zones matrix (column z: 1 W in zone z): ((I - A_nn^T)^-1 - I) Q^-1, Q = diag(rho C AFN), by
  /// one dense inversion (heat_distribution_from_recirculation, by blocks from 1,024 zones) rather
  /// than a solve per zone. Columns of A_nn sum below 1 (CRAC air reaches every inlet), so
  /// I - A_nn is column diagonally dominant and needs no pivoting. `threads` as there.
  Matrix inlet_rise_per_w(unsigned threads = 1) const;
  /// The heat the CRACs remove per W of each zone at outlets 0 C, given inlet_rise_per_w().
  Eigen::VectorXd removed_heat_per_w(const Matrix& rise) const;

  Eigen::Index zones() const { return n_; }
  Eigen::Index cracs() const { return c_; }
  const InfluenceIndices& indices() const { return a_; }

 private:
  Eigen::Index n_, c_;
  InfluenceIndices a_;
  Eigen::SparseMatrix<double> a_nn_t_;  ///< A_nn^T
  Matrix a_cn_t_, a_nc_t_, a_cc_t_;
  Eigen::VectorXd node_rate_, crac_rate_;  ///< rho C AF per zone / CRAC (W/K)
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu_;
};

}  // namespace dcsweep
