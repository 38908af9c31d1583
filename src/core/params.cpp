#include "dcsweep/core/params.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {
namespace {

[[noreturn]] void fail(const ParamSpec& spec, const std::string& what) {
  throw InputError("parameter '" + spec.name + "': " + what);
}

std::string quoted_list(const std::vector<std::string>& items) { return join(items, ", "); }

ParamValue parse_number(const ParamSpec& spec, std::string_view text) {
  double number = 0;
  const auto* end = text.data() + text.size();
  const auto result = std::from_chars(text.data(), end, number);
  if (text.empty() || result.ec != std::errc{} || result.ptr != end) {
    fail(spec, "expected a number, got '" + std::string(text) + "'");
  }
  return number;
}

ParamValue parse_boolean(const ParamSpec& spec, std::string_view text) {
  if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "0" || text == "no" || text == "off") return false;
  fail(spec, "expected true or false, got '" + std::string(text) + "'");
}

double check_range(const ParamSpec& spec, double number) {
  if (std::isnan(number)) fail(spec, "must be a number, got nan");
  const bool below = spec.min_open ? number <= spec.min : number < spec.min;
  if (below || number > spec.max) {
    fail(spec, format_number(number) + " is out of range " + spec.range_text());
  }
  return number;
}

ParamValue check_integer(const ParamSpec& spec, const ParamValue& value) {
  double number = 0;
  if (const auto* i = std::get_if<std::int64_t>(&value)) {
    check_range(spec, static_cast<double>(*i));
    return *i;
  }
  if (const auto* d = std::get_if<double>(&value)) {
    number = *d;
  } else {
    fail(spec, "expected an integer, got '" + format_value(value) + "'");
  }
  if (number != std::floor(number) || std::abs(number) > 9.0e15) {
    fail(spec, "expected an integer, got " + format_number(number));
  }
  check_range(spec, number);
  return static_cast<std::int64_t>(number);
}

ParamValue check_real(const ParamSpec& spec, const ParamValue& value) {
  if (const auto* i = std::get_if<std::int64_t>(&value)) return check_range(spec, static_cast<double>(*i));
  if (const auto* d = std::get_if<double>(&value)) return check_range(spec, *d);
  fail(spec, "expected a number, got '" + format_value(value) + "'");
}

ParamValue check_choice(const ParamSpec& spec, const ParamValue& value) {
  const auto* text = std::get_if<std::string>(&value);
  if (text == nullptr) fail(spec, "expected one of " + quoted_list(spec.choices));
  for (const auto& choice : spec.choices) {
    if (choice == *text) return value;
  }
  std::string message = "unknown value '" + *text + "'";
  const std::string hint = closest_name(*text, spec.choices);
  if (!hint.empty()) message += " (did you mean '" + hint + "'?)";
  fail(spec, message + "; valid: " + quoted_list(spec.choices));
}

}  // namespace

std::string_view type_name(ParamType type) {
  switch (type) {
    case ParamType::integer: return "integer";
    case ParamType::real: return "real";
    case ParamType::boolean: return "boolean";
    case ParamType::text: return "text";
    case ParamType::choice: return "choice";
  }
  return "?";
}

std::string format_value(const ParamValue& value) {
  if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&value)) return format_number(*d);
  if (const auto* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  return std::get<std::string>(value);
}

ParamSpec real_param(std::string name, std::string unit, double fallback, double min, double max, std::string help,
                     bool min_open) {
  return {.name = std::move(name), .type = ParamType::real, .unit = std::move(unit), .default_value = fallback,
          .min = min, .max = max, .min_open = min_open, .help = std::move(help)};
}

ParamSpec integer_param(std::string name, std::int64_t fallback, double min, double max, std::string help) {
  return {.name = std::move(name), .type = ParamType::integer, .default_value = fallback, .min = min, .max = max,
          .help = std::move(help)};
}

ParamSpec choice_param(std::string name, std::vector<std::string> choices, std::string fallback, std::string help) {
  return {.name = std::move(name), .type = ParamType::choice, .default_value = std::move(fallback),
          .choices = std::move(choices), .help = std::move(help)};
}

ParamSpec text_param(std::string name, std::string fallback, std::string help) {
  return {.name = std::move(name), .type = ParamType::text, .default_value = std::move(fallback), .help = std::move(help)};
}

ParamSpec boolean_param(std::string name, bool fallback, std::string help) {
  return {.name = std::move(name), .type = ParamType::boolean, .default_value = fallback, .help = std::move(help)};
}

std::string ParamSpec::range_text() const {
  if (type == ParamType::choice) return join(choices, "|");
  if (type != ParamType::integer && type != ParamType::real) return "";
  return std::string(min_open ? "(" : "[") + format_number(min) + ", " + format_number(max) +
         (std::isinf(max) ? ")" : "]");
}

