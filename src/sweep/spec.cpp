#include "dcsweep/sweep/spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <toml++/toml.h>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"
#include "design_spec.hpp"

namespace dcsweep {
namespace {

int line_of(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

std::optional<ParamValue> scalar(const toml::node& node) {
  if (const auto* v = node.as_integer()) return ParamValue{v->get()};
  if (const auto* v = node.as_floating_point()) return ParamValue{v->get()};
  if (const auto* v = node.as_boolean()) return ParamValue{v->get()};
  if (const auto* v = node.as_string()) return ParamValue{v->get()};
  return std::nullopt;
}

struct Entry {
  std::string key;
  int line;
  const toml::node* node;
};

/// A table's entries in file order (toml++ iterates its tables in key order; axis order is the
/// file's, as INTERFACE.md says).
std::vector<Entry> in_file_order(const toml::table& t) {
  std::vector<std::pair<toml::source_position, Entry>> keyed;
  for (auto&& [key, node] : t) {
    keyed.push_back({key.source().begin, {std::string(key.str()), static_cast<int>(key.source().begin.line), &node}});
  }
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
    return a.first.line != b.first.line ? a.first.line < b.first.line : a.first.column < b.first.column;
  });
  std::vector<Entry> out;
  for (auto& [position, entry] : keyed) out.push_back(std::move(entry));
  return out;
}

std::vector<std::string> keys_of(std::initializer_list<const char*> keys) { return {keys.begin(), keys.end()}; }

class SpecParser {
 public:
  SpecParser(const std::string& path, const ParamCatalog& catalog) : path_(path), catalog_(catalog) {}

