#pragma once
// Cooling controllers (MODELS.md section 2), a plug-in family chosen by `cooling`:
//   static      the CRAC supplies supply_temp_c;            P_AC = P_c / CoP(T_sup)
//   redline     the redline slack raises the supply ([P0] Eq. 5-7, [P1] Eq. 9-13):
//               T_sup' = T_sup + T_red - max(T_in) = T_red - max(D P), not below supply_temp_min_c
//               (a real CRAC's floor: below it the inlets go above the redline instead);
//               P_AC = P_c / CoP(T_sup')
//   thermostat  the two-mode CRAC of [P4] Eq. 2-4, 6: the CRAC input temperature T_sen moves at
//               (P_c - P_ex) / r_room; the supply is T_sen - P_ex / r_ac; the mode switches
//               t_sw after T_sen reaches the high (or low) thermostat setting;
//               P_AC = P_ex^2 / (r_ac T_sup) with T_sup in kelvin (the Carnot-style CoP of [P4]).
//               The high setting (thermostat_setting): `fixed` thermostat_high_c; `worst_case`
//               the bound of Eq. 6 with every node busy, fixed for the run ([P4] Sec. VII-A's
//               LRH and MTDP: safe whatever the placement); `peak` the lowest bound of Eq. 6 over
//               the run, fixed (LRHm, MTDPm: set for the run's most demanding moment; found by a
//               first pass of the same simulation with `highest`, sim/run.hpp); `highest` the
//               bound of Eq. 6 for the power now, after every change (HTS's SETTHERMOSTAT;
//               LRHd, MTDPd).
//               Its clock starts at its first update (the run's first event) in low mode with
//               T_sen at the low setting: nothing is integrated before the run begins.
//               Valid domain. [P4]'s low mode extracts the room's idle power, so the room never
//               cools in it; when a low extraction above the compute power would cool the room
//               below the low setting, the CRAC holds it there instead (it extracts only the
//               compute power, as a thermostat stops its compressor), so T_sen stays bounded;
//               and when the room is below the low setting (the high mode's switching time
//               took it there, or the setting rose), the low mode extracts nothing until the
//               room warms back to it (P_AC = 0 meanwhile).
//               A compute power above the high-mode extraction would heat the room without
//               bound, and a supply at or below 0 K has no meaning: both fail the simulation
//               (SimulationError naming the parameters to change).
// CoP(T) = 0.0068 T^2 + 0.0008 T + 0.458 (T in C) for static and redline.
#include <limits>
#include <memory>

#include "dcsweep/core/registry.hpp"

