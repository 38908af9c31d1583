// The schedule invariants, checked on every shipped trace under both schedulers.
#include <gtest/gtest.h>

#include <filesystem>

#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "invariants.hpp"

namespace dcsweep {
namespace {

std::vector<std::string> shipped_traces() {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(DCSWEEP_TRACES_DIR)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".swf") || name.ends_with(".swf.gz")) out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class ShippedTrace : public testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(ShippedTrace, ScheduleInvariantsHold) {
  const auto& [path, scheduler] = GetParam();
  ParamSet params(simulation_catalog());
  params.set("trace", path);
  params.set("scheduler", scheduler);
  const Scenario s = make_scenario(params);
  ASSERT_GT(s.workload.jobs.size(), 1000u);
  test::NodeExclusivityChecker nodes(s.platform.node_count);
  SimObserver* observers[] = {&nodes};
  const SimulationResult r = simulate(s, observers);
  EXPECT_EQ(nodes.violations, std::vector<std::string>{});
  EXPECT_EQ(test::check_schedule(s.workload, r.jobs, s.platform.node_count), std::vector<std::string>{});
  if (scheduler == "fcfs") {
    EXPECT_EQ(test::check_fcfs_order(s.workload, r.jobs), std::vector<std::string>{});
  }
  if (scheduler == "easy") {
    EXPECT_EQ(test::check_easy_reservations(s.workload, r.jobs, s.platform.node_count), std::vector<std::string>{});
  }
  EXPECT_EQ(r.report.value("jobs_completed") + r.report.value("jobs_killed"), double(s.workload.jobs.size()));
}

INSTANTIATE_TEST_SUITE_P(AllTraces, ShippedTrace,
                         testing::Combine(testing::ValuesIn(shipped_traces()), testing::Values("fcfs", "easy")),
                         [](const auto& param_info) {
                           std::string name = std::filesystem::path(std::get<0>(param_info.param)).filename().string();
                           name = name.substr(0, name.find(".swf")) + "_" + std::get<1>(param_info.param);
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(ShippedTraceScaled, CeaCurieOnIntrepidKeepsInvariants) {
  ParamSet params(simulation_catalog());
  params.set("trace", std::string(DCSWEEP_TRACES_DIR) + "/CEA-Curie-2011-2.1-cln.swf.gz");
  params.set("platform", std::string("intrepid"));
  params.set("scale_to_platform", true);
  params.set("jobs", std::int64_t{40000});
  const Scenario s = make_scenario(params);
  EXPECT_EQ(s.platform.node_count, 40960);
  test::NodeExclusivityChecker nodes(s.platform.node_count);
  SimObserver* observers[] = {&nodes};
  const SimulationResult r = simulate(s, observers);
  EXPECT_EQ(nodes.violations, std::vector<std::string>{});
  EXPECT_EQ(test::check_easy_reservations(s.workload, r.jobs, s.platform.node_count), std::vector<std::string>{});
}

/// Records every node handed out, in order.
class NodeLog final : public SimObserver {
 public:
  void on_job_start(double, const Placement& placement) override {
    log.insert(log.end(), placement.nodes.begin(), placement.nodes.end());
  }
  std::vector<NodeId> log;
};

TEST(ShippedTraceScaled, RandomAllocatorKeepsInvariantsAndIsReproducible) {
  ParamSet params(simulation_catalog());
  params.set("trace", std::string(DCSWEEP_TRACES_DIR) + "/SDSC-SP2-1998-4.2-cln.swf.gz");
  params.set("allocator", std::string("random"));
  params.set("jobs", std::int64_t{5000});
  const Scenario s = make_scenario(params);
  test::NodeExclusivityChecker nodes(s.platform.node_count);
  NodeLog first, second, other_seed;
  SimObserver* observers[] = {&nodes, &first};
  simulate(s, observers);
  EXPECT_EQ(nodes.violations, std::vector<std::string>{});
  SimObserver* again[] = {&second};
  simulate(s, again);
  EXPECT_EQ(first.log, second.log);
  Scenario reseeded = s;
  reseeded.key.replicate = 1;
  SimObserver* other[] = {&other_seed};
  simulate(reseeded, other);
  EXPECT_NE(first.log, other_seed.log);
}

}  // namespace
}  // namespace dcsweep
