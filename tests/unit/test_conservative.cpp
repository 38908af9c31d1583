// Conservative backfilling (INTERFACE.md): hand-worked schedules, and an independent replay of a
// real trace that must agree on 100% of the start times.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "backfill_replay.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "scenario_builder.hpp"
#include "sched/reservation_plan.hpp"

namespace dcsweep {
namespace {

using test::scenario;
using test::starts;
using V = std::vector<double>;

TEST(Conservative, BackfillsWhatDelaysNoReservation) {
  // 4 nodes. J1 (2 nodes, 0-10); J2 (4 nodes) reserved at 10-15; J3 (1 node, 2 s) arriving at 1
  // fits in [1, 3) beside J1: it starts at once.
  const auto r = simulate(scenario(4, "conservative", {{1, 0, 2, 10}, {2, 0, 4, 5}, {3, 1, 1, 2}}));
  EXPECT_EQ(starts(r), (V{0, 10, 1}));
}

TEST(Conservative, ProtectsEveryWaitingJobNotOnlyTheHead) {
  // 10 nodes. J1 (6 nodes, 0-10). J2 (8 nodes, 10 s) is reserved at [10, 20), J3 (all 10 nodes,
  // 10 s) at [20, 30). J4 (2 nodes, 30 s) arrives at 1: over [1, 31) it would take 2 of J3's
  // nodes, so it waits for J3's end: 30. EASY protects only the head: J4 ends after the shadow
  // time 10 but fits the 2 extra nodes, starts at 1, and J3 is pushed to J4's end, 31.
  const std::vector<test::JobSpec> jobs = {{1, 0, 6, 10}, {2, 0, 8, 10}, {3, 0, 10, 10}, {4, 1, 2, 30}};
  EXPECT_EQ(starts(simulate(scenario(10, "conservative", jobs))), (V{0, 10, 20, 30}));
  EXPECT_EQ(starts(simulate(scenario(10, "easy", jobs))), (V{0, 10, 31, 1}));
}

TEST(Conservative, ReplansWhenAJobEndsEarly) {
  // 2 nodes. J1 (2 nodes, runs 5, requests 10); J2 (2 nodes) reserved at 10 by the estimate; J1
  // ends at 5, the plan is made again and J2 starts at 5.
  const auto r = simulate(scenario(2, "conservative", {{1, 0, 2, 5, 10}, {2, 1, 2, 5}}));
  EXPECT_EQ(starts(r), (V{0, 5}));
}

/// Arrival order: workload positions.
std::function<bool(std::size_t, std::size_t)> arrival_order(const Scenario&) { return std::less<std::size_t>(); }

TEST(Conservative, IndependentReplayOfARealTraceAgreesOnEveryStart) {
  // 1,000 SDSC-SP2 jobs at twice their arrival rate: long queues, many reservations.
  const test::ReplayAgreement a = test::replay_agreement(
      test::trace_selection("SDSC-SP2-1998-4.2-cln.swf.gz", 0, 1000, 0.5, "conservative"), arrival_order);
  EXPECT_EQ(a.same, a.jobs);
  EXPECT_GT(a.waited, a.jobs / 4);
}

TEST(Conservative, IndependentReplayAgreesWhereMostOfThePlanIsKeptAcrossJobEnds) {
  // 1,200 CTC-SP2 jobs (430 nodes) at twice their arrival rate: hundreds wait, and most passes
  // after a job end keep most of the plan by the bounds of the third shortcut
  // (reservation_plan.hpp), some patching the kept profile, some looking again.
  const test::ReplayAgreement a = test::replay_agreement(
      test::trace_selection("CTC-SP2-1996-3.1-cln.swf.gz", 0, 1200, 0.5, "conservative"), arrival_order);
  EXPECT_EQ(a.same, a.jobs);
  EXPECT_GT(a.waited, a.jobs / 2);
}

TEST(Conservative, IndependentReplayOfAWholeTraceAgreesOnEveryStart) {
  // All 28,467 simulated KTH-SP2 jobs (about half of them wait): every pass of the scheduler,
  // with its shortcuts (plans kept across arrivals, passes stopped early), against the replay.
  const test::ReplayAgreement a = test::replay_agreement(
      test::trace_selection("KTH-SP2-1996-2.1-cln.swf", 0, 0, 1.0, "conservative"), arrival_order);
  EXPECT_EQ(a.jobs, 28467u);
  EXPECT_EQ(a.same, a.jobs);
  EXPECT_GT(a.waited, a.jobs / 4);
}

TEST(Conservative, ARefusedStartIsReservedWhereTheProfileChangesWhateverStepsItHolds) {
  // A start refused now (the allocation's runtime made the estimate too long) is reserved at the
  // earliest later start. 5 nodes free, 3 of them taken over [10, 20): a 4-node job of 3 s gets
  // 20, also when the profile holds a step at 5 that changes nothing (kept profiles do; a
  // profile made afresh does not), which a search from "the next step" would take.
  detail::Profile plain, split;
  plain.reset(0, 5);
  plain.add(10, 20, -3);
  split.reset(0, 5);
  split.add(10, 20, -3);
  split.split(5);
  ASSERT_EQ(split.size(), plain.size() + 1);
  for (const detail::Profile* p : {&plain, &split}) {
    const std::size_t at = p->earliest(4, 3, p->next_change(0));
    ASSERT_LT(at, p->size());
    EXPECT_EQ(p->time(at), 20);
  }
  EXPECT_EQ(split.time(split.earliest(4, 3, 1)), 5);  // the old search: it depended on the steps
}

/// Conservative backfilling that compares, at every pass that plans, the running jobs' profile it
/// keeps up to date between passes with one made afresh from the engine's running set.
class CheckedConservative final : public detail::PlanningScheduler {
 public:
  void submit(JobIndex index, const SchedulingContext&) override {
    queue_.push(index);
    inserted(queue_.size() - 1, index);
  }
  std::int64_t checked = 0, differed = 0;

