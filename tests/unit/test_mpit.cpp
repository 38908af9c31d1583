// The cooling-aware allocators of [P1]: `mpit` (LP relaxation + discretisation) on every decision
// of simulated runs against independent references (the peak recomputed from D by hand, the best
// of 1,000 random allocations, exhaustive search for jobs of <= 4 nodes, the LP bound), on the
// real 40-node room, a generated room starting late, and a zoned room; the rounding rule against
// brute force; `joint`'s law (never hotter than MC1x1's shells around any of MPIT's nodes); and
// the direction of [P1]'s Table 1 on a reduced NASA-iPSC run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/alloc/mpit.hpp"
#include "dcsweep/alloc/nearest.hpp"
#include "dcsweep/core/rng.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "dcsweep/thermal/inlet_model.hpp"
#include "dcsweep/thermal/room_view.hpp"
#include "sim_helpers.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

// ---- the rounding rule -------------------------------------------------------------------------

/// Every integer vector y with sum n and 0 <= y <= cap: the least sum (x - y)^2.
double best_rounding_distance(const std::vector<double>& x, const std::vector<std::int32_t>& cap, std::int32_t n) {
  std::vector<std::int32_t> y(x.size(), 0);
  double best = INFINITY;
  auto visit = [&](auto&& self, std::size_t p, std::int32_t left) -> void {
    if (p == x.size()) {
      if (left != 0) return;
      double d = 0;
      for (std::size_t i = 0; i < x.size(); ++i) d += (x[i] - y[i]) * (x[i] - y[i]);
      best = std::min(best, d);
      return;
    }
    for (std::int32_t v = 0; v <= std::min(cap[p], left); ++v) {
      y[p] = v;
      self(self, p + 1, left - v);
    }
    y[p] = 0;
  };
  visit(visit, 0, n);
  return best;
}

TEST(MpitRounding, NearestIntegerCountsIsTheClosestFeasiblePoint) {
  RngStream rng(StreamKey{7, 0, 0}, StreamPurpose::allocator);
  for (int trial = 0; trial < 300; ++trial) {
    const auto pools = std::size_t(rng.integer(1, 6));
    std::vector<std::int32_t> cap(pools);
    std::vector<double> x(pools);
    std::int32_t total_cap = 0;
    for (std::size_t p = 0; p < pools; ++p) cap[p] = std::int32_t(rng.integer(0, 4)), total_cap += cap[p];
    if (total_cap == 0) continue;
    const auto n = std::int32_t(rng.integer(1, total_cap));
    // a fractional point with sum n inside the box: water-fill random weights
    std::vector<double> w(pools);
    for (auto& v : w) v = rng.uniform(0.0, 1.0);
    double left = n;
    for (int round = 0; round < 50 && left > 1e-12; ++round) {
      double weight = 0;
      for (std::size_t p = 0; p < pools; ++p) weight += x[p] < cap[p] ? w[p] : 0;
      if (weight == 0) break;
      const double share = left;
      for (std::size_t p = 0; p < pools; ++p) {
        if (x[p] >= cap[p]) continue;
        const double add = std::min(cap[p] - x[p], share * w[p] / weight);
        x[p] += add, left -= add;
      }
    }
    if (left > 1e-9) continue;
    const std::vector<std::int32_t> y = nearest_integer_counts(x, cap, n);
    std::int32_t sum = 0;
    double d = 0;
    for (std::size_t p = 0; p < pools; ++p) {
      EXPECT_GE(y[p], 0);
      EXPECT_LE(y[p], cap[p]);
      sum += y[p];
      d += (x[p] - y[p]) * (x[p] - y[p]);
    }
    EXPECT_EQ(sum, n) << trial;
    EXPECT_NEAR(d, best_rounding_distance(x, cap, n), 1e-9) << trial;
  }
}

