#include "dcsweep/sim/engine_parts.hpp"

#include <algorithm>
#include <cmath>

#include "dcsweep/core/rng.hpp"

namespace dcsweep {

std::vector<JobAttributes> job_attributes(const Scenario& s) {
  const double factor = s.params.real("deadline_factor");
  std::vector<JobAttributes> out(s.workload.jobs.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const Job& j = s.workload.jobs[i];
    out[i].deadline_s = j.submit_s + factor * j.estimate_s;
  }
  return out;
}

CommCostModel::CommCostModel(const Scenario& s)
    : platform_(s.platform),
      network_(s.platform.network != NetworkKind::none),
      metrics_(s.params.boolean("comm_cost_metrics")),
      rcb_(false) {}

double CommCostModel::cost(std::span<const NodeId> nodes, const JobAttributes&) const {
  if (nodes.size() < 2) return NAN;
  return NAN;
}

void CommCostModel::map_tasks(std::vector<NodeId>& nodes, const JobAttributes&) const {
  if (!std::is_sorted(nodes.begin(), nodes.end())) std::sort(nodes.begin(), nodes.end());
}

}  // namespace dcsweep
