#pragma once
// The communication model (MODELS.md section 4, [P0] section 3.2 and Eq. 9, [P1] Eq. 1): which
// tasks of a job talk to which (a task graph per communication pattern), what a placement costs
// (CC_job), and task mapping (in order, or recursive coordinate bisection).
//
//   CC_job = (1/n) x the sum over ordered pairs (s, t), s != t, of w(s, t) x hops(node of s, node of t)
//
// with w = 1 for every pair under all-to-all ([P1]'s assumption). hops is Platform::hops: L1 on a
// mesh, with wrap-around on a torus. The [P0] patterns are published only as pictures (Fig. 2);
// they are generated here from their descriptions, each a documented parametric graph whose
// weights are relative to an all-to-all pair (docs/models.md, communication).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dcsweep/alloc/machine.hpp"
#include "dcsweep/core/params.hpp"
#include "dcsweep/core/rng.hpp"
#include "dcsweep/platform/platform.hpp"

namespace dcsweep::comm {

/// all_to_all, then [P0]'s eight: fft, namd_nopme, namd_pme, charm_lu, amr, barnes_hut, changa,
/// openatom. The index is JobAttributes::comm_pattern.
std::span<const std::string> pattern_names();
/// One line per pattern, for `dcsweep list` and docs/models.md.
std::span<const std::string> pattern_descriptions();
/// The index of a pattern name; InputError naming the valid ones (and `mixed`) otherwise.
std::uint8_t pattern_index(const std::string& name);
/// `mixed`: one of [P0]'s eight patterns, uniformly, from `rng`.
std::uint8_t sample_pattern(RngStream& rng);

/// A job's task graph: an all-to-all background of weight `uniform` (every ordered pair), an
/// all-to-all of weight `group_weight` among tasks [0, group), and explicit symmetric edges
/// (each {s, t, w} counts for both (s, t) and (t, s)).
struct TaskGraph {
  struct Edge {
    std::int32_t s, t;
    double w;
  };
  std::int32_t tasks = 0;
  double uniform = 0;
  std::int32_t group = 0;
  double group_weight = 0;
  std::vector<Edge> edges;
  /// Whether every mapping of the tasks costs the same (all-to-all alone).
  bool mapping_free() const { return edges.empty() && (group_weight == 0 || group <= 1); }
};
TaskGraph task_graph(std::uint8_t pattern, std::int32_t tasks);

/// CC_job of task i on nodes[i]; NaN for fewer than 2 tasks. The all-to-all parts cost O(n + L^2)
/// (per-dimension coordinate counts; L the network's extent), the explicit edges O(edges).
double comm_cost(const Platform& platform, std::span<const NodeId> nodes, const TaskGraph& graph);
/// The sum of hops over unordered pairs of `nodes`, in O(n + L^2) per dimension (torus wrap).
double pairwise_hops(const Platform& platform, std::span<const NodeId> nodes);

/// Orders `nodes` so that task i runs on nodes[i]. in_order: ascending node ids. rcb ([P0]
/// section 4.3 after Hoefler and Snir): the task graph and the node set are bisected together,
/// recursively (nodes along their widest network dimension at the median, tasks by a greedy
/// minimum edge cut refined by swaps), and every group of at most 8 nodes is then searched
/// exhaustively, so a job of at most 8 nodes gets an optimal mapping. A group's search keeps the
/// first permutation (lexicographic order) of least cost; it skips the permutations of a prefix
/// whose own terms already reach the best (`prune_leaves`; false: every permutation costed, for
/// tests: the same mapping).
enum class Mapping { in_order, rcb };
Mapping mapping_of(const std::string& name);
void map_tasks(const Platform& platform, std::vector<NodeId>& nodes, const TaskGraph& graph, Mapping mapping,
               bool prune_leaves = true);

/// comm_pattern and task_mapping.
std::vector<ParamSpec> comm_params();

}  // namespace dcsweep::comm
