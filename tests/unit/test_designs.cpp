// Sampling designs in the unit cube (analysis/design.hpp) and factor distributions.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "dcsweep/analysis/design.hpp"
#include "dcsweep/analysis/distribution.hpp"

namespace dcsweep::analysis {
namespace {

/// The strata (of n) that a column's values fall in.
std::multiset<std::size_t> strata(const UnitDesign& d, std::size_t f, std::size_t first, std::size_t step,
                                  std::size_t count, std::size_t n) {
  std::multiset<std::size_t> out;
  for (std::size_t i = 0; i < count; ++i) out.insert(static_cast<std::size_t>(d.at(first + i * step, f) * double(n)));
  return out;
}

std::multiset<std::size_t> every_stratum(std::size_t n) {
  std::multiset<std::size_t> all;
  for (std::size_t s = 0; s < n; ++s) all.insert(s);
  return all;
}

TEST(LatinHypercube, OneSampleInEveryStratumOfEveryFactor) {
  const UnitDesign d = latin_hypercube(97, 5, 42);
  ASSERT_EQ(d.rows(), 97u);
  for (std::size_t f = 0; f < 5; ++f) EXPECT_EQ(strata(d, f, 0, 1, 97, 97), every_stratum(97)) << "factor " << f;
  for (const double u : d.u) {
    EXPECT_GT(u, 0.0);
    EXPECT_LT(u, 1.0);
  }
}

TEST(LatinHypercube, DependsOnlyOnTheSeed) {
  EXPECT_EQ(latin_hypercube(20, 3, 7).u, latin_hypercube(20, 3, 7).u);
  EXPECT_NE(latin_hypercube(20, 3, 7).u, latin_hypercube(20, 3, 8).u);
  // Factors are not permuted alike.
  const UnitDesign d = latin_hypercube(20, 2, 7);
  std::vector<std::size_t> first, second;
  for (std::size_t r = 0; r < 20; ++r) {
    first.push_back(static_cast<std::size_t>(d.at(r, 0) * 20));
    second.push_back(static_cast<std::size_t>(d.at(r, 1) * 20));
  }
  EXPECT_NE(first, second);
}

TEST(Saltelli, BlocksAreABThenTheMixedMatricesThenB) {
  const std::size_t n = 16, k = 3;
  for (const bool second : {false, true}) {
    const UnitDesign d = saltelli(n, k, second, 5);
    const SaltelliLayout at{k, second};
    ASSERT_EQ(d.rows(), saltelli_rows(n, k, second));
    ASSERT_EQ(d.rows(), n * (second ? 2 * k + 2 : k + 2));
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t i = 0; i < k; ++i) {
        for (std::size_t f = 0; f < k; ++f) {
          // AB_i: A with column i from B; BA_i: B with column i from A.
          EXPECT_EQ(d.at(at.ab(j, i), f), f == i ? d.at(at.b(j), f) : d.at(at.a(j), f));
          if (second) {
            EXPECT_EQ(d.at(at.ba(j, i), f), f == i ? d.at(at.a(j), f) : d.at(at.b(j), f));
          }
        }
        EXPECT_NE(d.at(at.a(j), i), d.at(at.b(j), i));
      }
    }
  }
}

TEST(Saltelli, BaseMatricesOfPowerOfTwoRowsStratifyEveryFactor) {
  // The first 2^m points of a Sobol sequence put one point in each 1/2^m of every dimension;
  // the digital shift keeps it.
  const std::size_t n = 64, k = 4;
  const UnitDesign d = saltelli(n, k, false, 11);
  const std::size_t block = k + 2;
  for (std::size_t f = 0; f < k; ++f) {
    EXPECT_EQ(strata(d, f, 0, block, n, n), every_stratum(n)) << "A, factor " << f;
    EXPECT_EQ(strata(d, f, block - 1, block, n, n), every_stratum(n)) << "B, factor " << f;
  }
}

