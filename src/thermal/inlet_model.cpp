#include "dcsweep/thermal/inlet_model.hpp"

#include <algorithm>

namespace dcsweep {

HeatDistribution::HeatDistribution(Matrix d) : size_(d.rows()), cumulative_(std::move(d)) {
  for (Eigen::Index k = 1; k < cumulative_.cols(); ++k) cumulative_.col(k) += cumulative_.col(k - 1);
  if (size_ > kSinglePrecisionZones) {
    cumulative_f_ = cumulative_.cast<float>();
    cumulative_.resize(0, 0);
  }
}

void HeatDistribution::add_cumulative(Eigen::Index k, double weight, Eigen::VectorXd& rise) const {
  if (cumulative_f_.size() > 0) {
    rise.noalias() += weight * cumulative_f_.col(k).cast<double>();
  } else {
    rise.noalias() += weight * cumulative_.col(k);
  }
}

Matrix HeatDistribution::matrix() const {
  Matrix c = cumulative_f_.size() > 0 ? Matrix(cumulative_f_.cast<double>()) : cumulative_;
  for (Eigen::Index k = c.cols() - 1; k > 0; --k) c.col(k) -= c.col(k - 1);
  return c;
}

InletRise::InletRise(std::shared_ptr<const HeatDistribution> d)
    : d_(std::move(d)), rise_(Eigen::VectorXd::Zero(d_->size())) {}

void InletRise::add(Eigen::Index b, Eigen::Index e, double dp) {
  if (b >= e || dp == 0) return;
  pending_.emplace_back(e - 1, dp);
  if (b > 0) pending_.emplace_back(b - 1, -dp);
  max_valid_ = false;
}

void InletRise::apply() {
  if (pending_.empty()) return;
  std::sort(pending_.begin(), pending_.end());
  for (std::size_t i = 0; i < pending_.size();) {
    const Eigen::Index k = pending_[i].first;
    double weight = 0;
    for (; i < pending_.size() && pending_[i].first == k; ++i) weight += pending_[i].second;
    if (weight != 0) d_->add_cumulative(k, weight, rise_);
  }
  pending_.clear();
}

const Eigen::VectorXd& InletRise::rise() {
  apply();
  return rise_;
}

double InletRise::max() {
  if (!max_valid_) {
    apply();
    max_ = rise_.size() ? rise_.maxCoeff() : 0.0;
    max_valid_ = true;
  }
  return max_;
}

}  // namespace dcsweep
