// Earliest deadline first ([P4] Algorithm 1) and the deadline_misses metric: hand-worked
// schedules, each comment giving the reasoning the expected times follow from.
#include <gtest/gtest.h>

#include <functional>

#include "backfill_replay.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "scenario_builder.hpp"

namespace dcsweep {
namespace {

using Starts = std::vector<double>;

/// The start times of `jobs` on `nodes` nodes under `scheduler`.
Starts starts_under(const std::string& scheduler, std::int32_t nodes, const std::vector<test::JobSpec>& jobs) {
  return test::starts(simulate(test::scenario(nodes, scheduler, jobs)));
}

// 2 nodes, all taken by J1 (0-10). J2 (2 nodes, 100 s) arrives at 1: deadline 1 + 100 = 101;
// J3 (2 nodes, 5 s) arrives at 2: deadline 2 + 5 = 7.
const std::vector<test::JobSpec> kLateUrgentJob = {{1, 0, 2, 10}, {2, 1, 2, 100}, {3, 2, 2, 5}};

/// deadline_misses of kLateUrgentJob under `scheduler` with `deadline_factor`.
double misses(const std::string& scheduler, double deadline_factor) {
  Scenario s = test::scenario(2, scheduler, kLateUrgentJob);
  s.params.set("deadline_factor", deadline_factor);
  return simulate(s).report.value("deadline_misses");
}

TEST(Edf, ALaterArrivalWithAnEarlierDeadlineStartsFirst) {
  // At 10 J3 (deadline 7) goes before J2 (deadline 101): J3 10-15, J2 15-115. Arrival order
  // (conservative) runs J2 first.
  EXPECT_EQ(starts_under("edf", 2, kLateUrgentJob), (Starts{0, 15, 10}));
  EXPECT_EQ(starts_under("conservative", 2, kLateUrgentJob), (Starts{0, 10, 110}));
}

TEST(Edf, BackfillsTheOpeningInDeadlineOrder) {
  // 4 nodes. J1 (2 nodes, 0-10). At 1 arrive J2 (4 nodes, 5 s, deadline 6), J3 (2 nodes, 8 s,
  // deadline 9) and J4 (2 nodes, 6 s, deadline 7). Deadline order J2, J4, J3: J2 is reserved at
  // 10-15; J4 takes the opening of 2 nodes until 10 (1-7); J3 would fit the opening at 1 but J4
  // came first, and from 7 it would run into J2's reservation, so it goes after J2: 15. In arrival
  // order (conservative) J3 takes the opening and J4 waits for J2.
  const std::vector<test::JobSpec> jobs = {{1, 0, 2, 10}, {2, 1, 4, 5}, {3, 1, 2, 8}, {4, 1, 2, 6}};
  EXPECT_EQ(starts_under("edf", 4, jobs), (Starts{0, 10, 15, 1}));
  EXPECT_EQ(starts_under("conservative", 4, jobs), (Starts{0, 10, 1, 15}));
}

TEST(Edf, DeadlineTiesGoBySubmitTimeThenJobId) {
  // One node, J1 runs 0-10. J2 (submit 2, 8 s), J3 and J4 (submit 4, 6 s) all have deadline 10:
  // J2 submitted first runs 10-18, then J3 (lower id) 18-24, then J4.
  EXPECT_EQ(starts_under("edf", 1, {{1, 0, 1, 10}, {2, 2, 1, 8}, {3, 4, 1, 6}, {4, 4, 1, 6}}), (Starts{0, 10, 18, 24}));
}

TEST(Edf, DeadlinesComeFromRequestsNotRuntimes) {
  // 1 node. J1 runs 0-10. J2 (submit 1) requests 30 s, runs 2 s: deadline 31. J3 (submit 2)
  // requests and runs 20 s: deadline 22, so J3 goes first (10-30) although J2 is shorter; J2 30-32.
  EXPECT_EQ(starts_under("edf", 1, {{1, 0, 1, 10}, {2, 1, 1, 2, 30}, {3, 2, 1, 20}}), (Starts{0, 30, 10}));
}

TEST(DeadlineMisses, CountedByHandForEveryScheduler) {
  // edf: J1 0-10, J3 10-15, J2 15-115; fcfs: J1 0-10, J2 10-110, J3 110-115. A job misses when
  // it ends after submit + factor x request (ending on the deadline is in time). Factor 1:
  // deadlines 10, 101, 7; factor 2: 20, 201, 12; factor 3: 30, 301, 17.
  EXPECT_EQ(misses("edf", 1), 2);
  EXPECT_EQ(misses("edf", 2), 1);
  EXPECT_EQ(misses("edf", 3), 0);
  EXPECT_EQ(misses("fcfs", 1), 2);
  EXPECT_EQ(misses("fcfs", 2), 1);
  EXPECT_EQ(misses("fcfs", 3), 1);  // J3 ends at 115, after 17
}

TEST(DeadlineMisses, UseTheRequestedTime) {
  // 1 node, fcfs. J2 waits for J1 (0-10) and runs 10-15; its deadline is 0 + its request 20, not
  // 0 + its runtime 5: in time.
  const auto r = simulate(test::scenario(1, "fcfs", {{1, 0, 1, 10}, {2, 0, 1, 5, 20}}));
  EXPECT_EQ(r.report.value("deadline_misses"), 0);
}

ParamSet trace_params(const std::string& trace, const std::string& scheduler) {
  ParamSet p(simulation_catalog());
  p.set("trace", std::string(DCSWEEP_TRACES_DIR) + "/" + trace);
  p.set("scheduler", scheduler);
  return p;
}

TEST(Edf, ATraceWithoutRequestedTimesIsBadInput) {
  // NASA-iPSC records no requested time (field 9 is -1 throughout): its deadlines would be
  // runtimes. 18,066 of its 18,239 records are simulated (the others never ran).
  const std::string trace = "NASA-iPSC-1993-3.1-cln.swf";
  try {
    make_scenario(trace_params(trace, "edf"));
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "scheduler 'edf' needs requested times (SWF field 9) for its deadlines: 18066 of "
              "18066 jobs of " DCSWEEP_TRACES_DIR "/" +
                  trace + " have none (first: job 1)");
  }
  EXPECT_NO_THROW(make_scenario(trace_params(trace, "easy")));  // other schedulers use the runtime
}

TEST(Edf, CountsOnlyTheSimulatedJobsWithoutARequest) {
  // SDSC-SP2: 35 jobs that ran have no request, the first 51228; of the 100 records from there,
  // 7 never ran (rejected) and 2 of the 93 others have none.
  const std::string trace = "SDSC-SP2-1998-4.2-cln.swf.gz";
  const MissingRequests whole = missing_requests(make_scenario(trace_params(trace, "easy")).workload);
  EXPECT_EQ(whole.count, 35u);
  EXPECT_EQ(whole.first_id, 51228);
  ParamSet p = trace_params(trace, "edf");
  p.set("first_job", std::int64_t{51228});
  p.set("jobs", std::int64_t{100});
  try {
    make_scenario(p);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(": 2 of 93 jobs of "), std::string::npos) << e.what();
  }
}

