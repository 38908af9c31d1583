// The two-mode CRAC of [P4] and the physics guards: a run starting late equals the same run
// shifted to start at 0 (issue 15), the controller against an independent explicit stepping of
// Eq. 2-4 (with the low-mode hold), the room's energy balance, the runaway guards, the redline
// floor, [P4]'s F, the defaults taken from the papers (asu50 and other rooms), and the closed-form
// limit cycle of [P4] Eq. 7's bound (sp_eir_bound.hpp) as the controller's long-run average.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "dcsweep/core/error.hpp"
#include "dcsweep/power/node_power.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/run.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "dcsweep/thermal/cooling.hpp"
#include "dcsweep/thermal/sp_eir_bound.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

using test::input_error;

constexpr double kKelvin = 273.15;
constexpr double kRhoC = 1.19 * 1005;

ParamSet thermostat_params(const std::string& platform) {
  ParamSet p(simulation_catalog());
  p.set("platform", platform);
  p.set("cooling", std::string("thermostat"));
  p.set("allocator", std::string("first_fit"));
  return p;
}

ParamSet poisson(const std::string& platform, std::int64_t jobs, std::int64_t seed) {
  ParamSet p = thermostat_params(platform);
  p.set("workload", std::string("poisson"));
  p.set("poisson_jobs", jobs);
  p.set("seed", seed);
  return p;
}

/// The physics metrics of two runs agree (they do not depend on where the clock starts).
void expect_same_physics(const Report& a, const Report& b) {
  for (const char* name : {"compute_energy_j", "avg_compute_power_w", "cooling_energy_j", "avg_cooling_power_w",
                           "max_cooling_power_w", "max_inlet_c", "time_above_redline_s", "avg_supply_temp_c",
                           "time_supply_below_floor_s"}) {
    const double x = a.value(name), y = b.value(name);
    EXPECT_NEAR(x, y, 1e-7 * std::max(1.0, std::abs(x))) << name;
  }
}

/// The same jobs with every submit time moved by `shift_s`.
Scenario shifted(Scenario s, double shift_s) {
  for (Job& j : s.workload.jobs) j.submit_s += shift_s;
  return s;
}

TEST(ThermostatStart, PoissonRunsEqualTheirShiftToZero) {
  // [P4]'s ASU settings as the independent integration of issue 15 used them.
  for (const std::int64_t jobs : {1, 40}) {
    ParamSet p = poisson("asu50", jobs, 3);
    p.set("crac_low_extract_w", 100e3);
    p.set("crac_high_extract_w", 350e3);
    p.set("room_air_volume_m3", 300.0);
    if (jobs == 1) {
      p.set("poisson_max_nodes", std::int64_t{1});
      p.set("poisson_min_runtime_s", 2000.0);
      p.set("poisson_max_runtime_s", 2000.0);
    }
    const Scenario late = make_scenario(p);
    const double first = late.workload.jobs.front().submit_s;
    ASSERT_GT(first, 100) << "the case needs a first event far from 0";
    const Report a = run_simulation(late).report, b = run_simulation(shifted(late, -first)).report;
    expect_same_physics(a, b);
    // The independent step integration of Eq. 2-4 of issue 15: 10.42 C and 9.89 C.
    EXPECT_NEAR(a.value("avg_supply_temp_c"), jobs == 1 ? 10.42 : 9.89, 0.005) << jobs << " jobs";
  }
}

TEST(ThermostatStart, TraceFarFromZeroEqualsTheSameJobsAtZero) {
  ParamSet p = thermostat_params("asu50");
  p.set("trace", std::string(DCSWEEP_TRACES_DIR) + "/KTH-SP2-1996-2.1-cln.swf");
  p.set("first_job", std::int64_t{10500});
  p.set("jobs", std::int64_t{60});
  p.set("scale_to_platform", true);
  const Scenario at_zero = make_scenario(p);
  ASSERT_EQ(at_zero.workload.jobs.front().submit_s, 0);
  expect_same_physics(run_simulation(at_zero).report, run_simulation(shifted(at_zero, 3.7e6)).report);
}