  SweepSpec parse(std::string_view text) {
    spec_.path = path_;
    spec_.text = std::string(text);
    toml::table root;
    try {
      root = toml::parse(text, path_);
    } catch (const toml::parse_error& e) {
      throw InputError(path_ + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
    }
    // [design] first, wherever it is: it decides what [axes] holds.
    const toml::table* design = nullptr;
    if (const toml::node* node = root.get("design")) {
      design = &table(*node, "[design]");
      spec_.design = design_spec::parse_design(*design, 0, errors_);
    }
    for (const Entry& e : in_file_order(root)) {
      const std::string& name = e.key;
      const toml::node& node = *e.node;
      const int line = e.line;
      if (name == "sweep") parse_sweep(table(node, "[sweep]"));
      else if (name == "base") parse_base(table(node, "[base]"));
      else if (name == "axes") parse_axes(table(node, "[axes]"));
      else if (name == "zip") parse_zips(node);
      else if (name != "design") unknown_key(line, "top level", name, keys_of({"sweep", "design", "base", "axes", "zip"}));
    }
    if (design != nullptr && !design->contains("seed")) spec_.design.seed = spec_.seed;
    check_axes_apart_from_base();
    check_one_model();
    design_spec::sample_design(spec_, catalog_, errors_);
    check_point_count();
    return std::move(spec_);
  }

 private:
  /// A grid too large to lay out (a result file of 1e8 points x 21 metrics is 17 GB already) is
  /// refused here, with its size, instead of failing later for lack of memory.
  void check_point_count() const {
    double points = double(spec_.replicates);
    std::string shape;
    for (const Axis& axis : spec_.axes) {
      points *= double(axis.size());
      shape += axis.name + "[" + std::to_string(axis.size()) + "] x ";
    }
    if (points <= double(kMaxSweepPoints)) return;
    char count[32];
    std::snprintf(count, sizeof count, "%.4g", points);
    throw InputError(path_ + ": the grid has " + count + " points (" + shape + "replicate[" +
                     std::to_string(spec_.replicates) + "]), above the limit of 1e8 points per sweep; split it "
                     "into several specs");
  }

  [[noreturn]] void fail(int line, const std::string& where, const std::string& what) const {
    throw InputError(path_ + ":" + std::to_string(line) + ": " + where + ": " + what);
  }

  [[noreturn]] void unknown_key(int line, const std::string& where, const std::string& key,
                                const std::vector<std::string>& known) const {
    std::string what = "unknown key '" + key + "'";
    const std::string hint = closest_name(key, known);
    if (!hint.empty()) what += " (did you mean '" + hint + "'?)";
    fail(line, where, what);
  }

  const toml::table& table(const toml::node& node, const std::string& where) const {
    if (const auto* t = node.as_table()) return *t;
    fail(line_of(node), where, "expected a table");
  }

  const ParamSpec& param(const std::string& name, int line, const std::string& where) const {
    if (const ParamSpec* spec = catalog_.find(name)) return *spec;
    unknown_key(line, where, name, catalog_.names());
  }

  ParamValue checked(const ParamSpec& spec, const toml::node& node, const std::string& where) const {
    const auto value = scalar(node);
    if (!value) fail(line_of(node), where, "expected a " + std::string(type_name(spec.type)) + " value");
    try {
      return check_param(spec, *value);
    } catch (const InputError& e) {
      fail(line_of(node), where, e.what());
    }
  }

  void parse_sweep(const toml::table& t) {
    for (auto&& [key, node] : t) {
      const std::string name(key.str());
      const std::string where = "[sweep] " + name;
      if (name == "name") {
        if (!node.is_string()) fail(line_of(node), where, "expected a string");
        spec_.name = node.as_string()->get();
      } else if (name == "seed") {
        spec_.seed = static_cast<std::uint64_t>(integer_at_least(node, 0, where));
      } else if (name == "replicates") {
        spec_.replicates = integer_at_least(node, 1, where);
      } else if (name == "point_time_limit_s") {
        const std::optional<double> v = node.value<double>();
        if (!v || !(*v >= 0) || !std::isfinite(*v)) fail(line_of(node), where, "expected a number of seconds >= 0 (0: no limit)");
        spec_.point_time_limit_s = *v;
      } else if (name == "job_events_dir") {
        if (!node.is_string() || node.as_string()->get().empty()) fail(line_of(node), where, "expected a folder's path");
        spec_.job_events_dir = node.as_string()->get();
      } else {
        unknown_key(static_cast<int>(key.source().begin.line), "[sweep]", name,
                    keys_of({"name", "seed", "replicates", "point_time_limit_s", "job_events_dir"}));
      }
    }
  }

  std::int64_t integer_at_least(const toml::node& node, std::int64_t least, const std::string& where) const {
    const auto* v = node.as_integer();
    if (v == nullptr || v->get() < least) fail(line_of(node), where, "expected an integer >= " + std::to_string(least));
    return v->get();
  }

  void parse_base(const toml::table& t) {
    for (const Entry& e : in_file_order(t)) {
      spec_.base.emplace_back(e.key, checked(param(e.key, e.line, "[base]"), *e.node, "[base] " + e.key));
    }
  }

  void parse_axes(const toml::table& t) {
    for (const Entry& e : in_file_order(t)) {
      const ParamSpec& spec = param(e.key, e.line, "[axes]");
      const std::string where = "[axes] " + e.key;
      const bool continuous = design_spec::is_factor_table(*e.node);
      if (spec_.design.sampled()) {
        Factor factor{e.key, !continuous};
        if (continuous) factor = design_spec::continuous_factor(spec, *e.node->as_table(), e.line, errors_);
        else factor.levels = values(spec, *e.node, where);
        factor.line = e.line;
        spec_.design.factors.push_back(std::move(factor));
      } else if (continuous) {
        fail(e.line, where, "a { min, max } factor needs a sampling design ([design] kind = \"lhs\", \"sobol\" or "
                            "\"morris\"); a grid axis is a list or a range { start, stop, step | num }");
      } else {
        add_axis({e.key, {e.key}, {values(spec, *e.node, where)}, e.line});
      }
    }
  }

  void parse_zips(const toml::node& node) {
    const auto* groups = node.as_array();
    if (groups == nullptr) fail(line_of(node), "[[zip]]", "expected [[zip]] tables");
    if (spec_.design.sampled()) {
      fail(line_of(node), "[[zip]]", "zip groups are grid axes; a " + std::string(design_name(spec_.design.kind)) +
                                         " design samples each factor of [axes] on its own");
    }
    for (const toml::node& group : *groups) parse_zip(table(group, "[[zip]]"));
  }

  void parse_zip(const toml::table& t) {
    Axis axis;
    axis.line = line_of(t);
    for (const Entry& e : in_file_order(t)) {
      const toml::node& node = *e.node;
      if (e.key == "name") {
        if (!node.is_string()) fail(e.line, "[[zip]] name", "expected a string");
        axis.name = node.as_string()->get();
        continue;
      }
      const ParamSpec& spec = param(e.key, e.line, "[[zip]]");
      axis.params.push_back(e.key);
      axis.values.push_back(values(spec, node, "[[zip]] " + e.key));
      if (axis.values.back().size() != axis.values.front().size()) {
        fail(e.line, "[[zip]] " + e.key,
             std::to_string(axis.values.back().size()) + " values where " + axis.params.front() + " has " +
                 std::to_string(axis.values.front().size()));
      }
    }
    if (axis.name.empty()) fail(axis.line, "[[zip]]", "a zip group needs a name");
    check_zip_name(axis);
    if (axis.params.empty()) fail(axis.line, "[[zip]] " + axis.name, "a zip group needs at least one parameter");
    add_axis(std::move(axis));
  }

  /// A zip group's name becomes a dimension of the result file: it must not clash with a
  /// parameter, another axis or the file's own names.
  void check_zip_name(const Axis& axis) const {
    const std::string& name = axis.name;
    if (catalog_.find(name) != nullptr) fail(axis.line, "[[zip]] name", "'" + name + "' is a parameter name; name the group after what it varies, e.g. \"machine\"");
    if (name == "replicate" || name == "points" || name == "series") fail(axis.line, "[[zip]] name", "'" + name + "' is reserved in result files");
    for (const Axis& other : spec_.axes) {
      if (other.name == name) fail(axis.line, "[[zip]] name", "'" + name + "' is already an axis (line " + std::to_string(other.line) + ")");
    }
  }

  void add_axis(Axis axis) {
    for (const std::string& p : axis.params) {
      for (const Axis& other : spec_.axes) {
        for (const std::string& q : other.params) {
          if (p == q) fail(axis.line, axis.name, "parameter '" + p + "' already varies on line " + std::to_string(other.line));
        }
      }
    }
    spec_.axes.push_back(std::move(axis));
  }

  /// A model = ratebased point solves one epoch and reports other metrics than a trace-driven
  /// simulation (docs/models.md, rate-based epochs); one spec holds one kind, so that every metric of
  /// its file means one thing along every axis.
  void check_one_model() const {
    for (const Axis& axis : spec_.axes) {
      for (std::size_t k = 0; k < axis.params.size(); ++k) {
        if (axis.params[k] != "model") continue;
        const bool zip = axis.params.size() > 1 || axis.name != "model";
        refuse_mixed_models(axis.values[k], axis.line, zip ? "[[zip]] " + axis.name + " model" : "[axes] model");
      }
    }
    for (const Factor& f : spec_.design.factors) {
      if (f.name == "model") refuse_mixed_models(f.levels, f.line, "[axes] model");
    }
  }

  void refuse_mixed_models(const std::vector<ParamValue>& values, int line, const std::string& where) const {
    for (const ParamValue& v : values) {
      if (v == values.front()) continue;
      fail(line, where,
           "mixes model = trace and model = ratebased points, whose metrics are not compatible (an epoch's "
           "reward_rate, feasible, ... against a run's jobs_completed, avg_wait_s, ...; even max_inlet_c is a "
           "steady state in one and a run's maximum in the other): write one spec per model");
    }
  }

  void check_axes_apart_from_base() const {
    for (const auto& [name, value] : spec_.base) {
      if (name == "seed") fail(1, "[base] seed", "the seed is set once, in [sweep] seed");
    }
    std::vector<Axis> varying = spec_.axes;  // (a sampled design's factors, before it is sampled)
    for (const Factor& f : spec_.design.factors) varying.push_back({"[axes] " + f.name, {f.name}, {}, f.line});
    for (const Axis& axis : varying) {
      for (const std::string& p : axis.params) {
        if (p == "seed") fail(axis.line, axis.name, "the seed is set once, in [sweep] seed; use replicates");
      }
      for (const std::string& p : axis.params) {
        for (const auto& [name, value] : spec_.base) {
          if (name == p) fail(axis.line, axis.name, "parameter '" + p + "' is set in [base] and varies in an axis");
        }
      }
    }
  }

  std::vector<ParamValue> values(const ParamSpec& spec, const toml::node& node, const std::string& where) const {
    std::vector<ParamValue> out;
    if (const auto* list = node.as_array()) {
      for (const toml::node& element : *list) out.push_back(checked(spec, element, where));
    } else if (const auto* range = node.as_table()) {
      out = expand_range(spec, *range, where);
    } else {
      fail(line_of(node), where, "an axis is a list of values or a range table {start, stop, step | num}");
    }
    if (out.empty()) fail(line_of(node), where, "empty axis");
    return out;
  }

  double number(const toml::table& t, const char* key, const std::string& where) const {
    const toml::node* node = t.get(key);
    if (node == nullptr) fail(line_of(t), where, std::string("range needs '") + key + "'");
    if (const auto* i = node->as_integer()) return static_cast<double>(i->get());
    if (const auto* d = node->as_floating_point()) return d->get();
    fail(line_of(*node), where, std::string("range '") + key + "' must be a number");
  }

  std::vector<ParamValue> expand_range(const ParamSpec& spec, const toml::table& t, const std::string& where) const {
    const int line = line_of(t);
    for (auto&& [key, node] : t) {
      const std::string k(key.str());
      if (k != "start" && k != "stop" && k != "step" && k != "num" && k != "scale") {
        unknown_key(static_cast<int>(key.source().begin.line), where, k, keys_of({"start", "stop", "step", "num", "scale"}));
      }
    }
    if (spec.type != ParamType::real && spec.type != ParamType::integer) fail(line, where, "a range needs a numeric parameter");
    const double start = number(t, "start", where), stop = number(t, "stop", where);
    const std::string scale = t["scale"].value_or(std::string("linear"));
    if (scale != "linear" && scale != "log") fail(line, where, "scale must be \"linear\" or \"log\"");
    if (t.contains("step") == t.contains("num")) fail(line, where, "a range needs exactly one of 'step' and 'num'");
    std::vector<double> numbers = t.contains("num") ? by_count(start, stop, scale, t, where)
                                                    : by_step(start, stop, number(t, "step", where), scale, line, where);
    std::vector<ParamValue> out;
    for (const double x : numbers) {
      try {
        out.push_back(check_param(spec, x));
      } catch (const InputError& e) {
        fail(line, where, e.what());
      }
    }
    return out;
  }

  std::vector<double> by_count(double start, double stop, const std::string& scale, const toml::table& t,
                               const std::string& where) const {
    const auto* num = t.get("num")->as_integer();
    if (num == nullptr || num->get() < 1 || num->get() > std::int64_t(kMaxAxisValues)) {
      fail(line_of(t), where, "range 'num' must be an integer from 1 to 1e6");
    }
    const std::int64_t n = num->get();
    if (scale == "log" && (start <= 0 || stop <= 0)) fail(line_of(t), where, "a log range needs start and stop > 0");
    std::vector<double> out;
    for (std::int64_t i = 0; i < n; ++i) {
      const double f = n == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(n - 1);
      out.push_back(scale == "log" ? start * std::pow(stop / start, f) : start + f * (stop - start));
    }
    if (n > 1) out.back() = stop;  // exact end point, whatever the rounding
    return out;
  }

  std::vector<double> by_step(double start, double stop, double step, const std::string& scale, int line,
                              const std::string& where) const {
    if (scale == "log") fail(line, where, "a log range takes 'num', not 'step'");
    if (step == 0 || (stop - start) * step < 0) fail(line, where, "'step' must be nonzero and lead from start to stop");
    const double count = std::floor((stop - start) / step + 1e-9) + 1;
    if (count > double(kMaxAxisValues)) fail(line, where, "range has more than 1e6 values");
    std::vector<double> out;
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i) out.push_back(start + static_cast<double>(i) * step);
    return out;
  }

