#include "dcsweep/sweep/inputs.hpp"

#include <hdf5.h>

#include <map>

#include "dcsweep/core/error.hpp"

namespace dcsweep {
namespace {

bool is_hdf5(const std::string& path) {
  const std::string file = path.substr(0, path.find(':'));
  return file.ends_with(".h5") || file.ends_with(".hdf5");
}

Matrix read_h5_matrix(const std::string& spec) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const std::size_t colon = spec.find(':');
  const std::string path = spec.substr(0, colon);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) throw InputError(path + ": cannot open as HDF5");
  std::string name = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (name.empty()) {
    for (const char* candidate : {"D", "A"}) {
      if (H5Lexists(file, candidate, H5P_DEFAULT) > 0) name = candidate;
    }
  }
  if (name.empty()) {
    H5Fclose(file);
    throw InputError(path + ": no dataset 'D' or 'A'; name one as " + path + ":/path/to/dataset");
  }
  const hid_t ds = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  if (ds < 0) {
    H5Fclose(file);
    throw InputError(path + ": no dataset '" + name + "'");
  }
  const hid_t space = H5Dget_space(ds);
  hsize_t dims[2] = {0, 0};
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank == 2) H5Sget_simple_extent_dims(space, dims, nullptr);
  H5Sclose(space);
  if (rank == 2 && (dims[0] > hsize_t(kMaxMatrixDimension) || dims[1] > hsize_t(kMaxMatrixDimension) || dims[0] * dims[1] > hsize_t(kMaxMatrixEntries))) {
    H5Dclose(ds);
    H5Fclose(file);
    throw InputError(path + ": dataset '" + name + "' is " + std::to_string(dims[0]) + " x " + std::to_string(dims[1]) +
                     ", larger than a room matrix can be (at most " + std::to_string(kMaxMatrixEntries) + " entries)");
  }
  // HDF5 is row-major: read into a row-major buffer, then into Eigen's column-major matrix.
  std::vector<double> values(dims[0] * dims[1]);
  const bool ok = rank == 2 && H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0;
  H5Dclose(ds);
  H5Fclose(file);
  if (rank != 2) throw InputError(path + ": dataset '" + name + "' is not 2-D");
  if (!ok) throw InputError(path + ": cannot read dataset '" + name + "' as numbers");
  Matrix m(static_cast<Eigen::Index>(dims[0]), static_cast<Eigen::Index>(dims[1]));
  for (hsize_t i = 0; i < dims[0]; ++i) {
    for (hsize_t j = 0; j < dims[1]; ++j) m(Eigen::Index(i), Eigen::Index(j)) = values[i * dims[1] + j];
  }
  return m;
}

}  // namespace

Matrix read_matrix_any(const std::string& path) {
  return is_hdf5(path) ? read_h5_matrix(path) : read_matrix_file(path);
}

HeatProvider caching_heat_provider() {
  auto cache = std::make_shared<std::map<std::string, HeatDistributionBuild>>();
  return [cache](const Platform& platform, const ParamSet& params) {
    auto& slot = (*cache)[heat_distribution_key(platform, params)];
    if (!slot.d && !slot.crac_node) slot = build_heat_distribution(platform, params, read_matrix_any);
    return slot;
  };
}

}  // namespace dcsweep
