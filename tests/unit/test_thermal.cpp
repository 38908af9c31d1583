// The physics against hand computations and independent recomputation: D from A on 2 and 3
// nodes, the real meng40 matrix (23.73 / 41.20 C), incremental inlet rises vs full products,
// matrix files and their errors, the generator's calibration, cooling controllers (CoP, redline,
// the two-mode thermostat worked by hand), power presets, and energies in a tiny simulation.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

#include "dcsweep/power/node_power.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/run.hpp"
#include "dcsweep/thermal/cooling.hpp"
#include "dcsweep/thermal/crac_node.hpp"
#include "dcsweep/thermal/inlet_model.hpp"
#include "dcsweep/thermal/recirculation.hpp"
#include "scenario_builder.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

using test::input_error;

Platform preset(const std::string& name, const ParamSet& params) {
  return *platform_registry().at(name).make({params, {}}, TraceHint{});
}

TEST(HeatDistribution, TwoNodesByHand) {
  // A = [[0, a], [b, 0]]: node 1 sends a of its heat to node 2's inlet, node 2 sends b to node 1.
  // M = K - A^T K = [[k1, -b k2], [-a k1, k2]], det = k1 k2 (1 - a b), D = M^-1 - K^-1:
  const double a = 0.2, b = 0.1, k1 = 300, k2 = 150, det = 1 - a * b;
  Matrix A(2, 2);
  A << 0, a, b, 0;
  const Matrix d = heat_distribution_from_recirculation(A, {k1, k2});
  EXPECT_NEAR(d(0, 0), 1 / (k1 * det) - 1 / k1, 1e-15);
  EXPECT_NEAR(d(0, 1), b / (k1 * det), 1e-15);
  EXPECT_NEAR(d(1, 0), a / (k2 * det), 1e-15);
  EXPECT_NEAR(d(1, 1), 1 / (k2 * det) - 1 / k2, 1e-15);
  // T_in = T_sup + D P: node 1 at 1000 W, node 2 at 500 W, T_sup 15 C.
  const Eigen::Vector2d p(1000, 500);
  const Eigen::Vector2d t = 15 + (d * p).array();
  EXPECT_NEAR(t(0), 15 + 1000 * (1 / (k1 * det) - 1 / k1) + 500 * b / (k1 * det), 1e-12);
}

