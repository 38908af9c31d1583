#include "dcsweep/sweep/result_file.hpp"

#include <hdf5.h>
#include <hdf5_hl.h>

#include <algorithm>
#include <cstring>
#include <cmath>
#include <stdexcept>

#include "dcsweep/core/text.hpp"
#include "mpi_messages.hpp"

namespace dcsweep {
namespace {

/// Owns an HDF5 identifier; closes it with the matching function.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Handle(Handle&& o) noexcept : id_(o.id_), closer_(o.closer_) { o.id_ = H5I_INVALID_HID; }
  Handle& operator=(Handle&& o) noexcept {
    std::swap(id_, o.id_);
    std::swap(closer_, o.closer_);
    return *this;
  }
  ~Handle() {
    if (id_ >= 0) closer_(id_);
  }
  operator hid_t() const { return id_; }  // NOLINT(google-explicit-constructor): reads like the C API

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

/// Turns HDF5 failures into exceptions that name the file and the step.
class Checker {
 public:
  explicit Checker(std::string path) : path_(std::move(path)) { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }
  hid_t operator()(hid_t id, const std::string& what) const {
    if (id < 0) throw std::runtime_error(path_ + ": HDF5 could not " + what);
    return id;
  }
  Handle handle(hid_t id, Handle::Closer closer, const std::string& what) const {
    return {(*this)(id, what), closer};
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

constexpr unsigned kOrder = H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED;
constexpr hsize_t kChunkElements = 1 << 16;

Handle string_type(const Checker& check, std::size_t size) {
  Handle type = check.handle(H5Tcopy(H5T_C_S1), H5Tclose, "copy a string type");
  check(H5Tset_size(type, size), "size a string type");
  check(H5Tset_strpad(type, H5T_STR_NULLTERM), "pad a string type");
  check(H5Tset_cset(type, H5T_CSET_UTF8), "set a string encoding");
  return type;
}

/// A text attribute as netCDF writes them (fixed-length, null-terminated).
void text_attribute(const Checker& check, hid_t object, const std::string& name, const std::string& value) {
  Handle type = string_type(check, std::max<std::size_t>(value.size(), 1));
  Handle space = check.handle(H5Screate(H5S_SCALAR), H5Sclose, "make a scalar space");
  Handle attr = check.handle(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                             "create attribute " + name);
  std::string padded = value;
  padded.resize(std::max<std::size_t>(value.size(), 1), '\0');
  check(H5Awrite(attr, type, padded.data()), "write attribute " + name);
}

template <class T>
void number_attribute(const Checker& check, hid_t object, const std::string& name, hid_t file_type, hid_t mem_type,
                      T value) {
  Handle space = check.handle(H5Screate(H5S_SCALAR), H5Sclose, "make a scalar space");
  Handle attr = check.handle(H5Acreate2(object, name.c_str(), file_type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                             "create attribute " + name);
  check(H5Awrite(attr, mem_type, &value), "write attribute " + name);
}

Handle group(const Checker& check, hid_t parent, const std::string& name) {
  Handle gcpl = check.handle(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, "make a group property list");
  check(H5Pset_link_creation_order(gcpl, kOrder), "track link order");
  check(H5Pset_attr_creation_order(gcpl, kOrder), "track attribute order");
  return check.handle(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT), H5Gclose,
                      "create group " + name);
}

/// Chunk shape of about kChunkElements: halve the largest extent until it fits.
std::vector<hsize_t> chunk_shape(std::vector<hsize_t> dims) {
  auto product = [&] {
    hsize_t n = 1;
    for (const hsize_t d : dims) n *= d;
    return n;
  };
  while (product() > kChunkElements) {
    auto largest = std::max_element(dims.begin(), dims.end());
    *largest = (*largest + 1) / 2;
  }
  return dims;
}

/// A dataset of `dims`, deflated in chunks when it has data, with a fill value.
template <class T>
Handle dataset(const Checker& check, hid_t parent, const std::string& name, hid_t type,
               const std::vector<hsize_t>& dims, const T* fill, hid_t fill_type) {
  Handle dcpl = check.handle(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "make a dataset property list");
  check(H5Pset_attr_creation_order(dcpl, kOrder), "track attribute order");
  hsize_t elements = 1;
  for (const hsize_t d : dims) elements *= d;
  if (elements > 0) {
    const std::vector<hsize_t> chunk = chunk_shape(dims);
    check(H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data()), "chunk " + name);
    check(H5Pset_shuffle(dcpl), "shuffle " + name);
    check(H5Pset_deflate(dcpl, 1), "deflate " + name);
  }
  if (fill != nullptr) check(H5Pset_fill_value(dcpl, fill_type, fill), "set the fill value of " + name);
  Handle space = check.handle(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose,
                              "make the space of " + name);
  return check.handle(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), H5Dclose,
                      "create dataset " + name);
}

/// Writes a whole 1-D dataset from rank 0 (coordinates, laid out serially).
void write_all(const Checker& check, hid_t ds, hid_t mem_type, const void* data, const std::string& name) {
  check(H5Dwrite(ds, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), "write " + name);
}

void describe(const Checker& check, hid_t ds, const std::string& unit, const std::string& help) {
  text_attribute(check, ds, "units", unit.empty() ? "1" : unit);
  if (!help.empty()) text_attribute(check, ds, "description", help);
}

/// A coordinate variable holding a parameter's values (dimension scale or auxiliary coordinate).
Handle coordinate(const Checker& check, hid_t file, const std::string& name, const ParamSpec& spec,
                  const std::vector<ParamValue>& values) {
  const std::vector<hsize_t> dims{values.size()};
  Handle ds;
  switch (spec.type) {
    case ParamType::real: {
      std::vector<double> v;
      for (const ParamValue& x : values) v.push_back(std::get<double>(x));
      ds = dataset<double>(check, file, name, H5T_IEEE_F64LE, dims, nullptr, H5T_NATIVE_DOUBLE);
      write_all(check, ds, H5T_NATIVE_DOUBLE, v.data(), name);
      break;
    }
    case ParamType::integer: {
      std::vector<std::int64_t> v;
      for (const ParamValue& x : values) v.push_back(std::get<std::int64_t>(x));
      ds = dataset<std::int64_t>(check, file, name, H5T_STD_I64LE, dims, nullptr, H5T_NATIVE_INT64);
      write_all(check, ds, H5T_NATIVE_INT64, v.data(), name);
      break;
    }
    case ParamType::boolean: {
      std::vector<std::int8_t> v;
      for (const ParamValue& x : values) v.push_back(std::get<bool>(x) ? 1 : 0);
      ds = dataset<std::int8_t>(check, file, name, H5T_STD_I8LE, dims, nullptr, H5T_NATIVE_INT8);
      write_all(check, ds, H5T_NATIVE_INT8, v.data(), name);
      break;
    }
    case ParamType::text:
    case ParamType::choice: {
      // Variable-length strings read as str in xarray; fine here because rank 0 writes them serially.
      Handle type = string_type(check, H5T_VARIABLE);
      std::vector<const char*> v;
      for (const ParamValue& x : values) v.push_back(std::get<std::string>(x).c_str());
      Handle dcpl = check.handle(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "make a dataset property list");
      check(H5Pset_attr_creation_order(dcpl, kOrder), "track attribute order");
      Handle space = check.handle(H5Screate_simple(1, dims.data(), nullptr), H5Sclose, "make the space of " + name);
      ds = check.handle(H5Dcreate2(file, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), H5Dclose,
                        "create dataset " + name);
      write_all(check, ds, type, v.data(), name);
      break;
    }
  }
  describe(check, ds, spec.unit, spec.help);
  return ds;
}

template <class T>
std::vector<T> iota_values(std::uint64_t n) {
  std::vector<T> v(n);
  for (std::uint64_t i = 0; i < n; ++i) v[i] = static_cast<T>(i);
  return v;
}

Handle index_scale(const Checker& check, hid_t parent, const std::string& name, std::uint64_t n,
                   const std::string& help) {
  Handle ds = dataset<std::int64_t>(check, parent, name, H5T_STD_I64LE, {n}, nullptr, H5T_NATIVE_INT64);
  const auto values = iota_values<std::int64_t>(n);
  write_all(check, ds, H5T_NATIVE_INT64, values.data(), name);
  check(H5DSset_scale(ds, name.c_str()), "make " + name + " a dimension scale");
  describe(check, ds, "", help);
  return ds;
}

void attach(const Checker& check, hid_t ds, const std::vector<hid_t>& scales) {
  for (std::size_t d = 0; d < scales.size(); ++d) {
    check(H5DSattach_scale(ds, scales[d], static_cast<unsigned>(d)), "attach a dimension scale");
  }
}

std::vector<hsize_t> grid_dims(const Grid& grid) { return {grid.shape().begin(), grid.shape().end()}; }

/// What a sampled design's `sample` dimension is, and in which order its rows come.
std::string sample_help(const Design& d) {
  switch (d.kind) {
    case DesignKind::lhs: return "sample of the Latin hypercube (one per stratum of every factor)";
    case DesignKind::sobol:
      return d.second_order ? "sample of the Saltelli design: per base row A, AB_1..AB_k, BA_1..BA_k, B"
                            : "sample of the Saltelli design: per base row A, AB_1..AB_k, B";
    case DesignKind::morris: return "sample of the Morris design: trajectories of k + 1 points, one factor moving per step";
    case DesignKind::adaptive: return "point of the adaptive design, in the order its rounds added them (coordinate round)";
    case DesignKind::grid: break;
  }
  return "sample";
}

/// A (sample x column) table of numbers, with the columns' names as a dimension scale of their own.
struct TableColumns {
  std::string scale, help;
  std::vector<ParamValue> names;
};
struct TableValues {
  std::string name, help;
  const std::vector<double>& values;  ///< row-major
};

void sample_table(const Checker& check, hid_t file, hid_t sample_scale, const TableColumns& columns,
                  const TableValues& table) {
  const ParamSpec spec{.name = columns.scale, .type = ParamType::text, .help = columns.help};
  Handle scale = coordinate(check, file, columns.scale, spec, columns.names);
  check(H5DSset_scale(scale, columns.scale.c_str()), "make " + columns.scale + " a dimension scale");
  const std::vector<hsize_t> dims{table.values.size() / std::max<std::size_t>(columns.names.size(), 1), columns.names.size()};
  Handle ds = dataset<double>(check, file, table.name, H5T_IEEE_F64LE, dims, nullptr, H5T_NATIVE_DOUBLE);
  if (!table.values.empty()) write_all(check, ds, H5T_NATIVE_DOUBLE, table.values.data(), table.name);
  describe(check, ds, "", table.help);
  attach(check, ds, {sample_scale, hid_t(scale)});
}

/// A sampled design's description: root attributes (kind, sizes, seed, factors), and its points in
/// the unit cube, `unit_coordinates` over (sample, factor), what SALib-style analyses read.
void describe_design(const Checker& check, hid_t file, hid_t sample_scale, const Design& d) {
  text_attribute(check, file, "design_kind", std::string(design_name(d.kind)));
  number_attribute(check, file, "design_samples", H5T_STD_U64LE, H5T_NATIVE_UINT64, std::uint64_t(d.rows()));
  if (d.kind == DesignKind::sobol) {
    number_attribute(check, file, "design_base_samples", H5T_STD_I64LE, H5T_NATIVE_INT64, d.base_samples);
    number_attribute(check, file, "design_second_order", H5T_STD_I8LE, H5T_NATIVE_INT8, std::int8_t(d.second_order));
  }
  if (d.kind == DesignKind::morris) {
    number_attribute(check, file, "design_trajectories", H5T_STD_I64LE, H5T_NATIVE_INT64, d.trajectories);
    number_attribute(check, file, "design_levels", H5T_STD_I64LE, H5T_NATIVE_INT64, d.levels);
  }
  number_attribute(check, file, "design_seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, d.seed);
  std::vector<ParamValue> names;
  for (const Factor& f : d.factors) names.push_back(f.name);
  sample_table(check, file, sample_scale, {"factor", "the design's factors", names},
               {"unit_coordinates", "the sample's point in the unit cube, before each factor's distribution", d.unit.u});
}

/// An adaptive design's description: root attributes (metric, rule, budget, rounds), the round of
/// each sample (a coordinate), and `adaptive_coordinates` over (sample, grid_axis): each point's
/// value on a refined axis, its index on a kept one (what `analyze` reads).
void describe_adaptive(const Checker& check, hid_t file, hid_t sample_scale, const Design& d) {
  const AdaptiveDesign& a = d.adaptive;
  text_attribute(check, file, "design_kind", std::string(design_name(d.kind)));
  number_attribute(check, file, "design_samples", H5T_STD_U64LE, H5T_NATIVE_UINT64, std::uint64_t(a.points.size()));
  number_attribute(check, file, "design_rounds", H5T_STD_I32LE, H5T_NATIVE_INT32, a.points.rounds());
  text_attribute(check, file, "design_refine_metric", a.metric);
  if (a.rule.threshold) number_attribute(check, file, "design_refine_threshold", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, *a.rule.threshold);
  number_attribute(check, file, "design_max_points", H5T_STD_U64LE, H5T_NATIVE_UINT64, a.rule.max_points);
  std::vector<ParamValue> names;
  for (const Axis& axis : a.axes) names.push_back(axis.name);
  sample_table(check, file, sample_scale, {"grid_axis", "the design's axes, as the spec gives them", names},
               {"adaptive_coordinates", "the sample's value on each refined axis, its index on each axis kept whole",
                a.points.x});
  Handle round = dataset<std::int32_t>(check, file, "round", H5T_STD_I32LE, {a.points.size()}, nullptr, H5T_NATIVE_INT32);
  if (!a.points.round.empty()) write_all(check, round, H5T_NATIVE_INT32, a.points.round.data(), "round");
  describe(check, round, "", "the round that added the sample (0: the axes' values)");
  attach(check, round, {sample_scale});
}

}  // namespace

void create_result_file(const std::string& path, const FileLayout& layout, const Provenance& provenance,
                        std::span<const std::uint64_t> series_lengths, std::span<const double> costs) {
  const Checker check(path);
  Handle fcpl = check.handle(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "make a file property list");
  check(H5Pset_link_creation_order(fcpl, kOrder), "track link order");
  check(H5Pset_attr_creation_order(fcpl, kOrder), "track attribute order");
  Handle file = check.handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl, H5P_DEFAULT), H5Fclose, "create the file");
  const SweepSpec& spec = layout.spec;
  const std::uint64_t n = layout.grid.size();

