// mtdp: total-power-minimising consolidation (alloc/thermal_rank.hpp).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/alloc/mpit.hpp"
#include "dcsweep/alloc/thermal_rank.hpp"
#include "dcsweep/thermal/cooling.hpp"
#include "dcsweep/thermal/inlet_model.hpp"
#include "dcsweep/thermal/room.hpp"

namespace dcsweep {
namespace {

/// Node plus cooling power of a room state: the CRAC supplies the warmest air the redline allows.
struct TotalPower {
  const RoomView& room;
  const Eigen::VectorXd* share;

  double operator()(double compute_w, const Eigen::VectorXd& rise) const {
    return compute_w + compute_w / coefficient_of_performance(highest_supply_c(rise, share, room.redline_c()));
  }
};

class MtdpAllocator final : public Allocator {
 public:
  explicit MtdpAllocator(std::int32_t node_count) : node_count_(node_count) {}

  /// Greedy: one node at a time, the free node whose start leaves the least total power.
  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    const RoomView& room = request.room;
    const HeatDistribution& d = heat_of(room, "allocator 'mtdp'");
    const TotalPower total{room, room.supply_share()};
    Eigen::VectorXd rise = room.inlet_rise_k();
    double compute = room.zone_power_w().sum();
    Eigen::VectorXd trial, column;
    taken_.assign(std::size_t(node_count_), 0);
    for (std::int32_t k = 0; k < request.nodes; ++k) {
      NodeId best = -1;
      double best_w = INFINITY, best_delta = 0;
      std::int32_t last_zone = -1;
      double last_delta = NAN, last_w = NAN;
      for (NodeId n = 0; n < node_count_; ++n) {
        if (!request.machine.is_free(n) || taken_[std::size_t(n)]) continue;
        const std::int32_t z = room.zone_of(n);
        const double delta = room.busy_power_w(n, request.config) - room.idle_power_w(n);
        if (z != last_zone || delta != last_delta) {  // nodes of one zone and power cost the same
          d.column(z, column);
          trial = rise + column * delta;
          last_w = total(compute + delta, trial);
          last_zone = z;
          last_delta = delta;
        }
        if (last_w < best_w) {
          best = n;
          best_w = last_w;
          best_delta = delta;
        }
      }
      if (best < 0) return false;
      d.column(room.zone_of(best), column);
      rise += column * best_delta;
      compute += best_delta;
      taken_[std::size_t(best)] = 1;
      out.push_back(best);
    }
    std::sort(out.begin(), out.end());
    return true;
  }

  void manage_power(NodeControl& control) override { consolidate(control, power_order(control.room())); }

  /// Kept on first: the nodes that cost least to run alone on an idle room.
  std::span<const NodeId> power_order(const RoomView& room) override {
    if (!order_.empty()) return order_;
    const HeatDistribution& d = heat_of(room, "allocator 'mtdp'");
    const TotalPower total{room, room.supply_share()};
    const Eigen::VectorXd idle_w = zone_power_w(room, node_count_, d.size(), false);
    const Eigen::VectorXd rise = d.times(idle_w);
    Eigen::VectorXd column;
    std::vector<double> cost(static_cast<std::size_t>(node_count_));
    for (std::int32_t n = 0; n < node_count_; ++n) {
      const double delta = room.busy_power_w(n, {}) - room.idle_power_w(n);
      d.column(room.zone_of(n), column);
      cost[std::size_t(n)] = total(idle_w.sum() + delta, rise + column * delta);
    }
    order_.resize(std::size_t(node_count_));
    std::iota(order_.begin(), order_.end(), 0);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](NodeId a, NodeId b) { return cost[std::size_t(a)] < cost[std::size_t(b)]; });
    return order_;
  }

 private:
  std::int32_t node_count_;
  std::vector<char> taken_;
  std::vector<NodeId> order_;
};

}  // namespace

AllocatorRegistry::Entry mtdp_allocator_entry() {
  return {"mtdp",
          "MTDP (Pakbaznia and Pedram, [P4] ref. 7): one node at a time, the free node leaving the least node + "
          "cooling power (supply at the redline's bound); idle nodes off, booted for waiting jobs (node_boot_s, "
          "node_boot_energy_j); needs a room",
          {},
          [](const BuildContext& ctx, const Platform& platform) -> std::unique_ptr<Allocator> {
            require_room(platform, ctx.params, "mtdp");
            return std::make_unique<MtdpAllocator>(platform.node_count);
          }};
}

}  // namespace dcsweep
