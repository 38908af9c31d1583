#pragma once
// What a simulation, its models and its policies emit: named metrics and time series with units.
// The simulation never writes files; the CLI and the sweep writer decide where these go.
#include <limits>
#include <string>
#include <vector>

namespace dcsweep {

/// A metric's declaration, so that writers can lay out results before anything runs.
struct MetricSpec {
  std::string name;
  std::string unit;  ///< "s", "J", "W", "C", "" when dimensionless
  std::string help;
};

struct Metric {
  std::string name;
  std::string unit;
  double value;  ///< NaN when the metric does not apply
};

/// A time series' declaration (the result layout needs it before anything runs).
struct SeriesSpec {
  std::string name;
  std::string unit;
  std::string help;
};

/// A piecewise-constant time series: values[i] holds from times_s[i] to times_s[i+1].
struct Series {
  std::string name;
  std::string unit;
  std::vector<double> times_s;
  std::vector<double> values;
};

struct Report {
  std::vector<Metric> metrics;
  std::vector<Series> series;
  /// Physics outside its plausible range, said once per run (`simulate` prints them; in a sweep
  /// the metrics, e.g. time_supply_below_floor_s, carry the same facts per point).
  std::vector<std::string> warnings;

  void add(const MetricSpec& spec, double value) { metrics.push_back({spec.name, spec.unit, value}); }
  /// The value of a metric by name; NaN when absent.
  double value(const std::string& name) const {
    for (const Metric& m : metrics) {
      if (m.name == name) return m.value;
    }
    return std::numeric_limits<double>::quiet_NaN();
  }
};

}  // namespace dcsweep
