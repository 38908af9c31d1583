#pragma once
// Inlet temperature rises T_in - T_sup = D P, kept up to date as zone powers change. D is stored
// as cumulative columns C[:, k] = sum of D's columns before k, so that a run of consecutive zones
// [b, e) whose power all change by the same dP costs O(zones), whatever the run's length:
// rise += (C[:, e] - C[:, b]) dP. A job on consecutive nodes at node level is one such run.
#include <memory>

#include "dcsweep/thermal/matrix_io.hpp"

namespace dcsweep {

/// The immutable part, shared by every simulation of the same room (a sweep caches it).
class HeatDistribution {
 public:
  /// Takes D and turns it into cumulative columns in place (no second copy of a large D).
  explicit HeatDistribution(Matrix d);
  Eigen::Index size() const { return cumulative_.rows(); }
  /// rise += dp x (sum of D's columns b .. e-1).
  void add_columns(Eigen::Index b, Eigen::Index e, double dp, Eigen::VectorXd& rise) const;
  /// D itself, recovered (tests and `dcsweep thermal`).
  Matrix matrix() const;

 private:
  Matrix cumulative_;  ///< column k = sum of D's columns 0 .. k
};

class InletRise {
 public:
  explicit InletRise(std::shared_ptr<const HeatDistribution> d);

  /// Zones [b, e) each change power by dp watts.
  void add(Eigen::Index b, Eigen::Index e, double dp);
  /// The largest rise (cached between changes).
  double max() const;
  const Eigen::VectorXd& rise() const { return rise_; }

 private:
  std::shared_ptr<const HeatDistribution> d_;
  Eigen::VectorXd rise_;
  mutable double max_ = 0;
  mutable bool max_valid_ = true;
};

}  // namespace dcsweep
