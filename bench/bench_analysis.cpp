// Benchmarks of issue 13 (docs/performance.md):
//   (a) `dcsweep analyze` on a Saltelli result file of 100,002 points (N = 14,286 base samples x
//       (5 factors + 2)) holding every metric of the simulation, end to end in process: reading
//       the file, the indices of every metric with 1,000 bootstrap resamples, the table;
//   (b) generating a design of about 10^6 points: each kind in the unit cube, and a whole sobol
//       spec parsed (its factors' values included).
//   build/bench/bench_analysis [--runs R] [--dir DIR]
// The file's values are synthetic (functions of the design's points, as a sweep would give;
// 0.1% of the points failed, and four metrics that never apply); it is written with the
// engine's own writer on one MPI rank.
#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "dcsweep/analysis/design.hpp"
#include "dcsweep/cli/cli.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sweep/result_file.hpp"

namespace {

using namespace dcsweep;
using Clock = std::chrono::steady_clock;

std::string sobol_spec(std::size_t base_samples) {
  return "[sweep]\nname = \"bench\"\nseed = 7\n[design]\nkind = \"sobol\"\nbase_samples = " +
         std::to_string(base_samples) +
         "\n[base]\nplatform = \"meng40\"\n[axes]\nredline_c = { min = 22, max = 32 }\n"
         "supply_temp_min_c = { min = 5, max = 18 }\ngamma = { min = 0.8, max = 1.25 }\n"
         "comm_fraction = { min = 0.1, max = 0.5 }\nnode_compute_power_w = { min = 2500, max = 3500 }\n";
}

/// Metric m at a point: a G-function of the point's unit coordinates with weights of its own.
double synthetic(const analysis::UnitDesign& d, std::size_t row, std::size_t m) {
  double y = 1;
  for (std::size_t f = 0; f < d.factors; ++f) {
    const double a = double((m + f) % 5) * 2.0;
    y *= (std::abs(4 * d.at(row, f) - 2) + a) / (1 + a);
  }
  return 1000.0 * double(m + 1) * y;
}

std::vector<PointResult> synthetic_results(const SweepSpec& spec, const ResultLayout& layout) {
  const analysis::UnitDesign& d = spec.design.unit;
  std::vector<PointResult> all(d.rows());
  for (std::size_t i = 0; i < all.size(); ++i) {
    PointResult& r = all[i];
    r.flat = i;
    r.status = i % 1000 == 999 ? PointStatus::failed : PointStatus::ok;
    if (r.status == PointStatus::failed) r.error = "synthetic failure";
    for (std::size_t m = 0; m < layout.metrics.size(); ++m) {
      r.metrics.push_back(r.status == PointStatus::failed || m % 6 == 5 ? NAN : synthetic(d, i, m));
    }
    r.series.resize(layout.series.size());
  }
  return all;
}

std::string write_file(const std::string& dir) {
  const std::string path = dir + "/bench-analysis.h5";
  std::filesystem::remove(path);
  const ParamCatalog& catalog = simulation_catalog();
  const SweepSpec spec = parse_spec(sobol_spec(14286), "bench.toml", catalog);
  const Grid grid(spec, catalog);
  const ResultLayout layout = ResultLayout::of_simulation();
  const std::vector<PointResult> all = synthetic_results(spec, layout);
  const std::vector<double> costs(grid.size(), 1e-3);
  write_results(path, MPI_COMM_SELF, {spec, grid, catalog, layout}, {"bench", "bench", "now", 1}, costs, all);
  std::printf("wrote %s: %llu points x %zu metrics\n", path.c_str(), static_cast<unsigned long long>(grid.size()),
              layout.metrics.size());
  return path;
}

template <class F>
double median_seconds(int runs, F&& work) {
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = Clock::now();
    work();
    times.push_back(bench::seconds_since(t0));
  }
  return bench::median(times);
}

void bench_analyze(const std::string& path, int runs) {
  std::ostringstream out, err;
  const std::vector<std::string> args = {"analyze", path};
  int code = 0;
  const double s = median_seconds(runs, [&] {
    out.str("");
    code = run_cli(args, out, err);
  });
  std::printf("(a) dcsweep analyze, 100,002 points, every metric, 1000 resamples: %.3f s (exit %d, %zu bytes of table)\n",
              s, code, out.str().size());
}

void bench_designs(int runs) {
  std::size_t rows = 0;
  const double lhs = median_seconds(runs, [&] { rows = analysis::latin_hypercube(1000000, 5, 7).rows(); });
  std::printf("(b) lhs, %zu samples x 5 factors (unit cube): %.3f s\n", rows, lhs);
  const double sobol = median_seconds(runs, [&] { rows = analysis::saltelli(142858, 5, false, 7).rows(); });
  std::printf("(b) sobol, N = 142858 x (5 + 2) = %zu rows (unit cube): %.3f s\n", rows, sobol);
  const double morris = median_seconds(runs, [&] { rows = analysis::morris(166667, 5, 4, 7).rows(); });
  std::printf("(b) morris, r = 166667 x (5 + 1) = %zu rows (unit cube): %.3f s\n", rows, morris);
  const std::string text = sobol_spec(142858);
  std::uint64_t points = 0;
  const double spec = median_seconds(runs, [&] { points = parse_spec(text, "bench.toml", simulation_catalog()).point_count(); });
  std::printf("(b) sobol spec parsed, %llu points with their factor values: %.3f s\n",
              static_cast<unsigned long long>(points), spec);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int runs = 5;
  std::string dir = std::filesystem::temp_directory_path().string();
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
    if (flag == "--dir") dir = argv[i + 1];
  }
  std::printf("medians of %d runs\n", runs);
  const std::string path = write_file(dir);
  bench_analyze(path, runs);
  bench_designs(runs);
  std::filesystem::remove(path);
  MPI_Finalize();
  return 0;
}
