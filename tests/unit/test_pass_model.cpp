// [P2]'s PASS model and costs (power/pass_model.hpp): Table VI's naive node counts, worked values
// of Eq. 9-11, 19, 20 and 21, the laws of the speed (1 at the reference, monotone in n and p,
// bounded), Table IV sampling, and the bad inputs.
#include <gtest/gtest.h>

#include <cmath>

#include "dcsweep/power/pass_model.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

constexpr double kIntrepidBudgetW = 116.0 * 40960;

TEST(PassModel, TableSixNaiveNodeCounts) {
  EXPECT_EQ(kIntrepidBudgetW, 4751360.0);
  EXPECT_EQ(naive_node_count(kIntrepidBudgetW, 30), 55248);
  EXPECT_EQ(naive_node_count(kIntrepidBudgetW, 40), 49493);
  EXPECT_EQ(naive_node_count(kIntrepidBudgetW, 50), 44824);
  EXPECT_EQ(naive_node_count(kIntrepidBudgetW, 60), 40960);
  EXPECT_EQ(naive_node_count(3300, 60), 28);  // the testbed's traditional data center (section VI-D)
  EXPECT_EQ(naive_node_count(kIntrepidBudgetW, 60, 0, 0), 79189);
  EXPECT_NE(test::input_error([] { naive_node_count(-1, 60); }), "");
  EXPECT_NE(test::input_error([] { naive_node_count(100, -56); }), "");
}

TEST(PassModel, BootTimeEquationTwentyOne) {
  EXPECT_DOUBLE_EQ(boot_time_s(0, 1000), 1000 * 0.01904 + 72.73);
  EXPECT_NEAR(boot_time_s(512, 1024), 82.47848, 1e-9);
  EXPECT_NEAR(boot_time_s(40960 - 1, 40960), 72.74904, 1e-9);
  EXPECT_EQ(boot_time_s(1024, 512), 0.0);  // a shrink boots nothing
  EXPECT_EQ(boot_time_s(700, 700), 0.0);
}

TEST(PassModel, RedistributionEquationTwenty) {
  // 1024 MB from 8 to 16 nodes over 100 MB/s links: (128 - 64) x 8 / (2 x 100 x 8^(2/3)) = 512 / 800.
  EXPECT_NEAR(redistribution_time_s(1024, 8, 16, 100), 0.64, 1e-12);
  EXPECT_NEAR(redistribution_time_s(1024, 16, 8, 100), 0.64, 1e-12);  // shrink: roles swapped
  EXPECT_EQ(redistribution_time_s(1024, 64, 64, 100), 0.0);
  // 27 -> 54 nodes, 2700 MB, 50 MB/s: (100 - 50) x 27 / (2 x 50 x 9) = 1.5 s; plus boot of 27 nodes.
  EXPECT_NEAR(redistribution_time_s(2700, 27, 54, 50), 1.5, 1e-12);
  EXPECT_NEAR(shrink_expand_time_s(2700, 27, 54, 50), 1.5 + 27 * 0.01904 + 72.73, 1e-12);
  EXPECT_NEAR(shrink_expand_time_s(2700, 54, 27, 50), 1.5, 1e-12);
  EXPECT_NE(test::input_error([] { redistribution_time_s(10, 0, 4, 1); }), "");
  EXPECT_NE(test::input_error([] { redistribution_time_s(10, 2, 4, 0); }), "");
}