TEST(MpitRounding, WholeNumbersStayAndTiesGoToTheLowestPool) {
  EXPECT_EQ(nearest_integer_counts(std::vector<double>{2, 0, 1}, std::vector<std::int32_t>{3, 3, 3}, 3),
            (std::vector<std::int32_t>{2, 0, 1}));
  EXPECT_EQ(nearest_integer_counts(std::vector<double>{0.5, 0.5, 0.5, 0.5}, std::vector<std::int32_t>{1, 1, 1, 1}, 2),
            (std::vector<std::int32_t>{1, 1, 0, 0}));
  // 0.9999999 is a whole node (the LP's tolerance), not a floor of 0 plus a rounding
  EXPECT_EQ(nearest_integer_counts(std::vector<double>{0.99999999, 0.00000001}, std::vector<std::int32_t>{1, 1}, 1),
            (std::vector<std::int32_t>{1, 0}));
}

// ---- mpit on every decision of simulated runs --------------------------------------------------

Scenario room_run(const std::map<std::string, ParamValue>& values, const std::string& allocator = "mpit",
                  double shift_s = 0) {
  ParamSet p(simulation_catalog());
  p.set("workload", std::string("poisson"));
  p.set("allocator", allocator);
  for (const auto& [name, value] : values) p.set(name, value);
  Scenario s = make_scenario(p);
  for (Job& job : s.workload.jobs) job.submit_s += shift_s;
  return s;
}

/// The peak inlet rise once `nodes` run, from D's columns read one by one (not MPIT's code).
double peak_by_hand(const RoomView& room, const std::vector<NodeId>& nodes, const JobConfig& config) {
  const HeatDistribution& d = *room.heat_distribution();
  Eigen::VectorXd rise = room.inlet_rise_k();
  for (const NodeId n : nodes) {
    const double w = room.busy_power_w(n, config) - room.idle_power_w(n);
    for (Eigen::Index i = 0; i < rise.size(); ++i) rise[i] += d.entry(i, room.zone_of(n)) * w;
  }
  return rise.maxCoeff();
}

/// The least peak over every n-subset of the free nodes (node-level rooms, small n).
double exhaustive_peak(const Machine& machine, const RoomView& room, const JobConfig& config, std::int32_t n) {
  std::vector<NodeId> free;
  for (NodeId node = 0; node < machine.node_count(); ++node) {
    if (machine.is_free(node)) free.push_back(node);
  }
  const HeatDistribution& d = *room.heat_distribution();
  const Eigen::Index zones = room.inlet_rise_k().size();
  Matrix contribution(zones, Eigen::Index(free.size()));
  Eigen::VectorXd column;
  for (std::size_t k = 0; k < free.size(); ++k) {
    d.column(room.zone_of(free[k]), column);
    contribution.col(Eigen::Index(k)) = column * (room.busy_power_w(free[k], config) - room.idle_power_w(free[k]));
  }
  double best = INFINITY;
  std::vector<Eigen::VectorXd> partial(std::size_t(n) + 1);
  partial[0] = room.inlet_rise_k();
  auto visit = [&](auto&& self, std::int32_t depth, std::size_t next) -> void {
    if (depth == n) {
      best = std::min(best, partial[std::size_t(depth)].maxCoeff());
      return;
    }
    for (std::size_t k = next; k + std::size_t(n - depth) <= free.size(); ++k) {
      partial[std::size_t(depth) + 1] = partial[std::size_t(depth)] + contribution.col(Eigen::Index(k));
      self(self, depth + 1, k + 1);
    }
  };
  visit(visit, 0, 0);
  return best;
}

/// Runs MPIT on every decision (the simulation proceeds with its choice) and checks the choice.
class CheckedMpit final : public Allocator {
 public:
  CheckedMpit(const Scenario& s, std::int32_t exhaustive_max_nodes)
      : solver_(s.platform), rng_(StreamKey{s.key.seed, 91, 0}, StreamPurpose::allocator), exhaustive_max_nodes_(exhaustive_max_nodes) {}