  // Provenance.
  text_attribute(check, file, "dcsweep_version", provenance.version);
  text_attribute(check, file, "git_commit", provenance.git_commit);
  text_attribute(check, file, "created", provenance.created);
  number_attribute(check, file, "ranks", H5T_STD_I32LE, H5T_NATIVE_INT32, std::int32_t(provenance.ranks));
  number_attribute(check, file, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, std::uint64_t(spec.seed));
  text_attribute(check, file, "name", spec.name);
  text_attribute(check, file, "spec_path", spec.path);
  text_attribute(check, file, "spec", spec.text);

  // Dimensions: one scale per axis (a zip group's is its position; its parameters are auxiliary
  // coordinates along it), then the replicate.
  std::vector<Handle> owned;
  std::vector<hid_t> scales;
  std::string auxiliary;
  for (const Axis& axis : spec.axes) {
    if (axis.params.size() == 1 && axis.params.front() == axis.name) {
      owned.push_back(coordinate(check, file, axis.name, layout.catalog.at(layout.catalog.index_of(axis.name)),
                                 axis.values.front()));
      check(H5DSset_scale(owned.back(), axis.name.c_str()), "make " + axis.name + " a dimension scale");
      scales.push_back(owned.back());
      continue;
    }
    const bool sampled = spec.design.sampled();  // (a sampled design's one axis, `sample`)
    owned.push_back(index_scale(check, file, axis.name, axis.size(),
                                spec.design.along_sample() ? sample_help(spec.design)
                                                           : "position along the zip group of " + join(axis.params)));
    const hid_t scale = owned.back();
    scales.push_back(scale);
    for (std::size_t k = 0; k < axis.params.size(); ++k) {
      const std::string& p = axis.params[k];
      Handle aux = coordinate(check, file, p, layout.catalog.at(layout.catalog.index_of(p)), axis.values[k]);
      if (sampled) text_attribute(check, aux, "distribution", spec.design.factors[k].text());
      attach(check, aux, {scale});
      auxiliary += (auxiliary.empty() ? "" : " ") + p;
    }
  }
  if (spec.design.sampled()) describe_design(check, file, scales.front(), spec.design);
  if (spec.design.kind == DesignKind::adaptive) {
    describe_adaptive(check, file, scales.front(), spec.design);
    auxiliary += " round";
  }
  owned.push_back(index_scale(check, file, "replicate", static_cast<std::uint64_t>(spec.replicates),
                              "replicate of the point (its own random streams)"));
  scales.push_back(owned.back());

