// The floor under a dense dual simplex iteration of MPIT's LP on oxley4320 (issue 29): each
// iteration computes its pivot row, rho^T A over the held inlet rows x every pool's column, at
// least one pass over those coefficients. Times that pass alone (row-major doubles, each row
// added into the result, the loop the compiler vectorizes): the best and the median of `--reps`
// repetitions of `--passes` passes, microseconds a pass (no simplex: a lower bound on one).
//   bench_lp_pass [--rows 100] [--cols 4320] [--passes 300] [--reps 7]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.hpp"

static int run_bench(int argc, char** argv) {
  std::size_t rows = 100, cols = 4320, passes = 300, reps = 7;
  for (int i = 1; i < argc; i += 2) {
    const std::string_view flag = argv[i];
    std::size_t* target = flag == "--rows"     ? &rows
                          : flag == "--cols"   ? &cols
                          : flag == "--passes" ? &passes
                          : flag == "--reps"   ? &reps
                                               : nullptr;
    if (target == nullptr || i + 1 == argc) {
      std::fprintf(stderr, "bench_lp_pass: '%s' is not an option with a value (--rows, --cols, --passes, --reps N)\n",
                   argv[i]);
      return 2;
    }
    *target = std::size_t(std::strtoull(argv[i + 1], nullptr, 10));
  }
  if (rows == 0 || cols == 0 || passes == 0 || reps == 0) {
    std::fprintf(stderr, "bench_lp_pass: --rows, --cols, --passes and --reps must be positive\n");
    return 2;
  }
  std::vector<double> a(rows * cols), rho(rows), out(cols);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = double(i % 97) * 1e-3;  // D-like magnitudes
  for (std::size_t i = 0; i < rows; ++i) rho[i] = 1.0 / double(i + 1);
  std::vector<double> us;
  double check = 0;
  for (std::size_t rep = 0; rep < reps; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t pass = 0; pass < passes; ++pass) {
      std::fill(out.begin(), out.end(), 0.0);
      for (std::size_t i = 0; i < rows; ++i) {
        const double r = rho[i] + double(pass) * 1e-12;  // a new rho each pass, as each iteration's
        const double* row = a.data() + i * cols;
        for (std::size_t j = 0; j < cols; ++j) out[j] += r * row[j];
      }
      check += out[pass % cols];
    }
    us.push_back(1e6 * dcsweep::bench::seconds_since(t0) / double(passes));
  }
  const double best = *std::min_element(us.begin(), us.end());
  std::printf(
      "rho^T A over %zu x %zu doubles (%.2f MB): best %.1f us, median %.1f us a pass (%zu x %zu passes; check %.3g)\n",
      rows, cols, double(rows * cols * sizeof(double)) / 1e6, best, dcsweep::bench::median(us), reps, passes, check);
  return 0;
}

int main(int argc, char** argv) { return dcsweep::bench::guarded_main("bench_lp_pass", argc, argv, run_bench); }
