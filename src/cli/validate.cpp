#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <numeric>
#include <set>
#include <ostream>

#include "commands.hpp"
#include "dcsweep/cli/cli.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/ratebased.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "dcsweep/workload/workload.hpp"
#include "dcsweep/sweep/cost.hpp"
#include "dcsweep/sweep/inputs.hpp"
#include "dcsweep/sweep/point.hpp"

namespace dcsweep::cli {
namespace {

/// "[a, b, c]", or "[a, b, c, ..., y, z] (N values)" for long axes.
std::string preview(const std::vector<ParamValue>& values) {
  std::vector<std::string> shown;
  const std::size_t n = values.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (n > 6 && i == 3) {
      shown.push_back("...");
      i = n - 3;
    }
    shown.push_back(format_value(values[i]));
  }
  std::string text = "[";  // (built by appending: GCC 12 warns falsely on "[" + s + "]")
  text += join(shown);
  text += ']';
  return text;
}

void print_axes(std::ostream& out, const SweepSpec& spec) {
  const bool adaptive = spec.design.kind == DesignKind::adaptive;
  out << (adaptive ? "axes (their values are the first round; * refined):\n" : "axes (row-major, replicate last):\n");
  const std::vector<Axis>& axes = adaptive ? spec.design.adaptive.axes : spec.axes;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const Axis& axis = axes[a];
    if (adaptive) out << (spec.design.adaptive.rule.refined[a] ? "* " : "  ");
    out << "  " << std::left << std::setw(20) << axis.name << std::right << std::setw(8) << axis.size() << "  ";
    for (std::size_t k = 0; k < axis.params.size(); ++k) {
      if (axis.params.size() > 1) out << (k ? ", " : "") << axis.params[k] << "=";
      out << preview(axis.values[k]);
    }
    out << "\n";
  }
  out << "  " << std::left << std::setw(20) << "replicate" << std::right << std::setw(8) << spec.replicates << "\n";
}

/// "N = 1024 base samples x (5 factors + 2) = 7168 samples": how a sampled design's size arises.
std::string design_size(const Design& d) {
  const std::string k = std::to_string(d.factors.size()) + (d.factors.size() == 1 ? " factor" : " factors");
  const std::string rows = std::to_string(d.rows()) + " samples";
  switch (d.kind) {
    case DesignKind::lhs: return rows + " of " + k + " (Latin hypercube: one per stratum of every factor)";
    case DesignKind::sobol:
      return "Saltelli's scheme for first-order" + std::string(d.second_order ? ", second-order" : "") +
             " and total indices, N = " + std::to_string(d.base_samples) + " base samples x (" +
             (d.second_order ? "2 x " : "") + k + " + 2) = " + rows;
    case DesignKind::morris:
      return "elementary effects, r = " + std::to_string(d.trajectories) + " trajectories x (" + k + " + 1) = " +
             rows + ", p = " + std::to_string(d.levels) + " levels";
    case DesignKind::grid:
    case DesignKind::adaptive: break;
  }
  return rows;
}

void print_design(std::ostream& out, const SweepSpec& spec) {
  const Design& d = spec.design;
  out << "design: " << design_name(d.kind) << ", " << design_size(d) << ", seed " << d.seed << "\n";
  out << "factors (the sample dimension's coordinates):\n";
  for (const Factor& f : d.factors) out << "  " << std::left << std::setw(26) << f.name << f.text() << "\n";
  out << "  " << std::left << std::setw(26) << "replicate" << spec.replicates << "\n";
}

/// What an adaptive design refines, and how far it may go.
void print_adaptive(std::ostream& out, const SweepSpec& spec) {
  const AdaptiveDesign& a = spec.design.adaptive;
  out << "design: adaptive, refining " << a.metric;
  if (a.rule.threshold) out << " where it crosses " << format_number(*a.rule.threshold);
  else out << " where its " << (a.rule.change == analysis::ChangeScale::relative ? "relative" : "absolute") << " change is largest";
  out << "; first round " << a.points.size() << " points, at most " << a.rule.max_points << " in all; min_step ";
  std::vector<std::string> steps;
  for (std::size_t i = 0; i < a.axes.size(); ++i) {
    if (a.rule.refined[i]) steps.push_back(a.axes[i].name + " " + format_number(a.rule.min_step[i]));
  }
  out << join(steps) << "; intervals cut in " << a.rule.splits << " per round\n";
  print_axes(out, spec);
}

std::string bytes_text(double bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  std::size_t u = 0;
  for (; u + 1 < std::size(units) && bytes >= 1000; ++u) bytes /= 1000;
  char text[32];
  std::snprintf(text, sizeof text, bytes < 10 ? "%.1f %s" : "%.0f %s", bytes, units[u]);
  return text;
}

