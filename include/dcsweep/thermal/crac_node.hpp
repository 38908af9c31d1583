#pragma once
// Oxley's CRAC + node thermal model ([P3] Eq. 3-5; MODELS.md section 2): thermal influence
// indices A_crac[i][y], A_node[j][y] give the share of inlet y's air (y a node or a CRAC) that
// comes from CRAC i's or node j's outlet; node outlets are inlet + P / (rho C AFN);
//   T_in(y) = sum_i A_crac[i][y] TC_out(i) + sum_j A_node[j][y] TN_out(j).
// T_in appears on both sides: the node inlets solve (I - A_nn^T) T = A_cn^T TC_out + A_nn^T q,
// q_j = P_j / (rho C AFN_j), with a sparse LU factorized once; the CRAC inlets follow. CRAC power
// is rho C AFC (TC_in - TC_out) / CoP(TC_out). Isolated and non-isolated cold aisles are two
// index sets of the same layout (generator parameter aisle_containment).
#include <Eigen/Sparse>
#include <memory>

#include "dcsweep/core/rng.hpp"
#include "dcsweep/thermal/recirculation.hpp"

namespace dcsweep {

/// y indexes the node zones 0..N-1, then the CRACs N..N+C-1; every column sums to 1.
struct InfluenceIndices {
  Eigen::SparseMatrix<double> node;  ///< N x (N + C): from node j
  Matrix crac;                       ///< C x (N + C): from CRAC i
};

/// Checks shapes, non-negative entries and that each inlet's shares sum to 1 (within 1e-6).
void check_influence(const InfluenceIndices& a, std::size_t zones, std::size_t cracs, const std::string& name);

/// Plausible indices for a layout: a node inlet draws `fraction` x (its height and row-end factor)
/// of its air from node outlets (weighted like the recirculation generator, entries below 1e-4 of
/// the largest dropped), the rest from the CRACs equally; a CRAC inlet draws 10% cold air back
/// (bypass) and the rest from the node outlets in proportion to their air flows. Containment scales
/// both recirculation and bypass by (1 - 0.9 containment).
InfluenceIndices generate_influence(const ThermalZones& zones, std::int32_t cracs, const RecirculationGenerator& g,
                                    RngStream& rng);

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
