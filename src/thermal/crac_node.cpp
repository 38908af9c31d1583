#include "dcsweep/thermal/crac_node.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {

namespace {

/// Name of unit y (a node zone, then the CRACs) for messages.
std::string unit_name(Eigen::Index y, Eigen::Index zones) {
  return y < zones ? "node zone " + std::to_string(y + 1) : "CRAC " + std::to_string(y - zones + 1);
}

void check_shapes_and_signs(const InfluenceIndices& a, Eigen::Index n, Eigen::Index c, const std::string& name) {
  if (a.node.rows() != n || a.node.cols() != n + c || a.crac.rows() != c || a.crac.cols() != n + c) {
    throw InputError(name + ": influence indices must be " + std::to_string(n) + " + " + std::to_string(c) +
                     " rows by " + std::to_string(n + c) + " inlets");
  }
  for (Eigen::Index k = 0; k < a.node.outerSize(); ++k) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(a.node, k); it; ++it) {
      if (!(it.value() >= 0))
        throw InputError(name + ": negative influence index from node " + std::to_string(it.row() + 1));
    }
  }
  if (!(a.crac.array() >= 0).all()) throw InputError(name + ": negative influence index from a CRAC");
}

}  // namespace

AirBalance air_balance(const InfluenceIndices& a, const std::vector<double>& zone_airflow,
                       const std::vector<double>& crac_airflow, const std::string& name) {
  const auto n = Eigen::Index(zone_airflow.size()), c = Eigen::Index(crac_airflow.size());
  check_shapes_and_signs(a, n, c, name);
  Eigen::VectorXd flow(n + c);
  flow << Eigen::Map<const Eigen::VectorXd>(zone_airflow.data(), n),
      Eigen::Map<const Eigen::VectorXd>(crac_airflow.data(), c);
  // Shares per inlet (column sums) and air delivered per outlet (sum_y A[x][y] AF(y)).
  Eigen::VectorXd shares = a.crac.colwise().sum().transpose();
  Eigen::VectorXd delivered(n + c);
  delivered.tail(c) = a.crac * flow;
  delivered.head(n) = a.node * flow;
  for (Eigen::Index k = 0; k < a.node.outerSize(); ++k) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(a.node, k); it; ++it) shares(it.col()) += it.value();
  }
  AirBalance b;
  b.share_error = (shares.array() - 1).abs().maxCoeff(&b.worst_inlet);
  b.share_sum = shares(b.worst_inlet);
  const Eigen::VectorXd imbalance = (delivered - flow).cwiseQuotient(flow);
  imbalance.cwiseAbs().maxCoeff(&b.worst_outlet);
  b.outlet_imbalance = imbalance(b.worst_outlet);
  b.delivered_m3s = delivered(b.worst_outlet);
  b.moved_m3s = flow(b.worst_outlet);
  return b;
}

std::string describe_air_balance(const AirBalance& b, Eigen::Index n, const std::string& name, double tolerance) {
  if (!(b.share_error <= tolerance)) {
    return name + ": the shares of inlet " + std::to_string(b.worst_inlet + 1) + " (" + unit_name(b.worst_inlet, n) +
           ") sum to " + format_number(b.share_sum) + ", not 1";
  }
  char percent[32];
  std::snprintf(percent, sizeof percent, "%+.3g%%", 100 * b.outlet_imbalance);
  return name + ": air is not conserved: the outlet of " + unit_name(b.worst_outlet, n) + " delivers " +
         format_number(b.delivered_m3s) + " m3/s to the inlets but moves " + format_number(b.moved_m3s) + " m3/s (" +
         percent + "); every outlet's sum_y A[x][y] AF(y) must equal its own air flow";
}

void check_influence(const InfluenceIndices& a, const std::vector<double>& zone_airflow,
                     const std::vector<double>& crac_airflow, const std::string& name, double tolerance) {
  const AirBalance b = air_balance(a, zone_airflow, crac_airflow, name);
  if (!(b.share_error <= tolerance) || !(std::abs(b.outlet_imbalance) <= tolerance)) {
    throw InputError(describe_air_balance(b, Eigen::Index(zone_airflow.size()), name, tolerance));
  }
}

