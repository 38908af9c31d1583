#include "dcsweep/sim/metrics.hpp"

#include <algorithm>
#include <cmath>

#include "dcsweep/sim/simulation.hpp"

namespace dcsweep {
namespace {

const std::vector<MetricSpec> kSpecs = {
    {"jobs_completed", "", "jobs that ran to their end"},
    {"jobs_killed", "", "jobs killed at their requested time (runtime above the request)"},
    {"jobs_rejected", "", "trace jobs not simulated (sum of the jobs_rejected_* reasons)"},
    {"jobs_rejected_no_runtime", "", "rejected: runtime unknown or 0 (never ran)"},
    {"jobs_rejected_no_size", "", "rejected: neither allocated nor requested processors known"},
    {"jobs_rejected_no_submit", "", "rejected: submit time unknown"},
    {"jobs_rejected_too_large", "", "rejected: more nodes than the platform has"},
    {"makespan_s", "s", "last end minus first submit"},
    {"avg_wait_s", "s", "mean of start - submit"},
    {"max_wait_s", "s", "largest start - submit"},
    {"avg_turnaround_s", "s", "mean of end - submit"},
    {"avg_bounded_slowdown", "", "mean of max(1, (end - submit) / max(end - start, 10 s))"},
    {"utilization", "", "node-seconds used / (nodes x makespan)"},
    {"avg_comm_cost", "", "mean CC_job (mean hop distance of a job's communicating pairs x (n - 1)) over multi-node "
                          "jobs, where they started; NaN without a network"},
    {"avg_runtime_stretch", "", "mean of (end - start) / the trace's time for the same work (1: runtime_model trace)"},
    {"avg_runtime_s", "s", "mean of end - start (the running time [P1] Table 1 reports)"},
    {"deadline_misses", "", "jobs that ended after their deadline, submit + deadline_factor x requested time ([P4]; "
                            "the runtime for trace jobs without a request)"},
};

}  // namespace

std::span<const MetricSpec> scheduling_metric_specs() { return kSpecs; }

Report scheduling_report(const Workload& workload, std::span<const JobOutcome> outcomes,
                         std::span<const JobAttributes> attributes, std::int32_t node_count) {
  double completed = 0, killed = 0, wait_sum = 0, wait_max = NAN, turnaround_sum = 0, slowdown_sum = 0;
  double node_seconds = 0, first_submit = INFINITY, last_end = -INFINITY;
  double comm_sum = 0, comm_count = 0, stretch_sum = 0, run_sum = 0, misses = 0;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const Job& job = workload.jobs[i];
    const JobOutcome& o = outcomes[i];
    (o.killed ? killed : completed) += 1;
    const double wait = o.start_s - job.submit_s, run = o.end_s - o.start_s;
    wait_sum += wait;
    wait_max = std::isnan(wait_max) ? wait : std::max(wait_max, wait);
    turnaround_sum += wait + run;
    run_sum += run;
    slowdown_sum += std::max(1.0, (wait + run) / std::max(run, kSlowdownBound_s));
    node_seconds += std::isnan(o.node_seconds) ? job.nodes * run : o.node_seconds;
    if (!std::isnan(o.comm_cost)) {
      comm_sum += o.comm_cost;
      comm_count += 1;
    }
    stretch_sum += o.stretch;
    misses += o.end_s > attributes[i].deadline_s;
    first_submit = std::min(first_submit, job.submit_s);
    last_end = std::max(last_end, o.end_s);
  }
  const double ran = completed + killed;
  const double makespan = ran > 0 ? last_end - first_submit : NAN;
  const RejectedJobs& r = workload.rejected;
  const double values[] = {completed, killed, double(r.total()), double(r.no_runtime), double(r.no_size),
                           double(r.no_submit), double(r.too_large), makespan,
                           ran > 0 ? wait_sum / ran : NAN, wait_max,
                           ran > 0 ? turnaround_sum / ran : NAN, ran > 0 ? slowdown_sum / ran : NAN,
                           makespan > 0 ? node_seconds / (node_count * makespan) : NAN,
                           comm_count > 0 ? comm_sum / comm_count : NAN, ran > 0 ? stretch_sum / ran : NAN,
                           ran > 0 ? run_sum / ran : NAN, misses};
  Report report;
  for (std::size_t i = 0; i < kSpecs.size(); ++i) report.add(kSpecs[i], values[i]);
  return report;
}

}  // namespace dcsweep
