#include "dcsweep/sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/core/event_queue.hpp"
#include "dcsweep/core/huge_pages.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sched/scheduler.hpp"
#include "dcsweep/sim/engine_parts.hpp"
#include "dcsweep/sim/metrics.hpp"
#include "dcsweep/sim/runtime_model.hpp"
#include "dcsweep/thermal/room_view.hpp"

namespace dcsweep {
namespace {

/// A running job's progress: `done_s` trace seconds of work by `since_s`, 1 / scale per second.
struct Progress {
  double since_s = 0;
  double done_s = 0;
  double scale = 1;
  double comm_stretch = 1;
  double held_since_s = 0;  ///< when its current node set was taken (node-seconds)
};

class Engine final : public SchedulingContext, public NodeControl {
 public:
  Engine(const Scenario& scenario, const SimulationOptions& options)
      : scenario_(scenario),
        jobs_(scenario.workload.jobs),
        observers_(options.observers.begin(), options.observers.end()),
        room_(options.room ? options.room : &no_room_),
        keep_nodes_(options.keep_nodes),
        wall_limit_(options.wall_limit),
        machine_(scenario.platform.node_count),
        attributes_(job_attributes(scenario)),
        comm_(scenario),
        max_queue_(static_cast<std::size_t>(scenario.params.integer("max_queue_jobs"))),
        boot_s_(scenario.params.real("node_boot_s")),
        idle_nodes_off_(scenario.params.boolean("idle_nodes_off")) {
    // Per-job state in huge pages where the kernel gives them (core/huge_pages.hpp).
    const std::size_t job_count = jobs_.size();
    reserve_in_huge_pages(outcomes_, job_count), outcomes_.assign(job_count, JobOutcome{NAN, NAN, false});
    reserve_in_huge_pages(configs_, job_count), configs_.resize(job_count);
    reserve_in_huge_pages(progress_, job_count), progress_.resize(job_count);
    const BuildContext build{scenario.params, scenario.key};
    if (!options.scheduler) own_scheduler_ = scheduler_registry().at(scenario.params.text("scheduler")).make(build);
    if (!options.allocator) {
      own_allocator_ = allocator_registry().at(scenario.params.text("allocator")).make(build, scenario.platform);
    }
    scheduler_ = options.scheduler ? options.scheduler : own_scheduler_.get();
    allocator_ = options.allocator ? options.allocator : own_allocator_.get();
    runtime_ = runtime_model_registry().at(scenario.params.text("runtime_model")).make(build, scenario.platform);
    runs_only_ = !runtime_->uses_comm_cost() && !comm_.reads_nodes(false) &&
                 std::none_of(observers_.begin(), observers_.end(), [](const SimObserver* o) { return o->reads_node_ids(); });
    if (runs_only_) reserve_in_huge_pages(runs_, job_count), runs_.resize(job_count);
    if (!runs_only_ || keep_nodes_) reserve_in_huge_pages(node_sets_, job_count), node_sets_.resize(job_count);
    if (boot_s_ == 0 && scenario.params.real("node_boot_energy_j") > 0) {
      throw InputError("node_boot_energy_j needs node_boot_s > 0 (the boot energy is drawn over the boot time)");
    }
  }

  SimulationResult run() {
    while (step()) {
      if (wall_limit_.reached()) {
        throw SimulationError("time limit of " + format_number(wall_limit_.limit_s) + " s reached at simulated time " +
                              format_number(now_));
      }
    }
    if (scheduler_->queued() > 0) {
      throw SimulationError(std::to_string(scheduler_->queued()) +
                            " jobs can never start: the allocator could not place them on an idle machine");
    }
    SimulationResult result;
    result.report = scheduling_report(scenario_.workload, outcomes_, attributes_, scenario_.platform.node_count);
    for (SimObserver* observer : observers_) observer->report(now_, result.report);
    scheduler_->report(result.report);
    result.jobs = std::move(outcomes_);
    if (keep_nodes_) result.nodes = std::move(node_sets_);
    return result;
  }

  // SchedulingContext (and NodeControl's now/machine/room)
  double now() const override { return now_; }
  std::int32_t free_nodes() const override { return machine_.free_count(); }
  std::span<const Job> jobs() const override { return jobs_; }
  const RunningSet& running() const override { return running_; }
  const JobConfig& config(JobIndex index) const override { return configs_[std::size_t(index)]; }
  const JobAttributes& attributes(JobIndex index) const override { return attributes_[std::size_t(index)]; }
  const Machine& machine() const override { return machine_; }
  const RoomView& room() const override { return *room_; }
  NodeControl& node_control() override { return *this; }

