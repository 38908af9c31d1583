// Conservative backfilling (INTERFACE.md): hand-worked schedules, and an independent replay of a
// real trace that must agree on 100% of the start times.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "scenario_builder.hpp"

namespace dcsweep {
namespace {

using test::scenario;
using test::starts;
using V = std::vector<double>;

TEST(Conservative, BackfillsWhatDelaysNoReservation) {
  // 4 nodes. J1 (2 nodes, 0-10); J2 (4 nodes) reserved at 10-15; J3 (1 node, 2 s) arriving at 1
  // fits in [1, 3) beside J1: it starts at once.
  const auto r = simulate(scenario(4, "conservative", {{1, 0, 2, 10}, {2, 0, 4, 5}, {3, 1, 1, 2}}));
  EXPECT_EQ(starts(r), (V{0, 10, 1}));
}

TEST(Conservative, ProtectsEveryWaitingJobNotOnlyTheHead) {
  // 10 nodes. J1 (6 nodes, 0-10). J2 (8 nodes, 10 s) is reserved at [10, 20), J3 (all 10 nodes,
  // 10 s) at [20, 30). J4 (2 nodes, 30 s) arrives at 1: over [1, 31) it would take 2 of J3's
  // nodes, so it waits for J3's end: 30. EASY protects only the head: J4 ends after the shadow
  // time 10 but fits the 2 extra nodes, starts at 1, and J3 is pushed to J4's end, 31.
  const std::vector<test::JobSpec> jobs = {{1, 0, 6, 10}, {2, 0, 8, 10}, {3, 0, 10, 10}, {4, 1, 2, 30}};
  EXPECT_EQ(starts(simulate(scenario(10, "conservative", jobs))), (V{0, 10, 20, 30}));
  EXPECT_EQ(starts(simulate(scenario(10, "easy", jobs))), (V{0, 10, 31, 1}));
}

TEST(Conservative, ReplansWhenAJobEndsEarly) {
  // 2 nodes. J1 (2 nodes, runs 5, requests 10); J2 (2 nodes) reserved at 10 by the estimate; J1
  // ends at 5, the plan is made again and J2 starts at 5.
  const auto r = simulate(scenario(2, "conservative", {{1, 0, 2, 5, 10}, {2, 1, 2, 5}}));
  EXPECT_EQ(starts(r), (V{0, 5}));
}

/// An independent replay: at each event time, every waiting job in queue order is placed at the
/// earliest candidate time (now, an estimated end of a running job or of a job placed before it)
/// at which the nodes used, counted interval by interval, leave room for it over its estimate.
std::vector<double> replay(const Workload& w, std::int32_t machine) {
  struct Use {
    double from, to;
    std::int32_t nodes;
  };
  const std::size_t n = w.jobs.size();
  std::vector<double> start(n, NAN), end(n, NAN);
  std::vector<std::size_t> queue;
  std::size_t next = 0;
  auto used_at = [](const std::vector<Use>& uses, double t) {
    std::int32_t sum = 0;
    for (const Use& u : uses) sum += (u.from <= t && t < u.to) ? u.nodes : 0;
    return sum;
  };
  for (;;) {
    // the next event: the earliest future end or arrival (end -1: done)
    double soonest = next < n ? w.jobs[next].submit_s : INFINITY;
    for (std::size_t j = 0; j < n; ++j) {
      if (!std::isnan(start[j]) && end[j] >= 0) soonest = std::min(soonest, end[j]);
    }
    if (std::isinf(soonest)) break;
    const double t = soonest;
    for (std::size_t j = 0; j < n; ++j) {
      if (!std::isnan(start[j]) && end[j] == t) end[j] = -1;  // ended (kept as "done")
    }
    for (; next < n && w.jobs[next].submit_s == t; ++next) queue.push_back(next);
    std::vector<Use> uses;
    for (std::size_t j = 0; j < n; ++j) {
      if (!std::isnan(start[j]) && end[j] >= 0) uses.push_back({t, start[j] + w.jobs[j].estimate_s, w.jobs[j].nodes});
    }
    std::vector<std::size_t> waiting;
    for (const std::size_t j : queue) {
      const Job& job = w.jobs[j];
      std::vector<double> candidates{t};
      for (const Use& u : uses) candidates.push_back(std::max(u.to, t));
      std::sort(candidates.begin(), candidates.end());
      double chosen = NAN;
      for (const double c : candidates) {
        bool fits = used_at(uses, c) + job.nodes <= machine;
        for (const Use& u : uses) {
          if (u.from > c && u.from < c + job.estimate_s) fits = fits && used_at(uses, u.from) + job.nodes <= machine;
        }
        if (fits) {
          chosen = c;
          break;
        }
      }
      uses.push_back({chosen, chosen + job.estimate_s, job.nodes});
      if (chosen == t) {
        start[j] = t;
        end[j] = t + std::min(job.runtime_s, job.estimate_s);
      } else {
        waiting.push_back(j);
      }
    }
    queue = waiting;
  }
  return start;
}

TEST(Conservative, IndependentReplayOfARealTraceAgreesOnEveryStart) {
  ParamSet p(simulation_catalog());
  p.set("trace", std::string(DCSWEEP_TRACES_DIR) + "/SDSC-SP2-1998-4.2-cln.swf.gz");
  p.set("jobs", std::int64_t{1000});
  p.set("gamma", 0.5);  // a congested machine: long queues, many reservations
  p.set("scheduler", std::string("conservative"));
  const Scenario s = make_scenario(p);
  const SimulationResult r = simulate(s);
  const std::vector<double> expected = replay(s.workload, s.platform.node_count);
  std::size_t same = 0, waited = 0;
  for (std::size_t j = 0; j < expected.size(); ++j) {
    same += r.jobs[j].start_s == expected[j];
    waited += r.jobs[j].start_s > s.workload.jobs[j].submit_s;
  }
  EXPECT_EQ(same, expected.size());
  EXPECT_GT(waited, expected.size() / 4);  // the case is not trivial
}

}  // namespace
}  // namespace dcsweep
