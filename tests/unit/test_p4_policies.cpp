// [P4]'s placement and consolidation policies and its thermostat settings (issue 10): LRH and HTS
// rankings recomputed from D by hand on a 3-node room, the worst-case setting of Eq. 6 by hand,
// settings fixed for the worst case or the run's peak never let an inlet above the redline, MTDP's
// power-off and boot with the energy accounted exactly, the SP-EIR bound's LP against brute force
// over every placement (a room of two node types), and the bad-input guards.
#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numeric>

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/alloc/mpit.hpp"
#include "dcsweep/alloc/thermal_rank.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/core/rng.hpp"
#include "dcsweep/power/node_power.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/run.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "dcsweep/sim/sp_eir.hpp"
#include "dcsweep/thermal/cooling.hpp"
#include "dcsweep/thermal/room.hpp"
#include "sim_helpers.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

using test::input_error;

constexpr double kBusyW = 0.7 * 3000 + 0.3 * 2300;  // meng_p0's running node: 2790 W
constexpr double kIdleW = 1000;

/// One rack of three nodes (room default node type and meng_p0 power), this D (K/W):
///   inlet 0 gets 1 mK/W from node 1 and 2 mK/W from node 2; inlet 1 0.5 from 0 and 1 from 2;
///   inlet 2 3 mK/W from node 0.
ParamSet three_node_room(const std::string& allocator) {
  ParamSet p(simulation_catalog());
  p.set("platform", std::string("room"));
  test::set_room_layout(p, 1, 1, 3);
  p.set("heat_distribution", test::write_file("p4_D.csv", "0,0.001,0.002\n0.0005,0,0.001\n0.003,0,0\n"));
  p.set("allocator", allocator);
  p.set("cooling", std::string("thermostat"));
  p.set("crac_airflow_m3s", 1.0);
  p.set("room_air_volume_m3", 10.0);
  p.set("workload", std::string("poisson"));
  p.set("poisson_jobs", std::int64_t{30});
  p.set("poisson_max_nodes", std::int64_t{3});
  p.set("poisson_rate_per_h", 40.0);
  return p;
}

TEST(P4Rankings, LrhAndHtsRecomputedFromDByHand) {
  const Scenario s = make_scenario(three_node_room("first_fit"));
  const auto model = make_datacenter_model(s);
  // LRH: colsum(D) x P_full = (3.5, 1, 3) mK/W x 2790 W, ascending: nodes 1, 2, 0.
  const std::vector<double> lrh = lrh_scores(*model, 3);
  EXPECT_NEAR(lrh[0], 3.5e-3 * kBusyW, 1e-12);
  EXPECT_NEAR(lrh[1], 1.0e-3 * kBusyW, 1e-12);
  EXPECT_NEAR(lrh[2], 3.0e-3 * kBusyW, 1e-12);
  EXPECT_EQ(lrh_order(*model, 3), (std::vector<NodeId>{1, 2, 0}));
  // HTS: T_red - (D P_full)_i = 25 - (3, 1.5, 3) mK/W x 2790 W, descending: node 1, then 0 and 2
  // tied (by id).
  const std::vector<double> hts = hts_scores(*model, 3);
  EXPECT_NEAR(hts[0], 25 - 3.0e-3 * kBusyW, 1e-12);
  EXPECT_NEAR(hts[1], 25 - 1.5e-3 * kBusyW, 1e-12);
  EXPECT_NEAR(hts[2], 25 - 3.0e-3 * kBusyW, 1e-12);
  EXPECT_EQ(hts_order(*model, 3), (std::vector<NodeId>{1, 0, 2}));
}

TEST(P4Rankings, AJobTakesTheBestRankedFreeNodes) {
  for (const auto& [allocator, first] : {std::pair{"lrh", 1}, std::pair{"hts", 1}}) {
    ParamSet p = three_node_room(allocator);
    p.set("thermostat_setting", std::string("highest"));
    p.set("poisson_max_nodes", std::int64_t{1});
    const Scenario s = make_scenario(p);
    auto model = make_datacenter_model(s);
    SimObserver* observers[] = {model.get()};
    const SimulationResult r = simulate(s, SimulationOptions{observers, model.get(), true});
    EXPECT_EQ(r.nodes.front(), (std::vector<NodeId>{first})) << allocator;  // the first job finds the room empty
  }
}

/// Eq. 6 for the 3-node room with every node busy: supply bound 25 - 3 mK/W x 2790 W, plus
/// P_low / r_ac (P_low = the idle power 3 kW, r_ac = rho c_p x 1 m3/s) minus (P_full - P_low) /
/// r_room x 3 s (r_room = rho c_p x 10 m3).
double worst_case_setting_by_hand() {
  const double rho_c = 1.19 * 1005, low = 3 * kIdleW, full = 3 * kBusyW;
  return 25 - 3e-3 * kBusyW + low / rho_c - (full - low) / (rho_c * 10) * 3;
}

