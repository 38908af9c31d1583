#include "dcsweep/thermal/inlet_model.hpp"

namespace dcsweep {

HeatDistribution::HeatDistribution(const Matrix& d) : cumulative_(d.rows(), d.cols() + 1) {
  cumulative_.col(0).setZero();
  for (Eigen::Index k = 0; k < d.cols(); ++k) cumulative_.col(k + 1) = cumulative_.col(k) + d.col(k);
}

Matrix HeatDistribution::matrix() const {
  Matrix d(size(), size());
  for (Eigen::Index k = 0; k < size(); ++k) d.col(k) = cumulative_.col(k + 1) - cumulative_.col(k);
  return d;
}

InletRise::InletRise(std::shared_ptr<const HeatDistribution> d)
    : d_(std::move(d)), rise_(Eigen::VectorXd::Zero(d_->size())) {}

void InletRise::add(Eigen::Index b, Eigen::Index e, double dp) {
  if (b >= e || dp == 0) return;
  rise_.noalias() += dp * d_->columns(b, e);
  max_valid_ = false;
}

double InletRise::max() const {
  if (!max_valid_) {
    max_ = rise_.size() ? rise_.maxCoeff() : 0.0;
    max_valid_ = true;
  }
  return max_;
}

}  // namespace dcsweep
