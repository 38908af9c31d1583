// Benchmark of the thermal model in the loop (issue 4): the same simulation with the physics on
// (power, heat recirculation, redline cooling) and off (node_power = none), in process, the trace
// loaded and the room's D built once beforehand, median of --runs each; and the time to build D.
//   bench_thermal TRACE --platform NAME [--scale-to-platform] [--jobs N] [--runs R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/run.hpp"
#include "dcsweep/sim/scenario.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dcsweep;
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_thermal TRACE --platform NAME [--scale-to-platform] [--jobs N] [--runs R]\n");
    return 2;
  }
  ParamSet params(simulation_catalog());
  params.set("trace", std::string(argv[1]));
  int runs = 5;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--platform" && i + 1 < argc) params.set("platform", std::string(argv[++i]));
    if (arg == "--scale-to-platform") params.set("scale_to_platform", true);
    if (arg == "--jobs" && i + 1 < argc) params.set("jobs", std::int64_t{std::stoll(argv[++i])});
    if (arg == "--runs" && i + 1 < argc) runs = std::stoi(argv[++i]);
  }
  const auto trace = std::make_shared<const SwfTrace>(read_swf(argv[1]));
  const TraceLoader cached = [&](const std::string&) { return trace; };
  const Scenario with = make_scenario(params, 0, 0, cached);
  std::vector<double> build_s;
  HeatDistributionBuild room;
  for (int r = 0; r < std::min(runs, 3); ++r) {
    const auto t0 = Clock::now();
    room = build_heat_distribution(with.platform, with.params);
    build_s.push_back(seconds_since(t0));
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
    on_s.push_back(seconds_since(t0));
    t0 = Clock::now();
    run_simulation(without).report.value("makespan_s");
    off_s.push_back(seconds_since(t0));
  }
  std::printf("%s, %zu jobs, %td thermal zones: build D %.3f s; simulate %.3f s with the physics, %.3f s without: "
              "%.2f x (cooling %.4g J)\n",
              with.platform.name.c_str(), with.workload.jobs.size(), std::ptrdiff_t(room.d->size()), median(build_s),
              median(on_s), median(off_s), median(on_s) / median(off_s), cooling);
  return 0;
}
