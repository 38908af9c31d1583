#include "dcsweep/alloc/allocator.hpp"

namespace dcsweep {

const AllocatorRegistry& allocator_registry() {
  static const AllocatorRegistry registry("allocator",
                                          {first_fit_allocator_entry(), random_allocator_entry()});
  return registry;
}

}  // namespace dcsweep
