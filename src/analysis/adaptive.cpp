#include "dcsweep/analysis/adaptive.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace dcsweep::analysis {
namespace {

using Key = std::vector<double>;

/// Calls `emit` with every combination of `values` (one value per axis), row-major: the last
/// axis fastest, as a grid's flat index.
void for_each_combination(const std::vector<std::vector<double>>& values, const std::function<void(const Key&)>& emit) {
  for (const auto& v : values) {
    if (v.empty()) return;
  }
  std::vector<std::size_t> at(values.size(), 0);
  Key x(values.size());
  for (;;) {
    for (std::size_t a = 0; a < values.size(); ++a) x[a] = values[a][at[a]];
    emit(x);
    std::size_t a = values.size();
    while (a > 0 && ++at[a - 1] == values[a - 1].size()) at[--a] = 0;
    if (a == 0) return;
  }
}

Key cell_of(const RefineRule& rule, const AdaptivePoints& points, std::size_t p) {
  Key cell;
  for (std::size_t a = 0; a < points.axes; ++a) {
    if (!rule.refined[a]) cell.push_back(points.at(p, a));
  }
  return cell;
}

/// Which side of the threshold a value is on; no value is a side of its own.
int side(double m, double threshold) { return std::isnan(m) ? 2 : (m >= threshold ? 1 : 0); }

double pair_score(const RefineRule& rule, double lo, double hi) {
  if (rule.threshold) return side(lo, *rule.threshold) != side(hi, *rule.threshold) ? 1.0 : 0.0;
  if (std::isnan(lo) && std::isnan(hi)) return 0;
  if (std::isnan(lo) != std::isnan(hi)) return INFINITY;
  const double change = std::fabs(hi - lo);
  if (rule.change == ChangeScale::absolute) return change;
  const double scale = std::max(std::fabs(lo), std::fabs(hi));
  return scale == 0 ? 0.0 : change / scale;
}

/// Adds one line's pair (lo, hi) to the interval's score: crossings add up, changes keep the largest.
void combine(const RefineRule& rule, Interval& interval, bool fresh, double score, double m_lo, double m_hi) {
  const bool first_crossing = rule.threshold && score > 0 && interval.score == 0;
  const bool larger = !rule.threshold && (fresh || score > interval.score);
  if (fresh || first_crossing || larger) interval.metric_lo = m_lo, interval.metric_hi = m_hi;
  interval.score = rule.threshold ? interval.score + score : (larger ? score : interval.score);
}

/// The lines along axis `a`: points grouped by every other coordinate, sorted along `a`.
std::map<Key, std::vector<std::size_t>> lines_along(const AdaptivePoints& points, std::size_t a) {
  std::map<Key, std::vector<std::size_t>> lines;
  for (std::size_t p = 0; p < points.size(); ++p) {
    Key key(points.x.begin() + std::ptrdiff_t(p * points.axes),
            points.x.begin() + std::ptrdiff_t((p + 1) * points.axes));
    key.erase(key.begin() + std::ptrdiff_t(a));
    lines[key].push_back(p);
  }
  for (auto& [key, members] : lines) {
    std::sort(members.begin(), members.end(),
              [&](std::size_t p, std::size_t q) { return points.at(p, a) < points.at(q, a); });
  }
  return lines;
}

/// The values that cut `interval` into (at most) `splits` equal parts no narrower than needed.
std::vector<double> split_values(const RefineRule& rule, const Interval& interval) {
  const double width = interval.hi - interval.lo, step = rule.min_step[interval.axis];
  int parts = rule.splits;
  if (step > 0) parts = std::min(parts, std::max(2, static_cast<int>(std::ceil(width / step - 1e-9))));
  std::vector<double> out;
  for (int j = 1; j < parts; ++j) {
    double v = (interval.lo * double(parts - j) + interval.hi * double(j)) / double(parts);
    if (rule.integer[interval.axis]) v = std::round(v);
    if (v > interval.lo && v < interval.hi && (out.empty() || v != out.back())) out.push_back(v);
  }
  return out;
}

/// The intervals a round subdivides, best first: every refinable crossing, or every refinable
/// interval changing at least half as much as the one changing most.
std::vector<Interval> candidates(const RefineRule& rule, const AdaptivePoints& points, std::span<const double> metric) {
  std::vector<Interval> out;
  double best = 0;
  for (Interval& interval : score_intervals(rule, points, metric)) {
    if (interval.score <= 0 || !refinable(rule, interval)) continue;
    best = std::max(best, interval.score);
    out.push_back(std::move(interval));
  }
  if (!rule.threshold) std::erase_if(out, [&](const Interval& i) { return i.score < 0.5 * best; });
  std::stable_sort(out.begin(), out.end(), [](const Interval& a, const Interval& b) { return a.score > b.score; });
  return out;
}

/// One cell's value set per axis (refined axes only; the others stay empty).
using ValueSets = std::vector<std::set<double>>;

}  // namespace

