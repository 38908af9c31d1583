#include "dcsweep/thermal/cooling.hpp"

#include <algorithm>
#include <cmath>

namespace dcsweep {

double coefficient_of_performance(double t) { return 0.0068 * t * t + 0.0008 * t + 0.458; }

namespace {

constexpr double kKelvin = 273.15;

/// A supply temperature that holds until the next change: static and redline.
class SteadyController : public CoolingController {
 public:
  SteadyController(double supply_c, double min_c, bool follow_redline, double redline_c)
      : base_c_(supply_c), min_c_(min_c), follow_(follow_redline), redline_c_(redline_c) {}

  void update(double time_s, const CoolingInput& in) override {
    time_s_ = time_s;
    rise_ = in.max_rise_k;
    supply_c_ = follow_ ? std::max(redline_c_ - in.max_rise_k, min_c_) : base_c_;
    const double heat = std::isnan(in.removed_heat_w) ? in.compute_power_w : in.removed_heat_w;
    power_w_ = heat / coefficient_of_performance(supply_c_);
  }

  CoolingInterval advance(double time_s, double redline_c) override {
    const double dt = time_s - time_s_;
    time_s_ = time_s;
    return {power_w_ * dt, power_w_, supply_c_, supply_c_, supply_c_ + rise_ > redline_c + 1e-9 ? dt : 0.0};
  }

  double supply_c() const override { return supply_c_; }
  double power_w() const override { return power_w_; }

 private:
  double base_c_, min_c_;
  bool follow_;
  double redline_c_;
  double time_s_ = 0, rise_ = 0, supply_c_ = 0, power_w_ = 0;
};

/// [P4]'s two-mode CRAC with a thermostat.
class ThermostatController final : public CoolingController {
 public:
  struct Settings {
    double high_c, delta_c, extract_high_w, extract_low_w, switch_s, r_room_j_k, r_ac_w_k, redline_c;
    bool highest;
  };
  explicit ThermostatController(const Settings& s) : s_(s), high_c_(s.high_c), sensed_c_(s.high_c - s.delta_c) {}

  void update(double time_s, const CoolingInput& in) override {
    advance_state(time_s);
    power_in_w_ = in.compute_power_w;
    rise_ = in.max_rise_k;
    if (s_.highest) {
      // Eq. 6 with T_in = T_sup + D P: the highest setting that keeps the hottest inlet at the
      // redline at the end of a low epoch's switching time.
      high_c_ = s_.redline_c - in.max_rise_k + s_.extract_low_w / s_.r_ac_w_k -
                (in.compute_power_w - s_.extract_low_w) / s_.r_room_j_k * s_.switch_s;
    }
    plan_switch();
  }

  CoolingInterval advance(double time_s, double redline_c) override {
    CoolingInterval out;
    const double t0 = time_s_, dt = time_s - t0;
    const double extract = extract_w();
    const double s0 = supply_at(t0), s1 = supply_at(time_s);
    const double c = extract * extract / s_.r_ac_w_k;  // P_AC = c / T_sup(K)
    const double k0 = s0 + kKelvin, k1 = s1 + kKelvin;
    if (dt > 0) {
      out.energy_j = std::abs(k1 - k0) < 1e-12 ? c / k0 * dt : c * dt / (k1 - k0) * std::log(k1 / k0);
    }
    out.peak_power_w = c / std::min(k0, k1);
    out.max_supply_c = std::max(s0, s1);
    out.mean_supply_c = (s0 + s1) / 2;
    // hottest inlet = supply + rise, linear in time: the part of [t0, t1] above the redline
    const double h0 = s0 + rise_ - redline_c, h1 = s1 + rise_ - redline_c;
    if (h0 > 0 && h1 > 0) out.time_above_s = dt;
    else if (h0 > 0 || h1 > 0) out.time_above_s = dt * std::max(h0, h1) / std::abs(h1 - h0);
    advance_state(time_s);
    return out;
  }

  double supply_c() const override { return supply_at(time_s_); }
  double power_w() const override {
    const double e = extract_w();
    return e * e / (s_.r_ac_w_k * (supply_c() + kKelvin));
  }
  double next_event_s() const override { return switch_at_; }

  void on_timer(double time_s) override {
    advance_state(time_s);
    if (time_s >= switch_at_) {
      high_mode_ = !high_mode_;
      pending_ = false;
      crossed_at_ = std::numeric_limits<double>::infinity();
      plan_switch();
    }
  }

 private:
  double extract_w() const { return high_mode_ ? s_.extract_high_w : s_.extract_low_w; }
  double slope() const { return (power_in_w_ - extract_w()) / s_.r_room_j_k; }
  double sensed_at(double t) const { return sensed_c_ + slope() * (t - time_s_); }
  double supply_at(double t) const { return sensed_at(t) - extract_w() / s_.r_ac_w_k; }