/// Deadline order, from the workload alone: submit + factor x request, ties by position (submit
/// time, then job id).
std::function<bool(std::size_t, std::size_t)> deadline_order(const Scenario& s) {
  const double factor = s.params.real("deadline_factor");
  return [&jobs = s.workload.jobs, factor](std::size_t a, std::size_t b) {
    const double da = jobs[a].submit_s + factor * jobs[a].estimate_s;
    const double db = jobs[b].submit_s + factor * jobs[b].estimate_s;
    return da != db ? da < db : a < b;
  };
}

TEST(Edf, IndependentReplayOfAWholeTraceAgreesOnEveryStart) {
  // All 28,467 simulated KTH-SP2 jobs, and 1,000 SDSC-SP2 jobs at twice their arrival rate with
  // deadlines at 3 x the request: the replay plans in deadline order from scratch at every event.
  const test::ReplayAgreement kth =
      test::replay_agreement(test::trace_selection("KTH-SP2-1996-2.1-cln.swf", 0, 0, 1.0, "edf"), deadline_order);
  EXPECT_EQ(kth.same, kth.jobs);
  EXPECT_GT(kth.waited, kth.jobs / 4);
  ParamSet p = test::trace_selection("SDSC-SP2-1998-4.2-cln.swf.gz", 0, 1000, 0.5, "edf");
  p.set("deadline_factor", 3.0);
  const test::ReplayAgreement sdsc = test::replay_agreement(p, deadline_order);
  EXPECT_EQ(sdsc.same, sdsc.jobs);
  EXPECT_GT(sdsc.waited, sdsc.jobs / 4);
}

TEST(Edf, PoissonJobsRequestTheirRuntime) {
  ParamSet p(simulation_catalog());
  p.set("workload", std::string("poisson"));
  p.set("platform", std::string("meng40"));
  p.set("node_power", std::string("none"));
  p.set("scheduler", std::string("edf"));
  const SimulationResult r = simulate(make_scenario(p));
  EXPECT_EQ(r.report.value("jobs_completed"), 40);
}

}  // namespace
}  // namespace dcsweep
