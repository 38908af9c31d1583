#include "dcsweep/sim/scenario.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "dcsweep/sim/runtime_model.hpp"

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/alloc/bqp.hpp"
#include "dcsweep/alloc/mpit.hpp"
#include "dcsweep/alloc/thermal_rank.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/sched/parm.hpp"
#include "dcsweep/sched/scheduler.hpp"
#include "dcsweep/workload/synthetic.hpp"

namespace dcsweep {
namespace {

constexpr double kMaxCount = 1e9;

TraceOptions trace_options(const ParamSet& p) {
  return {p.integer("first_job"), p.integer("jobs"), p.real("gamma"), p.real("size_scale"),
          p.boolean("scale_to_platform"), p.boolean("strict")};
}

PoissonOptions poisson_options(const ParamSet& p) {
  return {p.real("poisson_rate_per_h"), p.integer("poisson_jobs"),
          static_cast<std::int32_t>(p.integer("poisson_min_nodes")),
          static_cast<std::int32_t>(p.integer("poisson_max_nodes")), p.real("poisson_min_runtime_s"),
          p.real("poisson_max_runtime_s"), p.real("gamma")};
}

std::shared_ptr<const SwfTrace> load(const ParamSet& p, const TraceLoader& loader) {
  const std::string& path = p.text("trace");
  if (path.empty()) throw InputError("workload 'trace' needs --trace FILE (or workload = \"poisson\")");
  if (loader) return loader(path);
  return std::make_shared<const SwfTrace>(read_swf(path));
}

/// Read only by a simulation of jobs (model = trace), not by [P3]'s rate-based epochs.
constexpr std::string_view kJobsOnly[] = {"workload", "workload_seed", "gamma", "scheduler", "allocator",
                                          "runtime_model", "deadline_factor", "comm_cost_metrics", "node_boot_s",
                                          "node_boot_energy_j", "node_off_power_w", "idle_nodes_off", "max_queue_jobs"};

/// The parameter read only when the workload is of `kind`.
ParamSpec for_workload(ParamSpec spec, const char* kind) {
  spec.read_by = {{"workload", {kind}}};
  return spec;
}

}  // namespace

std::vector<ParamSpec> scenario_params() {
  std::vector<ParamSpec> out{
      integer_param("seed", 1, 0, 9.0e15, "base of every random stream (with point index and replicate)"),
      choice_param(
          "random_streams", {"common", "per_point"}, "common",
          "common: a sweep point's random streams (Poisson arrivals, sampled job attributes and patterns, runtime "
          "terms, the random allocator, the GA) are keyed by (seed, replicate), the same for every point, so "
          "points differ only by their parameters (common random numbers); per_point: by (seed, point, "
          "replicate), each point its own draws"),
      integer_param("workload_seed", 0, 0, 9.0e15,
                    "0: the jobs and their sampled attributes (Poisson arrivals, mixed patterns) come from the point's "
                    "streams (random_streams); > 0: from (workload_seed, 0, replicate), the same for every point "
                    "that shares it, so the points of a sweep compare policies on the same queues ([P0] Sec. 5.3)"),
      choice_param("platform", platform_registry().names(), "trace", "the simulated machine"),
      choice_param("workload", {"trace", "poisson"}, "trace", "jobs from an SWF trace, or synthetic Poisson arrivals"),
      for_workload({.name = "trace",
                    .type = ParamType::text,
                    .default_value = std::string(),
                    .help = "Standard Workload Format file (.swf or .swf.gz)"},
                   "trace"),
      for_workload(
          integer_param("first_job", 0, 0, 9.0e15, "start at the first trace job whose id is at least this (0: first)"),
          "trace"),
      for_workload(integer_param("jobs", 0, 0, 9.0e15, "number of consecutive trace jobs to take (0: all)"), "trace"),
      real_param("gamma", "", 1.0, 0.0, 1.0e6, "arrival scaling: submit' = gamma x submit (trace and Poisson arrivals)",
                 true),
      for_workload(
          real_param("size_scale", "", 1.0, 0.0, 1.0e6, "job sizes in nodes are multiplied by this (rounded up)", true),
          "trace"),
      for_workload(boolean_param("scale_to_platform", false,
                                 "map the trace machine onto the platform: sizes x platform nodes / trace nodes"),
                   "trace"),
      for_workload(
          boolean_param("strict", false, "a trace job that cannot be simulated is an error instead of a count"),
          "trace"),
      for_workload(real_param("poisson_rate_per_h", "1/h", 20, 0, 1.0e9, "Poisson arrival rate", true), "poisson"),
      for_workload(integer_param("poisson_jobs", 40, 1, kMaxCount, "number of Poisson jobs"), "poisson"),
      for_workload(integer_param("poisson_min_nodes", 1, 1, 1.0e7, "smallest Poisson job, nodes"), "poisson"),
      for_workload(integer_param("poisson_max_nodes", 16, 1, 1.0e7, "largest Poisson job, nodes"), "poisson"),
      for_workload(real_param("poisson_min_runtime_s", "s", 60, 1, 1.0e9, "shortest Poisson runtime"), "poisson"),
      for_workload(real_param("poisson_max_runtime_s", "s", 1200, 1, 1.0e9, "longest Poisson runtime"), "poisson"),
      choice_param("scheduler", scheduler_registry().names(), "easy", "when queued jobs start"),
      choice_param("allocator", allocator_registry().names(), "first_fit", "which nodes a starting job gets"),
      choice_param("runtime_model", runtime_model_registry().names(), "trace",
                   "how long a job runs as and where it is placed (sim/runtime_model.hpp)"),
      real_param("deadline_factor", "", 1.0, 0.0, 1.0e6,
                 "a job's deadline is submit + deadline_factor x requested time ([P4])", true),
      choice_param(
          "comm_cost_metrics", {"auto", "on", "off"}, "auto",
          "CC_job at every job start on platforms with a network (avg_comm_cost, --jobs-out comm_cost); auto: on "
          "up to 4,096 nodes (above, it costs a large share of a scheduling-only run), or when the runtime model "
          "needs it"),
      real_param("node_boot_s", "s", 0.0, 0.0, 1.0e6, "time a switched-off node takes to boot", false),
      real_param("node_boot_energy_j", "J", 0.0, 0.0, 1.0e12,
                 "energy a node draws while booting (spread over node_boot_s)", false),
      real_param("node_off_power_w", "W", 0.0, 0.0, 1.0e6, "power a switched-off node still draws", false),
      boolean_param("idle_nodes_off", false,
                    "consolidation ([P4] Sec. VII-A, 'idle servers turned off'): after every event, free nodes beyond "
                    "what the waiting jobs ask for are switched off (the allocator's least wanted first) and off nodes "
                    "are booted for them (its most wanted first); mtdp always consolidates"),
      integer_param("max_queue_jobs", 0, 0, kMaxCount,
                    "fail the simulation when more jobs than this wait at once (0: no limit); guards sweeps "
                    "against hopelessly overloaded points"),
  };
  // What only a simulation of jobs reads (a model = ratebased point solves an epoch of rates).
  for (ParamSpec& spec : out) {
    const bool jobs_only = std::find(std::begin(kJobsOnly), std::end(kJobsOnly), spec.name) != std::end(kJobsOnly);
    if (jobs_only && spec.read_by.empty()) spec.read_by = {{"model", {"trace"}}};
  }
  return out;
}

void check_policy_params(const ParamSet& params) {
  const std::string& allocator = params.text("allocator");
  if (allocator == "bqp") bqp_check_params(params);
  if (allocator == "mpit" || allocator == "joint" || allocator == "lrh" || allocator == "hts" || allocator == "mtdp") {
    require_room_params(params, allocator);
  }
  if (allocator == "hts") hts_check_params(params);
  parm_check_params(params);
}

MissingRequests missing_requests(const Workload& workload) {
  MissingRequests out{0, workload.jobs.size(), 0, workload.source};
  for (const Job& job : workload.jobs) {
    if (job.has_request) continue;
    if (out.count++ == 0) out.first_id = job.id;
  }
  return out;
}

void check_policy_workload(const ParamSet& params, const MissingRequests& missing) {
  if (missing.count == 0 || params.text("scheduler") != "edf") return;
  throw InputError("scheduler 'edf' needs requested times (SWF field 9) for its deadlines: " +
                   std::to_string(missing.count) + " of " + std::to_string(missing.jobs) + " jobs of " +
                   missing.source + " have none (first: job " + std::to_string(missing.first_id) + ")");
}

StreamKey point_stream_key(const ParamSet& params, std::uint64_t point, std::uint64_t replicate) {
  const bool common = params.text("random_streams") == "common";
  return {static_cast<std::uint64_t>(params.integer("seed")), common ? 0 : point, replicate};
}

StreamKey workload_key(const Scenario& s) {
  return workload_stream_key(static_cast<std::uint64_t>(s.params.integer("workload_seed")), s.key);
}

Scenario make_scenario(const ParamSet& params, std::uint64_t point, std::uint64_t replicate,
                       const TraceLoader& loader) {
  check_policy_params(params);
  Scenario s{params, point_stream_key(params, point, replicate), {}, {}};
  const BuildContext build{params, s.key};
  const bool from_trace = params.text("workload") == "trace";
  const auto trace = from_trace ? load(params, loader) : nullptr;
  TraceHint hint;
  if (const auto own = trace ? header_machine(trace->header) : std::nullopt) {
    hint = {own->nodes, own->cores_per_node, trace->path};
  }
  s.platform = *platform_registry().at(params.text("platform")).make(build, hint);
  parm_check_platform(params, s.platform);
  const MachineSize size{s.platform.node_count, s.platform.cores_per_node};
  if (trace) {
    s.workload = build_workload(*trace, trace_options(params), size);
  } else {
    RngStream rng(workload_key(s), StreamPurpose::workload);
    s.workload = generate_poisson(poisson_options(params), rng, size.nodes);
  }
  check_policy_workload(params, missing_requests(s.workload));
  return s;
}

}  // namespace dcsweep
