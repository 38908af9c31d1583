// `dcsweep analyze OUT.h5 [--metric M ...] [--json]`: the sensitivity indices of a result file's
// metrics, by its design (the spec stored in the file says which): Sobol first-order and total
// indices for a sobol design, Morris mu*, mu, sigma for morris, Spearman rank correlations for
// lhs, and each axis' main effect (share of the variance) for a grid. The estimators are the
// analysis library's (analysis/indices.hpp); this file reads the file and prints.
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <ostream>

#include "commands.hpp"
#include "dcsweep/analysis/indices.hpp"
#include "dcsweep/cli/cli.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sweep/grid.hpp"
#include "dcsweep/sweep/result_file.hpp"

namespace dcsweep::cli {
namespace {

using analysis::Estimate;

struct AnalyzeOptions {
  std::string file;
  std::vector<std::string> metrics;  ///< empty: every metric of the file
  bool json = false;
  analysis::Bootstrap bootstrap;
};

/// A result file as the estimators need it: the design (from the stored spec), the points'
/// status and the metrics' values per design row.
struct FileData {
  SweepSpec spec;
  std::vector<std::int8_t> status;
  std::size_t ok = 0, failed = 0, pending = 0;
  std::vector<MetricSpec> metrics;
  std::vector<std::vector<double>> values;  ///< per metric: per design row (sampled), or per flat point (grid)
  std::vector<double> noise;  ///< per metric: analysis::replicate_noise_share (NaN: one replicate)
};

/// One column of a metric's table: a value per factor (or axis).
struct Column {
  std::string key;     ///< JSON key
  std::string header;  ///< table header
  enum Kind { fraction, number, count } kind = fraction;
  bool interval = false;
  std::vector<Estimate> values;
};

struct MetricAnalysis {
  MetricSpec metric;
  std::size_t values = 0;
  double mean = NAN, sd = NAN;
  double noise = NAN;  ///< the noise floor: FileData::noise
  std::string note;
  std::vector<Column> columns;
  std::vector<std::pair<std::string, Estimate>> pairs;  ///< second-order indices "a:b"
};

/// The mean of each design row over its replicates that have a value (NaN when none has).
std::vector<double> row_means(const std::vector<double>& flat, std::size_t replicates) {
  std::vector<double> out(flat.size() / replicates, NAN);
  for (std::size_t row = 0; row < out.size(); ++row) {
    double sum = 0, n = 0;
    for (std::size_t r = 0; r < replicates; ++r) {
      const double v = flat[row * replicates + r];
      if (std::isfinite(v)) sum += v, n += 1;
    }
    if (n > 0) out[row] = sum / n;
  }
  return out;
}

std::vector<std::string> chosen_metrics(const std::vector<MetricSpec>& in_file, const AnalyzeOptions& options) {
  std::vector<std::string> names;
  for (const MetricSpec& m : in_file) names.push_back(m.name);
  if (options.metrics.empty()) return names;
  for (const std::string& asked : options.metrics) {
    if (std::find(names.begin(), names.end(), asked) != names.end()) continue;
    const std::string hint = closest_name(asked, names);
    throw InputError("analyze: " + options.file + " has no metric '" + asked + "'" +
                     (hint.empty() ? "" : " (did you mean '" + hint + "'?)") + "; its metrics: " + join(names));
  }
  return options.metrics;
}

FileData load(const AnalyzeOptions& options) {
  FileData data;
  PointsTable table;
  std::vector<MetricSpec> in_file;
  try {
    table = read_points_table(options.file);
    in_file = metrics_in_file(options.file, ResultLayout::every());
  } catch (const std::runtime_error& e) {
    throw InputError(std::string("analyze: ") + e.what());
  }
  try {
    data.spec = parse_spec(table.spec_text, options.file + " (its spec)", simulation_catalog());
  } catch (const InputError& e) {
    throw InputError("analyze: the spec stored in " + options.file + " does not parse: " + e.what());
  }
  data.status = table.status;
  if (data.spec.design.kind == DesignKind::adaptive) {  // (its points are read by analyze_adaptive)
    for (const std::string& name : chosen_metrics(in_file, options)) data.metrics.push_back({name});
    return data;
  }
  if (data.status.size() != data.spec.point_count()) {
    throw InputError("analyze: " + options.file + " holds " + std::to_string(data.status.size()) +
                     " points where its spec has " + std::to_string(data.spec.point_count()));
  }
  for (const std::int8_t s : data.status) (s == 1 ? data.ok : s == 2 ? data.failed : data.pending) += 1;
  const auto replicates = static_cast<std::size_t>(data.spec.replicates);
  for (const std::string& name : chosen_metrics(in_file, options)) {
    data.metrics.push_back(*std::find_if(in_file.begin(), in_file.end(), [&](const MetricSpec& m) { return m.name == name; }));
    std::vector<double> flat = read_metric_values(options.file, name);
    data.noise.push_back(analysis::replicate_noise_share(flat, replicates, data.spec.design.sampled()));
    data.values.push_back(data.spec.design.sampled() ? row_means(flat, replicates) : std::move(flat));
  }
  return data;
}

std::vector<std::string> factor_names(const SweepSpec& spec) {
  std::vector<std::string> out;
  if (spec.design.sampled()) {
    for (const Factor& f : spec.design.factors) out.push_back(f.name);
  } else {
    for (const Axis& a : spec.axes) out.push_back(a.name);
  }
  return out;
}

/// Mean and standard deviation of the values present.
void describe(const std::vector<double>& y, MetricAnalysis& a) {
  double sum = 0, squares = 0, n = 0;
  for (const double v : y) {
    if (std::isfinite(v)) sum += v, n += 1;
  }
  a.values = static_cast<std::size_t>(n);
  if (n == 0) return;
  a.mean = sum / n;
  for (const double v : y) {
    if (std::isfinite(v)) squares += (v - a.mean) * (v - a.mean);
  }
  a.sd = std::sqrt(squares / n);
}

std::vector<Estimate> plain(const std::vector<double>& values) {
  std::vector<Estimate> out;
  for (const double v : values) out.push_back({v});
  return out;
}

std::vector<Estimate> counts(const std::vector<std::size_t>& values) {
  std::vector<Estimate> out;
  for (const std::size_t v : values) out.push_back({static_cast<double>(v)});
  return out;
}

std::vector<MetricAnalysis> sobol(const FileData& data, const AnalyzeOptions& options) {
  const Design& d = data.spec.design;
  const std::vector<analysis::SobolIndices> all =
      analysis::sobol_indices(data.values, d.factors.size(), d.second_order, options.bootstrap);
  const std::vector<std::string> names = factor_names(data.spec);
  std::vector<MetricAnalysis> out;
  for (std::size_t m = 0; m < all.size(); ++m) {
    const analysis::SobolIndices& s = all[m];
    MetricAnalysis a{data.metrics[m]};
    describe(data.values[m], a);
    std::size_t fewest = s.base_rows;
    for (const std::size_t used : s.rows_used) fewest = std::min(fewest, used);
    a.note = std::to_string(fewest) + " of " + std::to_string(s.base_rows) + " base rows complete for every factor";
    a.columns = {{"first_order", "S1", Column::fraction, true, s.first},
                 {"total", "ST", Column::fraction, true, s.total},
                 {"rows_used", "rows", Column::count, false, counts(s.rows_used)}};
    for (std::size_t i = 0; i < s.second.size(); ++i) {
      for (std::size_t l = i + 1; l < s.second.size(); ++l) a.pairs.push_back({names[i] + ":" + names[l], s.second[i][l]});
    }
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<MetricAnalysis> morris(const FileData& data, const AnalyzeOptions& options) {
  std::vector<MetricAnalysis> out;
  for (std::size_t m = 0; m < data.values.size(); ++m) {
    // Every metric resamples the same trajectories (as the Sobol indices share their base rows), so
    // a metric's interval does not depend on which others were asked for.
    const analysis::MorrisEffects e = analysis::morris_effects(data.values[m], data.spec.design.unit, options.bootstrap);
    MetricAnalysis a{data.metrics[m]};
    describe(data.values[m], a);
    a.note = "elementary effects per whole range of each factor, over " + std::to_string(e.trajectories) + " trajectories";
    a.columns = {{"mu_star", "mu*", Column::number, true, e.mu_star},
                 {"mu", "mu", Column::number, false, plain(e.mu)},
                 {"sigma", "sigma", Column::number, false, plain(e.sigma)},
                 {"effects", "effects", Column::count, false, counts(e.effects)}};
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<MetricAnalysis> lhs(const FileData& data) {
  const Design& d = data.spec.design;
  // Ranks of the factors' values: the unit coordinate orders a continuous factor's values; a
  // discrete factor's level is its rank.
  std::vector<std::vector<double>> x(d.factors.size());
  for (std::size_t f = 0; f < d.factors.size(); ++f) {
    for (std::size_t r = 0; r < d.unit.rows(); ++r) {
      const double u = d.unit.at(r, f);
      x[f].push_back(d.factors[f].discrete ? double(analysis::level_of(u, d.factors[f].levels.size())) : u);
    }
  }
  std::vector<MetricAnalysis> out;
  for (std::size_t m = 0; m < data.values.size(); ++m) {
    MetricAnalysis a{data.metrics[m]};
    describe(data.values[m], a);
    a.note = "Spearman rank correlation of each factor with the metric";
    a.columns = {{"rank_correlation", "rho", Column::fraction, false, plain(analysis::rank_correlations(data.values[m], x))}};
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<MetricAnalysis> grid(const FileData& data) {
  const Grid g(data.spec, simulation_catalog());
  std::vector<MetricAnalysis> out;
  for (std::size_t m = 0; m < data.values.size(); ++m) {
    const analysis::MainEffects e = analysis::main_effects(data.values[m], g.shape());
    MetricAnalysis a{data.metrics[m]};
    describe(data.values[m], a);
    double explained = 0;
    for (std::size_t d = 0; d + 1 < e.share.size(); ++d) explained += std::isfinite(e.share[d]) ? e.share[d] : 0;
    a.note = "share of the variance explained by each axis alone (the rest, " +
             format_number(std::round(std::max(0.0, 1 - explained) * 1000) / 1000) + ": interactions and replicates)";
    a.columns = {{"main_effect", "share", Column::fraction, false,
                  plain(std::vector<double>(e.share.begin(), e.share.end() - 1))}};
    out.push_back(std::move(a));
  }
  return out;
}

// ---- output ----

std::string cell(double v, Column::Kind kind) {
  if (!std::isfinite(v)) return "nan";
  char text[32];
  if (kind == Column::count) std::snprintf(text, sizeof text, "%.0f", v);
  else if (kind == Column::fraction) std::snprintf(text, sizeof text, "%.3f", v);
  else std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

std::string interval_text(const Estimate& e, Column::Kind kind) {
  if (!std::isfinite(e.low)) return "";
  std::string text = "[";
  text += cell(e.low, kind);
  text += ", ";
  text += cell(e.high, kind);
  text += ']';
  return text;
}

/// The width of a column's interval text: the longest interval, or the header.
std::size_t interval_width(const Column& c, const std::string& header) {
  std::size_t width = header.size();
  for (const Estimate& e : c.values) width = std::max(width, interval_text(e, c.kind).size());
  return width + 2;
}

void print_metric(std::ostream& out, const MetricAnalysis& a, const std::vector<std::string>& rows, double confidence) {
  out << "\n" << a.metric.name << (a.metric.unit.empty() ? "" : " [" + a.metric.unit + "]") << ": "
      << a.values << " values, mean " << cell(a.mean, Column::number) << ", sd " << cell(a.sd, Column::number)
      << "; " << a.note << "\n";
  if (std::isfinite(a.noise)) {
    out << "  noise floor " << cell(a.noise, Column::fraction)
        << ": the share of this variance the replicates' differences alone give (indices below it are noise)\n";
  }
  out << "  " << std::left << std::setw(26) << "";
  const std::string ci = std::to_string(static_cast<int>(std::round(confidence * 100))) + "% interval";
  for (const Column& c : a.columns) {
    out << std::right << std::setw(11) << c.header;
    if (c.interval) out << "  " << std::left << std::setw(static_cast<int>(interval_width(c, ci))) << ci;
  }
  out << "\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    out << "  " << std::left << std::setw(26) << rows[r];
    for (const Column& c : a.columns) {
      out << std::right << std::setw(11) << cell(c.values[r].value, c.kind);
      if (c.interval) {
        out << "  " << std::left << std::setw(static_cast<int>(interval_width(c, ci))) << interval_text(c.values[r], c.kind);
      }
    }
    out << "\n";
  }
  for (const auto& [pair, e] : a.pairs) {
    out << "  S2 " << std::left << std::setw(23) << pair << std::right << std::setw(11) << cell(e.value, Column::fraction)
        << "  " << interval_text(e, Column::fraction) << "\n";
  }
}

std::string design_text(const SweepSpec& spec) {
  const Design& d = spec.design;
  const std::string k = std::to_string(d.factors.size()) + " factors";
  switch (d.kind) {
    case DesignKind::sobol:
      return "sobol design, N = " + std::to_string(d.base_samples) + " base samples, " + k +
             "; S1 first order (Saltelli 2010), ST total (Jansen)" + (d.second_order ? ", S2 second order" : "");
    case DesignKind::morris:
      return "morris design, r = " + std::to_string(d.trajectories) + " trajectories, p = " + std::to_string(d.levels) +
             " levels, " + k;
    case DesignKind::lhs: return "lhs design, " + std::to_string(d.samples) + " samples, " + k;
    case DesignKind::grid:
    case DesignKind::adaptive: break;
  }
  return "grid of " + std::to_string(spec.axes.size()) + " axes";
}

/// What was not analysed and why (a metric with no value or no variation has no indices).
std::pair<std::vector<std::string>, std::vector<std::string>> unusable(const std::vector<MetricAnalysis>& all) {
  std::vector<std::string> no_values, constant;
  for (const MetricAnalysis& a : all) {
    if (a.values == 0) no_values.push_back(a.metric.name);
    else if (!(a.sd > 0)) constant.push_back(a.metric.name);
  }
  return {no_values, constant};
}

void print_table(std::ostream& out, const FileData& data, const std::vector<MetricAnalysis>& all,
                 const AnalyzeOptions& options) {
  out << options.file << ": " << design_text(data.spec) << "\n"
      << data.status.size() << " points: " << data.ok << " ok, " << data.failed << " failed, " << data.pending
      << " pending";
  if (data.failed + data.pending > 0) {
    out << " (their values are missing: "
        << (data.spec.design.kind == DesignKind::sobol ? "a base row counts for a factor only when its A, B and AB_i points have values"
            : data.spec.design.kind == DesignKind::morris ? "a step counts only when both its points have values"
                                                          : "the estimates use the points that have values")
        << ")";
  }
  if (data.spec.replicates > 1 && data.spec.design.sampled()) out << "; replicates averaged per sample";
  out << "\n";
  if (data.spec.design.sampled() && data.spec.design.kind != DesignKind::lhs && options.bootstrap.resamples > 0) {
    out << "intervals: percentile bootstrap, " << options.bootstrap.resamples << " resamples\n";
  }
  const std::vector<std::string> rows = factor_names(data.spec);
  for (const MetricAnalysis& a : all) {
    if (a.values > 0 && a.sd > 0) print_metric(out, a, rows, options.bootstrap.confidence);
  }
  const auto [no_values, constant] = unusable(all);
  if (!no_values.empty()) out << "\nno values (the metric does not apply, or every point failed): " << join(no_values) << "\n";
  if (!constant.empty()) out << "\nthe same at every point (no indices): " << join(constant) << "\n";
}

std::string json_estimate(const Estimate& e) {
  return "{\"value\": " + json_number(e.value) + ", \"low\": " + json_number(e.low) + ", \"high\": " +
         json_number(e.high) + "}";
}

void print_json_metric(std::ostream& out, const MetricAnalysis& a, const std::vector<std::string>& rows) {
  out << json_string(a.metric.name) << ": {\"units\": " << json_string(a.metric.unit) << ", \"values\": " << a.values
      << ", \"mean\": " << json_number(a.mean) << ", \"sd\": " << json_number(a.sd)
      << ", \"noise_floor\": " << json_number(a.noise) << ", \"note\": "
      << json_string(a.note);
  for (const Column& c : a.columns) {
    out << ", " << json_string(c.key) << ": {";
    for (std::size_t r = 0; r < rows.size(); ++r) {
      out << (r ? ", " : "") << json_string(rows[r]) << ": "
          << (c.interval ? json_estimate(c.values[r]) : json_number(c.values[r].value));
    }
    out << "}";
  }
  if (!a.pairs.empty()) {
    out << ", \"second_order\": {";
    for (std::size_t p = 0; p < a.pairs.size(); ++p) {
      out << (p ? ", " : "") << json_string(a.pairs[p].first) << ": " << json_estimate(a.pairs[p].second);
    }
    out << "}";
  }
  out << "}";
}

void print_json(std::ostream& out, const FileData& data, const std::vector<MetricAnalysis>& all,
                const AnalyzeOptions& options) {
  const Design& d = data.spec.design;
  const std::vector<std::string> rows = factor_names(data.spec);
  out << "{\"file\": " << json_string(options.file) << ", \"design\": {\"kind\": \"" << design_name(d.kind)
      << "\", \"factors\": [";
  for (std::size_t r = 0; r < rows.size(); ++r) out << (r ? ", " : "") << json_string(rows[r]);
  out << "], \"points\": " << data.status.size() << ", \"ok\": " << data.ok << ", \"failed\": " << data.failed
      << ", \"pending\": " << data.pending << ", \"replicates\": " << data.spec.replicates;
  if (d.kind == DesignKind::sobol) out << ", \"base_samples\": " << d.base_samples << ", \"second_order\": " << (d.second_order ? "true" : "false");
  if (d.kind == DesignKind::morris) out << ", \"trajectories\": " << d.trajectories << ", \"levels\": " << d.levels;
  if (d.kind == DesignKind::lhs) out << ", \"samples\": " << d.samples;
  out << "}, \"bootstrap\": {\"resamples\": " << options.bootstrap.resamples << ", \"confidence\": "
      << json_number(options.bootstrap.confidence) << "}, \"metrics\": {";
  for (std::size_t m = 0; m < all.size(); ++m) {
    out << (m ? ", " : "");
    print_json_metric(out, all[m], rows);
  }
  out << "}}\n";
}

constexpr const char* kUsage =
    "usage: dcsweep analyze OUT.h5 [--metric M ...] [--json] [--bootstrap B] [--confidence C]\n"
    "Sensitivity indices of a result file's metrics, by its design: Sobol first-order and total\n"
    "indices with bootstrap intervals (sobol), Morris mu*, mu, sigma (morris), rank correlations\n"
    "(lhs), each axis' share of the variance (grid). Failed points are counted and left out where\n"
    "the estimator allows it. An adaptive design: its rounds, and where the refine metric crosses\n"
    "its threshold or changes most (--metric: those metrics' largest changes instead).\n"
    "Guide: docs/user-guide.md#analysis-and-plots-dcsweep-analyze-dcsweep-plot, docs/adaptive.md\n\n";

AnalyzeOptions parse_analyze_options(std::span<const std::string> args, std::ostream& out, bool& help) {
  po::options_description options("Options");
  options.add_options()("metric,m", po::value<std::vector<std::string>>()->multitoken()->value_name("M ..."),
                        "metrics to analyse (default: every metric of the file)")(
      "json", po::bool_switch(), "one JSON object on stdout")(
      "bootstrap", po::value<std::size_t>()->default_value(1000)->value_name("B"),
      "bootstrap resamples of the intervals (0: none)")(
      "confidence", po::value<double>()->default_value(0.95, "0.95")->value_name("C"), "the intervals' confidence level")(
      "help,h", "this help");
  const po::variables_map vm = parse_options(args, options, "analyze", true);
  help = vm.count("help") > 0;
  if (help) {
    out << kUsage << options;
    return {};
  }
  const std::vector<std::string> files = positionals(vm);
  if (files.size() != 1) throw InputError("analyze: expected one OUT.h5 (usage: dcsweep analyze OUT.h5 [--metric M ...])");
  AnalyzeOptions o{files.front()};
  if (vm.count("metric")) o.metrics = vm["metric"].as<std::vector<std::string>>();
  o.json = vm["json"].as<bool>();
  o.bootstrap.resamples = vm["bootstrap"].as<std::size_t>();
  o.bootstrap.confidence = vm["confidence"].as<double>();
  if (o.bootstrap.resamples > 100000) throw InputError("analyze: --bootstrap must be at most 100000");
  if (!(o.bootstrap.confidence > 0 && o.bootstrap.confidence < 1)) throw InputError("analyze: --confidence must be in (0, 1)");
  return o;
}

}  // namespace

int analyze_command(std::span<const std::string> args, std::ostream& out) {
  bool help = false;
  AnalyzeOptions options = parse_analyze_options(args, out, help);
  if (help) return kExitOk;
  const FileData data = load(options);
  if (data.spec.design.kind == DesignKind::adaptive) {
    std::vector<std::string> names;
    if (!options.metrics.empty()) {
      for (const MetricSpec& m : data.metrics) names.push_back(m.name);
    }
    return analyze_adaptive(options.file, data.spec, data.status, names, options.json, out);
  }
  options.bootstrap.seed = data.spec.design.sampled() ? data.spec.design.seed : data.spec.seed;
  std::vector<MetricAnalysis> all;
  switch (data.spec.design.kind) {
    case DesignKind::sobol: all = sobol(data, options); break;
    case DesignKind::morris: all = morris(data, options); break;
    case DesignKind::lhs: all = lhs(data); break;
    case DesignKind::grid: all = grid(data); break;
    case DesignKind::adaptive: break;
  }
  for (std::size_t m = 0; m < all.size(); ++m) all[m].noise = data.noise[m];
  if (options.bootstrap.resamples == 0) {  // no intervals: no empty columns for them
    for (MetricAnalysis& a : all) {
      for (Column& c : a.columns) c.interval = c.interval && options.json;
    }
  }
  options.json ? print_json(out, data, all, options) : print_table(out, data, all, options);
  return kExitOk;
}

}  // namespace dcsweep::cli
