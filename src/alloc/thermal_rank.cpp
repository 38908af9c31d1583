// lrh and hts: static rankings from D (alloc/thermal_rank.hpp).
#include "dcsweep/alloc/thermal_rank.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/alloc/mpit.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/thermal/inlet_model.hpp"

namespace dcsweep {
namespace {

/// [P4] Alg. 1's INITIALIZATION: nodes grouped by power specification, the most efficient group
/// first (every node type runs a job in the same time here, so: the lowest full-load power), and
/// ranked by `score` within a group (ascending or descending); ties by node id.
std::vector<NodeId> ranked(const RoomView& room, const std::vector<double>& score, bool ascending) {
  std::vector<NodeId> order(score.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> full(score.size());
  for (std::size_t n = 0; n < score.size(); ++n) full[n] = room.busy_power_w(NodeId(n), {});
  std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId b) {
    const auto i = std::size_t(a), j = std::size_t(b);
    if (full[i] != full[j]) return full[i] < full[j];
    return ascending ? score[i] < score[j] : score[i] > score[j];
  });
  return order;
}

/// Takes the best-ranked free nodes; the ranking is computed at the first decision.
class RankedAllocator final : public Allocator {
 public:
  using Ranking = std::vector<NodeId> (*)(const RoomView&, std::int32_t);
  RankedAllocator(Ranking ranking, std::int32_t node_count) : ranking_(ranking), node_count_(node_count) {}

  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    for (const NodeId n : order(request.room)) {
      if (std::int32_t(out.size()) == request.nodes) break;
      if (request.machine.is_free(n)) out.push_back(n);
    }
    return std::int32_t(out.size()) == request.nodes;
  }

  std::span<const NodeId> power_order(const RoomView& room) override { return order(room); }

 private:
  const std::vector<NodeId>& order(const RoomView& room) {
    if (order_.empty()) order_ = ranking_(room, node_count_);
    return order_;
  }

  Ranking ranking_;
  std::int32_t node_count_;
  std::vector<NodeId> order_;
};

}  // namespace

Eigen::VectorXd zone_power_w(const RoomView& room, std::int32_t node_count, Eigen::Index zones, bool busy) {
  Eigen::VectorXd p = Eigen::VectorXd::Zero(zones);
  for (std::int32_t n = 0; n < node_count; ++n) {
    p(room.zone_of(n)) += busy ? room.busy_power_w(n, JobConfig{}) : room.idle_power_w(n);
  }
  return p;
}

std::vector<double> lrh_scores(const RoomView& room, std::int32_t node_count) {
  const HeatDistribution& d = heat_of(room, "allocator 'lrh'");
  const Eigen::Index zones = d.size();
  Eigen::VectorXd colsum(zones), column;
  for (Eigen::Index j = 0; j < zones; ++j) {
    d.column(j, column);
    colsum(j) = column.sum();
  }
  std::vector<double> score(static_cast<std::size_t>(node_count));
  for (std::int32_t n = 0; n < node_count; ++n) score[std::size_t(n)] = colsum(room.zone_of(n)) * room.busy_power_w(n, {});
  return score;
}

std::vector<double> hts_scores(const RoomView& room, std::int32_t node_count) {
  const HeatDistribution& d = heat_of(room, "allocator 'hts'");
  const Eigen::VectorXd rise = d.times(zone_power_w(room, node_count, d.size(), true));
  const Eigen::VectorXd* share = room.supply_share();
  std::vector<double> score(static_cast<std::size_t>(node_count));
  for (std::int32_t n = 0; n < node_count; ++n) {
    const std::int32_t z = room.zone_of(n);
    score[std::size_t(n)] = (room.redline_c() - rise(z)) / (share ? (*share)(z) : 1.0);
  }
  return score;
}

std::vector<NodeId> lrh_order(const RoomView& room, std::int32_t node_count) {
  return ranked(room, lrh_scores(room, node_count), true);
}

std::vector<NodeId> hts_order(const RoomView& room, std::int32_t node_count) {
  return ranked(room, hts_scores(room, node_count), false);
}

void hts_check_params(const ParamSet& params) {
  if (params.text("cooling") != "thermostat" || params.text("thermostat_setting") != "highest") {
    throw InputError("allocator 'hts' sets the CRAC thermostat by [P4] Eq. 6 after every start and end: it needs "
                     "cooling = thermostat and thermostat_setting = highest (cooling is '" + params.text("cooling") +
                     "', thermostat_setting '" + params.text("thermostat_setting") + "')");
  }
}

AllocatorRegistry::Entry lrh_allocator_entry() {
  return {"lrh",
          "LRH ([P4] ref. 11): the free nodes whose exhaust recirculates least heat at full load, colsum(D) x "
          "P_full, ascending (a static ranking); needs a room",
          {},
          [](const BuildContext& ctx, const Platform& platform) -> std::unique_ptr<Allocator> {
            require_room(platform, ctx.params, "lrh");
            return std::make_unique<RankedAllocator>(&lrh_order, platform.node_count);
          }};
}

AllocatorRegistry::Entry hts_allocator_entry() {
  return {"hts",
          "HTS ([P4] Eq. 8, Alg. 1): the free nodes whose inlets allow the highest thermostat setting at full load, "
          "(T_red - D P_full) / s, descending (a static ranking); with cooling thermostat, thermostat_setting "
          "highest (required)",
          {},
          [](const BuildContext& ctx, const Platform& platform) -> std::unique_ptr<Allocator> {
            require_room(platform, ctx.params, "hts");
            hts_check_params(ctx.params);
            return std::make_unique<RankedAllocator>(&hts_order, platform.node_count);
          }};
}

}  // namespace dcsweep
