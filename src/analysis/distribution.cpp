#include "dcsweep/analysis/distribution.hpp"

#include <boost/math/special_functions/erf.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace dcsweep::analysis {
namespace {

double normal_cdf(double x) { return 0.5 * boost::math::erfc(-x / std::sqrt(2.0)); }

double normal_quantile(double p) { return -std::sqrt(2.0) * boost::math::erfc_inv(2.0 * p); }

}  // namespace

double Distribution::quantile(double u) const {
  u = std::clamp(u, 0.0, 1.0);
  switch (kind) {
    case Kind::uniform:
      return u == 1.0 ? max : min + u * (max - min);
    case Kind::log_uniform:
      return u == 1.0 ? max : min * std::exp(u * std::log(max / min));
    case Kind::normal: {
      const double lo = normal_cdf((min - mean) / sd), hi = normal_cdf((max - mean) / sd);
      const double p = lo + u * (hi - lo);
      if (p <= 0.0 || u == 0.0) return min;
      if (p >= 1.0 || u == 1.0) return max;
      return std::clamp(mean + sd * normal_quantile(p), min, max);
    }
  }
  return min;
}

std::string Distribution::text() const {
  // (a stream, not "[" + s + ...: GCC 12 warns falsely on such concatenations)
  std::ostringstream s;
  if (kind == Kind::normal) {
    s << "normal(" << mean << ", " << sd << ") in";
  } else {
    s << kind_name(kind);
  }
  s << " [" << min << ", " << max << "]";
  return s.str();
}

std::string_view kind_name(Distribution::Kind kind) {
  switch (kind) {
    case Distribution::Kind::uniform: return "uniform";
    case Distribution::Kind::log_uniform: return "log_uniform";
    case Distribution::Kind::normal: return "normal";
  }
  return "uniform";
}

std::size_t level_of(double u, std::size_t levels) {
  const double x = std::floor(u * static_cast<double>(levels) + 1e-9);
  return std::min(levels - 1, static_cast<std::size_t>(std::max(x, 0.0)));
}

}  // namespace dcsweep::analysis