  bool allocate(const AllocationRequest& r, std::vector<NodeId>& out) override {
    const MpitDecision d = solver_.decide(r.machine, r.room, r.config, r.nodes);
    out = d.nodes;
    EXPECT_EQ(std::int32_t(out.size()), r.nodes);
    EXPECT_TRUE(std::is_sorted(out.begin(), out.end()));
    EXPECT_EQ(std::set<NodeId>(out.begin(), out.end()).size(), out.size());
    for (const NodeId n : out) EXPECT_TRUE(r.machine.is_free(n)) << n;
    const double peak = peak_by_hand(r.room, out, r.config);
    EXPECT_NEAR(d.peak_rise_k, peak, 1e-9 * (1 + std::abs(peak)));
    ++decisions;
    if (r.machine.free_count() == r.nodes) return true;  // the only allocation
    enumerated += !d.lp_solved && r.nodes > 1;
    EXPECT_LE(d.lp_peak_rise_k, peak + 1e-7) << "the relaxation bounds every allocation";
    // the best of 1,000 random allocations of the same decision
    std::vector<NodeId> free;
    for (NodeId node = 0; node < r.machine.node_count(); ++node) {
      if (r.machine.is_free(node)) free.push_back(node);
    }
    double best_random = INFINITY;
    for (int k = 0; k < 1000; ++k) {
      for (std::int32_t i = 0; i < r.nodes; ++i) {
        std::swap(free[std::size_t(i)], free[std::size_t(rng_.integer(i, std::int64_t(free.size()) - 1))]);
      }
      best_random = std::min(best_random, peak_by_hand(r.room, {free.begin(), free.begin() + r.nodes}, r.config));
    }
    EXPECT_LE(peak, best_random + 1e-9) << "decision " << decisions << " (" << r.nodes << " nodes at " << r.now_s << ")";
    if (r.nodes <= exhaustive_max_nodes_) {
      const double optimum = exhaustive_peak(r.machine, r.room, r.config, r.nodes);
      EXPECT_LE(d.lp_peak_rise_k, optimum + 1e-7);
      EXPECT_LE(peak, optimum * 1.02 + 1e-12) << "decision " << decisions << " (" << r.nodes << " nodes)";
      worst_gap = std::max(worst_gap, peak / optimum - 1);
      ++exhaustive;
    }
    busy_seen = std::max(busy_seen, r.machine.node_count() - r.machine.free_count());
    return true;
  }

  int decisions = 0, exhaustive = 0, enumerated = 0;
  std::int32_t busy_seen = 0;
  double worst_gap = 0;

 private:
  MpitSolver solver_;
  RngStream rng_;
  std::int32_t exhaustive_max_nodes_;
};

CheckedMpit check_every_decision(const Scenario& s, std::int32_t exhaustive_max_nodes) {
  CheckedMpit alloc(s, exhaustive_max_nodes);
  test::simulate_with_physics(s, &alloc);
  EXPECT_GT(alloc.busy_seen, 0);  // decisions were taken on partly busy, warm rooms
  return alloc;
}

TEST(MpitAllocator, BeatsRandomAndIsWithinTwoPercentOfExhaustiveOnMeng40) {
  // jobs of 1-4 nodes at about half load: most decisions see a partly busy, warm room
  for (const std::string power : {"meng_p1", "meng_p0"}) {
    const Scenario s = room_run({{"platform", std::string("meng40")}, {"poisson_max_nodes", std::int64_t{4}},
                                 {"poisson_rate_per_h", 45.0}, {"poisson_jobs", std::int64_t{60}},
                                 {"node_power", power}, {"comm_pattern", std::string("mixed")}});
    const CheckedMpit c = check_every_decision(s, 4);
    EXPECT_EQ(c.decisions, 60);
    EXPECT_GE(c.exhaustive, 50);
    std::printf("mpit on meng40 (%s): worst gap to exhaustive %.4f%% of the peak rise over %d decisions\n",
                power.c_str(), 100 * c.worst_gap, c.exhaustive);
  }
}

TEST(MpitAllocator, EnumeratesNearlyFullRoomsExactly) {
  // overloaded: most decisions see few free nodes, so MPIT enumerates (<= 200 allocations)
  const Scenario s = room_run({{"platform", std::string("meng40")}, {"poisson_max_nodes", std::int64_t{4}},
                               {"poisson_rate_per_h", 200.0}, {"poisson_jobs", std::int64_t{80}}});
  const CheckedMpit c = check_every_decision(s, 4);
  EXPECT_EQ(c.decisions, 80);
  EXPECT_GE(c.enumerated, 10);  // the enumerated path was checked against exhaustive search
  EXPECT_GE(c.exhaustive, c.enumerated);
}

