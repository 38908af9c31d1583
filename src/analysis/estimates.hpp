#pragma once
// Internal to the analysis library: percentile bootstrap intervals.
#include <vector>

#include "dcsweep/analysis/indices.hpp"

namespace dcsweep::analysis {

/// The q-quantile of `values` (NaN ignored; linear between order statistics); NaN if none.
double quantile(std::vector<double> values, double q);

/// `value` with the percentile interval of `draws` at bootstrap.confidence (no interval when
/// `draws` is null, or when fewer than half of the resamples gave a value).
Estimate with_interval(double value, const std::vector<double>* draws, const Bootstrap& bootstrap);

}  // namespace dcsweep::analysis
