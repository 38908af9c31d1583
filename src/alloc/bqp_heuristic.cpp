// The fast BQP solve: greedy construction from several seeds, then swap local search.
// - Greedy from a seed: repeatedly add the candidate whose marginal cost, linear_j + w attach_j
//   (attach_j: hops from j to the nodes chosen so far), is least. O(n x candidates) per seed.
// - Seeds: every candidate while that costs at most kGreedyBudget candidate evaluations in all;
//   above, the candidates with the least linear cost (the coolest) and as many spread evenly
//   in id order (ids run rack by rack, so they spread over the room and the network).
// - The kPolished best distinct greedy results are improved by best-improvement swaps (one
//   chosen node out, one other candidate in) until no swap lowers the cost, or each has used
//   its share of kPolishBudget swap evaluations (large jobs on large rooms: a pass costs
//   n x candidates).
// - Where every row (the candidates of one line along the last axis) has one linear cost (the
//   allocator's rooms: a row lies in one zone), a greedy step needs no bounds: a row's least
//   marginal is at its unchosen candidate of least hops along the last axis (the lowest such),
//   found from the last axis' coordinates in that order (one order per step) and the row's
//   unchosen ones as bits; then O(1) a row instead of a scan (intrepid's jobs of 20,000 nodes).
// Ties go to the lower candidate index, so a decision depends only on its problem.
#include <algorithm>
#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include "dcsweep/alloc/bqp.hpp"

namespace dcsweep {
namespace {

constexpr double kGreedyBudget = 4e6;
constexpr std::size_t kPolished = 8;
constexpr double kPolishBudget = 1.6e7;

/// The index of the first least of values[0 .. n) (n > 0, no NaN), as std::min_element's, by a
/// minimum in lanes (which the compiler vectorizes) and a search for it.
std::size_t first_least(const double* values, std::size_t n) {
  constexpr std::size_t lanes = 8;
  std::array<double, lanes> least;
  least.fill(std::numeric_limits<double>::infinity());
  std::size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    for (std::size_t j = 0; j < lanes; ++j) least[j] = values[i + j] < least[j] ? values[i + j] : least[j];
  }
  for (; i < n; ++i) least[0] = values[i] < least[0] ? values[i] : least[0];
  const double m = *std::min_element(least.begin(), least.end());
  std::size_t at = 0;
  while (at + 1 < n && values[at] != m) ++at;
  return at;
}

struct Choice {
  double cost;
  std::vector<std::int32_t> nodes;  ///< ascending
};

/// attach_j, the hops from candidate j to the chosen ones, is separable by axis: sum over d of
/// table_d[j's coordinate d], table_d[v] = the chosen ones' distances along d from v. Choosing or
/// dropping a candidate updates the three tables (O(axis lengths), not O(candidates)); the sums
/// are the same integers as pair by pair, so every decision is too.
class Heuristic {
  struct Plane;

