#pragma once
// An upper bound on the reward rate of every allocation that meets both constraints, so that
// each technique's gap is known. Why it is one:
//  - co-location only slows tasks (slopes >= 0, M >= 0), so RR <= NERR for any allocation: a bound
//    on NERR bounds RR (BoundOptions::colocation_levels tightens it for RR, see there);
//  - NERR with the per-node core-time x(j, i, p) = sum over j's cores of DF at P-state p as
//    variables (a core may mix states, a relaxation of one PS per (task, core)) is linear:
//      max sum_i r_i y_i,  y_i <= lambda_i,  y_i <= sum ECS(i, t_j, p) x(j, i, p),
//      sum_{i,p} x(j, i, p) <= cores(j),  P_z = S_z + sum APC x,
//      s_z tc + sum rise(z, .) P <= T_red,  sum P + (w . P + h tc) / CoP(tc) <= phi;
//    only the outlet tc makes it non-linear. For tc in [a, b] (a >= 0, where CoP grows), every
//    feasible point meets the LP with tc = a in the thermal rows and CoP(b), min(h a, h b) in
//    the power row (w . P + h tc, the heat removed, is never negative), so that LP's optimum
//    bounds every allocation with tc in [a, b];
//  - tc lies in [crac_out_min_c, the hottest outlet with only static power] (rises only grow with
//    power); that range is cut into intervals and the interval with the largest LP value split
//    again (branch and bound on tc) until it is narrower than min_width_k, max_lps LPs were
//    solved on intervals, or the LP at the single outlet in its middle reaches its value (no cut
//    can go below that: a plateau): the largest value over the intervals left is the bound.
// The inlet rows are generated lazily (only those some LP solution violates; see BoundLp::solve).
// Per (task, node type) only P-states on the upper concave hull of (APC, ECS) (with the origin,
// "off") and allowed by Eq. 10 are kept: any mix of the others is dominated. LPs by Clp, each
// warm-started from the previous basis.
#include <functional>

#include "dcsweep/ratebased/model.hpp"

namespace dcsweep {

struct BoundOptions {
  std::int32_t initial_intervals = 4;
  std::int32_t max_lps = 12;  ///< LPs on intervals (each split's test at one outlet not counted)
  double min_width_k = 0.02;
  /// Thermal-row entries rise(z, z') below this share of row z's largest are left out: a
  /// smaller left-hand side of a <= row only loosens it, so the bound stays valid, and the LP
  /// gets much sparser (the room's rise matrix is dense). 0 keeps every entry.
  double drop_below = 1e-3;
  /// Co-location levels (0: none, the NERR relaxation above). With l levels, node j's memory load
  /// L = sum mi x is known to lie in one of [k/l, (k+1)/l) x cores x mi_max; every core there has
  /// co-runners of at least L_k - mi_max (its own share is at most mi_max), so its tasks run at
  /// most 1 / (1 + slope (L_k - mi_max)^+) of their ECS: a disjunctive (convex-hull) relaxation
  /// of RR itself, tighter than NERR's, with l times the columns.
  std::int32_t colocation_levels = 0;
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
  double seconds = 0;
};

/// The P-states of a (task, node table) worth keeping in a relaxation: allowed (Eq. 10), and on
/// the upper concave hull of (APC, ECS) seen from the origin (off); any mix of the others is
/// dominated (as fast for no more power).
std::vector<std::int32_t> rate_hull_states(const RateInstance& instance, std::int32_t task, std::int32_t table);

/// SimulationError when Clp fails on an LP (neither optimal nor proven infeasible).
RewardBound rate_reward_bound(const RateInstance& instance, const BoundOptions& options = {});

}  // namespace dcsweep
