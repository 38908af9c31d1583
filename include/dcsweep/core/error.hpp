#pragma once
// Error kinds with stable meanings: the CLI maps them to exit codes (see INTERFACE.md).
#include <stdexcept>
#include <string>

namespace dcsweep {

/// Bad usage or bad input, detected before anything runs. The message is one line that names
/// the file, line or key and what is wrong; the CLI prints it and exits with code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A simulation that could not complete (an internal invariant broke). In a sweep it fails
/// only its own point; `simulate` exits with code 1.
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace dcsweep
