// The mpit allocator's decision time (issue 9: <= 1 ms per decision on meng40).
// Replays Poisson queues on meng40 (real D, meng_p1 power) with jobs of 2-16 nodes at about half
// load, so that most decisions take the LP path, and times every MpitSolver::decide: the median
// and 99th percentile of all decisions, and of those that solved the LP (the others were one-node
// jobs or few enough allocations to enumerate).
//   bench_mpit [--queues Q]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_util.hpp"
#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/alloc/mpit.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/scenario.hpp"

namespace dcsweep {
namespace {

using Clock = std::chrono::steady_clock;

class Timed final : public Allocator {
 public:
  Timed(const Scenario& s, std::vector<double>& all, std::vector<double>& lp)
      : solver_(s.platform), all_(all), lp_(lp) {}
  bool allocate(const AllocationRequest& r, std::vector<NodeId>& out) override {
    const auto t0 = Clock::now();
    const MpitDecision d = solver_.decide(r.machine, r.room, r.config, r.nodes);
    const double s = bench::seconds_since(t0);
    all_.push_back(s);
    if (d.lp_solved) lp_.push_back(s);
    out = d.nodes;
    return true;
  }

 private:
  MpitSolver solver_;
  std::vector<double>& all_;
  std::vector<double>& lp_;
};

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::size_t(q * double(v.size() - 1))];
}

}  // namespace
}  // namespace dcsweep

static int run_bench(int argc, char** argv) {
  using namespace dcsweep;
  int queues = 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--queues") queues = std::atoi(argv[i + 1]);
  }
  std::vector<double> all, lp;
  for (int q = 0; q < queues; ++q) {
    ParamSet p(simulation_catalog());
    p.set("workload", std::string("poisson"));
    p.set("platform", std::string("meng40"));
    p.set("node_power", std::string("meng_p1"));
    p.set("poisson_min_nodes", std::int64_t{2});
    p.set("poisson_rate_per_h", 8.0);
    p.set("poisson_jobs", std::int64_t{100});
    const Scenario s = make_scenario(p, std::uint64_t(q));
    auto physics = make_datacenter_model(s);
    SimObserver* observers[] = {physics.get()};
    SimulationOptions options{observers, physics.get()};
    Timed timed(s, all, lp);
    options.allocator = &timed;
    simulate(s, options);
  }
  std::printf("mpit on meng40: %zu decisions, median %.3f ms, p99 %.3f ms; %zu solved the LP: "
              "median %.3f ms, p99 %.3f ms (target: <= 1 ms per decision)\n",
              all.size(), 1e3 * bench::median(all), 1e3 * percentile(all, 0.99), lp.size(), 1e3 * bench::median(lp),
              1e3 * percentile(lp, 0.99));
  return 0;
}

int main(int argc, char** argv) { return dcsweep::bench::guarded_main("bench_mpit", argc, argv, run_bench); }
