#pragma once
// A sweep specification (TOML, see INTERFACE.md): the base parameter values, the axes of the
// Cartesian grid (a parameter's list or range, or a zip group of parameters varying together),
// replicates and the seed. Parsed and fully checked against the parameter catalog before
// anything runs; every error names the file, the line and the key.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dcsweep/analysis/adaptive.hpp"
#include "dcsweep/analysis/design.hpp"
#include "dcsweep/analysis/distribution.hpp"
#include "dcsweep/core/params.hpp"

namespace dcsweep {

/// One dimension of the grid. A plain axis sets one parameter; a zip axis sets several, the
/// i-th value of each together.
struct Axis {
  std::string name;                              ///< the parameter, or the zip group's name
  std::vector<std::string> params;               ///< parameters it sets
  std::vector<std::vector<ParamValue>> values;   ///< values[k][i]: params[k] at position i
  int line = 0;                                  ///< where it is declared

  std::size_t size() const { return values.empty() ? 0 : values.front().size(); }
};

/// A factor of a sampling design ([axes] under a non-grid [design]): a numeric parameter drawn
/// from a distribution (`{ min, max }`, optionally `distribution = "log_uniform"` or `"normal"`
/// with `mean`, `sd`), or any parameter drawn from a list of levels, each equally likely.
struct Factor {
  std::string name;                       ///< the parameter
  bool discrete = false;
  analysis::Distribution distribution;    ///< when continuous
  std::vector<ParamValue> levels;         ///< when discrete
  int line = 0;

  /// The factor's value at unit coordinate u: the distribution's quantile (an integer parameter:
  /// equally likely integers when uniform, else the nearest integer), or the level of u.
  ParamValue value_at(double u, const ParamSpec& spec) const;
  /// "uniform [24, 32]", "2 levels [first_fit, random]".
  std::string text() const;
  bool operator==(const Factor&) const = default;
};

enum class DesignKind { grid, lhs, sobol, morris, adaptive };
std::string_view design_name(DesignKind kind);

/// [design] kind = "adaptive" (analysis/adaptive.hpp): a grid whose numeric axes rounds refine
/// where `metric` changes most or crosses `rule.threshold`.
struct AdaptiveDesign {
  std::string metric;                 ///< refine_metric
  int metric_line = 0;
  analysis::RefineRule rule;          ///< per grid axis
  std::vector<Axis> axes;             ///< the grid's axes as the spec gives them: the first round
  analysis::AdaptivePoints points;    ///< every point so far (the first round after parsing)
  /// As written, checked once the axes are known: min_step (one number, or per axis) and refine_axes.
  double min_step = 0;
  std::vector<std::pair<std::string, double>> min_steps;
  std::vector<std::string> refine_axes;
  int min_step_line = 0, refine_axes_line = 0, max_points_line = 0;
  bool has_min_step = false, has_max_points = false;
};

/// The [design] table: how the points are chosen. A grid (the default) is the Cartesian product of
/// the axes; the other kinds sample the factors (analysis/design.hpp) and lay the points out along
/// one `sample` dimension.
struct Design {
  DesignKind kind = DesignKind::grid;
  std::int64_t samples = 0;        ///< lhs: points
  std::int64_t base_samples = 0;   ///< sobol: N
  bool second_order = false;       ///< sobol: also the BA_i matrices
  std::int64_t trajectories = 0;   ///< morris: r
  std::int64_t levels = 4;         ///< morris: p
  std::uint64_t seed = 0;          ///< [design] seed, else the spec's [sweep] seed
  std::vector<Factor> factors;     ///< in [axes] order
  analysis::UnitDesign unit;       ///< the design's points in the unit cube (rows x factors)
  AdaptiveDesign adaptive;         ///< kind = adaptive
  int line = 0;

  /// A design that samples factors (lhs, sobol, morris).
  bool sampled() const { return kind != DesignKind::grid && kind != DesignKind::adaptive; }
  /// Whether the points lie along one `sample` dimension (every kind but grid).
  bool along_sample() const { return kind != DesignKind::grid; }
  /// Rows of the design for its kind and sizes (0 for a grid).
  std::uint64_t rows() const;
};

/// The name of the one dimension of a sampled design's points, before the replicate.
inline constexpr const char* kSampleAxis = "sample";
/// The most samples a sampled design may have (its values are held on every rank).
inline constexpr std::uint64_t kMaxDesignSamples = 10'000'000;

/// Limits checked when a spec is parsed: values along one axis, and points in the whole grid.
inline constexpr std::uint64_t kMaxAxisValues = 1'000'000;
inline constexpr std::uint64_t kMaxSweepPoints = 100'000'000;

struct SweepSpec {
  std::string path;
  std::string text;        ///< the spec file's full text (stored in result files)
  std::string name;
  std::uint64_t seed = 1;
  std::int64_t replicates = 1;
  /// Wall seconds a point may run before it is stopped and recorded as failed (0: no limit).
  /// Not part of what the sweep computes: a resume may change it (to give a slow point more time).
  double point_time_limit_s = 0;
  /// Where each point's job events are kept (DIR/point-NNNNNN.csv; "": not kept).
  std::string job_events_dir;
  std::vector<std::pair<std::string, ParamValue>> base;
  std::vector<Axis> axes;  ///< [axes] in file order, then [[zip]] groups in file order; for a
                           ///< sampled design one axis, `sample`, setting every factor together
  Design design;

  /// Grid points over the axes times replicates.
  std::uint64_t point_count() const;
};

/// Parses and checks a spec; InputError "PATH:LINE: [table] key: what is wrong".
SweepSpec parse_spec(std::string_view text, const std::string& path, const ParamCatalog& catalog);
SweepSpec read_spec(const std::string& path, const ParamCatalog& catalog);
/// The text of a spec file; InputError "PATH: cannot open the spec".
std::string read_spec_text(const std::string& path);

/// Adaptive designs: adds the next round's points, refined from `metric` (one value per sample
/// so far: the mean over its replicates, NaN without one), and lays them out along `sample`.
/// Returns how many were added (0: the design is finished).
std::size_t refine_design(SweepSpec& spec, std::span<const double> metric);
/// Adaptive designs: takes `points` (a later state of the same design) as the sweep's points.
void adopt_points(SweepSpec& spec, analysis::AdaptivePoints points);

/// What differs between two specs in what they compute (comments and layout do not count), one
/// readable line per difference; empty when they describe the same sweep.
std::vector<std::string> spec_differences(const SweepSpec& was, const SweepSpec& now);

}  // namespace dcsweep
