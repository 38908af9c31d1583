#include "nearest_allocator.hpp"

namespace dcsweep {

AllocatorRegistry::Entry genalg_allocator_entry() {
  return nearest_allocator_entry(NearestKind::genalg,
                                 "Gen-Alg (Krumke et al., [P1]): around every free node, the L1-nearest free nodes; "
                                 "the set with the least pairwise hops (mesh or torus)");
}

}  // namespace dcsweep