  // Metrics: N-D over the axes and the replicate, NaN where a point has no value.
  const double nan = NAN;
  for (const MetricSpec& m : layout.results.metrics) {
    Handle ds = dataset(check, file, m.name, H5T_IEEE_F64LE, grid_dims(layout.grid), &nan, H5T_NATIVE_DOUBLE);
    attach(check, ds, scales);
    describe(check, ds, m.unit, m.help);
    number_attribute(check, ds, "_FillValue", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, nan);
    if (!auxiliary.empty()) text_attribute(check, ds, "coordinates", auxiliary);
  }

  // Per flat point bookkeeping.
  {
    Handle points = group(check, file, "points");
    Handle point = index_scale(check, points, "point", n, "flat point index (row-major over the axes, replicate last)");
    const std::int8_t pending = 0;
    const std::int32_t no_rank = -1;
    Handle status = dataset(check, points, "status", H5T_STD_I8LE, {n}, &pending, H5T_NATIVE_INT8);
    describe(check, status, "", "0 pending, 1 ok, 2 failed");
    Handle error = dataset<char>(check, points, "error", string_type(check, 1), {n, kErrorTextBytes}, nullptr, 0);
    describe(check, error, "", "failure message of the point, empty if ok");
    Handle wall = dataset(check, points, "wall_s", H5T_IEEE_F64LE, {n}, &nan, H5T_NATIVE_DOUBLE);
    describe(check, wall, "s", "wall-clock seconds the point took");
    number_attribute(check, wall, "_FillValue", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, nan);
    Handle rank = dataset(check, points, "rank", H5T_STD_I32LE, {n}, &no_rank, H5T_NATIVE_INT32);
    describe(check, rank, "", "MPI rank that computed the point (-1: not run)");
    Handle cost = dataset(check, points, "cost_estimate_s", H5T_IEEE_F64LE, {n}, &nan, H5T_NATIVE_DOUBLE);
    describe(check, cost, "s", "a-priori cost estimate that ordered the hand-out");
    write_all(check, cost, H5T_NATIVE_DOUBLE, costs.data(), "cost_estimate_s");
    // (error gets no scale: netCDF rejects a variable with scales on some dimensions only)
    for (const hid_t ds : {hid_t(status), hid_t(wall), hid_t(rank), hid_t(cost)}) {
      check(H5DSattach_scale(ds, point, 0), "attach the point scale");
    }
  }

