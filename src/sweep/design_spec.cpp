#include "design_spec.hpp"

#include <algorithm>
#include <cmath>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {

using analysis::Distribution;

std::string_view design_name(DesignKind kind) {
  switch (kind) {
    case DesignKind::grid: return "grid";
    case DesignKind::lhs: return "lhs";
    case DesignKind::sobol: return "sobol";
    case DesignKind::morris: return "morris";
    case DesignKind::adaptive: return "adaptive";
  }
  return "grid";
}

std::uint64_t Design::rows() const {
  const auto k = factors.size();
  switch (kind) {
    case DesignKind::grid: return 0;
    case DesignKind::lhs: return static_cast<std::uint64_t>(samples);
    case DesignKind::sobol: return analysis::saltelli_rows(static_cast<std::size_t>(base_samples), k, second_order);
    case DesignKind::morris: return analysis::morris_rows(static_cast<std::size_t>(trajectories), k);
    case DesignKind::adaptive: return adaptive.points.size();
  }
  return 0;
}

ParamValue Factor::value_at(double u, const ParamSpec& spec) const {
  if (discrete) return levels[analysis::level_of(u, levels.size())];
  if (spec.type != ParamType::integer) return distribution.quantile(u);
  const auto lo = static_cast<std::int64_t>(distribution.min), hi = static_cast<std::int64_t>(distribution.max);
  if (distribution.kind == Distribution::Kind::uniform) {
    return lo + static_cast<std::int64_t>(analysis::level_of(u, static_cast<std::size_t>(hi - lo + 1)));
  }
  return std::clamp(static_cast<std::int64_t>(std::llround(distribution.quantile(u))), lo, hi);
}

std::string Factor::text() const {
  if (!discrete) return distribution.text();
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < levels.size() && i < 6; ++i) shown.push_back(format_value(levels[i]));
  if (levels.size() > 6) shown.push_back("...");
  std::string text = std::to_string(levels.size());
  text += levels.size() == 1 ? " level [" : " levels [";
  text += join(shown);
  text += ']';
  return text;
}