/// A piecewise-constant compute power: (from_s, watts) steps, the first from the start.
using Schedule = std::vector<std::pair<double, double>>;
double power_at(const Schedule& s, double t) {
  double w = s.front().second;
  for (const auto& [from, watts] : s) w = t >= from ? watts : w;
  return w;
}

struct Totals {
  double cooling_j = 0, supply_cs = 0, balance_j = 0, sensed_start_c = NAN, sensed_end_c = NAN;
};

/// A room of r_room = 1000 J/K, r_ac = 2000 W/K; low 1000 W, high 5000 W; 30 / 20 C; t_sw 2 s.
struct Room {
  double r_room = 1000, r_ac = 2000, low_w = 1000, high_w = 5000, high_c = 30, delta_c = 10, switch_s = 2;
};

ParamSet room_params(const Room& r) {
  ParamSet p(simulation_catalog());
  p.set("thermostat_high_c", r.high_c);
  p.set("thermostat_delta_c", r.delta_c);
  p.set("crac_low_extract_w", r.low_w);
  p.set("crac_high_extract_w", r.high_w);
  p.set("crac_switch_s", r.switch_s);
  p.set("room_air_volume_m3", r.r_room / kRhoC);
  p.set("crac_airflow_m3s", r.r_ac / kRhoC);
  return p;
}

std::unique_ptr<CoolingController> make_crac(const Room& r) {
  return cooling_registry().at("thermostat").make({room_params(r), {}}, CoolingRoom{});
}

/// Drives the controller as the data-center observer does, from `start_s` to `end_s`. Between
/// events P_ex and T_sen follow from its supply and power: P_AC = P_ex^2 / (r_ac T_sup).
Totals drive(const Room& r, const Schedule& schedule, double start_s, double end_s) {
  auto crac = make_crac(r);
  Totals out;
  auto extract = [&] { return std::sqrt(crac->power_w() * r.r_ac * (crac->supply_c() + kKelvin)); };
  auto sensed = [&] { return crac->supply_c() + extract() / r.r_ac; };
  double t = start_s;
  crac->update(t, {power_at(schedule, t), 0});
  out.sensed_start_c = sensed();
  while (t < end_s) {
    double change = end_s;
    for (const auto& step : schedule) change = step.first > t ? std::min(change, step.first) : change;
    const double next = std::min(change, crac->next_event_s());
    out.balance_j += (power_at(schedule, t) - extract()) * (next - t);
    const CoolingInterval iv = crac->advance(next, 100);
    out.cooling_j += iv.energy_j;
    out.supply_cs += iv.mean_supply_c * (next - t);
    t = next;
    if (t == change) crac->update(t, {power_at(schedule, t), 0});
    if (t == crac->next_event_s()) crac->on_timer(t);
  }
  out.sensed_end_c = sensed();
  return out;
}

/// Explicit stepping of [P4] Eq. 2-4 with the documented low-mode hold, independent of the
/// controller's closed forms: T_sen += (P - P_ex) / r_room dt; switch t_sw after a crossing.
Totals step(const Room& r, const Schedule& schedule, double start_s, double end_s, double dt, int& switches) {
  Totals out;
  double sensed = r.high_c - r.delta_c, switch_at = INFINITY;
  bool high = false;
  for (double t = start_s; t < end_s - dt / 2; t += dt) {
    const double p = power_at(schedule, t);
    const double low_c = r.high_c - r.delta_c;
    // below the low extraction: nothing extracted below the low setting, the heat held at it
    const double ex = high ? r.high_w : p >= r.low_w ? r.low_w : sensed < low_c - 1e-9 ? 0.0 : sensed <= low_c ? p : r.low_w;
    const double supply = sensed - ex / r.r_ac;
    out.cooling_j += ex * ex / (r.r_ac * (supply + kKelvin)) * dt;
    out.supply_cs += supply * dt;
    sensed += (p - ex) / r.r_room * dt;
    if (std::isinf(switch_at) && (high ? sensed <= low_c : sensed >= r.high_c)) switch_at = t + dt + r.switch_s;
    if (t + dt >= switch_at - dt / 2) {
      high = !high;
      switch_at = INFINITY;
      ++switches;
    }
  }
  return out;
}

