#pragma once
// Subcommands and the option machinery they share (internal to the cli library).
#include <boost/program_options.hpp>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "dcsweep/core/params.hpp"
#include "dcsweep/sweep/spec.hpp"

namespace dcsweep::cli {

namespace po = boost::program_options;

/// "--redline_c=3" -> "--redline-c=3": on the command line '-' and '_' are interchangeable.
std::vector<std::string> normalize_options(std::span<const std::string> args);
/// "redline-c" <-> "redline_c".
std::string dashed(std::string name);
std::string undashed(std::string name);

/// One option per catalog parameter (booleans may be given without a value).
po::options_description param_options(const ParamCatalog& catalog);
/// Parses `args` against `options` (no abbreviations); a Boost error becomes one InputError line
/// with a suggestion. With `positional`, bare arguments are collected (see positionals()).
po::variables_map parse_options(std::span<const std::string> args, const po::options_description& options,
                                const std::string& command, bool positional = false);
inline constexpr const char* kPositional = "positional-arguments";
std::vector<std::string> positionals(const po::variables_map& vm);
/// Copies every parameter option present in `vm` into `params`.
void apply_params(const po::variables_map& vm, ParamSet& params);

/// JSON has no NaN: a value that does not apply is null.
std::string json_number(double value);
/// A JSON string literal (quotes, backslashes and control characters escaped).
std::string json_string(const std::string& text);

int simulate_command(std::span<const std::string> args, std::ostream& out, std::ostream& err);
int list_command(std::span<const std::string> args, std::ostream& out);
int validate_command(std::span<const std::string> args, std::ostream& out);
int run_command(std::span<const std::string> args, std::ostream& out, std::ostream& err);
int plan_command(std::span<const std::string> args, std::ostream& out);
int thermal_command(std::span<const std::string> args, std::ostream& out, std::ostream& err);
int analyze_command(std::span<const std::string> args, std::ostream& out);
/// `analyze` on an adaptive design's file (analyze_adaptive.cpp); `metrics` empty: the refine metric.
int analyze_adaptive(const std::string& file, const SweepSpec& spec, const std::vector<std::int8_t>& status,
                     std::vector<std::string> metrics, bool json, std::ostream& out);
int plot_command(std::span<const std::string> args, std::ostream& out);
int platform_command(std::span<const std::string> args, std::ostream& out, std::ostream& err);

}  // namespace dcsweep::cli
