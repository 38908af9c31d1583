#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

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
            "s.toml:2: [axes] scheduler: parameter 'scheduler': unknown value 'sjf' (did you mean 'edf'?); valid: easy, "
            "fcfs, conservative, edf, parm");
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

// ---- sampled designs: the [design] table, factors in [axes], the `sample` axis (issue 13) ----

const char* kSobol = R"(
[sweep]
seed = 42
replicates = 2

[design]
kind = "sobol"
base_samples = 16

[base]
platform = "meng40"

[axes]
redline_c = { min = 24, max = 32 }
gamma = { min = 0.01, max = 1, distribution = "log_uniform" }
supply_temp_c = { distribution = "normal", mean = 15, sd = 2, min = 10, max = 20 }
allocator = ["first_fit", "random"]
)";

TEST(DesignSpec, SobolFactorsBecomeOneSampleAxis) {
  const SweepSpec s = parse(kSobol);
  EXPECT_EQ(s.design.kind, DesignKind::sobol);
  EXPECT_EQ(s.design.seed, 42u);  // the spec's, unless [design] sets one
  ASSERT_EQ(s.design.factors.size(), 4u);
  EXPECT_TRUE(s.design.factors[3].discrete);
  ASSERT_EQ(s.axes.size(), 1u);
  EXPECT_EQ(s.axes[0].name, "sample");
  EXPECT_EQ(s.axes[0].params, (std::vector<std::string>{"redline_c", "gamma", "supply_temp_c", "allocator"}));
  EXPECT_EQ(s.axes[0].size(), 16u * (4 + 2));
  EXPECT_EQ(s.point_count(), 16u * 6 * 2);
  EXPECT_EQ(s.design.unit.rows(), 96u);
  const Grid grid(s, simulation_catalog());
  EXPECT_EQ(grid.shape(), (std::vector<std::uint64_t>{96, 2}));
  std::set<std::string> allocators;
  for (std::uint64_t flat = 0; flat < grid.size(); ++flat) {
    const ParamSet p = grid.params(flat);
    const std::uint64_t row = flat / 2;
    EXPECT_EQ(p.real("redline_c"), 24 + 8 * s.design.unit.at(row, 0));
    EXPECT_GE(p.real("gamma"), 0.01);
    EXPECT_LE(p.real("gamma"), 1.0);
    EXPECT_GE(p.real("supply_temp_c"), 10.0);
    EXPECT_LE(p.real("supply_temp_c"), 20.0);
    EXPECT_EQ(p.text("allocator"), s.design.unit.at(row, 3) < 0.5 ? "first_fit" : "random");
    EXPECT_EQ(p.text("platform"), "meng40");
    allocators.insert(p.text("allocator"));
  }
  EXPECT_EQ(allocators.size(), 2u);
}

TEST(DesignSpec, LhsBalancesLevelsAndIntegers) {
  const SweepSpec s = parse("[design]\nkind = \"lhs\"\nsamples = 60\n[axes]\n"
                            "scheduler = [\"easy\", \"fcfs\", \"conservative\"]\njobs = { min = 1, max = 6 }\n");
  std::map<std::string, int> schedulers;
  std::map<std::int64_t, int> jobs;
  const Grid grid(s, simulation_catalog());
  for (std::uint64_t i = 0; i < grid.size(); ++i) {
    const ParamSet p = grid.params(i);
    ++schedulers[p.text("scheduler")];
    ++jobs[p.integer("jobs")];
  }
  // One sample per stratum: 60 strata over 3 levels, and over the 6 integers 1..6.
  EXPECT_EQ(schedulers, (std::map<std::string, int>{{"conservative", 20}, {"easy", 20}, {"fcfs", 20}}));
  EXPECT_EQ(jobs, (std::map<std::int64_t, int>{{1, 10}, {2, 10}, {3, 10}, {4, 10}, {5, 10}, {6, 10}}));
}