TEST(P4Thermostat, WorstCaseIsEq6AtFullLoadByHand) {
  ParamSet p = three_node_room("lrh");
  p.set("thermostat_setting", std::string("worst_case"));
  const Report r = run_simulation(make_scenario(p)).report;
  EXPECT_NEAR(r.value("avg_thermostat_high_c"), worst_case_setting_by_hand(), 1e-9);
  EXPECT_NEAR(r.value("min_thermostat_high_c"), worst_case_setting_by_hand(), 1e-9);
}

/// A trace of jobs: id, submit, runtime, nodes (requested time = runtime).
std::string trace(const std::vector<std::array<int, 4>>& jobs) {
  std::string text;
  for (const auto& [id, submit, run, nodes] : jobs) {
    text += std::to_string(id) + " " + std::to_string(submit) + " 0 " + std::to_string(run) + " " +
            std::to_string(nodes) + " -1 -1 " + std::to_string(nodes) + " " + std::to_string(run) +
            " -1 1 1 1 1 1 1 -1 -1\n";
  }
  return text;
}

TEST(P4Thermostat, FixedWorstCaseAndPeakSettingsKeepTheRedlineAndPeakIsTheDynamicMinimum) {
  // One-node jobs one after another: at its peak the room runs one job, on LRH's best node 1:
  // P = (1000, 2790, 1000) W, D P = (4.79, 1.5, 3) K, compute 4790 W; Eq. 6 by hand.
  ParamSet p = three_node_room("lrh");
  p.set("workload", std::string("trace"));
  p.set("trace", test::write_file("p4_serial.swf", trace({{1, 0, 100, 1}, {2, 500, 100, 1}, {3, 1000, 100, 1}})));
  p.set("thermostat_setting", std::string("highest"));
  const Report dynamic = run_simulation(make_scenario(p)).report;
  p.set("thermostat_setting", std::string("peak"));
  const Report peak = run_simulation(make_scenario(p)).report;
  p.set("thermostat_setting", std::string("worst_case"));
  const Report worst = run_simulation(make_scenario(p)).report;
  const double rho_c = 1.19 * 1005;
  const double by_hand = 25 - 4.79 + 3 * kIdleW / rho_c - (4790 - 3 * kIdleW) / (rho_c * 10) * 3;
  EXPECT_NEAR(dynamic.value("min_thermostat_high_c"), by_hand, 1e-9);
  EXPECT_NEAR(peak.value("avg_thermostat_high_c"), by_hand, 1e-9);
  EXPECT_NEAR(worst.value("avg_thermostat_high_c"), worst_case_setting_by_hand(), 1e-9);
  EXPECT_EQ(peak.value("time_above_redline_s"), 0);
  EXPECT_EQ(worst.value("time_above_redline_s"), 0);
  EXPECT_LE(peak.value("max_inlet_c"), 25 + 1e-9);
}

TEST(P4Mtdp, PowerOffAndBootWithExactEnergy) {
  // Node off 10 W; boot 60 s drawing 6 kJ (100 W). J1 (1 node, 0-100): the two free nodes go off
  // at 0, J1's node at 100. J2 (2 nodes) arrives at 500 to an all-off room: two nodes boot,
  // free at 560, J2 runs 560-660. Compute energy by hand:
  //   [0, 100)   2790 + 2 x 10 W      281,000 J
  //   [100, 500) 3 x 10 W              12,000 J
  //   [500, 560) 2 x 100 + 10 W        12,600 J
  //   [560, 660) 2 x 2790 + 10 W      559,000 J    total 864,600 J
  for (const char* allocator : {"mtdp", "lrh"}) {
    ParamSet p = three_node_room(allocator);
    p.set("workload", std::string("trace"));
    p.set("trace", test::write_file("p4_trace.swf", trace({{1, 0, 100, 1}, {2, 500, 100, 2}})));
    p.set("node_off_power_w", 10.0);
    p.set("node_boot_s", 60.0);
    p.set("node_boot_energy_j", 6000.0);
    p.set("idle_nodes_off", std::string(allocator) == "lrh");  // mtdp consolidates by itself
    p.set("cooling", std::string("redline"));
    const SimulationResult r = run_simulation(make_scenario(p));
    EXPECT_EQ(r.jobs[0].start_s, 0) << allocator;
    EXPECT_EQ(r.jobs[1].start_s, 560) << allocator;
    EXPECT_NEAR(r.report.value("compute_energy_j"), 864600, 1e-6) << allocator;
  }
}