TEST(MpitAllocator, OnAHeterogeneousRoom) {
  // asu50: 30 PowerEdge 1955 + 20 PowerEdge 1855 chassis with different busy - idle powers, so
  // the pools' power deltas differ (the LP's cardinality row has unequal ratios)
  const Scenario s = room_run({{"platform", std::string("asu50")}, {"poisson_max_nodes", std::int64_t{6}},
                               {"poisson_rate_per_h", 40.0}, {"poisson_jobs", std::int64_t{60}}});
  std::set<double> deltas;
  {
    auto physics = make_datacenter_model(s);
    const RoomView& room = *physics;
    for (NodeId n = 0; n < s.platform.node_count; ++n) deltas.insert(room.busy_power_w(n, JobConfig{}) - room.idle_power_w(n));
  }
  EXPECT_EQ(deltas.size(), 2u);
  const CheckedMpit c = check_every_decision(s, 4);
  EXPECT_EQ(c.decisions, 60);
  EXPECT_GE(c.exhaustive, 35);
}

TEST(MpitAllocator, BeatsRandomOnLargerJobs) {
  const Scenario s = room_run({{"platform", std::string("meng40")}, {"poisson_min_nodes", std::int64_t{5}},
                               {"poisson_max_nodes", std::int64_t{24}}, {"poisson_rate_per_h", 40.0},
                               {"poisson_jobs", std::int64_t{40}}});
  EXPECT_EQ(check_every_decision(s, 0).decisions, 40);
}

TEST(MpitAllocator, OnAnotherRoomStartingLateWithAThermostat) {
  // 3 rows x 2 racks x 5 = 30 nodes of a generated room, jobs from t = 7200 s
  const Scenario s = room_run({{"platform", std::string("room")}, {"room_rows", std::int64_t{3}},
                               {"room_racks_per_row", std::int64_t{2}}, {"room_nodes_per_rack", std::int64_t{5}},
                               {"poisson_max_nodes", std::int64_t{4}}, {"poisson_rate_per_h", 40.0},
                               {"poisson_jobs", std::int64_t{40}}, {"cooling", std::string("thermostat")}},
                              "mpit", 7200);
  const CheckedMpit c = check_every_decision(s, 3);
  EXPECT_EQ(c.decisions, 40);
  EXPECT_GT(c.exhaustive, 20);
}

TEST(MpitAllocator, WorksOnZonesOfAZonedRoom) {
  // 64 nodes in zones of 4: pools are zones, inlets are zones; the same references hold
  const Scenario s = room_run({{"platform", std::string("room")}, {"room_rows", std::int64_t{2}},
                               {"room_racks_per_row", std::int64_t{4}}, {"room_nodes_per_rack", std::int64_t{8}},
                               {"thermal_zone_nodes", std::int64_t{4}}, {"poisson_max_nodes", std::int64_t{20}},
                               {"poisson_rate_per_h", 60.0}, {"poisson_jobs", std::int64_t{40}}});
  EXPECT_EQ(check_every_decision(s, 0).decisions, 40);
}

/// Two MPIT solvers on every decision of a run, the simulation proceeding with the first's choice:
/// the LP (whole, every inlet a row) against another way of solving it.
class TwoSolvers final : public Allocator {
 public:
  TwoSolvers(const Platform& platform, MpitOptions reference, MpitOptions other)
      : reference_(platform, reference), other_(platform, other) {}

  bool allocate(const AllocationRequest& r, std::vector<NodeId>& out) override {
    const MpitDecision a = reference_.decide(r.machine, r.room, r.config, r.nodes);
    const MpitDecision b = other_.decide(r.machine, r.room, r.config, r.nodes);
    EXPECT_EQ(a.lp_solved, b.lp_solved);
    if (a.lp_solved) {
      ++lp;
      EXPECT_NEAR(b.lp_peak_rise_k, a.lp_peak_rise_k, 1e-6 * (1 + std::abs(a.lp_peak_rise_k)))
          << "decision " << lp << " (" << r.nodes << " of " << r.machine.free_count() << " free nodes)";
      largest_job = std::max(largest_job, r.nodes);
    }
    same += a.nodes == b.nodes;
    peak_sum_reference += a.peak_rise_k, peak_sum_other += b.peak_rise_k;
    ++decisions;
    out = a.nodes;
    return true;
  }

  int decisions = 0, lp = 0, same = 0;
  std::int32_t largest_job = 0;
  double peak_sum_reference = 0, peak_sum_other = 0;