 public:
  explicit Heuristic(const BqpProblem& p) : p_(p), size_(p.size()), w_(p.pair_weight) {
    for (int d = 0; d < 3; ++d) {
      std::int32_t extent = 1;
      for (const auto& c : p.coordinate) extent = std::max(extent, c[d] + 1);
      if (p.wrap[d] > 0) extent = std::max(extent, p.wrap[d]);
      table_[d].assign(std::size_t(extent), 0);
      from_[d].assign(std::size_t(extent), 0);
      axis_[d].resize(std::size_t(size_));
      for (std::int32_t x = 0; x < size_; ++x) axis_[d][std::size_t(x)] = p.coordinate[std::size_t(x)][d];
    }
    for (std::int32_t x = 0; x < size_; ++x) {
      const auto& c = p.coordinate[std::size_t(x)];
      if (rows_.empty() || c[0] != row_axis_[0].back() || c[1] != row_axis_[1].back()) {
        rows_.push_back({x, x});
        row_linear_min_.push_back(std::numeric_limits<double>::infinity());
        row_axis_[0].push_back(c[0]);
        row_axis_[1].push_back(c[1]);
      }
      rows_.back().end = x + 1;
      row_linear_min_.back() = std::min(row_linear_min_.back(), p.linear[std::size_t(x)]);
    }
    nonnegative_ = p.pair_weight >= 0 && std::all_of(p.linear.begin(), p.linear.end(), [](double c) { return c >= 0; });
    row_bound_.resize(rows_.size());
    row_seen_.resize(rows_.size());
    std::int32_t longest = 0;
    for (const Row& row : rows_) longest = std::max(longest, row.end - row.begin);
    value_.resize(std::size_t(longest));
    across_.resize(rows_.size());
    open_.resize(rows_.size());
    for (std::uint32_t r = 0; r < rows_.size(); ++r) {
      if (planes_.empty() || row_axis_[0][r] != planes_.back().x) {
        planes_.push_back({r, r, std::numeric_limits<double>::infinity(), row_axis_[0][r]});
      }
      planes_.back().row_end = r + 1;
      planes_.back().linear_min = std::min(planes_.back().linear_min, row_linear_min_[r]);
    }
    plane_bound_.resize(planes_.size());
    for (int d = 0; d < 2; ++d) hops_[d].resize(table_[d].size());
    // Rows of one linear cost each, their candidates ascending along the last axis, at most 64
    // coordinates along it: the greedy's steps by rows (greedy_by_rows).
    uniform_rows_ = w_ > 0 && table_[2].size() <= 64;
    for (std::size_t r = 0; r < rows_.size() && uniform_rows_; ++r) {
      std::uint64_t bits = 0;
      for (std::int32_t x = rows_[r].begin; x < rows_[r].end; ++x) {
        const std::uint64_t bit = std::uint64_t{1} << axis_[2][std::size_t(x)];
        uniform_rows_ = uniform_rows_ && p.linear[std::size_t(x)] == p.linear[std::size_t(rows_[r].begin)] && bit > bits;
        bits |= bit;
      }
      row_bits_.push_back(bits);
    }
    if (!uniform_rows_) row_bits_.clear();
    z_order_.resize(table_[2].size());
  }

  Choice greedy(std::int32_t seed) {
    if (uniform_rows_ && exact_by_hops()) return greedy_by_rows(seed);
    reset({});
    Choice c{p_.linear[std::size_t(seed)], {}};
    add(seed, c.nodes);
    while (std::int32_t(c.nodes.size()) < p_.pick) {
      // The least marginal, ties to the lowest index, over rows (one line along the last axis)
      // in planes (rows of one coordinate along the first axis), each bounded from below. A
      // plane's bound: its least linear cost and hops with the least along the second and last
      // axes. A row's, the larger of: its least linear cost and hops; and (costs non-negative),
      // marginals only growing as nodes are added, its least linear cost + hops along the last
      // axis when it was last scanned, plus its hops along the first two now (less a margin for
      // rounding). The plane of the least bound first and in it the row of the least bound (its
      // best is usually the step's), then every plane and row whose bound can still reach the
      // best so far; the order does not change the result (the least value, then the lowest index).
      // (Loops without branches, which the compiler vectorizes; the hops are exact in doubles.)
      const double least_z = double(*std::min_element(table_[2].begin(), table_[2].end()));
      bound_planes(least_z);
      const std::size_t planes = planes_.size();
      const std::size_t first_plane = first_least(plane_bound_.data(), planes);
      bound_rows(planes_[first_plane], least_z);
      const std::uint32_t begin = planes_[first_plane].row_begin;
      const std::size_t first = begin + first_least(row_bound_.data() + begin, planes_[first_plane].row_end - begin);
      std::int32_t best = -1;
      double best_v = std::numeric_limits<double>::infinity();
      scan_row(first, best, best_v);
      row_bound_[first] = std::numeric_limits<double>::infinity();
      for (std::size_t q = 0; q < planes; ++q) {
        if (q != first_plane) {
          if (plane_bound_[q] > best_v) continue;
          bound_rows(planes_[q], least_z);
        }
        std::size_t open = 0;  // the plane's rows that can still win, in order
        for (std::uint32_t r = planes_[q].row_begin; r < planes_[q].row_end; ++r) {
          open_[open] = r, open += row_bound_[r] <= best_v;
        }
        for (std::size_t i = 0; i < open; ++i) {
          if (row_bound_[open_[i]] <= best_v) scan_row(open_[i], best, best_v);
        }
      }
      c.cost += best_v;
      add(best, c.nodes);
    }
    std::sort(c.nodes.begin(), c.nodes.end());
    return c;
  }

