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
// Ties go to the lower candidate index, so a decision depends only on its problem.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "dcsweep/alloc/bqp.hpp"

namespace dcsweep {
namespace {

constexpr double kGreedyBudget = 4e6;
constexpr std::size_t kPolished = 8;
constexpr double kPolishBudget = 1.6e7;

struct Choice {
  double cost;
  std::vector<std::int32_t> nodes;  ///< ascending
};

/// attach_j, the hops from candidate j to the chosen ones, is separable by axis: sum over d of
/// table_d[j's coordinate d], table_d[v] = the chosen ones' distances along d from v. Choosing or
/// dropping a candidate updates the three tables (O(axis lengths), not O(candidates)); the sums
/// are the same integers as pair by pair, so every decision is too.
class Heuristic {
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
        rows_.push_back({x, x, std::numeric_limits<double>::infinity()});
        row_axis_[0].push_back(c[0]);
        row_axis_[1].push_back(c[1]);
      }
      Row& row = rows_.back();
      row.end = x + 1;
      row.linear_min = std::min(row.linear_min, p.linear[std::size_t(x)]);
    }
    nonnegative_ = p.pair_weight >= 0 && std::all_of(p.linear.begin(), p.linear.end(), [](double c) { return c >= 0; });
    row_bound_.resize(rows_.size());
    row_seen_.resize(rows_.size());
    across_.resize(rows_.size());
  }

  Choice greedy(std::int32_t seed) {
    reset({});
    Choice c{p_.linear[std::size_t(seed)], {}};
    add(seed, c.nodes);
    while (std::int32_t(c.nodes.size()) < p_.pick) {
      // The least marginal, ties to the lowest index. Each row's lower bound first; the row of
      // the least bound is scanned first (its best is usually the step's), then every row in
      // candidate order whose bound can still reach the best so far. A row's bound is the larger
      // of: its least linear cost and hops; and (costs non-negative), marginals only growing as
      // nodes are added, its least linear cost + hops along the last axis when it was last
      // scanned, plus its hops along the first two now (less a margin for rounding).
      const std::int64_t least_z = *std::min_element(table_[2].begin(), table_[2].end());
      std::size_t first = 0;
      for (std::size_t r = 0; r < rows_.size(); ++r) {
        const Row& row = rows_[r];
        const std::int64_t across = table_[0][std::size_t(row_axis_[0][r])] + table_[1][std::size_t(row_axis_[1][r])];
        across_[r] = across;
        row_bound_[r] = row.linear_min + w_ * double(across + least_z);
        if (nonnegative_) {  // (with negative linear costs rounding could outgrow the margin)
          const double a = w_ * double(across), seen = row_seen_[r] + a;
          row_bound_[r] = std::max(row_bound_[r], seen - 1e-9 * (row_seen_[r] + a));
        }
        if (row_bound_[r] < row_bound_[first]) first = r;
      }
      std::int32_t best = -1;
      double best_v = std::numeric_limits<double>::infinity();
      scan_row(first, best, best_v);
      for (std::size_t r = 0; r < rows_.size(); ++r) {
        if (r != first && row_bound_[r] <= best_v) scan_row(r, best, best_v);
      }
      c.cost += best_v;
      add(best, c.nodes);
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
      for (std::size_t i = 0; i < c.nodes.size(); ++i) {
        const std::int32_t a = c.nodes[i];
        const double leave = marginal(a);  // attach(a) holds the hops to the others (hops(a, a) = 0)
        distances_from(a);
        const std::int64_t farthest_z = *std::max_element(from_[2].begin(), from_[2].end());
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
  /// Row r's candidates not chosen (chosen ones have an infinite linear cost in lin_) against the
  /// least marginal so far, ties to the lower index.
  /// Also row_seen_[r]: the least linear cost + hops along the last axis over the row now.
  void scan_row(std::size_t r, std::int32_t& best, double& best_v) {
    const Row& row = rows_[r];
    const std::int64_t across = across_[r];
    const std::int64_t* t2 = table_[2].data();
    const std::int32_t* z = axis_[2].data();
    const double* lin = lin_.data();
    double seen = std::numeric_limits<double>::infinity();
    for (std::int32_t x = row.begin; x < row.end; ++x) {
      const double v = lin[x] + w_ * double(across + t2[z[x]]);
      seen = std::min(seen, lin[x] + w_ * double(t2[z[x]]));
      if (v < best_v || (v == best_v && x < best)) best_v = v, best = x;
    }
    row_seen_[r] = seen;
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
    lin_ = p_.linear;
    for (std::size_t r = 0; r < rows_.size(); ++r) row_seen_[r] = rows_[r].linear_min;
    std::vector<std::int32_t> scratch;
    for (const std::int32_t a : nodes) add(a, scratch);
  }

  void add(std::int32_t a, std::vector<std::int32_t>& nodes) {
    lin_[std::size_t(a)] = std::numeric_limits<double>::infinity();
    attach_tables(a, 1);
    nodes.push_back(a);
  }

  void swap(std::vector<std::int32_t>& nodes, std::size_t out, std::int32_t in) {
    const std::int32_t a = nodes[out];
    lin_[std::size_t(a)] = p_.linear[std::size_t(a)];
    attach_tables(a, -1);
    lin_[std::size_t(in)] = std::numeric_limits<double>::infinity();
    attach_tables(in, 1);
    nodes[out] = in;
  }

  const BqpProblem& p_;
  std::int32_t size_;
  double w_;
  std::array<std::vector<std::int64_t>, 3> table_, from_;
  std::array<std::vector<std::int32_t>, 3> axis_;  ///< each candidate's coordinate per axis
  std::vector<double> marginal_;                   ///< polish: every candidate's, once per pass
  /// Runs of candidates (in index order) on one line along the last axis: a lower bound over a
  /// run decides whether its candidates are looked at (the same ones win, ties included).
  struct Row {
    std::int32_t begin, end;
    double linear_min;
  };
  std::vector<Row> rows_;
  std::array<std::vector<std::int32_t>, 2> row_axis_;  ///< each row's coordinates along the first two axes
  std::vector<double> row_least_;  ///< polish: the least marginal per row, once per pass
  std::vector<double> lin_;        ///< linear cost per candidate, infinite for the chosen ones
  bool nonnegative_ = true;        ///< every linear cost and the pair weight >= 0
  std::vector<double> row_bound_;  ///< greedy: per row, a lower bound of its marginals
  std::vector<double> row_seen_;   ///< greedy: per row, its least linear + w hops along the last axis when last scanned
  std::vector<std::int64_t> across_;  ///< greedy: per row, its hops along the first two axes
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

std::vector<std::int32_t> bqp_solve_heuristic(const BqpProblem& problem) {
  if (problem.pick >= problem.size()) {
    std::vector<std::int32_t> all(static_cast<std::size_t>(problem.size()));
    for (std::int32_t a = 0; a < problem.size(); ++a) all[std::size_t(a)] = a;
    return all;
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
