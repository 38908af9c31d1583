// The bqp allocator: [P0] Eq. 8-11 built from the request, the machine and the room view, solved
// by bqp_exact.cpp or bqp_heuristic.cpp (the formulation: include/dcsweep/alloc/bqp.hpp).
#include "dcsweep/alloc/bqp.hpp"

#include <cmath>

#include "dcsweep/platform/network.hpp"
#include "dcsweep/thermal/inlet_model.hpp"

namespace dcsweep {
namespace {

constexpr const char* kBetaNeedsD =
    "parameter 'beta': allocator 'bqp' with beta > 0 needs the room's heat-distribution matrix D (its cooling "
    "term): a platform with a room, node power on and thermal_model recirculation";

std::string format_weight(double x) { return format_value(ParamValue{x}); }

class BqpAllocator final : public Allocator {
 public:
  BqpAllocator(const Platform& platform, const BqpSettings& settings) : model_(platform, settings) {}

  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    const BqpProblem problem = model_.problem(request, candidates_);
    std::vector<std::int32_t> chosen = bqp_solve_heuristic(problem);
    if (problem.size() <= model_.settings().exact_max_nodes) chosen = bqp_solve_exact(problem, chosen);
    for (const std::int32_t k : chosen) out.push_back(candidates_[std::size_t(k)]);
    return true;
  }

 private:
  BqpModel model_;
  std::vector<NodeId> candidates_;
};

/// Errors the parameters alone show: a positive weight on a term whose input the run will lack.
void check_thermal_params(const ParamSet& params, const BqpSettings& s) {
  if (s.beta == 0) return;
  for (const char* name : {"thermal_model", "node_power"}) {
    if (!params.catalog().find(name)) continue;
    const std::string& value = params.text(name);
    if (value == "none" || value == "crac_node") throw InputError(std::string(kBetaNeedsD) + "; " + name + " is '" + value + "'");
  }
}

}  // namespace

std::vector<ParamSpec> bqp_params() {
  return {
      {.name = "alpha", .type = ParamType::real, .default_value = 0.5, .min = 0,
       .help = "bqp: weight of the communication term ([P0] Eq. 8; alpha = 1, beta = 0 is [P0]'s performance-aware "
               "policy, alpha = beta = 0.5 its joint one)"},
      {.name = "beta", .type = ParamType::real, .default_value = 0.5, .min = 0,
       .help = "bqp: weight of the cooling term ([P0] Eq. 8; alpha = 0, beta = 1 is [P0]'s cooling-aware policy)"},
      {.name = "bqp_comm_scale", .type = ParamType::real, .unit = "1/hop", .default_value = 0.0, .min = 0,
       .help = "alpha' = alpha x this; 0: auto, 1 / the platform's mean hop distance between two nodes, so the "
               "communication term of n uniformly random nodes is n - 1 ([P0]'s 'equal contribution at alpha = "
               "beta = 0.5', with bqp_cool_scale's auto)"},
      {.name = "bqp_cool_scale", .type = ParamType::real, .unit = "1/K", .default_value = 0.0, .min = 0,
       .help = "beta' = beta x this; 0: auto, N / (2 c), c the mean over the N nodes of colsum(D) x (busy - idle "
               "power), so the cooling term of n uniformly random nodes on a half-busy machine (U = N/2) is n"},
      {.name = "bqp_exact_max_nodes", .type = ParamType::integer, .default_value = std::int64_t{40}, .min = 0,
       .max = 4096,
       .help = "bqp: exact branch and bound when a decision has at most this many free nodes; above, greedy from "
               "several seeds + swap local search"},
  };
}

void bqp_check_params(const ParamSet& params) { check_thermal_params(params, bqp_settings(params)); }

BqpSettings bqp_settings(const ParamSet& params) {
  BqpSettings s;
  s.alpha = params.real("alpha");
  s.beta = params.real("beta");
  s.comm_scale = params.real("bqp_comm_scale");
  s.cool_scale = params.real("bqp_cool_scale");
  s.exact_max_nodes = static_cast<std::int32_t>(params.integer("bqp_exact_max_nodes"));
  if (s.alpha == 0 && s.beta == 0) {
    throw InputError("parameter 'alpha': alpha and beta are both 0; bqp needs a positive weight on its communication "
                     "or its cooling term");
  }
  return s;
}