TEST(P4Mtdp, ConservativePlansWithNodesSwitchedOffBootedAndFreedEarly) {
  // Conservative backfilling keeps its picture of the running jobs between passes (from the jobs
  // that ended, the heads started and the free count's change when nodes go off or boot): on
  // the 3-node room with idle nodes off and 60 s boots, by hand (id, submit, run, estimate, nodes):
  // J1 (1 node, 0, runs 400 of 1000): starts at 0, the two idle nodes go off.
  // J2 (3 nodes, 100, 100 of 100): two nodes boot, free at 160; no plan can hold J2 before then
  //   (one node would come back at 1000), from 160 it is planned at 1000.
  // J3 (2 nodes, 200, 500 of 500): ends at 700, before J2's reservation: starts at 200.
  // J4 (1 node, 300, 100 of 100): nothing free; reserved at 700 (J3's nodes).
  // J1 ends at 400, early: in queue order J2 now fits at 700 (J3's end), before J4, and J4
  //   fits now on J1's node, over [400, 500): J4 starts at 400, J2 at 700.
  ParamSet p = three_node_room("lrh");
  p.set("workload", std::string("trace"));
  p.set("trace", test::write_file("p4_conservative_off.swf",
                                  "1 0 0 400 1 -1 -1 1 1000 -1 1 1 1 1 1 1 -1 -1\n"
                                  "2 100 0 100 3 -1 -1 3 100 -1 1 1 1 1 1 1 -1 -1\n"
                                  "3 200 0 500 2 -1 -1 2 500 -1 1 1 1 1 1 1 -1 -1\n"
                                  "4 300 0 100 1 -1 -1 1 100 -1 1 1 1 1 1 1 -1 -1\n"));
  p.set("node_boot_s", 60.0);
  p.set("idle_nodes_off", true);
  p.set("cooling", std::string("redline"));
  for (const char* scheduler : {"conservative", "edf"}) {  // edf: deadlines in submit order here
    p.set("scheduler", std::string(scheduler));
    const SimulationResult r = run_simulation(make_scenario(p));
    std::vector<double> starts;
    for (const JobOutcome& job : r.jobs) starts.push_back(job.start_s);
    EXPECT_EQ(starts, (std::vector<double>{0, 700, 200, 400})) << scheduler;
  }
}

/// A generated room (rows x racks x nodes; zones of zone_nodes nodes, 0: the room's own) of PE1955 and PE1855 chassis (different idle and busy
/// powers), its node power and D, and sp_eir's switched-off power and redline.
struct ChassisRoom {
  ChassisRoom(std::int64_t rows, std::int64_t racks, std::int64_t nodes, std::int64_t zone_nodes = 0)
      : s(make_scenario([&] {
          ParamSet p(simulation_catalog());
          p.set("platform", std::string("room"));
          test::set_room_layout(p, rows, racks, nodes);
          if (zone_nodes > 1) p.set("thermal_zone_nodes", zone_nodes);
          p.set("room_node_types", std::string("pe1955:1,pe1855:1"));
          p.set("node_power", std::string("chassis"));
          p.set("workload", std::string("poisson"));
          return p;
        }())),
        power(make_node_power(s.params, s.platform, s.key)),
        heat(build_heat_distribution(s.platform, s.params)) {}
  SpEirBound bound() const { return SpEirBound(s.platform, *power, heat, off_w, redline); }

  Scenario s;
  std::unique_ptr<NodePowerTable> power;
  HeatDistributionBuild heat;
  double off_w = 15, redline = 25;
};

TEST(P4SpEir, TheLpBoundIsNeverBelowAnyPlacementAndTheComputeBoundIsTheLeastPower) {
  // Two racks of two nodes, a generated D; every placement of every (busy, on) count is enumerated.
  const ChassisRoom room(1, 2, 2);
  const Scenario& s = room.s;
  const auto& power = room.power;
  const HeatDistributionBuild& heat = room.heat;
  const double off_w = room.off_w, redline = room.redline;
  SpEirBound bound = room.bound();
  const Matrix d = heat.d->matrix();
  const int n = 4;
  for (int busy = 0; busy <= n; ++busy) {
    for (int on = busy; on <= n; ++on) {
      double best_supply = -INFINITY, least_power = INFINITY;
      for (int code = 0; code < 81; ++code) {  // each node off (0), idle (1) or busy (2)
        Eigen::VectorXd node_w(n);
        int b = 0, o = 0;
        for (int k = 0, c = code; k < n; ++k, c /= 3) {
          const TypePower& t = (*power)[s.platform.node_type[std::size_t(k)]];
          node_w(k) = c % 3 == 0 ? off_w : c % 3 == 1 ? t.idle_w : t.busy_w;
          b += c % 3 == 2;
          o += c % 3 != 0;
        }
        if (b != busy || o != on) continue;
        best_supply = std::max(best_supply, redline - (d * node_w).maxCoeff());
        least_power = std::min(least_power, node_w.sum());
      }
      const MomentBound& m = bound.at(busy, on);
      EXPECT_GE(m.supply_bound_c, best_supply - 1e-9) << busy << " busy, " << on << " on";
      EXPECT_NEAR(m.compute_power_w, least_power, 1e-9) << busy << " busy, " << on << " on";
      if (busy == 0 && on == n) {
        EXPECT_NEAR(m.supply_bound_c, best_supply, 1e-9);  // one placement only
      }
    }
  }
}

