#pragma once
// [P3]'s NLP technique, solved by Ipopt (COIN-OR, Debian's coinor-libipopt-dev) on small rooms.
// The relaxation: per node j, task i and P-state p on the (APC, ECS) hull (rate_hull_states:
// the others are dominated, in the relaxation as in the bound), the core-time x(j, i, p) in
// [0, cores(j)] (how many of j's cores run i at p, continuous); per task the served rate
// y_i in [0, lambda_i]; the CRAC outlet tc in [crac_out_min_c, the hottest outlet of the idle room].
//   max sum_i r_i y_i
//   y_i <= sum_j sum_p ECS(i, t_j, p) x(j, i, p) / (1 + slope(t_j, class i) (L_j - mi_i))   (rr)
//          L_j = sum_{i, p} mi_i x(j, i, p), node j's memory load (the co-runners of a core
//          running i are L_j - mi_i: exact when x is integral, as in evaluate(); below 0, where
//          i has less than a core, smoothed to stay above -1 / (2 slope), nlp.cpp);
//          nerr: the same without the denominator (linear)
//   sum_{i, p} x(j, i, p) <= cores(j)
//   s_z tc + sum_z' rise(z, z') P(z') <= redline per zone, P(z) = S(z) + sum APC x   (linear)
//   sum_z P(z) + (w . P + h tc) / CoP(tc) <= phi                                       (smooth)
// Twice differentiable everywhere on the box, the denominators >= 1/2. Ipopt gets the exact
// Hessian of the Lagrangian (per node blocks from the rates, the outlet's row and column from
// CoP; the limited-memory one needed hundreds of iterations where this needs tens), starts from
// the greedy answer and stops at max_iterations or time_limit_s of CPU time; it finds a local
// optimum.
// Rounding and repair (the answer must be an integer one-task-per-core allocation that meets
// both constraints on the room's map): per node, largest-remainder rounding of the x(j, i, .)
// to whole cores; cores are then taken away, least efficient (r ECS / APC) first, while the
// answer breaks a constraint or a task is served beyond lambda without loss; then free cores
// are filled greedy-style ([P3] Alg. 2's pair order) while that raises the objective and keeps
// both constraints. Deterministic (Ipopt with MUMPS sequential is).
#include <string>

#include "dcsweep/ratebased/model.hpp"

namespace dcsweep {

/// Rooms with more cores are refused (InputError): the NLP is for small rooms ([P3] needed hours
/// at 1,080 nodes). Ipopt's dense inlet rows (zones x variables) bound it.
inline constexpr std::int32_t kNlpMaxCores = 1000;

/// InputError "ratebased_technique nlp: <room> has N cores, more than kNlpMaxCores ..." when
/// `cores` exceeds it.
void check_nlp_size(std::int64_t cores, const std::string& room);

struct NlpOptions {
  RateObjective objective = RateObjective::rr;
  std::int32_t max_iterations = 3000;
  double time_limit_s = 600;  ///< Ipopt's max_cpu_time
};

struct NlpAnswer {
  RateResult result;             ///< the rounded and repaired allocation (seconds: Ipopt + repair)
  double relaxed_objective = 0;  ///< the objective (rr or nerr) at Ipopt's continuous answer
  bool converged = false;        ///< Ipopt reported an optimal (or acceptable) local solution
  std::int32_t iterations = 0;
  std::string status;  ///< Ipopt's return status, for messages
};

/// InputError when the room has more than kNlpMaxCores cores; SimulationError when Ipopt cannot
/// start. Infeasible (idle allocation) when not even the idle room meets both constraints.
NlpAnswer rate_nlp(const RateInstance& instance, const NlpOptions& options = {});

}  // namespace dcsweep
