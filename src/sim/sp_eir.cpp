#include "dcsweep/sim/sp_eir.hpp"

#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "dcsweep/core/error.hpp"

namespace dcsweep {

SpEirBound::SpEirBound(const Platform& platform, const NodePowerTable& power, const HeatDistributionBuild& heat,
                       double off_w, double redline_c)
    : d_(heat.d->matrix()), redline_c_(redline_c), node_count_(platform.node_count) {
  const auto zones = static_cast<std::int32_t>(heat.d->size());
  const std::int32_t zone_nodes = heat.zones ? heat.zones->zone_nodes : 1;
  share_ = heat.supply_share ? *heat.supply_share : Eigen::VectorXd::Ones(zones);
  for (std::int32_t n = 0; n < platform.node_count; ++n) {
    const std::size_t type = platform.node_type.empty() ? 0 : platform.node_type[std::size_t(n)];
    const TypePower& t = power[type];
    const std::int32_t zone = n / zone_nodes;
    if (!pools_.empty() && pools_.back().zone == zone && pools_.back().idle_w == t.idle_w &&
        pools_.back().busy_w == t.busy_w) {
      ++pools_.back().count;
    } else {
      pools_.push_back({zone, 1, off_w, t.idle_w, t.busy_w});
    }
    all_off_w_ += off_w;
    on_steps_w_.push_back(t.idle_w - off_w);
    busy_steps_w_.push_back(t.busy_w - t.idle_w);
  }
  std::sort(on_steps_w_.begin(), on_steps_w_.end());
  std::sort(busy_steps_w_.begin(), busy_steps_w_.end());
  // The inlet rows' right-hand sides: the redline less every node's switched-off rise.
  Eigen::VectorXd off_zone_w = Eigen::VectorXd::Zero(zones);
  for (const Pool& pool : pools_) off_zone_w(pool.zone) += pool.off_w * pool.count;
  rhs_ = Eigen::VectorXd::Constant(zones, redline_c) - d_ * off_zone_w;
  // The pools by heat recirculated per watt (D's column sums), ascending: first_rows' placement.
  const Eigen::VectorXd column_sum = d_.colwise().sum().transpose();
  recirculation_order_.resize(pools_.size());
  std::iota(recirculation_order_.begin(), recirculation_order_.end(), 0);
  std::stable_sort(recirculation_order_.begin(), recirculation_order_.end(), [&](int a, int b) {
    return column_sum(pools_[std::size_t(a)].zone) < column_sum(pools_[std::size_t(b)].zone);
  });
}

SpEirBound::~SpEirBound() = default;

const MomentBound& SpEirBound::at(std::int32_t busy, std::int32_t on) {
  if (busy < 0 || busy > on || on > node_count_) {
    throw SimulationError("sp_eir: no bound for " + std::to_string(busy) + " busy and " + std::to_string(on) +
                          " on nodes of " + std::to_string(node_count_));
  }
  const auto key = std::make_pair(busy, on);
  if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
  if (on == node_count_) {
    // Every node on (no node switched off): the LPs of k_busy = 0, 1, 2, ... in that order on
    // one model, each from the last one's optimal basis (dual feasible: only the count rows'
    // bounds change) with Clp's factorisation kept. The order is the same in every run, so each
    // count's value is too (another order could end at another optimal basis of the same value,
    // a few 1e-9 K off within Clp's tolerance, and the thermostat's switching would carry that).
    extend_chain(busy);
    return cache_.at(key);
  }
  // Nodes off (idle_nodes_off, mtdp): each (busy, on) pair on its own model of a few inlet rows
  return cache_.emplace(key, solve_by_rows(busy, on)).first->second;
}

/// The LP of a pair with nodes off, by row generation: the inlets' rows are added only as the
/// solution of the rows so far exceeds them (the other rows only bound variables: the count
/// rows, x_p <= y_p). It starts from the 8 inlets that limit a placement ranked by recirculated
/// heat, and each round adds the 2 most exceeded rows and solves again from the last basis by
/// the dual simplex, until no row is exceeded by more than 1e-9: then the solution meets every
/// inlet and is optimal for the full LP (a relaxation of it). Each pair starts from the same
/// rows, so its value does not depend on the pairs asked before. (Few rows a round keep the model
/// small: oxley1080's 60-job run took 30.5-33.2 s adding 32 a round from 16 first rows, 24-27 s
/// adding 4-8, 21.8 s adding 2 from 8, 24.7 s adding 1, 102 s adding every exceeded row.)
MomentBound SpEirBound::solve_by_rows(std::int32_t busy, std::int32_t on) {
  const auto zones = static_cast<int>(d_.rows());
  const auto pools = static_cast<int>(pools_.size());
  std::vector<int> rows = first_rows(busy, on);
  std::vector<char> in_model(static_cast<std::size_t>(zones), 0);
  for (const int i : rows) in_model[std::size_t(i)] = 1;
  // Rows: the counts (sum x, sum y), x_p - y_p <= 0, then the inlets chosen (appended per round).
  const int columns = 1 + 2 * pools;
  std::vector<CoinBigIndex> start{0};
  std::vector<int> index;
  std::vector<double> value;
  const auto n_columns = std::size_t(columns);
  std::vector<double> col_lo(n_columns, 0.0), col_hi(n_columns, 0.0), cost(n_columns, 0.0);
  start.push_back(0);  // z: only in the inlet rows
  col_lo[0] = -COIN_DBL_MAX, col_hi[0] = COIN_DBL_MAX, cost[0] = -1;
  for (int kind = 0; kind < 2; ++kind) {
    for (int p = 0; p < pools; ++p) {
      index.push_back(kind), value.push_back(1.0);
      index.push_back(2 + p), value.push_back(kind == 0 ? 1.0 : -1.0);
      start.push_back(CoinBigIndex(index.size()));
      col_hi[std::size_t(1 + kind * pools + p)] = pools_[std::size_t(p)].count;
    }
  }
  std::vector<double> row_lo(static_cast<std::size_t>(2 + pools), -COIN_DBL_MAX), row_hi(row_lo.size(), 0.0);
  row_lo[0] = row_hi[0] = busy, row_lo[1] = row_hi[1] = on;
  const CoinPackedMatrix m(true, 2 + pools, columns, CoinBigIndex(value.size()), value.data(), index.data(), start.data(),
                           nullptr);
  ClpSimplex lp;
  lp.setLogLevel(0);
  lp.loadProblem(m, col_lo.data(), col_hi.data(), cost.data(), row_lo.data(), row_hi.data());
  // An inlet's row: s_i z + sum_p D(i, zone_p) ((busy_p - idle_p) x_p + (idle_p - off_p) y_p) <= rhs_i.
  auto add_rows = [&](const std::vector<int>& inlets) {
    std::vector<CoinBigIndex> row_start{0};
    std::vector<int> column;
    std::vector<double> element, lo, hi;
    for (const int i : inlets) {
      column.push_back(0), element.push_back(share_(i));
      for (int kind = 0; kind < 2; ++kind) {
        for (int p = 0; p < pools; ++p) {
          const Pool& pool = pools_[std::size_t(p)];
          const double a = d_(i, pool.zone) * (kind == 0 ? pool.busy_step_w() : pool.on_step_w());
          if (a != 0) column.push_back(1 + kind * pools + p), element.push_back(a);
        }
      }
      row_start.push_back(CoinBigIndex(column.size()));
      lo.push_back(-COIN_DBL_MAX), hi.push_back(rhs_(i));
    }
    lp.addRows(int(inlets.size()), lo.data(), hi.data(), row_start.data(), column.data(), element.data());
  };
  add_rows(rows);
  Eigen::VectorXd zone_w(zones);
  for (int round = 0;; ++round) {
    run_clp(lp, busy, on, 0);
    // Every inlet at the solution: the rows left out that it exceeds.
    const double* col = lp.primalColumnSolution();
    zone_w.setZero();
    for (int p = 0; p < pools; ++p) {
      const Pool& pool = pools_[std::size_t(p)];
      zone_w(pool.zone) += pool.busy_step_w() * col[1 + p] + pool.on_step_w() * col[1 + pools + p];
    }
    const Eigen::VectorXd excess = share_ * col[0] + d_ * zone_w - rhs_;
    std::vector<int> exceeded;
    for (int i = 0; i < zones; ++i) {
      if (!in_model[std::size_t(i)] && excess(i) > 1e-9) exceeded.push_back(i);
    }
    if (exceeded.empty()) return {col[0], compute_bound_w(busy, on)};
    const auto most = std::min<std::ptrdiff_t>(2, std::ssize(exceeded));
    std::partial_sort(exceeded.begin(), exceeded.begin() + most, exceeded.end(),
                      [&](int a, int b) { return excess(a) > excess(b) || (excess(a) == excess(b) && a < b); });
    exceeded.resize(std::size_t(most));
    for (const int i : exceeded) in_model[std::size_t(i)] = 1;
    add_rows(exceeded);
    generated_rows_ += std::ssize(exceeded);
  }
}

/// The inlets a pair's row generation starts from: those that limit the supply most (least
/// rhs_i - rise_i over s_i, up to 8) when the nodes recirculating least heat per watt (D's column
/// sums) are on and, of them, those recirculating least are busy: a placement like the LP's own.
std::vector<int> SpEirBound::first_rows(std::int32_t busy, std::int32_t on) const {
  const auto zones = static_cast<int>(d_.rows());
  Eigen::VectorXd zone_w = Eigen::VectorXd::Zero(zones);
  std::int32_t to_busy = busy, to_on = on;
  for (const int p : recirculation_order_) {
    const Pool& pool = pools_[std::size_t(p)];
    const std::int32_t b = std::min(to_busy, pool.count), o = std::min(to_on, pool.count);
    zone_w(pool.zone) += pool.busy_step_w() * b + pool.on_step_w() * o;
    to_busy -= b, to_on -= o;
  }
  const Eigen::VectorXd slack = ((rhs_ - d_ * zone_w).array() / share_.array()).matrix();
  std::vector<int> rows(static_cast<std::size_t>(zones));
  std::iota(rows.begin(), rows.end(), 0);
  const auto most = std::min(8, zones);
  std::partial_sort(rows.begin(), rows.begin() + most, rows.end(),
                    [&](int a, int b) { return slack(a) < slack(b) || (slack(a) == slack(b) && a < b); });
  rows.resize(std::size_t(most));
  return rows;
}

double SpEirBound::compute_bound_w(std::int32_t busy, std::int32_t on) const {
  const auto sum_smallest = [](const std::vector<double>& steps, std::int32_t k) {
    return std::accumulate(steps.begin(), steps.begin() + std::min<std::ptrdiff_t>(k, std::ptrdiff_t(steps.size())),
                           0.0);
  };
  return all_off_w_ + sum_smallest(on_steps_w_, on) + sum_smallest(busy_steps_w_, busy);
}

void SpEirBound::extend_chain(std::int32_t busy) {
  if (chain_next_ > busy) return;
  if (!chain_) chain_ = build();
  for (; chain_next_ <= busy; ++chain_next_) {
    cache_.emplace(std::make_pair(chain_next_, node_count_), solve(*chain_, chain_next_, node_count_, chain_next_ > 0 ? 7 : 1));
  }
  if (chain_next_ > node_count_) chain_.reset();  // every count is kept: the model's memory goes
}

std::unique_ptr<ClpSimplex> SpEirBound::build() const {
  const auto zones = static_cast<int>(d_.rows());
  const auto pools = static_cast<int>(pools_.size());
  // Columns: z, then x_p, then y_p. Rows: the inlets, sum x, sum y, then x_p - y_p <= 0.
  // The matrix is built column by column into flat arrays and handed to Clp once (appending
  // columns one by one to a CoinPackedMatrix copies it at every append: on oxley1080, 2,161
  // columns of a dense D, seconds per LP).
  const int columns = 1 + 2 * pools, rows = zones + 2 + pools;
  std::vector<CoinBigIndex> start{0};
  std::vector<int> index;
  std::vector<double> value;
  std::vector<double> col_lo(columns), col_hi(columns), cost(columns, 0.0), row_lo(rows), row_hi(rows);
  for (int i = 0; i < zones; ++i) {  // z
    index.push_back(i);
    value.push_back(share_(i));
  }
  start.push_back(CoinBigIndex(index.size()));
  col_lo[0] = -COIN_DBL_MAX;
  col_hi[0] = COIN_DBL_MAX;
  cost[0] = -1;  // Clp minimises
  for (int kind = 0; kind < 2; ++kind) {  // 0: x (busy - idle), 1: y (idle - off)
    for (int p = 0; p < pools; ++p) {
      const Pool& pool = pools_[std::size_t(p)];
      const double step = kind == 0 ? pool.busy_step_w() : pool.on_step_w();
      for (int i = 0; i < zones; ++i) {
        const double a = d_(i, pool.zone) * step;
        if (a != 0) {
          index.push_back(i);
          value.push_back(a);
        }
      }
      index.push_back(zones + kind);
      value.push_back(1.0);
      index.push_back(zones + 2 + p);
      value.push_back(kind == 0 ? 1.0 : -1.0);
      start.push_back(CoinBigIndex(index.size()));
      const int c = 1 + kind * pools + p;
      col_lo[c] = 0;
      col_hi[c] = pool.count;
    }
  }
  const CoinPackedMatrix m(true, rows, columns, CoinBigIndex(value.size()), value.data(), index.data(), start.data(),
                           nullptr);
  for (int i = 0; i < zones; ++i) {
    row_lo[i] = -COIN_DBL_MAX;
    row_hi[i] = rhs_(i);
  }
  row_lo[zones] = row_hi[zones] = 0;  // the counts: set per solve
  row_lo[zones + 1] = row_hi[zones + 1] = 0;
  for (int p = 0; p < pools; ++p) {
    row_lo[zones + 2 + p] = -COIN_DBL_MAX;
    row_hi[zones + 2 + p] = 0;
  }
  auto lp = std::make_unique<ClpSimplex>();
  lp->setLogLevel(0);
  lp->loadProblem(m, col_lo.data(), col_hi.data(), cost.data(), row_lo.data(), row_hi.data());
  return lp;
}

MomentBound SpEirBound::solve(ClpSimplex& lp, std::int32_t busy, std::int32_t on, int start_finish) const {
  // start_finish, Clp's: 0 a fresh model; 1 a chain's first solve (its work areas and
  // factorisation kept at the end); 7 the chain's next ones (from the last optimal basis and its
  // factorisation).
  const auto zones = static_cast<int>(d_.rows());
  lp.setRowBounds(zones, busy, busy);
  lp.setRowBounds(zones + 1, on, on);
  run_clp(lp, busy, on, start_finish);
  return {lp.primalColumnSolution()[0], compute_bound_w(busy, on)};
}

/// The dual simplex with Clp's start_finish options; after numerical trouble the primal from
/// there, then the dual from a slack basis; a SimulationError if none solves it.
void SpEirBound::run_clp(ClpSimplex& lp, std::int32_t busy, std::int32_t on, int start_finish) {
  lp.dual(0, start_finish);
  if (lp.status() != 0) lp.primal();
  if (lp.status() != 0) {
    lp.allSlackBasis(true);
    lp.dual();
  }
  if (lp.status() != 0) {
    throw SimulationError("sp_eir: Clp did not solve the bound's LP (status " + std::to_string(lp.status()) +
                          ") for " + std::to_string(busy) + " busy and " + std::to_string(on) + " on nodes");
  }
}

}  // namespace dcsweep
