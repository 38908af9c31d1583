#include "dcsweep/alloc/allocator.hpp"

namespace dcsweep {
namespace {

/// The lowest-numbered free nodes: node order is the platform's (rack by rack).
class FirstFitAllocator final : public Allocator {
 public:
  bool allocate(std::int32_t nodes, const Machine& machine, std::vector<NodeId>& out) override {
    machine.lowest_free(nodes, out);
    return true;
  }
};

}  // namespace

AllocatorRegistry::Entry first_fit_allocator_entry() {
  return {"first_fit", "the lowest-numbered free nodes, in node order", {},
          [](const BuildContext&, const Platform&) { return std::make_unique<FirstFitAllocator>(); }};
}

}  // namespace dcsweep
