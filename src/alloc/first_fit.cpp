#include "dcsweep/alloc/allocator.hpp"

namespace dcsweep {
namespace {

/// The lowest-numbered free nodes: node order is the platform's (rack by rack).
class FirstFitAllocator final : public Allocator {
 public:
  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    const Machine& machine = request.machine;
    const std::int32_t nodes = request.nodes;
    machine.lowest_free(nodes, out);
    return true;
  }
  bool allocate_runs(const AllocationRequest& request, std::vector<NodeRun>& out) override {
    request.machine.lowest_free(request.nodes, out);
    return true;
  }
};

}  // namespace

AllocatorRegistry::Entry first_fit_allocator_entry() {
  return {"first_fit", "the lowest-numbered free nodes, in node order", {},
          [](const BuildContext&, const Platform&) { return std::make_unique<FirstFitAllocator>(); }};
}

}  // namespace dcsweep
