#pragma once
// Inlet temperature rises T_in - T_sup = D P, kept up to date as zone powers change. D is stored
// as cumulative columns C[:, k] = sum of D's columns 0 .. k, so that a run of consecutive zones
// [b, e) whose power all change by the same dP costs O(zones), whatever the run's length:
// rise += dP (C[:, e-1] - C[:, b-1]). A job on consecutive nodes at node level is one such run.
// The changes of one moment are collected as weights on those boundary columns first: a job that
// ends where another starts shares its boundaries, and equal and opposite weights cancel, so
// each distinct boundary is read once.
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "dcsweep/thermal/matrix_io.hpp"

namespace dcsweep {

/// The immutable part, shared by every simulation of the same room (a sweep caches it).
/// Above kSinglePrecisionZones zones the cumulative columns are kept in single precision: each
/// update then reads half the memory (a node-level D of 4320 zones is 75 MB instead of 149 MB, and
/// updates are memory-bound), for an error below 1e-6 K per update; the rises stay in double.
class HeatDistribution {
 public:
  static constexpr Eigen::Index kSinglePrecisionZones = 2048;
  /// Takes D and turns it into cumulative columns in place (no second copy of a large D).
  explicit HeatDistribution(Matrix d);
  Eigen::Index size() const { return size_; }
  /// rise += sum of weights[i] x C[:, columns[i]], in one pass over rise; returns max(rise).
  double add_cumulative(std::span<const Eigen::Index> columns, std::span<const double> weights,
                        Eigen::VectorXd& rise) const;
  /// D itself, recovered (tests and `dcsweep thermal`).
  Matrix matrix() const;
  /// D(i, j) (K/W), from the cumulative columns: O(1).
  double entry(Eigen::Index i, Eigen::Index j) const;
  /// Column j of D (zone j's effect on every inlet) into `out`: O(zones).
  void column(Eigen::Index j, Eigen::VectorXd& out) const;
  /// out = base + weight x column j of D, in one pass (out may be base): the same values as
  /// base + column(j) * weight.
  void add_column(Eigen::Index j, double weight, const Eigen::VectorXd& base, Eigen::VectorXd& out) const;
  /// Row i of D (every zone's effect on inlet i) into out[0], out[stride], ...: O(zones), the
  /// same values as entry(i, j) (a strided read: D keeps its columns).
  void row(Eigen::Index i, double* out, std::size_t stride = 1) const;
  /// D P for zone powers P, a column at a time (no copy of D): O(zones^2).
  Eigen::VectorXd times(const Eigen::VectorXd& zone_power_w) const;

 private:
  Eigen::Index size_;
  Matrix cumulative_;            ///< column k = sum of D's columns 0 .. k (double precision)...
  Eigen::MatrixXf cumulative_f_;  ///< ...or single, for large rooms
};

/// The (cumulative column, weight) pairs `sorted` (ascending by column) summed per column into
/// `columns` and `weights`, those that cancel exactly dropped: what add_cumulative takes.
void merge_cumulative_terms(std::span<const std::pair<Eigen::Index, double>> sorted, std::vector<Eigen::Index>& columns,
                            std::vector<double>& weights);

class InletRise {
 public:
  explicit InletRise(std::shared_ptr<const HeatDistribution> d);

  /// Zones [b, e) each change power by dp watts (applied when the rises are next read).
  void add(Eigen::Index b, Eigen::Index e, double dp);
  /// The largest rise.
  double max();
  const Eigen::VectorXd& rise();

 private:
  void apply();

  std::shared_ptr<const HeatDistribution> d_;
  Eigen::VectorXd rise_;
  std::vector<std::pair<Eigen::Index, double>> pending_;  ///< (boundary column, weight)
  std::vector<Eigen::Index> columns_;                     ///< merged, for one pass
  std::vector<double> weights_;
  double max_ = 0;  ///< of rise_ (all zero at first)
};

}  // namespace dcsweep
