// Morris elementary effects, grid main effects and rank correlations (indices.hpp).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "dcsweep/analysis/indices.hpp"
#include "dcsweep/core/rng.hpp"
#include "estimates.hpp"

namespace dcsweep::analysis {
namespace {

/// The factor a Morris step moves (the coordinate that changes most) and by how much.
std::pair<std::size_t, double> moved(std::span<const double> from, std::span<const double> to) {
  std::size_t f = 0;
  for (std::size_t i = 1; i < from.size(); ++i) {
    if (std::abs(to[i] - from[i]) > std::abs(to[f] - from[f])) f = i;
  }
  return {f, to[f] - from[f]};
}

double mean_abs(const std::vector<double>& ee, std::span<const std::size_t> trajectories) {
  double sum = 0, n = 0;
  for (const std::size_t t : trajectories) {
    if (std::isfinite(ee[t])) sum += std::abs(ee[t]), n += 1;
  }
  return n > 0 ? sum / n : NAN;
}

}  // namespace

MorrisEffects morris_effects(std::span<const double> y, const UnitDesign& design, const Bootstrap& bootstrap) {
  const std::size_t k = design.factors, rows = k + 1;
  if (k == 0 || y.size() != design.rows() || design.rows() % rows != 0) {
    throw std::invalid_argument("morris_effects: outputs do not match the design");
  }
  const std::size_t r = design.rows() / rows;
  // ee[f][t]: the elementary effect of factor f in trajectory t (NaN when a point is missing).
  std::vector<std::vector<double>> ee(k, std::vector<double>(r, NAN));
  for (std::size_t t = 0; t < r; ++t) {
    for (std::size_t s = 0; s < k; ++s) {
      const std::size_t row = t * rows + s;
      const auto [f, delta] = moved(design.row(row), design.row(row + 1));
      if (delta != 0 && std::isfinite(y[row]) && std::isfinite(y[row + 1])) ee[f][t] = (y[row + 1] - y[row]) / delta;
    }
  }
  MorrisEffects out;
  out.trajectories = r;
  std::vector<std::size_t> all(r);
  std::iota(all.begin(), all.end(), std::size_t{0});
  for (std::size_t f = 0; f < k; ++f) {
    std::vector<double> present;
    for (const double e : ee[f]) {
      if (std::isfinite(e)) present.push_back(e);
    }
    const double n = static_cast<double>(present.size());
    const double mu = present.empty() ? NAN : std::accumulate(present.begin(), present.end(), 0.0) / n;
    double squares = 0;
    for (const double e : present) squares += (e - mu) * (e - mu);
    out.effects.push_back(present.size());
    out.mu.push_back(mu);
    out.sigma.push_back(present.size() > 1 ? std::sqrt(squares / (n - 1)) : NAN);
    // mu*'s interval: trajectories resampled with replacement.
    std::vector<double> draws;
    std::vector<std::size_t> pick(r);
    for (std::size_t b = 0; b < bootstrap.resamples && r > 0; ++b) {
      RngStream rng({bootstrap.seed, bootstrap.stream, b}, StreamPurpose::bootstrap);
      for (std::size_t& p : pick) p = static_cast<std::size_t>(rng.integer(0, static_cast<std::int64_t>(r) - 1));
      draws.push_back(mean_abs(ee[f], pick));
    }
    out.mu_star.push_back(with_interval(mean_abs(ee[f], all), bootstrap.resamples > 0 ? &draws : nullptr, bootstrap));
  }
  return out;
}

MainEffects main_effects(std::span<const double> y, std::span<const std::uint64_t> shape) {
  const std::uint64_t size = std::accumulate(shape.begin(), shape.end(), std::uint64_t{1}, std::multiplies<>());
  if (y.size() != size) throw std::invalid_argument("main_effects: outputs do not match the shape");
  MainEffects out;
  double sum = 0, squares = 0, n = 0;
  for (const double v : y) {
    if (std::isfinite(v)) sum += v, n += 1;
  }
  out.values_used = static_cast<std::size_t>(n);
  out.share.assign(shape.size(), NAN);
  if (n < 2) return out;
  out.mean = sum / n;
  for (const double v : y) {
    if (std::isfinite(v)) squares += (v - out.mean) * (v - out.mean);
  }
  out.variance = squares / n;
  std::uint64_t stride = size;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    stride /= shape[d];
    std::vector<double> level_sum(shape[d], 0.0), level_count(shape[d], 0.0);
    for (std::uint64_t i = 0; i < size; ++i) {
      if (!std::isfinite(y[i])) continue;
      const std::uint64_t level = (i / stride) % shape[d];
      level_sum[level] += y[i];
      level_count[level] += 1;
    }
    double between = 0;
    for (std::uint64_t l = 0; l < shape[d]; ++l) {
      if (level_count[l] > 0) between += level_count[l] * std::pow(level_sum[l] / level_count[l] - out.mean, 2);
    }
    out.share[d] = out.variance > 0 ? between / n / out.variance : NAN;
  }
  return out;
}

