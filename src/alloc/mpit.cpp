// MPIT ([P1] Sec. 4.1, Tang et al.): the LP relaxation with Clp, then the nearest integer
// allocation. The LP is built once per simulation with every pool as a column and every inlet as
// a row; a decision only changes bounds (the pools' free capacity, the inlets' rises now, n), so
// the dual simplex restarts from the previous optimal basis, which stays dual feasible (the
// objective never changes). Variables are the powers the job adds (kW), so the D coefficients
// do not depend on the job: only the cardinality row does, through the ratios of the pools'
// power deltas, and the problem is reloaded (basis kept) when those ratios change.
// On rooms of many zones (node-level zones on oxley4320: a dense 4,320 x 4,320 LP, every dual
// simplex pivot a pass over 18.7 million coefficients) the LP holds only the inlet rows that can
// bind (MpitRows::generated): after a solve, the full rises under the solution are computed from
// the pools it uses, and the inlets hotter than t are added as rows until none is. The result is
// an optimum of the whole LP (every column is always present; the rows left out are satisfied).
#include "dcsweep/alloc/mpit.hpp"

#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <utility>

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/thermal/inlet_model.hpp"
#include "least_indices.hpp"

namespace dcsweep {
namespace {

constexpr double kW = 1e3;
/// A pool's delta below this (W) counts as this: a job that adds no heat is still a node count.
constexpr double kMinDeltaW = 1e-3;
/// Up to this many possible integer allocations, MPIT enumerates them all instead of solving
/// the LP (about the cost of one LP solve on meng40).
constexpr std::int64_t kEnumerateMax = 200;
/// Single-node moves after rounding, at most: 10 x pools + 100 (a bound that does not bind), but
/// kManyPoolsMaxMoves on rooms of more than kManyPools pools, where one move weighs up to
/// pools^2 pairs. Each move lowers the peak; on oxley4320's jobs of 1,500-2,300 nodes (CEA-Curie,
/// scaled) the moves after the 64th lowered it by less than 0.1% of the rise (0.001-0.002 K) for
/// 600-1,100 moves of a second or more each; on oxley1080's 2,000 jobs no decision made more
/// than 45. (On intrepid's 80 pools of 512 nodes decisions make hundreds of cheap moves.)
constexpr std::size_t kManyPools = 256;
constexpr std::int64_t kManyPoolsMaxMoves = 64;
/// Inlets added per round of row generation, the most overheated first.
constexpr std::size_t kRowsPerRound = 16;
/// At a decision, a generated LP holding more inlet rows than this drops its slack ones.
constexpr std::size_t kRowsKept = 128;
/// An inlet whose rise under the LP's solution exceeds t by more than this (K) is a violated
/// row (Clp's own primal tolerance).
constexpr double kRowTolK = 1e-7;

/// C(free, n), saturated at limit + 1: at least the number of distinct pool counts.
std::int64_t subsets_up_to(std::int64_t free, std::int64_t n, std::int64_t limit) {
  n = std::min(n, free - n);
  std::int64_t c = 1;
  for (std::int64_t k = 1; k <= n; ++k) {
    c = c * (free - n + k) / k;  // exact: C(free - n + k, k) at each step
    if (c > limit) return limit + 1;
  }
  return c;
}

double delta_w(const RoomView& room, NodeId node, const JobConfig& config) {
  return std::max(kMinDeltaW, room.busy_power_w(node, config) - room.idle_power_w(node));
}

/// Throws SimulationError unless Clp proved the LP optimal (it is always feasible and bounded).
void check_optimal(const ClpSimplex& lp) {
  if (lp.status() == 0) return;
  static const char* const names[] = {"optimal", "primal infeasible", "dual infeasible", "stopped on iterations or time",
                                      "stopped due to errors", "stopped by event handler"};
  const int s = lp.status();
  throw SimulationError(std::string("mpit: Clp did not solve the LP relaxation (status ") + std::to_string(s) + ", " +
                        (s >= 0 && s <= 5 ? names[s] : "unknown") + ", secondary " +
                        std::to_string(lp.secondaryStatus()) + ")");
}

}  // namespace

const HeatDistribution& heat_of(const RoomView& room, std::string_view who) {
  if (!room.thermal() || !room.heat_distribution()) {
    throw InputError(std::string(who) + " needs the room's state: a room, thermal_model recirculation (D) and node power");
  }
  return *room.heat_distribution();
}

void require_room(const Platform& platform, const ParamSet& params, std::string_view allocator) {
  if (!platform.has_room()) {
    throw InputError("allocator '" + std::string(allocator) +
                     "' needs a platform with a room (it reads inlet temperatures); platform '" + platform.name +
                     "' has none");
  }
  require_room_params(params, allocator);
}

void require_room_params(const ParamSet& params, std::string_view allocator) {
  const std::string who = "allocator '" + std::string(allocator) + "'";
  const std::string& model = params.text("thermal_model");
  if (model == "none" || model == "crac_node") {
    throw InputError(who + " needs the recirculation model (thermal_model auto or recirculation: it reads D); thermal_model is '" +
                     model + "'");
  }
  if (params.text("node_power") == "none") throw InputError(who + " needs node power; node_power is 'none'");
}

void PeakRise::start(const RoomView& room, const JobConfig& config, std::int32_t node_count, std::string_view who) {
  room_ = &room, config_ = &config, d_ = &heat_of(room, who);
  over_inlets_.clear(), over_rows_.clear(), over_reads_ = 0;  // peak_over's copy: another D, maybe
  if (std::ssize(terms_) != node_count) terms_.assign(std::size_t(node_count), NodeTerm{}), decision_ = 0;
  if (std::ssize(added_w_) != d_->size()) added_w_.assign(std::size_t(d_->size()), NAN);
  if (++decision_ == 0) {  // wrapped after 2^32 decisions: forget every record
    for (NodeTerm& t : terms_) t.decision = 0;
    decision_ = 1;
  }
}

void PeakRise::read_term(NodeId n, NodeTerm& t) const {
  t.decision = decision_, t.zone = room_->zone_of(n);
  t.delta_w = room_->busy_power_w(n, *config_) - room_->idle_power_w(n);
}

double PeakRise::peak_over(std::span<const NodeId> nodes, std::span<const Eigen::Index> inlets) {
  const Eigen::VectorXd& now = room_->inlet_rise_k();
  const std::size_t m = inlets.size();
  over_.resize(m);
  for (std::size_t k = 0; k < m; ++k) over_[k] = now[inlets[k]];
  // D's entries at the inlets, per zone: read where D keeps them (a column apart, a cache miss
  // each) until that has cost as much as copying the inlets' rows once, then from that copy (m
  // consecutive values per zone). The same values either way.
  use_inlets(inlets);
  if (over_rows_.empty() && (over_reads_ += nodes.size() * m) > std::size_t(d_->size()) * m) copy_inlet_rows();
  if (!over_rows_.empty()) {
    for (const NodeId n : nodes) {
      const NodeTerm& t = term(n);
      const double* row = over_rows_.data() + std::size_t(t.zone) * m;
      for (std::size_t k = 0; k < m; ++k) over_[k] += row[k] * t.delta_w;
    }
  } else {
    for (const NodeId n : nodes) {
      const NodeTerm& t = term(n);
      for (std::size_t k = 0; k < m; ++k) over_[k] += d_->entry(inlets[k], t.zone) * t.delta_w;
    }
  }
  return over_.empty() ? -INFINITY : *std::max_element(over_.begin(), over_.end());
}

void PeakRise::use_inlets(std::span<const Eigen::Index> inlets) {
  if (!std::equal(inlets.begin(), inlets.end(), over_inlets_.begin(), over_inlets_.end())) {
    over_inlets_.assign(inlets.begin(), inlets.end());
    over_reads_ = 0, over_rows_.clear();
  }
}

void PeakRise::copy_inlet_rows() {
  const std::size_t m = over_inlets_.size();
  over_rows_.resize(std::size_t(d_->size()) * m);
  for (std::size_t k = 0; k < m; ++k) d_->row(over_inlets_[k], over_rows_.data() + k, m);
}

void PeakRise::node_weights(std::span<const Eigen::Index> inlets, std::vector<double>& weights) {
  use_inlets(inlets);
  if (over_rows_.empty()) copy_inlet_rows();
  const std::size_t m = inlets.size();
  weights.resize(terms_.size() * m);
  for (std::size_t n = 0; n < terms_.size(); ++n) {
    const NodeTerm& t = term(NodeId(n));
    const double* row = over_rows_.data() + std::size_t(t.zone) * m;
    for (std::size_t k = 0; k < m; ++k) weights[n * m + k] = row[k] * t.delta_w;
  }
}

bool PeakRise::prepare_zone_bound(std::vector<std::int32_t>& zone_of_node) {
  const Eigen::Index zones = d_->size();
  zone_of_node.resize(terms_.size());
  least_delta_w_.assign(std::size_t(zones), INFINITY);
  for (std::size_t n = 0; n < terms_.size(); ++n) {
    const NodeTerm& t = term(NodeId(n));
    if (!(t.delta_w >= 0)) return false;
    zone_of_node[n] = t.zone;
    least_delta_w_[std::size_t(t.zone)] = std::min(least_delta_w_[std::size_t(t.zone)], t.delta_w);
  }
  for (double& w : least_delta_w_) w = std::isinf(w) ? 0 : w;  // a zone without nodes adds nothing
  dense_d_.resize(zones, zones);
  Eigen::VectorXd column;
  for (Eigen::Index z = 0; z < zones; ++z) {
    d_->column(z, column);
    if (!(column.minCoeff() >= 0)) return false;
    dense_d_.col(z) = column;
  }
  return true;
}

double PeakRise::peak_of_zone_counts(std::span<const std::int32_t> counts) {
  zone_w_.resize(dense_d_.cols());
  for (Eigen::Index z = 0; z < zone_w_.size(); ++z) zone_w_[z] = double(counts[std::size_t(z)]) * least_delta_w_[std::size_t(z)];
  return (room_->inlet_rise_k() + dense_d_ * zone_w_).maxCoeff();
}

std::vector<Eigen::Index> PeakRise::hottest(std::size_t count) const {
  return least_indices(rise_.size(), count, [&](Eigen::Index a, Eigen::Index b) { return rise_(a) > rise_(b); });
}

double PeakRise::peak(std::span<const NodeId> nodes) {
  touched_.clear();
  // A run of nodes of one zone (shells and pools are mostly such runs) is summed in a register
  // and added to the zone's total once: no store-to-load chain through added_w_ per node.
  std::int32_t zone = -1;
  double run_w = 0;
  auto flush = [&] {
    if (zone < 0) return;
    double& w = added_w_[std::size_t(zone)];
    if (std::isnan(w)) w = 0, touched_.push_back(zone);
    w += run_w;
  };
  for (const NodeId n : nodes) {
    const NodeTerm& t = term(n);
    if (t.zone != zone) flush(), zone = t.zone, run_w = 0;
    run_w += t.delta_w;
  }
  flush();
  std::sort(touched_.begin(), touched_.end());
  // D is kept as cumulative columns C (column z of D is C_z - C_{z-1}), so sum over z of w_z D_z
  // = sum over z of (w_z - w_{z+1}) C_z: a run of consecutive zones adding the same power (a
  // shell's line of nodes on a room with a zone per node) costs two columns, not one per zone.
  // The edges come out sorted (zones ascending); a run's inner columns cancel exactly.
  edges_.clear();
  for (const std::int32_t z : touched_) {
    const double w = added_w_[std::size_t(z)];
    added_w_[std::size_t(z)] = NAN;
    if (z > 0) edges_.emplace_back(z - 1, -w);
    edges_.emplace_back(z, w);
  }
  merge_cumulative_terms(edges_, cumulative_, weights_);
  rise_ = room_->inlet_rise_k();
  return d_->add_cumulative(cumulative_, weights_, rise_);
}

std::vector<std::int32_t> nearest_integer_counts(std::span<const double> x, std::span<const std::int32_t> cap,
                                                 std::int32_t n) {
  std::vector<std::int32_t> y(x.size());
  std::int64_t placed = 0;
  for (std::size_t p = 0; p < x.size(); ++p) {
    // 1e-7: the LP's tolerance, so that 0.99999999 is a whole node
    y[p] = std::clamp(static_cast<std::int32_t>(std::floor(x[p] + 1e-7)), 0, cap[p]);
    placed += y[p];
  }
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] - y[a] > x[b] - y[b]; });
  for (auto it = order.rbegin(); placed > n && it != order.rend(); ++it) {  // rounding noise only
    if (y[*it] > 0) --y[*it], --placed;
  }
  while (placed < n) {
    const std::int64_t before = placed;
    for (auto it = order.begin(); placed < n && it != order.end(); ++it) {
      if (y[*it] < cap[*it]) ++y[*it], ++placed;
    }
    if (placed == before) throw SimulationError("mpit: fewer free nodes than the job needs");
  }
  return y;
}