/// The bound's LP for `busy` busy and `on` on nodes, built here from the formulation in
/// sp_eir.hpp node by node (no pools, every inlet's row) and solved by Clp from scratch: max z
/// subject to s_i z + sum_n D(i, n) (off + (idle_n - off) y_n + (busy_n - idle_n) x_n) <= T_red,
/// sum x = busy, sum y = on, 0 <= x_n <= y_n <= 1.
double bound_from_scratch(const Matrix& d, const Eigen::VectorXd& share, const std::vector<TypePower>& node, double off_w,
                          double redline, int busy, int on) {
  const int n = int(node.size()), zones = int(d.rows());
  const int columns = 1 + 2 * n, rows = zones + 2 + n;
  std::vector<CoinBigIndex> start{0};
  std::vector<int> index;
  std::vector<double> value, col_lo(columns, 0.0), col_hi(columns, 1.0), cost(columns, 0.0), row_lo(rows), row_hi(rows);
  for (int i = 0; i < zones; ++i) index.push_back(i), value.push_back(share(i));
  start.push_back(CoinBigIndex(index.size()));
  col_lo[0] = -COIN_DBL_MAX, col_hi[0] = COIN_DBL_MAX, cost[0] = -1;
  for (int kind = 0; kind < 2; ++kind) {  // x, then y
    for (int k = 0; k < n; ++k) {
      const double step = kind == 0 ? node[std::size_t(k)].busy_w - node[std::size_t(k)].idle_w : node[std::size_t(k)].idle_w - off_w;
      for (int i = 0; i < zones; ++i) index.push_back(i), value.push_back(d(i, k) * step);
      index.push_back(zones + kind), value.push_back(1.0);
      index.push_back(zones + 2 + k), value.push_back(kind == 0 ? 1.0 : -1.0);
      start.push_back(CoinBigIndex(index.size()));
    }
  }
  for (int i = 0; i < zones; ++i) {
    double off = 0;
    for (int k = 0; k < n; ++k) off += d(i, k) * off_w;
    row_lo[std::size_t(i)] = -COIN_DBL_MAX, row_hi[std::size_t(i)] = redline - off;
  }
  row_lo[std::size_t(zones)] = row_hi[std::size_t(zones)] = busy;
  row_lo[std::size_t(zones) + 1] = row_hi[std::size_t(zones) + 1] = on;
  for (int k = 0; k < n; ++k) row_lo[std::size_t(zones + 2 + k)] = -COIN_DBL_MAX, row_hi[std::size_t(zones + 2 + k)] = 0;
  const CoinPackedMatrix m(true, rows, columns, CoinBigIndex(value.size()), value.data(), index.data(), start.data(), nullptr);
  ClpSimplex lp;
  lp.setLogLevel(0);
  lp.loadProblem(m, col_lo.data(), col_hi.data(), cost.data(), row_lo.data(), row_hi.data());
  lp.primal();
  EXPECT_EQ(lp.status(), 0);
  return lp.primalColumnSolution()[0];
}

