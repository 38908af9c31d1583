#pragma once
// Whole-core configurations of one node: n_i of its cores run task i all the time (DF 1), the
// rest are off; every such multiset of tasks, with the co-location factor each task sees there.
// On a node whose memory load is L = sum_i n_i mi_i, a core running task i has co-runners of
// L - mi_i, so it runs at f_i ECS with f_i = 1 / (1 + slope(class_i) (L - mi_i)) (Eq. 7).
//
// Why whole cores are enough for a priced node (the reward bound's column generation, the GA's
// node step): with task prices pi_i >= 0 and a power price nu, a node's priced value
//   V(DF) = sum_k sum_i DF(k, i) max_p (pi_i ECS(i, p) / (1 + slope_i M_k) - nu APC(i, p))
// is, as a function of one core's DF vector with the others fixed, linear in that core's own
// terms and convex in the rest (M_k' is affine in it, 1 / (1 + s M) convex, a maximum of convex
// functions convex, DF(k', i) >= 0). A convex function on the simplex {DF >= 0, sum <= 1} is
// largest at a vertex: one task at DF 1, or off. Moving core by core to a vertex never lowers V,
// so the best whole-core configuration is the best of all, and the convex hull of the whole-core
// configurations' (rates, power) contains every allocation's.
#include <cstdint>
#include <vector>

#include "dcsweep/ratebased/model.hpp"

namespace dcsweep {

/// One node's configuration at chosen P-states: its per-task rates (CER summed over its cores)
/// and its core power (APC summed; the node's static power not included).
struct NodeConfiguration {
  std::int32_t index = -1;          ///< into NodeConfigurations
  double value = 0;                 ///< sum_i pi_i rate_i - nu power_w at the prices it was chosen for
  double power_w = 0;
  std::vector<double> rate;         ///< per task
  std::vector<std::int16_t> state;  ///< per task: its P-state, off_state when n_i = 0
};

class NodeConfigurations {
 public:
  /// Every multiset of the tasks allowed on `table` (some P-state meets Eq. 10) of size at most
  /// `cores`: C(cores + T', T') of them with T' such tasks.
  NodeConfigurations(const RateInstance& instance, std::int32_t table, std::int32_t cores);

  /// How many there would be, without building them (saturating at INT64_MAX).
  static std::int64_t count(std::int32_t tasks, std::int32_t cores);

  std::int32_t size() const { return std::int32_t(first_.size()) - 1; }
  std::int32_t table() const { return table_; }
  std::int32_t cores() const { return cores_; }

  /// The configuration with the largest priced value (ties: the first enumerated; the empty one,
  /// value 0, is among them), each task at its best P-state for its co-location factor there.
  /// `task_price` per task, >= 0.
  NodeConfiguration best(const std::vector<double>& task_price, double watt_price) const;

  /// The configuration's rates and power with each of its tasks at `state` (per task).
  NodeConfiguration at(std::int32_t index, const std::vector<std::int16_t>& state) const;

  /// Its tasks with their core counts and factors.
  struct Entry {
    std::int32_t task, cores;
    double factor;
  };
  const Entry* begin(std::int32_t index) const { return entries_.data() + first_[std::size_t(index)]; }
  const Entry* end(std::int32_t index) const { return entries_.data() + first_[std::size_t(index) + 1]; }

 private:
  const RateInstance* in_;
  std::int32_t table_, cores_;
  std::vector<Entry> entries_;
  std::vector<std::int32_t> first_;
  /// Per task: the states a price can pick, (APC, ECS) ascending: the upper concave hull when the
  /// power price is >= 0 (rate_hull_states), every allowed one otherwise.
  std::vector<std::vector<std::int32_t>> hull_, allowed_;
};

/// One NodeConfigurations per (node table, core count) some node of the room has, and each
/// node's index into them.
struct RoomConfigurations {
  std::vector<NodeConfigurations> sets;
  std::vector<std::int32_t> node_set;  ///< per node
};
RoomConfigurations room_configurations(const RateInstance& instance);

}  // namespace dcsweep