TEST(ThermostatPhysics, AgreesWithAnIndependentStepIntegration) {
  // Starts late (t = 100 s); 3000 W heats the room in low mode, high mode cools it; from 140 s
  // 500 W is below the low extraction, so the low mode holds the room at 20 C; then 4500 W.
  const Room room;
  const Schedule schedule{{100, 3000}, {140, 500}, {175, 4500}};
  int switches = 0;
  const Totals exact = drive(room, schedule, 100, 220);
  const Totals stepped = step(room, schedule, 100, 220, 1e-4, switches);
  EXPECT_GE(switches, 5);
  EXPECT_NEAR(exact.cooling_j, stepped.cooling_j, 1e-4 * exact.cooling_j);
  EXPECT_NEAR(exact.supply_cs / 120, stepped.supply_cs / 120, 5e-4);
}

TEST(ThermostatPhysics, ClosedFormCycleIsTheLongRunAverage) {
  // thermostat_cycle (sp_eir_bound.hpp) against the controller at constant power, for the hold
  // (below and at P_low) and cycles near both ends of (P_low, P_high).
  const Room room;
  const ParamSet p = room_params(room);
  const ThermostatSettings s = thermostat_settings(p, CoolingRoom{});
  for (const double compute_w : {300.0, 1000.0, 1001.0, 2500.0, 3000.0, 4990.0}) {
    SCOPED_TRACE(compute_w);
    auto crac = make_crac(room);
    crac->update(0, {compute_w, 0});
    const ThermostatCycle cycle = thermostat_cycle(s, compute_w, room.high_c);
    if (cycle.holding) {
      // The hold (and P_c = P_low, where the low mode balances the room) has no event.
      EXPECT_TRUE(std::isinf(crac->next_event_s()));
      EXPECT_NEAR(crac->advance(1e5, 100).energy_j / 1e5, cycle.average_power_w, 1e-6 * cycle.average_power_w);
      continue;
    }
    // The controller starts in low mode at the low setting; after its first two switches it is
    // at the cycle's bottom (low setting - b t_sw) entering low mode: the limit cycle from there.
    double t = 0, energy = 0, start = 0;
    const int cycles = 50;
    for (int event = 0; event < 2 + 2 * cycles; ++event) {
      const double next = crac->next_event_s();
      ASSERT_TRUE(std::isfinite(next));
      const double e = crac->advance(next, 100).energy_j;
      if (event >= 2) energy += e;
      if (event == 2) {
        EXPECT_NEAR(next - t, cycle.low_s, 1e-9 * cycle.low_s);
      } else if (event == 3) {
        EXPECT_NEAR(next - t, cycle.high_s, 1e-9 * cycle.high_s);
      }
      if (event == 1) start = next;
      t = next;
      crac->on_timer(t);
    }
    EXPECT_NEAR(t - start, cycles * (cycle.low_s + cycle.high_s), 1e-9 * t);
    EXPECT_NEAR(energy / (t - start), cycle.average_power_w, 1e-6 * cycle.average_power_w);
  }
}

TEST(ThermostatPhysics, RoomAirEnergyBalance) {
  // The integral of (P_comp - P_ex) equals r_room times the change of T_sen, holds included.
  const Room room;
  const Totals t = drive(room, {{0, 3000}, {37, 500}, {90, 4200}, {131, 900}}, 0, 400);
  EXPECT_NEAR(t.balance_j, room.r_room * (t.sensed_end_c - t.sensed_start_c), 1e-6 * room.r_room);
  // 900 W < 1000 W at the end: the room is held at the low setting (below it, by what the high
  // mode removed during its switching time, the CRAC extracts nothing until the room is back).
  EXPECT_NEAR(t.sensed_end_c, room.high_c - room.delta_c, 1e-9);
}

TEST(ThermostatGuards, Meng40NoLongerCoolsWithoutBound) {
  // Issue 19: meng40 idles at 40 kW, below [P4]'s 100 kW low extraction. With the auto default
  // (low = the idle power) and with 100 kW given (the low mode holds the room at 15 C), the
  // supply stays bounded; before, it averaged -48 C (and -9,131 C on long runs).
  for (const double low_w : {0.0, 100e3}) {
    for (const std::int64_t jobs : {40, 400}) {
      ParamSet p = poisson("meng40", jobs, 1);
      p.set("crac_low_extract_w", low_w);
      const Report r = run_simulation(make_scenario(p)).report;
      EXPECT_GT(r.value("avg_supply_temp_c"), -25) << low_w << " W, " << jobs << " jobs";
      EXPECT_LT(r.value("avg_supply_temp_c"), 30);
      EXPECT_GT(r.value("cooling_energy_j"), 0);
      EXPECT_TRUE(std::isfinite(r.value("cooling_energy_j")));
    }
  }
}

