#pragma once
// Allocators decide which nodes a job gets once a scheduler decided that it starts.
#include <memory>
#include <vector>

#include "dcsweep/alloc/machine.hpp"
#include "dcsweep/core/registry.hpp"
#include "dcsweep/platform/platform.hpp"

namespace dcsweep {

class Allocator {
 public:
  virtual ~Allocator() = default;
  /// Chooses `nodes` free nodes into `out` (empty on entry). Returns false when it cannot place
  /// the job now (a contiguity- or temperature-constrained policy may refuse); the scheduler then
  /// treats the job as not fitting. Called only when machine.free_count() >= nodes.
  virtual bool allocate(std::int32_t nodes, const Machine& machine, std::vector<NodeId>& out) = 0;
};

using AllocatorRegistry = Registry<Allocator, const Platform&>;
const AllocatorRegistry& allocator_registry();

// Entries, each defined beside its implementation.
AllocatorRegistry::Entry first_fit_allocator_entry();
AllocatorRegistry::Entry random_allocator_entry();

}  // namespace dcsweep
