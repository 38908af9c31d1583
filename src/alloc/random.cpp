#include "dcsweep/alloc/allocator.hpp"

namespace dcsweep {
namespace {

/// Uniformly random free nodes, from the simulation's allocator stream: a partial Fisher-Yates
/// draw over the free nodes listed in id order (so the draw depends only on which nodes are
/// free, not on the history that freed them).
class RandomAllocator final : public Allocator {
 public:
  explicit RandomAllocator(StreamKey key) : rng_(key, StreamPurpose::allocator) {}

  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    const Machine& machine = request.machine;
    const std::int32_t nodes = request.nodes;
    pool_.clear();
    machine.lowest_free(machine.free_count(), pool_);
    const auto size = static_cast<std::int64_t>(pool_.size());
    for (std::int64_t i = 0; i < nodes; ++i) {
      const auto j = static_cast<std::size_t>(rng_.integer(i, size - 1));
      std::swap(pool_[static_cast<std::size_t>(i)], pool_[j]);
      out.push_back(pool_[static_cast<std::size_t>(i)]);
    }
    return true;
  }

 private:
  RngStream rng_;
  std::vector<NodeId> pool_;
};

}  // namespace

AllocatorRegistry::Entry random_allocator_entry() {
  return {"random", "uniformly random free nodes (seeded by seed, point, replicate)", {},
          [](const BuildContext& ctx, const Platform&) { return std::make_unique<RandomAllocator>(ctx.key); }};
}

}  // namespace dcsweep