void ParamCatalog::add(ParamSpec spec) {
  if (const auto it = index_.find(spec.name); it != index_.end()) {
    ParamSpec& existing = specs_[it->second];
    ParamSpec bare = spec, existing_bare = existing;
    bare.read_by.clear(), existing_bare.read_by.clear();
    if (!(existing_bare == bare)) throw std::logic_error("parameter '" + spec.name + "' declared twice with different specs");
    if (existing.read_by.empty() || spec.read_by.empty()) {  // read everywhere by one of them
      existing.read_by.clear();
      return;
    }
    for (ParamReader& r : spec.read_by) {
      if (std::find(existing.read_by.begin(), existing.read_by.end(), r) == existing.read_by.end()) {
        existing.read_by.push_back(std::move(r));
      }
    }
    return;
  }
  spec.default_value = check_param(spec, spec.default_value);
  index_.emplace(spec.name, specs_.size());
  specs_.push_back(std::move(spec));
}

const ParamSpec* ParamCatalog::find(std::string_view name) const {
  const auto it = index_.find(std::string(name));
  return it == index_.end() ? nullptr : &specs_[it->second];
}

std::size_t ParamCatalog::index_of(std::string_view name) const {
  const auto it = index_.find(std::string(name));
  if (it != index_.end()) return it->second;
  std::string message = "unknown parameter '" + std::string(name) + "'";
  const std::string hint = closest_name(name, names());
  if (!hint.empty()) message += " (did you mean '" + hint + "'?)";
  throw InputError(message);
}

std::vector<std::string> ParamCatalog::names() const {
  std::vector<std::string> out;
  out.reserve(specs_.size());
  for (const auto& spec : specs_) out.push_back(spec.name);
  return out;
}

ParamValue parse_param(const ParamSpec& spec, std::string_view text) {
  switch (spec.type) {
    case ParamType::integer:
    case ParamType::real: return check_param(spec, parse_number(spec, text));
    case ParamType::boolean: return parse_boolean(spec, text);
    case ParamType::text:
    case ParamType::choice: return check_param(spec, std::string(text));
  }
  return {};
}

ParamValue check_param(const ParamSpec& spec, ParamValue value) {
  switch (spec.type) {
    case ParamType::integer: return check_integer(spec, value);
    case ParamType::real: return check_real(spec, value);
    case ParamType::boolean:
      if (!std::holds_alternative<bool>(value)) fail(spec, "expected true or false");
      return value;
    case ParamType::text:
      if (!std::holds_alternative<std::string>(value)) fail(spec, "expected a string");
      return value;
    case ParamType::choice: return check_choice(spec, value);
  }
  return value;
}

ParamSet::ParamSet(const ParamCatalog& catalog)
    : catalog_(&catalog), set_(catalog.size(), false) {
  values_.reserve(catalog.size());
  for (const auto& spec : catalog.all()) values_.push_back(spec.default_value);
}

void ParamSet::set(std::string_view name, ParamValue value) {
  const std::size_t i = catalog_->index_of(name);
  values_[i] = check_param(catalog_->at(i), std::move(value));
  set_[i] = true;
}

void ParamSet::set_text(std::string_view name, std::string_view text) {
  const std::size_t i = catalog_->index_of(name);
  values_[i] = parse_param(catalog_->at(i), text);
  set_[i] = true;
}

bool ParamSet::was_set(std::string_view name) const { return set_[catalog_->index_of(name)]; }

const ParamValue& ParamSet::value(std::string_view name) const {
  return values_[catalog_->index_of(name)];
}

std::int64_t ParamSet::integer(std::string_view name) const {
  return std::get<std::int64_t>(value(name));
}
double ParamSet::real(std::string_view name) const { return std::get<double>(value(name)); }
bool ParamSet::boolean(std::string_view name) const { return std::get<bool>(value(name)); }
const std::string& ParamSet::text(std::string_view name) const {
  return std::get<std::string>(value(name));
}

bool param_is_read(const ParamSpec& spec, const ParamSet& values) {
  if (spec.read_by.empty()) return true;
  return std::any_of(spec.read_by.begin(), spec.read_by.end(), [&](const ParamReader& r) {
    const ParamSpec& selector = values.catalog().at(values.catalog().index_of(r.param));
    const std::string value = format_value(values.value(r.param));
    return std::find(r.values.begin(), r.values.end(), value) != r.values.end() && param_is_read(selector, values);
  });
}

std::string readers_text(const ParamSpec& spec) {
  std::string out;
  for (std::size_t k = 0; k < spec.read_by.size(); ++k) {
    if (k > 0) out += k + 1 == spec.read_by.size() ? " or " : "; ";
    out += spec.read_by[k].param + " = " + join(spec.read_by[k].values);
  }
  return out;
}

}  // namespace dcsweep
