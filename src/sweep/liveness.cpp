#include "dcsweep/sweep/liveness.hpp"

#include <cstdio>

#include "dcsweep/sweep/progress.hpp"

namespace dcsweep {

namespace {

/// Tenths of a second below a minute (stall thresholds can be short in tests), else as Progress.
std::string elapsed_text(double seconds) {
  if (seconds >= 60) return Progress::duration_text(seconds);
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", seconds);
  return text;
}

}  // namespace

Liveness::Liveness(int ranks, double stall_after_s, double start_s)
    : stall_after_s_(stall_after_s), last_progress_s_(start_s), chunks_(static_cast<std::size_t>(ranks)), stopped_(static_cast<std::size_t>(ranks)) {}

void Liveness::handed(int rank, std::span<const std::uint64_t> chunk, double now_s) {
  if (chunk.empty()) {
    stopped_[static_cast<std::size_t>(rank)] = true;
    return;
  }
  chunks_[static_cast<std::size_t>(rank)].push_back({chunk.front(), chunk.size(), chunk.size(), now_s});
}

void Liveness::finished(int rank, std::size_t points, double now_s) {
  if (points > 0) last_progress_s_ = now_s;
  auto& queue = chunks_[static_cast<std::size_t>(rank)];
  while (points > 0 && !queue.empty()) {
    const std::size_t taken = std::min(points, queue.front().left);
    queue.front().left -= taken;
    points -= taken;
    if (queue.front().left == 0) queue.pop_front();
  }
}

std::optional<std::string> Liveness::check(double now_s, std::uint64_t done, std::uint64_t total, const Local& local,
                                           const PendingSends& pending) {
  if (!stalled(now_s)) return std::nullopt;
  std::string text = "dcsweep: warning: no point finished for " + elapsed_text(now_s - last_progress_s_) +
                     " (" + std::to_string(done) + "/" + std::to_string(total) + " done)";
  for (int r = 0; r < static_cast<int>(chunks_.size()); ++r) {
    text += "; " + describe(r, now_s, local, r < static_cast<int>(pending.size()) ? pending[std::size_t(r)] : 0);
  }
  last_progress_s_ = now_s;  // the next warning after another full period
  return text;
}

std::string Liveness::describe(int rank, double now_s, const Local& local, std::size_t pending) const {
  std::string text = "rank " + std::to_string(rank) + ": ";
  if (rank == 0) {
    if (!local.point) return text + "serving only (its worker has no point)";
    return text + "serving, its worker on point " + std::to_string(*local.point) + " for " +
           elapsed_text(now_s - local.since_s);
  }
  const auto& queue = chunks_[static_cast<std::size_t>(rank)];
  if (queue.empty()) {
    return text + (stopped_[static_cast<std::size_t>(rank)] ? "done" : "waiting for rank 0 to answer its request");
  }
  const Chunk& c = queue.front();
  text += "computing a chunk of " + std::to_string(c.size) + " points (first " + std::to_string(c.first) + ", " +
          std::to_string(c.size - c.left) + " reported) handed " + elapsed_text(now_s - c.handed_s) + " ago";
  if (pending > 0) text += ", " + std::to_string(pending) + " message(s) from rank 0 not yet received by it";
  return text;
}

}  // namespace dcsweep
