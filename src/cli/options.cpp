#include <algorithm>
#include <cmath>
#include <cstdio>

#include "commands.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep::cli {
namespace {

std::string help_line(const ParamSpec& spec) {
  std::string line = spec.help;
  if (!spec.unit.empty()) line += " [" + spec.unit + "]";
  const std::string fallback = format_value(spec.default_value);
  line += " (default " + (fallback.empty() ? std::string("none") : fallback);
  const std::string range = spec.range_text();
  if (!range.empty()) line += "; " + range;
  return line + ")";
}

std::vector<std::string> long_option_names(const po::options_description& options) {
  std::vector<std::string> names;
  for (const auto& option : options.options()) names.push_back(option->long_name());
  return names;
}

}  // namespace

std::string dashed(std::string name) {
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

std::string undashed(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

std::vector<std::string> normalize_options(std::span<const std::string> args) {
  std::vector<std::string> out(args.begin(), args.end());
  for (auto& arg : out) {
    if (!arg.starts_with("--")) continue;
    const std::size_t end = std::min(arg.find('='), arg.size());
    std::replace(arg.begin() + 2, arg.begin() + static_cast<std::ptrdiff_t>(end), '_', '-');
  }
  return out;
}

po::options_description param_options(const ParamCatalog& catalog) {
  po::options_description options("Simulation parameters (also the names of a spec's [base] and [axes])", 100);
  for (const ParamSpec& spec : catalog.all()) {
    auto* semantic = po::value<std::string>()->value_name(std::string(type_name(spec.type)));
    if (spec.type == ParamType::boolean) semantic->implicit_value("true");
    options.add_options()(dashed(spec.name).c_str(), semantic, help_line(spec).c_str());
  }
  return options;
}

po::variables_map parse_options(std::span<const std::string> args, const po::options_description& options,
                                const std::string& command, bool positional) {
  const std::vector<std::string> normalized = normalize_options(args);
  po::options_description all;
  all.add(options);
  all.add_options()(kPositional, po::value<std::vector<std::string>>());
  po::positional_options_description positions;
  if (positional) positions.add(kPositional, -1);
  // No abbreviations: "--resum" must not silently mean "--resume".
  const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(normalized).options(all).positional(positions).style(style).run(), vm);
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    std::string name = e.get_option_name();
    std::string message = command + ": unknown option '" + name + "'";
    while (name.starts_with("-")) name.erase(0, 1);
    const std::string hint = closest_name(name, long_option_names(options));
    if (!hint.empty()) message += " (did you mean '--" + hint + "'?)";
    throw InputError(message);
  } catch (const po::error& e) {
    throw InputError(command + ": " + e.what());
  }
  return vm;
}

std::vector<std::string> positionals(const po::variables_map& vm) {
  return vm.count(kPositional) ? vm[kPositional].as<std::vector<std::string>>() : std::vector<std::string>{};
}

void apply_params(const po::variables_map& vm, ParamSet& params) {
  for (const ParamSpec& spec : params.catalog().all()) {
    const auto it = vm.find(dashed(spec.name));
    if (it != vm.end()) params.set_text(spec.name, it->second.as<std::string>());
  }
}

std::string json_number(double value) { return std::isfinite(value) ? format_number(value) : "null"; }

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", c);
      out += code;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace dcsweep::cli
