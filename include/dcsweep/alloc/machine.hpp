#pragma once
// Which nodes are free. Keeps a bitset (lowest free ids, for first-fit) and an indexed free list
// (O(1) removal, for random choice) in step.
#include <cstdint>
#include <span>
#include <vector>

namespace dcsweep {

using NodeId = std::int32_t;

class Machine {
 public:
  explicit Machine(std::int32_t node_count);

  std::int32_t node_count() const { return node_count_; }
  std::int32_t free_count() const { return static_cast<std::int32_t>(free_list_.size()); }
  bool is_free(NodeId node) const { return position_[node] >= 0; }

  /// Marks nodes busy; SimulationError if one is not free (two jobs on one node).
  void occupy(std::span<const NodeId> nodes);
  /// Marks nodes free; SimulationError if one is already free.
  void release(std::span<const NodeId> nodes);

  /// Appends the `count` lowest-numbered free nodes to `out` (count <= free_count()).
  void lowest_free(std::int32_t count, std::vector<NodeId>& out) const;
  /// The free nodes, in no particular order.
  std::span<const NodeId> free_nodes() const { return free_list_; }

 private:
  std::int32_t node_count_;
  std::vector<std::uint64_t> free_bits_;
  std::vector<NodeId> free_list_;
  std::vector<std::int32_t> position_;  ///< index in free_list_, -1 when busy
};

}  // namespace dcsweep
