#pragma once
// Rank 0's view of what every rank is doing, so that a sweep in which no point finishes for a
// long time says so (which ranks hold which work, since when, and what they wait for) instead of
// stalling silently. Pure bookkeeping, fed by the message loop with times in seconds since the
// run started; no MPI here, so it is unit-tested directly.
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dcsweep {

class Liveness {
 public:
  /// Watching from `start_s`; `stall_after_s` <= 0 turns the report off.
  Liveness(int ranks, double stall_after_s, double start_s);

  /// Rank `rank` was handed `chunk` (empty: told to stop).
  void handed(int rank, std::span<const std::uint64_t> chunk, double now_s);
  /// `points` results arrived from `rank` (they cover its oldest chunks, in order).
  void finished(int rank, std::size_t points, double now_s);

  /// What rank 0's own worker thread is on: a point since a time, or nothing.
  struct Local {
    std::optional<std::uint64_t> point;
    double since_s = 0;
  };
  /// Sends to each rank not yet taken by it (indexed by rank).
  using PendingSends = std::vector<std::size_t>;

  /// True when check() would warn now (cheap: the loop asks at every turn).
  bool stalled(double now_s) const { return stall_after_s_ > 0 && now_s - last_progress_s_ >= stall_after_s_; }
  /// A warning when no point has finished for `stall_after_s` (since the start, the last point,
  /// or the last warning); nullopt otherwise.
  std::optional<std::string> check(double now_s, std::uint64_t done, std::uint64_t total, const Local& local,
                                   const PendingSends& pending);

 private:
  struct Chunk {
    std::uint64_t first;
    std::size_t size, left;
    double handed_s;
  };
  std::string describe(int rank, double now_s, const Local& local, std::size_t pending) const;

  double stall_after_s_;
  double last_progress_s_;
  std::vector<std::deque<Chunk>> chunks_;
  std::vector<bool> stopped_;
};

}  // namespace dcsweep