 protected:
  void running_tracked(const detail::Profile& running, const SchedulingContext& ctx, bool rebuilt) override {
    if (rebuilt) return;  // made from the running set: nothing to compare
    detail::Profile fresh;
    fresh.rebuild(ctx.now(), ctx.free_nodes(), ctx);
    ++checked;
    differed += !running.same_steps(fresh);
  }
};

TEST(Conservative, TheRunningProfileKeptBetweenPassesIsTheEngineRunningSet) {
  // Whole KTH-SP2, with jobs ending early (most do) and idle nodes switched off and booted
  // (120 s): the profile brought up to date from what the engine reports (jobs ended, heads
  // started, the free count's change) must equal the one made from its running set, every pass.
  std::vector<V> runs;
  for (const bool idle_off : {false, true}) {
    ParamSet p = test::trace_selection("KTH-SP2-1996-2.1-cln.swf", 0, 0, 1.0, "conservative");
    p.set("idle_nodes_off", idle_off);
    p.set("node_boot_s", 120.0);
    const Scenario s = make_scenario(p);
    CheckedConservative checked;
    const SimulationResult r = simulate(s, SimulationOptions{.scheduler = &checked});
    EXPECT_GT(checked.checked, 20000) << idle_off;  // passes that brought it up to date
    EXPECT_EQ(checked.differed, 0) << idle_off;
    // The same scheduler as the registered one: the same starts.
    const SimulationResult registered = simulate(s);
    EXPECT_EQ(starts(r), starts(registered)) << idle_off;
    runs.push_back(starts(r));
  }
  EXPECT_NE(runs[0], runs[1]);  // the boots delayed jobs: nodes did go off and on
}

/// Conservative backfilling with or without its fourth shortcut (jobs started ahead of the plan)
/// and with or without the running jobs' profile kept between passes; counts the jobs started
/// ahead.
class VariantConservative final : public detail::PlanningScheduler {
 public:
  VariantConservative(bool start_ahead, bool keep) : ahead_on_(start_ahead), keep_(keep) {}
  void submit(JobIndex index, const SchedulingContext&) override {
    queue_.push(index);
    inserted(queue_.size() - 1, index);
  }
  std::int64_t ahead = 0, planned_between = 0;

