#pragma once
// Checks over lists of 32-bit integers (node ids) that the engine makes for every job started
// and ended, as wide as the job: compared 8 at a time (AVX2, when the build has it), so that a
// 300-node job on intrepid costs a few dozen instructions instead of a branch per node.
#include <cstddef>
#include <cstdint>
#include <span>

namespace dcsweep {

/// Whether values[i] <= values[i + 1] for every i (std::is_sorted).
bool ascending(std::span<const std::int32_t> values);

/// Whether values[k] == values[0] + k for every k < values.size() (consecutive, in order).
bool consecutive(std::span<const std::int32_t> values);

}  // namespace dcsweep
