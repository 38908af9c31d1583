#pragma once
// A check of the epoch model by simulation (issue 12, beyond [P3]): Poisson task arrivals of every
// type (rate lambda_i) served under an allocation. Each (core, task type) pair with DF > 0 is a
// server of that type completing one task in 1 / CER(i, k) seconds (its share of the core at its
// P-state, slowed by its co-runners, as Eq. 7 says); a task waits in its type's queue (FIFO,
// unbounded) until one of its type's servers is free. Over a long run each type completes
// min(lambda_i, sum_k CER(i, k)) tasks per second, so the realized reward rate estimates RR
// (Eq. 8). Queueing delay and deadlines are outside [P3]'s rate model and not counted.
#include <cstdint>
#include <vector>

#include "dcsweep/core/rng.hpp"
#include "dcsweep/ratebased/model.hpp"

namespace dcsweep {

struct ValidationOptions {
  std::int64_t arrivals = 200000;  ///< expected arrivals over the run: horizon = arrivals / sum lambda
  double warmup_share = 0.1;       ///< of the horizon, not measured (the queues start empty)
  std::int32_t batches = 20;       ///< batch means for the standard error
};

struct RealizedRate {
  double reward_rate = 0;     ///< sum_i r_i completions_i / measured time
  double standard_error = 0;  ///< of reward_rate, from the batch means
  std::vector<double> task_rate;  ///< completions per second of each type
  double horizon_s = 0;
  std::int64_t completed = 0;
};

/// InputError on options out of range or an allocation that is not valid for the instance.
RealizedRate simulate_epoch(const RateInstance& instance, const Allocation& allocation, const ValidationOptions& options,
                            RngStream& rng);

}  // namespace dcsweep
