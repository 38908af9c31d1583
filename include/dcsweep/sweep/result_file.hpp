#pragma once
// The sweep's HDF5 result file (INTERFACE.md "Result file"). Written in two steps, following the
// verified pattern for parallel HDF5 1.10 (../shared/spec/NOTES.md):
//   1. create_result_file: rank 0 alone lays out the whole file (axes as dimension scales,
//      variable-length string coordinates, metric arrays with units and NaN fill, /points,
//      /series, provenance), serially;
//   2. write_result_block: every rank reopens it with MPI-IO and writes its contiguous block of
//      flat points collectively (fixed-size types only; a rank with nothing selects none).
// The layout is what xarray's netCDF-4 engine reads as a labelled Dataset: tracked creation
// order, every dimension a scale, zip-group parameters as auxiliary coordinates.
#include <mpi.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dcsweep/sweep/grid.hpp"
#include "dcsweep/sweep/point.hpp"

namespace dcsweep {

/// Longest failure message stored per point, bytes (longer ones end in "...").
inline constexpr std::size_t kErrorTextBytes = 256;

struct Provenance {
  std::string version;
  std::string git_commit;
  std::string created;   ///< when the sweep first started
  int ranks = 1;         ///< ranks of the run that wrote the file
};

struct FileLayout {
  const SweepSpec& spec;
  const Grid& grid;
  const ParamCatalog& catalog;
  const ResultLayout& results;
};

/// Serial (rank 0 only). Truncates `path`. `series_lengths[s]`: total samples of series s over all
/// points (0 before the run); `costs`: the estimate of every flat point (stored for `dcsweep plan`).
void create_result_file(const std::string& path, const FileLayout& layout, const Provenance& provenance,
                        std::span<const std::uint64_t> series_lengths, std::span<const double> costs);

/// One rank's share of the final write: flat points [begin, end), which are whole rows of the
/// leading dimension, and where each series' samples of `begin` start.
struct WriteBlock {
  std::uint64_t begin = 0, end = 0;
  std::vector<std::uint64_t> series_base;
};

/// Collective over `comm`: every rank calls it with its block and the results of exactly that
/// block, in flat order.
void write_result_block(const std::string& path, MPI_Comm comm, const FileLayout& layout, const WriteBlock& block,
                        std::span<const PointResult> results);

/// The whole final write, collective over `comm`: rank 0 passes every result in flat order (the
/// others pass nothing), lays the file out with the series lengths, sends each rank its block of
/// rows, and every rank writes its block. Returns the number of failed points, on every rank.
int write_results(const std::string& path, MPI_Comm comm, const FileLayout& layout, const Provenance& provenance,
                  std::span<const double> costs, std::span<const PointResult> all);

/// The blocks of `ranks` ranks: the leading dimension's rows split as evenly as possible.
std::vector<WriteBlock> split_rows(const Grid& grid, int ranks);

/// Per-point bookkeeping read back from a result file (serially).
struct PointsTable {
  std::string spec_text;
  std::vector<std::int8_t> status;
  std::vector<double> wall_s;
  std::vector<double> cost_estimate_s;
};
PointsTable read_points_table(const std::string& path);

/// Every point's result as a complete file holds it (status, error, wall time, rank, the metrics
/// and series of `layout`), read serially: what `run --resume --retry-failed` keeps of a finished
/// sweep while it computes its failed points again. std::runtime_error naming the file on a file
/// that does not match the layout.
std::vector<PointResult> read_point_results(const std::string& path, const ResultLayout& layout);

/// The flat values of root dataset `name` (a metric), row-major over its dimensions, read
/// serially; std::runtime_error naming the file when there is no such float64 dataset.
std::vector<double> read_metric_values(const std::string& path, const std::string& name);
/// The root datasets of a result file that are metrics of `layout` (in its order), and their units.
std::vector<MetricSpec> metrics_in_file(const std::string& path, const ResultLayout& layout);

}  // namespace dcsweep
