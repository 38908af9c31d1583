#pragma once
// Synthetic workloads driven by a seeded random stream.
#include <cstdint>

#include "dcsweep/core/rng.hpp"
#include "dcsweep/workload/workload.hpp"

namespace dcsweep {

/// Poisson arrivals with uniform sizes and runtimes ([P0] Sec. 5.3: 20 jobs/h, 1-16 nodes,
/// 1-20 min, 40 jobs). Requested time equals the runtime (perfect estimates): a request all the
/// same, so deadlines (edf, deadline_misses) are defined.
struct PoissonOptions {
  double rate_per_h = 20;
  std::int64_t count = 40;
  std::int32_t min_nodes = 1;
  std::int32_t max_nodes = 16;
  double min_runtime_s = 60;
  double max_runtime_s = 1200;
  double gamma = 1;  ///< arrival scaling, as for traces ([P2]): submit' = gamma x submit
};

/// Jobs 1..count; the first arrives at time 0 + one inter-arrival gap (times gamma). Sizes above
/// the platform are rejected as for traces. The draws do not depend on gamma: the same jobs
/// arrive gamma times as far apart.
Workload generate_poisson(const PoissonOptions& options, RngStream& rng, std::int32_t platform_nodes);

}  // namespace dcsweep
