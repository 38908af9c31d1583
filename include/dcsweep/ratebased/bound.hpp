#pragma once
// An upper bound on the reward rate of every allocation that meets both constraints, so that
// each technique's gap is known. Why it is one:
//  - co-location only slows tasks (slopes >= 0, M >= 0), so RR <= NERR for any allocation;
//  - for a fixed CRAC outlet tc, both constraints are linear in the zone powers, and so is the
//    reward once each task's rate y_i <= lambda_i is a variable:
//      max sum_i r_i y_i,  y_i <= lambda_i,  y_i <= sum over nodes of the node's rate of i,
//      P_z = S_z + the core power of zone z's nodes,
//      s_z tc + sum rise(z, .) P <= T_red,  sum P + (w . P + h tc) / CoP(tc) <= phi;
//    what a node can do enters through its (rates, core power) alone;
//  - BoundColocation::configurations (RR): each node takes a convex combination of its
//    whole-core configurations (configurations.hpp: n_i cores on task i at DF 1, co-location
//    included). For every allocation of the node, a point of their convex hull runs each task at
//    least as fast for the same core power (configurations.hpp says why), so this LP
//    (Dantzig-Wolfe) bounds RR. It is solved by column generation, each node priced exactly by
//    enumerating its configurations; the value kept is the restricted LP's value + sum_j max(0,
//    best reduced cost of node j), a bound at every round (the least over the rounds is kept);
//  - BoundColocation::none (NERR, co-location blind, a bound on both objectives): per-node
//    core-time x(j, i, p) = sum over j's cores of DF at P-state p (a core may mix states, a
//    relaxation of one PS per (task, core)), sum_{i,p} x(j, i, p) <= cores(j); per (task, node
//    type) only P-states on the upper concave hull of (APC, ECS) (with the origin, "off") and
//    allowed by Eq. 10 are kept: any mix of the others is dominated;
//  - only the outlet tc makes the problem non-linear. For tc in [a, b] (a >= 0, where CoP grows),
//    every feasible point meets the LP with tc = a in the thermal rows and CoP(b), min(h a, h b)
//    in the power row (w . P + h tc, the heat removed, is never negative), so that LP's optimum
//    bounds every allocation with tc in [a, b]; tc lies in [crac_out_min_c, the hottest outlet
//    with only static power] (rises only grow with power); that range is cut into intervals and
//    the interval with the largest LP value split again (branch and bound on tc) until it is
//    narrower than min_width_k, max_lps LPs were solved on intervals, or the LP at the single
//    outlet in its middle reaches its value (no cut can go below that: a plateau): the largest
//    value over the intervals left is the bound.
// The inlet rows are generated lazily (only those some LP solution violates; see BoundLp::solve).
// LPs by Clp, each warm-started from the previous basis (and, with configurations, the columns
// generated for earlier intervals).
#include <functional>

#include "dcsweep/ratebased/model.hpp"

namespace dcsweep {

enum class BoundColocation { none, configurations };

struct BoundOptions {
  std::int32_t initial_intervals = 4;
  std::int32_t max_lps = 12;  ///< LPs on intervals (each split's test at one outlet not counted)
  double min_width_k = 0.02;
  /// Thermal-row entries rise(z, z') below this share of row z's largest are left out: a
  /// smaller left-hand side of a <= row only loosens it, so the bound stays valid, and the LP
  /// gets much sparser (the room's rise matrix is dense). 0 keeps every entry.
  double drop_below = 1e-3;
  /// configurations: the RR bound (tight: it knows co-location); none: the NERR relaxation,
  /// faster, looser for RR, and a bound on NERR as well.
  BoundColocation colocation = BoundColocation::configurations;
  /// Inlet rows only as LP solutions violate them (true), or every zone's from the start: the
  /// same optimum (BoundLp::solve), much slower on a large room; for checking.
  bool lazy_inlet_rows = true;
  /// Called after each LP: (a, b, its value or -inf, seconds since the start).
  std::function<void(double, double, double, double)> on_lp;
};

struct RewardBound {
  bool feasible = false;     ///< false: proven that no allocation meets both constraints
  double reward_rate = 0;    ///< the bound (0 when infeasible)
  double crac_out_low_c = 0, crac_out_high_c = 0;  ///< the interval attaining it
  std::int32_t lps = 0;
  std::int32_t thermal_rows = 0;  ///< inlet rows the LPs needed (generated lazily, of one per zone)
  std::int32_t column_rounds = 0;  ///< configurations: pricing rounds over all LPs
  double seconds = 0;
};

/// The P-states of a (task, node table) worth keeping in a relaxation: allowed (Eq. 10), and on
/// the upper concave hull of (APC, ECS) seen from the origin (off); any mix of the others is
/// dominated (as fast for no more power).
std::vector<std::int32_t> rate_hull_states(const RateInstance& instance, std::int32_t task, std::int32_t table);

/// SimulationError when Clp fails on an LP (neither optimal nor proven infeasible).
RewardBound rate_reward_bound(const RateInstance& instance, const BoundOptions& options = {});

}  // namespace dcsweep