TEST(DesignSpec, MorrisAndItsOwnSeed) {
  const SweepSpec s = parse("[sweep]\nseed = 5\n[design]\nkind = \"morris\"\ntrajectories = 10\nlevels = 6\nseed = 99\n"
                            "[axes]\nredline_c = { min = 20, max = 30 }\ngamma = { min = 0.5, max = 1 }\n");
  EXPECT_EQ(s.design.seed, 99u);
  EXPECT_EQ(s.axes[0].size(), 10u * 3);
  for (const ParamValue& v : s.axes[0].values[0]) {
    const double level = (std::get<double>(v) - 20) / 10 * 5;  // on the 6-level grid
    EXPECT_NEAR(level, std::round(level), 1e-9);
  }
  const SweepSpec other = parse("[sweep]\nseed = 5\n[design]\nkind = \"morris\"\ntrajectories = 10\nlevels = 6\n"
                                "[axes]\nredline_c = { min = 20, max = 30 }\ngamma = { min = 0.5, max = 1 }\n");
  EXPECT_EQ(other.design.seed, 5u);
  EXPECT_NE(s.axes[0].values, other.axes[0].values);
}

TEST(DesignSpec, GridIsTheDefaultAndUnchanged) {
  const std::string axes = "[axes]\ngamma = [0.5, 0.7]\nscheduler = [\"easy\", \"fcfs\"]\n";
  const SweepSpec plain = parse(axes), grid = parse("[design]\nkind = \"grid\"\n" + axes);
  EXPECT_EQ(grid.design.kind, DesignKind::grid);
  ASSERT_EQ(grid.axes.size(), 2u);
  EXPECT_EQ(grid.axes[0].values, plain.axes[0].values);
  EXPECT_EQ(grid.point_count(), 4u);
  EXPECT_TRUE(spec_differences(plain, grid).empty());
}

TEST(DesignSpec, ErrorsNameLineAndKey) {
  const std::string factor = "[axes]\nredline_c = { min = 24, max = 32 }\n";
  EXPECT_EQ(error_of("[design]\nkind = \"sobol\"\nbase_samples = 8\nsamples = 3\n" + factor),
            "s.toml:4: [design]: 'samples' is not a key of kind = \"sobol\" (its keys: kind, base_samples, second_order, seed)");
  EXPECT_EQ(error_of("[design]\nkind = \"lhs\"\nsampels = 3\n"),
            "s.toml:3: [design]: unknown key 'sampels' (did you mean 'samples'?)");
  EXPECT_EQ(error_of("[design]\nkind = \"latin\"\n"),
            "s.toml:2: [design] kind: expected one of \"grid\", \"lhs\", \"sobol\", \"morris\", \"adaptive\"");
  EXPECT_EQ(error_of("[design]\nkind = \"sobol\"\n" + factor),
            "s.toml:1: [design]: kind = \"sobol\" needs 'base_samples' (N, the base samples: N (k + 2) points for k factors)");
  EXPECT_EQ(error_of("[design]\nkind = \"morris\"\ntrajectories = 4\nlevels = 5\n"),
            "s.toml:4: [design] levels: Morris levels must be even (delta = p / (2 (p - 1)) then keeps every step on the grid)");
  EXPECT_EQ(error_of("[design]\nkind = \"lhs\"\nsamples = 4\n"),
            "s.toml:1: [design]: kind = \"lhs\" needs factors: list them in [axes] ({ min, max } or a list of levels)");
  EXPECT_EQ(error_of(factor),
            "s.toml:2: [axes] redline_c: a { min, max } factor needs a sampling design ([design] kind = \"lhs\", "
            "\"sobol\" or \"morris\"); a grid axis is a list or a range { start, stop, step | num }");
}

