#include "dcsweep/sweep/point.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "dcsweep/core/text.hpp"
#include "dcsweep/sim/job_events.hpp"
#include "dcsweep/sim/run.hpp"
#include "dcsweep/sweep/cost.hpp"

namespace dcsweep {
namespace {

template <class T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void put_doubles(std::string& out, const std::vector<double>& values) {
  put(out, static_cast<std::uint64_t>(values.size()));
  out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
}

template <class T>
T take(std::string_view& in) {
  if (in.size() < sizeof(T)) throw std::runtime_error("truncated point result");
  T value;
  std::memcpy(&value, in.data(), sizeof value);
  in.remove_prefix(sizeof value);
  return value;
}

std::vector<double> take_doubles(std::string_view& in) {
  const auto n = take<std::uint64_t>(in);
  if (n > in.size() / sizeof(double)) throw std::runtime_error("truncated point result");
  std::vector<double> values(n);
  if (n > 0) std::memcpy(values.data(), in.data(), n * sizeof(double));
  in.remove_prefix(n * sizeof(double));
  return values;
}

}  // namespace

ResultLayout ResultLayout::of_simulation() { return {simulation_metric_specs(), simulation_series_specs()}; }

ResultLayout ResultLayout::of_grid(const Grid& grid) {
  if (grid.size() > 0 && is_ratebased(grid.params(0))) return {ratebased_metric_specs(), {}};
  return of_simulation();
}

ResultLayout ResultLayout::every() {
  ResultLayout all = of_simulation();
  for (MetricSpec& m : ratebased_metric_specs()) {
    const bool known = std::any_of(all.metrics.begin(), all.metrics.end(), [&](const MetricSpec& k) { return k.name == m.name; });
    if (!known) all.metrics.push_back(std::move(m));
  }
  return all;
}

namespace {

/// DIR/point-NNNNNN.csv, written whole under another name first: a killed run leaves no half file.
void write_point_events(const std::string& dir, std::uint64_t flat, const JobEventLog& events) {
  char name[32];
  std::snprintf(name, sizeof name, "point-%06llu.csv", static_cast<unsigned long long>(flat));
  const std::filesystem::path path = std::filesystem::path(dir) / name;
  std::filesystem::path partial = path;
  partial += ".partial";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << JobEventLog::kHeader << events.rows();
    if (!out.flush()) throw SimulationError(partial.string() + ": cannot write the point's job events");
  }
  std::filesystem::rename(partial, path, ec);
  if (ec) throw SimulationError(path.string() + ": cannot write the point's job events: " + ec.message());
}

Report simulation_report(const Grid& grid, std::uint64_t flat, const ParamSet& params, const TraceLoader& loader,
                         const HeatProvider& heat, const WallLimit& limit) {
  const Scenario s = make_scenario(params, grid.stream_point(flat), grid.replicate(flat), loader);
  const std::string& events_dir = grid.spec().job_events_dir;
  if (events_dir.empty()) return run_simulation(s, heat, false, {}, limit).report;
  const auto power = make_node_power(params, s.platform, s.key);
  JobEventLog events(s.platform, power.get());
  SimObserver* extra[] = {&events};
  Report report = run_simulation(s, heat, false, extra, limit).report;
  write_point_events(events_dir, flat, events);
  return report;
}

Report point_report(const Grid& grid, std::uint64_t flat, const TraceLoader& loader, const HeatProvider& heat,
                    RatebasedCache* rate) {
  const WallLimit limit{grid.spec().point_time_limit_s};  // from here: the scenario's build counts
  const ParamSet params = grid.params(flat);
  if (!is_ratebased(params)) return simulation_report(grid, flat, params, loader, heat, limit);
  RatebasedCache own;
  const StreamKey key = point_stream_key(params, grid.stream_point(flat), grid.replicate(flat));
  Report report = solve_ratebased_epoch(params, key, heat, rate ? *rate : own).report;
  // A rate-based epoch is one solve, limited by its own settings (ga_time_limit_s, nlp_time_limit_s):
  // the point's limit is held against it when it ends.
  if (limit.reached()) {
    throw SimulationError("time limit of " + format_number(limit.limit_s) + " s reached (the rate-based solve ended " +
                          "after it)");
  }
  return report;
}

}  // namespace

PointResult evaluate_point(const Grid& grid, std::uint64_t flat, const ResultLayout& layout,
                           const TraceLoader& loader, const HeatProvider& heat, std::int32_t rank,
                           RatebasedCache* rate) {
  PointResult r;
  r.flat = flat;
  r.rank = rank;
  r.metrics.assign(layout.metrics.size(), NAN);
  r.series.resize(layout.series.size());
  auto start = std::chrono::steady_clock::now();
  try {
    // The trace and the room's heat distribution are the rank's, shared by its points (and priced
    // apart by the estimate): read and built before the point's clock and its time limit start.
    prepare_shared_inputs(grid.params(flat), loader, heat);
    start = std::chrono::steady_clock::now();
    const Report report = point_report(grid, flat, loader, heat, rate);
    for (std::size_t i = 0; i < layout.metrics.size(); ++i) r.metrics[i] = report.value(layout.metrics[i].name);
    for (const Series& s : report.series) {
      for (std::size_t i = 0; i < layout.series.size(); ++i) {
        if (layout.series[i].name == s.name) r.series[i] = {s.times_s, s.values};
      }
    }
    r.status = PointStatus::ok;
  } catch (const std::exception& e) {
    r = PointResult{flat, PointStatus::failed, e.what(), 0, rank, std::vector<double>(layout.metrics.size(), NAN),
                    std::vector<SeriesData>(layout.series.size())};
  }
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

void encode(const PointResult& r, std::string& out) {
  put(out, r.flat);
  put(out, static_cast<std::int8_t>(r.status));
  put(out, r.wall_s);
  put(out, r.rank);
  put(out, static_cast<std::uint64_t>(r.error.size()));
  out += r.error;
  put_doubles(out, r.metrics);
  put(out, static_cast<std::uint64_t>(r.series.size()));
  for (const SeriesData& s : r.series) {
    put_doubles(out, s.times_s);
    put_doubles(out, s.values);
  }
}

PointResult decode(std::string_view& in) {
  PointResult r;
  r.flat = take<std::uint64_t>(in);
  const auto status = take<std::int8_t>(in);
  if (status < 0 || status > 2) throw std::runtime_error("bad point status in a result record");
  r.status = static_cast<PointStatus>(status);
  r.wall_s = take<double>(in);
  r.rank = take<std::int32_t>(in);
  const auto error_size = take<std::uint64_t>(in);
  if (error_size > in.size()) throw std::runtime_error("truncated point result");
  r.error = std::string(in.substr(0, error_size));
  in.remove_prefix(error_size);
  r.metrics = take_doubles(in);
  const auto series = take<std::uint64_t>(in);
  if (series > in.size()) throw std::runtime_error("truncated point result");
  r.series.resize(series);
  for (SeriesData& s : r.series) {
    s.times_s = take_doubles(in);
    s.values = take_doubles(in);
    if (s.times_s.size() != s.values.size()) throw std::runtime_error("series times and values differ in length");
  }
  return r;
}

}  // namespace dcsweep