TEST(P4SpEir, WithEveryNodeOnACountsBoundIsTheLpsOptimumWhateverOrderTheCountsComeIn) {
  // With every node on, the counts' LPs are solved in ascending order on one model, each from
  // the last one's basis. A count's value must not depend on the order a run asks for the counts
  // (it drives the bound's thermostat, whose switching carries the smallest difference), nor on
  // pairs with nodes off asked in between (their own models), and must be the LP's optimum:
  // against the LP built here node by node, solved from scratch by the primal. (Solving each
  // count warm from the last one asked instead fails the order check here.)
  // 72 nodes at node level, two types, a generated D.
  const ChassisRoom room(2, 3, 12);
  const int n = room.s.platform.node_count;
  ASSERT_EQ(n, 72);
  ASSERT_EQ(room.heat.d->size(), 72);  // node-level zones: a pool per node
  SpEirBound ascending = room.bound(), shuffled = room.bound();
  std::vector<double> value(std::size_t(n) + 1);
  for (int busy = 0; busy <= n; ++busy) value[std::size_t(busy)] = ascending.at(busy, n).supply_bound_c;
  std::vector<int> order(std::size_t(n) + 1);
  std::iota(order.begin(), order.end(), 0);
  RngStream rng({2026, 29, 1}, StreamPurpose::allocator);
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.next_u64() % i]);
  for (const int busy : order) {
    if (busy % 9 == 0 && busy < n) shuffled.at(busy, n - 1 - busy % 5);  // a pair with nodes off
    EXPECT_EQ(shuffled.at(busy, n).supply_bound_c, value[std::size_t(busy)]) << busy << " busy";
  }
  for (const auto& [busy, on] : {std::pair{-1, n}, std::pair{n + 1, n + 1}, std::pair{5, 4}}) {
    EXPECT_THROW(shuffled.at(busy, on), SimulationError) << busy << " busy, " << on << " on";
  }
  const Matrix d = room.heat.d->matrix();
  const Eigen::VectorXd share = room.heat.supply_share ? *room.heat.supply_share : Eigen::VectorXd::Ones(d.rows());
  std::vector<TypePower> node;
  for (int k = 0; k < n; ++k) node.push_back((*room.power)[room.s.platform.node_type[std::size_t(k)]]);
  for (int busy = 0; busy <= n; ++busy) {
    EXPECT_NEAR(value[std::size_t(busy)], bound_from_scratch(d, share, node, room.off_w, room.redline, busy, n), 1e-7)
        << busy << " busy";
  }
  // More busy nodes never allow a higher supply (busy power is above idle on both types)
  for (int busy = 1; busy <= n; ++busy) EXPECT_LE(value[std::size_t(busy)], value[std::size_t(busy) - 1] + 1e-9) << busy;
}

TEST(P4SpEir, WithNodesOffAPairsBoundIsTheFullLpsOptimumFromItsFewRows) {
  // A pair with nodes off is solved by row generation: its LP starts from 8 of the inlets' rows
  // and adds those its solution exceeds until none is. The optimum must be the full LP's (every
  // inlet's row, built here node by node and solved by the primal from scratch), for pairs from
  // one node on to all but one: in a room of 72 node-level zones, in one of 160 nodes in zones of
  // 4 (pools of 4 nodes), and with a random D of 72 zones (no few inlets hotter than the rest: rows
  // are added over several rounds, counted); and a pair's value must not depend on the pairs
  // asked before it. (Checked: stopping after the first round, adding rows only while the
  // excess is above 1e-3 K, or leaving out every seventh exceeded row fails this test.)
  RngStream rng({2026, 29, 2}, StreamPurpose::allocator);
  for (const auto& [racks, nodes, zone_nodes, random_d] :
       {std::tuple{3, 12, 1, false}, std::tuple{5, 16, 4, false}, std::tuple{3, 12, 1, true}}) {
    ChassisRoom room(2, racks, nodes, zone_nodes);
    const int n = room.s.platform.node_count;
    if (random_d) {  // no few inlets hotter than the rest: most rows are generated
      Matrix d(n, n);
      for (Eigen::Index i = 0; i < d.size(); ++i) d.data()[i] = 1e-4 * rng.uniform01();
      room.heat.d = std::make_shared<const HeatDistribution>(d);
    }
    const Matrix d = room.heat.d->matrix();
    const Eigen::VectorXd share = room.heat.supply_share ? *room.heat.supply_share : Eigen::VectorXd::Ones(d.rows());
    ASSERT_GT(d.rows(), 16);
    // The LP built here node by node: a zone's D column for each of its nodes.
    Matrix node_d(d.rows(), n);
    std::vector<TypePower> node;
    for (int k = 0; k < n; ++k) {
      node_d.col(k) = d.col(k / zone_nodes);
      node.push_back((*room.power)[room.s.platform.node_type[std::size_t(k)]]);
    }
    SpEirBound alone = room.bound(), after_others = room.bound();
    for (int k = 1; k <= 12; ++k) after_others.at(k, n - 1 - k);  // other pairs first (none of those below)
    for (const auto& [busy, on] : {std::pair{0, 1}, std::pair{1, 1}, std::pair{3, 7}, std::pair{n / 3, n / 2},
                                    std::pair{n / 2, n / 2 + 1}, std::pair{n - 2, n - 1}, std::pair{0, n - 1}}) {
      const double value = alone.at(busy, on).supply_bound_c;
      EXPECT_NEAR(value, bound_from_scratch(node_d, share, node, room.off_w, room.redline, busy, on), 1e-7)
          << n << " nodes, " << busy << " busy, " << on << " on";
      EXPECT_EQ(after_others.at(busy, on).supply_bound_c, value) << busy << " busy, " << on << " on";
    }
    if (random_d) {
      EXPECT_GE(alone.generated_rows(), 40);  // the rounds ran (the first 8 rows fell short)
    }
  }
}

