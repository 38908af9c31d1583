// Decision times of allocators over a realistic run (issue 29): the trace replayed on a platform
// with each allocator in turn, every allocation decision timed where the engine makes it (the
// machine as that allocator's own earlier decisions left it, the room as the physics sees it).
// Per allocator: the run's wall time, the decisions' total, median, p99 and max, and the same
// over the decisions of about --nodes nodes (half to twice) taken while the machine was at
// least a third busy. The room is built once outside the timing, as a sweep's cache does.
// usage: bench_decisions TRACE --platform NAME [--scale-to-platform] [--first-job J] [--jobs N]
//                        [--nodes K] [--limit-s S] [--set NAME=VALUE ...] [--csv FILE] [--cpu-time]
//                        --allocator A ...
//   --limit-s: an allocator's run stops after S wall seconds (its decisions so far reported).
//   --csv FILE: every decision appended as platform,nodes,allocator,job_nodes,free_nodes,seconds
//   (what the cost model's allocator constants are fitted to: bench/fit_alloc_cost.py).
//   --cpu-time: time decisions (not the run) by the thread's CPU clock, for a shared machine.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.hpp"
#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "dcsweep/sim/simulation.hpp"
#include "dcsweep/sim/utilization.hpp"

namespace {

using namespace dcsweep;

struct Decision {
  std::int32_t nodes;
  std::int32_t free;
  double busy_share;  ///< of the machine, before the decision
  double seconds;
};

/// Times every decision of the allocator it wraps; everything else passes through.
class TimedAllocator final : public Allocator {
 public:
  TimedAllocator(std::unique_ptr<Allocator> inner, bool cpu_time) : inner_(std::move(inner)), cpu_time_(cpu_time) {}

  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = cpu_time_ ? bench::thread_cpu_s() : 0;
    const bool placed = inner_->allocate(request, out);
    const double seconds = cpu_time_ ? bench::thread_cpu_s() - cpu0 : bench::seconds_since(t0);
    const double total = request.machine.node_count();
    decisions.push_back({request.nodes, request.machine.free_count(), 1.0 - request.machine.free_count() / total, seconds});
    return placed;
  }
  void manage_power(NodeControl& control) override { inner_->manage_power(control); }
  std::span<const NodeId> power_order(const RoomView& room) override { return inner_->power_order(room); }

  std::vector<Decision> decisions;

 private:
  std::unique_ptr<Allocator> inner_;
  bool cpu_time_;
};

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * double(v.size())))];
}

}  // namespace

static int run_bench(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: bench_decisions TRACE --platform NAME [--scale-to-platform] [--first-job J] [--jobs N] "
                 "[--nodes K] [--limit-s S] [--set NAME=VALUE ...] [--csv FILE] [--cpu-time] --allocator A ...\n");
    return 2;
  }
  ParamSet params(simulation_catalog());
  bench::parse_trace_args(argc, argv, params);
  std::vector<std::string> allocators;
  std::int32_t around = 512;
  double limit_s = 0;
  std::string csv;
  bool cpu_time = false;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto value = [&]() -> const char* {
      if (i + 1 >= argc) throw std::invalid_argument(std::string(arg) + " needs a value");
      return argv[++i];
    };
    if (arg == "--allocator") {  // one or more names
      while (i + 1 < argc && argv[i + 1][0] != '-') allocators.emplace_back(argv[++i]);
    } else if (arg == "--first-job") {
      params.set("first_job", std::int64_t{std::stoll(value())});
    } else if (arg == "--nodes") {
      around = std::stoi(value());
    } else if (arg == "--limit-s") {
      limit_s = std::stod(value());
    } else if (arg == "--csv") {
      csv = value();
    } else if (arg == "--set") {
      bench::apply_assignments(value(), params);
    } else if (arg == "--platform" || arg == "--jobs" || arg == "--runs") {
      value();  // read by parse_trace_args
    } else if (arg == "--cpu-time") {
      cpu_time = true;
    } else if (arg != "--scale-to-platform") {  // read by parse_trace_args
      throw std::invalid_argument("unknown option '" + std::string(arg) + "'");
    }
  }
  if (allocators.empty()) throw std::invalid_argument("no --allocator NAME ... given");
  const auto trace = std::make_shared<const SwfTrace>(read_swf(argv[1]));
  const TraceLoader cached = [&](const std::string&) { return trace; };
  const Scenario base = make_scenario(params, 0, 0, cached);
  const HeatDistributionBuild room =
      thermal_enabled(base) ? build_heat_distribution(base.platform, params) : HeatDistributionBuild{};
  std::printf("%s on %s (%d nodes), %zu jobs; decisions of %d-%d nodes on a machine >= 1/3 busy as 'k~%d'\n", argv[1],
              base.platform.name.c_str(), base.platform.node_count, base.workload.jobs.size(), around / 2, 2 * around,
              around);
  std::printf("%-10s %8s %9s %9s %10s %10s %10s %7s %10s %10s\n", "allocator", "run_s", "alloc_s", "decisions",
              "median_ms", "p99_ms", "max_ms", "k~", "k~med_ms", "k~p99_ms");
  for (const std::string& name : allocators) {
    Scenario scenario = base;
    scenario.params.set_text("allocator", name);
    TimedAllocator timed(
        allocator_registry().at(name).make(BuildContext{scenario.params, scenario.key}, scenario.platform), cpu_time);
    UtilizationSeries utilization(scenario.platform.node_count, 0.0);
    std::vector<SimObserver*> observers{&utilization};
    const auto physics = make_datacenter_model(scenario, [&](const Platform&, const ParamSet&) { return room; });
    if (physics) observers.push_back(physics.get());
    SimulationOptions options{observers, physics.get()};
    options.allocator = &timed;
    options.wall_limit.limit_s = limit_s;
    const auto t0 = std::chrono::steady_clock::now();
    std::string note;
    try {
      simulate(scenario, options);
    } catch (const SimulationError& e) {
      note = "  (stopped: " + std::string(e.what()) + ")";
    }
    const double run_s = bench::seconds_since(t0);
    if (!csv.empty()) {
      std::FILE* f = std::fopen(csv.c_str(), "a");
      for (const Decision& d : timed.decisions) {
        std::fprintf(f, "%s,%d,%s,%d,%d,%.9g\n", scenario.platform.name.c_str(), scenario.platform.node_count,
                     name.c_str(), d.nodes, d.free, d.seconds);
      }
      std::fclose(f);
    }
    std::vector<double> all, near;
    double total = 0;
    for (const Decision& d : timed.decisions) {
      all.push_back(d.seconds);
      total += d.seconds;
      if (d.nodes >= around / 2 && d.nodes <= 2 * around && d.busy_share >= 1.0 / 3) near.push_back(d.seconds);
    }
    std::printf("%-10s %8.2f %9.2f %9zu %10.3f %10.3f %10.3f %7zu %10.3f %10.3f%s\n", name.c_str(), run_s, total,
                all.size(), 1e3 * quantile(all, 0.5), 1e3 * quantile(all, 0.99), 1e3 * quantile(all, 1.0), near.size(),
                1e3 * quantile(near, 0.5), 1e3 * quantile(near, 0.99), note.c_str());
    std::fflush(stdout);
  }
  return 0;
}

int main(int argc, char** argv) { return dcsweep::bench::guarded_main("bench_decisions", argc, argv, run_bench); }
