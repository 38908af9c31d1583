#include "dcsweep/thermal/matrix_io.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {
namespace {

double number(std::string_view token, const std::string& where) {
  token = trim_blanks(token);
  double value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value)) {
    throw InputError(where + ": '" + std::string(token) + "' is not a finite number");
  }
  return value;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

Matrix parse_csv(std::string_view text, const std::string& name) {
  std::vector<std::vector<double>> rows;
  const auto lines = lines_of(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = trim_blanks(lines[i]);
    if (line.empty() || line.front() == '#') continue;
    const std::string where = name + ":" + std::to_string(i + 1);
    std::vector<double> row;
    std::size_t start = 0;
    while (start <= line.size()) {
      const std::size_t end = std::min(line.find(',', start), line.size());
      row.push_back(number(line.substr(start, end - start), where));
      start = end + 1;
    }
    if (!rows.empty() && row.size() != rows.front().size()) {
      throw InputError(where + ": " + std::to_string(row.size()) + " values, the first row has " +
                       std::to_string(rows.front().size()));
    }
    rows.push_back(std::move(row));
  }
  if (rows.empty()) throw InputError(name + ": no matrix rows");
  Matrix m(rows.size(), rows.front().size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t j = 0; j < rows[i].size(); ++j) m(Eigen::Index(i), Eigen::Index(j)) = rows[i][j];
  }
  return m;
}

Matrix parse_market(std::string_view text, const std::string& name) {
  const auto lines = lines_of(text);
  std::istringstream header{std::string(lines.front())};
  std::string banner, object, format, field, symmetry;
  header >> banner >> object >> format >> field >> symmetry;
  if (object != "matrix" || (format != "coordinate" && format != "array") ||
      (field != "real" && field != "integer" && field != "double") || (symmetry != "general" && symmetry != "symmetric")) {
    throw InputError(name + ":1: unsupported MatrixMarket header (need matrix coordinate|array real general|symmetric)");
  }
  std::size_t i = 1;
  while (i < lines.size() && (trim_blanks(lines[i]).empty() || trim_blanks(lines[i]).front() == '%')) ++i;
  if (i == lines.size()) throw InputError(name + ": no size line");
  std::istringstream size_line{std::string(lines[i])};
  long rows = 0, cols = 0, entries = 0;
  size_line >> rows >> cols;
  if (format == "coordinate") size_line >> entries;
  const std::string size_where = name + ":" + std::to_string(i + 1);
  if (!size_line || rows <= 0 || cols <= 0 || rows > kMaxMatrixDimension || cols > kMaxMatrixDimension || entries < 0) {
    throw InputError(size_where + ": bad size line");
  }
  if (symmetry == "symmetric" && rows != cols) {  // (its mirrored entries would fall outside)
    throw InputError(size_where + ": a symmetric matrix must be square, the size line says " + std::to_string(rows) +
                     " x " + std::to_string(cols));
  }
  // The matrix is held dense: refuse sizes no room of dcsweep uses before allocating them, and
  // counts the file itself cannot hold (a short file must not claim gigabytes).
  if (rows * cols > kMaxMatrixEntries) {
    throw InputError(size_where + ": " + std::to_string(rows) + " x " + std::to_string(cols) +
                     " is larger than a room matrix can be (at most " + std::to_string(kMaxMatrixEntries) + " entries)");
  }
  const long values_in_file = long(lines.size() - i - 1);
  const long values_needed = format == "array" ? rows * cols : entries;
  if (values_needed > values_in_file) {
    throw InputError(size_where + ": the size line promises " + std::to_string(values_needed) +
                     " values, the file has only " + std::to_string(values_in_file) + " lines after it");
  }
  Matrix m = Matrix::Zero(rows, cols);
  long seen = 0;
  for (++i; i < lines.size(); ++i) {
    const std::string_view line = trim_blanks(lines[i]);
    if (line.empty() || line.front() == '%') continue;
    const std::string where = name + ":" + std::to_string(i + 1);
    std::istringstream in{std::string(line)};
    std::string a, b, c;
    in >> a >> b >> c;
    if (format == "array") {
      if (seen >= rows * cols) throw InputError(where + ": more values than " + std::to_string(rows * cols));
      m(seen % rows, seen / rows) = number(a, where);  // column-major
      ++seen;
      continue;
    }
    const double r = number(a, where), s = number(b, where), v = number(c, where);
    if (r < 1 || r > double(rows) || s < 1 || s > double(cols) || r != std::floor(r) || s != std::floor(s)) {
      throw InputError(where + ": index (" + std::string(a) + ", " + std::string(b) + ") outside " +
                       std::to_string(rows) + " x " + std::to_string(cols));
    }
    m(Eigen::Index(r) - 1, Eigen::Index(s) - 1) = v;
    if (symmetry == "symmetric") m(Eigen::Index(s) - 1, Eigen::Index(r) - 1) = v;
    ++seen;
  }
  const long want = format == "array" ? rows * cols : entries;
  if (seen != want) throw InputError(name + ": " + std::to_string(seen) + " entries, the size line says " + std::to_string(want));
  return m;
}

}  // namespace

Matrix parse_matrix(std::string_view text, const std::string& name) {
  if (text.starts_with("%%MatrixMarket")) return parse_market(text, name);
  return parse_csv(text, name);
}

Matrix read_matrix_file(const std::string& path) {
  if (path.starts_with("builtin:")) {
    const std::string_view text = builtin_matrix_text(std::string_view(path).substr(8));
    if (text.empty()) throw InputError(path + ": no such builtin matrix");
    return parse_matrix(text, path);
  }
  return parse_matrix(read_text_file(path), path);
}

std::vector<double> read_vector_file(const std::string& path) {
  const std::string text = read_text_file(path);
  std::vector<double> out;
  const auto lines = lines_of(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = trim_blanks(lines[i]);
    if (line.empty() || line.front() == '#') continue;
    out.push_back(number(line, path + ":" + std::to_string(i + 1)));
  }
  return out;
}

}  // namespace dcsweep
