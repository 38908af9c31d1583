// The engine side of the policy interface (issue 8): jobs started in another configuration,
// resized, node power states, and the room view, each with its energy accounting worked by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <tuple>

#include "dcsweep/sched/scheduler.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "dcsweep/thermal/inlet_model.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

/// A scheduler that runs a script: at each pass, the action of the current time (if any),
/// otherwise it starts waiting jobs in order as the trace gives them.
class ScriptedScheduler final : public Scheduler {
 public:
  using Action = std::function<void(SchedulingContext&)>;
  std::map<double, Action> script;
  void submit(JobIndex index, const SchedulingContext&) override { queue_.push_back(index); }
  void schedule(SchedulingContext& ctx) override {
    if (auto it = script.find(ctx.now()); it != script.end()) it->second(ctx);
    std::erase_if(queue_, [&](JobIndex j) { return !std::isnan(started_at(ctx, j)) || ctx.start(j); });
  }
  std::size_t queued() const override { return queue_.size(); }
  /// Jobs the script started itself leave the queue too.
  static double started_at(const SchedulingContext& ctx, JobIndex j) {
    for (const EstimatedEnd& e : ctx.running()) {
      if (e.job == j) return 0;
    }
    return NAN;
  }

 private:
  std::vector<JobIndex> queue_;
};

/// A 4-node room (1 row, 1 rack) with [P2]'s node power: idle 30 + 18 + 38 = 86 W; running at
/// CPU cap c: c + 56 W (default cap 60: 116 W). Static cooling (the energies below are compute).
Scenario parm_room(const std::vector<Job>& jobs, std::map<std::string, double> extra = {}) {
  ParamSet p(simulation_catalog());
  p.set("platform", std::string("room"));
  test::set_room_layout(p, 1, 1, 4);
  p.set("node_power", std::string("parm"));
  p.set("cooling", std::string("static"));
  p.set("workload", std::string("poisson"));
  for (const auto& [name, value] : extra) p.set(name, value);
  Scenario s = make_scenario(p);
  s.workload.jobs = jobs;
  return s;
}

struct Outcome {
  SimulationResult result;
  double compute_j;
};

Outcome run(const Scenario& s, ScriptedScheduler& scheduler) {
  auto physics = make_datacenter_model(s);
  SimObserver* observers[] = {physics.get()};
  SimulationOptions options{observers, physics.get()};
  options.scheduler = &scheduler;
  SimulationResult r = simulate(s, options);
  return {r, r.report.value("compute_energy_j")};
}

TEST(PolicyInterface, StartInAnotherConfigurationScalesRuntimeEstimateAndPower) {
  // A 4-node job of 100 s (request 200 s) started on 2 nodes at a 40 W CPU cap: linear speedup
  // doubles its runtime (200 s) and its estimate (400 s); each of its nodes draws 96 W.
  const Scenario s = parm_room({{1, 0, 100, 200, 4}});
  ScriptedScheduler sched;
  double estimated_end = NAN;
  sched.script[0] = [&](SchedulingContext& ctx) {
    ASSERT_TRUE(ctx.start(0, JobConfig{.nodes = 2, .cpu_cap_w = 40}));
    estimated_end = ctx.running().begin()->time_s;
    EXPECT_EQ(ctx.config(0).nodes, 2);
    EXPECT_EQ(ctx.machine().free_count(), 2);
  };
  const Outcome r = run(s, sched);
  EXPECT_DOUBLE_EQ(estimated_end, 400);
  EXPECT_DOUBLE_EQ(r.result.jobs[0].end_s, 200);
  EXPECT_FALSE(r.result.jobs[0].killed);
  EXPECT_DOUBLE_EQ(r.result.jobs[0].node_seconds, 400);
  EXPECT_DOUBLE_EQ(r.result.jobs[0].stretch, 2);
  // idle 4 x 86 W x 200 s + 2 nodes x (96 - 86) W x 200 s
  EXPECT_NEAR(r.compute_j, 4 * 86.0 * 200 + 2 * 10.0 * 200, 1e-6);
  EXPECT_DOUBLE_EQ(r.result.report.value("utilization"), 400.0 / (4 * 200));
}

