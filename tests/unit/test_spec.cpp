#include <gtest/gtest.h>

#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sweep/grid.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

using test::input_error;

SweepSpec parse(const std::string& text) { return parse_spec(text, "s.toml", simulation_catalog()); }
std::string error_of(const std::string& text) {
  return input_error([&] { parse(text); });
}

const char* kSpec = R"(
[sweep]
name = "demo"
seed = 42
replicates = 2

[base]
platform = "meng40"
workload = "poisson"

[axes]
scheduler = ["fcfs", "easy"]
gamma = { start = 0.2, stop = 0.8, step = 0.3 }

[[zip]]
name = "size"
poisson_max_nodes = [8, 16]
poisson_jobs = [10, 20]
)";

TEST(Spec, ParsesSweepBaseAxesAndZipInFileOrder) {
  const SweepSpec s = parse(kSpec);
  EXPECT_EQ(s.name, "demo");
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.replicates, 2);
  ASSERT_EQ(s.axes.size(), 3u);
  EXPECT_EQ(s.axes[0].name, "scheduler");
  EXPECT_EQ(s.axes[1].name, "gamma");
  EXPECT_EQ(s.axes[2].name, "size");
  EXPECT_EQ(s.axes[2].params, (std::vector<std::string>{"poisson_max_nodes", "poisson_jobs"}));
  ASSERT_EQ(s.axes[1].size(), 3u);
  EXPECT_DOUBLE_EQ(std::get<double>(s.axes[1].values[0][2]), 0.8);
  EXPECT_EQ(s.point_count(), 2u * 3 * 2 * 2);
}

TEST(Spec, RangesByCountLinearAndLog) {
  const SweepSpec s = parse("[axes]\ngamma = { start = 0.1, stop = 0.5, num = 5 }\n"
                            "size_scale = { start = 1, stop = 100, num = 3, scale = \"log\" }\n");
  EXPECT_DOUBLE_EQ(std::get<double>(s.axes[0].values[0][1]), 0.2);
  EXPECT_EQ(std::get<double>(s.axes[0].values[0][4]), 0.5);
  EXPECT_DOUBLE_EQ(std::get<double>(s.axes[1].values[0][1]), 10.0);
  EXPECT_EQ(std::get<double>(s.axes[1].values[0][2]), 100.0);
}

TEST(Spec, GridIsRowMajorWithReplicateLast) {
  const SweepSpec s = parse(kSpec);
  const Grid g(s, simulation_catalog());
  EXPECT_EQ(g.size(), 24u);
  EXPECT_EQ(g.shape(), (std::vector<std::uint64_t>{2, 3, 2, 2}));
  // flat 17 = ((1 * 3 + 1) * 2 + 0) * 2 + 1: easy, gamma 0.5, zip position 0, replicate 1
  EXPECT_EQ(g.coordinates(17), (std::vector<std::uint64_t>{1, 1, 0, 1}));
  const ParamSet p = g.params(17);
  EXPECT_EQ(p.text("scheduler"), "easy");
  EXPECT_DOUBLE_EQ(p.real("gamma"), 0.5);
  EXPECT_EQ(p.integer("poisson_max_nodes"), 8);
  EXPECT_EQ(p.integer("poisson_jobs"), 10);
  EXPECT_EQ(p.text("platform"), "meng40");
  EXPECT_EQ(p.integer("seed"), 42);
  EXPECT_EQ(g.replicate(17), 1u);
}