namespace design_spec {
namespace {

int line_of(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

std::string quoted(std::string_view text) {
  std::string out = "\"";
  out += text;
  out += '"';
  return out;
}

/// The keys a [design] of each kind takes.
std::vector<std::string> keys_of(DesignKind kind) {
  switch (kind) {
    case DesignKind::grid: return {"kind"};
    case DesignKind::lhs: return {"kind", "samples", "seed"};
    case DesignKind::sobol: return {"kind", "base_samples", "second_order", "seed"};
    case DesignKind::morris: return {"kind", "trajectories", "levels", "seed"};
    case DesignKind::adaptive:
      return {"kind", "refine_metric", "refine_threshold", "refine_change", "refine_axes", "refine_splits", "min_step", "max_points"};
  }
  return {};
}

DesignKind kind_of(const toml::table& t, const Errors& errors) {
  const toml::node* node = t.get("kind");
  if (node == nullptr) return DesignKind::grid;
  const std::vector<std::string> kinds = {"grid", "lhs", "sobol", "morris", "adaptive"};
  if (const auto* text = node->as_string()) {
    for (std::size_t k = 0; k < kinds.size(); ++k) {
      if (text->get() == kinds[k]) return static_cast<DesignKind>(k);
    }
  }
  errors.fail(line_of(*node), "[design] kind", "expected one of \"grid\", \"lhs\", \"sobol\", \"morris\", \"adaptive\"");
}

std::int64_t integer(const toml::node& node, std::int64_t least, std::int64_t most, const std::string& where,
                     const Errors& errors) {
  const auto* v = node.as_integer();
  if (v == nullptr || v->get() < least || v->get() > most) {
    errors.fail(line_of(node), where,
                "expected an integer from " + std::to_string(least) + " to " + std::to_string(most));
  }
  return v->get();
}

void require(bool present, const Design& d, const char* key, const Errors& errors) {
  if (!present) {
    errors.fail(d.line, "[design]",
                "kind = " + quoted(design_name(d.kind)) + " needs '" + key + "' (" +
                    (d.kind == DesignKind::lhs       ? "the number of samples"
                     : d.kind == DesignKind::sobol   ? "N, the base samples: N (k + 2) points for k factors"
                                                     : "r, the trajectories: r (k + 1) points for k factors") +
                    ")");
  }
}

}  // namespace

void Errors::fail(int line, const std::string& where, const std::string& what) const {
  throw InputError(path + ":" + std::to_string(line) + ": " + where + ": " + what);
}

namespace {

/// A key that kind `kind` does not take: another kind's (say whose), or a typo (the closest).
[[noreturn]] void refuse_key(const std::string& name, int line, DesignKind kind, const Errors& errors) {
  const std::vector<std::string> all = {"kind", "samples", "base_samples", "second_order", "trajectories", "levels", "seed",
                                        "refine_metric", "refine_threshold", "refine_change", "refine_axes", "refine_splits",
                                        "min_step", "max_points"};
  std::string what = "'" + name + "' is not a key of kind = " + quoted(design_name(kind)) + " (its keys: " +
                     join(keys_of(kind)) + ")";
  if (std::find(all.begin(), all.end(), name) == all.end()) {
    const std::string hint = closest_name(name, all);
    what = "unknown key '" + name + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)");
  }
  errors.fail(line, "[design]", what);
}

/// One key of the table into `d` (the kind's own keys only).
void set_key(Design& d, const std::string& name, const toml::node& node, const Errors& errors) {
  constexpr std::int64_t kMax = static_cast<std::int64_t>(kMaxDesignSamples);
  const std::string where = "[design] " + name;
  if (name == "samples") d.samples = integer(node, 1, kMax, where, errors);
  if (name == "base_samples") d.base_samples = integer(node, 2, kMax, where, errors);
  if (name == "trajectories") d.trajectories = integer(node, 2, kMax, where, errors);
  if (name == "seed") d.seed = static_cast<std::uint64_t>(integer(node, 0, INT64_MAX, where, errors));
  if (name == "levels") {
    d.levels = integer(node, 2, 1000, where, errors);
    if (d.levels % 2 != 0) {
      errors.fail(line_of(node), where, "Morris levels must be even (delta = p / (2 (p - 1)) then keeps every step on the grid)");
    }
  }
  if (name == "second_order") {
    if (!node.is_boolean()) errors.fail(line_of(node), where, "expected true or false");
    d.second_order = node.as_boolean()->get();
  }
}

/// What an adaptive design cannot do without: the metric, the resolution and the budget.
void require_adaptive(const toml::table& t, const Design& d, const Errors& errors) {
  const std::vector<std::pair<const char*, const char*>> needed = {
      {"refine_metric", "the metric whose change or threshold crossing the rounds refine"},
      {"min_step", "the finest spacing, in the axes' units: one number, or { axis = step, ... }"},
      {"max_points", "the budget of points in all rounds together"}};
  for (const auto& [key, what] : needed) {
    if (!t.contains(key)) errors.fail(d.line, "[design]", std::string("kind = \"adaptive\" needs '") + key + "' (" + what + ")");
  }
  if (d.adaptive.rule.threshold && t.contains("refine_change")) {
    errors.fail(line_of(*t.get("refine_change")), "[design] refine_change",
                "applies where the rounds refine where the metric changes most; with refine_threshold they refine where it crosses the threshold");
  }
}

}  // namespace

Design parse_design(const toml::table& t, std::uint64_t seed, const Errors& errors) {
  Design d;
  d.line = line_of(t);
  d.kind = kind_of(t, errors);
  d.seed = seed;
  const std::vector<std::string> keys = keys_of(d.kind);
  for (auto&& [key, node] : t) {
    const std::string name(key.str());
    if (std::find(keys.begin(), keys.end(), name) == keys.end()) {
      refuse_key(name, static_cast<int>(key.source().begin.line), d.kind, errors);
    }
    if (d.kind == DesignKind::adaptive) adaptive_key(d.adaptive, name, node, errors);
    else set_key(d, name, node, errors);
  }
  if (d.kind == DesignKind::adaptive) require_adaptive(t, d, errors);
  if (d.kind == DesignKind::lhs) require(t.contains("samples"), d, "samples", errors);
  if (d.kind == DesignKind::sobol) require(t.contains("base_samples"), d, "base_samples", errors);
  if (d.kind == DesignKind::morris) require(t.contains("trajectories"), d, "trajectories", errors);
  return d;
}

bool is_factor_table(const toml::node& node) {
  const auto* t = node.as_table();
  if (t == nullptr) return false;
  for (const char* key : {"min", "max", "distribution", "mean", "sd"}) {
    if (t->contains(key)) return true;
  }
  return false;
}

namespace {

double number(const toml::table& t, const char* key, const std::string& where, const Errors& errors) {
  const toml::node* node = t.get(key);
  if (const auto* i = node->as_integer()) return static_cast<double>(i->get());
  if (const auto* f = node->as_floating_point()) {
    if (std::isfinite(f->get())) return f->get();
  }
  errors.fail(line_of(*node), where, std::string("'") + key + "' must be a finite number");
}

Distribution::Kind distribution_kind(const toml::table& t, const std::string& where, const Errors& errors) {
  const toml::node* node = t.get("distribution");
  if (node == nullptr) return Distribution::Kind::uniform;
  for (const auto kind : {Distribution::Kind::uniform, Distribution::Kind::log_uniform, Distribution::Kind::normal}) {
    if (node->is_string() && node->as_string()->get() == analysis::kind_name(kind)) return kind;
  }
  errors.fail(line_of(*node), where, "distribution must be \"uniform\", \"log_uniform\" or \"normal\"");
}

/// The bounds are values of the parameter: its own range applies (with the parameter's message).
void check_bound(const ParamSpec& spec, const toml::table& t, const char* key, const std::string& where,
                 const Errors& errors) {
  const toml::node* node = t.get(key);
  if (spec.type == ParamType::integer && !node->is_integer()) {
    errors.fail(line_of(*node), where, std::string("'") + key + "' must be an integer: '" + spec.name + "' is an integer parameter");
  }
  const ParamValue value = spec.type == ParamType::integer ? ParamValue{node->as_integer()->get()}
                                                           : ParamValue{number(t, key, where, errors)};
  try {
    check_param(spec, value);
  } catch (const InputError& e) {
    errors.fail(line_of(*node), where, std::string(key) + ": " + e.what());
  }
}

}  // namespace

namespace {

void refuse_unknown_factor_keys(const toml::table& t, const std::string& where, const Errors& errors) {
  const std::vector<std::string> known = {"min", "max", "distribution", "mean", "sd"};
  for (auto&& [key, node] : t) {
    const std::string k(key.str());
    if (std::find(known.begin(), known.end(), k) != known.end()) continue;
    const std::string hint = closest_name(k, known);
    errors.fail(static_cast<int>(key.source().begin.line), where,
                "unknown key '" + k + "' of a factor" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
  }
}

/// A normal factor's mean and sd (required), which no other distribution takes.
void normal_parameters(Factor& f, const toml::table& t, const std::string& where, const Errors& errors) {
  const bool normal = f.distribution.kind == Distribution::Kind::normal;
  for (const char* key : {"mean", "sd"}) {
    if (t.contains(key) != normal) {
      errors.fail(f.line, where, normal ? std::string("a normal factor needs '") + key + "'"
                                        : std::string("'") + key + "' applies to distribution = \"normal\" only");
    }
  }
  if (!normal) return;
  f.distribution.mean = number(t, "mean", where, errors);
  f.distribution.sd = number(t, "sd", where, errors);
  if (!(f.distribution.sd > 0)) errors.fail(f.line, where, "'sd' must be > 0");
}

}  // namespace

Factor continuous_factor(const ParamSpec& spec, const toml::table& t, int line, const Errors& errors) {
  const std::string where = "[axes] " + spec.name;
  refuse_unknown_factor_keys(t, where, errors);
  if (spec.type != ParamType::real && spec.type != ParamType::integer) {
    errors.fail(line, where, "a { min, max } factor needs a numeric parameter ('" + spec.name + "' is " +
                                 std::string(type_name(spec.type)) + "); list its values instead");
  }
  Factor f{spec.name};
  f.line = line;
  f.distribution.kind = distribution_kind(t, where, errors);
  if (!t.contains("min") || !t.contains("max")) {
    errors.fail(line, where, f.distribution.kind == Distribution::Kind::normal
                                 ? "a normal factor needs 'min' and 'max' (it is truncated to them)"
                                 : "a factor needs 'min' and 'max'");
  }
  check_bound(spec, t, "min", where, errors);
  check_bound(spec, t, "max", where, errors);
  f.distribution.min = number(t, "min", where, errors);
  f.distribution.max = number(t, "max", where, errors);
  if (!(f.distribution.min < f.distribution.max)) errors.fail(line, where, "'min' must be below 'max'");
  if (f.distribution.kind == Distribution::Kind::log_uniform && f.distribution.min <= 0) {
    errors.fail(line, where, "a log_uniform factor needs min > 0");
  }
  normal_parameters(f, t, where, errors);
  return f;
}

namespace {

analysis::UnitDesign generate(const Design& d) {
  const std::size_t k = d.factors.size();
  switch (d.kind) {
    case DesignKind::lhs: return analysis::latin_hypercube(static_cast<std::size_t>(d.samples), k, d.seed);
    case DesignKind::sobol:
      return analysis::saltelli(static_cast<std::size_t>(d.base_samples), k, d.second_order, d.seed);
    case DesignKind::morris:
      return analysis::morris(static_cast<std::size_t>(d.trajectories), k, static_cast<int>(d.levels), d.seed);
    case DesignKind::grid:
    case DesignKind::adaptive: break;
  }
  return {};
}

}  // namespace

void sample_design(SweepSpec& spec, const ParamCatalog& catalog, const Errors& errors) {
  Design& d = spec.design;
  if (d.kind == DesignKind::adaptive) adaptive_design(spec, catalog, errors);
  if (!d.sampled()) return;
  const std::string kind = quoted(design_name(d.kind));
  if (d.factors.empty()) errors.fail(d.line, "[design]", "kind = " + kind + " needs factors: list them in [axes] ({ min, max } or a list of levels)");
  if (d.kind == DesignKind::sobol && d.factors.size() > analysis::kMaxSobolFactors) {
    errors.fail(d.line, "[design]", "a sobol design takes at most " + std::to_string(analysis::kMaxSobolFactors) + " factors");
  }
  const double rows = static_cast<double>(d.rows()), values = rows * static_cast<double>(d.factors.size());
  if (values > double(kMaxDesignSamples)) {
    errors.fail(d.line, "[design]", "kind = " + kind + " with " + std::to_string(d.factors.size()) + " factors has " +
                                        format_number(rows) + " samples, above the limit of 1e7 factor values (samples x factors) per sweep; split it");
  }
  d.unit = generate(d);
  Axis axis{kSampleAxis, {}, {}, d.line};
  for (std::size_t f = 0; f < d.factors.size(); ++f) {
    const Factor& factor = d.factors[f];
    const ParamSpec& param = catalog.at(catalog.index_of(factor.name));
    axis.params.push_back(factor.name);
    std::vector<ParamValue> column;
    column.reserve(d.unit.rows());
    for (std::size_t r = 0; r < d.unit.rows(); ++r) column.push_back(factor.value_at(d.unit.at(r, f), param));
    axis.values.push_back(std::move(column));
  }
  spec.axes = {std::move(axis)};
}

std::vector<std::string> design_differences(const Design& was, const Design& now) {
  std::vector<std::string> out;
  if (!was.along_sample() && !now.along_sample()) return out;  // (a grid's [design] holds nothing else)
  auto differ = [&](const std::string& key, const std::string& a, const std::string& b) {
    if (a != b) out.push_back("[design] " + key + ": " + b + ", was " + a);
  };
  differ("kind", std::string(design_name(was.kind)), std::string(design_name(now.kind)));
  differ("samples", std::to_string(was.samples), std::to_string(now.samples));
  differ("base_samples", std::to_string(was.base_samples), std::to_string(now.base_samples));
  differ("second_order", was.second_order ? "true" : "false", now.second_order ? "true" : "false");
  differ("trajectories", std::to_string(was.trajectories), std::to_string(now.trajectories));
  differ("levels", std::to_string(was.levels), std::to_string(now.levels));
  differ("seed", std::to_string(was.seed), std::to_string(now.seed));
  if (was.kind == DesignKind::adaptive && now.kind == DesignKind::adaptive) {
    const std::vector<std::string> adaptive = adaptive_differences(was.adaptive, now.adaptive);
    out.insert(out.end(), adaptive.begin(), adaptive.end());
    return out;  // (its axes are compared as a grid's)
  }
  std::vector<std::string> was_names, now_names;
  for (const Factor& f : was.factors) was_names.push_back(f.name);
  for (const Factor& f : now.factors) now_names.push_back(f.name);
  if (was_names != now_names) {
    out.push_back("factors: " + join(now_names) + ", was " + join(was_names));
    return out;
  }
  for (std::size_t f = 0; f < now.factors.size(); ++f) {
    if (!(was.factors[f].text() == now.factors[f].text() && was.factors[f].levels == now.factors[f].levels)) {
      out.push_back("factor " + now.factors[f].name + ": " + now.factors[f].text() + ", was " + was.factors[f].text());
    }
  }
  return out;
}

}  // namespace design_spec
}  // namespace dcsweep
