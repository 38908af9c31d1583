// Task mapping: in order, or [P0]'s recursive coordinate bisection with exhaustive leaves.
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "dcsweep/comm/comm.hpp"

namespace dcsweep::comm {
namespace {

/// The task graph's mapping-dependent weights as adjacency lists (the uniform background costs
/// the same for every mapping and is left out).
using Adjacency = std::vector<std::vector<std::pair<std::int32_t, double>>>;

Adjacency adjacency(const TaskGraph& g) {
  Adjacency adj(std::size_t(g.tasks));
  auto add = [&](std::int32_t s, std::int32_t t, double w) {
    if (s >= g.tasks || t >= g.tasks || s == t) return;
    adj[std::size_t(s)].push_back({t, w});
    adj[std::size_t(t)].push_back({s, w});
  };
  for (const TaskGraph::Edge& e : g.edges) add(e.s, e.t, e.w);
  for (std::int32_t s = 0; s < g.group; ++s) {
    for (std::int32_t t = s + 1; t < g.group; ++t) add(s, t, g.group_weight);
  }
  return adj;
}

struct Mapper {
  const Platform& platform;
  const Adjacency& adj;
  bool prune;
  std::vector<NodeId> node_of;  ///< per task
  std::vector<std::pair<std::vector<std::int32_t>, std::vector<NodeId>>> leaves;

  /// Nodes split along their widest network dimension, at the median (ties by the other
  /// coordinates, then id, so the split is deterministic).
  void split_nodes(std::vector<NodeId>& nodes) const {
    std::array<std::int32_t, 3> lo{INT32_MAX, INT32_MAX, INT32_MAX}, hi{INT32_MIN, INT32_MIN, INT32_MIN};
    for (const NodeId n : nodes) {
      const auto c = platform.coordinate(n);
      for (std::size_t d = 0; d < 3; ++d) {
        lo[d] = std::min(lo[d], c[d]);
        hi[d] = std::max(hi[d], c[d]);
      }
    }
    std::size_t wide = 0;
    for (std::size_t d = 1; d < 3; ++d) wide = hi[d] - lo[d] > hi[wide] - lo[wide] ? d : wide;
    std::sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) {
      auto ca = platform.coordinate(a), cb = platform.coordinate(b);
      std::rotate(ca.begin(), ca.begin() + std::ptrdiff_t(wide), ca.end());
      std::rotate(cb.begin(), cb.begin() + std::ptrdiff_t(wide), cb.end());
      return ca != cb ? ca < cb : a < b;
    });
  }

  /// The first `size_a` of `tasks` become one side of a small edge cut: grown greedily from the
  /// lowest task by strongest connection, then improved by the best swaps (Kernighan-Lin).
  void split_tasks(std::vector<std::int32_t>& tasks, std::size_t size_a) const {
    std::vector<char> side(node_of.size(), 2);  // 2: not in this set
    for (const std::int32_t t : tasks) side[std::size_t(t)] = 1;
    std::vector<double> pull(node_of.size(), 0.0);
    std::vector<std::int32_t> a;
    while (a.size() < size_a) {
      std::int32_t best = -1;
      for (const std::int32_t t : tasks) {
        if (side[std::size_t(t)] == 1 && (best < 0 || pull[std::size_t(t)] > pull[std::size_t(best)])) best = t;
      }
      side[std::size_t(best)] = 0;
      a.push_back(best);
      for (const auto& [u, w] : adj[std::size_t(best)]) pull[std::size_t(u)] += w;
    }
    if (tasks.size() <= 512) improve(tasks, side);
    std::stable_partition(tasks.begin(), tasks.end(), [&](std::int32_t t) { return side[std::size_t(t)] == 0; });
  }

  /// Swaps the pair that lowers the cut most, while one does (at most 16 swaps).
  void improve(const std::vector<std::int32_t>& tasks, std::vector<char>& side) const {
    for (int round = 0; round < 16; ++round) {
      std::vector<double> gain(node_of.size(), 0.0);  // external minus internal weight
      for (const std::int32_t t : tasks) {
        for (const auto& [u, w] : adj[std::size_t(t)]) {
          if (side[std::size_t(u)] == 2) continue;
          gain[std::size_t(t)] += side[std::size_t(u)] != side[std::size_t(t)] ? w : -w;
        }
      }
      double best = 1e-12;
      std::int32_t pa = -1, pb = -1;
      for (const std::int32_t x : tasks) {
        if (side[std::size_t(x)] != 0) continue;
        for (const std::int32_t y : tasks) {
          if (side[std::size_t(y)] != 1) continue;
          double g = gain[std::size_t(x)] + gain[std::size_t(y)];
          for (const auto& [u, w] : adj[std::size_t(x)]) g -= u == y ? 2 * w : 0;
          if (g > best) {
            best = g;
            pa = x;
            pb = y;
          }
        }
      }
      if (pa < 0) return;
      std::swap(side[std::size_t(pa)], side[std::size_t(pb)]);
    }
  }

