// model = ratebased sweep points (issue 12): an epoch solved end to end through the sweep
// engine's point evaluation, its metrics recomputed independently from the answer, infeasible
// epochs as results, determinism of the GA for a point, what a spec may not hold (a mixed grid),
// an nlp point, and the discrete-event check of the predicted reward rate.
#include <gtest/gtest.h>

#include <cmath>

#include "dcsweep/core/error.hpp"
#include "dcsweep/ratebased/model.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/ratebased.hpp"
#include "dcsweep/sweep/cost.hpp"
#include "dcsweep/sweep/point.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

using test::input_error;

const std::string kTables = std::string(DCSWEEP_SOURCE_DIR) + "/inputs/ratebased/";

/// A spec of ratebased points on a 12-node room (2 rows x 3 racks x 2 nodes, the three Xeons).
std::string spec_text(const std::string& base_extra, const std::string& axes, bool model_in_base = true) {
  return std::string("[sweep]\nseed = 5\n[base]\n") + (model_in_base ? "model = \"ratebased\"\n" : "") +
         "platform = \"room\"\nroom_rows = 2\n"
         "room_racks_per_row = 3\nroom_nodes_per_rack = 2\n"
         "room_node_types = \"xeon_e3_1225v3:1,xeon_e5649:1,xeon_e5_2697v2:1\"\n"
         "ratebased_task_types = \"" + kTables + "task_types.csv\"\n"
         "ratebased_pstate_tables = \"" + kTables + "pstate_tables.csv\"\n"
         "ratebased_colocation = \"" + kTables + "colocation.csv\"\n"
         "ga_generations = 60\nga_population = 8\n" + base_extra + "[axes]\n" + axes;
}

struct Sweep {
  SweepSpec spec;
  Grid grid;
  ResultLayout layout;
  explicit Sweep(const std::string& text)
      : spec(parse_spec(text, "r.toml", simulation_catalog())), grid(spec, simulation_catalog()),
        layout(ResultLayout::of_grid(grid)) {}
  PointResult point(std::uint64_t flat, RatebasedCache* cache = nullptr) const {
    return evaluate_point(grid, flat, layout, {}, {}, 0, cache);
  }
  double metric(const PointResult& r, const std::string& name) const {
    for (std::size_t i = 0; i < layout.metrics.size(); ++i) {
      if (layout.metrics[i].name == name) return r.metrics[i];
    }
    ADD_FAILURE() << "no metric " << name;
    return NAN;
  }
};

/// RR, node power, CRAC power and the hottest inlet of an allocation, computed here from the
/// tables, the platform and the room model (not through evaluate()).
struct Recomputed {
  double reward_rate = 0, compute_w = 0, cooling_w = 0, max_inlet_c = 0;
};
Recomputed recompute(const RateInstance& in, const Allocation& a) {
  Recomputed out;
  std::vector<double> rate(std::size_t(in.tasks()), 0.0);
  Eigen::VectorXd zone_w = Eigen::VectorXd::Zero(in.room_model->zones());
  for (std::int32_t j = 0; j < in.nodes(); ++j) {
    const std::int32_t t = in.node_table[std::size_t(j)], first = in.node_first_core[std::size_t(j)],
                       last = in.node_first_core[std::size_t(j) + 1];
    const auto intensity = [&](std::int32_t k) {
      double m = 0;
      for (std::int32_t i = 0; i < in.tasks(); ++i) {
        if (a.pstate[std::size_t(k * in.tasks() + i)] < in.off_state(t)) m += a.df[std::size_t(k * in.tasks() + i)] * in.tables.tasks[std::size_t(i)].memory_intensity;
      }
      return m;
    };
    double node_w = in.node_static_w[std::size_t(j)];
    for (std::int32_t k = first; k < last; ++k) {
      double corunners = 0;
      for (std::int32_t o = first; o < last; ++o) corunners += o == k ? 0 : intensity(o);
      for (std::int32_t i = 0; i < in.tasks(); ++i) {
        const double df = a.df[std::size_t(k * in.tasks() + i)];
        const std::int32_t p = a.pstate[std::size_t(k * in.tasks() + i)];
        if (df <= 0 || p >= in.off_state(t)) continue;
        const double slope = in.tables.types[std::size_t(t)].colocation_slope[std::size_t(in.tables.tasks[std::size_t(i)].memory_class)];
        rate[std::size_t(i)] += df * in.tables.ecs(i, t, p) / (1 + slope * corunners);
        node_w += df * in.tables.apc(i, t, p);
      }
    }
    out.compute_w += node_w;
    zone_w(in.node_zone[std::size_t(j)]) += node_w;
  }
  for (std::int32_t i = 0; i < in.tasks(); ++i) {
    const RateTaskType& task = in.tables.tasks[std::size_t(i)];
    out.reward_rate += task.reward * std::min(rate[std::size_t(i)], task.arrival_rate_per_s);
  }
  const auto s = in.room_model->solve(zone_w, Eigen::VectorXd::Constant(in.room_model->cracs(), a.crac_out_c));
  const double t = a.crac_out_c;
  out.cooling_w = s.removed_heat_w / (0.0068 * t * t + 0.0008 * t + 0.458);
  out.max_inlet_c = s.node_in_c.maxCoeff();
  return out;
}

