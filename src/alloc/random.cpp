#include "dcsweep/alloc/allocator.hpp"

#include <unordered_map>

namespace dcsweep {
namespace {

/// Uniformly random free nodes, from the simulation's allocator stream. A partial Fisher-Yates
/// draw over the free list, with the swaps kept in a map so a draw costs O(nodes), not O(free).
/// The free list's order is a deterministic function of the simulation's history.
class RandomAllocator final : public Allocator {
 public:
  explicit RandomAllocator(StreamKey key) : rng_(key, StreamPurpose::allocator) {}

  bool allocate(std::int32_t nodes, const Machine& machine, std::vector<NodeId>& out) override {
    const auto free = machine.free_nodes();
    const auto size = static_cast<std::int64_t>(free.size());
    swapped_.clear();
    auto slot = [&](std::int64_t i) {
      const auto it = swapped_.find(i);
      return it == swapped_.end() ? free[static_cast<std::size_t>(i)] : it->second;
    };
    for (std::int64_t i = 0; i < nodes; ++i) {
      const std::int64_t j = rng_.integer(i, size - 1);
      const NodeId chosen = slot(j);
      swapped_[j] = slot(i);
      out.push_back(chosen);
    }
    return true;
  }

 private:
  RngStream rng_;
  std::unordered_map<std::int64_t, NodeId> swapped_;
};

}  // namespace

AllocatorRegistry::Entry random_allocator_entry() {
  return {"random", "uniformly random free nodes (seeded by seed, point, replicate)", {},
          [](const BuildContext& ctx, const Platform&) { return std::make_unique<RandomAllocator>(ctx.key); }};
}

}  // namespace dcsweep
