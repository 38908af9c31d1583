#pragma once
// What the in-process benchmarks share: timing, medians, and the trace options they take.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dcsweep/core/params.hpp"

namespace dcsweep::bench {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The calling thread's CPU seconds: what runs on a shared machine can still compare (a wall
/// clock counts the time other processes hold the core).
inline double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

inline double median(std::vector<double> v) {
  if (v.empty()) return NAN;  // --runs 0
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// NAME=VALUE[,NAME=VALUE...] into `params` (values parsed as the parameter's type).
inline void apply_assignments(std::string_view assignments, ParamSet& params) {
  while (!assignments.empty()) {
    const std::size_t comma = assignments.find(',');
    const std::string_view one = assignments.substr(0, comma);
    const std::size_t eq = one.find('=');
    if (eq == std::string_view::npos) throw std::invalid_argument("expected NAME=VALUE, got '" + std::string(one) + "'");
    params.set_text(one.substr(0, eq), one.substr(eq + 1));
    assignments = comma == std::string_view::npos ? std::string_view() : assignments.substr(comma + 1);
  }
}

/// TRACE [--platform NAME] [--scale-to-platform] [--jobs N] [--runs R] into `params`; returns R.
inline int parse_trace_args(int argc, char** argv, ParamSet& params) {
  params.set("trace", std::string(argv[1]));
  int runs = 5;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--platform" && i + 1 < argc) params.set("platform", std::string(argv[++i]));
    if (arg == "--scale-to-platform") params.set("scale_to_platform", true);
    if (arg == "--jobs" && i + 1 < argc) params.set("jobs", std::int64_t{std::stoll(argv[++i])});
    if (arg == "--runs" && i + 1 < argc) runs = std::max(1, std::stoi(argv[++i]));
  }
  return runs;
}

/// A benchmark's main: `body(argc, argv)`, where an error (a bad argument, a file that cannot be
/// read, an input the simulation refuses) is one line naming the tool, exit code 2.
inline int guarded_main(const char* tool, int argc, char** argv, int (*body)(int, char**)) {
  try {
    return body(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", tool, e.what());
    return 2;
  }
}

}  // namespace dcsweep::bench