  bool reconfigure(JobIndex index, const JobConfig& config, double reconfiguration_s) override;

  // NodeControl
  bool power_off(std::span<const NodeId> nodes) override;
  bool boot(std::span<const NodeId> nodes) override;
  std::int64_t waiting_nodes() const override { return waiting_nodes_; }

 protected:
  bool start_job(JobIndex index, const JobConfig& config, const StartCheck& accept) override;

 private:
  const Job& job_at(JobIndex index) const { return jobs_[std::size_t(index)]; }
  bool is_running(JobIndex index) const { return !std::isnan(outcomes_[std::size_t(index)].start_s) && !ended_[index]; }
  double next_arrival_s() const { return next_arrival_ < jobs_.size() ? jobs_[next_arrival_].submit_s : INFINITY; }
  double next_observer_s();
  bool step();
  void finish(JobIndex index);
  void finish_boots(double t);
  /// Trace seconds of work the job does before it ends (its runtime, or its request if killed).
  double work_s(const Job& j) const { return std::min(j.runtime_s, j.estimate_s); }
  /// A running job's estimated end, its key in running_ (one expression: the set is searched by it).
  double estimated_end_s(JobIndex index) const {
    const Progress& p = progress_[std::size_t(index)];
    return p.since_s + (job_at(index).estimate_s - p.done_s) * p.scale;
  }
  void schedule_end(JobIndex index);
  /// A job's node ids, in task order: empty when node sets are kept as runs only.
  std::span<const NodeId> ids_of(JobIndex index) const {
    return runs_only_ ? std::span<const NodeId>() : std::span<const NodeId>(node_sets_[std::size_t(index)]);
  }
  /// A running job's node count (its config's: the engine places exactly that many).
  std::int32_t held(JobIndex index) const { return configs_[std::size_t(index)].nodes_of(job_at(index)); }
  Placement placement(JobIndex index) const {
    const double stretch = progress_[std::size_t(index)].comm_stretch;
    return runs_only_ ? Placement(job_at(index), configs_[std::size_t(index)], runs_[std::size_t(index)], held(index), stretch)
                      : Placement(job_at(index), configs_[std::size_t(index)], node_sets_[std::size_t(index)], stretch);
  }
  RuntimeEffect effect_of(JobIndex index, const JobConfig& config, std::span<const NodeId> nodes, double& cc);
  /// Asks the allocator for `count` nodes, as ids or as runs (NodeRun) into `out` (empty on entry).
  template <class Node>
  bool place(JobIndex index, const JobConfig& config, std::int32_t count, std::vector<Node>& out);
  void occupy(JobIndex index) {
    runs_only_ ? machine_.occupy(runs_[std::size_t(index)]) : machine_.occupy(node_sets_[std::size_t(index)]);
  }

