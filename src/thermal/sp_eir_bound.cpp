#include "dcsweep/thermal/sp_eir_bound.hpp"

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {
namespace {


/// A supply the CRAC reaches must be above 0 K, or P_ex^2 / (r_ac T_sup) has no meaning.
void check_supply(double supply_c, const ThermostatSettings& s) {
  if (supply_c + kKelvinAtZeroCelsius > 0) return;
  throw InputError("thermostat: the supply air would reach " + format_number(supply_c) +
                   " C, at or below absolute zero (" + format_number(s.r_ac_w_k) +
                   " W/K of CRAC air); raise crac_airflow_m3s or lower crac_high_extract_w");
}

}  // namespace

ThermostatCycle thermostat_cycle(const ThermostatSettings& s, double compute_w, double high_c) {
  if (compute_w >= s.extract_high_w) {
    throw InputError("thermostat: the compute power " + format_number(compute_w) +
                     " W is not below the CRAC's high-mode extraction " + format_number(s.extract_high_w) +
                     " W, so the room would heat without bound; raise crac_high_extract_w");
  }
  const double low_c = high_c - s.delta_c;
  ThermostatCycle out;
  if (compute_w <= s.extract_low_w) {
    // The low mode holds T_sen at the low setting and extracts only the compute power (at
    // P_c = P_low exactly the low mode balances the room there: the same state).
    out.holding = true;
    const double supply = low_c - compute_w / s.r_ac_w_k;
    check_supply(supply, s);
    out.average_power_w = compute_w * compute_w / (s.r_ac_w_k * (supply + kKelvinAtZeroCelsius));
    out.peak_power_w = out.average_power_w;
    return out;
  }
  // Each mode runs t_sw past its threshold, so T_sen swings between low_c - b t_sw (the high
  // mode's overshoot) and high_c + a t_sw (the low mode's); the swing is the same both ways.
  const double rise = (compute_w - s.extract_low_w) / s.r_room_j_k;   // a, K/s in low mode
  const double fall = (s.extract_high_w - compute_w) / s.r_room_j_k;  // b, K/s in high mode
  const double bottom = low_c - fall * s.switch_s, top = high_c + rise * s.switch_s;
  out.low_s = (top - bottom) / rise;
  out.high_s = (top - bottom) / fall;
  const double drop_low = s.extract_low_w / s.r_ac_w_k, drop_high = s.extract_high_w / s.r_ac_w_k;
  check_supply(bottom - drop_high, s);  // the coldest supply of the cycle
  out.low_energy_j =
      crac_linear_supply_energy_j(s.extract_low_w * drop_low, bottom - drop_low, top - drop_low, out.low_s);
  out.high_energy_j =
      crac_linear_supply_energy_j(s.extract_high_w * drop_high, top - drop_high, bottom - drop_high, out.high_s);
  out.average_power_w = (out.low_energy_j + out.high_energy_j) / (out.low_s + out.high_s);
  // P_ex^2 / r_ac / T_sup is largest at the high mode's coldest supply (P_high > P_low).
  out.peak_power_w = s.extract_high_w * drop_high / (bottom - drop_high + kKelvinAtZeroCelsius);
  return out;
}

SpEirUpperBound sp_eir_upper_bound(const ThermostatSettings& s, const CoolingInput& full_load,
                                   const CoolingInput& idle) {
  auto side = [&s](const CoolingInput& in) {
    const double setting = thermostat_highest_setting_c(s, in);
    const ThermostatCycle cycle = thermostat_cycle(s, in.compute_power_w, setting);
    return ThermostatSteadyState{in.compute_power_w, setting, cycle.average_power_w, cycle.peak_power_w};
  };
  return {side(full_load), side(idle)};
}

}  // namespace dcsweep
