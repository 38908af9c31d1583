#pragma once
// Adaptive refinement of a grid ([design] kind = "adaptive", issue 32), as a pure function of
// the points so far and the metric they gave: the same inputs give the same next round on every
// rank, in every run, and on a resume that replays the rounds from the journal.
//
// The axes of the grid are refined (numeric) or kept whole (categorical, zip groups, numeric
// axes not named in refine_axes). A *cell* is one combination of the kept axes' values; within a
// cell the points are always the Cartesian product of one value set per refined axis. A round
// scores each interval between neighbouring values of a refined axis in a cell:
//   threshold   the number of lines along the axis (the other refined coordinates fixed) whose
//               two ends lie on different sides of the threshold; a point with no value (failed,
//               or NaN) is a side of its own, so a flip to failure is a crossing too;
//   change      the largest |metric(hi) - metric(lo)| over those lines (relative: divided by the
//               larger magnitude); one end without a value and the other with one is the
//               largest change there is (infinity), two ends without values score 0.
// It subdivides, best score first, the intervals wider than the axis' min_step (threshold: every
// crossing; change: every interval scoring at least half the best), each into `splits` equal
// parts (fewer where that would go below min_step), adding the new values to the axis' value set
// of that cell, i.e. the whole hyperplane of the cell at each new value, so that the cell stays a
// product. Intervals whose new points would exceed max_points are skipped. A round that adds
// nothing ends the design.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace dcsweep::analysis {

enum class ChangeScale { absolute, relative };

struct RefineRule {
  std::vector<bool> refined;     ///< per axis: subdivided by rounds (else kept whole)
  std::vector<bool> integer;     ///< per axis: its values stay integers
  std::vector<double> min_step;  ///< per axis (refined ones): intervals this narrow are final
  std::optional<double> threshold;
  ChangeScale change = ChangeScale::absolute;
  std::uint64_t max_points = 0;  ///< points in all rounds together
  int splits = 2;                ///< parts an interval is cut into (2: bisection)
};

/// The points of an adaptive design, in the order they were added (their `sample` index).
struct AdaptivePoints {
  std::size_t axes = 0;
  std::vector<double> x;            ///< x[p * axes + a]: the value on a refined axis, the index on a kept one
  std::vector<std::int32_t> round;  ///< the round that added point p

  std::size_t size() const { return round.size(); }
  double at(std::size_t p, std::size_t a) const { return x[p * axes + a]; }
  std::int32_t rounds() const { return round.empty() ? 0 : round.back() + 1; }
};

/// Round 0: the Cartesian product of the axes, row-major (the last axis fastest), as a grid's.
/// `values[a]`: a refined axis' numbers; a kept axis' indices 0..n-1.
AdaptivePoints first_round(std::span<const std::vector<double>> values);

/// An interval between neighbouring values of refined axis `axis` in one cell.
struct Interval {
  std::vector<double> cell;  ///< the kept axes' indices, in axis order
  std::size_t axis = 0;
  double lo = 0, hi = 0;
  double score = 0;                     ///< as described above (0: nothing there)
  double metric_lo = 0, metric_hi = 0;  ///< on the line that scored it (threshold: the first crossing line)
  bool operator<(const Interval& o) const;
};

/// Every interval of the current points, scored; `metric[p]` per point (NaN: no value).
std::vector<Interval> score_intervals(const RefineRule& rule, const AdaptivePoints& points,
                                      std::span<const double> metric);

/// Whether the interval may still be subdivided (wider than min_step; an integer inside it).
bool refinable(const RefineRule& rule, const Interval& interval);

/// How many points each round added.
std::vector<std::size_t> points_per_round(const AdaptivePoints& points);

/// Appends the next round's points; returns how many (0: the design is finished).
std::size_t refine(const RefineRule& rule, AdaptivePoints& points, std::span<const double> metric);

}  // namespace dcsweep::analysis
