#include "dcsweep/sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/core/event_queue.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sched/scheduler.hpp"
#include "dcsweep/sim/metrics.hpp"

namespace dcsweep {
namespace {

class Engine final : public SchedulingContext {
 public:
  Engine(const Scenario& scenario, std::span<SimObserver* const> observers)
      : scenario_(scenario),
        jobs_(scenario.workload.jobs),
        observers_(observers.begin(), observers.end()),
        machine_(scenario.platform.node_count),
        outcomes_(jobs_.size(), JobOutcome{NAN, NAN, false}),
        node_sets_(jobs_.size()),
        max_queue_(static_cast<std::size_t>(scenario.params.integer("max_queue_jobs"))) {
    const BuildContext build{scenario.params, scenario.key};
    scheduler_ = scheduler_registry().at(scenario.params.text("scheduler")).make(build);
    allocator_ = allocator_registry().at(scenario.params.text("allocator")).make(build, scenario.platform);
  }

  SimulationResult run() {
    while (step()) {
    }
    if (scheduler_->queued() > 0) {
      throw SimulationError(std::to_string(scheduler_->queued()) +
                            " jobs can never start: the allocator could not place them on an idle machine");
    }
    SimulationResult result;
    result.report = scheduling_report(scenario_.workload, outcomes_, scenario_.platform.node_count);
    for (SimObserver* observer : observers_) observer->report(now_, result.report);
    result.jobs = std::move(outcomes_);
    return result;
  }

  // SchedulingContext
  double now() const override { return now_; }
  std::int32_t free_nodes() const override { return machine_.free_count(); }
  std::span<const Job> jobs() const override { return jobs_; }
  const RunningSet& running() const override { return running_; }

  bool start(JobIndex index) override {
    const Job& j = job(index);
    if (j.nodes > machine_.free_count()) return false;
    auto& nodes = node_sets_[static_cast<std::size_t>(index)];
    nodes.clear();
    if (!allocator_->allocate(j.nodes, machine_, nodes)) return false;
    if (static_cast<std::int32_t>(nodes.size()) != j.nodes) {
      throw SimulationError("allocator returned " + std::to_string(nodes.size()) + " nodes for a " +
                            std::to_string(j.nodes) + "-node job");
    }
    machine_.occupy(nodes);
    const bool killed = j.runtime_s > j.estimate_s;
    const double end = now_ + (killed ? j.estimate_s : j.runtime_s);
    outcomes_[static_cast<std::size_t>(index)] = {now_, end, killed};
    ends_.push(end, index);
    running_.insert({now_ + j.estimate_s, index});
    for (SimObserver* observer : observers_) observer->on_job_start(now_, j, nodes);
    return true;
  }

 private:
  double next_arrival_s() const {
    return next_arrival_ < jobs_.size() ? jobs_[next_arrival_].submit_s : INFINITY;
  }

  double next_observer_s() {
    double t = INFINITY;
    for (SimObserver* observer : observers_) t = std::min(t, observer->next_event_s());
    return t;
  }

  /// Processes everything at the next event time; false when nothing is left.
  bool step() {
    // Observers' own times (a thermostat's mode switches) matter only while jobs remain: once the
    // last job has ended the run is over, whatever they would do next.
    const double jobs_s = std::min(ends_.next_time(), next_arrival_s());
    if (std::isinf(jobs_s)) return false;
    const double observer_s = next_observer_s();
    const double t = std::min(jobs_s, observer_s);
    now_ = t;
    for (SimObserver* observer : observers_) observer->advance_to(t);
    while (!ends_.empty() && ends_.next_time() == t) finish(ends_.pop().payload);
    for (; next_arrival_ < jobs_.size() && jobs_[next_arrival_].submit_s == t; ++next_arrival_) {
      scheduler_->submit(static_cast<JobIndex>(next_arrival_), *this);
    }
    if (observer_s == t) {
      for (SimObserver* observer : observers_) {
        if (observer->next_event_s() == t) observer->on_timer(t);
      }
    }
    scheduler_->schedule(*this);
    if (max_queue_ > 0 && scheduler_->queued() > max_queue_) {
      throw SimulationError("the queue reached " + std::to_string(scheduler_->queued()) + " waiting jobs at t = " +
                            format_number(std::round(t * 1000) / 1000) + " s (max_queue_jobs = " + std::to_string(max_queue_) +
                            "): the machine is overloaded at these parameters");
    }
    return true;
  }

  void finish(JobIndex index) {
    const Job& j = job(index);
    const JobOutcome& outcome = outcomes_[static_cast<std::size_t>(index)];
    auto& nodes = node_sets_[static_cast<std::size_t>(index)];
    machine_.release(nodes);
    running_.erase({outcome.start_s + j.estimate_s, index});
    for (SimObserver* observer : observers_) observer->on_job_end(now_, j, nodes, outcome.killed);
    std::vector<NodeId>().swap(nodes);
  }

  const Scenario& scenario_;
  const std::vector<Job>& jobs_;
  std::vector<SimObserver*> observers_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<Allocator> allocator_;
  Machine machine_;
  std::vector<JobOutcome> outcomes_;
  std::vector<std::vector<NodeId>> node_sets_;
  EventQueue<JobIndex> ends_;
  RunningSet running_;
  std::size_t max_queue_;  ///< 0: no limit
  std::size_t next_arrival_ = 0;
  double now_ = 0;
};

}  // namespace

SimulationResult simulate(const Scenario& scenario, std::span<SimObserver* const> observers) {
  return Engine(scenario, observers).run();
}

}  // namespace dcsweep
