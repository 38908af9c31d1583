#pragma once
// Sampling designs of sensitivity analysis, in the unit cube: a design is `rows` points of
// `factors` coordinates in (0, 1), which a sweep then maps onto each factor's distribution
// (distribution.hpp). Every design is a pure function of its sizes and a seed: the same on every
// rank, in every run.
//
//   latin_hypercube  n points; every factor's n strata [i/n, (i+1)/n) hold exactly one point each
//   saltelli         Saltelli's scheme for first-order and total indices (Saltelli et al. 2010):
//                    base matrices A and B (N x k) from one 2k-dimensional Sobol sequence
//                    (Boost.Random's `sobol` engine, Joe and Kuo's direction numbers), digitally
//                    shifted by the seed; then per base row j, in this order,
//                        A_j, AB_1j, ..., AB_kj, [BA_1j, ..., BA_kj,] B_j
//                    (AB_i: A with column i from B; BA_i, only for second order: B with column i
//                    from A). N (k + 2) rows, N (2k + 2) with second order; the layout SALib's
//                    `saltelli.sample` uses, so its `sobol.analyze` reads a sweep's metric as is.
//   morris           r trajectories of k + 1 points on the p-level grid {0, 1/(p-1), ..., 1}
//                    (Morris 1991): from a random base point each step moves one factor, in a
//                    random order, by delta = p / (2 (p - 1)), up or down at random.
#include <cstdint>
#include <span>
#include <vector>

namespace dcsweep::analysis {

/// Points of a design in the unit cube, row-major.
struct UnitDesign {
  std::size_t factors = 0;
  std::vector<double> u;  ///< u[row * factors + f]

  std::size_t rows() const { return factors == 0 ? 0 : u.size() / factors; }
  std::span<const double> row(std::size_t r) const { return {u.data() + r * factors, factors}; }
  double at(std::size_t r, std::size_t f) const { return u[r * factors + f]; }
};

/// The largest number of factors a Saltelli design takes (Boost's Sobol table has 3,667
/// dimensions; A and B use two each).
inline constexpr std::size_t kMaxSobolFactors = 1833;

UnitDesign latin_hypercube(std::size_t samples, std::size_t factors, std::uint64_t seed);

/// Rows of a Saltelli design with N base samples and k factors.
inline std::size_t saltelli_rows(std::size_t base_samples, std::size_t factors, bool second_order) {
  return base_samples * (second_order ? 2 * factors + 2 : factors + 2);
}
UnitDesign saltelli(std::size_t base_samples, std::size_t factors, bool second_order, std::uint64_t seed);

/// Where a row of a Saltelli design sits in its base row's block.
struct SaltelliLayout {
  std::size_t factors = 0;
  bool second_order = false;
  std::size_t block() const { return second_order ? 2 * factors + 2 : factors + 2; }
  std::size_t a(std::size_t j) const { return j * block(); }
  std::size_t ab(std::size_t j, std::size_t i) const { return j * block() + 1 + i; }
  std::size_t ba(std::size_t j, std::size_t i) const { return j * block() + 1 + factors + i; }
  std::size_t b(std::size_t j) const { return j * block() + block() - 1; }
};

inline std::size_t morris_rows(std::size_t trajectories, std::size_t factors) {
  return trajectories * (factors + 1);
}
/// delta = levels / (2 (levels - 1)): the step of a Morris design; `levels` even, >= 2.
double morris_delta(int levels);
UnitDesign morris(std::size_t trajectories, std::size_t factors, int levels, std::uint64_t seed);

}  // namespace dcsweep::analysis