TEST(HeatDistribution, ThreeNodesAgainstTheNeumannSeries) {
  // Independent route: D = K^-1 sum_{m >= 1} (A^T)^m (converges: rows of A sum below 1).
  Matrix A(3, 3);
  A << 0.05, 0.2, 0.1, 0.3, 0.0, 0.25, 0.1, 0.15, 0.2;
  const std::vector<double> k{250, 300, 350};
  const Matrix d = heat_distribution_from_recirculation(A, k);
  Matrix sum = Matrix::Zero(3, 3), power = Matrix::Identity(3, 3);
  for (int m = 1; m < 400; ++m) {
    power = power * A.transpose();
    sum += power;
  }
  for (int i = 0; i < 3; ++i) sum.row(i) /= k[std::size_t(i)];
  EXPECT_LT((d - sum).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(HeatDistribution, LargeRoomsByBlockInversionSolveTheDefinitionOnAnyThreadCount) {
  // 1,100 zones (above kBlockInverseZones: the block inversion), a random non-symmetric A whose
  // rows sum to 0.05-0.95 and uneven K: (I - A^T) (K D + I) = I, checked by an independent product,
  // and the same bits on 1 and 3 threads (the work is cut by sizes, not by threads).
  const Eigen::Index n = 1100;
  static_assert(1100 >= kBlockInverseZones);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  Matrix a(n, n);
  std::vector<double> k(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < n; ++j) a(i, j) = u(rng) * u(rng);
    a.row(i) *= (0.05 + 0.9 * u(rng)) / a.row(i).sum();
    k[std::size_t(i)] = 100 + 400 * u(rng);
  }
  const Matrix d1 = heat_distribution_from_recirculation(a, k, 1);
  const Matrix d3 = heat_distribution_from_recirculation(a, k, 3);
  EXPECT_TRUE((d1.array() == d3.array()).all());
  Matrix kd = d1;
  for (Eigen::Index i = 0; i < n; ++i) kd.row(i) *= k[std::size_t(i)];
  kd.diagonal().array() += 1.0;  // (I - A^T)^-1
  const Matrix identity = (Matrix::Identity(n, n) - a.transpose()) * kd;
  EXPECT_LT((identity - Matrix::Identity(n, n)).cwiseAbs().maxCoeff(), 1e-12);
  // A row summing to 1 is not strictly dominant: the pivoting LU builds D, to the same result.
  Matrix edge = a.topLeftCorner(1024, 1024);
  edge.row(0) /= edge.row(0).sum();
  const Matrix de = heat_distribution_from_recirculation(edge, std::vector<double>(1024, 300.0));
  Matrix ke = 300.0 * de;
  ke.diagonal().array() += 1.0;
  EXPECT_LT(((Matrix::Identity(1024, 1024) - edge.transpose()) * ke - Matrix::Identity(1024, 1024)).cwiseAbs().maxCoeff(),
            1e-11);
}

TEST(HeatDistribution, RowsColumnsAndEntriesAreTheSameValuesInEitherPrecision) {
  // Read back from the cumulative columns, in double (50 zones) and in single precision (2,100
  // zones, above kSinglePrecisionZones): row(i) (strided too) equals entry(i, j) bit for bit and
  // column(j) equals entry(i, j) likewise, add_column(j) base + column(j) x weight; all of them D's
  // own entries to within the precision.
  for (const Eigen::Index n : {Eigen::Index{50}, HeatDistribution::kSinglePrecisionZones + 52}) {
    std::mt19937_64 rng{static_cast<std::uint64_t>(n)};
    std::uniform_real_distribution<double> u(0, 1e-3);
    Matrix d(n, n);
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index j = 0; j < n; ++j) d(i, j) = u(rng);
    }
    const HeatDistribution h{Matrix(d)};
    const double tolerance = n > HeatDistribution::kSinglePrecisionZones ? 1e-6 : 1e-15;
    std::vector<double> row(static_cast<std::size_t>(n)), strided(static_cast<std::size_t>(3 * n));
    Eigen::VectorXd column, base = Eigen::VectorXd::Random(n), added, in_place;
    for (const Eigen::Index i : {Eigen::Index{0}, n / 3, n - 1}) {
      h.row(i, row.data());
      h.row(i, strided.data() + 1, 3);
      h.column(i, column);
      // add_column: base + column x weight bit for bit, into another vector or in place
      h.add_column(i, 37.5, base, added);
      in_place = base;
      h.add_column(i, 37.5, in_place, in_place);
      const Eigen::VectorXd expected = base + column * 37.5;
      ASSERT_EQ(added, expected) << n << " " << i;
      ASSERT_EQ(in_place, expected) << n << " " << i;
      for (Eigen::Index j = 0; j < n; ++j) {
        ASSERT_EQ(row[std::size_t(j)], h.entry(i, j)) << n << " " << i << " " << j;
        ASSERT_EQ(strided[std::size_t(3 * j + 1)], h.entry(i, j)) << n << " " << i << " " << j;
        ASSERT_EQ(column[j], h.entry(j, i)) << n << " " << i << " " << j;
        ASSERT_NEAR(row[std::size_t(j)], d(i, j), tolerance) << n << " " << i << " " << j;
      }
    }
  }
}

TEST(HeatDistribution, Meng40IsThePapersRoom) {
  ParamSet params(simulation_catalog());
  const Platform room = preset("meng40", params);
  const HeatDistributionBuild built = build_heat_distribution(room, params);
  ASSERT_EQ(built.d->size(), 40);
  EXPECT_TRUE(built.warnings.empty());
  InletRise rise(built.d);
  rise.add(0, 40, 1000);  // every node at 1000 W
  EXPECT_NEAR(15 + rise.max(), 23.73, 0.005);
  rise.add(0, 40, 2000);  // now 3000 W
  EXPECT_NEAR(15 + rise.max(), 41.20, 0.005);
  EXPECT_NEAR(built.d->matrix().rowwise().sum().maxCoeff(), 8.7344786e-3, 1e-10);
}