  // Ragged series: point i's samples are values[offsets[i]:offsets[i+1]].
  Handle series = group(check, file, "series");
  for (std::size_t s = 0; s < layout.results.series.size(); ++s) {
    const SeriesSpec& spec_s = layout.results.series[s];
    Handle g = group(check, series, spec_s.name);
    const std::uint64_t total = s < series_lengths.size() ? series_lengths[s] : 0;
    Handle values = dataset(check, g, "values", H5T_IEEE_F64LE, {total}, &nan, H5T_NATIVE_DOUBLE);
    describe(check, values, spec_s.unit, spec_s.help);
    Handle times = dataset(check, g, "time_s", H5T_IEEE_F64LE, {total}, &nan, H5T_NATIVE_DOUBLE);
    describe(check, times, "s", "simulated time at which each value starts to hold");
    Handle offsets = dataset<std::uint64_t>(check, g, "offsets", H5T_STD_U64LE, {n + 1}, nullptr, H5T_NATIVE_UINT64);
    describe(check, offsets, "", "point i's samples are values[offsets[i]:offsets[i+1]]");
  }
}

namespace {

/// Writes rows [first, first + count) of a dataset's leading dimension, collectively; a rank
/// with no rows joins with an empty selection.
void write_rows(const Checker& check, hid_t file, hid_t dxpl, const std::string& name, hid_t mem_type,
                hsize_t first, hsize_t count, const void* data) {
  Handle ds = check.handle(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose, "open " + name);
  Handle space = check.handle(H5Dget_space(ds), H5Sclose, "get the space of " + name);
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 1)));
  check(H5Sget_simple_extent_dims(space, dims.data(), nullptr), "get the extent of " + name);
  std::vector<hsize_t> start(dims.size(), 0), counts = dims;
  start[0] = first;
  counts[0] = count;
  if (H5Sget_simple_extent_npoints(space) == 0) return;  // an empty dataset (every rank sees it so)
  Handle memory;
  static const char dummy = 0;
  if (count == 0) {
    const hsize_t one = 1;
    memory = check.handle(H5Screate_simple(1, &one, nullptr), H5Sclose, "make a memory space");
    check(H5Sselect_none(memory), "select nothing in memory");
    check(H5Sselect_none(space), "select nothing in " + name);
    data = &dummy;
  } else {
    memory = check.handle(H5Screate_simple(rank, counts.data(), nullptr), H5Sclose, "make a memory space");
    check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, counts.data(), nullptr),
          "select rows of " + name);
  }
  check(H5Dwrite(ds, mem_type, memory, space, dxpl, data), "write " + name + " collectively");
}

