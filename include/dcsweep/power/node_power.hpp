#pragma once
// Node power presets (MODELS.md section 3) as a plug-in family: each gives, per node type, the
// power of an idle node and of a node running a job. Every number is a named parameter.
//   meng_p0   [P0]: idle 1000 W; running = (1 - comm_fraction) x 3000 W + comm_fraction x 2300 W
//   meng_p1   [P1]: the same mix with 1000 / 2000 / 2500 W
//   chassis   [P4]: omega + (u / 100) alpha of the node type, u = 0 idle, chassis_busy_utilization_pct running
//   parm      [P2]: CPU + memory 18 W + base 38 W; the CPU at cpu_power_cap_w running, cpu_idle_power_w idle
//   oxley     [P3]: static S + cores x the core power of P-state `pstate` running, S idle
// "platform" picks the platform's own preset; "none" turns the power (and thermal) model off.
#include <memory>
#include <vector>

#include "dcsweep/core/registry.hpp"
#include "dcsweep/platform/platform.hpp"
#include "dcsweep/workload/workload.hpp"

namespace dcsweep {

struct TypePower {
  double idle_w;
  double busy_w;                    ///< running a job in the default configuration
  double cap_offset_w = NAN;        ///< parm: running under CPU cap c draws c + cap_offset_w; NaN: no caps
  std::vector<double> pstate_busy_w;  ///< oxley: running at P-state k; empty: no P-states
  double compute_w = NAN, comm_w = NAN, comm_fraction = NAN;  ///< meng: the two phases and their mix
};

/// What a node of type `t` draws running a job in `config` whose communication phase is stretched
/// by `comm_stretch` (the runtime model's factor on the communication part, 1: none). For the
/// meng presets the mix is time-weighted: ((1 - c) P_comp + c s P_comm) / ((1 - c) + c s) ([P0]
/// section 5.3: "the adjustment in the job's running time is also reflected ... on the
/// communication power"). SimulationError when the configuration asks for what the preset does
/// not model (a CPU cap without `parm`, a P-state without `oxley`).
double busy_power_w(const TypePower& t, const JobConfig& config, double comm_stretch = 1.0);

/// Power of every node type of a platform, indexed like Platform::types.
using NodePowerTable = std::vector<TypePower>;

using NodePowerRegistry = Registry<NodePowerTable, const Platform&>;
const NodePowerRegistry& node_power_registry();

/// The parameter choosing the preset ("platform", "none" or a preset name).
ParamSpec node_power_param();

/// The table for a scenario's parameters and platform; nullptr when the model is off ("none", or
/// "platform" on a platform without a power preset).
std::unique_ptr<NodePowerTable> make_node_power(const ParamSet& params, const Platform& platform, StreamKey key);

}  // namespace dcsweep