TEST(P4SpEir, ReportedWithTheThermostatAndAtLeastOneForAFixedWorstCaseSetting) {
  ParamSet p = three_node_room("lrh");
  p.set("thermostat_setting", std::string("worst_case"));
  const double sp_eir = run_simulation(make_scenario(p)).report.value("sp_eir");
  EXPECT_GE(sp_eir, 1.0);
  EXPECT_LT(sp_eir, 1.5);
  p.set("cooling", std::string("redline"));
  EXPECT_TRUE(std::isnan(run_simulation(make_scenario(p)).report.value("sp_eir")));
}

/// The setting of inputs/specs/banerjee-p4.toml: asu50, the first 3,000 KTH-SP2 jobs scaled onto
/// the 50 chassis, FCFS-Backfill, the two-mode CRAC.
Report banerjee_p4_point(const std::string& allocator, const std::string& setting, bool idle_off) {
  ParamSet p(simulation_catalog());
  p.set("platform", std::string("asu50"));
  p.set("trace", std::string(DCSWEEP_TRACES_DIR) + "/KTH-SP2-1996-2.1-cln.swf");
  p.set("jobs", std::int64_t{3000});
  p.set("scale_to_platform", true);
  p.set("cooling", std::string("thermostat"));
  p.set("node_boot_s", 120.0);
  p.set("node_boot_energy_j", 290400.0);
  p.set("scheduler", std::string("easy"));
  p.set("allocator", allocator);
  p.set("thermostat_setting", setting);
  p.set("idle_nodes_off", idle_off);
  return run_simulation(make_scenario(p)).report;
}

TEST(P4Direction, HtsBeatsLrhAndMtdpOnTheShippedSetting) {
  // [P4]'s direction (Sec. VII): HTS's SP-EIR below LRH's; FCFS-Backfill-HTS's throughput per
  // energy above LRH's and MTDP's (MTDP compared with idle chassis off, as [P4] does). In this
  // CRAC model cooling is ~4% of the total, so the margins are ~1e-5 relative, not [P4]'s 6.89% /
  // 5.56% (docs/reproduction.md says why, and that the first 3,000 NASA-iPSC jobs gave the
  // opposite with idle chassis off): these are the shipped spec's results, held as they are.
  const Report hts_on = banerjee_p4_point("hts", "highest", false);
  const Report lrh_on = banerjee_p4_point("lrh", "worst_case", false);
  EXPECT_LT(hts_on.value("sp_eir"), lrh_on.value("sp_eir"));
  EXPECT_GT(hts_on.value("throughput_per_energy"), lrh_on.value("throughput_per_energy"));
  EXPECT_LT(hts_on.value("total_energy_j"), lrh_on.value("total_energy_j"));
  const Report hts_off = banerjee_p4_point("hts", "highest", true);
  const Report lrh_off = banerjee_p4_point("lrh", "worst_case", true);
  const Report mtdp = banerjee_p4_point("mtdp", "worst_case", true);
  EXPECT_LT(hts_off.value("sp_eir"), lrh_off.value("sp_eir"));
  EXPECT_GT(hts_off.value("throughput_per_energy"), lrh_off.value("throughput_per_energy"));
  EXPECT_GT(hts_off.value("throughput_per_energy"), mtdp.value("throughput_per_energy"));
  // Turning idle chassis off saves far more than any placement: MTDP well above HTS with them on.
  EXPECT_GT(mtdp.value("throughput_per_energy"), 1.1 * hts_on.value("throughput_per_energy"));
  // The same jobs were run: the schedules differ only through boot delays.
  EXPECT_EQ(hts_on.value("jobs_completed"), lrh_on.value("jobs_completed"));
}

