#pragma once
// How long a job runs where and as it runs: the `runtime_model` family. A model gives the factor
// by which the job's trace runtime is multiplied for a configuration and a placement:
//   trace          the SWF runtime (factor 1); a job started on another node count than the
//                  trace's does the same work at linear speedup (factor trace nodes / nodes)
//   meng_tau       [P1] Eq. 2-3: t' = (1 - c) t + c tau t, tau = 0.9875 + 0.0962 CC_job + r,
//                  r uniform in [-meng_tau_noise, meng_tau_noise] x CC_job (SST's timeperdistance
//                  draws its noise the same way), c = comm_fraction
//   meng_relative  [P0] section 5.3: t' = (1 - c) t + c (CC_job / CC_best(n)) t, CC_best(n) the
//                  communication cost of the best allocation of n nodes on an empty machine
//                  (the better of mc1x1's and genalg's there, same pattern and task mapping); a
//                  job placed as well runs its trace time, a worse one longer
//   pass           [P2] PASS: t(n, p) / t(trace nodes, pass_reference_cap_w) (Downey x frequency x
//                  power map, per-job parameters from Table IV's ranges; power/pass_model.hpp): the
//                  trace's runtime is the job's at its trace node count and full power
// (both meng models also apply the trace model's node-count factor.)
//
// What a stretch does to the request (a decision, see docs/models.md, "Simulation semantics"): the scheduler-visible
// estimate is scaled by the same factor as the runtime, because the factor is known when the job
// starts (it depends on the allocation). A job is therefore killed exactly when the trace's job
// was (runtime above the request), at its scaled request, and estimates stay upper bounds of
// runtimes whenever the trace's requests were: EASY's reservations keep their guarantee.
#include <cmath>
#include <memory>
#include <span>

#include "dcsweep/alloc/machine.hpp"
#include "dcsweep/core/registry.hpp"
#include "dcsweep/platform/platform.hpp"
#include "dcsweep/workload/workload.hpp"

namespace dcsweep {

struct RuntimeQuery {
  const Job& job;
  const JobConfig& config;
  const JobAttributes& attributes;
  std::span<const NodeId> nodes;  ///< in task order (after task mapping); may be empty unless uses_comm_cost()
  double comm_cost;               ///< CC_job of this placement; NaN: one node, or no network
};

struct RuntimeEffect {
  double scale = 1.0;         ///< runtime (and estimate) factor over the trace's
  double comm_stretch = 1.0;  ///< factor on the communication part alone (node power presets use it)
};

class RuntimeModel {
 public:
  virtual ~RuntimeModel() = default;
  /// Not const: a model may draw random terms from its stream, in the order jobs start.
  virtual RuntimeEffect effect(const RuntimeQuery& query) = 0;
  /// Whether the model needs CC_job or the node ids (the engine computes CC_job only then, or for
  /// the metrics, and otherwise may keep node sets as runs and pass no ids).
  virtual bool uses_comm_cost() const { return false; }
};

using RuntimeModelRegistry = Registry<RuntimeModel, const Platform&>;
const RuntimeModelRegistry& runtime_model_registry();

}  // namespace dcsweep