// ---- the solver ----------------------------------------------------------------------------------

struct MpitSolver::Impl {
  Impl(const Platform& platform, MpitOptions options) : platform_(platform), options_(options) {
    lp_.setLogLevel(0);
    lp_.scaling(0);
  }

  MpitDecision decide(const Machine& machine, const RoomView& room, const JobConfig& config, std::int32_t n);

 private:
  struct Pool {
    std::int32_t zone;
    std::vector<NodeId> nodes;  ///< ascending
  };
  void build_pools(const RoomView& room);
  void load(const HeatDistribution& d);
  void read_state(const Machine& machine, const RoomView& room, const JobConfig& config);
  /// A one-node job on any room: a loop over the pools (enumeration's recursion would go as
  /// deep as the free pools, thousands on a large room).
  std::vector<std::int32_t> best_single(const Eigen::VectorXd& rise) const;
  std::vector<std::int32_t> best_by_enumeration(const Eigen::VectorXd& rise, std::int32_t n) const;
  void set_bounds(const RoomView& room, std::int32_t n);
  /// Solves the LP from its current basis (optimal, or SimulationError).
  void solve();
  /// Generated rows: the inlets the LP's solution overheats (the most first, at most
  /// kRowsPerRound), from the rises now.
  std::vector<std::int32_t> violated_inlets(const Eigen::VectorXd& rise);
  void add_rows(std::span<const std::int32_t> inlets, const Eigen::VectorXd& rise);
  /// Generated rows: drops the inlet rows whose slack is basic once more than kRowsKept are held.
  void drop_slack_rows();
  std::vector<std::int32_t> round(std::int32_t n);
  void refine(std::vector<std::int32_t>& counts, const Eigen::VectorXd& rise);
  /// A node moved from pool `from` to pool `to` (none: from < 0).
  struct Move {
    Eigen::Index from = -1, to = -1;
  };
  /// The peak once a node of pool a moves to pool b, from after_.
  double move_peak(Eigen::Index a, Eigen::Index b) const;
  /// move_peak(a, b) where it is at most `above`; else a value above `above` (the inlets are
  /// scored a chunk at a time, and the rest skipped once one is over).
  double move_peak(Eigen::Index a, Eigen::Index b, double above) const;
  /// The move of the lowest peak below `best` that cools the hottest inlet `hot` (ties: the
  /// lowest a, then b); every move scored over every inlet.
  Move best_move_plain(const std::vector<std::int32_t>& counts, Eigen::Index hot, double best) const;
  Move best_move_bounded(const std::vector<std::int32_t>& counts, Eigen::Index hot, double best);
  std::vector<NodeId> nodes_of(const Machine& machine, const std::vector<std::int32_t>& counts) const;

