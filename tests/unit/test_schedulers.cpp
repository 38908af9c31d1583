// Hand-worked schedules: each comment gives the reasoning the expected start times follow from.
#include <gtest/gtest.h>

#include "dcsweep/core/error.hpp"
#include "scenario_builder.hpp"

namespace dcsweep {
namespace {

using test::scenario;
using test::starts;
using V = std::vector<double>;

// 4 nodes. J1 (2 nodes, 0-10) runs; J2 needs all 4; J3 (1 node, 2 s) arrives at 1.
const std::vector<test::JobSpec> kBlockedHead = {{1, 0, 2, 10}, {2, 0, 4, 5}, {3, 1, 1, 2}};

TEST(Fcfs, StrictOrderLeavesNodesIdle) {
  // J2 waits for J1's end at 10; J3 may not pass it, so it starts when J2 ends at 15.
  const auto r = simulate(scenario(4, "fcfs", kBlockedHead));
  EXPECT_EQ(starts(r), (V{0, 10, 15}));
  EXPECT_EQ(r.jobs[2].end_s, 17);
}

TEST(Easy, BackfillsAJobThatEndsBeforeTheShadowTime) {
  // J2's reservation: shadow 10 (J1's estimated end), extra 0. J3 ends by 3 <= 10: backfilled at 1.
  const auto r = simulate(scenario(4, "easy", kBlockedHead));
  EXPECT_EQ(starts(r), (V{0, 10, 1}));
}

TEST(Easy, DoesNotBackfillAJobThatWouldDelayTheHead) {
  // J3 requests 20 s (runs 2): estimated end 21 > shadow 10 and 1 node > extra 0, so it waits;
  // J2 takes all 4 nodes at 10, J3 starts at J2's end, 15.
  auto jobs = kBlockedHead;
  jobs[2].estimate_s = 20;
  EXPECT_EQ(starts(simulate(scenario(4, "easy", jobs))), (V{0, 10, 15}));
}

TEST(Easy, LongJobsUseOnlyTheExtraNodes) {
  // 6 nodes. J1 (4 nodes, 0-10); head J2 needs 4: shadow 10, free then 2 + 4 = 6, extra 2.
  // J3 (2 nodes, long) takes the 2 extra nodes at 1; J4 (1 node) finds no free node. At 10 J2
  // starts on J1's nodes, leaving none free, so J4 starts when J2 ends at 15.
  const auto r = simulate(scenario(6, "easy", {{1, 0, 4, 10}, {2, 0, 4, 5}, {3, 1, 2, 100}, {4, 2, 1, 100}}));
  EXPECT_EQ(starts(r), (V{0, 10, 1, 15}));
}

TEST(Easy, ThirdLongJobIsRefusedOnceExtraNodesAreUsedUp) {
  // 9 nodes. J1 (6 nodes, 0-10); head J2 needs 7: shadow 10, free then 3 + 6 = 9, extra 2.
  // J3, J4 (1 node, long) consume both extra nodes; J5 (1 node, long) fits now (1 node is
  // free) but would take one of the head's: refused, it starts at J2's end 15.
  const auto r = simulate(scenario(9, "easy",
                                   {{1, 0, 6, 10}, {2, 0, 7, 5}, {3, 1, 1, 100}, {4, 2, 1, 100}, {5, 3, 1, 100}}));
  EXPECT_EQ(starts(r), (V{0, 10, 1, 2, 15}));
}

TEST(Easy, ShadowCountsEveryJobEndingAtTheShadowTime) {
  // 4 nodes. J1 and J2 (1 node each) both end at 10, J3 (1 node) at 20; 1 node is free. Head J4
  // needs 2: shadow 10, and at 10 both J1 and J2 free their nodes: free 1 + 2 = 3, extra 1
  // (stopping at J1 would give extra 0). So J5 (1 node, long) may use the extra node at 1.
  const auto r = simulate(
      scenario(4, "easy", {{1, 0, 1, 10}, {2, 0, 1, 10}, {3, 0, 1, 20}, {4, 0, 2, 5}, {5, 1, 1, 100}}));
  EXPECT_EQ(starts(r), (V{0, 0, 0, 10, 1}));
}

TEST(Easy, ReservationUsesEstimatesNotRuntimes) {
  // J1 requests 30 but ends at 10: the head J2's shadow is 30 by estimate. J3 (estimate 25,
  // ends by 26 <= 30) is backfilled at 1 even though J2 can really start at 10; J2 then waits
  // for J3 (ends at 1 + 5 = 6) and J1 (10) and starts at 10.
  const auto r = simulate(scenario(4, "easy", {{1, 0, 2, 10, 30}, {2, 0, 4, 5}, {3, 1, 2, 5, 25}}));
  EXPECT_EQ(starts(r), (V{0, 10, 1}));
}

TEST(Ties, EndsBeforeArrivalsAtTheSameTime) {
  // J1 ends at 10 exactly when J2 arrives: J2 sees the freed nodes and starts at 10.
  for (const char* policy : {"fcfs", "easy"}) {
    const auto r = simulate(scenario(2, policy, {{1, 0, 2, 10}, {2, 10, 2, 5}}));
    EXPECT_EQ(starts(r), (V{0, 10})) << policy;
  }
}

TEST(Ties, SimultaneousArrivalsQueueByJobId) {
  // One node. J1 runs 0-4; J3 and J2 arrive together at 2 (workloads are sorted by submit, then
  // id, so J2 comes first): J2 at 4, J3 at 7.
  for (const char* policy : {"fcfs", "easy"}) {
    const auto r = simulate(scenario(1, policy, {{1, 0, 1, 4}, {2, 2, 1, 3}, {3, 2, 1, 1}}));
    EXPECT_EQ(starts(r), (V{0, 4, 7})) << policy;
  }
}

TEST(Kill, RuntimeAboveRequestIsKilledAtTheRequest) {
  const auto r = simulate(scenario(1, "easy", {{1, 0, 1, 50, 20}, {2, 0, 1, 5}}));
  EXPECT_TRUE(r.jobs[0].killed);
  EXPECT_EQ(r.jobs[0].end_s, 20);
  EXPECT_EQ(r.jobs[1].start_s, 20);
  EXPECT_EQ(r.report.value("jobs_killed"), 1);
  EXPECT_EQ(r.report.value("jobs_completed"), 1);
}

TEST(Engine, AJobNoAllocatorCanPlaceIsASimulationError) {
  // A 3-node job on a 2-node platform can only come from a hand-built workload (the builders
  // reject it); the engine must report it rather than loop or drop it.
  EXPECT_THROW(simulate(scenario(2, "fcfs", {{1, 0, 3, 1}})), SimulationError);
}

}  // namespace
}  // namespace dcsweep
