#pragma once
// [P3] Alg. 3-4, the genetic algorithm with local search. A chromosome is a whole allocation:
// one gene per (core, task type) holding DF(i, k) and PS(i, k).
//  - initial population: the greedy allocation (Alg. 2, same objective) and population - 1
//    copies of it mutated gene by gene with probability p_g (the paper does not say how its other
//    chromosomes are made; random ones rarely meet the budget on 1,080 nodes), each repaired;
//  - each generation: two parents by linear-bias rank selection (bias 1.5, Whitley), two-point
//    crossover over a range of cores (all task types of those cores swapped);
//  - mutation: an offspring with probability p_m = 0.1, then each gene with p_g = 0.05: a random
//    DF in [0, 1) and a random state among the allowed P-states and off; cores whose DFs sum above
//    1 are normalized (Sec. 4.3.1);
//  - local search (Alg. 4): up to maxIter = 2000 steps, set the CRAC outlet to the hottest meeting
//    the redline; while the node fixing it stays the hottest, raise the P-state of a random active
//    (core, task) of it by one (to the next allowed state, past the last: off). When that node has
//    nothing left to slow down, a random active gene anywhere is slowed (assumed: the paper does
//    not say). Offspring still breaking a constraint are dropped;
//  - extension, off by default (speedup_steps = 0): after a successful repair, that many tries
//    to run a random gene with DF > 0 one allowed P-state faster (from off: its slowest), each
//    kept only if both constraints still hold. Alg. 4 only slows genes down, so the paper's GA
//    can use leftover budget only through mutation ([P3] Sec. 6.4);
//  - extension, on by default (node_steps = 50; 0 gives Alg. 3-4 as published): the node step.
//    After a successful repair, node_steps times, one node (every other time one that runs
//    something) is re-planned as its best whole-core configuration (configurations.hpp) given
//    all other nodes: each of its task multisets, each task at the hull P-state that maximizes
//      r_i min(R_i without the node + the node's rate of i, lambda_i) - price x core power,
//    the objective's rates (CER for rr, ER for nerr); the best multiset is kept if it beats the
//    node's present plan and the room can take it, else the best one within the power the room
//    can still give that node (RoomLoad::headroom_w). The price of a watt is self-adapted: each
//    initial chromosome draws one log-uniform over 12 octaves below the best reward per watt of
//    any (task, node type) pair; an offspring takes its parent's times 2^U(-1, 1). Where the
//    budget binds, a high price lets nodes give power back for others to use. On oxley1080 the GA
//    as published stays ~40% under the bound after a minute; with node steps within 5%
//    (docs/performance.md);
//  - the population sorted by the objective (rr or nerr), trimmed to its size; the best is kept.
// Stops at max_generations or time_limit_s, whichever first: anytime, the best so far. Every
// random number comes from the caller's stream, so a run is reproducible for a given stream when
// it stops on generations.
#include <functional>
#include <limits>

#include "dcsweep/core/rng.hpp"
#include "dcsweep/ratebased/model.hpp"

namespace dcsweep {

struct GaOptions {
  RateObjective objective = RateObjective::rr;
  std::int32_t population = 20;
  double mutation_probability = 0.1;   ///< p_m
  double gene_probability = 0.05;      ///< p_g
  std::int32_t max_local_steps = 2000;  ///< maxIter of Alg. 4
  std::int32_t speedup_steps = 0;       ///< the extension above; 0: Alg. 4 as published
  std::int32_t node_steps = 50;         ///< the node step above, per offspring; 0: Alg. 3-4 as published
  double selection_bias = 1.5;         ///< linear bias of the rank selection, in (1, 2]
  std::int64_t max_generations = 1000;
  double time_limit_s = std::numeric_limits<double>::infinity();
  /// Called on every improvement of the best: (seconds since start, generation, objective).
  std::function<void(double, std::int64_t, double)> on_improvement;
};

/// The best feasible chromosome found; infeasible as rate_greedy when every core off breaks a
/// constraint. InputError on options out of range.
RateResult rate_genetic(const RateInstance& instance, const GaOptions& options, RngStream& rng);

}  // namespace dcsweep
