#include "dcsweep/workload/workload.hpp"

#include <algorithm>
#include <cmath>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/huge_pages.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {
namespace {

struct Conversion {
  std::int32_t cores_per_node;  ///< processors per node when converting a job's size
  double factor;                ///< node-count multiplier (size_scale x machine mapping)
  std::int32_t platform_nodes;
};

std::int64_t record_procs(const SwfRecord& r) {
  if (r.alloc_procs > 0) return r.alloc_procs;  // what the job really held
  if (r.req_procs > 0) return r.req_procs;      // -1 allocation (e.g. CEA-Curie): what it asked for
  return -1;
}

std::string describe(const SwfRecord& r, const std::string& why) {
  return "line " + std::to_string(r.line) + " (job " + std::to_string(r.id) + "): " + why;
}

/// Converts one record, or counts it as rejected (and returns false).
bool convert(const SwfRecord& r, const Conversion& c, Job& job, RejectedJobs& rejected) {
  auto reject = [&](std::int64_t& reason, const std::string& why) {
    rejected.record(reason, describe(r, why));
    return false;
  };
  if (r.submit_s < 0) return reject(rejected.no_submit, "submit time unknown");
  if (r.runtime_s <= 0) return reject(rejected.no_runtime, "runtime " + format_number(r.runtime_s));
  const std::int64_t procs = record_procs(r);
  if (procs <= 0) return reject(rejected.no_size, "no allocated or requested processors");
  const std::int64_t own_nodes = (procs + c.cores_per_node - 1) / c.cores_per_node;
  // Compared as a double first: a scaled size may exceed any integer type.
  const double scaled = std::ceil(static_cast<double>(own_nodes) * c.factor - 1e-9);
  if (scaled > c.platform_nodes) {
    return reject(rejected.too_large, format_number(scaled) + " nodes on a " + std::to_string(c.platform_nodes) +
                                          "-node platform");
  }
  const auto nodes = static_cast<std::int64_t>(scaled);
  job.id = r.id;
  job.submit_s = r.submit_s;
  job.runtime_s = r.runtime_s;
  job.has_request = r.requested_s > 0;
  job.estimate_s = job.has_request ? r.requested_s : r.runtime_s;
  job.nodes = static_cast<std::int32_t>(std::max<std::int64_t>(nodes, 1));
  return true;
}

Conversion make_conversion(const SwfTrace& trace, const TraceOptions& options, MachineSize platform) {
  Conversion c{platform.cores_per_node, options.size_scale, platform.nodes};
  if (options.scale_to_platform) {
    // Sizes are first taken in the trace machine's own nodes, then mapped so that a job using
    // the whole trace machine uses the whole platform.
    const MachineSize own = trace_machine(trace);
    c.cores_per_node = own.cores_per_node;
    c.factor *= static_cast<double>(platform.nodes) / own.nodes;
  }
  return c;
}

std::size_t first_selected(const SwfTrace& trace, const TraceOptions& options) {
  if (options.first_job <= 0) return 0;
  const auto it = std::find_if(trace.records.begin(), trace.records.end(),
                               [&](const SwfRecord& r) { return r.id >= options.first_job; });
  if (it == trace.records.end()) {
    throw InputError(trace.path + ": no job with id >= first_job " + std::to_string(options.first_job));
  }
  return static_cast<std::size_t>(it - trace.records.begin());
}

void check_strict(const Workload& w, std::size_t selected, MachineSize platform) {
  const RejectedJobs& r = w.rejected;
  if (r.total() == 0) return;
  throw InputError(w.source + ": " + std::to_string(r.total()) + " of " + std::to_string(selected) +
                   " jobs rejected under strict (" + r.breakdown(platform.nodes) + "); first: " + r.first);
}

}  // namespace

std::string first_job_note(const SwfTrace& trace, std::int64_t first_job) {
  if (first_job <= 0 || trace.records.empty() || first_job >= trace.records.front().id) return {};
  std::string note = "first_job " + std::to_string(first_job) + " is below the trace's first job id " +
                     std::to_string(trace.records.front().id) +
                     ", so the run starts at its first job, as with 0 (first_job is a job id, not a record number";
  if (std::uint64_t(first_job) <= trace.records.size()) {
    note += "; record " + std::to_string(first_job) + " has id " + std::to_string(trace.records[std::size_t(first_job) - 1].id);
  }
  return note + ")";
}

void RejectedJobs::record(std::int64_t& reason, std::string why) {
  if (total() == 0) first = std::move(why);
  ++reason;
}

std::string RejectedJobs::breakdown(std::int32_t platform_nodes) const {
  return std::to_string(no_runtime) + " without runtime, " + std::to_string(no_size) + " without size, " +
         std::to_string(no_submit) + " without submit time, " + std::to_string(too_large) + " larger than the " +
         std::to_string(platform_nodes) + "-node platform";
}

std::optional<MachineSize> header_machine(const SwfHeader& h) {
  if (h.max_nodes > 0) {
    const std::int64_t cores = h.max_procs > 0 ? std::max<std::int64_t>(1, h.max_procs / h.max_nodes) : 1;
    return MachineSize{static_cast<std::int32_t>(h.max_nodes), static_cast<std::int32_t>(cores)};
  }
  if (h.max_procs > 0) return MachineSize{static_cast<std::int32_t>(h.max_procs), 1};
  return std::nullopt;
}

MachineSize trace_machine(const SwfTrace& trace) {
  if (const auto machine = header_machine(trace.header)) return *machine;
  throw InputError(trace.path + ": the header gives neither MaxNodes nor MaxProcs; choose a platform");
}

Workload build_workload(const SwfTrace& trace, const TraceOptions& options, MachineSize platform) {
  Workload w;
  w.source = trace.path;
  const Conversion conversion = make_conversion(trace, options, platform);
  const std::size_t begin = first_selected(trace, options);
  const std::size_t available = trace.records.size() - begin;
  const std::size_t count = options.jobs > 0 ? std::min<std::size_t>(options.jobs, available) : available;
  // Submit times are rebased on the first selected record, then scaled: a selection deep in a
  // trace starts at time 0, and gamma compresses arrivals without shifting the start.
  const double origin = count > 0 ? std::max(0.0, trace.records[begin].submit_s) : 0.0;
  reserve_in_huge_pages(w.jobs, count);
  Job job;
  for (std::size_t i = begin; i < begin + count; ++i) {
    if (!convert(trace.records[i], conversion, job, w.rejected)) continue;
    job.submit_s = options.gamma * (job.submit_s - origin);
    w.jobs.push_back(job);
  }
  if (options.strict) check_strict(w, count, platform);
  const auto by_submit = [](const Job& a, const Job& b) {
    return a.submit_s < b.submit_s || (a.submit_s == b.submit_s && a.id < b.id);
  };
  if (!std::is_sorted(w.jobs.begin(), w.jobs.end(), by_submit)) {  // traces mostly are
    std::stable_sort(w.jobs.begin(), w.jobs.end(), by_submit);
  }
  return w;
}

}  // namespace dcsweep
