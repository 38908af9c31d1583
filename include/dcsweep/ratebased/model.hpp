#pragma once
// [P3]'s epoch model (Eq. 1-10, MODELS.md section 7): a steady state over one epoch in which each
// core k spends DF(i, k) of its time on task type i at P-state PS(i, k), and every CRAC blows at
// one outlet temperature TC_out.
//   ER(i, k)  = DF(i, k) ECS(i, CT(k), PS(i, k))                                  (Eq. 1)
//   CER(i, k) = DF(i, k) / CET(i, k),  CET = (1 / ECS) (1 + slope(CT(k), class(i)) M(k))  (Eq. 7)
//               M(k) = sum over the other cores k' of k's node of sum_i' DF(i', k') mi_i'
//               (the co-runners' memory intensity, time-weighted; one coefficient per node type
//               and memory class in place of the paper's unpublished five-feature regression)
//   RR   = sum_i r_i min(sum_k CER(i, k), lambda_i)                                (Eq. 8, the true reward rate)
//   NERR = sum_i r_i min(sum_k ER(i, k), lambda_i)                                 (Eq. 9, blind to co-location)
//   PN(j) = S(j) + sum_k sum_i APC(i, NT(j), PS(i, k)) DF(i, k)                    (Eq. 2)
//   node inlets and CRAC power from the CRAC + node model (thermal/crac_node.hpp, Eq. 3-5)
//   constraints: sum_j PN(j) + sum_c PC(c) <= phi, every node inlet <= redline      (Eq. 6)
// A (task, node type, P-state) combination whose single-task time 1 / ECS exceeds the task's
// deadline is never used (Eq. 10). The last P-state number plus one is "off" (no speed, no power).
#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dcsweep/platform/platform.hpp"
#include "dcsweep/ratebased/tables.hpp"
#include "dcsweep/thermal/crac_node.hpp"

namespace dcsweep {

/// The CRAC + node model for one outlet temperature tc shared by every CRAC, as the linear map it
/// is (solved once per zone): inlet(z) = s_z tc + sum_z' rise(z, z') P(z'); the heat the CRACs
/// remove is w . P + h tc (w_z = 1 and h = 0 when the indices conserve air).
struct RoomResponse {
  Eigen::MatrixXd rise;         ///< K per W, zones x zones (column z': a watt in zone z')
  Eigen::VectorXd supply_share;  ///< s, per zone
  Eigen::VectorXd removal;       ///< w, per zone
  double removal_per_k = 0;      ///< h, W per K of outlet temperature
};
/// The dense map of `model` (CracNodeModel::inlet_rise_per_w) and one solve for the supply shares.
RoomResponse room_response(const CracNodeModel& model);

/// CoP(T) = 0.0068 T^2 + 0.0008 T + 0.458 ([P3] Sec. 5.2).
double rate_crac_cop(double outlet_c);

struct RateConfig {
  double power_budget_w = 230e3;  ///< phi: compute + CRAC ([P3] Sec. 5.2: 230 kW small, 900 kW large)
  double redline_c = 30;          ///< every node inlet at or below ([P3] Sec. 5.2)
  /// Lowest CRAC outlet temperature (assumed: the paper gives none; CoP's quadratic is fitted
  /// above it). Also bounds the reward bound's search over outlet temperatures.
  double crac_out_min_c = 5;
};

/// A problem instance: tables, platform structure, room and constraints.
struct RateInstance {
  RateTables tables;
  RateConfig config;
  std::vector<std::int32_t> node_table;       ///< per node: its RateTables::types index
  std::vector<std::int32_t> node_zone;        ///< per node: thermal zone of the room model
  std::vector<std::int32_t> node_first_core;  ///< nodes + 1 entries: node j owns [first[j], first[j+1])
  std::vector<double> node_static_w;          ///< S(j)
  std::vector<std::int32_t> core_node;
  std::shared_ptr<const CracNodeModel> room_model;
  std::shared_ptr<const RoomResponse> room;

