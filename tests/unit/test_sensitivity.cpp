// Sensitivity estimators (analysis/indices.hpp) against functions whose indices are known
// analytically, independent of the simulator.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>

#include "dcsweep/analysis/design.hpp"
#include "dcsweep/analysis/indices.hpp"

namespace dcsweep::analysis {
namespace {

using Model = std::function<double(std::span<const double>)>;

std::vector<double> evaluate(const UnitDesign& d, const Model& f) {
  std::vector<double> y;
  for (std::size_t r = 0; r < d.rows(); ++r) y.push_back(f(d.row(r)));
  return y;
}

/// Ishigami and Homma (1990) on [-pi, pi]^3, a = 7, b = 0.1.
constexpr double kA = 7, kB = 0.1;
constexpr double kPi = std::numbers::pi;

double ishigami(std::span<const double> u) {
  const double x1 = -kPi + 2 * kPi * u[0], x2 = -kPi + 2 * kPi * u[1], x3 = -kPi + 2 * kPi * u[2];
  return std::sin(x1) + kA * std::pow(std::sin(x2), 2) + kB * std::pow(x3, 4) * std::sin(x1);
}

struct Analytic {
  std::vector<double> first, total;
};

Analytic ishigami_indices() {
  const double pi4 = std::pow(kPi, 4), pi8 = std::pow(kPi, 8);
  const double v1 = 0.5 * std::pow(1 + kB * pi4 / 5, 2), v2 = kA * kA / 8, v13 = 8 * kB * kB * pi8 / 225;
  const double v = v1 + v2 + v13;
  return {{v1 / v, v2 / v, 0.0}, {(v1 + v13) / v, v2 / v, v13 / v}};
}

/// Sobol's G function on [0, 1]^k.
const std::vector<double> kG = {0, 1, 4.5, 9, 99, 99};

double g_function(std::span<const double> u) {
  double y = 1;
  for (std::size_t i = 0; i < kG.size(); ++i) y *= (std::abs(4 * u[i] - 2) + kG[i]) / (1 + kG[i]);
  return y;
}

Analytic g_indices() {
  std::vector<double> vi;
  double product = 1;
  for (const double a : kG) {
    vi.push_back(1.0 / (3 * (1 + a) * (1 + a)));
    product *= 1 + vi.back();
  }
  const double v = product - 1;
  Analytic out;
  for (const double x : vi) {
    out.first.push_back(x / v);
    out.total.push_back(x * product / (1 + x) / v);
  }
  return out;
}

/// "S1", "ST3": an index's name (appended: GCC 12 warns falsely on "S" + std::to_string(i)).
std::string label(std::string prefix, std::size_t i) {
  prefix += std::to_string(i + 1);
  return prefix;
}

/// The analytic value lies in the bootstrap interval, which is narrow enough to mean something.
void expect_inside(const Estimate& e, double analytic, const std::string& what) {
  EXPECT_LE(e.low, analytic) << what << " = " << e.value << " [" << e.low << ", " << e.high << "]";
  EXPECT_GE(e.high, analytic) << what << " = " << e.value << " [" << e.low << ", " << e.high << "]";
  EXPECT_LE(e.low, e.value) << what;
  EXPECT_GE(e.high, e.value) << what;
  EXPECT_LT(e.high - e.low, 0.12) << what;
}

const Bootstrap kBootstrap{.resamples = 1000, .confidence = 0.95, .seed = 2024};

// Rows {1, 3}, {5, 5}, {2, 4}: the variances between replicates are 2, 0, 2 (mean 4/3); every
// value's variance is 20/9, so 0.6 of it is noise; the row means 2, 5, 3 vary by 14/9, and their
// noise is 4/3 / 2 replicates: 3/7.
TEST(ReplicateNoise, HandWorkedSharesOfValuesAndOfRowMeans) {
  const std::vector<double> y{1, 3, 5, 5, 2, 4};
  EXPECT_NEAR(replicate_noise_share(y, 2, false), 0.6, 1e-12);
  EXPECT_NEAR(replicate_noise_share(y, 2, true), 3.0 / 7, 1e-12);
  EXPECT_TRUE(std::isnan(replicate_noise_share(y, 1, false)));  // one replicate: no noise estimate
  const std::vector<double> same_draws{1, 1, 5, 5, 2, 2};
  EXPECT_EQ(replicate_noise_share(same_draws, 2, true), 0);
  // Row 1 has one value: no variance of its own (rows 2, 3: 0 and 2); the values 1, 5, 5, 2, 4 vary by 2.64.
  const std::vector<double> missing{1, NAN, 5, 5, 2, 4};
  EXPECT_NEAR(replicate_noise_share(missing, 2, false), 1 / 2.64, 1e-12);
}

TEST(SobolIndices, IshigamiFirstAndTotalWithinTheBootstrapInterval) {
  const UnitDesign d = saltelli(4096, 3, false, 1);
  const SobolIndices s = sobol_indices(evaluate(d, ishigami), 3, false, kBootstrap);
  const Analytic want = ishigami_indices();
  EXPECT_NEAR(want.first[0], 0.3139, 1e-4);  // the published values
  EXPECT_NEAR(want.total[2], 0.2437, 1e-4);
  ASSERT_EQ(s.first.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    expect_inside(s.first[i], want.first[i], label("S", i));
    expect_inside(s.total[i], want.total[i], label("ST", i));
    EXPECT_EQ(s.rows_used[i], 4096u);
  }
  EXPECT_EQ(s.variance_values, 2u * 4096);
  EXPECT_TRUE(s.second.empty());
}

TEST(SobolIndices, IshigamiSecondOrderFindsTheX1X3Interaction) {
  const UnitDesign d = saltelli(4096, 3, true, 1);
  const SobolIndices s = sobol_indices(evaluate(d, ishigami), 3, true, kBootstrap);
  const Analytic want = ishigami_indices();
  ASSERT_EQ(s.second.size(), 3u);
  expect_inside(s.second[0][2], want.total[2], "S13");  // ST3 is all interaction with x1
  EXPECT_NEAR(s.second[0][1].value, 0.0, 0.05);
  EXPECT_NEAR(s.second[1][2].value, 0.0, 0.05);
  for (std::size_t i = 0; i < 3; ++i) expect_inside(s.first[i], want.first[i], label("S", i));
}

TEST(SobolIndices, GFunctionFirstAndTotalWithinTheBootstrapInterval) {
  const std::size_t k = kG.size();
  const UnitDesign d = saltelli(4096, k, false, 3);
  const SobolIndices s = sobol_indices(evaluate(d, g_function), k, false, kBootstrap);
  const Analytic want = g_indices();
  for (std::size_t i = 0; i < k; ++i) {
    expect_inside(s.first[i], want.first[i], label("S", i));
    expect_inside(s.total[i], want.total[i], label("ST", i));
  }
  // The ranking is the a_i's: the a = 0 factor dominates.
  EXPECT_GT(s.first[0].value, 0.5);
  EXPECT_LT(s.total[5].value, 0.01);
}

TEST(SobolIndices, MissingOutputsExcludeOnlyTheRowsTheyBreak) {
  const std::size_t n = 4096, k = 3;
  const UnitDesign d = saltelli(n, k, false, 1);
  std::vector<double> y = evaluate(d, ishigami);
  const SaltelliLayout at{k, false};
  // Every 10th base row loses its AB_2 output, every 25th its A output.
  std::size_t lost_ab = 0, lost_a = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (j % 10 == 0) y[at.ab(j, 1)] = NAN, ++lost_ab;
    if (j % 25 == 0) y[at.a(j)] = NAN, ++lost_a;
  }
  const std::size_t both = (n + 49) / 50;  // rows counted in both (j % 50 == 0)
  const SobolIndices s = sobol_indices(y, k, false, kBootstrap);
  EXPECT_EQ(s.rows_used[0], n - lost_a);
  EXPECT_EQ(s.rows_used[1], n - lost_a - lost_ab + both);
  EXPECT_EQ(s.variance_values, 2 * n - lost_a);
  const Analytic want = ishigami_indices();
  for (std::size_t i = 0; i < k; ++i) expect_inside(s.total[i], want.total[i], label("ST", i));
}

TEST(SobolIndices, NoValuesOrNoVarianceGiveNaN) {
  const std::vector<double> none(5 * 8, NAN), flat(5 * 8, 3.0);
  for (const auto& y : {none, flat}) {
    const SobolIndices s = sobol_indices(y, 3, false, kBootstrap);
    EXPECT_TRUE(std::isnan(s.first[0].value));
    EXPECT_TRUE(std::isnan(s.total[2].low));
  }
}

TEST(SobolIndices, SeveralOutputsShareTheResamplesAndMatchOneByOne) {
  const UnitDesign d = saltelli(256, 3, false, 1);
  const std::vector<std::vector<double>> ys = {evaluate(d, ishigami), evaluate(d, [](auto u) { return u[1]; })};
  const std::vector<SobolIndices> both = sobol_indices(ys, 3, false, kBootstrap);
  const SobolIndices alone = sobol_indices(ys[0], 3, false, kBootstrap);
  EXPECT_EQ(both[0].first[0].value, alone.first[0].value);
  EXPECT_NEAR(both[0].first[0].low, alone.first[0].low, 1e-12);  // (sums in another order)
  EXPECT_NEAR(both[1].first[1].value, 1.0, 0.1);  // y = x2: all of it from x2
  EXPECT_NEAR(both[1].total[0].value, 0.0, 1e-12);
}

TEST(MorrisEffects, LinearFunctionGivesItsCoefficientsExactly) {
  const std::vector<double> a = {3.0, -2.0, 0.5, 0.0};
  const UnitDesign d = morris(20, a.size(), 4, 8);
  const std::vector<double> y = evaluate(d, [&](std::span<const double> u) {
    double s = 10;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * u[i];
    return s;
  });
  const MorrisEffects m = morris_effects(y, d, kBootstrap);
  EXPECT_EQ(m.trajectories, 20u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_NEAR(m.mu[i], a[i], 1e-12);
    EXPECT_NEAR(m.mu_star[i].value, std::abs(a[i]), 1e-12);
    EXPECT_NEAR(m.sigma[i], 0.0, 1e-12);
    EXPECT_NEAR(m.mu_star[i].low, std::abs(a[i]), 1e-12);  // every resample gives the same
    EXPECT_EQ(m.effects[i], 20u);
  }
}

TEST(MorrisEffects, InteractionsShowInSigmaAndMissingPointsCostTheirSteps) {
  const UnitDesign d = morris(30, 3, 4, 8);
  std::vector<double> y = evaluate(d, [](std::span<const double> u) { return u[0] * u[1] + u[2]; });
  const MorrisEffects m = morris_effects(y, d, kBootstrap);
  EXPECT_GT(m.sigma[0], 0.1);  // x1's effect depends on x2
  EXPECT_NEAR(m.sigma[2], 0.0, 1e-12);
  EXPECT_NEAR(m.mu[2], 1.0, 1e-12);
  // A missing middle point of trajectory 0 removes the two steps that touch it.
  y[1] = NAN;
  const MorrisEffects lost = morris_effects(y, d, kBootstrap);
  std::size_t effects = 0;
  for (const std::size_t e : lost.effects) effects += e;
  EXPECT_EQ(effects, 3u * 30 - 2);
}

TEST(MainEffects, AdditiveGridSharesAreTheAxesVariances) {
  // y = x + 2 z on a 3 x 4 grid (x in {0, 1, 2}, z in {0, 1, 2, 3}), 2 replicates alike.
  const std::vector<std::uint64_t> shape = {3, 4, 2};
  std::vector<double> y;
  for (int x = 0; x < 3; ++x) {
    for (int z = 0; z < 4; ++z) y.insert(y.end(), 2, x + 2.0 * z);
  }
  const MainEffects m = main_effects(y, shape);
  const double var_x = 2.0 / 3, var_z = 4 * 1.25;  // population variances of x and 2z
  EXPECT_NEAR(m.share[0], var_x / (var_x + var_z), 1e-12);
  EXPECT_NEAR(m.share[1], var_z / (var_x + var_z), 1e-12);
  EXPECT_NEAR(m.share[2], 0.0, 1e-12);
  EXPECT_EQ(m.values_used, 24u);
}

TEST(MainEffects, PureInteractionHasNoMainEffectAndMissingPointsAreSkipped) {
  const std::vector<std::uint64_t> shape = {2, 2};
  const MainEffects m = main_effects(std::vector<double>{1, -1, -1, 1}, shape);
  EXPECT_NEAR(m.share[0], 0.0, 1e-12);
  EXPECT_NEAR(m.share[1], 0.0, 1e-12);
  const MainEffects missing = main_effects(std::vector<double>{0, NAN, 1, 1}, shape);
  EXPECT_EQ(missing.values_used, 3u);
  EXPECT_NEAR(missing.share[0], 1.0, 1e-12);
}

TEST(RankCorrelations, MonotoneFactorIsOneAndAnIgnoredOneNearZero) {
  const UnitDesign d = latin_hypercube(500, 2, 4);
  std::vector<std::vector<double>> x(2);
  std::vector<double> y;
  for (std::size_t r = 0; r < d.rows(); ++r) {
    x[0].push_back(d.at(r, 0));
    x[1].push_back(d.at(r, 1));
    y.push_back(std::exp(5 * d.at(r, 0)));
  }
  y[7] = NAN;
  const std::vector<double> rho = rank_correlations(y, x);
  EXPECT_NEAR(rho[0], 1.0, 1e-12);
  EXPECT_NEAR(rho[1], 0.0, 0.15);
}

}  // namespace
}  // namespace dcsweep::analysis