TEST(PolicyInterface, ResizeRescalesTheRemainingWorkAndAccountsEachPhase) {
  // Job 0: 4 nodes, 100 s. At t = 50 (job 1 arrives: 1 node, 10 s) job 0 shrinks to 2 nodes with
  // 10 s of reconfiguration: 50 s of work left at half speed from t = 60, so it ends at 160.
  const Scenario s = parm_room({{1, 0, 100, 100, 4}, {2, 50, 10, 10, 1}});
  ScriptedScheduler sched;
  sched.script[50] = [](SchedulingContext& ctx) {
    ASSERT_TRUE(ctx.resize(0, 2, 10.0));
    EXPECT_EQ(ctx.machine().free_count(), 2);
    EXPECT_DOUBLE_EQ(ctx.running().begin()->time_s, 160);  // the estimate moved with it
    EXPECT_FALSE(ctx.resize(0, 5, 0));                      // 3 more nodes: only 2 are free
  };
  const Outcome r = run(s, sched);
  const JobOutcome& o = r.result.jobs[0];
  EXPECT_DOUBLE_EQ(o.end_s, 160);
  EXPECT_DOUBLE_EQ(o.node_seconds, 4 * 50 + 2 * 110);
  EXPECT_DOUBLE_EQ(r.result.jobs[1].start_s, 50);  // on a node the shrink freed
  // busy 116 - 86 = 30 W per node: 4 x 50 s + 2 x 110 s for job 0, 1 x 10 s for job 1;
  // idle 4 x 86 W over the run's 160 s.
  EXPECT_NEAR(r.compute_j, 4 * 86.0 * 160 + 30.0 * (4 * 50 + 2 * 110 + 10), 1e-6);
}

TEST(PolicyInterface, GrowingAJobTakesNodesFromTheAllocator) {
  const Scenario s = parm_room({{1, 0, 100, 100, 1}, {2, 20, 10, 10, 1}});
  ScriptedScheduler sched;
  sched.script[20] = [](SchedulingContext& ctx) { ASSERT_TRUE(ctx.resize(0, 2, 0)); };
  const Outcome r = run(s, sched);
  // 20 s on 1 node, then 80 s of work at twice the speed: ends at 20 + 40 = 60.
  EXPECT_DOUBLE_EQ(r.result.jobs[0].end_s, 60);
  EXPECT_DOUBLE_EQ(r.result.jobs[0].node_seconds, 1 * 20 + 2 * 40);
  EXPECT_DOUBLE_EQ(r.result.jobs[1].start_s, 20);
}

TEST(PolicyInterface, NodePowerStatesOffBootingOnWithExactEnergy) {
  // Off nodes draw 5 W; a boot takes 20 s and 2,000 J (100 W). Job A (1 node, 100 s) at t = 0,
  // nodes 2 and 3 switched off at 0; job B (1 node, 10 s) arrives at 50, when node 3 boots.
  const Scenario s = parm_room({{1, 0, 100, 100, 1}, {2, 50, 10, 10, 1}},
                               {{"node_off_power_w", 5.0}, {"node_boot_s", 20.0}, {"node_boot_energy_j", 2000.0}});
  ScriptedScheduler sched;
  std::vector<std::int32_t> free_seen;
  sched.script[0] = [&](SchedulingContext& ctx) {
    const NodeId off[] = {2, 3};
    EXPECT_FALSE(ctx.node_control().boot(off));  // not off yet
    ASSERT_TRUE(ctx.node_control().power_off(off));
    EXPECT_EQ(ctx.machine().off_count(), 2);
  };
  sched.script[50] = [&](SchedulingContext& ctx) {
    const NodeId three[] = {3};
    ASSERT_TRUE(ctx.node_control().boot(three));
    EXPECT_EQ(ctx.machine().state(3), NodeState::booting);
    free_seen.push_back(ctx.machine().free_count());
  };
  sched.script[70] = [&](SchedulingContext& ctx) {  // the boot's end is an event of its own
    EXPECT_EQ(ctx.machine().state(3), NodeState::on);
    free_seen.push_back(ctx.machine().free_count());
  };
  const Outcome r = run(s, sched);
  EXPECT_EQ(free_seen, (std::vector<std::int32_t>{1, 2}));  // at 50 (before B starts): node 1; at 70: 1 and 3
  // node 0: 116 W x 100 s; node 1: 86 W x 100 s + 30 W x 10 s (B); node 2: 5 W x 100 s;
  // node 3: 5 W x 50 s + 100 W x 20 s + 86 W x 30 s.
  EXPECT_NEAR(r.compute_j, 11600 + 8900 + 500 + (250 + 2000 + 2580), 1e-6);
}