  /// greedy()'s choice where every row has one linear cost (uniform_rows_). In a row the
  /// marginals differ only by the hops along the last axis, so its least is at the unchosen
  /// candidate whose coordinate comes first in z_order_ (by those hops, then coordinate: the lower
  /// index on ties), and the step's choice is the least over rows (then the lower index), each
  /// marginal summed as scan_row sums it. Planes are skipped by their bounds as in greedy().
  Choice greedy_by_rows(std::int32_t seed) {
    reset({});
    unchosen_ = row_bits_;
    std::iota(z_order_.begin(), z_order_.end(), std::uint8_t{0});
    Choice c{p_.linear[std::size_t(seed)], {}};
    add(seed, c.nodes);
    unchosen_[row_of(seed)] &= ~(std::uint64_t{1} << axis_[2][std::size_t(seed)]);
    const std::int64_t* t2 = table_[2].data();
    while (std::int32_t(c.nodes.size()) < p_.pick) {
      // z_order_ by (hops, coordinate), from the last step's order (insertion: few moves a step)
      for (std::size_t i = 1; i < z_order_.size(); ++i) {
        const std::uint8_t z = z_order_[i];
        std::size_t j = i;
        for (; j > 0 && (t2[z_order_[j - 1]] > t2[z] || (t2[z_order_[j - 1]] == t2[z] && z_order_[j - 1] > z)); --j) {
          z_order_[j] = z_order_[j - 1];
        }
        z_order_[j] = z;
      }
      bound_planes(double(t2[z_order_[0]]));
      std::int32_t best = -1;
      double best_v = std::numeric_limits<double>::infinity();
      auto visit = [&](const Plane& plane) {
        const double x = hops_[0][std::size_t(plane.x)];
        for (std::uint32_t r = plane.row_begin; r < plane.row_end; ++r) {
          const std::uint64_t bits = unchosen_[r];
          if (bits == 0) continue;
          std::size_t i = 0;
          while (!((bits >> z_order_[i]) & 1)) ++i;
          const std::uint8_t z = z_order_[i];
          const double across = x + hops_[1][std::size_t(row_axis_[1][r])];
          const double v = row_linear_min_[r] + w_ * (across + double(t2[z]));
          if (v > best_v) continue;
          const std::int32_t at =
              rows_[r].begin + std::popcount(row_bits_[r] & ((std::uint64_t{1} << z) - 1));
          if (v < best_v || at < best) best_v = v, best = at;
        }
      };
      const std::size_t first_plane = first_least(plane_bound_.data(), planes_.size());
      visit(planes_[first_plane]);
      for (std::size_t q = 0; q < planes_.size(); ++q) {
        if (q != first_plane && plane_bound_[q] <= best_v) visit(planes_[q]);
      }
      c.cost += best_v;
      add(best, c.nodes);
      unchosen_[row_of(best)] &= ~(std::uint64_t{1} << axis_[2][std::size_t(best)]);
    }
    std::sort(c.nodes.begin(), c.nodes.end());
    return c;
  }

