#pragma once
// The result of one sweep point, as the engine moves it between ranks, journals it and writes it.
// evaluate_point never throws for a failure of the point itself: the message is recorded and the
// sweep goes on (INTERFACE.md, exit code 1 at the end).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/ratebased.hpp"
#include "dcsweep/core/report.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "dcsweep/sweep/grid.hpp"

namespace dcsweep {

enum class PointStatus : std::int8_t { pending = 0, ok = 1, failed = 2 };

struct SeriesData {
  std::vector<double> times_s;
  std::vector<double> values;
  bool operator==(const SeriesData&) const = default;
};

struct PointResult {
  std::uint64_t flat = 0;
  PointStatus status = PointStatus::pending;
  std::string error;             ///< empty when ok
  double wall_s = 0;             ///< this point's seconds (not its rank's trace read, room build: model = trace)
  std::int32_t rank = 0;         ///< the rank that computed it
  std::vector<double> metrics;   ///< in ResultLayout::metrics order; NaN when not reported
  std::vector<SeriesData> series;  ///< in ResultLayout::series order
};

/// What every point reports, fixed before the sweep starts.
struct ResultLayout {
  std::vector<MetricSpec> metrics;
  std::vector<SeriesSpec> series;

  /// The layout of the simulation as built (sim/run.hpp).
  static ResultLayout of_simulation();
  /// A grid's: the simulation's, or a model = ratebased grid's metrics (sim/ratebased.hpp) and no
  /// series. (A spec never mixes the two kinds: spec.cpp refuses it.)
  static ResultLayout of_grid(const Grid& grid);
  /// Every metric either kind can report (to read any result file).
  static ResultLayout every();
};

/// Simulates flat point `flat` of the grid (or solves its epoch, model = ratebased, reusing what
/// `rate` holds when given); a failure is returned as a failed result.
PointResult evaluate_point(const Grid& grid, std::uint64_t flat, const ResultLayout& layout,
                           const TraceLoader& loader, const HeatProvider& heat, std::int32_t rank,
                           RatebasedCache* rate = nullptr);

/// Binary encoding of results (ranks of one run share a byte order and a build).
void encode(const PointResult& result, std::string& out);
/// Decodes one result from the front of `in` and advances it; std::runtime_error if malformed.
PointResult decode(std::string_view& in);

}  // namespace dcsweep
