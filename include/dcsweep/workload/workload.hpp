#pragma once
// The jobs one simulation runs, in arrival order, already converted to the target platform.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dcsweep/workload/swf.hpp"

namespace dcsweep {

/// Index of a job in its Workload (dense, 0-based); the trace's own job number is Job::id.
using JobIndex = std::int32_t;

struct Job {
  std::int64_t id = 0;      ///< the trace's job number
  double submit_s = 0;      ///< arrival, simulated seconds
  double runtime_s = 0;     ///< actual run time (> 0)
  double estimate_s = 0;    ///< requested time; the runtime when the trace has none
  std::int32_t nodes = 0;   ///< nodes on the simulated platform (>= 1)
  /// Whether estimate_s is a request: false when the trace gave none (SWF field 9 absent or 0),
  /// so a deadline derived from it would come from the actual runtime. Synthetic jobs request
  /// their runtime. (Fits in the padding: Job stays 40 bytes.)
  bool has_request = true;
};

/// How a job runs when a policy starts it other than as the trace gives it ([P2] moldable jobs and
/// power caps, [P3] P-states). The defaults mean "as the trace and the power preset say".
struct JobConfig {
  std::int32_t nodes = 0;      ///< 0: the job's own count (Job::nodes)
  double cpu_cap_w = NAN;      ///< CPU power cap per node; NaN: the power preset's own
  std::int32_t pstate = -1;    ///< P-state of the cores; -1: the power preset's own
  std::int32_t nodes_of(const Job& job) const { return nodes > 0 ? nodes : job.nodes; }
};

/// What a simulation knows of a job beyond its SWF fields, from parameters and seeded streams.
struct JobAttributes {
  double deadline_s = INFINITY;   ///< submit + deadline_factor x estimate ([P4])
  std::uint8_t comm_pattern = 0;  ///< index into comm::pattern_names() (issue 8, [P0] section 3.2)
};

/// Jobs that could not be simulated, by reason. Never dropped silently: reported as
/// `jobs_rejected` (and its parts), and an error under `strict`.
struct RejectedJobs {
  std::int64_t no_runtime = 0;  ///< runtime unknown (-1) or 0: the job never ran
  std::int64_t no_size = 0;     ///< neither allocated nor requested processors known
  std::int64_t no_submit = 0;   ///< submit time unknown
  std::int64_t too_large = 0;   ///< needs more nodes than the platform has
  std::string first;            ///< "line L (job N): why", for messages

  std::int64_t total() const { return no_runtime + no_size + no_submit + too_large; }
  /// Counts one rejection under `reason` (one of the counters above); the first is remembered.
  void record(std::int64_t& reason, std::string why);
  /// "1 without runtime, 0 without size, 0 without submit time, 2 larger than the 40-node platform".
  std::string breakdown(std::int32_t platform_nodes) const;
};

struct Workload {
  std::string source;        ///< trace path or generator description
  std::vector<Job> jobs;     ///< sorted by (submit_s, id)
  RejectedJobs rejected;
};

/// Size of a machine in nodes and cores.
struct MachineSize {
  std::int32_t nodes = 0;
  std::int32_t cores_per_node = 1;
};

/// The machine an SWF header describes: MaxNodes nodes with floor(MaxProcs / MaxNodes) cores
/// each; MaxProcs single-core nodes when MaxNodes is absent; nothing when neither is given.
std::optional<MachineSize> header_machine(const SwfHeader& header);
/// header_machine of the trace, or InputError when its header describes no machine.
MachineSize trace_machine(const SwfTrace& trace);

/// How a trace is turned into a workload for a platform.
struct TraceOptions {
  std::int64_t first_job = 0;        ///< start at the first job whose id >= this (0: from the start)
  std::int64_t jobs = 0;             ///< how many consecutive records (0: all)
  double gamma = 1.0;                ///< arrival scaling: submit' = gamma x submit
  double size_scale = 1.0;           ///< job sizes (nodes) multiplied by this, rounded up
  bool scale_to_platform = false;    ///< also map the trace machine's node count onto the platform
  bool strict = false;               ///< any rejected job is an InputError
};

/// Selects, converts and checks the records of `trace` for a platform of `platform` size
/// (rules documented in inputs/traces/README.md and the function body).
Workload build_workload(const SwfTrace& trace, const TraceOptions& options, MachineSize platform);

/// Empty unless `first_job` is positive and below the trace's first job id, where it selects the
/// same jobs as 0 (CEA-Curie's ids start at 272,393: `first_job = 10500` runs from its first
/// record). Then a sentence for the user saying so, with the id of record number `first_job` if
/// the trace has one (first_job counts ids, not records).
std::string first_job_note(const SwfTrace& trace, std::int64_t first_job);

}  // namespace dcsweep
