#pragma once
// Allocators decide which nodes a job gets once a scheduler decided that it starts (or grows).
// They see the request (the job, its configuration and attributes), the machine's free and
// powered-off nodes, and a read-only view of the room's physical state now (node powers, inlet
// rises, D, the supply temperature). Policies that manage node power (consolidation that
// switches idle nodes off, [P4] MTDP) act through `manage_power`, called once per event time
// after the scheduler.
#include <memory>
#include <span>
#include <vector>

#include "dcsweep/alloc/machine.hpp"
#include "dcsweep/core/registry.hpp"
#include "dcsweep/platform/platform.hpp"
#include "dcsweep/thermal/room_view.hpp"
#include "dcsweep/workload/workload.hpp"

namespace dcsweep {

struct AllocationRequest {
  const Job& job;
  std::int32_t nodes;               ///< how many nodes to choose (the configuration's count, or a resize's extra)
  const JobConfig& config;
  const JobAttributes& attributes;
  const Machine& machine;           ///< free nodes: machine.is_free(n); power states: machine.state(n)
  const RoomView& room;
  double now_s;
};

/// Switching nodes off and on, for allocators that manage power. Each returns false (and does
/// nothing) when a node is not in the state the action needs (free to go off; off to boot).
class NodeControl {
 public:
  virtual ~NodeControl() = default;
  virtual const Machine& machine() const = 0;
  virtual const RoomView& room() const = 0;
  virtual double now() const = 0;
  virtual bool power_off(std::span<const NodeId> nodes) = 0;
  /// The nodes become free after the boot time (node_boot_s), drawing the boot power meanwhile.
  virtual bool boot(std::span<const NodeId> nodes) = 0;
  /// Nodes the waiting jobs ask for (each job's own count), summed: the demand consolidation serves.
  virtual std::int64_t waiting_nodes() const = 0;
};

/// Consolidation ([P4] Sec. VII-A's "idle servers turned off"; MTDP): boots off nodes, best first
/// in `order` (a ranking of every node, most wanted on first; empty: node order), while the free
/// and booting nodes fall short of the waiting demand, and switches off free nodes, worst first,
/// beyond it. Booting nodes count as on their way: a boot is never duplicated.
void consolidate(NodeControl& control, std::span<const NodeId> order);

class Allocator {
 public:
  virtual ~Allocator() = default;
  /// Chooses `request.nodes` free nodes into `out` (empty on entry). Returns false when it cannot
  /// place the job now (a contiguity- or temperature-constrained policy may refuse); the scheduler
  /// then treats the job as not fitting. Called only when machine.free_count() >= request.nodes.
  virtual bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) = 0;
  /// The same choice as runs of consecutive ids, in allocate's order (the engine keeps these
  /// instead of ids when nothing in a run reads a job's node ids). By default allocate's nodes
  /// cut into runs; a policy that finds runs directly (first fit) overrides it.
  virtual bool allocate_runs(const AllocationRequest& request, std::vector<NodeRun>& out);
  /// The same for a plain request of `nodes` nodes (no job, no room): tests and benchmarks.
  bool allocate(std::int32_t nodes, const Machine& machine, std::vector<NodeId>& out);
  /// Once per event time, after the scheduler: switch nodes off or on.
  virtual void manage_power(NodeControl& /*control*/) {}
  /// Which nodes this policy would rather keep on, best first (consolidation's order, for
  /// idle_nodes_off); empty: node order.
  virtual std::span<const NodeId> power_order(const RoomView& /*room*/) { return {}; }
};

using AllocatorRegistry = Registry<Allocator, const Platform&>;
const AllocatorRegistry& allocator_registry();

// Entries, each defined beside its implementation.
AllocatorRegistry::Entry first_fit_allocator_entry();
AllocatorRegistry::Entry random_allocator_entry();
AllocatorRegistry::Entry mc1x1_allocator_entry();  // these three: alloc/nearest.hpp
AllocatorRegistry::Entry mm_allocator_entry();
AllocatorRegistry::Entry genalg_allocator_entry();
AllocatorRegistry::Entry bqp_allocator_entry();  // alloc/bqp.hpp
AllocatorRegistry::Entry mpit_allocator_entry();   // alloc/mpit.hpp
AllocatorRegistry::Entry joint_allocator_entry();
AllocatorRegistry::Entry lrh_allocator_entry();    // these three: alloc/thermal_rank.hpp
AllocatorRegistry::Entry hts_allocator_entry();
AllocatorRegistry::Entry mtdp_allocator_entry();

}  // namespace dcsweep