TEST(DesignSpec, FactorErrors) {
  const std::string lhs = "[design]\nkind = \"lhs\"\nsamples = 4\n[axes]\n";
  EXPECT_EQ(error_of(lhs + "redline_c = { min = 32, max = 24 }\n"), "s.toml:5: [axes] redline_c: 'min' must be below 'max'");
  EXPECT_EQ(error_of(lhs + "redline_c = { min = 24 }\n"), "s.toml:5: [axes] redline_c: a factor needs 'min' and 'max'");
  EXPECT_EQ(error_of(lhs + "gamma = { min = -1, max = 1 }\n"),
            "s.toml:5: [axes] gamma: min: parameter 'gamma': -1 is out of range (0, 1e+06]");
  EXPECT_EQ(error_of(lhs + "redline_c = { min = 24, max = 32, distribution = \"normal\", mean = 28 }\n"),
            "s.toml:5: [axes] redline_c: a normal factor needs 'sd'");
  EXPECT_EQ(error_of(lhs + "redline_c = { min = 24, max = 32, sd = 2 }\n"),
            "s.toml:5: [axes] redline_c: 'sd' applies to distribution = \"normal\" only");
  EXPECT_EQ(error_of(lhs + "redline_c = { min = 0, max = 32, distribution = \"log_uniform\" }\n"),
            "s.toml:5: [axes] redline_c: a log_uniform factor needs min > 0");
  EXPECT_EQ(error_of(lhs + "redline_c = { min = 24, max = 32, distribution = \"beta\" }\n"),
            "s.toml:5: [axes] redline_c: distribution must be \"uniform\", \"log_uniform\" or \"normal\"");
  EXPECT_EQ(error_of(lhs + "redline_c = { min = 24, max = 32, mx = 3 }\n"),
            "s.toml:5: [axes] redline_c: unknown key 'mx' of a factor (did you mean 'max'?)");
  EXPECT_EQ(error_of(lhs + "allocator = { min = 0, max = 1 }\n"),
            "s.toml:5: [axes] allocator: a { min, max } factor needs a numeric parameter ('allocator' is choice); list "
            "its values instead");
  EXPECT_EQ(error_of(lhs + "jobs = { min = 1.5, max = 9 }\n"),
            "s.toml:5: [axes] jobs: 'min' must be an integer: 'jobs' is an integer parameter");
  EXPECT_EQ(error_of(lhs + "jobs = [1, 2]\n[[zip]]\nname = \"z\"\ngamma = [0.5]\n"),
            "s.toml:6: [[zip]]: zip groups are grid axes; a lhs design samples each factor of [axes] on its own");
  EXPECT_EQ(error_of("[base]\ngamma = 1\n" + lhs + "gamma = { min = 0.5, max = 1 }\n"),
            "s.toml:7: [axes] gamma: parameter 'gamma' is set in [base] and varies in an axis");
}

TEST(DesignSpec, DesignsTooLargeToHoldAreRefused) {
  EXPECT_EQ(error_of("[design]\nkind = \"sobol\"\nbase_samples = 5000000\n[axes]\n"
                     "redline_c = { min = 24, max = 32 }\ngamma = { min = 0.5, max = 1 }\n"),
            "s.toml:1: [design]: kind = \"sobol\" with 2 factors has 2e+07 samples, above the limit of 1e7 factor "
            "values (samples x factors) per sweep; split it");
}

TEST(DesignSpec, DifferencesNameTheDesign) {
  const SweepSpec was = parse(kSobol);
  std::string text = kSobol;
  text.replace(text.find("base_samples = 16"), 17, "base_samples = 32");
  EXPECT_EQ(spec_differences(was, parse(text)), (std::vector<std::string>{"[design] base_samples: 32, was 16"}));
  text.replace(text.find("max = 32"), 8, "max = 30");
  EXPECT_EQ(spec_differences(was, parse(text)).back(), "factor redline_c: uniform [24, 30], was uniform [24, 32]");
  EXPECT_TRUE(spec_differences(was, parse(kSobol)).empty());
}

}  // namespace
}  // namespace dcsweep
