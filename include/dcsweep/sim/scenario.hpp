#pragma once
// Composes a Scenario from a parameter set: platform, workload (trace or synthetic) and the
// policy names the engine will build from their registries.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dcsweep/core/params.hpp"
#include "dcsweep/sim/simulation.hpp"
#include "dcsweep/workload/swf.hpp"

namespace dcsweep {

/// Loads a trace by path; a sweep passes a caching loader so a trace is parsed once per rank.
using TraceLoader = std::function<std::shared_ptr<const SwfTrace>(const std::string& path)>;

/// The parameters read by make_scenario (platform, workload selection and generation, policies).
std::vector<ParamSpec> scenario_params();

/// The key of a sweep point's random streams (every consumer: workload, job attributes, runtime
/// terms, the random allocator, [P3]'s GA). random_streams = common (the default): (seed, 0,
/// replicate), the same for every point of a replicate, so that two points differ only by their
/// parameters (common random numbers: a factor that changes nothing gets a zero index); per_point:
/// (seed, point, replicate), each point its own draws.
StreamKey point_stream_key(const ParamSet& params, std::uint64_t point, std::uint64_t replicate);

/// The key of the streams the jobs and their sampled attributes are drawn from: the point's
/// (point_stream_key), or (workload_seed, 0, replicate) when workload_seed > 0, shared by every
/// point with that workload_seed, whatever random_streams says.
StreamKey workload_key(const Scenario& s);

/// Combinations of values a policy refuses, found from the parameters alone (InputError naming a
/// parameter; today bqp's, bqp_check_params). make_scenario runs it, and a sweep's cost estimate
/// on every point, so a spec with such a point is bad input (exit 2) before any rank simulates.
void check_policy_params(const ParamSet& params);

/// The jobs of a workload without a requested time (the trace gives none, so their estimate is
/// their runtime): how many of how many, the first one's id, and where the jobs come from.
struct MissingRequests {
  std::size_t count = 0;
  std::size_t jobs = 0;
  std::int64_t first_id = 0;
  std::string source;
};
MissingRequests missing_requests(const Workload& workload);

/// What a policy refuses in a workload (InputError): edf on jobs without requested times, whose
/// deadlines (submit + deadline_factor x request) would come from their actual runtimes.
/// make_scenario runs it, and a sweep's cost estimate on every point (from the summary it keeps
/// per workload), so `validate` and `run` refuse such a spec before any simulation.
void check_policy_workload(const ParamSet& params, const MissingRequests& missing);

/// Builds the scenario of one simulation. InputError on bad input (missing trace, a platform the
/// trace does not fit, strict rejections).
Scenario make_scenario(const ParamSet& params, std::uint64_t point = 0, std::uint64_t replicate = 0,
                       const TraceLoader& loader = {});

}  // namespace dcsweep
