// Benchmark of one allocation decision (issue 8): a 512-node job on intrepid (40,960 nodes, 3D
// torus 40 x 32 x 32) with a seeded random half of the nodes busy; median of --runs decisions
// per allocator, each on the same machine state, the allocator (and its tables) built once.
//   bench_alloc [--runs R] [--nodes K] [--platform NAME]
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/comm/comm.hpp"
#include "dcsweep/sim/catalog.hpp"

int main(int argc, char** argv) {
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
  Machine machine(platform->node_count);
  RngStream rng({42, 0, 0}, StreamPurpose::allocator);
  std::vector<NodeId> busy;
  for (NodeId n = 0; n < platform->node_count; ++n) {
    if (rng.uniform01() < 0.5) busy.push_back(n);
  }
  machine.occupy(busy);
  std::printf("%s, %d of %d nodes free, %d-node job, median of %d decisions:\n", platform->name.c_str(),
              machine.free_count(), platform->node_count, nodes, runs);
  for (const char* name : {"mc1x1", "mm", "genalg", "first_fit"}) {
    const auto allocator = allocator_registry().at(name).make(BuildContext{params, {1, 0, 0}}, *platform);
    std::vector<double> times;
    std::vector<NodeId> out;
    for (int r = 0; r < runs; ++r) {
      out.clear();
      const auto t0 = std::chrono::steady_clock::now();
      allocator->allocate(nodes, machine, out);
      times.push_back(bench::seconds_since(t0));
    }
    std::printf("  %-10s %9.3f ms   CC_job (all-to-all) %.1f\n", name, 1e3 * bench::median(times),
                comm::comm_cost(*platform, out, comm::task_graph(0, std::int32_t(out.size()))));
  }
  return 0;
}