  const std::string& path_;
  const ParamCatalog& catalog_;
  const design_spec::Errors errors_{path_};
  SweepSpec spec_;
};

}  // namespace

std::uint64_t SweepSpec::point_count() const {
  std::uint64_t n = static_cast<std::uint64_t>(replicates);
  for (const Axis& axis : axes) n *= axis.size();
  return n;
}

SweepSpec parse_spec(std::string_view text, const std::string& path, const ParamCatalog& catalog) {
  return SpecParser(path, catalog).parse(text);
}

namespace {

std::string values_text(const std::vector<ParamValue>& values) {
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < values.size() && i < 4; ++i) shown.push_back(format_value(values[i]));
  if (values.size() > 4) shown.push_back("...");
  return std::to_string(values.size()) + " values [" + join(shown) + "]";
}

void compare_axis(const Axis& was, const Axis& now, std::vector<std::string>& out) {
  if (was.params != now.params) {
    out.push_back("axis " + now.name + ": varies " + join(now.params) + ", was " + join(was.params));
    return;
  }
  for (std::size_t k = 0; k < now.params.size(); ++k) {
    if (was.values[k] != now.values[k]) {
      const std::string what = now.params.size() > 1 ? now.name + "." + now.params[k] : now.name;
      out.push_back("axis " + what + ": " + values_text(now.values[k]) + ", was " + values_text(was.values[k]));
    }
  }
}

}  // namespace

