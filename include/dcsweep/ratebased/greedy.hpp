#pragma once
// [P3] Alg. 2, the greedy heuristic: every (task type, node type) pair at its most efficient
// P-state (highest reward per joule, r_i ECS / APC, among the states Eq. 10 allows), pairs in
// order of that efficiency; each pair takes one free core of its node type at a time (100% of the
// core's time) until the task's execution rate would exceed its arrival rate (that core is
// given back and the pair dropped) or its node type has no free core; the CRAC outlet is always
// the hottest that keeps every inlet at or below the redline; the loop ends at the first core
// whose assignment would break the power budget (that core is given back).
// Which core (unspecified in the paper): the next free core of the coolest node of the type with
// one (smallest worst inlet rise per watt), so nodes fill one after the other. The two objectives
// differ only where the paper says (line 8): rr checks the co-located rate CER, nerr the naive ER.
#include "dcsweep/ratebased/model.hpp"

namespace dcsweep {

/// A (task type, node table) pair at its most efficient allowed P-state.
struct RatePair {
  std::int32_t task, table, pstate;
  double efficiency;  ///< r_i ECS / APC
};
/// Every pair of a task and a node table some node has, most efficient first (Alg. 2's order).
std::vector<RatePair> rate_efficient_pairs(const RateInstance& instance);

/// Deterministic. Infeasible (feasible = false, idle allocation) when not even every core off
/// meets both constraints.
RateResult rate_greedy(const RateInstance& instance, RateObjective objective);

/// The nodes ordered by thermal impact, coolest first: max over inlets z of rise(z, zone) / s_z.
std::vector<std::int32_t> nodes_by_thermal_impact(const RateInstance& instance);

}  // namespace dcsweep