namespace {

/// Ranks from 1, ties sharing their mean rank.
std::vector<double> ranks(const std::vector<double>& x) {
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  std::vector<double> rank(x.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && x[order[j + 1]] == x[order[i]]) ++j;
    const double mean_rank = (static_cast<double>(i + j) / 2.0) + 1.0;
    for (std::size_t m = i; m <= j; ++m) rank[order[m]] = mean_rank;
    i = j + 1;
  }
  return rank;
}

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
  const double n = static_cast<double>(a.size());
  const double ma = std::accumulate(a.begin(), a.end(), 0.0) / n, mb = std::accumulate(b.begin(), b.end(), 0.0) / n;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : NAN;
}

}  // namespace

std::vector<double> rank_correlations(std::span<const double> y, std::span<const std::vector<double>> factors) {
  for (const std::vector<double>& x : factors) {
    if (x.size() != y.size()) throw std::invalid_argument("rank_correlations: a factor does not match the outputs");
  }
  std::vector<double> present;
  std::vector<std::size_t> rows;
  for (std::size_t r = 0; r < y.size(); ++r) {
    if (std::isfinite(y[r])) present.push_back(y[r]), rows.push_back(r);
  }
  std::vector<double> out(factors.size(), NAN);
  if (rows.size() < 3) return out;
  const std::vector<double> y_rank = ranks(present);
  for (std::size_t f = 0; f < factors.size(); ++f) {
    std::vector<double> x;
    for (const std::size_t r : rows) x.push_back(factors[f][r]);
    out[f] = pearson(ranks(x), y_rank);
  }
  return out;
}

namespace {

/// Population variance of the finite values (NaN with fewer than two).
double variance_of(std::span<const double> v) {
  double sum = 0, n = 0;
  for (const double x : v) {
    if (std::isfinite(x)) sum += x, n += 1;
  }
  if (n < 2) return NAN;
  double squares = 0;
  for (const double x : v) {
    if (std::isfinite(x)) squares += (x - sum / n) * (x - sum / n);
  }
  return squares / n;
}

}  // namespace

double replicate_noise_share(std::span<const double> y, std::size_t replicates, bool of_means) {
  if (replicates < 2 || y.size() % replicates != 0) return NAN;
  double within = 0, rows_counted = 0;
  std::vector<double> means;
  for (std::size_t row = 0; row * replicates < y.size(); ++row) {
    const std::span<const double> r = y.subspan(row * replicates, replicates);
    double sum = 0, n = 0;
    for (const double x : r) {
      if (std::isfinite(x)) sum += x, n += 1;
    }
    means.push_back(n > 0 ? sum / n : NAN);
    if (n < 2) continue;
    within += variance_of(r) * n / (n - 1);  // the unbiased variance between this row's replicates
    rows_counted += 1;
  }
  if (rows_counted == 0) return NAN;
  within /= rows_counted;
  const double total = of_means ? variance_of(means) : variance_of(y);
  if (!(total > 0)) return NAN;
  return (of_means ? within / double(replicates) : within) / total;
}

}  // namespace dcsweep::analysis
