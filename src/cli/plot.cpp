// `dcsweep plot`: pictures of a result file, drawn by src/cli/dcsweep_plot.py with Debian's Python
// (matplotlib, xarray), so users type one program's name. This finds the script and the
// interpreter, runs it with the arguments as given, and returns its exit code (0, or 2 with its
// one error line on stderr).
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <ostream>

#include "commands.hpp"
#include "dcsweep/cli/cli.hpp"
#include "dcsweep/core/error.hpp"

extern char** environ;

namespace dcsweep::cli {
namespace {

namespace fs = std::filesystem;

/// $DCSWEEP_PLOT_SCRIPT, else src/cli/dcsweep_plot.py beside the build's source tree, else next
/// to the binary (an installed copy: BIN/../share/dcsweep/).
std::string plot_script() {
  if (const char* set = std::getenv("DCSWEEP_PLOT_SCRIPT")) return set;
  std::error_code ignored;
  const fs::path self = fs::read_symlink("/proc/self/exe", ignored);
  for (const fs::path& candidate : {fs::path(DCSWEEP_SOURCE_DIR) / "src/cli/dcsweep_plot.py",
                                    self.parent_path() / "../share/dcsweep/dcsweep_plot.py"}) {
    if (fs::exists(candidate, ignored)) return candidate.string();
  }
  throw InputError("plot: cannot find dcsweep_plot.py (looked in " + std::string(DCSWEEP_SOURCE_DIR) +
                   "/python; set DCSWEEP_PLOT_SCRIPT to its path)");
}

/// $DCSWEEP_PYTHON, else Debian's /usr/bin/python3 (where python3-matplotlib installs).
std::string python() {
  const char* set = std::getenv("DCSWEEP_PYTHON");
  const std::string path = set != nullptr ? set : "/usr/bin/python3";
  if (access(path.c_str(), X_OK) != 0) {
    throw InputError("plot: needs " + path + " with matplotlib and xarray (Debian: python3-matplotlib "
                     "python3-xarray python3-h5py python3-netcdf4; `bash .ci/setup` installs them)");
  }
  return path;
}

int run_and_wait(const std::vector<std::string>& command) {
  std::vector<char*> argv;
  for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int e = posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ); e != 0) {
    throw InputError("plot: cannot start " + command.front() + ": " + std::strerror(e));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(std::string("plot: waiting for Python: ") + std::strerror(errno));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  throw std::runtime_error("plot: Python ended by signal " + std::to_string(WTERMSIG(status)));
}

}  // namespace

int plot_command(std::span<const std::string> args, std::ostream& out) {
  std::error_code ignored;
  const fs::path self = fs::read_symlink("/proc/self/exe", ignored);
  std::vector<std::string> command = {python(), plot_script()};
  command.insert(command.end(), args.begin(), args.end());
  command.push_back("--dcsweep=" + self.string());  // for `analyze`, the same binary
  out.flush();  // (the script writes to the same stdout)
  return run_and_wait(command);
}

}  // namespace dcsweep::cli
