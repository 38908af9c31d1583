#pragma once
// The scheduling metrics of INTERFACE.md, computed from the jobs' outcomes.
#include <cstdint>
#include <span>
#include <vector>

#include "dcsweep/core/report.hpp"
#include "dcsweep/workload/workload.hpp"

namespace dcsweep {

struct JobOutcome;

/// Bound of the bounded slowdown, in seconds (the usual 10 s).
inline constexpr double kSlowdownBound_s = 10.0;

/// Every metric the core simulation reports, in report order.
std::span<const MetricSpec> scheduling_metric_specs();

/// Computes them from each job's outcome and attributes (its deadline), both indexed like the
/// workload's jobs. Averages are over the jobs that ran (completed or killed); with no such job
/// they are NaN. Utilization is node-seconds used / (nodes x makespan).
Report scheduling_report(const Workload& workload, std::span<const JobOutcome> outcomes,
                         std::span<const JobAttributes> attributes, std::int32_t node_count);

}  // namespace dcsweep