  const Platform& platform_;
  MpitOptions options_;
  std::vector<Pool> pools_;
  Eigen::Index zones_ = 0;
  ClpSimplex lp_;
  bool loaded_ = false;
  bool generated_ = false;           ///< the inlet rows are generated (MpitRows)
  bool reshaped_ = false;            ///< rows were added or dropped since Clp's last solve
  std::vector<std::int32_t> inlet_;  ///< per LP row: its inlet, or -1 for the cardinality row
  std::vector<char> held_;           ///< per inlet: it has an LP row
  Eigen::VectorXd solution_rise_;    ///< generated rows: every inlet's rise under the solution
  const HeatDistribution* heat_of_room_ = nullptr;  ///< the decision's D
  std::vector<double> delta_kw_, ratio_, loaded_ratio_;  ///< per pool
  std::vector<std::int32_t> free_;
  Matrix zone_columns_;        ///< column p: D(:, zone_p) (K/W)
  /// zone_columns_ row-major: refine reads a few rows (the hottest inlets) across every pool
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> pool_rows_;
  /// refine: the hottest inlets' rows of every pool, contiguous per pool, in slots:
  /// hot_block_[p * slots + s] = zone_columns_(slot_inlet_[s], p). Kept between moves and
  /// decisions (D does not change): a move refills only the slots of inlets new among the hottest.
  std::vector<double> hot_block_;
  std::vector<Eigen::Index> slot_inlet_;       ///< per slot: its inlet (-1: none yet)
  std::vector<std::int32_t> slot_of_inlet_;    ///< per inlet: its slot, or -1
  std::vector<std::uint32_t> order_;           ///< refine: the hottest inlets' slots, hottest first
  std::vector<std::uint32_t> refill_;          ///< refine: the slots given a new inlet
  std::vector<char> slot_taken_;               ///< refine: per slot, holds one of the hottest
  std::vector<double> hot_after_;              ///< per slot: after_ at its inlet
  Eigen::VectorXd after_;      ///< inlet rises with the job placed (refine)
  std::vector<Eigen::Index> hottest_;                         ///< refine: the hottest inlets, hottest first
  std::vector<std::pair<double, Eigen::Index>> destinations_;  ///< refine: (heat at the hottest inlet, pool)
  std::vector<double> most_out_, least_in_;                   ///< refine: per slot
  std::vector<double> bound_;  ///< refine: per slot, after_ less the most any source / this source takes off
  /// refine: the destinations in ascending order of their heat at the 2nd, 3rd, ... hottest
  /// inlet, (heat, index in destinations_)
  static constexpr std::size_t kKeyInlets = 3;
  /// refine: destinations checked at once against the first kFilterInlets hottest inlets. On
  /// oxley4320's mpit cell from record 10,500 the moves walked 1.58 billion pairs, 236,000 of
  /// them scored over every inlet: checked one by one (hottest inlet first, stopping at the first
  /// reached) the pair loop took 14.4 Gcycles; by blocks against 4, 8 and 16 inlets 335, 100 and
  /// 23 million pairs were left to check one by one, and the loop took 10.3, 7.4 and 6.1.
  static constexpr std::uint32_t kFilterBlock = 32;
  static constexpr std::size_t kFilterInlets = 16;
  std::array<std::vector<std::pair<double, std::uint32_t>>, kKeyInlets> by_inlet_;
  /// refine: per walk order (the hottest inlet's, then by_inlet_'s), what each destination in that
  /// order adds at the first kFilterInlets of the hottest inlets (order_): filter_[o][k * width +
  /// e], each row padded to a whole block with +infinity
  std::array<std::vector<double>, kKeyInlets + 1> filter_;
  PeakRise peaks_;
};

