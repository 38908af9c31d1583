#pragma once
// How the points of a sweep are handed out to the ranks (no MPI here: the runner moves the chunks,
// this decides them, and `dcsweep plan` replays it). Points go out most expensive first, by the
// cost estimate, in chunks of decreasing size ("factoring"): a chunk is worth about
// remaining cost / (3 x ranks), capped at 50 ms of estimated work (a chunk only needs to be big
// enough to hide the ~0.1 ms a hand-out costs; a bigger one would hide a badly estimated point
// behind others), and never less than a floor that shrinks when ranks are many, so every rank
// gets work.
#include <cstdint>
#include <span>
#include <vector>

namespace dcsweep {

struct ChunkPolicy {
  double split = 3.0;         ///< a chunk ~ remaining cost / (split x ranks)
  double max_chunk_s = 0.05;  ///< cap of a chunk's estimated cost
  double min_chunk_s = 0.005; ///< floor of a chunk's estimated cost...
  double min_share = 0.02;    ///< ...but at most this fraction of one rank's fair share
};

class ChunkPlanner {
 public:
  /// `points`: the flat indices to run; `costs`: estimated seconds of every flat index.
  ChunkPlanner(std::vector<std::uint64_t> points, std::span<const double> costs, int ranks, ChunkPolicy policy = {});

  /// The next chunk, most expensive points first; empty when all are handed out.
  std::vector<std::uint64_t> next();
  std::size_t remaining() const { return order_.size() - next_; }
  double remaining_cost() const { return remaining_cost_; }
  double total_cost() const { return total_cost_; }

 private:
  std::vector<std::uint64_t> order_;
  std::vector<double> cost_;  ///< cost_[i] of order_[i]
  std::size_t next_ = 0;
  double total_cost_ = 0, remaining_cost_ = 0, floor_s_ = 0, cap_s_ = 0, divisor_ = 1;
};

/// The makespan the engine's hand-out order gives on `ranks` ranks, replayed with measured point
/// times (list scheduling: each rank takes the next chunk when it is free).
struct MakespanPlan {
  int ranks = 0;
  double makespan_s = 0;
  double total_s = 0;        ///< sum of the point times
  double longest_s = 0;      ///< the longest point
  double lower_bound_s = 0;  ///< max(total / ranks, longest): no schedule can beat it
  std::size_t chunks = 0;
};

MakespanPlan plan_makespan(std::span<const double> costs, std::span<const double> wall_s, int ranks,
                           ChunkPolicy policy = {});

}  // namespace dcsweep