  void polish(Choice& c) {
    reset(c.nodes);
    const double tolerance = 1e-12 * (std::abs(c.cost) + 1);
    const double per_pass = double(p_.pick) * double(size_ - p_.pick);
    for (double spent = 0; spent + per_pass <= std::max(kPolishBudget / kPolished, per_pass); spent += per_pass) {
      double best_delta = -tolerance;
      std::size_t out = 0;
      std::int32_t in = -1;
      // Every candidate's marginal, infinite for the chosen ones (never swapped in).
      marginal_.resize(std::size_t(size_));
      for (std::int32_t b = 0; b < size_; ++b) marginal_[std::size_t(b)] = lin_[std::size_t(b)] + w_ * double(attach(b));
      row_least_.clear();
      for (const Row& row : rows_) {
        row_least_.push_back(*std::min_element(marginal_.begin() + row.begin, marginal_.begin() + row.end));
      }
      const double least = *std::min_element(row_least_.begin(), row_least_.end());
      for (std::size_t i = 0; i < c.nodes.size(); ++i) {
        const std::int32_t a = c.nodes[i];
        const double leave = marginal(a);  // attach(a) holds the hops to the others (hops(a, a) = 0)
        distances_from(a);
        const std::int64_t farthest_z = *std::max_element(from_[2].begin(), from_[2].end());
        if (w_ >= 0) {
          // Below every row's bound (a row's least marginal is at least `least`, its hops from a at
          // most the farthest along each axis, rounding monotone): a node none of whose swaps can
          // win is passed over without its rows. (Summed in the row bound's order, which keeps it
          // at most each of them to the bit.)
          const std::int64_t farthest = *std::max_element(from_[0].begin(), from_[0].end()) +
                                        *std::max_element(from_[1].begin(), from_[1].end()) + farthest_z;
          if (least - w_ * double(farthest) - leave >= best_delta) continue;
        }
        const std::int64_t *f0 = from_[0].data(), *f1 = from_[1].data(), *f2 = from_[2].data();
        const std::int32_t *r0 = row_axis_[0].data(), *r1 = row_axis_[1].data(), *z = axis_[2].data();
        for (std::size_t r = 0; r < rows_.size(); ++r) {  // a row whose best swap cannot win is skipped
          row_bound_[r] = row_least_[r] - w_ * double(f0[r0[r]] + f1[r1[r]] + farthest_z) - leave;
        }
        for (std::size_t r = 0; r < rows_.size(); ++r) {
          if (row_bound_[r] >= best_delta) continue;
          const Row& row = rows_[r];
          const std::int64_t across = f0[r0[r]] + f1[r1[r]];
          for (std::int32_t b = row.begin; b < row.end; ++b) {
            const double delta = marginal_[std::size_t(b)] - w_ * double(across + f2[z[b]]) - leave;
            if (delta < best_delta) best_delta = delta, out = i, in = b;
          }
        }
      }
      if (in < 0) break;
      swap(c.nodes, out, in);
    }
    std::sort(c.nodes.begin(), c.nodes.end());
    c.cost = p_.cost(c.nodes);
  }

 private:
  /// A greedy step's hops_ (table_[0] and table_[1] as doubles) and plane_bound_: each plane's
  /// least linear cost and hops with the least along the other two axes (`least_z`: table_[2]'s).
  void bound_planes(double least_z) {
    for (int d = 0; d < 2; ++d) {
      for (std::size_t v = 0; v < table_[d].size(); ++v) hops_[d][v] = double(table_[d][v]);
    }
    const double least_y = *std::min_element(hops_[1].begin(), hops_[1].end());
    for (std::size_t q = 0; q < planes_.size(); ++q) {
      plane_bound_[q] = planes_[q].linear_min + w_ * (hops_[0][std::size_t(planes_[q].x)] + least_y + least_z);
    }
  }

