#pragma once
// Hook points for models that run alongside the scheduler (thermal, cooling, power). They see
// every job start and end with its node set, may ask to be woken at times of their own, and add
// their metrics and series to the report at the end. Contract for an observer:
//   1. advance_to(t) is called before anything changes at time t: integrate state up to t;
//   2. then on_job_end / on_job_start for the changes at t, and on_timer(t) if t is its own time;
//   3. next_event_s() is asked after each step (inf: nothing pending).
#include <limits>
#include <span>

#include "dcsweep/alloc/machine.hpp"
#include "dcsweep/sim/report.hpp"
#include "dcsweep/workload/workload.hpp"

namespace dcsweep {

class SimObserver {
 public:
  virtual ~SimObserver() = default;
  virtual void advance_to(double /*time_s*/) {}
  /// May settle the changes of the current time first (so it is not const).
  virtual double next_event_s() { return std::numeric_limits<double>::infinity(); }
  virtual void on_timer(double /*time_s*/) {}
  virtual void on_job_start(double /*time_s*/, const Job&, std::span<const NodeId> /*nodes*/) {}
  virtual void on_job_end(double /*time_s*/, const Job&, std::span<const NodeId> /*nodes*/,
                          bool /*killed*/) {}
  /// Adds metrics and series; `end_s` is the time of the last event.
  virtual void report(double /*end_s*/, Report& /*report*/) {}
};

}  // namespace dcsweep