 private:
  MpitSolver reference_, other_;
};

/// 360 nodes at node level (2 rows x 5 racks x 36: more zones than the whole LP is kept for),
/// jobs of 2 to `max_nodes` nodes.
Scenario many_zone_room(std::int64_t max_nodes) {
  return room_run({{"platform", std::string("room")}, {"room_rows", std::int64_t{2}},
                   {"room_racks_per_row", std::int64_t{5}}, {"room_nodes_per_rack", std::int64_t{36}},
                   {"poisson_min_nodes", std::int64_t{2}}, {"poisson_max_nodes", max_nodes},
                   {"poisson_rate_per_h", 30.0}, {"poisson_jobs", std::int64_t{60}}},
                  "mpit", 3600);
}

TEST(MpitAllocator, GeneratedInletRowsReachTheWholeLpsOptimum) {
  // Row generation holds only the inlets that bind; the value must be the whole LP's on every
  // decision (its vertex, and so the rounding, may differ where the LP has several optima)
  const Scenario big = many_zone_room(200);
  const Scenario small = room_run({{"platform", std::string("meng40")}, {"poisson_min_nodes", std::int64_t{2}},
                                   {"poisson_max_nodes", std::int64_t{16}}, {"poisson_rate_per_h", 45.0},
                                   {"poisson_jobs", std::int64_t{60}}});
  for (const Scenario* s : {&big, &small}) {
    TwoSolvers two(s->platform, {MpitRows::all}, {MpitRows::generated});
    test::simulate_with_physics(*s, &two);
    EXPECT_EQ(two.decisions, 60);
    EXPECT_GE(two.lp, 15);
    EXPECT_GE(two.largest_job, 12);
    std::printf("%s: %d LP decisions (largest %d nodes), %d of %d decisions the same nodes; mean peak rise %.4f K (whole LP) %.4f K (generated rows)\n",
                s->platform.name.c_str(), two.lp, two.largest_job, two.same, two.decisions, two.peak_sum_reference / two.decisions,
                two.peak_sum_other / two.decisions);
  }
}

TEST(MpitAllocator, ChecksEveryDecisionOnARoomOfManyZones) {
  // the references of the small rooms (peak by hand, 1,000 random allocations, the LP bound,
  // exhaustive for 2-node jobs) on the room whose LP rows are generated
  const CheckedMpit c = check_every_decision(many_zone_room(60), 2);
  EXPECT_EQ(c.decisions, 60);
  EXPECT_GE(c.exhaustive, 1);
}

TEST(MpitAllocator, BoundedMovesAreTheMovesOfTheFullScan) {
  // the moves after rounding, pruned by their bound over the hottest inlets, against every move
  // scored over every inlet: the same nodes on every decision
  for (const Scenario& s : {many_zone_room(200), room_run({{"platform", std::string("meng40")},
                                                        {"poisson_max_nodes", std::int64_t{16}},
                                                        {"poisson_rate_per_h", 45.0}, {"poisson_jobs", std::int64_t{60}}})}) {
    TwoSolvers two(s.platform, {MpitRows::automatic, false}, {MpitRows::automatic, true});
    test::simulate_with_physics(s, &two);
    EXPECT_EQ(two.same, two.decisions) << s.platform.name;
    EXPECT_GE(two.lp, 15) << s.platform.name;
  }
}

