#pragma once
// Counter-based random streams. A simulation's randomness comes only from (seed, flat point index,
// replicate) plus a fixed purpose label, through Philox4x64-10 (Random123): the same point gives
// the same numbers on any rank, in any order, with any number of ranks. Variates are derived here
// from the raw bits, never through std::*_distribution (whose algorithms differ between libraries).
#include <array>
#include <cstdint>

namespace dcsweep {

/// Identifies one simulation of a sweep.
struct StreamKey {
  std::uint64_t seed = 0;
  std::uint64_t point = 0;
  std::uint64_t replicate = 0;
};

/// Independent streams of one simulation, one per consumer, so that a consumer drawing more or
/// fewer numbers never shifts another's. Values are part of the reproducibility contract: never
/// renumber, only append.
enum class StreamPurpose : std::uint64_t {
  workload = 1,   ///< synthetic job generation
  allocator = 2,  ///< random node choice
  room = 3,       ///< generated recirculation of a room (keyed by room_seed, not by the point)
  runtime = 4,    ///< the runtime model's random terms (meng_tau's r)
  job_attributes = 5,  ///< per-job attributes the trace lacks (communication pattern of `mixed`)
  design = 6,     ///< a sweep's sampling design (LHS strata, Sobol digital shift, Morris steps)
  bootstrap = 7,  ///< resampling of sensitivity estimators (`dcsweep analyze`)
  ratebased_ga = 8,        ///< [P3]'s genetic algorithm of a model = ratebased point
  ratebased_arrivals = 9,  ///< the Poisson task arrivals of ratebased_validate
  pass_job = 10,  ///< [P2] PASS application parameters, one substream per job (keyed by its trace id)
};

/// The key of the streams a workload and its sampled job attributes come from: the point's own,
/// or (workload_seed, 0, replicate) when workload_seed > 0 (shared by the points that set it).
inline StreamKey workload_stream_key(std::uint64_t workload_seed, StreamKey point) {
  return workload_seed == 0 ? point : StreamKey{workload_seed, 0, point.replicate};
}

class RngStream {
 public:
  RngStream(StreamKey key, StreamPurpose purpose);
  /// One of 2^64 independent substreams of a purpose (e.g. one per job, so that a job's draws do
  /// not depend on which other jobs were drawn before it). Substream 0 is the plain stream.
  RngStream(StreamKey key, StreamPurpose purpose, std::uint64_t substream);

  std::uint64_t next_u64();
  /// Uniform on [0, 1) with 53 random bits.
  double uniform01();
  /// Uniform on [lo, hi).
  double uniform(double lo, double hi);
  /// Uniform integer on [lo, hi], unbiased (rejection).
  std::int64_t integer(std::int64_t lo, std::int64_t hi);
  /// Exponential variate with the given rate (mean 1/rate).
  double exponential(double rate);

 private:
  void refill();

  std::array<std::uint64_t, 2> key_;
  std::array<std::uint64_t, 4> counter_;
  std::array<std::uint64_t, 4> block_{};
  unsigned used_ = 4;
};

}  // namespace dcsweep