void MpitSolver::Impl::build_pools(const RoomView& room) {
  std::map<std::pair<std::int32_t, std::uint8_t>, std::size_t> index;  // (zone, type) -> pool
  for (NodeId node = 0; node < platform_.node_count; ++node) {
    const std::uint8_t type = platform_.node_type.empty() ? 0 : platform_.node_type[std::size_t(node)];
    const auto [it, added] = index.try_emplace({room.zone_of(node), type}, pools_.size());
    if (added) pools_.push_back({room.zone_of(node), {}});
    pools_[it->second].nodes.push_back(node);
  }
  zones_ = room.inlet_rise_k().size();
  zone_columns_.resize(zones_, Eigen::Index(pools_.size()));
  Eigen::VectorXd column;
  for (std::size_t p = 0; p < pools_.size(); ++p) {
    room.heat_distribution()->column(pools_[p].zone, column);
    zone_columns_.col(Eigen::Index(p)) = column;
  }
  pool_rows_ = zone_columns_;
  delta_kw_.resize(pools_.size()), ratio_.resize(pools_.size()), free_.resize(pools_.size());
  generated_ = options_.rows == MpitRows::generated || (options_.rows == MpitRows::automatic && zones_ > kMpitAllRowsMaxZones);
  held_.assign(std::size_t(zones_), !generated_);
  inlet_.clear();
  if (generated_) {
    inlet_.push_back(-1);  // the cardinality row first; inlet rows are appended
  } else {
    for (Eigen::Index i = 0; i < zones_; ++i) inlet_.push_back(std::int32_t(i));
    inlet_.push_back(-1);
  }
}

/// Columns: t, then the pools' w (kW). Rows (inlet_): t - sum_p D(i, zone_p) w_p >= rise_i per
/// inlet i held, and sum_p ratio_p w_p = n delta_ref (ratio_p = delta_ref / delta_p).
void MpitSolver::Impl::load(const HeatDistribution& d) {
  std::vector<CoinBigIndex> start{0};
  std::vector<int> row;
  std::vector<double> value;
  const auto rows = static_cast<int>(inlet_.size());
  for (int k = 0; k < rows; ++k) {
    if (inlet_[std::size_t(k)] >= 0) row.push_back(k), value.push_back(1.0);
  }
  start.push_back(CoinBigIndex(row.size()));
  for (std::size_t p = 0; p < pools_.size(); ++p) {
    for (int k = 0; k < rows; ++k) {
      const std::int32_t i = inlet_[std::size_t(k)];
      if (i < 0) {
        row.push_back(k), value.push_back(ratio_[p]);
        continue;
      }
      const double dij = d.entry(i, pools_[p].zone) * kW;
      if (dij != 0) row.push_back(k), value.push_back(-dij);
    }
    start.push_back(CoinBigIndex(row.size()));
  }
  const auto columns = static_cast<int>(pools_.size() + 1);
  const CoinPackedMatrix matrix(true, rows, columns, CoinBigIndex(value.size()), value.data(), row.data(),
                                start.data(), nullptr);
  std::vector<unsigned char> basis;
  if (loaded_) basis.assign(lp_.statusArray(), lp_.statusArray() + columns + rows);
  std::vector<double> lower(std::size_t(columns), 0.0), upper(std::size_t(columns), 0.0), cost(std::size_t(columns), 0.0);
  lower[0] = -COIN_DBL_MAX, upper[0] = COIN_DBL_MAX, cost[0] = 1;
  std::vector<double> row_lower(std::size_t(rows), 0.0), row_upper(std::size_t(rows), COIN_DBL_MAX);
  lp_.loadProblem(matrix, lower.data(), upper.data(), cost.data(), row_lower.data(), row_upper.data());
  if (!basis.empty()) lp_.copyinStatus(basis.data());
  loaded_ratio_ = ratio_;
  loaded_ = true;
}

void MpitSolver::Impl::read_state(const Machine& machine, const RoomView& room, const JobConfig& config) {
  for (std::size_t p = 0; p < pools_.size(); ++p) {
    delta_kw_[p] = delta_w(room, pools_[p].nodes.front(), config) / kW;
    free_[p] = 0;
    for (const NodeId node : pools_[p].nodes) free_[p] += machine.is_free(node);
  }
}

std::vector<std::int32_t> MpitSolver::Impl::best_single(const Eigen::VectorXd& rise) const {
  std::vector<std::int32_t> counts(pools_.size(), 0);
  std::size_t best = pools_.size();
  double peak = INFINITY;
  // A pool's peak is at least its peak over the hottest inlets (the same sums): a pool whose
  // bound reaches the best so far cannot win, and is not scored over every inlet.
  const std::vector<Eigen::Index> hottest =
      least_indices(rise.size(), 16, [&](Eigen::Index a, Eigen::Index b) { return rise(a) > rise(b); });
  for (std::size_t p = 0; p < pools_.size(); ++p) {
    if (free_[p] == 0) continue;
    const double scale = delta_kw_[p] * kW;
    const auto column = zone_columns_.col(Eigen::Index(p));
    double bound = -INFINITY;
    for (const Eigen::Index i : hottest) bound = std::max(bound, rise(i) + scale * column(i));
    if (bound >= peak) continue;
    const double m = (rise + scale * column).maxCoeff();
    if (m < peak) peak = m, best = p;
  }
  if (best == pools_.size()) throw SimulationError("mpit: fewer free nodes than the job needs");
  counts[best] = 1;
  return counts;
}

std::vector<std::int32_t> MpitSolver::Impl::best_by_enumeration(const Eigen::VectorXd& rise, std::int32_t n) const {
  std::vector<std::size_t> open;  // pools with a free node
  for (std::size_t p = 0; p < pools_.size(); ++p) {
    if (free_[p] > 0) open.push_back(p);
  }
  std::vector<std::int32_t> room_after(open.size() + 1, 0);  // free nodes in open[k..]
  for (std::size_t k = open.size(); k-- > 0;) room_after[k] = room_after[k + 1] + free_[open[k]];
  std::vector<std::int32_t> counts(pools_.size(), 0), best;
  std::vector<Eigen::VectorXd> partial(open.size() + 1);
  partial[0] = rise;
  double peak = INFINITY;
  auto visit = [&](auto&& self, std::size_t k, std::int32_t left) -> void {
    if (left == 0) {
      const double m = partial[k].maxCoeff();
      if (m < peak) peak = m, best = counts;
      return;
    }
    if (room_after[k] < left) return;  // the pools left cannot hold the rest
    const std::size_t p = open[k];
    const auto column = zone_columns_.col(Eigen::Index(p));
    for (std::int32_t y = std::min(free_[p], left); y >= std::max(0, left - room_after[k + 1]); --y) {
      counts[p] = y;
      partial[k + 1] = partial[k] + (y * delta_kw_[p] * kW) * column;
      self(self, k + 1, left - y);
    }
    counts[p] = 0;
  };
  visit(visit, 0, n);
  if (best.empty()) throw SimulationError("mpit: fewer free nodes than the job needs");
  return best;
}

