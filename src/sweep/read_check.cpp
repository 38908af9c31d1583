#include "dcsweep/sweep/read_check.hpp"

#include <algorithm>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {
namespace {

/// "scheduler = easy, fcfs": what the selectors of `spec`'s readers were.
std::string seen_text(const std::map<std::string, std::set<std::string>>& seen) {
  std::vector<std::string> parts;
  for (const auto& [selector, values] : seen) {
    parts.push_back(selector + " = " + join(std::vector<std::string>(values.begin(), values.end())));
  }
  return join(parts, "; ");
}

void note_selectors(const ParamSpec& spec, const ParamSet& values, std::map<std::string, std::set<std::string>>& seen) {
  for (const ParamReader& r : spec.read_by) seen[r.param].insert(format_value(values.value(r.param)));
}

}  // namespace

ReadCheck::ReadCheck(const SweepSpec& spec, const ParamCatalog& catalog) : path_(spec.path) {
  auto add = [&](const std::string& name, std::string where) {
    const ParamSpec* p = catalog.find(name);
    if (p == nullptr || p->read_by.empty()) return;
    explicit_.push_back({p, std::move(where)});
  };
  for (const auto& [name, value] : spec.base) add(name, " [base] " + name);
  // (An adaptive design's points lie along `sample`; its parameters are named by the axes given.)
  for (const Axis& axis : spec.design.kind == DesignKind::adaptive ? spec.design.adaptive.axes : spec.axes) {
    for (const std::string& name : axis.params) {
      add(name, std::to_string(axis.line) + (axis.name == name ? ": [axes] " : ": [[zip]] " + axis.name + " ") + name);
    }
  }
  for (const Factor& f : spec.design.factors) add(f.name, std::to_string(f.line) + ": [axes] " + f.name);
}

void ReadCheck::observe(const ParamSet& point) {
  for (Explicit& e : explicit_) {
    if (e.read) continue;
    e.read = param_is_read(*e.spec, point);
    if (!e.read) note_selectors(*e.spec, point, e.seen);
  }
}

void ReadCheck::finish() const {
  for (const Explicit& e : explicit_) {
    if (e.read) continue;
    throw InputError(path_ + ":" + e.where + ": parameter '" + e.spec->name + "' is read by " + readers_text(*e.spec) +
                     "; no point of this sweep has that (" + seen_text(e.seen) + "): remove it, or add what reads it");
  }
}

/// Why `spec` is not read: "read by R; this run has S", or, when a reader's value is there but its
/// selector is itself not read, why that selector is not ("...; 'cooling' is read by ...").
std::string unread_reason(const ParamSpec& spec, const ParamSet& values) {
  for (const ParamReader& r : spec.read_by) {
    const std::string value = format_value(values.value(r.param));
    if (std::find(r.values.begin(), r.values.end(), value) == r.values.end()) continue;
    const ParamSpec& selector = values.catalog().at(values.catalog().index_of(r.param));
    return "read by " + readers_text(spec) + "; '" + r.param + "' is " + unread_reason(selector, values);
  }
  std::map<std::string, std::set<std::string>> seen;
  note_selectors(spec, values, seen);
  return "read by " + readers_text(spec) + "; this run has " + seen_text(seen);
}

void check_params_read(const ParamSet& values) {
  for (const ParamSpec& spec : values.catalog().all()) {
    if (!values.was_set(spec.name) || param_is_read(spec, values)) continue;
    throw InputError("parameter '" + spec.name + "' is " + unread_reason(spec, values));
  }
}

}  // namespace dcsweep
