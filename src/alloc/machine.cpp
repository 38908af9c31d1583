#include "dcsweep/alloc/machine.hpp"

#include <bit>
#include <string>

#include "dcsweep/core/error.hpp"

namespace dcsweep {
namespace {

constexpr std::uint64_t bit(NodeId node) { return std::uint64_t{1} << (node & 63); }

}  // namespace

Machine::Machine(std::int32_t node_count)
    : node_count_(node_count),
      free_count_(node_count),
      free_bits_((static_cast<std::size_t>(node_count) + 63) / 64, ~std::uint64_t{0}) {
  if (node_count % 64 != 0) free_bits_.back() = (std::uint64_t{1} << (node_count % 64)) - 1;
}

void Machine::occupy(std::span<const NodeId> nodes) {
  for (const NodeId node : nodes) {
    std::uint64_t& word = free_bits_[node >> 6];
    if ((word & bit(node)) == 0) throw SimulationError("node " + std::to_string(node) + " given to two jobs at once");
    word &= ~bit(node);
  }
  free_count_ -= static_cast<std::int32_t>(nodes.size());
}

void Machine::release(std::span<const NodeId> nodes) {
  for (const NodeId node : nodes) {
    std::uint64_t& word = free_bits_[node >> 6];
    if ((word & bit(node)) != 0) throw SimulationError("node " + std::to_string(node) + " released twice");
    word |= bit(node);
  }
  free_count_ += static_cast<std::int32_t>(nodes.size());
}

namespace {

/// Moves nodes from the set `from` (which each must be in, else `what` fails) to `to`.
void move_bits(std::span<const NodeId> nodes, std::vector<std::uint64_t>& from, std::vector<std::uint64_t>* to,
               const char* what) {
  for (const NodeId node : nodes) {
    std::uint64_t& word = from[node >> 6];
    if ((word & bit(node)) == 0) throw SimulationError("node " + std::to_string(node) + " " + what);
    word &= ~bit(node);
    if (to) (*to)[node >> 6] |= bit(node);
  }
}

}  // namespace

void Machine::power_off(std::span<const NodeId> nodes) {
  if (off_bits_.empty()) {
    off_bits_.assign(free_bits_.size(), 0);
    booting_bits_.assign(free_bits_.size(), 0);
  }
  move_bits(nodes, free_bits_, &off_bits_, "switched off while not free");
  free_count_ -= static_cast<std::int32_t>(nodes.size());
  off_count_ += static_cast<std::int32_t>(nodes.size());
}

void Machine::begin_boot(std::span<const NodeId> nodes) {
  if (off_bits_.empty() && !nodes.empty()) throw SimulationError("node " + std::to_string(nodes[0]) + " booted while not off");
  move_bits(nodes, off_bits_, &booting_bits_, "booted while not off");
  off_count_ -= static_cast<std::int32_t>(nodes.size());
  booting_count_ += static_cast<std::int32_t>(nodes.size());
}

void Machine::end_boot(std::span<const NodeId> nodes) {
  if (booting_bits_.empty() && !nodes.empty()) throw SimulationError("node " + std::to_string(nodes[0]) + " not booting");
  move_bits(nodes, booting_bits_, &free_bits_, "finished a boot it had not begun");
  booting_count_ -= static_cast<std::int32_t>(nodes.size());
  free_count_ += static_cast<std::int32_t>(nodes.size());
}

void Machine::lowest_free(std::int32_t count, std::vector<NodeId>& out) const {
  out.reserve(out.size() + static_cast<std::size_t>(count));
  for (std::size_t w = 0; count > 0 && w < free_bits_.size(); ++w) {
    std::uint64_t bits = free_bits_[w];
    const auto base = static_cast<NodeId>(w * 64);
    if (bits == ~std::uint64_t{0} && count >= 64) {  // a whole free word: 64 consecutive ids
      for (NodeId i = 0; i < 64; ++i) out.push_back(base + i);
      count -= 64;
      continue;
    }
    for (; bits != 0 && count > 0; bits &= bits - 1, --count) {
      out.push_back(base + static_cast<NodeId>(std::countr_zero(bits)));
    }
  }
}

}  // namespace dcsweep
