#pragma once
// [P2] PARM and its baselines under a node power budget: the `parm` scheduler (sched/parm.cpp
// documents its semantics). What the scenario checks before a run needs of it.
#include <vector>

#include "dcsweep/core/params.hpp"
#include "dcsweep/platform/platform.hpp"
#include "dcsweep/core/report.hpp"

namespace dcsweep {

/// The metrics of parm_scheme nomm, nose and wse (NaN for the other schedulers and schemes):
/// parm_decisions (ILP solves), parm_decisions_unproven (stopped by parm_search_node_limit or
/// parm_dp_cell_limit before the optimum was proven), parm_max_gap (the largest
/// ParmSolution::gap of a decision).
std::vector<MetricSpec> parm_metric_specs();

/// The CPU cap levels of `parm_cpu_caps_w` ("30,33,36,44,50,60": W, comma-separated), ascending,
/// duplicates removed. InputError naming the parameter when the list is empty or a level is not a
/// positive number.
std::vector<double> parm_cap_levels(const ParamSet& params);

/// Parameter combinations `parm` refuses (InputError naming the parameter): no cap levels,
/// parm_theta_min > parm_theta_max, a runtime model other than `pass` (PARM plans with the PASS
/// model: the jobs must run by it).
void parm_check_params(const ParamSet& params);

/// What `parm` refuses of the platform: a node power model without CPU caps (only node_power
/// `parm` has them), a power_budget_w below the platform's idle power (every node idle already
/// exceeds it).
void parm_check_platform(const ParamSet& params, const Platform& platform);

}  // namespace dcsweep