 protected:
  bool starts_ahead() const override { return ahead_on_; }
  bool keeps_running() const override { return keep_; }
  void started_ahead(JobIndex, bool between) override {
    ++ahead;
    planned_between += between;
  }

 private:
  bool ahead_on_, keep_;
};

TEST(Conservative, StartingAheadOfThePlanChangesNoStart) {
  // The fourth shortcut (reservation_plan.hpp) starts a job found to fit now without planning the
  // jobs before it when they cannot keep it from fitting, planning them later if a look needs
  // it. The starts must be those of the planner without it: on a real trace, and under meng_tau
  // with noise, where allocations stretch estimates past the bound, some starts are refused and
  // the random allocator draws at every try.
  struct Case {
    const char* trace;
    const char* runtime_model;
    const char* allocator;
  };
  for (const Case& c : {Case{"SDSC-SP2-1998-4.2-cln.swf.gz", "trace", "first_fit"},
                        Case{"KTH-SP2-1996-2.1-cln.swf", "meng_tau", "random"},
                        Case{"NASA-iPSC-1993-3.1-cln.swf", "meng_tau", "mc1x1"}}) {
    ParamSet p = test::trace_selection(c.trace, 0, 5000, 0.4, "conservative");
    if (std::string(c.runtime_model) == "meng_tau") {
      p.set("platform", std::string("meng40"));
      p.set("scale_to_platform", true);
      p.set("runtime_model", std::string("meng_tau"));
      p.set("meng_tau_noise", 1.0);
    }
    p.set("allocator", std::string(c.allocator));
    const Scenario s = make_scenario(p);
    VariantConservative plain(false, true), counted(true, true);
    const SimulationResult expected = simulate(s, SimulationOptions{.scheduler = &plain});
    const SimulationResult r = simulate(s, SimulationOptions{.scheduler = &counted});
    EXPECT_EQ(starts(r), starts(expected)) << c.trace;
    EXPECT_EQ(starts(simulate(s)), starts(r)) << c.trace;  // the registered scheduler is this one
    EXPECT_GT(counted.ahead, 100) << c.trace;
    if (std::string(c.runtime_model) == "meng_tau") {
      EXPECT_GT(counted.planned_between, 0) << c.trace;  // the estimate of the allocation undid the bound
    }
    std::size_t waited = 0;  // long queues: the shortcut's ground
    for (std::size_t j = 0; j < r.jobs.size(); ++j) waited += r.jobs[j].start_s > s.workload.jobs[j].submit_s;
    EXPECT_GT(waited, r.jobs.size() / 4) << c.trace;
  }
}

TEST(Conservative, TheStartsDoNotDependOnHowTheRunningProfileIsKept) {
  // Under meng_tau with noise, allocations stretch estimates and the engine refuses starts; a
  // refused job's reservation must not depend on the steps that change nothing which a profile
  // kept between passes holds and one made afresh does not.
  ParamSet p = test::trace_selection("NASA-iPSC-1993-3.1-cln.swf", 0, 6000, 0.3, "conservative");
  p.set("platform", std::string("meng40"));
  p.set("scale_to_platform", true);
  p.set("runtime_model", std::string("meng_tau"));
  p.set("meng_tau_noise", 0.5);
  p.set("allocator", std::string("mc1x1"));
  const Scenario s = make_scenario(p);
  VariantConservative kept(true, true), afresh(true, false);
  const SimulationResult a = simulate(s, SimulationOptions{.scheduler = &kept});
  const SimulationResult b = simulate(s, SimulationOptions{.scheduler = &afresh});
  EXPECT_EQ(starts(a), starts(b));
}

}  // namespace
}  // namespace dcsweep
