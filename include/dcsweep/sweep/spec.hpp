#pragma once
// A sweep specification (TOML, see INTERFACE.md): the base parameter values, the axes of the
// Cartesian grid (a parameter's list or range, or a zip group of parameters varying together),
// replicates and the seed. Parsed and fully checked against the parameter catalog before
// anything runs; every error names the file, the line and the key.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dcsweep/core/params.hpp"

namespace dcsweep {

/// One dimension of the grid. A plain axis sets one parameter; a zip axis sets several, the
/// i-th value of each together.
struct Axis {
  std::string name;                              ///< the parameter, or the zip group's name
  std::vector<std::string> params;               ///< parameters it sets
  std::vector<std::vector<ParamValue>> values;   ///< values[k][i]: params[k] at position i
  int line = 0;                                  ///< where it is declared

  std::size_t size() const { return values.empty() ? 0 : values.front().size(); }
};

/// Limits checked when a spec is parsed: values along one axis, and points in the whole grid.
inline constexpr std::uint64_t kMaxAxisValues = 1'000'000;
inline constexpr std::uint64_t kMaxSweepPoints = 100'000'000;

struct SweepSpec {
  std::string path;
  std::string text;        ///< the spec file's full text (stored in result files)
  std::string name;
  std::uint64_t seed = 1;
  std::int64_t replicates = 1;
  std::vector<std::pair<std::string, ParamValue>> base;
  std::vector<Axis> axes;  ///< [axes] in file order, then [[zip]] groups in file order

  /// Grid points over the axes times replicates.
  std::uint64_t point_count() const;
};

/// Parses and checks a spec; InputError "PATH:LINE: [table] key: what is wrong".
SweepSpec parse_spec(std::string_view text, const std::string& path, const ParamCatalog& catalog);
SweepSpec read_spec(const std::string& path, const ParamCatalog& catalog);
/// The text of a spec file; InputError "PATH: cannot open the spec".
std::string read_spec_text(const std::string& path);

/// What differs between two specs in what they compute (comments and layout do not count), one
/// readable line per difference; empty when they describe the same sweep.
std::vector<std::string> spec_differences(const SweepSpec& was, const SweepSpec& now);

}  // namespace dcsweep
