#pragma once
// Checks over lists of 32-bit integers (node ids) that the engine makes for every job started
// and ended, as wide as the job: compared 8 at a time (AVX2, when the build has it), so that a
// 300-node job on intrepid costs a few dozen instructions instead of a branch per node.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dcsweep {

/// Whether values[i] <= values[i + 1] for every i (std::is_sorted).
bool ascending(std::span<const std::int32_t> values);

/// Whether values[k] == values[0] + k for every k < values.size() (consecutive, in order).
bool consecutive(std::span<const std::int32_t> values);

/// The values in order, space-separated, with each run of two or more consecutive ascending
/// values written "a-b", as batch systems write node lists: {0, 1, 2, 7, 5, 6} -> "0-2 7 5-6".
/// (Order is kept: a node list is in task order, task i on the i-th node.)
std::string runs_text(std::span<const std::int32_t> values);
/// The values of a runs_text; std::invalid_argument on anything else.
std::vector<std::int32_t> parse_runs_text(std::string_view text);

}  // namespace dcsweep
