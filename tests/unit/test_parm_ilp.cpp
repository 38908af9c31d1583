// PARM's ILP (power/parm_ilp.hpp): a hand-worked instance, the fast solver against brute force
// (every combination) and against CBC on seeded random instances, normal and degenerate (ties,
// zero and negative values, options that fit nowhere, running jobs that cannot all fit), and
// the bad inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "dcsweep/power/parm_ilp.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

constexpr std::int32_t kNone = ParmSolution::kNone;

/// Every combination: the best objective, or NaN when no combination is feasible.
double brute_force(const ParmInstance& in) {
  std::vector<std::int32_t> choice(in.jobs.size(), kNone);
  double best = NAN;
  auto visit = [&](auto&& self, std::size_t j) -> void {
    if (j == in.jobs.size()) {
      const ParmSolution s = evaluate_parm_choice(in, choice);
      if (s.feasible && !(s.objective <= best)) best = s.objective;
      return;
    }
    const std::int32_t options = std::int32_t(in.jobs[j].options.size());
    for (std::int32_t o = in.jobs[j].running ? 0 : kNone; o < options; ++o) {
      choice[j] = o;
      self(self, j + 1);
    }
    choice[j] = kNone;
  };
  visit(visit, 0);
  return best;
}

/// A seeded random instance. kind 0: ordinary; 1: degenerate values (0, ties, negatives,
/// identical jobs); 2: tight machine (running jobs may not fit; options that fit nowhere).
ParmInstance random_instance(std::uint64_t seed, int max_jobs, int max_options, int kind) {
  RngStream rng({seed, std::uint64_t(kind), 0}, StreamPurpose::job_attributes);
  const double caps[] = {30, 33, 36, 44, 50, 60};
  ParmInstance in;
  in.node_capacity = rng.integer(kind == 2 ? 0 : 8, 64);
  const double full_w = double(in.node_capacity) * 116;
  in.power_budget_w = std::floor(full_w * rng.uniform(kind == 2 ? 0.3 : 0.6, 1.0));
  const std::int64_t jobs = rng.integer(1, max_jobs);
  for (std::int64_t j = 0; j < jobs; ++j) {
    if (kind == 1 && j > 0 && rng.uniform01() < 0.25) {
      in.jobs.push_back(in.jobs.back());  // an identical job
      continue;
    }
    ParmJob job;
    job.running = rng.uniform01() < (kind == 2 ? 0.5 : 0.3);
    const std::int64_t options = rng.integer(kind == 0 ? 1 : 0, max_options);
    const std::int64_t max_nodes = rng.integer(1, std::max<std::int64_t>(1, in.node_capacity / 2 + (kind == 2 ? 40 : 0)));
    for (std::int64_t o = 0; o < options; ++o) {
      ParmOption opt;
      opt.nodes = rng.integer(1, max_nodes);
      opt.cpu_cap_w = caps[rng.integer(0, 5)];
      opt.value = kind == 1 ? double(rng.integer(-1, 3)) : std::round(1000 * rng.uniform(0.1, 10) * double(opt.nodes)) / 1000;
      job.options.push_back(opt);
    }
    in.jobs.push_back(job);
  }
  return in;
}

std::string describe(const ParmInstance& in) {
  std::string s = "N " + std::to_string(in.node_capacity) + " W " + std::to_string(in.power_budget_w) + "\n";
  for (const ParmJob& job : in.jobs) {
    s += job.running ? "  running:" : "  pending:";
    for (const ParmOption& o : job.options) {
      s += " (" + std::to_string(o.nodes) + ", " + std::to_string(int(o.cpu_cap_w)) + ", " + std::to_string(o.value) + ")";
    }
    s += "\n";
  }
  return s;
}

/// The solution is what it claims: its choice meets the constraints and gives its objective.
void expect_consistent(const ParmInstance& in, const ParmSolution& s) {
  if (!s.feasible) return;
  const ParmSolution again = evaluate_parm_choice(in, s.choice);
  EXPECT_TRUE(again.feasible);
  EXPECT_NEAR(again.objective, s.objective, 1e-12 * (1 + std::abs(s.objective)));
  EXPECT_EQ(again.nodes_used, s.nodes_used);
}

bool same_objective(double a, double b, double rel) { return std::abs(a - b) <= rel * std::max(1.0, std::max(std::abs(a), std::abs(b))); }

