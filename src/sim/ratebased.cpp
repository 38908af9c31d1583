#include "dcsweep/sim/ratebased.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "dcsweep/core/error.hpp"
#include "dcsweep/ratebased/genetic.hpp"
#include "dcsweep/ratebased/greedy.hpp"
#include "dcsweep/ratebased/nlp.hpp"
#include "dcsweep/thermal/room.hpp"

namespace dcsweep {
namespace {

/// [P3] Sec. 5.2: phi for its two platforms.
constexpr double kOxley1080BudgetW = 230e3;
constexpr double kOxley4320BudgetW = 900e3;
/// oxley1080's cores (360 nodes each of 4, 6 and 12 cores): the shipped arrival rates ask a fifth
/// of them each, at reference speed (inputs/ratebased/README.md).
constexpr double kShippedRatesCores = 7920;

ParamSpec real(std::string name, std::string unit, double fallback, double min, std::string help) {
  return real_param(std::move(name), std::move(unit), fallback, min, 1e12, std::move(help));
}

const MetricSpec kMetrics[] = {
    {"reward_rate", "1/s", "[P3] Eq. 8: RR = sum_i r_i min(sum_k CER(i, k), lambda_i) of the epoch's answer"},
    {"naive_reward_rate", "1/s", "[P3] Eq. 9: NERR, the same answer's reward rate blind to co-location"},
    {"normalized_reward_rate", "", "reward_rate / sum_i r_i lambda_i (every type served at its arrival rate)"},
    {"compute_power_w", "W", "node power of the answer ([P3] Eq. 2, static + APC x DF)"},
    {"cooling_power_w", "W", "CRAC power of the answer ([P3] Eq. 3, on the CRAC + node model itself)"},
    {"max_inlet_c", "C", "hottest node inlet of the answer at its CRAC outlet temperature"},
    {"crac_outlet_c", "C", "the answer's CRAC outlet temperature (every CRAC the same)"},
    {"feasible", "", "1: the technique found an answer meeting phi and the redline; 0: none (reward metrics NaN)"},
    {"solve_s", "s", "the technique's wall time (not reproducible: it depends on the machine and its load)"},
    {"reward_rate_bound", "1/s", "upper bound on RR of every answer meeting both constraints (LP, ratebased/bound.hpp)"},
    {"bound_gap", "", "(reward_rate_bound - reward_rate) / reward_rate_bound"},
    {"ga_generations", "", "generations the GA ran (ratebased_technique ga)"},
    {"realized_reward_rate", "1/s",
     "ratebased_validate: the reward rate of a discrete-event simulation of Poisson arrivals served by the answer"},
    {"realized_reward_rate_se", "1/s", "its standard error (batch means)"},
};

/// Parameters the bound does not depend on (the bound cache's key is every other parameter).
bool bound_ignores(const std::string& name) {
  return name == "ratebased_technique" || name == "objective" || name == "seed" || name == "workload_seed" ||
         name.starts_with("ga_") || name.starts_with("nlp_") || name.starts_with("ratebased_validate");
}

std::string read_text(const std::string& path, const std::string& param) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open (" + param + "; paths are relative to where dcsweep runs)");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The point's parameters with the room model the rate-based problem is built on.
ParamSet with_crac_node(const ParamSet& params) {
  ParamSet p = params;
  if (p.text("thermal_model") == "auto") p.set("thermal_model", std::string("crac_node"));
  return p;
}

double budget_w(const ParamSet& p, const Platform& platform) {
  if (p.real("facility_power_budget_w") > 0) return p.real("facility_power_budget_w");
  if (platform.name == "oxley4320") return kOxley4320BudgetW;
  return kOxley1080BudgetW / 1080 * platform.node_count;  // oxley1080: [P3]'s 230 kW; other rooms per node
}

std::vector<std::string> environment(const RateTables& tables, const std::string& name) {
  if (name != "all") return rate_environment(name);
  std::vector<std::string> all;
  for (const RateTaskType& t : tables.tasks) all.push_back(t.name);
  return all;
}

RateTables point_tables(const ParamSet& p, const RatebasedShape& shape, RatebasedCache& cache) {
  RateTables t = cache.tables(p).subset(environment(cache.tables(p), p.text("ratebased_workload")));
  const double scale = p.real("ratebased_arrival_scale") > 0 ? p.real("ratebased_arrival_scale")
                                                              : double(shape.cores) / kShippedRatesCores;
  for (RateTaskType& task : t.tasks) task.arrival_rate_per_s *= scale;
  return t;
}

RateResult run_technique(const RateInstance& in, const ParamSet& p, StreamKey key) {
  const RateObjective objective = rate_objective(p.text("objective"));
  if (p.text("ratebased_technique") == "greedy") return rate_greedy(in, objective);
  if (p.text("ratebased_technique") == "nlp") {
    const NlpOptions o{.objective = objective,
                       .max_iterations = std::int32_t(p.integer("nlp_max_iterations")),
                       .time_limit_s = p.real("nlp_time_limit_s")};
    return rate_nlp(in, o).result;
  }
  GaOptions o;
  o.objective = objective;
  o.population = std::int32_t(p.integer("ga_population"));
  o.max_generations = p.integer("ga_generations");
  if (p.real("ga_time_limit_s") > 0) o.time_limit_s = p.real("ga_time_limit_s");
  o.speedup_steps = std::int32_t(p.integer("ga_speedup_steps"));
  o.node_steps = std::int32_t(p.integer("ga_node_steps"));
  RngStream rng(key, StreamPurpose::ratebased_ga);
  return rate_genetic(in, o, rng);
}

std::string bound_key(const ParamSet& p) {
  std::string key;
  for (const ParamSpec& spec : p.catalog().all()) {
    if (!bound_ignores(spec.name)) key += spec.name + '=' + format_value(p.value(spec.name)) + '\x1f';
  }
  return key;
}

BoundOptions bound_options(const ParamSet& p) {
  BoundOptions o;
  o.max_lps = std::int32_t(p.integer("ratebased_bound_lps"));
  o.initial_intervals = std::min(o.initial_intervals, o.max_lps);
  o.colocation = p.text("ratebased_bound_colocation") == "none" ? BoundColocation::none : BoundColocation::configurations;
  return o;
}

double all_served_rate(const RateInstance& in) {
  double all = 0;
  for (const RateTaskType& t : in.tables.tasks) all += t.reward * t.arrival_rate_per_s;
  return all;
}

Report epoch_report(const RatebasedEpoch& e) {
  const RateEvaluation& x = e.exact;
  const double rr = e.feasible ? x.reward_rate : NAN;
  const double bound = e.bound && e.bound->feasible ? e.bound->reward_rate : NAN;
  const double gap = bound > 0 ? (bound - rr) / bound : (bound == 0 && rr == 0 ? 0.0 : NAN);
  const bool ga = e.result.generations > 0 || e.result.evaluations > 0;
  const double values[] = {rr,
                           e.feasible ? x.naive_reward_rate : NAN,
                           rr / all_served_rate(e.instance),
                           x.node_power_w,
                           x.crac_power_w,
                           x.max_inlet_c,
                           x.crac_out_c,
                           e.feasible ? 1.0 : 0.0,
                           e.result.seconds,
                           bound,
                           gap,
                           ga ? double(e.result.generations) : NAN,
                           e.realized ? e.realized->reward_rate : NAN,
                           e.realized ? e.realized->standard_error : NAN};
  Report r;
  for (std::size_t i = 0; i < std::size(kMetrics); ++i) r.add(kMetrics[i], values[i]);
  return r;
}

}  // namespace

std::vector<ParamSpec> ratebased_params() {
  std::vector<ParamSpec> out{
      choice_param(
          "model", {"trace", "ratebased"}, "trace",
          "trace: a simulation of jobs (trace or Poisson); ratebased: one epoch of [P3]'s rate-based problem on "
          "the platform's room (other metrics; a sweep does not mix the two)"),
      choice_param("ratebased_technique", {"greedy", "ga", "nlp"}, "greedy",
                   "[P3]: greedy (Alg. 2), ga (Alg. 3-4, seeded from the point's stream), nlp (Ipopt on the continuous "
                   "relaxation, rounded and repaired; rooms of at most 1,000 cores)"),
      choice_param("objective", {"rr", "nerr"}, "rr",
                   "[P3]'s objective of the technique: rr (co-location aware, Eq. 8) or nerr (blind to it, Eq. 9); "
                   "reward_rate is always the true RR"),
      choice_param("ratebased_workload", {"cpu_intensive", "hybrid", "memory_intensive", "all"}, "hybrid",
                   "[P3] Sec. 5.3's workload environment (five task types each), or all ten task types"),
      text_param("ratebased_task_types", "inputs/ratebased/task_types.csv",
                 "[P3] task types: arrival rate, reward, deadline, memory intensity (inputs/ratebased/README.md)"),
      text_param("ratebased_pstate_tables", "inputs/ratebased/pstate_tables.csv",
                 "[P3] ECS and APC per task, node type and P-state"),
      text_param("ratebased_colocation", "inputs/ratebased/colocation.csv",
                 "[P3] co-location slopes per node type and memory class"),
      real(
          "ratebased_arrival_scale", "", 0, 0,
          "arrival rates x this; 0: the platform's cores / 7,920 (oxley1080's, for which the shipped rates are sized)"),
      real("facility_power_budget_w", "W", 0, 0,
           "[P3]'s phi, compute + CRAC power; 0: 230 kW on oxley1080, 900 kW on oxley4320, 213 W per node elsewhere"),
      real("crac_outlet_min_c", "C", 5, 0, "coldest CRAC outlet temperature (assumed; [P3] gives none)"),
      integer_param("ga_generations", 200, 1, 9.0e15, "GA: stop after this many generations"),
      real("ga_time_limit_s", "s", 0, 0,
           "GA: also stop after this wall time (0: none; a limit makes the point depend on the machine's speed)"),
      integer_param("ga_population", 20, 2, 1e6, "GA: chromosomes kept"),
      integer_param("ga_speedup_steps", 0, 0, 1e9,
                    "GA extension (off: [P3]'s Alg. 4): tries per offspring to run a gene one P-state faster"),
      integer_param("ga_node_steps", 50, 0, 1e9,
                    "GA extension (0: [P3]'s Alg. 3-4 as published): nodes re-planned per offspring as their best "
                    "whole-core configuration"),
      integer_param("nlp_max_iterations", 3000, 1, 1e9, "NLP: Ipopt's iteration limit (max_iter)"),
      real("nlp_time_limit_s", "s", 600, 0,
           "NLP: Ipopt's CPU-time limit (max_cpu_time; a limit it reaches makes the "
           "point depend on the machine's speed)"),
      boolean_param("ratebased_bound", true, "also compute the LP upper bound (reward_rate_bound, bound_gap)"),
      integer_param("ratebased_bound_lps", 12, 1, 1e6, "the bound's LPs at most (more: tighter, slower)"),
      choice_param(
          "ratebased_bound_colocation", {"configurations", "none"}, "configurations",
          "the bound's co-location: configurations (whole-core node configurations by column generation: tight "
          "for RR) or none (the NERR relaxation: faster, looser)"),
      boolean_param("ratebased_validate", false,
                    "also simulate Poisson arrivals served by the answer (realized_reward_rate)"),
      integer_param("ratebased_validate_tasks", 200000, 1000, 1e10, "ratebased_validate: arrivals simulated"),
  };
  for (ParamSpec& s : out) {
    if (s.name != "model") s.read_by = {{"model", {"ratebased"}}};
  }
  return out;
}

std::vector<MetricSpec> ratebased_metric_specs() { return {std::begin(kMetrics), std::end(kMetrics)}; }

bool is_ratebased(const ParamSet& params) { return params.text("model") == "ratebased"; }

void check_ratebased_params(const ParamSet& p) {
  if (!is_ratebased(p)) return;
  const std::string& thermal = p.text("thermal_model");
  if (thermal != "auto" && thermal != "crac_node") {
    throw InputError("model 'ratebased' uses the CRAC + node room ([P3]); thermal_model '" + thermal +
                     "' is not it (leave it auto or set crac_node)");
  }
  if (p.text("platform") == "trace") {
    throw InputError("model 'ratebased' needs a platform with a room (oxley1080, oxley4320, room), not 'trace'");
  }
}

const RateTables& RatebasedCache::tables(const ParamSet& p) {
  const std::string& tasks = p.text("ratebased_task_types");
  const std::string& pstates = p.text("ratebased_pstate_tables");
  const std::string& colocation = p.text("ratebased_colocation");
  const std::string key = tasks + '\x1f' + pstates + '\x1f' + colocation;
  auto it = tables_.find(key);
  if (it == tables_.end()) {  // read in this order, so that the first bad file is the one named
    const std::string task_text = read_text(tasks, "ratebased_task_types");
    const std::string pstate_text = read_text(pstates, "ratebased_pstate_tables");
    const std::string colocation_text = read_text(colocation, "ratebased_colocation");
    it = tables_.emplace(key, parse_rate_tables(task_text, tasks, pstate_text, pstates, colocation_text, colocation)).first;
  }
  return it->second;
}

std::shared_ptr<const RoomResponse> RatebasedCache::response(const std::string& room_key, const CracNodeModel& room) {
  auto& slot = responses_[room_key];
  if (!slot) slot = std::make_shared<const RoomResponse>(room_response(room));
  return slot;
}

const RewardBound& RatebasedCache::bound(const std::string& key, const RateInstance& instance,
                                         const BoundOptions& options) {
  auto it = bounds_.find(key);
  if (it == bounds_.end()) it = bounds_.emplace(key, rate_reward_bound(instance, options)).first;
  return it->second;
}

RatebasedShape ratebased_shape(const ParamSet& params, StreamKey key, RatebasedCache& cache) {
  check_ratebased_params(params);
  const ParamSet p = with_crac_node(params);
  RatebasedShape s{*platform_registry().at(p.text("platform")).make(BuildContext{p, key}, TraceHint{})};
  if (!s.platform.has_room()) {
    throw InputError("model 'ratebased' needs a platform with a room; '" + s.platform.name + "' has none");
  }
  for (std::int32_t j = 0; j < s.platform.node_count; ++j) {
    s.cores += s.platform.type_of(j).cores;
    s.idle_w += s.platform.type_of(j).static_w;
  }
  // The room's size refuses the NLP before any table is read: the answer does not depend on them.
  if (p.text("ratebased_technique") == "nlp") check_nlp_size(s.cores, "platform " + s.platform.name);
  const RateTables& tables = cache.tables(p);
  try {
    rate_tables_of_types(s.platform, tables);
  } catch (const InputError& e) {  // name the file when the message has no position of its own
    const std::string& file = p.text("ratebased_pstate_tables");
    if (std::string_view(e.what()).starts_with(file)) throw;
    throw InputError(file + ": " + e.what());
  }
  s.zones = s.platform.zone_count();
  s.tasks = std::int64_t(environment(tables, p.text("ratebased_workload")).size());
  s.budget_w = budget_w(p, s.platform);
  s.redline_c = p.was_set("redline_c") ? p.real("redline_c") : s.platform.redline_c;
  return s;
}

RateInstance ratebased_instance(const ParamSet& params, StreamKey key, const HeatProvider& heat,
                                RatebasedCache& cache) {
  const RatebasedShape shape = ratebased_shape(params, key, cache);
  const ParamSet p = with_crac_node(params);
  const HeatDistributionBuild room = heat ? heat(shape.platform, p) : build_heat_distribution(shape.platform, p);
  if (!room.crac_node) throw InputError("model 'ratebased': platform " + shape.platform.name + " built no CRAC + node room");
  const RateConfig config{shape.budget_w, shape.redline_c, p.real("crac_outlet_min_c")};
  return make_rate_instance(shape.platform, point_tables(p, shape, cache), room.crac_node, config,
                            cache.response(heat_distribution_key(shape.platform, p), *room.crac_node));
}

RatebasedEpoch solve_ratebased_epoch(const ParamSet& params, StreamKey key, const HeatProvider& heat,
                                     RatebasedCache& cache) {
  RatebasedEpoch e{ratebased_instance(params, key, heat, cache)};
  e.result = run_technique(e.instance, params, key);
  e.exact = evaluate(e.instance, e.result.allocation, true);
  e.feasible = e.result.feasible && e.exact.feasible();
  if (params.boolean("ratebased_bound")) e.bound = cache.bound(bound_key(params), e.instance, bound_options(params));
  if (params.boolean("ratebased_validate")) {
    RngStream rng(key, StreamPurpose::ratebased_arrivals);
    e.realized = simulate_epoch(e.instance, e.result.allocation,
                                ValidationOptions{.arrivals = params.integer("ratebased_validate_tasks")}, rng);
  }
  e.report = epoch_report(e);
  return e;
}

}  // namespace dcsweep