std::string error_text(const std::string& message) {
  if (message.size() < kErrorTextBytes) return message;
  return message.substr(0, kErrorTextBytes - 4) + "...";
}

}  // namespace

std::vector<WriteBlock> split_rows(const Grid& grid, int ranks) {
  const std::uint64_t rows = grid.shape().front(), inner = grid.size() / rows;
  std::vector<WriteBlock> blocks(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    const std::uint64_t lo = rows * std::uint64_t(r) / std::uint64_t(ranks);
    const std::uint64_t hi = rows * std::uint64_t(r + 1) / std::uint64_t(ranks);
    blocks[std::size_t(r)].begin = lo * inner;
    blocks[std::size_t(r)].end = hi * inner;
  }
  return blocks;
}

void write_result_block(const std::string& path, MPI_Comm comm, const FileLayout& layout, const WriteBlock& block,
                        std::span<const PointResult> results) {
  const Checker check(path);
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  Handle fapl = check.handle(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "make a file access list");
  check(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), "use MPI-IO");
  Handle file = check.handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, fapl), H5Fclose, "open the file with MPI-IO");
  Handle dxpl = check.handle(H5Pcreate(H5P_DATASET_XFER), H5Pclose, "make a transfer list");
  check(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), "ask for collective transfers");

  const std::uint64_t n = layout.grid.size(), count = block.end - block.begin;
  const std::uint64_t inner = n / layout.grid.shape().front();
  if (results.size() != count) throw std::logic_error("write_result_block: results do not match the block");

  // Metrics: whole rows of the leading dimension.
  std::vector<double> values(count);
  for (std::size_t m = 0; m < layout.results.metrics.size(); ++m) {
    for (std::uint64_t i = 0; i < count; ++i) values[i] = results[i].metrics[m];
    write_rows(check, file, dxpl, layout.results.metrics[m].name, H5T_NATIVE_DOUBLE, block.begin / inner,
               count / inner, values.data());
  }

  std::vector<std::int8_t> status(count);
  std::vector<std::int32_t> ranks(count);
  std::vector<char> errors(count * kErrorTextBytes, '\0');
  for (std::uint64_t i = 0; i < count; ++i) {
    const PointResult& r = results[i];
    status[i] = static_cast<std::int8_t>(r.status);
    values[i] = r.wall_s;
    ranks[i] = r.rank;
    const std::string text = error_text(r.error);
    std::copy(text.begin(), text.end(), errors.begin() + std::ptrdiff_t(i * kErrorTextBytes));
  }
  Handle char_type = string_type(check, 1);
  write_rows(check, file, dxpl, "points/status", H5T_NATIVE_INT8, block.begin, count, status.data());
  write_rows(check, file, dxpl, "points/wall_s", H5T_NATIVE_DOUBLE, block.begin, count, values.data());
  write_rows(check, file, dxpl, "points/rank", H5T_NATIVE_INT32, block.begin, count, ranks.data());
  write_rows(check, file, dxpl, "points/error", char_type, block.begin, count, errors.data());

  for (std::size_t s = 0; s < layout.results.series.size(); ++s) {
    const std::string group = "series/" + layout.results.series[s].name + "/";
    std::vector<std::uint64_t> offsets;
    std::vector<double> times, samples;
    std::uint64_t at = block.series_base.at(s);
    for (const PointResult& r : results) {
      offsets.push_back(at);
      const SeriesData& d = r.series.at(s);
      times.insert(times.end(), d.times_s.begin(), d.times_s.end());
      samples.insert(samples.end(), d.values.begin(), d.values.end());
      at += d.values.size();
    }
    if (rank == size - 1) offsets.push_back(at);  // the closing offset, n + 1-th entry
    write_rows(check, file, dxpl, group + "offsets", H5T_NATIVE_UINT64, block.begin, offsets.size(), offsets.data());
    write_rows(check, file, dxpl, group + "values", H5T_NATIVE_DOUBLE, block.series_base[s], samples.size(),
               samples.data());
    write_rows(check, file, dxpl, group + "time_s", H5T_NATIVE_DOUBLE, block.series_base[s], times.size(),
               times.data());
  }
  check(H5Fflush(file, H5F_SCOPE_GLOBAL), "flush the file");
}