TEST(ParmIlp, HandWorkedInstance) {
  // N = 8 nodes, W_max = 800 W, 56 W per node besides the cap.
  //   A running: (4 nodes, 44 W -> 400 W, 5)   (2, 60 -> 232 W, 3)
  //   B pending: (4, 44 -> 400 W, 6)            (4, 30 -> 344 W, 4.5)
  //   C pending: (2, 30 -> 172 W, 2.5)          (4, 60 -> 464 W, 7)
  // With A's first option only 4 nodes / 400 W are left: B's first fills them exactly (11). With
  // A's second, B2 + C1 (10) or C2 (10); B1 + C1 needs 804 W. Optimum 11: A0, B0, C none.
  ParmInstance in;
  in.node_capacity = 8;
  in.power_budget_w = 800;
  in.jobs = {{{{4, 44, 5}, {2, 60, 3}}, true}, {{{4, 44, 6}, {4, 30, 4.5}}, false}, {{{2, 30, 2.5}, {4, 60, 7}}, false}};
  for (const ParmSolution& s : {solve_parm_ilp(in), solve_parm_ilp_cbc(in)}) {
    ASSERT_TRUE(s.feasible);
    EXPECT_DOUBLE_EQ(s.objective, 11);
    EXPECT_EQ(s.choice, (std::vector<std::int32_t>{0, 0, kNone}));
    EXPECT_EQ(s.nodes_used, 8);
    EXPECT_DOUBLE_EQ(s.power_used_w, 800);
  }
  in.power_budget_w = 799;  // A0 + B0 no longer fits: 10, two ways (A1 B1 C0 at 748 W, A1 C1 at 696 W)
  for (const ParmSolution& s : {solve_parm_ilp(in), solve_parm_ilp_cbc(in)}) {
    ASSERT_TRUE(s.feasible);
    EXPECT_DOUBLE_EQ(s.objective, 10);
    EXPECT_EQ(s.choice[0], 1);
    expect_consistent(in, s);
  }
  in.node_capacity = 1;  // the running job cannot fit: infeasible, reported
  EXPECT_FALSE(solve_parm_ilp(in).feasible);
  EXPECT_FALSE(solve_parm_ilp_cbc(in).feasible);
  in.jobs[0].running = false;  // now taking nothing is optimal
  const ParmSolution s = solve_parm_ilp(in);
  EXPECT_TRUE(s.feasible);
  EXPECT_EQ(s.objective, 0);
  EXPECT_EQ(s.choice, (std::vector<std::int32_t>{kNone, kNone, kNone}));
}

TEST(ParmIlp, EmptyAndTrivialInstances) {
  ParmInstance in;
  in.node_capacity = 10;
  in.power_budget_w = 1160;
  ParmSolution s = solve_parm_ilp(in);
  EXPECT_TRUE(s.feasible);
  EXPECT_TRUE(s.choice.empty());
  in.jobs.push_back({{}, false});
  in.jobs.push_back({{{3, 60, 0}}, false});  // zero value: nothing is as good
  s = solve_parm_ilp(in);
  EXPECT_TRUE(s.feasible);
  EXPECT_EQ(s.objective, 0);
  in.jobs.push_back({{}, true});  // a running job without options
  EXPECT_FALSE(solve_parm_ilp(in).feasible);
  EXPECT_FALSE(solve_parm_ilp_cbc(in).feasible);
  in.jobs.back().options.push_back({2, 30, -4});  // must run at a loss
  s = solve_parm_ilp(in);
  EXPECT_TRUE(s.feasible);
  EXPECT_EQ(s.objective, -4);
  EXPECT_EQ(s.choice, (std::vector<std::int32_t>{kNone, kNone, 0}));
}

TEST(ParmIlp, OptimumEqualsBruteForce) {
  int infeasible = 0, feasible = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    for (int kind = 0; kind < 3; ++kind) {
      const ParmInstance in = random_instance(seed, 6, 6, kind);
      const double expected = brute_force(in);
      const ParmSolution s = solve_parm_ilp(in);
      ASSERT_EQ(s.feasible, !std::isnan(expected)) << describe(in);
      if (!s.feasible) {
        ++infeasible;
        continue;
      }
      ++feasible;
      ASSERT_TRUE(same_objective(s.objective, expected, 1e-9)) << s.objective << " vs " << expected << "\n" << describe(in);
      expect_consistent(in, s);
    }
  }
  EXPECT_GT(infeasible, 20);  // the generator reaches both cases
  EXPECT_GT(feasible, 300);
}

