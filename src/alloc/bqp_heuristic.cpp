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

class Heuristic {
 public:
  explicit Heuristic(const BqpProblem& p)
      : p_(p), size_(p.size()), w_(p.pair_weight), attach_(std::size_t(size_)), in_(std::size_t(size_)) {}

  Choice greedy(std::int32_t seed) {
    reset({});
    Choice c{p_.linear[std::size_t(seed)], {}};
    add(seed, c.nodes);
    while (std::int32_t(c.nodes.size()) < p_.pick) {
      std::int32_t best = -1;
      double best_v = std::numeric_limits<double>::infinity();
      for (std::int32_t x = 0; x < size_; ++x) {
        if (in_[std::size_t(x)]) continue;
        const double v = marginal(x);
        if (v < best_v) best_v = v, best = x;
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
      for (std::size_t i = 0; i < c.nodes.size(); ++i) {
        const std::int32_t a = c.nodes[i];
        const double leave = marginal(a);  // attach_[a] holds the hops to the others (hops(a, a) = 0)
        for (std::int32_t b = 0; b < size_; ++b) {
          if (in_[std::size_t(b)]) continue;
          const double delta = marginal(b) - w_ * p_.hops(a, b) - leave;
          if (delta < best_delta) best_delta = delta, out = i, in = b;
        }
      }
      if (in < 0) break;
      swap(c.nodes, out, in);
    }
    std::sort(c.nodes.begin(), c.nodes.end());
    c.cost = p_.cost(c.nodes);
  }

 private:
  double marginal(std::int32_t x) const { return p_.linear[std::size_t(x)] + w_ * double(attach_[std::size_t(x)]); }

  void reset(std::span<const std::int32_t> nodes) {
    std::fill(attach_.begin(), attach_.end(), 0);
    std::fill(in_.begin(), in_.end(), false);
    std::vector<std::int32_t> scratch;
    for (const std::int32_t a : nodes) add(a, scratch);
  }

  void add(std::int32_t a, std::vector<std::int32_t>& nodes) {
    in_[std::size_t(a)] = true;
    for (std::int32_t x = 0; x < size_; ++x) attach_[std::size_t(x)] += p_.hops(a, x);
    nodes.push_back(a);
  }

  void swap(std::vector<std::int32_t>& nodes, std::size_t out, std::int32_t in) {
    const std::int32_t a = nodes[out];
    in_[std::size_t(a)] = false;
    for (std::int32_t x = 0; x < size_; ++x) attach_[std::size_t(x)] -= p_.hops(a, x);
    in_[std::size_t(in)] = true;
    for (std::int32_t x = 0; x < size_; ++x) attach_[std::size_t(x)] += p_.hops(in, x);
    nodes[out] = in;
  }

  const BqpProblem& p_;
  std::int32_t size_;
  double w_;
  std::vector<std::int64_t> attach_;
  std::vector<bool> in_;  // (bytes trip a false stringop-overflow warning of GCC 12)
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