TEST(Saltelli, TheSeedShiftsTheSequence) {
  EXPECT_EQ(saltelli(8, 2, false, 1).u, saltelli(8, 2, false, 1).u);
  EXPECT_NE(saltelli(8, 2, false, 1).u, saltelli(8, 2, false, 2).u);
  EXPECT_THROW(saltelli(8, kMaxSobolFactors + 1, false, 1), std::invalid_argument);
}

TEST(Morris, EachStepMovesOneFactorByDelta) {
  const std::size_t r = 25, k = 4;
  const int levels = 4;
  const double delta = morris_delta(levels);
  EXPECT_DOUBLE_EQ(delta, 4.0 / 6.0);
  const UnitDesign d = morris(r, k, levels, 3);
  ASSERT_EQ(d.rows(), morris_rows(r, k));
  ASSERT_EQ(d.rows(), r * (k + 1));
  for (const double u : d.u) {
    const double level = u * (levels - 1);
    EXPECT_NEAR(level, std::round(level), 1e-12) << "off the grid";
    EXPECT_GE(u, 0.0);
    EXPECT_LE(u, 1.0);
  }
  for (std::size_t t = 0; t < r; ++t) {
    std::set<std::size_t> moved;
    for (std::size_t s = 0; s < k; ++s) {
      const std::size_t row = t * (k + 1) + s;
      std::size_t changed = 0;
      for (std::size_t f = 0; f < k; ++f) {
        const double step = d.at(row + 1, f) - d.at(row, f);
        if (step == 0) continue;
        ++changed;
        moved.insert(f);
        EXPECT_NEAR(std::abs(step), delta, 1e-12);
      }
      EXPECT_EQ(changed, 1u) << "trajectory " << t << " step " << s;
    }
    EXPECT_EQ(moved.size(), k) << "every factor moves once in trajectory " << t;
  }
}

TEST(Morris, TrajectoriesDifferAndDependOnTheSeed) {
  const UnitDesign d = morris(2, 3, 6, 9);
  EXPECT_NE(std::vector<double>(d.row(0).begin(), d.row(0).end()), std::vector<double>(d.row(4).begin(), d.row(4).end()));
  EXPECT_EQ(morris(5, 3, 6, 9).u, morris(5, 3, 6, 9).u);
  EXPECT_NE(morris(5, 3, 6, 9).u, morris(5, 3, 6, 10).u);
  EXPECT_THROW(morris_delta(3), std::invalid_argument);
}

TEST(Distribution, QuantilesMapTheUnitIntervalOntoTheRange) {
  const Distribution uniform{Distribution::Kind::uniform, 24, 32};
  EXPECT_EQ(uniform.quantile(0), 24);
  EXPECT_EQ(uniform.quantile(1), 32);
  EXPECT_DOUBLE_EQ(uniform.quantile(0.25), 26);
  const Distribution log{Distribution::Kind::log_uniform, 0.01, 1};
  EXPECT_NEAR(log.quantile(0.5), 0.1, 1e-15);
  EXPECT_EQ(log.quantile(1), 1);
  const Distribution normal{Distribution::Kind::normal, 22, 32, 27, 2};
  EXPECT_NEAR(normal.quantile(0.5), 27, 1e-12);
  EXPECT_EQ(normal.quantile(0), 22);
  EXPECT_EQ(normal.quantile(1), 32);
  // Untruncated in effect (bounds 8 sd away): the 97.5% point is 1.96 sd above the mean.
  const Distribution wide{Distribution::Kind::normal, -8, 8, 0, 1};
  EXPECT_NEAR(wide.quantile(0.975), 1.959964, 1e-6);
  EXPECT_EQ(normal.text(), "normal(27, 2) in [22, 32]");
}

TEST(Distribution, LevelsAreEquallyLikelyAndTheGridTopIsTheLast) {
  EXPECT_EQ(level_of(0.0, 3), 0u);
  EXPECT_EQ(level_of(0.34, 3), 1u);
  EXPECT_EQ(level_of(1.0 / 3.0, 3), 1u);  // a boundary computed in floating point
  EXPECT_EQ(level_of(0.999, 3), 2u);
  EXPECT_EQ(level_of(1.0, 3), 2u);
}

}  // namespace
}  // namespace dcsweep::analysis
