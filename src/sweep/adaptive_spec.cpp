// [design] kind = "adaptive": its keys, the checks that need the axes, and the `sample` axis its
// points become (analysis/adaptive.hpp does the refining).
#include <algorithm>
#include <cmath>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sweep/grid.hpp"
#include "dcsweep/sweep/point.hpp"
#include "design_spec.hpp"

namespace dcsweep {
namespace design_spec {
namespace {

int line_of(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

double positive(const toml::node& node, const std::string& where, const Errors& errors) {
  const std::optional<double> v = node.value<double>();
  if (!v || !std::isfinite(*v) || *v <= 0)
    errors.fail(line_of(node), where, "expected a number > 0 (in the axis' units)");
  return *v;
}

void min_step_key(AdaptiveDesign& a, const toml::node& node, const Errors& errors) {
  a.has_min_step = true;
  a.min_step_line = line_of(node);
  if (const auto* t = node.as_table()) {
    for (auto&& [key, value] : *t) {
      a.min_steps.emplace_back(std::string(key.str()),
                               positive(value, "[design] min_step." + std::string(key.str()), errors));
    }
    if (a.min_steps.empty())
      errors.fail(a.min_step_line, "[design] min_step", "expected a number > 0 or a table { axis = step }");
    return;
  }
  a.min_step = positive(node, "[design] min_step", errors);
}

void refine_axes_key(AdaptiveDesign& a, const toml::node& node, const Errors& errors) {
  a.refine_axes_line = line_of(node);
  const auto* list = node.as_array();
  if (list == nullptr || list->empty())
    errors.fail(a.refine_axes_line, "[design] refine_axes", "expected a list of axis names");
  for (const toml::node& name : *list) {
    if (!name.is_string()) errors.fail(a.refine_axes_line, "[design] refine_axes", "expected a list of axis names");
    a.refine_axes.push_back(name.as_string()->get());
  }
}

}  // namespace

void adaptive_key(AdaptiveDesign& a, const std::string& name, const toml::node& node, const Errors& errors) {
  const std::string where = "[design] " + name;
  if (name == "refine_metric") {
    if (!node.is_string()) errors.fail(line_of(node), where, "expected a metric's name");
    a.metric = node.as_string()->get();
    a.metric_line = line_of(node);
  } else if (name == "refine_threshold") {
    const std::optional<double> v = node.value<double>();
    if (!v || !std::isfinite(*v)) errors.fail(line_of(node), where, "expected a finite number (in the metric's units)");
    a.rule.threshold = *v;
  } else if (name == "refine_change") {
    const std::optional<std::string> v = node.value<std::string>();
    if (!v || (*v != "absolute" && *v != "relative"))
      errors.fail(line_of(node), where, "expected \"absolute\" or \"relative\"");
    a.rule.change = *v == "relative" ? analysis::ChangeScale::relative : analysis::ChangeScale::absolute;
  } else if (name == "refine_splits") {
    const auto* v = node.as_integer();
    if (v == nullptr || v->get() < 2 || v->get() > 64)
      errors.fail(line_of(node), where, "expected an integer from 2 to 64");
    a.rule.splits = static_cast<int>(v->get());
  } else if (name == "max_points") {
    const auto* v = node.as_integer();
    if (v == nullptr || v->get() < 1 || v->get() > std::int64_t(kMaxDesignSamples)) {
      errors.fail(line_of(node), where, "expected an integer from 1 to 1e7");
    }
    a.rule.max_points = static_cast<std::uint64_t>(v->get());
    a.has_max_points = true;
    a.max_points_line = line_of(node);
  } else if (name == "min_step") {
    min_step_key(a, node, errors);
  } else if (name == "refine_axes") {
    refine_axes_key(a, node, errors);
  }
}

namespace {

bool numeric_axis(const Axis& axis, const ParamCatalog& catalog) {
  if (axis.params.size() != 1 || axis.params.front() != axis.name) return false;
  const ParamType type = catalog.at(catalog.index_of(axis.name)).type;
  return type == ParamType::real || type == ParamType::integer;
}

std::vector<std::string> axis_names(const std::vector<Axis>& axes) {
  std::vector<std::string> names;
  for (const Axis& axis : axes) names.push_back(axis.name);
  return names;
}

/// Which axes rounds refine: refine_axes (each a numeric axis), else every numeric axis.
void choose_refined(AdaptiveDesign& a, const ParamCatalog& catalog, int line, const Errors& errors) {
  const std::vector<std::string> names = axis_names(a.axes);
  for (const std::string& name : a.refine_axes) {
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) {
      errors.fail(a.refine_axes_line, "[design] refine_axes",
                  "'" + name + "' is not an axis (axes: " + join(names) + ")");
    }
    if (!numeric_axis(a.axes[std::size_t(it - names.begin())], catalog)) {
      errors.fail(a.refine_axes_line, "[design] refine_axes",
                  "axis '" + name +
                      "' is categorical (a zip group, or not a number): an adaptive design refines numeric axes and "
                      "keeps the others whole");
    }
  }
  for (const Axis& axis : a.axes) {
    const bool named = std::find(a.refine_axes.begin(), a.refine_axes.end(), axis.name) != a.refine_axes.end();
    a.rule.refined.push_back(a.refine_axes.empty() ? numeric_axis(axis, catalog) : named);
    a.rule.integer.push_back(a.rule.refined.back() &&
                             catalog.at(catalog.index_of(axis.name)).type == ParamType::integer);
  }
  if (std::none_of(a.rule.refined.begin(), a.rule.refined.end(), [](bool r) { return r; })) {
    errors.fail(line, "[design]",
                "kind = \"adaptive\" needs a numeric axis to refine ([axes] lists " +
                    (names.empty() ? std::string("none") : join(names)) + ")");
  }
}

/// min_step per refined axis: one number for all, or a table naming each.
void set_min_steps(AdaptiveDesign& a, const Errors& errors) {
  const std::vector<std::string> names = axis_names(a.axes);
  a.rule.min_step.assign(a.axes.size(), a.min_step);
  if (a.min_steps.empty()) return;
  for (const auto& [name, step] : a.min_steps) {
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end() || !a.rule.refined[std::size_t(it - names.begin())]) {
      errors.fail(a.min_step_line, "[design] min_step", "'" + name + "' is not a refined axis");
    }
    a.rule.min_step[std::size_t(it - names.begin())] = step;
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (a.rule.refined[i] && a.rule.min_step[i] == 0) {
      errors.fail(a.min_step_line, "[design] min_step", "refined axis '" + names[i] + "' has no step");
    }
  }
}

std::vector<double> first_values(const Axis& axis, bool refined) {
  std::vector<double> out;
  for (std::size_t i = 0; i < axis.size(); ++i) {
    const ParamValue& v = axis.values.front()[i];
    out.push_back(!refined                            ? double(i)
                  : std::holds_alternative<double>(v) ? std::get<double>(v)
                                                      : double(std::get<std::int64_t>(v)));
  }
  if (refined) {
    std::vector<double> sorted = out;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) out.clear();  // (refused by the caller)
  }
  return out;
}

void check_metric(const SweepSpec& spec, const ParamCatalog& catalog, const Errors& errors) {
  const AdaptiveDesign& a = spec.design.adaptive;
  const ResultLayout layout = ResultLayout::of_grid(Grid(spec, catalog));
  std::vector<std::string> names;
  for (const MetricSpec& m : layout.metrics) names.push_back(m.name);
  if (std::find(names.begin(), names.end(), a.metric) != names.end()) return;
  const std::string hint = closest_name(a.metric, names);
  errors.fail(a.metric_line, "[design] refine_metric",
              "'" + a.metric + "' is not a metric of this sweep's points" +
                  (hint.empty() ? "" : " (did you mean '" + hint + "'?)") + "; its metrics: " + join(names));
}

}  // namespace

