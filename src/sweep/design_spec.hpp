#pragma once
// Internal to the spec parser: the [design] table, the factors of a sampled design, and turning
// them into the one `sample` axis the rest of the engine runs (spec.hpp).
#include <string>
#include <toml++/toml.h>
#include <vector>

#include "dcsweep/sweep/spec.hpp"

namespace dcsweep::design_spec {

/// Reports a spec error as "PATH:LINE: where: what" (InputError).
struct Errors {
  const std::string& path;
  [[noreturn]] void fail(int line, const std::string& where, const std::string& what) const;
};

/// The [design] table; `seed` is the spec's, used unless the table sets its own.
Design parse_design(const toml::table& table, std::uint64_t seed, const Errors& errors);

/// Whether an [axes] entry is a continuous factor ({ min, max, ... }) rather than a list or range.
bool is_factor_table(const toml::node& node);

/// A continuous factor of parameter `spec` from its table, fully checked.
Factor continuous_factor(const ParamSpec& spec, const toml::table& table, int line, const Errors& errors);

/// Generates a sampled design's points (sizes checked first) and sets `spec.axes` to its one
/// `sample` axis. Nothing to do for a grid.
void sample_design(SweepSpec& spec, const ParamCatalog& catalog, const Errors& errors);

/// kind = "adaptive" (adaptive_spec.cpp): one of its keys into `a`; then, once the axes are
/// parsed, the checks that need them and the first round as the `sample` axis.
void adaptive_key(AdaptiveDesign& a, const std::string& name, const toml::node& node, const Errors& errors);
void adaptive_design(SweepSpec& spec, const ParamCatalog& catalog, const Errors& errors);
std::vector<std::string> adaptive_differences(const AdaptiveDesign& was, const AdaptiveDesign& now);

/// What differs between two designs, one line each (spec_differences).
std::vector<std::string> design_differences(const Design& was, const Design& now);

}  // namespace dcsweep::design_spec
