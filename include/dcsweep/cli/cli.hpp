#pragma once
// The dcsweep command line, callable in-process (tests) and from main.
#include <iosfwd>
#include <span>
#include <string>

namespace dcsweep {

/// Exit codes of INTERFACE.md.
enum ExitCode : int { kExitOk = 0, kExitFailed = 1, kExitBadInput = 2 };

/// Runs `dcsweep args...` (args excludes the program name). Errors are one line on `err`.
int run_cli(std::span<const std::string> args, std::ostream& out, std::ostream& err);

}  // namespace dcsweep
