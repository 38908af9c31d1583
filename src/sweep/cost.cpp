#include "dcsweep/sweep/cost.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "dcsweep/alloc/mpit.hpp"
#include "dcsweep/comm/comm.hpp"
#include "dcsweep/ratebased/model.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/ratebased.hpp"
#include "dcsweep/sim/sp_eir.hpp"
#include "dcsweep/sweep/read_check.hpp"

namespace dcsweep {
namespace {

/// The parameters that change which jobs, and how large, a point simulates.
constexpr const char* kWorkloadKeys[] = {"workload",          "trace",         "first_job",         "jobs",
                                         "platform",          "size_scale",    "scale_to_platform", "poisson_jobs",
                                         "poisson_min_nodes", "poisson_max_nodes", "node_power",     "thermal_model",
                                         "thermal_zone_nodes", "room_rows",    "room_racks_per_row", "room_nodes_per_rack"};

std::string workload_key(const ParamSet& p) {
  std::string key;
  for (const char* name : kWorkloadKeys) key += format_value(p.value(name)) + '\x1f';
  return key;
}

/// The zones of the point's thermal model: thermal_zone_nodes, or the platform's own zoning.
double zones_of(const ParamSet& p, const Platform& platform) {
  const auto zone_nodes = p.integer("thermal_zone_nodes") > 0 ? p.integer("thermal_zone_nodes")
                                                              : std::int64_t{platform.zone_nodes};
  return double(platform.node_count) / double(zone_nodes);
}

/// What a point's policies cost depends on besides their parameters.
struct WorkloadShape {
  double jobs = 0;
  double nodes = 0;      ///< the platform's
  double dense_zones = 0;  ///< zones of a recirculation D the sp_eir bound can use (0: none)
  double mean_job_nodes = 1;
  /// The jobs' node-seconds over the machine's between the first and the last arrival, at
  /// `gamma` (the points sharing the workload differ in gamma: the load scales as 1 / gamma).
  double offered_load = 0;
  double gamma = 1;
  double node_sum = 0;     ///< sum over jobs of their nodes (k)
  double node_sq_sum = 0;  ///< of k^2
  double joint_small_sq_sum = 0;  ///< of k^2 over jobs below kJointInnerBoundMinNodes
  /// of k^2 x the zones a job's nodes span (about k x zones / N, at least 1) over the same jobs
  double joint_small_touched_sum = 0;
  double joint_large_sum = 0;     ///< of k over the others
  double node_pow_sum = 0;  ///< of k^0.8 (mpit on rooms of many zones)
  double node_pow07_sum = 0;  ///< of k^0.7 (bqp)
  double node_pow04_sum = 0;  ///< of k^0.4 (mm and genalg)
  bool torus = false;
  double room_zones = 0;   ///< zones of the room's thermal model (0: no room)
  /// task_mapping rcb: per distinct job size, (its jobs, the search work of one mapping: rcb_work)
  std::map<std::int32_t, std::pair<double, double>> sizes;

