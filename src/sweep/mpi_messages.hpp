#pragma once
// Point-to-point helpers of the sweep's ranks (internal to the sweep library). Waits poll with a
// growing pause instead of spinning: ranks may share cores with rank 0's worker thread.
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "dcsweep/sweep/point.hpp"

namespace dcsweep::mpi {

enum Tag : int { kRequest = 1, kWork = 2, kResults = 3, kBlock = 4 };

inline void send_bytes(const std::string& bytes, int to, int tag, MPI_Comm comm) {
  if (bytes.size() > static_cast<std::size_t>(INT32_MAX)) throw std::runtime_error("message above 2 GiB");
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, to, tag, comm);
}

/// Waits for `request` without spinning a core.
inline void wait_politely(MPI_Request& request) {
  int done = 0;
  auto pause = std::chrono::microseconds(20);
  for (MPI_Test(&request, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&request, &done, MPI_STATUS_IGNORE)) {
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

/// Receives one message of any length from `from` with `tag`, politely.
inline std::string receive_bytes(int from, int tag, MPI_Comm comm) {
  int flag = 0;
  MPI_Status status;
  auto pause = std::chrono::microseconds(20);
  for (MPI_Iprobe(from, tag, comm, &flag, &status); !flag; MPI_Iprobe(from, tag, comm, &flag, &status)) {
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::string bytes(static_cast<std::size_t>(count), '\0');
  MPI_Recv(bytes.data(), count, MPI_BYTE, from, tag, comm, MPI_STATUS_IGNORE);
  return bytes;
}

inline std::vector<PointResult> decode_results(std::string_view bytes) {
  std::vector<PointResult> results;
  while (!bytes.empty()) results.push_back(decode(bytes));
  return results;
}

}  // namespace dcsweep::mpi
