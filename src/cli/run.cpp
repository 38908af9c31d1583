#include <mpi.h>

#include <cstdlib>
#include <ostream>

#include "commands.hpp"
#include "dcsweep/cli/cli.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/sweep/runner.hpp"

namespace dcsweep::cli {
namespace {

/// This process's rank as the launcher (mpirun, srun) announces it, before MPI starts: only rank
/// 0 reports a usage error, so a bad command line under mpirun prints one line, not one per rank.
int launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

/// MPI for the duration of a run (initialized here, so that the other commands never need it).
class MpiSession {
 public:
  MpiSession() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized) return;
    // Open MPI's OMPIO component has hung in HDF5 1.10 collective writes where ROMIO does not
    // (../shared/spec/NOTES.md): prefer ROMIO unless the user chose.
    setenv("OMPI_MCA_io", "romio321", 0);
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    owner_ = true;
    if (provided < MPI_THREAD_FUNNELED) throw std::runtime_error("the MPI library does not support threads");
  }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  ~MpiSession() {
    if (owner_) MPI_Finalize();
  }

 private:
  bool owner_ = false;
};

constexpr const char* kUsage =
    "usage: dcsweep run SPEC.toml -o OUT.h5 [--resume [--retry-failed]] [--quiet] [--stall-warning-s S] [--lock-wait-s S]\n"
    "Runs every point of a sweep; under mpirun or srun the ranks share the grid.\n"
    "Guide: docs/user-guide.md#running-a-sweep-dcsweep-run (resume and failures: #resume-and-failures)\n\n";

}  // namespace

int run_command(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  po::options_description options("Options");
  options.add_options()("output,o", po::value<std::string>()->value_name("OUT.h5"), "the result file (HDF5)")(
      "resume", po::bool_switch(), "finish an interrupted run from its journal (or start it if there is none)")(
      "retry-failed", po::bool_switch(),
      "with --resume: compute the failed points again (a time limit, a crash); the others are kept as they are")(
      "quiet,q", po::bool_switch(), "no progress lines on stderr")(
      "stall-warning-s", po::value<double>()->default_value(900)->value_name("S"),
      "warn, naming what each rank holds, when no point has finished for S seconds (0: never)")(
      "lock-wait-s", po::value<double>()->default_value(0)->value_name("S"),
      "if another run holds OUT.h5, wait up to S seconds for it to end (default: refuse at once)")(
      "help,h", "this help");
  RunOptions run;
  try {
    const po::variables_map vm = parse_options(args, options, "run", true);
    if (vm.count("help")) {
      if (launcher_rank() == 0) out << kUsage << options;
      return kExitOk;
    }
    const std::vector<std::string> specs = positionals(vm);
    if (specs.size() != 1) throw InputError("run: expected one SPEC.toml (usage: dcsweep run SPEC.toml -o OUT.h5)");
    if (!vm.count("output")) throw InputError("run: missing -o OUT.h5 (where the results go)");
    const double stall_s = vm["stall-warning-s"].as<double>();
    if (!(stall_s >= 0)) throw InputError("run: --stall-warning-s must be >= 0 (0: never warn)");
    const double lock_wait_s = vm["lock-wait-s"].as<double>();
    if (!(lock_wait_s >= 0)) throw InputError("run: --lock-wait-s must be >= 0");
    if (vm["retry-failed"].as<bool>() && !vm["resume"].as<bool>()) {
      throw InputError("run: --retry-failed goes with --resume (it computes a finished or interrupted run's failed points again)");
    }
    run = {specs.front(), vm["output"].as<std::string>(), vm["resume"].as<bool>(), vm["quiet"].as<bool>(),
           stall_s, lock_wait_s, DCSWEEP_VERSION, DCSWEEP_GIT_COMMIT, vm["retry-failed"].as<bool>()};
  } catch (const InputError& e) {
    if (launcher_rank() == 0) err << "dcsweep: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  MpiSession mpi;
  return run_sweep(run, MPI_COMM_WORLD, out, err);
}

}  // namespace dcsweep::cli