void MpitSolver::Impl::set_bounds(const RoomView& room, std::int32_t n) {
  double ref = 0;
  for (std::size_t p = 0; p < pools_.size(); ++p) ref = std::max(ref, delta_kw_[p]);
  bool changed = !loaded_;
  for (std::size_t p = 0; p < pools_.size(); ++p) {
    ratio_[p] = ref / delta_kw_[p];
    changed = changed || std::abs(ratio_[p] - loaded_ratio_[p]) > 1e-12 * ratio_[p];
  }
  if (changed) load(*room.heat_distribution());
  for (std::size_t p = 0; p < pools_.size(); ++p) lp_.setColumnUpper(int(p + 1), delta_kw_[p] * free_[p]);
  const Eigen::VectorXd& rise = room.inlet_rise_k();
  for (std::size_t k = 0; k < inlet_.size(); ++k) {
    if (inlet_[k] >= 0) {
      lp_.setRowLower(int(k), rise[inlet_[k]]);
    } else {
      lp_.setRowBounds(int(k), n * ref, n * ref);
    }
  }
}

void MpitSolver::Impl::solve() {
  // 7: keep Clp's work areas and factorisation between decisions (only bounds change between
  // them; a reload after a change of the pools' power ratios resets what Clp keeps). After rows
  // were added or dropped only the basis is kept (1: set up anew, keep at the end).
  lp_.dual(0, reshaped_ ? 1 : 7);
  reshaped_ = false;
  if (lp_.status() != 0) lp_.primal();  // numerical trouble: once more from where the dual stopped
  if (lp_.status() != 0) {              // and once from scratch (a slack basis, nothing kept)
    lp_.allSlackBasis(true);
    lp_.dual();
  }
  check_optimal(lp_);
}

std::vector<std::int32_t> MpitSolver::Impl::violated_inlets(const Eigen::VectorXd& rise) {
  const double* w = lp_.primalColumnSolution();
  solution_rise_ = rise;
  for (std::size_t p = 0; p < pools_.size(); ++p) {
    if (w[p + 1] > 0) solution_rise_ += (w[p + 1] * kW) * zone_columns_.col(Eigen::Index(p));
  }
  const double t = w[0];
  std::vector<std::int32_t> out;
  for (Eigen::Index i = 0; i < zones_; ++i) {
    if (!held_[std::size_t(i)] && solution_rise_[i] > t + kRowTolK) out.push_back(std::int32_t(i));
  }
  if (out.size() > kRowsPerRound) {
    std::partial_sort(out.begin(), out.begin() + kRowsPerRound, out.end(), [&](std::int32_t a, std::int32_t b) {
      return solution_rise_[a] > solution_rise_[b] || (solution_rise_[a] == solution_rise_[b] && a < b);
    });
    out.resize(kRowsPerRound);
  }
  return out;
}

void MpitSolver::Impl::add_rows(std::span<const std::int32_t> inlets, const Eigen::VectorXd& rise) {
  if (!loaded_) {  // load() builds them with the rest
    for (const std::int32_t i : inlets) inlet_.push_back(i), held_[std::size_t(i)] = 1;
    return;
  }
  std::vector<CoinBigIndex> start{0};
  std::vector<int> column;
  std::vector<double> value, lower, upper;
  const HeatDistribution& d = *heat_of_room_;
  for (const std::int32_t i : inlets) {
    column.push_back(0), value.push_back(1.0);
    for (std::size_t p = 0; p < pools_.size(); ++p) {
      const double dij = d.entry(i, pools_[p].zone) * kW;
      if (dij != 0) column.push_back(int(p + 1)), value.push_back(-dij);
    }
    start.push_back(CoinBigIndex(column.size()));
    lower.push_back(rise[i]), upper.push_back(COIN_DBL_MAX);
    inlet_.push_back(i), held_[std::size_t(i)] = 1;
  }
  lp_.addRows(int(inlets.size()), lower.data(), upper.data(), start.data(), column.data(), value.data());
  reshaped_ = true;
}

void MpitSolver::Impl::drop_slack_rows() {
  if (inlet_.size() <= kRowsKept + 1) return;
  std::vector<int> drop;
  std::vector<std::int32_t> kept;
  for (std::size_t k = 0; k < inlet_.size(); ++k) {
    const std::int32_t i = inlet_[k];
    if (i >= 0 && lp_.getRowStatus(int(k)) == ClpSimplex::basic) {
      drop.push_back(int(k)), held_[std::size_t(i)] = 0;
    } else {
      kept.push_back(i);
    }
  }
  if (drop.empty()) return;
  lp_.deleteRows(int(drop.size()), drop.data());
  inlet_ = std::move(kept);
  reshaped_ = true;
}

std::vector<std::int32_t> MpitSolver::Impl::round(std::int32_t n) {
  const double* w = lp_.primalColumnSolution();
  std::vector<double> x(pools_.size());
  for (std::size_t p = 0; p < pools_.size(); ++p) x[p] = std::clamp(w[p + 1] / delta_kw_[p], 0.0, double(free_[p]));
  return nearest_integer_counts(x, free_, n);
}