void adaptive_design(SweepSpec& spec, const ParamCatalog& catalog, const Errors& errors) {
  AdaptiveDesign& a = spec.design.adaptive;
  a.axes = spec.axes;
  choose_refined(a, catalog, spec.design.line, errors);
  set_min_steps(a, errors);
  std::vector<std::vector<double>> values;
  for (std::size_t i = 0; i < a.axes.size(); ++i) {
    values.push_back(first_values(a.axes[i], a.rule.refined[i]));
    if (values.back().empty())
      errors.fail(a.axes[i].line, "[axes] " + a.axes[i].name, "a refined axis' values must differ from one another");
  }
  analysis::AdaptivePoints first = analysis::first_round(values);
  if (a.rule.max_points < first.size()) {
    errors.fail(a.max_points_line, "[design] max_points",
                std::to_string(a.rule.max_points) + " is smaller than the first round (" +
                    std::to_string(first.size()) + " points: the product of the axes' values)");
  }
  adopt_points(spec, std::move(first));
  check_metric(spec, catalog, errors);
}

std::vector<std::string> adaptive_differences(const AdaptiveDesign& was, const AdaptiveDesign& now) {
  std::vector<std::string> out;
  auto differ = [&](const std::string& key, const std::string& a, const std::string& b) {
    if (a != b) out.push_back("[design] " + key + ": " + b + ", was " + a);
  };
  auto threshold = [](const analysis::RefineRule& r) {
    return r.threshold ? format_number(*r.threshold) : std::string("none");
  };
  auto steps = [](const AdaptiveDesign& a) {
    std::vector<std::string> s;
    for (std::size_t i = 0; i < a.axes.size(); ++i) {
      if (a.rule.refined[i]) s.push_back(a.axes[i].name + " " + format_number(a.rule.min_step[i]));
    }
    return join(s);
  };
  differ("refine_metric", was.metric, now.metric);
  differ("refine_threshold", threshold(was.rule), threshold(now.rule));
  differ("refine_change", was.rule.change == analysis::ChangeScale::relative ? "relative" : "absolute",
         now.rule.change == analysis::ChangeScale::relative ? "relative" : "absolute");
  differ("refine_splits", std::to_string(was.rule.splits), std::to_string(now.rule.splits));
  differ("max_points", std::to_string(was.rule.max_points), std::to_string(now.rule.max_points));
  differ("min_step (refined axes)", steps(was), steps(now));
  return out;
}

}  // namespace design_spec

