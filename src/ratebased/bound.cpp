#include "dcsweep/ratebased/bound.hpp"

#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>

#include "dcsweep/core/error.hpp"

namespace dcsweep {

std::vector<std::int32_t> rate_hull_states(const RateInstance& in, std::int32_t task, std::int32_t table) {
  std::vector<std::int32_t> states;
  for (std::int32_t p = 0; p < in.off_state(table); ++p) {
    if (in.allowed(task, table, p)) states.push_back(p);
  }
  std::sort(states.begin(), states.end(), [&](std::int32_t a, std::int32_t b) {
    return std::pair(in.tables.apc(task, table, a), -in.tables.ecs(task, table, a)) <
           std::pair(in.tables.apc(task, table, b), -in.tables.ecs(task, table, b));
  });
  std::vector<std::int32_t> hull;
  std::vector<std::pair<double, double>> kept{{0.0, 0.0}};  // (APC, ECS), the origin first
  for (const std::int32_t p : states) {
    const double x = in.tables.apc(task, table, p), y = in.tables.ecs(task, table, p);
    if (y <= kept.back().second) continue;  // dominated: costs as much or more, no faster
    while (kept.size() >= 2) {  // pop the last kept point when on or below the chord to this one
      const auto [xb, yb] = kept[kept.size() - 2];
      const auto [x1, y1] = kept.back();
      if ((x1 - xb) * (y - yb) - (y1 - yb) * (x - xb) < 0) break;
      kept.pop_back();
      hull.pop_back();
    }
    kept.emplace_back(x, y);
    hull.push_back(p);
  }
  return hull;
}

namespace {

class BoundLp {
 public:
  BoundLp(const RateInstance& in, double drop_below, std::int32_t levels, bool lazy_rows)
      : in_(in), drop_below_(drop_below) {
    const std::int32_t n = in.nodes(), t = in.tasks(), z = in.zones();
    rate_row_ = n;
    zone_row_ = n + t;
    power_row_ = n + t + z;
    thermal_row_of_zone_.assign(std::size_t(z), -1);
    std::vector<CoinBigIndex> starts{0};
    std::vector<int> rows;
    std::vector<double> values, lower, upper, cost;
    const auto column = [&](double lo, double hi, double c) {
      lower.push_back(lo);
      upper.push_back(hi);
      cost.push_back(c);
      starts.push_back(CoinBigIndex(rows.size()));
    };
    std::vector<std::vector<std::int32_t>> hulls(std::size_t(t) * in.tables.types.size());
    for (std::int32_t i = 0; i < t; ++i) {
      for (std::int32_t tb = 0; tb < std::int32_t(in.tables.types.size()); ++tb) {
        hulls[std::size_t(i) * in.tables.types.size() + std::size_t(tb)] = rate_hull_states(in, i, tb);
      }
    }
    // Co-location levels: node j's memory load L = sum mi x lies in [L_l, L_l+1] for some level l;
    // a core there sees co-runners of at least L_l - (the largest mi), so its tasks run at most
    // 1 / (1 + slope (L_l - mi_max)^+) of their ECS. Disjunctive form: x(j, i, p, l) <= cores z(j, l),
    // L_l z(j, l) <= sum mi x(j, ., ., l) <= L_l+1 z(j, l), sum_l z(j, l) <= 1. Without levels:
    // sum x <= cores.
    double mi_max = 0;
    for (const RateTaskType& task : in.tables.tasks) mi_max = std::max(mi_max, task.memory_intensity);
    const std::int32_t level_count = std::max(1, levels);
    const std::int32_t level_row = power_row_ + 1;  // per (node, level): capacity, load floor, load ceiling
    for (std::int32_t j = 0; j < n; ++j) {
      const std::int32_t tb = in.node_table[std::size_t(j)];
      const double cores = in.node_first_core[std::size_t(j) + 1] - in.node_first_core[std::size_t(j)];
      for (std::int32_t l = 0; l < level_count; ++l) {
        const double load = cores * mi_max * l / level_count, ceiling = cores * mi_max * (l + 1) / level_count;
        const std::int32_t capacity = level_row + 3 * (j * level_count + l), floor_row = capacity + 1;
        if (levels > 0) {
          rows.insert(rows.end(), {j, capacity, floor_row, floor_row + 1});
          values.insert(values.end(), {1.0, -cores, load, -ceiling});
          column(0, 1, 0);
        }
        for (std::int32_t i = 0; i < t; ++i) {
          const double slope = in.tables.types[std::size_t(tb)].colocation_slope[std::size_t(in.tables.tasks[std::size_t(i)].memory_class)];
          const double factor = levels > 0 ? 1 / (1 + slope * std::max(0.0, load - mi_max)) : 1.0;
          for (const std::int32_t p : hulls[std::size_t(i) * in.tables.types.size() + std::size_t(tb)]) {
            if (levels > 0) {
              const double mi = in.tables.tasks[std::size_t(i)].memory_intensity;
              rows.insert(rows.end(), {rate_row_ + i, zone_row_ + in.node_zone[std::size_t(j)], capacity, floor_row,
                                       floor_row + 1});
              values.insert(values.end(), {-in.tables.ecs(i, tb, p) * factor, -in.tables.apc(i, tb, p), 1.0, -mi, mi});
            } else {
              rows.insert(rows.end(), {j, rate_row_ + i, zone_row_ + in.node_zone[std::size_t(j)]});
              values.insert(values.end(), {1.0, -in.tables.ecs(i, tb, p), -in.tables.apc(i, tb, p)});
            }
            column(0, cores, 0);
          }
        }
      }
    }
    for (std::int32_t i = 0; i < t; ++i) {
      rows.push_back(rate_row_ + i);
      values.push_back(1);
      column(0, in.tables.tasks[std::size_t(i)].arrival_rate_per_s, -in.tables.tasks[std::size_t(i)].reward);
    }
    first_power_column_ = std::int32_t(lower.size());
    const RoomResponse& room = *in.room;
    for (std::int32_t c = 0; c < z; ++c) {
      rows.push_back(zone_row_ + c);
      values.push_back(1);
      rows.push_back(power_row_);
      values.push_back(1 + room.removal(c));  // set per interval
      column(0, COIN_DBL_MAX, 0);
    }
    const std::size_t row_count = std::size_t(power_row_ + 1) + (levels > 0 ? std::size_t(3 * n * levels) : 0);
    std::vector<double> row_lower(row_count, -COIN_DBL_MAX), row_upper(row_count, 0.0);
    for (std::int32_t j = 0; j < n; ++j) {
      row_upper[std::size_t(j)] =
          levels > 0 ? 1.0 : in.node_first_core[std::size_t(j) + 1] - in.node_first_core[std::size_t(j)];
    }
    zone_static_ = Eigen::VectorXd::Zero(z);
    for (std::int32_t j = 0; j < n; ++j) zone_static_(in.node_zone[std::size_t(j)]) += in.node_static_w[std::size_t(j)];
    for (std::int32_t c = 0; c < z; ++c) row_lower[std::size_t(zone_row_ + c)] = row_upper[std::size_t(zone_row_ + c)] = zone_static_(c);
    idle_rise_ = room.rise * zone_static_;
    monotone_ = room.rise.minCoeff() >= 0 && room.removal.minCoeff() >= 0;
    const CoinPackedMatrix matrix(true, int(row_count), int(lower.size()), CoinBigIndex(values.size()), values.data(),
                                  rows.data(), starts.data(), nullptr);
    lp_.setLogLevel(0);
    lp_.loadProblem(matrix, lower.data(), upper.data(), cost.data(), row_lower.data(), row_upper.data());
    if (!lazy_rows) {
      for (std::int32_t r = 0; r < z; ++r) add_thermal_row(r);
    }
  }