TEST(RateBasedPoint, SolvesAnEpochAndItsMetricsRecomputeFromTheAnswer) {
  const Sweep sweep(spec_text("", "ratebased_technique = [\"greedy\", \"ga\"]\n"));
  ASSERT_EQ(sweep.grid.size(), 2u);
  EXPECT_TRUE(sweep.layout.series.empty());
  RatebasedCache cache;
  for (std::uint64_t flat = 0; flat < 2; ++flat) {
    const PointResult r = sweep.point(flat, &cache);
    ASSERT_EQ(r.status, PointStatus::ok) << r.error;
    const ParamSet params = sweep.grid.params(flat);
    const RatebasedEpoch e = solve_ratebased_epoch(params, point_stream_key(params, flat, 0), {}, cache);
    const Recomputed x = recompute(e.instance, e.result.allocation);
    EXPECT_EQ(sweep.metric(r, "feasible"), 1.0);
    EXPECT_NEAR(sweep.metric(r, "reward_rate"), x.reward_rate, 1e-9 * x.reward_rate);
    EXPECT_NEAR(sweep.metric(r, "compute_power_w"), x.compute_w, 1e-9 * x.compute_w);
    EXPECT_NEAR(sweep.metric(r, "cooling_power_w"), x.cooling_w, 1e-9 * x.cooling_w);
    EXPECT_NEAR(sweep.metric(r, "max_inlet_c"), x.max_inlet_c, 1e-9);
    // Both constraints: the auto budget is 230 kW / 1,080 per node x 12, a generated room's redline 25 C.
    EXPECT_LE(x.compute_w + x.cooling_w, 12 * 230e3 / 1080 * (1 + 1e-9));
    EXPECT_LE(x.max_inlet_c, 25 + 1e-9);
    double all = 0;
    for (const RateTaskType& t : e.instance.tables.tasks) all += t.reward * t.arrival_rate_per_s;
    EXPECT_NEAR(sweep.metric(r, "normalized_reward_rate"), x.reward_rate / all, 1e-12);
    EXPECT_GT(x.reward_rate, 0);
    const double bound = sweep.metric(r, "reward_rate_bound");
    EXPECT_GE(bound, x.reward_rate * (1 - 1e-9));
    EXPECT_NEAR(sweep.metric(r, "bound_gap"), (bound - x.reward_rate) / bound, 1e-12);
    EXPECT_GE(sweep.metric(r, "solve_s"), 0);
    EXPECT_EQ(std::isnan(sweep.metric(r, "ga_generations")), flat == 0);
    EXPECT_TRUE(std::isnan(sweep.metric(r, "realized_reward_rate")));  // not asked for
  }
}

TEST(RateBasedPoint, InfeasibleIsAResultNotAnError) {
  // With 1 kW for 12 nodes, at a 10 C redline not even the idle room can be cooled within the
  // budget ([P3] Sec. 6.4); at 25 C it can.
  const Sweep sweep(spec_text("facility_power_budget_w = 1000.0\n", "redline_c = [10.0, 25.0]\n"));
  const PointResult cold = sweep.point(0), warm = sweep.point(1);
  ASSERT_EQ(cold.status, PointStatus::ok) << cold.error;
  EXPECT_EQ(sweep.metric(cold, "feasible"), 0.0);
  EXPECT_TRUE(std::isnan(sweep.metric(cold, "reward_rate")));
  EXPECT_TRUE(std::isnan(sweep.metric(cold, "bound_gap")));
  EXPECT_GT(sweep.metric(cold, "cooling_power_w"), 0);  // what the idle room would need
  EXPECT_EQ(sweep.metric(warm, "feasible"), 1.0);
}

