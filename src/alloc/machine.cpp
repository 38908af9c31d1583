#include "dcsweep/alloc/machine.hpp"

#include <bit>
#include <numeric>
#include <string>

#include "dcsweep/core/error.hpp"

namespace dcsweep {

Machine::Machine(std::int32_t node_count)
    : node_count_(node_count),
      free_bits_((static_cast<std::size_t>(node_count) + 63) / 64, ~std::uint64_t{0}),
      free_list_(static_cast<std::size_t>(node_count)),
      position_(static_cast<std::size_t>(node_count)) {
  if (node_count % 64 != 0) free_bits_.back() = (std::uint64_t{1} << (node_count % 64)) - 1;
  std::iota(free_list_.begin(), free_list_.end(), 0);
  std::iota(position_.begin(), position_.end(), 0);
}

void Machine::occupy(std::span<const NodeId> nodes) {
  for (const NodeId node : nodes) {
    const std::int32_t pos = position_[node];
    if (pos < 0) throw SimulationError("node " + std::to_string(node) + " given to two jobs at once");
    const NodeId moved = free_list_.back();
    free_list_[pos] = moved;
    position_[moved] = pos;
    free_list_.pop_back();
    position_[node] = -1;
    free_bits_[node >> 6] &= ~(std::uint64_t{1} << (node & 63));
  }
}

void Machine::release(std::span<const NodeId> nodes) {
  for (const NodeId node : nodes) {
    if (position_[node] >= 0) throw SimulationError("node " + std::to_string(node) + " released twice");
    position_[node] = static_cast<std::int32_t>(free_list_.size());
    free_list_.push_back(node);
    free_bits_[node >> 6] |= std::uint64_t{1} << (node & 63);
  }
}

void Machine::lowest_free(std::int32_t count, std::vector<NodeId>& out) const {
  for (std::size_t word = 0; count > 0 && word < free_bits_.size(); ++word) {
    for (std::uint64_t bits = free_bits_[word]; bits != 0 && count > 0; bits &= bits - 1, --count) {
      out.push_back(static_cast<NodeId>(word * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
    }
  }
}

}  // namespace dcsweep