InfluenceIndices influence_from_matrix(const Matrix& all, Eigen::Index n, Eigen::Index c, const std::string& name) {
  if (all.rows() != n + c || all.cols() != n + c) {
    throw InputError(name + ": influence indices must be " + std::to_string(n + c) + " x " + std::to_string(n + c) +
                     " (" + std::to_string(n) + " node zones, then " + std::to_string(c) + " CRACs), not " +
                     std::to_string(all.rows()) + " x " + std::to_string(all.cols()));
  }
  InfluenceIndices a;
  a.node = all.topRows(n).sparseView(0.0, 0.0);  // keeps every nonzero, drops exact zeros
  a.crac = all.bottomRows(c);
  return a;
}

namespace {

using Sparse = Eigen::SparseMatrix<double>;

/// The pattern of A_node with the layout's preference between node outlets (rows) and node inlets
/// (the first N columns): the recirculation generator's distance, aisle and noise weights, an
/// inlet's weights below 1e-4 of its largest dropped; every node outlet reaches every CRAC inlet
/// (the last C columns, values set later). `mixing` > 0 adds mixing x the largest weight between
/// every pair of zones (dense: the fallback for layouts whose weights vanish between parts of the
/// room). Built column by column, in order (no sort).
Sparse layout_preference(const ThermalZones& zones, Eigen::Index cracs, const RecirculationGenerator& g,
                         RngStream& rng, double mixing) {
  const auto n = Eigen::Index(zones.size());
  std::vector<double> w(zones.size());
  Sparse p(n, n + cracs);
  for (Eigen::Index y = 0; y < n + cracs; ++y) {
    p.startVec(y);
    for (std::size_t j = 0; j < w.size() && y < n; ++j) {
      w[j] = std::exp(-std::abs(zones.rack[j] - zones.rack[std::size_t(y)]) / g.rack_decay) *
             row_coupling(g, zones.row[j], zones.row[std::size_t(y)]) * (1 + g.noise * rng.uniform(-1.0, 1.0));
    }
    const double top = y < n ? *std::max_element(w.begin(), w.end()) : 0.0;
    for (std::size_t j = 0; j < w.size(); ++j) {
      if (y >= n || mixing > 0 || w[j] >= 1e-4 * top) p.insertBack(Eigen::Index(j), y) = y < n ? w[j] + mixing * top : 0.0;
    }
  }
  p.finalize();
  return p;
}

/// Scalings of f[x][y] -> a_x f[x][y] b_y and the worst row-sum error relative to `scale`.
struct Scaling {
  Eigen::VectorXd a, b;
  double residual = INFINITY;
};

/// Sinkhorn sweeps: b makes the column sums `cols` exact, then a the row sums `rows`; stops when
/// the rows are within `tolerance` (relative to `scale`) or after `sweeps`.
void sinkhorn(const Sparse& f, const Eigen::VectorXd& rows, const Eigen::VectorXd& cols, const Eigen::VectorXd& scale,
              Scaling& s, int sweeps, double tolerance) {
  Eigen::VectorXd row_sum(f.rows());
  s.b.resize(f.cols());
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    row_sum.setZero();
    for (Eigen::Index y = 0; y < cols.size(); ++y) {
      double in = 0;
      for (Sparse::InnerIterator it(f, y); it; ++it) in += s.a(it.row()) * it.value();
      s.b(y) = cols(y) / in;
      for (Sparse::InnerIterator it(f, y); it; ++it) row_sum(it.row()) += it.value() * s.b(y);
    }
    s.residual = (s.a.cwiseProduct(row_sum) - rows).cwiseQuotient(scale).cwiseAbs().maxCoeff();
    if (s.residual <= tolerance || std::isnan(s.residual)) return;  // NaN: an inlet nothing can reach
    s.a = rows.cwiseQuotient(row_sum);
  }
}