  /// The LP's optimum for outlets in [a, b]; -inf when it is infeasible. The thermal rows are
  /// dense (every zone heats every inlet) and make Clp's factorizations dense, yet few of them
  /// bind: they are generated lazily. Each round solves the LP with the rows generated so far (a
  /// relaxation: fewer <= rows), then adds the rows of the zones whose inlet its solution puts
  /// above the redline, until it puts none there. Then the solution meets every row, so the
  /// relaxation's optimum is the whole LP's; a round's value is a valid bound in any case.
  double solve(double a, double b) {
    const RoomResponse& room = *in_.room;
    const double cop = rate_crac_cop(b);
    a_ = a;
    for (std::int32_t r = 0; r < in_.zones(); ++r) {
      if (thermal_row_of_zone_[std::size_t(r)] >= 0) lp_.setRowUpper(thermal_row_of_zone_[std::size_t(r)], inlet_limit(r));
    }
    for (std::int32_t c = 0; c < in_.zones(); ++c) {
      lp_.modifyCoefficient(power_row_, first_power_column_ + c, 1 + room.removal(c) / cop);
    }
    const double h = room.removal_per_k;
    const double power_limit = in_.config.power_budget_w - std::min(h * a, h * b) / cop;
    lp_.setRowUpper(power_row_, power_limit);
    if (monotone_ && !idle_meets(cop, power_limit)) return -std::numeric_limits<double>::infinity();
    while (true) {
      const double value = solve_relaxation();
      if (!std::isfinite(value) || !add_violated_rows()) return value;
    }
  }

