#pragma once
// The job events of a run (`simulate --job-events-out`, `[sweep] job_events_dir`): one CSV row
// per job start, resize and end, header `time_s,event,id,nodes,node_ids,cpu_cap_w,power_w`
// (INTERFACE.md). `power_w` is the job's node power from that instant (0 after its end), so the
// nodes' total power at any time is the running jobs' power_w plus every other node's idle (or off)
// power: a power budget can be checked from this file alone.
#include <optional>
#include <string>

#include "dcsweep/platform/platform.hpp"
#include "dcsweep/power/node_power.hpp"
#include "dcsweep/sim/observer.hpp"

namespace dcsweep {

class JobEventLog final : public SimObserver {
 public:
  static constexpr const char* kHeader = "time_s,event,id,nodes,node_ids,cpu_cap_w,power_w\n";

  /// `power`: the run's node power model (nullptr: none; cpu_cap_w and power_w are empty).
  JobEventLog(const Platform& platform, const NodePowerTable* power);

  void on_job_start(double time_s, const Placement& p) override { add(time_s, "start", p, true); }
  void on_job_end(double time_s, const Placement& p, bool) override { add(time_s, "end", p, false); }
  void on_job_resize(double time_s, const Placement&, const Placement& after) override {
    add(time_s, "resize", after, true);
  }

  /// The rows so far, without the header.
  const std::string& rows() const { return rows_; }

 private:
  void add(double time_s, const char* event, const Placement& p, bool running);
  const TypePower& type_power(std::int32_t node) const;

  const Platform& platform_;
  std::optional<NodePowerTable> power_;
  bool caps_ = false;  ///< the model has CPU caps (node_power parm)
  std::string rows_;
};

}  // namespace dcsweep