TEST(RateBasedPoint, GaIsDeterministicForItsPoint) {
  const Sweep sweep(spec_text("ratebased_technique = \"ga\"\nobjective = \"nerr\"\n", "redline_c = [28.0, 30.0]\n"));
  RatebasedCache a, b;
  const PointResult first = sweep.point(1, &a);
  sweep.point(0, &b);  // another order, other caches: the same numbers
  const PointResult again = sweep.point(1, &b);
  ASSERT_EQ(first.status, PointStatus::ok) << first.error;
  for (std::size_t i = 0; i < sweep.layout.metrics.size(); ++i) {
    if (sweep.layout.metrics[i].name == "solve_s") continue;
    EXPECT_EQ(std::isnan(first.metrics[i]) ? 0 : first.metrics[i], std::isnan(again.metrics[i]) ? 0 : again.metrics[i])
        << sweep.layout.metrics[i].name;
  }
  EXPECT_EQ(sweep.metric(first, "ga_generations"), 60.0);
}

TEST(RateBasedPoint, SpecsMayNotMixModelsAndNlpRunsOnSmallRooms) {
  const std::string mixed = input_error([] { Sweep(spec_text("", "model = [\"ratebased\", \"trace\"]\n", false)); });
  EXPECT_EQ(mixed.rfind("r.toml:", 0), 0u) << mixed;
  EXPECT_NE(mixed.find("[axes] model: mixes model = trace and model = ratebased points"), std::string::npos) << mixed;
  const Sweep costs(spec_text("", "ratebased_technique = [\"greedy\", \"ga\", \"nlp\"]\n"));
  const std::vector<double> c = estimate_costs(costs.grid, {});
  ASSERT_EQ(c.size(), 3u);
  EXPECT_GT(c[0], 0);
  EXPECT_GT(c[1], 0);
  EXPECT_GT(c[2], 0);
  const PointResult nlp = costs.point(2);
  EXPECT_EQ(costs.metric(nlp, "feasible"), 1.0);
  EXPECT_LE(costs.metric(nlp, "reward_rate"), costs.metric(nlp, "reward_rate_bound") * (1 + 1e-9));
  EXPECT_GE(costs.metric(nlp, "bound_gap"), -1e-9);
}