/// Two-grid step: Sinkhorn alone moves air along a row of racks like diffusion (hundreds of sweeps
/// on oxley4320), so the flows between cabinets (row, rack) are balanced exactly on the small
/// cabinet-level matrix and the correction applied to every zone of the cabinet.
void balance_cabinets(const Sparse& f, const std::vector<Eigen::Index>& cabinet, Eigen::Index cabinets,
                      const Eigen::VectorXd& rows, const Eigen::VectorXd& cols, const Eigen::VectorXd& scale,
                      Scaling& s) {
  std::vector<Eigen::Triplet<double>> triplets;  // summed per (fine column, cabinet) first
  std::vector<double> sum(std::size_t(cabinets), 0.0);
  std::vector<Eigen::Index> touched;
  for (Eigen::Index y = 0; y < cols.size(); ++y) {
    for (Sparse::InnerIterator it(f, y); it; ++it) {
      const Eigen::Index from = cabinet[std::size_t(it.row())];
      if (sum[std::size_t(from)] == 0) touched.push_back(from);
      sum[std::size_t(from)] += s.a(it.row()) * it.value() * s.b(y);
    }
    for (const Eigen::Index from : touched) {
      triplets.emplace_back(from, cabinet[std::size_t(y)], sum[std::size_t(from)]);
      sum[std::size_t(from)] = 0;
    }
    touched.clear();
  }
  Sparse coarse(cabinets, cabinets);
  coarse.setFromTriplets(triplets.begin(), triplets.end());  // sums the duplicates
  Eigen::VectorXd coarse_rows = Eigen::VectorXd::Zero(cabinets), coarse_cols = coarse_rows, coarse_scale = coarse_rows;
  for (std::size_t x = 0; x < cabinet.size(); ++x) {
    coarse_rows(cabinet[x]) += rows(Eigen::Index(x));
    coarse_cols(cabinet[x]) += cols(Eigen::Index(x));
    coarse_scale(cabinet[x]) += scale(Eigen::Index(x));
  }
  Scaling c{Eigen::VectorXd::Ones(cabinets), {}, INFINITY};
  sinkhorn(coarse, coarse_rows, coarse_cols, coarse_scale, c, 100000, 1e-14);
  for (std::size_t x = 0; x < cabinet.size(); ++x) s.a(Eigen::Index(x)) *= c.a(cabinet[x]);
}

/// Scales f in place to f[x][y] = a_x f[x][y] b_y with column sums `cols` (exact) and row sums
/// `rows` (within 1e-12 of `scale`): iterative proportional fitting (Sinkhorn) with a cabinet-level
/// correction. False when the layout's pattern cannot carry these flows (f is then unchanged).
bool fit_flows(const ThermalZones& zones, Sparse& f, const Eigen::VectorXd& rows, const Eigen::VectorXd& cols,
               const Eigen::VectorXd& scale) {
  std::map<std::pair<std::int32_t, std::int32_t>, Eigen::Index> index;
  std::vector<Eigen::Index> cabinet;
  for (std::size_t x = 0; x < zones.size(); ++x) {
    cabinet.push_back(index.emplace(std::pair{zones.row[x], zones.rack[x]}, Eigen::Index(index.size())).first->second);
  }
  const auto cabinets = Eigen::Index(index.size());
  Scaling s{Eigen::VectorXd::Ones(f.rows()), Eigen::VectorXd::Ones(cols.size()), INFINITY};
  for (int cycle = 0; cycle < 1000 && !(s.residual <= 1e-12) && !std::isnan(s.residual); ++cycle) {
    if (cabinets < f.rows()) balance_cabinets(f, cabinet, cabinets, rows, cols, scale, s);
    sinkhorn(f, rows, cols, scale, s, cabinets < f.rows() ? 4 : 100000, 1e-12);
  }
  if (!(s.residual <= 1e-12)) return false;
  for (Eigen::Index y = 0; y < cols.size(); ++y) {
    for (Sparse::InnerIterator it(f, y); it; ++it) it.valueRef() *= s.a(it.row()) * s.b(y);
  }
  return true;
}

/// The share of each node inlet's air that comes from the CRACs, and the total CRAC air that
/// reaches node inlets (the rest bypasses back to the CRACs).
struct AirBudget {
  Eigen::VectorXd crac_share;
  double crac_to_nodes_m3s = 0;
};

AirBudget air_budget(const ThermalZones& zones, double crac_air, const RecirculationGenerator& g) {
  const auto n = Eigen::Index(zones.size());
  const double keep = 1 - 0.9 * g.containment;
  const std::vector<double> factor = inlet_factors(zones, g);
  const double mean = std::accumulate(factor.begin(), factor.end(), 0.0) / double(n);
  AirBudget budget;
  budget.crac_share.resize(n);
  double wanted = 0;  // CRAC air the inlets would draw at their target recirculation
  for (Eigen::Index y = 0; y < n; ++y) {
    budget.crac_share(y) = 1 - std::min(0.9, g.fraction * keep * factor[std::size_t(y)] / mean);
    wanted += budget.crac_share(y) * zones.airflow_m3s[std::size_t(y)];
  }
  budget.crac_to_nodes_m3s = std::min(wanted, (1 - 0.1 * keep) * crac_air);
  budget.crac_share *= budget.crac_to_nodes_m3s / wanted;
  return budget;
}

}  // namespace