/// Moves one node at a time from pool a to pool b while that lowers the peak (a bounded number
/// of moves: kManyPools), the best move first (ties: the lowest a, then the lowest b; only moves that cool
/// the hottest inlet can lower it). A node-level move is a swap of a chosen node for a free one. The rounded LP
/// solution can be far from the integer optimum for small jobs (a relaxation spreads a single
/// node over every cool spot).
void MpitSolver::Impl::refine(std::vector<std::int32_t>& counts, const Eigen::VectorXd& rise) {
  after_ = rise;
  for (std::size_t p = 0; p < pools_.size(); ++p) {
    if (counts[p] > 0) after_ += (counts[p] * delta_kw_[p] * kW) * zone_columns_.col(Eigen::Index(p));
  }
  const auto pools = std::int64_t(pools_.size());
  const std::int64_t max_moves = pools > std::int64_t(kManyPools) ? kManyPoolsMaxMoves : 10 * pools + 100;
  for (std::int64_t move = 0; move < max_moves; ++move) {
    Eigen::Index hot;
    const double peak = after_.maxCoeff(&hot);
    const Move m = options_.bounded_moves ? best_move_bounded(counts, hot, peak - 1e-12)
                                          : best_move_plain(counts, hot, peak - 1e-12);
    if (m.from < 0) return;
    --counts[std::size_t(m.from)], ++counts[std::size_t(m.to)];
    after_ += (delta_kw_[std::size_t(m.to)] * kW) * zone_columns_.col(m.to) -
              (delta_kw_[std::size_t(m.from)] * kW) * zone_columns_.col(m.from);
  }
}

double MpitSolver::Impl::move_peak(Eigen::Index a, Eigen::Index b) const {
  return (after_ - (delta_kw_[std::size_t(a)] * kW) * zone_columns_.col(a) +
          (delta_kw_[std::size_t(b)] * kW) * zone_columns_.col(b))
      .maxCoeff();
}

double MpitSolver::Impl::move_peak(Eigen::Index a, Eigen::Index b, double above) const {
  constexpr Eigen::Index kChunk = 256;  // inlets per check
  const double out_w = delta_kw_[std::size_t(a)] * kW, in_w = delta_kw_[std::size_t(b)] * kW;
  double peak = -INFINITY;
  for (Eigen::Index i = 0; i < zones_ && peak <= above; i += kChunk) {
    const Eigen::Index length = std::min(kChunk, zones_ - i);
    peak = std::max(peak, (after_.segment(i, length) - out_w * zone_columns_.col(a).segment(i, length) +
                           in_w * zone_columns_.col(b).segment(i, length))
                              .maxCoeff());
  }
  return peak;
}

MpitSolver::Impl::Move MpitSolver::Impl::best_move_plain(const std::vector<std::int32_t>& counts, Eigen::Index hot,
                                                         double best) const {
  Move out;
  const auto pools = Eigen::Index(pools_.size());
  for (Eigen::Index a = 0; a < pools; ++a) {
    if (counts[std::size_t(a)] == 0) continue;
    const double out_hot = delta_kw_[std::size_t(a)] * kW * zone_columns_(hot, a);
    for (Eigen::Index b = 0; b < pools; ++b) {
      const double in_w = delta_kw_[std::size_t(b)] * kW;
      if (b == a || counts[std::size_t(b)] == free_[std::size_t(b)] || in_w * zone_columns_(hot, b) >= out_hot) continue;
      const double m = move_peak(a, b);
      if (m < best) best = m, out = {a, b};
    }
  }
  return out;
}

namespace {

/// Whether base[s] + w * to[s] reaches `stop` at one of the slots, in that order (the hottest
/// inlets first: most moves that lose reach the best at one of the first few).
bool reaches(const double* base, double w, const double* to, std::span<const std::uint32_t> order, double stop) {
  for (const std::uint32_t s : order) {
    if (base[s] + w * to[s] >= stop) return true;
  }
  return false;
}

}  // namespace

