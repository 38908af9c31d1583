#include "dcsweep/sim/utilization.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {

ParamSpec series_interval_param() {
  return {.name = "series_interval_s", .type = ParamType::real, .unit = "s", .default_value = 3600.0,
          .min = 0.0, .max = 1.0e9,
          .help = "width of the averaging interval of the time series (utilization, power, inlet temperature); 0: "
                  "no series (big designs: the series are most of a result file's and journal's volume)"};
}

void check_series_span(double span_s, double interval_s) {
  if (span_s / interval_s <= double(kMaxSeriesBins)) return;
  throw SimulationError("the run spans " + format_number(span_s) + " s of simulated time, more than " +
                        std::to_string(kMaxSeriesBins) + " series bins of series_interval_s = " +
                        format_number(interval_s) + " s; raise series_interval_s (or check the trace's times)");
}

SeriesSpec utilization_series_spec() {
  return {"utilization", "", "fraction of nodes busy, averaged over each series_interval_s"};
}

UtilizationSeries::UtilizationSeries(std::int32_t node_count, double interval_s)
    : node_count_(node_count), interval_s_(interval_s) {}

void UtilizationSeries::advance_to(double time_s) {
  if (interval_s_ == 0) return;  // no series asked for
  if (!started_) {
    started_ = true;
    first_bin_ = bin_ = static_cast<std::int64_t>(std::floor(time_s / interval_s_));
    last_s_ = time_s;
    node_seconds_.push_back(0.0);
    return;
  }
  check_series_span(time_s - double(first_bin_) * interval_s_, interval_s_);
  // Integer bin bookkeeping: bin ends are computed, never re-derived by division.
  for (double bin_end = double(bin_ + 1) * interval_s_; time_s >= bin_end; bin_end = double(bin_ + 1) * interval_s_) {
    node_seconds_.back() += busy_ * (bin_end - last_s_);
    last_s_ = bin_end;
    ++bin_;
    node_seconds_.push_back(0.0);
  }
  node_seconds_.back() += busy_ * (time_s - last_s_);
  last_s_ = time_s;
}

void UtilizationSeries::on_job_start(double, const Placement& placement) {
  busy_ += static_cast<double>(placement.node_count);
}

void UtilizationSeries::on_job_end(double, const Placement& placement, bool) {
  busy_ -= static_cast<double>(placement.node_count);
}

void UtilizationSeries::on_job_resize(double, const Placement& before, const Placement& after) {
  busy_ += static_cast<double>(after.node_count) - static_cast<double>(before.node_count);
}

void UtilizationSeries::report(double end_s, Report& report) {
  const SeriesSpec spec = utilization_series_spec();
  Series series{spec.name, spec.unit, {}, {}};
  if (started_) {
    advance_to(end_s);
    for (std::size_t i = 0; i < node_seconds_.size(); ++i) {
      const double start = double(first_bin_ + std::int64_t(i)) * interval_s_;
      const double covered = std::min(interval_s_, end_s - start);
      if (covered <= 0) break;  // the bin that begins exactly at the end
      series.times_s.push_back(start);
      series.values.push_back(node_seconds_[i] / (node_count_ * covered));
    }
  }
  report.series.push_back(std::move(series));
}

}  // namespace dcsweep