std::vector<std::string> spec_differences(const SweepSpec& was, const SweepSpec& now) {
  std::vector<std::string> out;
  if (was.name != now.name) out.push_back("[sweep] name: \"" + now.name + "\", was \"" + was.name + "\"");
  if (was.seed != now.seed) out.push_back("[sweep] seed: " + std::to_string(now.seed) + ", was " + std::to_string(was.seed));
  if (was.replicates != now.replicates) {
    out.push_back("[sweep] replicates: " + std::to_string(now.replicates) + ", was " + std::to_string(was.replicates));
  }
  auto find = [](const auto& base, const std::string& name) -> const ParamValue* {
    for (const auto& [n, v] : base) {
      if (n == name) return &v;
    }
    return nullptr;
  };
  for (const auto& [name, value] : now.base) {
    const ParamValue* old = find(was.base, name);
    if (old == nullptr) out.push_back("[base] " + name + " = " + format_value(value) + " added");
    else if (*old != value) out.push_back("[base] " + name + ": " + format_value(value) + ", was " + format_value(*old));
  }
  for (const auto& [name, value] : was.base) {
    if (find(now.base, name) == nullptr) out.push_back("[base] " + name + " removed (was " + format_value(value) + ")");
  }
  const std::vector<std::string> design = design_spec::design_differences(was.design, now.design);
  out.insert(out.end(), design.begin(), design.end());
  if (!design.empty()) return out;  // (the samples differ then too: no need to list them)
  // An adaptive design's axes are compared as the spec gives them (its first round).
  const bool adaptive = now.design.kind == DesignKind::adaptive;
  const std::vector<Axis>& was_grid = adaptive ? was.design.adaptive.axes : was.axes;
  const std::vector<Axis>& now_grid = adaptive ? now.design.adaptive.axes : now.axes;
  std::vector<std::string> was_axes, now_axes;
  for (const Axis& a : was_grid) was_axes.push_back(a.name);
  for (const Axis& a : now_grid) now_axes.push_back(a.name);
  if (was_axes != now_axes) {
    out.push_back("axes: " + join(now_axes) + ", was " + join(was_axes));
  } else {
    for (std::size_t d = 0; d < now_grid.size(); ++d) compare_axis(was_grid[d], now_grid[d], out);
  }
  return out;
}

std::string read_spec_text(const std::string& path) { return read_text_file(path, "the spec"); }

SweepSpec read_spec(const std::string& path, const ParamCatalog& catalog) {
  return parse_spec(read_spec_text(path), path, catalog);
}

}  // namespace dcsweep