bool Interval::operator<(const Interval& o) const {
  return std::tie(cell, axis, lo, hi) < std::tie(o.cell, o.axis, o.lo, o.hi);
}

AdaptivePoints first_round(std::span<const std::vector<double>> values) {
  AdaptivePoints points;
  points.axes = values.size();
  for_each_combination({values.begin(), values.end()}, [&](const Key& x) {
    points.x.insert(points.x.end(), x.begin(), x.end());
    points.round.push_back(0);
  });
  return points;
}

std::vector<Interval> score_intervals(const RefineRule& rule, const AdaptivePoints& points,
                                      std::span<const double> metric) {
  std::map<std::tuple<Key, std::size_t, double, double>, Interval> found;
  for (std::size_t a = 0; a < points.axes; ++a) {
    if (!rule.refined[a]) continue;
    for (const auto& [key, line] : lines_along(points, a)) {
      for (std::size_t i = 0; i + 1 < line.size(); ++i) {
        const std::size_t p = line[i], q = line[i + 1];
        Key cell = cell_of(rule, points, p);
        const double lo = points.at(p, a), hi = points.at(q, a);
        auto [it, fresh] = found.try_emplace({cell, a, lo, hi}, Interval{cell, a, lo, hi});
        combine(rule, it->second, fresh, pair_score(rule, metric[p], metric[q]), metric[p], metric[q]);
      }
    }
  }
  std::vector<Interval> out;
  for (auto& [key, interval] : found) out.push_back(std::move(interval));
  return out;
}

std::vector<std::size_t> points_per_round(const AdaptivePoints& points) {
  std::vector<std::size_t> out(static_cast<std::size_t>(points.rounds()), 0);
  for (const std::int32_t r : points.round) ++out[static_cast<std::size_t>(r)];
  return out;
}

bool refinable(const RefineRule& rule, const Interval& interval) {
  const double width = interval.hi - interval.lo;
  if (rule.integer[interval.axis] && width < 2) return false;
  return width > rule.min_step[interval.axis] * (1 + 1e-9);  // (a spacing of 0.1 is 0.1000000000000014 in doubles)
}

std::size_t refine(const RefineRule& rule, AdaptivePoints& points, std::span<const double> metric) {
  std::map<Key, ValueSets> have, added;
  for (std::size_t p = 0; p < points.size(); ++p) {
    ValueSets& sets = have[cell_of(rule, points, p)];
    sets.resize(points.axes);
    for (std::size_t a = 0; a < points.axes; ++a) {
      if (rule.refined[a]) sets[a].insert(points.at(p, a));
    }
  }
  std::uint64_t total = points.size();
  for (const Interval& interval : candidates(rule, points, metric)) {
    const ValueSets& old = have[interval.cell];
    ValueSets& add = added[interval.cell];
    add.resize(points.axes);
    std::vector<double> values = split_values(rule, interval);
    std::erase_if(values, [&](double v) { return old[interval.axis].contains(v) || add[interval.axis].contains(v); });
    // The new hyperplanes: each value times the cell's product over the other refined axes.
    std::uint64_t cost = values.size();
    for (std::size_t b = 0; b < points.axes; ++b) {
      if (rule.refined[b] && b != interval.axis) cost *= old[b].size() + add[b].size();
    }
    if (values.empty() || total + cost > rule.max_points) continue;
    total += cost;
    add[interval.axis].insert(values.begin(), values.end());
  }
  const std::size_t before = points.size();
  const std::int32_t round = points.rounds();
  for (const auto& entry : added) {
    const Key& cell = entry.first;
    const ValueSets& add = entry.second;  // (not a structured binding: clang's lambdas cannot capture one)
    const ValueSets& old = have[cell];
    std::vector<std::vector<double>> values(points.axes);
    std::size_t kept = 0;
    for (std::size_t a = 0; a < points.axes; ++a) {
      if (!rule.refined[a])
        values[a] = {cell[kept++]};
      else
        values[a].insert(values[a].end(), old[a].begin(), old[a].end()),
            values[a].insert(values[a].end(), add[a].begin(), add[a].end());
      std::sort(values[a].begin(), values[a].end());
    }
    for_each_combination(values, [&](const Key& x) {
      for (std::size_t a = 0; a < points.axes; ++a) {
        if (rule.refined[a] && add[a].contains(x[a])) {
          points.x.insert(points.x.end(), x.begin(), x.end());
          points.round.push_back(round);
          return;
        }
      }
    });
  }
  return points.size() - before;
}

}  // namespace dcsweep::analysis
