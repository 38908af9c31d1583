// `dcsweep analyze` on an adaptive design's file: the rounds, and where the refine metric crosses
// its threshold (or changes most), per combination of the axes kept whole: what a researcher
// looking for a threshold reads first. The intervals are analysis/adaptive.hpp's, from the
// points and values the file holds.
#include <cmath>
#include <cstdio>
#include <ostream>

#include "commands.hpp"
#include "dcsweep/analysis/adaptive.hpp"
#include "dcsweep/cli/cli.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sweep/result_file.hpp"

namespace dcsweep::cli {
namespace {

struct Located {
  std::string metric;
  bool threshold = false;
  std::vector<analysis::Interval> intervals;
};

analysis::AdaptivePoints read_points(const std::string& file, std::size_t axes) {
  analysis::AdaptivePoints points;
  points.axes = axes;
  try {
    points.x = read_metric_values(file, "adaptive_coordinates");
    for (const double r : read_metric_values(file, "round")) points.round.push_back(static_cast<std::int32_t>(r));
  } catch (const std::runtime_error& e) {
    throw InputError(std::string("analyze: ") + e.what());
  }
  if (points.x.size() != points.round.size() * axes)
    throw InputError("analyze: " + file + ": adaptive_coordinates and round disagree");
  return points;
}

/// Per sample: the mean over its replicates that have a value.
std::vector<double> sample_means(const std::string& file, const std::string& metric, std::size_t samples) {
  const std::vector<double> flat = read_metric_values(file, metric);
  const std::size_t replicates = samples == 0 ? 1 : flat.size() / samples;
  std::vector<double> out(samples, NAN);
  for (std::size_t s = 0; s < samples; ++s) {
    double sum = 0, n = 0;
    for (std::size_t r = 0; r < replicates; ++r) {
      if (std::isfinite(flat[s * replicates + r])) sum += flat[s * replicates + r], n += 1;
    }
    if (n > 0) out[s] = sum / n;
  }
  return out;
}

/// Threshold: every crossing interval. Change: per cell and axis, the interval changing most.
Located locate(const std::string& file, const AdaptiveDesign& d, const analysis::AdaptivePoints& points,
               const std::string& metric) {
  analysis::RefineRule rule = d.rule;
  if (metric != d.metric) rule.threshold.reset();  // (the threshold is the refine metric's)
  Located out{metric, rule.threshold.has_value(), {}};
  const std::vector<double> values = sample_means(file, metric, points.size());
  for (analysis::Interval& i : analysis::score_intervals(rule, points, values)) {
    if (!(i.score > 0)) continue;
    if (!out.threshold && !out.intervals.empty() && out.intervals.back().cell == i.cell &&
        out.intervals.back().axis == i.axis) {
      if (i.score > out.intervals.back().score) out.intervals.back() = std::move(i);
      continue;
    }
    out.intervals.push_back(std::move(i));
  }
  return out;
}

/// "scheduler = easy, platform = meng40": the kept axes' values of a cell ("" for none).
std::string cell_text(const AdaptiveDesign& d, const std::vector<double>& cell, bool json) {
  std::vector<std::string> parts;
  std::size_t k = 0;
  for (std::size_t a = 0; a < d.axes.size(); ++a) {
    if (d.rule.refined[a]) continue;
    const auto index = static_cast<std::size_t>(cell[k++]);
    for (std::size_t p = 0; p < d.axes[a].params.size(); ++p) {
      const std::string value = format_value(d.axes[a].values[p][index]);
      std::string part = json ? json_string(d.axes[a].params[p]) : d.axes[a].params[p];
      part += json ? ": " : " = ";
      part += json ? json_string(value) : value;
      parts.push_back(std::move(part));
    }
  }
  if (!json) return join(parts);
  std::string text = "{";  // (built by appending: GCC 12 warns falsely on "{" + s + "}")
  text += join(parts);
  text += '}';
  return text;
}

/// A coordinate or value for reading: 10 significant digits (0.6499999999999999 is 0.65).
std::string shown(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

/// The points' simulations: ok and failed.
std::pair<std::size_t, std::size_t> ok_failed(const std::vector<std::int8_t>& status) {
  std::size_t ok = 0, failed = 0;
  for (const std::int8_t s : status) ok += s == 1, failed += s == 2;
  return {ok, failed};
}

std::string counts_text(const std::vector<std::size_t>& per_round) {
  std::vector<std::string> out;
  for (const std::size_t n : per_round) out.push_back(std::to_string(n));
  return join(out);
}

void print_text(std::ostream& out, const std::string& file, const SweepSpec& spec,
                const analysis::AdaptivePoints& points, const std::vector<std::int8_t>& status,
                const std::vector<Located>& located) {
  const AdaptiveDesign& d = spec.design.adaptive;
  const auto [ok, failed] = ok_failed(status);
  out << file << ": adaptive design refining " << d.metric
      << (d.rule.threshold ? " where it crosses " + format_number(*d.rule.threshold)
                           : std::string(" where it changes most"))
      << "\n"
      << points.size() << " points (" << status.size() << " simulations): " << ok << " ok, " << failed << " failed; "
      << points.rounds() << " rounds, points per round " << counts_text(analysis::points_per_round(points)) << "\n";
  for (const Located& l : located) {
    out << "\n"
        << l.metric
        << (l.threshold ? ": crossings of " + format_number(*d.rule.threshold) : std::string(": largest change"))
        << "\n";
    if (l.intervals.empty()) out << "  none\n";
    for (const analysis::Interval& i : l.intervals) {
      const std::string cell = cell_text(d, i.cell, false);
      out << "  " << d.axes[i.axis].name << " in [" << shown(i.lo) << ", " << shown(i.hi) << "]: width "
          << shown(i.hi - i.lo) << (analysis::refinable(d.rule, i) ? " (above min_step: the budget ended first)" : "")
          << ", " << l.metric << " " << shown(i.metric_lo) << " -> " << shown(i.metric_hi)
          << (cell.empty() ? "" : "  (" + cell + ")") << "\n";
    }
  }
}

void print_json(std::ostream& out, const std::string& file, const SweepSpec& spec,
                const analysis::AdaptivePoints& points, const std::vector<std::int8_t>& status,
                const std::vector<Located>& located) {
  const AdaptiveDesign& d = spec.design.adaptive;
  const auto [ok, failed] = ok_failed(status);
  std::vector<std::string> axes, refined;
  for (std::size_t a = 0; a < d.axes.size(); ++a) {
    axes.push_back(json_string(d.axes[a].name));
    if (d.rule.refined[a]) refined.push_back(json_string(d.axes[a].name));
  }
  out << "{\"file\": " << json_string(file)
      << ", \"design\": {\"kind\": \"adaptive\", \"refine_metric\": " << json_string(d.metric)
      << ", \"refine_threshold\": " << (d.rule.threshold ? json_number(*d.rule.threshold) : "null") << ", \"axes\": ["
      << join(axes) << "], \"refined\": [" << join(refined) << "], \"samples\": " << points.size()
      << ", \"points\": " << status.size() << ", \"ok\": " << ok << ", \"failed\": " << failed
      << ", \"rounds\": " << points.rounds() << ", \"points_per_round\": [" << counts_text(analysis::points_per_round(points)) << "]}, \"metrics\": {";
  for (std::size_t m = 0; m < located.size(); ++m) {
    out << (m ? ", " : "") << json_string(located[m].metric) << ": {\"mode\": \""
        << (located[m].threshold ? "threshold" : "change") << "\", \"intervals\": [";
    for (std::size_t k = 0; k < located[m].intervals.size(); ++k) {
      const analysis::Interval& i = located[m].intervals[k];
      out << (k ? ", " : "") << "{\"cell\": " << cell_text(d, i.cell, true)
          << ", \"axis\": " << json_string(d.axes[i.axis].name) << ", \"lo\": " << json_number(i.lo)
          << ", \"hi\": " << json_number(i.hi) << ", \"metric_lo\": " << json_number(i.metric_lo)
          << ", \"metric_hi\": " << json_number(i.metric_hi)
          << ", \"resolved\": " << (analysis::refinable(d.rule, i) ? "false" : "true") << "}";
    }
    out << "]}";
  }
  out << "}}\n";
}

}  // namespace

int analyze_adaptive(const std::string& file, const SweepSpec& spec, const std::vector<std::int8_t>& status,
                     std::vector<std::string> metrics, bool json, std::ostream& out) {
  const AdaptiveDesign& d = spec.design.adaptive;
  const analysis::AdaptivePoints points = read_points(file, d.axes.size());
  if (status.size() != points.size() * static_cast<std::size_t>(spec.replicates)) {
    throw InputError("analyze: " + file + " holds " + std::to_string(status.size()) + " points where its design has " +
                     std::to_string(points.size()) + " samples x " + std::to_string(spec.replicates) + " replicates");
  }
  if (metrics.empty()) metrics = {d.metric};
  std::vector<Located> located;
  for (const std::string& m : metrics) located.push_back(locate(file, d, points, m));
  json ? print_json(out, file, spec, points, status, located) : print_text(out, file, spec, points, status, located);
  return kExitOk;
}

}  // namespace dcsweep::cli
