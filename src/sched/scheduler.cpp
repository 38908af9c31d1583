#include "dcsweep/sched/scheduler.hpp"

#include <cmath>

#include "waiting_queue.hpp"

namespace dcsweep {

const SchedulerRegistry& scheduler_registry() {
  static const SchedulerRegistry registry("scheduler", {easy_scheduler_entry(), fcfs_scheduler_entry(),
                                                        conservative_scheduler_entry(), edf_scheduler_entry(),
                                                        parm_scheduler_entry()});
  return registry;
}

namespace detail {

void WaitingQueue::pop_front() {
  ++head_;
  if (head_ == jobs_.size()) {
    jobs_.clear();
    head_ = 0;
  } else if (head_ > 4096 && head_ * 2 > jobs_.size()) {
    jobs_.erase(jobs_.begin(), jobs_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

void WaitingQueue::start_heads(SchedulingContext& ctx, const std::function<void(JobIndex, double)>& started) {
  double end = NAN;
  const SchedulingContext::StartCheck note_end = [&](double estimated_end) {
    end = estimated_end;
    return true;
  };
  while (!empty() && ctx.job(front()).nodes <= ctx.free_nodes() &&
         (started ? ctx.start_if(front(), {}, note_end) : ctx.start(front()))) {
    if (started) started(front(), end);
    pop_front();
  }
}

void WaitingQueue::erase_positions(const std::vector<std::size_t>& positions) {
  if (positions.empty()) return;
  std::size_t write = head_ + positions.front();
  std::size_t next = 0;
  for (std::size_t read = write; read < jobs_.size(); ++read) {
    if (next < positions.size() && read == head_ + positions[next]) {
      ++next;
      continue;
    }
    jobs_[write++] = jobs_[read];
  }
  jobs_.resize(write);
}

}  // namespace detail
}  // namespace dcsweep
