#include "dcsweep/sweep/progress.hpp"

#include <cmath>
#include <cstdio>
#include <ostream>

namespace dcsweep {

Progress::Progress(std::uint64_t total, double total_cost, bool quiet, std::ostream& err, bool terminal)
    : total_(total), total_cost_(total_cost), quiet_(quiet), terminal_(terminal), err_(err) {}

void Progress::point_done(bool failed, double cost) {
  ++done_;
  failed_ += failed ? 1 : 0;
  done_cost_ += cost;
  changed_ = true;
}

void Progress::maybe_print() {
  if (quiet_ || !changed_ || Clock::now() - last_ < std::chrono::seconds(1)) return;
  print();
}

void Progress::finish() {
  if (quiet_) return;
  if (changed_) print();
  if (terminal_ && printed_) err_ << "\n";
  err_.flush();
}

std::string Progress::duration_text(double seconds) {
  char text[48];
  const long s = std::lround(seconds);
  if (s < 60) std::snprintf(text, sizeof text, "%ld s", s);
  else if (s < 3600) std::snprintf(text, sizeof text, "%ld min %ld s", s / 60, s % 60);
  else std::snprintf(text, sizeof text, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
  return text;
}

void Progress::print() {
  last_ = Clock::now();
  changed_ = false;
  printed_ = true;
  const double elapsed = std::chrono::duration<double>(last_ - start_).count();
  // Fraction of the work done, by estimated cost (by count when the estimate is all zeros).
  const double fraction = total_cost_ > 0 ? done_cost_ / total_cost_ : total_ ? double(done_) / double(total_) : 1.0;
  std::string line = "dcsweep: " + std::to_string(done_) + "/" + std::to_string(total_) + " points";
  if (failed_ > 0) line += ", " + std::to_string(failed_) + " failed";
  line += ", " + std::to_string(std::lround(100 * fraction)) + "% of the estimated work, " + duration_text(elapsed);
  if (done_ < total_ && fraction > 0) line += ", about " + duration_text(elapsed * (1 - fraction) / fraction) + " left";
  if (terminal_) err_ << "\r" << line << "\x1b[K" << std::flush;
  else err_ << line << "\n" << std::flush;
}

}  // namespace dcsweep
