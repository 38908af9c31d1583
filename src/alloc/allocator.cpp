#include "dcsweep/alloc/allocator.hpp"

namespace dcsweep {

bool Allocator::allocate(std::int32_t nodes, const Machine& machine, std::vector<NodeId>& out) {
  static const NoRoom no_room;
  static const JobAttributes attributes;
  static const JobConfig config;
  const Job job{0, 0, 1, 1, nodes};
  return allocate(AllocationRequest{job, nodes, config, attributes, machine, no_room, 0.0}, out);
}

const AllocatorRegistry& allocator_registry() {
  static const AllocatorRegistry registry("allocator",
                                          {first_fit_allocator_entry(), random_allocator_entry(), mc1x1_allocator_entry(),
                                           mm_allocator_entry(), genalg_allocator_entry(), bqp_allocator_entry(),
                                           mpit_allocator_entry(), joint_allocator_entry()});
  return registry;
}

}  // namespace dcsweep
