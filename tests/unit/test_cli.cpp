// The command line in-process: exit codes, one-line errors, generated options.
#include <gtest/gtest.h>

#include <sstream>

#include "dcsweep/cli/cli.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/run.hpp"
#include "dcsweep/sim/ratebased.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

struct CliRun {
  int code;
  std::string out, err;
};

CliRun run(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

const std::string kTrace = std::string(DCSWEEP_TRACES_DIR) + "/NASA-iPSC-1993-3.1-cln.swf";

bool one_line(const std::string& text) { return !text.empty() && text.find('\n') == text.size() - 1; }

TEST(Cli, SimulateJsonHasStatusAndContractMetrics) {
  const CliRun r = run({"simulate", "--trace", kTrace, "--scheduler", "easy", "--json", "--jobs", "500"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("{\"status\": \"ok\""));
  for (const char* key : {"jobs_completed", "jobs_rejected", "jobs_killed", "makespan_s", "avg_wait_s", "max_wait_s",
                          "avg_turnaround_s", "avg_bounded_slowdown", "utilization"}) {
    EXPECT_NE(r.out.find(std::string("\"") + key + "\": "), std::string::npos) << key;
  }
}

TEST(Cli, DashesAndUnderscoresAreInterchangeable) {
  const CliRun a = run({"simulate", "--trace", kTrace, "--first-job", "100", "--jobs", "50", "--json"});
  const CliRun b = run({"simulate", "--trace", kTrace, "--first_job=100", "--jobs=50", "--json"});
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
}

TEST(Cli, BadInputIsOneLineAndExitCodeTwo) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"simulate", "--trace", "/nonexistent.swf"}, "dcsweep: error: /nonexistent.swf: cannot open"},
      {{"simulate", "--trace", kTrace, "--scheduler", "sjf"}, "dcsweep: error: parameter 'scheduler': unknown value 'sjf'"},
      {{"simulate", "--trace", kTrace, "--gamma", "-0.5"}, "dcsweep: error: parameter 'gamma': -0.5 is out of range"},
      {{"simulate", "--trace", kTrace, "--gama", "0.5"},
       "dcsweep: error: simulate: unknown option '--gama' (did you mean '--gamma'?)"},
      {{"simulate", "--trace", kTrace, "--strict"}, "dcsweep: error: " + kTrace + ": 173 of 18239 jobs rejected"},
      {{"simulate", "--workload", "poisson"}, "dcsweep: error: platform 'trace' needs a trace"},
      {{"frobnicate"}, "dcsweep: error: unknown command 'frobnicate'"},
  };
  for (const auto& [args, message] : cases) {
    const CliRun r = run(args);
    EXPECT_EQ(r.code, 2) << message;
    EXPECT_TRUE(r.err.starts_with(message)) << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_EQ(r.out, "") << message;
  }
}

TEST(Cli, JobsOutToAnUnwritablePathFailsBeforeSimulating) {
  const CliRun r = run({"simulate", "--trace", kTrace, "--jobs-out", "/nonexistent-dir/jobs.csv"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "dcsweep: error: /nonexistent-dir/jobs.csv: cannot write the --jobs-out file\n");
}

TEST(Cli, PoissonOnAPresetPlatformIsSeeded) {
  const std::vector<std::string> base = {"simulate", "--workload", "poisson", "--platform", "meng40", "--json"};
  auto with_seed = [&](const char* seed) {
    auto args = base;
    args.insert(args.end(), {"--seed", seed});
    return run(args);
  };
  const CliRun a = with_seed("5"), b = with_seed("5"), c = with_seed("6");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
  EXPECT_NE(a.out.find("\"jobs_completed\": 40"), std::string::npos);
}

TEST(Cli, ListPrintsEveryFamilyMemberWithParameters) {
  const CliRun r = run({"list"});
  ASSERT_EQ(r.code, 0);
  for (const char* text : {"schedulers:", "  easy:", "  fcfs:", "allocators:", "  first_fit:", "  random:",
                           "platforms:", "  intrepid:", "gamma", "default=1"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
  }
  // every parameter a spec or an option may name, with its unit (one registry: none left out)
  for (const std::string& name : simulation_catalog().names()) {
    EXPECT_NE(r.out.find("  " + name + " "), std::string::npos) << name;
  }
  for (const auto& metrics : {simulation_metric_specs(), ratebased_metric_specs()}) {
    for (const MetricSpec& m : metrics) EXPECT_NE(r.out.find("  " + m.name + " "), std::string::npos) << m.name;
  }
}

TEST(Cli, HelpAndVersion) {
  EXPECT_EQ(run({"--version"}).out, "dcsweep " DCSWEEP_VERSION_FOR_TESTS "\n");
  const CliRun help = run({"simulate", "--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--scale-to-platform"), std::string::npos);
}

}  // namespace
}  // namespace dcsweep
