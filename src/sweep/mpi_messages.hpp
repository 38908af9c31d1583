#pragma once
// Point-to-point helpers of the sweep's ranks (internal to the sweep library).
//
// Deadlock freedom: a blocking MPI_Send of a message above the library's eager limit waits until
// the receiver posts its receive. Rank 0 answering a chunk request while a worker sends its
// results would then wait on each other forever (the hang of 2-rank sweeps with chunks of
// thousands of points). So no rank ever blocks in a send during the run: every send is an
// MPI_Isend whose buffer lives in a SendQueue until MPI has taken it, and every wait is a poll
// (MPI_Test / MPI_Iprobe) that also drives the library's progress. A wait therefore only ends when
// the peer acts, and every peer keeps polling, so no cycle of waits can form, whatever the sizes.
//
// Waits poll with a growing pause instead of spinning: ranks may share cores with rank 0's worker.
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "dcsweep/sweep/point.hpp"

namespace dcsweep::mpi {

enum Tag : int { kRequest = 1, kWork = 2, kResults = 3, kBlock = 4 };

/// A growing pause between polls: 20 us doubling up to 1 ms.
class Backoff {
 public:
  void pause() {
    std::this_thread::sleep_for(pause_);
    pause_ = std::min(pause_ * 2, std::chrono::microseconds(1000));
  }
  void reset() { pause_ = std::chrono::microseconds(20); }

 private:
  std::chrono::microseconds pause_{20};
};

inline int byte_count(const std::string& bytes) {
  if (bytes.size() > static_cast<std::size_t>(INT32_MAX)) throw std::runtime_error("message above 2 GiB");
  return static_cast<int>(bytes.size());
}

/// Waits for `request` without spinning a core.
inline void wait_politely(MPI_Request& request) {
  int done = 0;
  Backoff backoff;
  for (MPI_Test(&request, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&request, &done, MPI_STATUS_IGNORE)) {
    backoff.pause();
  }
}

/// Non-blocking sends in flight, each owning its bytes until MPI has taken them.
class SendQueue {
 public:
  SendQueue() = default;
  SendQueue(const SendQueue&) = delete;
  SendQueue& operator=(const SendQueue&) = delete;
  ~SendQueue() { wait_all(); }

  void post(std::string bytes, int to, int tag, MPI_Comm comm) {
    sends_.push_back({std::move(bytes), to, MPI_REQUEST_NULL});
    Send& s = sends_.back();
    MPI_Isend(s.bytes.data(), byte_count(s.bytes), MPI_BYTE, to, tag, comm, &s.request);
  }
  /// Drops the sends MPI has completed (and drives progress on the others).
  void test() {
    for (auto it = sends_.begin(); it != sends_.end();) {
      int done = 0;
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      it = done ? sends_.erase(it) : std::next(it);
    }
  }
  void wait_all() {
    for (Send& s : sends_) wait_politely(s.request);
    sends_.clear();
  }
  /// Sends to `rank` not yet completed (for the liveness report).
  std::size_t pending_to(int rank) const {
    std::size_t n = 0;
    for (const Send& s : sends_) n += s.to == rank ? 1 : 0;
    return n;
  }

 private:
  struct Send {
    std::string bytes;
    int to;
    MPI_Request request;
  };
  std::deque<Send> sends_;  // a deque: posting never moves the buffers of earlier sends
};

/// A send that completes before returning, by polling (used outside the run's message loop).
inline void send_bytes(std::string bytes, int to, int tag, MPI_Comm comm) {
  SendQueue queue;
  queue.post(std::move(bytes), to, tag, comm);
  queue.wait_all();
}

/// Receives one message of any length from `from` with `tag`, politely.
inline std::string receive_bytes(int from, int tag, MPI_Comm comm) {
  int flag = 0;
  MPI_Status status;
  Backoff backoff;
  for (MPI_Iprobe(from, tag, comm, &flag, &status); !flag; MPI_Iprobe(from, tag, comm, &flag, &status)) {
    backoff.pause();
  }
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::string bytes(static_cast<std::size_t>(count), '\0');
  MPI_Recv(bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, tag, comm, MPI_STATUS_IGNORE);
  return bytes;
}

inline std::vector<PointResult> decode_results(std::string_view bytes) {
  std::vector<PointResult> results;
  while (!bytes.empty()) results.push_back(decode(bytes));
  return results;
}

}  // namespace dcsweep::mpi