TEST(Spec, ErrorsNameLineAndKey) {
  EXPECT_EQ(error_of("[axes]\ngama = [0.5]\n"), "s.toml:2: [axes]: unknown key 'gama' (did you mean 'gamma'?)");
  EXPECT_EQ(error_of("[sweep]\nseed = 1\nreplicate = 2\n"),
            "s.toml:3: [sweep]: unknown key 'replicate' (did you mean 'replicates'?)");
  EXPECT_EQ(error_of("[bsae]\n"), "s.toml:1: top level: unknown key 'bsae' (did you mean 'base'?)");
  EXPECT_EQ(error_of("[base]\ngamma = \"fast\"\n"), "s.toml:2: [base] gamma: parameter 'gamma': expected a number, got 'fast'");
  EXPECT_EQ(error_of("[axes]\njobs = [10, 2.5]\n"), "s.toml:2: [axes] jobs: parameter 'jobs': expected an integer, got 2.5");
  EXPECT_EQ(error_of("\n[axes]\ngamma = []\n"), "s.toml:3: [axes] gamma: empty axis");
  EXPECT_EQ(error_of("[axes]\ngamma = [0.5, -0.2]\n"), "s.toml:2: [axes] gamma: parameter 'gamma': -0.2 is out of range (0, 1e+06]");
  EXPECT_EQ(error_of("[axes]\nscheduler = [\"easy\", \"sjf\"]\n"),
            "s.toml:2: [axes] scheduler: parameter 'scheduler': unknown value 'sjf'; valid: easy, fcfs, conservative");
  EXPECT_EQ(error_of("[axes]\ngamma = { start = 0.5, stop = 0.1, step = 0.1 }\n"),
            "s.toml:2: [axes] gamma: 'step' must be nonzero and lead from start to stop");
  EXPECT_EQ(error_of("[axes]\ngamma = { start = 0.1, stop = 0.5, num = 3, step = 0.1 }\n"),
            "s.toml:2: [axes] gamma: a range needs exactly one of 'step' and 'num'");
  EXPECT_EQ(error_of("[axes]\ngamma = { start = 0.1, stop = 0.5, nm = 3 }\n"),
            "s.toml:2: [axes] gamma: unknown key 'nm' (did you mean 'num'?)");
  EXPECT_EQ(error_of("[axes]\ngamma = 0.5\n"),
            "s.toml:2: [axes] gamma: an axis is a list of values or a range table {start, stop, step | num}");
  EXPECT_EQ(error_of("[sweep]\nreplicates = 0\n"), "s.toml:2: [sweep] replicates: expected an integer >= 1");
  EXPECT_EQ(error_of("[axes]\ngamma = [0.5\n"), "s.toml:2: Error while parsing array: encountered end-of-file");
}

TEST(Spec, AGridTooLargeToLayOutIsRefusedWithItsSize) {
  try {
    parse("[sweep]\nseed = 1\n[axes]\ngamma = { start = 0.1, stop = 1, num = 1000000 }\n"
          "redline_c = { start = 20, stop = 30, num = 1000000 }\n");
    FAIL() << "accepted 1e12 points";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "s.toml: the grid has 1e+12 points (gamma[1000000] x redline_c[1000000] x replicate[1]), "
                           "above the limit of 1e8 points per sweep; split it into several specs");
  }
  EXPECT_THROW(parse("[axes]\ngamma = { start = 0.1, stop = 1, num = 1000001 }\n"), InputError);
}

TEST(Spec, ConflictsBetweenAxesAndBase) {
  EXPECT_EQ(error_of("[base]\ngamma = 0.5\n[axes]\ngamma = [0.5, 0.6]\n"),
            "s.toml:4: gamma: parameter 'gamma' is set in [base] and varies in an axis");
  EXPECT_EQ(error_of("[axes]\njobs = [1, 2]\n[[zip]]\nname = \"z\"\njobs = [3, 4]\n"),
            "s.toml:3: z: parameter 'jobs' already varies on line 2");
  EXPECT_EQ(error_of("[[zip]]\nname = \"z\"\njobs = [3, 4]\ngamma = [0.5]\n"),
            "s.toml:4: [[zip]] gamma: 1 values where jobs has 2");
  EXPECT_EQ(error_of("[base]\nseed = 3\n"), "s.toml:1: [base] seed: the seed is set once, in [sweep] seed");
}

TEST(Spec, ShippedExampleIsValid) {
  const SweepSpec s = read_spec(std::string(DCSWEEP_SOURCE_DIR) + "/inputs/specs/example.toml", simulation_catalog());
  EXPECT_EQ(s.point_count(), 12u);
}

}  // namespace
}  // namespace dcsweep
