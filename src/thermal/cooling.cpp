#include "dcsweep/thermal/cooling.hpp"

#include <algorithm>
#include <cmath>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {

double coefficient_of_performance(double t) { return 0.0068 * t * t + 0.0008 * t + 0.458; }

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The part of [0, dt] in which a quantity linear from a0 to a1 is above 0 (above 1e-9: the
/// redline controller puts the hottest inlet at the redline itself, up to rounding).
double time_positive(double a0, double a1, double dt) {
  a0 -= 1e-9;
  a1 -= 1e-9;
  if (a0 > 0 && a1 > 0) return dt;
  if (a0 > 0 || a1 > 0) return dt * std::max(a0, a1) / std::abs(a1 - a0);
  return 0;
}

/// A supply temperature that holds until the next change: static and redline.
class SteadyController : public CoolingController {
 public:
  SteadyController(double supply_c, double min_c, bool follow_redline, double redline_c)
      : base_c_(supply_c), min_c_(min_c), follow_(follow_redline), redline_c_(redline_c) {}

  void update(double time_s, const CoolingInput& in) override {
    time_s_ = time_s;
    rise_ = in.max_rise_k;
    bound_c_ = in.supply_bound_c;
    supply_c_ = supply_for(in);
    power_w_ = power_for(in);
  }
  double power_for(const CoolingInput& in) const override {
    const double heat = std::isnan(in.removed_heat_w) ? in.compute_power_w : in.removed_heat_w;
    return heat / coefficient_of_performance(supply_for(in));
  }

  CoolingInterval advance(double time_s, double redline_c) override {
    const double dt = time_s - time_s_;
    time_s_ = time_s;
    // With F: an inlet is above the redline exactly when the supply is above the bound.
    const double above = std::isnan(bound_c_) ? supply_c_ + rise_ - redline_c : supply_c_ - bound_c_;
    const double below = min_c_ - supply_c_;
    return {power_w_ * dt, power_w_,  supply_c_, supply_c_, supply_c_, time_positive(above, above, dt),
            time_positive(below, below, dt)};
  }

  double supply_c() const override { return supply_c_; }
  double power_w() const override { return power_w_; }

 private:
  double supply_for(const CoolingInput& in) const {
    if (!follow_) return base_c_;
    return std::max(std::isnan(in.supply_bound_c) ? redline_c_ - in.max_rise_k : in.supply_bound_c, min_c_);
  }

  double base_c_, min_c_;
  bool follow_;
  double redline_c_;
  double time_s_ = 0, rise_ = 0, supply_c_ = 0, power_w_ = 0, bound_c_ = NAN;
};

/// [P4]'s two-mode CRAC with a thermostat, with the low-mode hold and the guards of the header.
class ThermostatController final : public CoolingController {
 public:
  using Settings = ThermostatSettings;
  /// `full_load`: the state with every node busy (worst_case).
  ThermostatController(const Settings& s, const CoolingInput& full_load)
      : s_(s), high_c_(initial_setting(s, full_load)), sensed_c_(high_c_ - s.delta_c) {}

  void update(double time_s, const CoolingInput& in) override {
    if (started_) advance_state(time_s);
    started_ = true;
    time_s_ = time_s;  // the first update starts the clock: no integration before the run
    power_in_w_ = in.compute_power_w;
    rise_ = in.max_rise_k;
    bound_c_ = in.supply_bound_c;
    if (s_.mode == Settings::Mode::highest) high_c_ = thermostat_highest_setting_c(s_, in);
    check_heating(time_s);
    replan();
  }

  CoolingInterval advance(double time_s, double redline_c) override {
    CoolingInterval out;
    const double dt = time_s - time_s_;
    const double s0 = supply_at(time_s_), s1 = supply_at(time_s);
    check_supply(std::min(s0, s1), time_s);
    const double extract = extract_w();
    const double c = extract * extract / s_.r_ac_w_k;  // P_AC = c / T_sup(K)
    if (dt > 0) out.energy_j = crac_linear_supply_energy_j(c, s0, s1, dt);
    out.peak_power_w = c / (std::min(s0, s1) + kKelvinAtZeroCelsius);
    out.max_supply_c = std::max(s0, s1);
    out.min_supply_c = std::min(s0, s1);
    out.mean_supply_c = (s0 + s1) / 2;
    // hottest inlet = supply + rise, linear in time, as is the supply's distance to the floor
    out.time_above_s = std::isnan(bound_c_) ? time_positive(s0 + rise_ - redline_c, s1 + rise_ - redline_c, dt)
                                            : time_positive(s0 - bound_c_, s1 - bound_c_, dt);  // with F
    out.time_below_floor_s = time_positive(s_.floor_c - s0, s_.floor_c - s1, dt);
    advance_state(time_s);
    return out;
  }

  double supply_c() const override { return supply_at(time_s_); }
  double power_w() const override {
    const double e = extract_w();
    return e * e / (s_.r_ac_w_k * (supply_c() + kKelvinAtZeroCelsius));
  }
  double power_for(const CoolingInput&) const override { return power_w(); }
  double next_event_s() const override { return std::min(switch_at_, hold_at_); }
  double setting_c() const override { return high_c_; }

  void on_timer(double time_s) override {
    advance_state(time_s);
    if (time_s >= hold_at_) sensed_c_ = low_c();  // reached (from above or below), up to rounding
    if (time_s >= switch_at_) {
      high_mode_ = !high_mode_;
      pending_ = false;
      crossed_at_ = kInf;
    }
    replan();
  }

 private:
  double low_c() const { return high_c_ - s_.delta_c; }
  double extract_w() const {
    if (high_mode_) return s_.extract_high_w;
    return holding_ ? power_in_w_ : idling_ ? 0.0 : s_.extract_low_w;
  }
  double slope() const { return (power_in_w_ - extract_w()) / s_.r_room_j_k; }
  double sensed_at(double t) const { return sensed_c_ + slope() * (t - time_s_); }
  double supply_at(double t) const { return sensed_at(t) - extract_w() / s_.r_ac_w_k; }

  void advance_state(double time_s) {
    sensed_c_ = sensed_at(time_s);
    time_s_ = time_s;
  }

  /// The setting before the first update: fixed and peak give it (highest starts there too, its
  /// first update moves it); worst_case is Eq. 6 at full load.
  static double initial_setting(const Settings& s, const CoolingInput& full_load) {
    if (s.mode != Settings::Mode::worst_case) return s.high_c;
    if (std::isnan(full_load.compute_power_w)) {
      throw InputError("thermostat_setting worst_case needs the room's node power model (the bound of [P4] Eq. 6 "
                       "with every node busy)");
    }
    return thermostat_highest_setting_c(s, full_load);
  }

  void check_heating(double time_s) const {
    if (power_in_w_ <= s_.extract_high_w) return;
    throw SimulationError("thermostat: at t = " + format_number(time_s) + " s the compute power " +
                          format_number(power_in_w_) + " W exceeds the CRAC's high-mode extraction " +
                          format_number(s_.extract_high_w) +
                          " W, so the room would heat without bound; raise crac_high_extract_w (0: the room's stated "
                          "level, else crac_high_extract_peak_ratio x the peak compute power)");
  }

  void check_supply(double supply_c, double time_s) const {
    if (supply_c + kKelvinAtZeroCelsius > 0) return;
    throw SimulationError("thermostat: at t = " + format_number(time_s) + " s the supply air would be " +
                          format_number(supply_c) + " C, at or below absolute zero (the CRAC extracts " +
                          format_number(extract_w()) + " W from " + format_number(s_.r_ac_w_k) +
                          " W/K of air); raise crac_airflow_m3s or thermostat_high_c, or lower crac_high_extract_w");
  }

  /// After any change: whether the low mode holds the room at its low setting, and when the next
  /// switch or hold begins.
  void replan() {
    const bool below_low_extraction = !high_mode_ && power_in_w_ < s_.extract_low_w;
    holding_ = below_low_extraction && std::abs(sensed_c_ - low_c()) <= 1e-9;
    idling_ = below_low_extraction && sensed_c_ < low_c() - 1e-9;
    plan_switch();
    hold_at_ = kInf;
    const double rate = slope();
    if (!high_mode_ && !holding_ && (rate < 0 || (idling_ && rate > 0))) {
      hold_at_ = time_s_ + (low_c() - sensed_c_) / rate;
    }
  }

  /// When the sensed temperature reaches the threshold of the current mode, plus the switch time.
  /// Once reached, the switch is pending and no later change moves it.
  void plan_switch() {
    if (pending_) return;
    const double target = high_mode_ ? low_c() : high_c_;
    const double rate = slope();
    const bool reached = high_mode_ ? sensed_c_ <= target : sensed_c_ >= target;
    if (reached) {
      pending_ = true;
      switch_at_ = std::min(crossed_at_, time_s_) + s_.switch_s;
      return;
    }
    const bool moving_there = high_mode_ ? rate < 0 : rate > 0;
    crossed_at_ = moving_there ? time_s_ + (target - sensed_c_) / rate : kInf;
    switch_at_ = crossed_at_ + s_.switch_s;
  }

  Settings s_;
  double high_c_;
  double sensed_c_;
  double time_s_ = 0, power_in_w_ = 0, rise_ = 0, bound_c_ = NAN;  // bound: with F, the supply bound
  bool started_ = false, high_mode_ = false, pending_ = false, holding_ = false, idling_ = false;
  double crossed_at_ = kInf, switch_at_ = kInf, hold_at_ = kInf;
};

ParamSpec celsius(std::string name, double fallback, std::string help, double min = -100, double max = 200) {
  return real_param(std::move(name), "C", fallback, min, max, std::move(help));
}

ParamSpec positive(std::string name, std::string unit, double fallback, std::string help) {
  return real_param(std::move(name), std::move(unit), fallback, 0, 1e12, std::move(help), true);
}

/// A quantity whose default 0 means "derived from the room".
ParamSpec automatic(std::string name, std::string unit, std::string help) {
  return {.name = std::move(name), .type = ParamType::real, .unit = std::move(unit), .default_value = 0.0,
          .min = 0, .max = 1e12, .help = std::move(help)};
}

CoolingRegistry::Entry steady(std::string name, std::string help, bool follow) {
  auto make = [follow](const BuildContext& ctx, const CoolingRoom& room) -> std::unique_ptr<CoolingController> {
    const ParamSet& p = ctx.params;
    return std::make_unique<SteadyController>(p.real("supply_temp_c"), p.real("supply_temp_min_c"), follow,
                                              room.redline_c);
  };
  return {std::move(name), std::move(help), {}, make};
}

ThermostatSettings::Mode thermostat_mode(const std::string& name) {
  using Mode = ThermostatSettings::Mode;
  return name == "highest" ? Mode::highest : name == "worst_case" ? Mode::worst_case : name == "peak" ? Mode::peak
                                                                                                      : Mode::fixed;
}

/// A parameter's value, or when it is 0 (auto) the room's figure.
double given_or(const ParamSet& p, const std::string& name, double room_value) {
  const double given = p.real(name);
  if (given > 0) return given;
  if (std::isnan(room_value)) {
    throw InputError("parameter '" + name + "': 0 (auto) needs the room's node power model; give it in W");
  }
  return room_value;
}

}  // namespace

