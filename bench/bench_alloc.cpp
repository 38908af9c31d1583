// Benchmark of one allocation decision (issue 8): a 512-node job on intrepid (40,960 nodes, 3D
// torus 40 x 32 x 32) with a seeded random half of the nodes busy. Per allocator, one allocator
// decides: first --runs decisions on that machine and another random half-busy one in turn, so
// no decision can reuse what the one before left (mm and genalg keep each centre's score between
// decisions of the same size while nothing within its ball changed); the median of those on the
// first machine. Then --runs decisions on the first machine in a row ("again", the machine
// unchanged: what the kept scores save). One untimed decision first: a new allocator's first
// decision also pays for its tables' fresh memory (page faults, 15-20 ms on this VM).
//   bench_alloc [--runs R] [--nodes K] [--platform NAME]
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/comm/comm.hpp"
#include "dcsweep/sim/catalog.hpp"

static int run_bench(int argc, char** argv) {
  using namespace dcsweep;
  int runs = 9;
  std::int32_t nodes = 512;
  std::string platform_name = "intrepid";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--runs") runs = std::stoi(argv[i + 1]);
    if (arg == "--nodes") nodes = std::stoi(argv[i + 1]);
    if (arg == "--platform") platform_name = argv[i + 1];
  }
  const ParamSet params(simulation_catalog());
  const auto platform = platform_registry().at(platform_name).make(BuildContext{params, {}}, TraceHint{});
  auto half_busy = [&](std::uint64_t seed) {
    Machine m(platform->node_count);
    RngStream rng({seed, 0, 0}, StreamPurpose::allocator);
    std::vector<NodeId> busy;
    for (NodeId n = 0; n < platform->node_count; ++n) {
      if (rng.uniform01() < 0.5) busy.push_back(n);
    }
    m.occupy(busy);
    return m;
  };
  const Machine machine = half_busy(42), other = half_busy(43);
  std::printf("%s, %d of %d nodes free, %d-node job, median of %d decisions:\n", platform->name.c_str(),
              machine.free_count(), platform->node_count, nodes, runs);
  for (const char* name : {"mc1x1", "mm", "genalg", "first_fit"}) {
    const auto allocator = allocator_registry().at(name).make(BuildContext{params, {1, 0, 0}}, *platform);
    std::vector<double> fresh, again;
    std::vector<NodeId> out;
    auto timed = [&](std::vector<double>& times) {  // one decision on `machine`, its nodes in out
      out.clear();
      const auto t0 = std::chrono::steady_clock::now();
      allocator->allocate(nodes, machine, out);
      times.push_back(bench::seconds_since(t0));
    };
    std::vector<NodeId> scratch;
    allocator->allocate(nodes, other, scratch);
    for (int r = 0; r < runs; ++r) {
      timed(fresh);
      scratch.clear();
      allocator->allocate(nodes, other, scratch);
    }
    for (int r = 0; r < runs; ++r) timed(again);
    std::printf("  %-10s %9.3f ms   again %9.3f ms   CC_job (all-to-all) %.1f\n", name, 1e3 * bench::median(fresh),
                1e3 * bench::median(again),
                comm::comm_cost(*platform, out, comm::task_graph(0, std::int32_t(out.size()))));
  }
  return 0;
}

int main(int argc, char** argv) { return dcsweep::bench::guarded_main("bench_alloc", argc, argv, run_bench); }
