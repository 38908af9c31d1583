#include "dcsweep/sim/engine_parts.hpp"

#include <algorithm>
#include <cmath>

#include "dcsweep/comm/comm.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/core/rng.hpp"
#include "dcsweep/sim/scenario.hpp"

namespace dcsweep {

std::vector<JobAttributes> job_attributes(const Scenario& s) {
  const double factor = s.params.real("deadline_factor");
  const std::string& pattern = s.params.text("comm_pattern");
  const bool mixed = pattern == "mixed";
  const std::uint8_t fixed = mixed ? 0 : comm::pattern_index(pattern);
  RngStream rng(workload_key(s), StreamPurpose::job_attributes);
  std::vector<JobAttributes> out(s.workload.jobs.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const Job& j = s.workload.jobs[i];
    out[i].deadline_s = j.submit_s + factor * j.estimate_s;
    out[i].comm_pattern = mixed ? comm::sample_pattern(rng) : fixed;
  }
  return out;
}

CommCostModel::CommCostModel(const Scenario& s)
    : platform_(s.platform),
      network_(s.platform.network != NetworkKind::none),
      metrics_(s.params.text("comm_cost_metrics") == "on" ||
               (s.params.text("comm_cost_metrics") == "auto" && s.platform.node_count <= 4096)),
      rcb_(comm::mapping_of(s.params.text("task_mapping")) == comm::Mapping::rcb) {
  if (rcb_ && !network_) {
    throw InputError("task_mapping 'rcb' needs a platform with a network (mesh or torus); platform '" +
                     s.platform.name + "' has none");
  }
}

double CommCostModel::cost(std::span<const NodeId> nodes, const JobAttributes& attributes) const {
  if (nodes.size() < 2) return NAN;
  return comm::comm_cost(platform_, nodes,
                         comm::task_graph(attributes.comm_pattern, static_cast<std::int32_t>(nodes.size())));
}

void CommCostModel::map_tasks(std::vector<NodeId>& nodes, const JobAttributes& attributes) const {
  if (!rcb_) {
    sort_nodes(nodes);
    return;
  }
  comm::map_tasks(platform_, nodes,
                  comm::task_graph(attributes.comm_pattern, static_cast<std::int32_t>(nodes.size())),
                  comm::Mapping::rcb);
}

}  // namespace dcsweep
