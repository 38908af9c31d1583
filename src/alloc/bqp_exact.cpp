// The exact BQP solve: depth-first branch and bound over the candidates, each either chosen or
// excluded. With S chosen so far (k nodes), R undecided and m = n - k nodes still to choose,
// any completion T (m nodes of R) costs
//
//   cost(S) + sum over j in T of [linear_j + w attach_j] + w sum over pairs of T of hops
//   attach_j = sum over i in S of hops(i, j),   w = pair_weight,
//
// and sum over pairs of T of hops = 1/2 sum over j in T of (hops from j to the other m - 1)
// >= 1/2 sum over j in T of low_j, low_j the sum of the m - 1 smallest hops from j to R \ {j}
// (Gilmore-Lawler). So with g_j = linear_j + w attach_j + w/2 low_j, cost(S) plus the m smallest
// g_j bounds every completion from below: a node is pruned when that reaches the incumbent.
// Hops are small integers, so low_j comes from a per-candidate histogram of the hops to R,
// updated in O(|R|) as a candidate leaves R. Branch on the candidate with the least g_j,
// chosen first. With m = 1 the bound is exact (low = 0): the best single node closes the node.
#include <algorithm>
#include <cmath>
#include <limits>

#include "dcsweep/alloc/bqp.hpp"

namespace dcsweep {
namespace {

class BranchAndBound {
 public:
  explicit BranchAndBound(const BqpProblem& p) : p_(p), size_(p.size()), w_(p.pair_weight) {
    hop_.resize(std::size_t(size_) * std::size_t(size_));
    for (std::int32_t a = 0; a < size_; ++a) {
      for (std::int32_t b = 0; b < size_; ++b) {
        hop_[index(a, b)] = p.hops(a, b);
        max_hop_ = std::max(max_hop_, hop_[index(a, b)]);
      }
    }
    bins_ = max_hop_ + 1;
    hist_.assign(std::size_t(size_) * std::size_t(bins_), 0);
    for (std::int32_t a = 0; a < size_; ++a) {
      for (std::int32_t b = 0; b < size_; ++b) {
        if (a != b) ++hist_[std::size_t(a) * std::size_t(bins_) + std::size_t(hop(a, b))];
      }
    }
    state_.assign(std::size_t(size_), kUndecided);
    attach_.assign(std::size_t(size_), 0);
  }

  std::vector<std::int32_t> solve(std::span<const std::int32_t> incumbent) {
    if (!incumbent.empty()) {
      best_cost_ = p_.cost(incumbent);
      best_.assign(incumbent.begin(), incumbent.end());
    }
    search(0.0, size_);
    std::sort(best_.begin(), best_.end());
    return best_;
  }

 private:
  static constexpr std::uint8_t kUndecided = 0, kChosen = 1, kExcluded = 2;

  std::size_t index(std::int32_t a, std::int32_t b) const { return std::size_t(a) * std::size_t(size_) + std::size_t(b); }
  std::int32_t hop(std::int32_t a, std::int32_t b) const { return hop_[index(a, b)]; }
  std::int32_t remaining() const { return p_.pick - static_cast<std::int32_t>(chosen_.size()); }

  /// Pruning keeps a node only if it can beat the incumbent by more than rounding.
  bool beats(double cost) const { return cost < best_cost_ - 1e-10 * (std::abs(best_cost_) + 1e-300); }

  void record(double cost, std::span<const std::int32_t> extra) {
    if (!best_.empty() && !beats(cost)) return;
    best_cost_ = cost;
    best_ = chosen_;
    best_.insert(best_.end(), extra.begin(), extra.end());
  }

  /// The sum of the q smallest hops from `a` to the undecided candidates other than itself.
  double low_sum(std::int32_t a, std::int32_t q) const {
    const std::int32_t* h = &hist_[std::size_t(a) * std::size_t(bins_)];
    std::int64_t sum = 0;
    for (std::int32_t d = 0; d < bins_ && q > 0; ++d) {
      const std::int32_t take = std::min(q, h[d]);
      sum += std::int64_t(take) * d;
      q -= take;
    }
    return double(sum);
  }

  void leave_undecided(std::int32_t a, std::int32_t delta) {
    for (std::int32_t b = 0; b < size_; ++b) {
      if (b != a && state_[std::size_t(b)] == kUndecided) hist_[std::size_t(b) * std::size_t(bins_) + std::size_t(hop(a, b))] += delta;
    }
  }

  double choose(std::int32_t a, std::int32_t sign) {
    for (std::int32_t b = 0; b < size_; ++b) attach_[std::size_t(b)] += sign * hop(a, b);
    if (sign > 0) chosen_.push_back(a); else chosen_.pop_back();
    return p_.linear[std::size_t(a)] + w_ * double(attach_[std::size_t(a)]);  // attach_[a] excludes a itself (0)
  }

