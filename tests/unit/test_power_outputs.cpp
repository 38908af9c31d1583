// What issue 28 adds to check a run from outside: the peak node power (max_compute_power_w) on a
// hand-worked run that starts late, node lists as ranges (runs_text), the job events file's rows,
// and the wall-clock limit of a simulation.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/int_runs.hpp"
#include "dcsweep/power/node_power.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/job_events.hpp"
#include "dcsweep/sim/run.hpp"

namespace dcsweep {
namespace {

/// A 32-node machine of [P2]'s nodes (idle 86 W, busy at the default 60 W cap 116 W), EASY,
/// jobs given as (submit, runtime, nodes), starting at `offset_s` (a run that starts late).
Scenario parm_nodes(const std::vector<std::array<double, 3>>& jobs, double offset_s) {
  ParamSet params(simulation_catalog());
  params.set("node_power", std::string("parm"));
  Platform platform{"test", 32, 1, ""};
  platform.power_preset = "parm";
  Scenario s{params, {1, 0, 0}, platform, {}};
  std::int64_t id = 1;
  for (const auto& [submit, runtime, nodes] : jobs) {
    s.workload.jobs.push_back({id++, offset_s + submit, runtime, runtime, std::int32_t(nodes)});
  }
  return s;
}

TEST(PeakPower, HandWorkedOverlapOfTwoJobsOnARunThatStartsLate) {
  // A: 4 nodes over [0, 100); B: 2 nodes over [50, 300); C: 30 nodes over [400, 410) after both.
  // Peaks: 32 x 86 + 6 x 30 = 2,932 W while A and B overlap; C alone: 32 x 86 + 30 x 30 = 3,652 W.
  for (const double offset : {0.0, 1.0e4}) {
    const Report two = run_simulation(parm_nodes({{0, 100, 4}, {50, 250, 2}}, offset)).report;
    EXPECT_DOUBLE_EQ(two.value("max_compute_power_w"), 32 * 86.0 + 6 * 30) << offset;
    EXPECT_TRUE(std::isnan(two.value("max_total_power_w")));  // no cooling model (no room)
    const Report three = run_simulation(parm_nodes({{0, 100, 4}, {50, 250, 2}, {400, 10, 30}}, offset)).report;
    EXPECT_DOUBLE_EQ(three.value("max_compute_power_w"), 32 * 86.0 + 30 * 30) << offset;
  }
}

TEST(NodeRuns, ConsecutiveAscendingIdsAreWrittenAsRanges) {
  EXPECT_EQ(runs_text(std::vector<std::int32_t>{0, 1, 2, 7, 5, 6}), "0-2 7 5-6");
  EXPECT_EQ(runs_text(std::vector<std::int32_t>{5, 4, 3}), "5 4 3");  // task order is kept
  EXPECT_EQ(runs_text(std::vector<std::int32_t>{4, 5}), "4-5");
  EXPECT_EQ(runs_text(std::vector<std::int32_t>{}), "");
  std::vector<std::int32_t> many;
  for (std::int32_t n = 0; n <= 118; ++n) many.push_back(n);
  for (std::int32_t n = 200; n <= 210; ++n) many.push_back(n);
  many.push_back(512);
  EXPECT_EQ(runs_text(many), "0-118 200-210 512");  // INTERFACE.md's example
  EXPECT_EQ(parse_runs_text("0-118 200-210 512"), many);
  EXPECT_THROW(parse_runs_text("3-1"), std::invalid_argument);
  EXPECT_THROW(parse_runs_text("a"), std::invalid_argument);
}

TEST(JobEvents, RowsGiveEachJobsNodesCapAndPower) {
  const Scenario s = parm_nodes({{0, 100, 4}, {50, 250, 2}}, 0);
  const auto power = make_node_power(s.params, s.platform, s.key);
  JobEventLog events(s.platform, power.get());
  SimObserver* extra[] = {&events};
  run_simulation(s, {}, false, extra);
  EXPECT_EQ(events.rows(),
            "0,start,1,4,0-3,60,464\n"
            "50,start,2,2,4-5,60,232\n"
            "100,end,1,4,0-3,60,0\n"
            "300,end,2,2,4-5,60,0\n");
}

TEST(WallLimit, AnExpiredLimitStopsTheRunWithItsReasonAndNoLimitChangesNothing) {
  const Scenario s = parm_nodes({{0, 100, 4}, {50, 250, 2}, {400, 10, 30}}, 0);
  WallLimit expired{1e-9};
  expired.start -= std::chrono::seconds(1);
  try {
    run_simulation(s, {}, false, {}, expired);
    FAIL() << "no time limit reached";
  } catch (const SimulationError& e) {
    EXPECT_STREQ(e.what(), "time limit of 1e-09 s reached at simulated time 0");
  }
  const Report limited = run_simulation(s, {}, false, {}, WallLimit{3600}).report;
  const Report free = run_simulation(s).report;
  for (const Metric& m : free.metrics) {
    if (!std::isnan(m.value)) {
      EXPECT_EQ(limited.value(m.name), m.value) << m.name;
    }
  }
}

}  // namespace
}  // namespace dcsweep