void adopt_points(SweepSpec& spec, analysis::AdaptivePoints points) {
  AdaptiveDesign& a = spec.design.adaptive;
  a.points = std::move(points);
  Axis sample{kSampleAxis, {}, {}, spec.design.line};
  for (std::size_t i = 0; i < a.axes.size(); ++i) {
    const Axis& axis = a.axes[i];
    for (std::size_t k = 0; k < axis.params.size(); ++k) {
      sample.params.push_back(axis.params[k]);
      std::vector<ParamValue> column;
      column.reserve(a.points.size());
      for (std::size_t p = 0; p < a.points.size(); ++p) {
        const double x = a.points.at(p, i);
        if (!a.rule.refined[i])
          column.push_back(axis.values[k][static_cast<std::size_t>(x)]);
        else if (a.rule.integer[i])
          column.emplace_back(static_cast<std::int64_t>(std::llround(x)));
        else
          column.emplace_back(x);
      }
      sample.values.push_back(std::move(column));
    }
  }
  spec.axes = {std::move(sample)};
}

std::size_t refine_design(SweepSpec& spec, std::span<const double> metric) {
  analysis::AdaptivePoints points = spec.design.adaptive.points;
  const std::size_t added = analysis::refine(spec.design.adaptive.rule, points, metric);
  if (added > 0) adopt_points(spec, std::move(points));
  return added;
}

}  // namespace dcsweep