TEST(PolicyInterface, BootEnergyWithoutABootTimeIsAnInputError) {
  const Scenario s = parm_room({{1, 0, 10, 10, 1}}, {{"node_boot_energy_j", 100.0}});
  ScriptedScheduler sched;
  EXPECT_THROW(run(s, sched), InputError);
}

/// Records what the room view shows at each allocation.
class ViewingAllocator final : public Allocator {
 public:
  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    zone_power.push_back(request.room.zone_power_w());
    rise.push_back(request.room.inlet_rise_k());
    supply.push_back(request.room.supply_c());
    request.machine.lowest_free(request.nodes, out);
    return true;
  }
  std::vector<Eigen::VectorXd> zone_power, rise;
  std::vector<double> supply;
};

/// Logs every placement observers are given (starts, ends, both sides of a resize) as its node
/// ids: from Placement::nodes if it reads ids (so the engine keeps them), else from
/// Placement::runs, expanded. Each entry: the event, the job, node_count, the ids.
class PlacementLog final : public SimObserver {
 public:
  explicit PlacementLog(bool ids) : ids_(ids) {}
  bool reads_node_ids() const override { return ids_; }
  void on_job_start(double, const Placement& p) override { log('s', p); }
  void on_job_end(double, const Placement& p, bool) override { log('e', p); }
  void on_job_resize(double, const Placement& before, const Placement& after) override {
    log('b', before);
    log('a', after);
  }
  std::vector<std::tuple<char, std::int64_t, std::int32_t, std::vector<NodeId>>> entries;
  std::int64_t both_given = 0;  ///< placements with ids and runs at once (never)

 private:
  void log(char event, const Placement& p) {
    std::vector<NodeId> ids(p.nodes.begin(), p.nodes.end());
    if (!ids_) append_ids(p.runs, ids);
    both_given += !p.nodes.empty() && !p.runs.empty();
    entries.emplace_back(event, p.job.id, p.node_count, std::move(ids));
  }
  bool ids_;
};

/// The scenario's allocator, counting which form the engine asks for: ids or runs.
class CountingAllocator final : public Allocator {
 public:
  explicit CountingAllocator(const Scenario& s)
      : inner_(allocator_registry().at(s.params.text("allocator")).make(BuildContext{s.params, s.key}, s.platform)) {}
  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    ++as_ids;
    return inner_->allocate(request, out);
  }
  bool allocate_runs(const AllocationRequest& request, std::vector<NodeRun>& out) override {
    ++as_runs;
    return inner_->allocate_runs(request, out);
  }
  int as_ids = 0, as_runs = 0;

 private:
  std::unique_ptr<Allocator> inner_;
};

