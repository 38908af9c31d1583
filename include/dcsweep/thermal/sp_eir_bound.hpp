#pragma once
// [P4] Sec. IV-B Eq. 7: the upper bound on the SP-EIR of any placement algorithm,
//   E_Alg / E_opt <= (energy of Alg under 100% utilisation) / (energy of Opt under 0% utilisation),
// evaluated as time-average powers over the same duration. Each side is the compute power plus the
// long-run average power of [P4]'s two-mode thermostat CRAC (cooling.hpp) at that constant compute
// power, its high setting at Eq. 6 for that state: every node busy for Alg (at 100% utilisation
// every placement is the same, so no algorithm can set it higher), every node idle for Opt.
#include "dcsweep/thermal/cooling.hpp"

namespace dcsweep {

/// One period of the thermostat CRAC's limit cycle at a constant compute power, or its hold.
struct ThermostatCycle {
  bool holding = false;                        ///< compute power <= P_ex^low: T_sen sits at the low setting, no cycle
  double low_s = 0, high_s = 0;                ///< mode durations of one period (0 when holding)
  double low_energy_j = 0, high_energy_j = 0;  ///< CRAC energy in each mode over one period
  double average_power_w = 0;                  ///< long-run time-average CRAC power
  double peak_power_w = 0;  ///< the most it draws: high mode at the cycle's coldest supply (holding: the average)
};

/// The thermostat CRAC's long-run behaviour at constant compute power `compute_w` with the high
/// setting `high_c` (s.high_c and s.mode are not read). In closed form:
///   P_low < P_c < P_high: T_sen rises at a = (P_c - P_low) / r_room in low mode from
///     T_low - b t_sw to T_high + a t_sw, and falls at b = (P_high - P_c) / r_room in high mode
///     back; P_AC = P_ex^2 / (r_ac T_sup), T_sup = T_sen - P_ex / r_ac in kelvin, integrated
///     exactly over each linear segment (as ThermostatController::advance does);
///   P_c <= P_low: the low-mode hold, T_sen = T_low, extraction P_c.
/// InputError when P_c >= P_high (the room heats without bound) or a supply at or below 0 K.
ThermostatCycle thermostat_cycle(const ThermostatSettings& s, double compute_w, double high_c);

/// One side of Eq. 7: a constant state, its Eq. 6 setting and the CRAC's average power there.
struct ThermostatSteadyState {
  double compute_w = 0, setting_c = 0, cooling_w = 0, peak_cooling_w = 0;
  double total_w() const { return compute_w + cooling_w; }
};

struct SpEirUpperBound {
  ThermostatSteadyState alg_full;  ///< every node busy, setting at Eq. 6 for that state
  ThermostatSteadyState opt_idle;  ///< every node idle, setting at Eq. 6 for that state
  double ratio() const { return alg_full.total_w() / opt_idle.total_w(); }
};

/// [P4] Eq. 7 for the room: `full_load` with every node busy, `idle` with every node idle.
SpEirUpperBound sp_eir_upper_bound(const ThermostatSettings& s, const CoolingInput& full_load,
                                   const CoolingInput& idle);

}  // namespace dcsweep