  double load_at(double point_gamma) const { return offered_load * gamma / point_gamma; }
};

/// rcb's exhaustive leaf searches for a job of n nodes (comm/mapping.cpp): the nodes bisected
/// down to leaves of at most 8, each leaf of m nodes m! permutations of m terms (pruned, but
/// the work follows that count).
/// (Each level of the bisection holds at most two sizes: with `memo`, O(log n) calls.)
double rcb_work(std::int32_t n, std::map<std::int32_t, double>& memo) {
  if (n < 2) return 0;
  if (n <= 8) {
    double f = 1;
    for (std::int32_t i = 2; i <= n; ++i) f *= i;
    return f * n;
  }
  if (const auto it = memo.find(n); it != memo.end()) return it->second;
  const double work = rcb_work(n / 2, memo) + rcb_work(n - n / 2, memo);
  memo.emplace(n, work);
  return work;
}

WorkloadShape workload_shape(const Scenario& s) {
  WorkloadShape shape{double(s.workload.jobs.size()), double(s.platform.node_count), 0};
  if (thermal_enabled(s) && s.params.text("thermal_model") != "crac_node" && s.platform.has_room()) {
    const double zones = zones_of(s.params, s.platform);
    if (zones <= double(kSpEirMaxZones)) shape.dense_zones = zones;
  }
  if (s.platform.has_room()) shape.room_zones = zones_of(s.params, s.platform);
  double node_s = 0, node_count = 0, first = INFINITY, last = -INFINITY;
  for (const Job& j : s.workload.jobs) {
    node_s += double(j.nodes) * j.runtime_s, node_count += double(j.nodes);
    shape.node_sq_sum += double(j.nodes) * double(j.nodes);
    if (j.nodes < kJointInnerBoundMinNodes) {
      shape.joint_small_sq_sum += double(j.nodes) * double(j.nodes);
      const double zones = shape.room_zones;
      shape.joint_small_touched_sum += double(j.nodes) * double(j.nodes) *
                                       std::min(zones, std::max(1.0, double(j.nodes) * zones / double(s.platform.node_count)));
    } else {
      shape.joint_large_sum += double(j.nodes);
    }
    shape.node_pow_sum += std::pow(double(j.nodes), 0.8);
    shape.node_pow07_sum += std::pow(double(j.nodes), 0.7);
    shape.node_pow04_sum += std::pow(double(j.nodes), 0.4);
    ++shape.sizes[j.nodes].first;
    first = std::min(first, j.submit_s), last = std::max(last, j.submit_s);
  }
  shape.node_sum = node_count;
  std::map<std::int32_t, double> memo;
  for (auto& [n, size] : shape.sizes) size.second = rcb_work(n, memo);
  shape.torus = s.platform.network == NetworkKind::torus;
  if (shape.jobs > 0) shape.mean_job_nodes = node_count / shape.jobs;
  if (last > first) shape.offered_load = node_s / (shape.nodes * (last - first));
  shape.gamma = s.params.real("gamma");
  return shape;
}

/// parm's ILP decisions: two per job (arrival, end), each over the running jobs (the busy share
/// of the machine in jobs of the mean size) and the queued ones in parm_queue_window (an
/// overloaded machine's queue grows by 1 - 1 / load of the arrivals: half that on average).
double parm_cost(const ParamSet& p, const WorkloadShape& shape, const CostModel& model) {
  const std::string& scheme = p.text("parm_scheme");
  if (scheme != "nomm" && scheme != "nose" && scheme != "wse") return 0;  // the EASY baselines
  const double load = p.real("gamma") > 0 ? shape.load_at(p.real("gamma")) : 0.0;
  const double running = std::max(1.0, std::min(load, 1.0) * shape.nodes / shape.mean_job_nodes);
  const double window = p.integer("parm_queue_window") > 0 ? double(p.integer("parm_queue_window")) : shape.jobs;
  const double queued = load > 1 ? std::min(window, shape.jobs * (1 - 1 / load) / 2) : 0.0;
  const double factor = scheme == "wse" ? model.parm_wse_factor : scheme == "nose" ? model.parm_nose_factor : 1.0;
  return 2 * shape.jobs * factor * (model.parm_per_decision_s + model.parm_per_decision_job_s * (running + queued));
}

/// The allocator's decisions, one per job (fitted per allocator on bench_decisions' runs of
/// CEA-Curie on meng40, oxley1080, oxley4320 and intrepid: docs/performance.md): N nodes, k a
/// job's nodes, Z the room's zones.
double allocator_cost(const ParamSet& p, const WorkloadShape& shape, const CostModel& model) {
  const std::string& a = p.text("allocator");
  const double n = shape.nodes, jobs = shape.jobs, z2 = shape.room_zones * shape.room_zones;
  if (a == "mc1x1") return model.mc1x1_per_node_s * n * jobs;  // a prefix table and every free centre
  // mm and genalg: most centres are scored from the ideal shape or plane tables and dropped by a
  // bound (nearly flat in k)
  if (a == "mm" || a == "genalg") {
    const NearestCost& c = a == "mm" ? model.mm : model.genalg;
    if (!shape.torus) return c.mesh_per_node_k04_s * n * shape.node_pow04_sum;
    return c.torus_per_node_s * n * jobs + c.torus_per_node_k04_s * n * shape.node_pow04_sum;
  }
  if (a == "bqp") {  // on a large room the seeds, swaps and rows scanned grow with k, slowly with N
    if (n <= 2.0 * double(p.integer("bqp_exact_max_nodes"))) {  // exact branch and bound: its bound is weakest on hops alone
      const double per_k2 = p.real("beta") == 0 ? model.bqp_exact_hops_per_k2_s : model.bqp_exact_per_k2_s;
      return model.bqp_small_per_node_s * n * jobs + per_k2 * shape.node_sq_sum;
    }
    return model.bqp_per_k07_s * std::pow(n, -0.1) * shape.node_pow07_sum;
  }
  if ((a == "mpit" || a == "joint") && shape.room_zones > double(kMpitAllRowsMaxZones)) {
    const double z = shape.room_zones;
    const double mpit = model.mpit_many_zones_setup_per_z23_s * std::pow(z, 2.3) +
                        model.mpit_many_zones_per_k08_z21_s * std::pow(z, 2.1) * shape.node_pow_sum;
    if (a == "mpit") return mpit;
    return mpit + model.joint_many_zones_per_k2_z_s * z * shape.node_sq_sum;
  }
  const double mpit = (model.mpit_per_zone2_s * z2 + model.mpit_per_node_s * n) * jobs;  // the LP over every zone
  if (a == "mpit") return mpit;
  if (a == "joint") {
    // a shell's peak adds D's cumulative columns at the edges of its runs of zones adding equal
    // power: up to k where zones are nodes (meng40), about k / 512 on intrepid's zones of 512
    return mpit + model.joint_per_k2_s * shape.joint_small_sq_sum + model.joint_per_k2_zone_s * shape.joint_small_touched_sum +
           model.joint_inner_per_k_zone2_s * shape.joint_large_sum * z2;
  }
  if (a == "mtdp") {  // grouping per decision; the greedy where a job finds more idle nodes on than it takes
    const double load = p.real("gamma") > 0 ? std::min(1.0, shape.load_at(p.real("gamma"))) : 1.0;
    return (model.mtdp_per_node_s * n + model.mtdp_per_zone_s * shape.room_zones) * jobs +
           model.mtdp_greedy_per_k_zone_s * shape.node_sum * shape.room_zones * load;
  }
  if (a == "lrh" || a == "hts") return model.rank_per_zone2_s * z2 + model.rank_per_node_s * n;  // once per point
  return 0;  // first_fit, random; lrh and hts per decision too: per node handed out (workload_cost)
}

/// The seconds a point's scheduler and cooling add to its workload's cost: conservative and edf
/// plan the queue; parm solves its ILP (parm_cost); a thermostat CRAC switches modes and sets Eq. 6 at every change, and on a
/// room with D the sp_eir bound solves one LP per distinct (busy, on) count of nodes (with every
/// node on, the busy counts up to the most at once in turn, each warm from the last; with idle
/// nodes switched off, one per pair met, by row generation over the inlets).
/// task_mapping rcb maps every job it starts (and meng_relative the best allocation of each size
/// and pattern it meets, twice: mc1x1's and genalg's); a pattern without a task graph needs none.
double mapping_cost(const ParamSet& p, const WorkloadShape& shape, const CostModel& model) {
  if (p.text("task_mapping") != "rcb") return 0;
  const std::string& pattern = p.text("comm_pattern");
  const bool mixed = pattern == "mixed";
  if (!mixed && comm::task_graph(std::uint8_t(comm::pattern_index(pattern)), 16).mapping_free()) return 0;
  // mixed draws [P0]'s eight patterns (indices 1-8) evenly: the share of them with a task graph
  double mapped = 1, patterns = 1;
  if (mixed) {
    patterns = double(comm::pattern_names().size() - 1), mapped = 0;
    for (std::size_t i = 1; i < comm::pattern_names().size(); ++i) mapped += !comm::task_graph(std::uint8_t(i), 16).mapping_free();
    mapped /= patterns;
  }
  // meng_relative maps mc1x1's and genalg's allocation of each size and pattern (mc1x1's alone
  // above 4,096 nodes)
  const double relative = p.text("runtime_model") != "meng_relative" ? 0.0 : shape.nodes <= 4096 ? 2.0 : 1.0;
  double work = 0;
  for (const auto& [n, size] : shape.sizes) work += (size.first + relative * std::min(size.first, patterns)) * size.second;
  return model.rcb_per_leaf_term_s * mapped * work;
}

/// One switched-off pair's LP on a room of `zones` zones: log-log between the measured points
/// (CostModel::sp_eir_off_lp_s), along the nearest segment's slope beyond them.
double sp_eir_off_lp_s(double zones, const CostModel& model) {
  const auto& at = model.sp_eir_off_lp_s;
  std::size_t i = 1;
  while (i + 1 < at.size() && zones > at[i].first) ++i;
  const double slope = std::log(at[i].second / at[i - 1].second) / std::log(at[i].first / at[i - 1].first);
  return at[i - 1].second * std::pow(zones / at[i - 1].first, slope);
}

double policy_cost(const ParamSet& p, const WorkloadShape& shape, const CostModel& model) {
  double cost = allocator_cost(p, shape, model) + mapping_cost(p, shape, model);
  const std::string& scheduler = p.text("scheduler");
  if (scheduler == "conservative" || scheduler == "edf") cost += model.per_job_planning_s * shape.jobs;
  if (scheduler == "easy" && p.real("gamma") > 0) {  // its backfill scans the queue at every event
    const double load = shape.load_at(p.real("gamma"));
    if (load > 1) cost += model.easy_per_job_queued_s * shape.jobs * shape.jobs * (1 - 1 / load) / 2;
  }
  if (scheduler == "parm") cost += parm_cost(p, shape, model);
  if (p.text("cooling") == "thermostat" && p.text("node_power") != "none") {
    cost += model.per_job_thermostat_s * shape.jobs;
    if (shape.dense_zones > 0) {
      const double z2 = shape.dense_zones * shape.dense_zones;
      // every node on: the counts up to the most nodes busy at once, in turn (sim/sp_eir.hpp)
      cost += model.per_sp_eir_chain_lp_zone2_s * (std::min(shape.nodes, shape.node_sum) + 1) * z2;
      // mtdp switches idle nodes off whatever idle_nodes_off says (its manage_power): an LP per
      // distinct pair of counts, about one per job at first, fewer as the pairs met recur
      if (p.boolean("idle_nodes_off") || p.text("allocator") == "mtdp") {
        const double reach = model.sp_eir_pairs_scale * std::pow(shape.nodes, model.sp_eir_pairs_exponent);
        const double pairs =
            std::min((shape.nodes + 1) * (shape.nodes + 2) / 2, reach * (1 - std::exp(-shape.jobs / reach)) + 1);
        cost += sp_eir_off_lp_s(shape.dense_zones, model) * pairs;
      }
    }
    if (p.text("thermostat_setting") == "peak") cost *= 2;  // a first pass finds the run's peak
  }
  return cost;
}

double workload_cost(const Scenario& s, const CostModel& model) {
  const Workload& w = s.workload;
  double node_count = 0;
  for (const Job& job : w.jobs) node_count += job.nodes;
  double cost = model.per_job_s * static_cast<double>(w.jobs.size()) + model.per_node_s * node_count;
  if (thermal_enabled(s) && make_node_power(s.params, s.platform, s.key)) {
    const double zones = zones_of(s.params, s.platform);
    const double per_job_zone =
        s.params.text("thermal_model") == "crac_node" ? model.per_job_zone_crac_node_s : model.per_job_zone_s;
    cost += (model.per_job_physics_s + per_job_zone * zones) * static_cast<double>(w.jobs.size());
  }
  return cost;
}

}  // namespace

TraceLoader caching_trace_loader() {
  auto cache = std::make_shared<std::map<std::string, std::shared_ptr<const SwfTrace>>>();
  return [cache](const std::string& path) {
    auto& slot = (*cache)[path];
    if (!slot) slot = std::make_shared<const SwfTrace>(read_swf(path));
    return slot;
  };
}

namespace {

/// The platform whose heat distribution a point's physics reads (its room or its matrix file) and
/// the key the provider caches it under; none for rate-based and trace points, or without physics.
struct HeatUse {
  Platform platform;
  std::string key;
};

std::optional<HeatUse> heat_use_of(const ParamSet& p) {
  if (is_ratebased(p) || p.text("platform") == "trace" || p.text("thermal_model") == "none" || p.text("node_power") == "none") {
    return std::nullopt;
  }
  Platform platform = *platform_registry().at(p.text("platform")).make({p, {}}, TraceHint{});
  std::string key = heat_distribution_key(platform, p);
  return HeatUse{std::move(platform), std::move(key)};
}

}  // namespace

RoomBuilds estimate_room_builds(const Grid& grid, const CostModel& model) {
  RoomBuilds builds;
  std::set<std::string> seen;
  for (std::uint64_t i = 0; i < grid.size(); ++i) {
    const ParamSet p = grid.params(i);
    const std::optional<HeatUse> use = heat_use_of(p);
    if (!use || !use->platform.has_room() || !seen.insert(use->key).second) continue;
    // a dense LU of its zones, unless its D is read from a file or the CRACs are per node
    const bool dense = p.text("thermal_model") != "crac_node" && p.text("heat_distribution").empty();
    const double z = dense ? zones_of(p, use->platform) : 0.0;
    ++builds.rooms;
    builds.seconds += model.per_zone3_s * z * z * z + model.per_zone2_build_s * z * z;
  }
  return builds;
}

void prepare_shared_inputs(const ParamSet& params, const TraceLoader& loader, const HeatProvider& heat) {
  if (loader && !is_ratebased(params) && params.text("workload") == "trace" && !params.text("trace").empty()) {
    loader(params.text("trace"));
  }
  if (!heat) return;
  if (const std::optional<HeatUse> use = heat_use_of(params)) heat(use->platform, params);
}

namespace {

/// Builds (and so checks) each distinct heat distribution of the grid numbered `part` modulo
/// `parts`, so that a bad matrix file is an input error before anything runs. The provider caches
/// what it built.
void check_rooms(const Grid& grid, const HeatProvider& heat, std::size_t part, std::size_t parts) {
  std::map<std::string, std::size_t> seen;
  for (std::uint64_t i = 0; i < grid.size(); ++i) {
    const ParamSet p = grid.params(i);
    const std::optional<HeatUse> use = heat_use_of(p);
    if (!use) continue;
    const auto [it, added] = seen.try_emplace(use->key, seen.size());
    if (added && it->second % parts == part) heat(use->platform, p);
  }
}

/// The seconds of each ratebased point whose (shared) work falls to this part: the technique and
/// validation always, the room map and the bound on the first point needing them.
class RatebasedCosts {
 public:
  explicit RatebasedCosts(const CostModel& model) : model_(model) {}

