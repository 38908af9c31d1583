#pragma once
// Shared test helpers: temporary files and the error text of an action.
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "dcsweep/core/error.hpp"

namespace dcsweep::test {

inline std::filesystem::path temp_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "dcsweep-tests";
  std::filesystem::create_directories(dir);
  return dir / name;
}

inline std::string write_file(const std::string& name, const std::string& text) {
  const auto path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

/// The InputError message of `action`, or "" when it does not throw one.
inline std::string input_error(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace dcsweep::test