InfluenceIndices generate_influence(const ThermalZones& zones, const std::vector<double>& crac_airflow,
                                    const RecirculationGenerator& g, RngStream& rng) {
  const auto n = Eigen::Index(zones.size()), c = Eigen::Index(crac_airflow.size());
  const Eigen::Map<const Eigen::VectorXd> node_air(zones.airflow_m3s.data(), n);
  const double node_total = node_air.sum();
  const double crac_total = std::accumulate(crac_airflow.begin(), crac_airflow.end(), 0.0);
  const AirBudget budget = air_budget(zones, crac_total, g);
  const double supplied = budget.crac_to_nodes_m3s / crac_total;  // share of CRAC air reaching nodes
  // Node to node: each outlet recirculates the same share; inlets take what their CRAC share leaves.
  // The other blocks are well mixed: CRAC air reaches the inlets, and the bypass the CRACs, in
  // proportion to the CRACs' flows.
  InfluenceIndices a;
  const RngStream start = rng;  // a refit draws the same noise
  a.node = layout_preference(zones, c, g, rng, 0.0);
  const Eigen::VectorXd inflow = node_air.cwiseProduct(Eigen::VectorXd::Ones(n) - budget.crac_share);
  const Eigen::VectorXd outflow = node_air * (1 - budget.crac_to_nodes_m3s / node_total);
  const bool recirculates = inflow.sum() > 0;
  // Weights that vanish between parts of the room (a tiny rack decay, no coupling across rows) may
  // not carry the flows: then every pair of zones also exchanges a well-mixed 1e-3 of the largest
  // weight, a full pattern on which the fit always exists.
  if (recirculates && !fit_flows(zones, a.node, outflow, inflow, node_air)) {
    rng = start;
    a.node = layout_preference(zones, c, g, rng, 1e-3);
    if (!fit_flows(zones, a.node, outflow, inflow, node_air)) {
      throw SimulationError("generated influence indices: the air balance did not converge");  // not expected
    }
  }
  for (Eigen::Index y = 0; y < n + c; ++y) {  // flows to shares of the inlet's air
    for (Sparse::InnerIterator it(a.node, y); it; ++it) {
      // Well mixed: node exhaust reaches the CRACs in proportion to their flows.
      it.valueRef() = y >= n         ? (node_air(it.row()) - outflow(it.row())) / crac_total
                      : recirculates ? it.value() / node_air(y)
                                     : 0.0;
    }
  }
  a.crac = Matrix(c, n + c);
  for (Eigen::Index i = 0; i < c; ++i) {
    const double share = crac_airflow[std::size_t(i)] / crac_total;
    a.crac.block(i, 0, 1, n) = share * budget.crac_share.transpose();
    a.crac.block(i, n, 1, c).setConstant(share * (1 - supplied));
  }
  check_influence(a, zones.airflow_m3s, crac_airflow, "generated influence indices", 1e-10);
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

Matrix CracNodeModel::inlet_rise_per_w(unsigned threads) const {
  // heat_distribution_from_recirculation(a, 1) = (I - a^T)^-1 - I: with a = A_nn^T that is
  // (I - A_nn)^-1 - I, the transpose of what is wanted.
  const std::vector<double> ones(std::size_t(n_), 1.0);
  Matrix x = heat_distribution_from_recirculation(Matrix(a_nn_t_), ones, threads);
  x.transposeInPlace();
  for (Eigen::Index z = 0; z < n_; ++z) x.col(z) /= node_rate_(z);
  return x;
}

Eigen::VectorXd CracNodeModel::removed_heat_per_w(const Matrix& rise) const {
  // removed = crac_rate . (A_nc^T (T_in + q)) at outlets 0, with T_in = rise P and q = Q^-1 P.
  const Eigen::VectorXd to_cracs = a_nc_t_.transpose() * crac_rate_;
  return rise.transpose() * to_cracs + to_cracs.cwiseQuotient(node_rate_);
}

}  // namespace dcsweep
