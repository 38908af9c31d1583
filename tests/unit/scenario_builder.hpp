#pragma once
// Builds small hand-written scenarios for scheduler tests.
#include <string>
#include <vector>

#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/simulation.hpp"

namespace dcsweep::test {

struct JobSpec {
  std::int64_t id;
  double submit_s;
  std::int32_t nodes;
  double runtime_s;
  double estimate_s = 0;  ///< 0: the runtime
};

inline Scenario scenario(std::int32_t nodes, const std::string& scheduler, const std::vector<JobSpec>& specs,
                         const std::string& allocator = "first_fit") {
  ParamSet params(simulation_catalog());
  params.set("scheduler", scheduler);
  params.set("allocator", allocator);
  Scenario s{params, {1, 0, 0}, Platform{"test", nodes, 1, ""}, {}};
  for (const JobSpec& j : specs) {
    s.workload.jobs.push_back({j.id, j.submit_s, j.runtime_s, j.estimate_s > 0 ? j.estimate_s : j.runtime_s, j.nodes});
  }
  return s;
}

/// Start times by position in the workload.
inline std::vector<double> starts(const SimulationResult& r) {
  std::vector<double> out;
  for (const auto& o : r.jobs) out.push_back(o.start_s);
  return out;
}

}  // namespace dcsweep::test