ThermostatSettings thermostat_settings(const ParamSet& p, const CoolingRoom& room) {
  const double rho_c = room.air_density_kg_m3 * room.air_heat_capacity_j_kgk;
  // A parameter set wins, then the room's stated level ([P4]'s own room), then the automatic one.
  const double low = given_or(p, "crac_low_extract_w",
                              room.stated_low_extract_w > 0 ? room.stated_low_extract_w : room.idle_power_w);
  const double high = given_or(p, "crac_high_extract_w",
                               room.stated_high_extract_w > 0 ? room.stated_high_extract_w
                                                              : p.real("crac_high_extract_peak_ratio") * room.peak_power_w);
  if (low > high) {
    throw InputError("parameter 'crac_low_extract_w': the low mode's extraction " + format_number(low) +
                     " W is above the high mode's " + format_number(high) + " W (crac_high_extract_w)");
  }
  return {p.real("thermostat_high_c"),
          p.real("thermostat_delta_c"),
          high,
          low,
          p.real("crac_switch_s"),
          rho_c * given_or(p, "room_air_volume_m3", room.air_volume_m3),
          rho_c * given_or(p, "crac_airflow_m3s", room.crac_airflow_m3s),
          room.redline_c,
          p.real("supply_temp_min_c"),
          thermostat_mode(p.text("thermostat_setting"))};
}

