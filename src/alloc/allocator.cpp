#include "dcsweep/alloc/allocator.hpp"

#include <vector>

namespace dcsweep {

bool Allocator::allocate(std::int32_t nodes, const Machine& machine, std::vector<NodeId>& out) {
  static const NoRoom no_room;
  static const JobAttributes attributes;
  static const JobConfig config;
  const Job job{0, 0, 1, 1, nodes};
  return allocate(AllocationRequest{job, nodes, config, attributes, machine, no_room, 0.0}, out);
}

bool Allocator::allocate_runs(const AllocationRequest& request, std::vector<NodeRun>& out) {
  std::vector<NodeId> nodes;
  if (!allocate(request, nodes)) return false;
  append_runs(nodes, out);
  return true;
}

const AllocatorRegistry& allocator_registry() {
  static const AllocatorRegistry registry("allocator",
                                          {first_fit_allocator_entry(), random_allocator_entry(), mc1x1_allocator_entry(),
                                           mm_allocator_entry(), genalg_allocator_entry(), bqp_allocator_entry(),
                                           mpit_allocator_entry(), joint_allocator_entry(), lrh_allocator_entry(),
                                           hts_allocator_entry(), mtdp_allocator_entry()});
  return registry;
}

void consolidate(NodeControl& control, std::span<const NodeId> order) {
  const Machine& machine = control.machine();
  const std::int64_t demand = control.waiting_nodes();
  const std::int64_t ready = machine.free_count() + machine.booting_count();
  std::vector<NodeId> chosen;
  const auto n = machine.node_count();
  const auto node_at = [&](std::int32_t i) { return order.empty() ? i : order[std::size_t(i)]; };
  if (demand > ready && machine.off_count() > 0) {
    for (std::int32_t i = 0; i < n && std::int64_t(chosen.size()) < demand - ready; ++i) {
      if (machine.state(node_at(i)) == NodeState::off) chosen.push_back(node_at(i));
    }
    if (!chosen.empty()) control.boot(chosen);
  } else if (demand < machine.free_count()) {
    for (std::int32_t i = n; i-- > 0 && std::int64_t(chosen.size()) < machine.free_count() - demand;) {
      if (machine.is_free(node_at(i))) chosen.push_back(node_at(i));
    }
    if (!chosen.empty()) control.power_off(chosen);
  }
}

}  // namespace dcsweep
