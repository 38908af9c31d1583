#include "dcsweep/analysis/design.hpp"

#include <boost/random/sobol.hpp>

#include <cmath>
#include <numeric>
#include <stdexcept>

#include "dcsweep/core/rng.hpp"

namespace dcsweep::analysis {
namespace {

/// The top 53 bits of a 64-bit fraction, centred in their interval: in (0, 1), never 0 or 1, so
/// that log-uniform and normal factors never see an endpoint.
double open_unit(std::uint64_t bits) { return (static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53; }

/// A random order of 0..n-1 (Fisher-Yates).
std::vector<std::size_t> permutation(std::size_t n, RngStream& rng) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  for (std::size_t i = n; i-- > 1;) {
    std::swap(order[i], order[static_cast<std::size_t>(rng.integer(0, static_cast<std::int64_t>(i)))]);
  }
  return order;
}

}  // namespace

UnitDesign latin_hypercube(std::size_t samples, std::size_t factors, std::uint64_t seed) {
  UnitDesign d{factors, std::vector<double>(samples * factors)};
  const double width = 1.0 / static_cast<double>(samples);
  for (std::size_t f = 0; f < factors; ++f) {
    RngStream rng({seed, f, 0}, StreamPurpose::design);  // one stream per factor
    const std::vector<std::size_t> stratum = permutation(samples, rng);
    for (std::size_t r = 0; r < samples; ++r) {
      // Inside the stratum, never on its edges (open_unit's bits, scaled).
      d.u[r * factors + f] = (static_cast<double>(stratum[r]) + open_unit(rng.next_u64())) * width;
    }
  }
  return d;
}

UnitDesign saltelli(std::size_t base_samples, std::size_t factors, bool second_order, std::uint64_t seed) {
  if (factors == 0 || factors > kMaxSobolFactors) throw std::invalid_argument("saltelli: factor count out of range");
  const std::size_t dims = 2 * factors;
  // A digital shift (each coordinate's bits XOR a random mask) keeps every net property of the
  // sequence and makes the design depend on the seed.
  std::vector<std::uint64_t> shift(dims);
  RngStream rng({seed, 0, 0}, StreamPurpose::design);
  for (std::uint64_t& s : shift) s = rng.next_u64();
  // Boost's engine starts at the sequence's second point; the first is the origin. Taking it
  // keeps the first 2^m rows a (t, m, 2k)-net: every 1-D projection one point per 1/2^m.
  boost::random::sobol sequence(dims);
  std::vector<std::uint64_t> point(dims, 0);
  const SaltelliLayout at{factors, second_order};
  UnitDesign d{factors, std::vector<double>(saltelli_rows(base_samples, factors, second_order) * factors)};
  auto put = [&](std::size_t row, std::size_t f, std::uint64_t bits) { d.u[row * factors + f] = open_unit(bits); };
  for (std::size_t j = 0; j < base_samples; ++j) {
    if (j > 0) {
      for (std::uint64_t& x : point) x = sequence();
    }
    for (std::size_t f = 0; f < factors; ++f) {
      const std::uint64_t a = point[f] ^ shift[f], b = point[factors + f] ^ shift[factors + f];
      put(at.a(j), f, a);
      put(at.b(j), f, b);
      for (std::size_t i = 0; i < factors; ++i) {
        put(at.ab(j, i), f, i == f ? b : a);
        if (second_order) put(at.ba(j, i), f, i == f ? a : b);
      }
    }
  }
  return d;
}

double morris_delta(int levels) {
  if (levels < 2 || levels % 2 != 0) throw std::invalid_argument("morris: levels must be even and >= 2");
  return static_cast<double>(levels) / (2.0 * (levels - 1));
}

UnitDesign morris(std::size_t trajectories, std::size_t factors, int levels, std::uint64_t seed) {
  morris_delta(levels);  // checks the level count
  const std::int64_t half = levels / 2;  // delta in grid steps
  const double step = 1.0 / static_cast<double>(levels - 1);
  const std::size_t k = factors;
  UnitDesign d{k, std::vector<double>(morris_rows(trajectories, k) * k)};
  std::vector<std::int64_t> level(k);
  std::vector<bool> up(k);
  for (std::size_t t = 0; t < trajectories; ++t) {
    RngStream rng({seed, t, 0}, StreamPurpose::design);  // one stream per trajectory
    // Morris's B*: factor f starts at x* or x* + delta and moves to the other, so both stay on
    // the grid; x* is one of the levels/2 grid values in [0, 1 - delta]. Grid values are kept as
    // level numbers, so every coordinate is exactly level / (levels - 1).
    for (std::size_t f = 0; f < k; ++f) {
      const std::int64_t base = rng.integer(0, half - 1);
      up[f] = (rng.next_u64() >> 63) != 0;
      level[f] = up[f] ? base : base + half;
    }
    const std::vector<std::size_t> order = permutation(k, rng);
    const std::size_t first = t * (k + 1);
    for (std::size_t s = 0; s <= k; ++s) {
      if (s > 0) level[order[s - 1]] += up[order[s - 1]] ? half : -half;
      for (std::size_t f = 0; f < k; ++f) d.u[(first + s) * k + f] = static_cast<double>(level[f]) * step;
    }
  }
  return d;
}

}  // namespace dcsweep::analysis
