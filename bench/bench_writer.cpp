// Benchmark (d): the final write of a sweep of 100,000 points x 20 metrics (plus a 24-sample
// utilization series per point), as `dcsweep run` does it: rank 0 holds every result, lays the file
// out, sends each rank its block of rows, and all ranks write collectively (write_results).
//   mpirun -np 2 build/bench/bench_writer OUT.h5 [--points N] [--runs R]
// Prints the median seconds of R writes (each to a fresh file).
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sweep/result_file.hpp"

namespace {

using namespace dcsweep;

std::vector<PointResult> synthetic_results(const Grid& grid, const ResultLayout& layout) {
  std::vector<PointResult> all(grid.size());
  for (std::uint64_t i = 0; i < grid.size(); ++i) {
    PointResult& r = all[i];
    r.flat = i;
    r.status = i % 997 == 0 ? PointStatus::failed : PointStatus::ok;
    if (r.status == PointStatus::failed) r.error = "synthetic failure of point " + std::to_string(i);
    r.wall_s = 1e-3 * double(i % 17);
    r.rank = int(i % 2);
    for (std::size_t m = 0; m < layout.metrics.size(); ++m) r.metrics.push_back(std::sin(double(i * 31 + m)));
    r.series.resize(layout.series.size());
    for (int k = 0; k < 24; ++k) {
      r.series[0].times_s.push_back(3600.0 * k);
      r.series[0].values.push_back(std::fmod(0.37 * double(i + std::uint64_t(k)), 1.0));
    }
  }
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 2) {
    if (rank == 0) std::fprintf(stderr, "usage: bench_writer OUT.h5 [--points N] [--runs R]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::string out = argv[1];
  long points = 100000;
  int runs = 5;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--points") points = std::atol(argv[i + 1]);
    if (flag == "--runs") runs = std::atoi(argv[i + 1]);
  }
  // 100 x (points / 100) grid over two real parameters.
  const std::string text = "[sweep]\nseed = 1\n[axes]\ngamma = { start = 0.5, stop = 1.5, num = 100 }\n"
                           "poisson_rate_per_h = { start = 1, stop = 1000, num = " +
                           std::to_string(points / 100) + " }\n";
  const ParamCatalog& catalog = simulation_catalog();
  const SweepSpec spec = parse_spec(text, "bench.toml", catalog);
  const Grid grid(spec, catalog);
  ResultLayout layout = ResultLayout::of_simulation();
  for (int m = 0; layout.metrics.size() < 20; ++m) {
    layout.metrics.push_back({"bench_metric_" + std::to_string(m), "", "synthetic"});
  }
  const std::vector<PointResult> all = rank == 0 ? synthetic_results(grid, layout) : std::vector<PointResult>{};
  const std::vector<double> costs(grid.size(), 1e-3);
  const FileLayout file{spec, grid, catalog, layout};
  std::vector<double> times;
  for (int run = 0; run < runs; ++run) {
    if (rank == 0) std::filesystem::remove(out);
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    write_results(out, MPI_COMM_WORLD, file, {"bench", "bench", "now", 2}, costs, all);
    MPI_Barrier(MPI_COMM_WORLD);
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  if (rank == 0) {
    std::printf("write_results: %zu points x %zu metrics + %zu-sample series: median %.3f s of %d (min %.3f, max %.3f), %.1f MB\n",
                std::size_t(grid.size()), layout.metrics.size(), std::size_t(24), times[times.size() / 2], runs,
                times.front(), times.back(), double(std::filesystem::file_size(out)) / 1e6);
  }
  MPI_Finalize();
  return 0;
}
