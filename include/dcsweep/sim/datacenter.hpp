#pragma once
// The data-center physics in the simulation loop: node power (power/node_power.hpp), inlet
// temperatures from heat recirculation (thermal/recirculation.hpp, inlet_model.hpp) and a cooling
// controller (thermal/cooling.hpp), as one SimObserver. Between events everything is piecewise
// constant (the thermostat CRAC's supply is piecewise linear), so energies are exact integrals.
//
// Per job start or end the observer adds the nodes' power change to their zones; the changes of one
// simulated time are applied together, as runs of consecutive zones (O(zones) each), then the
// hottest inlet is found once (O(zones)) and the controller updated.
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dcsweep/power/node_power.hpp"
#include "dcsweep/sim/observer.hpp"
#include "dcsweep/sim/simulation.hpp"
#include "dcsweep/sim/sp_eir.hpp"
#include "dcsweep/thermal/cooling.hpp"
#include "dcsweep/thermal/crac_node.hpp"
#include "dcsweep/thermal/inlet_model.hpp"
#include "dcsweep/thermal/recirculation.hpp"
#include "dcsweep/thermal/room.hpp"
#include "dcsweep/thermal/room_view.hpp"

namespace dcsweep {

/// Every parameter of the physics: power presets, the room (room_params()), cooling.
std::vector<ParamSpec> datacenter_params();
std::vector<MetricSpec> datacenter_metric_specs();
std::vector<SeriesSpec> datacenter_series_specs();

/// How a simulation gets its room's D (a sweep passes a caching one).
using HeatProvider = std::function<HeatDistributionBuild(const Platform&, const ParamSet&)>;

/// Whether the scenario's parameters turn the thermal model on for its platform.
bool thermal_enabled(const Scenario& scenario);

/// What the cooling controller needs of the room: the platform's CRAC air flow and redline (or
/// redline_c when set), its air volume, and its idle and peak compute power (NaN without `power`).
CoolingRoom cooling_room(const Platform& platform, const ParamSet& params, const NodePowerTable* power);

/// The physics as an observer of the simulation, and as the room view its policies read.
class DataCenterModel final : public SimObserver, public RoomView {
 public:
  /// `heat` may be empty: power and energy only (no room, or thermal_model = none).
  DataCenterModel(const Scenario& scenario, NodePowerTable power, HeatDistributionBuild heat);
  ~DataCenterModel() override;

  void advance_to(double time_s) override;
  double next_event_s() override;
  void on_timer(double time_s) override;
  bool reads_node_ids() const override { return false; }  // a job's runs serve as well
  void on_job_start(double time_s, const Placement& placement) override;
  void on_job_end(double time_s, const Placement& placement, bool killed) override;
  void on_job_resize(double time_s, const Placement& before, const Placement& after) override;
  void on_node_state(double time_s, std::span<const NodeId> nodes, NodeState from, NodeState to) override;
  void report(double end_s, Report& report) override;

  // RoomView: the state after every change so far, this moment's included
  bool thermal() const override { return heat_.d || heat_.crac_node; }
  const Eigen::VectorXd& zone_power_w() const override;
  double idle_power_w(std::int32_t node) const override;
  double busy_power_w(std::int32_t node, const JobConfig& config) const override;
  const Eigen::VectorXd& inlet_rise_k() const override;
  const HeatDistribution* heat_distribution() const override { return heat_.d.get(); }
  const Eigen::VectorXd* supply_share() const override { return heat_.supply_share.get(); }
  std::int32_t zone_of(std::int32_t node) const override;
  double supply_c() const override;
  double redline_c() const override { return redline_c_; }
  double compute_power_w() const override { return compute_w_; }
  /// What the controller draws for the state after every change so far (the thermostat: now).
  double cooling_power_w() const override;

 private:
  class Bins;
  std::size_t type_of(std::int32_t node) const {
    return platform_.node_type.empty() ? 0 : platform_.node_type[std::size_t(node)];
  }
  std::span<const double> job_delta(const Placement& placement);
  double state_delta(std::size_t type, NodeState state) const;
  void change(std::span<const NodeId> nodes, std::span<const double> delta_w, double sign);
  /// The same for a job's nodes, given as ids or as runs.
  void change(const Placement& placement, std::span<const double> delta_w, double sign);
  /// Nodes [a, b) change power by sign x delta_w of their type.
  void change_range(std::int32_t a, std::int32_t b, std::span<const double> delta_w, double sign);
  void apply_changes();
  void touch(std::size_t zone, double dp);
  void settle();
  /// The controllers' view of the state after every applied change.
  CoolingInput cooling_input();
  CoolingInput full_load() const;
  void start_sp_eir(const Scenario& scenario, const CoolingRoom& room);
  std::vector<std::string> supply_warnings() const;

  const Platform& platform_;
  NodePowerTable power_;
  std::vector<double> delta_w_;       ///< per node type: busy - idle
  std::vector<double> scratch_delta_;
  std::vector<std::int32_t> type_run_end_;  ///< mixed types: where each node's run of its type ends
  HeatDistributionBuild heat_;
  std::unique_ptr<InletRise> inlet_;
  Eigen::VectorXd zone_power_w_;      ///< the zones' powers (thermal models)
  Eigen::VectorXd crac_rise_k_;       ///< crac_node: the rises of the last solve
  double max_rise_k_ = 0, removed_heat_w_ = NAN;
  std::unique_ptr<CoolingController> cooling_;
  double redline_c_;
  double off_w_, boot_w_;             ///< a switched-off node, a booting one
  double floor_c_;                    ///< supply_temp_min_c: a real CRAC's coldest supply
  struct Run {
    std::int32_t begin, end;
    double dp;
  };
  std::vector<Run> runs_;             ///< pending changes at node level: runs of nodes
  std::vector<double> zone_dp_;       ///< pending power change per zone (zones of several nodes)
  std::vector<std::int32_t> touched_; ///< zones with a pending change
  std::vector<char> is_touched_;
  bool pending_ = false, started_ = false;
  double start_s_ = 0, last_s_ = 0, compute_w_ = 0;
  // integrals and extremes
  double compute_j_ = 0, cooling_j_ = 0, peak_cooling_w_ = 0, max_inlet_c_ = -1e300, above_s_ = 0, supply_cs_ = 0;
  /// Peaks over the intervals between events (a state that lasts no time does not count).
  double peak_compute_w_ = NAN, peak_total_w_ = NAN;
  double below_floor_s_ = 0, min_supply_c_ = INFINITY, max_supply_c_ = -INFINITY;
  std::unique_ptr<Bins> bins_;
  // the thermostat's setting over the run
  double setting_cs_ = 0, min_setting_c_ = INFINITY;
  // SP-EIR's denominator ([P4] Sec. IV; sim/sp_eir.hpp): node counts now, the bound of the moment,
  // and a second CRAC driven by it (the optimal placement's thermostat at Eq. 6)
  std::int32_t busy_nodes_ = 0, off_nodes_ = 0;
  std::unique_ptr<SpEirBound> sp_bound_;
  std::unique_ptr<CoolingController> bound_cooling_;
  double bound_compute_w_ = 0, bound_compute_j_ = 0, bound_cooling_j_ = 0;
};

/// The model a scenario asks for, or nullptr when the power model is off.
std::unique_ptr<DataCenterModel> make_datacenter_model(const Scenario& scenario, const HeatProvider& heat = {});

}  // namespace dcsweep
