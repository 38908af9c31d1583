// [P1]'s joint policy (Sec. 4.3): MPIT's nodes are the candidate shell centres of a modified
// MC1x1 that opens its shells at a given centre; of the allocations so collected, the one with
// the lowest peak inlet temperature wins, ties (within kTieK) by the communication cost CC_job
// as the simulation will compute it (the job's pattern, the task mapping applied), then by the
// lower centre id. By construction its peak is at most that of MC1x1's shells around any of
// MPIT's nodes (tests/unit/test_mpit.cpp checks this law).
//
// SST's Hybrid allocator (NearestAllocator "Hybrid", sst-elements eb97d8b6b) takes the same
// centres but keeps MC1x1's own score (shell compactness, first centre on ties) and never looks
// at temperatures; this follows the paper's text and issue 9 instead.
#include <algorithm>
#include <cmath>

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/alloc/mpit.hpp"
#include "dcsweep/alloc/nearest.hpp"
#include "dcsweep/comm/comm.hpp"

namespace dcsweep {
namespace {

/// Peaks closer than this (K) are a tie: far below any measurable difference, far above the
/// rounding of sums taken in different orders.
constexpr double kTieK = 1e-9;
/// Rooms of more than kMpitAllRowsMaxZones zones bound each set's peak over this many inlets first.
constexpr std::size_t kProbeInlets = 16;
/// A bound loses only where it exceeds the best peak by more than this (K) and kTieK: the
/// bound's sums are rounded apart from the peak's.
constexpr double kBoundSlackK = 1e-9;
/// On rooms of more than kMpitAllRowsMaxZones zones, the inner cubes' prefix tables (O(N) per
/// inlet) are built while the centres left times the job's nodes (what collecting their shells
/// costs) are at least this many times N.
constexpr double kSumsMinWork = 4;

class JointAllocator final : public Allocator {
 public:
  JointAllocator(const Platform& platform, comm::Mapping mapping)
      : platform_(platform), mapping_(mapping), mpit_(platform), shells_(platform) {}

  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    const Machine& machine = request.machine;
    out.clear();
    if (machine.free_count() == request.nodes) {
      machine.lowest_free(request.nodes, out);
      return true;
    }
    const std::vector<NodeId> centres = mpit_.decide(machine, request.room, request.config, request.nodes).nodes;
    double best_peak = INFINITY, best_cc = NAN;
    peaks_.start(request.room, request.config, machine.node_count(), "allocator 'joint'");
    // On rooms of many zones a set's peak costs O(nodes x zones): a set whose peak over the
    // best set's hottest inlets already loses (kBoundSlackK: the sums' rounding) is not scored.
    const bool bounded = request.room.inlet_rise_k().size() > kMpitAllRowsMaxZones;
    std::vector<Eigen::Index> probe;
    // On rooms of few zones a large job's shell is bounded before it is collected: it holds every
    // free node inside the last L_inf shell it opens, and their peak (each at its zone's least
    // power delta) cannot exceed the shell's. Counting those per zone is O(zones) per centre
    // against the shell's O(k / free share) nodes; then the whole shell's counts (the last shell
    // walked: a fifth of the nodes of intrepid's shells of 20,000) bound it the same way.
    const bool inner_bound = !bounded && request.nodes >= kJointInnerBoundMinNodes &&
                             peaks_.prepare_zone_bound(zone_of_node_) &&
                             shells_.prepare_zone_counts(machine, zone_of_node_, std::int32_t(request.room.inlet_rise_k().size()));
    // On rooms of many zones (bounded), a shell whose inner cube (the nodes inside its last
    // shell: every collection takes them) already loses over some inlets is not collected either:
    // the cube's sums over those inlets come from prefix tables (O(inlets) per centre, tables of
    // O(N inlets) built once the best set's hottest inlets are known, and again as that set
    // changes while enough centres are left to pay for it; every free node's share of those
    // inlets' rises non-negative, else no tables: a node added never cools them).
    bool tables_refused = false;
    table_inlets_.clear();
    const Eigen::VectorXd& rise = request.room.inlet_rise_k();
    for (std::size_t next = 0; next < centres.size(); ++next) {
      const NodeId centre = centres[next];
      if (!table_inlets_.empty()) {
        shells_.surely_taken_sums(centre, request.nodes, sums_);
        double lower = -INFINITY;
        for (std::size_t k = 0; k < table_inlets_.size(); ++k) lower = std::max(lower, rise[table_inlets_[k]] + sums_[k]);
        if (lower - kBoundSlackK > best_peak + kTieK) continue;
      }
      if (inner_bound && std::isfinite(best_peak)) {
        shells_.surely_taken_per_zone(centre, request.nodes, inner_counts_);
        if (peaks_.peak_of_zone_counts(inner_counts_) - kBoundSlackK > best_peak + kTieK) continue;
        // The whole shell counted per zone (the inner cube's counts and its last shell walked, not
        // the shell collected): the same bound, as high as the shell's own peak where a zone's
        // nodes add equal power.
        shells_.add_last_shell_per_zone(machine, centre, request.nodes, zone_of_node_, inner_counts_);
        if (peaks_.peak_of_zone_counts(inner_counts_) - kBoundSlackK > best_peak + kTieK) continue;
      }
      // Most shells lose on their peak, which does not need them sorted: only a shell that wins
      // or ties is sorted (to compare it with the best and to keep it).
      shells_.mc1x1_around_unsorted(machine, centre, request.nodes, nodes_);
      if (!probe.empty() && peaks_.peak_over(nodes_, probe) - kBoundSlackK > best_peak + kTieK) continue;
      const double peak = peaks_.peak(nodes_);
      if (peak > best_peak + kTieK) continue;
      shells_.sort_ascending(nodes_);
      if (nodes_ == out) continue;
      if (peak >= best_peak - kTieK) {  // a tie: the cheaper communication wins
        if (std::isnan(best_cc)) best_cc = comm_cost(out, request.attributes);
        const double cc = comm_cost(nodes_, request.attributes);
        if (!(cc < best_cc)) continue;
        best_cc = cc;
      } else {
        best_cc = NAN;
      }
      best_peak = std::min(best_peak, peak);
      out.swap(nodes_);
      if (bounded) {
        probe = peaks_.hottest(kProbeInlets);
        const double left = double(centres.size() - next - 1);
        if (!tables_refused && left * request.nodes >= kSumsMinWork * machine.node_count()) {
          tables_refused = !update_tables(machine, probe);
        }
      }
    }
    return true;
  }

