#include "dcsweep/ratebased/greedy.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <set>

namespace dcsweep {
namespace {

using Pair = RatePair;

}  // namespace

std::vector<RatePair> rate_efficient_pairs(const RateInstance& in) {
  std::vector<bool> present(in.tables.types.size(), false);
  for (const std::int32_t t : in.node_table) present[std::size_t(t)] = true;
  std::vector<Pair> pairs;
  for (std::int32_t i = 0; i < in.tasks(); ++i) {
    for (std::int32_t t = 0; t < std::int32_t(present.size()); ++t) {
      if (!present[std::size_t(t)]) continue;
      Pair best{i, t, -1, -1};
      for (std::int32_t p = 0; p < in.off_state(t); ++p) {
        if (!in.allowed(i, t, p)) continue;
        const double apc = in.tables.apc(i, t, p);
        const double e = in.tables.tasks[std::size_t(i)].reward * in.tables.ecs(i, t, p) /
                         std::max(apc, std::numeric_limits<double>::min());
        if (e > best.efficiency) best = {i, t, p, e};
      }
      if (best.pstate >= 0) pairs.push_back(best);
    }
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.efficiency > b.efficiency; });
  return pairs;
}

namespace {

/// One task per core, with the task rates kept up to date node by node.
class CoreMap {
 public:
  explicit CoreMap(const RateInstance& in)
      : in_(in), task_(std::size_t(in.cores()), -1), pstate_(std::size_t(in.cores()), 0),
        rate_(std::size_t(in.tasks()), 0.0), naive_(std::size_t(in.tasks()), 0.0), load_(std::size_t(in.nodes()), 0.0) {}

  void set(std::int32_t core, std::int32_t task, std::int32_t pstate) {
    const std::int32_t node = in_.core_node[std::size_t(core)];
    add_node(node, -1);
    const std::int32_t old = task_[std::size_t(core)];
    if (old >= 0) load_[std::size_t(node)] -= mi(old);
    task_[std::size_t(core)] = task;
    pstate_[std::size_t(core)] = pstate;
    if (task >= 0) load_[std::size_t(node)] += mi(task);
    add_node(node, +1);
  }
  double rate(std::int32_t task, RateObjective objective) const {
    return objective == RateObjective::rr ? rate_[std::size_t(task)] : naive_[std::size_t(task)];
  }
  std::int32_t task(std::int32_t core) const { return task_[std::size_t(core)]; }
  std::int32_t pstate(std::int32_t core) const { return pstate_[std::size_t(core)]; }

 private:
  double mi(std::int32_t task) const { return in_.tables.tasks[std::size_t(task)].memory_intensity; }
  /// Adds (sign +1) or removes (-1) the node's contribution to the task rates.
  void add_node(std::int32_t node, double sign) {
    const std::int32_t t = in_.node_table[std::size_t(node)];
    for (std::int32_t k = in_.node_first_core[std::size_t(node)]; k < in_.node_first_core[std::size_t(node) + 1]; ++k) {
      const std::int32_t i = task_[std::size_t(k)];
      if (i < 0) continue;
      const double er = in_.tables.ecs(i, t, pstate_[std::size_t(k)]);
      const double slope = in_.tables.types[std::size_t(t)].colocation_slope[std::size_t(in_.tables.tasks[std::size_t(i)].memory_class)];
      naive_[std::size_t(i)] += sign * er;
      rate_[std::size_t(i)] += sign * er / (1 + slope * (load_[std::size_t(node)] - mi(i)));
    }
  }

  const RateInstance& in_;
  std::vector<std::int32_t> task_, pstate_;
  std::vector<double> rate_, naive_, load_;
};

}  // namespace

std::vector<std::int32_t> nodes_by_thermal_impact(const RateInstance& in) {
  const RoomResponse& room = *in.room;
  Eigen::VectorXd impact(in.zones());
  for (std::int32_t z = 0; z < in.zones(); ++z) impact(z) = room.rise.col(z).cwiseQuotient(room.supply_share).maxCoeff();
  std::vector<std::int32_t> order(std::size_t(in.nodes()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
    return impact(in.node_zone[std::size_t(a)]) < impact(in.node_zone[std::size_t(b)]);
  });
  return order;
}

RateResult rate_greedy(const RateInstance& in, RateObjective objective) {
  const auto t0 = std::chrono::steady_clock::now();
  RateResult out;
  out.allocation = idle_allocation(in);
  RoomLoad room(in, zone_power_w(in, out.allocation));
  const auto finish = [&](bool feasible) {
    out.feasible = feasible;
    out.allocation.crac_out_c = std::max(room.highest_crac_out_c(), in.config.crac_out_min_c);
    out.evaluation = evaluate(in, out.allocation);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
  };
  if (!room.feasible()) return finish(false);

  // Nodes with a free core, per node table, coolest first.
  std::vector<std::int32_t> rank(std::size_t(in.nodes()));
  const std::vector<std::int32_t> order = nodes_by_thermal_impact(in);
  for (std::size_t r = 0; r < order.size(); ++r) rank[std::size_t(order[r])] = std::int32_t(r);
  CoreMap map(in);
  using Key = std::pair<std::int32_t, std::int32_t>;  // (thermal rank, node)
  const auto key = [&](std::int32_t node) { return Key{rank[std::size_t(node)], node}; };
  std::vector<std::set<Key>> free(in.tables.types.size());
  std::vector<std::int32_t> next_core(in.node_first_core.begin(), in.node_first_core.end() - 1);
  for (std::int32_t j = 0; j < in.nodes(); ++j) {
    if (in.node_first_core[std::size_t(j) + 1] > in.node_first_core[std::size_t(j)]) {
      free[std::size_t(in.node_table[std::size_t(j)])].insert(key(j));
    }
  }

  for (const Pair& pair : rate_efficient_pairs(in)) {
    const RateTaskType& task = in.tables.tasks[std::size_t(pair.task)];
    const double apc = in.tables.apc(pair.task, pair.table, pair.pstate);
    std::set<Key>& pool = free[std::size_t(pair.table)];
    while (!pool.empty()) {
      const std::int32_t node = pool.begin()->second;
      const std::int32_t core = next_core[std::size_t(node)];
      const std::int32_t zone = in.node_zone[std::size_t(node)];
      map.set(core, pair.task, pair.pstate);
      room.add(zone, apc);
      const bool over_budget = !room.feasible();
      if (over_budget || map.rate(pair.task, objective) > task.arrival_rate_per_s) {  // lines 3 and 8
        map.set(core, -1, 0);
        room.add(zone, -apc);
        if (over_budget) return finish(true);
        break;  // line 11: drop the pair
      }
      pool.erase(pool.begin());
      out.allocation.df_at(core, pair.task) = 1;
      out.allocation.ps_at(core, pair.task) = std::int16_t(pair.pstate);
      if (++next_core[std::size_t(node)] < in.node_first_core[std::size_t(node) + 1]) pool.insert(key(node));
    }
  }
  return finish(true);
}

}  // namespace dcsweep
