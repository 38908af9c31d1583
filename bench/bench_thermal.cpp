// Benchmark of the thermal model in the loop (issue 4): the same simulation with the physics on
// (power, heat recirculation, redline cooling) and off (node_power = none), in process, the trace
// loaded and the room's D built once beforehand, median of --runs each; and the time to build D.
//   bench_thermal TRACE --platform NAME [--scale-to-platform] [--jobs N] [--runs R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/run.hpp"
#include "dcsweep/sim/scenario.hpp"

using Clock = std::chrono::steady_clock;

static int run_bench(int argc, char** argv) {
  using namespace dcsweep;
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_thermal TRACE --platform NAME [--scale-to-platform] [--jobs N] [--runs R]\n");
    return 2;
  }
  ParamSet params(simulation_catalog());
  const int runs = bench::parse_trace_args(argc, argv, params);
  const auto trace = std::make_shared<const SwfTrace>(read_swf(argv[1]));
  const TraceLoader cached = [&](const std::string&) { return trace; };
  const Scenario with = make_scenario(params, 0, 0, cached);
  std::vector<double> build_s;
  HeatDistributionBuild room;
  for (int r = 0; r < std::min(runs, 3); ++r) {
    const auto t0 = Clock::now();
    room = build_heat_distribution(with.platform, with.params);
    build_s.push_back(bench::seconds_since(t0));
  }
  const HeatProvider heat = [&](const Platform&, const ParamSet&) { return room; };
  ParamSet off = params;
  off.set("node_power", std::string("none"));
  const Scenario without = make_scenario(off, 0, 0, cached);
  std::vector<double> on_s, off_s;
  double cooling = 0;
  for (int r = 0; r < runs; ++r) {
    auto t0 = Clock::now();
    cooling = run_simulation(with, heat).report.value("cooling_energy_j");
    on_s.push_back(bench::seconds_since(t0));
    t0 = Clock::now();
    run_simulation(without).report.value("makespan_s");
    off_s.push_back(bench::seconds_since(t0));
  }
  std::printf("%s, %zu jobs, %td thermal zones: build D %.3f s; simulate %.3f s with the physics, %.3f s without: "
              "%.2f x (cooling %.4g J)\n",
              with.platform.name.c_str(), with.workload.jobs.size(), std::ptrdiff_t(room.d->size()), bench::median(build_s),
              bench::median(on_s), bench::median(off_s), bench::median(on_s) / bench::median(off_s), cooling);
  return 0;
}

int main(int argc, char** argv) { return dcsweep::bench::guarded_main("bench_thermal", argc, argv, run_bench); }