// Search node limit 0 sends every instance through the node-row dynamic programming (and the
// second branch and bound when that cannot prove its choice optimal).
TEST(ParmIlp, FastSolverEqualsCbcOnAThousandInstancesByEitherPath) {
  int infeasible = 0;
  for (std::uint64_t seed = 0; seed < 1000; ++seed) {
    const int kind = int(seed % 3);
    const ParmInstance in = random_instance(1000 + seed, 16, 8, kind);
    const ParmSolution cbc = solve_parm_ilp_cbc(in);
    for (const std::uint64_t limit : {kParmSearchNodeLimit, std::uint64_t{0}}) {
      const ParmSolution fast = solve_parm_ilp(in, limit);
      ASSERT_EQ(fast.feasible, cbc.feasible) << "seed " << seed << " limit " << limit << "\n" << describe(in);
      if (!fast.feasible) continue;
      ASSERT_TRUE(same_objective(fast.objective, cbc.objective, 1e-6))
          << "seed " << seed << " limit " << limit << ": " << fast.objective << " vs CBC " << cbc.objective << "\n"
          << describe(in);
      expect_consistent(in, fast);
    }
    if (!cbc.feasible) ++infeasible;
    if (cbc.feasible) expect_consistent(in, cbc);
  }
  EXPECT_GT(infeasible, 30);
}

/// A scaled-down PARM decision: PASS jobs with 8 node counts x 6 caps on an overprovisioned
/// machine (1,400 nodes, the budget of 1,000 at 116 W: both rows bind), some jobs running.
ParmInstance pass_instance(std::uint64_t seed, int jobs) {
  RngStream rng({seed, 9, 0}, StreamPurpose::job_attributes);
  const double caps[] = {30, 33, 36, 44, 50, 60};
  ParmInstance in;
  in.node_capacity = 1400;
  in.power_budget_w = 116.0 * 1000;
  for (int j = 0; j < jobs; ++j) {
    const std::int64_t max_nodes = std::int64_t{16} << rng.integer(0, 4);
    const PassParams p = sample_pass_params(rng, double(max_nodes));
    const std::int64_t min_nodes = sample_min_nodes(rng, max_nodes);
    const double weight = rng.uniform(1, 10);
    ParmJob job;
    job.running = j < 4;
    for (const std::int64_t n : node_levels(min_nodes, max_nodes, 8)) {
      for (const double cap : caps) job.options.push_back({n, cap, weight * pass_speed(p, double(n), cap, double(min_nodes), 30)});
    }
    in.jobs.push_back(std::move(job));
  }
  return in;
}

TEST(ParmIlp, FastSolverEqualsCbcOnPassDecisions) {
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    const ParmInstance in = pass_instance(seed, 24);
    const ParmSolution cbc = solve_parm_ilp_cbc(in);
    for (const std::uint64_t limit : {kParmSearchNodeLimit, std::uint64_t{0}}) {
      const ParmSolution fast = solve_parm_ilp(in, limit);
      ASSERT_TRUE(fast.feasible && cbc.feasible);
      EXPECT_TRUE(same_objective(fast.objective, cbc.objective, 1e-9))
          << "seed " << seed << " limit " << limit << ": " << fast.objective << " vs " << cbc.objective;
      expect_consistent(in, fast);
      EXPECT_GT(fast.power_used_w, 0.99 * in.power_budget_w);  // the power row binds
    }
  }
}

ParmInstance saved_decision(const std::string& name) {
  return read_parm_instance_file(std::string(DCSWEEP_SOURCE_DIR) + "/tests/unit/data/" + name);
}

