#pragma once
// Reading the matrices and vectors of the thermal model: CSV (N rows of N comma-separated values)
// and MatrixMarket (.mtx, coordinate or array, real/integer, general or symmetric), and the
// matrices compiled into dcsweep ("builtin:meng40_D.mtx"). HDF5 files are read by the sweep
// library, which passes a reader (the simulation itself knows nothing of HDF5).
#include <Eigen/Dense>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace dcsweep {

using Matrix = Eigen::MatrixXd;

/// The largest matrix any reader allocates: 2^27 doubles (1 GiB), above the largest thermal model
/// (8192 zones plus CRACs). Readers check a file's declared size against it before allocating.
inline constexpr long kMaxMatrixEntries = long(1) << 27;
/// The largest number of rows or columns any reader accepts.
inline constexpr long kMaxMatrixDimension = 200000;

/// Reads a matrix file by path (InputError naming the file, line and problem).
using MatrixReader = std::function<Matrix(const std::string& path)>;

/// Parses CSV or MatrixMarket text (MatrixMarket when it starts with "%%MatrixMarket").
Matrix parse_matrix(std::string_view text, const std::string& name);
/// Reads a .csv / .mtx file or a builtin matrix.
Matrix read_matrix_file(const std::string& path);
/// One number per line (blank lines and '#' comments skipped).
std::vector<double> read_vector_file(const std::string& path);

/// The text of a matrix compiled in (inputs/matrices/), by file name; empty when unknown.
std::string_view builtin_matrix_text(std::string_view name);

}  // namespace dcsweep