double mean_pair_hops(const Platform& platform) {
  const std::int64_t n = platform.node_count;
  if (n < 2) return 0;
  std::int64_t sum = 0;
  for (int d = 0; d < 3; ++d) {
    AxisHistogram axis;
    axis.count.assign(std::size_t(std::max(platform.network_dims[d], 1)), 0);
    if (platform.network == NetworkKind::torus) axis.wrap = platform.network_dims[d];
    for (std::int32_t node = 0; node < n; ++node) {
      const auto c = std::size_t(platform.coordinate(node)[std::size_t(d)]);
      if (c >= axis.count.size()) axis.count.resize(c + 1, 0);
      ++axis.count[c];
    }
    sum += axis_pair_distance_sum(axis);
  }
  return double(sum) / (double(n) * double(n - 1) / 2);
}

BqpModel::BqpModel(const Platform& platform, const BqpSettings& settings)
    : node_count_(platform.node_count), settings_(settings) {
  if (settings.alpha > 0 && platform.network == NetworkKind::none) {
    throw InputError("parameter 'alpha': allocator 'bqp' with alpha = " + format_weight(settings.alpha) +
                     " needs a platform with a network (mesh or torus); platform '" + platform.name + "' has none");
  }
  if (settings.beta > 0 && !platform.has_room()) {
    throw InputError("parameter 'beta': allocator 'bqp' with beta = " + format_weight(settings.beta) +
                     " needs a platform with a room (its cooling term reads D); platform '" + platform.name +
                     "' has none");
  }
  coordinate_.reserve(std::size_t(node_count_));
  for (std::int32_t n = 0; n < node_count_; ++n) coordinate_.push_back(platform.coordinate(n));
  if (platform.network == NetworkKind::torus) wrap_ = platform.network_dims;
  const double h = mean_pair_hops(platform);
  comm_scale_ = settings.comm_scale > 0 ? settings.comm_scale : (h > 0 ? 1 / h : 1);
}

void BqpModel::read_room(const RoomView& room) {
  const HeatDistribution* d = room.thermal() ? room.heat_distribution() : nullptr;
  if (!d) throw InputError(kBetaNeedsD);
  if (d == columns_of_) return;
  column_sum_.assign(std::size_t(d->size()), 0);
  Eigen::VectorXd column;
  for (Eigen::Index z = 0; z < d->size(); ++z) {
    d->column(z, column);
    column_sum_[std::size_t(z)] = column.sum();
  }
  columns_of_ = d;
  if (settings_.cool_scale > 0) {
    cool_scale_ = settings_.cool_scale;
    return;
  }
  double mean = 0;
  for (std::int32_t n = 0; n < node_count_; ++n) mean += cooling_cost(room, n, JobConfig{}) / node_count_;
  if (!(mean > 0)) {
    throw InputError("parameter 'bqp_cool_scale': its automatic value needs a positive mean cooling cost per node "
                     "(colsum(D) x active power), the room has " + format_weight(mean) + " K; set bqp_cool_scale");
  }
  cool_scale_ = node_count_ / (2 * mean);
}

double BqpModel::cooling_cost(const RoomView& room, NodeId node, const JobConfig& config) {
  return column_sum_[std::size_t(room.zone_of(node))] * (room.busy_power_w(node, config) - room.idle_power_w(node));
}

double BqpModel::cool_weight(const RoomView& room) {
  read_room(room);
  return settings_.beta * cool_scale_;
}

BqpProblem BqpModel::problem(const AllocationRequest& request, std::vector<NodeId>& candidates) {
  const Machine& machine = request.machine;
  candidates.clear();
  machine.lowest_free(machine.free_count(), candidates);
  BqpProblem p;
  p.pick = request.nodes;
  p.pair_weight = 2 * comm_weight() / request.nodes;
  p.wrap = wrap_;
  const double beta = settings_.beta > 0 ? cool_weight(request.room) : 0;
  const std::int32_t running = machine.node_count() - machine.free_count() - machine.off_count() - machine.booting_count();
  const double per_node = beta / double(running + request.nodes);  // beta' / U
  for (const NodeId node : candidates) {
    p.coordinate.push_back(coordinate_[std::size_t(node)]);
    p.linear.push_back(beta > 0 ? per_node * cooling_cost(request.room, node, request.config) : 0.0);
  }
  return p;
}

AllocatorRegistry::Entry bqp_allocator_entry() {
  return {"bqp",
          "[P0] Eq. 8-11: the free nodes minimising (alpha'/n) X H X^T (hops: CC_job under all-to-all) + (beta'/U) "
          "sum(D (P_active o X)) (the inlet rises the job adds); exact branch and bound up to bqp_exact_max_nodes free "
          "nodes, greedy + swap local search above",
          bqp_params(),
          [](const BuildContext& ctx, const Platform& platform) -> std::unique_ptr<Allocator> {
            bqp_check_params(ctx.params);
            return std::make_unique<BqpAllocator>(platform, bqp_settings(ctx.params));
          }};
}

}  // namespace dcsweep