  void close_all(double cost, std::int32_t undecided);
  double bound(double cost, std::int32_t m, std::int32_t& pick, double& pick_g);
  void search(double cost, std::int32_t undecided);

  const BqpProblem& p_;
  std::int32_t size_;
  double w_;
  std::vector<std::int32_t> hop_;
  std::int32_t max_hop_ = 0, bins_ = 1;
  std::vector<std::int32_t> hist_;  ///< per candidate: how many undecided others lie at each hop distance
  std::vector<std::uint8_t> state_;
  std::vector<std::int64_t> attach_;
  std::vector<std::int32_t> chosen_;
  std::vector<std::int32_t> best_;
  double best_cost_ = std::numeric_limits<double>::infinity();
  std::vector<double> g_scratch_;
};

/// Every undecided candidate is needed: take them all.
void BranchAndBound::close_all(double cost, std::int32_t undecided) {
  std::vector<std::int32_t> rest;
  rest.reserve(std::size_t(undecided));
  for (std::int32_t a = 0; a < size_; ++a) {
    if (state_[std::size_t(a)] == kUndecided) rest.push_back(a);
  }
  std::int64_t pairs = 0;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    cost += p_.linear[std::size_t(rest[i])] + w_ * double(attach_[std::size_t(rest[i])]);
    for (std::size_t j = i + 1; j < rest.size(); ++j) pairs += hop(rest[i], rest[j]);
  }
  record(cost + w_ * double(pairs), rest);
}

/// The least g over the undecided candidates into `pick` (ties: the lower index), and the lower
/// bound cost + the m least g.
double BranchAndBound::bound(double cost, std::int32_t m, std::int32_t& pick, double& pick_g) {
  std::vector<double>& g = g_scratch_;  // shared by every depth: used only before branching
  g.clear();
  pick = -1;
  pick_g = std::numeric_limits<double>::infinity();
  for (std::int32_t a = 0; a < size_; ++a) {
    if (state_[std::size_t(a)] != kUndecided) continue;
    const double ga = p_.linear[std::size_t(a)] + w_ * (double(attach_[std::size_t(a)]) + 0.5 * low_sum(a, m - 1));
    if (ga < pick_g) pick_g = ga, pick = a;
    g.push_back(ga);
  }
  std::nth_element(g.begin(), g.begin() + (m - 1), g.end());
  for (std::int32_t i = 0; i < m; ++i) cost += g[std::size_t(i)];
  return cost;
}

void BranchAndBound::search(double cost, std::int32_t undecided) {
  const std::int32_t m = remaining();
  if (m == 0) return record(cost, {});
  if (undecided < m) return;
  if (undecided == m) return close_all(cost, undecided);
  std::int32_t pick;
  double pick_g;
  const double lower = bound(cost, m, pick, pick_g);
  if (m == 1) return record(cost + pick_g, std::span<const std::int32_t>(&pick, 1));  // exact: no pairs left
  if (!best_.empty() && !beats(lower)) return;
  // Branch: `pick` chosen, then excluded (its removal from R is the same in both branches).
  state_[std::size_t(pick)] = kChosen;
  leave_undecided(pick, -1);
  const double added = choose(pick, +1);
  search(cost + added, undecided - 1);
  choose(pick, -1);
  state_[std::size_t(pick)] = kExcluded;
  search(cost, undecided - 1);
  state_[std::size_t(pick)] = kUndecided;
  leave_undecided(pick, +1);
}

}  // namespace

std::int64_t BqpProblem::pair_hops(std::span<const std::int32_t> chosen) const {
  std::int64_t sum = 0;
  if (chosen.size() <= 64) {  // pair by pair
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      for (std::size_t j = i + 1; j < chosen.size(); ++j) sum += hops(chosen[i], chosen[j]);
    }
    return sum;
  }
  // Hops are separable by axis: the same sum from each axis' histogram of coordinates, O(n + L).
  for (int d = 0; d < 3; ++d) {
    AxisHistogram axis;
    axis.wrap = wrap[std::size_t(d)];
    std::int32_t extent = std::max(axis.wrap, 1);
    for (const std::int32_t a : chosen) extent = std::max(extent, coordinate[std::size_t(a)][std::size_t(d)] + 1);
    axis.count.assign(std::size_t(extent), 0);
    for (const std::int32_t a : chosen) ++axis.count[std::size_t(coordinate[std::size_t(a)][std::size_t(d)])];
    sum += axis_pair_distance_sum(axis);
  }
  return sum;
}

double BqpProblem::cost(std::span<const std::int32_t> chosen) const {
  double sum = pair_weight * double(pair_hops(chosen));
  for (const std::int32_t a : chosen) sum += linear[std::size_t(a)];
  return sum;
}

std::vector<std::int32_t> bqp_solve_exact(const BqpProblem& problem, std::span<const std::int32_t> incumbent) {
  return BranchAndBound(problem).solve(incumbent);
}

}  // namespace dcsweep
