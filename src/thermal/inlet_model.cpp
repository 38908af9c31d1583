#include "dcsweep/thermal/inlet_model.hpp"

namespace dcsweep {

HeatDistribution::HeatDistribution(Matrix d) : cumulative_(std::move(d)) {
  for (Eigen::Index k = 1; k < cumulative_.cols(); ++k) cumulative_.col(k) += cumulative_.col(k - 1);
}

void HeatDistribution::add_columns(Eigen::Index b, Eigen::Index e, double dp, Eigen::VectorXd& rise) const {
  if (b == 0) {
    rise.noalias() += dp * cumulative_.col(e - 1);
  } else {
    rise.noalias() += dp * (cumulative_.col(e - 1) - cumulative_.col(b - 1));
  }
}

Matrix HeatDistribution::matrix() const {
  Matrix d = cumulative_;
  for (Eigen::Index k = d.cols() - 1; k > 0; --k) d.col(k) -= cumulative_.col(k - 1);
  return d;
}

InletRise::InletRise(std::shared_ptr<const HeatDistribution> d)
    : d_(std::move(d)), rise_(Eigen::VectorXd::Zero(d_->size())) {}

void InletRise::add(Eigen::Index b, Eigen::Index e, double dp) {
  if (b >= e || dp == 0) return;
  d_->add_columns(b, e, dp, rise_);
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
