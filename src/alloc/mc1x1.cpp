#include "nearest_allocator.hpp"

namespace dcsweep {

AllocatorRegistry::Entry mc1x1_allocator_entry() {
  return nearest_allocator_entry(NearestKind::mc1x1,
                                 "MC1x1 (Bender et al., [P1]): around every free node, the nodes of the smallest "
                                 "L_inf shells; the centre with the least total shell distance (mesh or torus)");
}

}  // namespace dcsweep
