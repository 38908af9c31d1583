#include "nearest_allocator.hpp"

namespace dcsweep {

AllocatorRegistry::Entry mm_allocator_entry() {
  return nearest_allocator_entry(NearestKind::mm,
                                 "Manhattan median ([P1]): around every intersection of free nodes' coordinates, the "
                                 "L1-nearest free nodes; the set with the least pairwise hops (mesh or torus)");
}

}  // namespace dcsweep
