// [P4] Eq. 7's bound on SP-EIR (thermal/sp_eir_bound.hpp): the closed-form thermostat cycle worked
// by hand on a 3-node room. (The law that the cycle is the ThermostatController's long-run average
// is in test_thermostat.cpp, beside the controller's other physics tests.)
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "dcsweep/core/error.hpp"
#include "dcsweep/thermal/sp_eir_bound.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

TEST(SpEirBound, ThreeNodeRoomByHand) {
  // D (K/W) couples the middle node to both others; idle 1000 W, busy 2000 W per node.
  Eigen::Matrix3d d;
  d << 0.001, 0.0005, 0, 0.0005, 0.002, 0.0005, 0, 0.0005, 0.001;
  const Eigen::Vector3d rise_full = d * Eigen::Vector3d::Constant(2000);  // (3, 6, 3) K
  const Eigen::Vector3d rise_idle = d * Eigen::Vector3d::Constant(1000);  // (1.5, 3, 1.5) K
  EXPECT_NEAR(rise_full.maxCoeff(), 6, 1e-12);
  EXPECT_NEAR(rise_idle.maxCoeff(), 3, 1e-12);
  // Redline 25 C; P_low 3000 W (the idle power, as auto), P_high 9000 W (3 x peak); t_sw 2 s,
  // delta 10 K; r_room 1000 J/K, r_ac 1000 W/K (supply 3 K below T_sen in low mode, 9 K in high).
  // high_c and mode are not read: the bound sets Eq. 6's setting for each state.
  const ThermostatSettings s{99, 10, 9000, 3000, 2, 1000, 1000, 25, 5.5, ThermostatSettings::Mode::fixed};
  const CoolingInput full{6000, rise_full.maxCoeff()}, idle{3000, rise_idle.maxCoeff()};
  // Eq. 6: full 25 - 6 + 3000/1000 - (6000 - 3000)/1000 x 2 = 16 C; idle 25 - 3 + 3 - 0 = 25 C.
  EXPECT_NEAR(thermostat_highest_setting_c(s, full), 16, 1e-12);
  EXPECT_NEAR(thermostat_highest_setting_c(s, idle), 25, 1e-12);

  // Full load at 16 C (low setting 6 C): a = (6000 - 3000)/1000 = 3 K/s, b = (9000 - 6000)/1000 =
  // 3 K/s. T_sen swings from 6 - 3 x 2 = 0 C to 16 + 3 x 2 = 22 C: 22/3 s in each mode.
  const ThermostatCycle cycle = thermostat_cycle(s, 6000, 16);
  EXPECT_FALSE(cycle.holding);
  EXPECT_NEAR(cycle.low_s, 22.0 / 3, 1e-12);
  EXPECT_NEAR(cycle.high_s, 22.0 / 3, 1e-12);
  // Low mode: c = 3000^2 / 1000 = 9000 W K, supply -3 -> 19 C (270.15 -> 292.15 K):
  //   9000 x (22/3) / 22 x ln(292.15 / 270.15) = 3000 ln(1.0814363) = 234.8700 J.
  EXPECT_NEAR(cycle.low_energy_j, 3000 * std::log(292.15 / 270.15), 1e-9);
  EXPECT_NEAR(cycle.low_energy_j, 234.8700, 1e-4);
  // High mode: c = 9000^2 / 1000 = 81000 W K, supply 13 -> -9 C (286.15 -> 264.15 K):
  //   81000 x (22/3) / 22 x ln(286.15 / 264.15) = 27000 ln(1.0832860) = 2159.9737 J.
  EXPECT_NEAR(cycle.high_energy_j, 27000 * std::log(286.15 / 264.15), 1e-9);
  EXPECT_NEAR(cycle.high_energy_j, 2159.9737, 1e-4);
  // Average over the 44/3 s period: 2394.8437 / 14.6667 = 163.2848 W.
  EXPECT_NEAR(cycle.average_power_w, 163.2848, 1e-4);

  // Idle at 25 C: P_c = P_low, the room sits at the low setting 15 C, supply 12 C (285.15 K):
  // 3000^2 / (1000 x 285.15) = 31.5623 W.
  const ThermostatCycle held = thermostat_cycle(s, 3000, 25);
  EXPECT_TRUE(held.holding);
  EXPECT_NEAR(held.average_power_w, 31.5623, 1e-4);

  // Eq. 7: (6000 + 163.2848) / (3000 + 31.5623) = 6163.2848 / 3031.5623 = 2.033039.
  const SpEirUpperBound bound = sp_eir_upper_bound(s, full, idle);
  EXPECT_NEAR(bound.alg_full.setting_c, 16, 1e-12);
  EXPECT_NEAR(bound.opt_idle.setting_c, 25, 1e-12);
  EXPECT_NEAR(bound.alg_full.cooling_w, cycle.average_power_w, 1e-12);
  EXPECT_NEAR(bound.opt_idle.cooling_w, held.average_power_w, 1e-12);
  EXPECT_NEAR(bound.ratio(), 2.033039, 1e-6);
}

TEST(SpEirBound, OutsideTheDomainIsAnInputError) {
  const ThermostatSettings s{30, 10, 9000, 3000, 2, 1000, 1000, 25, 5.5, ThermostatSettings::Mode::fixed};
  EXPECT_EQ(test::input_error([&] { thermostat_cycle(s, 9000, 30); }),
            "thermostat: the compute power 9000 W is not below the CRAC's high-mode extraction 9000 W, so the room "
            "would heat without bound; raise crac_high_extract_w");
  ThermostatSettings thin = s;
  thin.r_ac_w_k = 10;  // high mode: 900 K below T_sen
  EXPECT_NE(test::input_error([&] { thermostat_cycle(thin, 6000, 30); }).find("at or below absolute zero"),
            std::string::npos);
}

}  // namespace
}  // namespace dcsweep
