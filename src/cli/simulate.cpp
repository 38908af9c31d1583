#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <memory>
#include <optional>
#include <ostream>

#include "commands.hpp"
#include "dcsweep/cli/cli.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/core/int_runs.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/job_events.hpp"
#include "dcsweep/sim/ratebased.hpp"
#include "dcsweep/sim/run.hpp"
#include "dcsweep/sweep/inputs.hpp"
#include "dcsweep/sweep/read_check.hpp"
#include "dcsweep/workload/workload.hpp"
#include "dcsweep/sim/scenario.hpp"

namespace dcsweep::cli {
namespace {

void print_json(std::ostream& out, const Report& report) {
  out << "{\"status\": \"ok\"";
  for (const Metric& m : report.metrics) out << ", " << json_string(m.name) << ": " << json_number(m.value);
  out << "}\n";
}

void print_table(std::ostream& out, const Report& report) {
  for (const Metric& m : report.metrics) {
    out << std::left << std::setw(28) << m.name << ' ' << format_number(m.value);
    if (!m.unit.empty()) out << ' ' << m.unit;
    out << '\n';
  }
}

/// An output file is opened before simulating, so an unwritable path costs nothing.
std::unique_ptr<std::ofstream> open_output(const po::variables_map& vm, const std::string& option) {
  if (!vm.count(option)) return nullptr;
  const std::string path = vm[option].as<std::string>();
  auto file = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
  if (!*file) throw InputError(path + ": cannot write the --" + option + " file");
  return file;
}

void write_events(std::ostream& out, const JobEventLog& log) {
  out << JobEventLog::kHeader << log.rows();
  out.flush();
  if (!out) throw InputError("cannot write the --job-events-out file (disk full?)");
}

void write_jobs(std::ostream& out, const Scenario& s, const SimulationResult& result) {
  std::string buffer = "id,submit_s,start_s,end_s,nodes,requested_s,runtime_s,node_ids,comm_cost\n";
  for (std::size_t i = 0; i < result.jobs.size(); ++i) {
    const Job& j = s.workload.jobs[i];
    const JobOutcome& o = result.jobs[i];
    buffer += std::to_string(j.id) + ',' + format_number(j.submit_s) + ',' + format_number(o.start_s) + ',' +
              format_number(o.end_s) + ',' + std::to_string(j.nodes) + ',' + format_number(j.estimate_s) + ',' +
              format_number(j.runtime_s) + ',';
    buffer += runs_text(result.nodes[i]);
    buffer += ',';
    if (!std::isnan(o.comm_cost)) buffer += format_number(o.comm_cost);
    buffer += '\n';
    if (buffer.size() > (1 << 20)) {
      out << buffer;
      buffer.clear();
    }
  }
  out << buffer;
  out.flush();
  if (!out) throw InputError("cannot write the --jobs-out file (disk full?)");
}

void note_rejections(std::ostream& err, const Scenario& s) {
  const RejectedJobs& r = s.workload.rejected;
  if (r.total() == 0) return;
  err << "dcsweep: note: " << s.workload.source << ": " << r.total() << " of "
      << r.total() + std::int64_t(s.workload.jobs.size()) << " jobs not simulated ("
      << r.breakdown(s.platform.node_count) << "), counted in jobs_rejected; --strict makes this an error\n";
}

/// model = ratebased: one epoch of [P3]'s problem; its metrics as a simulation's.
int simulate_ratebased(const ParamSet& params, bool json, std::ostream& out, std::ostream& err) {
  RatebasedCache cache;
  Report report;
  try {
    report = solve_ratebased_epoch(params, StreamKey{static_cast<std::uint64_t>(params.integer("seed")), 0, 0},
                                   caching_heat_provider(), cache)
                 .report;
  } catch (const SimulationError& e) {
    if (json) out << "{\"status\": \"failed\", \"error\": " << json_string(e.what()) << "}\n";
    err << "dcsweep: simulation failed: " << e.what() << "\n";
    return kExitFailed;
  }
  json ? print_json(out, report) : print_table(out, report);
  return kExitOk;
}

}  // namespace

int simulate_command(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  const ParamCatalog& catalog = simulation_catalog();
  po::options_description options("Output");
  options.add_options()("json", po::bool_switch(), "metrics as one JSON object on stdout")(
      "jobs-out", po::value<std::string>()->value_name("FILE.csv"), "one CSV row per simulated job")(
      "job-events-out", po::value<std::string>()->value_name("FILE.csv"),
      "one CSV row per job start, resize and end: time_s,event,id,nodes,node_ids,cpu_cap_w,power_w")(
      "point-time-limit-s", po::value<double>()->value_name("S"),
      "stop the simulation after S wall seconds (a failure, exit 1; 0: no limit)")(
      "help,h", "this help");
  options.add(param_options(catalog));
  const po::variables_map vm = parse_options(args, options, "simulate");
  if (vm.count("help")) {
    out << "usage: dcsweep simulate [--name value ...] [--json] [--jobs-out FILE.csv] [--job-events-out FILE.csv]\n"
           "Guide: docs/user-guide.md#simulation-options-dcsweep-simulate; what the parameters model:\n"
           "docs/models.md; the policies' (scheduler, allocator, ...): docs/policies.md\n\n"
        << options;
    return kExitOk;
  }
  ParamSet params(catalog);
  apply_params(vm, params);
  check_params_read(params);
  if (is_ratebased(params)) {
    for (const char* option : {"jobs-out", "job-events-out"}) {
      if (vm.count(option)) throw InputError("--" + std::string(option) + ": model 'ratebased' solves an epoch; it has no jobs");
    }
    return simulate_ratebased(params, vm["json"].as<bool>(), out, err);
  }
  auto jobs_out = open_output(vm, "jobs-out");
  auto events_out = open_output(vm, "job-events-out");
  std::shared_ptr<const SwfTrace> trace;  // kept for the selection's note
  const Scenario scenario = make_scenario(params, 0, 0, [&](const std::string& path) {
    return trace = std::make_shared<const SwfTrace>(read_swf(path));
  });
  if (trace) {
    if (const std::string note = first_job_note(*trace, params.integer("first_job")); !note.empty()) {
      err << "dcsweep: note: " << scenario.workload.source << ": " << note << "\n";
    }
  }
  note_rejections(err, scenario);
  // The room's D is built (and its warnings shown) before simulating; files may be HDF5.
  HeatDistributionBuild room;
  if (thermal_enabled(scenario) && make_node_power(params, scenario.platform, scenario.key)) {
    room = build_heat_distribution(scenario.platform, params, read_matrix_any);
    for (const std::string& warning : room.warnings) err << "dcsweep: warning: " << warning << "\n";
  }
  const HeatProvider heat = [&room](const Platform&, const ParamSet&) { return room; };
  const bool json = vm["json"].as<bool>();
  WallLimit limit;
  if (vm.count("point-time-limit-s")) {
    limit.limit_s = vm["point-time-limit-s"].as<double>();
    if (!(limit.limit_s >= 0) || !std::isfinite(limit.limit_s)) {
      throw InputError("--point-time-limit-s: expected a number of seconds >= 0 (0: no limit), not " +
                       format_number(limit.limit_s));
    }
  }
  SimulationResult result;
  std::optional<JobEventLog> events;
  std::vector<SimObserver*> extra;
  if (events_out) {
    const auto power = make_node_power(params, scenario.platform, scenario.key);
    extra.push_back(&events.emplace(scenario.platform, power.get()));
  }
  try {
    result = run_simulation(scenario, heat, jobs_out != nullptr, extra, limit);
  } catch (const SimulationError& e) {
    if (json) out << "{\"status\": \"failed\", \"error\": " << json_string(e.what()) << "}\n";
    err << "dcsweep: simulation failed: " << e.what() << "\n";
    return kExitFailed;
  }
  for (const std::string& warning : result.report.warnings) err << "dcsweep: warning: " << warning << "\n";
  if (jobs_out) write_jobs(*jobs_out, scenario, result);
  if (events_out) write_events(*events_out, *events);
  json ? print_json(out, result.report) : print_table(out, result.report);
  return kExitOk;
}

}  // namespace dcsweep::cli