  void bisect(std::vector<std::int32_t> tasks, std::vector<NodeId> nodes) {
    if (nodes.size() <= 8) {
      for (std::size_t i = 0; i < tasks.size(); ++i) node_of[std::size_t(tasks[i])] = nodes[i];
      leaves.push_back({std::move(tasks), std::move(nodes)});
      return;
    }
    split_nodes(nodes);
    const std::size_t half = nodes.size() / 2;
    split_tasks(tasks, half);
    bisect({tasks.begin(), tasks.begin() + std::ptrdiff_t(half)}, {nodes.begin(), nodes.begin() + std::ptrdiff_t(half)});
    bisect({tasks.begin() + std::ptrdiff_t(half), tasks.end()}, {nodes.begin() + std::ptrdiff_t(half), nodes.end()});
  }

  /// The leaf's tasks permuted over its nodes every way; the cheapest kept, the other tasks fixed.
  void search(const std::vector<std::int32_t>& tasks, const std::vector<NodeId>& nodes) {
    const std::size_t k = tasks.size();
    std::vector<std::int32_t> slot_of(node_of.size(), -1);
    for (std::size_t i = 0; i < k; ++i) slot_of[std::size_t(tasks[i])] = std::int32_t(i);
    // outside[i][p]: task i's cost to tasks outside the leaf if on nodes[p]; inside pairs by weight
    std::vector<std::vector<double>> outside(k, std::vector<double>(k, 0.0));
    std::vector<std::array<double, 8>> inside(k);
    for (std::size_t i = 0; i < k; ++i) {
      inside[i].fill(0.0);
      for (const auto& [u, w] : adj[std::size_t(tasks[i])]) {
        if (const std::int32_t j = slot_of[std::size_t(u)]; j >= 0) {
          inside[i][std::size_t(j)] += w;
          continue;
        }
        for (std::size_t p = 0; p < k; ++p) outside[i][p] += w * platform.hops(nodes[p], node_of[std::size_t(u)]);
      }
    }
    // Hops between the leaf's nodes, once (an int converted to double: the products are the
    // ones hops() would give).
    std::array<std::array<double, 8>, 8> hop{};
    for (std::size_t p = 0; p < k; ++p) {
      for (std::size_t q = 0; q < k; ++q) hop[p][q] = platform.hops(nodes[p], nodes[q]);
    }
    // Permutations in lexicographic order (std::next_permutation's), depth first; a permutation
    // is costed in the same order of terms as ever, and the first of least cost is kept (ties
    // within 1e-12: the earliest). With every term non-negative, the terms of a prefix bound
    // every permutation that extends it: a prefix whose bound reaches the best (by a margin far
    // above the rounding) has none that could be kept, and is skipped.
    bool non_negative = prune;
    for (std::size_t i = 0; i < k; ++i) {
      for (std::size_t j = 0; j < k; ++j) non_negative = non_negative && outside[i][j] >= 0 && inside[i][j] >= 0;
    }
    std::vector<std::size_t> perm(k), best;
    std::array<bool, 8> used{};
    double best_cost = INFINITY;
    auto full_cost = [&] {
      double cost = 0;
      for (std::size_t i = 0; i < k; ++i) {
        cost += outside[i][perm[i]];
        for (std::size_t j = i + 1; j < k; ++j) cost += inside[i][j] * hop[perm[i]][perm[j]];
      }
      return cost;
    };
    auto place = [&](auto&& self, std::size_t depth, double bound) -> void {
      if (depth == k) {
        if (const double cost = full_cost(); cost < best_cost - 1e-12) best_cost = cost, best = perm;
        return;
      }
      for (std::size_t p = 0; p < k; ++p) {
        if (used[p]) continue;
        perm[depth] = p;
        double b = bound + outside[depth][p];
        for (std::size_t i = 0; i < depth; ++i) b += inside[i][depth] * hop[perm[i]][p];
        if (non_negative && b >= best_cost + 1e-9 * std::abs(best_cost)) continue;
        used[p] = true;
        self(self, depth + 1, b);
        used[p] = false;
      }
    };
    place(place, 0, 0.0);
    for (std::size_t i = 0; i < k; ++i) node_of[std::size_t(tasks[i])] = nodes[best[i]];
  }
};

}  // namespace

void map_tasks(const Platform& platform, std::vector<NodeId>& nodes, const TaskGraph& graph, Mapping mapping,
               bool prune_leaves) {
  sort_nodes(nodes);
  if (mapping == Mapping::in_order || graph.mapping_free() || nodes.size() < 2 ||
      platform.network == NetworkKind::none) {
    return;
  }
  const Adjacency adj = adjacency(graph);
  Mapper m{platform, adj, prune_leaves, std::vector<NodeId>(nodes.size()), {}};
  std::vector<std::int32_t> tasks(nodes.size());
  std::iota(tasks.begin(), tasks.end(), 0);
  m.bisect(tasks, nodes);
  for (const auto& [leaf_tasks, leaf_nodes] : m.leaves) m.search(leaf_tasks, leaf_nodes);
  nodes = m.node_of;
}

}  // namespace dcsweep::comm