TEST(MpitAllocator, BoundedMovesBreakTiesAsTheFullScanWhereDHasEqualEntries) {
  // A D of few distinct values (multiples of 0.1 mK/W, two in three zero), as large rooms' single
  // precision columns give far from the source: many moves tie on the peak, at inlets the moves
  // leave as they are, and the lowest source, then the lowest destination, must win. 120 and 240
  // zones (more than the 64 hottest inlets the bounds read, and than a block of destinations the
  // bounds check at once), jobs of 2 to half the room. (Checked: a block checked against the
  // best itself, not the least value above it, makes one decision of the 240-zone room differ.)
  for (const auto& [zones, seed] : {std::pair{120, 0}, std::pair{240, 6}}) {
    RngStream rng({2026, 29, std::uint64_t(seed)}, StreamPurpose::allocator);
    std::string csv;
    for (int i = 0; i < zones; ++i) {
      for (int j = 0; j < zones; ++j) {
        const std::uint64_t r = rng.next_u64() % 9;
        if (j > 0) csv += ',';
        csv += r < 6 ? "0" : r < 8 ? "0.0001" : "0.0002";
      }
      csv += "\n";
    }
    const Scenario s = room_run({{"platform", std::string("room")}, {"room_rows", std::int64_t{2}},
                                 {"room_racks_per_row", std::int64_t{3}}, {"room_nodes_per_rack", std::int64_t{zones / 6}},
                                 {"heat_distribution", test::write_file("mpit_ties_D.csv", csv)},
                                 {"poisson_min_nodes", std::int64_t{2}}, {"poisson_max_nodes", std::int64_t{zones / 2}},
                                 {"poisson_rate_per_h", 30.0}, {"poisson_jobs", std::int64_t{300}}});
    TwoSolvers two(s.platform, {MpitRows::automatic, false}, {MpitRows::automatic, true});
    test::simulate_with_physics(s, &two);
    EXPECT_EQ(two.same, two.decisions) << zones << " zones";
    EXPECT_GE(two.lp, 15) << zones << " zones";
  }
}

TEST(MpitAllocator, IsDeterministicAndSpreadsJobsColderThanFirstFit) {
  const Scenario s = room_run({{"platform", std::string("meng40")}, {"poisson_rate_per_h", 60.0}});
  auto run = [&](const std::string& allocator) {
    Scenario t = s;
    t.params.set("allocator", allocator);
    return test::simulate_with_physics(t, nullptr, true);
  };
  EXPECT_EQ(run("mpit").nodes, run("mpit").nodes);
  EXPECT_LT(run("mpit").report.value("avg_cooling_power_w"), run("first_fit").report.value("avg_cooling_power_w"));
}

// ---- joint -------------------------------------------------------------------------------------

/// Runs joint on every decision and checks its law: n distinct free nodes, and a peak no higher
/// than that of MC1x1's shells opened at any of MPIT's nodes (MPIT asked the same questions in
/// the same order as joint asks its own, so it answers the same).
class CheckedJoint final : public Allocator {
 public:
  explicit CheckedJoint(const Scenario& s)
      : real_(allocator_registry().at("joint").make(BuildContext{s.params, s.key}, s.platform)),
        mpit_(s.platform),
        shells_(s.platform) {}

  bool allocate(const AllocationRequest& r, std::vector<NodeId>& out) override {
    EXPECT_TRUE(real_->allocate(r, out));
    EXPECT_EQ(std::int32_t(out.size()), r.nodes);
    EXPECT_EQ(std::set<NodeId>(out.begin(), out.end()).size(), out.size());
    for (const NodeId n : out) EXPECT_TRUE(r.machine.is_free(n)) << n;
    ++decisions;
    if (r.machine.free_count() == r.nodes) return true;
    const double peak = peak_by_hand(r.room, out, r.config);
    double coolest = INFINITY;
    for (const NodeId centre : mpit_.decide(r.machine, r.room, r.config, r.nodes).nodes) {
      const std::vector<NodeId> shell = shells_.mc1x1_around(r.machine, centre, r.nodes);
      EXPECT_TRUE(std::is_sorted(shell.begin(), shell.end()));
      const double around = peak_by_hand(r.room, shell, r.config);
      EXPECT_LE(peak, around + 1e-9) << "centre " << centre << ", decision " << decisions;
      coolest = std::min(coolest, around);
    }
    // and it is one of those shells' peaks: the least (joint keeps a shell, never a blend)
    EXPECT_NEAR(peak, coolest, 1e-9) << "decision " << decisions;
    return true;
  }

  int decisions = 0;

 private:
  std::unique_ptr<Allocator> real_;
  MpitSolver mpit_;
  NearestSearch shells_;
};

TEST(JointAllocator, NeverHotterThanTheShellsAroundAnyOfMpitsNodes) {
  const Scenario s = room_run({{"platform", std::string("meng40")}, {"poisson_max_nodes", std::int64_t{16}},
                               {"poisson_rate_per_h", 60.0}, {"poisson_jobs", std::int64_t{50}},
                               {"comm_pattern", std::string("mixed")}},
                              "joint");
  CheckedJoint alloc(s);
  test::simulate_with_physics(s, &alloc);
  EXPECT_EQ(alloc.decisions, 50);
}

