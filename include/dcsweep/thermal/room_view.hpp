#pragma once
// What a policy (scheduler or allocator) may read of the room's physical state at the moment it
// decides: a read-only view, implemented by the data-center model of the running simulation and
// backed by its own state (no copy per decision). On a platform without a room, or with the
// physics off, `thermal()` is false and only the node power figures are meaningful (zero when
// the power model is off too).
//
// Zones are the thermal model's units (a node each at node level; runs of zone_nodes consecutive
// nodes on large rooms): inlet rises, zone powers and D are per zone, `zone_of` maps a node.
#include <Eigen/Core>
#include <cstdint>

#include "dcsweep/workload/workload.hpp"

namespace dcsweep {

class HeatDistribution;

class RoomView {
 public:
  virtual ~RoomView() = default;
  /// A thermal model runs (inlet rises, D and the supply temperature below are defined).
  virtual bool thermal() const = 0;
  /// The power each zone draws now (W, nodes in any state), after every change so far; empty
  /// without a thermal model.
  virtual const Eigen::VectorXd& zone_power_w() const = 0;
  /// The power a free node would draw idle, and running a job in `config` (W).
  virtual double idle_power_w(std::int32_t node) const = 0;
  virtual double busy_power_w(std::int32_t node, const JobConfig& config) const = 0;
  /// Inlet temperature rise over the supply per zone now (K), after every change so far.
  virtual const Eigen::VectorXd& inlet_rise_k() const = 0;
  /// D (K/W, zones x zones): D(i, j) is zone i's inlet rise per watt in zone j. Null under the
  /// CRAC + node model (it has influence indices instead).
  virtual const HeatDistribution* heat_distribution() const = 0;
  virtual std::int32_t zone_of(std::int32_t node) const = 0;
  /// [P4]'s supply-air share of each zone's inlet, s_i = sum_j f_ij (F T_sup = s T_sup); null: F = I.
  virtual const Eigen::VectorXd* supply_share() const { return nullptr; }
  /// The cooling controller's supply temperature now (C).
  virtual double supply_c() const = 0;
  virtual double redline_c() const = 0;
  /// The nodes' total power now (W), after every change so far; 0 without a power model.
  virtual double compute_power_w() const { return 0; }
  /// The cooling controller's power (W) for the state after every change so far (static and
  /// redline follow the state at once; the thermostat: its power now); 0 without cooling.
  virtual double cooling_power_w() const { return 0; }
};

/// The view of a simulation without a power model: nothing draws power, no thermal model.
class NoRoom final : public RoomView {
 public:
  bool thermal() const override { return false; }
  const Eigen::VectorXd& zone_power_w() const override { return empty_; }
  double idle_power_w(std::int32_t) const override { return 0; }
  double busy_power_w(std::int32_t, const JobConfig&) const override { return 0; }
  const Eigen::VectorXd& inlet_rise_k() const override { return empty_; }
  const HeatDistribution* heat_distribution() const override { return nullptr; }
  std::int32_t zone_of(std::int32_t node) const override { return node; }
  double supply_c() const override { return NAN; }
  double redline_c() const override { return NAN; }

 private:
  Eigen::VectorXd empty_;
};

}  // namespace dcsweep