std::string simulation_error(const ParamSet& p) {
  try {
    run_simulation(make_scenario(p));
  } catch (const SimulationError& e) {
    return e.what();
  }
  return "";
}

TEST(ThermostatGuards, RunawayAndAbsoluteZeroFailThePoint) {
  ParamSet p = poisson("meng40", 40, 1);
  p.set("crac_high_extract_w", 50e3);  // below the load of a few busy nodes on top of 40 kW idle
  std::string message = simulation_error(p);
  EXPECT_NE(message.find("exceeds the CRAC's high-mode extraction 50000 W, so the room would heat without bound; "
                         "raise crac_high_extract_w"),
            std::string::npos)
      << message;
  p = poisson("meng40", 40, 1);
  p.set("crac_airflow_m3s", 0.01);  // r_ac = 12 W/K: 40 kW would need air 3,300 K colder
  message = simulation_error(p);
  EXPECT_NE(message.find("at or below absolute zero"), std::string::npos) << message;
  EXPECT_NE(message.find("raise crac_airflow_m3s"), std::string::npos) << message;
  p = poisson("meng40", 40, 1);
  p.set("crac_high_extract_w", 30e3);  // below the auto low extraction, meng40's 40 kW idle power
  EXPECT_EQ(input_error([&] { run_simulation(make_scenario(p)); }),
            "parameter 'crac_low_extract_w': the low mode's extraction 40000 W is above the high mode's 30000 W "
            "(crac_high_extract_w)");
}

TEST(SupplyFloor, RedlineStopsAtTheFloorAndReportsTheViolation) {
  ParamSet p(simulation_catalog());
  p.set("platform", std::string("meng40"));
  EXPECT_EQ(p.real("supply_temp_min_c"), 5.5);
  const Platform meng = *platform_registry().at("meng40").make({p, {}}, TraceHint{});
  auto redline = cooling_registry().at("redline").make({p, {}}, cooling_room(meng, p, nullptr));
  redline->update(0, {120e3, 26.2});  // meng40 at 3000 W per node: 41.2 C at a 15 C supply
  EXPECT_EQ(redline->supply_c(), 5.5);  // not 25 - 26.2 = -1.2 C
  const CoolingInterval iv = redline->advance(10, 25);
  EXPECT_EQ(iv.time_above_s, 10);
  EXPECT_EQ(iv.time_below_floor_s, 0);
  // static below the floor: all of its time is counted
  p.set("supply_temp_c", 2.0);
  auto fixed = cooling_registry().at("static").make({p, {}}, cooling_room(meng, p, nullptr));
  fixed->update(0, {40e3, 8});
  EXPECT_EQ(fixed->advance(7, 25).time_below_floor_s, 7);
}

TEST(SupplyFloor, ThermostatTimeBelowTheFloorIsMeasuredAndWarnedOnce) {
  // asu50 with the defaults: high mode supplies about 36 K below the CRAC input (-21 C at 15 C).
  const Report r = run_simulation(make_scenario(poisson("asu50", 40, 3))).report;
  const double below = r.value("time_supply_below_floor_s");
  EXPECT_GT(below, 0);
  EXPECT_LE(below, r.value("makespan_s"));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].rfind("the CRAC supply was below supply_temp_min_c = 5.5 C for ", 0), 0u) << r.warnings[0];
  // No room: the metric does not apply.
  ParamSet none = poisson("meng40", 5, 1);
  none.set("node_power", std::string("none"));
  EXPECT_TRUE(std::isnan(run_simulation(make_scenario(none)).report.value("time_supply_below_floor_s")));
}

