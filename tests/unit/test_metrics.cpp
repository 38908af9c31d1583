#include <gtest/gtest.h>

#include <cmath>

#include "scenario_builder.hpp"

namespace dcsweep {
namespace {

TEST(Metrics, WorkedExample) {
  // FCFS on 4 nodes: J1 (2 nodes) 0-10, J2 (4 nodes, submitted 0) 10-15, J3 (1 node, submitted 1)
  // 15-17. Waits 0, 10, 14; turnarounds 10, 15, 16; bounded slowdowns 10/10 = 1, 15/10 = 1.5,
  // 16/10 = 1.6; node-seconds 20 + 20 + 2 = 42 over 4 x 17.
  const auto r = simulate(test::scenario(4, "fcfs", {{1, 0, 2, 10}, {2, 0, 4, 5}, {3, 1, 1, 2}}));
  const Report& m = r.report;
  EXPECT_EQ(m.value("jobs_completed"), 3);
  EXPECT_EQ(m.value("jobs_killed"), 0);
  EXPECT_EQ(m.value("jobs_rejected"), 0);
  EXPECT_EQ(m.value("makespan_s"), 17);
  EXPECT_DOUBLE_EQ(m.value("avg_wait_s"), 8);
  EXPECT_EQ(m.value("max_wait_s"), 14);
  EXPECT_DOUBLE_EQ(m.value("avg_turnaround_s"), 41.0 / 3);
  EXPECT_DOUBLE_EQ(m.value("avg_bounded_slowdown"), 4.1 / 3);
  EXPECT_DOUBLE_EQ(m.value("utilization"), 42.0 / 68);
}

TEST(Metrics, NothingRanMeansNaNNotZero) {
  const auto r = simulate(test::scenario(4, "easy", {}));
  EXPECT_EQ(r.report.value("jobs_completed"), 0);
  EXPECT_TRUE(std::isnan(r.report.value("makespan_s")));
  EXPECT_TRUE(std::isnan(r.report.value("avg_wait_s")));
  EXPECT_TRUE(std::isnan(r.report.value("utilization")));
}

TEST(Metrics, UnitsAreDeclared) {
  const auto r = simulate(test::scenario(1, "easy", {{1, 0, 1, 1}}));
  for (const Metric& m : r.report.metrics) {
    if (m.name.ends_with("_s")) {
      EXPECT_EQ(m.unit, "s") << m.name;
    }
  }
}

}  // namespace
}  // namespace dcsweep