namespace {

template <class T>
std::vector<T> read_vector(const Checker& check, hid_t file, const std::string& name, hid_t mem_type) {
  Handle ds = check.handle(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose, "open " + name);
  Handle space = check.handle(H5Dget_space(ds), H5Sclose, "get the space of " + name);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  std::vector<T> out(static_cast<std::size_t>(std::max<hssize_t>(n, 0)));
  if (!out.empty()) check(H5Dread(ds, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), "read " + name);
  return out;
}

}  // namespace

PointsTable read_points_table(const std::string& path) {
  const Checker check(path);
  Handle file = check.handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                             "open the file (is it a dcsweep result file?)");
  PointsTable table;
  Handle attr = check.handle(H5Aopen(file, "spec", H5P_DEFAULT), H5Aclose, "find the spec attribute");
  Handle type = check.handle(H5Aget_type(attr), H5Tclose, "read the spec attribute's type");
  if (H5Tis_variable_str(type) > 0) throw std::runtime_error(path + ": unexpected variable-length spec attribute");
  std::string text(H5Tget_size(type), '\0');
  check(H5Aread(attr, type, text.data()), "read the spec attribute");
  table.spec_text = text.substr(0, text.find('\0'));
  table.status = read_vector<std::int8_t>(check, file, "points/status", H5T_NATIVE_INT8);
  table.wall_s = read_vector<double>(check, file, "points/wall_s", H5T_NATIVE_DOUBLE);
  table.cost_estimate_s = read_vector<double>(check, file, "points/cost_estimate_s", H5T_NATIVE_DOUBLE);
  return table;
}