TEST(PassModel, DowneyWorkedValuesAndShape) {
  // A = 10, sigma = 0.5: Eq. 9 at n = 5, Eq. 10 at n = 15, Eq. 11 beyond 19.
  EXPECT_NEAR(downey_time_fraction(5, 10, 0.5), 0.975 / 5 + 0.025, 1e-15);
  EXPECT_NEAR(downey_time_fraction(15, 10, 0.5), 0.5 * 0.95 / 15 + 0.075, 1e-15);
  EXPECT_DOUBLE_EQ(downey_time_fraction(25, 10, 0.5), 0.1);
  for (const double sigma : {0.0, 0.3, 1.0}) {
    for (const double a : {1.0, 3.5, 64.0}) {
      EXPECT_NEAR(downey_time_fraction(1, a, sigma), 1.0, 1e-15);
      // Continuous at A and at 2A - 1 (where it reaches T_1 / A).
      EXPECT_NEAR(downey_time_fraction(a, a, sigma), downey_time_fraction(a * (1 + 1e-12), a, sigma), 1e-9);
      EXPECT_NEAR(downey_time_fraction(2 * a - 1, a, sigma), 1 / a, 1e-12);
      double previous = 2;
      for (double n = 1; n <= 3 * a + 2; n += 0.25) {
        const double t = downey_time_fraction(n, a, sigma);
        EXPECT_LE(t, previous + 1e-15) << "n " << n << " A " << a << " sigma " << sigma;
        EXPECT_GE(t, 1 / a - 1e-15);
        previous = t;
      }
    }
  }
  // Strictly faster with more nodes below the limit when sigma < 1 (perfect scaling at sigma 0).
  EXPECT_LT(downey_time_fraction(9, 10, 0.9), downey_time_fraction(8, 10, 0.9));
  EXPECT_DOUBLE_EQ(downey_time_fraction(4, 10, 0.0), 0.25);
}

TEST(PassModel, InverseCubicEquationNineteen) {
  PassParams p;
  p.a = 1, p.b = 3, p.c_w = 0;  // f^3 + 3 f = p: F^-1(4) = 1, F^-1(14) = 2
  EXPECT_NEAR(cpu_frequency_ghz(p, 4), 1.0, 1e-12);
  EXPECT_NEAR(cpu_frequency_ghz(p, 14), 2.0, 1e-12);
  const PassParams leanmd{40, 0.3, 1.65, 7.74, 13.5, 30, 52, 0.40};  // Table IV's LeanMD
  double previous = 0;
  for (double w = 14; w <= 120; w += 0.5) {
    const double f = cpu_frequency_ghz(leanmd, w);
    EXPECT_NEAR(cpu_power_w(leanmd, f), w, 1e-10 * w);
    EXPECT_GT(f, previous);
    previous = f;
  }
  EXPECT_NE(test::input_error([&] { cpu_frequency_ghz(leanmd, 13.5); }), "");
}

TEST(PassModel, FrequencyFactorBoundaries) {
  const PassParams wave2d{30, 0.2, 3.00, 10.23, 13.2, 32, 40, 0.16};  // Table IV's Wave2D
  EXPECT_NEAR(frequency_time_factor(wave2d, 32), 1 / (1 - 0.16), 1e-12);  // t(f_l) = T_l = T_h / (1 - beta)
  EXPECT_DOUBLE_EQ(frequency_time_factor(wave2d, 40), 1.0);
  EXPECT_DOUBLE_EQ(frequency_time_factor(wave2d, 60), 1.0);
  double previous = INFINITY;
  for (double w = 28; w <= 45; w += 0.25) {  // below p_l: Eq. 12 extended, still decreasing
    const double g = frequency_time_factor(wave2d, w);
    EXPECT_LE(g, previous);
    EXPECT_GE(g, 1.0);
    previous = g;
  }
  EXPECT_GT(frequency_time_factor(wave2d, 30), 1 / (1 - 0.16));
  EXPECT_TRUE(pass_admits_cap(wave2d, 32));
  EXPECT_FALSE(pass_admits_cap(wave2d, 30));
}