TEST(JointAllocator, TakesTheCoolestShellOnABusyIntrepidStartedLate) {
  // Intrepid's 40,960 nodes in 80 zones of 512, jobs of 64 to 1,400 nodes arriving faster than
  // they end (the machine fills up), the run starting at day 3: shells of hundreds of nodes, built
  // unsorted and sorted only when kept, and from 1,024 nodes bounded by their inner cubes first.
  const Scenario s = room_run({{"platform", std::string("intrepid")}, {"poisson_min_nodes", std::int64_t{64}},
                               {"poisson_max_nodes", std::int64_t{1400}}, {"poisson_rate_per_h", 600.0},
                               {"poisson_min_runtime_s", 3600.0}, {"poisson_max_runtime_s", 7200.0},
                               {"poisson_jobs", std::int64_t{24}}},
                              "joint", 3 * 86400.0);
  CheckedJoint alloc(s);
  test::simulate_with_physics(s, &alloc);
  EXPECT_EQ(alloc.decisions, 24);
}

TEST(JointAllocator, TakesTheCoolestShellOnARoomOfManyZones) {
  // 360 zones (node level): a shell is first bounded over the best shell's 16 hottest inlets,
  // whose entries of D are copied per zone once read often enough; jobs up to 120 nodes
  Scenario s = many_zone_room(120);
  s.params.set("allocator", std::string("joint"));
  CheckedJoint alloc(s);
  test::simulate_with_physics(s, &alloc);
  EXPECT_EQ(alloc.decisions, 60);
}

TEST(PeakRise, PeakOverSomeInletsSumsTheirEntriesOfD) {
  // the same sums whether D's entries are read where D keeps them or from the per-zone copy
  // peak_over makes once it has read as many (many calls with the same inlets), and after the
  // inlets change
  const Scenario s = many_zone_room(120);
  Machine machine(s.platform.node_count);
  auto physics = make_datacenter_model(s);
  const RoomView& view = *physics;
  PeakRise peaks;
  RngStream rng({5, 0, 0}, StreamPurpose::allocator);
  const JobConfig config;
  for (int decision = 0; decision < 3; ++decision) {
    peaks.start(view, config, machine.node_count(), "test");
    for (int probe = 0; probe < 2; ++probe) {
      std::vector<Eigen::Index> inlets;
      for (int k = 0; k < 16; ++k) inlets.push_back(Eigen::Index(rng.integer(0, s.platform.node_count - 1)));
      for (int call = 0; call < 40; ++call) {
        std::vector<NodeId> nodes;
        for (int k = 0; k < 20; ++k) nodes.push_back(NodeId(rng.integer(0, s.platform.node_count - 1)));
        const HeatDistribution& d = *view.heat_distribution();
        double expected = -INFINITY;
        for (const Eigen::Index i : inlets) {
          double rise = view.inlet_rise_k()[i];
          for (const NodeId n : nodes) rise += d.entry(i, view.zone_of(n)) * (view.busy_power_w(n, config) - view.idle_power_w(n));
          expected = std::max(expected, rise);
        }
        EXPECT_EQ(peaks.peak_over(nodes, inlets), expected) << "decision " << decision << " call " << call;
      }
    }
  }
}