TEST(Defaults, RoomsFromThePapers) {
  ParamSet p(simulation_catalog());
  auto room_of = [&](const std::string& name) {
    const Platform platform = *platform_registry().at(name).make({p, {}}, TraceHint{});
    const auto power = make_node_power(p, platform, {});
    return cooling_room(platform, p, power.get());
  };
  const CoolingRoom asu = room_of("asu50");
  EXPECT_NEAR(asu.air_volume_m3, 290.3, 0.01);  // [P4] VII-B: 9.6 x 8.4 x 3.6 m
  EXPECT_EQ(asu.crac_airflow_m3s, 8.0);
  EXPECT_EQ(asu.idle_power_w, 30 * 2420 + 20 * 1820);  // [P4] VII-E: "100 kW ... the idle power"
  EXPECT_EQ(asu.peak_power_w, 30 * 2595 + 20 * 1892);  // x 3 = 347 kW, [P4]'s 350 kW
  EXPECT_EQ(asu.redline_c, 25);
  EXPECT_EQ(room_of("oxley1080").redline_c, 30);  // [P3] Sec. 5.2
  EXPECT_EQ(room_of("oxley4320").redline_c, 30);
  EXPECT_NEAR(room_of("oxley1080").air_volume_m3, 30 * 290.304 / 10, 1e-9);  // 30 cabinets
  const CoolingRoom meng = room_of("meng40");
  EXPECT_EQ(meng.idle_power_w, 40 * 1000);
  EXPECT_EQ(meng.peak_power_w, 40 * 2790);
  p.set("redline_c", 27.0);
  EXPECT_EQ(room_of("oxley1080").redline_c, 27);  // set: the parameter wins
}

// [P4] Sec. VII-E states the ASU room's levels: 100 kW low ("equal to the idle power") and 350 kW
// high; asu50 takes them. Other rooms take the automatic levels; a parameter set wins over both.
TEST(Defaults, Asu50TakesThePapersStatedExtractionLevels) {
  ParamSet p(simulation_catalog());
  auto settings_of = [&](const std::string& name) {
    const Platform platform = *platform_registry().at(name).make({p, {}}, TraceHint{});
    const auto power = make_node_power(p, platform, {});
    return thermostat_settings(p, cooling_room(platform, p, power.get()));
  };
  EXPECT_EQ(settings_of("asu50").extract_low_w, 100e3);
  EXPECT_EQ(settings_of("asu50").extract_high_w, 350e3);
  EXPECT_EQ(settings_of("meng40").extract_low_w, 40 * 1000);  // its idle power
  EXPECT_EQ(settings_of("meng40").extract_high_w, 3.0 * 40 * 2790);
  p.set("crac_low_extract_w", 90e3);
  p.set("crac_high_extract_w", 300e3);
  EXPECT_EQ(settings_of("asu50").extract_low_w, 90e3);
  EXPECT_EQ(settings_of("asu50").extract_high_w, 300e3);
}

TEST(Defaults, AutoExtractionIsIdleAndThreeTimesPeak) {
  // A room other than asu50: meng40's auto levels are 40 kW and 3 x 111.6 kW.
  ParamSet automatic = poisson("meng40", 40, 2), given = automatic;
  given.set("crac_low_extract_w", 40e3);
  given.set("crac_high_extract_w", 3 * 40 * 2790.0);
  given.set("room_air_volume_m3", 290.304);
  expect_same_physics(run_simulation(make_scenario(automatic)).report, run_simulation(make_scenario(given)).report);
}

}  // namespace
}  // namespace dcsweep

namespace dcsweep {
namespace {

/// An n x n CSV matrix with `value` on the diagonal.
std::string diagonal_csv(int n, const std::string& value) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) text += std::string(j ? "," : "") + (i == j ? value : "0");
    text += '\n';
  }
  return text;
}