 private:
  /// The inner cubes' tables for `inlets` (in the order peak_over reads them, which keeps one
  /// copy of their rows), unless they are built for the same set. False, and no tables, where a
  /// free node's share of a rise is negative.
  bool update_tables(const Machine& machine, const std::vector<Eigen::Index>& inlets) {
    if (std::is_permutation(inlets.begin(), inlets.end(), table_inlets_.begin(), table_inlets_.end())) return true;
    peaks_.node_weights(inlets, weights_);
    const bool built = shells_.prepare_box_sums(machine, weights_, inlets.size());
    table_inlets_ = built ? inlets : std::vector<Eigen::Index>{};
    sums_.resize(table_inlets_.size());
    return built;
  }

  double comm_cost(std::vector<NodeId> nodes, const JobAttributes& attributes) const {
    const comm::TaskGraph graph = comm::task_graph(attributes.comm_pattern, static_cast<std::int32_t>(nodes.size()));
    comm::map_tasks(platform_, nodes, graph, mapping_);
    return comm::comm_cost(platform_, nodes, graph);
  }

  const Platform& platform_;
  comm::Mapping mapping_;
  MpitSolver mpit_;
  NearestSearch shells_;
  PeakRise peaks_;
  std::vector<NodeId> nodes_;  ///< the shell being scored
  std::vector<std::int32_t> zone_of_node_, inner_counts_;  ///< the inner bound's
  std::vector<Eigen::Index> table_inlets_;                 ///< the inlets of the inner cubes' tables (none: no tables)
  std::vector<double> weights_, sums_;      ///< per node and inlet; a cube's sums
};

}  // namespace

AllocatorRegistry::Entry joint_allocator_entry() {
  return {"joint",
          "[P1] Sec. 4.3: MC1x1 shells opened at each of MPIT's nodes; the allocation with the lowest peak inlet "
          "temperature, ties by communication cost; needs a room and a network",
          {},
          [](const BuildContext& ctx, const Platform& platform) -> std::unique_ptr<Allocator> {
            require_room(platform, ctx.params, "joint");
            require_network(platform, "joint");
            return std::make_unique<JointAllocator>(platform, comm::mapping_of(ctx.params.text("task_mapping")));
          }};
}

}  // namespace dcsweep