// Real decisions saved from simulations (write_parm_instance) where the branch and bound alone
// needed tens or hundreds of millions of nodes: the search node limit hands them to the node-row
// DP; the 4.5 MW ones, where the watts bind, also to its fixing (154 million nodes before, 14
// after) and the re-solve of what the fixing leaves (243 million nodes before, 7 million after).
TEST(ParmIlp, SavedRealDecisionsEqualCbc) {
  const std::pair<const char*, std::uint64_t> cases[] = {
      {"parm_decision_wse_set3_g02_t1169.txt.gz", 2 * kParmSearchNodeLimit},
      {"parm_decision_wse_set3_g02_t16393-386.txt.gz", 2 * kParmSearchNodeLimit},
      {"parm_decision_wse_set3_g02_t31561-157.txt.gz", 2 * kParmSearchNodeLimit},
      {"parm_decision_wse_set2_g02_45mw_t13364.txt.gz", 2 * kParmSearchNodeLimit},
      {"parm_decision_nose_set2_g05_45mw_t374360.txt.gz", 20'000'000}};
  for (const auto& [name, max_nodes] : cases) {
    const ParmInstance in = saved_decision(name);
    const ParmSolution fast = solve_parm_ilp(in), cbc = solve_parm_ilp_cbc(in);
    ASSERT_TRUE(fast.feasible && cbc.feasible) << name;
    EXPECT_TRUE(same_objective(fast.objective, cbc.objective, 1e-9)) << name << ": " << fast.objective << " vs " << cbc.objective;
    EXPECT_LE(fast.search_nodes, max_nodes) << name;
    expect_consistent(in, fast);
  }
}

/// Checks one work-limited solve against the exact optimum `exact` (CBC's): feasible with the
/// exact solve unless the limit left no choice at all, never above the optimum, its bound never
/// below it, proven only when optimal, and the work it reports within the limit. Returns whether
/// the limit stopped it.
bool expect_limited_solve_holds(const ParmInstance& in, const ParmSolution& exact, const ParmWorkLimit& limit,
                                const std::string& what) {
  const ParmSolution s = solve_parm_ilp(in, limit);
  EXPECT_LE(s.search_nodes, limit.search_nodes) << what;
  EXPECT_LE(s.dp_cells, limit.dp_cells) << what;
  EXPECT_EQ(s.choice, solve_parm_ilp(in, limit).choice) << what;  // deterministic
  if (!s.feasible) {
    EXPECT_TRUE(!exact.feasible || !s.proven) << what;
    return !s.proven;
  }
  EXPECT_TRUE(exact.feasible) << what;
  expect_consistent(in, s);
  const double tol = 1e-9 * std::max(1.0, std::abs(exact.objective));
  EXPECT_LE(s.objective, exact.objective + tol) << what;
  EXPECT_GE(s.upper_bound, exact.objective - tol) << what << ": the bound is below the optimum";
  EXPECT_GE(s.gap(), 0) << what;
  if (s.proven) {
    EXPECT_TRUE(same_objective(s.objective, exact.objective, 1e-9)) << what;
    EXPECT_EQ(s.gap(), 0) << what;
  } else if (s.upper_bound != 0) {
    EXPECT_DOUBLE_EQ(s.gap(), (s.upper_bound - s.objective) / std::abs(s.upper_bound)) << what;
  }
  return !s.proven;
}

// Work limits (section 7 of parm_ilp.cpp): on random, PASS and saved real decisions, every limit
// gives a feasible choice no better than the optimum with a bound no lower than it, and is
// proven only when it is the optimum. The small limits stop most of the hard ones.
TEST(ParmIlp, AWorkLimitedSolveKeepsItsChoiceFeasibleAndItsBoundAboveTheOptimum) {
  const ParmWorkLimit limits[] = {{0, 0, 0}, {0, 50, 1'000}, {100, 1'000, 100'000}, {kParmSearchNodeLimit, 20'000, ParmWorkLimit::kNone}};
  int stopped = 0, solves = 0;
  auto check = [&](const ParmInstance& in, const std::string& what) {
    const ParmSolution cbc = solve_parm_ilp_cbc(in);
    for (std::size_t k = 0; k < std::size(limits); ++k) {
      stopped += expect_limited_solve_holds(in, cbc, limits[k], what + " limit " + std::to_string(k));
      ++solves;
    }
  };
  for (std::uint64_t seed = 0; seed < 150; ++seed) check(random_instance(5000 + seed, 16, 8, int(seed % 3)), "random " + std::to_string(seed));
  for (std::uint64_t seed = 0; seed < 4; ++seed) check(pass_instance(seed, 24), "pass " + std::to_string(seed));
  check(saved_decision("parm_decision_wse_set2_g02_45mw_t13364.txt.gz"), "saved 4.5 MW");
  EXPECT_GT(stopped, solves / 10);
  // No limit: proven, as before.
  const ParmSolution exact = solve_parm_ilp(pass_instance(1, 24));
  EXPECT_TRUE(exact.proven);
  EXPECT_EQ(exact.upper_bound, exact.objective);
}