/// Runs `s` twice, node sets kept as ids (an observer reads them) and as runs (none does), and
/// expects the same run: every job's times, node-seconds and final nodes, and every metric (with
/// `physics`, the data-center model's energies and temperatures too, to the bit).
void expect_runs_equal_ids(const Scenario& s, Scheduler* scheduler_ids = nullptr, Scheduler* scheduler_runs = nullptr,
                           bool physics = false) {
  PlacementLog log_ids(true), log_runs(false);
  const auto physics_ids = physics ? make_datacenter_model(s) : nullptr;
  const auto physics_runs = physics ? make_datacenter_model(s) : nullptr;
  std::vector<SimObserver*> with_ids{&log_ids}, with_runs{&log_runs};
  if (physics) with_ids.push_back(physics_ids.get()), with_runs.push_back(physics_runs.get());
  CountingAllocator allocator_ids(s), allocator_runs(s);
  SimulationOptions ids{with_ids, physics_ids.get(), true};
  ids.scheduler = scheduler_ids;
  ids.allocator = &allocator_ids;
  SimulationOptions runs{with_runs, physics_runs.get(), true};
  runs.scheduler = scheduler_runs;
  runs.allocator = &allocator_runs;
  const SimulationResult a = simulate(s, ids), b = simulate(s, runs);
  EXPECT_EQ(allocator_ids.as_runs, 0);  // each run took the form it was meant to
  EXPECT_GT(allocator_ids.as_ids, 0);
  EXPECT_EQ(allocator_runs.as_ids, 0);
  EXPECT_EQ(allocator_runs.as_runs, allocator_ids.as_ids);
  // Observers saw the same placements, event by event: the runs are the id lists' (with counts).
  ASSERT_FALSE(log_ids.entries.empty());
  EXPECT_EQ(log_ids.both_given + log_runs.both_given, 0);
  ASSERT_EQ(log_ids.entries.size(), log_runs.entries.size());
  for (std::size_t e = 0; e < log_ids.entries.size(); ++e) {
    ASSERT_EQ(log_ids.entries[e], log_runs.entries[e]) << "event " << e;
    ASSERT_EQ(std::int64_t(std::get<3>(log_ids.entries[e]).size()), std::get<2>(log_ids.entries[e])) << "event " << e;
  }
  ASSERT_EQ(a.jobs.size(), b.jobs.size());
  for (std::size_t j = 0; j < a.jobs.size(); ++j) {
    ASSERT_EQ(a.jobs[j].start_s, b.jobs[j].start_s) << j;
    ASSERT_EQ(a.jobs[j].end_s, b.jobs[j].end_s) << j;
    ASSERT_EQ(a.jobs[j].node_seconds, b.jobs[j].node_seconds) << j;
    ASSERT_EQ(a.nodes[j], b.nodes[j]) << j;
  }
  ASSERT_EQ(a.report.metrics.size(), b.report.metrics.size());
  if (physics) {
    EXPECT_GT(a.report.metrics.size(), 20u);  // the physics' metrics are in
  }
  for (std::size_t m = 0; m < a.report.metrics.size(); ++m) {
    const double x = a.report.metrics[m].value, y = b.report.metrics[m].value;
    EXPECT_TRUE(x == y || (std::isnan(x) && std::isnan(y))) << a.report.metrics[m].name << ": " << x << " vs " << y;
  }
}

TEST(PolicyInterface, NodeSetsKeptAsRunsGiveTheRunOfNodeIds) {
  // A busy intrepid (1,500 NASA jobs scaled onto 40,960 nodes, arrivals compressed) under EASY:
  // first fit (runs found directly), random and mc1x1 (their ids cut into runs, random's unsorted).
  for (const char* allocator : {"first_fit", "random", "mc1x1"}) {
    ParamSet p(simulation_catalog());
    p.set("platform", std::string("intrepid"));
    p.set("trace", std::string(DCSWEEP_TRACES_DIR) + "/NASA-iPSC-1993-3.1-cln.swf");
    p.set("scale_to_platform", true);
    p.set("jobs", std::int64_t{1500});
    p.set("gamma", 0.2);
    p.set("node_power", std::string("none"));
    p.set("allocator", std::string(allocator));
    SCOPED_TRACE(allocator);
    expect_runs_equal_ids(make_scenario(p));
    if (std::string(allocator) == "first_fit") {  // with [P2]'s node power: the physics reads runs
      p.set("node_power", std::string("parm"));
      expect_runs_equal_ids(make_scenario(p), nullptr, nullptr, true);
    }
  }
}

