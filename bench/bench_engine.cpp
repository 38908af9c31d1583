// In-process engine benchmark: loads a trace once, then times simulate() on its first 10k, 100k
// and all jobs (median of --runs), printing jobs simulated per second so that the growth of the
// cost with the job count is visible apart from decompression and parsing.
// usage: bench_engine TRACE [--platform NAME] [--scale-to-platform] [--runs N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/scenario.hpp"

static int run_bench(int argc, char** argv) {
  using namespace dcsweep;
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_engine TRACE [--platform NAME] [--scale-to-platform] [--runs N]\n");
    return 2;
  }
  ParamSet params(simulation_catalog());
  const int runs = bench::parse_trace_args(argc, argv, params);
  const auto t0 = std::chrono::steady_clock::now();
  const auto trace = std::make_shared<const SwfTrace>(read_swf(argv[1]));
  std::printf("load (decompress + parse) %zu records: %.3f s\n", trace->records.size(), bench::seconds_since(t0));
  const TraceLoader cached = [&](const std::string&) { return trace; };
  std::printf("%10s %10s %12s %14s\n", "records", "simulated", "median_s", "jobs_per_s");
  for (const std::int64_t n : {std::int64_t{10000}, std::int64_t{100000}, std::int64_t{0}}) {
    params.set("jobs", n);
    const Scenario s = make_scenario(params, 0, 0, cached);
    std::vector<double> times;
    for (int r = 0; r < runs; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const SimulationResult result = simulate(s);
      times.push_back(bench::seconds_since(start));
    }
    const double m = bench::median(times);
    std::printf("%10s %10zu %12.4f %14.0f\n", n ? std::to_string(n).c_str() : "all", s.workload.jobs.size(), m,
                double(s.workload.jobs.size()) / m);
  }
  return 0;
}

int main(int argc, char** argv) { return dcsweep::bench::guarded_main("bench_engine", argc, argv, run_bench); }