TEST(InletRise, IncrementalRunsEqualTheFullProduct) {
  std::mt19937_64 gen(3);
  Matrix d = Matrix::Random(60, 60).cwiseAbs() * 1e-3;
  auto shared = std::make_shared<const HeatDistribution>(d);
  InletRise rise(shared);
  Eigen::VectorXd p = Eigen::VectorXd::Zero(60);
  for (int step = 0; step < 200; ++step) {
    const Eigen::Index b = Eigen::Index(gen() % 60), e = b + 1 + Eigen::Index(gen() % std::uint64_t(60 - b));
    const double dp = double(gen() % 2000) - 1000.0;
    rise.add(b, e, dp);
    p.segment(b, e - b).array() += dp;
  }
  const Eigen::VectorXd full = d * p;
  EXPECT_LT((rise.rise() - full).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_DOUBLE_EQ(rise.max(), rise.rise().maxCoeff());
}

TEST(MatrixFiles, CsvAndMatrixMarket) {
  const Matrix csv = parse_matrix("# comment\n1, 2\n3,4\n", "m.csv");
  EXPECT_EQ(csv(1, 0), 3);
  const Matrix coordinate = parse_matrix("%%MatrixMarket matrix coordinate real general\n% c\n2 2 2\n1 2 0.5\n2 1 7\n", "m.mtx");
  EXPECT_EQ(coordinate(0, 1), 0.5);
  EXPECT_EQ(coordinate(1, 0), 7);
  EXPECT_EQ(coordinate(0, 0), 0);
  const Matrix symmetric = parse_matrix("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 3\n", "s.mtx");
  EXPECT_EQ(symmetric(0, 1), 3);
  const Matrix array = parse_matrix("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "a.mtx");
  EXPECT_EQ(array(1, 0), 2);  // column-major
  EXPECT_EQ(array(0, 1), 3);
}

TEST(MatrixFiles, ErrorsNameTheFileLineAndProblem) {
  EXPECT_EQ(input_error([] { parse_matrix("1,2\n3\n", "m.csv"); }), "m.csv:2: 1 values, the first row has 2");
  EXPECT_EQ(input_error([] { parse_matrix("1,x\n", "m.csv"); }), "m.csv:1: 'x' is not a finite number");
  EXPECT_EQ(input_error([] { parse_matrix("%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n", "m.mtx"); }),
            "m.mtx:3: index (3, 1) outside 2 x 2");
  EXPECT_EQ(input_error([] { parse_matrix("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n% c\n", "m.mtx"); }),
            "m.mtx: 1 entries, the size line says 2");
  // Found by fuzz_matrix: a symmetric matrix that is not square wrote its mirrored entries outside
  // the matrix (heap corruption under ASan).
  EXPECT_EQ(input_error([] { parse_matrix("%%MatrixMarket matrix coordinate real symmetric\n3 2 1\n3 1 1\n", "m.mtx"); }),
            "m.mtx:2: a symmetric matrix must be square, the size line says 3 x 2");
  // Found by fuzz_matrix: a short file that claims a huge matrix must be refused before the dense
  // matrix is allocated (5014 x 52371 doubles is 2 GB).
  EXPECT_EQ(input_error([] { parse_matrix("%%MatrixMarket matrix coordinate real general\n5014 52371 3\n1 1 1\n", "m.mtx"); }),
            "m.mtx:2: 5014 x 52371 is larger than a room matrix can be (at most 134217728 entries)");
  EXPECT_EQ(input_error([] { parse_matrix("%%MatrixMarket matrix coordinate real general\n9000 9000 48063\n1 1 1\n", "m.mtx"); }),
            "m.mtx:2: the size line promises 48063 values, the file has only 1 lines after it");
  EXPECT_EQ(input_error([] { parse_matrix("%%MatrixMarket matrix array real general\n3000 3000\n1\n", "m.mtx"); }),
            "m.mtx:2: the size line promises 9000000 values, the file has only 1 lines after it");
  Matrix a(2, 2);
  a << 0, 0.5, 0.7, 0.4;
  EXPECT_EQ(input_error([&] { check_recirculation(a, 2, "A.csv"); }),
            "A.csv: row 2 of A sums to 1.1 (must be below 1: a node cannot recirculate all of its heat)");
  a << 0, -0.1, 0, 0;
  EXPECT_EQ(input_error([&] { check_recirculation(a, 2, "A.csv"); }), "A.csv: A[1][2] = -0.1 is negative (a fraction of heat)");
  EXPECT_EQ(input_error([&] { check_recirculation(a, 3, "A.csv"); }),
            "A.csv: A is 2 x 2; the platform has 3 thermal zones");
  EXPECT_EQ(input_error([] { check_heat_distribution(Matrix::Zero(2, 3), 2, "D.csv"); }),
            "D.csv: D must be square, it is 2 x 3");
  Matrix d = Matrix::Constant(2, 2, 1e-3);
  d(0, 1) = -2e-5;
  const auto warnings = check_heat_distribution(d, 2, "D.csv");  // kept, with a warning
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "D.csv: 1 negative entries in D (down to -2e-05 K/W), kept: a D fitted from CFD can have them");
}

TEST(Generator, LandsNearTheRealMeng40Room) {
  ParamSet params(simulation_catalog());
  params.set("platform", std::string("room"));  // 2 x 5 x 4 meng chassis by default: meng40's layout
  const Platform room = preset("room", params);
  const HeatDistributionBuild generated = build_heat_distribution(room, params);
  const Matrix dg = generated.d->matrix();
  ParamSet real_params(simulation_catalog());
  const Matrix dr = build_heat_distribution(preset("meng40", real_params), real_params).d->matrix();
  const Eigen::VectorXd gen_rows = dg.rowwise().sum(), real_rows = dr.rowwise().sum();
  EXPECT_NEAR(gen_rows.maxCoeff(), real_rows.maxCoeff(), 0.15 * real_rows.maxCoeff());
  // The hottest inlets are at the same end of each row in both: the rack with the largest mean row sum.
  for (int row = 0; row < 2; ++row) {
    auto hottest = [&](const Eigen::VectorXd& sums) {
      int best = 0;
      double best_sum = -1;
      for (int rack = 0; rack < 5; ++rack) {
        const double s = sums.segment(row * 20 + rack * 4, 4).sum();
        if (s > best_sum) best_sum = s, best = rack;
      }
      return best;
    };
    EXPECT_EQ(hottest(gen_rows), hottest(real_rows)) << "row " << row;
  }
  EXPECT_GE(dg.minCoeff(), 0.0);
  // Deterministic from room_seed; another seed gives another room.
  EXPECT_EQ(build_heat_distribution(room, params).d->matrix(), dg);
  params.set("room_seed", std::int64_t{2});
  EXPECT_NE(build_heat_distribution(room, params).d->matrix(), dg);
}

TEST(Generator, ContainmentReducesRecirculation) {
  ParamSet params(simulation_catalog());
  const Platform room = preset("oxley1080", params);
  params.set("thermal_zone_nodes", std::int64_t{36});  // a zone per cabinet keeps the test fast
  const double open = build_heat_distribution(room, params).d->matrix().rowwise().sum().maxCoeff();
  params.set("aisle_containment", 1.0);
  const double isolated = build_heat_distribution(room, params).d->matrix().rowwise().sum().maxCoeff();
  EXPECT_LT(isolated, 0.2 * open);
}

TEST(Cooling, CopAndSteadyControllersByHand) {
  EXPECT_NEAR(coefficient_of_performance(15), 0.0068 * 225 + 0.0008 * 15 + 0.458, 1e-15);  // 2.0
  ParamSet params(simulation_catalog());
  params.set("supply_temp_c", 15.0);
  params.set("redline_c", 25.0);
  const CoolingRoom room;
  // redline: max rise 8 K -> T_sup' = 25 - 8 = 17 C; 40 kW / CoP(17).
  params.set("cooling", std::string("redline"));
  auto redline = cooling_registry().at("redline").make({params, {}}, room);
  redline->update(0, {40000, 8});
  EXPECT_DOUBLE_EQ(redline->supply_c(), 17);
  EXPECT_DOUBLE_EQ(redline->power_w(), 40000 / coefficient_of_performance(17));
  CoolingInterval iv = redline->advance(10, 25);
  EXPECT_DOUBLE_EQ(iv.energy_j, 10 * 40000 / coefficient_of_performance(17));
  EXPECT_EQ(iv.time_above_s, 0);
  // static at 15 C with a 12 K rise: 27 C > 25 C for the whole interval.
  auto fixed = cooling_registry().at("static").make({params, {}}, room);
  fixed->update(0, {40000, 12});
  iv = fixed->advance(5, 25);
  EXPECT_DOUBLE_EQ(iv.energy_j, 5 * 40000 / 2.0 * 2.0 / coefficient_of_performance(15));
  EXPECT_EQ(iv.time_above_s, 5);
  EXPECT_EQ(iv.max_supply_c + 12, 27);
}

TEST(Cooling, ThermostatWorkedByHand) {
  // r_room = rho c_p V = 1000 J/K (V chosen so), r_ac = rho c_p f = 2000 W/K; low mode extracts
  // 1000 W, high 5000 W; compute 3000 W. Start in low mode at T_sen = high - delta = 20 C.
  ParamSet params(simulation_catalog());
  const double rho_c = 1.19 * 1005;
  params.set("thermostat_high_c", 30.0);
  params.set("thermostat_delta_c", 10.0);
  params.set("crac_low_extract_w", 1000.0);
  params.set("crac_high_extract_w", 5000.0);
  params.set("crac_switch_s", 2.0);
  params.set("room_air_volume_m3", 1000 / rho_c);
  auto crac = cooling_registry().at("thermostat").make({params, {}}, CoolingRoom{2000 / rho_c, 1.19, 1005});
  crac->update(0, {3000, 0});
  // Low mode: T_sen rises (3000 - 1000) / 1000 = 2 K/s; reaches 30 C at t = 5 s; switch at 7 s.
  EXPECT_DOUBLE_EQ(crac->supply_c(), 20 - 1000.0 / 2000);  // 19.5 C
  EXPECT_NEAR(crac->next_event_s(), 7, 1e-12);
  const CoolingInterval low = crac->advance(7, 100);
  // P_AC = 1000^2 / (2000 T_K), T from 19.5 C rising 2 K/s: integral = 500/2 ln(T1/T0).
  const double t0 = 19.5 + 273.15, t1 = t0 + 14;
  EXPECT_NEAR(low.energy_j, 500.0 / 2 * std::log(t1 / t0), 1e-9);
  crac->on_timer(7);
  // High mode at T_sen = 34 C: falls (3000 - 5000) / 1000 = -2 K/s to 20 C at 14 s; switch at 16 s.
  EXPECT_NEAR(crac->supply_c(), 34 - 5000.0 / 2000, 1e-12);
  EXPECT_NEAR(crac->next_event_s(), 16, 1e-12);
}

TEST(CracNode, TwoNodesAndOneCracByHand) {
  // Inlet shares: node 0 draws 0.2 from node 1 and 0.8 from the CRAC; node 1 draws 0.1 from node 0
  // and 0.9 from the CRAC; the CRAC draws half from each node. Node powers give outlet rises q =
  // (10, 20) K; the CRAC supplies 15 C:
  //   T0 = 0.8 x 15 + 0.2 (T1 + 20),  T1 = 0.9 x 15 + 0.1 (T0 + 10)
  //   => T0 = 18.9 / 0.98, T1 = 14.5 + 0.1 T0; TC_in = (T0 + 10 + T1 + 20) / 2.
  InfluenceIndices a;
  a.node.resize(2, 3);
  std::vector<Eigen::Triplet<double>> t{{1, 0, 0.2}, {0, 1, 0.1}, {0, 2, 0.5}, {1, 2, 0.5}};
  a.node.setFromTriplets(t.begin(), t.end());
  a.crac = Matrix(1, 3);
  a.crac << 0.8, 0.9, 0.0;
  const AirProperties air;
  const double rho_c = air.density_kg_m3 * air.heat_capacity_j_kgk;
  const CracNodeModel model(a, {0.1, 0.2}, {0.5}, air);
  const Eigen::Vector2d power(rho_c * 0.1 * 10, rho_c * 0.2 * 20);
  const auto s = model.solve(power, Eigen::VectorXd::Constant(1, 15.0));
  const double t0 = 18.9 / 0.98, t1 = 14.5 + 0.1 * t0, crac_in = (t0 + 10 + t1 + 20) / 2;
  EXPECT_NEAR(s.node_in_c(0), t0, 1e-12);
  EXPECT_NEAR(s.node_in_c(1), t1, 1e-12);
  EXPECT_NEAR(s.crac_in_c(0), crac_in, 1e-12);
  EXPECT_NEAR(s.removed_heat_w, rho_c * 0.5 * (crac_in - 15), 1e-8);
  // These shares lose air, hence heat: node 1 exhausts 0.1 m3/s but delivers 0.1 x 0.2 to node 2
  // and 0.5 x 0.5 to the CRAC, 0.27 m3/s (+170%, the worst; node 2 +35%, the CRAC -48%).
  std::string message = input_error([&] { check_influence(a, {0.1, 0.2}, {0.5}, "hand"); });
  EXPECT_EQ(message.rfind("hand: air is not conserved: the outlet of node zone 1 delivers 0.27", 0), 0u) << message;
  EXPECT_NE(message.find("moves 0.1 m3/s (+170%)"), std::string::npos) << message;
  // Shares that do not sum to 1 are rejected.
  a.crac(0, 0) = 0.7;
  message = input_error([&] { check_influence(a, {0.1, 0.2}, {0.5}, "bad"); });
  EXPECT_EQ(message.rfind("bad: the shares of inlet 1 (node zone 1) sum to 0.8999", 0), 0u) << message;
}

TEST(CracNode, GeneratedTwoNodesAndOneCracByHand) {
  // Two zones side by side in one row (racks 0 and 1, bottom slots, no row-end gain: every inlet factor is 1),
  // node air 0.1 and 0.2 m3/s, one CRAC of 0.2 m3/s, fraction 0.3, no noise, and a rack decay
  // of 1 / ln 2, so the layout prefers a zone's own outlet 2:1 over its neighbour's: W = [[1, .5], [.5, 1]].
  //  - Targets: each inlet would draw 0.3 from node outlets, 0.7 from the CRAC: 0.7 x 0.3 = 0.21 m3/s
  //    of CRAC air, but the CRAC gives at most 0.9 x 0.2 = 0.18 (10% bypass at least). So both CRAC
  //    shares scale by 0.18 / 0.21: 0.6; the inlets recirculate 0.4 of their air, and the CRAC
  //    bypasses 0.02 m3/s (0.1 of its inlet air).
  //  - Node to node: 0.3 - 0.18 = 0.12 m3/s; each outlet sends the same share 0.12 / 0.3 = 0.4 of
  //    its air: row sums (0.04, 0.08); the inlets draw 0.4 x (0.1, 0.2): column sums (0.04, 0.08).
  //    The fit keeps W's cross ratio: F = [[p, q], [q, r]] with p r / q^2 = 1 / 0.25 = 4,
  //    p = 0.04 - q, r = 0.08 - q => 3 q^2 + 0.12 q - 0.0032 = 0.
  //  - Node to CRAC: what the outlets do not recirculate, (0.06, 0.12) m3/s of the CRAC's 0.2.
  const double q = (-0.12 + std::sqrt(0.12 * 0.12 + 12 * 0.0032)) / 6, p = 0.04 - q, r = 0.08 - q;
  Matrix expected(3, 3);  // A[x][y]: share of inlet y's air from outlet x (node 1, node 2, CRAC)
  expected << p / 0.1, q / 0.2, 0.06 / 0.2,
              q / 0.1, r / 0.2, 0.12 / 0.2,
              0.6,     0.6,     0.02 / 0.2;
  ThermalZones zones;
  zones.row = {0, 0};
  zones.rack = {0, 1};
  zones.height = {0, 0};
  zones.airflow_m3s = {0.1, 0.2};
  RecirculationGenerator g;
  g.fraction = 0.3;
  g.rack_decay = 1 / std::log(2.0);
  g.end_gain = 0;
  g.noise = 0;
  RngStream rng(StreamKey{1, 0, 0}, StreamPurpose::room);
  const InfluenceIndices a = generate_influence(zones, {0.2}, g, rng);
  Matrix got(3, 3);
  got << Matrix(a.node), a.crac;
  EXPECT_LT((got - expected).cwiseAbs().maxCoeff(), 1e-11) << got;
  // Every watt the nodes dissipate leaves through the CRAC.
  const CracNodeModel model(a, zones.airflow_m3s, {0.2}, AirProperties{});
  const auto s = model.solve(Eigen::Vector2d(300, 500), Eigen::VectorXd::Constant(1, 18.0));
  EXPECT_NEAR(s.removed_heat_w, 800, 800 * 1e-10);
}

/// sum_y A[x][y] AF(y) - AF(x) per outlet and sum_x A[x][y] - 1 per inlet, the worst of each.
std::pair<double, double> air_imbalance(const InfluenceIndices& a, const std::vector<double>& node_air,
                                        const std::vector<double>& crac_air) {
  Eigen::VectorXd flow(Eigen::Index(node_air.size() + crac_air.size()));
  for (std::size_t k = 0; k < node_air.size() + crac_air.size(); ++k) {
    flow(Eigen::Index(k)) = k < node_air.size() ? node_air[k] : crac_air[k - node_air.size()];
  }
  Matrix all(flow.size(), flow.size());
  all << Matrix(a.node), a.crac;
  const Eigen::VectorXd delivered = all * flow;
  const double outlets = ((delivered - flow).cwiseQuotient(flow)).cwiseAbs().maxCoeff();
  const double inlets = (all.colwise().sum().array() - 1).abs().maxCoeff();
  return {outlets, inlets};
}

TEST(CracNode, GeneratedIndicesConserveAir) {
  // A generated room of mixed node types: CRAC air short of, equal to and well above node air,
  // at every containment; each outlet delivers its air, each inlet is fully supplied.
  ParamSet params(simulation_catalog());
  test::set_room_layout(params, 3, 7, 5);
  params.set("room_node_types", std::string("xeon_e3_1225v3:2,xeon_e5_2697v2:1"));
  const ThermalZones zones = thermal_zones(preset("room", params), 1);
  const double node_air = std::accumulate(zones.airflow_m3s.begin(), zones.airflow_m3s.end(), 0.0);
  for (const double crac_ratio : {0.3, 1.0, 3.0}) {
    for (const double containment : {0.0, 0.5, 1.0}) {
      RecirculationGenerator g;
      g.containment = containment;
      RngStream rng(StreamKey{7, 0, 0}, StreamPurpose::room);
      const std::vector<double> crac_air{0.5 * crac_ratio * node_air, 0.5 * crac_ratio * node_air};
      const InfluenceIndices a = generate_influence(zones, crac_air, g, rng);
      const auto [outlets, inlets] = air_imbalance(a, zones.airflow_m3s, crac_air);
      EXPECT_LT(outlets, 1e-11) << crac_ratio << " " << containment;
      EXPECT_LT(inlets, 1e-12) << crac_ratio << " " << containment;
      EXPECT_GE(Matrix(a.node).minCoeff(), 0.0);
      // Short of CRAC air, the nodes recirculate at least the shortfall: 70% of their air.
      const Eigen::Map<const Eigen::VectorXd> flows(zones.airflow_m3s.data(), Eigen::Index(zones.size()));
      const double recirculated = (Matrix(a.node).leftCols(flows.size()) * flows).sum();
      if (crac_ratio < 1) {
        EXPECT_GE(recirculated, 0.7 * node_air - 1e-12);
      }
    }
  }
}

/// Heat the CRACs remove over the nodes' power, at a power varying from zone to zone.
double removed_share(const std::string& platform, ParamSet params, double containment) {
  params.set("thermal_model", std::string("crac_node"));
  params.set("aisle_containment", containment);
  const Platform room = preset(platform, params);
  const HeatDistributionBuild heat = build_heat_distribution(room, params);
  Eigen::VectorXd power(Eigen::Index(heat.zones->size()));
  for (Eigen::Index z = 0; z < power.size(); ++z) power(z) = heat.zones->zone_nodes * (50.0 + double(z % 7) * 30);
  return thermal_state(heat, power).removed_heat_w / power.sum();
}

TEST(CracNode, CracsRemoveWhatTheNodesDissipateInEveryRoom) {
  ParamSet params(simulation_catalog());
  for (const char* platform : {"meng40", "asu50", "oxley1080", "intrepid"}) {
    for (const double containment : {0.0, 0.5, 1.0}) {
      EXPECT_NEAR(removed_share(platform, params, containment), 1, 1e-9) << platform << " " << containment;
    }
  }
  test::set_room_layout(params, 4, 6, 3);
  params.set("room_cracs", std::int64_t{3});
  params.set("room_node_types", std::string("xeon_e5649,meng_chassis"));
  for (const double containment : {0.0, 0.5, 1.0}) EXPECT_NEAR(removed_share("room", params, containment), 1, 1e-9);
  // Layouts whose weights vanish between parts of the room (racks that do not exchange air, rows
  // that do not couple) cannot carry the flows on their own pattern: the well-mixed fallback.
  test::set_room_layout(params, 2, 6, 4);
  params.set("room_cracs", std::int64_t{1});
  params.set("recirculation_rack_decay", 0.001);
  for (const double containment : {0.0, 1.0}) EXPECT_NEAR(removed_share("room", params, containment), 1, 1e-9);
  params.set("recirculation_rack_decay", 1.5);
  params.set("recirculation_cross_row", 0.0);
  params.set("recirculation_far_row", 0.0);
  params.set("room_node_types", std::string("xeon_e3_1225v3:2,xeon_e5_2697v2:1"));
  for (const double containment : {0.0, 0.5}) EXPECT_NEAR(removed_share("room", params, containment), 1, 1e-9);
}

TEST(CracNode, CracsRemoveWhatTheNodesDissipateOnOxley4320) {
  // 4,320 zones at node level, 197 m3/s of node air against two CRACs of 26.1 m3/s.
  const ParamSet params(simulation_catalog());
  for (const double containment : {0.0, 0.5, 1.0}) {
    EXPECT_NEAR(removed_share("oxley4320", params, containment), 1, 1e-9) << containment;
  }
}

TEST(CracNode, IsolatedAislesRunCooler) {
  ParamSet params(simulation_catalog());
  params.set("thermal_model", std::string("crac_node"));
  params.set("thermal_zone_nodes", std::int64_t{36});
  const Platform room = preset("oxley1080", params);
  const Eigen::VectorXd power = Eigen::VectorXd::Constant(30, 36 * 200.0);
  const ThermalState open = thermal_state(build_heat_distribution(room, params), power);
  params.set("aisle_containment", 1.0);
  const ThermalState isolated = thermal_state(build_heat_distribution(room, params), power);
  EXPECT_LT(isolated.rise_k.maxCoeff(), 0.5 * open.rise_k.maxCoeff());
  EXPECT_GT(open.rise_k.minCoeff(), 0.0);
}

TEST(NodePower, PresetsByHand) {
  ParamSet params(simulation_catalog());
  const Platform meng = preset("meng40", params);
  EXPECT_EQ((*make_node_power(params, meng, {}))[0].busy_w, 0.7 * 3000 + 0.3 * 2300);
  params.set("node_power", std::string("meng_p1"));
  EXPECT_EQ((*make_node_power(params, meng, {}))[0].busy_w, 0.7 * 2500 + 0.3 * 2000);
  params.set("node_power", std::string("platform"));
  const Platform asu = preset("asu50", params);
  const auto chassis = *make_node_power(params, asu, {});
  EXPECT_EQ(chassis[0].idle_w, 2420);
  EXPECT_EQ(chassis[0].busy_w, 2420 + 175);
  EXPECT_EQ(chassis[1].busy_w, 1820 + 72);
  const auto parm = *make_node_power(params, preset("intrepid", params), {});
  EXPECT_EQ(parm[0].busy_w, 116);  // 60 + 18 + 38: [P2]'s 116 W per node
  EXPECT_EQ(parm[0].idle_w, 86);
  const auto oxley = *make_node_power(params, preset("oxley1080", params), {});
  ASSERT_EQ(oxley.size(), 3u);
  EXPECT_NEAR(oxley[0].busy_w, 40 + 4 * 16.8, 1e-12);
}

TEST(Platforms, LayoutsNetworksAndZones) {
  ParamSet params(simulation_catalog());
  const Platform meng = preset("meng40", params);
  const RoomPosition p = meng.position(27);  // rack 6 = row 1, rack 1; slot 3
  EXPECT_EQ(p.row, 1);
  EXPECT_EQ(p.rack, 1);
  EXPECT_EQ(p.slot, 3);
  EXPECT_EQ(meng.hops(0, 39), 1 + 4 + 3);
  const Platform intrepid = preset("intrepid", params);
  EXPECT_EQ(intrepid.node_count, 40960);
  EXPECT_EQ(intrepid.zone_count(), 80);
  EXPECT_EQ(intrepid.hops(0, 39 * 32 * 32), 1);  // the torus wraps around
  const Platform asu = preset("asu50", params);
  int pe1955 = 0;
  for (int n = 0; n < 50; ++n) pe1955 += asu.type_of(n).name == "pe1955";
  EXPECT_EQ(pe1955, 30);
  EXPECT_EQ(preset("oxley4320", params).node_count, 4320);
  test::set_room_layout(params, 4, 10, 8);
  EXPECT_EQ(preset("room", params).node_count, 320);
  EXPECT_NE(input_error([&] { thermal_zones(meng, 3); }).find("must divide the 4 nodes of a rack"), std::string::npos);
}

TEST(DataCenterModel, EnergiesOfATinyRunByHand) {
  // 4 nodes of 1000 W idle / 2790 W busy on meng40-like power, D = 1e-3 K/W everywhere,
  // static cooling at 15 C. One 2-node job from t = 0 to t = 100 s; a second job keeps the
  // machine alive until t = 200 s on 1 node.
  Scenario s = test::scenario(4, "fcfs", {{1, 0, 2, 100}, {2, 0, 1, 200}});
  s.params.set("cooling", std::string("static"));
  s.platform.room = {1, 1, 4, 1, 1.0};
  s.platform.power_preset = "meng_p0";
  HeatDistributionBuild heat;
  heat.zones = std::make_shared<ThermalZones>(thermal_zones(s.platform, 1));
  heat.d = std::make_shared<const HeatDistribution>(Matrix::Constant(4, 4, 1e-3));
  auto power = make_node_power(s.params, s.platform, s.key);
  ASSERT_TRUE(power);
  DataCenterModel model(s, *power, heat);
  SimObserver* observers[] = {&model};
  const SimulationResult r = simulate(s, observers);
  const double busy = 2790, idle = 1000;
  const double p1 = 3 * busy + idle, p2 = busy + 3 * idle;  // [0, 100) then [100, 200)
  EXPECT_NEAR(r.report.value("compute_energy_j"), 100 * p1 + 100 * p2, 1e-6);
  const double cop = coefficient_of_performance(15);
  EXPECT_NEAR(r.report.value("cooling_energy_j"), (100 * p1 + 100 * p2) / cop, 1e-6);
  EXPECT_NEAR(r.report.value("max_inlet_c"), 15 + 1e-3 * p1, 1e-9);  // every inlet sees all power
  EXPECT_NEAR(r.report.value("avg_cooling_power_w"), (p1 + p2) / 2 / cop, 1e-9);
  EXPECT_NEAR(r.report.value("max_cooling_power_w"), p1 / cop, 1e-9);
  EXPECT_EQ(r.report.value("time_above_redline_s"), 0);  // 15 + 9.37 < 25
  EXPECT_DOUBLE_EQ(r.report.value("avg_supply_temp_c"), 15);
}

}  // namespace
}  // namespace dcsweep