  /// row_bound_ and across_ of the plane's rows (see greedy), from hops_ and row_seen_.
  void bound_rows(const Plane& plane, double least_z) {
    const double *__restrict h0 = hops_[0].data(), *__restrict h1 = hops_[1].data(), *__restrict seen = row_seen_.data();
    const std::int32_t* __restrict r1 = row_axis_[1].data();
    const double* __restrict linear_min = row_linear_min_.data();
    double *__restrict across = across_.data(), *__restrict bound = row_bound_.data();
    const double x = h0[plane.x];
    for (std::uint32_t r = plane.row_begin; r < plane.row_end; ++r) {
      across[r] = x + h1[r1[r]];
      bound[r] = linear_min[r] + w_ * (across[r] + least_z);
    }
    if (nonnegative_) {  // (with negative linear costs rounding could outgrow the margin)
      for (std::uint32_t r = plane.row_begin; r < plane.row_end; ++r) {
        const double since = seen[r] + w_ * across[r];
        bound[r] = std::max(bound[r], since - 1e-9 * since);
      }
    }
  }

  /// Row r's candidates not chosen (chosen ones have an infinite linear cost in lin_) against the
  /// least marginal so far, ties to the lower index; also row_seen_[r]: the least linear cost +
  /// hops along the last axis over the row now.
  /// Two passes: every marginal and the least ones in lanes (which the compiler vectorizes), then
  /// the row's first least marginal, only where it can win.
  void scan_row(std::size_t r, std::int32_t& best, double& best_v) {
    const Row& row = rows_[r];
    const double across = across_[r];
    const std::int64_t* t2 = table_[2].data();
    const std::int32_t* z = axis_[2].data() + row.begin;
    const double* lin = lin_.data() + row.begin;
    const std::int32_t n = row.end - row.begin;
    double* value = value_.data();
    constexpr double inf = std::numeric_limits<double>::infinity();
    constexpr std::int32_t lanes = 8;
    std::array<double, lanes> least, seen;
    least.fill(inf), seen.fill(inf);
    std::int32_t i = 0;
    for (; i + lanes <= n; i += lanes) {
      for (std::int32_t j = 0; j < lanes; ++j) {
        const double t = double(t2[z[i + j]]);
        const double v = lin[i + j] + w_ * (across + t), s = lin[i + j] + w_ * t;
        value[i + j] = v;
        least[std::size_t(j)] = v < least[std::size_t(j)] ? v : least[std::size_t(j)];
        seen[std::size_t(j)] = s < seen[std::size_t(j)] ? s : seen[std::size_t(j)];
      }
    }
    for (; i < n; ++i) {
      const double t = double(t2[z[i]]);
      const double v = lin[i] + w_ * (across + t), s = lin[i] + w_ * t;
      value[i] = v;
      least[0] = v < least[0] ? v : least[0];
      seen[0] = s < seen[0] ? s : seen[0];
    }
    double row_least = inf, row_seen = inf;
    for (std::int32_t j = 0; j < lanes; ++j) {
      row_least = std::min(row_least, least[std::size_t(j)]), row_seen = std::min(row_seen, seen[std::size_t(j)]);
    }
    row_seen_[r] = row_seen;
    if (row_least > best_v || (row_least == best_v && row.begin > best)) return;
    std::int32_t at = 0;
    while (value[at] != row_least) ++at;
    if (row_least < best_v || row.begin + at < best) best_v = row_least, best = row.begin + at;
  }

  /// Whether one more hop along the last axis always gives a larger marginal in a row, rounding
  /// included: w_ well above the rounding of the largest marginal a step can sum (every table
  /// entry is at most pick x the axis' length). Else the rows are scanned (greedy()).
  bool exact_by_hops() const {
    double most_hops = 0, most_linear = 0;
    for (const auto& table : table_) most_hops += double(p_.pick) * double(table.size());
    for (const double l : p_.linear) most_linear = std::max(most_linear, std::abs(l));
    return w_ > 64 * DBL_EPSILON * (most_linear + w_ * most_hops) && most_hops < 0x1p52;
  }
  /// The row of candidate a (rows are runs of candidate indices).
  std::size_t row_of(std::int32_t a) const {
    return std::size_t(std::upper_bound(rows_.begin(), rows_.end(), a, [](std::int32_t x, const Row& r) { return x < r.begin; }) -
                       rows_.begin()) - 1;
  }

