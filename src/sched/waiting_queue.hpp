#pragma once
// The waiting queue shared by the schedulers (internal to the sched library): jobs in the order a
// policy serves them, arrival order for fcfs, easy and conservative, deadline order for edf.
#include <functional>
#include <span>
#include <vector>

#include "dcsweep/sched/scheduler.hpp"

namespace dcsweep::detail {

class WaitingQueue {
 public:
  void push(JobIndex index) { jobs_.push_back(index); }
  /// Puts a job before the one at `position` (size(): at the end).
  void insert(std::size_t position, JobIndex index) {
    jobs_.insert(jobs_.begin() + static_cast<std::ptrdiff_t>(head_ + position), index);
  }
  bool empty() const { return head_ == jobs_.size(); }
  std::size_t size() const { return jobs_.size() - head_; }
  JobIndex front() const { return jobs_[head_]; }
  JobIndex operator[](std::size_t i) const { return jobs_[head_ + i]; }
  std::span<const JobIndex> view() const { return std::span<const JobIndex>(jobs_).subspan(head_); }

  /// Starts queue heads, in order, while they fit (FCFS). Stops at the first that does not.
  /// `started` (if given) hears each job started and its estimated end, before it leaves the queue.
  void start_heads(SchedulingContext& ctx, const std::function<void(JobIndex, double)>& started = {});
  /// Removes the listed positions (ascending, relative to the head).
  void erase_positions(const std::vector<std::size_t>& positions);

 private:
  void pop_front();

  std::vector<JobIndex> jobs_;
  std::size_t head_ = 0;
};

}  // namespace dcsweep::detail
