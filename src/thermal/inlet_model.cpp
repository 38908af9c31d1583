#include "dcsweep/thermal/inlet_model.hpp"

#include <algorithm>
#include <limits>

namespace dcsweep {

HeatDistribution::HeatDistribution(Matrix d) : size_(d.rows()), cumulative_(std::move(d)) {
  for (Eigen::Index k = 1; k < cumulative_.cols(); ++k) cumulative_.col(k) += cumulative_.col(k - 1);
  if (size_ > kSinglePrecisionZones) {
    cumulative_f_ = cumulative_.cast<float>();
    cumulative_.resize(0, 0);
  }
}

namespace {

/// rise += sum of w_i c_i with Eigen's vectorized kernels (columns converted from float on the
/// fly), two columns per pass over rise; then one vectorized max.
template <class M>
double add_all(const M& cumulative, std::span<const Eigen::Index> columns, std::span<const double> weights,
               Eigen::VectorXd& rise) {
  for (std::size_t i = 0; i < columns.size(); i += 2) {
    if (i + 1 < columns.size()) {
      rise.noalias() += weights[i] * cumulative.col(columns[i]).template cast<double>() +
                        weights[i + 1] * cumulative.col(columns[i + 1]).template cast<double>();
    } else {
      rise.noalias() += weights[i] * cumulative.col(columns[i]).template cast<double>();
    }
  }
  return rise.size() ? rise.maxCoeff() : 0.0;
}

}  // namespace

double HeatDistribution::add_cumulative(std::span<const Eigen::Index> columns, std::span<const double> weights,
                                        Eigen::VectorXd& rise) const {
  if (cumulative_f_.size() > 0) return add_all(cumulative_f_, columns, weights, rise);
  return add_all(cumulative_, columns, weights, rise);
}

Matrix HeatDistribution::matrix() const {
  Matrix c = cumulative_f_.size() > 0 ? Matrix(cumulative_f_.cast<double>()) : cumulative_;
  for (Eigen::Index k = c.cols() - 1; k > 0; --k) c.col(k) -= c.col(k - 1);
  return c;
}

double HeatDistribution::entry(Eigen::Index i, Eigen::Index j) const {
  if (cumulative_f_.size() > 0) {
    return double(cumulative_f_(i, j)) - (j > 0 ? double(cumulative_f_(i, j - 1)) : 0.0);
  }
  return cumulative_(i, j) - (j > 0 ? cumulative_(i, j - 1) : 0.0);
}

void HeatDistribution::row(Eigen::Index i, double* out, std::size_t stride) const {
  double before = 0.0;  // C(i, j - 1), as entry() subtracts it
  for (Eigen::Index j = 0; j < size_; ++j) {
    const double c = cumulative_f_.size() > 0 ? double(cumulative_f_(i, j)) : cumulative_(i, j);
    out[std::size_t(j) * stride] = c - before;
    before = c;
  }
}

void HeatDistribution::column(Eigen::Index j, Eigen::VectorXd& out) const {
  if (cumulative_f_.size() > 0) {
    out = cumulative_f_.col(j).cast<double>();
    if (j > 0) out -= cumulative_f_.col(j - 1).cast<double>();
    return;
  }
  out = cumulative_.col(j);
  if (j > 0) out -= cumulative_.col(j - 1);
}

void HeatDistribution::add_column(Eigen::Index j, double weight, const Eigen::VectorXd& base, Eigen::VectorXd& out) const {
  out.resize(size_);
  if (cumulative_f_.size() > 0) {
    const float* c = cumulative_f_.col(j).data();
    if (j == 0) {
      for (Eigen::Index i = 0; i < size_; ++i) out[i] = base[i] + double(c[i]) * weight;
    } else {
      const float* before = cumulative_f_.col(j - 1).data();
      for (Eigen::Index i = 0; i < size_; ++i) out[i] = base[i] + (double(c[i]) - double(before[i])) * weight;
    }
    return;
  }
  const double* c = cumulative_.col(j).data();
  if (j == 0) {
    for (Eigen::Index i = 0; i < size_; ++i) out[i] = base[i] + c[i] * weight;
  } else {
    const double* before = cumulative_.col(j - 1).data();
    for (Eigen::Index i = 0; i < size_; ++i) out[i] = base[i] + (c[i] - before[i]) * weight;
  }
}

Eigen::VectorXd HeatDistribution::times(const Eigen::VectorXd& zone_power_w) const {
  Eigen::VectorXd rise = Eigen::VectorXd::Zero(size_);
  for (Eigen::Index j = 0; j < size_; ++j) add_column(j, zone_power_w(j), rise, rise);
  return rise;
}

void merge_cumulative_terms(std::span<const std::pair<Eigen::Index, double>> sorted, std::vector<Eigen::Index>& columns,
                            std::vector<double>& weights) {
  columns.clear();
  weights.clear();
  for (std::size_t i = 0; i < sorted.size();) {
    const Eigen::Index k = sorted[i].first;
    double weight = 0;
    for (; i < sorted.size() && sorted[i].first == k; ++i) weight += sorted[i].second;
    if (weight != 0) {
      columns.push_back(k);
      weights.push_back(weight);
    }
  }
}

InletRise::InletRise(std::shared_ptr<const HeatDistribution> d)
    : d_(std::move(d)), rise_(Eigen::VectorXd::Zero(d_->size())) {}

void InletRise::add(Eigen::Index b, Eigen::Index e, double dp) {
  if (b >= e || dp == 0) return;
  pending_.emplace_back(e - 1, dp);
  if (b > 0) pending_.emplace_back(b - 1, -dp);
}

void InletRise::apply() {
  if (pending_.empty()) return;
  std::sort(pending_.begin(), pending_.end());
  merge_cumulative_terms(pending_, columns_, weights_);
  pending_.clear();
  if (columns_.empty()) return;  // everything cancelled: the rises (and their max) are unchanged
  max_ = d_->add_cumulative(columns_, weights_, rise_);
}

const Eigen::VectorXd& InletRise::rise() {
  apply();
  return rise_;
}

double InletRise::max() {
  apply();
  return max_;
}

}  // namespace dcsweep
