#include "dcsweep/workload/synthetic.hpp"

#include <cmath>

#include "dcsweep/core/error.hpp"

namespace dcsweep {

Workload generate_poisson(const PoissonOptions& o, RngStream& rng, std::int32_t platform_nodes) {
  if (o.min_nodes > o.max_nodes) throw InputError("poisson_min_nodes is above poisson_max_nodes");
  if (o.min_runtime_s > o.max_runtime_s) {
    throw InputError("poisson_min_runtime_s is above poisson_max_runtime_s");
  }
  Workload w;
  w.source = "poisson(" + std::to_string(o.count) + " jobs)";
  const double rate_per_s = o.rate_per_h / 3600.0;
  double t = 0;
  for (std::int64_t i = 1; i <= o.count; ++i) {
    t += rng.exponential(rate_per_s);
    Job job;
    job.id = i;
    job.submit_s = o.gamma * t;
    job.nodes = static_cast<std::int32_t>(rng.integer(o.min_nodes, o.max_nodes));
    job.runtime_s = std::round(rng.uniform(o.min_runtime_s, o.max_runtime_s));
    job.runtime_s = std::max(job.runtime_s, 1.0);
    job.estimate_s = job.runtime_s;
    if (job.nodes > platform_nodes) {
      w.rejected.record(w.rejected.too_large, "job " + std::to_string(i) + ": too large");
      continue;
    }
    w.jobs.push_back(job);
  }
  return w;
}

}  // namespace dcsweep
