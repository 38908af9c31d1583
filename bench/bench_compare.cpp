// In-process comparison of policy variants on one workload: the trace is loaded and each room
// built once, then every variant's whole simulate() is timed, the variants interleaved run by run
// so that machine drift hits them alike; medians of --runs and ratios to the first variant.
// usage: bench_compare TRACE [--platform NAME] [--scale-to-platform] [--jobs N] [--runs R]
//                      [--set NAME=VALUE ...]  --variant "NAME=VALUE[,NAME=VALUE...]" ...
// e.g. bench_compare inputs/traces/NASA-iPSC-1993-3.1-cln.swf --platform meng40 --scale-to-platform
//        --set runtime_model=meng_tau --variant allocator=first_fit --variant allocator=mc1x1
#include <chrono>
#include <stdexcept>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/run.hpp"
#include "dcsweep/sim/scenario.hpp"

static int run_bench(int argc, char** argv) {
  using namespace dcsweep;
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_compare TRACE [--platform NAME] [--scale-to-platform] [--jobs N] [--runs R] "
                         "[--set NAME=VALUE ...] --variant NAME=VALUE[,...] ...\n");
    return 2;
  }
  ParamSet common(simulation_catalog());
  const int runs = bench::parse_trace_args(argc, argv, common);
  std::vector<std::string> variants;
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::string_view(argv[i]) == "--set") bench::apply_assignments(argv[++i], common);
    else if (std::string_view(argv[i]) == "--variant") variants.emplace_back(argv[++i]);
  }
  if (variants.empty()) variants.emplace_back("");
  const auto trace = std::make_shared<const SwfTrace>(read_swf(argv[1]));
  const TraceLoader cached = [&](const std::string&) { return trace; };
  std::vector<Scenario> scenarios;
  std::vector<HeatDistributionBuild> rooms;  // built once, outside the timing, as a sweep's cache does
  for (const std::string& v : variants) {
    ParamSet params = common;
    bench::apply_assignments(v, params);
    scenarios.push_back(make_scenario(params, 0, 0, cached));
    rooms.push_back(thermal_enabled(scenarios.back()) ? build_heat_distribution(scenarios.back().platform, params)
                                                      : HeatDistributionBuild{});
  }
  std::vector<std::vector<double>> times(variants.size());
  for (int r = 0; r < runs; ++r) {
    for (std::size_t k = 0; k < variants.size(); ++k) {
      const HeatDistributionBuild& room = rooms[k];
      const auto start = std::chrono::steady_clock::now();
      const SimulationResult result = run_simulation(scenarios[k], [&](const Platform&, const ParamSet&) { return room; });
      times[k].push_back(bench::seconds_since(start));
    }
  }
  std::printf("%-44s %10s %10s %12s\n", "variant", "jobs", "median_s", "vs first");
  const double base = bench::median(times[0]);
  for (std::size_t k = 0; k < variants.size(); ++k) {
    const double m = bench::median(times[k]);
    std::printf("%-44s %10zu %10.4f %11.2fx\n", variants[k].empty() ? "(as set)" : variants[k].c_str(),
                scenarios[k].workload.jobs.size(), m, m / base);
  }
  return 0;
}

int main(int argc, char** argv) { return dcsweep::bench::guarded_main("bench_compare", argc, argv, run_bench); }
