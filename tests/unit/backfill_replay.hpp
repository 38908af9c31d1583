#pragma once
// An independent replay of conservative backfilling (INTERFACE.md) for the tests of conservative
// and edf, written without the scheduler's code or its shortcuts: at every event time the whole
// plan is made again, each waiting job in the given order trying every candidate start (now, and
// the end of every interval of nodes in use) from the earliest, against the nodes in use counted
// afresh from the list of intervals (running jobs until their estimated ends, jobs placed before).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "dcsweep/workload/workload.hpp"

namespace dcsweep::test {

struct NodeUse {
  double from, to;
  std::int32_t nodes;
};

/// The nodes in use over time, made afresh from a list of intervals: `used[k]` from `times[k]` on
/// (none before times[0]).
struct NodesInUse {
  std::vector<double> times;
  std::vector<std::int32_t> used;

  explicit NodesInUse(const std::vector<NodeUse>& uses) {
    std::vector<std::pair<double, std::int32_t>> changes;  // (time, nodes taken (+) or given back (-))
    for (const NodeUse& u : uses) {
      changes.emplace_back(u.from, u.nodes);
      changes.emplace_back(u.to, -u.nodes);
    }
    std::sort(changes.begin(), changes.end());
    std::int32_t sum = 0;
    for (std::size_t i = 0; i < changes.size(); ++i) {
      sum += changes[i].second;
      if (i + 1 == changes.size() || changes[i + 1].first != changes[i].first) {
        times.push_back(changes[i].first);
        used.push_back(sum);
      }
    }
  }

  /// Whether `nodes` more are free all over [from, to) on a machine of `machine` nodes.
  bool room_for(double from, double to, std::int32_t nodes, std::int32_t machine) const {
    auto k = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), from) - times.begin());
    if (k > 0 && used[k - 1] + nodes > machine) return false;
    for (; k < times.size() && times[k] < to; ++k) {
      if (used[k] + nodes > machine) return false;
    }
    return true;
  }
};

/// Start times by workload position when `machine` nodes run `w` under conservative backfilling
/// with the waiting jobs ordered by `before` (a strict order on workload positions).
inline std::vector<double> replay_backfilling(const Workload& w, std::int32_t machine,
                                              const std::function<bool(std::size_t, std::size_t)>& before) {
  const std::size_t n = w.jobs.size();
  std::vector<double> start(n, NAN), end(n, NAN);
  std::vector<std::size_t> running, waiting;
  std::size_t next = 0;
  for (;;) {
    double t = next < n ? w.jobs[next].submit_s : INFINITY;
    for (const std::size_t j : running) t = std::min(t, end[j]);
    if (std::isinf(t)) break;
    std::erase_if(running, [&](std::size_t j) { return end[j] == t; });
    for (; next < n && w.jobs[next].submit_s == t; ++next) waiting.push_back(next);
    std::sort(waiting.begin(), waiting.end(), before);
    std::vector<NodeUse> uses;
    for (const std::size_t j : running) uses.push_back({t, start[j] + w.jobs[j].estimate_s, w.jobs[j].nodes});
    std::vector<std::size_t> still;
    for (const std::size_t j : waiting) {
      const Job& job = w.jobs[j];
      std::vector<double> candidates{t};
      for (const NodeUse& u : uses) candidates.push_back(std::max(u.to, t));
      std::sort(candidates.begin(), candidates.end());
      const NodesInUse in_use(uses);
      const auto at = std::find_if(candidates.begin(), candidates.end(), [&](double c) {
        return in_use.room_for(c, c + job.estimate_s, job.nodes, machine);
      });
      if (at == candidates.end()) return {};  // cannot happen: the machine empties in the end
      uses.push_back({*at, *at + job.estimate_s, job.nodes});
      if (*at == t) {
        start[j] = t;
        end[j] = t + std::min(job.runtime_s, job.estimate_s);
        running.push_back(j);
      } else {
        still.push_back(j);
      }
    }
    waiting = still;
  }
  return start;
}

/// How a simulation's start times compare with the replay's.
struct ReplayAgreement {
  std::size_t same = 0;  ///< jobs whose start times are equal
  std::size_t jobs = 0;
  std::size_t waited = 0;  ///< jobs that did not start at their submit time (the case is not trivial)
};

/// Simulates the trace selection of `params` and replays it in the order `before` gives for
/// its scenario.
inline ReplayAgreement replay_agreement(
    const ParamSet& params,
    const std::function<std::function<bool(std::size_t, std::size_t)>(const Scenario&)>& before) {
  const Scenario s = make_scenario(params);
  const SimulationResult r = simulate(s);
  const std::vector<double> expected = replay_backfilling(s.workload, s.platform.node_count, before(s));
  ReplayAgreement out{0, s.workload.jobs.size(), 0};
  for (std::size_t j = 0; j < expected.size(); ++j) {
    out.same += r.jobs[j].start_s == expected[j];
    out.waited += r.jobs[j].start_s > s.workload.jobs[j].submit_s;
  }
  return out;
}

/// A trace selection's parameters, `trace` in the shipped traces.
inline ParamSet trace_selection(const std::string& trace, std::int64_t first_job, std::int64_t jobs, double gamma,
                                const std::string& scheduler) {
  ParamSet p(simulation_catalog());
  p.set("trace", std::string(DCSWEEP_TRACES_DIR) + "/" + trace);
  p.set("first_job", first_job);
  p.set("jobs", jobs);
  p.set("gamma", gamma);
  p.set("scheduler", scheduler);
  return p;
}

}  // namespace dcsweep::test
