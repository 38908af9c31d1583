// [P3]'s rate-based techniques on a full platform (issue 12): the time of greedy (median of 5),
// the reward bound, and the GA's reward over time against the bound.
//   bench_ratebased [--platform oxley1080] [--env hybrid] [--containment 0] [--budget-w 230000]
//                   [--redline-c 30] [--ga-seconds 60] [--seed 1] [--tables inputs/ratebased]
//                   [--bound-intervals 4] [--bound-lps 12] [--bound-colocation configurations|none]
//                   [--speedup-steps 0] [--node-steps 50] [--skip-bound 1]
// The GA runs as published (Alg. 4 only slows down), then with the speed-up extension
// (GaOptions::speedup_steps; 0 skips that run), then with node steps (GaOptions::node_steps; 0
// skips it), each for --ga-seconds.
// Run from the source tree's root (the tables' default directory is relative).
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "dcsweep/ratebased/bound.hpp"
#include "dcsweep/ratebased/genetic.hpp"
#include "dcsweep/ratebased/greedy.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/thermal/room.hpp"

namespace dcsweep {
namespace {

using Clock = std::chrono::steady_clock;

int run(int argc, char** argv) {
  std::string platform_name = "oxley1080", env = "hybrid", tables_dir = "inputs/ratebased";
  double containment = 0, budget_w = 230e3, redline_c = 30, ga_seconds = 60;
  std::uint64_t seed = 1;
  std::int32_t speedup_steps = 0, node_steps = 50;
  bool skip_bound = false;
  BoundOptions bound_options;
  bound_options.on_lp = [](double a, double b, double value, double s) {
    std::printf("  LP outlet [%.3f, %.3f] C: %.4f at %.1f s\n", a, b, value, s);
    std::fflush(stdout);
  };
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i], value = argv[i + 1];
    if (arg == "--platform") platform_name = value;
    if (arg == "--env") env = value;
    if (arg == "--tables") tables_dir = value;
    if (arg == "--containment") containment = std::stod(value);
    if (arg == "--budget-w") budget_w = std::stod(value);
    if (arg == "--redline-c") redline_c = std::stod(value);
    if (arg == "--ga-seconds") ga_seconds = std::stod(value);
    if (arg == "--seed") seed = std::stoull(value);
    if (arg == "--speedup-steps") speedup_steps = std::stoi(value);
    if (arg == "--node-steps") node_steps = std::stoi(value);
    if (arg == "--skip-bound") skip_bound = value == "1";
    if (arg == "--bound-intervals") bound_options.initial_intervals = std::stoi(value);
    if (arg == "--bound-lps") bound_options.max_lps = std::stoi(value);
    if (arg == "--bound-colocation") bound_options.colocation = value == "none" ? BoundColocation::none : BoundColocation::configurations;
  }
  ParamSet params(simulation_catalog());
  params.set("platform", platform_name);
  params.set("thermal_model", std::string("crac_node"));
  params.set("aisle_containment", containment);
  const Platform platform = *platform_registry().at(platform_name).make({params, {}}, TraceHint{});
  auto t0 = Clock::now();
  const auto room = build_heat_distribution(platform, params).crac_node;
  const double room_s = bench::seconds_since(t0);
  t0 = Clock::now();
  RateTables tables = load_rate_tables(tables_dir).subset(rate_environment(env));
  // As a sweep scales them (ratebased_arrival_scale 0): the shipped rates ask oxley1080's 7,920 cores.
  double cores = 0;
  for (std::int32_t j = 0; j < platform.node_count; ++j) cores += platform.type_of(j).cores;
  for (RateTaskType& t : tables.tasks) t.arrival_rate_per_s *= cores / 7920.0;
  const RateInstance in = make_rate_instance(platform, tables, room, RateConfig{budget_w, redline_c, 5});
  const double instance_s = bench::seconds_since(t0);
  double all = 0;
  for (const RateTaskType& t : in.tables.tasks) all += t.reward * t.arrival_rate_per_s;
  std::printf("%s: %d nodes, %d cores, %s, containment %.2f, budget %.0f W, redline %.1f C\n", platform_name.c_str(),
              in.nodes(), in.cores(), env.c_str(), containment, budget_w, redline_c);
  std::printf("room built in %.2f s; instance (room response, %d zones) in %.2f s; sum r lambda = %.3f\n", room_s,
              in.zones(), instance_s, all);

