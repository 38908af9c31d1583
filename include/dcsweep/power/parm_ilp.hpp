#pragma once
// PARM's per-trigger ILP ([P2] Fig. 2, Eq. 1-6): each job j offers resource combinations
// o = (n, p) with value w_j s_{j,n,p} (Eq. 1, 7, 8); x_{j,o} in {0, 1};
//
//   maximise   sum over j, o of value_{j,o} x_{j,o}                                  (Eq. 1)
//   subject to sum over o of x_{j,o} <= 1 for a pending job, = 1 for a running job   (Eq. 2, 3)
//              sum of n x <= N                                                       (Eq. 4)
//              sum of n (p + node_static_w) x <= W_max                               (Eq. 5)
//
// Eq. 6 (noSE) and noMM pin n: the caller offers only the pinned node count. Eq. 5 writes
// n (p + W_base) with W_base "everything other than CPU and memory" (Table I); the memory is
// capped at a fixed 18 W (section VI-E) and the node maximum 116 W = 60 + 18 + 38 W counts it
// (section VI-D, and Table VI's naive node counts), so the static per-node power here is
// memory + base = 56 W by default, one field a caller can change.
//
// A multiple-choice knapsack with two resources. solve_parm_ilp is an exact branch and bound
// (parm_ilp.cpp); solve_parm_ilp_cbc solves the same model with COIN-OR CBC (the reference).
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "dcsweep/power/pass_model.hpp"

namespace dcsweep {

/// One resource combination of a job.
struct ParmOption {
  std::int64_t nodes = 1;  ///< n >= 1
  double cpu_cap_w = 0;    ///< p >= 0
  double value = 0;        ///< w_j x s_{j,n,p}, finite
};

struct ParmJob {
  std::vector<ParmOption> options;
  bool running = false;  ///< must take exactly one option (Eq. 3); a pending job takes at most one (Eq. 2)
};

struct ParmInstance {
  std::vector<ParmJob> jobs;
  std::int64_t node_capacity = 0;              ///< N >= 0
  double power_budget_w = 0;                   ///< W_max >= 0
  double node_static_w = kParmMemoryW + kParmBaseW;  ///< per node power besides the CPU cap, >= 0

  /// What option `o` draws: n (p + node_static_w).
  double power_w(const ParmOption& o) const { return double(o.nodes) * (o.cpu_cap_w + node_static_w); }
  /// Eq. 5 with the tolerance both solvers use: used <= W_max (1 + 1e-12) + 1e-9 W.
  bool power_fits(double used_w) const { return used_w <= power_budget_w * (1 + 1e-12) + 1e-9; }
};

/// The chosen option per job (an index into its options, or kNone).
struct ParmSolution {
  static constexpr std::int32_t kNone = -1;
  bool feasible = false;  ///< false: the running jobs cannot all be given an option (choice empty)
  double objective = 0;
  std::vector<std::int32_t> choice;  ///< per job
  std::int64_t nodes_used = 0;
  double power_used_w = 0;
  std::uint64_t search_nodes = 0;  ///< solve_parm_ilp: branch-and-bound nodes branched on (a cost measure)
  std::uint64_t dp_cells = 0;      ///< solve_parm_ilp: dynamic-programming cell updates (a cost measure)
  /// False when a work limit (ParmWorkLimit) stopped the search before the optimum was proven:
  /// the choice is the best one found, feasible, and `upper_bound` bounds how far off it may be.
  bool proven = true;
  /// No feasible choice is worth more than this (up to the 1e-10 tolerance); `objective` when proven.
  double upper_bound = 0;

  /// (upper_bound - objective) / |upper_bound|: 0 when proven, at most how much of the optimum
  /// the choice may miss; 0 when the bound is 0.
  double gap() const;
};

/// InputError naming the job and option when the instance is malformed (n < 1, a negative or
/// non-finite cap, a non-finite value, a negative or non-finite capacity).
void check_parm_instance(const ParmInstance& instance);

/// The objective and usage of `choice` (one entry per job), `feasible` when it meets every
/// constraint (Eq. 2-5). InputError when an entry is not kNone or an option index.
ParmSolution evaluate_parm_choice(const ParmInstance& instance, std::vector<std::int32_t> choice);

/// Branch-and-bound nodes solve_parm_ilp spends before it settles the decision by dynamic
/// programming over the node row instead (parm_ilp.cpp, section 6).
inline constexpr std::uint64_t kParmSearchNodeLimit = 20'000;

/// How much work one solve may spend. The counts are the solver's own steps, not seconds, so a
/// limited solve gives the same choice on every machine. The default is no limit (exact).
struct ParmWorkLimit {
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};
  /// Branch-and-bound nodes before section 6 (the DP) is tried: changes only the path.
  std::uint64_t phase_search_nodes = kParmSearchNodeLimit;
  /// Branch-and-bound nodes over the whole solve, every phase and sub-instance counted.
  std::uint64_t search_nodes = kNone;
  /// Dynamic-programming cell updates (table cells x candidates) over the whole solve.
  std::uint64_t dp_cells = kNone;
};

/// An optimal solution (objective within 1e-10 relative of the optimum), or feasible = false.
/// Ties between optimal choices are broken deterministically (same instance, same choice).
/// With a work limit, the best choice found when the limit is reached (proven = false, its
/// upper_bound from the relaxations). The greedy incumbent comes before any search, so a limit
/// leaves a feasible instance without a choice only when that greedy found none (then
/// feasible = false and proven = false).
ParmSolution solve_parm_ilp(const ParmInstance& instance, const ParmWorkLimit& limit = {});
/// Exact, with `search_node_limit` branch-and-bound nodes before section 6 (tests reach it with 0).
inline ParmSolution solve_parm_ilp(const ParmInstance& instance, std::uint64_t search_node_limit) {
  return solve_parm_ilp(instance, ParmWorkLimit{search_node_limit});
}

/// The same ILP solved by CBC (slow; for tests and benchmarks).
ParmSolution solve_parm_ilp_cbc(const ParmInstance& instance);

/// The instance as text (parm_ilp_io.cpp), read back bit-identical by read_parm_instance: real
/// decisions saved from a simulation become test and benchmark instances.
void write_parm_instance(std::ostream& out, const ParmInstance& instance);
/// InputError "SOURCE:LINE: what is wrong" on malformed text (check_parm_instance after reading).
ParmInstance read_parm_instance(std::istream& in, const std::string& source);
/// The same from a file, plain or gzip.
ParmInstance read_parm_instance_file(const std::string& path);

}  // namespace dcsweep