  /// Thermal rows generated so far.
  std::int32_t thermal_rows() const { return thermal_rows_; }

 private:
  double inlet_limit(std::int32_t zone) const { return in_.config.redline_c - in_.room->supply_share(zone) * a_; }

  /// Whether every core off (x = 0, zone powers at their static S) meets the inlet rows and the
  /// power row. When rises and heat removal are non-negative, every row grows with the zone
  /// powers and every allocation has P >= S (APC >= 0), so if x = 0 breaks a row by more than
  /// rounding, every allocation does: the LP is infeasible, proven without Clp (whose dual simplex
  /// from an earlier basis can take minutes to prove it on oxley1080).
  bool idle_meets(double cop, double power_limit) const {
    const RoomResponse& room = *in_.room;
    for (std::int32_t r = 0; r < in_.zones(); ++r) {
      if (idle_rise_(r) > inlet_limit(r) + kIdleSlack) return false;
    }
    const double idle_w = zone_static_.sum() + room.removal.dot(zone_static_) / cop;
    return idle_w <= power_limit + kIdleSlack * std::max(1.0, std::abs(power_limit));
  }

  /// Adds the rows of the zones without one whose inlet (full row) the current solution puts
  /// above the redline, the worst first, at most kRowsPerRound; false when there is none.
  bool add_violated_rows() {
    const RoomResponse& room = *in_.room;
    const std::int32_t z = in_.zones();
    const Eigen::VectorXd power = Eigen::Map<const Eigen::VectorXd>(lp_.primalColumnSolution() + first_power_column_, z);
    const Eigen::VectorXd inlet = room.rise * power;
    std::vector<std::pair<double, std::int32_t>> violated;
    for (std::int32_t r = 0; r < z; ++r) {
      const double excess = inlet(r) - inlet_limit(r);
      if (thermal_row_of_zone_[std::size_t(r)] < 0 && excess > kInletToleranceK) violated.emplace_back(-excess, r);
    }
    if (violated.empty()) return false;
    const std::size_t count = std::min(violated.size(), kRowsPerRound);
    std::partial_sort(violated.begin(), violated.begin() + std::ptrdiff_t(count), violated.end());
    for (std::size_t k = 0; k < count; ++k) add_thermal_row(violated[k].second);
    return true;
  }

  /// Zone r's inlet row, sum_c rise(r, c) P_c <= T_red - s_r a. Entries below drop_below of the
  /// row's largest are left out: a smaller left-hand side of a <= row over P >= 0 only loosens it.
  void add_thermal_row(std::int32_t r) {
    const RoomResponse& room = *in_.room;
    const double row_max = room.rise.row(r).maxCoeff();
    std::vector<int> columns;
    std::vector<double> values;
    for (std::int32_t c = 0; c < in_.zones(); ++c) {
      const double rise = room.rise(r, c);
      if (rise >= 0 && rise <= drop_below_ * row_max) continue;
      columns.push_back(first_power_column_ + c);
      values.push_back(rise);
    }
    lp_.addRow(int(columns.size()), columns.data(), values.data(), -COIN_DBL_MAX, inlet_limit(r));
    thermal_row_of_zone_[std::size_t(r)] = lp_.numberRows() - 1;
    ++thermal_rows_;
  }

  double solve_relaxation() {
    if (solved_) {
      lp_.dual();  // only bounds and one row changed: the last basis stays nearly dual feasible
    } else {
      lp_.primal();  // from the slack basis, which is primal feasible (every x = 0)
      solved_ = true;
    }
    if (lp_.status() != 0 && lp_.status() != 1) {
      lp_.allSlackBasis(true);
      lp_.dual();
    }
    if (lp_.status() == 1) return -std::numeric_limits<double>::infinity();
    if (lp_.status() != 0) {
      throw SimulationError("rate-based bound: Clp did not solve the LP (status " + std::to_string(lp_.status()) + ")");
    }
    return -lp_.objectiveValue();
  }