  const RewardBound bound = skip_bound ? RewardBound{} : rate_reward_bound(in, bound_options);
  std::printf("bound: %s %.4f (%.4f of sum r lambda), outlet in [%.3f, %.3f] C, %d LPs, %d inlet rows, %d pricing rounds, %.2f s\n",
              bound.feasible ? "feasible" : "INFEASIBLE", bound.reward_rate, bound.reward_rate / all,
              bound.crac_out_low_c, bound.crac_out_high_c, bound.lps, bound.thermal_rows, bound.column_rounds, bound.seconds);
  const auto gap = [&](double rr) { return bound.reward_rate > 0 ? (bound.reward_rate - rr) / bound.reward_rate : 0.0; };
  for (const RateObjective objective : {RateObjective::rr, RateObjective::nerr}) {
    std::vector<double> times;
    RateResult g;
    for (int r = 0; r < 5; ++r) {
      g = rate_greedy(in, objective);
      times.push_back(g.seconds);
    }
    const RateEvaluation exact = evaluate(in, g.allocation, true);
    std::printf("greedy %-4s: median %.4f s; RR %.4f NERR %.4f; gap to bound %.2f%%; power %.0f W (CRAC %.0f W, "
                "outlet %.2f C), max inlet %.3f C; feasible %d (exact room %d)\n",
                objective == RateObjective::rr ? "rr" : "nerr", bench::median(times), g.evaluation.reward_rate,
                g.evaluation.naive_reward_rate, 100 * gap(g.evaluation.reward_rate), g.evaluation.total_power_w,
                g.evaluation.crac_power_w, g.evaluation.crac_out_c, g.evaluation.max_inlet_c, int(g.feasible),
                int(exact.feasible()));
  }
  struct Variant {
    const char* name;
    std::int32_t speedup_steps, node_steps;
  };
  std::vector<Variant> variants{{"as published", 0, 0}};
  if (speedup_steps > 0) variants.push_back({"speed-up steps", speedup_steps, 0});
  if (node_steps > 0) variants.push_back({"node steps", 0, node_steps});
  for (const Variant& variant : variants) {
    GaOptions o;
    o.max_generations = std::numeric_limits<std::int64_t>::max();
    o.time_limit_s = ga_seconds;
    o.speedup_steps = variant.speedup_steps;
    o.node_steps = variant.node_steps;
    double last_print = -1;
    o.on_improvement = [&](double s, std::int64_t generation, double value) {
      if (s - last_print < 5 && generation > 0) return;
      last_print = s;
      std::printf("  ga %6.1f s  generation %8lld  RR %.4f  gap %.2f%%\n", s, static_cast<long long>(generation), value,
                  100 * gap(value));
      std::fflush(stdout);
    };
    RngStream rng(StreamKey{seed, 0, 0}, StreamPurpose::allocator);
    const RateResult ga = rate_genetic(in, o, rng);
    const RateEvaluation exact = evaluate(in, ga.allocation, true);
    std::printf("ga rr, %s (speed-up %d, node steps %d): %.1f s, %lld generations, %lld evaluations; RR %.4f NERR %.4f; gap to bound "
                "%.2f%%; power %.0f W (CRAC %.0f W, outlet %.2f C); feasible %d (exact room %d)\n",
                variant.name, variant.speedup_steps, variant.node_steps, ga.seconds, static_cast<long long>(ga.generations), static_cast<long long>(ga.evaluations),
                ga.evaluation.reward_rate, ga.evaluation.naive_reward_rate, 100 * gap(ga.evaluation.reward_rate),
                ga.evaluation.total_power_w, ga.evaluation.crac_power_w, ga.evaluation.crac_out_c, int(ga.feasible),
                int(exact.feasible()));
  }
  return 0;
}

}  // namespace
}  // namespace dcsweep

int main(int argc, char** argv) { return dcsweep::bench::guarded_main("bench_ratebased", argc, argv, dcsweep::run); }
