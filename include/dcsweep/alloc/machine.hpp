#pragma once
// Which nodes are free: one bit per node, so first-fit is a word scan and a job start or end
// costs one bit operation per node. Nodes also have a power state: on (free or busy), off, or
// booting (back to on after a boot time the engine schedules). Only free nodes are allocated;
// only free nodes may be switched off; only off nodes may boot.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "dcsweep/core/int_runs.hpp"

namespace dcsweep {

using NodeId = std::int32_t;

/// Sorts a node list unless it already is.
inline void sort_nodes(std::vector<NodeId>& nodes) {
  if (!ascending(nodes)) std::sort(nodes.begin(), nodes.end());
}

/// A run of consecutive node ids: first, first + 1, ..., first + count - 1. A node set kept as
/// runs costs a few words per job where first fit on a large machine hands out hundreds of ids.
struct NodeRun {
  NodeId first;
  std::int32_t count;
  friend bool operator==(const NodeRun&, const NodeRun&) = default;
};

/// Calls f(first, end) for each maximal run [first, end) of consecutive ascending ids in `nodes`,
/// in order ({3, 4, 5, 9, 8}: [3, 6), [9, 10), [8, 9)). A list that is one run (as first fit
/// gives) is found by a branch-free count of the breaks, without the run-by-run walk.
template <class F>
void for_each_run(std::span<const NodeId> nodes, F&& f) {
  if (nodes.empty()) return;
  const NodeId* id = nodes.data();
  const std::size_t count = nodes.size();
  std::size_t breaks = 0;
  for (std::size_t i = 1; i < count; ++i) breaks += id[i] != id[i - 1] + 1;
  if (breaks == 0) return f(id[0], id[count - 1] + 1);
  std::size_t start = 0;
  for (std::size_t i = 1; i < count; ++i) {
    if (id[i] != id[i - 1] + 1) {
      f(id[start], id[i - 1] + 1);
      start = i;
    }
  }
  f(id[start], id[count - 1] + 1);
}

/// Appends `run` to `out`, extending out's last run where it continues it (runs stay maximal).
inline void push_run(std::vector<NodeRun>& out, NodeRun run) {
  if (!out.empty() && out.back().first + out.back().count == run.first) {
    out.back().count += run.count;
  } else {
    out.push_back(run);
  }
}

/// Appends `nodes` to `out` as runs of consecutive ascending ids, order kept ({3, 4, 5, 9, 8}:
/// 3+3, 9+1, 8+1); a run that continues out's last one extends it.
void append_runs(std::span<const NodeId> nodes, std::vector<NodeRun>& out);
/// Appends the ids of `runs`, in order, to `out`.
void append_ids(std::span<const NodeRun> runs, std::vector<NodeId>& out);
/// How many nodes `runs` hold.
inline std::int64_t node_total(std::span<const NodeRun> runs) {
  std::int64_t total = 0;
  for (const NodeRun& run : runs) total += run.count;
  return total;
}
/// Sorts disjoint runs by first id and merges the adjacent ones: their ids in ascending order.
void sort_runs(std::vector<NodeRun>& runs);

enum class NodeState : std::uint8_t { on, off, booting };

class Machine {
 public:
  explicit Machine(std::int32_t node_count);

  std::int32_t node_count() const { return node_count_; }
  std::int32_t free_count() const { return free_count_; }
  bool is_free(NodeId node) const { return (free_bits_[node >> 6] >> (node & 63)) & 1U; }

  /// Marks nodes busy; SimulationError if one is not free (two jobs on one node).
  void occupy(std::span<const NodeId> nodes);
  /// Marks nodes free; SimulationError if one is already free.
  void release(std::span<const NodeId> nodes);
  /// The same for runs of nodes: a mask per word a run covers. SimulationError also for a run
  /// beyond the machine.
  void occupy(std::span<const NodeRun> runs);
  void release(std::span<const NodeRun> runs);

  std::int32_t off_count() const { return off_count_; }
  std::int32_t booting_count() const { return booting_count_; }
  NodeState state(NodeId node) const {
    return off_bits_.empty() ? NodeState::on
           : (off_bits_[node >> 6] >> (node & 63)) & 1U     ? NodeState::off
           : (booting_bits_[node >> 6] >> (node & 63)) & 1U ? NodeState::booting
                                                            : NodeState::on;
  }

  /// Free nodes go off; SimulationError if one is not free.
  void power_off(std::span<const NodeId> nodes);
  /// Off nodes start booting; SimulationError if one is not off.
  void begin_boot(std::span<const NodeId> nodes);
  /// Booting nodes are on and free; SimulationError if one is not booting.
  void end_boot(std::span<const NodeId> nodes);

  /// Appends the `count` lowest-numbered free nodes to `out` (count <= free_count()).
  void lowest_free(std::int32_t count, std::vector<NodeId>& out) const;
  /// The same nodes as runs, appended to `out` (its last run extended where they continue it).
  void lowest_free(std::int32_t count, std::vector<NodeRun>& out) const;

 private:
  std::int32_t node_count_;
  std::int32_t free_count_;
  std::int32_t off_count_ = 0, booting_count_ = 0;
  std::vector<std::uint64_t> free_bits_;
  std::vector<std::uint64_t> free_words_;  ///< bit w: free_bits_[w] has a free node (skips busy words)
  void sync_word(std::size_t w) {
    const std::uint64_t b = std::uint64_t{1} << (w & 63);
    free_words_[w >> 6] = free_bits_[w] ? free_words_[w >> 6] | b : free_words_[w >> 6] & ~b;
  }
  std::vector<std::uint64_t> off_bits_, booting_bits_;  ///< empty until a node first goes off
  /// occupy (busy) or release of runs: whole words in a run's middle set at once.
  void mark_runs(std::span<const NodeRun> runs, bool busy);
  /// Sets free_words_'s bits [from, to) (words from .. to - 1 have free nodes or none).
  void mark_words(std::size_t from, std::size_t to, bool has_free);
};

}  // namespace dcsweep