TEST(PolicyInterface, ResizedNodeSetsKeptAsRunsGiveTheRunOfNodeIds) {
  // Shrinks cut a run in two (job 0: 30 -> 17 nodes; job 2: 10 -> 1), grows append scattered
  // nodes (random allocator), a shrink after a grow drops the appended nodes first, on a 100-node
  // machine; one-node jobs arriving at the script's times make them event times.
  ParamSet p(simulation_catalog());
  p.set("platform", std::string("room"));
  test::set_room_layout(p, 1, 2, 50);
  p.set("node_power", std::string("none"));
  p.set("comm_cost_metrics", std::string("off"));  // CC_job would need the ids
  p.set("workload", std::string("poisson"));
  const std::vector<Job> jobs = {{1, 0, 100, 100, 30}, {2, 0, 100, 100, 20}, {3, 5, 50, 50, 10},
                                 {4, 10, 5, 5, 1},     {5, 20, 5, 5, 1},     {6, 30, 5, 5, 1},
                                 {7, 35, 5, 5, 1},     {8, 40, 30, 30, 25},  {9, 45, 5, 5, 1}};
  for (const char* allocator : {"first_fit", "random"}) {
    SCOPED_TRACE(allocator);
    p.set("allocator", std::string(allocator));
    Scenario s = make_scenario(p);
    s.workload.jobs = jobs;
    int resized = 0;
    const auto script = [&](ScriptedScheduler& sched) {
      const auto resize = [&](JobIndex j, std::int32_t n, double pause_s) {
        return [&resized, j, n, pause_s](SchedulingContext& ctx) {
          ASSERT_TRUE(ctx.resize(j, n, pause_s));
          ++resized;
        };
      };
      sched.script[10] = resize(0, 17, 2.0);
      sched.script[20] = resize(1, 45, 0.0);
      sched.script[30] = resize(1, 23, 1.0);
      sched.script[35] = resize(2, 1, 0.0);  // keeps 1 node of a run
      sched.script[45] = resize(0, 40, 0.0);
    };
    ScriptedScheduler a, b;
    script(a);
    script(b);
    expect_runs_equal_ids(s, &a, &b);
    EXPECT_EQ(resized, 10);
    // With the physics: [P2]'s node power, redline cooling on 100 zones (2 nodes each).
    ParamSet q = p;
    q.set("node_power", std::string("parm"));
    q.set("cooling", std::string("redline"));
    Scenario with_physics = make_scenario(q);
    with_physics.workload.jobs = jobs;
    ScriptedScheduler c, d;
    script(c);
    script(d);
    expect_runs_equal_ids(with_physics, &c, &d, true);
    EXPECT_EQ(resized, 20);
  }
}

TEST(PolicyInterface, RoomViewShowsThisMomentsChangesAndRisesAreDTimesPower) {
  // Two jobs start in one pass: the second allocation sees the first job's power and its rises.
  const Scenario s = parm_room({{1, 0, 100, 100, 1}, {2, 0, 100, 100, 2}});
  auto physics = make_datacenter_model(s);
  ScriptedScheduler sched;
  ViewingAllocator alloc;
  SimObserver* observers[] = {physics.get()};
  SimulationOptions options{observers, physics.get()};
  options.scheduler = &sched;
  options.allocator = &alloc;
  simulate(s, options);
  ASSERT_EQ(alloc.zone_power.size(), 2u);
  EXPECT_EQ(alloc.zone_power[0], Eigen::Vector4d(86, 86, 86, 86));
  EXPECT_EQ(alloc.zone_power[1], Eigen::Vector4d(116, 86, 86, 86));
  const Matrix d = physics->heat_distribution()->matrix();
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_LT((alloc.rise[k] - d * alloc.zone_power[k]).cwiseAbs().maxCoeff(), 1e-9) << k;
  }
  EXPECT_EQ(physics->zone_of(3), 3);
  EXPECT_DOUBLE_EQ(physics->busy_power_w(0, JobConfig{.cpu_cap_w = 44}), 100);
  EXPECT_DOUBLE_EQ(physics->idle_power_w(0), 86);
  EXPECT_DOUBLE_EQ(alloc.supply[0], s.params.real("supply_temp_c"));
}

}  // namespace
}  // namespace dcsweep