// A real 4.5 MW decision that needs about 10 million branch-and-bound nodes: a limit of 2 million
// (parm_search_node_limit's default) stops it within a small gap of the optimum.
TEST(ParmIlp, AHardRealDecisionStopsAtTheLimitWithASmallGap) {
  const ParmInstance in = saved_decision("parm_decision_nose_set2_g05_45mw_t374360.txt.gz");
  const ParmSolution exact = solve_parm_ilp(in);
  ParmWorkLimit limit;
  limit.search_nodes = 2'000'000;
  const ParmSolution s = solve_parm_ilp(in, limit);
  ASSERT_TRUE(exact.proven && s.feasible);
  EXPECT_FALSE(s.proven);
  EXPECT_EQ(s.search_nodes, limit.search_nodes);
  EXPECT_GE(s.upper_bound, exact.objective);
  EXPECT_LE(s.objective, exact.objective);
  EXPECT_LT(s.gap(), 0.01);
}

TEST(ParmIlp, InstanceTextReadsBackBitIdentical) {
  const ParmInstance in = pass_instance(3, 12);
  std::stringstream text;
  write_parm_instance(text, in);
  const ParmInstance back = read_parm_instance(text, "mem");
  ASSERT_EQ(back.jobs.size(), in.jobs.size());
  EXPECT_EQ(back.node_capacity, in.node_capacity);
  EXPECT_EQ(back.power_budget_w, in.power_budget_w);
  for (std::size_t j = 0; j < in.jobs.size(); ++j) {
    EXPECT_EQ(back.jobs[j].running, in.jobs[j].running);
    ASSERT_EQ(back.jobs[j].options.size(), in.jobs[j].options.size());
    for (std::size_t o = 0; o < in.jobs[j].options.size(); ++o) {
      EXPECT_EQ(back.jobs[j].options[o].nodes, in.jobs[j].options[o].nodes);
      EXPECT_EQ(back.jobs[j].options[o].cpu_cap_w, in.jobs[j].options[o].cpu_cap_w);
      EXPECT_EQ(back.jobs[j].options[o].value, in.jobs[j].options[o].value);
    }
  }
  std::istringstream bad("parm-ilp 1\nnodes 4\nbudget_w 400\nstatic_w 56\njob waiting 1\n1 30 2\n");
  EXPECT_EQ(test::input_error([&] { read_parm_instance(bad, "x.txt"); }), "x.txt:5: expected running or pending, found 'waiting'");
}

TEST(ParmIlp, SameInstanceSameChoice) {
  const ParmInstance in = random_instance(77, 16, 8, 1);
  EXPECT_EQ(solve_parm_ilp(in).choice, solve_parm_ilp(in).choice);
}

TEST(ParmIlp, BadInputs) {
  ParmInstance in;
  in.node_capacity = 4;
  in.power_budget_w = 400;
  in.jobs = {{{{0, 30, 1}}, false}};
  EXPECT_NE(test::input_error([&] { solve_parm_ilp(in); }).find("job 0 option 0"), std::string::npos);
  in.jobs = {{{{1, -1, 1}}, false}};
  EXPECT_NE(test::input_error([&] { solve_parm_ilp(in); }), "");
  in.jobs = {{{{1, 30, NAN}}, false}};
  EXPECT_NE(test::input_error([&] { solve_parm_ilp_cbc(in); }), "");
  in.jobs = {{{{1, 30, 1}}, false}};
  in.power_budget_w = INFINITY;
  EXPECT_NE(test::input_error([&] { solve_parm_ilp(in); }), "");
  in.power_budget_w = 400;
  in.node_capacity = -1;
  EXPECT_NE(test::input_error([&] { solve_parm_ilp(in); }), "");
  in.node_capacity = 4;
  EXPECT_NE(test::input_error([&] { evaluate_parm_choice(in, {3}); }), "");
  EXPECT_NE(test::input_error([&] { evaluate_parm_choice(in, {}); }), "");
}

}  // namespace
}  // namespace dcsweep