  void advance_state(double time_s) {
    sensed_c_ = sensed_at(time_s);
    time_s_ = time_s;
  }

  /// When the sensed temperature reaches the threshold of the current mode, plus the switch time.
  /// Once reached, the switch is pending and no later change moves it.
  void plan_switch() {
    if (pending_) return;
    const double target = high_mode_ ? high_c_ - s_.delta_c : high_c_;
    const double rate = slope();
    const bool reached = high_mode_ ? sensed_c_ <= target : sensed_c_ >= target;
    if (reached) {
      pending_ = true;
      switch_at_ = std::min(crossed_at_, time_s_) + s_.switch_s;
      return;
    }
    const bool moving_there = high_mode_ ? rate < 0 : rate > 0;
    crossed_at_ = moving_there ? time_s_ + (target - sensed_c_) / rate : std::numeric_limits<double>::infinity();
    switch_at_ = crossed_at_ + s_.switch_s;
  }

  Settings s_;
  double high_c_;
  double sensed_c_;
  double time_s_ = 0, power_in_w_ = 0, rise_ = 0;
  bool high_mode_ = false;
  bool pending_ = false;
  double crossed_at_ = std::numeric_limits<double>::infinity();
  double switch_at_ = std::numeric_limits<double>::infinity();
};

ParamSpec celsius(std::string name, double fallback, std::string help, double min = -100, double max = 200) {
  return {.name = std::move(name), .type = ParamType::real, .unit = "C", .default_value = fallback, .min = min,
          .max = max, .help = std::move(help)};
}

ParamSpec positive(std::string name, std::string unit, double fallback, std::string help) {
  return {.name = std::move(name), .type = ParamType::real, .unit = std::move(unit), .default_value = fallback,
          .min = 0, .max = 1e12, .min_open = true, .help = std::move(help)};
}

CoolingRegistry::Entry steady(std::string name, std::string help, bool follow) {
  auto make = [follow](const BuildContext& ctx, const CoolingRoom&) -> std::unique_ptr<CoolingController> {
    const ParamSet& p = ctx.params;
    return std::make_unique<SteadyController>(p.real("supply_temp_c"), p.real("supply_temp_min_c"), follow,
                                              p.real("redline_c"));
  };
  return {std::move(name), std::move(help), {}, make};
}

CoolingRegistry::Entry thermostat() {
  auto make = [](const BuildContext& ctx, const CoolingRoom& room) -> std::unique_ptr<CoolingController> {
    const ParamSet& p = ctx.params;
    const double rho_c = room.air_density_kg_m3 * room.air_heat_capacity_j_kgk;
    const std::string setting = p.text("thermostat_setting");
    return std::make_unique<ThermostatController>(ThermostatController::Settings{
        p.real("thermostat_high_c"), p.real("thermostat_delta_c"), p.real("crac_high_extract_w"),
        p.real("crac_low_extract_w"), p.real("crac_switch_s"), rho_c * p.real("room_air_volume_m3"),
        rho_c * room.crac_airflow_m3s, p.real("redline_c"), setting == "highest"});
  };
  return {"thermostat",
          "[P4] two-mode CRAC (high/low extraction) switched by a thermostat on its input temperature",
          {celsius("thermostat_high_c", 30, "high thermostat setting ([P4]: 30 C)"),
           positive("thermostat_delta_c", "C", 15, "high minus low thermostat setting ([P4]: 15 C)"),
           positive("crac_high_extract_w", "W", 350e3, "heat the CRAC extracts in high mode ([P4]: 350 kW)"),
           positive("crac_low_extract_w", "W", 100e3, "heat the CRAC extracts in low mode ([P4]: 100 kW)"),
           {.name = "crac_switch_s", .type = ParamType::real, .unit = "s", .default_value = 3.0, .min = 0,
            .max = 1e6, .help = "time the CRAC takes to change mode ([P4]: 3 s)"},
           positive("room_air_volume_m3", "m3", 300,
                    "air volume of the room, for r_room = rho c_p V (not in [P4]: assumed)"),
           {.name = "thermostat_setting", .type = ParamType::choice, .default_value = std::string("fixed"),
            .choices = {"fixed", "highest"},
            .help = "fixed: thermostat_high_c; highest: the bound of [P4] Eq. 6 at each change (HTS)"}},
          make};
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
          celsius("redline_c", 25, "highest allowed inlet temperature"),
          celsius("supply_temp_min_c", -100,
                  "coldest supply the CRAC can deliver (redline control); below it the redline is violated")};
}

}  // namespace dcsweep
