#include "estimates.hpp"

#include <algorithm>
#include <cmath>

namespace dcsweep::analysis {

double quantile(std::vector<double> values, double q) {
  std::erase_if(values, [](double v) { return !std::isfinite(v); });
  if (values.empty()) return NAN;
  std::sort(values.begin(), values.end());
  const double at = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (at - static_cast<double>(below)) * (values[above] - values[below]);
}

Estimate with_interval(double value, const std::vector<double>* draws, const Bootstrap& bootstrap) {
  Estimate e{value};
  if (draws == nullptr || !std::isfinite(value)) return e;
  const auto finite = std::count_if(draws->begin(), draws->end(), [](double v) { return std::isfinite(v); });
  if (2 * static_cast<std::size_t>(finite) < draws->size()) return e;
  const double tail = (1 - bootstrap.confidence) / 2;
  e.low = quantile(*draws, tail);
  e.high = quantile(*draws, 1 - tail);
  return e;
}

}  // namespace dcsweep::analysis
