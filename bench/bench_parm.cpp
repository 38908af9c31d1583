// PARM's ILP (issue 11): one scheduling decision on Intrepid ([P2] section VII: N = 40,960 nodes,
// W_max = 116 W x 40,960 = 4,751,360 W, caps {30, 33, 36, 44, 50, 60} W) with a queue of PASS
// jobs, each offering 8 node counts x 6 caps, over seeded instances: median and max time of the
// fast exact solver and of CBC on the same instances, and the largest objective difference.
// Jobs: max nodes 512 x 2^k (k uniform on 0..4, as Intrepid's partitions), min = theta x max,
// values w_j s_j(n, p) with s_j from PASS (Eq. 7, reference (min N_j, 30 W)) and
// w_j = (t_rem + t_wait)^alpha (Eq. 8), t_rem uniform 10 min - 10 h, t_wait 0 - 2 h, alpha 0.5.
// With N = 40,960 no choice can exceed the budget (every node draws <= 60 + 56 = 116 W), so only
// the node row binds; --nodes 55248 (what the budget powers at 30 W, Table VI) overprovisions the
// machine and makes both rows bind.
// --instance FILE (repeatable; parm_ilp_io.cpp's text, .gz allowed) times saved real decisions instead.
//   bench_parm [--instances I] [--jobs J] [--running R] [--alpha A] [--nodes N] [--instance FILE]...
//              [--search-node-limit L]
//              [--no-cbc] [--verbose]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "bench_util.hpp"
#include "dcsweep/power/parm_ilp.hpp"

namespace dcsweep {
namespace {

using Clock = std::chrono::steady_clock;

ParmInstance intrepid_decision(std::uint64_t seed, int jobs, int running, double alpha, std::int64_t nodes) {
  RngStream rng({seed, 0, 0}, StreamPurpose::job_attributes);
  const double caps[] = {30, 33, 36, 44, 50, 60};
  ParmInstance in;
  in.node_capacity = nodes;
  in.power_budget_w = 116.0 * 40960;
  std::int64_t running_nodes = 0;
  for (int j = 0; j < jobs; ++j) {
    const std::int64_t max_nodes = std::int64_t{512} << rng.integer(0, 4);
    const PassParams p = sample_pass_params(rng, double(max_nodes));
    const std::int64_t min_nodes = sample_min_nodes(rng, max_nodes);
    const double weight = std::pow(rng.uniform(600, 36000) + rng.uniform(0, 7200), alpha);
    ParmJob job;
    // Running jobs: the first ones whose least size still fits beside the others.
    job.running = j < running && running_nodes + min_nodes <= in.node_capacity / 2;
    if (job.running) running_nodes += min_nodes;
    for (const std::int64_t n : node_levels(min_nodes, max_nodes, 8)) {
      for (const double cap : caps) job.options.push_back({n, cap, weight * pass_speed(p, double(n), cap, double(min_nodes), caps[0])});
    }
    in.jobs.push_back(std::move(job));
  }
  return in;
}

double max_of(const std::vector<double>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

}  // namespace
}  // namespace dcsweep

static int run_bench(int argc, char** argv) {
  int instances = 20, jobs = 200, running = 0;
  double alpha = 0.5;
  std::int64_t nodes = 40960;
  bool cbc = true, verbose = false;
  std::vector<std::string> files;
  std::uint64_t limit = dcsweep::kParmSearchNodeLimit;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--instances" && i + 1 < argc) instances = std::stoi(argv[++i]);
    if (arg == "--jobs" && i + 1 < argc) jobs = std::stoi(argv[++i]);
    if (arg == "--running" && i + 1 < argc) running = std::stoi(argv[++i]);
    if (arg == "--alpha" && i + 1 < argc) alpha = std::stod(argv[++i]);
    if (arg == "--nodes" && i + 1 < argc) nodes = std::stoll(argv[++i]);
    if (arg == "--instance" && i + 1 < argc) files.emplace_back(argv[++i]);
    if (arg == "--search-node-limit" && i + 1 < argc) limit = std::stoull(argv[++i]);
    if (arg == "--no-cbc") cbc = false;
    if (arg == "--verbose") verbose = true;
  }
  using namespace dcsweep;
  std::vector<double> fast_s, cbc_s, search_nodes;
  double worst_diff = 0;
  int agree = 0, selected = 0;
  if (!files.empty()) instances = int(files.size());
  for (int k = 0; k < instances; ++k) {
    const ParmInstance in = files.empty() ? intrepid_decision(std::uint64_t(k), jobs, running, alpha, nodes)
                                          : read_parm_instance_file(files[std::size_t(k)]);
    auto t0 = Clock::now();
    const ParmSolution fast = solve_parm_ilp(in, limit);
    fast_s.push_back(bench::seconds_since(t0));
    search_nodes.push_back(double(fast.search_nodes));
    if (verbose) std::printf("  instance %d: %.2f ms, %llu search nodes\n", k, 1e3 * fast_s.back(), static_cast<unsigned long long>(fast.search_nodes));
    for (const std::int32_t c : fast.choice) selected += c != ParmSolution::kNone;
    if (!cbc) continue;
    t0 = Clock::now();
    const ParmSolution ref = solve_parm_ilp_cbc(in);
    cbc_s.push_back(bench::seconds_since(t0));
    const double diff = std::abs(fast.objective - ref.objective) / std::max(1.0, std::abs(ref.objective));
    worst_diff = std::max(worst_diff, diff);
    agree += fast.feasible == ref.feasible && diff <= 1e-6;
  }
  if (!files.empty()) {
    std::printf("PARM ILP, %d saved decisions, %.1f jobs selected on average\n", instances,
                double(selected) / std::max(1, instances));
  } else {
    std::printf("PARM ILP, Intrepid decision (%lld nodes, 4,751,360 W): %d jobs (%d asked running) x 8 node counts x 6 caps, "
              "%d instances, %.1f jobs selected on average\n",
              static_cast<long long>(nodes), jobs, running, instances, double(selected) / std::max(1, instances));
  }
  std::printf("  fast exact: median %.2f ms, max %.2f ms (target median <= 50 ms); search nodes median %.0f, max %.0f\n",
              1e3 * bench::median(fast_s), 1e3 * max_of(fast_s), bench::median(search_nodes), max_of(search_nodes));
  if (cbc) {
    std::printf("  CBC:        median %.2f ms, max %.2f ms\n", 1e3 * bench::median(cbc_s), 1e3 * max_of(cbc_s));
    std::printf("  objectives agree (1e-6 relative) on %d of %d; largest relative difference %.2e\n", agree, instances,
                worst_diff);
  }
  return cbc && agree != instances ? 1 : 0;
}

int main(int argc, char** argv) { return dcsweep::bench::guarded_main("bench_parm", argc, argv, run_bench); }