std::vector<PointResult> read_point_results(const std::string& path, const ResultLayout& layout) {
  const Checker check(path);
  Handle file = check.handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                             "open the file (is it a dcsweep result file?)");
  const auto status = read_vector<std::int8_t>(check, file, "points/status", H5T_NATIVE_INT8);
  const auto wall = read_vector<double>(check, file, "points/wall_s", H5T_NATIVE_DOUBLE);
  const auto rank = read_vector<std::int32_t>(check, file, "points/rank", H5T_NATIVE_INT32);
  Handle char_type = string_type(check, 1);
  const auto errors = read_vector<char>(check, file, "points/error", char_type);
  const std::size_t n = status.size();
  if (wall.size() != n || rank.size() != n || errors.size() != n * kErrorTextBytes) {
    throw std::runtime_error(path + ": its /points datasets do not match");
  }
  std::vector<PointResult> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const char* e = &errors[i * kErrorTextBytes];
    out[i] = {i, PointStatus(status[i]), std::string(e, strnlen(e, kErrorTextBytes)), wall[i], rank[i], {}, {}};
  }
  for (const MetricSpec& m : layout.metrics) {
    const bool present = H5Lexists(file, m.name.c_str(), H5P_DEFAULT) > 0;
    const std::vector<double> v = present ? read_vector<double>(check, file, m.name, H5T_NATIVE_DOUBLE)
                                          : std::vector<double>(n, NAN);
    if (v.size() != n) throw std::runtime_error(path + ": metric " + m.name + " does not match its points");
    for (std::size_t i = 0; i < n; ++i) out[i].metrics.push_back(v[i]);
  }
  for (const SeriesSpec& s : layout.series) {
    const std::string group = "series/" + s.name + "/";
    const auto offsets = read_vector<std::uint64_t>(check, file, group + "offsets", H5T_NATIVE_UINT64);
    const auto times = read_vector<double>(check, file, group + "time_s", H5T_NATIVE_DOUBLE);
    const auto values = read_vector<double>(check, file, group + "values", H5T_NATIVE_DOUBLE);
    if (offsets.size() != n + 1 || times.size() != values.size()) throw std::runtime_error(path + ": series " + s.name + " does not match its points");
    for (std::size_t i = 0; i < n; ++i) {
      const auto a = std::ptrdiff_t(offsets[i]), b = std::ptrdiff_t(offsets[i + 1]);
      out[i].series.push_back({{times.begin() + a, times.begin() + b}, {values.begin() + a, values.begin() + b}});
    }
  }
  return out;
}

