#pragma once
// Shared test helpers: temporary files and the error text of an action.
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include <unistd.h>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/params.hpp"
#include "dcsweep/sim/catalog.hpp"

namespace dcsweep::test {

/// A file in this test process's own folder, removed when the process ends: CTest runs the cases
/// as parallel processes, so shared names (engine.h5 in two tests at once) would race.
inline std::filesystem::path temp_path(const std::string& name) {
  struct Folder {
    std::filesystem::path path;
    ~Folder() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Folder folder{std::filesystem::temp_directory_path() / ("dcsweep-tests-" + std::to_string(::getpid()))};
  std::filesystem::create_directories(folder.path);
  return folder.path / name;
}

inline std::string write_file(const std::string& name, const std::string& text) {
  const auto path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

/// A generated room's layout (platform = room): rows x racks per row x nodes per rack.
inline void set_room_layout(ParamSet& params, std::int64_t rows, std::int64_t racks_per_row, std::int64_t nodes_per_rack) {
  params.set("room_rows", rows);
  params.set("room_racks_per_row", racks_per_row);
  params.set("room_nodes_per_rack", nodes_per_rack);
}

/// Simulation parameters on a generated room (`rows` x `racks_per_row` x `nodes_per_rack`)
/// whose nodes draw `node_power` (a preset name).
inline ParamSet room_params(std::int64_t rows, std::int64_t racks_per_row, std::int64_t nodes_per_rack,
                            const std::string& node_power) {
  ParamSet params(simulation_catalog());
  params.set("platform", std::string("room"));
  set_room_layout(params, rows, racks_per_row, nodes_per_rack);
  params.set("node_power", node_power);
  return params;
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
