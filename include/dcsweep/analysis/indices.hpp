#pragma once
// Sensitivity estimators over the outputs of a design (design.hpp), independent of the simulator:
// y[row] is the output at the design's row, NaN where it is missing (a failed point, or a metric
// that does not apply there). Missing rows are excluded only where the estimator allows it, and
// every result says how many rows it used.
//
//   sobol_indices   first order S_i, Saltelli et al. 2010 (Table 2 (b)):
//                       V_i = mean_j f(B)_j (f(AB_i)_j - f(A)_j)
//                   total ST_i, Jansen 1999:
//                       VT_i = mean_j (f(A)_j - f(AB_i)_j)^2 / 2
//                   both over V = var(f(A), f(B)) (the A and B outputs together); second order
//                   (Saltelli 2002) S_il = mean_j (f(BA_i)_j f(AB_l)_j - f(A)_j f(B)_j) / V - S_i - S_l.
//                   Base row j counts for factor i when f(A)_j, f(B)_j and f(AB_i)_j exist.
//   morris_effects  elementary effects EE = (y(x + delta e_f) - y(x)) / delta along each step of
//                   each trajectory, in unit-cube units (the change of y per whole range of the
//                   factor): mu (mean EE), mu* (mean |EE|, Campolongo et al. 2007), sigma
//                   (standard deviation, n - 1). A step counts when both its points exist.
//   main_effects    on a full grid, the share of the output's variance explained by each axis
//                   alone: var over the axis' levels of the mean output at the level (weighted by
//                   the points present) over the variance of every present point.
//   rank_correlations  Spearman's rank correlation of each factor with the output (any design;
//                   what an LHS gives without a dedicated estimator).
//   replicate_noise_share  with replicates, the share of the analysed values' variance that the
//                   differences between replicates alone would give: the noise floor under which
//                   an index is indistinguishable from the random draws.
//
// Confidence intervals are percentile bootstrap intervals: base rows (Sobol) or trajectories
// (Morris) resampled with replacement, `resamples` times, from RNG streams keyed by (seed,
// stream, resample), so a result is reproducible.
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "dcsweep/analysis/design.hpp"

namespace dcsweep::analysis {

struct Estimate {
  double value = NAN;
  double low = NAN, high = NAN;  ///< the bootstrap interval; NaN without one
};

struct Bootstrap {
  std::size_t resamples = 1000;
  double confidence = 0.95;
  std::uint64_t seed = 1;
  std::uint64_t stream = 0;  ///< tells apart the analyses sharing a seed (one per metric)
};

struct SobolIndices {
  std::size_t base_rows = 0;               ///< N
  std::vector<std::size_t> rows_used;      ///< per factor: base rows with f(A), f(B), f(AB_i)
  std::size_t variance_values = 0;         ///< A and B outputs behind V
  double mean = NAN, variance = NAN;       ///< of the A and B outputs
  std::vector<Estimate> first, total;      ///< per factor
  std::vector<std::vector<Estimate>> second;  ///< [i][l] for i < l; empty without second order
};

/// `y` in the layout of saltelli() (N blocks of k + 2, or 2k + 2 rows).
SobolIndices sobol_indices(std::span<const double> y, std::size_t factors, bool second_order,
                           const Bootstrap& bootstrap);
/// Several outputs of one design at once, each as `y` above: the resamples are shared (the same
/// rows for every output), which makes the bootstrap of many metrics cost little more than one's.
std::vector<SobolIndices> sobol_indices(std::span<const std::vector<double>> outputs, std::size_t factors,
                                        bool second_order, const Bootstrap& bootstrap);

struct MorrisEffects {
  std::size_t trajectories = 0;
  std::vector<std::size_t> effects;  ///< per factor: elementary effects present
  std::vector<Estimate> mu_star;     ///< with its bootstrap interval
  std::vector<double> mu, sigma;
};

/// `design` the Morris design whose rows gave `y`.
MorrisEffects morris_effects(std::span<const double> y, const UnitDesign& design, const Bootstrap& bootstrap);

struct MainEffects {
  std::vector<double> share;       ///< per axis, in [0, 1]; NaN when fewer than 2 values exist
  std::size_t values_used = 0;
  double mean = NAN, variance = NAN;
};

/// `y` row-major over `shape` (the last dimension varies fastest).
MainEffects main_effects(std::span<const double> y, std::span<const std::uint64_t> shape);

/// `y`: rows x `replicates` values (replicate last). The mean over rows of the variance between a
/// row's replicates (n - 1; rows with two or more values), over the variance of what is analysed:
/// with `of_means` (sampled designs, whose indices use each row's replicate mean) that variance
/// divided by the replicates, over the variance of the row means; else over the variance of every
/// value. NaN with one replicate or no variation; may exceed 1 when the noise dominates.
double replicate_noise_share(std::span<const double> y, std::size_t replicates, bool of_means);

/// Per factor, over the rows where y exists (ties get their mean rank); NaN when y or the factor
/// does not vary. factors[f][row]: the factor's value, or its level's number for a discrete one.
std::vector<double> rank_correlations(std::span<const double> y, std::span<const std::vector<double>> factors);

}  // namespace dcsweep::analysis
