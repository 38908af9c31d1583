#pragma once
// `dcsweep run`: a whole sweep on the ranks of an MPI communicator.
//
//   setup    rank 0 takes the output's lock (run_lock.hpp: one run at a time), reads the spec and broadcasts its text; every rank parses the same text;
//            rank 0 estimates the costs (reading each trace once), checks the output (a second
//            run on the same file is refused; --resume reads the journal and refuses a changed
//            spec), creates the journal and lays out the file; the verdict is broadcast, so a bad
//            input stops every rank before any simulation and no rank waits in a collective.
//   run      rank 0 hands out chunks (distribution.hpp) to the other ranks and to its own worker
//            thread, journals each result as it arrives and reports progress; only rank 0's main
//            thread calls MPI (MPI_THREAD_FUNNELED: the worker thread only simulates and hands
//            results over through a mutex). No rank ever blocks in a send (mpi_messages.hpp), so
//            no message size, chunk size or rank count can deadlock the exchange. When no point
//            finishes for stall_warning_s, rank 0 says which rank holds what, and since when.
//   write    rank 0 lays the file out again with the series lengths now known, sends each rank
//            its block of rows, and every rank writes its block collectively; then the journal
//            is removed.
#include <mpi.h>

#include <iosfwd>
#include <string>

namespace dcsweep {

struct RunOptions {
  std::string spec_path;
  std::string output;
  bool resume = false;
  bool quiet = false;       ///< no progress lines
  double stall_warning_s = 900;  ///< warn when no point finished for this long (0: never)
  double lock_wait_s = 0;        ///< wait this long for another run on the output to end (run_lock.hpp)
  std::string version;      ///< provenance, stored in the file
  std::string git_commit;
  bool retry_failed = false;  ///< with resume: failed points are computed again (else kept failed)
};

/// Runs the sweep; returns the exit code (0 ok, 1 some point failed, 2 bad input), the same on
/// every rank. Only rank 0 writes to `out` (summary) and `err` (errors, progress).
int run_sweep(const RunOptions& options, MPI_Comm comm, std::ostream& out, std::ostream& err);

}  // namespace dcsweep
