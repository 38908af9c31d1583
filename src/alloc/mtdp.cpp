// mtdp: total-power-minimising consolidation (alloc/thermal_rank.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/alloc/mpit.hpp"
#include "dcsweep/alloc/thermal_rank.hpp"
#include "dcsweep/thermal/cooling.hpp"
#include "dcsweep/thermal/inlet_model.hpp"
#include "dcsweep/thermal/room.hpp"
#include "least_indices.hpp"

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

  /// Greedy: one node at a time, the free node whose start leaves the least total power (the
  /// lowest id on ties). What a node's start does depends only on its zone and its power delta:
  /// each step scores each such class once and takes the class's lowest free node.
  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    const RoomView& room = request.room;
    const HeatDistribution& d = heat_of(room, "allocator 'mtdp'");
    const TotalPower total{room, room.supply_share()};
    Eigen::VectorXd rise = room.inlet_rise_k();
    double compute = room.zone_power_w().sum();
    if (group_free_nodes(request) == request.nodes) {
      // Every free node, whatever the order the greedy would take them in (often so: mtdp
      // consolidates, so the nodes on and idle are those booted for the job that starts).
      for (const Class& c : classes_) out.insert(out.end(), c.nodes.begin(), c.nodes.end());
      std::sort(out.begin(), out.end());
      return true;
    }
    const Eigen::VectorXd* share = room.supply_share();
    const double redline = room.redline_c();
    if (std::ssize(steepest_) != d.size()) steepest_ = steepest_rise(d, share);
    Eigen::VectorXd trial;
    for (std::int32_t k = 0; k < request.nodes; ++k) {
      Class* best = nullptr;
      double best_w = INFINITY;
      // The supply the redline allows with a class's node added is at most the least over the
      // tightest inlets: while it stays >= 0 (where COP grows with it), the total power there
      // bounds the class's from below, and a class whose bound cannot win is not scored.
      const double supply_now = highest_supply_c(rise, share, redline);
      auto margin = [&](Eigen::Index i) { return share ? (redline - rise(i)) / (*share)(i) : redline - rise(i); };
      const std::vector<Eigen::Index> tight =
          least_indices(rise.size(), 16, [&](Eigen::Index a, Eigen::Index b) { return margin(a) < margin(b); });
      const std::array<const double*, 16> rows = tight_rows(d, tight);
      for (Class& c : classes_) {
        if (c.next == c.nodes.size()) continue;
        if (best && supply_now - c.delta * steepest_[std::size_t(c.zone)] > kSupplyMarginC) {
          double supply = INFINITY;
          for (std::size_t r = 0; r < tight.size(); ++r) {
            const Eigen::Index i = tight[r];
            const double entry = rows[r] ? rows[r][c.zone] : d.entry(i, c.zone);
            const double t = redline - (rise(i) + entry * c.delta);
            supply = std::min(supply, share ? t / (*share)(i) : t);
          }
          const double bound = compute + c.delta + (compute + c.delta) / coefficient_of_performance(supply);
          if (bound > best_w || (bound == best_w && c.nodes[c.next] > best->nodes[best->next])) continue;
        }
        d.add_column(c.zone, c.delta, rise, trial);
        const double w = total(compute + c.delta, trial);
        if (w < best_w || (w == best_w && c.nodes[c.next] < best->nodes[best->next])) best = &c, best_w = w;
      }
      if (!best) return false;
      d.add_column(best->zone, best->delta, rise, rise);
      compute += best->delta;
      out.push_back(best->nodes[best->next++]);
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
  /// Free nodes of one zone and one power delta, ascending; `next` the first not yet taken.
  struct Class {
    std::int32_t zone;
    double delta;
    std::vector<NodeId> nodes;
    std::size_t next = 0;
  };

  /// classes_ from the free nodes; returns their count.
  std::int32_t group_free_nodes(const AllocationRequest& request) {
    classes_.clear();
    std::int32_t free = 0;
    std::map<std::pair<std::int32_t, double>, std::size_t> index;
    for (NodeId n = 0; n < node_count_; ++n) {
      if (!request.machine.is_free(n)) continue;
      const std::int32_t z = request.room.zone_of(n);
      const double delta = request.room.busy_power_w(n, request.config) - request.room.idle_power_w(n);
      const auto [it, added] = index.try_emplace({z, delta}, classes_.size());
      if (added) classes_.push_back({z, delta, {}});
      classes_[it->second].nodes.push_back(n);
      ++free;
    }
    return free;
  }

  /// Per zone: the most a watt there lowers any inlet's allowed supply (max_i D(i, z) / s_i).
  static std::vector<double> steepest_rise(const HeatDistribution& d, const Eigen::VectorXd* share) {
    std::vector<double> out(std::size_t(d.size()), 0.0);
    Eigen::VectorXd column;
    for (Eigen::Index z = 0; z < d.size(); ++z) {
      d.column(z, column);
      out[std::size_t(z)] = share ? (column.array() / share->array()).maxCoeff() : column.maxCoeff();
    }
    return out;
  }

  /// Above this supply (C) rounding cannot take the true one below 0 (where COP stops growing).
  static constexpr double kSupplyMarginC = 1e-3;

  /// D's rows at the tight inlets, each copied the first time its inlet is tight (D keeps its
  /// columns: an entry read there is a cache miss, and the same few inlets stay tight across
  /// steps and decisions); null past kRowsKept rows (then entries are read one by one). The
  /// same values as D.entry().
  std::array<const double*, 16> tight_rows(const HeatDistribution& d, const std::vector<Eigen::Index>& tight) {
    std::array<const double*, 16> out{};
    if (rows_of_.size() != std::size_t(d.size()) || rows_d_ != &d) rows_of_.assign(std::size_t(d.size()), -1), rows_.clear(), rows_d_ = &d;
    for (std::size_t k = 0; k < tight.size() && k < out.size(); ++k) {
      std::int32_t& slot = rows_of_[std::size_t(tight[k])];
      if (slot < 0 && rows_.size() < kRowsKept) {
        slot = std::int32_t(rows_.size());
        d.row(tight[k], rows_.emplace_back(std::size_t(d.size())).data());
      }
      if (slot >= 0) out[k] = rows_[std::size_t(slot)].data();
    }
    return out;
  }
  static constexpr std::size_t kRowsKept = 256;
  std::vector<std::int32_t> rows_of_;  ///< per inlet: its row in rows_, or -1
  std::vector<std::vector<double>> rows_;
  const HeatDistribution* rows_d_ = nullptr;

  std::vector<Class> classes_;
  std::vector<double> steepest_;
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