  double of(const ParamSet& p, const Grid& grid, std::uint64_t i) {
    const StreamKey key = point_stream_key(p, grid.stream_point(i), grid.replicate(i));
    const RatebasedShape s = ratebased_shape(p, key, cache_);
    const double genes = double(s.cores) * double(s.tasks), zones = double(s.zones);
    const std::string& technique = p.text("ratebased_technique");
    const double headroom = (s.budget_w - s.idle_w * (1 + 1 / rate_crac_cop(s.redline_c))) / s.idle_w;
    // The idle room breaks phi: every step stops at its first check. (Generated rooms conserve air;
    // imported indices may be 1% out of balance, which the margin covers.)
    const bool surely_infeasible = headroom < -model_.rate_infeasible_margin;
    double cost = model_.rate_greedy_per_gene_s * genes;  // greedy: also the GA's seed and every technique's first check
    if (technique == "ga" && !surely_infeasible) {
      cost = (model_.rate_ga_per_gene_generation_s * genes + 2 * model_.rate_ga_node_step_s * double(p.integer("ga_node_steps"))) *
             double(p.integer("ga_generations"));
      if (p.real("ga_time_limit_s") > 0) cost = std::min(cost, p.real("ga_time_limit_s"));
    }
    if (technique == "nlp" && !surely_infeasible) cost += std::min(model_.rate_nlp_per_gene_s * genes, p.real("nlp_time_limit_s"));
    if (p.boolean("ratebased_validate")) cost += model_.rate_validate_per_task_s * double(p.integer("ratebased_validate_tasks"));
    if (rooms_.insert(heat_distribution_key(s.platform, p)).second) cost += model_.rate_room_per_zone2_s * zones * zones;
    if (p.boolean("ratebased_bound") && bounds_.insert(bound_key_of(p)).second && !surely_infeasible) {
      cost += std::max(model_.rate_bound_per_lp_s,
                       model_.rate_bound_per_gene_z15_lp_s * genes * std::pow(zones, 1.5) * headroom_factor(headroom)) *
              double(p.integer("ratebased_bound_lps"));
    }
    return cost;
  }