double crac_linear_supply_energy_j(double c_w_k, double supply0_c, double supply1_c, double dt_s) {
  const double k0 = supply0_c + kKelvinAtZeroCelsius, k1 = supply1_c + kKelvinAtZeroCelsius;
  return std::abs(k1 - k0) < 1e-12 ? c_w_k / k0 * dt_s : c_w_k * dt_s / (k1 - k0) * std::log(k1 / k0);
}

double thermostat_highest_setting_c(const ThermostatSettings& s, const CoolingInput& in) {
  const double bound = std::isnan(in.supply_bound_c) ? s.redline_c - in.max_rise_k : in.supply_bound_c;
  return bound + s.extract_low_w / s.r_ac_w_k - (in.compute_power_w - s.extract_low_w) / s.r_room_j_k * s.switch_s;
}

namespace {

std::vector<ParamSpec> thermostat_params() {
  return {celsius("thermostat_high_c", 30, "high thermostat setting ([P4] Sec. VII-E: 30 C)"),
          positive("thermostat_delta_c", "C", 15, "high minus low thermostat setting ([P4] Sec. VII-E: 15 C)"),
          automatic("crac_high_extract_w", "W",
                    "heat the CRAC extracts in high mode; 0: the room's stated level (asu50: 350 kW, [P4] Sec. VII-E, "
                    "'greater than the maximum computing power'), else crac_high_extract_peak_ratio x the room's "
                    "peak compute power"),
          {.name = "crac_high_extract_peak_ratio", .type = ParamType::real, .default_value = 3.0, .min = 1,
           .max = 1e3, .min_open = true,
           .help = "auto high-mode extraction over the peak compute power ([P4]: 350 kW over the ASU room's "
                   "115.7 kW peak = 3.03)"},
          automatic("crac_low_extract_w", "W",
                    "heat the CRAC extracts in low mode; 0: the room's stated level (asu50: 100 kW, [P4] Sec. VII-E, "
                    "'equal to the idle power consumption' of the ASU room), else the room's idle compute power"),
          {.name = "crac_switch_s", .type = ParamType::real, .unit = "s", .default_value = 3.0, .min = 0,
           .max = 1e6, .help = "time the CRAC takes to change mode ([P4] Sec. VII-E: 3 s)"},
          automatic("crac_airflow_m3s", "m3/s",
                    "CRAC air flow, r_ac = rho c_p x this (0: the platform's, all CRACs; asu50: 8 m3/s, [P4] "
                    "Sec. VII-B)"),
          automatic("room_air_volume_m3", "m3",
                    "air volume of the room, r_room = rho c_p x this (0: the platform's; asu50: 9.6 x 8.4 x 3.6 m = "
                    "290.3 m3, [P4] Sec. VII-B; other rooms 29.03 m3 per rack, assumed)"),
          {.name = "thermostat_setting", .type = ParamType::choice, .default_value = std::string("fixed"),
           .choices = {"fixed", "worst_case", "peak", "highest"},
           .help = "fixed: thermostat_high_c; worst_case: [P4] Eq. 6 with every node busy, for the whole run (LRH, "
                   "MTDP); peak: the lowest Eq. 6 bound of the run, for the whole run (LRHm, MTDPm; a first pass "
                   "with highest finds it); highest: Eq. 6 for the power now, at each change (HTS, LRHd, MTDPd)"}};
}

CoolingRegistry::Entry thermostat() {
  auto make = [](const BuildContext& ctx, const CoolingRoom& room) -> std::unique_ptr<CoolingController> {
    return std::make_unique<ThermostatController>(thermostat_settings(ctx.params, room), room.full_load);
  };
  return {"thermostat",
          "[P4] two-mode CRAC (high/low extraction) switched by a thermostat on its input temperature; the low mode "
          "holds the room at its low setting rather than cool it further",
          thermostat_params(), make};
}

}  // namespace

