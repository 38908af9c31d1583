#pragma once
// Error kinds with stable meanings: the CLI maps them to exit codes (see INTERFACE.md).
#include <stdexcept>
#include <string>
#include <string_view>

namespace dcsweep {

/// `text` made safe for a one-line message: control and non-ASCII bytes as \xNN (a CR, VT, NUL...
/// echoed from a malformed input field would otherwise split or hide the line), and at most
/// `max_bytes` of it kept ("..." marks a cut).
inline std::string printable(std::string_view text, std::size_t max_bytes = 2000) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    if (out.size() >= max_bytes) return out + "...";
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x20 && b < 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
  }
  return out;
}

/// Bad usage or bad input, detected before anything runs. The message is one line that names
/// the file, line or key and what is wrong; the CLI prints it and exits with code 2.
class InputError : public std::runtime_error {
 public:
  explicit InputError(std::string_view message) : std::runtime_error(printable(message)) {}
};

/// A simulation that could not complete (an internal invariant broke). In a sweep it fails
/// only its own point; `simulate` exits with code 1.
class SimulationError : public std::runtime_error {
 public:
  explicit SimulationError(std::string_view message) : std::runtime_error(printable(message)) {}
};

}  // namespace dcsweep
