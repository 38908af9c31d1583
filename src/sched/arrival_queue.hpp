#pragma once
// The waiting queue in arrival order shared by FCFS and EASY (internal to the sched library).
#include <vector>

#include "dcsweep/sched/scheduler.hpp"

namespace dcsweep::detail {

class ArrivalQueue {
 public:
  void push(JobIndex index) { jobs_.push_back(index); }
  bool empty() const { return head_ == jobs_.size(); }
  std::size_t size() const { return jobs_.size() - head_; }
  JobIndex front() const { return jobs_[head_]; }
  JobIndex operator[](std::size_t i) const { return jobs_[head_ + i]; }

  /// Starts queue heads, in order, while they fit (FCFS). Stops at the first that does not.
  void start_heads(SchedulingContext& ctx);
  /// Removes the listed positions (ascending, relative to the head).
  void erase_positions(const std::vector<std::size_t>& positions);

 private:
  void pop_front();

  std::vector<JobIndex> jobs_;
  std::size_t head_ = 0;
};

}  // namespace dcsweep::detail