namespace dcsweep {
namespace {

TEST(DataCenterModel, ThermostatRunsEndWithTheLastJob) {
  // The two-mode CRAC oscillates forever on its own; the run must still end with its last job,
  // and the thermostat's own events must have happened in between.
  Scenario s = test::scenario(4, "fcfs", {{1, 0, 4, 5000}, {2, 6000, 2, 3000}});
  s.params.set("cooling", std::string("thermostat"));
  s.params.set("crac_low_extract_w", 2000.0);
  s.params.set("crac_high_extract_w", 20000.0);
  s.params.set("room_air_volume_m3", 5.0);  // a small room: frequent switches
  s.params.set("thermostat_delta_c", 5.0);
  s.platform.room = {1, 1, 4, 1, 1.0};
  s.platform.power_preset = "meng_p0";
  HeatDistributionBuild heat;
  heat.zones = std::make_shared<ThermalZones>(thermal_zones(s.platform, 1));
  heat.d = std::make_shared<const HeatDistribution>(Matrix::Constant(4, 4, 1e-4));
  DataCenterModel model(s, *make_node_power(s.params, s.platform, s.key), heat);
  SimObserver* observers[] = {&model};
  const SimulationResult r = simulate(s, observers);
  EXPECT_DOUBLE_EQ(r.report.value("makespan_s"), 9000);
  const double energy = r.report.value("cooling_energy_j"), peak = r.report.value("max_cooling_power_w");
  EXPECT_TRUE(std::isfinite(energy));
  // Low mode alone would draw about 2000^2 / (r_ac T) ~ 1.4 kW; high mode about 100 times that.
  // A peak near the high mode's shows that the mode switched.
  const double r_ac = 1.19 * 1005 * 1.0;
  EXPECT_GT(peak, 0.5 * 20000.0 * 20000.0 / (r_ac * (40 + 273.15)));
  EXPECT_GT(energy, 9000 * 2000.0 * 2000.0 / (r_ac * (60 + 273.15)));
}

}  // namespace
}  // namespace dcsweep