std::vector<double> read_metric_values(const std::string& path, const std::string& name) {
  const Checker check(path);
  Handle file = check.handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                             "open the file (is it a dcsweep result file?)");
  return read_vector<double>(check, file, name, H5T_NATIVE_DOUBLE);
}

std::vector<MetricSpec> metrics_in_file(const std::string& path, const ResultLayout& layout) {
  const Checker check(path);
  Handle file = check.handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                             "open the file (is it a dcsweep result file?)");
  std::vector<MetricSpec> out;
  for (const MetricSpec& m : layout.metrics) {
    if (H5Lexists(file, m.name.c_str(), H5P_DEFAULT) > 0) out.push_back(m);
  }
  return out;
}

int write_results(const std::string& path, MPI_Comm comm, const FileLayout& layout, const Provenance& provenance,
                  std::span<const double> costs, std::span<const PointResult> all) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::vector<WriteBlock> blocks = split_rows(layout.grid, size);
  const std::size_t series_count = layout.results.series.size();
  WriteBlock mine = blocks[static_cast<std::size_t>(rank)];
  std::int32_t failures = 0;
  std::vector<PointResult> received;
  std::span<const PointResult> block;
  if (rank == 0) {
    for (const PointResult& r : all) failures += r.status == PointStatus::failed ? 1 : 0;
    // Where each block's samples start in every series, and the series' lengths.
    std::vector<std::uint64_t> totals(series_count, 0);
    std::vector<std::vector<std::uint64_t>> bases(blocks.size());
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      bases[b] = totals;
      for (std::uint64_t i = blocks[b].begin; i < blocks[b].end; ++i) {
        for (std::size_t s = 0; s < series_count; ++s) totals[s] += all[i].series[s].values.size();
      }
    }
    create_result_file(path, layout, provenance, totals, costs);
    mpi::SendQueue sends;  // every block in flight at once; the ranks receive them in any order
    for (int r = 1; r < size; ++r) {
      const WriteBlock& b = blocks[static_cast<std::size_t>(r)];
      std::string bytes;
      bytes.append(reinterpret_cast<const char*>(&failures), sizeof failures);
      bytes.append(reinterpret_cast<const char*>(bases[std::size_t(r)].data()), series_count * sizeof(std::uint64_t));
      for (std::uint64_t i = b.begin; i < b.end; ++i) encode(all[i], bytes);
      sends.post(std::move(bytes), r, mpi::kBlock, comm);
    }
    sends.wait_all();
    mine.series_base = bases[0];
    block = all.subspan(mine.begin, mine.end - mine.begin);
  } else {
    const std::string bytes = mpi::receive_bytes(0, mpi::kBlock, comm);
    std::string_view in = bytes;
    std::memcpy(&failures, in.data(), sizeof failures);
    in.remove_prefix(sizeof failures);
    mine.series_base.resize(series_count);
    std::memcpy(mine.series_base.data(), in.data(), series_count * sizeof(std::uint64_t));
    in.remove_prefix(series_count * sizeof(std::uint64_t));
    received = mpi::decode_results(in);
    block = received;
  }
  write_result_block(path, comm, layout, mine, block);
  return failures;
}

}  // namespace dcsweep
