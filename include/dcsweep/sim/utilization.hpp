#pragma once
// The core's time series: the fraction of nodes busy, averaged over fixed intervals of simulated
// time (parameter series_interval_s). Bins are aligned on multiples of the interval; the last bin
// is averaged over the part of it that was simulated.
#include <cstdint>
#include <vector>

#include "dcsweep/core/params.hpp"
#include "dcsweep/sim/observer.hpp"

namespace dcsweep {

ParamSpec series_interval_param();
SeriesSpec utilization_series_spec();

/// Series are bounded by the work simulated: a run whose span needs more bins than this (an absurd
/// submit time, a huge gamma) fails as a point instead of growing without bound.
inline constexpr std::int64_t kMaxSeriesBins = 10'000'000;
/// SimulationError when `span_s` needs more than kMaxSeriesBins bins of `interval_s`.
void check_series_span(double span_s, double interval_s);

class UtilizationSeries final : public SimObserver {
 public:
  UtilizationSeries(std::int32_t node_count, double interval_s);

  bool reads_node_ids() const override { return false; }  // counts only
  void advance_to(double time_s) override;
  void on_job_start(double, const Placement& placement) override;
  void on_job_end(double, const Placement& placement, bool) override;
  void on_job_resize(double, const Placement& before, const Placement& after) override;
  void report(double end_s, Report& report) override;

 private:
  double node_count_;
  double interval_s_;
  bool started_ = false;
  std::int64_t first_bin_ = 0;
  std::int64_t bin_ = 0;          ///< the bin holding last_s_
  double last_s_ = 0;
  double busy_ = 0;               ///< nodes busy since last_s_
  std::vector<double> node_seconds_;  ///< per bin from first_bin_
};

}  // namespace dcsweep
