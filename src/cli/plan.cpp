#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "commands.hpp"
#include "dcsweep/cli/cli.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/sweep/distribution.hpp"
#include "dcsweep/sweep/result_file.hpp"

namespace dcsweep::cli {

int plan_command(std::span<const std::string> args, std::ostream& out) {
  po::options_description options("Options");
  options.add_options()("ranks,r", po::value<std::vector<int>>()->multitoken()->value_name("P ..."),
                        "rank counts to predict (default 64 1024 4096)")("help,h", "this help");
  const po::variables_map vm = parse_options(args, options, "plan", true);
  if (vm.count("help")) {
    out << "usage: dcsweep plan RESULT.h5 [--ranks P ...]\n"
           "Replays the engine's hand-out order with the measured point times of a result file and\n"
           "predicts the makespan on P ranks, beside the bound max(total / P, longest point).\n"
           "Guide: docs/user-guide.md#predicting-a-sweeps-time-dcsweep-plan\n\n"
        << options;
    return kExitOk;
  }
  const std::vector<std::string> files = positionals(vm);
  if (files.size() != 1) throw InputError("plan: expected one RESULT.h5 (usage: dcsweep plan RESULT.h5 --ranks P)");
  const std::vector<int> ranks = vm.count("ranks") ? vm["ranks"].as<std::vector<int>>() : std::vector<int>{64, 1024, 4096};
  for (const int p : ranks) {
    if (p < 1) throw InputError("plan: --ranks must be at least 1");
  }
  PointsTable table;
  try {
    table = read_points_table(files.front());
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  std::size_t missing = 0;
  for (double& w : table.wall_s) {
    if (std::isnan(w)) {
      w = 0;
      ++missing;
    }
  }
  for (double& c : table.cost_estimate_s) {
    if (std::isnan(c)) c = 0;
  }
  out << files.front() << ": " << table.wall_s.size() << " points";
  if (missing > 0) out << " (" << missing << " without a measured time, counted as 0 s)";
  out << "\n" << std::setw(8) << "ranks" << std::setw(10) << "chunks" << std::setw(16) << "makespan_s" << std::setw(16)
      << "bound_s" << std::setw(10) << "ratio" << "   bound = max(total / ranks, longest point)\n";
  for (const int p : ranks) {
    const MakespanPlan plan = plan_makespan(table.cost_estimate_s, table.wall_s, p);
    const double ratio = plan.lower_bound_s > 0 ? plan.makespan_s / plan.lower_bound_s : 1.0;
    out << std::setw(8) << p << std::setw(10) << plan.chunks << std::setw(16) << std::setprecision(6)
        << plan.makespan_s << std::setw(16) << plan.lower_bound_s << std::setw(10) << std::setprecision(4) << ratio
        << "\n";
  }
  return kExitOk;
}

}  // namespace dcsweep::cli