/// MTDP's greedy as written first: every free node scored at every step (the allocator scores
/// each zone-and-power class once); power management is the registered mtdp's.
class StraightforwardMtdp final : public Allocator {
 public:
  explicit StraightforwardMtdp(std::unique_ptr<Allocator> registered) : registered_(std::move(registered)) {}

  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    const RoomView& room = request.room;
    const HeatDistribution& d = heat_of(room, "test");
    auto total = [&](double compute_w, const Eigen::VectorXd& rise) {
      return compute_w + compute_w / coefficient_of_performance(highest_supply_c(rise, room.supply_share(), room.redline_c()));
    };
    Eigen::VectorXd rise = room.inlet_rise_k(), column;
    double compute = room.zone_power_w().sum();
    std::vector<char> taken(std::size_t(request.machine.node_count()), 0);
    for (std::int32_t k = 0; k < request.nodes; ++k) {
      NodeId best = -1;
      double best_w = INFINITY, best_delta = 0;
      for (NodeId n = 0; n < request.machine.node_count(); ++n) {
        if (!request.machine.is_free(n) || taken[std::size_t(n)]) continue;
        const double delta = room.busy_power_w(n, request.config) - room.idle_power_w(n);
        d.column(room.zone_of(n), column);
        const double w = total(compute + delta, rise + column * delta);
        if (w < best_w) best = n, best_w = w, best_delta = delta;
      }
      if (best < 0) return false;
      d.column(room.zone_of(best), column);
      rise += column * best_delta;
      compute += best_delta;
      taken[std::size_t(best)] = 1;
      out.push_back(best);
    }
    std::sort(out.begin(), out.end());
    return true;
  }
  void manage_power(NodeControl& control) override { registered_->manage_power(control); }
  std::span<const NodeId> power_order(const RoomView& room) override { return registered_->power_order(room); }

 private:
  std::unique_ptr<Allocator> registered_;
};

/// Every job's start and nodes of the registered mtdp equal the straightforward greedy's; at
/// least `multi` jobs of more than one node.
void expect_mtdp_equals_straightforward(const ParamSet& p, std::size_t jobs, int multi) {
  const Scenario s = make_scenario(p);
  const SimulationResult fast = test::simulate_with_physics(s, nullptr, true);
  StraightforwardMtdp reference(allocator_registry().at("mtdp").make(BuildContext{s.params, s.key}, s.platform));
  const SimulationResult slow = test::simulate_with_physics(s, &reference, true);
  ASSERT_EQ(fast.jobs.size(), jobs);
  int multi_node = 0;
  for (std::size_t j = 0; j < fast.jobs.size(); ++j) {
    EXPECT_EQ(fast.jobs[j].start_s, slow.jobs[j].start_s) << j;
    EXPECT_EQ(fast.nodes[j], slow.nodes[j]) << j;
    multi_node += fast.nodes[j].size() > 1;
  }
  EXPECT_GT(multi_node, multi);
}

/// mtdp on a room of rows x racks x nodes, cooling at the redline, KTH-SP2's jobs from its
/// 5,000th on (a busy machine), scaled to the room.
ParamSet mtdp_room(std::int32_t rows, std::int32_t racks, std::int32_t nodes, std::int64_t jobs) {
  ParamSet p(simulation_catalog());
  p.set("platform", std::string("room"));
  test::set_room_layout(p, rows, racks, nodes);
  p.set("allocator", std::string("mtdp"));
  p.set("cooling", std::string("redline"));
  p.set("trace", std::string(DCSWEEP_TRACES_DIR) + "/KTH-SP2-1996-2.1-cln.swf");
  p.set("first_job", std::int64_t{5000});
  p.set("jobs", jobs);
  p.set("scale_to_platform", true);
  return p;
}

TEST(P4Mtdp, EqualsTheStraightforwardGreedyOnAMixedBusyRoom) {
  // 3 rows x 4 racks x 6 nodes of two chassis types (two power deltas in a zone)
  ParamSet p = mtdp_room(3, 4, 6, 150);
  p.set("room_node_types", std::string("pe1955:1,pe1855:1"));
  p.set("node_power", std::string("chassis"));
  expect_mtdp_equals_straightforward(p, 150, 50);
}

TEST(P4Mtdp, EqualsTheStraightforwardGreedyOnARoomOfManyZones) {
  // 360 zones, one node each: classes wait in heaps by the inlet that set their supply and are
  // scored from copies of D's rows at the inlets that can set one (a row of another inlet fails
  // this; the scan's rows at the 16 tightest inlets are checked where the supply nears zero)
  expect_mtdp_equals_straightforward(mtdp_room(2, 5, 36, 120), 120, 40);
}

TEST(P4Mtdp, EqualsTheStraightforwardGreedyOnTheImportedMatrices) {
  // meng40's measured D and asu50's, whose 484 negative entries of 2,500 let a supply rise as a
  // node is added (the heaps' bounds are read at the room of the moment: they hold); asu50 has
  // two chassis types, so two power deltas
  for (const char* platform : {"meng40", "asu50"}) {
    SCOPED_TRACE(platform);
    ParamSet p = mtdp_room(1, 1, 1, 150);
    p.set("platform", std::string(platform));
    expect_mtdp_equals_straightforward(p, 150, 50);
  }
}