TEST(PeakRise, PeakIsTheSumOfTheNodesColumnsOfDOnRoomsOfEverySize) {
  // peak() adds D's cumulative columns at the edges of runs of zones adding equal power (a run's
  // inner columns cancel): the same peak as D's columns added node by node, for runs of
  // consecutive nodes (a shell's lines), runs that touch the first and the last zone, scattered
  // nodes and their mixtures, on rooms of a zone per node (D kept in double, and at 2,160 zones
  // in single precision) and on meng40 (several nodes per zone)
  const std::vector<Scenario> rooms = {
      many_zone_room(20),
      room_run({{"platform", std::string("room")}, {"room_rows", std::int64_t{4}}, {"room_racks_per_row", std::int64_t{15}},
                {"room_nodes_per_rack", std::int64_t{36}}, {"poisson_jobs", std::int64_t{1}}}),
      room_run({{"platform", std::string("meng40")}})};
  for (const Scenario& s : rooms) {
    auto physics = make_datacenter_model(s);
    const RoomView& view = *physics;
    const std::int32_t n = s.platform.node_count;
    ASSERT_EQ(view.heat_distribution()->size() > HeatDistribution::kSinglePrecisionZones, n == 2160) << s.platform.name;
    RngStream rng({7, 0, 0}, StreamPurpose::allocator);
    PeakRise peaks;
    const JobConfig config;
    for (int decision = 0; decision < 2; ++decision) {
      peaks.start(view, config, n, "test");
      for (int set = 0; set < 12; ++set) {
        std::vector<NodeId> nodes;
        std::vector<char> taken(std::size_t(n), 0);
        auto take = [&](NodeId a) {
          if (!taken[std::size_t(a)]) taken[std::size_t(a)] = 1, nodes.push_back(a);
        };
        const int runs = set % 4 == 3 ? 0 : 1 + set % 5;
        for (int r = 0; r < runs; ++r) {
          const auto length = std::int32_t(rng.integer(1, std::min(40, n)));
          const NodeId begin = set == 0 && r == 0 ? 0 : set == 1 && r == 0 ? n - length : NodeId(rng.integer(0, n - length));
          for (NodeId a = begin; a < begin + length; ++a) take(a);
        }
        if (set % 2 == 1) {
          for (int k = 0; k < 10; ++k) take(NodeId(rng.integer(0, n - 1)));
        }
        std::reverse(nodes.begin(), nodes.end());  // any order
        const double expected = peak_by_hand(view, nodes, config);
        EXPECT_NEAR(peaks.peak(nodes), expected, 1e-11 * std::max(1.0, std::abs(expected)))
            << s.platform.name << " decision " << decision << " set " << set << " of " << nodes.size() << " nodes";
      }
    }
  }
}

TEST(JointAllocator, ModifiedMc1x1AroundMc1x1sOwnCentreIsMc1x1) {
  // mc1x1_around(centre) is the shell collection MC1x1 itself makes around that centre: on an
  // empty machine, MC1x1's allocation must be mc1x1_around one of its own nodes.
  const Scenario s = room_run({{"platform", std::string("meng40")}});
  Machine machine(s.platform.node_count);
  NearestSearch search(s.platform);
  for (std::int32_t n = 1; n <= 12; ++n) {
    const std::vector<NodeId> mc = search.allocate(NearestKind::mc1x1, machine, n);
    bool found = false;
    for (const NodeId centre : mc) found = found || search.mc1x1_around(machine, centre, n) == mc;
    EXPECT_TRUE(found) << n;
  }
}

// ---- [P1] Table 1's direction on a reduced run -------------------------------------------------

TEST(MengP1Direction, CoolingAwareIsCoolestAndRandomIsSlowest) {
  // The first 400 jobs of NASA-iPSC scaled onto the 40 nodes (the shipped spec runs the whole
  // trace) with [P1]'s power, runtime model (all-to-all CC_job) and EASY: the cooling-aware
  // allocator has the lowest cooling power of the six, random the longest mean running time.
  ParamSet p(simulation_catalog());
  p.set("trace", std::string(DCSWEEP_TRACES_DIR) + "/NASA-iPSC-1993-3.1-cln.swf");
  p.set("platform", std::string("meng40"));
  p.set("workload", std::string("trace"));
  p.set("jobs", std::int64_t{400});
  p.set("scheduler", std::string("easy"));
  p.set("runtime_model", std::string("meng_tau"));
  p.set("node_power", std::string("meng_p1"));
  p.set("scale_to_platform", true);
  std::map<std::string, Report> m;
  for (const std::string a : {"mc1x1", "genalg", "mm", "random", "mpit", "joint"}) {
    p.set("allocator", a);
    m[a] = test::simulate_with_physics(make_scenario(p)).report;
  }
  for (const auto& [a, metrics] : m) {
    if (a != "mpit") {
      EXPECT_LT(m["mpit"].value("avg_cooling_power_w"), metrics.value("avg_cooling_power_w")) << a;
    }
    if (a != "random") {
      EXPECT_GT(m["random"].value("avg_runtime_s"), metrics.value("avg_runtime_s")) << a;
    }
  }
}

}  // namespace
}  // namespace dcsweep