TEST(SupplyFraction, Equation8ByHandAndIdentityChangesNothing) {
  // [P4] Eq. 1 with one CRAC: inlet_i = s_i T_sup + rise_i, s_i = sum_j f_ij. Rises (5, 2) K,
  // redline 25 C. F = [[0.8, 0.1], [0.3, 0.7]]: s = (0.9, 1), bounds (20 / 0.9, 23 / 1): 22.22 C.
  // Diagonal F = diag(0.8, 0.9) ([P4]'s form): Eq. 6's F^-1 (T_red - D P) = (25, 25.56): 25 C.
  HeatDistributionBuild heat;
  Matrix f(2, 2);
  f << 0.8, 0.1, 0.3, 0.7;
  check_supply_fraction(f, 2, "F.csv");
  heat.supply_share = std::make_shared<const Eigen::VectorXd>(f.rowwise().sum());
  EXPECT_NEAR(supply_bound_c(heat, Eigen::Vector2d(5, 2), 25), 20 / 0.9, 1e-12);
  f << 0.8, 0, 0, 0.9;
  check_supply_fraction(f, 2, "F.csv");
  heat.supply_share = std::make_shared<const Eigen::VectorXd>(f.rowwise().sum());
  EXPECT_NEAR(supply_bound_c(heat, Eigen::Vector2d(5, 2), 25), 25, 1e-12);
  EXPECT_NEAR(supply_bound_c(heat, Eigen::Vector2d(5, 2), 25), (f.inverse() * Eigen::Vector2d(20, 23)).minCoeff(), 1e-12);
  heat.supply_share.reset();
  EXPECT_TRUE(std::isnan(supply_bound_c(heat, Eigen::Vector2d(5, 2), 25)));
  // A whole run with F = I from a file equals the run without F.
  ParamSet p = poisson("meng40", 40, 4);
  p.set("thermostat_setting", std::string("highest"));
  const Report without = run_simulation(make_scenario(p)).report;
  p.set("supply_air_fraction", test::write_file("F_identity.csv", diagonal_csv(40, "1")));
  expect_same_physics(without, run_simulation(make_scenario(p)).report);
}

TEST(SupplyFraction, RedlineControlWithADiagonalFHoldsTheRedlineAndCoolsCheaper) {
  // meng40, redline control, F = 0.8 I (a fifth of every inlet's air is room air): the supply
  // rises to min (T_red - rise_i) / 0.8, so the hottest inlet (0.8 T_sup + rise) sits at the
  // redline, never above it while the supply is above its floor, and the warmer supply costs less
  // cooling than F = I. Runs that start late (Poisson arrivals) and a busy room (40 jobs).
  ParamSet p = poisson("meng40", 40, 4);
  p.set("cooling", std::string("redline"));
  p.set("redline_c", 32.0);
  const Report plain = run_simulation(make_scenario(p)).report;
  p.set("supply_air_fraction", test::write_file("F_08.csv", diagonal_csv(40, "0.8")));
  const Report with_f = run_simulation(make_scenario(p)).report;
  EXPECT_LE(with_f.value("max_inlet_c"), 32 + 1e-9);
  EXPECT_GT(with_f.value("max_inlet_c"), 31);
  EXPECT_EQ(with_f.value("time_above_redline_s"), 0);
  EXPECT_EQ(with_f.value("time_supply_below_floor_s"), 0);
  EXPECT_GT(with_f.value("avg_supply_temp_c"), plain.value("avg_supply_temp_c"));
  EXPECT_LT(with_f.value("cooling_energy_j"), plain.value("cooling_energy_j"));
  EXPECT_EQ(with_f.value("compute_energy_j"), plain.value("compute_energy_j"));
}

TEST(SupplyFraction, BadMatricesAreRejected) {
  Matrix f(2, 2);
  f << 0.5, 0.5, -0.1, 1.1;
  EXPECT_EQ(input_error([&] { check_supply_fraction(f, 2, "F.csv"); }),
            "F.csv: F[2][1] = -0.1 is negative (a fraction of supply air)");
  f << 0.5, 0.4, 0.2, 1;
  EXPECT_EQ(input_error([&] { check_supply_fraction(f, 2, "F.csv"); }),
            "F.csv: row 2 of F sums to 1.2 (must be in (0, 1]: the share of the inlet's air that is CRAC supply air)");
  f << 0.5, 0.5, 0, 0;
  EXPECT_EQ(input_error([&] { check_supply_fraction(f, 2, "F.csv"); }),
            "F.csv: row 2 of F sums to 0 (must be in (0, 1]: the share of the inlet's air that is CRAC supply air)");
  EXPECT_EQ(input_error([&] { check_supply_fraction(f, 3, "F.csv"); }), "F.csv: F is 2 x 2; the platform has 3 thermal zones");
}

}  // namespace
}  // namespace dcsweep
