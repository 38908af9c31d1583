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
  // Nodes off (idle_nodes_off, mtdp): each (busy, on) pair on a fresh model, from a slack basis
  // (from the chain's basis of the same busy count it took 2.3 x as long on oxley1080)
  const std::unique_ptr<ClpSimplex> lp = build();
  return cache_.emplace(key, solve(*lp, busy, on, 0)).first->second;
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
  std::vector<double> base(zones, 0.0);  // every node off
  for (int kind = 0; kind < 2; ++kind) {  // 0: x (busy - idle), 1: y (idle - off)
    for (int p = 0; p < pools; ++p) {
      const Pool& pool = pools_[std::size_t(p)];
      const double step = kind == 0 ? pool.busy_w - pool.idle_w : pool.idle_w - pool.off_w;
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
  for (const Pool& pool : pools_) {
    for (int i = 0; i < zones; ++i) base[std::size_t(i)] += d_(i, pool.zone) * pool.off_w * pool.count;
  }
  for (int i = 0; i < zones; ++i) {
    row_lo[i] = -COIN_DBL_MAX;
    row_hi[i] = redline_c_ - base[std::size_t(i)];
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
  // factorisation). After numerical trouble, the primal from there, then from a slack basis.
  const auto zones = static_cast<int>(d_.rows());
  lp.setRowBounds(zones, busy, busy);
  lp.setRowBounds(zones + 1, on, on);
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
  const auto sum_smallest = [](const std::vector<double>& steps, std::int32_t k) {
    return std::accumulate(steps.begin(), steps.begin() + std::min<std::ptrdiff_t>(k, std::ptrdiff_t(steps.size())),
                           0.0);
  };
  return {lp.primalColumnSolution()[0], all_off_w_ + sum_smallest(on_steps_w_, on) + sum_smallest(busy_steps_w_, busy)};
}

}  // namespace dcsweep
