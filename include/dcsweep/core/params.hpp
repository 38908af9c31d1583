#pragma once
// The parameter registry: every simulation parameter is declared once (name, type, unit, default,
// range, help) and that declaration is what the CLI, the sweep-spec parser and the result-file
// metadata read. Values travel in a ParamSet, validated on entry.
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

namespace dcsweep {

enum class ParamType { integer, real, boolean, text, choice };

std::string_view type_name(ParamType type);

using ParamValue = std::variant<std::int64_t, double, bool, std::string>;

/// Text of a value as a user would write it ("0.5", "true", "easy").
std::string format_value(const ParamValue& value);

/// A condition under which a parameter is read: the selector parameter `param` (a plug-in family's
/// choice, the workload kind, the model) has one of `values`, and is itself read.
struct ParamReader {
  std::string param;
  std::vector<std::string> values;
  bool operator==(const ParamReader&) const = default;
};

/// One parameter's declaration. Declared with designated initializers beside the code that reads it.
struct ParamSpec {
  std::string name;           ///< snake_case, with the unit in the name when it has one
  ParamType type = ParamType::real;
  std::string unit;           ///< "s", "W", "C", "1/h", ...; empty when dimensionless
  ParamValue default_value;
  double min = -std::numeric_limits<double>::infinity();  ///< numeric lower bound
  double max = std::numeric_limits<double>::infinity();   ///< numeric upper bound (inclusive)
  bool min_open = false;      ///< true: the lower bound itself is not allowed
  std::vector<std::string> choices;  ///< allowed values of a `choice` parameter
  std::string help;
  /// What reads it: any one of these (empty: every simulation). A plug-in's own parameters get
  /// their family and member when the catalog collects them (sim/catalog.cpp); a declaration
  /// lists only readers beyond its own plug-in.
  std::vector<ParamReader> read_by;

  /// "[0, inf)", "(0, 1]", "easy|fcfs", "" for text and boolean parameters.
  std::string range_text() const;
  bool operator==(const ParamSpec&) const = default;
};

// Declarations of the common shapes; a plug-in's own helpers (watts, celsius, ...) build on these.
ParamSpec real_param(std::string name, std::string unit, double fallback, double min, double max, std::string help,
                     bool min_open = false);
ParamSpec integer_param(std::string name, std::int64_t fallback, double min, double max, std::string help);
ParamSpec choice_param(std::string name, std::vector<std::string> choices, std::string fallback, std::string help);
ParamSpec text_param(std::string name, std::string fallback, std::string help);
ParamSpec boolean_param(std::string name, bool fallback, std::string help);

/// An ordered set of parameter declarations with unique names.
class ParamCatalog {
 public:
  /// Adds a declaration. Declaring the same name twice is allowed only with an identical spec up
  /// to its readers, which are merged (two plug-ins sharing a parameter); anything else is a
  /// programming error (std::logic_error).
  void add(ParamSpec spec);

  const ParamSpec* find(std::string_view name) const;
  /// The index of `name`; InputError "unknown parameter 'x' (did you mean 'y'?)" otherwise.
  std::size_t index_of(std::string_view name) const;
  const ParamSpec& at(std::size_t index) const { return specs_[index]; }
  std::span<const ParamSpec> all() const { return specs_; }
  std::vector<std::string> names() const;
  std::size_t size() const { return specs_.size(); }

 private:
  std::vector<ParamSpec> specs_;
  std::unordered_map<std::string, std::size_t> index_;
};

/// Parses a value written as text (command line, tests) for `spec`, then checks it.
ParamValue parse_param(const ParamSpec& spec, std::string_view text);
/// Converts a typed value to the parameter's type (an integer is accepted for a real parameter)
/// and checks range and choices. InputError names the parameter and what is wrong.
ParamValue check_param(const ParamSpec& spec, ParamValue value);

/// The values of every parameter of a catalog for one simulation: defaults, then what was set.
class ParamSet {
 public:
  explicit ParamSet(const ParamCatalog& catalog);

  void set(std::string_view name, ParamValue value);
  void set_text(std::string_view name, std::string_view text);
  bool was_set(std::string_view name) const;

  std::int64_t integer(std::string_view name) const;
  double real(std::string_view name) const;
  bool boolean(std::string_view name) const;
  const std::string& text(std::string_view name) const;
  const ParamValue& value(std::string_view name) const;

  const ParamCatalog& catalog() const { return *catalog_; }

 private:
  const ParamCatalog* catalog_;
  std::vector<ParamValue> values_;
  std::vector<bool> set_;
};

/// Whether a simulation with these values reads `spec`: no reader declared, or one holds whose
/// selector parameter is itself read.
bool param_is_read(const ParamSpec& spec, const ParamSet& values);
/// "scheduler = parm", "allocator = mpit, joint or workload = trace": what would read it.
std::string readers_text(const ParamSpec& spec);

}  // namespace dcsweep
