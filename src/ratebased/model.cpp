#include "dcsweep/ratebased/model.hpp"

#include <algorithm>
#include <cmath>

#include "dcsweep/core/error.hpp"

namespace dcsweep {
namespace {

/// Slack of the constraint checks: rounding of the linear room response, not a modelling margin.
constexpr double kTemperatureSlackK = 1e-9;
constexpr double kPowerSlack = 1e-9;  ///< relative to phi

bool within_budget(const RateConfig& c, double total_w) { return total_w <= c.power_budget_w * (1 + kPowerSlack); }

}  // namespace

RoomResponse room_response(const CracNodeModel& model) {
  const Eigen::Index z = model.zones(), c = model.cracs();
  RoomResponse r;
  r.rise = model.inlet_rise_per_w();
  r.removal = model.removed_heat_per_w(r.rise);
  const CracNodeModel::Solution s = model.solve(Eigen::VectorXd::Zero(z), Eigen::VectorXd::Ones(c));
  r.supply_share = s.node_in_c;
  r.removal_per_k = s.removed_heat_w;
  if (r.supply_share.minCoeff() <= 0) throw InputError("rate-based model: a node inlet draws no CRAC air at all");
  return r;
}

double rate_crac_cop(double t) { return 0.0068 * t * t + 0.0008 * t + 0.458; }

bool RateInstance::allowed(std::int32_t task, std::int32_t table, std::int32_t p) const {
  if (p < 0 || p >= off_state(table)) return false;
  const double ecs = tables.ecs(task, table, p);
  return ecs > 0 && 1 / ecs <= tables.tasks[std::size_t(task)].deadline_s;
}

std::vector<std::int32_t> rate_tables_of_types(const Platform& platform, const RateTables& tables) {
  std::vector<bool> used(platform.types.size(), false);
  for (std::int32_t j = 0; j < platform.node_count; ++j) used[platform.node_type.empty() ? 0 : platform.node_type[std::size_t(j)]] = true;
  std::vector<std::int32_t> table_of_type;
  for (std::size_t type = 0; type < platform.types.size(); ++type) {
    const NodeType& t = platform.types[type];
    if (!used[type]) {
      table_of_type.push_back(-1);
      continue;
    }
    const std::int32_t table = tables.type_index(t.name);
    if (!t.pstates.empty() && std::size_t(tables.types[std::size_t(table)].pstates) != t.pstates.size()) {
      const std::string& where = tables.types[std::size_t(table)].where;
      throw InputError((where.empty() ? "rate-based tables" : where) + ": node type '" + t.name + "' has " +
                       std::to_string(tables.types[std::size_t(table)].pstates) + " P-states in the tables, " +
                       std::to_string(t.pstates.size()) + " on platform " + platform.name);
    }
    table_of_type.push_back(table);
  }
  return table_of_type;
}

RateInstance make_rate_instance(const Platform& platform, RateTables tables,
                                std::shared_ptr<const CracNodeModel> room_model, RateConfig config,
                                std::shared_ptr<const RoomResponse> response) {
  if (!room_model) throw InputError("rate-based model: no room (build it with thermal_model crac_node)");
  if (room_model->zones() != platform.zone_count()) {
    throw InputError("rate-based model: the room has " + std::to_string(room_model->zones()) + " zones, platform " +
                     platform.name + " " + std::to_string(platform.zone_count()));
  }
  if (!(config.power_budget_w > 0) || !std::isfinite(config.redline_c) || !std::isfinite(config.crac_out_min_c) ||
      config.crac_out_min_c < 0) {
    throw InputError("rate-based model: the power budget must be positive, the redline finite and the lowest CRAC "
                     "outlet temperature at least 0 C (where CoP grows with it)");
  }
  RateInstance in;
  const std::vector<std::int32_t> table_of_type = rate_tables_of_types(platform, tables);
  in.node_first_core.push_back(0);
  for (std::int32_t j = 0; j < platform.node_count; ++j) {
    const NodeType& t = platform.type_of(j);
    const std::size_t type = platform.node_type.empty() ? 0 : platform.node_type[std::size_t(j)];
    in.node_table.push_back(table_of_type[type]);
    in.node_zone.push_back(platform.zone_of(j));
    in.node_static_w.push_back(t.static_w);
    for (std::int32_t k = 0; k < t.cores; ++k) in.core_node.push_back(j);
    in.node_first_core.push_back(std::int32_t(in.core_node.size()));
  }
  in.tables = std::move(tables);
  in.config = config;
  in.room = response ? std::move(response) : std::make_shared<const RoomResponse>(room_response(*room_model));
  in.room_model = std::move(room_model);
  return in;
}

Allocation idle_allocation(const RateInstance& in) {
  Allocation a;
  a.tasks = in.tasks();
  a.df.assign(std::size_t(in.cores()) * std::size_t(a.tasks), 0.0);
  a.pstate.resize(a.df.size());
  for (std::int32_t k = 0; k < in.cores(); ++k) {
    for (std::int32_t i = 0; i < a.tasks; ++i) a.ps_at(k, i) = std::int16_t(in.off_state(in.core_table(k)));
  }
  a.crac_out_c = in.config.redline_c;
  return a;
}

double node_core_power_w(const RateInstance& in, const Allocation& a, std::int32_t node, double from) {
  const std::int32_t t = in.node_table[std::size_t(node)];
  double w = from;
  for (std::int32_t k = in.node_first_core[std::size_t(node)]; k < in.node_first_core[std::size_t(node) + 1]; ++k) {
    for (std::int32_t i = 0; i < a.tasks; ++i) {
      const std::size_t g = std::size_t(k * a.tasks + i);
      if (a.df[g] > 0) w += a.df[g] * in.tables.apc(i, t, a.pstate[g]);
    }
  }
  return w;
}

Eigen::VectorXd zone_power_w(const RateInstance& in, const Allocation& a) {
  Eigen::VectorXd p = Eigen::VectorXd::Zero(in.zones());
  for (std::int32_t j = 0; j < in.nodes(); ++j) {
    p(in.node_zone[std::size_t(j)]) += node_core_power_w(in, a, j, in.node_static_w[std::size_t(j)]);
  }
  return p;
}

void add_node_rates(const RateInstance& in, const Allocation& a, std::int32_t node, std::vector<double>& rate,
                    std::vector<double>* naive, std::vector<double>* gene_rates) {
  const std::int32_t t = in.node_table[std::size_t(node)], tasks = a.tasks, off = in.off_state(t);
  const std::int32_t first = in.node_first_core[std::size_t(node)], last = in.node_first_core[std::size_t(node) + 1];
  const auto runs = [&](std::size_t g) { return a.df[g] > 0 && a.pstate[g] >= 0 && a.pstate[g] < off; };
  double load = 0;
  for (std::size_t g = std::size_t(first * tasks); g < std::size_t(last * tasks); ++g) {
    if (runs(g)) load += a.df[g] * in.tables.tasks[g % std::size_t(tasks)].memory_intensity;
  }
  for (std::int32_t k = first; k < last; ++k) {
    double own = 0;
    for (std::int32_t i = 0; i < tasks; ++i) {
      const std::size_t g = std::size_t(k * tasks + i);
      if (runs(g)) own += a.df[g] * in.tables.tasks[std::size_t(i)].memory_intensity;
    }
    for (std::int32_t i = 0; i < tasks; ++i) {
      const std::size_t g = std::size_t(k * tasks + i);
      if (!runs(g)) continue;
      const RateTaskType& task = in.tables.tasks[std::size_t(i)];
      const double er = a.df[g] * in.tables.ecs(i, t, a.pstate[g]);
      const double cer = er / (1 + in.tables.types[std::size_t(t)].colocation_slope[std::size_t(task.memory_class)] * (load - own));
      rate[std::size_t(i)] += cer;
      if (naive) (*naive)[std::size_t(i)] += er;
      if (gene_rates) (*gene_rates)[g] = cer;
    }
  }
}

RateEvaluation evaluate(const RateInstance& in, const Allocation& a, bool exact_room, std::vector<double>* gene_rates) {
  RateEvaluation e;
  const std::int32_t tasks = in.tasks();
  e.valid = a.tasks == tasks && a.df.size() == std::size_t(in.cores()) * std::size_t(tasks) &&
            a.pstate.size() == a.df.size() && std::isfinite(a.crac_out_c) &&
            a.crac_out_c >= in.config.crac_out_min_c - kTemperatureSlackK;
  e.task_rate.assign(std::size_t(tasks), 0.0);
  e.naive_task_rate.assign(std::size_t(tasks), 0.0);
  if (a.df.size() != std::size_t(in.cores()) * std::size_t(tasks) || a.pstate.size() != a.df.size()) return e;
  if (gene_rates) gene_rates->assign(a.df.size(), 0.0);
  for (std::int32_t k = 0; k < in.cores(); ++k) {
    const std::int32_t t = in.core_table(k);
    double sum = 0;
    for (std::int32_t i = 0; i < tasks; ++i) {
      const std::size_t g = std::size_t(k * tasks + i);
      const double df = a.df[g];
      const std::int32_t p = a.pstate[g];
      if (!(df >= 0 && df <= 1) || p < 0 || p > in.off_state(t) || (df > 0 && p < in.off_state(t) && !in.allowed(i, t, p))) {
        e.valid = false;
      }
      if (df > 0 && p >= 0 && p < in.off_state(t)) sum += df;
    }
    if (sum > 1 + 1e-9) e.valid = false;
  }
  for (std::int32_t j = 0; j < in.nodes(); ++j) add_node_rates(in, a, j, e.task_rate, &e.naive_task_rate, gene_rates);
  for (std::int32_t i = 0; i < tasks; ++i) {
    const RateTaskType& task = in.tables.tasks[std::size_t(i)];
    e.reward_rate += task.reward * std::min(e.task_rate[std::size_t(i)], task.arrival_rate_per_s);
    e.naive_reward_rate += task.reward * std::min(e.naive_task_rate[std::size_t(i)], task.arrival_rate_per_s);
  }
  const Eigen::VectorXd power = zone_power_w(in, a);
  e.crac_out_c = a.crac_out_c;
  e.node_power_w = power.sum();
  double removed = 0;
  if (exact_room) {
    const auto s = in.room_model->solve(power, Eigen::VectorXd::Constant(in.room_model->cracs(), a.crac_out_c));
    e.max_inlet_c = s.node_in_c.maxCoeff();
    removed = s.removed_heat_w;
  } else {
    e.max_inlet_c = (in.room->supply_share * a.crac_out_c + in.room->rise * power).maxCoeff();
    removed = in.room->removal.dot(power) + in.room->removal_per_k * a.crac_out_c;
  }
  e.crac_power_w = removed / rate_crac_cop(a.crac_out_c);
  e.total_power_w = e.node_power_w + e.crac_power_w;
  e.meets_power = within_budget(in.config, e.total_power_w);
  e.meets_redline = e.max_inlet_c <= in.config.redline_c + kTemperatureSlackK;
  return e;
}

RateObjective rate_objective(const std::string& name) {
  if (name == "rr") return RateObjective::rr;
  if (name == "nerr") return RateObjective::nerr;
  throw InputError("unknown rate-based objective '" + name + "'; valid: rr, nerr");
}

double objective_of(const RateEvaluation& e, RateObjective objective) {
  return objective == RateObjective::rr ? e.reward_rate : e.naive_reward_rate;
}

RoomLoad::RoomLoad(const RateInstance& instance, const Eigen::VectorXd& zone_power)
    : instance_(&instance), power_(zone_power) {
  rise_ = instance.room->rise * power_;
  node_power_w_ = power_.sum();
  removal_w_ = instance.room->removal.dot(power_);
}

void RoomLoad::add(std::int32_t zone, double watts) {
  power_(zone) += watts;
  rise_ += instance_->room->rise.col(zone) * watts;
  node_power_w_ += watts;
  removal_w_ += instance_->room->removal(zone) * watts;
}

double RoomLoad::highest_crac_out_c() const {
  return ((instance_->config.redline_c - rise_.array()) / instance_->room->supply_share.array()).minCoeff();
}

std::int32_t RoomLoad::hottest_zone() const {
  Eigen::Index z = 0;
  ((instance_->config.redline_c - rise_.array()) / instance_->room->supply_share.array()).minCoeff(&z);
  return std::int32_t(z);
}

double RoomLoad::crac_power_w(double crac_out_c) const { return crac_w(removal_w_, crac_out_c); }

double RoomLoad::crac_w(double removal_w, double crac_out_c) const {
  return (removal_w + instance_->room->removal_per_k * crac_out_c) / rate_crac_cop(crac_out_c);
}

bool RoomLoad::meets(double crac_out_c, double node_w, double removal_w) const {
  return crac_out_c >= instance_->config.crac_out_min_c &&
         within_budget(instance_->config, node_w + crac_w(removal_w, crac_out_c));
}

bool RoomLoad::feasible_with(std::int32_t zone, double watts) const {
  const RoomResponse& room = *instance_->room;
  const double tc = ((instance_->config.redline_c - rise_.array() - room.rise.col(zone).array() * watts) /
                     room.supply_share.array()).minCoeff();
  return meets(tc, node_power_w_ + watts, removal_w_ + room.removal(zone) * watts);
}

double RoomLoad::headroom_w(std::int32_t zone) const {
  if (!feasible()) return 0;
  double lo = 0, hi = instance_->config.power_budget_w;
  if (feasible_with(zone, hi)) return hi;
  for (int k = 0; k < 50 && hi - lo > 1e-6 * (1 + lo); ++k) {
    const double mid = (lo + hi) / 2;
    (feasible_with(zone, mid) ? lo : hi) = mid;
  }
  return lo;
}

bool RoomLoad::feasible() const { return meets(highest_crac_out_c(), node_power_w_, removal_w_); }

}  // namespace dcsweep
