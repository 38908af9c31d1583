#include "dcsweep/ratebased/validate.hpp"

#include <cmath>
#include <queue>

#include "dcsweep/core/error.hpp"

namespace dcsweep {
namespace {

struct Busy {
  double end_s;
  std::int32_t server;
  bool operator>(const Busy& o) const { return end_s != o.end_s ? end_s > o.end_s : server > o.server; }
};

/// The servers of each task type: their service times and which are idle (a stack).
struct Servers {
  std::vector<std::int32_t> task;      ///< per server
  std::vector<double> service_s;       ///< per server: 1 / CER
  std::vector<std::vector<std::int32_t>> idle;  ///< per task
};

Servers servers_of(const RateInstance& in, const Allocation& a) {
  std::vector<double> cer;
  if (!evaluate(in, a, false, &cer).valid) throw InputError("rate-based validation: the allocation is not valid");
  Servers s;
  s.idle.resize(std::size_t(in.tasks()));
  for (std::size_t g = 0; g < cer.size(); ++g) {
    if (!(cer[g] > 0)) continue;
    const auto task = std::int32_t(g % std::size_t(in.tasks()));
    s.idle[std::size_t(task)].push_back(std::int32_t(s.task.size()));
    s.task.push_back(task);
    s.service_s.push_back(1 / cer[g]);
  }
  return s;
}

/// The run: merged Poisson arrivals, a waiting count per type, completions by time.
class EpochRun {
 public:
  EpochRun(const RateInstance& in, Servers servers, const ValidationOptions& o, double total_rate)
      : in_(in), s_(std::move(servers)), waiting_(std::size_t(in.tasks()), 0), total_rate_(total_rate),
        horizon_s_(double(o.arrivals) / total_rate), warmup_s_(o.warmup_share * horizon_s_),
        batch_s_((horizon_s_ - warmup_s_) / o.batches), batch_reward_(std::size_t(o.batches), 0.0),
        completions_(std::size_t(in.tasks()), 0) {}

  void run(RngStream& rng) {
    double next_arrival = rng.exponential(total_rate_);
    for (;;) {
      const double next_end = busy_.empty() ? INFINITY : busy_.top().end_s;
      const double t = std::min(next_arrival, next_end);
      if (t > horizon_s_) break;
      if (next_end <= next_arrival) {
        finish(busy_.top());
      } else {
        arrive(pick_task(rng), t);
        next_arrival = t + rng.exponential(total_rate_);
      }
    }
  }

  RealizedRate result() const {
    RealizedRate r;
    double sum = 0, sum2 = 0;
    for (const double b : batch_reward_) {
      sum += b / batch_s_;
      sum2 += (b / batch_s_) * (b / batch_s_);
    }
    const double n = double(batch_reward_.size()), mean = sum / n;
    r.reward_rate = mean;
    r.standard_error = std::sqrt(std::max(0.0, sum2 / n - mean * mean) / (n - 1));
    for (const std::int64_t c : completions_) {
      r.task_rate.push_back(double(c) / (horizon_s_ - warmup_s_));
      r.completed += c;
    }
    r.horizon_s = horizon_s_;
    return r;
  }

 private:
  std::int32_t pick_task(RngStream& rng) const {
    double u = rng.uniform01() * total_rate_;
    for (std::int32_t i = 0; i + 1 < in_.tasks(); ++i) {
      u -= in_.tables.tasks[std::size_t(i)].arrival_rate_per_s;
      if (u < 0) return i;
    }
    return in_.tasks() - 1;
  }

  void start(std::int32_t task, double t) {
    auto& idle = s_.idle[std::size_t(task)];
    const std::int32_t server = idle.back();
    idle.pop_back();
    busy_.push({t + s_.service_s[std::size_t(server)], server});
  }

  void arrive(std::int32_t task, double t) {
    if (s_.idle[std::size_t(task)].empty()) {
      ++waiting_[std::size_t(task)];
    } else {
      start(task, t);
    }
  }

  void finish(Busy done) {
    busy_.pop();
    const std::int32_t task = s_.task[std::size_t(done.server)];
    if (done.end_s >= warmup_s_) {
      const auto batch = std::min(std::size_t((done.end_s - warmup_s_) / batch_s_), batch_reward_.size() - 1);
      batch_reward_[batch] += in_.tables.tasks[std::size_t(task)].reward;
      ++completions_[std::size_t(task)];
    }
    s_.idle[std::size_t(task)].push_back(done.server);
    if (waiting_[std::size_t(task)] > 0) {
      --waiting_[std::size_t(task)];
      start(task, done.end_s);
    }
  }

  const RateInstance& in_;
  Servers s_;
  std::vector<std::int64_t> waiting_;
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy_;
  double total_rate_, horizon_s_, warmup_s_, batch_s_;
  std::vector<double> batch_reward_;
  std::vector<std::int64_t> completions_;
};

}  // namespace

RealizedRate simulate_epoch(const RateInstance& in, const Allocation& a, const ValidationOptions& o, RngStream& rng) {
  if (o.arrivals < 1 || !(o.warmup_share >= 0 && o.warmup_share < 1) || o.batches < 2) {
    throw InputError("rate-based validation: at least one arrival, a warm-up share in [0, 1) and two batches");
  }
  double total_rate = 0;
  for (const RateTaskType& t : in.tables.tasks) total_rate += t.arrival_rate_per_s;
  if (!(total_rate > 0)) return RealizedRate{0, 0, std::vector<double>(std::size_t(in.tasks()), 0.0), 0, 0};
  EpochRun run(in, servers_of(in, a), o, total_rate);
  run.run(rng);
  return run.result();
}

}  // namespace dcsweep