/// best_move_plain's move, found with less work: the destinations in ascending order of their
/// heat at the hottest inlet (the moves a source can make are a prefix), and a move dropped as
/// soon as its rise at one of the hottest inlets reaches the best peak so far. Those rises are
/// summed as move_peak sums its elements, (after - out) + in, so each is one of the elements
/// whose most is the move's peak, bit for bit; the bounds over every source or destination (the
/// most taken off, the least added) round no higher, since rounding is monotone. The moves left
/// are scored as best_move_plain does.
MpitSolver::Impl::Move MpitSolver::Impl::best_move_bounded(const std::vector<std::int32_t>& counts, Eigen::Index hot,
                                                           double best) {
  constexpr std::size_t kHotInlets = 64;
  const auto pools = Eigen::Index(pools_.size());
  hottest_.resize(std::size_t(zones_));
  std::iota(hottest_.begin(), hottest_.end(), Eigen::Index{0});
  // Only the 64 hottest are read (the bounds and the pair check hold over any set of inlets).
  const std::size_t top = std::min<std::size_t>(hottest_.size(), kHotInlets);
  std::partial_sort(hottest_.begin(), hottest_.begin() + std::ptrdiff_t(top), hottest_.end(),
                    [&](Eigen::Index x, Eigen::Index y) { return after_(x) > after_(y); });
  hottest_.resize(top);
  // Over the hottest inlets: the most a source takes off each (any source) and the least a
  // destination adds (any destination left): a destination that reaches the best even with the
  // most taken off, or a source even with the least added, is in no better move.
  // Those inlets' rows of every pool, contiguous per pool (the columns of 4,320 inlets of
  // oxley4320 would cost a cache miss per entry read), one slot per inlet: an inlet still among
  // the hottest keeps its slot, a new one takes the slot of one that left.
  if (hot_block_.empty()) {
    hot_block_.assign(std::size_t(pools) * top, 0.0);
    slot_inlet_.assign(top, -1), slot_of_inlet_.assign(std::size_t(zones_), -1);
  }
  order_.resize(top), slot_taken_.assign(top, 0), refill_.clear();
  for (std::size_t k = 0; k < top; ++k) {
    const std::int32_t slot = slot_of_inlet_[std::size_t(hottest_[k])];
    if (slot >= 0) order_[k] = std::uint32_t(slot), slot_taken_[std::size_t(slot)] = 1;
  }
  for (std::size_t k = 0, free_slot = 0; k < top; ++k) {
    if (slot_of_inlet_[std::size_t(hottest_[k])] >= 0) continue;
    while (slot_taken_[free_slot]) ++free_slot;
    if (slot_inlet_[free_slot] >= 0) slot_of_inlet_[std::size_t(slot_inlet_[free_slot])] = -1;
    slot_inlet_[free_slot] = hottest_[k], slot_of_inlet_[std::size_t(hottest_[k])] = std::int32_t(free_slot);
    order_[k] = std::uint32_t(free_slot), slot_taken_[free_slot] = 1, refill_.push_back(std::uint32_t(free_slot));
  }
  constexpr Eigen::Index kTile = 64;  // pools per tile: a tile's writes stay in the L1 cache
  for (Eigen::Index p0 = 0; p0 < pools && !refill_.empty(); p0 += kTile) {
    const Eigen::Index p1 = std::min(pools, p0 + kTile);
    for (const std::uint32_t slot : refill_) {
      const double* row = pool_rows_.row(slot_inlet_[slot]).data();
      for (Eigen::Index p = p0; p < p1; ++p) hot_block_[std::size_t(p) * top + slot] = row[p];
    }
  }
  auto hot_of = [&](Eigen::Index p) { return hot_block_.data() + std::size_t(p) * top; };
  hot_after_.resize(top);
  for (std::size_t s = 0; s < top; ++s) hot_after_[s] = after_(slot_inlet_[s]);
  most_out_.assign(top, -INFINITY), least_in_.assign(top, INFINITY);
  for (Eigen::Index a = 0; a < pools; ++a) {
    if (counts[std::size_t(a)] == 0) continue;
    const double w = delta_kw_[std::size_t(a)] * kW;
    const double* from = hot_of(a);
    for (std::size_t s = 0; s < top; ++s) most_out_[s] = std::max(most_out_[s], w * from[s]);
  }
  // A destination's pairs reach at least this much at each hottest inlet. None can tie the best
  // either: a tie wins only against a move found below the best given.
  bound_.resize(top);
  for (std::size_t s = 0; s < top; ++s) bound_[s] = hot_after_[s] - most_out_[s];
  destinations_.clear();
  for (Eigen::Index b = 0; b < pools; ++b) {
    if (counts[std::size_t(b)] == free_[std::size_t(b)]) continue;
    const double w = delta_kw_[std::size_t(b)] * kW;
    const double* to = hot_of(b);
    if (reaches(bound_.data(), w, to, order_, best)) continue;
    destinations_.push_back({w * pool_rows_(hot, b), b});
    for (std::size_t s = 0; s < top; ++s) least_in_[s] = std::min(least_in_[s], w * to[s]);
  }
  std::sort(destinations_.begin(), destinations_.end());
  // The destinations also in ascending order of what each adds at the next hottest inlets: a
  // source walks whichever order's admissible prefix is shortest (the peak after many moves is
  // flat over several inlets, and most pairs that pass the hottest fail the second).
  const std::size_t keys = std::min(top, kKeyInlets + 1) - 1;
  for (std::size_t j = 0; j < keys; ++j) {
    std::vector<std::pair<double, std::uint32_t>>& list = by_inlet_[j];
    list.resize(destinations_.size());
    for (std::size_t d = 0; d < destinations_.size(); ++d) {
      const Eigen::Index b = destinations_[d].second;
      list[d] = {delta_kw_[std::size_t(b)] * kW * hot_of(b)[order_[j + 1]], std::uint32_t(d)};
    }
    std::sort(list.begin(), list.end());
  }
  // What each destination adds at the first hottest inlets, in a walk order, contiguous (built
  // when a source first walks that order): a source checks a block of destinations against
  // those inlets at once (vector lanes) before scoring the few that pass one by one.
  const std::size_t filtered = std::min(top, kFilterInlets);
  const std::size_t width = (destinations_.size() + kFilterBlock - 1) / kFilterBlock * kFilterBlock;
  // The e-th destination of walk order o (0: destinations_' own, j + 1: by_inlet_[j]'s).
  auto destination = [&](std::size_t o, std::size_t e) -> const std::pair<double, Eigen::Index>& {
    return destinations_[o == 0 ? e : by_inlet_[o - 1][e].second];
  };
  std::array<bool, kKeyInlets + 1> filter_built{};
  auto filter_rows = [&](std::size_t o) {
    std::vector<double>& rows = filter_[o];
    if (filter_built[o]) return rows.data();
    filter_built[o] = true;
    rows.assign(filtered * width, INFINITY);
    for (std::size_t e = 0; e < destinations_.size(); ++e) {
      const Eigen::Index b = destination(o, e).second;
      const double w = delta_kw_[std::size_t(b)] * kW;
      const double* to = hot_of(b);
      for (std::size_t k = 0; k < filtered; ++k) rows[k * width + e] = w * to[order_[k]];
    }
    return rows.data();
  };
  Move out;
  // A pair (a, b) scored: the lowest peak so far wins, ties by the lowest a (sources in ascending
  // order), then the lowest b. Every pair that can win is scored whatever the order its source
  // walks the destinations in, so the order changes the work only. A pair whose rise at an inlet
  // is above the best loses; one whose rise equals it wins only as a tie (the source of the best
  // move so far, a lower destination).
  auto score = [&](Eigen::Index a, const double* base, double out_hot, double in_hot, Eigen::Index b) {
    if (in_hot >= out_hot || b == a) return;
    const bool may_tie = a == out.from && b < out.to;
    // (a rise reaching `stop` loses: above the best, or equal to it unless the pair may tie)
    const double stop = may_tie ? std::nextafter(best, INFINITY) : best;
    if (after_(hot) - out_hot + in_hot >= stop) return;
    // Most pairs that lose reach the best at one of the hottest inlets; a pair that passes
    // those is scored over every inlet (move_peak, contiguous columns, stopped once it loses).
    // The first `filtered` of them were checked by blocks (below) against a stop at least this
    // pair's: one that reaches its own stop there only is scored, and loses, by move_peak.
    if (reaches(base, delta_kw_[std::size_t(b)] * kW, hot_of(b), std::span(order_).subspan(filtered), stop)) return;
    const double m = move_peak(a, b, may_tie ? best : std::nextafter(best, -INFINITY));
    if (m < best || (m == best && may_tie)) best = m, out = {a, b};
  };
  for (Eigen::Index a = 0; a < pools && !destinations_.empty(); ++a) {
    if (counts[std::size_t(a)] == 0) continue;
    const double out_w = delta_kw_[std::size_t(a)] * kW;
    const double out_hot = out_w * pool_rows_(hot, a);
    const double* from = hot_of(a);
    // The rises at the hottest inlets with a node taken off a (a source none of whose moves
    // can reach below the best, even with the least added, is skipped: it cannot tie either,
    // as the best move so far is another source's).
    for (std::size_t s = 0; s < top; ++s) bound_[s] = hot_after_[s] - out_w * from[s];
    if (reaches(bound_.data(), 1.0, least_in_.data(), order_, best)) continue;
    // The admissible prefix of the hottest inlet's order (its test is monotone in in_hot), and of
    // each key inlet's: a destination adding more than `cut` there reaches the best. The cut
    // inverts the check's sum, which rounds differently: kSlackK + kCutK is a margin on the cut
    // only (the destinations it lets through are checked exactly).
    constexpr double kSlackK = 1e-9, kCutK = 1e-12;
    std::size_t length = std::size_t(
        std::partition_point(destinations_.begin(), destinations_.end(),
                             [&](const std::pair<double, Eigen::Index>& d) {
                               return d.first < out_hot && after_(hot) - out_hot + d.first <= best;
                             }) -
        destinations_.begin());
    std::size_t o = 0;  // the walk order: the hottest inlet's
    for (std::size_t j = 0; j < keys && length > 0; ++j) {
      const std::uint32_t s = order_[j + 1];
      const double cut = best + kSlackK - bound_[s] + kCutK;
      const auto& list = by_inlet_[j];
      const auto end = std::upper_bound(list.begin(), list.end(), cut,
                                        [](double c, const std::pair<double, std::uint32_t>& e) { return c < e.first; });
      if (std::size_t(end - list.begin()) < length) length = std::size_t(end - list.begin()), o = j + 1;
    }
    // The walk's destinations a block at a time: those whose rise reaches the best at one of
    // the first hottest inlets (the sums reaches() takes, bit for bit, against a stop at least
    // every pair's: the best only falls within a block) lose; the others are scored in order.
    if (length == 0) continue;
    const double* rows = filter_rows(o);
    std::array<double, kFilterInlets> base{};
    for (std::size_t k = 0; k < filtered; ++k) base[k] = bound_[order_[k]];
    for (std::size_t e0 = 0; e0 < length; e0 += kFilterBlock) {
      const double stop = std::nextafter(best, INFINITY);
      std::uint32_t pass = length - e0 >= kFilterBlock ? ~std::uint32_t{0} : (std::uint32_t{1} << (length - e0)) - 1;
      for (std::size_t k = 0; k < filtered && pass != 0; ++k) {
        const double* row = rows + k * width + e0;
        std::uint32_t reached = 0;
        for (std::uint32_t i = 0; i < kFilterBlock; ++i) reached |= std::uint32_t(base[k] + row[i] >= stop) << i;
        pass &= ~reached;
      }
      for (; pass != 0; pass &= pass - 1) {
        const std::size_t e = e0 + std::size_t(std::countr_zero(pass));
        const auto& [in_hot, b] = destination(o, e);
        score(a, bound_.data(), out_hot, in_hot, b);
      }
    }
  }
  return out;
}