 private:
  /// CostModel::rate_bound_headroom_s at `v` (>= 0), log-linear between knots, over the reference.
  double headroom_factor(double v) const {
    const auto& k = model_.rate_bound_headroom_s;
    double s = k.back()[1];
    if (v <= k.front()[0]) {
      s = k.front()[1];
    } else {
      for (std::size_t i = 1; i < k.size(); ++i) {
        if (v > k[i][0]) continue;
        const double f = (v - k[i - 1][0]) / (k[i][0] - k[i - 1][0]);
        s = std::exp(std::log(k[i - 1][1]) + f * (std::log(k[i][1]) - std::log(k[i - 1][1])));
        break;
      }
    }
    return s / model_.rate_bound_headroom_reference_s;
  }
  static std::string bound_key_of(const ParamSet& p) {
    std::string key;
    for (const char* name : {"platform", "ratebased_workload", "facility_power_budget_w", "redline_c", "aisle_containment"}) {
      key += format_value(p.value(name)) + '\x1f';
    }
    return key;
  }
  const CostModel& model_;
  RatebasedCache cache_;
  std::set<std::string> rooms_, bounds_;
};

}  // namespace

std::vector<double> estimate_costs(const Grid& grid, const TraceLoader& loader, const CostModel& model,
                                   std::size_t part, std::size_t parts, const HeatProvider& heat) {
  struct Built {
    std::size_t order;  ///< of first appearance
    double cost = -1.0;
    WorkloadShape shape;
    MissingRequests missing;
  };
  std::map<std::string, Built> by_workload;
  std::vector<double> costs(grid.size(), -1.0);
  RatebasedCosts ratebased(model);
  ReadCheck read_check(grid.spec(), simulation_catalog());
  for (std::uint64_t i = 0; i < grid.size(); ++i) {
    const ParamSet p = grid.params(i);
    read_check.observe(p);
    if (is_ratebased(p)) {  // on every rank (cheap: no room is built), so that which point carries a
      costs[i] = ratebased.of(p, grid, i);  // shared build does not depend on the rank count
      continue;
    }
    check_policy_params(p);  // a point the policies refuse is bad input, whatever its workload
    const auto [it, added] = by_workload.try_emplace(workload_key(p), Built{by_workload.size()});
    Built& built = it->second;
    if (built.order % parts != part) continue;
    if (added) {
      const Scenario s = make_scenario(p, grid.stream_point(i), grid.replicate(i), loader);
      built.cost = workload_cost(s, model);
      built.shape = workload_shape(s);
      built.missing = missing_requests(s.workload);
    }
    check_policy_workload(p, built.missing);  // the points sharing a workload may differ in scheduler
    costs[i] = model.per_point_s + built.cost + policy_cost(p, built.shape, model);
  }
  read_check.finish();  // on every rank: the same verdict
  if (heat) check_rooms(grid, heat, part, parts);
  return costs;
}

OutputEstimate estimate_output(const Grid& grid, const TraceLoader& loader, std::size_t metric_count,
                               std::size_t series_count) {
  std::map<std::string, double> span_of;  // workload key -> simulated span (s)
  OutputEstimate out;
  for (std::uint64_t i = 0; i < grid.size(); ++i) {
    const ParamSet p = grid.params(i);
    if (is_ratebased(p)) {  // metrics only, no series
      out.result_bytes += 8.0 * double(metric_count) + 64;
      out.journal_bytes += 8.0 * double(metric_count) + 112;
      continue;
    }
    auto [it, added] = span_of.try_emplace(workload_key(p), 0.0);
    if (added) {
      const Scenario s = make_scenario(p, grid.stream_point(i), grid.replicate(i), loader);
      double first = INFINITY, last = 0;
      for (const Job& j : s.workload.jobs) {
        first = std::min(first, j.submit_s);
        last = std::max(last, j.submit_s + j.runtime_s);
      }
      it->second = s.workload.jobs.empty() ? 0.0 : last - first;  // at least: queues only make it longer
    }
    const double interval = p.real("series_interval_s");
    const double samples = interval > 0 ? std::ceil(it->second / interval) * double(series_count) : 0.0;
    out.series_samples += samples;
    const double metrics = 8.0 * double(metric_count) + 64;  // values, status, wall time, rank, cost
    out.result_bytes += metrics + 16 * samples;
    out.journal_bytes += metrics + 16 * samples + 48;  // framing and the point's header
  }
  return out;
}

}  // namespace dcsweep
