#pragma once
// Pieces of the simulation engine that depend on the scenario's parameters only: the jobs'
// attributes beyond SWF, and the communication cost of a placement (internal to the sim library,
// public so the unit tests can check them directly).
#include <span>
#include <vector>

#include "dcsweep/alloc/machine.hpp"
#include "dcsweep/sim/simulation.hpp"

namespace dcsweep {

/// Per job: deadline = submit + deadline_factor x estimate; communication pattern from
/// comm_pattern (`mixed`: one of the patterns, uniformly, from the job_attributes stream, drawn in
/// job order so it does not depend on the schedule).
std::vector<JobAttributes> job_attributes(const Scenario& scenario);

/// CC_job and task mapping for the scenario's platform, pattern and mapping parameters.
class CommCostModel {
 public:
  explicit CommCostModel(const Scenario& scenario);
  /// Whether CC_job is computed at job starts: the platform has a network, and the runtime model
  /// needs it or comm_cost_metrics is on (auto: on up to 4,096 nodes).
  bool wanted(bool model_needs) const { return network_ && (model_needs || metrics_); }
  /// CC_job of the tasks on `nodes` (task i on nodes[i]); NaN for one node.
  double cost(std::span<const NodeId> nodes, const JobAttributes& attributes) const;
  /// Orders `nodes` so that task i goes to nodes[i]: in_order (ascending ids) or rcb.
  void map_tasks(std::vector<NodeId>& nodes, const JobAttributes& attributes) const;
  /// Whether it reads node ids: CC_job is wanted, or tasks are mapped by rcb (in_order needs
  /// no ids: ascending runs are in order).
  bool reads_nodes(bool model_needs) const { return rcb_ || wanted(model_needs); }

 private:
  const Platform& platform_;
  bool network_, metrics_, rcb_;
};

}  // namespace dcsweep
