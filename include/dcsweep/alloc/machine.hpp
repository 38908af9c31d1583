#pragma once
// Which nodes are free: one bit per node, so first-fit is a word scan and a job start or end
// costs one bit operation per node.
#include <cstdint>
#include <span>
#include <vector>

namespace dcsweep {

using NodeId = std::int32_t;

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

  /// Appends the `count` lowest-numbered free nodes to `out` (count <= free_count()).
  void lowest_free(std::int32_t count, std::vector<NodeId>& out) const;

 private:
  std::int32_t node_count_;
  std::int32_t free_count_;
  std::vector<std::uint64_t> free_bits_;
};

}  // namespace dcsweep