std::vector<NodeId> MpitSolver::Impl::nodes_of(const Machine& machine, const std::vector<std::int32_t>& counts) const {
  std::vector<NodeId> out;
  for (std::size_t p = 0; p < pools_.size(); ++p) {
    std::int32_t left = counts[p];
    for (auto it = pools_[p].nodes.begin(); left > 0; ++it) {
      if (machine.is_free(*it)) out.push_back(*it), --left;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

MpitDecision MpitSolver::Impl::decide(const Machine& machine, const RoomView& room, const JobConfig& config,
                                      std::int32_t n) {
  peaks_.start(room, config, machine.node_count(), "allocator 'mpit'");
  MpitDecision out;
  if (machine.free_count() == n) {  // the only allocation (SST's shortcut)
    machine.lowest_free(n, out.nodes);
    out.lp_peak_rise_k = out.peak_rise_k = peaks_.peak(out.nodes);
    return out;
  }
  if (pools_.empty()) build_pools(room);
  read_state(machine, room, config);
  // A one-node job, or few possible allocations (a nearly full room): the exact best by
  // enumeration, cheaper than the LP and never worse than its rounding.
  if (n == 1 || subsets_up_to(machine.free_count(), n, kEnumerateMax) <= kEnumerateMax) {
    const std::vector<std::int32_t> counts =
        n == 1 ? best_single(room.inlet_rise_k()) : best_by_enumeration(room.inlet_rise_k(), n);
    out.nodes = nodes_of(machine, counts);
    out.lp_peak_rise_k = out.peak_rise_k = peaks_.peak(out.nodes);
    return out;
  }
  heat_of_room_ = room.heat_distribution();
  if (generated_) {
    drop_slack_rows();
    Eigen::Index hottest;  // held from the start: without an inlet row t would be unbounded
    room.inlet_rise_k().maxCoeff(&hottest);
    if (!held_[std::size_t(hottest)]) add_rows(std::array{std::int32_t(hottest)}, room.inlet_rise_k());
  }
  set_bounds(room, n);
  solve();
  if (generated_) {
    for (std::vector<std::int32_t> add; !(add = violated_inlets(room.inlet_rise_k())).empty();) {
      add_rows(add, room.inlet_rise_k());
      solve();
    }
  }
  out.lp_peak_rise_k = lp_.objectiveValue();
  out.lp_solved = true;
  std::vector<std::int32_t> counts = round(n);
  refine(counts, room.inlet_rise_k());
  out.nodes = nodes_of(machine, counts);
  out.peak_rise_k = peaks_.peak(out.nodes);  // with the true (unclamped) deltas
  return out;
}

MpitSolver::MpitSolver(const Platform& platform, MpitOptions options)
    : impl_(std::make_unique<Impl>(platform, options)) {}
MpitSolver::~MpitSolver() = default;
MpitSolver::MpitSolver(MpitSolver&&) noexcept = default;
MpitSolver& MpitSolver::operator=(MpitSolver&&) noexcept = default;

MpitDecision MpitSolver::decide(const Machine& machine, const RoomView& room, const JobConfig& config,
                                std::int32_t nodes) {
  return impl_->decide(machine, room, config, nodes);
}

// ---- the Allocator -------------------------------------------------------------------------------

namespace {

class MpitAllocator final : public Allocator {
 public:
  explicit MpitAllocator(const Platform& platform) : solver_(platform) {}

  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    out = solver_.decide(request.machine, request.room, request.config, request.nodes).nodes;
    return true;
  }

 private:
  MpitSolver solver_;
};

}  // namespace

AllocatorRegistry::Entry mpit_allocator_entry() {
  return {"mpit",
          "MPIT ([P1] Sec. 4.1, Tang et al.): the nodes minimising the peak inlet temperature given the room's power "
          "now (LP relaxation with Clp, then the nearest integer allocation; zones on zoned rooms); needs a room",
          {},
          [](const BuildContext& ctx, const Platform& platform) -> std::unique_ptr<Allocator> {
            require_room(platform, ctx.params, "mpit");
            return std::make_unique<MpitAllocator>(platform);
          }};
}

}  // namespace dcsweep