TEST(PassModel, SpeedIsOneAtTheReferenceMonotoneAndBounded) {
  RngStream rng({7, 0, 0}, StreamPurpose::job_attributes);
  const double caps[] = {30, 33, 36, 44, 50, 60};
  for (int job = 0; job < 200; ++job) {
    const std::int64_t max_nodes = rng.integer(1, 4096);
    const PassParams p = sample_pass_params(rng, double(max_nodes));
    check_pass_params(p);
    const std::int64_t min_nodes = sample_min_nodes(rng, max_nodes);
    const auto levels = node_levels(min_nodes, max_nodes, 8);
    const double n0 = double(levels.front()), p0 = caps[0];
    EXPECT_DOUBLE_EQ(pass_speed(p, n0, p0, n0, p0), 1.0);
    // Upper bound: T_1 / A at or above p_h over the reference's time.
    const double bound = pass_time_fraction(p, n0, p0) * p.avg_parallelism;
    double previous_n = 0;
    for (const std::int64_t n : levels) {
      double previous_p = 0;
      for (const double cap : caps) {
        const double s = pass_speed(p, double(n), cap, n0, p0);
        EXPECT_GE(s, previous_p) << "cap " << cap;
        EXPECT_GE(s, 1.0 - 1e-12);
        EXPECT_LE(s, bound * (1 + 1e-12));
        previous_p = s;
      }
      const double s_max = pass_speed(p, double(n), 60, n0, p0);
      EXPECT_GE(s_max, previous_n);
      if (double(n) <= p.avg_parallelism && previous_n > 0) {
        EXPECT_GT(s_max, previous_n);  // Eq. 9: strictly
      }
      previous_n = s_max;
    }
    // Power alone buys at most 1 / (1 - beta) (from p_l to p_h at a fixed n).
    EXPECT_NEAR(pass_speed(p, n0, p.p_high_w, n0, p.p_low_w), 1 / (1 - p.beta), 1e-12);
  }
}

TEST(PassModel, SamplingStaysInTableFourAndIsReproducible) {
  RngStream a({3, 1, 0}, StreamPurpose::job_attributes), b({3, 1, 0}, StreamPurpose::job_attributes);
  for (int k = 0; k < 500; ++k) {
    const PassParams p = sample_pass_params(a, 100);
    const PassParams q = sample_pass_params(b, 100);
    EXPECT_EQ(p.a, q.a);
    EXPECT_EQ(p.beta, q.beta);
    EXPECT_EQ(p.avg_parallelism, q.avg_parallelism);
    EXPECT_TRUE(p.a >= 1.54 && p.a < 3.00);
    EXPECT_TRUE(p.b >= 6.57 && p.b < 10.23);
    EXPECT_TRUE(p.c_w >= 13 && p.c_w < 14);
    EXPECT_TRUE(p.p_low_w >= 30 && p.p_low_w < 32);
    EXPECT_TRUE(p.p_high_w >= 37 && p.p_high_w < 54);
    EXPECT_TRUE(p.beta >= 0.08 && p.beta < 0.40);
    EXPECT_TRUE(p.avg_parallelism >= 50 && p.avg_parallelism < 150);
    const std::int64_t m = sample_min_nodes(a, 1000);
    EXPECT_EQ(m, sample_min_nodes(b, 1000));
    EXPECT_TRUE(m >= 200 && m <= 600) << m;
  }
  EXPECT_EQ(sample_min_nodes(a, 1), 1);
  EXPECT_EQ(node_levels(10, 80, 8), (std::vector<std::int64_t>{10, 20, 30, 40, 50, 60, 70, 80}));
  EXPECT_EQ(node_levels(3, 5, 8), (std::vector<std::int64_t>{3, 4, 5}));
  EXPECT_EQ(node_levels(7, 7, 8), (std::vector<std::int64_t>{7}));
}

TEST(PassModel, BadInputs) {
  PassParams p;
  check_pass_params(p);
  auto bad = [](PassParams q) { return test::input_error([&] { check_pass_params(q); }); };
  PassParams q = p;
  q.avg_parallelism = 0.5;
  EXPECT_NE(bad(q), "");
  q = p, q.sigma = 1.5;
  EXPECT_NE(bad(q), "");
  q = p, q.beta = 1;
  EXPECT_NE(bad(q), "");
  q = p, q.p_high_w = q.p_low_w;
  EXPECT_NE(bad(q), "");
  q = p, q.a = NAN;
  EXPECT_NE(bad(q), "");
  PassRanges r;
  r.beta_hi = 0.01;
  RngStream rng({1, 0, 0}, StreamPurpose::job_attributes);
  EXPECT_NE(test::input_error([&] { sample_pass_params(rng, 10, r); }), "");
  EXPECT_NE(test::input_error([&] { sample_pass_params(rng, 0.5); }), "");
  EXPECT_NE(test::input_error([&] { node_levels(5, 4, 8); }), "");
  EXPECT_NE(test::input_error([&] { downey_time_fraction(0.5, 10, 0.1); }), "");
}

}  // namespace
}  // namespace dcsweep