  static constexpr std::size_t kRowsPerRound = 64;
  /// Rounding allowed to the idle check (K, and relative W): only ever in favour of solving.
  static constexpr double kIdleSlack = 1e-9;
  /// An inlet this far above its limit counts as met. Only when to stop depends on it, not
  /// validity: every value returned is the optimum of a relaxation of the LP.
  static constexpr double kInletToleranceK = 1e-7;

  const RateInstance& in_;
  double drop_below_;
  ClpSimplex lp_;
  std::int32_t rate_row_ = 0, zone_row_ = 0, power_row_ = 0;
  std::int32_t first_power_column_ = 0;
  std::vector<int> thermal_row_of_zone_;  ///< its LP row, -1 until generated
  std::int32_t thermal_rows_ = 0;
  Eigen::VectorXd zone_static_, idle_rise_;  ///< S per zone, rise . S
  bool monotone_ = false;                    ///< rise >= 0 and removal >= 0 (idle_meets' premise)
  double a_ = 0;
  bool solved_ = false;
};

struct Interval {
  double a, b, value;
};

/// LP values this close (relative) count as equal: the stop on a plateau loses no more.
constexpr double kPlateauTolerance = 1e-9;

}  // namespace

RewardBound rate_reward_bound(const RateInstance& in, const BoundOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  if (o.initial_intervals < 1 || o.max_lps < o.initial_intervals || !(o.min_width_k > 0) ||
      !(o.drop_below >= 0 && o.drop_below < 1) || o.colocation_levels < 0) {
    throw InputError("rate-based bound: at least one interval, max_lps >= initial_intervals, a positive width and "
                     "drop_below in [0, 1) and colocation_levels >= 0");
  }
  RewardBound out;
  const auto done = [&] {
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
  };
  Eigen::VectorXd zone_static = Eigen::VectorXd::Zero(in.zones());
  for (std::int32_t j = 0; j < in.nodes(); ++j) zone_static(in.node_zone[std::size_t(j)]) += in.node_static_w[std::size_t(j)];
  const RoomLoad idle(in, zone_static);
  const double lo = in.config.crac_out_min_c, hi = idle.highest_crac_out_c() + 1e-6;
  if (hi < lo) return done();
  BoundLp lp(in, o.drop_below, o.colocation_levels, o.lazy_inlet_rows);
  const auto solve = [&](double a, double b) {
    const Interval i{a, b, lp.solve(a, b)};
    ++out.lps;
    if (o.on_lp) o.on_lp(a, b, i.value, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return i;
  };
  std::vector<Interval> intervals;
  for (std::int32_t k = 0; k < o.initial_intervals; ++k) {
    intervals.push_back(solve(lo + (hi - lo) * k / o.initial_intervals, lo + (hi - lo) * (k + 1) / o.initial_intervals));
  }
  const auto by_value = [](const Interval& x, const Interval& y) { return x.value < y.value; };
  std::int32_t splits = 0;
  while (o.initial_intervals + 2 * (splits + 1) <= o.max_lps) {
    auto top = std::max_element(intervals.begin(), intervals.end(), by_value);
    if (!std::isfinite(top->value) || top->b - top->a < o.min_width_k) break;
    // Every interval [a', b'] holding t relaxes the LP at the single outlet t (thermal rows at
    // a' <= t, CoP(b') >= CoP(t), min(h a', h b') <= h t), so however the range is cut, the
    // bound stays >= LP(t, t). When that equals the top value, no split can lower the bound.
    const double mid = (top->a + top->b) / 2;
    if (solve(mid, mid).value >= top->value - kPlateauTolerance * std::abs(top->value)) break;
    ++splits;
    const Interval whole = *top;
    *top = solve(whole.a, mid);
    intervals.push_back(solve(mid, whole.b));
  }
  out.thermal_rows = lp.thermal_rows();
  const Interval best = *std::max_element(intervals.begin(), intervals.end(), by_value);
  if (!std::isfinite(best.value)) return done();
  out.feasible = true;
  out.reward_rate = std::max(0.0, best.value);
  out.crac_out_low_c = best.a;
  out.crac_out_high_c = best.b;
  return done();
}

}  // namespace dcsweep