const CoolingRegistry& cooling_registry() {
  static const CoolingRegistry registry(
      "cooling", {steady("static", "the CRAC supplies supply_temp_c; P_AC = P_c / CoP(T_sup)", false),
                  steady("redline",
                         "[P0]/[P1]: the redline slack raises the supply: T_sup' = T_red - max(D P), at least "
                         "supply_temp_min_c; P_AC = P_c / CoP(T_sup')",
                         true),
                  thermostat()});
  return registry;
}

std::vector<ParamSpec> cooling_params() {
  return {{.name = "cooling", .type = ParamType::choice, .default_value = std::string("redline"),
           .choices = cooling_registry().names(), .help = "cooling controller (dcsweep list)"},
          celsius("supply_temp_c", 15, "CRAC supply air temperature (static; the base of redline)"),
          celsius("redline_c", 25,
                  "highest allowed inlet temperature (unset: the platform's: 30 C on oxley1080/4320, [P3] Sec. 5.2; "
                  "25 C elsewhere, [P0])"),
          celsius("supply_temp_min_c", 5.5,
                  "coldest supply a CRAC delivers: ASHRAE TC 9.9 (2008, 2011)'s recommended minimum dew point, 5.5 C "
                  "(colder coils dry the room below the recommended envelope); redline control stops there (the "
                  "inlets exceed the redline instead); time_supply_below_floor_s counts the time below it")};
}

}  // namespace dcsweep
