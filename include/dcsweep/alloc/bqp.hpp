#pragma once
// [P0]'s joint allocation (Eq. 8-11): choose n free nodes X minimising
//
//   (alpha'/n) X H X^T + (beta'/U) sum(D (P_active o X)),   alpha' = alpha x bqp_comm_scale,
//                                                            beta'  = beta  x bqp_cool_scale
//
// H(i, j) = hops(i, j), so the first term's (1/n) X H X^T is the job's CC_job under all-to-all
// (comm.hpp); the job's own pattern enters afterwards, through the task mapping of its nodes, as
// in [P0] section 4.3. sum(D (P_active o X)) = sum over j in X of colsum_j(D) x (busy_j - idle_j):
// the sum of every zone's inlet rise that the job's active power adds (Eq. 10 without its
// constants); U = the nodes running jobs once this one starts. Solved exactly by branch and
// bound (bqp_exact.cpp) up to bqp_exact_max_nodes free nodes, above by a greedy construction
// from several seeds polished by swap local search (bqp_heuristic.cpp).
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/platform/network.hpp"

namespace dcsweep {

/// One decision in the solvers' terms, over `size()` candidates (the free nodes, ascending):
///   cost(S) = pair_weight x sum over unordered pairs {a, b} of S of hops(a, b) + sum over a in S of linear[a]
/// (X H X^T counts each pair twice: pair_weight = 2 alpha'/n; linear[a] = beta'/U x cooling cost of a).
struct BqpProblem {
  std::int32_t pick = 0;  ///< n: how many candidates to choose, 1 <= pick <= size()
  double pair_weight = 0;  ///< >= 0 (alpha >= 0): the heuristic's bounds assume it
  std::vector<double> linear;                          ///< per candidate
  std::vector<std::array<std::int32_t, 3>> coordinate;  ///< per candidate, its network coordinate
  std::array<std::int32_t, 3> wrap{0, 0, 0};           ///< torus length per axis; 0 on a mesh

  std::int32_t size() const { return static_cast<std::int32_t>(linear.size()); }
  std::int32_t hops(std::int32_t a, std::int32_t b) const {
    std::int32_t total = 0;
    for (int d = 0; d < 3; ++d) total += axis_distance(coordinate[a][d], coordinate[b][d], wrap[d]);
    return total;
  }
  /// Sum of hops over the unordered pairs of `chosen` (candidate indices).
  std::int64_t pair_hops(std::span<const std::int32_t> chosen) const;
  double cost(std::span<const std::int32_t> chosen) const;
};

/// An optimal choice (candidate indices, ascending). `incumbent`, if given, is a feasible choice
/// the search starts from (its cost prunes from the first node on).
std::vector<std::int32_t> bqp_solve_exact(const BqpProblem& problem, std::span<const std::int32_t> incumbent = {});
/// A good choice fast (candidate indices, ascending): greedy from several seeds, then swaps.
std::vector<std::int32_t> bqp_solve_heuristic(const BqpProblem& problem);
/// The heuristic's first phase alone (for tests: the swaps can hide a greedy's slip): from `seed`
/// (0 <= seed < size()), add the candidate of least marginal cost until `pick` are chosen (ties to
/// the lower index); the choice ascending, and its cost as the greedy summed it into `cost`.
std::vector<std::int32_t> bqp_greedy(const BqpProblem& problem, std::int32_t seed, double& cost);

/// The allocator's parameters, checked (InputError naming the parameter).
struct BqpSettings {
  double alpha = 0.5, beta = 0.5;
  double comm_scale = 0, cool_scale = 0;  ///< 0: the automatic rule (docs/policies.md, bqp_params())
  std::int32_t exact_max_nodes = 40;
};
BqpSettings bqp_settings(const ParamSet& params);
/// What the parameters alone show is wrong for bqp (InputError naming the parameter): weights
/// both 0, or beta > 0 where the run will have no D (thermal_model, node_power). A sweep checks
/// every point with it before any simulation starts (check_policy_params, sim/scenario.hpp).
void bqp_check_params(const ParamSet& params);
std::vector<ParamSpec> bqp_params();

/// What one simulation's bqp keeps between decisions: the platform's coordinates, the automatic
/// scales, D's column sums (computed at the first decision, D never changes during a run).
class BqpModel {
 public:
  /// InputError when a term with a positive weight lacks its input (network, room).
  BqpModel(const Platform& platform, const BqpSettings& settings);

  /// The decision's problem over `candidates` (free nodes, ascending; filled here).
  BqpProblem problem(const AllocationRequest& request, std::vector<NodeId>& candidates);
  /// alpha' and beta' (beta' needs the room, for its automatic scale).
  double comm_weight() const { return settings_.alpha * comm_scale_; }
  double cool_weight(const RoomView& room);
  /// The cooling cost of a node for a job in `config`: colsum(D) of its zone x (busy - idle) (K).
  double cooling_cost(const RoomView& room, NodeId node, const JobConfig& config);
  const BqpSettings& settings() const { return settings_; }

 private:
  void read_room(const RoomView& room);

  std::int32_t node_count_;
  BqpSettings settings_;
  std::vector<std::array<std::int32_t, 3>> coordinate_;  ///< per node
  std::array<std::int32_t, 3> wrap_{0, 0, 0};
  double comm_scale_ = 1;
  double cool_scale_ = 0;  ///< resolved at the first decision
  const HeatDistribution* columns_of_ = nullptr;
  std::vector<double> column_sum_;  ///< per zone, K/W
};

/// The mean hop distance between two distinct nodes of the platform (0 for one node).
double mean_pair_hops(const Platform& platform);

}  // namespace dcsweep