/// The cost estimate's premise (sweep/cost.hpp, rate_bound_headroom_s): the idle room draws at
/// least every node's static power I plus that heat removed at CoP(T_red) (its CRACs blow at most
/// at the redline), so a budget below I (1 + 1 / CoP(T_red)) is infeasible and its point stops at
/// the first check: the estimate prices the greedy's cost alone there, with no bound. Checked on
/// the 12-node room over budgets around that line and three redlines, and on oxley1080 with and
/// without aisle containment against the idle room's own power.
TEST(RateBasedPoint, BelowTheIdleRoomsLeastPowerAPointIsInfeasibleAndEstimatedAtItsFirstCheck) {
  const Sweep sweep(spec_text("", "facility_power_budget_w = [700.0, 760.0, 800.0, 840.0, 880.0, 950.0, 1100.0, 1500.0]\n"
                                  "redline_c = [24.0, 30.0, 36.0]\n"));
  const std::vector<double> cost = estimate_costs(sweep.grid, {});
  RatebasedCache cache;
  std::int32_t below = 0, priced_below = 0, feasible_above = 0;
  double most_below = 0, least_above = INFINITY;
  for (std::uint64_t flat = 0; flat < sweep.grid.size(); ++flat) {
    const ParamSet p = sweep.grid.params(flat);
    const StreamKey key = point_stream_key(p, sweep.grid.stream_point(flat), sweep.grid.replicate(flat));
    const RatebasedShape shape = ratebased_shape(p, key, cache);
    EXPECT_DOUBLE_EQ(shape.idle_w, 4 * (40.0 + 60.0 + 80.0));  // four nodes of each Xeon (platform.cpp's static powers)
    EXPECT_EQ(shape.budget_w, p.real("facility_power_budget_w"));
    EXPECT_EQ(shape.redline_c, p.real("redline_c"));
    const double budget_w = p.real("facility_power_budget_w");
    const double least_idle_w = shape.idle_w * (1 + 1 / rate_crac_cop(p.real("redline_c")));
    const PointResult r = sweep.point(flat, &cache);
    ASSERT_EQ(r.status, PointStatus::ok) << r.error;
    if (budget_w < least_idle_w) {  // the law
      ++below;
      EXPECT_EQ(sweep.metric(r, "feasible"), 0.0) << "budget " << budget_w << " W, redline " << shape.redline_c;
      EXPECT_TRUE(std::isnan(sweep.metric(r, "reward_rate_bound"))) << budget_w;
      // The estimate's rule, with CostModel::rate_infeasible_margin (0.02 of I) to spare; the
      // first point also carries the room's build.
      if (budget_w < least_idle_w - 0.02 * shape.idle_w && flat > 0) ++priced_below, most_below = std::max(most_below, cost[flat]);
    } else if (sweep.metric(r, "feasible") == 1.0) {
      ++feasible_above;
      least_above = std::min(least_above, cost[flat]);
    }
  }
  EXPECT_LT(sweep.grid.params(0).real("facility_power_budget_w"), 4 * 180 * (1 + 1 / rate_crac_cop(36)));
  EXPECT_GE(below, 10);
  EXPECT_GE(priced_below, 6);
  EXPECT_GE(feasible_above, 4);
  EXPECT_LT(most_below, least_above / 100) << "an infeasible point is priced as its first check, a feasible one with its bound";

  for (const double containment : {0.0, 1.0}) {
    ParamSet p(simulation_catalog());
    p.set("model", std::string("ratebased"));
    p.set("platform", std::string("oxley1080"));
    p.set("aisle_containment", containment);
    for (const char* name : {"ratebased_task_types", "ratebased_pstate_tables", "ratebased_colocation"}) {
      p.set(name, kTables + std::string(name).substr(10) + ".csv");
    }
    const StreamKey key = point_stream_key(p, 0, 0);
    const RatebasedShape shape = ratebased_shape(p, key, cache);
    const RateInstance in = ratebased_instance(p, key, {}, cache);
    Eigen::VectorXd zone_static = Eigen::VectorXd::Zero(in.zones());
    for (std::int32_t j = 0; j < in.nodes(); ++j) zone_static(in.node_zone[std::size_t(j)]) += in.node_static_w[std::size_t(j)];
    const RoomLoad idle(in, zone_static);
    const double outlet = idle.highest_crac_out_c();
    EXPECT_LE(outlet, shape.redline_c + 1e-9) << containment;
    EXPECT_NEAR(idle.node_power_w(), shape.idle_w, 1e-6 * shape.idle_w);
    EXPECT_GE(idle.node_power_w() + idle.crac_power_w(outlet),
              shape.idle_w * (1 + 1 / rate_crac_cop(shape.redline_c)) * (1 - 1e-12))
        << "containment " << containment;
  }
}

TEST(RateBasedPoint, SimulatedArrivalsRealizeThePredictedRewardRate) {
  for (const std::string env : {"cpu_intensive", "memory_intensive"}) {
    const Sweep sweep(spec_text("ratebased_workload = \"" + env + "\"\nratebased_validate = true\n"
                                "ratebased_validate_tasks = 400000\nratebased_bound = false\n",
                                "objective = [\"rr\", \"nerr\"]\n"));
    for (std::uint64_t flat = 0; flat < 2; ++flat) {
      const PointResult r = sweep.point(flat);
      ASSERT_EQ(r.status, PointStatus::ok) << r.error;
      const double rr = sweep.metric(r, "reward_rate"), nerr = sweep.metric(r, "naive_reward_rate");
      const double realized = sweep.metric(r, "realized_reward_rate"), se = sweep.metric(r, "realized_reward_rate_se");
      EXPECT_GT(se, 0);
      EXPECT_LT(se, 0.01 * rr);
      EXPECT_NEAR(realized, rr, 4 * se + 0.002 * rr) << env << " flat " << flat;
      // Co-location slows the servers: the simulation sees RR, not the naive rate.
      if (nerr - rr > 10 * se) {
        EXPECT_LT(std::abs(realized - rr), std::abs(realized - nerr)) << env;
      }
    }
  }
}

}  // namespace
}  // namespace dcsweep
