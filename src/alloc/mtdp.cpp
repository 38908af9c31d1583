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
    return of_supply(compute_w, highest_supply_c(rise, share, room.redline_c()));
  }
  static double of_supply(double compute_w, double supply_c) {
    return compute_w + compute_w / coefficient_of_performance(supply_c);
  }
};

class MtdpAllocator final : public Allocator {
 public:
  explicit MtdpAllocator(std::int32_t node_count) : node_count_(node_count) {}

  /// Greedy: one node at a time, the free node whose start leaves the least total power (the
  /// lowest id on ties). What a node's start does depends only on its zone and its power delta:
  /// each step takes the best class's lowest free node, scoring only classes that can win.
  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    const RoomView& room = request.room;
    const HeatDistribution& d = heat_of(room, "allocator 'mtdp'");
    // The room read first, whatever follows: reading it applies the moment's power changes, and
    // when they are applied sets the rises' rounding from here on.
    Greedy g{d, room.supply_share(), room.redline_c(), room.inlet_rise_k(), room.zone_power_w().sum()};
    if (group_free_nodes(request) == request.nodes) {
      // Every free node, whatever the order the greedy would take them in (often so: mtdp
      // consolidates, so the nodes on and idle are those booted for the job that starts).
      for (const Class& c : classes_) out.insert(out.end(), c.nodes.begin(), c.nodes.end());
      std::sort(out.begin(), out.end());
      return true;
    }
    prepare(d, g.share);
    bool adds_power = true;
    for (const Class& c : classes_) g.most_delta = std::max(g.most_delta, c.delta), adds_power = adds_power && c.delta >= 0;
    heaps_.clear();
    for (std::int32_t k = 0; k < request.nodes; ++k) {
      g.supply_now = highest_supply_c(g.rise, g.share, g.redline);
      g.best = nullptr;
      g.best_w = INFINITY;
      if (adds_power && g.supply_now - g.most_delta * std::max(0.0, most_steepest_) > kSupplyMarginC) {
        lazy_step(g);
      } else {
        scan_step(g);
      }
      if (!g.best) return false;
      d.add_column(g.best->zone, g.best->delta, g.rise, g.rise);
      g.compute += g.best->delta;
      out.push_back(g.best->nodes[g.best->next++]);
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

  /// One decision's greedy: the room as the nodes chosen so far leave it, and this step's best.
  struct Greedy {
    const HeatDistribution& d;
    const Eigen::VectorXd* share;
    double redline;
    Eigen::VectorXd rise;
    double compute;
    double most_delta = 0;  ///< the largest power delta of a free node
    double supply_now = 0;
    Eigen::VectorXd trial;
    Class* best = nullptr;
    double best_w = INFINITY;

    /// The supply inlet i allows: now, and with a node of `delta` added in a zone whose D entry
    /// there is `entry` (computed as add_column and highest_supply_c compute it).
    double margin(Eigen::Index i) const { return share ? (redline - rise(i)) / (*share)(i) : redline - rise(i); }
    double allowed(Eigen::Index i, double entry, double delta) const {
      const double t = redline - (rise(i) + entry * delta);
      return share ? t / (*share)(i) : t;
    }
    void consider(Class& c, double supply) {
      const double w = TotalPower::of_supply(compute + c.delta, supply);
      if (w < best_w || (w == best_w && c.nodes[c.next] < best->nodes[best->next])) best = &c, best_w = w;
    }
  };

  /// One step over every class: each gets a bound of its total power from the 16 tightest
  /// inlets (while the supply stays >= 0, where COP grows with it) and is scored over every
  /// inlet where that bound can win.
  void scan_step(Greedy& g) {
    const std::vector<Eigen::Index> tight =
        least_indices(g.rise.size(), 16, [&](Eigen::Index a, Eigen::Index b) { return g.margin(a) < g.margin(b); });
    std::array<const double*, 16> rows{};
    for (std::size_t r = 0; r < tight.size(); ++r) rows[r] = row_of(g.d, tight[r]);
    for (Class& c : classes_) {
      if (c.next == c.nodes.size()) continue;
      if (g.best && c.delta >= 0 && g.supply_now - c.delta * steepest_[std::size_t(c.zone)] > kSupplyMarginC) {
        double supply = INFINITY;
        for (std::size_t r = 0; r < tight.size(); ++r) {
          const Eigen::Index i = tight[r];
          supply = std::min(supply, g.allowed(i, rows[r] ? rows[r][c.zone] : g.d.entry(i, c.zone), c.delta));
        }
        const double bound = TotalPower::of_supply(g.compute + c.delta, supply);
        if (bound > g.best_w || (bound == g.best_w && c.nodes[c.next] > g.best->nodes[g.best->next])) continue;
      }
      g.d.add_column(c.zone, c.delta, g.rise, g.trial);
      g.consider(c, highest_supply_c(g.trial, g.share, g.redline));
    }
  }

  /// A class waiting in a heap of inlet b: D(b, zone).
  struct Entry {
    double entry;
    std::uint32_t cls;
    bool operator<(const Entry& o) const { return entry > o.entry; }  // a min-heap of D's entry
  };
  /// The classes of one power delta bound at one inlet: at most the supply that inlet allows with
  /// their node added, highest for the top (least entry).
  struct Heap {
    double delta;
    Eigen::Index inlet;
    std::vector<Entry> entries;
  };

  /// One step where every class adds power and every class's supply stays >= 0, where COP grows
  /// with it (see allocate). A class waits in a heap of its power delta and of the inlet that set
  /// its supply when last scored (at first the tightest inlet): what that inlet allows now with the
  /// class's node added bounds the class's supply from above, and the heap's order (by D's entry
  /// there) holds from step to step whatever the steps add. The best bound's class is scored until
  /// the best scored beats every bound left. Scoring reads only the inlets that can set a supply:
  /// inlet i allows at least margin_i - delta e_i, with e_i = max_z D(i, z) / s_i, so an inlet
  /// where that is no less than the highest bound cannot (on oxley4320 about 10 inlets of 4,320).
  void lazy_step(Greedy& g) {
    if (heaps_.empty()) {  // the decision's first lazy step
      Eigen::Index tightest = 0;
      for (Eigen::Index i = 1; i < g.rise.size(); ++i) {
        if (g.margin(i) < g.margin(tightest)) tightest = i;
      }
      const double* row = row_of(g.d, tightest);
      heap_of_.clear();
      for (std::size_t ci = 0; ci < classes_.size(); ++ci) {
        const Class& c = classes_[ci];
        heap(c.delta, tightest).entries.push_back({row ? row[c.zone] : g.d.entry(tightest, c.zone), std::uint32_t(ci)});
      }
      for (Heap& h : heaps_) std::make_heap(h.entries.begin(), h.entries.end());
    }
    auto bound = [&](const Heap& h) { return g.allowed(h.inlet, h.entries.front().entry, h.delta); };
    double most = -INFINITY;  // every class's supply is at most this
    for (const Heap& h : heaps_) {
      if (!h.entries.empty()) most = std::max(most, bound(h));
    }
    can_set_.clear();
    for (Eigen::Index i = 0; i < g.rise.size(); ++i) {
      const double m = g.margin(i), fall = g.most_delta * inlet_steepest_[std::size_t(i)];
      const double terms = (std::abs(g.redline) + std::abs(g.rise(i))) / (g.share ? (*g.share)(i) : 1.0);
      if (m - fall - kRoundingC * (1 + std::abs(m) + fall + terms) < most) can_set_.push_back(i);
    }
    can_set_rows_.resize(can_set_.size());
    for (std::size_t r = 0; r < can_set_.size(); ++r) can_set_rows_[r] = row_of(g.d, can_set_[r]);
    scored_.clear();
    for (;;) {
      Heap* top = nullptr;
      double top_w = INFINITY;
      for (Heap& h : heaps_) {
        while (!h.entries.empty() && classes_[h.entries.front().cls].next == classes_[h.entries.front().cls].nodes.size()) {
          std::pop_heap(h.entries.begin(), h.entries.end());
          h.entries.pop_back();
        }
        if (h.entries.empty()) continue;
        const double w = TotalPower::of_supply(g.compute + h.delta, bound(h));
        if (w < top_w) top = &h, top_w = w;
      }
      if (!top || (g.best && top_w > g.best_w)) break;
      const std::uint32_t ci = top->entries.front().cls;
      std::pop_heap(top->entries.begin(), top->entries.end());
      top->entries.pop_back();
      scored_.push_back({ci, score(g, classes_[ci], most)});
    }
    for (const auto& [ci, inlet] : scored_) {  // back, each in the heap of the inlet that set its supply
      const Class& c = classes_[ci];
      Heap& h = heap(c.delta, inlet);
      h.entries.push_back({g.d.entry(inlet, c.zone), ci});
      std::push_heap(h.entries.begin(), h.entries.end());
    }
  }

  /// The heap of a power delta and an inlet, made empty where there is none.
  Heap& heap(double delta, Eigen::Index inlet) {
    const auto [it, added] = heap_of_.try_emplace({delta, inlet}, heaps_.size());
    if (added) heaps_.push_back({delta, inlet, {}});
    return heaps_[it->second];
  }

  /// Scores class c: its allowed supply this step, highest_supply_c's value to the bit, from the
  /// inlets in can_set_ (every inlet not there allows at least `most`, no less than c's supply).
  /// Returns an inlet that sets it.
  Eigen::Index score(Greedy& g, Class& c, double most) {
    double supply = INFINITY;
    Eigen::Index binding = -1;
    for (std::size_t r = 0; r < can_set_.size(); ++r) {
      const Eigen::Index i = can_set_[r];
      const double s = g.allowed(i, can_set_rows_[r] ? can_set_rows_[r][c.zone] : g.d.entry(i, c.zone), c.delta);
      if (s < supply) supply = s, binding = i;
    }
    if (binding < 0 || !(supply <= most)) {  // the least may be outside: every inlet
      supply = INFINITY;
      binding = -1;
      for (Eigen::Index i = 0; i < g.rise.size(); ++i) {
        const double s = g.allowed(i, g.d.entry(i, c.zone), c.delta);
        if (s < supply || binding < 0) supply = s, binding = i;
      }
    }
    g.consider(c, supply);
    return binding;
  }

  /// Per room: per zone the most a watt there lowers any inlet's allowed supply (max_i D(i, z) /
  /// s_i) and the largest of these; per inlet the most a watt anywhere lowers it (max_z D(i, z) /
  /// s_i, or 0 where that is less); the row copies (row_of) emptied for a new room.
  void prepare(const HeatDistribution& d, const Eigen::VectorXd* share) {
    if (room_d_ == &d && std::ssize(steepest_) == d.size()) return;
    room_d_ = &d;
    rows_of_.assign(std::size_t(d.size()), -1), rows_.clear();
    steepest_.assign(std::size_t(d.size()), 0.0);
    inlet_steepest_.assign(std::size_t(d.size()), 0.0);
    Eigen::VectorXd column;
    for (Eigen::Index z = 0; z < d.size(); ++z) {
      d.column(z, column);
      if (share) column.array() /= share->array();
      steepest_[std::size_t(z)] = column.maxCoeff();
      for (Eigen::Index i = 0; i < d.size(); ++i) {
        inlet_steepest_[std::size_t(i)] = std::max(inlet_steepest_[std::size_t(i)], column(i));
      }
    }
    most_steepest_ = *std::max_element(steepest_.begin(), steepest_.end());
  }

  /// Above this supply (C) rounding cannot take the true one below 0 (where COP stops growing).
  static constexpr double kSupplyMarginC = 1e-3;
  /// Relative slack of an inlet's least allowed supply (of its terms' magnitudes): far above
  /// their rounding.
  static constexpr double kRoundingC = 1e-9;

  /// D's row at inlet i, copied the first time it is asked for (D keeps its columns: an entry
  /// read there is a cache miss, and the same few inlets stay tight across steps and decisions);
  /// null past kRowsKept rows (then entries are read one by one). The same values as D.entry().
  /// After prepare(d), which empties the copies of another room's.
  const double* row_of(const HeatDistribution& d, Eigen::Index i) {
    std::int32_t& slot = rows_of_[std::size_t(i)];
    if (slot < 0 && rows_.size() < kRowsKept) {
      slot = std::int32_t(rows_.size());
      d.row(i, rows_.emplace_back(std::size_t(d.size())).data());
    }
    return slot >= 0 ? rows_[std::size_t(slot)].data() : nullptr;
  }
  static constexpr std::size_t kRowsKept = 256;
  std::vector<std::int32_t> rows_of_;  ///< per inlet: its row in rows_, or -1
  std::vector<std::vector<double>> rows_;

  std::vector<Class> classes_;
  const HeatDistribution* room_d_ = nullptr;
  std::vector<double> steepest_, inlet_steepest_;
  double most_steepest_ = 0;
  std::vector<Heap> heaps_;
  std::map<std::pair<double, Eigen::Index>, std::size_t> heap_of_;  ///< (delta, inlet) -> heaps_
  std::vector<std::pair<std::uint32_t, Eigen::Index>> scored_;  ///< this step: (class, inlet that set its supply)
  std::vector<Eigen::Index> can_set_;  ///< this step: the inlets that can set a class's supply
  std::vector<const double*> can_set_rows_;  ///< their rows of D (null: read entry by entry)
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
