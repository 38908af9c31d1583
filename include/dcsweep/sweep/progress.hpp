#pragma once
// Rank 0's progress report on stderr: points done/total, failures and an ETA, at most about once
// a second. On a terminal the line is redrawn in place; otherwise (a Slurm log) each report is a
// plain line. The ETA weighs points by their estimated cost, since the most expensive go first.
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace dcsweep {

class Progress {
 public:
  Progress(std::uint64_t total, double total_cost, bool quiet, std::ostream& err, bool terminal);

  void point_done(bool failed, double cost);
  /// Prints when something changed and a second has passed since the last report.
  void maybe_print();
  /// The last report (if anything changed since the one before).
  void finish();

  /// "42 s", "5 min 10 s", "2 h 05 min".
  static std::string duration_text(double seconds);

 private:
  void print();

  using Clock = std::chrono::steady_clock;
  std::uint64_t total_, done_ = 0, failed_ = 0;
  double total_cost_, done_cost_ = 0;
  bool quiet_, terminal_, changed_ = false, printed_ = false;
  std::ostream& err_;
  Clock::time_point start_ = Clock::now(), last_ = Clock::now();
};

}  // namespace dcsweep
