#pragma once
// The "nearest" allocators of SST's scheduler element ([P1] Sec. 4.2; SST NearestAllocator):
// for every candidate centre, collect the job's nodes nearest to it, score that set, keep the
// best. A member of the family is a centre generator, a point collector and a scorer:
//   mc1x1   centres: every free node; collect by L_inf shells around the centre (Bender et al.'s
//           MC1x1: 1x1 first shell, then growing cubes), each shell in SST's order (faces,
//           then edges, then corners); score: sum of the L_inf distances to the centre.
//   mm      Manhattan median: centres: every intersection (x, y, z) of coordinates that free
//           nodes have; collect the free nodes nearest in L1; score: sum of pairwise hops.
//   genalg  Krumke et al.'s centre-based algorithm: centres: every free node; collect by L1;
//           score: sum of pairwise hops.
// Ties between centres go to the first centre, centres taken in ascending node id (for MM:
// ascending (x, y, z), which is node-id order). When exactly `nodes` nodes are free, they are the
// answer (SST's shortcut). Results are in ascending node id.
//
// Differences from SST (sst-elements eb97d8b6b, src/sst/elements/scheduler):
// - distances wrap around on a torus everywhere; SST collects torus shells but scores with
//   unwrapped mesh distances (MeshLocation::L1DistanceTo / LInfDistanceTo);
// - MM never takes a busy centre: SST's collectors put the centre first whether or not it is
//   free, so its MM could hand out a busy intersection node;
// - node ids: SST numbers nodes x fastest, dcsweep z fastest (Platform::coordinate), so "first
//   centre in id order" and MM's centre order resolve ties differently;
// - MC1x1's "clustering in the last shell" ([P1]): SST configures MC1x1 with Tiebreaker(0,0,0,0),
//   whose getTiebreak returns 0 before looking at anything, so the only clustering is the shell
//   order (faces first: the shell's nodes nearest the centre in L1); that is what this does;
// - on a torus, each node of a shell is visited once, in the canonical offset range
//   [-(L-1)/2, L/2] (SST's own torus collector means the same; its y face omits the x wrap).
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "dcsweep/alloc/machine.hpp"
#include "dcsweep/platform/platform.hpp"

namespace dcsweep {

enum class NearestKind { mc1x1, mm, genalg };

std::string_view nearest_name(NearestKind kind);

/// InputError "allocator 'mc1x1' needs a platform with a network (mesh or torus); platform
/// 'trace' has none" unless the platform's 3D network covers its nodes.
void require_network(const Platform& platform, std::string_view allocator);

/// The fast algorithms, returning exactly what nearest_allocate_reference returns. Holds the
/// per-platform tables and scratch buffers, so reuse one per simulation: MM and Genalg also keep
/// the centres' scores of their last decisions of each of 8 job sizes (14 bytes a node each) and
/// reuse a centre's where no node within its ball changed since (speed only: the same answers).
class NearestSearch {
 public:
  explicit NearestSearch(const Platform& platform);
  ~NearestSearch();
  NearestSearch(NearestSearch&&) noexcept;
  NearestSearch& operator=(NearestSearch&&) noexcept;

  /// `nodes` free nodes of `machine` (1 <= nodes <= machine.free_count()), ascending.
  std::vector<NodeId> allocate(NearestKind kind, const Machine& machine, std::int32_t nodes);
  /// MC1x1's collection around one given free centre ([P1] Sec. 4.3's modified MC1x1, which
  /// opens shells at the centres it is given): the first `nodes` free nodes in shell order,
  /// ascending. For MC1x1's own centre this is MC1x1's allocation.
  std::vector<NodeId> mc1x1_around(const Machine& machine, NodeId centre, std::int32_t nodes);
  /// The same nodes in the order the shells visit them (joint scores a set per centre and sorts
  /// only the ones it keeps); `out` is overwritten.
  void mc1x1_around_unsorted(const Machine& machine, NodeId centre, std::int32_t nodes, std::vector<NodeId>& out);
  /// MM's or Genalg's score of one centre (any node's coordinates): the pairwise hops of the
  /// first `nodes` free nodes in L1 order around it (2 <= nodes <= machine.free_count()), by the
  /// same exact paths the kind's decision takes (plane tables of the kind's radius, rows of busy
  /// bits, the ideal shape, the walk).
  std::int64_t centre_score(NearestKind kind, const Machine& machine, NodeId centre, std::int32_t nodes);
  /// Sorts distinct node ids of this platform ascending (a radix sort: O(nodes)).
  void sort_ascending(std::vector<NodeId>& ids) const;

  /// For bounds on mc1x1_around without collecting: per zone, the free nodes that every
  /// collection of `nodes` around `centre` takes (all those inside the last shell it opens:
  /// within L_inf distance R - 1, R the first radius whose cube holds `nodes` free nodes), in
  /// O(zones) per centre. Call prepare_zone_counts once per machine state first (O(8 N zones)
  /// time, 16 N zones bytes; false, and no counts, if a zone has 65,536 nodes or more);
  /// `zone_of_node[n]` in [0, zones).
  bool prepare_zone_counts(const Machine& machine, std::span<const std::int32_t> zone_of_node, std::int32_t zones);
  void surely_taken_per_zone(NodeId centre, std::int32_t nodes, std::vector<std::int32_t>& counts) const;
  /// The same nodes' sums of `width` scores, each a non-negative weight per node: prepare_box_sums
  /// once per machine state and weights (`weights[n * width + s]`, every node's, the busy ones'
  /// ignored; O(N width) time, 8 N width bytes, 8 x that on a torus; false, and no sums, where a
  /// free node's weight is negative or not finite, or a score's total overflows), then per
  /// centre in O(width + the last shell's radius): each sum at most the exact sum (to the last
  /// place of a double) and less by at most (1 + 1e-9) 2^-60 of the score's total per node
  /// (fixed-point sums, each weight rounded down).
  bool prepare_box_sums(const Machine& machine, std::span<const double> weights, std::size_t width);
  void surely_taken_sums(NodeId centre, std::int32_t nodes, std::span<double> sums) const;
  /// Adds to `counts`, surely_taken_per_zone's for the same centre and nodes, the first free
  /// nodes of the last shell in shell order: then per zone every node of mc1x1_around(machine,
  /// centre, nodes), counted without collecting them, in O(that shell's nodes + its radius).
  /// After prepare_zone_counts with the same `zone_of_node`.
  void add_last_shell_per_zone(const Machine& machine, NodeId centre, std::int32_t nodes,
                               std::span<const std::int32_t> zone_of_node, std::vector<std::int32_t>& counts) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// One decision with a fresh NearestSearch.
std::vector<NodeId> nearest_allocate(NearestKind kind, const Platform& platform, const Machine& machine,
                                     std::int32_t nodes);

/// The straightforward algorithm (every centre, every node sorted by collection order, scores
/// summed pair by pair): the definition the fast one is tested against. Small machines only.
std::vector<NodeId> nearest_allocate_reference(NearestKind kind, const Platform& platform, const Machine& machine,
                                               std::int32_t nodes);

}  // namespace dcsweep
