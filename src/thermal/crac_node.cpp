#include "dcsweep/thermal/crac_node.hpp"

#include <cmath>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {

void check_influence(const InfluenceIndices& a, std::size_t zones, std::size_t cracs, const std::string& name) {
  const auto n = Eigen::Index(zones), c = Eigen::Index(cracs);
  if (a.node.rows() != n || a.node.cols() != n + c || a.crac.rows() != c || a.crac.cols() != n + c) {
    throw InputError(name + ": influence indices must be " + std::to_string(n) + " + " + std::to_string(c) +
                     " rows by " + std::to_string(n + c) + " inlets");
  }
  Eigen::VectorXd sums = Eigen::VectorXd::Zero(n + c);
  for (Eigen::Index k = 0; k < a.node.outerSize(); ++k) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(a.node, k); it; ++it) {
      if (it.value() < 0) throw InputError(name + ": negative influence index from node " + std::to_string(it.row() + 1));
      sums(it.col()) += it.value();
    }
  }
  if ((a.crac.array() < 0).any()) throw InputError(name + ": negative influence index from a CRAC");
  sums += a.crac.colwise().sum().transpose();
  for (Eigen::Index y = 0; y < n + c; ++y) {
    if (std::abs(sums(y) - 1) > 1e-6) {
      throw InputError(name + ": the shares of inlet " + std::to_string(y + 1) + " sum to " + format_number(sums(y)) +
                       ", not 1");
    }
  }
}

InfluenceIndices generate_influence(const ThermalZones& zones, std::int32_t cracs, const RecirculationGenerator& g,
                                    RngStream& rng) {
  const auto n = Eigen::Index(zones.size()), c = Eigen::Index(cracs);
  std::int32_t last_rack = 0;
  for (const std::int32_t r : zones.rack) last_rack = std::max(last_rack, r);
  const double keep = 1 - 0.9 * g.containment;
  std::vector<double> factor(static_cast<std::size_t>(n));
  double mean = 0;
  for (std::size_t y = 0; y < factor.size(); ++y) {
    const double along = last_rack > 0 ? double(zones.rack[y]) / last_rack : 0.0;
    factor[y] = (1 + g.height_gain * zones.height[y]) * (1 + g.end_gain * along * along * along);
    mean += factor[y] / double(n);
  }
  std::vector<Eigen::Triplet<double>> triplets;
  std::vector<double> w(static_cast<std::size_t>(n)), recirculated(static_cast<std::size_t>(n));
  for (Eigen::Index y = 0; y < n; ++y) {
    double total = 0, top = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
      const std::size_t sj = std::size_t(j), sy = std::size_t(y);
      const std::int32_t rj = zones.row[sj], ry = zones.row[sy];
      const double aisle = rj == ry ? 1.0 : (rj / 2 == ry / 2 ? g.cross_row : g.far_row / std::abs(rj - ry));
      w[sj] = std::exp(-std::abs(zones.rack[sj] - zones.rack[sy]) / g.rack_decay) * aisle *
              (1 + g.noise * rng.uniform(-1.0, 1.0));
      top = std::max(top, w[sj]);
    }
    for (Eigen::Index j = 0; j < n; ++j) {
      if (w[std::size_t(j)] < 1e-4 * top) w[std::size_t(j)] = 0;
      total += w[std::size_t(j)];
    }
    const double share = std::min(0.9, g.fraction * keep * factor[std::size_t(y)] / mean);
    recirculated[std::size_t(y)] = share;
    for (Eigen::Index j = 0; j < n; ++j) {
      if (w[std::size_t(j)] > 0) triplets.emplace_back(j, y, share * w[std::size_t(j)] / total);
    }
  }
  InfluenceIndices a;
  a.crac = Matrix::Zero(c, n + c);
  double flow = 0;
  for (const double f : zones.airflow_m3s) flow += f;
  const double bypass = 0.1 * keep;
  for (Eigen::Index y = 0; y < n; ++y) a.crac.col(y).setConstant((1 - recirculated[std::size_t(y)]) / double(c));
  for (Eigen::Index i = 0; i < c; ++i) {
    a.crac.col(n + i).setConstant(bypass / double(c));
    for (Eigen::Index j = 0; j < n; ++j) triplets.emplace_back(j, n + i, (1 - bypass) * zones.airflow_m3s[std::size_t(j)] / flow);
  }
  a.node.resize(n, n + c);
  a.node.setFromTriplets(triplets.begin(), triplets.end());
  return a;
}

CracNodeModel::CracNodeModel(InfluenceIndices a, std::vector<double> zone_airflow, std::vector<double> crac_airflow,
                             const AirProperties& air)
    : n_(Eigen::Index(zone_airflow.size())), c_(Eigen::Index(crac_airflow.size())), a_(std::move(a)) {
  const double rho_c = air.density_kg_m3 * air.heat_capacity_j_kgk;
  node_rate_ = Eigen::Map<const Eigen::VectorXd>(zone_airflow.data(), n_) * rho_c;
  crac_rate_ = Eigen::Map<const Eigen::VectorXd>(crac_airflow.data(), c_) * rho_c;
  const Eigen::SparseMatrix<double> a_nn = a_.node.leftCols(n_);
  a_nn_t_ = a_nn.transpose();
  a_nc_t_ = Matrix(a_.node.rightCols(c_)).transpose();
  a_cn_t_ = a_.crac.leftCols(n_).transpose();
  a_cc_t_ = a_.crac.rightCols(c_).transpose();
  Eigen::SparseMatrix<double> m(n_, n_);
  m.setIdentity();
  m -= a_nn_t_;
  m.makeCompressed();
  lu_.compute(m);
  if (lu_.info() != Eigen::Success) throw InputError("the CRAC+node system (I - A_nn^T) is singular");
}

CracNodeModel::Solution CracNodeModel::solve(const Eigen::VectorXd& power, const Eigen::VectorXd& crac_out) const {
  const Eigen::VectorXd q = power.cwiseQuotient(node_rate_);  // outlet minus inlet, per zone
  Solution s;
  s.node_in_c = lu_.solve(a_cn_t_ * crac_out + a_nn_t_ * q);
  s.crac_in_c = a_cc_t_ * crac_out + a_nc_t_ * (s.node_in_c + q);
  s.removed_heat_w = crac_rate_.dot(s.crac_in_c - crac_out);
  return s;
}

}  // namespace dcsweep
