#pragma once
// Independent checks of a finished schedule (they share no code with the engine or policies).
#include <string>
#include <vector>

#include "dcsweep/sim/simulation.hpp"

namespace dcsweep::test {

/// Watches job starts and ends with its own per-node table: a node handed to a second job
/// before the first released it, a wrong node count, or an out-of-range node is a violation.
class NodeExclusivityChecker final : public SimObserver {
 public:
  explicit NodeExclusivityChecker(std::int32_t nodes) : owner_(static_cast<std::size_t>(nodes), -1) {}
  void on_job_start(double t, const Placement& placement) override;
  void on_job_end(double t, const Placement& placement, bool killed) override;
  std::vector<std::string> violations;

 private:
  std::vector<std::int64_t> owner_;
};

/// Every job started, not before its submit time, ends at start + min(runtime, estimate) x scale
/// (scale: per job, the runtime model's factor, recomputed independently by the caller; empty: 1)
/// with `killed` set exactly when runtime > estimate, and busy nodes never exceed the machine.
std::vector<std::string> check_schedule(const Workload& w, const std::vector<JobOutcome>& out, std::int32_t nodes,
                                        const std::vector<double>& scale = {});

/// FCFS: start times never decrease along the queue (arrival) order.
std::vector<std::string> check_fcfs_order(const Workload& w, const std::vector<JobOutcome>& out);

/// EASY: when a job becomes the queue head at t_h (it has arrived and every earlier job has
/// started), its reservation is the earliest estimated end at which enough nodes are free; it
/// must start no later than that, whatever was backfilled afterwards.
/// `scale`: per job, the runtime model's factor (estimates scale with it); empty: 1.
std::vector<std::string> check_easy_reservations(const Workload& w, const std::vector<JobOutcome>& out,
                                                 std::int32_t nodes, const std::vector<double>& scale = {});

}  // namespace dcsweep::test
