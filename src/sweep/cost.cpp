#include "dcsweep/sweep/cost.hpp"

#include <map>

namespace dcsweep {
namespace {

/// The parameters that change which jobs, and how large, a point simulates.
constexpr const char* kWorkloadKeys[] = {"workload",   "trace",      "first_job",         "jobs",
                                         "platform",   "size_scale", "scale_to_platform", "poisson_jobs",
                                         "poisson_min_nodes", "poisson_max_nodes"};

std::string workload_key(const ParamSet& p) {
  std::string key;
  for (const char* name : kWorkloadKeys) key += format_value(p.value(name)) + '\x1f';
  return key;
}

double workload_cost(const Workload& w, const CostModel& model) {
  double node_count = 0;
  for (const Job& job : w.jobs) node_count += job.nodes;
  return model.per_job_s * static_cast<double>(w.jobs.size()) + model.per_node_s * node_count;
}

}  // namespace

TraceLoader caching_trace_loader() {
  auto cache = std::make_shared<std::map<std::string, std::shared_ptr<const SwfTrace>>>();
  return [cache](const std::string& path) {
    auto& slot = (*cache)[path];
    if (!slot) slot = std::make_shared<const SwfTrace>(read_swf(path));
    return slot;
  };
}

std::vector<double> estimate_costs(const Grid& grid, const TraceLoader& loader, const CostModel& model,
                                   std::size_t part, std::size_t parts) {
  std::map<std::string, std::pair<std::size_t, double>> by_workload;  // key -> (order of appearance, cost)
  std::vector<double> costs(grid.size(), -1.0);
  for (std::uint64_t i = 0; i < grid.size(); ++i) {
    const ParamSet p = grid.params(i);
    const auto [it, added] = by_workload.try_emplace(workload_key(p), by_workload.size(), -1.0);
    auto& [order, cost] = it->second;
    if (order % parts != part) continue;
    if (added) cost = workload_cost(make_scenario(p, i, grid.replicate(i), loader).workload, model);
    costs[i] = cost;
  }
  return costs;
}

}  // namespace dcsweep