  std::int32_t nodes() const { return std::int32_t(node_table.size()); }
  std::int32_t cores() const { return std::int32_t(core_node.size()); }
  std::int32_t tasks() const { return tables.task_count(); }
  std::int32_t zones() const { return std::int32_t(room->supply_share.size()); }
  std::int32_t core_table(std::int32_t core) const { return node_table[std::size_t(core_node[std::size_t(core)])]; }
  /// The "off" state of a node table (its P-state count).
  std::int32_t off_state(std::int32_t table) const { return tables.types[std::size_t(table)].pstates; }
  /// Task i may run on `table` at P-state p: a real state, ECS > 0 and 1 / ECS <= d_i (Eq. 10).
  bool allowed(std::int32_t task, std::int32_t table, std::int32_t p) const;
};

/// Maps the platform's nodes to the tables' node types by name (InputError for a type without a
/// table, or with a P-state count different from the platform's), zones by Platform::zone_of.
/// `response`: room_response(*room_model) when already known (a sweep reuses it across points);
/// computed when null.
RateInstance make_rate_instance(const Platform& platform, RateTables tables,
                                std::shared_ptr<const CracNodeModel> room_model, RateConfig config,
                                std::shared_ptr<const RoomResponse> response = nullptr);
/// The tables' index of each platform node type (-1 for a type no node has); the checks of
/// make_rate_instance on names and P-state counts, without building anything.
std::vector<std::int32_t> rate_tables_of_types(const Platform& platform, const RateTables& tables);

/// DF and P-state per (core, task), and the CRAC outlet temperature.
struct Allocation {
  std::int32_t tasks = 0;
  std::vector<double> df;             ///< [core * tasks + task], each in [0, 1], a core's sum <= 1
  std::vector<std::int16_t> pstate;   ///< same layout; off_state(table) = off
  double crac_out_c = 0;
  double& df_at(std::int32_t core, std::int32_t task) { return df[std::size_t(core * tasks + task)]; }
  std::int16_t& ps_at(std::int32_t core, std::int32_t task) { return pstate[std::size_t(core * tasks + task)]; }
  double df_at(std::int32_t core, std::int32_t task) const { return df[std::size_t(core * tasks + task)]; }
  std::int16_t ps_at(std::int32_t core, std::int32_t task) const { return pstate[std::size_t(core * tasks + task)]; }
};
/// Every core idle (DF 0, off), outlet at the redline.
Allocation idle_allocation(const RateInstance& instance);

struct RateEvaluation {
  double reward_rate = 0;        ///< RR, Eq. 8 (the true reward rate)
  double naive_reward_rate = 0;  ///< NERR, Eq. 9
  double node_power_w = 0, crac_power_w = 0, total_power_w = 0;
  double max_inlet_c = 0;
  double crac_out_c = 0;
  bool meets_power = false, meets_redline = false, valid = false;  ///< valid: DF in [0,1], sums <= 1, allowed states
  std::vector<double> task_rate, naive_task_rate;  ///< sum_k CER(i, k), sum_k ER(i, k)
  bool feasible() const { return meets_power && meets_redline && valid; }
};
/// Evaluates at the allocation's own outlet temperature. `exact_room` solves the CRAC + node model
/// itself (CracNodeModel::solve) instead of the linear RoomResponse: the check of a final answer.
/// `gene_rates`, when given, receives CER(i, k) of every gene ([core * tasks + task], 0 when idle).
RateEvaluation evaluate(const RateInstance& instance, const Allocation& a, bool exact_room = false,
                        std::vector<double>* gene_rates = nullptr);

/// Adds node `node`'s CER summed per task under `a` to `rate` (its ER to `naive`, and each of its
/// genes' CER to `gene_rates`, when given). Genes off or at DF 0 add nothing.
void add_node_rates(const RateInstance& instance, const Allocation& a, std::int32_t node, std::vector<double>& rate,
                    std::vector<double>* naive = nullptr, std::vector<double>* gene_rates = nullptr);

enum class RateObjective { rr, nerr };
RateObjective rate_objective(const std::string& name);  ///< "rr" or "nerr"; InputError otherwise
double objective_of(const RateEvaluation& e, RateObjective objective);

/// The room's load for incremental search: zone powers, inlet rises and the derived CRAC outlet.
class RoomLoad {
 public:
  RoomLoad(const RateInstance& instance, const Eigen::VectorXd& zone_power_w);
  /// Adds `watts` to zone z (O(zones)).
  void add(std::int32_t zone, double watts);
  /// The hottest outlet keeping every inlet at or below the redline: min_z (T_red - rise_z) / s_z.
  double highest_crac_out_c() const;
  /// The zone that fixes it (the hottest inlet at that outlet).
  std::int32_t hottest_zone() const;
  double node_power_w() const { return node_power_w_; }
  double crac_power_w(double crac_out_c) const;
  /// At the highest outlet: both constraints met (and the outlet not below crac_out_min_c).
  bool feasible() const;
  /// Whether it would be with `watts` more in `zone` (O(zones), nothing changed).
  bool feasible_with(std::int32_t zone, double watts) const;
  /// The most power zone `zone` can take while feasible() holds (bisection on feasible_with, to
  /// 1e-6 W relative; 0 when not feasible now).
  double headroom_w(std::int32_t zone) const;
  const Eigen::VectorXd& zone_power_w() const { return power_; }

 private:
  /// CRAC power at outlet `crac_out_c` removing the heat of nodes whose removal term is `removal_w`.
  double crac_w(double removal_w, double crac_out_c) const;
  /// Both constraints at that outlet with `node_w` of node power (and its `removal_w`).
  bool meets(double crac_out_c, double node_w, double removal_w) const;

  const RateInstance* instance_;
  Eigen::VectorXd power_, rise_;
  double node_power_w_ = 0, removal_w_ = 0;
};

/// `from` plus node `node`'s core power under `a` (sum of DF x APC over its genes; off adds 0).
double node_core_power_w(const RateInstance& instance, const Allocation& a, std::int32_t node, double from = 0);

/// Zone powers of an allocation (Eq. 2 summed per zone).
Eigen::VectorXd zone_power_w(const RateInstance& instance, const Allocation& a);

/// What a technique returns. `feasible` false: no allocation it found meets both constraints;
/// [P3] Sec. 6.4: below a redline threshold not even every core off meets the budget. Then the
/// allocation is the idle one and its evaluation says what is violated.
struct RateResult {
  bool feasible = false;
  Allocation allocation;
  RateEvaluation evaluation;
  double seconds = 0;
  std::int64_t generations = 0;  ///< GA only
  std::int64_t evaluations = 0;  ///< GA only: chromosomes evaluated
};

}  // namespace dcsweep