namespace dcsweep {

double coefficient_of_performance(double supply_c);

/// What the controllers see after a change: total compute power and the largest inlet rise.
struct CoolingInput {
  double compute_power_w = 0;
  double max_rise_k = 0;
  /// Heat the CRACs remove (the CRAC+node model's rho C AFC (TC_in - TC_out)); NaN: the compute
  /// power, as in the recirculation model.
  double removed_heat_w = std::numeric_limits<double>::quiet_NaN();
  /// The highest supply that keeps every inlet at or below the redline, min F^-1 (T_red - D P)
  /// of [P4] Eq. 6; NaN: redline - max_rise_k (F = I).
  double supply_bound_c = std::numeric_limits<double>::quiet_NaN();
};

/// The cooling over an interval with no change in between.
struct CoolingInterval {
  double energy_j = 0;
  double peak_power_w = 0;
  double max_supply_c = 0;      ///< highest supply temperature in the interval
  double min_supply_c = 0;      ///< lowest supply temperature in the interval
  double mean_supply_c = 0;     ///< time-average supply temperature
  double time_above_s = 0;      ///< time the hottest inlet is above the redline
  double time_below_floor_s = 0;  ///< time the supply is below supply_temp_min_c
};

class CoolingController {
 public:
  virtual ~CoolingController() = default;
  /// The state changed at `time_s` (every change at that time is in `input`). The first update
  /// starts the controller's clock.
  virtual void update(double time_s, const CoolingInput& input) = 0;
  /// Integrates from the last update or timer to `time_s` and moves there.
  virtual CoolingInterval advance(double time_s, double redline_c) = 0;
  /// The supply temperature now.
  virtual double supply_c() const = 0;
  /// The cooling power now.
  virtual double power_w() const = 0;
  /// The power it would draw if `in` were the state now: static and redline follow the state at
  /// once; the thermostat's power follows its mode and room temperature, not the state (its
  /// power now).
  virtual double power_for(const CoolingInput& in) const = 0;
  /// The thermostat's high setting now (C); NaN for controllers without a thermostat.
  virtual double setting_c() const { return std::numeric_limits<double>::quiet_NaN(); }
  /// A time at which the controller itself changes (thermostat mode switch); inf if none.
  virtual double next_event_s() const { return std::numeric_limits<double>::infinity(); }
  virtual void on_timer(double /*time_s*/) {}
};

/// What a controller needs of the room besides the parameters (cooling_room() in
/// sim/datacenter.hpp resolves it from the platform and the parameters).
struct CoolingRoom {
  double crac_airflow_m3s = 8.0;     ///< total over the CRACs
  double air_density_kg_m3 = 1.19;
  double air_heat_capacity_j_kgk = 1005;
  double redline_c = 25;             ///< redline_c, or the platform's own
  double air_volume_m3 = 290.3;      ///< the room's air, for r_room ([P4] Sec. VII-B: 9.6 x 8.4 x 3.6 m)
  /// Compute power with every node idle / busy (the thermostat's auto extraction); NaN: unknown.
  double idle_power_w = std::numeric_limits<double>::quiet_NaN();
  double peak_power_w = std::numeric_limits<double>::quiet_NaN();
  /// The thermostat's extraction levels the room's source states (RoomLayout); 0: automatic.
  double stated_low_extract_w = 0;
  double stated_high_extract_w = 0;
  /// The state with every node busy (thermostat_setting = worst_case); compute power NaN: unknown.
  /// (Last: the members above are set by aggregate initialisation.)
  CoolingInput full_load{std::numeric_limits<double>::quiet_NaN(), 0};
};

/// 0 C in kelvin: [P4]'s P_AC = P_ex^2 / (r_ac T_sup) takes the supply in kelvin.
inline constexpr double kKelvinAtZeroCelsius = 273.15;

/// [P4]'s two-mode CRAC as the parameters and the room make it (cooling = thermostat).
struct ThermostatSettings {
  enum class Mode { fixed, worst_case, peak, highest };
  double high_c, delta_c, extract_high_w, extract_low_w, switch_s;
  double r_room_j_k, r_ac_w_k;  ///< thermal capacities: of the room's air (J/K), of the CRAC's air flow (W/K)
  double redline_c, floor_c;
  Mode mode;
};
ThermostatSettings thermostat_settings(const ParamSet& params, const CoolingRoom& room);

/// [P4] Eq. 6 with T_in = F T_sup + D P: the highest high setting that keeps the hottest inlet at
/// the redline at the end of a low epoch's switching time, for the state `in`:
///   bound + P_ex^low / r_ac - (P_c - P_ex^low) / r_room t_sw,
/// bound = min F^-1 (T_red - D P) (in.supply_bound_c; NaN: redline - in.max_rise_k, F = I).
double thermostat_highest_setting_c(const ThermostatSettings& s, const CoolingInput& in);

/// Energy of a CRAC drawing P_AC = c / T_sup (T_sup in kelvin; c = P_ex^2 / r_ac) while its supply
/// moves linearly from supply0_c to supply1_c over dt_s: c dt / (k1 - k0) ln(k1 / k0).
double crac_linear_supply_energy_j(double c_w_k, double supply0_c, double supply1_c, double dt_s);

using CoolingRegistry = Registry<CoolingController, const CoolingRoom&>;
const CoolingRegistry& cooling_registry();

/// The parameters every controller shares (cooling, supply_temp_c, redline_c, supply_temp_min_c).
std::vector<ParamSpec> cooling_params();

}  // namespace dcsweep
