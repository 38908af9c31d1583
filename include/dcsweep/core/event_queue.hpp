#pragma once
// A time-ordered event queue with a deterministic tie-break: events at equal times come out in
// the order they were pushed (a sequence number breaks ties), so a simulation that pushes in a
// deterministic order pops in a deterministic order on every platform and standard library.
#include <cstdint>
#include <limits>
#include <queue>
#include <vector>

namespace dcsweep {

template <class Payload>
class EventQueue {
 public:
  struct Event {
    double time_s;
    std::uint64_t sequence;
    Payload payload;
  };

  void push(double time_s, Payload payload) { heap_.push(Event{time_s, next_sequence_++, payload}); }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  /// Time of the earliest event, +inf when empty.
  double next_time() const {
    return heap_.empty() ? std::numeric_limits<double>::infinity() : heap_.top().time_s;
  }
  const Event& top() const { return heap_.top(); }
  Event pop() {
    Event event = heap_.top();
    heap_.pop();
    return event;
  }

 private:
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time_s > b.time_s || (a.time_s == b.time_s && a.sequence > b.sequence);
    }
  };
  std::priority_queue<Event, std::vector<Event>, Later> heap_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace dcsweep
