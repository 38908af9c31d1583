#include "dcsweep/cli/cli.hpp"

#include <ostream>

#include "commands.hpp"
#include "dcsweep/core/error.hpp"

namespace dcsweep {
namespace {

constexpr const char* kUsage =
    "usage: dcsweep COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  simulate [options]   one simulation; prints its metrics (dcsweep simulate --help)\n"
    "  run SPEC.toml -o OUT.h5 [--resume]\n"
    "                       a whole sweep into one HDF5 file; under mpirun/srun the ranks share it\n"
    "  validate SPEC.toml   checks a sweep spec; prints its axes, point count and cost estimate\n"
    "  thermal [options]    evaluates the thermal and cooling model for one power state (JSON)\n"
    "  platform NAME        describes a platform; --nodes-out, --matrices-out write its nodes and matrices\n"
    "  plan RESULT.h5 [--ranks P ...]\n"
    "                       predicts a sweep's makespan on P ranks from a result file's point times\n"
    "  analyze RESULT.h5 [--metric M ...] [--json]\n"
    "                       sensitivity indices of a result file's metrics (Sobol, Morris, main effects)\n"
    "  plot RESULT.h5 METRIC --x AXIS [--y AXIS] [--facet AXIS] [--select AXIS=VALUE ...] -o FILE\n"
    "                       a heatmap, lines, a series or index bars, as .png, .svg or .pdf\n"
    "  list                 every registered policy of every family, with its parameters\n"
    "\n"
    "  dcsweep --help, dcsweep COMMAND --help, dcsweep --version\n"
    "\n"
    "Guide: docs/user-guide.md (every command); docs/README.md lists the other pages (models,\n"
    "policies, reproduction, performance, development).\n";

int dispatch(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << kUsage;
    return kExitBadInput;
  }
  const std::string& command = args.front();
  const auto rest = args.subspan(1);
  if (command == "--help" || command == "-h" || command == "help") {
    out << kUsage;
    return kExitOk;
  }
  if (command == "--version") {
    out << "dcsweep " << DCSWEEP_VERSION << "\n";
    return kExitOk;
  }
  if (command == "simulate") return cli::simulate_command(rest, out, err);
  if (command == "list") return cli::list_command(rest, out);
  if (command == "validate") return cli::validate_command(rest, out);
  if (command == "run") return cli::run_command(rest, out, err);
  if (command == "plan") return cli::plan_command(rest, out);
  if (command == "thermal") return cli::thermal_command(rest, out, err);
  if (command == "platform") return cli::platform_command(rest, out, err);
  if (command == "analyze") return cli::analyze_command(rest, out);
  if (command == "plot") return cli::plot_command(rest, out);
  throw InputError("unknown command '" + command + "'; valid: simulate, run, validate, thermal, platform, plan, analyze, plot, list (see dcsweep --help)");
}

}  // namespace

int run_cli(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  try {
    return dispatch(args, out, err);
  } catch (const InputError& e) {
    err << "dcsweep: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    err << "dcsweep: failed: " << e.what() << "\n";
    return kExitFailed;
  }
}

}  // namespace dcsweep