TEST(P4Mtdp, EqualsTheStraightforwardGreedyWhereAddingANodeCoolsSomeInlets) {
  // a D of 120 zones with a third of its entries negative (-0.2 mK/W): a node added can raise
  // the supply an inlet allows
  RngStream rng({2026, 12, 2}, StreamPurpose::allocator);
  std::string csv;
  for (int i = 0; i < 120; ++i) {
    for (int j = 0; j < 120; ++j) {
      const std::uint64_t r = rng.next_u64() % 9;
      if (j > 0) csv += ',';
      csv += r < 3 ? "-0.0002" : r < 6 ? "0.0001" : r < 8 ? "0.0003" : "0";
    }
    csv += "\n";
  }
  ParamSet p = mtdp_room(2, 5, 12, 120);
  p.set("heat_distribution", test::write_file("mtdp_negative_D.csv", csv));
  expect_mtdp_equals_straightforward(p, 120, 40);
}

/// mtdp on `platform` under jobs of 1-24 nodes arriving faster than they end, so that most
/// decisions find the machine nearly full (the straightforward greedy stays cheap).
ParamSet mtdp_full(const std::string& platform, std::int64_t jobs, double rate_per_h) {
  ParamSet p(simulation_catalog());
  p.set("platform", platform);
  p.set("allocator", std::string("mtdp"));
  p.set("cooling", std::string("redline"));
  p.set("workload", std::string("poisson"));
  p.set("poisson_jobs", jobs);
  p.set("poisson_rate_per_h", rate_per_h);
  p.set("poisson_min_nodes", std::int64_t{1});
  p.set("poisson_max_nodes", std::int64_t{24});
  p.set("poisson_min_runtime_s", 600.0);
  p.set("poisson_max_runtime_s", 3600.0);
  return p;
}

TEST(P4Mtdp, EqualsTheStraightforwardGreedyOnAFullOxley1080) {
  // 1,080 zones, one node each, three node types (utilization 0.74, a mean wait of 28 minutes)
  expect_mtdp_equals_straightforward(mtdp_full("oxley1080", 300, 900), 300, 200);
}

TEST(P4Mtdp, EqualsTheStraightforwardGreedyOnAFullRoomWhoseDIsKeptInSinglePrecision) {
  // 2,160 zones (above 2,048 D keeps its cumulative columns as floats), one node each
  ParamSet p = mtdp_full("room", 400, 1800);
  test::set_room_layout(p, 2, 10, 108);
  expect_mtdp_equals_straightforward(p, 400, 250);
}

TEST(P4Mtdp, EqualsTheStraightforwardGreedyWhereTheSupplyNearsZero) {
  // low redlines: the supply the redline allows nears 0 C during decisions, below which COP
  // no longer grows with it and the greedy goes on scanning every class (hundreds of decisions
  // change so part way through)
  for (const double redline : {4.0, 8.0, 12.0}) {
    SCOPED_TRACE(redline);
    ParamSet p = mtdp_room(2, 5, 36, 120);
    p.set("redline_c", redline);
    expect_mtdp_equals_straightforward(p, 120, 40);
  }
}

TEST(P4BadInput, ThermostatPoliciesNeedARoomAndHtsTheDynamicThermostat) {
  ParamSet p(simulation_catalog());
  p.set("trace", std::string(DCSWEEP_TRACES_DIR) + "/KTH-SP2-1996-2.1-cln.swf");
  p.set("jobs", std::int64_t{20});
  p.set("allocator", std::string("hts"));
  p.set("cooling", std::string("thermostat"));
  p.set("thermostat_setting", std::string("highest"));
  EXPECT_NE(input_error([&] { run_simulation(make_scenario(p)); }).find("needs a platform with a room"),
            std::string::npos);
  ParamSet q = three_node_room("hts");
  EXPECT_NE(input_error([&] { make_scenario(q); }).find("thermostat_setting = highest"), std::string::npos);
  q.set("cooling", std::string("redline"));
  EXPECT_NE(input_error([&] { make_scenario(q); }).find("cooling = thermostat"), std::string::npos);
  ParamSet r = three_node_room("lrh");
  r.set("thermal_model", std::string("none"));
  EXPECT_NE(input_error([&] { make_scenario(r); }).find("allocator 'lrh'"), std::string::npos);
}

}  // namespace
}  // namespace dcsweep