  const Scenario& scenario_;
  const std::vector<Job>& jobs_;
  std::vector<SimObserver*> observers_;
  NoRoom no_room_;
  const RoomView* room_;
  bool keep_nodes_;
  WallLimit wall_limit_;
  std::unique_ptr<Scheduler> own_scheduler_;
  std::unique_ptr<Allocator> own_allocator_;
  Scheduler* scheduler_;
  Allocator* allocator_;
  std::unique_ptr<RuntimeModel> runtime_;
  Machine machine_;
  std::vector<JobOutcome> outcomes_;
  std::vector<std::vector<NodeId>> node_sets_;  ///< each job's nodes in task order (with runs_only_: kept nodes only)
  /// Node sets as runs of ids instead: nothing in this run reads a job's node ids (no observer,
  /// no CC_job, no rcb mapping, a runtime model that ignores the placement).
  bool runs_only_ = false;
  std::vector<std::vector<NodeRun>> runs_;
  std::vector<std::vector<NodeRun>> spare_runs_;  ///< ended jobs' run vectors, reused
  std::vector<JobConfig> configs_;
  std::vector<Progress> progress_;
  std::vector<JobAttributes> attributes_;
  std::vector<bool> ended_ = std::vector<bool>(jobs_.size(), false);
  CommCostModel comm_;
  EventQueue<JobIndex> ends_;
  EventQueue<std::size_t> boots_;                 ///< index into boot_batches_
  std::vector<std::vector<NodeId>> boot_batches_;
  RunningSet running_;
  std::size_t max_queue_;  ///< 0: no limit
  double boot_s_;
  bool idle_nodes_off_;
  std::int64_t waiting_nodes_ = 0;  ///< sum of the waiting jobs' own node counts
  std::size_t next_arrival_ = 0;
  double now_ = 0;
  std::vector<NodeId> scratch_;
  std::vector<NodeRun> scratch_runs_;
};

/// Keeps the first `keep` nodes of `runs` and moves the others to `tail` (empty on entry).
void split_runs(std::vector<NodeRun>& runs, std::int64_t keep, std::vector<NodeRun>& tail) {
  std::size_t r = 0;
  for (; r < runs.size() && keep >= runs[r].count; ++r) keep -= runs[r].count;
  if (r == runs.size()) return;
  if (keep > 0) {
    tail.push_back({runs[r].first + static_cast<NodeId>(keep), runs[r].count - static_cast<std::int32_t>(keep)});
    runs[r].count = static_cast<std::int32_t>(keep);
    ++r;
  }
  tail.insert(tail.end(), runs.begin() + std::ptrdiff_t(r), runs.end());
  runs.resize(r);
}

RuntimeEffect Engine::effect_of(JobIndex index, const JobConfig& config, std::span<const NodeId> nodes, double& cc) {
  const Job& j = job_at(index);
  cc = comm_.wanted(runtime_->uses_comm_cost()) ? comm_.cost(nodes, attributes_[std::size_t(index)]) : NAN;
  const RuntimeEffect effect = runtime_->effect({j, config, attributes_[std::size_t(index)], nodes, cc});
  if (!(effect.scale >= 0) || std::isinf(effect.scale)) {  // a job would end before it started
    throw SimulationError("the runtime model gave job " + std::to_string(j.id) + " the runtime factor " +
                          format_number(effect.scale) + " (must be finite and not negative)");
  }
  return effect;
}

template <class Node>
bool Engine::place(JobIndex index, const JobConfig& config, std::int32_t count, std::vector<Node>& out) {
  if (count > machine_.free_count()) return false;
  const AllocationRequest request{job_at(index), count, config, attributes_[std::size_t(index)], machine_, *room_, now_};
  std::int64_t got = 0;
  if constexpr (std::is_same_v<Node, NodeRun>) {
    if (!allocator_->allocate_runs(request, out)) return false;
    got = node_total(out);
  } else {
    if (!allocator_->allocate(request, out)) return false;
    got = std::int64_t(out.size());
  }
  if (got != count) {
    throw SimulationError("allocator returned " + std::to_string(got) + " nodes for " + std::to_string(count));
  }
  return true;
}

bool Engine::start_job(JobIndex index, const JobConfig& config, const StartCheck& accept) {
  const Job& j = job_at(index);
  const std::int32_t count = config.nodes_of(j);
  if (runs_only_) {
    auto& runs = runs_[std::size_t(index)];
    if (runs.capacity() == 0 && !spare_runs_.empty()) {  // no allocation per job
      runs.swap(spare_runs_.back());
      spare_runs_.pop_back();
    }
    runs.clear();
    if (!place(index, config, count, runs)) return false;
    sort_runs(runs);  // in_order task mapping: ascending ids
  } else {
    auto& nodes = node_sets_[std::size_t(index)];
    nodes.clear();
    if (!place(index, config, count, nodes)) return false;
    comm_.map_tasks(nodes, attributes_[std::size_t(index)]);
  }
  double cc = NAN;
  const RuntimeEffect effect = effect_of(index, config, ids_of(index), cc);
  if (accept && !accept(now_ + j.estimate_s * effect.scale)) {
    runs_only_ ? runs_[std::size_t(index)].clear() : node_sets_[std::size_t(index)].clear();
    return false;
  }
  occupy(index);
  configs_[std::size_t(index)] = config;
  progress_[std::size_t(index)] = {now_, 0, effect.scale, effect.comm_stretch, now_};
  JobOutcome& outcome = outcomes_[std::size_t(index)];
  outcome = {now_, NAN, j.runtime_s > j.estimate_s, 0, cc, effect.scale};
  waiting_nodes_ -= j.nodes;
  schedule_end(index);
  for (SimObserver* observer : observers_) observer->on_job_start(now_, placement(index));
  return true;
}

void Engine::schedule_end(JobIndex index) {
  const Job& j = job_at(index);
  const Progress& p = progress_[std::size_t(index)];
  JobOutcome& outcome = outcomes_[std::size_t(index)];
  if (!std::isnan(outcome.end_s)) running_.erase({estimated_end_s(index), index});
  outcome.end_s = p.since_s + (work_s(j) - p.done_s) * p.scale;
  ends_.push(outcome.end_s, index);
  running_.insert({estimated_end_s(index), index});
}

bool Engine::reconfigure(JobIndex index, const JobConfig& config, double reconfiguration_s) {
  if (config.nodes < 0 || !is_running(index) || reconfiguration_s < 0) return false;
  const std::int32_t count = config.nodes_of(job_at(index));
  const std::int32_t have = held(index);
  const JobConfig& now_config = configs_[std::size_t(index)];
  const bool same_setting = (now_config.cpu_cap_w == config.cpu_cap_w ||
                             (std::isnan(now_config.cpu_cap_w) && std::isnan(config.cpu_cap_w))) &&
                            now_config.pstate == config.pstate;
  if (count == have && same_setting) return true;
  scratch_.clear();
  scratch_runs_.clear();
  if (count > have && (runs_only_ ? !place(index, configs_[std::size_t(index)], count - have, scratch_runs_)
                                  : !place(index, configs_[std::size_t(index)], count - have, scratch_))) {
    return false;
  }
  const std::vector<NodeId> before_nodes(ids_of(index).begin(), ids_of(index).end());
  const std::vector<NodeRun> before_runs = runs_only_ ? runs_[std::size_t(index)] : std::vector<NodeRun>();
  const JobConfig before_config = configs_[std::size_t(index)];
  Progress& p = progress_[std::size_t(index)];
  const double before_stretch = p.comm_stretch;
  JobOutcome& outcome = outcomes_[std::size_t(index)];
  outcome.node_seconds += double(have) * (now_ - p.held_since_s);
  // Work done so far at the old rate (none during an earlier reconfiguration still under way).
  const Job& j = job_at(index);
  running_.erase({estimated_end_s(index), index});
  p.done_s += std::max(0.0, now_ - p.since_s) / p.scale;
  if (runs_only_) {
    auto& runs = runs_[std::size_t(index)];
    if (count > have) {
      machine_.occupy(scratch_runs_);
      for (const NodeRun& run : scratch_runs_) push_run(runs, run);  // maximal runs: the id list's
    } else {
      split_runs(runs, count, scratch_runs_);
      machine_.release(scratch_runs_);
    }
  } else {
    auto& nodes = node_sets_[std::size_t(index)];
    if (count > have) {
      machine_.occupy(scratch_);
      nodes.insert(nodes.end(), scratch_.begin(), scratch_.end());
    } else {
      machine_.release(std::span<const NodeId>(nodes).subspan(std::size_t(count)));
      nodes.resize(std::size_t(count));
    }
  }
  configs_[std::size_t(index)] = config;
  configs_[std::size_t(index)].nodes = count;
  double cc = NAN;
  const RuntimeEffect effect = effect_of(index, configs_[std::size_t(index)], ids_of(index), cc);
  p.since_s = now_ + reconfiguration_s;
  p.scale = effect.scale;
  p.comm_stretch = effect.comm_stretch;
  p.held_since_s = now_;
  outcome.end_s = NAN;  // schedule_end must not erase the old estimate twice
  schedule_end(index);
  const Placement before = runs_only_ ? Placement(j, before_config, before_runs, have, before_stretch)
                                      : Placement(j, before_config, before_nodes, before_stretch);
  for (SimObserver* observer : observers_) observer->on_job_resize(now_, before, placement(index));
  return true;
}

bool Engine::power_off(std::span<const NodeId> nodes) {
  for (const NodeId n : nodes) {
    if (!machine_.is_free(n)) return false;
  }
  machine_.power_off(nodes);
  for (SimObserver* observer : observers_) observer->on_node_state(now_, nodes, NodeState::on, NodeState::off);
  return true;
}

bool Engine::boot(std::span<const NodeId> nodes) {
  for (const NodeId n : nodes) {
    if (machine_.state(n) != NodeState::off) return false;
  }
  machine_.begin_boot(nodes);
  boot_batches_.emplace_back(nodes.begin(), nodes.end());
  boots_.push(now_ + boot_s_, boot_batches_.size() - 1);
  for (SimObserver* observer : observers_) observer->on_node_state(now_, nodes, NodeState::off, NodeState::booting);
  return true;
}

void Engine::finish_boots(double t) {
  while (!boots_.empty() && boots_.next_time() == t) {
    std::vector<NodeId>& batch = boot_batches_[boots_.pop().payload];
    machine_.end_boot(batch);
    for (SimObserver* observer : observers_) observer->on_node_state(t, batch, NodeState::booting, NodeState::on);
    std::vector<NodeId>().swap(batch);
  }
}

double Engine::next_observer_s() {
  double t = INFINITY;
  for (SimObserver* observer : observers_) t = std::min(t, observer->next_event_s());
  return t;
}

bool Engine::step() {
  // A resized job left an end event behind: drop it.
  while (!ends_.empty() && (ended_[ends_.top().payload] || outcomes_[std::size_t(ends_.top().payload)].end_s !=
                                                                   ends_.next_time())) {
    ends_.pop();
  }
  // Observers' own times (a thermostat's mode switches) matter only while jobs remain: once the
  // last job has ended the run is over, whatever they would do next.
  const double jobs_s = std::min({ends_.next_time(), next_arrival_s(), boots_.next_time()});
  if (std::isinf(jobs_s)) return false;
  const double observer_s = next_observer_s();
  const double t = std::min(jobs_s, observer_s);
  now_ = t;
  for (SimObserver* observer : observers_) observer->advance_to(t);
  while (!ends_.empty() && ends_.next_time() == t) {
    const JobIndex index = ends_.pop().payload;
    if (!ended_[index] && outcomes_[std::size_t(index)].end_s == t) finish(index);
  }
  finish_boots(t);
  for (; next_arrival_ < jobs_.size() && jobs_[next_arrival_].submit_s == t; ++next_arrival_) {
    scheduler_->submit(static_cast<JobIndex>(next_arrival_), *this);
    waiting_nodes_ += jobs_[next_arrival_].nodes;
  }
  if (observer_s == t) {
    for (SimObserver* observer : observers_) {
      if (observer->next_event_s() == t) observer->on_timer(t);
    }
  }
  scheduler_->schedule(*this);
  allocator_->manage_power(*this);
  if (idle_nodes_off_) consolidate(*this, allocator_->power_order(*room_));
  if (max_queue_ > 0 && scheduler_->queued() > max_queue_) {
    throw SimulationError("the queue reached " + std::to_string(scheduler_->queued()) + " waiting jobs at t = " +
                          format_number(std::round(t * 1000) / 1000) + " s (max_queue_jobs = " +
                          std::to_string(max_queue_) + "): the machine is overloaded at these parameters");
  }
  return true;
}

void Engine::finish(JobIndex index) {
  const Job& j = job_at(index);
  JobOutcome& outcome = outcomes_[std::size_t(index)];
  Progress& p = progress_[std::size_t(index)];
  const std::int32_t count = held(index);
  ended_[index] = true;
  runs_only_ ? machine_.release(runs_[std::size_t(index)]) : machine_.release(node_sets_[std::size_t(index)]);
  const double estimated_end = estimated_end_s(index);
  running_.erase({estimated_end, index});
  scheduler_->ended(index, estimated_end, count);
  outcome.node_seconds += double(count) * (now_ - p.held_since_s);
  outcome.stretch = (outcome.end_s - outcome.start_s) / work_s(j);
  for (SimObserver* observer : observers_) observer->on_job_end(now_, placement(index), outcome.killed);
  if (runs_only_) {
    if (keep_nodes_) append_ids(runs_[std::size_t(index)], node_sets_[std::size_t(index)]);
    spare_runs_.push_back(std::move(runs_[std::size_t(index)]));
    runs_[std::size_t(index)] = {};
  } else if (!keep_nodes_) {
    std::vector<NodeId>().swap(node_sets_[std::size_t(index)]);
  }
}

}  // namespace

SimulationResult simulate(const Scenario& scenario, const SimulationOptions& options) {
  return Engine(scenario, options).run();
}

}  // namespace dcsweep