  std::int64_t attach(std::int32_t x) const {
    return table_[0][std::size_t(axis_[0][std::size_t(x)])] + table_[1][std::size_t(axis_[1][std::size_t(x)])] +
           table_[2][std::size_t(axis_[2][std::size_t(x)])];
  }
  double marginal(std::int32_t x) const { return p_.linear[std::size_t(x)] + w_ * double(attach(x)); }

  /// from_[d][v]: the distance along d from candidate a's coordinate to v.
  void distances_from(std::int32_t a) {
    for (int d = 0; d < 3; ++d) {
      const std::int32_t u = axis_[d][std::size_t(a)];
      for (std::size_t v = 0; v < from_[d].size(); ++v) from_[d][v] = axis_distance(u, std::int32_t(v), p_.wrap[d]);
    }
  }

  /// Adds (sign 1) or removes (-1) candidate a's distances to the tables.
  void attach_tables(std::int32_t a, std::int64_t sign) {
    for (int d = 0; d < 3; ++d) {
      const std::int32_t u = axis_[d][std::size_t(a)];
      for (std::size_t v = 0; v < table_[d].size(); ++v) table_[d][v] += sign * axis_distance(u, std::int32_t(v), p_.wrap[d]);
    }
  }

  void reset(std::span<const std::int32_t> nodes) {
    for (auto& table : table_) std::fill(table.begin(), table.end(), 0);
    // lin_ differs from the linear costs only where nodes were chosen since the last reset
    // (a seed's greedy chooses a few of thousands of candidates): those are restored.
    if (lin_.empty()) {
      lin_ = p_.linear;
    } else {
      for (const std::int32_t a : changed_) lin_[std::size_t(a)] = p_.linear[std::size_t(a)];
    }
    changed_.clear();
    std::copy(row_linear_min_.begin(), row_linear_min_.end(), row_seen_.begin());
    std::vector<std::int32_t> scratch;
    for (const std::int32_t a : nodes) add(a, scratch);
  }

  void add(std::int32_t a, std::vector<std::int32_t>& nodes) {
    lin_[std::size_t(a)] = std::numeric_limits<double>::infinity();
    changed_.push_back(a);
    attach_tables(a, 1);
    nodes.push_back(a);
  }

  void swap(std::vector<std::int32_t>& nodes, std::size_t out, std::int32_t in) {
    const std::int32_t a = nodes[out];
    lin_[std::size_t(a)] = p_.linear[std::size_t(a)];
    attach_tables(a, -1);
    lin_[std::size_t(in)] = std::numeric_limits<double>::infinity();
    changed_.push_back(in);
    attach_tables(in, 1);
    nodes[out] = in;
  }

