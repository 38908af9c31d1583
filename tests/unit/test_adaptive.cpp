// Adaptive refinement (analysis/adaptive.hpp) against metrics whose step or kink is known.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "dcsweep/analysis/adaptive.hpp"

namespace dcsweep::analysis {
namespace {

using Metric = std::function<double(const AdaptivePoints&, std::size_t)>;

RefineRule one_axis(double min_step, std::uint64_t max_points) {
  RefineRule rule;
  rule.refined = {true};
  rule.integer = {false};
  rule.min_step = {min_step};
  rule.max_points = max_points;
  return rule;
}

/// Runs rounds until the design ends; the metric of every point, as a sweep would compute it.
std::vector<double> run_rounds(const RefineRule& rule, AdaptivePoints& points, const Metric& metric) {
  std::vector<double> values;
  do {
    for (std::size_t p = values.size(); p < points.size(); ++p) values.push_back(metric(points, p));
  } while (refine(rule, points, values) > 0);
  return values;
}

std::vector<double> linspace(double lo, double hi, int n) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(lo + (hi - lo) * i / (n - 1));
  return out;
}

/// The intervals that score (threshold: crossings).
std::vector<Interval> scoring(const RefineRule& rule, const AdaptivePoints& points, const std::vector<double>& m) {
  std::vector<Interval> out;
  for (const Interval& i : score_intervals(rule, points, m)) {
    if (i.score > 0) out.push_back(i);
  }
  return out;
}

TEST(Adaptive, ThresholdOfAStepIsLocatedToMinStepInLogarithmicallyManyPoints) {
  RefineRule rule = one_axis(0.1, 1000);
  rule.threshold = 0.5;
  const std::vector<std::vector<double>> axes = {linspace(20, 35, 7)};  // 2.5 apart
  AdaptivePoints points = first_round(axes);
  const double step = 27.137;
  const auto m =
      run_rounds(rule, points, [&](const AdaptivePoints& p, std::size_t i) { return p.at(i, 0) < step ? 1.0 : 0.0; });
  const auto crossing = scoring(rule, points, m);
  ASSERT_EQ(crossing.size(), 1u);
  EXPECT_LE(crossing[0].lo, step);
  EXPECT_GT(crossing[0].hi, step);
  EXPECT_LE(crossing[0].hi - crossing[0].lo, 0.1 + 1e-12);
  // 2.5 / 2^5 = 0.078: five bisections, one point each, after the 7 of the first round.
  EXPECT_EQ(points.size(), 12u);
  EXPECT_EQ(points.rounds(), 6);
}

TEST(Adaptive, SplitsCutEachCrossingIntoSeveralPartsPerRound) {
  RefineRule rule = one_axis(0.1, 1000);
  rule.threshold = 0.5;
  rule.splits = 4;
  AdaptivePoints points = first_round(std::vector<std::vector<double>>{linspace(20, 35, 7)});
  const auto m =
      run_rounds(rule, points, [](const AdaptivePoints& p, std::size_t i) { return p.at(i, 0) < 27.137 ? 1.0 : 0.0; });
  const auto crossing = scoring(rule, points, m);
  ASSERT_EQ(crossing.size(), 1u);
  EXPECT_LE(crossing[0].hi - crossing[0].lo, 0.1 + 1e-12);
  EXPECT_LE(crossing[0].lo, 27.137);
  EXPECT_GT(crossing[0].hi, 27.137);
  EXPECT_LE(points.rounds(), 4);  // 2.5 -> 0.625 -> 0.156 -> 0.078
}

TEST(Adaptive, AFailedPointIsASideOfItsOwn) {
  RefineRule rule = one_axis(0.01, 1000);
  rule.threshold = 1e9;  // no value crosses it: only the flip to failure (NaN) does
  AdaptivePoints points = first_round(std::vector<std::vector<double>>{linspace(0, 1, 5)});
  const auto m =
      run_rounds(rule, points, [](const AdaptivePoints& p, std::size_t i) { return p.at(i, 0) < 0.3 ? 1.0 : NAN; });
  const auto crossing = scoring(rule, points, m);
  ASSERT_EQ(crossing.size(), 1u);
  EXPECT_LE(crossing[0].lo, 0.3);
  EXPECT_GE(crossing[0].hi, 0.3);
  EXPECT_LE(crossing[0].hi - crossing[0].lo, 0.01);
}

TEST(Adaptive, ChangeModeLocatesAJumpThenSpendsTheBudgetWhereTheMetricStillChanges) {
  RefineRule rule = one_axis(0.01, 10);  // 5 + the 5 bisections that narrow 0.25 to 0.0078
  AdaptivePoints points = first_round(std::vector<std::vector<double>>{linspace(0, 1, 5)});
  const double jump = 0.6137;
  const auto m = run_rounds(rule, points, [&](const AdaptivePoints& p, std::size_t i) {
    const double x = p.at(i, 0);
    return x + (x > jump ? 10.0 : 0.0);
  });
  EXPECT_EQ(points.size(), 10u);
  Interval best;
  for (const Interval& i : score_intervals(rule, points, m)) {
    if (i.score > best.score) best = i;
  }
  EXPECT_LT(best.lo, jump);
  EXPECT_GE(best.hi, jump);
  EXPECT_LE(best.hi - best.lo, 0.01);
}

TEST(Adaptive, RelativeChangeFindsTheKneeOfAnExplodingMetric) {
  RefineRule rule = one_axis(0.005, 40);  // a grid at 0.005 has 201 points
  rule.change = ChangeScale::relative;
  AdaptivePoints points = first_round(std::vector<std::vector<double>>{linspace(0.5, 1.5, 5)});
  const double knee = 0.9137;  // zero below, growing as (x - knee)^2 above
  const auto m = run_rounds(rule, points, [&](const AdaptivePoints& p, std::size_t i) {
    const double x = p.at(i, 0);
    return x <= knee ? 0.0 : (x - knee) * (x - knee);
  });
  // The interval from the last zero to the first positive value scores 1 (the largest relative
  // change): it is bisected first, to min_step, while the rest of the budget grades the mesh
  // away from it.
  double last_zero = -1, first_positive = 99;
  for (std::size_t p = 0; p < points.size(); ++p) {
    if (m[p] == 0)
      last_zero = std::max(last_zero, points.at(p, 0));
    else
      first_positive = std::min(first_positive, points.at(p, 0));
  }
  EXPECT_LE(last_zero, knee);
  EXPECT_GT(first_positive, knee);
  EXPECT_LE(first_positive - last_zero, 0.005);
  EXPECT_LE(points.size(), 40u);
}

TEST(Adaptive, EachCellStaysAProductAndTheBudgetIsNeverExceeded) {
  RefineRule rule;
  rule.refined = {false, true, true};  // a categorical axis (2 values), then x and y
  rule.integer = {false, false, false};
  rule.min_step = {0, 0.05, 0.05};
  rule.threshold = 1.0;
  rule.max_points = 150;
  const std::vector<std::vector<double>> axes = {{0, 1}, linspace(0, 1, 3), linspace(0, 1, 3)};
  AdaptivePoints points = first_round(axes);
  ASSERT_EQ(points.size(), 18u);
  // Cell 0 crosses along x + y = 1.3; cell 1 never crosses, so it is never refined.
  const auto m = run_rounds(rule, points, [](const AdaptivePoints& p, std::size_t i) {
    return p.at(i, 0) == 0 && p.at(i, 1) + p.at(i, 2) > 1.3 ? 2.0 : 0.0;
  });
  EXPECT_LE(points.size(), 150u);
  std::map<double, std::set<double>> xs, ys;
  std::map<double, std::set<std::pair<double, double>>> pairs;
  for (std::size_t p = 0; p < points.size(); ++p) {
    xs[points.at(p, 0)].insert(points.at(p, 1));
    ys[points.at(p, 0)].insert(points.at(p, 2));
    EXPECT_TRUE(pairs[points.at(p, 0)].insert({points.at(p, 1), points.at(p, 2)}).second) << "point " << p << " twice";
  }
  for (const double cell : {0.0, 1.0})
    EXPECT_EQ(pairs[cell].size(), xs[cell].size() * ys[cell].size()) << "cell " << cell;
  EXPECT_EQ(pairs[1.0].size(), 9u);
  EXPECT_GT(pairs[0.0].size(), 9u);
  EXPECT_EQ(m.size(), points.size());
}

TEST(Adaptive, IntegerAxesTakeIntegerValuesAndStopAtNeighbours) {
  RefineRule rule = one_axis(1, 1000);
  rule.integer = {true};
  rule.threshold = 0.5;
  AdaptivePoints points = first_round(std::vector<std::vector<double>>{{0, 64}});
  const auto m =
      run_rounds(rule, points, [](const AdaptivePoints& p, std::size_t i) { return p.at(i, 0) >= 37 ? 1.0 : 0.0; });
  const auto crossing = scoring(rule, points, m);
  ASSERT_EQ(crossing.size(), 1u);
  EXPECT_EQ(crossing[0].lo, 36);
  EXPECT_EQ(crossing[0].hi, 37);
  for (const double x : points.x) EXPECT_EQ(x, std::round(x));
  EXPECT_EQ(points.size(), 2u + 6u);  // 64 = 2^6
}

TEST(Adaptive, NothingChangesNothingIsAdded) {
  RefineRule rule = one_axis(0.01, 1000);
  AdaptivePoints points = first_round(std::vector<std::vector<double>>{linspace(0, 1, 5)});
  const std::vector<double> flat(5, 3.0);
  EXPECT_EQ(refine(rule, points, flat), 0u);
  EXPECT_EQ(points.size(), 5u);
}

}  // namespace
}  // namespace dcsweep::analysis