/// A note for each (trace, first_job) of the grid where first_job selects the same jobs as 0
/// (below the trace's first id: a record number taken for an id).
void print_first_job_notes(std::ostream& out, const Grid& grid, const TraceLoader& traces) {
  std::set<std::pair<std::string, std::int64_t>> seen;
  for (std::uint64_t i = 0; i < grid.size(); ++i) {
    const ParamSet p = grid.params(i);
    if (is_ratebased(p) || p.text("workload") != "trace") continue;
    const auto [it, added] = seen.emplace(p.text("trace"), p.integer("first_job"));
    if (!added) continue;
    if (const std::string note = first_job_note(*traces(it->first), it->second); !note.empty()) {
      out << "note: " << it->first << ": " << note << "\n";
    }
  }
}

}  // namespace

int validate_command(std::span<const std::string> args, std::ostream& out) {
  if (args.empty()) throw InputError("validate: missing SPEC.toml (usage: dcsweep validate SPEC.toml)");
  if (args.front() == "--help" || args.front() == "-h") {
    out << "usage: dcsweep validate SPEC.toml\nChecks a sweep spec; prints its axes, point count and cost estimate.\n"
           "Guide: docs/user-guide.md#sweep-specs (designs: #designs-sampling-instead-of-crossing)\n";
    return kExitOk;
  }
  if (args.size() > 1) throw InputError("validate: unexpected argument '" + args[1] + "'");
  const SweepSpec spec = read_spec(args.front(), simulation_catalog());
  const Grid grid(spec, simulation_catalog());
  const TraceLoader traces = caching_trace_loader();
  const std::vector<double> costs = estimate_costs(grid, traces, {}, 0, 1, caching_heat_provider());
  const RoomBuilds rooms = estimate_room_builds(grid);
  const double total = std::accumulate(costs.begin(), costs.end(), 0.0);
  const double longest = costs.empty() ? 0.0 : *std::max_element(costs.begin(), costs.end());
  out << "spec: " << spec.path;
  if (!spec.name.empty()) out << " (" << spec.name << ")";
  out << ", seed " << spec.seed << "\n";
  if (spec.design.kind == DesignKind::adaptive) print_adaptive(out, spec);
  else spec.design.sampled() ? print_design(out, spec) : print_axes(out, spec);
  out << "points: " << grid.size() << (spec.design.kind == DesignKind::adaptive ? " in the first round (estimates below are for it)" : "") << "\n"
      << "estimated cost: " << format_number(std::round(total * 100) / 100) << " core-seconds (longest point "
      << format_number(std::round(longest * 1000) / 1000) << " s), plus reading each trace once per rank";
  if (rooms.rooms > 0) {
    out << " and building each room's heat distribution once on every rank that runs its points ("
        << rooms.rooms << (rooms.rooms == 1 ? " room, " : " rooms, ") << format_number(std::round(rooms.seconds * 100) / 100)
        << " s for one build of each)";
  }
  out << "\n";
  if (spec.design.kind == DesignKind::adaptive && !costs.empty()) {
    // Later rounds' points lie between the first round's: priced at the first round's mean and
    // longest, the whole budget gives the plan's range (a run that resolves early costs less).
    const auto budget = double(spec.design.adaptive.rule.max_points);
    out << "all rounds: at most " << format_number(budget) << " points, about "
        << format_number(std::round(total / double(costs.size()) * budget * 100) / 100)
        << " core-seconds at the first round's mean cost per point (" << format_number(std::round(longest * budget * 100) / 100)
        << " at its longest)\n";
  }
  if (spec.point_time_limit_s > 0) {
    out << "point time limit: " << format_number(spec.point_time_limit_s)
        << " s (a point past it is failed; --resume --retry-failed computes it again)\n";
  }
  print_first_job_notes(out, grid, traces);
  if (!spec.job_events_dir.empty()) out << "job events: " << spec.job_events_dir << "/point-NNNNNN.csv per point\n";
  const ResultLayout layout = ResultLayout::of_grid(grid);
  const OutputEstimate output =
      estimate_output(grid, caching_trace_loader(), layout.metrics.size(), layout.series.size());
  out << "estimated output: " << bytes_text(output.result_bytes) << " result file (uncompressed), "
      << bytes_text(output.journal_bytes) << " journal while it runs; " << format_number(std::round(output.series_samples))
      << " series samples\n";
  if (output.journal_bytes > 1e9) {
    out << "note: the series are most of that volume; series_interval_s = 0 records none, a larger interval fewer\n";
  }
  return kExitOk;
}

}  // namespace dcsweep::cli