  const BqpProblem& p_;
  std::int32_t size_;
  double w_;
  std::array<std::vector<std::int64_t>, 3> table_, from_;
  std::array<std::vector<std::int32_t>, 3> axis_;  ///< each candidate's coordinate per axis
  std::vector<double> marginal_;                   ///< polish: every candidate's, once per pass
  std::vector<double> value_;                      ///< greedy: a row's marginals (scan_row)
  /// Runs of candidates (in index order) on one line along the last axis: a lower bound over a
  /// run decides whether its candidates are looked at (the same ones win, ties included).
  struct Row {
    std::int32_t begin, end;
  };
  std::vector<Row> rows_;
  /// Runs of rows (in index order) with one coordinate along the first axis.
  struct Plane {
    std::uint32_t row_begin, row_end;
    double linear_min;
    std::int32_t x;  ///< the coordinate along the first axis
  };
  std::vector<Plane> planes_;
  std::vector<double> plane_bound_;  ///< greedy: per plane, a lower bound of its marginals
  std::array<std::vector<std::int32_t>, 2> row_axis_;  ///< each row's coordinates along the first two axes
  std::vector<double> row_least_;  ///< polish: the least marginal per row, once per pass
  std::vector<double> lin_;        ///< linear cost per candidate, infinite for the chosen ones
  std::vector<std::int32_t> changed_;  ///< the candidates whose lin_ was set since the last reset
  bool nonnegative_ = true;        ///< every linear cost and the pair weight >= 0
  std::vector<double> row_bound_;  ///< greedy: per row, a lower bound of its marginals
  std::vector<double> row_seen_;   ///< greedy: per row, its least linear + w hops along the last axis when last scanned
  std::vector<double> across_;        ///< greedy: per row, its hops along the first two axes
  std::vector<double> row_linear_min_;  ///< each row's least linear cost
  std::array<std::vector<double>, 2> hops_;  ///< greedy: table_[0] and table_[1] as doubles
  std::vector<std::uint32_t> open_;          ///< greedy: rows whose bound is at most the best so far
  bool uniform_rows_ = false;                ///< greedy_by_rows applies (see the constructor)
  std::vector<std::uint64_t> row_bits_;      ///< per row, its candidates' last-axis coordinates as bits
  std::vector<std::uint64_t> unchosen_;      ///< greedy_by_rows: per row, those not chosen
  std::vector<std::uint8_t> z_order_;        ///< greedy_by_rows: last-axis coordinates by (hops, coordinate)
};

std::vector<std::int32_t> seeds(const BqpProblem& p) {
  const std::int32_t size = p.size();
  std::vector<std::int32_t> all(static_cast<std::size_t>(size));
  for (std::int32_t a = 0; a < size; ++a) all[std::size_t(a)] = a;
  const double per_seed = double(size) * double(p.pick);
  if (per_seed * double(size) <= kGreedyBudget) return all;
  const auto half = static_cast<std::int32_t>(std::max(2.0, std::floor(kGreedyBudget / per_seed / 2)));
  std::vector<std::int32_t> out;
  for (std::int32_t i = 0; i < half; ++i) out.push_back(std::int32_t(std::int64_t(i) * size / half));
  std::partial_sort(all.begin(), all.begin() + std::min(half, size), all.end(), [&](std::int32_t a, std::int32_t b) {
    return p.linear[std::size_t(a)] < p.linear[std::size_t(b)] || (p.linear[std::size_t(a)] == p.linear[std::size_t(b)] && a < b);
  });
  out.insert(out.end(), all.begin(), all.begin() + std::min(half, size));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<std::int32_t> bqp_greedy(const BqpProblem& problem, std::int32_t seed, double& cost) {
  Heuristic h(problem);
  Choice c = h.greedy(seed);
  cost = c.cost;
  return c.nodes;
}

std::vector<std::int32_t> bqp_solve_heuristic(const BqpProblem& problem) {
  if (problem.pick >= problem.size()) {
    std::vector<std::int32_t> all(static_cast<std::size_t>(problem.size()));
    for (std::int32_t a = 0; a < problem.size(); ++a) all[std::size_t(a)] = a;
    return all;
  }
  if (problem.pick == 1) {
    // One node has no pairs: every seed's greedy is the seed itself and the polish keeps the
    // least linear cost, ties to the lowest index (the seeds always include it), so that node.
    // (Exactly: with pair weights of 1e4 and more the polish could move off it by rounding.)
    return {std::int32_t(first_least(problem.linear.data(), problem.linear.size()))};
  }
  Heuristic h(problem);
  std::vector<Choice> found;
  for (const std::int32_t seed : seeds(problem)) found.push_back(h.greedy(seed));
  std::sort(found.begin(), found.end(), [](const Choice& a, const Choice& b) { return a.nodes < b.nodes; });
  found.erase(std::unique(found.begin(), found.end(), [](const Choice& a, const Choice& b) { return a.nodes == b.nodes; }),
              found.end());
  std::stable_sort(found.begin(), found.end(), [](const Choice& a, const Choice& b) { return a.cost < b.cost; });
  found.resize(std::min(found.size(), kPolished));
  for (Choice& c : found) h.polish(c);
  return std::min_element(found.begin(), found.end(), [](const Choice& a, const Choice& b) { return a.cost < b.cost; })->nodes;
}

}  // namespace dcsweep
